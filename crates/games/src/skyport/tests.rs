//! Tests: the conformance suite, the map format and the shipped maps, and small positions with
//! known outcomes for every rule of the rulebook: *The map*, *Protocol*, *A match*, *Actions*.

#![allow(clippy::needless_range_loop)]

use super::protocol::order_line;
use super::state::{upgrade_cost, weapon_stats, with_bonus};
use super::*;

engine::conformance_tests!(Skyport, ENTRY);

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// A map from rows of letters: `rows[j]` holds the tiles of `k = 0..D`.
fn grid(rows: &[&str]) -> Arc<Map> {
    let size = rows.len();
    let tiles = rows
        .iter()
        .flat_map(|r| {
            assert_eq!(r.len(), size, "{r}");
            r.chars()
                .map(|c| Tile::from_letter(c).expect("a tile letter"))
        })
        .collect();
    Arc::new(Map {
        name: "test".into(),
        description: String::new(),
        header_players: 0,
        size,
        tiles,
    })
}

const NAMES: [&str; 4] = ["alpha", "bravo", "charlie", "delta"];

/// A match on a grid: the seats take the `S` tiles in reading order (`j`, then `k`), connect
/// as alpha, bravo, ..., choose the given loadouts, and play in seat order. Seat 0 is to move.
fn play_on(rows: &[&str], ruleset: &'static str, loadouts: &[(Weapon, Weapon)]) -> Skyport {
    let map = grid(rows);
    let spawns = map.spawns();
    assert_eq!(spawns.len(), loadouts.len());
    let ring = (0..spawns.len()).collect();
    let mut g = Skyport::build(map, ruleset, DEFAULT_ROUNDS, &spawns, ring);
    for seat in 0..spawns.len() {
        let line = action_lines(&Action::Connect(NAMES[seat].into())).remove(0);
        assert_eq!(g.hear(seat, &line), LineOutcome::Done);
    }
    g.step();
    for (seat, (a, b)) in loadouts.iter().enumerate() {
        let line = action_lines(&Action::Loadout(*a, *b)).remove(0);
        assert_eq!(g.hear(seat, &line), LineOutcome::Done);
    }
    g.step();
    g.take_notices();
    assert_eq!(g.phase, Phase::Play);
    assert_eq!(g.active, 0);
    g
}

const LM: (Weapon, Weapon) = (Weapon::Laser, Weapon::Mortar);
const MD: (Weapon, Weapon) = (Weapon::Mortar, Weapon::Droid);
const DL: (Weapon, Weapon) = (Weapon::Droid, Weapon::Laser);

fn put(g: &mut Skyport, seat: usize, j: i32, k: i32) {
    g.world.place(seat, Pos::new(j, k));
}

fn say(g: &mut Skyport, order: Order) -> LineOutcome {
    let seat = g.active;
    g.hear(seat, &order_line(&order))
}

fn endturn(g: &mut Skyport) {
    let seat = g.active;
    assert_eq!(g.hear(seat, protocol::ENDTURN), LineOutcome::Done);
    g.step();
}

fn error(text: &str) -> LineOutcome {
    LineOutcome::Reply(format!("{{\"error\":{}}}\n", protocol::quoted(text)))
}

fn hp(g: &Skyport, seat: usize) -> i32 {
    g.world.players[seat].health
}

fn score(g: &Skyport, seat: usize) -> i64 {
    g.world.players[seat].score
}

/// Where the last shot was a laser beam: from where to where.
fn last_laser(g: &Skyport) -> ((i32, i32), (i32, i32)) {
    match g.effects.last() {
        Some((_, Effect::Laser { from, to })) => ((from.j, from.k), (to.j, to.k)),
        other => panic!("not a laser: {other:?}"),
    }
}

/// 7 × 7 of grass with two spawns in the corners.
const OPEN: [&str; 7] = [
    "SGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGS",
];

// ---------------------------------------------------------------------------------------------
// Coordinates, directions, distance (rulebook: *The map*)
// ---------------------------------------------------------------------------------------------

