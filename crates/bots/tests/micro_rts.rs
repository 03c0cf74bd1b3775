//! The microRTS built-in bots: input parsing on hand-written turns, well-formed output, and
//! matches against the real referee (`games::micro_rts`).

mod common;
#[path = "common/line_turns.rs"]
mod line_turns;
#[path = "common/one_line.rs"]
mod one_line;

use bots::micro_rts::board::Board;
use bots::micro_rts::protocol::{output_line, Order, Reader, CASTLE, ENEMY, ME, WORKER};
use bots::micro_rts::Rush;
use bots::Bot;
use engine::{Fault, Outcome};

// ---------------------------------------------------------------------------------------------
// Hand-written inputs
// ---------------------------------------------------------------------------------------------

/// A tiny first turn: the init block, then a 5 × 4 arena with border walls left and right, a
/// castle each, a gold mine and a forest.
const FIRST_TURN: &str = "\
5 4
0 10 3 0 0 5 5
1 4 2 0 0 0 5
2 1 1 1 1 1 0
3 4 1 2 2 1 1
4 8 1 4 1 2 1
5 1 3 1 1 1 1
12 10 0 10 0
0 0 -1 1 -1
0 1 -1 1 -1
0 2 -1 1 -1
0 3 -1 1 -1
1 1 0 0 10
1 2 -1 2 7
3 1 1 0 10
3 2 -1 3 7
4 0 -1 1 -1
4 1 -1 1 -1
4 2 -1 1 -1
4 3 -1 1 -1
";

/// A later turn (no init block): a worker of mine next to the mine, an enemy worker.
const LATER_TURN: &str = "\
14 9 2 10 0
0 0 -1 1 -1
0 1 -1 1 -1
0 2 -1 1 -1
0 3 -1 1 -1
1 1 0 0 10
1 2 -1 2 6
2 2 0 2 1
3 1 1 0 10
3 2 -1 3 7
3 3 1 2 1
4 0 -1 1 -1
4 1 -1 1 -1
4 2 -1 1 -1
4 3 -1 1 -1
";

#[test]
fn parses_the_first_turn_with_its_init_block() {
    let mut reader = Reader::new();
    let turn = reader
        .feed(FIRST_TURN)
        .expect("a whole turn")
        .expect("valid");
    let init = reader.init();
    assert_eq!((init.width, init.height), (5, 4));
    assert_eq!(init.types[3].step, 2);
    assert_eq!(init.types[4].gold, 2);
    assert_eq!((turn.gold, turn.wood, turn.enemy_gold), (10, 0, 10));
    assert_eq!(turn.entities.len(), 12);
    assert_eq!(turn.entities[4].owner, ME);
    assert_eq!(turn.entities[4].kind, CASTLE);
    assert_eq!(turn.entities[6].owner, ENEMY);
}

#[test]
fn waits_for_a_turn_that_arrives_line_by_line() {
    let mut reader = Reader::new();
    let last = line_turns::feed_line_by_line(FIRST_TURN, "\r\n", |line| reader.feed(line));
    assert!(last.is_ok(), "{last:?}");
    let turn = reader.feed(LATER_TURN).expect("whole").expect("valid");
    assert_eq!(turn.entities.len(), 14);
    assert_eq!(reader.init().width, 5, "the init block is kept");
}

#[test]
fn a_first_turn_without_init_block_is_understood() {
    let mut reader = Reader::new();
    let turn = reader.feed(LATER_TURN).expect("whole").expect("valid");
    let board = Board::new(&reader.init(), &turn);
    assert_eq!(
        (board.width, board.height),
        (5, 4),
        "the size from the walls"
    );
    assert_eq!(board.stats(WORKER).reach, 1, "the statement's types");
}

#[test]
fn unreadable_input_is_an_error_not_a_hang() {
    let broken = FIRST_TURN.replace("1 2 -1 2 7", "1 2 -1 2");
    let mut reader = Reader::new();
    assert!(matches!(reader.feed(&broken), Some(Err(_))));
    for mut bot in one_line::every_builtin("micro-rts", 1) {
        assert_eq!(bot.read(&broken), vec!["WAIT".to_string()]);
    }
}

