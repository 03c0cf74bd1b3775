//! Tests: the conformance suite, the numbers of the rulebook's *Rules* and *Scoring*, small positions with
//! known outcomes for every action, the protocol, the turn limits, the maps and the options.

use std::sync::Arc;

use serde_json::Value;

use super::map::{parse_official, reachable, Map};
use super::scenario::*;
use super::state::{Structure, World};
use super::*;

engine::conformance_tests!(CraftingQuest, ENTRY);
engine::conformance_tests!(CraftingQuest, ENTRY, conformance_v1, [("map", "v1")]);
engine::conformance_tests!(CraftingQuest, ENTRY, conformance_v2, [("map", "v2")]);
engine::conformance_tests!(CraftingQuest, ENTRY, conformance_v3, [("map", "v3")]);

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A small test map from rows: `#` rock, `.` grass, a resource letter for 40 buried units of
/// that type. Homes: seat 0 top left, seat 1 bottom right, seat 2 top right, seat 3 bottom left;
/// every unit starts at its home.
fn test_map(rows: &[&str]) -> Map {
    let size = rows.len();
    let mut rock = Vec::new();
    let mut buried = Vec::new();
    for row in rows {
        assert_eq!(row.len(), size, "square rows: {row:?}");
        for ch in row.bytes() {
            rock.push(ch == b'#');
            let mut b = [0u16; 7];
            if let Some(r) = LETTERS.iter().position(|&l| l == ch) {
                b[r] = 40;
            }
            buried.push(b);
        }
    }
    let n = size as i32 - 1;
    let homes = vec![(0, 0), (n, n), (n, 0), (0, n)];
    Map {
        name: "test".into(),
        size,
        rock,
        buried,
        placements: homes.iter().map(|&h| vec![h; UNITS]).collect(),
        homes,
        rounds: 10,
    }
}

fn game_on(rows: &[&str], seats: usize) -> CraftingQuest {
    CraftingQuest::from_world(World::new(Arc::new(test_map(rows)), seats), 10)
}

/// An empty 12 × 12 grass map for two.
fn open_game() -> CraftingQuest {
    game_on(&[".........."; 10], 2)
}

fn put(g: &mut CraftingQuest, id: usize, x: i32, y: i32) {
    g.world.units[id].x = x;
    g.world.units[id].y = y;
}

/// Sends one request line for `seat` and returns the answer as JSON.
fn ask(g: &mut CraftingQuest, seat: usize, line: &str) -> Value {
    match g.hear(seat, line) {
        LineOutcome::Reply(text) => {
            assert!(
                text.ends_with('\n') && text.matches('\n').count() == 1,
                "{text:?}"
            );
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
        }
        other => panic!("{line}: expected an answer, got {other:?}"),
    }
}

fn result(v: &Value) -> &str {
    v["result"].as_str().unwrap_or("?")
}

/// Ends the current seat's turn (the referee would call `step` next).
fn end_turn(g: &mut CraftingQuest) {
    let seat = g.player;
    assert_eq!(g.hear(seat, r#"{"type":"end"}"#), LineOutcome::Done);
    g.step();
}

fn give(g: &mut CraftingQuest, id: usize, name: &str, n: u32) {
    g.world.units[id].res[resource(name).expect("a resource")] += n;
}

// ---------------------------------------------------------------------------------------------
// The numbers of the rulebook
// ---------------------------------------------------------------------------------------------

#[test]
fn replenishment_follows_b5() {
    // Rulebook, *Energy*: from 0 with life 200: 80, 128, 157, 174, 184, 190, 194, 196.
    let mut e = 0;
    let mut seen = Vec::new();
    for _ in 0..8 {
        e = replenish(e, 200);
        seen.push(e);
    }
    assert_eq!(seen, [80, 128, 157, 174, 184, 190, 194, 196]);
    assert_eq!(replenish(200, 200), 200);
    assert_eq!(replenish(150, 120), 120, "never above life");
}

#[test]
fn damage_follows_b7() {
    assert_eq!(damage(100, 0, 0), 100);
    assert_eq!(damage(100, 1, 0), 125);
    assert_eq!(damage(100, 0, 3), 25);
    assert_eq!(damage(100, 2, 1), 113, "112.5 rounds half up");
    assert_eq!(damage(2, 1, 0), 3, "2.5 rounds half up");
    assert_eq!(damage(200, 3, 3), 88, "200 × 1.75 × 0.25 = 87.5");
    assert_eq!(damage(1, 0, 3), 0, "0.25 rounds to 0");
}

#[test]
fn tower_drain_follows_b9() {
    // Rulebook, *Towers*: the drain at distances 1 to 7 for levels 1, 2, 3.
    let table = [
        [125, 62, 41, 31, 25, 20, 17],
        [150, 75, 50, 37, 30, 25, 21],
        [175, 87, 58, 43, 35, 29, 25],
    ];
    for (l, row) in table.iter().enumerate() {
        for (d, &want) in row.iter().enumerate() {
            let d = d as i32 + 1;
            assert_eq!(
                TOWER_DRAIN[l] / tower_distance(d, 0),
                want,
                "L{} d{d}",
                l + 1
            );
        }
    }
    assert_eq!(tower_distance(0, 0), 1, "at least 1");
    assert_eq!(tower_distance(1, 1), 1, "1.41 rounds to 1");
    assert_eq!(tower_distance(2, 2), 3, "2.83 rounds to 3");
    assert_eq!(tower_distance(1, 2), 2, "2.24 rounds to 2");
    assert_eq!(tower_distance(3, 4), 5);
    assert_eq!(TOWER_STRENGTH, [312, 375, 437]);
    assert_eq!(TOWER_RANGE, [5, 6, 7]);
}

#[test]
fn scores_follow_the_rulebook() {
    let mut t = state::Team::default();
    assert_eq!(t.score(), 0);
    t.kills = 3;
    assert_eq!(t.score(), 30);
    t.towers_placed = 2;
    assert_eq!(t.score(), 33, "+5 % per tower");
    t.traps_placed = 1;
    assert_eq!(t.score(), 33, "the trap factor needs a sprung trap");
    t.traps_sprung = 1;
    assert_eq!(t.score(), 44, "30 × 1.1 × 4/3 = 44");
    t.sprees = 1;
    t.first_blood = true;
    t.dug_up = 129;
    t.crafted = 15;
    assert_eq!(t.score(), 44 + 150 + 100 + 12 + 15);
    let mut half = state::Team {
        kills: 1,
        towers_placed: 1,
        ..state::Team::default()
    };
    assert_eq!(half.score(), 11, "10.5 rounds half up");
    half.kills = 0;
    assert_eq!(half.score(), 0);
}

// ---------------------------------------------------------------------------------------------
// Actions
// ---------------------------------------------------------------------------------------------

#[test]
fn moves_cost_by_weight_and_respect_terrain() {
    let mut g = game_on(
        &[
            "....#.....",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
            "..........",
        ],
        2,
    );
    put(&mut g, 0, 3, 0);
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"move","to":[4,0]}"#);
    assert_eq!(result(&v), "TerrainError");
    assert_eq!(v["unit"]["energy"], 200, "a refused move costs nothing");
    for (to, code) in [
        ("[3,0]", "MoveError"),
        ("[5,0]", "MoveError"),
        ("[3,-1]", "MoveError"),
        ("[2,2]", "MoveError"),
    ] {
        let v = ask(
            &mut g,
            0,
            &format!(r#"{{"unit":0,"type":"move","to":{to}}}"#),
        );
        assert_eq!(result(&v), code, "{to}");
    }
    give(&mut g, 0, "iron", 3);
    g.world.units[0].items[0][0] = 1; // a level-1 sword: weight 5
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"move","to":[4,1]}"#);
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["unit"]["energy"], 200 - (20 + 10 * 8));
    assert_eq!(
        (v["unit"]["x"].clone(), v["unit"]["y"].clone()),
        (4.into(), 1.into())
    );
    assert_eq!(v["unit"]["weight"], 8);
    g.world.units[0].energy = 99;
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"move","to":[5,1]}"#);
    assert_eq!(result(&v), "NoEnergyError");
    assert_eq!(v["unit"]["x"], 4);
    let v = ask(&mut g, 0, r#"{"unit":12,"type":"move","to":[5,1]}"#);
    assert_eq!(result(&v), "UnitIdError", "not my unit");
    assert!(v["unit"].is_null());
    // Units may share cells.
    put(&mut g, 1, 4, 2);
    let v = ask(&mut g, 0, r#"{"unit":1,"type":"move","to":[4,1]}"#);
    assert_eq!(result(&v), "NoError");
}

/// Found by the `bot_lines` fuzz target: a move to a coordinate near `i64::MIN` overflowed when
/// its distance was computed (a panic in debug builds, a wrong answer in release ones).
#[test]
fn moves_to_extreme_coordinates_are_refused() {
    let mut g = open_game();
    put(&mut g, 0, 3, 3);
    for to in [
        "[-9223372036854775808,3]",
        "[3,-9223372036854775808]",
        "[9223372036854775807,3]",
        "[-9223372036854775808,-9223372036854775808]",
        "[4294967299,3]",
    ] {
        let v = ask(
            &mut g,
            0,
            &format!(r#"{{"unit":0,"type":"move","to":{to}}}"#),
        );
        assert_eq!(result(&v), "MoveError", "{to}");
        assert_eq!(v["unit"]["x"], 3, "{to}");
    }
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"move","to":[4,4]}"#);
    assert_eq!(result(&v), "NoError");
}

#[test]
fn dig_reports_quantities_until_the_turn_ends() {
    let mut g = game_on(&["i........."; 10], 2);
    g.world.buried[0][resource("gold").unwrap()] = 7;
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"dig"}"#);
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["unit"]["energy"], 190);
    assert_eq!(v["unit"]["dig"]["resources"]["iron"], 40);
    assert_eq!(v["unit"]["dig"]["resources"]["gold"], 7);
    assert_eq!(
        v["unit"]["sight"]["mixed"][0]["types"],
        serde_json::json!(["iron", "gold"])
    );
    assert_eq!(
        v["unit"]["sight"]["rows"][0].as_str().unwrap().as_bytes()[0],
        b'*'
    );
    // Digging reveals nothing to others and takes nothing.
    assert_eq!(g.world.buried[0][resource("iron").unwrap()], 40);
    end_turn(&mut g);
    end_turn(&mut g);
    let state: Value = serde_json::from_str(&g.input(0)).unwrap();
    assert!(
        state["units"][0]["dig"].is_null(),
        "cleared at the end of the turn"
    );
}

