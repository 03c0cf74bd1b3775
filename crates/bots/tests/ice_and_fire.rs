//! The Ice and Fire built-in bots: input parsing on hand-written turns, the board model's rules,
//! well-formed output, and matches against the real referee (`games::ice_and_fire`).

mod common;
#[path = "common/line_turns.rs"]
mod line_turns;
#[path = "common/one_line.rs"]
mod one_line;

use bots::ice_and_fire::board::{cell, Board, ME, OPPONENT};
use bots::ice_and_fire::protocol::{output_line, BuildingKind, Command, Pos, Reader, TurnInput};
use bots::ice_and_fire::Expander;
use bots::Bot;
use engine::{Fault, Outcome, Referee, Setup};

// ---------------------------------------------------------------------------------------------
// Hand-written inputs
// ---------------------------------------------------------------------------------------------

/// Red's (seat 0) first turn in league 4, seed −7095413993656790854: the reference input of
/// the `games` crate's `ice_and_fire` rulebook, *Conformance* (the init block, then the turn
/// block).
const FIRST_TURN: &str = "\
12
1 0
2 0
6 0
1 1
5 2
10 5
1 6
6 9
10 10
5 11
9 11
10 11
21
1
20
2
O..#......##
...........#
...........#
##.........#
#..........#
#..........#
#..........#
#..........#
#.........##
#...........
#..........X
##......#..X
2
0 0 0 0
1 0 11 11
0
";

/// A later turn of blue (seat 1; its own cells are `O`, red's `X`): a mine, a tower, inactive
/// cells on both sides, units of three levels.
const LATER_TURN: &str = "\
17
14
30
-3
XXX#......##
XX.........#
X.x........#
##.........#
#..........#
#..........#
#..........#
#.....o.OO.#
#.......OO.#
#......OOOO.
#.......OOOO
##......#OOO
4
0 0 11 11
0 1 10 11
0 2 9 10
1 0 0 0
4
0 3 1 9 8
0 6 2 8 9
1 1 1 1 0
1 4 3 2 0
";

fn parse_first() -> (Reader, TurnInput) {
    let mut reader = Reader::new();
    let turn = reader
        .feed(FIRST_TURN)
        .expect("a whole turn")
        .expect("a valid turn");
    (reader, turn)
}

#[test]
fn parses_the_first_turn_with_its_init_block() {
    let (reader, turn) = parse_first();
    assert_eq!(reader.spots().len(), 12);
    assert_eq!(reader.spots()[0], Pos::new(1, 0));
    assert_eq!(reader.spots()[5], Pos::new(10, 5));
    assert_eq!(reader.spots()[11], Pos::new(10, 11));
    assert_eq!(
        (
            turn.gold,
            turn.income,
            turn.opponent_gold,
            turn.opponent_income
        ),
        (21, 1, 20, 2)
    );
    assert_eq!(turn.rows[0], *b"O..#......##");
    assert_eq!(turn.rows[11], *b"##......#..X");
    assert_eq!(turn.at(Pos::new(11, 10)), b'X');
    assert_eq!(turn.at(Pos::new(3, 0)), b'#');
    assert_eq!(turn.buildings.len(), 2);
    assert_eq!(turn.buildings[0].owner, 0);
    assert_eq!(turn.buildings[0].kind, BuildingKind::Hq);
    assert_eq!(turn.buildings[0].pos, Pos::new(0, 0));
    assert_eq!(
        (turn.buildings[1].owner, turn.buildings[1].pos),
        (1, Pos::new(11, 11))
    );
    assert!(turn.units.is_empty());
}

#[test]
fn parses_a_later_turn_without_init_block() {
    let (mut reader, _) = parse_first();
    let turn = reader
        .feed(LATER_TURN)
        .expect("a whole turn")
        .expect("valid");
    assert_eq!(reader.spots().len(), 12, "the spots are kept");
    assert_eq!(turn.opponent_income, -3);
    assert_eq!(turn.buildings.len(), 4);
    assert_eq!(turn.buildings[2].kind, BuildingKind::Tower);
    assert_eq!(turn.buildings[2].pos, Pos::new(9, 10));
    assert_eq!(turn.units.len(), 4);
    assert_eq!(
        (turn.units[0].owner, turn.units[0].id, turn.units[0].level),
        (0, 3, 1)
    );
    assert_eq!(turn.units[0].pos, Pos::new(9, 8));
    assert_eq!(
        (turn.units[3].owner, turn.units[3].id, turn.units[3].level),
        (1, 4, 3)
    );
}

