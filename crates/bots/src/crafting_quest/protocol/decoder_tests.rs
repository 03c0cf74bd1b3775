//! The decoder against serde_json, the one oracle: every line the referee wrote in random
//! matches (crafters and random bots, generated maps of several sizes and the official ones,
//! two to four seats), and the same lines bent (white space, other orders, unknown names, wrong
//! types, repeated keys, cut short), read by the decoder and by serde_json into the same
//! structs, give the same message; one decoder reads them all, so its reused buffers are
//! checked too.
//!
//! (The decoder refuses a number with a fraction or an exponent, or with leading zeros, where
//! serde_json reads a float or refuses it: the referee writes none, and no line here holds one.)

use engine::{FaultKind, LineOutcome, Setup};

use super::*;
use crate::Bot;

/// The oracle: the line read by serde_json into a tree, then the fields looked up in it, with
/// the decoder's leniency (a missing or mistyped value reads as zero or empty, an unknown name
/// is left out, a repeated key keeps its last value).
mod serde {
    use serde_json::Value;

    use super::super::*;

    /// An integer field, 0 when missing or not an integer; clamped to `i32`.
    fn i32_at(v: &Value, key: &str) -> i32 {
        let n = v.get(key).and_then(Value::as_i64).unwrap_or(0);
        n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
    }

    /// An integer field as an index or count.
    fn index(v: &Value, key: &str) -> usize {
        let n = v.get(key).and_then(Value::as_i64).unwrap_or(0);
        n.clamp(0, 1 << 20) as usize
    }