#[test]
fn pickup_takes_visible_first_and_skips_what_is_missing() {
    let mut g = game_on(&["i........."; 10], 2);
    let c = 0;
    g.world.piles.entry(c).or_default().res[resource("iron").unwrap()] = 5;
    g.world.buried[c][resource("gold").unwrap()] = 30;
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"pickup","resources":{"iron":25,"stone":3,"gold":30}}"#,
    );
    assert_eq!(result(&v), "NoError");
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.contains("stone skipped"), "{reason}");
    assert_eq!(v["unit"]["resources"]["iron"], 25);
    assert!(
        v["unit"]["resources"]["gold"].is_null(),
        "gold is not carried"
    );
    assert_eq!(v["gold"], 230, "gold goes to the purse");
    assert_eq!(v["unit"]["energy"], 195);
    assert!(
        !g.world.piles.contains_key(&c),
        "the visible iron went first"
    );
    assert_eq!(g.world.buried[c][resource("iron").unwrap()], 20);
    assert_eq!(g.world.teams[0].dug_up, 20 + 30, "only buried units count");
    // Too much of everything: the pickup still costs 5.
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"pickup","resources":{"iron":21}}"#,
    );
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["unit"]["energy"], 190);
    assert_eq!(v["unit"]["resources"]["iron"], 25);
    for bad in [
        r#"{"unit":0,"type":"pickup"}"#,
        r#"{"unit":0,"type":"pickup","resources":{"iron":0}}"#,
        r#"{"unit":0,"type":"pickup","resources":{"mithril":1}}"#,
        r#"{"unit":0,"type":"pickup","resources":{"iron":1.5}}"#,
    ] {
        assert_eq!(result(&ask(&mut g, 0, bad)), "OperandError", "{bad}");
    }
    // Dropped and picked up again: no more points.
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"drop","resources":{"iron":100}}"#,
    );
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["unit"]["sight"]["piles"][0]["resources"]["iron"], 25);
    ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"pickup","resources":{"iron":25}}"#,
    );
    assert_eq!(g.world.teams[0].dug_up, 50);
}

#[test]
fn craft_equip_and_drop() {
    let mut g = open_game();
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"craft","blueprint":{"kind":"sword","level":1}}"#,
    );
    assert_eq!(result(&v), "CraftingError");
    assert!(v["reason"].as_str().unwrap().contains("iron 10"));
    give(&mut g, 0, "iron", 12);
    give(&mut g, 0, "stone", 4);
    give(&mut g, 0, "wood", 4);
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"craft","blueprint":{"kind":"sword","level":2}}"#,
    );
    assert_eq!(result(&v), "MissingBlueprintError");
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"craft","blueprint":{"kind":"sword","level":4}}"#,
    );
    assert_eq!(result(&v), "BlueprintError");
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"craft","blueprint":{"kind":"tower","level":1}}"#,
    );
    assert_eq!(result(&v), "BlueprintError");
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"craft","blueprint":{"kind":"shield","level":1}}"#,
    );
    assert_eq!(result(&v), "BlueprintError");
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"craft","blueprint":{"kind":"sword","level":1}}"#,
    );
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["unit"]["resources"], serde_json::json!({"iron": 2}));
    assert_eq!(
        v["unit"]["objects"][0],
        serde_json::json!({"kind":"sword","level":1,"count":1})
    );
    assert_eq!(v["unit"]["energy"], 200, "crafting is free");
    assert_eq!(v["unit"]["weight"], 7);
    assert_eq!(g.world.teams[0].crafted, 5);
    assert_eq!(g.world.teams[0].score(), 5);
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"equip","item":{"kind":"armour","level":1}}"#,
    );
    assert_eq!(result(&v), "EquipmentMissingError");
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"equip","item":{"kind":"trap","level":1}}"#,
    );
    assert_eq!(result(&v), "OperandError");
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"equip","item":{"kind":"sword","level":1}}"#,
    );
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["unit"]["sword"], 1);
    assert_eq!(v["unit"]["weight"], 7, "equipped items still weigh");
    // Dropping the only sword unequips it; another unit picks it up.
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"drop","objects":[{"kind":"sword","level":1}],"resources":{"gold":5}}"#,
    );
    assert_eq!(result(&v), "NoError");
    assert!(v["reason"]
        .as_str()
        .unwrap()
        .contains("gold belongs to the team"));
    assert_eq!(v["unit"]["sword"], 0);
    let v = ask(
        &mut g,
        0,
        r#"{"unit":1,"type":"pickup","objects":[{"kind":"sword","level":1,"count":3}]}"#,
    );
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["unit"]["objects"][0]["count"], 1);
    assert!(g.world.piles.is_empty());
}