#[test]
fn directions_and_distance() {
    let o = Pos::new(5, 5);
    let want = [
        ("up", (4, 4)),
        ("down", (6, 6)),
        ("left-down", (6, 5)),
        ("right-down", (5, 6)),
        ("left-up", (5, 4)),
        ("right-up", (4, 5)),
    ];
    for (name, (j, k)) in want {
        let d = Dir::parse(name).expect(name);
        assert_eq!(d.name(), name);
        assert_eq!(o.step(d), Pos::new(j, k));
        assert_eq!(distance(o, o.step(d)), 1);
        assert_eq!(o.step(d).step(d.opposite()), o);
    }
    assert_eq!(Dir::parse("rightUp"), None);
    assert_eq!(Dir::parse_lenient("rightUp"), Some(Dir::RightUp));
    assert_eq!(Dir::parse_lenient("leftDown"), Some(Dir::LeftDown));
    assert_eq!(distance(Pos::new(0, 0), Pos::new(2, 2)), 2);
    assert_eq!(distance(Pos::new(0, 2), Pos::new(2, 0)), 4);
    assert_eq!(distance(Pos::new(1, 0), Pos::new(0, 1)), 2);
    // The server's mortar range test (cosine law) agrees with hex distance for ranges up to 6.
    for dj in -9..=9i32 {
        for dk in -9..=9i32 {
            let law = f64::from(dj * dj + dk * dk - dj * dk).sqrt().ceil() as i32;
            for range in 0..=6 {
                assert_eq!(
                    law <= range,
                    hex::offset_length(dj, dk) <= range,
                    "{dj},{dk}"
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Map files and the shipped maps (rulebook: *The map*)
// ---------------------------------------------------------------------------------------------

const TINY: &str = "players 2\nsize 3\ndescription \"tiny\"\n\
    _\n  _/S\\_\n_/G\\_/R\\_\n/V\\_/O\\_/E\\\n\\_/C\\_/G\\_/\n  \\_/S\\_/\n    \\_/\n";

#[test]
fn map_files_parse_row_by_row() {
    let m = Map::parse("tiny", TINY).expect("a good file");
    assert_eq!(
        (m.size, m.header_players, m.description.as_str()),
        (3, 2, "tiny")
    );
    // Row r holds j + k = r, from the largest j.
    let at = |j, k| m.tile(Pos::new(j, k)).unwrap();
    assert_eq!(at(0, 0), Tile::Spawn);
    assert_eq!((at(1, 0), at(0, 1)), (Tile::Grass, Tile::Rubidium));
    assert_eq!(
        (at(2, 0), at(1, 1), at(0, 2)),
        (Tile::Void, Tile::Rock, Tile::Explosium)
    );
    assert_eq!((at(2, 1), at(1, 2)), (Tile::Scrap, Tile::Grass));
    assert_eq!(at(2, 2), Tile::Spawn);
    assert_eq!(m.spawns(), vec![Pos::new(0, 0), Pos::new(2, 2)]);
    // Written back and read again: the same map.
    let again = Map::parse("tiny", &m.to_file()).expect("our own output");
    assert_eq!(again, m);
}

#[test]
fn bad_map_files_are_refused_with_a_clear_message() {
    let body = "S\nG R\nV O E\nC G\nS\n";
    let cases = [
        (
            format!("players 2\ndescription \"x\"\n{body}"),
            "expected a header line",
        ),
        (
            format!("players 2\nsize 3\n{body}"),
            "expected a header line",
        ),
        (
            "players 2\nsize 3\ndescription \"x\"\n".to_string(),
            "0 rows of tiles; a map of size 3 needs 5",
        ),
        (
            format!("players two\nsize 3\ndescription \"x\"\n{body}"),
            "'players' needs a whole number",
        ),
        (
            format!("players 2\nsize 1\ndescription \"x\"\n{body}"),
            "size 1 is out of range",
        ),
        (
            "players 2\nsize 3\ndescription \"x\"\nS\nG R\nV O\nC G\nS\n".to_string(),
            "line 6: row 3 has 2 tiles; a map of size 3 needs 3",
        ),
        (
            "players 2\nsize 3\ndescription \"x\"\nS\nG X\nV O E\nC G\nS\n".to_string(),
            "line 5: unknown tile 'X'",
        ),
        (
            format!("players 2\nsize 3\ndescription \"x\"\n{body}G\n"),
            "more than the 5 rows",
        ),
        (
            "players 2\nsize 3\ndescription \"x\"\nS\nG R\nV O E\nC G\nG\n".to_string(),
            "1 spawn tiles (S); a map needs at least 2",
        ),
        (
            format!("players 2\nsize 3\nsize 3\n{body}"),
            "'size' is given twice",
        ),
    ];
    for (text, needle) in cases {
        let e = Map::parse("bad", &text).expect_err(needle);
        assert!(e.to_string().contains(needle), "{needle:?} not in {e}");
        assert!(e.to_string().starts_with("bad map file"), "{e}");
    }
}

/// The symmetries of the rhombus (Klein four-group) and of a centred hexagon (rotation by 120°).
fn images(m: &Map, p: Pos) -> Vec<Pos> {
    let n = m.size as i32 - 1;
    vec![
        Pos::new(n - p.j, n - p.k),
        Pos::new(p.k, p.j),
        Pos::new(n - p.k, n - p.j),
    ]
}

fn rotate120(c: Pos, p: Pos) -> Pos {
    let (dj, dk) = (p.j - c.j, p.k - c.k);
    Pos::new(c.j - dk, c.k + dj - dk)
}

#[test]
fn shipped_maps_parse_and_are_fair() {
    for (name, text) in map::MAPS {
        let m = Map::parse(name, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let spawns = m.spawns();
        assert_eq!(m.header_players, spawns.len(), "{name}");
        let want = name.trim_end_matches('p').rsplit('-').next().unwrap();
        assert_eq!(want.parse::<usize>().unwrap(), spawns.len(), "{name}");
        let tile = |p: Pos| m.tile(p).unwrap_or(Tile::Void);
        let all: Vec<Pos> = (0..m.tiles.len()).map(|i| m.pos(i)).collect();
        if name.starts_with("triad") {
            let c = Pos::new(8, 8);
            for &p in &all {
                assert_eq!(tile(p), tile(rotate120(c, p)), "{name} {p}");
            }
        } else {
            for &p in &all {
                for q in images(&m, p) {
                    assert_eq!(tile(p), m.tile(q).unwrap(), "{name} {p} {q}");
                }
            }
        }
        // Every spawn has the same resources within 3 tiles, and walkable neighbours that
        // connect to every other spawn's.
        let near = |s: Pos| {
            let mut count = [0; 3];
            for &p in &all {
                if distance(p, s) <= 3 {
                    if let Some(r) = tile(p).resource() {
                        count[r.index()] += 1;
                    }
                }
            }
            count
        };
        for &s in &spawns {
            assert_eq!(near(s), near(spawns[0]), "{name} {s}");
            assert!(near(s).iter().all(|&n| n >= 2), "{name} {s}");
        }
        let start = spawns[0]
            .around()
            .into_iter()
            .find(|&p| tile(p).walkable())
            .unwrap();
        let mut seen = vec![start];
        let mut i = 0;
        while i < seen.len() {
            for n in seen[i].around() {
                if tile(n).walkable() && !seen.contains(&n) {
                    seen.push(n);
                }
            }
            i += 1;
        }
        for &s in &spawns {
            assert!(
                s.around().iter().any(|p| seen.contains(p)),
                "{name}: {s} is cut off"
            );
        }
        // Written back, the file reads the same.
        assert_eq!(Map::parse(name, &m.to_file()).unwrap(), m, "{name}");
    }
}

#[test]
fn the_map_is_chosen_by_the_number_of_players() {
    let want = [
        (2, "duel-2p"),
        (3, "triad-3p"),
        (4, "crossroads-4p"),
        (5, "archipelago-8p"),
        (6, "archipelago-8p"),
        (7, "archipelago-8p"),
        (8, "archipelago-8p"),
    ];
    for (seats, name) in want {
        let mut setup = Setup::new(&INFO, 3);
        setup.seats = seats;
        let g = Skyport::create(&setup).unwrap();
        assert_eq!(g.world.map.name, name);
        // Unused spawn tiles stay spawn tiles; every seat stands on its own.
        let spawns = g.world.map.spawns();
        assert_eq!(
            g.world.tiles.iter().filter(|t| **t == Tile::Spawn).count(),
            spawns.len()
        );
        for p in &g.world.players {
            assert!(spawns.contains(&p.pos) && p.pos == p.spawn);
        }
    }
    let mut setup = Setup::new(&INFO, 3);
    setup.options.insert("map".into(), "duel-2p".into());
    setup.seats = 3;
    let e = Skyport::create(&setup).unwrap_err().to_string();
    assert!(e.contains("not enough for 3 players"), "{e}");
    setup.options.insert("map".into(), "nowhere".into());
    let e = Skyport::create(&setup).unwrap_err().to_string();
    assert!(
        e.contains("no such map (known: duel-2p, triad-3p, crossroads-4p, archipelago-8p)"),
        "{e}"
    );
    setup.options.insert("map".into(), "crossroads-4p".into());
    assert_eq!(
        Skyport::create(&setup).unwrap().world.map.name,
        "crossroads-4p"
    );
}

// ---------------------------------------------------------------------------------------------
// Handshake, loadout, game states (rulebook: *Protocol*, *A match*)
// ---------------------------------------------------------------------------------------------

fn fresh(seats: usize) -> Skyport {
    let mut setup = Setup::new(&INFO, 11);
    setup.seats = seats;
    Skyport::create(&setup).unwrap()
}

#[test]
fn the_handshake_checks_as_the_original() {
    let mut g = fresh(2);
    assert_eq!(g.to_move(), vec![0, 1]);
    let info = g.input(0);
    assert_eq!(
        info,
        "{\"message\":\"info\",\"ruleset\":\"rev1\",\"rounds\":50,\"players\":2,\"timeout\":1000,\"map\":\"duel-2p\"}\n"
    );
    let cases = [
        (
            "nonsense",
            "Invalid packet received: expected ident at line 1 column 2",
        ),
        (
            "[1]",
            "Invalid packet received: A JSONObject text must begin with '{'",
        ),
        (
            "{}",
            "Invalid or incomplete packet: JSONObject[\"message\"] not found.",
        ),
        (
            r#"{"message":"loadout"}"#,
            "Expected 'connect' handshake, but got 'loadout' key",
        ),
        (
            r#"{"message":"connect","name":"abc"}"#,
            "Invalid or incomplete packet: JSONObject[\"revision\"] not found.",
        ),
        (
            r#"{"message":"connect","revision":"x","name":"abc"}"#,
            "Invalid or incomplete packet: JSONObject[\"revision\"] is not a number.",
        ),
        (
            r#"{"message":"connect","revision":2,"name":"abc"}"#,
            "Wrong protocol revision: supporting 1, but got 2",
        ),
        (
            r#"{"message":"connect","revision":1}"#,
            "Invalid or incomplete packet: JSONObject[\"name\"] not found.",
        ),
        (
            r#"{"message":"connect","revision":1,"name":"ab"}"#,
            "Username too short: needs to be 3 characters or longer.",
        ),
        (
            r#"{"message":"connect","revision":1,"name":"abcdefghijklmnopq"}"#,
            "Username too long: needs to be 16 characters or less.",
        ),
        (
            r#"{"message":"connect","revision":1,"name":"a b c"}"#,
            "Username contains invalid characters. May only contain a-z, A-Z, 0-9, -, _, +.",
        ),
        (
            r#"{"message":"connect","revision":1,"name":"æøå"}"#,
            "Username contains invalid characters. May only contain a-z, A-Z, 0-9, -, _, +.",
        ),
    ];
    for (line, text) in cases {
        assert_eq!(g.hear(0, line), error(text), "{line}");
    }
    assert!(g.take_notices().is_empty());
    // 16 characters of every allowed kind; the revision may be a numeric string, as org.json.
    let ok = r#"{"message":"connect","revision":"1","name":"Az09-_+abcdefghi"}"#;
    assert_eq!(g.hear(0, ok), LineOutcome::Done);
    assert_eq!(
        g.take_notices(),
        vec![(0, "{\"message\":\"connect\",\"status\":true}\n".to_string())]
    );
    // Names need not be unique (as in 2013).
    assert_eq!(g.hear(1, ok), LineOutcome::Done);
    g.step();
    assert_eq!(g.phase, Phase::Loadout);
    assert_eq!(g.world.players[1].name, "Az09-_+abcdefghi");
}

#[test]
fn the_loadout_checks_as_the_original() {
    let mut g = fresh(3);
    for seat in 0..3 {
        let line = action_lines(&Action::Connect(NAMES[seat].into())).remove(0);
        g.hear(seat, &line);
    }
    g.step();
    g.take_notices();
    // The turn-0 game state: names only, the ring starting with its last player (2013).
    let ring = g.ring.clone();
    let names: Vec<&str> = [ring[2], ring[0], ring[1]]
        .iter()
        .map(|&s| NAMES[s])
        .collect();
    let state: Value = serde_json::from_str(&g.input(1)).unwrap();
    assert_eq!(state["message"], "gamestate");
    assert_eq!(state["turn"], 0);
    let players: Vec<&str> = state["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            assert_eq!(p.as_object().unwrap().len(), 1);
            p["name"].as_str().unwrap()
        })
        .collect();
    assert_eq!(players, names);
    assert_eq!(state["map"]["j-length"], 16);
    assert_eq!(state["map"]["k-length"], 16);
    assert_eq!(state["map"]["data"][8][8], "O");
    let cases = [
        (
            r#"{"message":"connect","revision":1,"name":"abc"}"#,
            "Expected 'loadout', but got 'connect' key",
        ),
        (
            r#"{"message":"loadout","secondary-weapon":"laser"}"#,
            "Invalid or incomplete packet: JSONObject[\"primary-weapon\"] not found.",
        ),
        (
            r#"{"message":"loadout","primary-weapon":"sword","secondary-weapon":"laser"}"#,
            "Invalid primary weapon: 'sword'",
        ),
        (
            r#"{"message":"loadout","primary-weapon":"laser","secondary-weapon":"Mortar"}"#,
            "Invalid secondary weapon: 'Mortar'",
        ),
        (
            r#"{"message":"loadout","primary-weapon":"droid","secondary-weapon":"droid"}"#,
            "Invalid loadout: Can't have the same weapon twice.",
        ),
    ];
    for (line, text) in cases {
        assert_eq!(g.hear(0, line), error(text), "{line}");
    }
    let good = r#"{"message":"loadout","primary-weapon":"droid","secondary-weapon":"mortar"}"#;
    assert_eq!(g.hear(0, good), LineOutcome::Done);
    assert_eq!(g.hear(1, good), LineOutcome::Done);
    // Seat 3 times out: it gets the laser and the mortar.
    g.fault(2, FaultKind::Timeout);
    g.step();
    assert_eq!(
        g.world.players[0].weapons,
        [(Weapon::Droid, 1), (Weapon::Mortar, 1)]
    );
    assert_eq!(
        g.world.players[2].weapons,
        [(Weapon::Laser, 1), (Weapon::Mortar, 1)]
    );
    // Then one endturn to everyone, and turn 1 to the first of the ring.
    let notices = g.take_notices();
    let first = g.ring[0];
    assert_eq!(g.active, first);
    for seat in 0..3 {
        let mine: Vec<&String> = notices
            .iter()
            .filter(|(s, _)| *s == seat)
            .map(|(_, t)| t)
            .collect();
        assert_eq!(mine[0], "{\"message\":\"endturn\"}\n");
        assert_eq!(mine.len(), if seat == first { 1 } else { 2 });
    }
}

#[test]
fn game_states_rotate_the_ring_and_show_only_your_own_resources() {
    let mut g = play_on(&OPEN, "rev1", &[LM, MD]);
    put(&mut g, 0, 1, 1);
    g.world.players[0].resources = [1, 2, 3];
    g.world.players[1].resources = [7, 7, 7];
    endturn(&mut g);
    assert_eq!(g.active, 1);
    // Seat 2's input: itself first, then seat 1; resources only in its own object.
    let input = g.input(1);
    assert!(input.ends_with('\n') && !input[..input.len() - 1].contains('\n'));
    let state: Value = serde_json::from_str(&input).unwrap();
    assert_eq!(state["turn"], 2);
    let p = &state["players"];
    assert_eq!(p[0]["name"], "bravo");
    assert_eq!(p[0]["position"], "6,6");
    assert_eq!(
        p[0]["resources"],
        serde_json::json!({"rubidium": 7, "explosium": 7, "scrap": 7})
    );
    assert_eq!(
        p[0]["primary-weapon"],
        serde_json::json!({"name": "mortar", "level": 1})
    );
    assert_eq!(
        p[0]["secondary-weapon"],
        serde_json::json!({"name": "droid", "level": 1})
    );
    assert_eq!(p[1]["name"], "alpha");
    assert_eq!(p[1]["position"], "1,1");
    assert_eq!(p[1]["health"], 100);
    assert!(p[1].get("resources").is_none());
    // Seat 1 got the same state as a notice, with its own resources instead.
    let notices = g.take_notices();
    let to_alpha: Vec<&String> = notices
        .iter()
        .filter(|(s, _)| *s == 0)
        .map(|(_, t)| t)
        .collect();
    let seen: Value = serde_json::from_str(to_alpha.last().unwrap()).unwrap();
    assert_eq!(seen["players"][0]["name"], "bravo");
    assert!(seen["players"][0].get("resources").is_none());
    assert_eq!(seen["players"][1]["resources"]["scrap"], 3);
    assert!(notices.iter().all(|(s, _)| *s == 0 || *s == 1));
}

#[test]
fn valid_actions_are_broadcast_after_the_endturn() {
    let mut g = play_on(&OPEN, "rev1", &[LM, MD]);
    assert_eq!(say(&mut g, Order::Move(Dir::Down)), LineOutcome::More);
    assert_eq!(
        say(&mut g, Order::Move(Dir::Up)),
        error("Invalid move packet: Invalid move: SPAWN tile is not accessible")
    );
    assert_eq!(say(&mut g, Order::Laser(Dir::RightDown)), LineOutcome::Done);
    g.step();
    let notices = g.take_notices();
    for seat in 0..2 {
        let mine: Vec<&str> = notices
            .iter()
            .filter(|(s, _)| *s == seat)
            .map(|(_, t)| t.as_str())
            .take(3)
            .collect();
        assert_eq!(
            mine,
            [
                "{\"message\":\"endturn\"}\n",
                "{\"message\":\"action\",\"type\":\"move\",\"direction\":\"down\",\"from\":\"alpha\"}\n",
                "{\"message\":\"action\",\"type\":\"laser\",\"direction\":\"right-down\",\"from\":\"alpha\"}\n",
            ]
        );
    }
}

#[test]
fn unexpected_messages_during_a_turn() {
    let mut g = play_on(&OPEN, "rev1", &[LM, MD]);
    let cases = [
        (
            "{",
            "Invalid packet received: EOF while parsing an object at line 1 column 1",
        ),
        (r#"{"type":"move"}"#, "Invalid or incomplete packet"),
        (
            r#"{"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}"#,
            "Unexpected message, got 'loadout' but expected 'action'",
        ),
    ];
    for (line, text) in cases {
        assert_eq!(g.hear(0, line), error(text), "{line}");
    }
    // None of them counts as an action: three moves still fit.
    assert_eq!(g.cur.actions, 0);
    assert_eq!(
        g.hear(0, r#"{"message":"action","type":"dance"}"#),
        error("Invalid action: dance")
    );
    // An action without a type is silently invalid, as in 2013.
    assert_eq!(g.hear(0, r#"{"message":"action"}"#), LineOutcome::More);
    assert_eq!(say(&mut g, Order::Move(Dir::Down)), LineOutcome::Done);
    g.step();
    assert_eq!(g.world.players[0].pos, Pos::new(1, 1));
    assert_eq!(score(&g, 0), 0);
}

// ---------------------------------------------------------------------------------------------
// Moving, turns, penalties (rulebook: *The map*, *A match*)
// ---------------------------------------------------------------------------------------------

#[test]
fn moves_go_one_tile_onto_walkable_free_tiles() {
    let rows = ["SGVGG", "GOGGG", "GGGGG", "GGGGG", "GGGGS"];
    let mut g = play_on(&rows, "rev1", &[LM, MD]);
    assert_eq!(
        say(&mut g, Order::Move(Dir::Up)),
        error("Invalid move packet: Invalid move: tile up is not accessible (outside of map)")
    );
    assert_eq!(
        say(&mut g, Order::Move(Dir::Down)),
        error("Invalid move packet: Invalid move: ROCK tile is not accessible")
    );
    assert_eq!(say(&mut g, Order::Move(Dir::RightDown)), LineOutcome::Done);
    g.step();
    assert_eq!(g.world.players[0].pos, Pos::new(0, 1));
    assert_eq!(score(&g, 0), 0);
    endturn(&mut g); // bravo stays on its spawn: −10 (no valid action) −10 (spawn)
    assert_eq!(score(&g, 1), -20);
    assert_eq!(
        say(&mut g, Order::Move(Dir::RightDown)),
        error("Invalid move packet: Invalid move: VOID tile is not accessible")
    );
    assert_eq!(
        say(&mut g, Order::Move(Dir::LeftUp)),
        error("Invalid move packet: Invalid move: SPAWN tile is not accessible")
    );
    assert_eq!(
        g.hear(
            0,
            r#"{"message":"action","type":"move","direction":"rightDown"}"#
        ),
        LineOutcome::Done
    );
    g.step();
    // Three invalid actions: −10.
    assert_eq!(score(&g, 0), -10);
    put(&mut g, 1, 1, 2);
    endturn(&mut g);
    assert_eq!(
        say(&mut g, Order::Move(Dir::Down)),
        error("Invalid move packet: Player bravo is already on this tile.")
    );
    assert_eq!(
        g.hear(0, r#"{"message":"action","type":"move"}"#),
        error("Invalid move packet: JSONObject[\"direction\"] not found.")
    );
}

#[test]
fn a_turn_is_three_actions_or_an_endturn() {
    let mut g = play_on(&OPEN, "rev1", &[LM, MD]);
    assert_eq!(say(&mut g, Order::Move(Dir::Down)), LineOutcome::More);
    assert_eq!(say(&mut g, Order::Move(Dir::Down)), LineOutcome::More);
    assert_eq!(say(&mut g, Order::Move(Dir::Down)), LineOutcome::Done);
    g.step();
    assert_eq!(g.world.players[0].pos, Pos::new(3, 3));
    assert_eq!(g.active, 1);
    assert_eq!(g.to_move(), vec![1]);
    // A fault ends the turn: what was done stays done.
    assert_eq!(say(&mut g, Order::Move(Dir::Up)), LineOutcome::More);
    g.fault(1, FaultKind::Timeout);
    g.step();
    assert_eq!(g.world.players[1].pos, Pos::new(5, 5));
    assert_eq!(score(&g, 1), 0);
    // A turn with no valid action at all (nothing sent, or a crash): −10.
    endturn(&mut g);
    assert_eq!(score(&g, 0), -10);
}

#[test]
fn a_shot_ends_the_turn_and_later_actions_are_ignored() {
    let mut g = play_on(&OPEN, "rev1", &[LM, MD]);
    put(&mut g, 0, 3, 3);
    put(&mut g, 1, 3, 5);
    assert_eq!(say(&mut g, Order::Laser(Dir::RightDown)), LineOutcome::More);
    assert_eq!(say(&mut g, Order::Move(Dir::Down)), LineOutcome::More);
    assert_eq!(say(&mut g, Order::Mine), LineOutcome::Done);
    g.step();
    assert_eq!(g.world.players[0].pos, Pos::new(3, 3));
    assert_eq!(hp(&g, 1), 100 - 22);
    assert_eq!(score(&g, 0), 22);
}

#[test]
fn invalid_shots_do_not_end_the_turn_and_slots_count_anyway() {
    let mut g = play_on(&OPEN, "rev1", &[LM, MD]);
    put(&mut g, 0, 3, 3);
    put(&mut g, 1, 3, 5);
    // Slot 1: a droid it does not have (silent); slot 2: a mortar out of range (silent).
    assert_eq!(
        say(&mut g, Order::Droid(vec![Dir::Down])),
        LineOutcome::More
    );
    assert_eq!(say(&mut g, Order::Mortar(3, 0)), LineOutcome::More);
    // Slot 3: the laser, without bonus.
    assert_eq!(say(&mut g, Order::Laser(Dir::RightDown)), LineOutcome::Done);
    g.step();
    assert_eq!(hp(&g, 1), 100 - 16);
    assert_eq!(score(&g, 0), 16);
}

#[test]
fn ending_a_turn_on_the_spawn_costs_ten() {
    let mut g = play_on(&OPEN, "tg2013", &[LM, MD]);
    g.world.players[0].resources = [4, 0, 0];
    // tg2013: an upgrade on the spawn tile is valid, but the turn ends on the spawn tile.
    assert_eq!(
        say(&mut g, Order::Upgrade(Weapon::Laser)),
        LineOutcome::More
    );
    endturn(&mut g);
    assert_eq!(g.world.players[0].weapons[0], (Weapon::Laser, 2));
    assert_eq!(score(&g, 0), -10);
    // Moving off and back is impossible; leaving costs nothing.
    endturn(&mut g);
    assert_eq!(say(&mut g, Order::Move(Dir::Down)), LineOutcome::More);
    endturn(&mut g);
    assert_eq!(score(&g, 0), -10);
}

#[test]
fn rev1_allows_only_moves_on_a_spawn_tile() {
    let mut g = play_on(&OPEN, "rev1", &[LM, MD]);
    g.world.players[0].resources = [4, 0, 0];
    assert_eq!(
        say(&mut g, Order::Upgrade(Weapon::Laser)),
        LineOutcome::More
    );
    assert_eq!(say(&mut g, Order::Laser(Dir::Down)), LineOutcome::More);
    endturn(&mut g);
    assert_eq!(g.world.players[0].weapons[0], (Weapon::Laser, 1));
    assert_eq!(score(&g, 0), -20);
}

// ---------------------------------------------------------------------------------------------
// Weapons (rulebook: *Actions*)
// ---------------------------------------------------------------------------------------------

#[test]
fn the_damage_table_of_a7() {
    let table = [
        (
            Weapon::Laser,
            [(5, [16, 19, 22]), (6, [18, 22, 25]), (7, [22, 26, 31])],
        ),
        (
            Weapon::Mortar,
            [(2, [20, 24, 28]), (3, [20, 24, 28]), (4, [25, 30, 35])],
        ),
        (
            Weapon::Droid,
            [(3, [22, 26, 31]), (4, [24, 29, 34]), (5, [26, 31, 36])],
        ),
    ];
    for (weapon, levels) in table {
        for (i, (range, damage)) in levels.into_iter().enumerate() {
            let (r, base) = weapon_stats(weapon, i as u8 + 1);
            assert_eq!(r, range, "{weapon} {}", i + 1);
            for t in 0..3 {
                assert_eq!(
                    with_bonus(base, t),
                    damage[t as usize],
                    "{weapon} {} {t}",
                    i + 1
                );
            }
        }
    }
    assert_eq!([18, 22, 25], [0, 1, 2].map(|t| with_bonus(18, t)));
    assert_eq!([10, 12, 14], [0, 1, 2].map(|t| with_bonus(10, t)));
    assert_eq!([2, 2, 3], [0, 1, 2].map(|t| with_bonus(2, t)));
    assert_eq!(
        (upgrade_cost(1), upgrade_cost(2), upgrade_cost(3)),
        (Some(4), Some(5), None)
    );
}

#[test]
fn the_laser_flies_over_void_stops_at_rock_and_pierces() {
    let rows = [
        "SGGGGGGGGG",
        "GGGGGGGGGG",
        "GGGGGGGGGG",
        "GGGVVGGOGG",
        "GGGGGGGGGG",
        "GGGGGGGGGG",
        "GGGGGGGGGG",
        "GGGGGGGGGG",
        "GGGGGGGGGG",
        "SGGGGGGGGS",
    ];
    let mut g = play_on(&rows, "rev1", &[LM, MD, DL]);
    // alpha at 3,0 fires right-down: over the void at 3,3 and 3,4, hits bravo at 3,2 and
    // charlie at 3,5, stops before the rock at 3,7.
    put(&mut g, 0, 3, 0);
    put(&mut g, 1, 3, 2);
    put(&mut g, 2, 3, 5);
    assert_eq!(say(&mut g, Order::Laser(Dir::RightDown)), LineOutcome::More);
    assert_eq!(hp(&g, 1), 78);
    assert_eq!(hp(&g, 2), 78);
    assert_eq!(score(&g, 0), 44);
    assert_eq!(last_laser(&g), ((3, 0), (3, 5)));
    // Range 5 at level 1: from 0,4 downwards reaches 5,9 but not 6,10 (off the map anyway);
    // from 4,0 left-up is off the map at once.
    let mut g = play_on(&rows, "rev1", &[LM, MD, DL]);
    put(&mut g, 0, 2, 2);
    put(&mut g, 1, 8, 8);
    put(&mut g, 2, 7, 7);
    assert_eq!(say(&mut g, Order::Laser(Dir::Down)), LineOutcome::More);
    assert_eq!(hp(&g, 1), 100);
    assert_eq!(hp(&g, 2), 100 - 22);
    assert_eq!(last_laser(&g), ((2, 2), (7, 7)));
    let mut g = play_on(&rows, "rev1", &[LM, MD, DL]);
    put(&mut g, 0, 4, 0);
    assert_eq!(say(&mut g, Order::Laser(Dir::LeftUp)), LineOutcome::More);
    assert_eq!(last_laser(&g), ((4, 0), (4, 0)));
    assert_eq!(hp(&g, 0), 100);
    // The rock at 3,7 stops the beam before it.
    let mut g = play_on(&rows, "rev1", &[LM, MD, DL]);
    put(&mut g, 0, 3, 5);
    put(&mut g, 2, 3, 8);
    assert_eq!(say(&mut g, Order::Laser(Dir::RightDown)), LineOutcome::More);
    assert_eq!(last_laser(&g), ((3, 5), (3, 6)));
    assert_eq!(hp(&g, 2), 100);
    // Errors.
    let mut g = play_on(&rows, "rev1", &[LM, MD, DL]);
    put(&mut g, 0, 4, 0);
    assert_eq!(
        g.hear(0, r#"{"message":"action","type":"laser"}"#),
        error("Invalid shot: lacks a direction key")
    );
    assert_eq!(
        g.hear(
            0,
            r#"{"message":"action","type":"laser","direction":"rightUp"}"#
        ),
        error("Invalid shot: unknown direction 'rightUp'")
    );
}

#[test]
fn players_on_spawn_tiles_reflect_or_are_protected() {
    let rows = ["SGGGGG", "GGGGGG", "GGGGGG", "GGGGGG", "GGGGGG", "GGGGGS"];
    for (ruleset, reflects) in [("rev1", true), ("tg2013", false)] {
        let mut g = play_on(&rows, ruleset, &[LM, MD]);
        put(&mut g, 0, 3, 3);
        // bravo stands on its spawn 5,5; alpha fires down at it from 3,3 (bonus 2: 22).
        assert_eq!(say(&mut g, Order::Laser(Dir::Down)), LineOutcome::More);
        assert_eq!(hp(&g, 1), 100, "{ruleset}");
        assert_eq!(hp(&g, 0), if reflects { 78 } else { 100 }, "{ruleset}");
        assert_eq!(score(&g, 0), 0, "{ruleset}");
    }
}

#[test]
fn the_mortar_hits_a_tile_and_its_neighbours() {
    let rows = [
        "SGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGVOG", "GGGGGGG", "GGGGGGG", "SGGGGGS",
    ];
    for (ruleset, aoe) in [("rev1", [2, 2, 3]), ("tg2013", [18, 22, 25])] {
        let mut g = play_on(&rows, ruleset, &[MD, LM, DL]);
        put(&mut g, 0, 2, 2);
        put(&mut g, 1, 2, 4);
        put(&mut g, 2, 2, 3);
        // Aim at bravo (0,2): direct 28 (bonus 2); charlie at 2,3 is next to it: AoE.
        assert_eq!(say(&mut g, Order::Mortar(0, 2)), LineOutcome::More);
        assert_eq!(hp(&g, 1), 72, "{ruleset}");
        assert_eq!(hp(&g, 2), 100 - aoe[2], "{ruleset}");
        assert_eq!(score(&g, 0), 28 + i64::from(aoe[2]), "{ruleset}");
        assert_eq!(hp(&g, 0), 100);
    }
    let mut g = play_on(&rows, "rev1", &[MD, LM, DL]);
    put(&mut g, 0, 2, 2);
    put(&mut g, 1, 3, 3);
    // Out of range (3 > 2), off the map, malformed: silent and the turn goes on.
    assert_eq!(say(&mut g, Order::Mortar(3, 0)), LineOutcome::More);
    assert_eq!(
        g.hear(
            0,
            r#"{"message":"action","type":"mortar","coordinates":"2;1"}"#
        ),
        LineOutcome::More
    );
    assert!(!g.cur.shot);
    let mut g = play_on(&rows, "rev1", &[MD, LM, DL]);
    put(&mut g, 0, 1, 0);
    assert_eq!(say(&mut g, Order::Mortar(0, -1)), LineOutcome::More);
    assert!(!g.cur.shot);
    assert_eq!(
        g.hear(0, r#"{"message":"action","type":"mortar"}"#),
        error("Invalid shot: lacks 'coordinates' key")
    );
    // Spaces are fine; a shell on void or rock does nothing but ends the turn.
    let mut g = play_on(&rows, "rev1", &[MD, LM, DL]);
    put(&mut g, 0, 3, 2);
    put(&mut g, 1, 4, 4);
    assert_eq!(
        g.hear(
            0,
            r#"{"message":"action","type":"mortar","coordinates":" 0 , 2 "}"#
        ),
        LineOutcome::More
    );
    assert!(g.cur.shot);
    assert_eq!(hp(&g, 1), 100);
    // (0,0) hits yourself: no points.
    let mut g = play_on(&rows, "tg2013", &[MD, LM, DL]);
    put(&mut g, 0, 2, 2);
    put(&mut g, 1, 2, 3);
    assert_eq!(say(&mut g, Order::Mortar(0, 0)), LineOutcome::More);
    assert_eq!(hp(&g, 0), 72);
    assert_eq!(hp(&g, 1), 75);
    assert_eq!(score(&g, 0), 25);
}

#[test]
fn a_shell_on_a_spawn_tile_explodes_only_in_rev1() {
    let rows = ["SGGGGS", "GGGGGG", "GGGGGG", "GGGGGG", "GGGGGG", "GGGGGS"];
    for (ruleset, charlie, alpha, bravo) in [("rev1", 100, 72, 97), ("tg2013", 100, 100, 100)] {
        let mut g = play_on(&rows, ruleset, &[MD, LM, DL]);
        put(&mut g, 0, 4, 3);
        put(&mut g, 1, 5, 4);
        // On charlie's spawn 5,5 (2 away): REV 1 explodes, and the direct hit on charlie
        // comes back to alpha; bravo beside it takes the area damage.
        assert_eq!(say(&mut g, Order::Mortar(1, 2)), LineOutcome::More);
        assert!(g.cur.shot);
        assert_eq!(
            (hp(&g, 2), hp(&g, 0), hp(&g, 1)),
            (charlie, alpha, bravo),
            "{ruleset}"
        );
    }
}

#[test]
fn the_droid_walks_its_steps_and_explodes() {
    let rows = [
        "SGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGOG", "GGGGGGG", "GGGVGGG", "SGGGGGS",
    ];
    let mut g = play_on(&rows, "rev1", &[DL, LM, MD]);
    put(&mut g, 0, 1, 1);
    put(&mut g, 1, 3, 3);
    put(&mut g, 2, 3, 2);
    // Through charlie's tile (players do not block) to 3,3: bravo direct, charlie AoE.
    let seq = vec![Dir::LeftDown, Dir::LeftDown, Dir::RightDown, Dir::RightDown];
    assert_eq!(
        say(&mut g, Order::Droid(seq)),
        error("Got 4 commands for the droid, but your droids level (1) only supports 3 steps.")
    );
    assert!(g.cur.shot);
    // Three steps only: 2,1 → 3,1 → 3,2 is charlie's: explodes at 3,2: charlie direct 31.
    assert_eq!(hp(&g, 2), 100 - 31);
    assert_eq!(hp(&g, 1), 100 - 14);
    assert_eq!(
        g.effects.last().unwrap().1,
        Effect::Droid {
            path: vec![
                Pos::new(1, 1),
                Pos::new(2, 1),
                Pos::new(3, 1),
                Pos::new(3, 2)
            ]
        }
    );
    let notice: Vec<String> = {
        g.hear(0, protocol::ENDTURN);
        g.step();
        g.take_notices().into_iter().map(|(_, t)| t).collect()
    };
    assert!(notice.contains(&"{\"message\":\"action\",\"type\":\"droid\",\"sequence\":[\"left-down\",\"left-down\",\"right-down\"],\"from\":\"alpha\"}\n".to_string()), "{notice:?}");
    // Stops before rock and void; camelCase names are accepted.
    let mut g = play_on(&rows, "rev1", &[DL, LM, MD]);
    put(&mut g, 0, 3, 3);
    assert_eq!(
        g.hear(
            0,
            r#"{"message":"action","type":"droid","sequence":["rightDown","rightDown"]}"#
        ),
        LineOutcome::More
    );
    assert_eq!(
        g.effects.last().unwrap().1,
        Effect::Droid {
            path: vec![Pos::new(3, 3), Pos::new(3, 4)]
        }
    );
    let mut g = play_on(&rows, "rev1", &[DL, LM, MD]);
    put(&mut g, 0, 5, 4);
    assert_eq!(
        say(&mut g, Order::Droid(vec![Dir::LeftUp])),
        LineOutcome::More
    );
    // Blocked at once: it explodes on the shooter (direct damage, no points).
    assert_eq!(hp(&g, 0), 100 - 31);
    assert_eq!(score(&g, 0), 0);
    // An empty sequence explodes on the shooter too; a bad direction is invalid.
    let mut g = play_on(&rows, "rev1", &[DL, LM, MD]);
    put(&mut g, 0, 2, 2);
    assert_eq!(
        g.hear(
            0,
            r#"{"message":"action","type":"droid","sequence":["up","sideways"]}"#
        ),
        error("Invalid shot: unknown direction in droid sequence")
    );
    assert!(!g.cur.shot);
    assert_eq!(
        g.hear(0, r#"{"message":"action","type":"droid"}"#),
        error("Invalid shot: lacks a direction key")
    );
    assert_eq!(
        g.hear(0, r#"{"message":"action","type":"droid","sequence":[]}"#),
        LineOutcome::Done
    );
    assert_eq!(hp(&g, 0), 78);
}

// ---------------------------------------------------------------------------------------------
// Resources and upgrades (rulebook: *Actions*)
// ---------------------------------------------------------------------------------------------

#[test]
fn mining_takes_two_then_the_tile_is_grass() {
    let rows = ["SRGGG", "EGGGG", "GGGGG", "GGGGG", "GGGGS"];
    let mut g = play_on(&rows, "rev1", &[LM, MD]);
    assert_eq!(
        say(&mut g, Order::Mine),
        error("Tried to mine while not on a resource tile!")
    );
    assert_eq!(say(&mut g, Order::Move(Dir::RightDown)), LineOutcome::More);
    assert_eq!(say(&mut g, Order::Mine), LineOutcome::Done);
    g.step();
    assert_eq!(g.world.players[0].resources, [1, 0, 0]);
    assert_eq!(g.world.tile(Pos::new(0, 1)), Some(Tile::Rubidium));
    endturn(&mut g);
    assert_eq!(say(&mut g, Order::Mine), LineOutcome::More);
    assert_eq!(g.world.tile(Pos::new(0, 1)), Some(Tile::Grass));
    assert_eq!(
        say(&mut g, Order::Mine),
        error("Tried to mine while not on a resource tile!")
    );
    assert_eq!(g.world.players[0].resources, [2, 0, 0]);
    // The game state shows the tile as grass now.
    endturn(&mut g);
    let state: Value = serde_json::from_str(&g.input(1)).unwrap();
    assert_eq!(state["map"]["data"][0][1], "G");
    assert_eq!(state["map"]["data"][1][0], "E");
}

/// A turn of three upgrades (silent when the seat cannot afford them), then its step.
fn upgrade(g: &mut Skyport, weapons: [Weapon; 3]) {
    let outcomes = weapons.map(|w| say(g, Order::Upgrade(w)));
    let turn = [LineOutcome::More, LineOutcome::More, LineOutcome::Done];
    assert_eq!(outcomes, turn, "{weapons:?}");
    g.step();
}

#[test]
fn upgrades_cost_four_then_five_of_the_weapons_resource() {
    let mut g = play_on(&OPEN, "rev1", &[LM, MD]);
    put(&mut g, 0, 2, 2);
    g.world.players[0].resources = [8, 3, 9];
    upgrade(&mut g, [Weapon::Laser, Weapon::Laser, Weapon::Mortar]);
    let p = &g.world.players[0];
    // 8 rubidium: level 2 (−4), then 4 < 5; 3 explosium < 4; all silent.
    assert_eq!(p.weapons, [(Weapon::Laser, 2), (Weapon::Mortar, 1)]);
    assert_eq!(p.resources, [4, 3, 9]);
    endturn(&mut g);
    g.world.players[0].resources = [9, 0, 9];
    upgrade(&mut g, [Weapon::Laser, Weapon::Laser, Weapon::Droid]);
    let p = &g.world.players[0];
    assert_eq!(p.weapons, [(Weapon::Laser, 3), (Weapon::Mortar, 1)]);
    assert_eq!(p.resources, [4, 0, 9]);
    // Level 3: the laser reaches 7 tiles for 22 (31 with bonus 2).
    endturn(&mut g);
    put(&mut g, 1, 2, 6);
    assert_eq!(say(&mut g, Order::Laser(Dir::RightDown)), LineOutcome::More);
    assert_eq!(hp(&g, 1), 100 - 31);
}

// ---------------------------------------------------------------------------------------------
// Scoring, death, respawn, the end (rulebook: *A match*)
// ---------------------------------------------------------------------------------------------

#[test]
fn a_kill_scores_twenty_and_the_victim_misses_a_turn_then_respawns() {
    for (ruleset, penalty) in [("rev1", 80), ("tg2013", 40)] {
        let mut g = play_on(&OPEN, ruleset, &[LM, MD]);
        put(&mut g, 0, 2, 3);
        put(&mut g, 1, 2, 4);
        g.world.players[1].health = 10;
        assert_eq!(say(&mut g, Order::Laser(Dir::RightDown)), LineOutcome::More);
        // Overkill counts: 22 damage points, +20 for the kill.
        assert_eq!(score(&g, 0), 22 + 20, "{ruleset}");
        assert_eq!(score(&g, 1), -penalty, "{ruleset}");
        assert_eq!(hp(&g, 1), 0);
        // The body blocks its tile; more damage to it is ignored.
        let mut probe = g.clone();
        endturn(&mut probe);
        assert_eq!(probe.active, 0, "bravo misses its turn");
        endturn(&mut g);
        assert_eq!(g.turn, 2);
        assert_eq!(g.active, 0);
        assert_eq!(
            say(&mut g, Order::Move(Dir::RightDown)),
            error("Invalid move packet: Player bravo is already on this tile.")
        );
        assert_eq!(say(&mut g, Order::Laser(Dir::RightDown)), LineOutcome::More);
        assert_eq!(score(&g, 0), 22 + 20, "{ruleset}");
        endturn(&mut g);
        // Bravo's turn now: back on its spawn with full health.
        assert_eq!(g.active, 1);
        assert_eq!(g.world.players[1].pos, Pos::new(6, 6));
        assert_eq!(hp(&g, 1), 100);
        assert_eq!(g.world.occupant(Pos::new(2, 4)), None);
        assert_eq!(g.turn, 3);
    }
}

#[test]
fn the_match_lasts_its_rounds_and_ends_with_endactions() {
    let mut setup = Setup::new(&INFO, 5);
    setup.seats = 3;
    setup.options.insert("rounds".into(), "2".into());
    let mut g = Skyport::create(&setup).unwrap();
    for seat in 0..3 {
        g.hear(
            seat,
            &action_lines(&Action::Connect(NAMES[seat].into())).remove(0),
        );
    }
    g.step();
    for seat in 0..3 {
        g.hear(
            seat,
            &action_lines(&Action::Loadout(Weapon::Laser, Weapon::Droid)).remove(0),
        );
    }
    g.step();
    let mut order = Vec::new();
    while g.outcome().is_none() {
        order.push(g.to_move()[0]);
        let seat = g.active;
        // The winner: whoever moves first in the ring leaves its spawn; the others stay.
        if seat == g.ring[0] {
            let dir = Dir::ALL
                .into_iter()
                .find(|&d| {
                    g.world
                        .tile(g.world.players[seat].pos.step(d))
                        .is_some_and(Tile::walkable)
                })
                .unwrap();
            g.hear(seat, &order_line(&Order::Move(dir)));
        }
        g.hear(seat, protocol::ENDTURN);
        g.step();
    }
    assert_eq!(order.len(), 6);
    assert_eq!(order[..3], g.ring[..]);
    assert_eq!(order[3..], g.ring[..]);
    assert_eq!(g.turn, 6);
    let o = g.outcome().unwrap();
    let w = g.ring[0];
    assert_eq!(o.winner(), Some(w));
    assert_eq!(o.scores[w], 0);
    assert!((0..3).all(|s| s == w || o.scores[s] == -40));
    let notices = g.take_notices();
    let end = format!(
        "{{\"message\":\"endactions\",\"winner\":\"{}\"}}\n",
        NAMES[w]
    );
    for seat in 0..3 {
        assert_eq!(
            notices
                .iter()
                .filter(|(s, t)| *s == seat && *t == end)
                .count(),
            1
        );
    }
    assert!(o.reason.starts_with("2 rounds played"), "{}", o.reason);
    assert!(g.to_move().is_empty());
    // A tie: winner null.
    let mut setup = Setup::new(&INFO, 5);
    setup.options.insert("rounds".into(), "1".into());
    let mut g = Skyport::create(&setup).unwrap();
    for _ in 0..4 {
        for seat in g.to_move() {
            g.fault(seat, FaultKind::Crash);
        }
        g.step();
    }
    assert_eq!(g.outcome().unwrap().winner(), None);
    assert!(g
        .take_notices()
        .iter()
        .any(|(_, t)| t == "{\"message\":\"endactions\",\"winner\":null}\n"));
}

#[test]
fn options_are_checked() {
    for (key, value, needle) in [
        ("rounds", "0", "rounds from 1 to 1000"),
        ("rounds", "x", "rounds from 1 to 1000"),
        ("speed", "2", "unknown option 'speed'"),
    ] {
        let mut setup = Setup::new(&INFO, 5);
        setup.options.insert(key.into(), value.into());
        let e = Skyport::create(&setup).unwrap_err().to_string();
        assert!(e.contains(needle), "{e}");
    }
}

#[test]
fn frames_describe_the_turn() {
    let mut g = play_on(&OPEN, "rev1", &[LM, MD]);
    put(&mut g, 0, 3, 3);
    put(&mut g, 1, 3, 5);
    say(&mut g, Order::Laser(Dir::RightDown));
    say(&mut g, Order::Move(Dir::Down));
    say(&mut g, Order::Move(Dir::Down));
    g.step();
    let f = g.frame();
    assert_eq!(f.turn, 1);
    assert_eq!(
        f.events().as_ref(),
        [
            "alpha fires the laser right-down (level 1, 22 damage): bravo −22 (78 hp)",
            "alpha: action 2 ignored (the shot ended the turn)",
            "alpha: action 3 ignored (the shot ended the turn)",
        ]
    );
    assert_eq!(
        f.status()[1],
        "bravo: 78 hp · score 0 · mortar 1, droid 1 · R0 E0 C0"
    );
    let v: View = serde_json::from_str(&f.view_json()).unwrap();
    assert_eq!(v.played, Some(0));
    assert_eq!(v.to_move, Some(1));
    assert_eq!(v.tiles.len(), 49);
    assert_eq!(v.players[1].health, 78);
    assert_eq!(v.hits[0].damage, 22);
    assert_eq!(
        v.actions,
        [view::ActionView::Laser {
            seat: 0,
            from: [3, 3],
            to: [3, 6]
        }]
    );
    assert!(
        f.text().lines().nth(6).unwrap().contains('1'),
        "{}",
        f.text()
    );
}
