//! Tests: the conformance suite, the reference material of the rulebook's *Conformance*, and
//! small positions with known outcomes for the rules of its *Protocol*, *A turn*, *Moving* and
//! *Shooting*.

use super::*;
use crate::java;

engine::conformance_tests!(SoakOverflow, ENTRY);

use map::{Coord, Grid};
use path::{find_path, next_step};
use protocol::parse_piece;
use state::{cover_multiplier, Class, Combat};

/// Rulebook, *Conformance*: the seed-42 map, one row of tile types per line.
const SEED_42_ROWS: [&str; 10] = [
    "00000000000000000000",
    "02000010000000020120",
    "00000000000002220000",
    "00000210000000100000",
    "00000000000002000210",
    "01200020000000000000",
    "00000100000001200000",
    "00002220000000000000",
    "02102000000001000020",
    "00000000000000000000",
];

fn c(x: i32, y: i32) -> Coord {
    Coord::new(x, y)
}

fn new_game(seed: i64) -> SoakOverflow {
    SoakOverflow::create(&Setup::new(&INFO, seed)).expect("valid setup")
}

#[test]
fn seed_42_map_and_agents() {
    let g = new_game(42);
    let grid = &g.board.grid;
    assert_eq!((grid.width, grid.height), (20, 10));
    assert!(grid.y_sym, "point-symmetric");
    assert_eq!(grid.rows(), SEED_42_ROWS);
    let agents: Vec<(i32, usize, Class, Coord)> = g
        .board
        .agents
        .iter()
        .map(|a| (a.id, a.owner, a.class, a.at))
        .collect();
    assert_eq!(
        agents,
        [
            (1, 0, Class::Gunner, c(0, 6)),
            (2, 0, Class::Sniper, c(0, 3)),
            (3, 0, Class::Bomber, c(0, 7)),
            (4, 1, Class::Gunner, c(19, 3)),
            (5, 1, Class::Sniper, c(19, 6)),
            (6, 1, Class::Bomber, c(19, 2)),
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Conformance*: path vectors on the seed-42 map.

fn seed_42_grid() -> Grid {
    Grid::from_rows(&SEED_42_ROWS, true, vec![c(0, 6), c(0, 3), c(0, 7)])
}

fn occupied(grid: &Grid, cells: &[Coord]) -> Vec<bool> {
    let mut occ = vec![false; grid.cells()];
    for &p in cells {
        occ[grid.index(p)] = true;
    }
    occ
}

/// A path written as runs: `(0,6)(1,6)…(4,6)` means every tile along the straight line.
fn runs(points: &[(i32, i32)]) -> Vec<Coord> {
    let mut out = vec![c(points[0].0, points[0].1)];
    for w in points.windows(2) {
        let (mut x, mut y) = w[0];
        let (tx, ty) = w[1];
        while (x, y) != (tx, ty) {
            x += (tx - x).signum();
            y += (ty - y).signum();
            out.push(c(x, y));
        }
    }
    out
}

fn path(grid: &Grid, occ: &[Coord], from: Coord, to: Coord) -> Vec<Coord> {
    find_path(grid, &occupied(grid, occ), from, to).expect("a path")
}

#[test]
fn path_to_a_cover_goes_to_the_nearest_tile() {
    let g = seed_42_grid();
    let p = path(&g, &[], c(0, 6), c(5, 6));
    assert_eq!(p, runs(&[(0, 6), (4, 6)]));
}

#[test]
fn long_paths() {
    let g = seed_42_grid();
    let p = path(&g, &[], c(0, 6), c(19, 3));
    assert_eq!(p.len() - 1, 24);
    assert_eq!(
        p,
        runs(&[(0, 6), (3, 6), (3, 4), (11, 4), (11, 5), (19, 5), (19, 3)])
    );
    let p = path(&g, &[], c(0, 3), c(10, 3));
    assert_eq!(p, runs(&[(0, 3), (4, 3), (4, 4), (10, 4), (10, 3)]));
    let p = path(&g, &[], c(0, 7), c(8, 7));
    assert_eq!(p, runs(&[(0, 7), (3, 7), (3, 9), (7, 9), (7, 7), (8, 7)]));
    let p = path(&g, &[], c(19, 3), c(0, 6));
    assert_eq!(
        p,
        runs(&[(19, 3), (16, 3), (16, 5), (7, 5), (7, 4), (0, 4), (0, 6)])
    );
    let p = path(&g, &[], c(9, 4), c(11, 6));
    assert_eq!(p, runs(&[(9, 4), (9, 6), (11, 6)]));
}

#[test]
fn unreachable_targets() {
    let g = seed_42_grid();
    // (1,1) is a high cover: (0,1) is nearest, tied with (1,0), (2,1), (1,2), and farthest from
    // the centre (10,5).
    let p = path(&g, &[], c(0, 6), c(1, 1));
    assert_eq!(p.last(), Some(&c(0, 1)));
    assert_eq!(
        next_step(&g, &occupied(&g, &[]), c(0, 6), c(1, 1)),
        Some(c(0, 5))
    );
    // Off the grid: the nearest tile is the corner (19,9), along column 0 then row 9.
    let p = path(&g, &[], c(0, 6), c(30, 30));
    assert_eq!(p, runs(&[(0, 6), (0, 9), (19, 9)]));
    assert_eq!(p[1], c(0, 7));
}

#[test]
fn occupied_tiles_are_still_used() {
    let g = seed_42_grid();
    let occ = occupied(&g, &[c(1, 6), c(0, 5)]);
    assert_eq!(next_step(&g, &occ, c(0, 6), c(0, 3)), Some(c(0, 5)));
}

// ---------------------------------------------------------------------------------------------
// Helpers: hand-made positions and turns.

/// A match on a hand-made grid (rows of tile digits) with agents `(id, owner, class, x, y)` in
/// list order (seat 0's first).
fn position(rows: &[&str], agents: &[(i32, usize, Class, i32, i32)]) -> SoakOverflow {
    let grid = Arc::new(Grid::from_rows(rows, true, Vec::new()));
    let agents = agents
        .iter()
        .map(|&(id, owner, class, x, y)| Agent::new(id, owner, class, c(x, y)))
        .collect();
    let board = Board::with_agents(grid, agents, League::FULL);
    SoakOverflow::from_board(board, Objective::None)
}

/// An open grid of `w` × `h` floor tiles.
fn open(w: usize, h: usize) -> Vec<String> {
    vec!["0".repeat(w); h]
}

fn rows(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Hands a seat's lines to the game, padded with harmless lines to one per agent; returns what
/// the game made of the last one.
fn answer(g: &mut SoakOverflow, seat: usize, lines: &[&str]) -> LineOutcome {
    let mut lines: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
    while lines.len() < g.board.live_count(seat) {
        lines.push("MESSAGE idle".into());
    }
    let mut last = LineOutcome::Done;
    for line in &lines {
        last = g.hear(seat, line);
        if !matches!(last, LineOutcome::More) {
            break;
        }
    }
    last
}

/// One whole turn; both seats must answer validly. Returns the step's events.
fn turn(g: &mut SoakOverflow, red: &[&str], blue: &[&str]) -> Vec<String> {
    assert_eq!(answer(g, 0, red), LineOutcome::Done, "red: {red:?}");
    assert_eq!(answer(g, 1, blue), LineOutcome::Done, "blue: {blue:?}");
    g.step();
    g.last_events()
}

/// Where the agents 1 to `n` stand.
fn places(g: &SoakOverflow, n: i32) -> Vec<Coord> {
    (1..=n).map(|id| agent(g, id).at).collect()
}

fn agent(g: &SoakOverflow, id: i32) -> &Agent {
    g.board
        .agent(id)
        .or_else(|| g.last_soaked.iter().find(|a| a.id == id))
        .expect("agent")
}

fn has_event(events: &[String], part: &str) -> bool {
    events.iter().any(|e| e.contains(part))
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Conformance*: the seed-42 inputs and first turn.

#[test]
fn seed_42_inputs() {
    let g = new_game(42);
    let input = g.input(0);
    let lines: Vec<&str> = input.lines().collect();
    assert_eq!(
        lines[..9],
        [
            "0",
            "6",
            "1 0 1 4 16 1",
            "2 0 5 6 24 0",
            "3 0 2 2 8 3",
            "4 1 1 4 16 1",
            "5 1 5 6 24 0",
            "6 1 2 2 8 3",
            "20 10"
        ]
    );
    // One line per row, each with the row's 20 triples.
    for (y, row) in SEED_42_ROWS.iter().enumerate() {
        let expected: Vec<String> = row
            .chars()
            .enumerate()
            .map(|(x, t)| format!("{x} {y} {t}"))
            .collect();
        assert_eq!(lines[9 + y], expected.join(" "));
        assert_eq!(lines[9 + y].split(' ').count(), 60);
    }
    assert_eq!(
        lines[19..],
        [
            "6",
            "1 0 6 0 1 0",
            "2 0 3 0 0 0",
            "3 0 7 0 3 0",
            "4 19 3 0 1 0",
            "5 19 6 0 0 0",
            "6 19 2 0 3 0",
            "3"
        ]
    );
    assert_eq!(lines.len(), 27);
    // Blue gets its own id and the same agents.
    let blue = g.input(1);
    assert!(blue.starts_with("1\n6\n1 0 1 4 16 1\n"));
}

#[test]
fn seed_42_first_turn() {
    let mut g = new_game(42);
    let events = turn(
        &mut g,
        &["1;MOVE 5 6", "2;MOVE 19 3;SHOOT 5", "MOVE 2 7"],
        &["4;MOVE 10 5;HUNKER_DOWN", "5;WAIT", "6;THROW 17 2"],
    );
    let at = |id| agent(&g, id).at;
    assert_eq!(at(1), c(1, 6));
    assert_eq!(at(2), c(1, 3));
    assert_eq!(at(3), c(1, 7));
    assert_eq!(at(4), c(18, 3));
    assert!(has_event(
        &events,
        "agent 2 (red sniper) cannot shoot agent 5: too far"
    ));
    assert_eq!(agent(&g, 4).wetness, 30, "hit by its teammate's bomb");
    assert_eq!(agent(&g, 5).wetness, 0);
    assert!(g.last_log.hunkered.contains(&5), "WAIT hunkers");
    assert!(g.last_log.hunkered.contains(&4));
    assert_eq!(g.board.tiles(), [103, 95]);
    assert_eq!(g.board.points, [8, 0]);
    assert!(has_event(
        &events,
        "territory: red 103 tiles, blue 95 tiles: red +8 points"
    ));
    let input = g.input(1);
    assert!(input.lines().any(|l| l == "4 18 3 0 1 30"), "{input}");
    assert!(!input.contains("20 10"), "the init block comes once");
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Conformance*, the rule scenarios: shots and cover.

/// The damage of one shot by `shooter` (class, position) at a gunner standing at `target` on
/// an open 12 × 6 grid with `covers` ((x, y, type)); the target hunkers if asked.
fn shot(
    shooter: (Class, i32, i32),
    target: (i32, i32),
    covers: &[(i32, i32, u8)],
    hunker: bool,
) -> Option<i32> {
    let mut grid = open(12, 6);
    for &(x, y, t) in covers {
        grid[y as usize].replace_range(x as usize..x as usize + 1, &t.to_string());
    }
    let mut g = position(
        &rows(&grid),
        &[
            (1, 0, shooter.0, shooter.1, shooter.2),
            (2, 1, Class::Gunner, target.0, target.1),
        ],
    );
    turn(
        &mut g,
        &["1;SHOOT 2"],
        &[if hunker {
            "2;HUNKER_DOWN"
        } else {
            "2;MESSAGE x"
        }],
    );
    g.last_log.shots.first().map(|s| s.damage)
}

#[test]
fn range_falloff() {
    let sniper = |x| (Class::Sniper, x, 2);
    assert_eq!(shot(sniper(0), (6, 2), &[], true), Some(18));
    assert_eq!(shot(sniper(0), (6, 2), &[], false), Some(24));
    assert_eq!(shot(sniper(0), (7, 2), &[], false), Some(12));
    assert_eq!(shot((Class::Sniper, 0, 0), (11, 1), &[], false), Some(12));
    assert_eq!(shot((Class::Sniper, 0, 0), (11, 2), &[], false), None);
}

#[test]
fn cover() {
    let sniper_at = |x, y| (Class::Sniper, x, y);
    let sniper = sniper_at(1, 2);
    // Low cover beside the target, facing the shooter.
    assert_eq!(shot(sniper, (6, 2), &[(5, 2, 1)], false), Some(12));
    assert_eq!(shot(sniper, (6, 2), &[(5, 2, 1)], true), Some(6));
    // High cover.
    assert_eq!(shot(sniper, (6, 2), &[(5, 2, 2)], false), Some(6));
    assert_eq!(shot(sniper, (6, 2), &[(5, 2, 2)], true), Some(0));
    // A cover touching the shooter (here diagonally) is ignored.
    assert_eq!(shot(sniper_at(4, 3), (6, 2), &[(5, 2, 2)], false), Some(24));
    assert_eq!(shot(sniper_at(4, 2), (6, 2), &[(5, 2, 2)], false), Some(24));
    // A cover on the far side does nothing.
    assert_eq!(shot(sniper, (6, 2), &[(7, 2, 2)], false), Some(24));
    // Diagonal shot: low cover on the x side, high on the y side: the better counts.
    let low_x_high_y = [(4, 3, 1), (5, 2, 2)];
    assert_eq!(shot(sniper_at(2, 0), (5, 3), &low_x_high_y, false), Some(6));
    // dy = 1: only the x-side cover counts.
    assert_eq!(
        shot(sniper_at(2, 2), (5, 3), &low_x_high_y, false),
        Some(12)
    );
    // A gunner at distance 8 behind low cover.
    assert_eq!(
        shot((Class::Gunner, 0, 2), (8, 2), &[(7, 2, 1)], false),
        Some(4)
    );
}

#[test]
fn cover_rule_directly() {
    let g = Grid::from_rows(&["000000", "001000", "000000"], true, Vec::new());
    // Shooter far left of a target right of the low cover at (2,1).
    assert_eq!(cover_multiplier(&g, c(0, 1), c(3, 1)), 0.5);
    // Adjacent shooter and target: no cover applies.
    assert_eq!(cover_multiplier(&g, c(2, 0), c(3, 1)), 1.0);
    // From the right, the cover is on the far side.
    assert_eq!(cover_multiplier(&g, c(5, 1), c(3, 1)), 1.0);
}

#[test]
fn cooldown_after_a_gunner_shot() {
    let mut g = position(
        &rows(&open(12, 6)),
        &[(1, 0, Class::Gunner, 1, 2), (2, 1, Class::Gunner, 4, 2)],
    );
    turn(&mut g, &["1;SHOOT 2"], &["2;MESSAGE x"]);
    assert_eq!(agent(&g, 2).wetness, 16);
    assert_eq!(
        agent(&g, 1).cooldown,
        1,
        "the next input shows the class cooldown"
    );
    assert!(g.input(0).lines().any(|l| l == "1 1 2 1 1 0"));
    let events = turn(&mut g, &["1;SHOOT 2"], &["2;MESSAGE x"]);
    assert!(has_event(
        &events,
        "agent 1 (red gunner) cannot shoot yet: cooldown 1"
    ));
    assert_eq!(agent(&g, 2).wetness, 16);
    assert_eq!(agent(&g, 1).cooldown, 0);
    turn(&mut g, &["1;SHOOT 2"], &["2;MESSAGE x"]);
    assert_eq!(agent(&g, 2).wetness, 32);
}

#[test]
fn friendly_fire() {
    let mut g = position(
        &rows(&open(12, 6)),
        &[
            (1, 0, Class::Gunner, 1, 2),
            (2, 0, Class::Gunner, 3, 2),
            (3, 1, Class::Gunner, 10, 2),
        ],
    );
    turn(&mut g, &["1;SHOOT 2", "2;HUNKER_DOWN"], &["MESSAGE x"]);
    assert_eq!(agent(&g, 2).wetness, 12);
    // Nobody can shoot itself, and unknown ids only fail.
    let events = turn(&mut g, &["2;SHOOT 2"], &["3;SHOOT 77"]);
    assert!(has_event(&events, "cannot shoot itself"));
    assert!(has_event(
        &events,
        "cannot shoot agent 77: there is no such agent"
    ));
    assert!(g.lost.iter().all(Option::is_none));
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Conformance*, the rule scenarios: moves and collisions.

fn moves_on_open(agents: &[(i32, i32, i32)], lines: &[&str]) -> SoakOverflow {
    // All agents red gunners (ids given), plus one far blue agent.
    let mut list: Vec<(i32, usize, Class, i32, i32)> = agents
        .iter()
        .map(|&(id, x, y)| (id, 0, Class::Gunner, x, y))
        .collect();
    list.push((20, 1, Class::Gunner, 11, 5));
    let mut g = position(&rows(&open(12, 6)), &list);
    turn(&mut g, lines, &["MESSAGE x"]);
    g
}

#[test]
fn shared_targets_and_swaps_are_cancelled() {
    let g = moves_on_open(&[(1, 1, 1), (2, 3, 1)], &["1;MOVE 2 1", "2;MOVE 2 1"]);
    assert_eq!(places(&g, 2), [c(1, 1), c(3, 1)]);
    let g = moves_on_open(&[(1, 1, 1), (2, 2, 1)], &["1;MOVE 2 1", "2;MOVE 1 1"]);
    assert_eq!(places(&g, 2), [c(1, 1), c(2, 1)]);
    assert!(g.last_log.moves.iter().all(|m| !m.done));
}

#[test]
fn chains_and_rotations_succeed() {
    let g = moves_on_open(
        &[(1, 1, 1), (2, 2, 1), (3, 3, 1)],
        &["1;MOVE 2 1", "2;MOVE 3 1", "3;MOVE 4 1"],
    );
    assert_eq!(places(&g, 3), [c(2, 1), c(3, 1), c(4, 1)]);
    // A 2 × 2 rotation.
    let g = moves_on_open(
        &[(1, 1, 1), (2, 2, 1), (3, 2, 2), (4, 1, 2)],
        &["1;MOVE 2 1", "2;MOVE 2 2", "3;MOVE 1 2", "4;MOVE 1 1"],
    );
    assert_eq!(places(&g, 4), [c(2, 1), c(2, 2), c(1, 2), c(1, 1)]);
}

#[test]
fn moving_into_a_standing_agent_cancels_the_queue_behind() {
    let g = moves_on_open(
        &[(1, 1, 1), (2, 2, 1), (3, 3, 1)],
        &["1;MOVE 2 1", "2;MOVE 3 1", "3;MESSAGE stay"],
    );
    assert_eq!(places(&g, 3), [c(1, 1), c(2, 1), c(3, 1)]);
    // An agent whose move leads nowhere (already there) stands too.
    let g = moves_on_open(&[(1, 1, 1), (2, 2, 1)], &["1;MOVE 2 1", "2;MOVE 2 1"]);
    assert_eq!(places(&g, 2), [c(1, 1), c(2, 1)]);
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Conformance*, the rule scenarios: bombs.

#[test]
fn bombs_hit_everyone_around_the_target() {
    let mut g = position(
        &rows(&open(12, 6)),
        &[
            (1, 0, Class::Bomber, 2, 2),
            (2, 0, Class::Gunner, 3, 3),
            (3, 0, Class::Sniper, 6, 2),
            (4, 1, Class::Gunner, 4, 1),
            (5, 1, Class::Gunner, 5, 3),
        ],
    );
    let events = turn(
        &mut g,
        &["1;THROW 3 2", "2;HUNKER_DOWN", "3;THROW 6 3"],
        &["MESSAGE x", "MESSAGE x"],
    );
    for id in [1, 2, 4] {
        assert_eq!(agent(&g, id).wetness, 30, "agent {id}");
    }
    assert_eq!(agent(&g, 5).wetness, 0);
    assert_eq!(agent(&g, 1).bombs, 2);
    assert!(has_event(
        &events,
        "agent 3 (red sniper) has no splash bomb left"
    ));
    // Too far: distance 5 and 10; off the grid.
    let events = turn(
        &mut g,
        &["1;THROW 7 2", "2;MESSAGE x", "3;MESSAGE x"],
        &["4;MESSAGE x", "5;MESSAGE x"],
    );
    assert!(has_event(
        &events,
        "cannot throw a splash bomb to (7,2): too far away"
    ));
    let events = turn(
        &mut g,
        &["1;THROW 2 -8", "2;MESSAGE x", "3;MESSAGE x"],
        &["4;MESSAGE x", "5;MESSAGE x"],
    );
    assert!(has_event(&events, "to (2,-8): off the grid"));
    let events = turn(
        &mut g,
        &["1;THROW 12 2", "2;MESSAGE x", "3;MESSAGE x"],
        &["4;MESSAGE x", "5;MESSAGE x"],
    );
    assert!(has_event(&events, "to (12,2): off the grid"));
    assert_eq!(agent(&g, 1).bombs, 2, "failed throws cost nothing");
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Conformance*, the rule scenarios: territory and the end.

#[test]
fn wetness_50_doubles_distances() {
    let mut g = position(
        &rows(&open(12, 6)),
        &[(1, 0, Class::Gunner, 2, 2), (2, 1, Class::Gunner, 9, 3)],
    );
    assert_eq!(g.board.tiles(), [33, 33]);
    g.board.agents[0].wetness = 50;
    g.board.update_control();
    assert_eq!(g.board.tiles(), [25, 45]);
    g.board.agents[0].wetness = 49;
    g.board.update_control();
    assert_eq!(g.board.tiles(), [33, 33]);
}

#[test]
fn covers_count_as_territory() {
    let g = position(
        &["222222", "000000"],
        &[(1, 0, Class::Gunner, 0, 1), (2, 1, Class::Gunner, 5, 1)],
    );
    assert_eq!(g.board.tiles(), [6, 6]);
}

#[test]
fn lead_must_exceed_600() {
    let mut g = position(
        &rows(&open(12, 6)),
        &[(1, 0, Class::Gunner, 2, 2), (2, 1, Class::Gunner, 9, 3)],
    );
    g.board.points = [600, 0];
    turn(&mut g, &["MESSAGE x"], &["MESSAGE x"]);
    assert_eq!(g.board.points, [600, 0], "equal zones: no points");
    assert!(g.outcome.is_none(), "600 ahead is not enough");
    turn(&mut g, &["MOVE 3 2"], &["MESSAGE x"]);
    let points = g.board.points[0];
    assert!(
        points > 600 && g.board.points[1] == 0,
        "{:?}",
        g.board.points
    );
    let o = g.outcome.clone().expect("over");
    assert_eq!(o.scores, [points, 0]);
    assert_eq!(o.winner(), Some(0));
    assert!(o.reason.contains("more than 600"), "{}", o.reason);
}

#[test]
fn last_enemy_soaked_by_a_bomb() {
    let mut g = position(
        &rows(&open(12, 6)),
        &[(1, 0, Class::Bomber, 2, 2), (2, 1, Class::Gunner, 4, 2)],
    );
    g.board.agents[1].wetness = 80;
    turn(&mut g, &["1;THROW 4 2"], &["2;MESSAGE x"]);
    assert_eq!(agent(&g, 2).wetness, 110);
    assert_eq!(
        g.board.tiles(),
        [72, 0],
        "the soaked agent controls nothing"
    );
    assert_eq!(g.board.points, [72, 0]);
    let o = g.outcome.clone().expect("over");
    assert_eq!(o.scores, [72, -1]);
    assert!(g.to_move().is_empty());
    // The soaked agent is shown in the last frame, marked.
    let view: View = serde_json::from_str(&g.frame().view_json()).expect("a view");
    let soaked = view.agents.iter().find(|a| a.id == 2).expect("shown");
    assert!(soaked.soaked);
}

#[test]
fn both_teams_soaked_the_same_turn_draw() {
    let mut g = position(
        &rows(&open(12, 6)),
        &[(1, 0, Class::Bomber, 2, 2), (2, 1, Class::Gunner, 3, 2)],
    );
    g.board.agents[0].wetness = 80;
    g.board.agents[1].wetness = 80;
    turn(&mut g, &["1;THROW 3 2"], &["2;MESSAGE x"]);
    let o = g.outcome.clone().expect("over");
    assert_eq!(o.scores, [0, 0]);
    assert_eq!(o.winner(), None);
}

#[test]
fn the_game_ends_after_turn_100() {
    let mut g = new_game(7);
    for _ in 0..100 {
        assert!(g.outcome.is_none());
        let red = vec!["WAIT"; g.board.live_count(0)];
        let blue = vec!["WAIT"; g.board.live_count(1)];
        turn(&mut g, &red, &blue);
    }
    let o = g.outcome.clone().expect("over at the turn limit");
    assert_eq!(g.turns_done, 100);
    assert_eq!(o.scores, g.board.points.to_vec());
    assert!(o.reason.starts_with("turn limit"));
}

// ---------------------------------------------------------------------------------------------
// Rulebook, *Protocol* / *Conformance*: parsing.

fn two_on_open() -> SoakOverflow {
    position(
        &rows(&open(12, 6)),
        &[
            (1, 0, Class::Gunner, 1, 1),
            (2, 0, Class::Sniper, 1, 4),
            (3, 1, Class::Gunner, 10, 1),
            (4, 1, Class::Sniper, 10, 4),
        ],
    )
}

#[test]
fn lower_case_without_id_and_spaces_inside_pieces() {
    let mut g = two_on_open();
    turn(
        &mut g,
        &["move 3 2", "2; move 3 4 ; wait ; MESSAGE hi there"],
        &["MESSAGE x", "MESSAGE x"],
    );
    assert_eq!(agent(&g, 1).at, c(2, 1), "moving towards (3,2)");
    assert_eq!(agent(&g, 2).at, c(2, 4));
    assert!(g.last_log.hunkered.contains(&2));
    assert!(g.last_messages.contains(&(2, "hi there".to_string())));
}

#[test]
fn disqualifications() {
    for bad in [
        "1;MESSAGE ",
        "1;",
        "3;MOVE 1 1",
        "1;MOVE 1  1",
        " 1;MOVE 1 1",
        "1;;WAIT",
        "",
    ] {
        let mut g = two_on_open();
        let heard = answer(&mut g, 0, &[bad, "2;WAIT"]);
        assert!(matches!(heard, LineOutcome::Fault(_)), "{bad:?}: {heard:?}");
        assert_eq!(answer(&mut g, 1, &[]), LineOutcome::Done);
        g.step();
        let o = g.outcome.clone().expect("over");
        assert_eq!(o.scores, [-1, 0], "{bad:?}");
        // The other lines still ran.
        assert!(g.last_log.hunkered.contains(&2), "{bad:?}");
    }
}

#[test]
fn full_slots_end_the_line_and_later_lines_override() {
    let mut g = two_on_open();
    turn(
        &mut g,
        &[
            "1;MOVE 3 2;SHOOT 3;MESSAGE x;GARBAGE",
            "1;MOVE 2 3",
            "2;WAIT",
        ],
        &["MESSAGE x", "MESSAGE x"],
    );
    assert!(g.lost[0].is_none());
    assert_eq!(agent(&g, 1).at, c(1, 2), "towards (2,3)");
    // A piece after a full set in a later line is not read either.
    let mut g = two_on_open();
    turn(
        &mut g,
        &[
            "1;MOVE 3 2;SHOOT 3;MESSAGE x",
            "1;MOVE 2 3;NONSENSE",
            "2;WAIT",
        ],
        &["MESSAGE x", "MESSAGE x"],
    );
    assert!(g.lost[0].is_none());
}

#[test]
fn pieces_are_recognised_exactly() {
    let ok = [
        ("MOVE 3 4", Command::Move { x: 3, y: 4 }),
        ("move 03 4", Command::Move { x: 3, y: 4 }),
        ("Shoot 7", Command::Shoot { id: 7 }),
        ("THROW -1 -2", Command::Throw { x: -1, y: -2 }),
        ("hunker_down", Command::HunkerDown),
        ("WaIt", Command::Wait),
        ("MESSAGE  a b ", Command::Message("a b".into())),
        ("message Ünïcode ☂", Command::Message("Ünïcode ☂".into())),
        ("MOVE 2147483647 0", Command::Move { x: i32::MAX, y: 0 }),
        ("THROW -2147483648 0", Command::Throw { x: i32::MIN, y: 0 }),
    ];
    for (text, command) in ok {
        assert_eq!(parse_piece(text), Some(command), "{text:?}");
    }
    let bad = [
        "",
        "MOVE",
        "MOVE 1",
        "MOVE 1 2 3",
        "MOVE -1 2",
        "MOVE +1 2",
        "MOVE 1  2",
        "MOVE 1 2a",
        "MOVE 2147483648 0",
        "SHOOT",
        "SHOOT -1",
        "SHOOT 1 2",
        "THROW 1",
        "THROW - 1 2",
        "HUNKER",
        "HUNKER DOWN",
        "WAIT 1",
        "MESSAGE",
        "MESSAGE\ta",
        "MESSAGE a\u{2028}b",
        "MOVE ３ 4",
        "ＭOVE 3 4",
        "MOVE\t3 4",
        "MSG hi",
    ];
    for text in bad {
        assert_eq!(parse_piece(text), None, "{text:?}");
    }
}

#[test]
fn java_split_trim_and_ids() {
    assert_eq!(java::split("1;MOVE 1 1;", ';'), ["1", "MOVE 1 1"]);
    assert_eq!(java::split("1;", ';'), ["1"]);
    assert!(java::split(";;", ';').is_empty());
    assert_eq!(java::split("", ';'), [""]);
    assert_eq!(java::split(";a", ';'), ["", "a"]);
    assert_eq!(java::trim("\t a \u{1} "), "a");
    assert_eq!(java::parse_ascii_int("+2"), Some(2));
    assert_eq!(java::parse_ascii_int("-2"), Some(-2));
    assert_eq!(java::parse_ascii_int("2 "), None);
    assert_eq!(java::parse_ascii_int("99999999999"), None);
    // A line of only semicolons has no piece at all: no action, no fault.
    let mut g = two_on_open();
    turn(&mut g, &[";", "2;WAIT"], &["MESSAGE x", "MESSAGE x"]);
    assert!(g.lost[0].is_none());
    // "+1" names agent 1; "-1" names no agent of ours.
    let mut g = two_on_open();
    turn(&mut g, &["+1;WAIT", "2;WAIT"], &["MESSAGE x", "MESSAGE x"]);
    assert!(g.last_log.hunkered.contains(&1));
    let mut g = two_on_open();
    assert!(matches!(
        answer(&mut g, 0, &["-1;WAIT", "2;WAIT"]),
        LineOutcome::Fault(_)
    ));
}

#[test]
fn agents_without_a_line_do_nothing() {
    // Two lines for agent 2, none for agent 1: agent 1 is not hunkered.
    let mut g = two_on_open();
    turn(
        &mut g,
        &["2;MOVE 5 4", "2;WAIT"],
        &["MESSAGE x", "MESSAGE x"],
    );
    assert!(!g.last_log.hunkered.contains(&1));
    assert!(g.last_log.hunkered.contains(&2));
    assert_eq!(agent(&g, 2).at, c(2, 4));
}

// ---------------------------------------------------------------------------------------------
// Faults and the turn protocol.

#[test]
fn each_seat_answers_one_line_per_agent() {
    let mut g = two_on_open();
    assert_eq!(g.to_move(), [0, 1]);
    assert_eq!(g.hear(0, "WAIT"), LineOutcome::More);
    assert_eq!(g.hear(0, "WAIT"), LineOutcome::Done);
    assert_eq!(
        g.hear(0, "WAIT"),
        LineOutcome::Done,
        "surplus lines are ignored"
    );
    // A malformed first line is only judged once all lines are in, as the original reads them.
    assert_eq!(g.hear(1, "GARBAGE"), LineOutcome::More);
    assert!(matches!(g.hear(1, "4;WAIT"), LineOutcome::Fault(_)));
    g.step();
    let o = g.outcome.clone().expect("over");
    assert_eq!(o.scores, [0, -1]);
    assert!(
        g.last_log.hunkered.contains(&4),
        "its valid lines still ran"
    );
}

#[test]
fn a_timeout_loses_and_its_lines_do_not_run() {
    let mut g = two_on_open();
    assert_eq!(g.hear(0, "1;WAIT"), LineOutcome::More);
    g.fault(0, FaultKind::Timeout);
    assert_eq!(answer(&mut g, 1, &["3;WAIT", "4;WAIT"]), LineOutcome::Done);
    g.step();
    assert!(!g.last_log.hunkered.contains(&1));
    assert!(
        g.last_log.hunkered.contains(&3),
        "the other seat's turn still runs"
    );
    let o = g.outcome.clone().expect("over");
    assert_eq!(o.scores, [-1, 0]);
    assert!(g.frame().status()[0].contains("did not give its 2 lines in time"));
}

#[test]
fn seed_zero_is_refused() {
    let err = SoakOverflow::create(&Setup::new(&INFO, 0)).expect_err("an error");
    assert!(matches!(err, SetupError::BadOption { .. }));
    assert!(err.to_string().contains("nonzero seed"));
}

#[test]
fn generated_maps_have_the_promised_shape() {
    for seed in (1..300).map(|s| s * 7_919 - 150) {
        if seed == 0 {
            continue;
        }
        let g = new_game(seed);
        let grid = &g.board.grid;
        assert!((6..=10).contains(&grid.height), "seed {seed}");
        assert_eq!(grid.width, 2 * grid.height);
        let n = grid.spawns.len();
        assert!((3..=5).contains(&n), "seed {seed}");
        assert_eq!(g.board.agents.len(), 2 * n);
        for y in 0..grid.height {
            assert!(!grid.is_cover(c(0, y)), "seed {seed}: column 0 is free");
        }
        for i in 0..grid.cells() {
            let p = grid.coord(i);
            assert_eq!(
                grid.tile(p),
                grid.tile(grid.opposite(p)),
                "seed {seed}: symmetric"
            );
        }
        // Connected: every floor tile is reachable from an agent.
        let occ = vec![false; grid.cells()];
        for i in 0..grid.cells() {
            let p = grid.coord(i);
            if !grid.is_cover(p) {
                let path = find_path(grid, &occ, g.board.agents[0].at, p).expect("path");
                assert_eq!(path.last(), Some(&p), "seed {seed}: {p} unreachable");
            }
        }
    }
}

#[test]
fn frames_carry_a_complete_view() {
    let mut g = new_game(42);
    turn(
        &mut g,
        &["1;MOVE 5 6;MESSAGE hello", "2;MOVE 19 3", "MOVE 2 7"],
        &["4;MOVE 10 5;SHOOT 1", "5;WAIT", "6;THROW 17 2"],
    );
    let frame = g.frame();
    assert_eq!(frame.turn, 1);
    let view: View = serde_json::from_str(&frame.view_json()).expect("a view");
    assert_eq!((view.width, view.height), (20, 10));
    assert_eq!(view.tiles.len(), 200);
    assert_eq!(view.control.len(), 200);
    assert_eq!(view.agents.len(), 6);
    assert_eq!(view.agents[0].message.as_deref(), Some("hello"));
    assert_eq!(view.throws.len(), 1);
    assert_eq!(view.throws[0].hit, [4]);
    assert_eq!(view.players[0].points, 8);
    assert!(frame.text().contains("gunner"));
    assert!(has_event(
        &frame.events(),
        "agent 1 (red gunner) says \"hello\""
    ));
    assert_eq!(frame.status().len(), 2);
}

#[test]
fn actions_print_and_parse_back() {
    let g = new_game(42);
    let action = vec![
        Order {
            agent: Some(1),
            commands: vec![Command::Move { x: 5, y: 6 }, Command::Message("hi".into())],
        },
        Order {
            agent: None,
            commands: vec![Command::Throw { x: -1, y: 3 }],
        },
        Order {
            agent: Some(3),
            commands: vec![Command::Wait],
        },
    ];
    let lines = g.write_action(0, &action);
    assert_eq!(lines, ["1;MOVE 5 6;MESSAGE hi", "THROW -1 3", "3;WAIT"]);
    assert_eq!(g.parse_action(0, &lines), Ok(action));
    assert!(g.parse_action(0, &["4;WAIT".to_string()]).is_err());
}

#[test]
fn occupancy_changes_path_ties() {
    // On an open 12 x 6 grid, (0,0) -> (2,1) has three shortest paths; the search starts with
    // (0,1), farther from the centre (6,3), unless an agent stands there.
    let g = Grid::from_rows(&rows(&open(12, 6)), true, Vec::new());
    assert_eq!(
        next_step(&g, &occupied(&g, &[]), c(0, 0), c(2, 1)),
        Some(c(0, 1))
    );
    assert_eq!(
        next_step(&g, &occupied(&g, &[c(0, 1)]), c(0, 0), c(2, 1)),
        Some(c(1, 0))
    );
    // But occupancy only reorders: (0,0) -> (2,2) still goes down first.
    assert_eq!(
        next_step(&g, &occupied(&g, &[c(0, 1)]), c(0, 0), c(2, 2)),
        Some(c(0, 1))
    );
}

#[test]
fn combat_slots_replace_each_other() {
    let mut g = two_on_open();
    assert_eq!(
        answer(&mut g, 0, &["1;SHOOT 3;THROW 2 2;HUNKER_DOWN", "2;WAIT"]),
        LineOutcome::Done
    );
    assert_eq!(g.board.agents[0].orders.combat, Some(Combat::Hunker));
}
