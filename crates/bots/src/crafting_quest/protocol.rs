//! Reading the referee's JSON lines (with the small reader of [`super::json`]) (the player state and the answers to requests) into plain
//! structs, and writing well-formed request lines. Unknown or missing fields read as zero or
//! empty: a bot never fails on a line it does not fully understand.

use super::json::Json;

// The scenario's numbers are the game's own (pure data of the `games` crate): the resource
// types in protocol order, their letters in sight rows, gold's index, and the recipes per kind
// (sword 0, armour 1, tower, trap) and level (index `level - 1`), per resource type.
pub use games::crafting_quest::scenario::{GOLD, LETTERS, RECIPES, RESOURCES};

/// The names of the two carried kinds.
pub const KINDS: [&str; 2] = ["sword", "armour"];

/// The damage of an attack with energy `e` ≥ 1 by a sword level on an armour level (the game's
/// own rule: its rulebook, *Energy*).
pub fn damage(e: i32, sword: i32, armour: i32) -> i32 {
    let level = |l: i32| l.clamp(0, 3) as u8;
    games::crafting_quest::scenario::damage(e, level(sword), level(armour))
}

/// The least attack energy that deals at least `life` damage (None: more than `max`).
pub fn energy_to_kill(life: i32, sword: i32, armour: i32, max: i32) -> Option<i32> {
    if armour >= 4 {
        return None;
    }
    let mut e = (life.max(1) * 16 / ((4 + sword.clamp(0, 3)) * (4 - armour.clamp(0, 3)))).max(1);
    while e <= max && damage(e, sword, armour) < life {
        e += 1;
    }
    while e > 1 && damage(e - 1, sword, armour) >= life {
        e -= 1;
    }
    (e <= max && damage(e, sword, armour) >= life).then_some(e)
}

/// A unit seen in a sight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    pub player: usize,
    pub id: usize,
    pub x: i32,
    pub y: i32,
    pub energy: i32,
    pub life: i32,
    pub sword: i32,
    pub armour: i32,
}

/// A visible pile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PileInfo {
    pub x: i32,
    pub y: i32,
    pub res: [u32; 7],
    /// (kind index 0 sword / 1 armour, level, count).
    pub objects: Vec<(usize, i32, u32)>,
}

/// A square of cells around a unit or tower.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sight {
    pub x: i32,
    pub y: i32,
    /// One byte per cell: `#`, `.`, a resource letter or `*`.
    pub rows: Vec<Vec<u8>>,
    /// Cells with several buried types: (x, y, type indices).
    pub mixed: Vec<(i32, i32, Vec<usize>)>,
    pub piles: Vec<PileInfo>,
    /// (x, y, player).
    pub towers: Vec<(i32, i32, usize)>,
    /// Own traps: (x, y).
    pub traps: Vec<(i32, i32)>,
    pub units: Vec<Seen>,
}

impl Sight {
    /// The byte of a cell in sight, if it is.
    pub fn at(&self, x: i32, y: i32) -> Option<u8> {
        let row = self.rows.get(usize::try_from(y - self.y).ok()?)?;
        row.get(usize::try_from(x - self.x).ok()?).copied()
    }
}

/// One own unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitInfo {
    pub id: usize,
    pub x: i32,
    pub y: i32,
    pub energy: i32,
    pub life: i32,
    pub frozen: i32,
    pub sword: i32,
    pub armour: i32,
    pub retaliate: (i32, i32),
    pub res: [u32; 7],
    /// Per kind (sword, armour) and level: the count carried.
    pub items: [[u32; 3]; 2],
    pub weight: i32,
    pub move_cost: i32,
    /// The last dig of this turn: (x, y, quantities).
    pub dig: Option<(i32, i32, [u32; 7])>,
    pub sight: Sight,
}

/// The player state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub round: u32,
    pub rounds: u32,
    pub player: usize,
    pub players: usize,
    pub size: usize,
    pub home: (i32, i32),
    pub gold: i64,
    pub blueprints: [i32; 4],
    pub units: Vec<UnitInfo>,
    /// Own towers' sights.
    pub tower_sights: Vec<Sight>,
}

/// The answer to a request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub result: String,
    pub reason: String,
    pub gold: i64,
    pub blueprints: [i32; 4],
    pub unit: Option<UnitInfo>,
}

