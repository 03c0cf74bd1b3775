//! Tests: the conformance suite, the seed-42 map of the rulebook's *Conformance*, and the rule scenarios.

use super::protocol::{parse_syntax, type_value};
use super::state::{Tile, FOREST, MINE, WALL};
use super::*;
use crate::java;

engine::conformance_tests!(MicroRts, ENTRY);

/// Rulebook, *Conformance*: the map of seed 42 (24 × 15), in the legend of [`picture`].
const SEED_42_MAP: [&str; 15] = [
    "########################",
    "#######..........#######",
    "#####..............#####",
    "####...G.#F..F#.G...####",
    "###..#...G....G...#..###",
    "##..#..#........#..#..##",
    "####G...G......G...G####",
    "##........F..F........##",
    "#.........C..c.........#",
    "###....#........#....###",
    "#G....G..G....G..G....G#",
    "###....#.#....#.#....###",
    "##.....G........G.....##",
    "####...#.G....G.#...####",
    "########################",
];

/// Rulebook, *Conformance*: the resources and buildings of seed 42, in p0's input format.
const SEED_42_ENTITIES: &str = "[1 10 -1 2 11] [4 6 -1 2 15] [6 10 -1 2 17] [7 3 -1 2 14] \
[7 12 -1 2 21] [8 6 -1 2 13] [9 4 -1 2 22] [9 10 -1 2 7] [9 13 -1 2 17] [10 3 -1 3 18] \
[10 7 -1 3 17] [10 8 0 0 10] [13 3 -1 3 18] [13 7 -1 3 17] [13 8 1 0 10] [14 4 -1 2 22] \
[14 10 -1 2 7] [14 13 -1 2 17] [15 6 -1 2 13] [16 3 -1 2 14] [16 12 -1 2 21] [17 10 -1 2 17] \
[19 6 -1 2 15] [22 10 -1 2 11]";

fn new_game(seed: i64) -> MicroRts {
    MicroRts::create(&Setup::new(&INFO, seed)).expect("valid setup")
}