#[test]
fn waits_for_a_turn_that_arrives_line_by_line() {
    let mut reader = Reader::new();
    let last = line_turns::feed_line_by_line(FIRST_TURN, "\n", |line| reader.feed(line));
    assert!(last.is_ok(), "{last:?}");
    // And a later turn in two pieces of whole lines, with Windows line endings.
    let (first, second) = LATER_TURN.split_at(LATER_TURN.find("#.....o").expect("a row"));
    assert!(reader.feed(&first.replace('\n', "\r\n")).is_none());
    assert!(matches!(reader.feed(second), Some(Ok(_))));
}

#[test]
fn a_first_turn_without_init_block_is_understood() {
    let mut reader = Reader::new();
    let turn = reader.feed(LATER_TURN).expect("whole").expect("valid");
    assert!(reader.spots().is_empty());
    assert_eq!(turn.gold, 17);
}

#[test]
fn unreadable_input_is_an_error_not_a_hang() {
    let mut reader = Reader::new();
    let broken = FIRST_TURN.replace("O..#......##", "O..#......#");
    assert!(matches!(reader.feed(&broken), Some(Err(_))));
    // Every bot answers unreadable input with a plain WAIT.
    for mut bot in one_line::every_builtin("ice-and-fire", 1) {
        assert_eq!(bot.read(&broken), vec!["WAIT".to_string()]);
    }
}

// ---------------------------------------------------------------------------------------------
// The board model
// ---------------------------------------------------------------------------------------------

fn later_board() -> Board {
    let (mut reader, _) = parse_first();
    let turn = reader.feed(LATER_TURN).expect("whole").expect("valid");
    Board::new(reader.spots(), &turn, 3)
}

#[test]
fn the_board_follows_the_input() {
    let b = later_board();
    assert_eq!(b.hq[ME], Some(cell(Pos::new(11, 11))));
    assert_eq!(b.hq[OPPONENT], Some(cell(Pos::new(0, 0))));
    assert!(b.void[cell(Pos::new(3, 0))]);
    assert_eq!(b.owner[cell(Pos::new(2, 2))], Some(OPPONENT));
    assert!(
        !b.active[cell(Pos::new(2, 2))],
        "x is an inactive enemy cell"
    );
    assert_eq!(b.owner[cell(Pos::new(6, 7))], Some(ME));
    assert!(!b.active[cell(Pos::new(6, 7))], "o is an inactive own cell");
    assert!(b.spot[cell(Pos::new(10, 11))]);
    // 15 active cells + a mine (+4) − upkeep of the units on active cells (1 + 4).
    assert_eq!(b.income[ME], 15 + 4 - 5);
    assert_eq!(b.income[ME], 14, "as the input says");
}

#[test]
fn the_board_applies_the_capture_rules() {
    let b = later_board();
    let at = |x, y| cell(Pos::new(x, y));
    // Tower protection: the tower at (9,10) protects its own active neighbours from the enemy,
    // not from me; only level 3 enters an enemy tower.
    assert!(b.protected(at(9, 10)));
    assert!(b.protected(at(9, 9)));
    assert!(!b.protected(at(8, 9)));
    // My own units, buildings and HQ cannot be entered; my free cells can.
    assert!(!b.capturable(at(9, 8), ME, 3));
    assert!(!b.capturable(at(10, 11), ME, 1));
    assert!(b.capturable(at(10, 10), ME, 1));
    // Training: on or next to my active cells, never on void or far away.
    assert!(b.can_train(1, at(7, 9)));
    assert!(!b.can_train(1, at(5, 5)));
    assert!(!b.can_train(3, at(7, 9)), "30 gold are needed");
    // Level 1 cannot kill a unit unless it is the league's highest level.
    let mut wood3 = b.clone();
    wood3.max_level = 1;
    let mut enemy = b.clone();
    enemy.unit[at(7, 9)] = enemy.unit[at(8, 9)].map(|mut u| {
        u.owner = OPPONENT;
        u
    });
    enemy.owner[at(7, 9)] = Some(OPPONENT);
    assert!(!enemy.capturable(at(7, 9), ME, 1));
    assert!(enemy.capturable(at(7, 9), ME, 3));
    wood3.unit[at(7, 9)] = enemy.unit[at(7, 9)];
    wood3.owner[at(7, 9)] = Some(OPPONENT);
    assert!(wood3.capturable(at(7, 9), ME, 1));
}