#[test]
fn research_costs_gold_and_energy() {
    let mut g = open_game();
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"research","blueprint":{"kind":"sword","level":2}}"#,
    );
    assert_eq!(result(&v), "MissingBlueprintError");
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"research","blueprint":{"kind":"sword","level":1}}"#,
    );
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["gold"], 0);
    assert_eq!(v["blueprints"]["sword"], 2);
    assert_eq!(v["unit"]["energy"], 150);
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"research","blueprint":{"kind":"sword","level":1}}"#,
    );
    assert_eq!(result(&v), "NoUpgradeError", "level 2 is already known");
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"research","blueprint":{"kind":"trap","level":1}}"#,
    );
    assert_eq!(result(&v), "NoCreditError");
    g.world.teams[0].gold = 1000;
    g.world.units[0].energy = 49;
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"research","blueprint":{"kind":"trap","level":1}}"#,
    );
    assert_eq!(result(&v), "NoEnergyError");
    assert_eq!(g.world.teams[0].gold, 1000);
    ask(
        &mut g,
        0,
        r#"{"unit":1,"type":"research","blueprint":{"kind":"sword","level":2}}"#,
    );
    let v = ask(
        &mut g,
        0,
        r#"{"unit":2,"type":"research","blueprint":{"kind":"sword","level":3}}"#,
    );
    assert_eq!(result(&v), "NoUpgradeError");
    assert_eq!(g.world.teams[0].gold, 700);
    assert_eq!(
        g.world.teams[1].known,
        [1, 1, 1, 1],
        "blueprints are per team"
    );
}

#[test]
fn attack_retaliation_and_death() {
    let mut g = open_game();
    put(&mut g, 0, 4, 4);
    put(&mut g, 10, 5, 5);
    give(&mut g, 10, "iron", 9);
    g.world.units[10].items[1][0] = 1;
    g.world.units[10].armour = 1;
    // Seat 1 prepares retaliation during its turn, then does other things: it stays.
    end_turn(&mut g);
    let v = ask(
        &mut g,
        1,
        r#"{"unit":10,"type":"prepare","energy":40,"threshold":60}"#,
    );
    assert_eq!(result(&v), "NoError");
    ask(&mut g, 1, r#"{"unit":11,"type":"dig"}"#);
    ask(&mut g, 1, r#"{"type":"state"}"#);
    end_turn(&mut g);
    for (line, code) in [
        (
            r#"{"unit":0,"type":"attack","target":{"player":1,"unit":10},"energy":0}"#,
            "OperandError",
        ),
        (
            r#"{"unit":0,"type":"attack","target":{"player":1,"unit":10},"energy":201}"#,
            "NoEnergyError",
        ),
        (
            r#"{"unit":0,"type":"attack","target":{"player":5,"unit":10},"energy":10}"#,
            "PlayerIdError",
        ),
        (
            r#"{"unit":0,"type":"attack","target":{"player":1,"unit":3},"energy":10}"#,
            "UnitIdError",
        ),
        (
            r#"{"unit":0,"type":"attack","target":{"player":0,"unit":1},"energy":10}"#,
            "FriendlyFireError",
        ),
        (
            r#"{"unit":0,"type":"attack","target":{"player":1,"unit":11},"energy":10}"#,
            "ProximityError",
        ),
    ] {
        assert_eq!(result(&ask(&mut g, 0, line)), code, "{line}");
    }
    assert_eq!(g.world.units[0].energy, 200, "refused attacks cost nothing");
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"attack","target":{"player":1,"unit":10},"energy":100}"#,
    );
    assert_eq!(result(&v), "NoError", "{v}");
    // 100 × 0.75 = 75 damage; the defender (200 energy ≥ 60) hits back for 40.
    assert_eq!(g.world.units[10].life, 125);
    assert_eq!(
        g.world.units[10].energy,
        125 - 40,
        "clamped to life, then retaliation paid"
    );
    assert_eq!(v["unit"]["life"], 160);
    assert_eq!(v["unit"]["energy"], 100);
    // Again (its energy 85 is still ≥ 60): 45 damage, 40 back.
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"attack","target":{"player":1,"unit":10},"energy":60}"#,
    );
    assert_eq!(
        (v["unit"]["life"].clone(), v["unit"]["energy"].clone()),
        (120.into(), 40.into())
    );
    assert_eq!((g.world.units[10].life, g.world.units[10].energy), (80, 40));
    // Below its threshold now: no more retaliation.
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"attack","target":{"player":1,"unit":10},"energy":40}"#,
    );
    assert_eq!(v["unit"]["life"], 120);
    assert_eq!(g.world.units[10].life, 50);
    put(&mut g, 1, 5, 4);
    let v = ask(
        &mut g,
        0,
        r#"{"unit":1,"type":"attack","target":{"player":1,"unit":10},"energy":67}"#,
    );
    assert!(v["reason"].as_str().unwrap().contains("kills"), "{v}");
    // The victim dropped everything and respawned at home.
    let dead = &g.world.units[10];
    assert_eq!((dead.x, dead.y, dead.life, dead.energy), (9, 9, 200, 200));
    assert_eq!(
        (dead.armour, dead.res, dead.items),
        (0, [0; 7], [[0; 3]; 2])
    );
    assert_eq!(dead.retaliate, (40, 60), "retaliation settings persist");
    let pile = &g.world.piles[&g.world.idx(5, 5)];
    assert_eq!(pile.res[resource("iron").unwrap()], 9);
    assert_eq!(pile.items[1][0], 1);
    let t = &g.world.teams;
    assert_eq!((t[0].kills, t[0].first_blood, t[1].deaths), (1, true, 1));
    assert_eq!(t[0].score(), 10 + 100);
    assert!(g.world.tally.events.iter().any(|e| e.contains("kills")));
    assert_eq!(g.world.tally.strikes.len(), 4);
}

#[test]
fn a_kill_by_retaliation_counts_for_the_defender() {
    let mut g = open_game();
    put(&mut g, 0, 4, 4);
    put(&mut g, 10, 4, 5);
    g.world.units[10].retaliate = (150, 0);
    g.world.units[0].life = 100;
    g.world.units[0].energy = 100;
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"attack","target":{"player":1,"unit":10},"energy":10}"#,
    );
    assert!(v["reason"].as_str().unwrap().contains("respawns"), "{v}");
    assert_eq!(
        (v["unit"]["x"].clone(), v["unit"]["life"].clone()),
        (0.into(), 200.into())
    );
    let t = &g.world.teams;
    assert_eq!((t[1].kills, t[1].retaliation_kills, t[0].deaths), (1, 1, 1));
}

