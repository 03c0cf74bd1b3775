//! Tests of the tutorial leagues 1–4: their scenarios, the actions each switches off, the order
//! of a turn (red, then the opponent told red's orders), objectives and outcomes.

use super::league::{League, Objective};
use super::map::{Coord, HIGH_COVER, LOW_COVER};
use super::state::Agent;
use super::*;

fn c(x: i32, y: i32) -> Coord {
    Coord::new(x, y)
}

fn league_game(league: u8, seed: i64) -> SoakOverflow {
    let mut setup = Setup::new(&INFO, seed);
    setup.ruleset = format!("league-{league}");
    SoakOverflow::create(&setup).expect("a valid setup")
}

/// A seat's lines, one per agent; the last must complete its turn.
fn feed(g: &mut SoakOverflow, seat: usize, lines: &[String]) {
    let mut last = LineOutcome::More;
    for line in lines {
        last = g.hear(seat, line);
    }
    assert_eq!(last, LineOutcome::Done, "seat {seat}: {lines:?}");
}

/// `id;WAIT` for each of a seat's agents (WAIT does nothing in the tutorial leagues).
fn waits(g: &SoakOverflow, seat: usize) -> Vec<String> {
    g.board
        .live(seat)
        .map(|a| format!("{};WAIT", a.id))
        .collect()
}

/// One tutorial turn: red answers; in leagues 2–4 the opponent then answers `blue` (its
/// agents wait if `None`). Returns the events of the step that resolved the turn.
fn play(g: &mut SoakOverflow, red: &[String], blue: Option<Vec<String>>) -> Vec<String> {
    let turn = g.turn();
    assert_eq!(g.to_move(), vec![0], "red answers first");
    feed(g, 0, red);
    g.step();
    if g.league().opponent_follows() {
        assert_eq!(
            g.turn(),
            turn,
            "nothing is resolved before the opponent answers"
        );
        assert_eq!(g.to_move(), vec![1], "then the opponent");
        let blue = blue.unwrap_or_else(|| waits(g, 1));
        feed(g, 1, &blue);
        g.step();
    }
    assert_eq!(g.turn(), turn + 1);
    g.last_events()
}

