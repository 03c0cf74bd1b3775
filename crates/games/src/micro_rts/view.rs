//! What the viewer draws: the [`View`] a frame carries (the web painter deserialises it), the
//! arena as text, the events in words and the per-seat status lines.

use engine::Stat;
use serde::{Deserialize, Serialize};

use super::state::{
    data, kind_word, name, Arena, Event, Verb, BARRACKS, CASTLE, FOREST, HEAVY, LIGHT, MINE,
    NEUTRAL, PLAYERS, RANGED, WORKER,
};
use super::{MicroRts, MAX_TURNS};

/// The picture of a microRTS match after a step. Coordinates are `(x, y)`, x to the right, y
/// down, (0,0) top left; seats are 0 = red, 1 = blue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub width: i32,
    pub height: i32,
    /// Completed turns (0 at the start).
    pub turn: u32,
    /// The turn limit (200).
    pub max_turns: u32,
    /// One string per row y: `#` wall, `.` anything else.
    pub walls: Vec<String>,
    /// Every entity but the walls: mines, forests, buildings and units.
    pub entities: Vec<EntityView>,
    /// What happened in the step that led here: moves, attacks, harvests, builds, trainings.
    pub actions: Vec<ActionView>,
    /// Per seat: red, then blue.
    pub players: Vec<PlayerView>,
    /// The winner once the match is over (`None` while playing and for a draw).
    pub winner: Option<usize>,
    pub over: bool,
}

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Xy {
    pub x: i32,
    pub y: i32,
}

impl From<(i32, i32)> for Xy {
    fn from((x, y): (i32, i32)) -> Xy {
        Xy { x, y }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Mine,
    Forest,
    Castle,
    Barracks,
    Worker,
    Light,
    Heavy,
    Ranged,
}

/// One entity (walls are in [`View::walls`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntityView {
    pub x: i32,
    pub y: i32,
    /// The owning seat; `None` for mines and forests.
    pub owner: Option<usize>,
    pub kind: Kind,
    /// Health; for a mine or forest, the resource left.
    pub health: i32,
    /// The type's maximum health (for a mine or forest, its health).
    pub max_health: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    Move,
    /// A move that was blocked (`to` is where it wanted to go).
    Blocked,
    Attack,
    Harvest,
    Build,
    Train,
}

/// One action of the last step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ActionView {
    pub kind: ActionKind,
    /// The acting seat (`None` only for a stale order moving nobody's entity).
    pub seat: Option<usize>,
    pub from: Xy,
    pub to: Xy,
    /// Damage dealt, 1 for a harvest, 0 otherwise.
    pub amount: i32,
    /// What moved, was made, or was harvested (`None` for attacks and blocked moves).
    pub what: Option<Kind>,
}

/// One seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// `"red"` or `"blue"`.
    pub name: String,
    pub gold: i32,
    pub wood: i32,
    /// The tie-break at the turn limit: entity costs plus gold and wood.
    pub materials: i64,
    pub units: usize,
    pub buildings: usize,
    /// Why the seat was eliminated, if it was.
    pub lost: Option<String>,
    /// The final score (1 still in, 0 out), once the match is over.
    pub score: Option<i64>,
}

fn kind_of(owner: u8, kind: u8) -> Option<Kind> {
    Some(match (owner, kind) {
        (NEUTRAL, MINE) => Kind::Mine,
        (NEUTRAL, FOREST) => Kind::Forest,
        (NEUTRAL, _) => return None,
        (_, CASTLE) => Kind::Castle,
        (_, BARRACKS) => Kind::Barracks,
        (_, WORKER) => Kind::Worker,
        (_, LIGHT) => Kind::Light,
        (_, HEAVY) => Kind::Heavy,
        (_, RANGED) => Kind::Ranged,
        _ => return None,
    })
}

/// The seat's units and buildings.
fn counts(arena: &Arena, seat: usize) -> (usize, usize) {
    let owner = seat as u8 + 1;
    let mut units = 0;
    let mut buildings = 0;
    for e in &arena.entities {
        let t = arena.tile(e.x, e.y);
        if t.owner == owner {
            if t.kind <= BARRACKS {
                buildings += 1;
            } else {
                units += 1;
            }
        }
    }
    (units, buildings)
}