    /// The items of an array field (none for anything else).
    fn list<'v>(v: &'v Value, key: &str) -> &'v [Value] {
        v.get(key)
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    fn resources(v: Option<&Value>) -> [u32; 7] {
        let mut out = [0; 7];
        for (name, q) in v.and_then(Value::as_object).into_iter().flatten() {
            if let Some(r) = RESOURCES.iter().position(|n| n == name) {
                out[r] = q.as_i64().unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32;
            }
        }
        out
    }

    /// An object's kind, level and count, if its kind is known.
    fn object(o: &Value) -> Option<(usize, i32, u32)> {
        let kind = o.get("kind")?.as_str()?;
        let k = KINDS.iter().position(|n| *n == kind)?;
        Some((k, i32_at(o, "level"), i32_at(o, "count").max(0) as u32))
    }

    fn sight(v: &Value) -> Sight {
        let type_of = |t: &Value| RESOURCES.iter().position(|n| Some(*n) == t.as_str());
        Sight {
            x: i32_at(v, "x"),
            y: i32_at(v, "y"),
            rows: list(v, "rows")
                .iter()
                .map(|r| r.as_str().unwrap_or("").as_bytes().to_vec())
                .collect(),
            mixed: list(v, "mixed")
                .iter()
                .map(|m| {
                    let types = list(m, "types").iter().filter_map(type_of).collect();
                    (i32_at(m, "x"), i32_at(m, "y"), types)
                })
                .collect(),
            piles: list(v, "piles")
                .iter()
                .map(|p| PileInfo {
                    x: i32_at(p, "x"),
                    y: i32_at(p, "y"),
                    res: resources(p.get("resources")),
                    objects: list(p, "objects").iter().filter_map(object).collect(),
                })
                .collect(),
            towers: list(v, "towers")
                .iter()
                .map(|t| (i32_at(t, "x"), i32_at(t, "y"), index(t, "player")))
                .collect(),
            traps: list(v, "traps")
                .iter()
                .map(|t| (i32_at(t, "x"), i32_at(t, "y")))
                .collect(),
            units: list(v, "units")
                .iter()
                .map(|u| Seen {
                    player: index(u, "player"),
                    id: index(u, "id"),
                    x: i32_at(u, "x"),
                    y: i32_at(u, "y"),
                    energy: i32_at(u, "energy"),
                    life: i32_at(u, "life"),
                    sword: i32_at(u, "sword"),
                    armour: i32_at(u, "armour"),
                })
                .collect(),
        }
    }

    fn unit(v: &Value) -> UnitInfo {
        let mut items = [[0u32; 3]; 2];
        for (k, level, count) in list(v, "objects").iter().filter_map(object) {
            if (1..=3).contains(&level) {
                items[k][level as usize - 1] += count;
            }
        }
        let dig = v.get("dig").filter(|d| d.is_object()).map(|d| {
            (
                i32_at(d, "x"),
                i32_at(d, "y"),
                resources(d.get("resources")),
            )
        });
        let retaliate = v
            .get("retaliate")
            .map_or((0, 0), |r| (i32_at(r, "energy"), i32_at(r, "threshold")));
        UnitInfo {
            id: index(v, "id"),
            x: i32_at(v, "x"),
            y: i32_at(v, "y"),
            energy: i32_at(v, "energy"),
            life: i32_at(v, "life"),
            frozen: i32_at(v, "frozen"),
            sword: i32_at(v, "sword"),
            armour: i32_at(v, "armour"),
            retaliate,
            res: resources(v.get("resources")),
            items,
            weight: i32_at(v, "weight"),
            move_cost: i32_at(v, "move_cost"),
            dig,
            sight: v.get("sight").map(sight).unwrap_or_default(),
        }
    }

    /// The blueprint levels known (1 when missing).
    fn blueprints(v: &Value) -> [i32; 4] {
        let b = v.get("blueprints");
        ["sword", "armour", "tower", "trap"].map(|k| {
            let level = b.and_then(|b| b.get(k)).and_then(Value::as_i64);
            level.map_or(1, |n| n as i32)
        })
    }

    fn state(v: &Value) -> State {
        let home = list(v, "home");
        let at = |i: usize| home.get(i).and_then(Value::as_i64).unwrap_or(0) as i32;
        let num = |key: &str| v.get(key).and_then(Value::as_i64).unwrap_or(0);
        State {
            round: num("round").clamp(0, 1 << 20) as u32,
            rounds: num("rounds").clamp(0, 1 << 20) as u32,
            player: index(v, "player"),
            players: index(v, "players"),
            size: index(v, "size").min(1000),
            home: (at(0), at(1)),
            gold: num("gold"),
            blueprints: blueprints(v),
            units: list(v, "units").iter().map(unit).collect(),
            tower_sights: list(v, "towers")
                .iter()
                .filter_map(|t| t.get("sight").map(sight))
                .collect(),
        }
    }

    /// Reads one line from the referee.
    pub fn read(line: &str) -> Message {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            return Message::Unknown;
        };
        let text = |key: &str| v.get(key).and_then(Value::as_str).unwrap_or("").to_string();
        match v.get("type").and_then(Value::as_str) {
            Some(kind @ ("turn" | "state")) => Message::State {
                turn: kind == "turn",
                state: Box::new(state(&v)),
            },
            Some("result") => Message::Answer(Box::new(Answer {
                result: text("result"),
                reason: text("reason"),
                gold: v.get("gold").and_then(Value::as_i64).unwrap_or(0),
                blueprints: blueprints(&v),
                unit: v.get("unit").filter(|u| u.is_object()).map(unit),
            })),
            _ => Message::Unknown,
        }
    }
}

/// Every line the game wrote in a match of these bots (inputs and answers).
fn lines_of(seed: i64, bots: &[&str], options: &[(&str, &str)], turns: usize) -> Vec<String> {
    let entry = games::entry("crafting-quest").expect("registered");
    let mut setup = Setup::new(entry.info, seed);
    setup.seats = bots.len();
    for (k, v) in options {
        setup.options.insert(k.to_string(), v.to_string());
    }
    let mut game = games::new_game(&setup).expect("a valid setup");
    let mut players: Vec<Box<dyn Bot>> = bots
        .iter()
        .enumerate()
        .map(|(s, b)| crate::builtin("crafting-quest", b, crate::bot_seed(seed, s)).expect("a bot"))
        .collect();
    let mut out = Vec::new();
    for _ in 0..turns {
        if game.outcome().is_some() {
            break;
        }
        for seat in game.to_move() {
            let input = game.input(seat);
            let mut unread: std::collections::VecDeque<String> = players[seat].read(&input).into();
            out.push(input);
            loop {
                let Some(line) = unread.pop_front() else {
                    game.fault(seat, FaultKind::Timeout);
                    break;
                };
                match game.hear(seat, &line) {
                    LineOutcome::Reply(text) => {
                        unread.extend(players[seat].read(&text));
                        out.push(text);
                    }
                    LineOutcome::More => {}
                    _ => break,
                }
            }
        }
        game.step();
    }
    out
}