#[test]
fn the_board_tracks_its_own_actions() {
    let mut b = later_board();
    let at = |x, y| cell(Pos::new(x, y));
    assert!(b.train(1, at(7, 9)));
    assert_eq!(b.gold[ME], 7);
    assert_eq!(b.income[ME], 13, "one more upkeep");
    assert!(!b.train(1, at(6, 9)), "no gold left");
    // Trained units cannot move this turn; units from the input can, once.
    assert!(!b.move_unit(at(7, 9), at(6, 9)));
    assert!(b.move_unit(at(9, 8), at(10, 8)));
    assert_eq!(b.owner[at(10, 8)], Some(ME));
    assert_eq!(b.income[ME], 14, "one more cell");
    assert!(
        !b.move_unit(at(10, 8), at(10, 7)),
        "a unit moves once per turn"
    );
    // Building: a mine on a free own spot; never on a unit or off a spot.
    b.gold[ME] = 40;
    assert!(!b.can_build(BuildingKind::Mine, at(9, 9)), "not a spot");
    assert!(b.build(BuildingKind::Mine, at(10, 10)));
    assert_eq!(b.income[ME], 18);
    assert!(!b.build(BuildingKind::Tower, at(10, 10)), "occupied");
}

#[test]
fn commands_are_always_well_formed() {
    let commands = [
        Command::Move {
            id: 12,
            to: Pos::new(3, 4),
        },
        Command::Train {
            level: 2,
            at: Pos::new(0, 11),
        },
        Command::BuildMine(Pos::new(1, 0)),
        Command::BuildTower(Pos::new(11, 2)),
    ];
    assert_eq!(
        output_line(&commands),
        "MOVE 12 3 4;TRAIN 2 0 11;BUILD MINE 1 0;BUILD TOWER 11 2"
    );
    assert_eq!(output_line(&[]), "WAIT");
}