/// The view of a match now.
pub(super) fn view(game: &MicroRts) -> View {
    let arena = &game.arena;
    let walls = (0..arena.height)
        .map(|y| {
            (0..arena.width)
                .map(|x| if arena.tile(x, y).is_wall() { '#' } else { '.' })
                .collect()
        })
        .collect();
    let mut entities = Vec::new();
    for x in 0..arena.width {
        for y in 0..arena.height {
            let t = arena.tile(x, y);
            if let Some(kind) = kind_of(t.owner, t.kind) {
                entities.push(EntityView {
                    x,
                    y,
                    owner: t.seat(),
                    kind,
                    health: t.health,
                    max_health: if t.owner == NEUTRAL {
                        t.health
                    } else {
                        data(t.kind).max_hp
                    },
                });
            }
        }
    }
    let actions = game.last_actions.iter().filter_map(action).collect();
    let outcome = game.outcome.as_ref();
    let players = (0..PLAYERS)
        .map(|seat| {
            let (units, buildings) = counts(arena, seat);
            PlayerView {
                name: name(seat).to_string(),
                gold: arena.gold[seat],
                wood: arena.wood[seat],
                materials: arena.materials(seat),
                units,
                buildings,
                lost: game.lost[seat].clone(),
                score: outcome.and_then(|o| o.scores.get(seat).copied()),
            }
        })
        .collect();
    View {
        width: arena.width,
        height: arena.height,
        turn: game.turns_done,
        max_turns: MAX_TURNS,
        walls,
        entities,
        actions,
        players,
        winner: outcome.and_then(|o| o.winner()),
        over: outcome.is_some(),
    }
}

fn action(event: &Event) -> Option<ActionView> {
    let make = |kind, seat, from: (i32, i32), to: (i32, i32), amount, what| ActionView {
        kind,
        seat,
        from: from.into(),
        to: to.into(),
        amount,
        what,
    };
    Some(match *event {
        Event::Moved {
            seat,
            kind,
            from,
            to,
        } => {
            let owner = seat.map_or(NEUTRAL, |s| s as u8 + 1);
            make(ActionKind::Move, seat, from, to, 0, kind_of(owner, kind))
        }
        Event::MoveFailed { seat, from, to } => make(ActionKind::Blocked, seat, from, to, 0, None),
        Event::Created {
            seat,
            verb,
            kind,
            from,
            to,
        } => {
            let action = if verb == Verb::Build {
                ActionKind::Build
            } else {
                ActionKind::Train
            };
            make(action, Some(seat), from, to, 0, kind_of(1, kind))
        }
        Event::Harvested {
            seat,
            forest,
            from,
            to,
        } => {
            let what = if forest { Kind::Forest } else { Kind::Mine };
            make(ActionKind::Harvest, Some(seat), from, to, 1, Some(what))
        }
        Event::Damaged {
            seat,
            from,
            to,
            amount,
        } => make(ActionKind::Attack, Some(seat), from, to, amount, None),
        Event::Unaffordable { .. } | Event::Removed { .. } => return None,
    })
}

fn at((x, y): (i32, i32)) -> String {
    format!("({x},{y})")
}

/// An event in words.
pub(super) fn words(event: &Event) -> String {
    let who = |seat: Option<usize>| seat.map_or("nobody", name);
    match *event {
        Event::Created {
            seat,
            verb,
            kind,
            from,
            to,
        } => format!(
            "{} {} {} a {} at {}",
            name(seat),
            at(from),
            if verb == Verb::Build {
                "builds"
            } else {
                "trains"
            },
            kind_word(1, kind),
            at(to)
        ),
        Event::Unaffordable { seat, kind, from } => format!(
            "{}: {} cannot afford a {}",
            name(seat),
            at(from),
            kind_word(1, kind)
        ),
        Event::Moved {
            seat,
            kind,
            from,
            to,
        } => format!(
            "{} {} {} moves to {}",
            who(seat),
            kind_word(if seat.is_some() { 1 } else { NEUTRAL }, kind),
            at(from),
            at(to)
        ),
        Event::MoveFailed { seat, from, to } => {
            format!("{}: {} fails to move to {}", who(seat), at(from), at(to))
        }
        Event::Harvested {
            seat,
            forest,
            from,
            to,
        } => format!(
            "{} {} gets 1 {} from {}",
            name(seat),
            at(from),
            if forest { "wood" } else { "gold" },
            at(to)
        ),
        Event::Damaged {
            seat,
            from,
            to,
            amount,
        } => format!(
            "{} {} does {amount} damage to {}",
            name(seat),
            at(from),
            at(to)
        ),
        Event::Removed { owner, kind, at: p } => {
            if owner == NEUTRAL {
                format!("the {} at {} is depleted", kind_word(owner, kind), at(p))
            } else {
                format!(
                    "{} {} at {} is destroyed",
                    name(usize::from(owner - 1)),
                    kind_word(owner, kind),
                    at(p)
                )
            }
        }
    }
}