/// Every line of a few random matches: crafters and random bots, two to four seats, generated
/// maps of two sizes and the three official ones.
fn lines_of_random_matches() -> Vec<String> {
    let mut lines = lines_of(3, &["crafter", "random"], &[], 30);
    let four = ["random", "crafter", "random", "crafter"];
    lines.extend(lines_of(4, &four[1..], &[("map", "v1")], 12));
    lines.extend(lines_of(5, &four, &[("map", "v2")], 8));
    lines.extend(lines_of(6, &four[1..3], &[("map", "v3")], 10));
    lines.extend(lines_of(7, &four, &[("size", "90")], 8));
    lines
}

/// The same line bent in ways the referee never writes but a reader must take.
fn bent(line: &str, i: usize) -> String {
    let line = line.trim_end();
    match i % 9 {
        0 => line.replace(",\"", ", \"").replace(":", " : "),
        1 => line.replace("{\"player\":", "{\"player\":\"x\",\"player\":"),
        2 => line.replace("\"life\":", "\"life\":null,\"lives\":"),
        3 => line[..line.len() * (i % 7 + 1) / 8].to_string(),
        4 => line.replace("\"sword\"", "\"swordfish\""),
        5 => line.replace("\"resources\":{", "\"resources\":{\"mithril\":3,"),
        6 => line
            .replace("{\"x\":", "{\"y\":-1,\"x\":")
            .replace("\"rows\":[", "\"rows\":[7,"),
        7 => line.replace(
            "\"objects\":[]",
            "\"objects\":[{\"kind\":\"armour\",\"level\":2,\"count\":3}]",
        ),
        _ => line
            .replace("\"energy\":", "\"energy\":[1],\"energy\":")
            .replace("\"unit\":{", "\"unit\":null,\"unit\":{"),
    }
}

#[test]
fn the_decoder_reads_what_serde_json_reads() {
    let mut lines = lines_of_random_matches();
    let bent_lines: Vec<String> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 5 == 0)
        .map(|(i, l)| bent(l, i / 5))
        .collect();
    assert!(lines.len() > 2000, "{} lines", lines.len());
    // The answer to a state request is the player state under another type.
    let states: Vec<String> = lines
        .iter()
        .filter(|l| l.starts_with("{\"type\":\"turn\""))
        .step_by(7)
        .map(|l| l.replacen("\"turn\"", "\"state\",\"result\":\"NoError\"", 1))
        .collect();
    lines.extend(states);
    let mut decoder = Decoder::default();
    let mut kinds = [0; 4];
    for line in lines.iter().chain(&bent_lines).chain(&lines[..50]) {
        let now = match decoder.read(line) {
            Kind::Turn => Message::State {
                turn: true,
                state: Box::new(decoder.state.clone()),
            },
            Kind::State => Message::State {
                turn: false,
                state: Box::new(decoder.state.clone()),
            },
            Kind::Answer => Message::Answer(Box::new(decoder.answer.clone())),
            Kind::Unknown => Message::Unknown,
        };
        kinds[match now {
            Message::State { turn: true, .. } => 0,
            Message::State { .. } => 1,
            Message::Answer(_) => 2,
            Message::Unknown => 3,
        }] += 1;
        assert_eq!(now, serde::read(line), "{line}");
        assert_eq!(read(line), now, "{line}");
    }
    // Each kind of message was met, unreadable ones too.
    assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
}
