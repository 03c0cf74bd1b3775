//! Seats played by hand: the turns waiting for the person, and the actions of the human-turn
//! panel.

use crate::human::Desk;

/// A turn of a seat played by hand, waiting for the person.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanTurn {
    pub seat: usize,
    /// The input the seat received this turn.
    pub input: String,
    /// The turn being made (or why the input could not be read).
    pub desk: Result<Desk, String>,
    /// Where the selected cell was clicked, as a share of the board's width and height.
    pub selected_at: Option<(f64, f64)>,
}

impl super::AppState {
    /// A seat played by hand is asked: its turn is shown (and the board follows the match).
    pub(super) fn human_asked(
        &mut self,
        crate::runner::HumanAsk { seat, input }: crate::runner::HumanAsk,
    ) {
        if self.human_inputs.len() <= seat {
            self.human_inputs.resize(seat + 1, Vec::new());
        }
        self.human_inputs[seat].push(input.clone());
        let desk =
            crate::human::HandSeat::read(self.record.game, &self.human_inputs[seat]).map(Desk::new);
        self.human.push(HumanTurn {
            seat,
            input,
            desk,
            selected_at: None,
        });
        // The board shows the state the person decides on.
        self.cursor = super::Cursor {
            frame: self.last_frame(),
            follow: true,
            playing: false,
        };
    }

    /// The desk of the turn shown, if its input could be read.
    fn desk(&mut self) -> Option<&mut Desk> {
        match self.human.first_mut() {
            Some(HumanTurn { desk: Ok(desk), .. }) => Some(desk),
            _ => None,
        }
    }

    /// A click on the board's `cell`, at `at` (shares of the board's size).
    pub(super) fn human_click(&mut self, cell: (i32, i32), at: (f64, f64)) {
        if let Some(HumanTurn {
            desk: Ok(desk),
            selected_at,
            ..
        }) = self.human.first_mut()
        {
            let before = desk.selected;
            desk.click(cell);
            if desk.selected != before {
                *selected_at = desk.selected.map(|_| at);
            }
        }
    }

    pub(super) fn human_press(&mut self, key: &'static str) {
        if let Some(desk) = self.desk() {
            desk.press(key);
        }
    }

    pub(super) fn human_undo(&mut self) {
        if let Some(desk) = self.desk() {
            desk.undo();
        }
    }

    pub(super) fn human_clear(&mut self) {
        if let Some(HumanTurn {
            desk: Ok(desk),
            selected_at,
            ..
        }) = self.human.first_mut()
        {
            desk.clear();
            *selected_at = None;
        }
    }

    /// The turn shown was sent to the runner: the next one asked, if any, is shown.
    pub(super) fn human_sent(&mut self) {
        if !self.human.is_empty() {
            self.human.remove(0);
        }
    }
}