/// The arena as text: one character per tile with coordinates, and a legend.
pub(super) fn text(game: &MicroRts) -> String {
    let arena = &game.arena;
    let mut out = String::from("    ");
    for x in 0..arena.width {
        out.push(char::from(b'0' + (x % 10) as u8));
    }
    out.push('\n');
    for y in 0..arena.height {
        out.push_str(&format!("{y:>3} "));
        for x in 0..arena.width {
            let t = arena.tile(x, y);
            let c = match (t.owner, t.kind) {
                (NEUTRAL, 0) => '.',
                (NEUTRAL, MINE) => 'G',
                (NEUTRAL, FOREST) => 'F',
                (NEUTRAL, _) => '#',
                (owner, kind) => {
                    let c = b"CBWLHR".get(usize::from(kind)).copied().unwrap_or(b'?');
                    char::from(if owner == 1 {
                        c
                    } else {
                        c.to_ascii_lowercase()
                    })
                }
            };
            out.push(c);
        }
        out.push('\n');
    }
    out.push_str(
        "# wall, G gold mine, F forest; red upper case, blue lower case: \
         C castle, B barracks, W worker, L light, H heavy, R ranged\n",
    );
    out
}

/// One status line per seat: "gold 10 · wood 0 · 2 units · 1 building", or why it lost.
/// The key numbers per seat: gold and wood, the units of each type and the buildings.
pub(super) fn stats(game: &MicroRts) -> Vec<Stat> {
    let arena = &game.arena;
    // Per seat, per entity type: how many stand.
    let mut kinds = [[0i64; 6]; PLAYERS];
    for e in &arena.entities {
        let t = arena.tile(e.x, e.y);
        if (1..=PLAYERS as u8).contains(&t.owner) && usize::from(t.kind) < 6 {
            kinds[usize::from(t.owner) - 1][usize::from(t.kind)] += 1;
        }
    }
    let per_seat = |f: &dyn Fn(usize) -> i64| (0..PLAYERS).map(f).collect::<Vec<i64>>();
    vec![
        Stat::new("gold", per_seat(&|s| i64::from(arena.gold[s]))),
        Stat::new("wood", per_seat(&|s| i64::from(arena.wood[s]))),
        Stat::new("workers", per_seat(&|s| kinds[s][usize::from(WORKER)])),
        Stat::new("light", per_seat(&|s| kinds[s][usize::from(LIGHT)])),
        Stat::new("heavy", per_seat(&|s| kinds[s][usize::from(HEAVY)])),
        Stat::new("ranged", per_seat(&|s| kinds[s][usize::from(RANGED)])),
        Stat::new(
            "buildings",
            per_seat(&|s| kinds[s][usize::from(CASTLE)] + kinds[s][usize::from(BARRACKS)]),
        ),
    ]
}

pub(super) fn status(game: &MicroRts) -> Vec<String> {
    let arena = &game.arena;
    (0..PLAYERS)
        .map(|seat| {
            let mut line = match &game.lost[seat] {
                Some(why) => format!("lost: {why}"),
                None => {
                    let (units, buildings) = counts(arena, seat);
                    format!(
                        "gold {} · wood {} · {} · {}",
                        arena.gold[seat],
                        arena.wood[seat],
                        plural(units, "unit"),
                        plural(buildings, "building")
                    )
                }
            };
            if let Some(score) = game.outcome.as_ref().and_then(|o| o.scores.get(seat)) {
                line.push_str(&format!(" · score {score}"));
            }
            line
        })
        .collect()
}

pub(super) fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}
