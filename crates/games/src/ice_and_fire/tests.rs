//! Tests: the conformance suite, the reference material of the rulebook's *Conformance*, and
//! small positions with known outcomes for every rule of its *Rules*, *Protocol*, *End and
//! scoring* and *Leagues (rulesets)*.

use crate::java;
use std::sync::Arc;

use super::map::{idx, mirror, neighbours, Map, CELLS, HEIGHT, WIDTH};
use super::protocol::{parse_line, parse_piece};
use super::state::{Board, Building, BuildingKind, League, Unit};
use super::view::shown_message;
use super::*;

engine::conformance_tests!(IceAndFire, ENTRY);

/// Rulebook, *Conformance*: the seed of the referee's `SkeletonMain`.
const A12_SEED: i64 = -7_095_413_993_656_790_854;

/// Rulebook, *Conformance*: p0's whole first input in league 4 (init block, then the turn-1 block).
const A12_INPUT: &str = "12\n1 0\n2 0\n6 0\n1 1\n5 2\n10 5\n1 6\n6 9\n10 10\n5 11\n9 11\n10 11\n\
21\n1\n20\n2\n\
O..#......##\n\
...........#\n\
...........#\n\
##.........#\n\
#..........#\n\
#..........#\n\
#..........#\n\
#..........#\n\
#.........##\n\
#...........\n\
#..........X\n\
##......#..X\n\
2\n0 0 0 0\n1 0 11 11\n0\n";

fn setup(league: u8, seed: i64) -> Setup {
    let mut s = Setup::new(&INFO, seed);
    s.ruleset = format!("league-{league}");
    s
}

fn new_game(league: u8, seed: i64) -> IceAndFire {
    IceAndFire::create(&setup(league, seed)).expect("valid setup")
}

/// A position from a picture, one character per cell, rows y = 0..11:
/// `#` void, `.` neutral, `$` neutral mine spot, `O`/`X` red/blue cell, `S`/`s` red/blue cell
/// on a mine spot, `H`/`h` red/blue HQ, `M`/`m` red/blue mine, `T`/`t` red/blue tower,
/// `1`–`3` a red unit of that level, `a`–`c` a blue unit of level 1–3. Unit ids are given in
/// reading order from 1. Gold is 20 each; activity and incomes are computed.
fn position(league: u8, rows: [&str; 12]) -> Board {
    let mut void = [false; CELLS];
    let mut spot = [false; CELLS];
    let mut owner = [None; CELLS];
    let mut hqs = [None, None];
    let mut buildings = Vec::new();
    let mut units = Vec::new();
    for (y, row) in rows.iter().enumerate() {
        let chars: Vec<char> = row.chars().collect();
        assert_eq!(chars.len(), WIDTH, "row {y}: {row:?}");
        for (x, ch) in chars.into_iter().enumerate() {
            let c = idx(x, y);
            let seat = usize::from(ch.is_ascii_lowercase());
            match ch {
                '#' => void[c] = true,
                '.' => {}
                '$' => spot[c] = true,
                'O' => owner[c] = Some(0),
                'X' => owner[c] = Some(1),
                'S' | 's' => {
                    owner[c] = Some(seat);
                    spot[c] = true;
                }
                'H' | 'h' => {
                    owner[c] = Some(seat);
                    hqs[seat] = Some(c);
                }
                'M' | 'm' | 'T' | 't' => {
                    owner[c] = Some(seat);
                    let kind = if ch.eq_ignore_ascii_case(&'M') {
                        spot[c] = true;
                        BuildingKind::Mine
                    } else {
                        BuildingKind::Tower
                    };
                    buildings.push(Building {
                        owner: seat,
                        kind,
                        cell: c,
                    });
                }
                '1'..='3' | 'a'..='c' => {
                    let (seat, level) = if ch.is_ascii_digit() {
                        (0, ch as u8 - b'0')
                    } else {
                        (1, ch as u8 - b'a' + 1)
                    };
                    owner[c] = Some(seat);
                    units.push(Unit {
                        owner: seat,
                        id: units.len() as i32 + 1,
                        level,
                        cell: c,
                        moved: false,
                        fresh: false,
                    });
                }
                _ => panic!("unknown cell {ch:?} at ({x},{y})"),
            }
        }
    }
    let mut board = Board::new(Arc::new(Map::from_parts(void, spot)), League(league));
    board.owner = owner;
    let mut all = Vec::new();
    for (seat, hq) in hqs.iter().enumerate() {
        all.push(Building {
            owner: seat,
            kind: BuildingKind::Hq,
            cell: hq.expect("both HQs in the picture"),
        });
    }
    all.extend(buildings);
    board.buildings = all;
    board.next_id = units.len() as i32 + 1;
    board.units = units;
    board.reindex();
    board.compute_activity();
    board.compute_incomes();
    board
}

/// A match at `seat`'s turn in a given position (its turn start has not run).
fn game(board: Board, seat: usize) -> IceAndFire {
    IceAndFire::at_turn_of(board, seat)
}

/// The current player answers a line; the turn runs. Returns the step's events.
fn play(g: &mut IceAndFire, line: &str) -> Vec<String> {
    let seat = g.player;
    let heard = g.hear(seat, line);
    assert_eq!(heard, LineOutcome::Done, "{line:?}: {:?}", g.events);
    g.step();
    g.last_events()
}

fn unit_cell(g: &IceAndFire, id: i32) -> Option<(usize, usize)> {
    g.board.unit_by_id(id).map(|u| map::xy(u.cell))
}

fn has_event(events: &[String], part: &str) -> bool {
    events.iter().any(|e| e.contains(part))
}

