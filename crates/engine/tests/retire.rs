//! A stopped bot crashes on each of its later turns: the referee does it ([`Referee::retire`]),
//! in the seat's place among the seats of the turn, so that every driver applies the rule alike
//! and replays re-run to the same match.
//!
//! "Roll call": three seats answer simultaneously for four turns, `END` completing a turn; a
//! fault does not end the match (the seat is only marked out). Every heard line and fault is an
//! event of the frame, in the order the game learnt of it.

use engine::{
    FaultKind, Frame, Game, GameEntry, GameInfo, Heard, Outcome, Referee, Replay, Ruleset, Setup,
    SetupError, TurnOrder, Verdict,
};

static INFO: GameInfo = GameInfo {
    id: "roll-call",
    name: "Roll call",
    version: 1,
    min_seats: 3,
    max_seats: 3,
    turn_order: TurnOrder::Simultaneous,
    first_turn_ms: 1000,
    turn_ms: 50,
    rulesets: &[Ruleset {
        id: "plain",
        name: "Plain",
        summary: "the only one",
    }],
    default_ruleset: "plain",
};

struct RollCall {
    turn: u32,
    out: [bool; 3],
    events: Vec<String>,
    last: Vec<String>,
}

impl Game for RollCall {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }
    fn turn(&self) -> u32 {
        self.turn
    }
    fn to_move(&self) -> Vec<usize> {
        if self.turn >= 4 {
            vec![]
        } else {
            vec![0, 1, 2]
        }
    }
    fn input(&self, seat: usize) -> String {
        format!("turn {} seat {seat}\n", self.turn)
    }
    fn hear(&mut self, seat: usize, line: &str) -> Heard {
        self.events.push(format!("{seat} said {line}"));
        match line {
            "END" => Heard::Done,
            _ => Heard::More,
        }
    }
    fn fault(&mut self, seat: usize, kind: FaultKind) {
        self.out[seat] = true;
        self.events.push(format!("{seat} {kind}"));
    }
    fn step(&mut self) {
        self.turn += 1;
        self.last = std::mem::take(&mut self.events);
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.turn >= 4).then(|| {
            let scores = self.out.iter().map(|&o| if o { 0 } else { 1 }).collect();
            Outcome::from_scores(scores, "four turns")
        })
    }
    fn frame(&self) -> Frame {
        Frame {
            turn: self.turn,
            events: self.last.clone(),
            status: vec![String::new(); 3],
            out: self.out.to_vec(),
            text: String::new(),
            view: serde_json::Value::Null,
        }
    }
}

fn new_roll_call(setup: &Setup) -> Result<Box<dyn Game>, SetupError> {
    setup.check(&INFO)?;
    Ok(Box::new(RollCall {
        turn: 0,
        out: [false; 3],
        events: Vec::new(),
        last: Vec::new(),
    }))
}

static ENTRY: GameEntry = GameEntry {
    info: &INFO,
    new: new_roll_call,
};

fn referee() -> Referee {
    let setup = Setup::new(&INFO, 1);
    let game = (ENTRY.new)(&setup).expect("valid");
    Referee::new(game, setup, vec!["a".into(), "b".into(), "c".into()], false)
}

fn seats(asks: &[engine::Ask]) -> Vec<usize> {
    asks.iter().map(|a| a.seat).collect()
}

#[test]
fn a_retired_seat_is_not_asked_and_crashes_in_its_place() {
    let mut r = referee();
    assert_eq!(seats(&r.begin_turn()), [0, 1, 2]);
    r.line(0, "END", 1.0);
    r.timeout(1, 51.0);
    r.retire(1, "stopped: it timed out");
    assert!(r.is_retired(1));
    r.line(2, "END", 1.0);

    // Seat 1 is not asked, yet its turn is part of the match: it ends after seat 0's.
    assert_eq!(seats(&r.begin_turn()), [0, 2]);
    assert_eq!(r.waiting_for(), [0, 2]);
    assert!(r.turn_open());
    assert!(r.faults().len() == 1, "not before seat 0 has answered");
    assert_eq!(r.line(0, "END", 1.0), Verdict::Done);
    assert_eq!(r.faults().len(), 2);
    assert_eq!(r.waiting_for(), [2]);
    assert_eq!(r.line(2, "END", 1.0), Verdict::Done);
    assert!(!r.turn_open());
    assert_eq!(
        r.frames()[2].events,
        ["0 said END", "1 crash", "2 said END"],
        "the crash in seat 1's place"
    );
    let crash = &r.turns()[1].seats[1];
    assert_eq!(
        crash.input, "turn 1 seat 1\n",
        "the input is recorded as sent"
    );
    let fault = crash.fault.as_ref().expect("a crash");
    assert_eq!(fault.kind, FaultKind::Crash);
    assert_eq!(fault.text, "stopped: it timed out");
    assert_eq!(crash.time_ms, 0.0);
}

#[test]
fn a_turn_of_retired_seats_only_is_played_through() {
    let mut r = referee();
    r.begin_turn();
    for seat in 0..3 {
        r.crash(seat, "gone", 2.0);
        r.retire(seat, "stopped");
        r.retire(seat, "a second reason is not kept");
    }
    assert!(r.begin_turn().is_empty(), "nobody is left to ask");
    assert!(r.is_over());
    assert_eq!(r.turns().len(), 4);
    assert_eq!(r.faults().len(), 3 + 3 * 3);
    assert!(r.faults()[3..].iter().all(|f| f.text == "stopped"));
}

#[test]
fn retiring_a_seat_leaves_its_open_turn_alone() {
    let mut r = referee();
    r.begin_turn();
    r.retire(0, "stopped");
    assert_eq!(
        r.waiting_for(),
        [0, 1, 2],
        "its open turn is the driver's to end"
    );
    assert_eq!(r.line(0, "END", 1.0), Verdict::Done);
    assert!(r.faults().is_empty());
    r.retire(7, "no such seat: nothing happens");
}

#[test]
fn a_match_with_a_retired_seat_replays_to_the_same_frames_and_faults() {
    let mut r = referee();
    while !r.is_over() {
        for ask in r.begin_turn() {
            if ask.seat == 2 && r.turns().len() == 1 {
                r.line(2, "HELLO", 1.0);
                r.crash(2, "ended", 3.0);
                r.retire(2, "stopped");
            } else {
                r.line(ask.seat, "END", 1.0);
            }
        }
    }
    let replay = Replay::from_json(&r.replay().to_json()).expect("readable");
    let rerun = replay.rerun(&ENTRY).expect("re-runs");
    assert_eq!(rerun.frames(), r.frames());
    assert_eq!(rerun.faults(), r.faults());
    assert_eq!(rerun.outcome(), r.outcome());
    assert_eq!(r.faults().len(), 3);
}
