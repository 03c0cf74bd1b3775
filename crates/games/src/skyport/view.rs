//! What the viewer draws: the [`View`] a frame carries (the web painter deserialises it), the
//! board as text, and the per-seat status lines.

use engine::Stat;
use serde::{Deserialize, Serialize};

use super::hex::Pos;
use super::map::Tile;
use super::state::{Effect, Hit};
use super::{Phase, Skyport};

/// The picture of a Skyport match after a step. Positions are `[j, k]`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The map's side D.
    pub size: usize,
    /// The map's name.
    pub map: String,
    /// The tile letters, `size × size`, index `j * size + k` (the protocol's `data[j][k]`).
    pub tiles: String,
    /// `"connect"`, `"loadout"`, `"play"` or `"over"`.
    pub phase: String,
    /// Completed player turns.
    pub turn: u32,
    /// The round being played (1-based) and the number of rounds.
    pub round: u32,
    pub rounds: u32,
    /// The seat whose turn led to this frame.
    pub played: Option<usize>,
    /// The seat to play next.
    pub to_move: Option<usize>,
    /// Per seat.
    pub players: Vec<PlayerView>,
    /// What the last turn's actions did, in order.
    pub actions: Vec<ActionView>,
    /// Damage taken in the last turn, in order.
    pub hits: Vec<HitView>,
    pub winner: Option<usize>,
    pub over: bool,
}

/// One player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub name: String,
    pub position: [i32; 2],
    pub spawn: [i32; 2],
    /// 0 when destroyed.
    pub health: i32,
    pub score: i64,
    /// Destroyed and waiting: misses its next turn, then respawns.
    pub waiting: bool,
    /// Primary and secondary weapon with their levels (empty before the loadout).
    pub weapons: Vec<(String, u8)>,
    /// Rubidium, explosium, scrap.
    pub resources: [u32; 3],
    pub kills: u32,
    pub deaths: u32,
    /// Place in the turn order (0 moves first in each round).
    pub order: usize,
}

/// One valid action of the last turn.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
pub enum ActionView {
    Move {
        seat: usize,
        from: [i32; 2],
        to: [i32; 2],
    },
    Mine {
        seat: usize,
        at: [i32; 2],
        resource: String,
    },
    Upgrade {
        seat: usize,
        weapon: String,
        level: u8,
    },
    /// A beam from the shooter to the last tile it reached.
    Laser {
        seat: usize,
        from: [i32; 2],
        to: [i32; 2],
    },
    /// A shell; `exploded` is false when it fell on rock or void (or a tg2013 spawn tile).
    Mortar {
        seat: usize,
        from: [i32; 2],
        target: [i32; 2],
        exploded: bool,
    },
    /// The droid's tiles from the shooter's to where it exploded.
    Droid { seat: usize, path: Vec<[i32; 2]> },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HitView {
    pub seat: usize,
    pub by: usize,
    pub at: [i32; 2],
    pub damage: i32,
    pub killed: bool,
    pub reflected: bool,
}

fn xy(p: Pos) -> [i32; 2] {
    [p.j, p.k]
}

pub(super) fn action_view(seat: usize, effect: &Effect) -> ActionView {
    match effect {
        Effect::Move { from, to } => ActionView::Move {
            seat,
            from: xy(*from),
            to: xy(*to),
        },
        Effect::Mine { at, resource } => ActionView::Mine {
            seat,
            at: xy(*at),
            resource: resource.name().to_string(),
        },
        Effect::Upgrade { weapon, level } => ActionView::Upgrade {
            seat,
            weapon: weapon.name().to_string(),
            level: *level,
        },
        Effect::Laser { from, to } => ActionView::Laser {
            seat,
            from: xy(*from),
            to: xy(*to),
        },
        Effect::Mortar {
            from,
            target,
            exploded,
        } => ActionView::Mortar {
            seat,
            from: xy(*from),
            target: xy(*target),
            exploded: *exploded,
        },
        Effect::Droid { path } => ActionView::Droid {
            seat,
            path: path.iter().map(|p| xy(*p)).collect(),
        },
    }
}

pub(super) fn hit_view(hit: &Hit) -> HitView {
    HitView {
        seat: hit.victim,
        by: hit.by,
        at: xy(hit.at),
        damage: hit.damage,
        killed: hit.killed,
        reflected: hit.reflected,
    }
}

/// The view of a match now.
pub(super) fn view(game: &Skyport) -> View {
    let world = &game.world;
    let d = world.size();
    let tiles = world.tiles.iter().map(|t| t.letter()).collect();
    let order = |seat: usize| game.ring.iter().position(|&s| s == seat).unwrap_or(0);
    let players = world
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| PlayerView {
            name: p.name.clone(),
            position: xy(p.pos),
            spawn: xy(p.spawn),
            health: p.health,
            score: p.score,
            waiting: p.needs_respawn,
            weapons: if p.has_loadout {
                p.weapons
                    .iter()
                    .map(|(w, l)| (w.name().to_string(), *l))
                    .collect()
            } else {
                Vec::new()
            },
            resources: p.resources,
            kills: p.kills,
            deaths: p.deaths,
            order: order(seat),
        })
        .collect();
    let over = game.outcome.is_some();
    View {
        size: d,
        map: world.map.name.clone(),
        tiles,
        phase: match game.phase {
            Phase::Connect => "connect",
            Phase::Loadout => "loadout",
            Phase::Play => "play",
            Phase::Over => "over",
        }
        .to_string(),
        turn: game.completed,
        round: game.round(),
        rounds: game.rounds,
        played: game.last_player,
        to_move: (game.phase == Phase::Play).then_some(game.active),
        players,
        actions: game
            .last_effects
            .iter()
            .map(|(s, e)| action_view(*s, e))
            .collect(),
        hits: game.last_hits.iter().map(hit_view).collect(),
        winner: game.outcome.as_ref().and_then(|o| o.winner()),
        over,
    }
}