#[test]
fn killing_sprees_and_first_blood() {
    let mut w = World::new(Arc::new(test_map(&[".........."; 10])), 2);
    for _ in 0..6 {
        w.units[10].life = 1;
        w.units[0].x = w.units[10].x;
        w.units[0].y = w.units[10].y;
        w.units[0].energy = 200;
        let a = w.act(
            0,
            &parse_request(
                r#"{"unit":0,"type":"attack","target":{"player":1,"unit":10},"energy":1}"#,
            )
            .unwrap(),
        );
        assert_eq!(a.code, Code::NoError);
    }
    assert_eq!(
        (w.teams[0].kills, w.teams[0].sprees),
        (6, 1),
        "the 6th kill in a row"
    );
    // A kill by seat 1 resets the counter.
    w.units[0].life = 1;
    w.units[10].x = w.units[0].x;
    w.units[10].y = w.units[0].y;
    w.act(
        1,
        &parse_request(r#"{"unit":10,"type":"attack","target":{"player":0,"unit":0},"energy":1}"#)
            .unwrap(),
    );
    assert!(!w.teams[1].first_blood && w.teams[0].first_blood);
    assert_eq!(w.spree, Some((1, 0)));
}

#[test]
fn traps_freeze_and_are_hidden_from_opponents() {
    let mut g = open_game();
    put(&mut g, 0, 4, 4);
    for (r, n) in [("bronze", 10), ("leather", 10), ("wood", 10)] {
        give(&mut g, 0, r, n);
    }
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"placeTrap","level":2}"#);
    assert_eq!(result(&v), "MissingBlueprintError");
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"placeTrap","level":1}"#);
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["unit"]["energy"], 160);
    assert_eq!(
        v["unit"]["sight"]["traps"][0],
        serde_json::json!({"x":4,"y":4,"level":1})
    );
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"placeTower","level":1}"#);
    assert_eq!(result(&v), "BuildError", "one structure per cell");
    ask(&mut g, 0, r#"{"unit":0,"type":"move","to":[3,3]}"#);
    end_turn(&mut g);
    // Seat 1 does not see the trap and walks into it.
    put(&mut g, 10, 5, 5);
    let state: Value = serde_json::from_str(&g.input(1)).unwrap();
    assert_eq!(state["units"][0]["sight"]["traps"], serde_json::json!([]));
    let v = ask(&mut g, 1, r#"{"unit":10,"type":"move","to":[4,4]}"#);
    assert_eq!(result(&v), "NoError");
    assert_eq!(
        (v["unit"]["energy"].clone(), v["unit"]["frozen"].clone()),
        (0.into(), 2.into())
    );
    assert!(g.world.structures.is_empty(), "a trap works once");
    assert_eq!(g.world.teams[0].traps_sprung, 1);
    let v = ask(&mut g, 1, r#"{"unit":10,"type":"dig"}"#);
    assert_eq!(result(&v), "NoEnergyError");
    let v = ask(
        &mut g,
        1,
        r#"{"unit":10,"type":"prepare","energy":5,"threshold":0}"#,
    );
    assert_eq!(result(&v), "NoError", "free actions still work");
    // Two own turns at 0 energy, then replenishment from 0.
    let mut energies = Vec::new();
    for _ in 0..3 {
        end_turn(&mut g);
        end_turn(&mut g);
        energies.push(g.world.units[10].energy);
    }
    assert_eq!(energies, [0, 0, 80]);
    // An own unit springs its own trap without credit.
    for (r, n) in [("bronze", 10), ("leather", 10), ("wood", 10)] {
        give(&mut g, 2, r, n);
    }
    end_turn(&mut g);
    put(&mut g, 2, 6, 6);
    ask(&mut g, 0, r#"{"unit":2,"type":"placeTrap","level":1}"#);
    put(&mut g, 3, 6, 7);
    let v = ask(&mut g, 0, r#"{"unit":3,"type":"move","to":[6,6]}"#);
    assert_eq!(v["unit"]["frozen"], 2);
    assert_eq!(g.world.teams[0].traps_sprung, 1);
    assert_eq!(g.world.teams[0].traps_placed, 2);
}

#[test]
fn towers_block_drain_by_distance_and_are_removed_when_spent() {
    let mut g = open_game();
    put(&mut g, 0, 2, 2);
    for (r, n) in [("iron", 30), ("stone", 30), ("wood", 30)] {
        give(&mut g, 0, r, n);
    }
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"placeTower","level":1}"#);
    assert_eq!(result(&v), "NoError");
    assert_eq!(v["unit"]["energy"], 125);
    assert_eq!(v["unit"]["sight"]["towers"][0]["strength"], 312);
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"move","to":[3,3]}"#);
    assert_eq!(result(&v), "NoError", "the builder walks out");
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"move","to":[2,2]}"#);
    assert_eq!(result(&v), "ObstacleError");
    let state: Value = serde_json::from_str(&g.state_line(0)).unwrap();
    assert_eq!(state["towers"][0]["sight"]["x"], 0);
    assert_eq!(g.world.teams[0].score(), 5);
    // Seat 1's units at distance 1, 2 (diagonal √8 → 3) and 6 (out of range 5).
    put(&mut g, 10, 3, 2);
    put(&mut g, 11, 4, 4);
    put(&mut g, 12, 8, 2);
    end_turn(&mut g);
    let e: Vec<i32> = (10..13).map(|i| g.world.units[i].energy).collect();
    assert_eq!(e, [200 - 125, 200 - 41, 200]);
    let Some(&Structure::Tower { strength, .. }) = g.world.structures.get(&g.world.idx(2, 2))
    else {
        panic!("the tower stands")
    };
    assert_eq!(strength, 312 - 125 - 41);
    // Its own team is not drained; after a few more rounds the tower is spent and removed.
    let mut spent = false;
    for _ in 0..6 {
        end_turn(&mut g);
        spent |= g
            .last_events
            .iter()
            .any(|e| e.contains("spent and removed"));
    }
    assert!(g.world.structures.is_empty());
    assert!(spent, "the removal is an event");
    let v = ask(&mut g, 1, r#"{"unit":10,"type":"move","to":[2,2]}"#);
    assert_eq!(result(&v), "NoError", "a removed tower no longer blocks");
}

// ---------------------------------------------------------------------------------------------
// Protocol and turns
// ---------------------------------------------------------------------------------------------

/// The request examples of the module docs, each with its parse.
#[test]
fn the_documented_requests_round_trip() {
    let lines = [
        r#"{"unit":0,"type":"move","to":[4,4]}"#,
        r#"{"unit":0,"type":"attack","target":{"player":1,"unit":13},"energy":120}"#,
        r#"{"unit":0,"type":"prepare","energy":40,"threshold":60}"#,
        r#"{"unit":0,"type":"dig"}"#,
        r#"{"unit":0,"type":"pickup","resources":{"iron":10,"gold":5},"objects":[{"kind":"sword","level":1,"count":1}]}"#,
        r#"{"unit":0,"type":"drop","resources":{"stone":4}}"#,
        r#"{"unit":0,"type":"craft","blueprint":{"kind":"sword","level":1}}"#,
        r#"{"unit":0,"type":"equip","item":{"kind":"sword","level":1}}"#,
        r#"{"unit":0,"type":"placeTower","level":1}"#,
        r#"{"unit":0,"type":"placeTrap","level":1}"#,
        r#"{"unit":0,"type":"research","blueprint":{"kind":"trap","level":1}}"#,
        r#"{"unit":0,"type":"view"}"#,
        r#"{"type":"state"}"#,
        r#"{"type":"end"}"#,
    ];
    let docs = include_str!("mod.rs");
    for line in lines {
        assert!(
            docs.contains(&format!("//! {line}\n")),
            "not in the docs: {line}"
        );
        let r = parse_request(line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
        assert_eq!(write_request(&r), line);
    }
    // Field order and spacing do not matter; defaults for count and threshold.
    let r = parse_request(r#" { "to" : [ 1 , 2 ] , "type" : "move" , "unit" : 3 } "#);
    assert_eq!(
        r,
        Ok(Request::Move {
            unit: 3,
            x: 1,
            y: 2
        })
    );
    let r = parse_request(r#"{"unit":3,"type":"prepare","energy":4}"#);
    assert_eq!(
        r,
        Ok(Request::Prepare {
            unit: 3,
            energy: 4,
            threshold: 0
        })
    );
}

#[test]
fn malformed_lines_are_answered_not_faults() {
    let mut g = open_game();
    for (line, code) in [
        ("", "UnknownActionError"),
        ("hello", "UnknownActionError"),
        ("[1,2]", "UnknownActionError"),
        (r#"{"unit":0}"#, "UnknownActionError"),
        (r#"{"unit":0,"type":"fly"}"#, "UnknownActionError"),
        (
            r#"{"unit":0,"type":"MOVE","to":[1,1]}"#,
            "UnknownActionError",
        ),
        (r#"{"type":"move","to":[1,1]}"#, "UnitIdError"),
        (r#"{"unit":"0","type":"move","to":[1,1]}"#, "UnitIdError"),
        (r#"{"unit":0,"type":"move","to":[1]}"#, "OperandError"),
        (r#"{"unit":0,"type":"move","to":[1,1,1]}"#, "OperandError"),
        (
            r#"{"unit":0,"type":"attack","target":13,"energy":5}"#,
            "OperandError",
        ),
        (r#"{"unit":0,"type":"placeTower"}"#, "OperandError"),
        (
            r#"{"unit":99999999999999999999,"type":"dig"}"#,
            "UnitIdError",
        ),
        (r#"{"unit":-1,"type":"dig"}"#, "UnitIdError"),
    ] {
        let v = ask(&mut g, 0, line);
        assert_eq!(result(&v), code, "{line:?}");
        assert!(v["unit"].is_null() || line.contains("\"unit\":0"), "{line}");
    }
    assert_eq!(g.actions, 14, "every line counts");
}

#[test]
fn a_state_request_returns_the_player_state() {
    let mut g = open_game();
    let v = ask(&mut g, 0, r#"{"type":"state"}"#);
    assert_eq!((v["type"].as_str(), result(&v)), (Some("state"), "NoError"));
    assert_eq!(v["actions_left"], MAX_ACTIONS - 1);
    assert_eq!(v["units"].as_array().map(Vec::len), Some(UNITS));
    assert_eq!(v["home"], serde_json::json!([0, 0]));
}

#[test]
fn the_thousandth_request_ends_the_turn_with_the_next_line() {
    let mut g = open_game();
    for i in 0..MAX_ACTIONS {
        let v = ask(&mut g, 0, r#"{"unit":0,"type":"view"}"#);
        assert_eq!(v["actions_left"], MAX_ACTIONS - i - 1);
    }
    // Whatever comes next ends the turn and is not carried out.
    assert_eq!(g.hear(0, r#"{"unit":0,"type":"dig"}"#), LineOutcome::Done);
    assert_eq!(g.world.units[0].energy, 200);
    g.step();
    assert_eq!(g.to_move(), vec![1]);
    assert_eq!(g.actions, 0);
}

#[test]
fn turns_rotate_through_the_seats_for_the_rounds() {
    let mut s = Setup::new(&INFO, 3);
    s.seats = 3;
    s.options.insert("rounds".into(), "4".into());
    let mut g = CraftingQuest::create(&s).unwrap();
    let mut order = Vec::new();
    while let Some(seat) = g.to_move_seat() {
        order.push(seat);
        let state: Value = serde_json::from_str(&g.input(seat)).unwrap();
        assert_eq!(state["round"], (order.len() as u32 - 1) / 3 + 1);
        assert_eq!(state["player"], seat);
        end_turn(&mut g);
    }
    assert_eq!(order, [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
    let outcome = g.outcome().unwrap();
    assert_eq!(
        outcome.ranks,
        [1, 1, 1],
        "nothing happened: a three-way tie"
    );
    assert_eq!(g.turn(), 12);
}

#[test]
fn faulted_seats_are_skipped_and_the_match_ends_when_all_are_out() {
    let mut s = Setup::new(&INFO, 3);
    s.seats = 3;
    let mut g = CraftingQuest::create(&s).unwrap();
    g.fault(0, FaultKind::Timeout);
    g.step();
    assert_eq!(g.to_move(), vec![1]);
    end_turn(&mut g);
    g.world.units[0].energy = 0;
    end_turn(&mut g);
    assert_eq!(g.to_move(), vec![1], "seat 1's slot is skipped");
    assert_eq!(
        g.world.units[0].energy, 80,
        "out seats' units are still replenished"
    );
    g.fault(1, FaultKind::Crash);
    g.step();
    assert_eq!(g.to_move(), vec![2]);
    g.fault(2, FaultKind::Flood);
    g.step();
    let outcome = g.outcome().expect("over");
    assert_eq!(outcome.reason, "every bot is out");
    assert!(g.to_move().is_empty());
    assert_eq!(g.frame().status().len(), 3);
}

#[test]
fn energy_is_replenished_once_per_round_at_the_owners_turn() {
    let mut g = open_game();
    g.world.units[0].energy = 0;
    g.world.units[10].energy = 0;
    end_turn(&mut g);
    assert_eq!((g.world.units[0].energy, g.world.units[10].energy), (0, 80));
    end_turn(&mut g);
    assert_eq!(
        (g.world.units[0].energy, g.world.units[10].energy),
        (80, 80)
    );
}

#[test]
fn sight_is_clipped_at_the_edges_and_lists_units() {
    let mut g = open_game();
    put(&mut g, 10, 6, 5);
    let state: Value = serde_json::from_str(&g.input(0)).unwrap();
    let sight = &state["units"][0]["sight"];
    assert_eq!(
        (sight["x"].clone(), sight["y"].clone()),
        (0.into(), 0.into())
    );
    let rows = sight["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    assert!(rows.iter().all(|r| r.as_str().map(str::len) == Some(6)));
    let units = sight["units"].as_array().unwrap();
    assert_eq!(units.len(), 10, "my ten units, not the enemy at distance 6");
    put(&mut g, 10, 5, 5);
    let state: Value = serde_json::from_str(&g.input(0)).unwrap();
    let enemy = state["units"][0]["sight"]["units"]
        .as_array()
        .unwrap()
        .iter()
        .find(|u| u["player"] == 1)
        .cloned()
        .expect("the enemy at distance 5");
    assert_eq!(
        enemy,
        serde_json::json!({"player":1,"id":10,"x":5,"y":5,"energy":200,"life":200,"sword":0,"armour":0})
    );
}

// ---------------------------------------------------------------------------------------------
// Maps and options
// ---------------------------------------------------------------------------------------------

/// Ten cells in a row: from `(x, y)` to the right (`step` 1) or to the left (`step` −1).
fn row(x: i32, y: i32, step: i32) -> Vec<(i32, i32)> {
    (0..10).map(|i| (x + step * i, y)).collect()
}

/// The official maps' facts, from their files in `maps/`: side, rock cells, cells holding
/// buried resources, rounds, the four homes (players 1–4), and per type (wood, stone, leather,
/// bronze, iron, titanium, gold) the total buried quantity and the number of cells holding it.
#[allow(clippy::type_complexity)]
const OFFICIAL_FACTS: [(
    &str,
    usize,
    usize,
    usize,
    u32,
    [(i32, i32); 4],
    [(u32, usize); 7],
); 3] = [
    (
        "v1",
        60,
        154,
        800,
        80,
        [(5, 5), (54, 54), (54, 1), (5, 58)],
        [
            (2360, 86),
            (5640, 156),
            (5440, 208),
            (2720, 68),
            (3200, 80),
            (1560, 38),
            (6760, 164),
        ],
    ),
    (
        "v2",
        80,
        960,
        1184,
        100,
        [(5, 5), (74, 74), (74, 1), (5, 78)],
        [
            (5160, 168),
            (6120, 192),
            (4680, 156),
            (4320, 144),
            (4080, 136),
            (3040, 76),
            (8800, 312),
        ],
    ),
    (
        "v3",
        100,
        348,
        1768,
        120,
        [(40, 46), (59, 53), (59, 42), (40, 57)],
        [
            (24040, 1016),
            (19360, 176),
            (19360, 176),
            (12480, 96),
            (24960, 192),
            (5760, 64),
            (3360, 144),
        ],
    ),
];

#[test]
fn official_maps_have_their_cells_resources_and_rounds() {
    for (name, size, rocks, with, rounds, homes, totals) in OFFICIAL_FACTS {
        let map = Map::official(name).expect(name);
        assert_eq!((map.name.as_str(), map.size), (name, size));
        assert_eq!(map.rock.len(), size * size, "{name}");
        assert_eq!(map.rock.iter().filter(|&&r| r).count(), rocks, "{name}");
        let held = |b: &[u16; 7]| b.iter().any(|&q| q > 0);
        assert_eq!(
            map.buried.iter().filter(|b| held(b)).count(),
            with,
            "{name}"
        );
        for (r, &(total, cells)) in totals.iter().enumerate() {
            let sum: u32 = map.buried.iter().map(|b| u32::from(b[r])).sum();
            let count = map.buried.iter().filter(|b| b[r] > 0).count();
            assert_eq!((sum, count), (total, cells), "{name} {}", RESOURCES[r]);
        }
        assert_eq!(map.rounds, rounds, "{name}");
        assert_eq!(map.homes, homes, "{name}");
        // Every home reaches every other.
        let reach = reachable(size, &map.rock, homes[0]);
        for (x, y) in homes {
            assert!(reach[map.idx(x, y)], "{name}: ({x},{y}) is reachable");
        }
        // The rounds reach the game unless the option overrides them.
        let mut setup = Setup::new(&INFO, 5);
        setup.options.insert("map".into(), name.into());
        let g = CraftingQuest::create(&setup).unwrap();
        assert_eq!((g.rounds, g.world.size()), (rounds, size), "{name}");
        assert_eq!(
            g.world.buried, map.buried,
            "{name}: the match starts with the map's resources"
        );
    }
    // Neither the seed nor anything else changes an official map.
    assert_eq!(Map::official("v1"), Map::official("v1"));
    assert_eq!(Map::official("v4"), None);
    assert_eq!(Map::official("generated"), None);
}

#[test]
fn official_maps_hold_these_resources_in_these_cells() {
    let q = |name: &str, x: i32, y: i32| {
        let map = Map::official(name).unwrap();
        let b = map.buried[map.idx(x, y)];
        (0..7)
            .filter(|&r| b[r] > 0)
            .map(|r| (RESOURCES[r], b[r]))
            .collect::<Vec<_>>()
    };
    // v1: the gold diamond by player 1's home, the wood strip at the top, the bronze square
    // in the centre, nothing at the home itself.
    assert_eq!(q("v1", 8, 4), vec![("gold", 50)]);
    assert_eq!(q("v1", 6, 6), vec![("gold", 30)]);
    assert_eq!(q("v1", 5, 7), vec![("gold", 20)]);
    assert_eq!(q("v1", 33, 0), vec![("wood", 40)]);
    assert_eq!(q("v1", 29, 29), vec![("bronze", 40)]);
    assert_eq!(q("v1", 5, 5), vec![]);
    // v1's two resource cells under rock, which no unit can reach.
    let v1 = Map::official("v1").unwrap();
    for (x, y) in [(22, 27), (37, 27)] {
        assert!(v1.rock[v1.idx(x, y)], "({x},{y}) is rock");
        assert_eq!(q("v1", x, y), vec![("stone", 60)]);
    }
    assert_eq!(q("v1", 22, 25), vec![("stone", 70)]);
    // v2: gold in the corner rows, wood in the middle.
    assert_eq!(q("v2", 3, 1), vec![("gold", 30)]);
    assert_eq!(q("v2", 40, 40), vec![("wood", 40)]);
    // v3: the cells with two types (bronze and iron), and wood along the top edge.
    assert_eq!(q("v3", 8, 8), vec![("bronze", 130), ("iron", 130)]);
    assert_eq!(q("v3", 91, 91), vec![("bronze", 130), ("iron", 130)]);
    assert_eq!(q("v3", 25, 0), vec![("wood", 60)]);
    assert_eq!(q("v3", 74, 0), vec![("wood", 60)]);
    let v3 = Map::official("v3").unwrap();
    let two = v3
        .buried
        .iter()
        .filter(|b| b.iter().filter(|&&x| x > 0).count() == 2);
    assert_eq!(two.count(), 96);
    // The quantities per cell.
    for (name, quantities) in [
        ("v1", &[20, 30, 40, 50, 60, 70][..]),
        ("v2", &[20, 30, 40][..]),
        ("v3", &[10, 20, 30, 40, 60, 70, 80, 90, 110, 120, 130][..]),
    ] {
        let map = Map::official(name).unwrap();
        let mut seen: Vec<u16> = map
            .buried
            .iter()
            .flatten()
            .copied()
            .filter(|&x| x > 0)
            .collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen, quantities, "{name}");
    }
}

#[test]
fn official_maps_symmetry() {
    let mirrored = |name: &str| {
        let m = Map::official(name).unwrap();
        let n = m.size as i32 - 1;
        let (mut terrain, mut resources) = ([0, 0], [0, 0]);
        for y in 0..=n {
            for x in 0..=n {
                let c = m.idx(x, y);
                for (k, d) in [m.idx(n - x, y), m.idx(x, n - y)].into_iter().enumerate() {
                    terrain[k] += usize::from(m.rock[c] != m.rock[d]);
                    resources[k] += usize::from(m.buried[c] != m.buried[d]);
                }
            }
        }
        (terrain, resources)
    };
    // v2 and v3: both mirrors, terrain and resources.
    assert_eq!(mirrored("v2"), ([0, 0], [0, 0]));
    assert_eq!(mirrored("v3"), ([0, 0], [0, 0]));
    // v1: the terrain is mirrored left–right only; the resources differ left–right in the 8
    // cells of the top wood strip (x 27–34 instead of 26–33: one cell off the middle).
    let ([lr_terrain, tb_terrain], [lr_resources, _]) = mirrored("v1");
    assert_eq!((lr_terrain, lr_resources), (0, 8));
    assert!(tb_terrain > 0);
    let v1 = Map::official("v1").unwrap();
    for y in 0..60 {
        for x in 0..60 {
            if v1.buried[v1.idx(x, y)] != v1.buried[v1.idx(59 - x, y)] {
                assert!(y <= 1 && [25, 26, 33, 34].contains(&x), "({x},{y})");
            }
        }
    }
    // v1's halves: the top (rows 0–29, players 1 and 3) is richer in stone, the bottom
    // (players 2 and 4) in bronze, iron and titanium.
    let half = |top: bool| {
        let mut sum = [0u32; 7];
        for y in 0..60 {
            if (y < 30) == top {
                for x in 0..60 {
                    for (r, s) in sum.iter_mut().enumerate() {
                        *s += u32::from(v1.buried[v1.idx(x, y)][r]);
                    }
                }
            }
        }
        sum
    };
    let cells = |rows: std::ops::Range<usize>| {
        v1.buried[rows.start * 60..rows.end * 60]
            .iter()
            .filter(|b| b.iter().any(|&q| q > 0))
            .count()
    };
    assert_eq!((cells(0..30), cells(30..60)), (378, 422));
    assert_eq!(half(true), [1120, 4080, 2720, 1040, 640, 320, 3220]);
    assert_eq!(half(false), [1240, 1560, 2720, 1680, 2560, 1240, 3540]);
    assert_eq!(v1.rock[..30 * 60].iter().filter(|&&r| r).count(), 76);
    assert_eq!(v1.rock[30 * 60..].iter().filter(|&&r| r).count(), 78);
}

#[test]
fn official_maps_place_the_forty_units_as_the_original() {
    let v1 = [row(3, 3, 1), row(56, 56, -1), row(56, 3, -1), row(3, 56, 1)];
    let v2 = [row(3, 3, 1), row(76, 76, -1), row(76, 3, -1), row(3, 76, 1)];
    let v3 = [
        row(38, 44, 1),
        row(61, 55, -1),
        row(61, 44, -1),
        row(38, 55, 1),
    ];
    for (name, cells) in [("v1", v1), ("v2", v2), ("v3", v3)] {
        let map = Map::official(name).unwrap();
        assert_eq!(map.placements, cells, "{name}");
        // The file's cells are the original rule's (a 10 × 10 box by the home, scanned
        // forwards in the left half and backwards in the right half).
        for (home, cells) in map.homes.iter().zip(&cells) {
            assert_eq!(map.original_placement(*home), *cells, "{name} {home:?}");
        }
        let mut setup = Setup::new(&INFO, 3);
        setup.seats = 4;
        setup.options.insert("map".into(), name.into());
        let g = CraftingQuest::create(&setup).unwrap();
        assert_eq!(g.world.units.len(), 40);
        for (seat, cells) in cells.iter().enumerate() {
            for (i, &(x, y)) in cells.iter().enumerate() {
                let u = &g.world.units[seat * UNITS + i];
                assert_eq!(
                    (u.id, u.seat, u.x, u.y),
                    (seat * UNITS + i, seat, x, y),
                    "{name}"
                );
            }
        }
    }
}

#[test]
fn a_dig_on_v1_tells_the_files_quantity() {
    let mut setup = Setup::new(&INFO, 8);
    setup.options.insert("map".into(), "v1".into());
    let mut g = CraftingQuest::create(&setup).unwrap();
    // Unit 0 starts on (3,3) and walks to (6,6), 30 gold by the file.
    for to in ["[4,4]", "[5,5]", "[6,6]"] {
        let v = ask(
            &mut g,
            0,
            &format!(r#"{{"unit":0,"type":"move","to":{to}}}"#),
        );
        assert_eq!(result(&v), "NoError", "{v}");
    }
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"dig"}"#);
    assert_eq!(result(&v), "NoError");
    assert_eq!(
        v["unit"]["dig"]["resources"],
        serde_json::json!({"gold": 30})
    );
    // The sight starts at (1,1): the unit's cell is row 5, column 5, and shows gold.
    assert_eq!(v["unit"]["sight"]["x"], 1);
    assert_eq!(
        v["unit"]["sight"]["rows"][5].as_str().unwrap().as_bytes()[5],
        b'g'
    );
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"move","to":[7,7]}"#);
    assert_eq!(result(&v), "NoError");
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"dig"}"#);
    assert_eq!(
        v["unit"]["dig"]["resources"],
        serde_json::json!({"gold": 50})
    );
    // Picking up the 50 puts them in the team's purse (200 at the start).
    let v = ask(
        &mut g,
        0,
        r#"{"unit":0,"type":"pickup","resources":{"gold":50}}"#,
    );
    assert_eq!(
        (result(&v), &v["gold"]),
        ("NoError", &serde_json::json!(250))
    );
    // v3's cells with two types tell both.
    let mut setup = Setup::new(&INFO, 8);
    setup.options.insert("map".into(), "v3".into());
    let mut g = CraftingQuest::create(&setup).unwrap();
    put(&mut g, 0, 8, 8);
    let v = ask(&mut g, 0, r#"{"unit":0,"type":"dig"}"#);
    assert_eq!(
        v["unit"]["dig"]["resources"],
        serde_json::json!({"bronze": 130, "iron": 130})
    );
}

#[test]
fn an_official_file_that_disagrees_with_itself_is_refused() {
    let text = include_str!("maps/v1.txt");
    assert!(parse_official(text).is_some());
    for (from, to) in [
        ("\n8 4 gold 50\n", "\n8 4 gold 60\n"),
        ("\nrock_cells 154\n", "\nrock_cells 153\n"),
        ("\nstart 1 5 5\n", "\nstart 1 21 1\n"),
        ("\nunits 1 3,3 ", "\nunits 1 21,1 "),
        ("\nend", "\n"),
    ] {
        assert!(text.contains(from), "{from:?}");
        assert_eq!(parse_official(&text.replacen(from, to, 1)), None, "{to:?}");
    }
}

#[test]
fn generated_maps_are_fair_connected_and_in_bounds() {
    for (seed, size) in [(1i64, 50usize), (2, 63), (3, 80), (-4, 100), (5, 51)] {
        let m = Map::generate(size, seed);
        assert_eq!(m.size, size);
        assert_eq!(m.rounds, size as u32 + 20);
        let n = size as i32 - 1;
        for y in 0..size as i32 {
            for x in 0..size as i32 {
                let c = m.idx(x, y);
                for (mx, my) in [(n - x, y), (x, n - y), (n - x, n - y)] {
                    let d = m.idx(mx, my);
                    assert_eq!(m.rock[c], m.rock[d], "seed {seed}: rock mirrored");
                    assert_eq!(m.buried[c], m.buried[d], "seed {seed}: resources mirrored");
                }
            }
        }
        let rock = m.rock.iter().filter(|&&r| r).count();
        assert!(
            rock * 100 >= size * size * 2 && rock * 100 <= size * size * 12,
            "seed {seed}: {rock} rock"
        );
        let reach = reachable(size, &m.rock, m.homes[0]);
        assert!(
            (0..size * size).all(|c| m.rock[c] || reach[c]),
            "seed {seed}: all grass reachable"
        );
        let grass = size * size - rock;
        let with = m.buried.iter().filter(|b| b.iter().any(|&q| q > 0)).count();
        assert!(
            with * 100 >= grass * 11 && with * 100 <= grass * 24,
            "seed {seed}: {with}/{grass}"
        );
        for q in m.buried.iter().flatten() {
            assert!(*q == 0 || (10..=130).contains(q));
        }
        for r in 0..7 {
            assert!(m.buried.iter().any(|b| b[r] > 0), "seed {seed}: every type");
        }
        assert_eq!(
            m.homes,
            vec![(5, 5), (n - 5, n - 5), (n - 5, 5), (5, n - 5)]
        );
        for p in 0..4 {
            let mirrored: Vec<(i32, i32)> = m.placements[0]
                .iter()
                .map(|&(x, y)| [(x, y), (n - x, n - y), (n - x, y), (x, n - y)][p])
                .collect();
            assert_eq!(m.placements[p], mirrored);
        }
        assert_eq!(Map::generate(size, seed), m, "deterministic");
    }
    assert_ne!(Map::generate(50, 1), Map::generate(50, 2));
}

#[test]
fn options_choose_the_map_size_and_rounds() {
    let make = |opts: &[(&str, &str)]| {
        let mut s = Setup::new(&INFO, 11);
        for (k, v) in opts {
            s.options.insert(k.to_string(), v.to_string());
        }
        CraftingQuest::create(&s)
    };
    let g = make(&[]).unwrap();
    assert_eq!(
        (g.world.size(), g.rounds, g.world.map.name.as_str()),
        (50, 70, "generated")
    );
    let g = make(&[("map", "v2")]).unwrap();
    assert_eq!((g.world.size(), g.rounds), (80, 100));
    let g = make(&[("map", "v3"), ("rounds", "5")]).unwrap();
    assert_eq!((g.world.size(), g.rounds), (100, 5));
    let g = make(&[("size", "77")]).unwrap();
    assert_eq!((g.world.size(), g.rounds), (77, 97));
    for bad in [
        vec![("map", "v4")],
        vec![("size", "49")],
        vec![("size", "101")],
        vec![("size", "x")],
        vec![("map", "v1"), ("size", "60")],
        vec![("rounds", "0")],
        vec![("colour", "red")],
    ] {
        assert!(make(&bad).is_err(), "{bad:?}");
    }
}

#[test]
fn the_maps_offered_are_the_ones_the_option_takes() {
    for (name, words) in MAPS {
        let mut setup = Setup::new(&INFO, 2);
        setup.options.insert("map".into(), name.into());
        let g = CraftingQuest::create(&setup).expect(name);
        assert_eq!(g.world.map.name, name);
        if name != "generated" {
            let side = g.world.size();
            let said = format!("{name}, official: {side} × {side}, {} rounds", g.rounds);
            assert_eq!(words, said);
        }
    }
    assert_eq!(MAPS[0].0, "generated");
}

#[test]
fn frames_show_everything_and_text_has_a_row_per_line() {
    let mut g = open_game();
    for (r, n) in [("bronze", 10), ("leather", 10), ("wood", 10)] {
        give(&mut g, 0, r, n);
    }
    put(&mut g, 0, 4, 4);
    ask(&mut g, 0, r#"{"unit":0,"type":"placeTrap","level":1}"#);
    end_turn(&mut g);
    let frame = g.frame();
    let v: view::View = serde_json::from_str(&frame.view_json()).unwrap();
    assert_eq!(v.traps, vec![[0, 4, 4, 1]]);
    assert_eq!(v.units.len(), 20);
    assert_eq!(v.ground.len(), 100);
    assert_eq!(v.played, Some(0));
    assert_eq!(v.to_move, Some(1));
    assert!(frame.text().lines().nth(4).unwrap().contains('1'));
    assert!(
        frame.events().iter().any(|e| e == "seat 1 places a trap"),
        "{:?}",
        frame.events()
    );
    assert_eq!(frame.status().len(), 2);
}

#[test]
fn a_cell_shared_by_two_seats_stays_marked_whatever_unit_comes_last() {
    // Seen in a match: seat 1's unit 0 with seat 2's units 13 and 17 on one cell was drawn
    // as `2`, the third unit undoing the `+` the second had set.
    let mut g = open_game();
    for id in [0, 13, 17] {
        put(&mut g, id, 6, 6);
    }
    put(&mut g, 1, 7, 6);
    put(&mut g, 2, 7, 6);
    let frame = g.frame();
    let text = frame.text();
    let row = text.lines().nth(6).unwrap();
    assert_eq!(&row[6..8], "+1", "{text}");
}

#[test]
fn replays_of_version_1_are_refused() {
    // Version 1 laid out the official maps' resources from the seed: its replays of v1–v3
    // cannot be replayed on the maps as they now are, so every version-1 replay is refused.
    assert_eq!(INFO.version, 2);
    let mut setup = Setup::new(&INFO, 4);
    setup.options.insert("map".into(), "v1".into());
    let game = CraftingQuest::create(&setup).unwrap();
    let names = vec!["a".to_string(), "b".to_string()];
    let mut referee = engine::Referee::new(Box::new(game), setup, names, false);
    for seat in [0, 1] {
        referee.begin_turn();
        let _ = referee.line(seat, r#"{"unit":0,"type":"dig"}"#, 1.0);
        let _ = referee.line(seat, r#"{"type":"end"}"#, 1.0);
    }
    let mut replay = referee.replay();
    assert!(replay.rerun(&ENTRY).is_ok());
    replay.game_version = 1;
    let Err(err) = replay.rerun(&ENTRY).map(|_| ()) else {
        panic!("a version-1 replay was replayed");
    };
    let err = err.to_string();
    assert!(
        err.contains("recorded with version 1 of the Crafting Quest 3 rules")
            && err.contains("version 2"),
        "{err}"
    );
}