/// The map in a legend of its own: `#` `.` `G` `F`, `C`/`B` red, `c`/`b` blue.
fn picture(arena: &Arena) -> Vec<String> {
    (0..arena.height)
        .map(|y| {
            (0..arena.width)
                .map(|x| {
                    let t = arena.tile(x, y);
                    match (t.owner, t.kind) {
                        (0, 0) => '.',
                        (0, 1) => '#',
                        (0, 2) => 'G',
                        (0, 3) => 'F',
                        (1, 0) => 'C',
                        (1, 1) => 'B',
                        (2, 0) => 'c',
                        (2, 1) => 'b',
                        _ => '?',
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn seed_42_gives_the_reference_map() {
    let g = new_game(42);
    assert_eq!((g.arena.width, g.arena.height), (24, 15));
    assert_eq!(picture(&g.arena), SEED_42_MAP);
    let input = g.input(0);
    let mut lines = input.lines();
    assert_eq!(lines.next(), Some("24 15"));
    for _ in 0..6 {
        lines.next();
    }
    assert_eq!(lines.next(), Some("170 10 0 10 0"));
    let listed: Vec<String> = lines
        .filter(|l| !l.ends_with(" -1 1 -1"))
        .map(|l| format!("[{l}]"))
        .collect();
    assert_eq!(listed.join(" "), SEED_42_ENTITIES);
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Conformance*: the rule scenarios: an open 24 × 15 room with border walls; castles at (2,7) for red and
// (21,7) for blue unless stated; 10 gold and 0 wood each unless stated.

/// The room: border walls (x outer, y inner, as the generator registers them), then castles.
fn room(castles: bool) -> Arena {
    let mut a = Arena::walled(24, 15);
    for x in 0..24 {
        for y in 0..15 {
            if x == 0 || y == 0 || x == 23 || y == 14 {
                a.add(x, y, state::NEUTRAL, WALL, -1);
            } else {
                a.set_tile(x, y, Tile::default());
            }
        }
    }
    if castles {
        a.add_player_entity(2, 7, 0, CASTLE);
        a.add_player_entity(21, 7, 1, CASTLE);
    }
    a
}

/// A red (seat 0) or blue (seat 1) entity at full health.
fn unit(a: &mut Arena, seat: usize, kind: u8, x: i32, y: i32) {
    a.add_player_entity(x, y, seat, kind);
}

fn resource(a: &mut Arena, kind: u8, x: i32, y: i32, amount: i32) {
    a.add(x, y, state::NEUTRAL, kind, amount);
}

/// Both seats answer (an empty string: the seat is not asked); the turn resolves.
fn turn(g: &mut MicroRts, red: &str, blue: &str) -> [LineOutcome; 2] {
    let mut heard = [LineOutcome::Done, LineOutcome::Done];
    for (seat, line) in [red, blue].into_iter().enumerate() {
        if g.to_move().contains(&seat) {
            heard[seat] = g.hear(seat, line);
        }
    }
    g.step();
    heard
}

fn wait(g: &mut MicroRts) {
    turn(g, "WAIT", "WAIT");
}

/// (owner, type, health) of a tile; owner as stored (0 neutral, 1 red, 2 blue).
fn at(g: &MicroRts, x: i32, y: i32) -> (u8, u8, i32) {
    let t = g.arena.tile(x, y);
    (t.owner, t.kind, t.health)
}

fn is_empty(g: &MicroRts, x: i32, y: i32) -> bool {
    g.arena.tile(x, y).is_empty()
}

fn is_fault(h: &LineOutcome) -> bool {
    matches!(h, LineOutcome::Fault(_))
}

#[test]
fn s01_train_harvest_deplete_then_harvest_a_removed_mine() {
    let mut a = room(true);
    resource(&mut a, MINE, 5, 4, 2);
    resource(&mut a, FOREST, 6, 4, 7);
    let mut g = MicroRts::from_arena(a);
    let input = g.input(0);
    let mut lines = input.lines().skip(7);
    assert_eq!(lines.next(), Some("78 10 0 10 0"));
    let rest: Vec<&str> = lines.collect();
    assert_eq!(rest.len(), 78);
    assert_eq!(rest[0], "0 0 -1 1 -1");
    assert!(rest.contains(&"2 7 0 0 10"));
    assert!(rest.contains(&"5 4 -1 2 2"));
    assert!(
        g.input(1).lines().any(|l| l == "2 7 1 0 10"),
        "blue sees red as 1"
    );
    turn(&mut g, "TRAIN 2 7 5 5 WORKER", "WAIT");
    assert_eq!(at(&g, 5, 5), (1, WORKER, 1), "Chebyshev 3 is within reach");
    assert_eq!(g.arena.gold[0], 9);
    turn(&mut g, "HARVEST 5 5 5 4", "WAIT");
    assert_eq!((g.arena.gold[0], at(&g, 5, 4).2), (10, 1));
    turn(&mut g, "HARVEST 5 5 5 4", "WAIT");
    assert_eq!(g.arena.gold[0], 11);
    assert!(is_empty(&g, 5, 4), "the empty mine is removed");
    turn(&mut g, "HARVEST 5 5 6 4", "WAIT");
    assert_eq!((g.arena.wood[0], at(&g, 6, 4).2), (1, 6));
    let [red, _] = turn(&mut g, "HARVEST 5 5 5 4", "WAIT");
    assert!(is_fault(&red), "harvesting a removed resource eliminates");
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![0, 1]));
}

#[test]
fn s02_two_moves_into_one_tile_both_fail() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    unit(&mut a, 1, WORKER, 12, 7);
    let mut g = MicroRts::from_arena(a);
    turn(&mut g, "MOVE 10 7 11 7", "MOVE 12 7 11 7");
    assert_eq!(at(&g, 10, 7).1, WORKER);
    assert_eq!(at(&g, 12, 7).1, WORKER);
    assert!(is_empty(&g, 11, 7));
}

#[test]
fn s03_swaps_fail() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    unit(&mut a, 0, WORKER, 11, 7);
    let mut g = MicroRts::from_arena(a);
    turn(&mut g, "MOVE 10 7 11 7;MOVE 11 7 10 7", "WAIT");
    assert_eq!((at(&g, 10, 7).1, at(&g, 11, 7).1), (WORKER, WORKER));
    assert_eq!(g.arena.entities.len(), 74 + 4);
}

#[test]
fn s04_s05_following_works_in_any_list_order_and_across_players() {
    for (first, second) in [
        ((10, 0), (11, 0)),
        ((11, 0), (10, 0)),
        ((10, 0), (11, 1)),
        ((11, 1), (10, 0)),
    ] {
        let mut a = room(true);
        unit(&mut a, first.1, WORKER, first.0, 7);
        unit(&mut a, second.1, WORKER, second.0, 7);
        let mut g = MicroRts::from_arena(a);
        let blue_owns_11 = first.1 == 1 || second.1 == 1;
        if blue_owns_11 {
            turn(&mut g, "MOVE 10 7 11 7", "MOVE 11 7 12 7");
        } else {
            turn(&mut g, "MOVE 10 7 11 7;MOVE 11 7 12 7", "WAIT");
        }
        assert!(is_empty(&g, 10, 7), "{first:?} {second:?}");
        assert_eq!(at(&g, 11, 7).1, WORKER);
        assert_eq!(at(&g, 12, 7).1, WORKER);
        assert_eq!(at(&g, 12, 7).0, if blue_owns_11 { 2 } else { 1 });
    }
}

#[test]
fn s06_light_two_step_moves_and_their_mid_tiles() {
    let mut a = room(true);
    for (x, y) in [(6, 4), (6, 9), (12, 4), (12, 9)] {
        unit(&mut a, 0, LIGHT, x, y);
    }
    a.add(13, 4, state::NEUTRAL, WALL, -1);
    unit(&mut a, 1, WORKER, 13, 10);
    let mut g = MicroRts::from_arena(a);
    let [red, _] = turn(
        &mut g,
        "MOVE 6 4 8 4;MOVE 6 9 8 10;MOVE 12 4 14 4;MOVE 12 9 14 11",
        "WAIT",
    );
    assert_eq!(red, LineOutcome::Done);
    assert_eq!(at(&g, 8, 4).1, LIGHT);
    assert_eq!(at(&g, 8, 10).1, LIGHT);
    assert_eq!(at(&g, 14, 4).1, LIGHT, "around the wall");
    assert_eq!(
        at(&g, 12, 9).1,
        LIGHT,
        "the diagonal mid tile holds an enemy"
    );
    assert!(is_empty(&g, 14, 11));
    let moved: Vec<String> = g
        .last_events
        .iter()
        .filter(|e| e.contains("moves"))
        .cloned()
        .collect();
    assert!(
        moved.iter().any(|e| e.contains("(6,9) moves to (7,9)")),
        "{moved:?}"
    );
    assert!(
        moved.iter().any(|e| e.contains("(12,4) moves to (13,3)")),
        "{moved:?}"
    );
}

#[test]
fn a_light_waits_on_a_mid_tile_that_is_being_vacated() {
    // Candidates for (5,7) -> (7,7) are (6,6), (6,7), (6,8): two walls and a worker that moves
    // away. The light waits (same lock as the worker), then takes both steps.
    for light_first in [true, false] {
        let mut a = room(true);
        a.add(6, 6, state::NEUTRAL, WALL, -1);
        a.add(6, 8, state::NEUTRAL, WALL, -1);
        if light_first {
            unit(&mut a, 0, LIGHT, 5, 7);
            unit(&mut a, 0, WORKER, 6, 7);
        } else {
            unit(&mut a, 0, WORKER, 6, 7);
            unit(&mut a, 0, LIGHT, 5, 7);
        }
        let mut g = MicroRts::from_arena(a);
        turn(&mut g, "MOVE 5 7 7 7;MOVE 6 7 7 6", "WAIT");
        assert_eq!(at(&g, 7, 7).1, LIGHT, "light first: {light_first}");
        assert_eq!(at(&g, 7, 6).1, WORKER);
        assert!(is_empty(&g, 5, 7) && is_empty(&g, 6, 7));
    }
}

#[test]
fn s07_a_failed_train_still_blocks_a_move_into_its_tile() {
    let mut a = room(true);
    unit(&mut a, 1, WORKER, 6, 7);
    a.gold[0] = 0;
    let mut g = MicroRts::from_arena(a);
    turn(&mut g, "TRAIN 2 7 5 7 WORKER", "MOVE 6 7 5 7");
    assert!(is_empty(&g, 5, 7));
    assert_eq!(at(&g, 6, 7), (2, WORKER, 1));
}

#[test]
fn s08_the_marking_quirk_lets_one_pair_through() {
    let mut a = room(false);
    unit(&mut a, 0, CASTLE, 4, 5);
    unit(&mut a, 1, CASTLE, 9, 5);
    unit(&mut a, 0, CASTLE, 4, 9);
    unit(&mut a, 1, CASTLE, 9, 9);
    let mut g = MicroRts::from_arena(a);
    turn(
        &mut g,
        "TRAIN 4 5 6 7 WORKER;TRAIN 4 9 6 10 WORKER",
        "TRAIN 9 5 6 7 WORKER;TRAIN 9 9 6 10 WORKER",
    );
    assert!(is_empty(&g, 6, 7), "(6,7) is blocked");
    assert_eq!(
        at(&g, 6, 10),
        (2, WORKER, 1),
        "blue's second training escapes the marking"
    );
    assert_eq!((g.arena.gold[0], g.arena.gold[1]), (10, 9));
}

#[test]
fn s09_a_train_waits_for_a_unit_moving_away() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 3, 7);
    let mut g = MicroRts::from_arena(a);
    turn(&mut g, "TRAIN 2 7 3 7 WORKER;MOVE 3 7 4 7", "WAIT");
    assert_eq!(at(&g, 4, 7).1, WORKER);
    assert_eq!(at(&g, 3, 7).1, WORKER);
    assert_eq!(g.arena.gold[0], 9);
}

#[test]
fn s10_two_builds_on_one_tile_both_fail_and_cost_nothing() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    unit(&mut a, 1, WORKER, 12, 7);
    a.wood = [10, 10];
    let mut g = MicroRts::from_arena(a);
    turn(
        &mut g,
        "BUILD 10 7 11 7 BARRACKS",
        "BUILD 12 7 11 7 BARRACKS",
    );
    assert!(is_empty(&g, 11, 7));
    assert_eq!((g.arena.gold, g.arena.wood), ([10, 10], [10, 10]));
}