/// An open map: red HQ top left, blue HQ bottom right with (11,10).
const OPEN: [&str; 12] = [
    "H...........",
    "............",
    "............",
    "............",
    "............",
    "............",
    "............",
    "............",
    "............",
    "............",
    "...........X",
    "...........h",
];

fn with_rows(changes: &[(usize, &'static str)]) -> [&'static str; 12] {
    let mut rows = OPEN;
    for &(y, row) in changes {
        rows[y] = row;
    }
    rows
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Map generation* / *Conformance*: map generation and the first input.

#[test]
fn the_reference_seed_gives_its_map_spots_and_first_input() {
    let g = new_game(4, A12_SEED);
    let spots: Vec<(usize, usize)> = g.board.map.spots().into_iter().map(map::xy).collect();
    assert_eq!(
        spots,
        [
            (1, 0),
            (2, 0),
            (6, 0),
            (1, 1),
            (5, 2),
            (10, 5),
            (1, 6),
            (6, 9),
            (10, 10),
            (5, 11),
            (9, 11),
            (10, 11)
        ]
    );
    assert_eq!(g.input(0), A12_INPUT);
    // League 3 has the same map and spots.
    assert_eq!(new_game(3, A12_SEED).input(0), A12_INPUT);
    // Leagues 1 and 2: the same terrain, no spots.
    let terrain = &A12_INPUT[A12_INPUT.find("21\n").unwrap_or(0)..];
    for league in [1, 2] {
        assert_eq!(new_game(league, A12_SEED).input(0), format!("0\n{terrain}"));
    }
}

#[test]
fn blue_gets_the_init_block_with_its_first_turn_only() {
    let mut g = new_game(4, A12_SEED);
    play(&mut g, "WAIT");
    let input = g.input(1);
    assert!(input.starts_with("12\n1 0\n2 0\n"), "{input}");
    let turn = &input[input.find("10 11\n").unwrap_or(0) + 6..];
    // Blue sees 22 gold, income 2, red's 21 and 1, then the map from its side.
    assert!(turn.starts_with("22\n2\n21\n1\nX..#"), "{turn}");
    assert!(turn.ends_with("2\n0 0 11 11\n1 0 0 0\n0\n"), "{turn}");
    play(&mut g, "WAIT");
    assert!(g.input(0).starts_with("22\n1\n22\n2\n"), "{}", g.input(0));
    play(&mut g, "WAIT");
    assert!(g.input(1).starts_with("24\n2\n22\n1\n"), "{}", g.input(1));
}

fn connected(map: &Map) -> bool {
    let land: Vec<usize> = (0..CELLS).filter(|&c| !map.void[c]).collect();
    land.iter()
        .all(|&c| map.dist(land[0], c) != map::UNREACHABLE)
}

#[test]
fn generated_maps_have_the_promised_shape() {
    for seed in -60..60i64 {
        let seed = seed.wrapping_mul(0x2545_F491_4F6C_DD1D);
        let map = Map::generate(seed, true);
        let plain = Map::generate(seed, false);
        assert_eq!(
            map.void, plain.void,
            "seed {seed}: spots change the terrain"
        );
        assert!(plain.spots().is_empty());
        assert!(connected(&map), "seed {seed}");
        for c in 0..CELLS {
            assert_eq!(map.void[c], map.void[mirror(c)], "seed {seed}: symmetry");
            assert_eq!(
                map.spot[c],
                map.spot[mirror(c)],
                "seed {seed}: spot symmetry"
            );
            assert!(!(map.spot[c] && map.void[c]), "seed {seed}: spot on void");
        }
        for x in 0..3 {
            for y in 0..3 {
                assert!(!map.void[idx(x, y)], "seed {seed}: corner");
            }
        }
        let spots = map.spots();
        let land = map.void.iter().filter(|v| !**v).count();
        let max = 6.max((land as f32 * 0.15) as usize);
        assert!(spots.len() & 1 == 0 && spots.len() >= 6 && spots.len() <= max);
        assert!(map.spot[idx(1, 0)] && map.spot[idx(10, 11)]);
        for (x, y) in [(0, 0), (11, 11), (0, 1), (11, 10)] {
            assert!(!map.spot[idx(x, y)], "seed {seed}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Conformance*: the rule checks.

#[test]
fn red_ties_go_right_before_down() {
    let rows = with_rows(&[(0, "HO.........."), (1, "O1..........")]);
    let mut g = game(position(4, rows), 0);
    play(&mut g, "MOVE 1 3 3");
    assert_eq!(unit_cell(&g, 1), Some((2, 1)));
}

#[test]
fn blue_ties_go_left_before_up() {
    let rows = with_rows(&[(10, "..........aX"), (11, "..........Xh")]);
    let mut g = game(position(4, rows), 1);
    play(&mut g, "MOVE 1 8 8");
    assert_eq!(unit_cell(&g, 1), Some((9, 10)));
}

#[test]
fn level_one_against_level_one_depends_on_the_max_level() {
    let rows = with_rows(&[(5, ".....a......")]);
    let c = idx(5, 5);
    let wood2 = position(2, rows);
    assert!(!wood2.capturable(c, 0, 1));
    assert!(wood2.capturable(c, 0, 2));
    assert!(wood2.capturable(c, 0, 3));
    let wood3 = position(1, rows);
    assert!(wood3.capturable(c, 0, 1));
    // Level 3 (the max) kills level 3; level 2 does not kill level 2.
    let rows = with_rows(&[(5, ".....c.b....")]);
    let b = position(4, rows);
    assert!(b.capturable(idx(5, 5), 0, 3));
    assert!(!b.capturable(idx(7, 5), 0, 2));
}

#[test]
fn an_active_tower_protects_its_neighbours() {
    let rows = with_rows(&[(11, ".........tXh")]);
    let b = position(4, rows);
    assert!(b.active[idx(9, 11)] && b.active[idx(10, 11)]);
    assert!(!b.capturable(idx(10, 11), 0, 2));
    assert!(b.capturable(idx(10, 11), 0, 3));
    assert!(!b.capturable(idx(9, 11), 0, 2));
    assert!(b.capturable(idx(9, 11), 0, 3));
    // Diagonal and neutral neighbours are not protected.
    assert!(b.capturable(idx(8, 11), 0, 1));
    assert!(b.capturable(idx(10, 10), 0, 1));
}

#[test]
fn inactive_tower_guards_only_its_own_cell() {
    // A blue tower cut off from the blue HQ, with a blue cell next to it.
    let rows = with_rows(&[(5, ".....tX.....")]);
    let b = position(4, rows);
    assert!(!b.active[idx(5, 5)] && !b.active[idx(6, 5)]);
    assert!(
        b.capturable(idx(6, 5), 0, 1),
        "no protection from an inactive tower"
    );
    assert!(
        !b.capturable(idx(5, 5), 0, 2),
        "the tower cell still needs level 3"
    );
    assert!(b.capturable(idx(5, 5), 0, 3));
    // The view does not mark the cell as protected.
    let g = game(b, 0);
    assert!(!view::view(&g).protected[idx(6, 5)]);
}

#[test]
fn towers_block_training_and_moving_below_level_three() {
    // Red: HQ, a cell, a level-1 unit next to a blue tower-protected cell.
    let rows = with_rows(&[(0, "HO1Xt.......")]);
    let mut b = position(4, rows);
    // Connect the blue cells at (3,0),(4,0) to blue territory by hand: make them blue-active.
    b.active[idx(3, 0)] = true;
    b.active[idx(4, 0)] = true;
    b.gold[0] = 100;
    let mut g = game(b, 0);
    let events = play(&mut g, "MOVE 1 3 0;TRAIN 2 3 0;TRAIN 3 3 0");
    assert!(has_event(&events, "MOVE 1 3 0 skipped"), "{events:?}");
    assert!(has_event(&events, "TRAIN 2 3 0 skipped"), "{events:?}");
    assert!(
        has_event(&events, "red trains a level-3 unit (id 2) at (3,0)"),
        "{events:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Protocol*: parsing.

#[test]
fn java_split_and_trim_semantics() {
    assert_eq!(java::split("", ';'), [""]);
    assert_eq!(java::split(";", ';'), Vec::<&str>::new());
    assert_eq!(java::split(";;", ';'), Vec::<&str>::new());
    assert_eq!(java::split("A;", ';'), ["A"]);
    assert_eq!(java::split("A;;", ';'), ["A"]);
    assert_eq!(java::split(";A", ';'), ["", "A"]);
    assert_eq!(java::split("A;;B", ';'), ["A", "", "B"]);
    assert_eq!(java::split("A; ;", ';'), ["A", " "]);
    assert_eq!(java::trim("\u{0}\t WAIT \u{1f}"), "WAIT");
    assert_eq!(java::trim("\u{a0}WAIT"), "\u{a0}WAIT");
}

#[test]
fn pieces_are_recognised_exactly() {
    assert_eq!(parse_piece("WAIT"), Some(Command::Wait));
    assert_eq!(
        parse_piece("MSG hi there"),
        Some(Command::Msg("hi there".into()))
    );
    assert_eq!(parse_piece("MSG  x"), Some(Command::Msg(" x".into())));
    assert_eq!(
        parse_piece("MOVE 007 2 3"),
        Some(Command::Move { id: 7, x: 2, y: 3 })
    );
    assert_eq!(
        parse_piece("TRAIN 1 2 2147483647"),
        Some(Command::Train {
            level: 1,
            x: 2,
            y: i32::MAX
        })
    );
    assert_eq!(
        parse_piece("BUILD TOWER 4 5"),
        Some(Command::Build {
            kind: BuildKind::Tower,
            x: 4,
            y: 5
        })
    );
    // Java's `$` matches before one final line terminator.
    assert_eq!(
        parse_piece("MOVE 1 2 3\u{2028}"),
        Some(Command::Move { id: 1, x: 2, y: 3 })
    );
    for bad in [
        "",
        "MSG",
        "WAIT\u{2028}",
        "MOVE 1 2 3\u{2028}\u{2028}",
        "MOVE 1 2 3\u{2028}4",
        "wait",
        "Wait",
        "WAIT WAIT",
        "MOVE  1 2 3",
        "MOVE 1 2  3",
        "MOVE 1 2 -3",
        "MOVE 1 2 +3",
        "MOVE 1 2 3 4",
        "MOVE 1 2",
        "TRAIN  1 1",
        "TRAIN 1 1 2147483648",
        "TRAIN 1 1 99999999999999999999",
        "TRAIN 1 1 \u{ff13}",
        "TRAIN\t1 1 1",
        "BUILD TOWERS 1 1",
        "BUILD tower 1 1",
        "BUILD HQ 1 1",
        "BUILD MINE 1",
        "move 1 2 3",
        "\u{a0}WAIT",
    ] {
        assert_eq!(parse_piece(java::trim(bad)), None, "{bad:?}");
    }
}

#[test]
fn lines_split_on_semicolons() {
    assert_eq!(parse_line("WAIT;"), Ok(vec![Command::Wait]));
    assert_eq!(parse_line(";"), Ok(vec![]));
    assert_eq!(
        parse_line(" MOVE 1 2 3 ;  MSG a b ;WAIT"),
        Ok(vec![
            Command::Move { id: 1, x: 2, y: 3 },
            Command::Msg("a b".into()),
            Command::Wait
        ])
    );
    let bad = parse_line("MSG hi;;WAIT").unwrap_err();
    assert_eq!(bad.piece, "");
    assert_eq!(bad.before, vec![Command::Msg("hi".into())]);
    assert_eq!(parse_line("MSG ;WAIT").unwrap_err().piece, "MSG");
}

#[test]
fn every_unrecognised_line_loses_at_once_and_runs_nothing() {
    for line in [
        "",
        "   ",
        ";WAIT",
        "WAIT;;WAIT",
        "WAIT; ;WAIT",
        "TRAIN 1 1 0; ",
        "MSG",
        "MSG ",
        "wait",
        "TRAIN 1 1 0;TRAIN  1 0 1",
        "TRAIN 1 1 0;train 1 0 1",
        "TRAIN 1 1 0;TRAIN 1 0 -1",
        "TRAIN 1 1 0;TRAIN 1 0 99999999999",
        "TRAIN 1 1 0;BUILD TOWER 1 1 1",
        "TRAIN 1 1 0;HELLO",
    ] {
        let mut g = new_game(4, A12_SEED);
        let heard = g.hear(0, line);
        assert!(
            matches!(heard, LineOutcome::Fault(_)),
            "{line:?}: {heard:?}"
        );
        let outcome = g.outcome().expect("over");
        // Blue wins with its military power: 20 gold, no units.
        assert_eq!(outcome.scores, vec![-1, 20], "{line:?}");
        assert_eq!(outcome.winner(), Some(1));
        assert!(g.to_move().is_empty());
        g.step();
        assert!(g.board.units.is_empty(), "{line:?}: nothing runs");
        assert_eq!(g.board.gold[0], 21);
        assert_eq!(
            view::status(&g)[0],
            format!(
                "lost: {}",
                g.lost.as_ref().map(|l| l.1.clone()).unwrap_or_default()
            )
        );
        assert!(g
            .frame()
            .events()
            .iter()
            .any(|e| e.starts_with("red loses: unrecognised command")));
    }
}

#[test]
fn recognised_lines_with_odd_spacing_are_fine() {
    for line in [
        "WAIT;",
        "WAIT;;",
        ";",
        "\tTRAIN 01 1 0\t;MSG  spaced ",
        "TRAIN 1 1 0;MSG a b c",
    ] {
        let mut g = new_game(4, A12_SEED);
        assert_eq!(g.hear(0, line), LineOutcome::Done, "{line:?}");
        g.step();
        assert!(g.outcome().is_none(), "{line:?}");
    }
    let mut g = new_game(4, A12_SEED);
    play(&mut g, "\tTRAIN 01 1 0\t;MSG  spaced ");
    assert_eq!(unit_cell(&g, 1), Some((1, 0)));
    assert_eq!(g.messages[0].as_deref(), Some(" spaced"));
}

#[test]
fn parse_time_checks_only_ignore() {
    let mut g = new_game(4, A12_SEED);
    // (3,0) is void; (12,0) is off the map; level 0 and 4 do not exist; unit 1 does not exist
    // yet when the line is read, even though the line trains it first.
    let events = play(
        &mut g,
        "TRAIN 1 1 0;MOVE 1 2 0;TRAIN 1 3 0;TRAIN 1 12 0;TRAIN 0 1 1;TRAIN 4 1 1;MOVE 1 3 0;BUILD MINE 3 0",
    );
    assert!(g.outcome().is_none());
    assert_eq!(g.board.units.len(), 1);
    assert_eq!(unit_cell(&g, 1), Some((1, 0)));
    for part in [
        "MOVE 1 2 0 skipped: no living unit has id 1",
        "TRAIN 1 3 0 skipped: (3,0) is out of bounds",
        "TRAIN 1 12 0 skipped: (12,0) is out of bounds",
        "TRAIN 0 1 1 skipped: invalid level 0",
        "TRAIN 4 1 1 skipped: invalid level 4",
        "MOVE 1 3 0 skipped",
        "BUILD MINE 3 0 skipped: (3,0) is out of bounds",
    ] {
        assert!(has_event(&events, part), "{part}: {events:?}");
    }
    // Blue may not move red's unit.
    let events = play(&mut g, "MOVE 1 1 1");
    assert!(
        has_event(&events, "blue: MOVE 1 1 1 skipped: unit 1 is red's"),
        "{events:?}"
    );
    assert_eq!(unit_cell(&g, 1), Some((1, 0)));
}

#[test]
fn wood3_ignores_training_other_levels() {
    let mut g = new_game(1, A12_SEED);
    let events = play(&mut g, "TRAIN 2 1 0;TRAIN 1 0 1");
    assert!(
        has_event(&events, "only level-1 units in this league"),
        "{events:?}"
    );
    assert_eq!(g.board.units.len(), 1);
    assert_eq!(unit_cell(&g, 1), Some((0, 1)));
}

#[test]
fn messages_are_kept_per_turn_and_cut_for_the_viewer() {
    assert_eq!(
        shown_message("12345678901234567890"),
        "12345678901234567890"
    );
    assert_eq!(
        shown_message("123456789012345678901"),
        "12345678901234567..."
    );
    let mut g = new_game(4, A12_SEED);
    let events = play(
        &mut g,
        "MSG winter is coming, slowly but surely;MSG last one",
    );
    assert!(
        has_event(&events, "red says \"winter is coming,...\""),
        "{events:?}"
    );
    assert_eq!(g.messages[0].as_deref(), Some("last one"));
    play(&mut g, "WAIT");
    assert_eq!(
        g.messages[0].as_deref(),
        None,
        "reset at red's next turn start"
    );
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *A player's turn* / *Territory*: income, upkeep, bankruptcy, cut-off units.

#[test]
fn income_counts_active_cells_mines_and_upkeep() {
    let rows = with_rows(&[
        (0, "HOM........."),
        (1, "2..........."),
        (5, ".....OM....."),
        (6, ".....1......"),
    ]);
    let b = position(4, rows);
    // Active: (0,0), (1,0), (2,0), (0,1) = 4; mine +4; level-2 upkeep −4. The cut-off cells,
    // mine and unit count nothing.
    assert_eq!(b.income[0], 4);
    assert_eq!(b.income[1], 2);
}

#[test]
fn income_is_added_at_the_start_of_the_own_turn_only() {
    let rows = with_rows(&[(0, "HO2.........")]);
    let mut g = game(position(4, rows), 1);
    assert_eq!(g.board.income[0], 3 - 4);
    play(&mut g, "WAIT");
    assert_eq!(g.board.gold, [19, 20]);
    play(&mut g, "WAIT");
    assert_eq!(g.board.gold, [19, 22]);
}

#[test]
fn bankruptcy_kills_every_unit_and_keeps_the_stale_income() {
    let rows = with_rows(&[
        (0, "H3.1........"),
        (1, "O..........."),
        (3, "1..........."),
    ]);
    let mut b = position(4, rows);
    b.gold[0] = 5;
    let mut g = game(b, 1);
    // Red: 3 active cells and a level-3 unit; units 2 and 3 are cut off.
    assert_eq!(g.board.income[0], 3 - 20);
    let events = play(&mut g, "WAIT");
    assert!(
        has_event(&events, "red's 2 units on inactive cells die (id 2, 3)"),
        "{events:?}"
    );
    assert!(
        has_event(&events, "red goes bankrupt: all its units die (1 unit)"),
        "{events:?}"
    );
    assert_eq!(g.board.gold[0], 0);
    assert!(g.board.units.is_empty());
    // The income red is told still counts the dead level-3 unit's upkeep.
    assert_eq!(g.board.income[0], -17);
    assert!(g.input(0).starts_with("0\n-17\n20\n2\n"), "{}", g.input(0));
    // Any successful action or the next turn start recomputes it.
    play(&mut g, "WAIT");
    assert_eq!(g.board.income[0], 3);
}

#[test]
fn cut_off_units_die_at_their_owners_turn_start_only() {
    // Blue's unit 2 at (1,1) stands on a cut-off blue cell; red's unit 1 at (2,0).
    let rows = with_rows(&[(0, "HO1........."), (1, ".a..........")]);
    let mut g = game(position(4, rows), 1);
    // During blue's turn its own cut-off unit is alive and acts.
    let mut b = g.board.clone();
    assert_eq!(
        b.move_unit(1, 2, 1, 0).map(|e| e.to_string()),
        Ok("blue's unit 2 moves to (1,0)".to_string()),
    );
    assert!(!b.active[idx(2, 0)], "red's (2,0) is cut off");
    assert!(b.unit_by_id(1).is_some(), "red's unit 1 is still there");
    assert_eq!(b.income[0], 1, "a cut-off unit costs no upkeep");
    let events = play(&mut g, "MOVE 2 1 0");
    assert!(
        has_event(&events, "red's 1 unit on inactive cells dies (id 1)"),
        "{events:?}"
    );
    assert!(g.board.unit_by_id(1).is_none());
    // Blue's unit on its own cut-off cell survives red's turn start...
    assert_eq!(unit_cell(&g, 2), Some((1, 0)));
    let events = play(&mut g, "WAIT");
    // ...and dies at blue's.
    assert!(
        has_event(&events, "blue's 1 unit on inactive cells dies (id 2)"),
        "{events:?}"
    );
    assert!(g.board.units.is_empty());
}

#[test]
fn cut_off_enemy_units_still_block_and_can_be_killed() {
    let rows = with_rows(&[(0, "H1a.........")]);
    let mut b = position(2, rows);
    b.gold[0] = 50;
    let mut g = game(b, 0);
    // Unit a (id 2) is cut off but still blocks level 1 and dies to level 2.
    let events = play(&mut g, "MOVE 1 2 0;TRAIN 2 2 0");
    assert!(has_event(&events, "MOVE 1 2 0 skipped"), "{events:?}");
    assert!(
        has_event(
            &events,
            "red trains a level-2 unit (id 3) at (2,0) and kills blue's level-1 unit 2"
        ),
        "{events:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Rules*: actions.

#[test]
fn moves_follow_the_static_distance_and_never_sidestep() {
    // Red units 1 (1,0) and 2 (2,0); void below (2,0) forces the path along row 0.
    let rows = with_rows(&[(0, "H12........."), (1, "O.#.........")]);
    let mut g = game(position(4, rows), 0);
    // Unit 1 wants (3,0): its best cell (2,0) holds unit 2; (1,1) is not closer: it stays.
    let events = play(&mut g, "MOVE 1 3 0;MOVE 2 2 0;MOVE 2 3 0;MOVE 2 4 0");
    assert!(
        has_event(&events, "MOVE 1 3 0 skipped: unit 1 stays still"),
        "{events:?}"
    );
    assert!(
        has_event(&events, "MOVE 2 2 0 skipped: unit 2 stays still"),
        "{events:?}"
    );
    assert!(
        has_event(&events, "red's unit 2 moves to (3,0)"),
        "{events:?}"
    );
    assert!(
        has_event(&events, "MOVE 2 4 0 skipped: unit 2 has already moved"),
        "{events:?}"
    );
    // A blocked best cell with a strictly closer alternative: unit 1 goes down then right.
    let rows = with_rows(&[(0, "H12........."), (1, "O...........")]);
    let mut g = game(position(4, rows), 0);
    play(&mut g, "MOVE 1 2 1");
    assert_eq!(unit_cell(&g, 1), Some((1, 1)));
}

#[test]
fn fresh_units_cannot_move_and_own_cells_cannot_be_entered() {
    let rows = with_rows(&[(0, "HOT........."), (1, "1M..........")]);
    let mut b = position(4, rows);
    b.gold[0] = 100;
    let mut g = game(b, 0);
    let events = play(
        &mut g,
        "TRAIN 1 1 0;MOVE 1 0 0;MOVE 1 1 1;TRAIN 1 2 0;MOVE 2 2 1",
    );
    assert!(
        has_event(&events, "red trains a level-1 unit (id 2) at (1,0)"),
        "{events:?}"
    );
    assert!(
        has_event(
            &events,
            "MOVE 1 0 0 skipped: unit 1 (level 1) cannot take (0,0)"
        ),
        "{events:?}"
    );
    assert!(
        has_event(
            &events,
            "MOVE 1 1 1 skipped: unit 1 (level 1) cannot take (1,1)"
        ),
        "{events:?}"
    );
    assert!(
        has_event(
            &events,
            "TRAIN 1 2 0 skipped: a level-1 unit cannot take (2,0)"
        ),
        "{events:?}"
    );
    // Unit 2 did not exist when the line was read.
    assert!(
        has_event(&events, "MOVE 2 2 1 skipped: no living unit has id 2"),
        "{events:?}"
    );
    // Nor may it move later in the turn it was trained (replayed here as a second line).
    g.player = 0;
    g.answered = false;
    let events = play(&mut g, "MOVE 2 2 1");
    assert!(
        has_event(&events, "MOVE 2 2 1 skipped: unit 2 was trained this turn"),
        "{events:?}"
    );
}

#[test]
fn train_checks_in_order() {
    let rows = with_rows(&[(0, "HO..........")]);
    let mut b = position(4, rows);
    b.gold[0] = 25;
    let mut g = game(b, 0);
    let events = play(&mut g, "TRAIN 1 5 5;TRAIN 3 2 0;TRAIN 2 2 0;TRAIN 1 0 1");
    assert!(
        has_event(
            &events,
            "TRAIN 1 5 5 skipped: (5,5) is not in or next to red's active territory"
        ),
        "{events:?}"
    );
    assert!(
        has_event(
            &events,
            "TRAIN 3 2 0 skipped: not enough gold (25 for a cost of 30)"
        ),
        "{events:?}"
    );
    assert!(
        has_event(&events, "red trains a level-2 unit (id 1) at (2,0)"),
        "{events:?}"
    );
    assert!(
        has_event(
            &events,
            "TRAIN 1 0 1 skipped: not enough gold (5 for a cost of 10)"
        ),
        "{events:?}"
    );
}

#[test]
fn build_checks_in_order() {
    let rows = with_rows(&[
        (0, "HSO1........"),
        (1, "OO$........."),
        (2, "S..........."),
    ]);
    let mut b = position(4, rows);
    b.gold[0] = 40;
    let mut g = game(b, 0);
    let events = play(
        &mut g,
        "BUILD MINE 2 1;BUILD MINE 3 0;BUILD MINE 0 1;BUILD TOWER 1 0;BUILD MINE 1 0;\
         BUILD TOWER 1 1;BUILD MINE 0 2;BUILD MINE 5 5",
    );
    for part in [
        "BUILD MINE 2 1 skipped: (2,1) is not red's",
        "BUILD MINE 3 0 skipped: (3,0) is occupied",
        "BUILD MINE 0 1 skipped: (0,1) is not a mine spot",
        "BUILD TOWER 1 0 skipped: (1,0) is a mine spot: no tower there",
        "red builds a mine at (1,0)",
        "red builds a tower at (1,1)",
        "BUILD MINE 0 2 skipped: not enough gold (10 for a cost of 15)",
        "BUILD MINE 5 5 skipped: (5,5) is not in or next to red's active territory",
    ] {
        assert!(has_event(&events, part), "{part}: {events:?}");
    }
    assert_eq!(g.board.gold[0], 10);
    // A build recomputes the incomes: 7 active cells + 4 for the mine − 1 upkeep.
    let mut b = position(4, rows);
    assert_eq!(b.income[0], 7 - 1);
    assert!(b.build(0, BuildingKind::Mine, 1, 0).is_ok());
    assert_eq!(b.income[0], 7 + 4 - 1);
}

#[test]
fn buildings_per_league() {
    let rows = with_rows(&[(0, "HSO.........")]);
    for (league, mine, tower) in [
        (1, false, false),
        (2, false, false),
        (3, true, false),
        (4, true, true),
    ] {
        let mut b = position(league, rows);
        b.gold[0] = 40;
        let mut g = game(b, 0);
        let events = play(&mut g, "BUILD TOWER 2 0;BUILD MINE 1 0");
        assert!(g.outcome().is_none());
        assert_eq!(
            has_event(&events, "red builds a mine at (1,0)"),
            mine,
            "league {league}: {events:?}"
        );
        assert_eq!(
            has_event(&events, "red builds a tower at (2,0)"),
            tower,
            "league {league}: {events:?}"
        );
        if league == 3 {
            assert!(
                has_event(&events, "BUILD TOWER 2 0 skipped: no TOWER in this league"),
                "{events:?}"
            );
        }
        if league <= 2 {
            assert!(
                has_event(&events, "BUILD MINE 1 0 skipped: no MINE in this league"),
                "{events:?}"
            );
        }
    }
}

#[test]
fn entering_destroys_mines_but_towers_need_level_three() {
    let rows = with_rows(&[(0, "H12m.t......")]);
    let mut b = position(4, rows);
    // Pretend the blue buildings are in blue's active territory.
    b.active[idx(3, 0)] = true;
    b.active[idx(5, 0)] = true;
    let mut g = game(b, 0);
    let events = play(&mut g, "MOVE 2 3 0;MOVE 1 2 0");
    assert!(
        has_event(
            &events,
            "red's unit 2 moves to (3,0) and destroys blue's mine"
        ),
        "{events:?}"
    );
    assert_eq!(g.board.buildings.len(), 3);
    // A cut-off blue tower at (3,0): level 2 may not enter it, level 3 destroys it.
    let rows = with_rows(&[(0, "H.2t........"), (1, "OOO3........")]);
    let mut g = game(position(4, rows), 0);
    let events = play(&mut g, "MOVE 1 3 0;MOVE 2 3 0");
    assert!(
        has_event(
            &events,
            "MOVE 1 3 0 skipped: unit 1 (level 2) cannot take (3,0)"
        ),
        "{events:?}"
    );
    assert!(
        has_event(
            &events,
            "red's unit 2 moves to (3,0) and destroys blue's tower"
        ),
        "{events:?}"
    );
}

#[test]
fn wood3_level_one_kills_level_one_and_wood2_does_not() {
    let rows = with_rows(&[(0, "HOa.........")]);
    let mut g = game(position(1, rows), 0);
    let events = play(&mut g, "TRAIN 1 2 0");
    assert!(
        has_event(
            &events,
            "red trains a level-1 unit (id 2) at (2,0) and kills blue's level-1 unit 1"
        ),
        "{events:?}"
    );
    let mut g = game(position(2, rows), 0);
    let events = play(&mut g, "TRAIN 1 2 0");
    assert!(
        has_event(
            &events,
            "TRAIN 1 2 0 skipped: a level-1 unit cannot take (2,0)"
        ),
        "{events:?}"
    );
    assert!(g.board.unit_by_id(2).is_none());
}

#[test]
fn unit_ids_are_one_counter_for_both_players() {
    let mut g = new_game(4, A12_SEED);
    play(&mut g, "TRAIN 1 1 0");
    play(&mut g, "TRAIN 1 0 5;TRAIN 1 10 11");
    play(&mut g, "TRAIN 1 2 0");
    let ids: Vec<(usize, i32)> = g.board.units.iter().map(|u| (u.owner, u.id)).collect();
    assert_eq!(ids, [(0, 1), (1, 2), (0, 3)]);
    assert_eq!(unit_cell(&g, 2), Some((10, 11)));
    // Both sides see the same ids; own units first.
    let input = g.input(1);
    assert!(
        input.ends_with("3\n0 2 1 10 11\n1 1 1 1 0\n1 3 1 2 0\n"),
        "{input}"
    );
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *End and scoring*: the end.

#[test]
fn hq_captured_by_training_ends_the_line_and_the_game() {
    let rows = with_rows(&[(0, "HOOh........"), (11, "............")]);
    let mut g = game(position(4, rows), 0);
    let events = play(&mut g, "TRAIN 1 3 0;TRAIN 1 0 1");
    assert!(
        has_event(
            &events,
            "red trains a level-1 unit (id 1) at (3,0) and captures blue's HQ"
        ),
        "{events:?}"
    );
    assert!(
        has_event(&events, "the game is over: 1 more command is not run"),
        "{events:?}"
    );
    assert!(
        has_event(&events, "blue's HQ is captured: red wins"),
        "{events:?}"
    );
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.scores, vec![20, -1], "10 gold + a level-1 unit");
    assert_eq!(outcome.winner(), Some(0));
    assert!(g.to_move().is_empty());
    let v: View = serde_json::from_str(&g.frame().view_json()).expect("a view");
    assert_eq!(v.hq_captured, Some(1));
    assert_eq!(v.winner, Some(0));
    assert!(v.over);
    assert_eq!(v.players[1].lost.as_deref(), Some("HQ captured"));
}

#[test]
fn hq_captured_by_moving_unless_a_tower_guards_it() {
    let rows = with_rows(&[(0, "HO1h........"), (11, "............")]);
    let mut g = game(position(4, rows), 0);
    let events = play(&mut g, "MOVE 1 3 0");
    assert!(
        has_event(
            &events,
            "red's unit 1 moves to (3,0) and captures blue's HQ"
        ),
        "{events:?}"
    );
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![30, -1]));
    // A blue tower next to the HQ: level 1 cannot, level 3 can.
    let rows = with_rows(&[
        (0, "HO1h........"),
        (1, "...t........"),
        (11, "............"),
    ]);
    let mut g = game(position(4, rows), 0);
    let events = play(&mut g, "MOVE 1 3 0");
    assert!(has_event(&events, "MOVE 1 3 0 skipped"), "{events:?}");
    assert!(g.outcome().is_none());
    let rows = with_rows(&[
        (0, "HO3h........"),
        (1, "...t........"),
        (11, "............"),
    ]);
    let mut g = game(position(4, rows), 0);
    play(&mut g, "MOVE 1 3 0");
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![50, -1]));
}

#[test]
fn blue_can_capture_too() {
    let rows = with_rows(&[(0, "Hb.........."), (1, "X...........")]);
    let mut g = game(position(4, rows), 1);
    let events = play(&mut g, "MOVE 1 0 0");
    assert!(
        has_event(&events, "red's HQ is captured: blue wins"),
        "{events:?}"
    );
    assert_eq!(g.outcome().map(|o| o.scores), Some(vec![-1, 40]));
}

#[test]
fn turn_limit_scores_military_power() {
    let mut g = new_game(4, A12_SEED);
    for turn in 0..200u32 {
        assert_eq!(g.turn(), turn);
        assert_eq!(g.to_move(), vec![(turn % 2) as usize]);
        play(&mut g, "WAIT");
    }
    assert!(g.to_move().is_empty());
    assert_eq!(g.turn(), 200);
    let outcome = g.outcome().expect("over at the turn limit");
    // 20 + 100 × 1 and 20 + 100 × 2; no 101st income for red.
    assert_eq!(outcome.scores, vec![120, 220]);
    assert_eq!(outcome.winner(), Some(1));
    assert!(has_event(
        &g.frame().events(),
        "turn limit: military power red 120, blue 220"
    ));
}

#[test]
fn turn_limit_counts_cut_off_units_and_draws_on_equal_power() {
    // Red's level-2 unit (id 1) stands cut off at (5,5) when blue plays its 100th turn.
    let rows = with_rows(&[(5, ".....2......")]);
    let mut b = position(4, rows);
    b.gold = [10, 30];
    let mut g = game(b, 1);
    g.turns_done = 199;
    play(&mut g, "WAIT");
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.scores, vec![30, 30]);
    assert_eq!(outcome.winner(), None);
    assert_eq!(outcome.ranks, vec![1, 1]);
}

#[test]
fn faults_lose_with_minus_one() {
    let mut g = new_game(4, A12_SEED);
    play(&mut g, "TRAIN 1 1 0");
    g.fault(1, FaultKind::Timeout);
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.scores, vec![21, -1], "11 gold + a level-1 unit");
    assert_eq!(outcome.reason, "blue loses: timeout");
    let before = g.turn();
    g.step();
    assert_eq!(g.turn(), before);
    assert_eq!(
        view::status(&g),
        vec!["gold 11 · income 1 · 1 unit · score 21", "lost: timeout"]
    );
    assert_eq!(g.frame().events(), vec!["blue loses: timeout"]);
    // Later faults and lines change nothing.
    g.fault(0, FaultKind::Crash);
    assert_eq!(g.hear(0, "garbage"), LineOutcome::Done);
    assert_eq!(g.outcome(), Some(outcome));
}

// ---------------------------------------------------------------------------------------------
// Frames and the text layer.

#[test]
fn frames_carry_a_complete_view() {
    let mut g = new_game(4, A12_SEED);
    play(&mut g, "TRAIN 1 1 0;MSG hello");
    let frame = g.frame();
    assert_eq!(frame.turn, 1);
    assert_eq!(
        frame.events(),
        vec![
            "red says \"hello\"",
            "red trains a level-1 unit (id 1) at (1,0)"
        ]
    );
    assert_eq!(
        frame.status(),
        vec![
            "gold 11 · income 1 · 1 unit",
            "gold 22 · income 2 · 0 units"
        ]
    );
    let v: View = serde_json::from_str(&frame.view_json()).expect("a view");
    assert_eq!((v.width, v.height, v.turn, v.league), (12, 12, 1, 4));
    assert_eq!(v.void.len(), 144);
    assert!(v.void[idx(3, 0)]);
    assert_eq!(v.owner[idx(1, 0)], Some(0));
    assert_eq!(v.owner[idx(11, 10)], Some(1));
    assert!(v.active[idx(1, 0)]);
    assert_eq!(v.mine_spots.len(), 12);
    assert_eq!(v.buildings.len(), 2);
    assert_eq!(v.units.len(), 1);
    assert_eq!((v.units[0].id, v.units[0].x, v.units[0].y), (1, 1, 0));
    assert_eq!(v.players[0].message.as_deref(), Some("hello"));
    assert_eq!(v.players[0].military_power, 21);
    assert_eq!(v.played, Some(0));
    assert_eq!(v.to_move, Some(1));
    assert_eq!(v.winner, None);
    let text = frame.text();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 14);
    assert_eq!(lines[1], " 0 OHO1.$# . . .$. . . # #");
    assert!(lines[13].starts_with("O/o red"));
}

#[test]
fn setup_is_checked() {
    let mut s = setup(4, 1);
    s.options.insert("fog".into(), "on".into());
    assert_eq!(
        IceAndFire::create(&s).err(),
        Some(SetupError::UnknownOption("fog".into()))
    );
    assert!(matches!(
        IceAndFire::create(&setup(5, 1)),
        Err(SetupError::UnknownRuleset { .. })
    ));
    assert_eq!(INFO.default_ruleset, "league-4");
    assert!(INFO.rulesets.iter().all(|r| INFO.ruleset(r.id).is_some()));
}

#[test]
fn actions_print_and_parse_back() {
    let g = new_game(4, A12_SEED);
    let action = vec![
        Command::Move { id: 3, x: 4, y: 5 },
        Command::Train {
            level: 2,
            x: 1,
            y: 0,
        },
        Command::Build {
            kind: BuildKind::Mine,
            x: 1,
            y: 0,
        },
        Command::Msg("go go".into()),
        Command::Wait,
    ];
    let lines = g.write_action(0, &action);
    assert_eq!(
        lines,
        ["MOVE 3 4 5;TRAIN 2 1 0;BUILD MINE 1 0;MSG go go;WAIT"]
    );
    assert_eq!(g.parse_action(0, &lines), Ok(action));
    assert!(g.parse_action(0, &["WAIT".into(), "WAIT".into()]).is_err());
    assert!(g.parse_action(0, &["MSG".into()]).is_err());
}

#[test]
fn neighbours_are_up_right_down_left() {
    assert_eq!(
        neighbours(idx(5, 5)),
        [
            Some(idx(5, 4)),
            Some(idx(6, 5)),
            Some(idx(5, 6)),
            Some(idx(4, 5))
        ]
    );
    assert_eq!(neighbours(0), [None, Some(1), Some(WIDTH), None]);
    assert_eq!(neighbours(CELLS - 1)[1], None);
    assert_eq!(HEIGHT * WIDTH, CELLS);
}
