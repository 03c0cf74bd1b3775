//! Skyport in Rust: the JavaScript starter's strategy (`www/starter/skyport.js`) for the
//! original JSON protocol, on standard input and output. Built for WebAssembly with
//! `cargo build --release --target wasm32-wasip1` (bots/wasi/README.md).
//!
//! It answers the handshake and the loadout (laser and mortar), then on its turns shoots a foe
//! in a straight line (laser, range 5) or within 2 (mortar), else walks towards the nearest
//! foe, mining a resource tile with its third action. Deterministic: the same input gives the
//! same output natively and as WebAssembly.

use std::io::{self, BufRead, Write};

use serde_json::Value;

/// The six directions in the starter's order, with their `(dj, dk)`.
const DIRS: [(&str, (i32, i32)); 6] = [
    ("up", (-1, -1)),
    ("down", (1, 1)),
    ("left-down", (1, 0)),
    ("right-down", (0, 1)),
    ("left-up", (0, -1)),
    ("right-up", (-1, 0)),
];

type Pos = (i32, i32);

fn pos(text: &str) -> Pos {
    let mut parts = text.split(',').map(|n| n.trim().parse::<i32>().unwrap_or(0));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

fn dist(a: Pos, b: Pos) -> i32 {
    (a.0 - b.0)
        .abs()
        .max((a.1 - b.1).abs())
        .max((a.0 - b.0 - (a.1 - b.1)).abs())
}

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    let mut turns = 0;
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let Ok(msg) = serde_json::from_str::<Value>(&line) else {
            eprintln!("not JSON: {line}");
            continue;
        };
        let message = msg["message"].as_str().unwrap_or("");
        let answer: Vec<String> = if message == "info" {
            vec![r#"{"message":"connect","revision":1,"name":"wasi-rust"}"#.into()]
        } else if message == "gamestate" && msg["turn"].as_i64() == Some(0) {
            vec![
                r#"{"message":"loadout","primary-weapon":"laser","secondary-weapon":"mortar"}"#
                    .into(),
            ]
        } else if message == "gamestate" && !msg["players"][0]["resources"].is_null() {
            turns += 1;
            play_turn(&msg, turns)
        } else {
            Vec::new()
        };
        for a in answer {
            let _ = writeln!(out, "{a}");
        }
        let _ = out.flush();
    }
}

fn play_turn(state: &Value, turn: u32) -> Vec<String> {
    let empty = Vec::new();
    let data: Vec<Vec<String>> = state["map"]["data"]
        .as_array()
        .unwrap_or(&empty)
        .iter()
        .map(|row| {
            row.as_array()
                .unwrap_or(&empty)
                .iter()
                .map(|t| t.as_str().unwrap_or("V").to_string())
                .collect()
        })
        .collect();
    let size = data.len() as i32;
    let players = state["players"].as_array().unwrap_or(&empty);
    let taken: Vec<Pos> = players
        .iter()
        .map(|p| pos(p["position"].as_str().unwrap_or("")))
        .collect();
    let foes: Vec<Pos> = players
        .iter()
        .skip(1)
        .filter(|p| p["health"].as_i64().unwrap_or(0) > 0)
        .map(|p| pos(p["position"].as_str().unwrap_or("")))
        .collect();
    let tile = |(j, k): Pos| -> &str {
        if j >= 0 && k >= 0 && j < size && k < size {
            data[j as usize]
                .get(k as usize)
                .map_or("V", String::as_str)
        } else {
            "V"
        }
    };
    let walkable = |p: Pos| "GERC".contains(tile(p)) && !tile(p).is_empty() && !taken.contains(&p);
    let mut here = pos(players
        .first()
        .and_then(|p| p["position"].as_str())
        .unwrap_or(""));
    // The nearest foe (the first of the nearest, as a stable sort gives).
    let mut target: Option<Pos> = None;
    for &f in &foes {
        if target.is_none_or(|t| dist(here, f) < dist(here, t)) {
            target = Some(f);
        }
    }
    let laser_at = |from: Pos| -> Option<&str> {
        for (name, (dj, dk)) in DIRS {
            let mut p = from;
            for _ in 0..5 {
                p = (p.0 + dj, p.1 + dk);
                if tile(p) == "O" || p.0 < 0 || p.1 < 0 || p.0 >= size || p.1 >= size {
                    break;
                }
                if foes.contains(&p) && tile(p) != "S" {
                    return Some(name);
                }
            }
        }
        None
    };
    let mut actions = Vec::new();
    while actions.len() < 3 {
        let on_spawn = tile(here) == "S";
        if let Some(dir) = if on_spawn { None } else { laser_at(here) } {
            actions.push(format!(
                r#"{{"message":"action","type":"laser","direction":"{dir}"}}"#
            ));
            break;
        }
        if let Some(t) = target {
            if !on_spawn && dist(here, t) <= 2 && tile(t) != "S" {
                actions.push(format!(
                    r#"{{"message":"action","type":"mortar","coordinates":"{},{}"}}"#,
                    t.0 - here.0,
                    t.1 - here.1
                ));
                break;
            }
        }
        let mut steps: Vec<(&str, Pos)> = DIRS
            .iter()
            .map(|(name, (dj, dk))| (*name, (here.0 + dj, here.1 + dk)))
            .filter(|(_, p)| walkable(*p))
            .collect();
        if let Some(t) = target {
            // Stable: equal distances keep the directions' order.
            steps.sort_by_key(|(_, p)| dist(*p, t));
        }
        if !on_spawn && ["E", "R", "C"].contains(&tile(here)) && actions.len() == 2 {
            actions.push(r#"{"message":"action","type":"mine"}"#.to_string());
        } else if let Some(&(name, p)) = steps
            .first()
            .filter(|(_, p)| target.is_none_or(|t| dist(*p, t) >= 2))
        {
            actions.push(format!(
                r#"{{"message":"action","type":"move","direction":"{name}"}}"#
            ));
            here = p;
        } else {
            break;
        }
    }
    eprintln!(
        "turn {turn}: at {},{} with {} foes, {} actions",
        here.0,
        here.1,
        foes.len(),
        actions.len()
    );
    if actions.len() < 3 {
        actions.push(r#"{"message":"endturn"}"#.to_string());
    }
    actions
}
