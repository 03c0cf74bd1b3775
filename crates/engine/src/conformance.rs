//! The conformance suite every game passes (feature `testing`).
//!
//! Use [`conformance_tests!`](crate::conformance_tests) in a game module's tests: it expands to
//! one named test per property. Seeds run from 0 to `CONFORMANCE_SEEDS` (default 12); every
//! assertion message names its seed.

use crate::game::{FaultKind, Game, Setup, SetupError};
use crate::referee::{Referee, Verdict};
use crate::replay::{Replay, SeatTurn};
use crate::rng::JavaRandom;
use crate::rules::Rules;
use crate::GameEntry;

/// How many seeds each property runs.
pub fn seed_count() -> i64 {
    std::env::var("CONFORMANCE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(12)
}

/// A guard against games that never end.
const MAX_REFEREE_TURNS: usize = 100_000;

/// Game options every setup of a run carries (`key`, `value`): empty for the game's defaults.
pub type Options<'a> = &'a [(&'a str, &'a str)];

/// Every setup to try: each ruleset, each seat count, each seed, with the given options.
fn setups<R: Rules>(options: Options) -> Vec<Setup> {
    let info = R::INFO;
    let mut out = Vec::new();
    for ruleset in info.rulesets {
        for seats in info.min_seats..=info.max_seats {
            for seed in 0..seed_count() {
                let mut s = Setup::new(info, seed * 7_919 - 3);
                s.ruleset = ruleset.id.to_string();
                s.seats = seats;
                for (key, value) in options {
                    s.options.insert(key.to_string(), value.to_string());
                }
                out.push(s);
            }
        }
    }
    out
}

/// Plays a match with random actions through the referee; `chaos` injects faults and garbage.
pub fn play_random<R: Rules>(setup: &Setup, bot_seed: i64, chaos: bool) -> Referee {
    let game = R::create(setup).unwrap_or_else(|e| panic!("setup {setup:?}: {e}"));
    let names = (0..setup.seats).map(|s| format!("random-{s}")).collect();
    let mut referee = Referee::new(Box::new(game.clone()), setup.clone(), names, false);
    // A typed twin of the referee's game, fed the same lines, to draw random actions from.
    let mut twin = game;
    let mut rng = JavaRandom::new(bot_seed);
    let mut turns = 0;
    while !referee.is_over() {
        turns += 1;
        assert!(
            turns < MAX_REFEREE_TURNS,
            "seed {}: the match did not end",
            setup.seed
        );
        let asks = referee.begin_turn();
        assert!(!asks.is_empty(), "seed {}: nobody to ask", setup.seed);
        for ask in asks {
            let seat = ask.seat;
            if chaos && rng.next_int_bounded(40) == 0 {
                let _ = referee.timeout(seat, f64::from(ask.budget_ms) + 1.0);
                twin.fault(seat, FaultKind::Timeout);
                continue;
            }
            let action = twin.random_action(seat, &mut rng);
            let mut lines = twin.write_action(seat, &action);
            if chaos && rng.next_int_bounded(30) == 0 {
                lines.insert(0, garbage_line(&mut rng, lines.first()));
            }
            let mut finished = false;
            for line in &lines {
                let verdict = referee.line(seat, line, 1.0);
                match &verdict {
                    Verdict::Fault(f) if f.kind != FaultKind::Malformed => twin.fault(seat, f.kind),
                    _ => {
                        let _ = twin.hear(seat, line);
                    }
                }
                match verdict {
                    Verdict::Reply(_) | Verdict::More => {}
                    Verdict::Done | Verdict::Fault(_) => {
                        finished = true;
                        break;
                    }
                    Verdict::NotAsked => panic!("seed {}: seat {seat} not asked", setup.seed),
                }
            }
            assert!(
                finished,
                "seed {}: seat {seat}'s random action {lines:?} did not complete its turn",
                setup.seed
            );
        }
        assert!(!referee.turn_open(), "seed {}: turn still open", setup.seed);
        twin.step();
    }
    referee
}

/// Feeds one recorded seat turn to a game, as the referee did.
fn apply_record(game: &mut impl Game, st: &SeatTurn) {
    for line in &st.lines {
        let _ = game.hear(st.seat, line);
    }
    if let Some(f) = &st.fault {
        if f.kind != FaultKind::Malformed {
            game.fault(st.seat, f.kind);
        }
    }
}

/// A line that is almost, or not at all, protocol text.
pub fn garbage_line(rng: &mut JavaRandom, near: Option<&String>) -> String {
    let base = near.cloned().unwrap_or_default();
    match rng.next_int_bounded(9) {
        0 => String::new(),
        1 => " \t ".to_string(),
        2 => base.to_lowercase(),
        3 => format!("{base}  9"),
        4 => format!("{base} 99999999999999999999"),
        5 => "x".repeat(70_000),
        6 => {
            let bytes: Vec<u8> = (0..rng.next_int_bounded(40))
                .map(|_| rng.next_int_bounded(256) as u8)
                .collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        7 => base.replace(' ', "  "),
        _ => {
            let mut chars: Vec<char> = base.chars().collect();
            if !chars.is_empty() {
                let i = rng.next_int_bounded(chars.len() as i32) as usize;
                chars[i] = char::from(b'!' + rng.next_int_bounded(90) as u8);
            }
            chars.into_iter().collect()
        }
    }
}

/// Every setup plays to its end with random actions, and the outcome and every frame are well
/// formed (a status line and the same key numbers for every seat).
pub fn random_playouts<R: Rules>(options: Options) {
    for setup in setups::<R>(options) {
        let referee = play_random::<R>(&setup, setup.seed ^ 0x5eed, false);
        let outcome = referee.outcome().expect("over");
        assert_eq!(outcome.scores.len(), setup.seats, "seed {}", setup.seed);
        assert_eq!(outcome.ranks.len(), setup.seats, "seed {}", setup.seed);
        assert!(
            outcome.ranks.iter().all(|&r| r >= 1 && r <= setup.seats),
            "seed {}",
            setup.seed
        );
        assert_eq!(referee.frames().len(), referee.turns().len() + 1);
        // Every frame has the game's key numbers, under the same names, one value per seat.
        let names = |f: &crate::Frame| -> Vec<String> {
            f.stats().iter().map(|s| s.name.to_string()).collect()
        };
        let first = names(&referee.frames()[0]);
        assert!(!first.is_empty(), "seed {}: no stats", setup.seed);
        for frame in referee.frames() {
            assert_eq!(frame.status().len(), setup.seats, "seed {}", setup.seed);
            assert_eq!(frame.out.len(), setup.seats, "seed {}", setup.seed);
            assert_eq!(names(frame), first, "seed {}", setup.seed);
            for stat in frame.stats().iter() {
                assert_eq!(stat.values.len(), setup.seats, "seed {}", setup.seed);
            }
        }
    }
}

/// Faults, garbage lines and timeouts never panic, and the match still ends. A seat that is
/// out of the match stays out.
pub fn faults_are_total<R: Rules>(options: Options) {
    for setup in setups::<R>(options) {
        let referee = play_random::<R>(&setup, setup.seed ^ 0xfa17, true);
        assert!(referee.outcome().is_some(), "seed {}", setup.seed);
        for pair in referee.frames().windows(2) {
            let (before, after) = (&pair[0].out, &pair[1].out);
            assert_eq!(before.len(), after.len(), "seed {}", setup.seed);
            for seat in 0..before.len() {
                assert!(
                    !before[seat] || after[seat],
                    "seed {}: seat {seat} came back after being out (turn {})",
                    setup.seed,
                    pair[1].turn
                );
            }
        }
    }
}

/// The same setup and the same bots give the same match, frame by frame.
pub fn determinism<R: Rules>(options: Options) {
    for setup in setups::<R>(options).into_iter().take(6) {
        let a = play_random::<R>(&setup, 99, true);
        let b = play_random::<R>(&setup, 99, true);
        assert_eq!(a.frames(), b.frames(), "seed {}", setup.seed);
        assert_eq!(
            a.replay().to_json(),
            b.replay().to_json(),
            "seed {}",
            setup.seed
        );
    }
}

/// A replay written, read back and re-run gives the same frames and outcome.
pub fn replay_roundtrip<R: Rules>(entry: &GameEntry, options: Options) {
    for setup in setups::<R>(options).into_iter().take(8) {
        let played = play_random::<R>(&setup, 7, true);
        let text = played.replay().to_json();
        let read = Replay::from_json(&text).unwrap_or_else(|e| panic!("seed {}: {e}", setup.seed));
        assert_eq!(read.to_json(), text, "seed {}", setup.seed);
        let rerun = read
            .rerun(entry)
            .unwrap_or_else(|e| panic!("seed {}: {e}", setup.seed));
        assert_eq!(rerun.frames(), played.frames(), "seed {}", setup.seed);
        assert_eq!(rerun.outcome(), played.outcome(), "seed {}", setup.seed);
        assert_eq!(rerun.faults(), played.faults(), "seed {}", setup.seed);
    }
}

/// Every random action survives writing and parsing back.
pub fn action_roundtrip<R: Rules>(options: Options) {
    for setup in setups::<R>(options).into_iter().take(6) {
        let referee = play_random::<R>(&setup, 3, false);
        let mut game = R::create(&setup).expect("valid");
        let mut rng = JavaRandom::new(setup.seed);
        for turn in referee.turns() {
            for st in &turn.seats {
                for _ in 0..4 {
                    let action = game.random_action(st.seat, &mut rng);
                    let lines = game.write_action(st.seat, &action);
                    assert_eq!(
                        game.parse_action(st.seat, &lines),
                        Ok(action),
                        "seed {}: {lines:?}",
                        setup.seed
                    );
                }
                apply_record(&mut game, st);
            }
            game.step();
        }
    }
}

/// The typed layer plays as the text layer: every turn of a match parsed ([`Rules::parse_action`])
/// and applied ([`Rules::apply`]) gives the same frames, inputs, faults and outcome as hearing
/// its lines. Every ruleset and seat count, a quarter of the seeds.
pub fn apply_matches_hear<R: Rules>(options: Options) {
    for setup in setups::<R>(options).into_iter().step_by(4) {
        let seed = setup.seed;
        let referee = play_random::<R>(&setup, seed ^ 0xa991, false);
        let mut heard = R::create(&setup).expect("valid");
        let mut typed = heard.clone();
        for (i, turn) in referee.turns().iter().enumerate() {
            for st in &turn.seats {
                let action = typed
                    .parse_action(st.seat, &st.lines)
                    .unwrap_or_else(|e| panic!("seed {seed}, turn {i}: {e}: {:?}", st.lines));
                apply_record(&mut heard, st);
                let applied = typed.apply(st.seat, &action);
                let malformed = st.fault.as_ref().map(|f| f.kind) == Some(FaultKind::Malformed);
                assert_eq!(
                    applied.is_err(),
                    malformed,
                    "seed {seed}, turn {i}: apply gave {applied:?}, hear {:?}",
                    st.fault
                );
                if let Some(f) = st.fault.as_ref().filter(|f| f.kind != FaultKind::Malformed) {
                    typed.fault(st.seat, f.kind);
                }
                assert_eq!(
                    typed.take_notices(),
                    heard.take_notices(),
                    "seed {seed}, turn {i}"
                );
            }
            heard.step();
            typed.step();
            assert_eq!(typed.frame(), heard.frame(), "seed {seed}, after turn {i}");
            assert_eq!(typed.to_move(), heard.to_move(), "seed {seed}, turn {i}");
            for seat in heard.to_move() {
                assert_eq!(
                    typed.input(seat),
                    heard.input(seat),
                    "seed {seed}, turn {i}"
                );
            }
            assert_eq!(
                typed.take_notices(),
                heard.take_notices(),
                "seed {seed}, turn {i}"
            );
        }
        assert_eq!(typed.outcome(), heard.outcome(), "seed {seed}");
        assert_eq!(typed.outcome(), referee.outcome(), "seed {seed}");
    }
}

/// Garbage lines never panic a game, in any state of a match.
pub fn garbage_never_panics<R: Rules>(options: Options) {
    for setup in setups::<R>(options).into_iter().take(4) {
        let referee = play_random::<R>(&setup, 5, false);
        let mut rng = JavaRandom::new(setup.seed);
        let replay = referee.replay();
        let mut game = R::create(&setup).expect("valid");
        for turn in &replay.turns {
            for seat in game.to_move() {
                for _ in 0..6 {
                    let mut probe = game.clone();
                    let action = probe.random_action(seat, &mut rng);
                    let lines = probe.write_action(seat, &action);
                    let line = garbage_line(&mut rng, lines.first());
                    let _ = probe.hear(seat, &line);
                    let _ = probe.parse_action(seat, std::slice::from_ref(&line));
                    probe.step();
                    // Every part of the frame, which is written only when read.
                    let frame = probe.frame();
                    let _ = (
                        frame.events(),
                        frame.status(),
                        frame.text(),
                        frame.view_json(),
                    );
                }
            }
            for st in &turn.seats {
                apply_record(&mut game, st);
            }
            game.step();
        }
    }
}

/// Inputs are complete lines of printable text, for every seat asked.
pub fn inputs_well_formed<R: Rules>(options: Options) {
    for setup in setups::<R>(options).into_iter().take(4) {
        let referee = play_random::<R>(&setup, 11, false);
        for turn in referee.turns() {
            for st in &turn.seats {
                assert!(
                    st.input.ends_with('\n'),
                    "seed {}: input must end with a newline: {:?}",
                    setup.seed,
                    st.input
                );
                assert!(
                    st.input.chars().all(|c| c == '\n' || !c.is_control()),
                    "seed {}: control characters in {:?}",
                    setup.seed,
                    st.input
                );
            }
        }
    }
}

/// Setups outside what the game allows are refused with an error, not a panic.
pub fn setup_errors<R: Rules>(options: Options) {
    let info = R::INFO;
    let mut good = Setup::new(info, 1);
    for (key, value) in options {
        good.options.insert(key.to_string(), value.to_string());
    }
    let mut bad = good.clone();
    bad.seats = info.max_seats + 1;
    assert!(matches!(
        R::create(&bad),
        Err(SetupError::BadSeatCount { .. })
    ));
    bad.seats = info.min_seats.saturating_sub(1);
    assert!(matches!(
        R::create(&bad),
        Err(SetupError::BadSeatCount { .. })
    ));
    let mut bad = good.clone();
    bad.ruleset = "no-such-ruleset".into();
    assert!(matches!(
        R::create(&bad),
        Err(SetupError::UnknownRuleset { .. })
    ));
    let mut bad = good.clone();
    bad.game = "no-such-game".into();
    assert!(R::create(&bad).is_err());
    let mut bad = good;
    bad.options.insert("no-such-option".into(), "1".into());
    assert!(R::create(&bad).is_err());
}

/// Expands to one test per conformance property for a game type and its registry entry, in a
/// module `conformance`. With a module name and options, `conformance_tests!(Game, ENTRY,
/// on_v1, [("map", "v1")])`, the same tests run with those game options in a module of that
/// name.
#[macro_export]
macro_rules! conformance_tests {
    ($game:ty, $entry:expr) => {
        $crate::conformance_tests!($game, $entry, conformance, []);
    };
    ($game:ty, $entry:expr, $module:ident, [$(($key:expr, $value:expr)),* $(,)?]) => {
        mod $module {
            use super::*;
            const OPTIONS: engine::conformance::Options = &[$(($key, $value)),*];
            #[test]
            fn random_playouts() {
                engine::conformance::random_playouts::<$game>(OPTIONS);
            }
            #[test]
            fn faults_are_total() {
                engine::conformance::faults_are_total::<$game>(OPTIONS);
            }
            #[test]
            fn determinism() {
                engine::conformance::determinism::<$game>(OPTIONS);
            }
            #[test]
            fn replay_roundtrip() {
                engine::conformance::replay_roundtrip::<$game>(&$entry, OPTIONS);
            }
            #[test]
            fn action_roundtrip() {
                engine::conformance::action_roundtrip::<$game>(OPTIONS);
            }
            #[test]
            fn apply_matches_hear() {
                engine::conformance::apply_matches_hear::<$game>(OPTIONS);
            }
            #[test]
            fn garbage_never_panics() {
                engine::conformance::garbage_never_panics::<$game>(OPTIONS);
            }
            #[test]
            fn inputs_well_formed() {
                engine::conformance::inputs_well_formed::<$game>(OPTIONS);
            }
            #[test]
            fn setup_errors() {
                engine::conformance::setup_errors::<$game>(OPTIONS);
            }
        }
    };
}