#[test]
fn s11_build_then_two_queued_trainings() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    a.wood = [10, 10];
    let mut g = MicroRts::from_arena(a);
    turn(&mut g, "BUILD 10 7 11 7 BARRACKS", "WAIT");
    assert_eq!(at(&g, 11, 7), (1, BARRACKS, 4));
    assert_eq!(g.arena.wood[0], 5);
    turn(
        &mut g,
        "TRAIN 11 7 13 7 LIGHT;TRAIN 11 7 13 7 HEAVY",
        "WAIT",
    );
    assert_eq!(at(&g, 13, 7), (1, LIGHT, 4));
    assert_eq!((g.arena.gold[0], g.arena.wood[0]), (9, 4));
    wait(&mut g);
    assert_eq!(
        at(&g, 13, 7),
        (1, LIGHT, 4),
        "the queued HEAVY finds the tile taken"
    );
    assert_eq!((g.arena.gold[0], g.arena.wood[0]), (9, 4));
    assert!(g.last_events.is_empty(), "{:?}", g.last_events);
}

#[test]
fn s12_the_last_unit_of_a_mine_goes_to_the_earlier_entity() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    unit(&mut a, 1, WORKER, 12, 7);
    resource(&mut a, MINE, 11, 7, 1);
    let mut g = MicroRts::from_arena(a);
    turn(&mut g, "HARVEST 10 7 11 7", "HARVEST 12 7 11 7");
    assert_eq!(g.arena.gold, [11, 10]);
    assert!(is_empty(&g, 11, 7));
}