#[test]
fn orders_are_written_in_the_protocol_form() {
    let orders = [
        Order::Train {
            from: (1, 1),
            to: (2, 1),
            kind: WORKER,
        },
        Order::Move {
            from: (2, 2),
            to: (2, 3),
        },
        Order::Harvest {
            from: (2, 2),
            to: (1, 2),
        },
    ];
    assert_eq!(
        output_line(&orders),
        "TRAIN 1 1 2 1 WORKER;MOVE 2 2 2 3;HARVEST 2 2 1 2"
    );
    assert_eq!(output_line(&[]), "WAIT");
}

/// The referee's grammar (the `micro_rts` rulebook, *Protocol*): pieces split on `;`, none empty; each `WAIT` or an order
/// with four integers (and a type name for BUILD and TRAIN), words separated by one space.
fn well_formed(line: &str) -> bool {
    let int = |w: &str| w.parse::<i32>().is_ok();
    !line.is_empty()
        && line.split(';').all(|piece| {
            let words: Vec<&str> = piece.split(' ').collect();
            match words.as_slice() {
                ["WAIT"] => true,
                ["MOVE" | "ATTACK" | "HARVEST", rest @ ..] => {
                    rest.len() == 4 && rest.iter().all(|w| int(w))
                }
                ["BUILD", a, b, c, d, "CASTLE" | "BARRACKS"]
                | ["TRAIN", a, b, c, d, "WORKER" | "LIGHT" | "HEAVY" | "RANGED"] => {
                    [a, b, c, d].iter().all(|w| int(w))
                }
                _ => false,
            }
        })
}

#[test]
fn every_bot_answers_one_well_formed_line_per_turn() {
    one_line::assert_one_well_formed_line_per_turn(
        "micro-rts",
        &[FIRST_TURN, LATER_TURN],
        well_formed,
    );
}

#[test]
fn the_rush_harvests_trains_and_defends_on_the_hand_written_turns() {
    let mut bot = Rush::new(0);
    let first = bot.read(FIRST_TURN).remove(0);
    // The castle trains a worker onto a free tile next to a resource.
    assert!(first.starts_with("TRAIN 1 1 "), "{first}");
    let later = bot.read(LATER_TURN).remove(0);
    // My worker at (2,2) has an enemy worker at (3,3) in reach: it attacks it.
    assert!(later.split(';').any(|p| p == "ATTACK 2 2 3 3"), "{later}");
}

// ---------------------------------------------------------------------------------------------
// Matches against the real referee
// ---------------------------------------------------------------------------------------------

fn play(seed: i64, bots: Vec<Box<dyn Bot>>) -> (Outcome, Vec<Fault>) {
    common::result(&common::play_out(common::setup("micro-rts", seed), bots))
}

/// Plays the bot `hero` against `villain` with seats alternated by seed; returns the hero's
/// tally and panics on any fault.
fn series(seeds: std::ops::Range<i64>, bots: (&str, &str)) -> common::Tally {
    common::series("micro-rts", seeds, "", bots, play)
}

/// A built-in microRTS bot by name, seeded.
fn bot(name: &str, seed: i64) -> Box<dyn Bot> {
    common::builtin("micro-rts", name, seed)
}

#[test]
fn rush_beats_random_nine_times_in_ten() {
    series(0..100, ("rush", "random")).assert_won_at_least(90, "rush vs random");
}

#[test]
fn rush_beats_wait() {
    series(0..20, ("rush", "wait")).assert_won_at_least(20, "rush vs wait");
}

#[test]
fn no_bot_ever_faults() {
    let names = ["wait", "random", "rush"];
    let left_out = Some(("wait", "wait"));
    line_turns::assert_pairs_never_fault("micro-rts", &names, left_out, 0..60, "", |seed, bots| {
        play(seed, bots).1
    });
}

#[test]
fn matches_are_deterministic() {
    let run = || play(42, vec![bot("rush", 5), bot("random", 6)]).0;
    assert_eq!(run(), run());
}
