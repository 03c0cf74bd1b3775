//! The in-process driver (`bots::local`): what it tells a watcher, stopping early, and a stopped
//! bot's later turns (the referee's crashes, `Referee::retire`).

use bots::local::{self, Event, Flow};
use bots::Bot;
use engine::referee::STOPPED;
use engine::{FaultKind, Referee, Setup};

/// A bot that never answers: as a program waiting for input forever, it times out.
struct Silent;

impl Bot for Silent {
    fn read(&mut self, _input: &str) -> Vec<String> {
        Vec::new()
    }
}

fn skyport(seats: usize) -> Referee {
    let entry = games::entry("skyport").expect("registered");
    let mut setup = Setup::new(entry.info, 11);
    setup.seats = seats;
    setup.options.insert("rounds".into(), "3".into());
    let game = (entry.new)(&setup).expect("a valid setup");
    let names = (0..seats).map(|s| format!("bot{s}")).collect();
    Referee::new(game, setup, names, false)
}

fn gunner(seat: usize) -> Box<dyn Bot> {
    bots::builtin("skyport", "gunner", bots::bot_seed(11, seat)).expect("a built-in bot")
}

#[test]
fn a_stopped_bot_is_never_asked_again_and_its_turns_are_crashes() {
    let mut referee = skyport(3);
    let mut asked = Vec::new();
    let bots: Vec<Box<dyn Bot>> = vec![gunner(0), Box::new(Silent), gunner(2)];
    local::watch(&mut referee, bots, |_, event| {
        if let Event::Ask { seat, .. } = event {
            asked.push(seat);
        }
        Flow::Go
    });
    assert!(referee.is_over());
    assert_eq!(
        asked.iter().filter(|&&s| s == 1).count(),
        1,
        "seat 2 is asked once (the handshake), then stopped"
    );
    let faults: Vec<_> = referee.faults().iter().filter(|f| f.seat == 1).collect();
    assert_eq!(faults[0].kind, FaultKind::Timeout);
    assert!(faults.len() > 2, "its later turns are recorded: {faults:?}");
    for fault in &faults[1..] {
        assert_eq!(
            (fault.kind, fault.text.as_str()),
            (FaultKind::Crash, STOPPED)
        );
    }
    assert!(
        referee.faults().iter().all(|f| f.seat == 1),
        "the others play on"
    );
    // The crashes are in the replay and re-run to the same match.
    let entry = games::entry("skyport").expect("registered");
    let rerun = referee.replay().rerun(entry).expect("re-runs");
    assert_eq!(rerun.frames(), referee.frames());
    assert_eq!(rerun.faults(), referee.faults());
}

#[test]
fn a_watcher_sees_every_line_and_can_stop_the_match() {
    let mut referee = skyport(2);
    let mut turns = 0;
    let mut lines = 0;
    let mut replies = 0;
    local::watch(
        &mut referee,
        vec![gunner(0), gunner(1)],
        |referee, event| {
            match event {
                Event::Turn { turn } => {
                    assert_eq!(turn, referee.turns().len());
                    turns += 1;
                    if turns == 4 {
                        return Flow::Stop;
                    }
                }
                Event::Ask { turn, input, .. } => {
                    assert_eq!(turn, referee.turns().len());
                    assert!(!input.is_empty());
                }
                Event::Line { reply, .. } => {
                    lines += 1;
                    replies += usize::from(reply.is_some());
                }
                Event::Notice { .. } => {}
            }
            Flow::Go
        },
    );
    assert!(!referee.is_over(), "stopped early");
    assert_eq!(
        referee.turns().len(),
        3,
        "three turns, then the watcher stopped"
    );
    let recorded = |count: fn(&engine::SeatTurn) -> usize| -> usize {
        referee
            .turns()
            .iter()
            .flat_map(|t| &t.seats)
            .map(count)
            .sum()
    };
    assert_eq!(lines, recorded(|s| s.lines.len()), "every line was shown");
    let answered = recorded(|s| s.replies.len());
    assert_eq!(replies, answered, "with the game's replies");
}