#[test]
fn s13_attacks_are_simultaneous_and_a_stale_target_eliminates() {
    let mut a = room(true);
    unit(&mut a, 0, HEAVY, 10, 7);
    unit(&mut a, 1, LIGHT, 11, 7);
    unit(&mut a, 1, RANGED, 12, 7);
    let mut g = MicroRts::from_arena(a);
    turn(
        &mut g,
        "ATTACK 10 7 11 7",
        "ATTACK 11 7 10 7;ATTACK 12 7 10 7",
    );
    assert!(is_empty(&g, 11, 7), "the LIGHT dies");
    assert_eq!(at(&g, 10, 7), (1, HEAVY, 5), "and still hit: 8 − 2 − 1");
    let [red, blue] = turn(&mut g, "ATTACK 10 7 11 7", "ATTACK 12 7 10 7");
    assert!(is_fault(&red) && !is_fault(&blue));
    assert_eq!(at(&g, 10, 7), (1, HEAVY, 4));
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![0, 1]));
}

#[test]
fn s14_a_second_order_waits_in_the_queue() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    resource(&mut a, MINE, 10, 8, 5);
    let mut g = MicroRts::from_arena(a);
    turn(&mut g, "HARVEST 10 7 10 8;MOVE 10 7 11 7", "WAIT");
    assert_eq!(g.arena.gold[0], 11);
    assert_eq!(at(&g, 10, 7).1, WORKER);
    wait(&mut g);
    assert!(is_empty(&g, 10, 7));
    assert_eq!(at(&g, 11, 7).1, WORKER);
    wait(&mut g);
    assert_eq!(at(&g, 11, 7).1, WORKER);
}

#[test]
fn s15_destroying_the_last_castle_wins() {
    let mut a = room(true);
    unit(&mut a, 0, HEAVY, 20, 6);
    let mut g = MicroRts::from_arena(a);
    turn(&mut g, "ATTACK 20 6 21 7", "WAIT");
    assert_eq!(at(&g, 21, 7).2, 6);
    turn(&mut g, "ATTACK 20 6 21 7", "WAIT");
    assert_eq!(at(&g, 21, 7).2, 2);
    assert!(g.outcome().is_none());
    turn(&mut g, "ATTACK 20 6 21 7", "WAIT");
    assert!(is_empty(&g, 21, 7));
    let o = g.outcome().expect("over");
    assert_eq!(o.scores, vec![1, 0]);
    assert_eq!(o.winner(), Some(0));
    assert!(g.to_move().is_empty());
}

#[test]
fn s16_to_s21_strict_parsing() {
    let elim = |arena: Arena, red: &str, blue: &str| {
        let mut g = MicroRts::from_arena(arena);
        let heard = turn(&mut g, red, blue);
        (is_fault(&heard[0]), is_fault(&heard[1]), g)
    };
    // 16: " WAIT" is two words.
    assert!(elim(room(true), "WAIT; WAIT", "WAIT").0);
    // 17: beyond the step.
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    assert!(elim(a, "MOVE 10 7 12 7", "WAIT").0);
    // 18: a numeric type is fine, a lower-case name is not.
    let (red, blue, g) = elim(room(true), "TRAIN 2 7 3 7 2", "TRAIN 21 7 20 7 worker");
    assert!(!red && blue);
    assert_eq!(at(&g, 3, 7), (1, WORKER, 1));
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![1, 0]));
    // 19: the target holds no enemy.
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    unit(&mut a, 0, WORKER, 11, 7);
    assert!(elim(a, "ATTACK 10 7 11 7", "WAIT").0);
    // 20: a trailing ';' is fine; 21: an empty piece is not.
    let (red, _, g) = elim(room(true), "WAIT;", "WAIT");
    assert!(!red && g.outcome().is_none());
    assert!(elim(room(true), "WAIT;;WAIT", "WAIT").0);
}