/// The referee's grammar (the `ice_and_fire` rulebook, *Protocol*): pieces split on `;` (no empty ones), each trimmed and one of
/// WAIT, `MSG text`, MOVE/TRAIN with three unsigned ints, BUILD MINE/TOWER with two.
fn well_formed(line: &str) -> bool {
    let pieces: Vec<&str> = line.split(';').collect();
    !line.is_empty()
        && pieces.iter().all(|piece| {
            let words: Vec<&str> = piece.split(' ').collect();
            let nums = |w: &[&str]| {
                w.iter()
                    .all(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            };
            match words.as_slice() {
                ["WAIT"] => true,
                ["MOVE" | "TRAIN", rest @ ..] => rest.len() == 3 && nums(rest),
                ["BUILD", "MINE" | "TOWER", rest @ ..] => rest.len() == 2 && nums(rest),
                _ => false,
            }
        })
}

#[test]
fn every_bot_answers_one_well_formed_line_per_turn() {
    one_line::assert_one_well_formed_line_per_turn(
        "ice-and-fire",
        &[FIRST_TURN, LATER_TURN],
        well_formed,
    );
}

/// The line a new expander writes for its first turn, `input`.
fn expander_answer(input: &str) -> String {
    Expander::new(0).read(input).remove(0)
}

#[test]
fn the_expander_plays_sensibly_on_the_hand_written_turn() {
    let out = expander_answer(FIRST_TURN);
    // Red, 21 gold and an income of 1: it trains two level-1 units next to its HQ (the income
    // stays positive) and writes nothing else.
    let trains = out.split(';').filter(|p| p.starts_with("TRAIN 1 ")).count();
    assert_eq!(trains, 2, "{out}");
    assert!(
        !out.contains("TRAIN 2") && !out.contains("TRAIN 3"),
        "{out}"
    );
}

#[test]
fn the_expander_takes_the_hq_when_it_can() {
    // My unit 7 stands next to the enemy HQ at (0,0).
    let input = "\
0
1
1
1
XO.#......##
.O.........#
.O.........#
#O.........#
#O.........#
#O.........#
#O.........#
#O.........#
#O........##
#O..........
#OOOOOOOOOOO
##......#OOO
2
0 0 11 11
1 0 0 0
1
0 7 1 0 1
";
    let out = expander_answer(input);
    assert_eq!(out, "MOVE 7 0 0");
}

#[test]
fn the_expander_kills_a_unit_threatening_its_hq() {
    // Red, 25 gold, income 4. An enemy level-1 unit stands two steps from my HQ, on enemy land:
    // next turn the opponent could take (0,1) and then my HQ. Level 2 kills it, even though the
    // upkeep leaves a thin income (a normal level-2 training needs a margin of 5).
    let input = "\
0
25
4
20
10
OO.#......##
OO.........#
X..........#
X..........#
X..........#
X..........#
X..........#
X..........#
X..........#
X...........
XXXXXXXXXXXX
##......#XXX
2
0 0 0 0
1 0 11 11
1
1 9 1 0 2
";
    let out = expander_answer(input);
    assert!(out.split(';').any(|p| p == "TRAIN 2 0 2"), "{out}");
}

// ---------------------------------------------------------------------------------------------
// Matches against the real referee
// ---------------------------------------------------------------------------------------------

/// Plays one match in a league; returns the outcome and the faults.
fn play(seed: i64, ruleset: &str, bots: Vec<Box<dyn Bot>>) -> (Outcome, Vec<Fault>) {
    let mut setup = common::setup("ice-and-fire", seed);
    setup.ruleset = ruleset.to_string();
    common::result(&common::play_out(setup, bots))
}

/// Plays the bot `hero` against `villain` with seats alternated by seed; returns the hero's
/// tally and panics on any fault.
fn series(seeds: std::ops::Range<i64>, ruleset: &str, bots: (&str, &str)) -> common::Tally {
    common::series("ice-and-fire", seeds, ruleset, bots, |seed, bots| {
        play(seed, ruleset, bots)
    })
}

/// A built-in Ice and Fire bot by name, seeded.
fn bot(name: &str, seed: i64) -> Box<dyn Bot> {
    common::builtin("ice-and-fire", name, seed)
}

#[test]
fn expander_beats_random_nine_times_in_ten() {
    series(0..100, "league-4", ("expander", "random"))
        .assert_won_at_least(90, "expander vs random");
}

#[test]
fn expander_never_loses_to_wait() {
    series(0..20, "league-4", ("expander", "wait")).assert_won_at_least(20, "expander vs wait");
}

#[test]
fn no_bot_ever_faults_in_any_league() {
    // Every ordered pairing of the registry's bots in turn (one match per seed and league).
    let names = ["wait", "random", "expander"];
    let left_out = Some(("wait", "wait"));
    for league in ["league-1", "league-2", "league-3", "league-4"] {
        let label = format!("{league} ");
        line_turns::assert_pairs_never_fault(
            "ice-and-fire",
            &names,
            left_out,
            0..50,
            &label,
            |seed, bots| play(seed, league, bots).1,
        );
    }
}

#[test]
fn random_vs_random_never_faults() {
    let leagues = ["league-1", "league-2", "league-3", "league-4"];
    for seed in 0..100 {
        let (_, faults) = play(
            seed,
            leagues[seed as usize % 4],
            vec![bot("random", seed), bot("random", !seed)],
        );
        assert!(faults.is_empty(), "seed {seed}: {faults:?}");
    }
}

#[test]
fn the_expander_wins_in_every_league() {
    for league in ["league-1", "league-2", "league-3"] {
        series(0..20, league, ("expander", "random"))
            .assert_won_at_least(17, &format!("{league}: expander vs random"));
    }
}

#[test]
fn matches_are_deterministic() {
    let run = || {
        let (outcome, _) = play(42, "league-4", vec![bot("expander", 5), bot("random", 6)]);
        outcome
    };
    assert_eq!(run(), run());
}

/// The seats that went bankrupt during a match, from the game's events.
fn bankruptcies(seed: i64, bots: Vec<Box<dyn Bot>>) -> Vec<usize> {
    let entry = games::entry("ice-and-fire").expect("registered");
    let setup = Setup::new(entry.info, seed);
    let game = (entry.new)(&setup).expect("a valid setup");
    let mut referee = Referee::new(game, setup, vec!["a".into(), "b".into()], false);
    bots::local::play(&mut referee, bots);
    let events: Vec<String> = referee
        .frames()
        .iter()
        .flat_map(|f| f.events().into_owned())
        .collect();
    ["red", "blue"]
        .iter()
        .enumerate()
        .filter(|(_, colour)| {
            events
                .iter()
                .any(|e| e.starts_with(*colour) && e.contains("bankrupt"))
        })
        .map(|(seat, _)| seat)
        .collect()
}

#[test]
fn the_expander_never_goes_bankrupt() {
    for seed in 0..60 {
        let seat = (seed % 2) as usize;
        let villain = if seed % 3 == 0 { "expander" } else { "random" };
        let mut bots = vec![bot(villain, seed + 1)];
        bots.insert(seat, bot("expander", seed));
        assert!(
            !bankruptcies(seed, bots).contains(&seat),
            "seed {seed}: the expander went bankrupt"
        );
    }
    // The check does see bankruptcies: random bots, which train level 3, go bankrupt.
    assert!((0..20).any(|seed| !bankruptcies(
        seed,
        vec![bot("random", seed), bot("random", seed + 1)]
    )
    .is_empty()));
}
