//! Crafting Quest 3 in Rust, reading the whole protocol of the game's conversations
//! (`crates/games/src/crafting_quest/mod.rs`, *Protocol*): the player state at the start of a
//! turn and every answer are read into types that name every field the referee writes, and a
//! field the bot does not know is an error (`deny_unknown_fields`), so a change to the protocol
//! shows up here at once. Built for WebAssembly with
//! `cargo build --release --target wasm32-wasip1` (bots/wasi/README.md).
//!
//! It asks for the player state once a turn, sets every unit's retaliation on its first turn,
//! researches once when gold allows, and then each unit: looks around when it is frozen;
//! attacks an enemy next to it when it has energy to spare; digs what is buried under it,
//! picks it up (pickups score), crafts and equips a sword when it carries what one needs, and
//! drops the rest; then walks towards the nearest buried resource in sight (or wanders) while
//! its energy lasts. Deterministic: the same input gives the same output natively and as
//! WebAssembly.

// Every field of the protocol is read, whether or not this strategy looks at it.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

use serde::Deserialize;

/// Resources by type, as the protocol writes them (only those above 0).
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Resources {
    wood: Option<u32>,
    stone: Option<u32>,
    leather: Option<u32>,
    bronze: Option<u32>,
    iron: Option<u32>,
    titanium: Option<u32>,
    gold: Option<u32>,
}