#[test]
fn s22_more_materials_win_at_the_turn_limit() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    let mut g = MicroRts::from_arena(a);
    for t in 0..MAX_TURNS {
        assert!(g.outcome().is_none(), "over early, turn {t}");
        wait(&mut g);
    }
    let o = g.outcome().expect("over at the limit");
    assert_eq!(o.scores, vec![1, 0]);
    assert_eq!(g.turn(), 200);
    assert!(g.lost[1]
        .as_deref()
        .is_some_and(|w| w.contains("materials")));
}

#[test]
fn s23_equal_materials_draw_at_the_turn_limit() {
    let mut g = MicroRts::from_arena(room(true));
    for _ in 0..MAX_TURNS {
        wait(&mut g);
    }
    let o = g.outcome().expect("over");
    assert_eq!(o.scores, vec![1, 1]);
    assert_eq!(o.winner(), None);
}

#[test]
fn s24_a_move_onto_its_own_tile_is_a_harmless_no_op() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    let mut g = MicroRts::from_arena(a);
    let [red, _] = turn(&mut g, "MOVE 10 7 10 7", "WAIT");
    assert_eq!(red, LineOutcome::Done, "accepted, as by the referee");
    assert_eq!(at(&g, 10, 7).1, WORKER);
    assert_eq!(g.arena.tile(10, 7).lock, -1);
    assert!(g.outcome().is_none());
}

// ---------------------------------------------------------------------------------------------
// Parsing details (rulebook: *Protocol*): Java's split and Integer.valueOf, the order of the checks.

#[test]
fn java_split_and_integer_semantics() {
    assert_eq!(java::split("WAIT;", ';'), ["WAIT"]);
    assert_eq!(java::split(";", ';'), Vec::<&str>::new());
    assert_eq!(java::split("", ';'), [""]);
    assert_eq!(java::split(";WAIT", ';'), ["", "WAIT"]);
    assert_eq!(java::split("WAIT  ", ' '), ["WAIT"]);
    assert_eq!(java::split(" WAIT", ' '), ["", "WAIT"]);
    assert_eq!(java::split("   ", ' '), Vec::<&str>::new());
    assert_eq!(java::value_of_int("+3"), Some(3));
    assert_eq!(java::value_of_int("007"), Some(7));
    assert_eq!(java::value_of_int("-1"), Some(-1));
    assert_eq!(java::value_of_int("-2147483648"), Some(i32::MIN));
    assert_eq!(java::value_of_int("2147483648"), None);
    assert_eq!(java::value_of_int("99999999999999999999"), None);
    assert_eq!(java::value_of_int(""), None);
    assert_eq!(java::value_of_int("-"), None);
    assert_eq!(java::value_of_int("+-3"), None);
    assert_eq!(java::value_of_int("3 "), None);
    assert_eq!(
        java::value_of_int("１２"),
        Some(12),
        "fullwidth digits are digits to Java"
    );
    assert_eq!(java::value_of_int("٣"), Some(3), "so are Arabic-Indic ones");
    assert_eq!(
        java::value_of_int("𝟑"),
        None,
        "but not digits outside the BMP"
    );
    assert_eq!(type_value("0"), Some(0));
    assert_eq!(type_value("RANGED"), Some(5));
    assert_eq!(type_value("+2"), None, "type numbers are compared as text");
    assert_eq!(type_value("02"), None);
    assert_eq!(type_value("6"), None);
    assert_eq!(type_value("worker"), None);
}

/// One line from red in a room with a red worker at (10,7) and a red light at (5,5); returns
/// whether red was eliminated and the entity queues' lengths.
fn red_line(line: &str) -> (bool, MicroRts) {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    unit(&mut a, 0, LIGHT, 5, 5);
    resource(&mut a, MINE, 10, 8, 9);
    unit(&mut a, 1, WORKER, 11, 8);
    let mut g = MicroRts::from_arena(a);
    let heard = g.hear(0, line);
    (is_fault(&heard), g)
}

fn queued(g: &MicroRts, x: i32, y: i32) -> usize {
    g.arena.entity_at(x, y).map_or(0, |i| g.arena.queued(i))
}

