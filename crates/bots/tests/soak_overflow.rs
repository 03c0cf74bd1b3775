//! The Soak Overflow built-in bots: input parsing on hand-written turns, the board model's
//! rules, well-formed output, and matches against the real referee (`games::soak_overflow`).

mod common;
#[path = "common/line_turns.rs"]
mod line_turns;

use bots::soak_overflow::board::Board;
use bots::soak_overflow::protocol::{agent_line, Action, Pos, Reader};
use bots::soak_overflow::Soaker;
use bots::Bot;
use engine::{Fault, Outcome};

// ---------------------------------------------------------------------------------------------
// Hand-written inputs
// ---------------------------------------------------------------------------------------------

/// Red's (seat 0) first turn on a small 12 × 6 grid: the init block, then the turn block.
/// Low cover at (3,2) and (8,3), high cover at (5,1) and (6,4).
const FIRST_TURN: &str = "\
0
6
1 0 1 4 16 1
2 0 5 6 24 0
3 0 2 2 8 3
4 1 1 4 16 1
5 1 5 6 24 0
6 1 2 2 8 3
12 6
0 0 0 1 0 0 2 0 0 3 0 0 4 0 0 5 0 0 6 0 0 7 0 0 8 0 0 9 0 0 10 0 0 11 0 0
0 1 0 1 1 0 2 1 0 3 1 0 4 1 0 5 1 2 6 1 0 7 1 0 8 1 0 9 1 0 10 1 0 11 1 0
0 2 0 1 2 0 2 2 0 3 2 1 4 2 0 5 2 0 6 2 0 7 2 0 8 2 0 9 2 0 10 2 0 11 2 0
0 3 0 1 3 0 2 3 0 3 3 0 4 3 0 5 3 0 6 3 0 7 3 0 8 3 1 9 3 0 10 3 0 11 3 0
0 4 0 1 4 0 2 4 0 3 4 0 4 4 0 5 4 0 6 4 2 7 4 0 8 4 0 9 4 0 10 4 0 11 4 0
0 5 0 1 5 0 2 5 0 3 5 0 4 5 0 5 5 0 6 5 0 7 5 0 8 5 0 9 5 0 10 5 0 11 5 0
6
1 0 1 0 1 0
2 0 2 0 0 0
3 0 4 0 3 0
4 11 4 0 1 0
5 11 3 0 0 0
6 11 1 0 3 0
3
";

/// A later turn for red: agent 3 is gone, the enemies stand close together.
const LATER_TURN: &str = "\
5
1 4 2 0 1 40
2 2 3 3 0 0
4 6 2 0 1 10
5 7 2 1 0 0
6 7 3 0 3 70
2
";

fn board_of(text: &str) -> (Reader, Board) {
    let mut reader = Reader::new();
    let turn = reader.feed(text).expect("a whole turn").expect("valid");
    let board = Board::new(reader.init().expect("init"), &turn);
    (reader, board)
}

#[test]
fn parses_the_first_turn_with_its_init_block() {
    let (reader, board) = board_of(FIRST_TURN);
    let init = reader.init().expect("init");
    assert_eq!(init.my_id, 0);
    assert_eq!(init.agents.len(), 6);
    assert_eq!((init.width, init.height), (12, 6));
    assert_eq!(board.tile(Pos::new(5, 1)), 2);
    assert_eq!(board.tile(Pos::new(3, 2)), 1);
    assert_eq!(board.tile(Pos::new(0, 0)), 0);
    assert_eq!(board.units.len(), 6);
    assert_eq!(board.mine().count(), 3);
    let sniper = board.units[1];
    assert_eq!(
        (sniper.id, sniper.mine, sniper.range, sniper.power),
        (2, true, 6, 24)
    );
    assert!(!board.units[5].mine);
    assert_eq!(board.units[5].bombs, 3);
}

#[test]
fn parses_a_later_turn_and_waits_for_whole_turns() {
    let (mut reader, _) = board_of(FIRST_TURN);
    let turn =
        line_turns::feed_line_by_line(LATER_TURN, "\r\n", |line| reader.feed(line)).expect("valid");
    assert_eq!(turn.agents.len(), 5);
    assert_eq!(turn.my_agent_count, 2);
    assert_eq!(turn.agents[4].wetness, 70);
}

#[test]
fn unreadable_input_is_an_error_not_a_hang() {
    let broken = FIRST_TURN.replace("12 6\n", "12 x\n");
    let mut reader = Reader::new();
    assert!(matches!(reader.feed(&broken), Some(Err(_))));
    for mut bot in ["wait", "random", "soaker"].map(|name| bot(name, 1)) {
        assert_eq!(bot.read(&broken), vec!["WAIT".to_string()]);
    }
}

// ---------------------------------------------------------------------------------------------
// The board model
// ---------------------------------------------------------------------------------------------

#[test]
fn the_board_applies_range_cover_and_hunkering() {
    let (_, b) = board_of(FIRST_TURN);
    let at = Pos::new;
    // Sniper 24 at range 6; half beyond; nothing beyond 12.
    assert_eq!(b.shot(24, 6, at(0, 0), at(6, 0), false), 24);
    assert_eq!(b.shot(24, 6, at(0, 0), at(7, 0), false), 12);
    assert_eq!(b.shot(24, 6, at(0, 0), at(11, 2), false), 0);
    // Low cover at (3,2) protects (4,2) from the left; hunkering stacks.
    assert_eq!(b.shot(24, 6, at(0, 2), at(4, 2), false), 12);
    assert_eq!(b.shot(24, 6, at(0, 2), at(4, 2), true), 6);
    // The cover touching the shooter does not count.
    assert_eq!(b.shot(24, 6, at(2, 2), at(4, 2), false), 24);
    // High cover at (5,1) protects (6,1) from the left.
    assert_eq!(b.shot(16, 4, at(2, 1), at(6, 1), true), 0);
}