/// What one line from the referee is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// The player state: `"turn"` at the start of a turn, `"state"` when asked.
    State {
        turn: bool,
        state: Box<State>,
    },
    Answer(Box<Answer>),
    /// A line that is not JSON or not a known message.
    Unknown,
}

fn resources(v: Option<&Json>) -> [u32; 7] {
    let mut out = [0; 7];
    for (name, q) in v.map(Json::fields).unwrap_or_default() {
        if let Some(r) = RESOURCES.iter().position(|n| n == name) {
            out[r] = q.int().unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32;
        }
    }
    out
}

fn kind_index(name: &str) -> Option<usize> {
    KINDS.iter().position(|k| *k == name)
}

fn index(v: &Json, key: &str) -> usize {
    v.get(key)
        .and_then(Json::int)
        .unwrap_or(0)
        .clamp(0, 1 << 20) as usize
}

fn list<'v, 'a>(v: &'v Json<'a>, key: &str) -> &'v [Json<'a>] {
    v.get(key).map(Json::items).unwrap_or_default()
}

fn sight(v: &Json) -> Sight {
    Sight {
        x: v.i32("x"),
        y: v.i32("y"),
        rows: list(v, "rows")
            .iter()
            .map(|r| r.str().unwrap_or("").as_bytes().to_vec())
            .collect(),
        mixed: list(v, "mixed")
            .iter()
            .map(|m| {
                let types = list(m, "types")
                    .iter()
                    .filter_map(|t| RESOURCES.iter().position(|n| Some(*n) == t.str()))
                    .collect();
                (m.i32("x"), m.i32("y"), types)
            })
            .collect(),
        piles: list(v, "piles")
            .iter()
            .map(|p| PileInfo {
                x: p.i32("x"),
                y: p.i32("y"),
                res: resources(p.get("resources")),
                objects: list(p, "objects")
                    .iter()
                    .filter_map(|o| {
                        let k = kind_index(o.get("kind")?.str()?)?;
                        Some((k, o.i32("level"), o.i32("count").max(0) as u32))
                    })
                    .collect(),
            })
            .collect(),
        towers: list(v, "towers")
            .iter()
            .map(|t| (t.i32("x"), t.i32("y"), index(t, "player")))
            .collect(),
        traps: list(v, "traps")
            .iter()
            .map(|t| (t.i32("x"), t.i32("y")))
            .collect(),
        units: list(v, "units")
            .iter()
            .map(|u| Seen {
                player: index(u, "player"),
                id: index(u, "id"),
                x: u.i32("x"),
                y: u.i32("y"),
                energy: u.i32("energy"),
                life: u.i32("life"),
                sword: u.i32("sword"),
                armour: u.i32("armour"),
            })
            .collect(),
    }
}

fn unit(v: &Json) -> UnitInfo {
    let mut items = [[0u32; 3]; 2];
    for o in list(v, "objects") {
        if let Some(k) = o.get("kind").and_then(Json::str).and_then(kind_index) {
            let l = o.i32("level");
            if (1..=3).contains(&l) {
                items[k][l as usize - 1] += o.i32("count").max(0) as u32;
            }
        }
    }
    let dig = v
        .get("dig")
        .filter(|d| matches!(d, Json::Obj(_)))
        .map(|d| (d.i32("x"), d.i32("y"), resources(d.get("resources"))));
    let retaliate = v
        .get("retaliate")
        .map_or((0, 0), |r| (r.i32("energy"), r.i32("threshold")));
    UnitInfo {
        id: index(v, "id"),
        x: v.i32("x"),
        y: v.i32("y"),
        energy: v.i32("energy"),
        life: v.i32("life"),
        frozen: v.i32("frozen"),
        sword: v.i32("sword"),
        armour: v.i32("armour"),
        retaliate,
        res: resources(v.get("resources")),
        items,
        weight: v.i32("weight"),
        move_cost: v.i32("move_cost"),
        dig,
        sight: v.get("sight").map(sight).unwrap_or_default(),
    }
}

fn blueprints(v: &Json) -> [i32; 4] {
    let b = v.get("blueprints");
    let get = |k: &str| {
        b.and_then(|b| b.get(k))
            .and_then(Json::int)
            .map_or(1, |n| n as i32)
    };
    [get("sword"), get("armour"), get("tower"), get("trap")]
}