#[test]
fn what_eliminates_and_what_does_not() {
    let ok = [
        "WAIT",
        "WAIT ",
        "WAIT;",
        ";",
        ";;;",
        "MOVE 10 7 11 7 ",
        "MOVE +10 07 11 7",
        "HARVEST 10 7 10 8",
        "ATTACK 10 7 11 8",
        "BUILD 10 7 9 6 BARRACKS",
        "BUILD 10 7 9 6 0",
        "TRAIN 2 7 5 7 WORKER",
        "MOVE 5 5 7 7",
        "MOVE 10 7 11 8",
        "MOVE 10 7 10 7",
        "MOVE 10 7 9 6;MOVE 10 7 9 7",
    ];
    for line in ok {
        assert!(!red_line(line).0, "{line:?} should be accepted");
    }
    let bad = [
        "",
        " ",
        " WAIT",
        "WAIT;;WAIT",
        ";WAIT",
        "wait",
        "WAIT\t",
        "MOVE 10 7",
        "MOVE 10 7 11",
        "MOVE 10 7 11 7 1 2",
        "STOP 10 7",
        "MOVE 10 7 12 7",
        "MOVE 5 5 8 5",
        "MOVE 1 1 2 2",
        "MOVE 11 8 12 8",
        "MOVE 10 7 -1 7",
        "MOVE 10 7  11 7",
        "MOVE 10 7 11 7 ;WAIT;x",
        "ATTACK 10 7 11 7",
        "ATTACK 10 7 9 9",
        "ATTACK 5 5 11 8",
        "HARVEST 10 7 11 7",
        "HARVEST 5 5 10 8",
        "BUILD 10 7 9 6 WORKER",
        "BUILD 10 7 9 6 barracks",
        "BUILD 10 7 12 7 CASTLE",
        "BUILD 10 7 9 6",
        "TRAIN 2 7 5 7 LIGHT",
        "TRAIN 2 7 6 7 WORKER",
        "TRAIN 10 7 11 7 WORKER",
        "MOVE 10 7 11 7 BARRACKS",
        "BUILD 10 7 11 7",
        "MOVE a 7 11 7",
    ];
    for line in bad {
        assert!(red_line(line).0, "{line:?} should eliminate");
    }
}

#[test]
fn orders_after_an_elimination_still_queue_unless_a_number_was_malformed() {
    // A bad piece: later pieces are still read and queued.
    let (out, g) = red_line("wait;MOVE 10 7 11 7");
    assert!(out);
    assert_eq!(queued(&g, 10, 7), 1);
    // A word that is not a number ends the reading of the line.
    let (out, g) = red_line("MOVE 10 7 x 7;MOVE 10 7 11 7");
    assert!(out);
    assert_eq!(queued(&g, 10, 7), 0);
    // ... but only if it is read: a piece failing earlier checks does not stop the line.
    let (out, g) = red_line("MOVE 1 1 x 7;MOVE 10 7 11 7");
    assert!(out);
    assert_eq!(queued(&g, 10, 7), 1);
    // The MOVE of an eliminated player still runs (the game then ends).
    let (_, mut g) = red_line("MOVE 10 7 11 7;junk");
    g.hear(1, "WAIT");
    g.step();
    assert_eq!(at(&g, 11, 7).1, WORKER);
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![0, 1]));
}

#[test]
fn locks_are_written_when_a_line_is_read() {
    let (_, g) = red_line("MOVE 10 7 11 7");
    assert_eq!(g.arena.tile(10, 7).lock, 0);
    let (_, g) = red_line("MOVE 10 7 11 7;HARVEST 10 7 10 8");
    assert_eq!(g.arena.tile(10, 7).lock, -1, "the last order read decides");
    assert_eq!(queued(&g, 10, 7), 2);
}