/// The board as text: one line per row of equal `j + k` (the top tile first), tiles two
/// characters apart, players as their seat number (`*` for a destroyed one), and a legend.
pub(super) fn text(game: &Skyport) -> String {
    let world = &game.world;
    let d = world.size();
    let mut out = String::with_capacity(4 * d * (2 * d) + 120);
    for r in 0..(2 * d).saturating_sub(1) {
        // Row r holds the tiles with j + k = r, from the largest j.
        let (j0, k0, count) = if r < d {
            (r, 0, r + 1)
        } else {
            (d - 1, r + 1 - d, 2 * d - 1 - r)
        };
        let start = out.len();
        for _ in 0..(d - count) {
            out.push(' ');
        }
        for i in 0..count {
            let index = (j0 - i) * d + k0 + i;
            let c = match world.occupant[index] {
                Some(seat) if world.players[seat].alive() => {
                    char::from_digit((seat + 1) as u32 % 36, 36).unwrap_or('?')
                }
                Some(_) => '*',
                None => match world.tiles[index] {
                    Tile::Grass => '.',
                    Tile::Void => ' ',
                    t => t.letter(),
                },
            };
            out.push(c);
            out.push(' ');
        }
        let end = out[start..].trim_end().len() + start;
        out.truncate(end);
        out.push('\n');
    }
    out.push_str(
        "1-8 players by seat, * destroyed; . grass, E explosium, R rubidium, C scrap, \
         S spawn, O rock, blank void\n",
    );
    out
}

/// One status line per seat.
/// The key numbers per player: the score, the health, and each resource it holds.
pub(super) fn stats(game: &Skyport) -> Vec<Stat> {
    let players = &game.world.players;
    let each = |f: &dyn Fn(&super::state::Player) -> i64| players.iter().map(f).collect::<Vec<_>>();
    vec![
        Stat::new("score", each(&|p| p.score)),
        Stat::new("health", each(&|p| i64::from(p.health))),
        Stat::new("rubidium", each(&|p| i64::from(p.resources[0]))),
        Stat::new("explosium", each(&|p| i64::from(p.resources[1]))),
        Stat::new("scrap", each(&|p| i64::from(p.resources[2]))),
    ]
}

pub(super) fn status(game: &Skyport) -> Vec<String> {
    game.world
        .players
        .iter()
        .map(|p| {
            let mut line = if p.has_to_pass {
                format!("{}: destroyed, misses its next turn", p.name)
            } else if p.needs_respawn {
                format!("{}: destroyed, respawns at its next turn", p.name)
            } else {
                format!("{}: {} hp", p.name, p.health)
            };
            line.push_str(&format!(" · score {}", p.score));
            if p.has_loadout {
                let w: Vec<String> = p.weapons.iter().map(|(w, l)| format!("{w} {l}")).collect();
                line.push_str(&format!(" · {}", w.join(", ")));
            }
            let [r, e, c] = p.resources;
            line.push_str(&format!(" · R{r} E{e} C{c}"));
            line
        })
        .collect()
}