fn lines(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// Red writes the same `orders` every turn (and blue nothing) until the match ends.
fn red_plays_to_the_end(g: &mut SoakOverflow, orders: &[&str]) {
    let orders = lines(orders);
    while g.outcome().is_none() {
        play(g, &orders, None);
    }
}

fn red(g: &SoakOverflow) -> Vec<&Agent> {
    g.board.agents.iter().filter(|a| a.owner == 0).collect()
}

fn blue(g: &SoakOverflow) -> Vec<&Agent> {
    g.board.agents.iter().filter(|a| a.owner == 1).collect()
}

fn scores(g: &SoakOverflow) -> Vec<i64> {
    g.outcome().expect("the match is over").scores
}

fn has(events: &[String], part: &str) -> bool {
    events.iter().any(|e| e.contains(part))
}

#[test]
fn the_rulesets_are_the_five_leagues_and_league_5_is_the_default() {
    let ids: Vec<&str> = INFO.rulesets.iter().map(|r| r.id).collect();
    assert_eq!(
        ids,
        ["league-1", "league-2", "league-3", "league-4", "league-5"]
    );
    assert_eq!(INFO.default_ruleset, "league-5");
    for r in INFO.rulesets {
        assert!(!r.summary.is_empty() && r.summary.len() < 200, "{}", r.id);
    }
    let limits: Vec<u32> = (1..=5)
        .map(|n| League::of_ruleset(&format!("league-{n}")).max_turns())
        .collect();
    assert_eq!(limits, [20, 20, 1, 40, 100]);
}

#[test]
fn league_5_is_the_full_game_unchanged() {
    let mut setup = Setup::new(&INFO, 42);
    setup.ruleset = "league-5".into();
    let g = SoakOverflow::create(&setup).expect("valid");
    assert_eq!(g.league(), League::FULL);
    assert_eq!(g.board.grid.rows()[1], "02000010000000020120");
    assert_eq!(g.to_move(), vec![0, 1], "both answer at once");
    assert!(!g.input(1).contains(';'), "no orders block in league 5");
}

// ---------------------------------------------------------------------------------------------
// League 1 (Wood 4): MOVE only, no opponent.

#[test]
fn league_1_input_is_the_full_protocol_with_two_snipers_on_an_empty_grid() {
    let g = league_game(1, 7);
    let mut expected = String::from("0\n2\n1 0 0 6 24 0\n2 0 0 6 24 0\n8 5\n");
    for y in 0..5 {
        let row: Vec<String> = (0..8).map(|x| format!("{x} {y} 0")).collect();
        expected.push_str(&row.join(" "));
        expected.push('\n');
    }
    expected.push_str("2\n1 0 0 0 0 0\n2 0 4 0 0 0\n2\n");
    assert_eq!(g.input(0), expected);
    assert_eq!(g.to_move(), vec![0], "only red is ever asked");
}

#[test]
fn league_1_is_won_by_reaching_the_two_tiles() {
    let mut g = league_game(1, 3);
    red_plays_to_the_end(&mut g, &["1;MOVE 6 1", "2;MOVE 6 3"]);
    // (0,0) → (6,1) and (0,4) → (6,3) are 7 steps each.
    assert_eq!(g.turn(), 7);
    assert_eq!(red(&g)[0].at, c(6, 1));
    assert_eq!(red(&g)[1].at, c(6, 3));
    assert_eq!(scores(&g), [0, -1]);
    assert!(g.outcome().unwrap().reason.contains("objective complete"));
}

#[test]
fn league_1_either_agent_may_take_either_tile() {
    let mut g = league_game(1, 3);
    red_plays_to_the_end(&mut g, &["2;MOVE 6 1", "1;MOVE 6 3"]);
    assert_eq!(scores(&g), [0, -1]);
}

#[test]
fn league_1_shooting_does_nothing_and_20_turns_lose() {
    let mut g = league_game(1, 3);
    let events = play(&mut g, &lines(&["1;SHOOT 2", "2;MOVE 6 3"]), None);
    assert!(has(
        &events,
        "agent 1 (red sniper) cannot shoot: shooting is off in this league"
    ));
    assert_eq!(red(&g)[1].wetness, 0);
    assert_ne!(red(&g)[1].at, c(0, 4), "moving works");
    red_plays_to_the_end(&mut g, &["1;WAIT", "2;WAIT"]);
    assert_eq!(g.turn(), 20);
    assert_eq!(scores(&g), [-1, 0]);
    assert!(g.outcome().unwrap().reason.contains("objective failed"));
}

#[test]
fn league_1_needs_no_seed_but_the_others_refuse_seed_0() {
    assert_eq!(league_game(1, 0).input(0), league_game(1, 99).input(0));
    for league in 2..=5 {
        let mut setup = Setup::new(&INFO, 0);
        setup.ruleset = format!("league-{league}");
        assert!(SoakOverflow::create(&setup).is_err(), "league {league}");
    }
}

#[test]
fn a_timeout_in_league_1_loses() {
    let mut g = league_game(1, 3);
    g.fault(0, FaultKind::Timeout);
    g.step();
    assert_eq!(scores(&g), [-1, 0]);
}

// ---------------------------------------------------------------------------------------------
// League 2 (Wood 3): SHOOT, no moving; the boss punishes any turn not spent on the wettest.

#[test]
fn league_2_places_four_shuffled_enemies_from_90_to_60_wetness() {
    let mut seen_orders = std::collections::BTreeSet::new();
    for seed in 1..40 {
        let g = league_game(2, seed);
        let reds: Vec<(i32, Coord, i32, i32)> = red(&g)
            .iter()
            .map(|a| (a.id, a.at, a.soaking_power, a.shoot_cooldown))
            .collect();
        assert_eq!(reds, [(1, c(3, 2), 50, 0), (2, c(4, 2), 50, 0)]);
        let placed: Vec<(Coord, i32, i32)> = blue(&g)
            .iter()
            .map(|a| (a.at, a.wetness, a.soaking_power))
            .collect();
        assert_eq!(
            placed,
            [
                (c(2, 1), 90, 100),
                (c(2, 3), 80, 100),
                (c(5, 1), 70, 100),
                (c(5, 3), 60, 100)
            ]
        );
        let mut ids: Vec<i32> = blue(&g).iter().map(|a| a.id).collect();
        seen_orders.insert(ids.clone());
        ids.sort_unstable();
        assert_eq!(ids, [3, 4, 5, 6]);
        // The inputs list blue's agents in place order, not by id.
        let input = g.input(0);
        let listed: Vec<i32> = input
            .lines()
            .skip(2)
            .take(6)
            .map(|l| l.split(' ').next().unwrap().parse().unwrap())
            .collect();
        let expected: Vec<i32> = g.board.agents.iter().map(|a| a.id).collect();
        assert_eq!(listed, expected);
    }
    assert!(seen_orders.len() > 5, "the ids are shuffled by the seed");
}

/// The id of the wettest blue agent (the first listed on a tie).
fn wettest(g: &SoakOverflow) -> i32 {
    let blue = blue(g);
    let top = blue.iter().map(|a| a.wetness).max().expect("an agent");
    blue.iter().find(|a| a.wetness == top).expect("found").id
}

#[test]
fn league_2_shooting_the_wettest_every_turn_wins_in_4_turns() {
    let mut g = league_game(2, 42);
    let first = wettest(&g);
    play(
        &mut g,
        &[format!("1;SHOOT {first}"), format!("2;SHOOT {first}")],
        None,
    );
    let hit = g
        .last_soaked
        .iter()
        .find(|a| a.id == first)
        .expect("soaked");
    assert_eq!(hit.wetness, 190, "90 + 2 × 50");
    while g.outcome().is_none() {
        let w = wettest(&g);
        play(
            &mut g,
            &[format!("1;SHOOT {w}"), format!("SHOOT {w}")],
            None,
        );
    }
    assert_eq!(g.turn(), 4);
    assert_eq!(scores(&g), [2, 0], "each side scores its agents left");
    assert!(g
        .outcome()
        .unwrap()
        .reason
        .contains("blue has no agent left"));
}

#[test]
fn league_2_the_opponent_is_told_reds_orders_and_moving_is_off() {
    let mut g = league_game(2, 5);
    let w = wettest(&g);
    feed(
        &mut g,
        0,
        &[
            format!("1;MOVE 0 0;SHOOT {w};MESSAGE splash"),
            format!("shoot {w}"),
        ],
    );
    g.step();
    assert_eq!(
        g.last_events(),
        ["red has given its orders: blue answers, told them"]
    );
    let input = g.input(1);
    assert!(input.starts_with("1\n6\n"), "blue's init block: {input}");
    assert!(
        input.ends_with(&format!("4\n2\n1;MOVE 0 0;SHOOT {w}\n2;SHOOT {w}\n")),
        "the turn block, blue's agent count, then red's orders: {input}"
    );
    let blue = waits(&g, 1);
    feed(&mut g, 1, &blue);
    g.step();
    assert!(has(
        &g.last_events(),
        "agent 1 (red sniper) cannot move: moving is off in this league"
    ));
    assert_eq!(red(&g)[0].at, c(3, 2));
    assert!(g.last_log.hunkered.is_empty(), "WAIT does nothing here");
    // Next turn the orders block comes without the init block.
    feed(&mut g, 0, &lines(&["1;WAIT", "2;WAIT"]));
    g.step();
    assert!(g.input(1).ends_with("2\n1;HUNKER_DOWN\n2;HUNKER_DOWN\n"));
    assert!(
        !g.input(1).starts_with("1\n6\n"),
        "the init block comes once"
    );
}

#[test]
fn league_2_a_wrong_target_lets_the_boss_soak_red() {
    let mut g = league_game(2, 11);
    let w = wettest(&g);
    let other = blue(&g).iter().find(|a| a.id != w).expect("another").id;
    feed(
        &mut g,
        0,
        &[format!("1;SHOOT {w}"), format!("2;SHOOT {other}")],
    );
    g.step();
    // The boss's answer: blue agent k shoots red agent k mod 2.
    let boss: Vec<String> = blue(&g)
        .iter()
        .enumerate()
        .map(|(k, a)| format!("{};SHOOT {}", a.id, k % 2 + 1))
        .collect();
    feed(&mut g, 1, &boss);
    g.step();
    assert_eq!(red(&g).len(), 0, "both red agents soaked (2 × 100 each)");
    assert_eq!(g.last_soaked.len(), 4, "and the two blue agents red hit");
    assert_eq!(scores(&g), [0, 2]);
    assert_eq!(g.outcome().unwrap().winner(), Some(1));
}

#[test]
fn league_2_a_faulty_opponent_loses() {
    let mut g = league_game(2, 11);
    let w = wettest(&g);
    feed(&mut g, 0, &[format!("1;SHOOT {w}"), format!("2;SHOOT {w}")]);
    g.step();
    g.fault(1, FaultKind::Timeout);
    g.step();
    // Red's agents and the one blue agent soaked this turn are still listed.
    assert_eq!(scores(&g), [2, -1]);
    assert!(g.outcome().unwrap().reason.starts_with("blue loses"));
}

// ---------------------------------------------------------------------------------------------
// League 3 (Wood 2): cover, one turn to run and gun.

#[test]
fn league_3_covers_follow_the_referees_pattern() {
    let mut layouts = std::collections::BTreeSet::new();
    for seed in 1..60 {
        let g = league_game(3, seed);
        let grid = &g.board.grid;
        assert_eq!((grid.width, grid.height), (13, 5));
        let t = |x, y| grid.tile(c(x, y));
        for x in [1, 11] {
            let pair = [t(x, 1), t(x, 3)];
            assert!(
                pair == [LOW_COVER, HIGH_COVER] || pair == [HIGH_COVER, LOW_COVER],
                "{seed}"
            );
        }
        let defence = [t(3, 1), t(3, 3), t(9, 1), t(9, 3)]
            .into_iter()
            .find(|&k| k != HIGH_COVER)
            .expect("a defence");
        for x in [3, 9] {
            let mut pair = [t(x, 1), t(x, 3)];
            pair.sort_unstable();
            assert_eq!(pair, [defence, HIGH_COVER], "{seed}");
        }
        assert_eq!(t(6, 1), t(6, 3), "{seed}");
        for y in [0, 2, 4] {
            let mut pair = [t(4, y), t(8, y)];
            pair.sort_unstable();
            assert!(pair == [0, 0] || pair == [LOW_COVER, HIGH_COVER], "{seed}");
        }
        let Objective::RunAndGun { run, gun } = g.objective.as_ref().clone() else {
            panic!("league 3's objective");
        };
        assert_eq!(t(1, run[0].y), HIGH_COVER, "run beside the high cover");
        assert_eq!(t(11, run[1].y), HIGH_COVER);
        assert_ne!(t(3, gun[0].y), HIGH_COVER, "shoot the less covered enemy");
        assert_ne!(t(9, gun[1].y), HIGH_COVER);
        let places: Vec<(i32, Coord)> = g.board.agents.iter().map(|a| (a.id, a.at)).collect();
        assert_eq!(
            places,
            [
                (1, c(0, 2)),
                (2, c(12, 2)),
                (3, c(4, 1)),
                (4, c(4, 3)),
                (5, c(8, 1)),
                (6, c(8, 3))
            ]
        );
        layouts.insert(grid.rows());
    }
    assert!(layouts.len() > 20, "the seed draws the covers");
}

/// League 3's objective tiles and the ids of the agents on the `gun` tiles.
fn run_and_gun(g: &SoakOverflow) -> ([Coord; 2], [i32; 2]) {
    let Objective::RunAndGun { run, gun } = g.objective.as_ref().clone() else {
        panic!("league 3");
    };
    let on = |p: Coord| g.board.agents.iter().find(|a| a.at == p).expect("agent").id;
    (run, [on(gun[0]), on(gun[1])])
}

#[test]
fn league_3_is_won_by_stepping_behind_high_cover_and_shooting_the_exposed_enemy() {
    for seed in [1, 2, 3, 42] {
        let mut g = league_game(3, seed);
        let (run, targets) = run_and_gun(&g);
        let red_lines = [
            format!("1;MOVE {} {};SHOOT {}", run[0].x, run[0].y, targets[0]),
            format!("2; MOVE {} {} ; SHOOT {}", run[1].x, run[1].y, targets[1]),
        ];
        // The boss shoots anyway (as if red had failed): high cover keeps red standing.
        let boss = lines(&["3;SHOOT 1", "4;SHOOT 1", "5;SHOOT 2", "6;SHOOT 2"]);
        play(&mut g, &red_lines, Some(boss));
        assert_eq!(red(&g)[0].at, run[0]);
        assert_eq!(red(&g)[1].at, run[1]);
        // 100 power at range ≤ 6 behind high cover: 25 from each of two shooters.
        assert_eq!(red(&g)[0].wetness, 50, "seed {seed}");
        assert_eq!(red(&g)[1].wetness, 50, "seed {seed}");
        assert_eq!(g.turn(), 1);
        assert_eq!(scores(&g), [0, -1], "seed {seed}");
    }
}

#[test]
fn league_3_a_farther_target_counts_when_its_first_step_is_right() {
    let mut g = league_game(3, 8);
    let (run, targets) = run_and_gun(&g);
    // Column 0 has no cover: the only shortest way to the corner passes the run tile.
    let corner = |p: Coord| if p.y == 1 { 0 } else { 4 };
    let red_lines = [
        format!(
            "1;MOVE {} {};SHOOT {}",
            run[0].x,
            corner(run[0]),
            targets[0]
        ),
        format!(
            "2;MOVE {} {};SHOOT {}",
            run[1].x,
            corner(run[1]),
            targets[1]
        ),
    ];
    play(&mut g, &red_lines, None);
    assert_eq!(scores(&g), [0, -1]);
}

#[test]
fn league_3_the_wrong_tile_or_target_fails() {
    let (run, targets) = run_and_gun(&league_game(3, 4));
    let other_y = |p: Coord| 4 - p.y;
    let cases = [
        // Swapped targets.
        [
            format!("1;MOVE {} {};SHOOT {}", run[0].x, run[0].y, targets[1]),
            format!("2;MOVE {} {};SHOOT {}", run[1].x, run[1].y, targets[0]),
        ],
        // The low cover's side.
        [
            format!(
                "1;MOVE {} {};SHOOT {}",
                run[0].x,
                other_y(run[0]),
                targets[0]
            ),
            format!("2;MOVE {} {};SHOOT {}", run[1].x, run[1].y, targets[1]),
        ],
        // No move at all.
        [
            format!("1;SHOOT {}", targets[0]),
            format!("2;MOVE {} {};SHOOT {}", run[1].x, run[1].y, targets[1]),
        ],
    ];
    for red_lines in cases {
        let mut g = league_game(3, 4);
        play(&mut g, &red_lines, None);
        assert_eq!(scores(&g), [-1, 0], "{red_lines:?}");
        assert!(g.outcome().unwrap().reason.contains("objective failed"));
    }
}

#[test]
fn league_3_bombs_are_off() {
    let mut g = league_game(3, 4);
    let events = play(&mut g, &lines(&["1;THROW 4 1", "2;WAIT"]), None);
    assert!(has(&events, "bombs are off in this league"));
    assert!(blue(&g).iter().all(|a| a.wetness == 0));
}

// ---------------------------------------------------------------------------------------------
// League 4 (Wood 1): splash bombs against four bunkers.

/// The four bunker centres of a league-4 grid.
fn bunkers(g: &SoakOverflow) -> [Coord; 4] {
    let w = g.board.grid.width;
    [c(2, 2), c(2, 9), c(w - 3, 2), c(w - 3, 9)]
}

#[test]
fn league_4_builds_four_bunkers_one_holding_a_red_agent() {
    let mut swapped = 0;
    let mut widths = std::collections::BTreeSet::new();
    for seed in 1..80 {
        let g = league_game(4, seed);
        let grid = &g.board.grid;
        assert_eq!(grid.height, 12);
        assert!(grid.width == 15 || grid.width == 17);
        widths.insert(grid.width);
        let red = red(&g);
        assert_eq!(red.len(), 2);
        if red[0].id == 2 {
            swapped += 1;
        }
        assert_eq!(red[0].at, c(grid.width / 2, 6));
        assert_eq!((red[0].bombs, red[1].bombs), (3, 1));
        for a in &red {
            assert_eq!(
                (
                    a.wetness,
                    a.soaking_power,
                    a.optimal_range,
                    a.shoot_cooldown
                ),
                (70, 10, 1, 0)
            );
        }
        let Objective::Bunkers { hitlist } = g.objective.as_ref().clone() else {
            panic!("league 4");
        };
        let mut trapped = 0;
        let mut counts = Vec::new();
        for centre in bunkers(&g) {
            let mut inside = 0;
            for dx in -2..=2 {
                for dy in -2..=2 {
                    let p = c(centre.x + dx, centre.y + dy);
                    let ring = dx * dx == 4 || dy * dy == 4;
                    assert_eq!(grid.tile(p) == HIGH_COVER, ring, "seed {seed} {p}");
                    if let Some(a) = g.board.agents.iter().find(|a| a.at == p) {
                        assert!(!ring);
                        if a.owner == 0 {
                            assert_eq!(a.id, red[1].id);
                            trapped += 1;
                        } else {
                            inside += 1;
                            assert_eq!(
                                (a.wetness, a.soaking_power, a.optimal_range),
                                (70, 200, 64)
                            );
                        }
                    }
                }
            }
            counts.push(inside);
        }
        assert_eq!(trapped, 1, "seed {seed}");
        assert_eq!(grid.tiles.iter().filter(|&&t| t != 0).count(), 4 * 16);
        assert_eq!(
            hitlist.len(),
            g.board.live_count(1)
                - counts[bunkers(&g)
                    .iter()
                    .position(|b| b.chebyshev(red[1].at) <= 1)
                    .expect("red's bunker")]
        );
        assert!(counts.iter().all(|&n| (4..=9).contains(&n)), "{counts:?}");
    }
    assert!(swapped > 10 && swapped < 70, "ids 1 and 2 swap on a draw");
    assert_eq!(widths.len(), 2);
}

/// Plays league 4 as intended: the free agent walks to a tile 4 from each enemy-only bunker's
/// centre and throws there. Returns the turns it took.
fn solve_league_4(g: &mut SoakOverflow) -> u32 {
    let w = g.board.grid.width;
    let trapped_at = red(g)[1].at;
    let targets: Vec<Coord> = bunkers(g)
        .into_iter()
        .filter(|b| b.chebyshev(trapped_at) > 1)
        .collect();
    let mut next = 0;
    while g.outcome().is_none() {
        let free = red(g)[0];
        let (free_id, at) = (free.id, free.at);
        let other = red(g)[1].id;
        let target = targets[next];
        let stand = c(
            if target.x == 2 { 5 } else { w - 6 },
            if target.y == 2 { 3 } else { 8 },
        );
        let order = if at == stand {
            next += 1;
            format!("{free_id};THROW {} {}", target.x, target.y)
        } else {
            format!("{free_id};MOVE {} {}", stand.x, stand.y)
        };
        play(g, &[order, format!("{other};WAIT")], None);
    }
    g.turn()
}

#[test]
fn league_4_is_won_by_bombing_the_three_enemy_bunkers() {
    for seed in [1, 2, 3, 42, 1234] {
        let mut g = league_game(4, seed);
        let turns = solve_league_4(&mut g);
        assert!(turns < 40, "seed {seed}: {turns} turns");
        assert_eq!(scores(&g), [0, -1], "seed {seed}");
        assert!(g.outcome().unwrap().reason.contains("objective complete"));
        assert_eq!(red(&g).len(), 2, "no red agent was hit");
    }
}

#[test]
fn league_4_a_bomb_on_reds_own_bunker_soaks_its_agent() {
    let mut g = league_game(4, 9);
    let trapped = red(&g)[1];
    let (id, at, free) = (trapped.id, trapped.at, red(&g)[0].id);
    // The trapped agent throws its one bomb at its own feet: +30 on 70.
    play(
        &mut g,
        &[
            format!("{free};WAIT"),
            format!("{id};THROW {} {}", at.x, at.y),
        ],
        None,
    );
    assert!(g.last_soaked.iter().any(|a| a.id == id));
    assert!(g.outcome().is_none(), "the objective is not done");
}

#[test]
fn league_4_waiting_40_turns_loses() {
    let mut g = league_game(4, 5);
    while g.outcome().is_none() {
        let red_lines = waits(&g, 0);
        play(&mut g, &red_lines, None);
    }
    assert_eq!(g.turn(), 40);
    assert_eq!(scores(&g), [-1, 0]);
}

#[test]
fn tutorial_frames_show_the_objective_and_no_territory() {
    let g = league_game(1, 1);
    let frame = g.frame();
    assert!(frame
        .text()
        .contains("league 1 objective: one red agent on (6,1), the other on (6,3)"));
    assert_eq!(frame.status()[1], "no agents: this league has no opponent");
    assert_eq!(
        serde_json::from_str::<serde_json::Value>(&frame.view_json()).expect("JSON")["max_turns"],
        20
    );
    assert!(g.board.control().iter().all(Option::is_none));
}

#[test]
fn league_1_frames_carry_the_goal_tiles() {
    let g = league_game(1, 1);
    let frame = g.frame();
    let view: serde_json::Value = serde_json::from_str(&frame.view_json()).expect("JSON");
    assert_eq!(
        view["goals"],
        serde_json::json!([{ "x": 6, "y": 1 }, { "x": 6, "y": 3 }])
    );
    // The text board marks them too (rows 1 and 3, column 6), and its legend says so.
    let text = frame.text();
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(&rows[2][3 + 3 * 6..3 + 3 * 6 + 1], "*", "{text}");
    assert_eq!(&rows[4][3 + 3 * 6..3 + 3 * 6 + 1], "*", "{text}");
    assert_eq!(
        text.matches('*').count(),
        3,
        "two tiles and the legend: {text}"
    );
    assert!(text.trim_end().ends_with("; * goal tile"), "{text}");
    // No other league has goal tiles: its view leaves them out.
    for league in 2..=5 {
        let g = league_game(league, 1);
        let view: serde_json::Value = serde_json::from_str(&g.frame().view_json()).expect("JSON");
        assert!(view.get("goals").is_none(), "league {league}");
        assert!(!g.frame().text().contains('*'), "league {league}");
    }
}