/// Reads one line from the referee.
pub fn read(line: &str) -> Message {
    let Some(v) = Json::parse(line.trim()) else {
        return Message::Unknown;
    };
    let text = |key: &str| v.get(key).and_then(Json::str).unwrap_or("").to_string();
    let num = |key: &str| v.get(key).and_then(Json::int).unwrap_or(0);
    match v.get("type").and_then(Json::str) {
        Some(kind @ ("turn" | "state")) => {
            let home = list(&v, "home");
            let at = |i: usize| home.get(i).and_then(Json::int).unwrap_or(0) as i32;
            Message::State {
                turn: kind == "turn",
                state: Box::new(State {
                    round: num("round").clamp(0, 1 << 20) as u32,
                    rounds: num("rounds").clamp(0, 1 << 20) as u32,
                    player: index(&v, "player"),
                    players: index(&v, "players"),
                    size: index(&v, "size").min(1000),
                    home: (at(0), at(1)),
                    gold: num("gold"),
                    blueprints: blueprints(&v),
                    units: list(&v, "units").iter().map(unit).collect(),
                    tower_sights: list(&v, "towers")
                        .iter()
                        .filter_map(|t| t.get("sight").map(sight))
                        .collect(),
                }),
            }
        }
        Some("result") => Message::Answer(Box::new(Answer {
            result: text("result"),
            reason: text("reason"),
            gold: num("gold"),
            blueprints: blueprints(&v),
            unit: v
                .get("unit")
                .filter(|u| matches!(u, Json::Obj(_)))
                .map(unit),
        })),
        _ => Message::Unknown,
    }
}

/// Request lines, always well formed.
pub mod write {
    use super::{KINDS, RESOURCES};

    pub fn end() -> String {
        r#"{"type":"end"}"#.to_string()
    }

    pub fn moving(unit: usize, x: i32, y: i32) -> String {
        format!(r#"{{"unit":{unit},"type":"move","to":[{x},{y}]}}"#)
    }

    pub fn dig(unit: usize) -> String {
        format!(r#"{{"unit":{unit},"type":"dig"}}"#)
    }

    fn amounts(res: &[u32; 7]) -> String {
        let parts: Vec<String> = res
            .iter()
            .enumerate()
            .filter(|(_, &q)| q > 0)
            .map(|(r, q)| format!(r#""{}":{q}"#, RESOURCES[r]))
            .collect();
        format!("{{{}}}", parts.join(","))
    }

    pub fn pickup(unit: usize, res: &[u32; 7]) -> String {
        format!(
            r#"{{"unit":{unit},"type":"pickup","resources":{}}}"#,
            amounts(res)
        )
    }

    pub fn pickup_object(unit: usize, kind: usize, level: i32, count: u32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"pickup","objects":[{{"kind":"{}","level":{level},"count":{count}}}]}}"#,
            KINDS[kind.min(1)]
        )
    }

    pub fn drop(unit: usize, res: &[u32; 7]) -> String {
        format!(
            r#"{{"unit":{unit},"type":"drop","resources":{}}}"#,
            amounts(res)
        )
    }

    pub fn drop_object(unit: usize, kind: usize, level: i32, count: u32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"drop","objects":[{{"kind":"{}","level":{level},"count":{count}}}]}}"#,
            KINDS[kind.min(1)]
        )
    }

    pub fn craft(unit: usize, kind: usize, level: i32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"craft","blueprint":{{"kind":"{}","level":{level}}}}}"#,
            KINDS[kind.min(1)]
        )
    }

    pub fn equip(unit: usize, kind: usize, level: i32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"equip","item":{{"kind":"{}","level":{level}}}}}"#,
            KINDS[kind.min(1)]
        )
    }

    pub fn attack(unit: usize, player: usize, target: usize, energy: i32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"attack","target":{{"player":{player},"unit":{target}}},"energy":{energy}}}"#
        )
    }

    pub fn prepare(unit: usize, energy: i32, threshold: i32) -> String {
        format!(r#"{{"unit":{unit},"type":"prepare","energy":{energy},"threshold":{threshold}}}"#)
    }

    pub fn place(unit: usize, what: &str, level: i32) -> String {
        let kind = if what == "tower" {
            "placeTower"
        } else {
            "placeTrap"
        };
        format!(r#"{{"unit":{unit},"type":"{kind}","level":{level}}}"#)
    }

    pub fn research(unit: usize, kind: &str, level: i32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"research","blueprint":{{"kind":"{kind}","level":{level}}}}}"#
        )
    }
}