#[test]
fn the_board_counts_territory_like_the_referee() {
    let (_, b) = board_of(FIRST_TURN);
    let agents = [(Pos::new(2, 2), true, 50), (Pos::new(9, 3), false, 0)];
    assert_eq!(b.territory(&agents), (25, 45));
    let agents = [(Pos::new(2, 2), true, 0), (Pos::new(9, 3), false, 0)];
    assert_eq!(b.territory(&agents), (33, 33));
}

// ---------------------------------------------------------------------------------------------
// Output
// ---------------------------------------------------------------------------------------------

#[test]
fn lines_are_always_well_formed() {
    assert_eq!(
        agent_line(
            3,
            &[
                Action::Move(Pos::new(4, 5)),
                Action::Throw(Pos::new(-1, 2)),
                Action::Message("a;b\nc".into())
            ]
        ),
        "3;MOVE 4 5;THROW -1 2;MESSAGE a b c"
    );
    assert_eq!(agent_line(2, &[]), "2;WAIT");
    assert_eq!(
        agent_line(1, &[Action::Shoot(6), Action::HunkerDown]),
        "1;SHOOT 6;HUNKER_DOWN"
    );
}

/// The referee's grammar (the `soak_overflow` rulebook, *Protocol*): `id;` then pieces, each MOVE x y / SHOOT id / THROW x y /
/// HUNKER_DOWN / WAIT / MESSAGE text, single spaces, no empty piece.
fn well_formed(line: &str) -> bool {
    let nums = |w: &[&str], signed: bool| {
        w.iter().all(|n| {
            let d = if signed {
                n.strip_prefix('-').unwrap_or(n)
            } else {
                n
            };
            !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())
        })
    };
    let pieces: Vec<&str> = line.split(';').collect();
    pieces.len() >= 2
        && nums(&pieces[..1], false)
        && pieces[1..].iter().all(|piece| {
            let words: Vec<&str> = piece.split(' ').collect();
            match words.as_slice() {
                ["WAIT"] | ["HUNKER_DOWN"] => true,
                ["MOVE", rest @ ..] => rest.len() == 2 && nums(rest, false),
                ["THROW", rest @ ..] => rest.len() == 2 && nums(rest, true),
                ["SHOOT", rest @ ..] => rest.len() == 1 && nums(rest, false),
                ["MESSAGE", rest @ ..] => !rest.is_empty() && !rest[0].is_empty(),
                _ => false,
            }
        })
}

#[test]
fn every_bot_answers_one_well_formed_line_per_agent() {
    for seed in 0..20 {
        for mut bot in ["wait", "random", "soaker"].map(|name| bot(name, seed)) {
            for (input, agents) in [(FIRST_TURN, 3), (LATER_TURN, 2)] {
                let out = bot.read(input);
                assert_eq!(out.len(), agents, "{out:?}");
                for line in &out {
                    assert!(line == "WAIT" || well_formed(line), "{line:?} in {out:?}");
                }
            }
        }
    }
}

#[test]
fn the_soaker_bombs_a_cluster_and_finishes_the_wet() {
    let (mut reader, _) = board_of(FIRST_TURN);
    let turn = reader.feed(LATER_TURN).expect("whole").expect("valid");
    let board = Board::new(reader.init().expect("init"), &turn);
    assert_eq!(board.mine().count(), 2);
    let mut bot = Soaker::new(0);
    bot.read(FIRST_TURN);
    let out = bot.read(LATER_TURN);
    // Agent 1 (4,2) has a bomb; enemies 4 (6,2), 5 (7,2) and 6 (7,3, wetness 70) stand
    // together, away from my agents: a bomb at (7,2) or (6,3)… hits all three.
    assert!(out[0].contains("THROW"), "{out:?}");
    assert!(
        !out[0].contains("MOVE 5") || out[0].contains("THROW"),
        "{out:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Matches against the real referee
// ---------------------------------------------------------------------------------------------

fn play(seed: i64, bots: Vec<Box<dyn Bot>>) -> (Outcome, Vec<Fault>, u32) {
    let referee = common::play_out(common::setup("soak-overflow", seed), bots);
    let (outcome, faults) = common::result(&referee);
    let turns = referee.frames().last().map_or(0, |f| f.turn);
    (outcome, faults, turns)
}

/// Plays the bot `hero` against `villain` with seats alternated by seed; returns the hero's
/// tally and panics on any fault.
fn series(seeds: std::ops::Range<i64>, bots: (&str, &str)) -> common::Tally {
    common::series("soak-overflow", seeds, "", bots, |seed, bots| {
        let (outcome, faults, _) = play(seed, bots);
        (outcome, faults)
    })
}

/// A built-in Soak Overflow bot by name, seeded.
fn bot(name: &str, seed: i64) -> Box<dyn Bot> {
    common::builtin("soak-overflow", name, seed)
}

#[test]
fn soaker_beats_random_nine_times_in_ten() {
    series(1..101, ("soaker", "random")).assert_won_at_least(90, "soaker vs random");
}

#[test]
fn soaker_beats_wait() {
    series(1..21, ("soaker", "wait")).assert_won_at_least(20, "soaker vs wait");
}

#[test]
fn no_bot_ever_faults() {
    let names = ["wait", "random", "soaker"];
    line_turns::assert_pairs_never_fault("soak-overflow", &names, None, 1..46, "", |seed, bots| {
        play(seed, bots).1
    });
}

#[test]
fn matches_are_deterministic() {
    let run = || play(42, vec![bot("soaker", 5), bot("random", 6)]).0;
    assert_eq!(run(), run());
}