#[test]
fn syntax_parse_round_trips_and_rejects() {
    let line = "MOVE 1 2 3 4;ATTACK 1 2 3 4;HARVEST 1 2 3 4;BUILD 1 2 3 4 BARRACKS;TRAIN 1 2 3 4 RANGED;WAIT";
    let commands = parse_syntax(line).expect("valid");
    assert_eq!(commands.len(), 6);
    assert_eq!(protocol::write_line(&commands), line);
    assert_eq!(
        parse_syntax("BUILD 1 2 3 4 1").expect("valid"),
        parse_syntax("BUILD 1 2 3 4 BARRACKS").expect("valid")
    );
    for bad in [
        "",
        "WAIT;;WAIT",
        "MOVE 1 2 3",
        "JUMP 1 2 3 4",
        "BUILD 1 2 3 4 barracks",
    ] {
        assert!(parse_syntax(bad).is_err(), "{bad:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// The three inputs that hang or crash the referee (rulebook: *Departures from the original*), and stale orders.

#[test]
fn a_light_mid_step_off_the_map_is_blocked_not_a_crash() {
    // A light at (1,3) moving to (0,5): the candidates are (−1,4), (0,4), (1,4). The first is
    // off the map (the referee throws), the second a wall; (1,4) is taken.
    let mut a = room(true);
    unit(&mut a, 0, LIGHT, 1, 3);
    let mut g = MicroRts::from_arena(a);
    let [red, _] = turn(&mut g, "MOVE 1 3 0 5", "WAIT");
    assert_eq!(red, LineOutcome::Done);
    // (1,4) was empty: the light steps there, then fails to enter the wall at (0,5).
    assert_eq!(at(&g, 1, 4).1, LIGHT);
    assert!(g.outcome().is_none());
}

#[test]
fn a_stale_move_or_harvest_from_an_empty_tile_is_dropped() {
    // Two moves queued for one worker: the second, written for (10,7), runs after the worker
    // left it (the referee throws on the empty source).
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    let mut g = MicroRts::from_arena(a);
    turn(&mut g, "MOVE 10 7 11 7;MOVE 10 7 10 6", "WAIT");
    assert_eq!(at(&g, 11, 7).1, WORKER);
    wait(&mut g);
    assert!(is_empty(&g, 10, 6));
    assert_eq!(at(&g, 11, 7).1, WORKER);
    assert!(g.outcome().is_none());

    // A harvest queued behind a move, at a mine emptied meanwhile.
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    unit(&mut a, 0, WORKER, 12, 8);
    resource(&mut a, MINE, 11, 8, 1);
    let mut g = MicroRts::from_arena(a);
    turn(
        &mut g,
        "MOVE 10 7 10 6;HARVEST 10 7 11 8;HARVEST 12 8 11 8",
        "WAIT",
    );
    assert!(is_empty(&g, 11, 8), "the other worker took the last gold");
    wait(&mut g);
    assert_eq!(g.arena.gold[0], 11);
    assert!(g.outcome().is_none());
}

#[test]
fn a_stale_order_acts_on_whatever_stands_on_its_tile() {
    // Red's worker queues two moves written for (3,7); the castle trains a new worker onto
    // (3,7) once it leaves. Next turn the second move moves the *new* worker.
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 3, 7);
    let mut g = MicroRts::from_arena(a);
    turn(
        &mut g,
        "TRAIN 2 7 3 7 WORKER;MOVE 3 7 4 7;MOVE 3 7 3 6",
        "WAIT",
    );
    assert_eq!((at(&g, 3, 7).1, at(&g, 4, 7).1), (WORKER, WORKER));
    wait(&mut g);
    assert_eq!(at(&g, 3, 6).1, WORKER, "the trained worker was moved");
    assert!(is_empty(&g, 3, 7));
    assert_eq!(at(&g, 4, 7).1, WORKER);
}

#[test]
fn attacks_hit_whatever_stands_on_the_target_even_a_friend() {
    let mut a = room(true);
    unit(&mut a, 0, HEAVY, 10, 7);
    unit(&mut a, 1, WORKER, 11, 7);
    unit(&mut a, 0, WORKER, 12, 7);
    let mut g = MicroRts::from_arena(a);
    // The enemy worker steps away; red's worker steps into the tile the heavy attacks.
    turn(&mut g, "ATTACK 10 7 11 7;WAIT", "MOVE 11 7 11 6");
    assert_eq!(at(&g, 11, 6).1, WORKER);
    let mut a = room(true);
    unit(&mut a, 0, HEAVY, 10, 7);
    unit(&mut a, 1, WORKER, 11, 7);
    unit(&mut a, 0, WORKER, 12, 8);
    let mut g2 = MicroRts::from_arena(a);
    turn(&mut g2, "ATTACK 10 7 11 7", "MOVE 11 7 11 6");
    assert_eq!(at(&g2, 11, 6).2, 1, "the enemy left in time");
    let mut a = room(true);
    unit(&mut a, 0, HEAVY, 10, 7);
    unit(&mut a, 1, WORKER, 11, 7);
    unit(&mut a, 0, WORKER, 12, 7);
    let mut g3 = MicroRts::from_arena(a);
    turn(&mut g3, "ATTACK 10 7 11 7;MOVE 12 7 11 7", "MOVE 11 7 11 6");
    assert!(
        is_empty(&g3, 11, 7),
        "red's own worker followed into the tile and died"
    );
    assert_eq!(at(&g3, 11, 6), (2, WORKER, 1));
}

#[test]
fn both_players_out_in_one_turn_is_a_draw() {
    let mut g = MicroRts::from_arena(room(true));
    turn(&mut g, "nope", "nope");
    let o = g.outcome().expect("over");
    assert_eq!(o.scores, vec![0, 0]);
    assert_eq!(o.winner(), None);
}

#[test]
fn a_timeout_eliminates_but_the_turn_still_runs() {
    let mut g = MicroRts::from_arena(room(true));
    g.hear(1, "TRAIN 21 7 20 7 WORKER");
    g.fault(0, FaultKind::Timeout);
    g.step();
    assert_eq!(at(&g, 20, 7), (2, WORKER, 1));
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![0, 1]));
    assert!(g.frame().status()[0].contains("timeout"));
}

