//! A match's numbers per step, for charts (the page) and tables (`botplay replay --stats`): each
//! frame's [`Stat`]s, and each seat's thinking time against its budget, with its faults.

use crate::{FaultKind, Frame, GameInfo, Stat, TurnRecord};

/// One step of a match: the frame after it and what each seat did in the turn that led there.
#[derive(Clone, Debug, PartialEq)]
pub struct StepStats {
    /// The index of the frame (0: the start).
    pub frame: usize,
    /// The game's own turn counter after the step.
    pub turn: u32,
    /// The frame's key numbers.
    pub stats: Vec<Stat>,
    /// Per seat: out of the match after this step.
    pub out: Vec<bool>,
    /// Per seat: whether it was asked in the turn that led here, its time and budget.
    pub seats: Vec<Option<SeatTime>>,
}

/// A seat's thinking in one turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatTime {
    /// From the delivery of its input to its last line, in milliseconds.
    pub time_ms: f64,
    /// Its budget for that turn: the game's first-turn budget on its first turn.
    pub budget_ms: u32,
    /// The fault that ended its turn, if one did.
    pub fault: Option<FaultKind>,
}

/// Every step of a match from its frames and its turn records (frame `i + 1` follows turn
/// `i`), with the budgets of a match whose budgets were `relaxed` or not. Frames past the
/// records (none, in a finished match) are left out.
pub fn steps(
    info: &GameInfo,
    relaxed: bool,
    frames: &[Frame],
    turns: &[TurnRecord],
) -> Vec<StepStats> {
    let mut gathered = Gathered::default();
    for (i, frame) in frames.iter().enumerate().take(turns.len() + 1) {
        gathered.push(info, relaxed, frame, i.checked_sub(1).map(|t| &turns[t]));
    }
    gathered.steps
}

/// A match's steps gathered one by one as its frames and turns arrive (the page follows a live
/// match this way).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Gathered {
    pub steps: Vec<StepStats>,
    /// Per seat: it has been asked before (its next turn has the later budget).
    played: Vec<bool>,
}

impl Gathered {
    /// The next step: its frame, and the turn that led to it (none for the first frame).
    pub fn push(
        &mut self,
        info: &GameInfo,
        relaxed: bool,
        frame: &Frame,
        turn: Option<&TurnRecord>,
    ) {
        let seats = frame.out.len();
        self.played.resize(seats.max(self.played.len()), false);
        let mut times = vec![None; seats];
        for st in turn
            .iter()
            .flat_map(|t| &t.seats)
            .filter(|st| st.seat < seats)
        {
            let first = !std::mem::replace(&mut self.played[st.seat], true);
            times[st.seat] = Some(SeatTime {
                time_ms: st.time_ms,
                budget_ms: info.budget_ms(first, relaxed),
                fault: st.fault.as_ref().map(|f| f.kind),
            });
        }
        self.steps.push(StepStats {
            frame: self.steps.len(),
            turn: frame.turn,
            stats: frame.stats().into_owned(),
            out: frame.out.to_vec(),
            seats: times,
        });
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{Fault, Scene, SeatTurn, TurnOrder};

    const INFO: GameInfo = GameInfo {
        id: "test",
        name: "Test",
        version: 1,
        min_seats: 2,
        max_seats: 2,
        turn_order: TurnOrder::Simultaneous,
        first_turn_ms: 1000,
        turn_ms: 50,
        rulesets: &[],
        default_ruleset: "",
    };

    struct Gold(i64);

    impl Scene for Gold {
        fn events(&self) -> Vec<String> {
            Vec::new()
        }
        fn status(&self) -> Vec<String> {
            Vec::new()
        }
        fn text(&self) -> String {
            String::new()
        }
        fn view_json(&self) -> String {
            "null".into()
        }
        fn view(&self) -> Box<dyn std::any::Any> {
            Box::new(())
        }
        fn stats(&self) -> Vec<Stat> {
            vec![Stat::new("gold", [self.0, 2 * self.0])]
        }
    }

    fn seat_turn(seat: usize, time_ms: f64, fault: Option<FaultKind>) -> SeatTurn {
        let mut st = SeatTurn::new(seat, 0, String::new());
        st.time_ms = time_ms;
        st.fault = fault.map(|kind| Fault {
            seat,
            turn: 1,
            kind,
            text: String::new(),
        });
        st
    }

    #[test]
    fn each_step_has_its_frames_numbers_and_the_times_of_the_turn_before() {
        let frames: Vec<Frame> = (0..3)
            .map(|i| Frame::new(i, vec![false, i == 2], Arc::new(Gold(i64::from(i)))))
            .collect();
        let turns = vec![
            TurnRecord {
                seats: vec![seat_turn(0, 700.0, None), seat_turn(1, 12.5, None)],
            },
            TurnRecord {
                seats: vec![seat_turn(1, 51.0, Some(FaultKind::Timeout))],
            },
        ];
        let steps = steps(&INFO, false, &frames, &turns);
        assert_eq!(steps.len(), 3);
        assert_eq!(steps[0].seats, vec![None, None]);
        assert_eq!(steps[1].stats, vec![Stat::new("gold", [1, 2])]);
        assert_eq!(
            steps[1].seats[0],
            Some(SeatTime {
                time_ms: 700.0,
                budget_ms: 1000,
                fault: None
            })
        );
        assert_eq!(steps[2].seats[0], None, "seat 0 was not asked");
        assert_eq!(
            steps[2].seats[1],
            Some(SeatTime {
                time_ms: 51.0,
                budget_ms: 50,
                fault: Some(FaultKind::Timeout)
            }),
            "a later turn has the later budget"
        );
        assert_eq!(steps[2].out, vec![false, true]);
        let relaxed = super::steps(&INFO, true, &frames, &turns);
        assert_eq!(relaxed[1].seats[0].map(|t| t.budget_ms), Some(10_000));
        assert_eq!(relaxed[2].seats[1].map(|t| t.budget_ms), Some(500));
    }
}