impl Resources {
    fn each(&self) -> [(&'static str, u32); 7] {
        [
            ("wood", self.wood.unwrap_or(0)),
            ("stone", self.stone.unwrap_or(0)),
            ("leather", self.leather.unwrap_or(0)),
            ("bronze", self.bronze.unwrap_or(0)),
            ("iron", self.iron.unwrap_or(0)),
            ("titanium", self.titanium.unwrap_or(0)),
            ("gold", self.gold.unwrap_or(0)),
        ]
    }

    fn is_empty(&self) -> bool {
        self.each().iter().all(|(_, n)| *n == 0)
    }

    /// `{"iron":10,...}` without the zeros.
    fn json(&self) -> String {
        let parts: Vec<String> = self
            .each()
            .iter()
            .filter(|(_, n)| *n > 0)
            .map(|(name, n)| format!("\"{name}\":{n}"))
            .collect();
        format!("{{{}}}", parts.join(","))
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Blueprints {
    sword: u8,
    armour: u8,
    tower: u8,
    trap: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Object {
    kind: String,
    level: u8,
    count: u32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Retaliate {
    energy: i32,
    threshold: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Dig {
    x: i32,
    y: i32,
    resources: Resources,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Mixed {
    x: i32,
    y: i32,
    types: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pile {
    x: i32,
    y: i32,
    resources: Resources,
    objects: Vec<Object>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeenTower {
    x: i32,
    y: i32,
    player: usize,
    level: u8,
    strength: i32,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Trap {
    x: i32,
    y: i32,
    level: u8,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeenUnit {
    player: usize,
    id: u32,
    x: i32,
    y: i32,
    energy: i32,
    life: i32,
    sword: u8,
    armour: u8,
}

/// The square a unit or a tower sees.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Sight {
    x: i32,
    y: i32,
    rows: Vec<String>,
    mixed: Vec<Mixed>,
    piles: Vec<Pile>,
    towers: Vec<SeenTower>,
    traps: Vec<Trap>,
    units: Vec<SeenUnit>,
}

impl Sight {
    /// The cell's character, if the sight covers it.
    fn cell(&self, x: i32, y: i32) -> Option<u8> {
        let row = self.rows.get(usize::try_from(y - self.y).ok()?)?;
        row.as_bytes().get(usize::try_from(x - self.x).ok()?).copied()
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Unit {
    id: u32,
    x: i32,
    y: i32,
    energy: i32,
    life: i32,
    frozen: u32,
    sword: u8,
    armour: u8,
    retaliate: Retaliate,
    resources: Resources,
    objects: Vec<Object>,
    weight: i32,
    move_cost: i32,
    dig: Option<Dig>,
    sight: Sight,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct OwnTower {
    x: i32,
    y: i32,
    level: u8,
    strength: i32,
    sight: Sight,
}

/// The player state: the input of a turn (`"type":"turn"`) or the answer to a state request
/// (`"type":"state"`, with `"result"`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct State {
    #[serde(rename = "type")]
    kind: String,
    result: Option<String>,
    round: u32,
    rounds: u32,
    player: usize,
    players: usize,
    size: i32,
    home: [i32; 2],
    gold: i64,
    actions_left: u32,
    blueprints: Blueprints,
    score: i64,
    kills: u32,
    deaths: u32,
    towers: Vec<OwnTower>,
    traps: Vec<Trap>,
    units: Vec<Unit>,
}

/// The answer to a request.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    #[serde(rename = "type")]
    kind: String,
    result: String,
    reason: String,
    actions_left: u32,
    gold: i64,
    blueprints: Blueprints,
    unit: Option<Unit>,
}

/// Every result code of the protocol: an unknown one is an error too.
const RESULTS: [&str; 18] = [
    "NoError",
    "UnitIdError",
    "UnknownActionError",
    "OperandError",
    "MoveError",
    "TerrainError",
    "ObstacleError",
    "NoEnergyError",
    "BuildError",
    "CraftingError",
    "NoCreditError",
    "EquipmentMissingError",
    "BlueprintError",
    "MissingBlueprintError",
    "NoUpgradeError",
    "PlayerIdError",
    "ProximityError",
    "FriendlyFireError",
];

const LETTERS: &[u8] = b"wslbitg*";
const WANDER: [(i32, i32); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

/// The conversation with the referee.
struct Talk<R, W> {
    input: R,
    output: W,
    actions_left: u32,
    /// Answers per result code this turn, for the debug log.
    results: BTreeMap<String, u32>,
}

impl<R: BufRead, W: Write> Talk<R, W> {
    fn line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.input.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(line.trim_end().to_string()),
        }
    }

    /// Sends a request and reads its answer (the protocol's every field); `None` once the
    /// turn's requests are used up.
    fn ask(&mut self, request: &str) -> Option<Answer> {
        if self.actions_left == 0 {
            return None;
        }
        let _ = writeln!(self.output, "{request}");
        let _ = self.output.flush();
        let line = self.line().unwrap_or_else(|| std::process::exit(0));
        let answer: Answer = match serde_json::from_str(&line) {
            Ok(a) => a,
            Err(e) => panic!("an answer this bot cannot read ({e}): {line}"),
        };
        assert!(
            answer.kind == "result" && RESULTS.contains(&answer.result.as_str()),
            "an unknown answer: {line}"
        );
        self.actions_left = answer.actions_left;
        *self.results.entry(answer.result.clone()).or_default() += 1;
        Some(answer)
    }

    /// A request about a unit; the unit as it is after it (or as it was, when the request
    /// failed or the turn's requests are used up).
    fn act(&mut self, unit: Unit, request: &str) -> (Unit, bool) {
        match self.ask(request) {
            Some(a) => {
                let ok = a.result == "NoError";
                (a.unit.unwrap_or(unit), ok)
            }
            None => (unit, false),
        }
    }

    /// `{"type":"state"}`: the whole player state again.
    fn state(&mut self) -> Option<State> {
        if self.actions_left == 0 {
            return None;
        }
        let _ = writeln!(self.output, r#"{{"type":"state"}}"#);
        let _ = self.output.flush();
        let line = self.line().unwrap_or_else(|| std::process::exit(0));
        let state: State = match serde_json::from_str(&line) {
            Ok(s) => s,
            Err(e) => panic!("a state this bot cannot read ({e}): {line}"),
        };
        assert!(state.kind == "state" && state.result.as_deref() == Some("NoError"));
        self.actions_left = state.actions_left;
        Some(state)
    }

    fn end(&mut self) {
        let _ = writeln!(self.output, r#"{{"type":"end"}}"#);
        let _ = self.output.flush();
    }
}

fn buried(c: Option<u8>) -> bool {
    c.is_some_and(|c| LETTERS.contains(&c))
}

/// Digs the unit's cell, picks up what is buried there, crafts and equips a sword if it now
/// carries one's resources, and drops the rest (carrying makes every step dearer).
fn gather<R: BufRead, W: Write>(talk: &mut Talk<R, W>, unit: Unit) -> Unit {
    if !buried(unit.sight.cell(unit.x, unit.y)) || unit.energy < 15 {
        return unit;
    }
    let id = unit.id;
    let (mut unit, _) = talk.act(unit, &format!(r#"{{"unit":{id},"type":"dig"}}"#));
    let found = unit.dig.as_ref().map(|d| d.resources.clone()).unwrap_or_default();
    if found.is_empty() {
        return unit;
    }
    (unit, _) = talk.act(
        unit,
        &format!(r#"{{"unit":{id},"type":"pickup","resources":{}}}"#, found.json()),
    );
    let r = &unit.resources;
    if unit.sword == 0 && r.iron >= Some(10) && r.stone >= Some(4) && r.wood >= Some(4) {
        let ok;
        (unit, ok) = talk.act(
            unit,
            &format!(r#"{{"unit":{id},"type":"craft","blueprint":{{"kind":"sword","level":1}}}}"#),
        );
        if ok {
            (unit, _) = talk.act(
                unit,
                &format!(r#"{{"unit":{id},"type":"equip","item":{{"kind":"sword","level":1}}}}"#),
            );
        }
    }
    if !unit.resources.is_empty() {
        let rest = unit.resources.json();
        (unit, _) = talk.act(unit, &format!(r#"{{"unit":{id},"type":"drop","resources":{rest}}}"#));
    }
    unit
}

/// The nearest buried cell in the unit's sight but its own (the first of the nearest, row by
/// row).
fn nearest_resource(unit: &Unit) -> Option<(i32, i32)> {
    let mut best: Option<(i32, i32, i32)> = None;
    for (dy, row) in unit.sight.rows.iter().enumerate() {
        for (dx, &c) in row.as_bytes().iter().enumerate() {
            let (x, y) = (unit.sight.x + dx as i32, unit.sight.y + dy as i32);
            let d = (x - unit.x).abs().max((y - unit.y).abs());
            if d > 0 && buried(Some(c)) && best.is_none_or(|b| d < b.2) {
                best = Some((x, y, d));
            }
        }
    }
    best.map(|(x, y, _)| (x, y))
}

/// An enemy unit on the unit's cell or next to it.
fn enemy_next_to(unit: &Unit, me: usize) -> Option<SeenUnit> {
    unit.sight
        .units
        .iter()
        .find(|u| u.player != me && (u.x - unit.x).abs() <= 1 && (u.y - unit.y).abs() <= 1)
        .cloned()
}

fn play_turn<R: BufRead, W: Write>(talk: &mut Talk<R, W>, state: State) {
    talk.actions_left = state.actions_left;
    talk.results.clear();
    // The state once more, as a request (it must read the same as the turn's input).
    let again = talk.state();
    if let Some(again) = &again {
        assert_eq!(again.units.len(), state.units.len());
        assert_eq!(again.round, state.round);
    }
    let me = state.player;
    let mut gold = state.gold;
    // Learn to build level-2 traps once gold allows (50 energy, 50 gold).
    if state.blueprints.trap == 1 && gold >= 150 {
        if let Some(unit) = state.units.iter().find(|u| u.energy >= 120) {
            let id = unit.id;
            if let Some(a) = talk.ask(&format!(
                r#"{{"unit":{id},"type":"research","blueprint":{{"kind":"trap","level":1}}}}"#
            )) {
                gold = a.gold;
            }
        }
    }
    let mut moves = 0;
    for unit in state.units {
        let id = unit.id;
        if state.round == 1 {
            // Hit back with 20 energy when attacked while holding at least 40.
            talk.ask(&format!(
                r#"{{"unit":{id},"type":"prepare","energy":20,"threshold":40}}"#
            ));
        }
        if unit.frozen > 0 {
            talk.ask(&format!(r#"{{"unit":{id},"type":"view"}}"#));
            continue;
        }
        let mut unit = unit;
        if let Some(enemy) = enemy_next_to(&unit, me) {
            if unit.energy >= 100 {
                (unit, _) = talk.act(
                    unit,
                    &format!(
                        r#"{{"unit":{id},"type":"attack","target":{{"player":{},"unit":{}}},"energy":50}}"#,
                        enemy.player, enemy.id
                    ),
                );
            }
        }
        unit = gather(talk, unit);
        for _ in 0..4 {
            if unit.energy < unit.move_cost + 15 || talk.actions_left < 8 {
                break;
            }
            let (wx, wy) = WANDER[(unit.id + state.round) as usize % WANDER.len()];
            let (dx, dy) = match nearest_resource(&unit) {
                Some((x, y)) => ((x - unit.x).signum(), (y - unit.y).signum()),
                None => (wx, wy),
            };
            let to = (unit.x + dx, unit.y + dy);
            // Never off the map (a MoveError: harmless, but a request spent).
            let inside = |v: i32| (0..state.size).contains(&v);
            if (dx == 0 && dy == 0) || !inside(to.0) || !inside(to.1) {
                break;
            }
            let ok;
            (unit, ok) = talk.act(
                unit,
                &format!(r#"{{"unit":{id},"type":"move","to":[{},{}]}}"#, to.0, to.1),
            );
            if !ok {
                break;
            }
            moves += 1;
            unit = gather(talk, unit);
        }
    }
    let results: Vec<String> = talk.results.iter().map(|(k, v)| format!("{k} {v}")).collect();
    eprintln!(
        "round {}/{}: score {}, gold {gold}, {moves} moves; answers: {}",
        state.round,
        state.rounds,
        state.score,
        results.join(", ")
    );
    talk.end();
}

fn main() {
    let stdin = io::stdin();
    let mut talk = Talk {
        input: stdin.lock(),
        output: io::stdout().lock(),
        actions_left: 0,
        results: BTreeMap::new(),
    };
    while let Some(line) = talk.line() {
        let state: State = match serde_json::from_str(&line) {
            Ok(s) => s,
            Err(e) => panic!("a turn this bot cannot read ({e}): {line}"),
        };
        assert_eq!(state.kind, "turn");
        play_turn(&mut talk, state);
    }
}