#[test]
fn materials_count_entity_costs_and_resources() {
    let mut a = room(true);
    unit(&mut a, 0, HEAVY, 10, 7);
    unit(&mut a, 0, BARRACKS, 10, 9);
    a.wood[0] = 3;
    // castle 5 + 5, heavy 2 + 1, barracks 0 + 5, gold 10, wood 3.
    assert_eq!(a.materials(0), 10 + 3 + 5 + 13);
    assert_eq!(a.materials(1), 20);
}

#[test]
fn inputs_and_frames_describe_the_arena() {
    let g = new_game(42);
    let blue = g.input(1);
    assert!(
        blue.lines().any(|l| l == "13 8 0 0 10"),
        "blue sees its castle as 0"
    );
    assert!(blue.lines().any(|l| l == "10 8 1 0 10"));
    let f = g.frame();
    assert_eq!(f.status().len(), 2);
    assert!(f.text().contains("C..c"), "{}", f.text());
    let v: View = serde_json::from_str(&f.view_json()).expect("a view");
    assert_eq!((v.width, v.height, v.max_turns), (24, 15, 200));
    assert_eq!(v.walls.len(), 15);
    assert_eq!(v.entities.len(), 24);
    let mut g = g;
    turn(&mut g, "TRAIN 10 8 11 9 WORKER", "TRAIN 13 8 12 9 2");
    let v: View = serde_json::from_str(&g.frame().view_json()).expect("a view");
    assert_eq!(v.actions.len(), 2);
    assert!(g
        .frame()
        .events()
        .iter()
        .any(|e| e == "red (10,8) trains a worker at (11,9)"));
    assert_eq!(
        g.input(0).lines().next(),
        Some("172 9 0 9 0"),
        "no init block after turn 0"
    );
}

#[test]
fn many_seeds_give_mirrored_maps_within_the_size_range() {
    for seed in [-5, 0, 1, 7, 123_456_789, i64::MAX, i64::MIN] {
        let g = new_game(seed);
        let a = &g.arena;
        assert!((15..=31).contains(&a.width) && (15..=17).contains(&a.height));
        for x in 0..a.width {
            for y in 0..a.height {
                let (t, m) = (a.tile(x, y), a.tile(a.width - 1 - x, y));
                assert_eq!(t.kind, m.kind, "seed {seed} ({x},{y})");
                assert_eq!(t.health, m.health);
                if t.owner != 0 {
                    assert_eq!(t.owner + m.owner, 3);
                }
            }
        }
        assert_eq!(a.castles(0), 1);
        assert_eq!(a.castles(1), 1);
    }
}

/// The typed layer's checks ([`Rules::apply`]) decide every order as the text checks decide its
/// written line: the same accepted orders and locks, the same elimination message. Every verb
/// and type from every kind of tile (own units and buildings, an enemy, a resource, a wall,
/// empty ground, off the map) to every target up to four tiles away.
#[test]
fn typed_checks_decide_as_the_text_checks() {
    let mut a = room(true);
    unit(&mut a, 0, WORKER, 10, 7);
    unit(&mut a, 0, LIGHT, 5, 5);
    unit(&mut a, 0, RANGED, 6, 9);
    unit(&mut a, 0, BARRACKS, 4, 10);
    resource(&mut a, MINE, 10, 8, 9);
    resource(&mut a, FOREST, 9, 9, 3);
    unit(&mut a, 1, WORKER, 11, 8);
    unit(&mut a, 1, HEAVY, 7, 5);
    let sources = [
        (10, 7),
        (5, 5),
        (6, 9),
        (4, 10),
        (2, 7),
        (11, 8),
        (10, 8),
        (0, 0),
        (12, 12),
        (-1, 3),
    ];
    let verbs = [
        Verb::Build,
        Verb::Train,
        Verb::Move,
        Verb::Attack,
        Verb::Harvest,
    ];
    let mut checked = 0;
    for seat in 0..PLAYERS {
        for &(x, y) in &sources {
            for verb in verbs {
                let kinds = if matches!(verb, Verb::Build | Verb::Train) {
                    0..6
                } else {
                    0..1
                };
                for kind in kinds {
                    for tx in x - 4..=x + 4 {
                        for ty in y - 4..=y + 4 {
                            let command = Command::Order(Order {
                                verb,
                                x,
                                y,
                                tx,
                                ty,
                                kind,
                            });
                            let line = write_line(&[command]);
                            assert_eq!(
                                protocol::check_commands(&a, seat, &[command]),
                                check_line(&a, seat, &line),
                                "seat {seat}: {line}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert!(checked > 10_000);
    // A whole line: pieces in order, the first elimination kept, later orders still queued.
    let line = "MOVE 10 7 11 7;ATTACK 5 5 9 9;HARVEST 10 7 10 8;TRAIN 4 10 4 11 HEAVY;WAIT";
    let commands = parse_syntax(line).expect("well formed");
    let typed = protocol::check_commands(&a, 0, &commands);
    assert_eq!(typed, check_line(&a, 0, line));
    assert_eq!(typed.accepted.len(), 3);
    assert!(typed.elimination.is_some());
}
