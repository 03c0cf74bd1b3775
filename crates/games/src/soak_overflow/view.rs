//! What the viewer draws: the [`View`] a frame carries (the web painter deserialises it), the
//! board as text, and the per-seat status lines.

use engine::Stat;
use serde::{Deserialize, Serialize};

use super::league::Objective;
use super::map::{Coord, HIGH_COVER, LOW_COVER};
use super::state::{name, plural, Agent, PLAYERS};
use super::SoakOverflow;

/// The picture of a Soak Overflow match after a step. Coordinates are `(x, y)`, x to the right,
/// y down, (0,0) top left; seats are 0 = red (left side), 1 = blue.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct View {
    pub width: i32,
    pub height: i32,
    /// Completed turns (0 at the start).
    pub turn: u32,
    /// The turn limit (100 in the full game; 20, 20, 1 and 40 in the tutorial leagues).
    pub max_turns: u32,
    /// Per tile, row by row (index `y * width + x`): 0 floor, 1 low cover, 2 high cover.
    pub tiles: Vec<u8>,
    /// Per tile: the seat controlling it after this turn (`None`: nobody).
    pub control: Vec<Option<usize>>,
    /// The agents after this turn, in list order, including those soaked this turn.
    pub agents: Vec<AgentView>,
    /// The moves of this turn (done or cancelled by a collision).
    pub moves: Vec<MoveView>,
    /// The shots that hit this turn.
    pub shots: Vec<ShotView>,
    /// The splash bombs that landed this turn.
    pub throws: Vec<ThrowView>,
    /// Per seat: red, then blue.
    pub players: Vec<PlayerView>,
    /// Whether the match is over.
    pub over: bool,
    /// The winner once the match is over (`None` while playing and for a draw).
    pub winner: Option<usize>,
    /// League 1 (Wood 4): the goal tiles, one for each of red's two agents (either way round);
    /// empty in every other league, and then left out of the JSON.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub goals: Vec<Xy>,
}

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Xy {
    pub x: i32,
    pub y: i32,
}

impl From<Coord> for Xy {
    fn from(c: Coord) -> Xy {
        Xy { x: c.x, y: c.y }
    }
}

/// One agent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentView {
    pub id: i32,
    pub owner: usize,
    /// "gunner", "sniper", "bomber", "assault" or "berserker".
    pub class: String,
    pub x: i32,
    pub y: i32,
    pub wetness: i32,
    /// Turns until it can shoot again (as its owner's next input shows).
    pub cooldown: i32,
    pub shoot_cooldown: i32,
    pub optimal_range: i32,
    pub soaking_power: i32,
    pub bombs: i32,
    /// Hunkered down this turn.
    pub hunkered: bool,
    /// Soaked this turn (wetness 100 or more): it leaves the grid before the next turn.
    pub soaked: bool,
    /// Its `MESSAGE` of this turn.
    pub message: Option<String>,
}

/// One move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveView {
    pub id: i32,
    pub from: Xy,
    pub to: Xy,
    /// False when a collision cancelled it.
    pub done: bool,
}

/// One shot that hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShotView {
    pub shooter: i32,
    pub target: i32,
    pub from: Xy,
    pub to: Xy,
    pub damage: i32,
}

/// One splash bomb that landed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThrowView {
    pub thrower: i32,
    pub from: Xy,
    pub target: Xy,
    /// The agents it wet.
    pub hit: Vec<i32>,
}

/// One seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// "red" or "blue".
    pub name: String,
    pub points: i64,
    /// Tiles controlled after this turn.
    pub tiles: usize,
    /// Points gained this turn.
    pub gained: i64,
    /// Agents still in the game (not soaked).
    pub agents: usize,
    /// Why the seat lost, if it lost by a fault.
    pub lost: Option<String>,
    /// The final score, once the match is over.
    pub score: Option<i64>,
}

fn agent_view(a: &Agent, game: &SoakOverflow, soaked: bool) -> AgentView {
    let message = game
        .last_messages
        .iter()
        .find(|(id, _)| *id == a.id)
        .map(|(_, m)| m.clone());
    AgentView {
        id: a.id,
        owner: a.owner,
        class: a.class.word().to_string(),
        x: a.at.x,
        y: a.at.y,
        wetness: a.wetness,
        cooldown: a.cooldown,
        shoot_cooldown: a.shoot_cooldown,
        optimal_range: a.optimal_range,
        soaking_power: a.soaking_power,
        bombs: a.bombs,
        hunkered: game.last_log.hunkered.contains(&a.id),
        soaked,
        message,
    }
}

/// Every agent to show: those on the grid and those soaked this turn, in id order.
fn shown_agents(game: &SoakOverflow) -> Vec<(&Agent, bool)> {
    let mut all: Vec<(&Agent, bool)> = game
        .board
        .agents
        .iter()
        .map(|a| (a, false))
        .chain(game.last_soaked.iter().map(|a| (a, true)))
        .collect();
    all.sort_by_key(|(a, _)| (a.owner, a.id));
    all
}

/// The view of a match now.
pub(super) fn view(game: &SoakOverflow) -> View {
    let board = &game.board;
    let grid = &board.grid;
    let outcome = game.outcome.as_ref();
    let tiles = board.tiles();
    let log = &game.last_log;
    View {
        width: grid.width,
        height: grid.height,
        turn: game.turns_done,
        max_turns: game.board.league.max_turns(),
        tiles: grid.tiles.clone(),
        control: board.control(),
        agents: shown_agents(game)
            .into_iter()
            .map(|(a, soaked)| agent_view(a, game, soaked))
            .collect(),
        moves: log
            .moves
            .iter()
            .map(|m| MoveView {
                id: m.id,
                from: m.from.into(),
                to: m.to.into(),
                done: m.done,
            })
            .collect(),
        shots: log
            .shots
            .iter()
            .map(|s| ShotView {
                shooter: s.shooter,
                target: s.target,
                from: s.from.into(),
                to: s.to.into(),
                damage: s.damage,
            })
            .collect(),
        throws: log
            .throws
            .iter()
            .map(|t| ThrowView {
                thrower: t.thrower,
                from: t.from.into(),
                target: t.target.into(),
                hit: t.hit.clone(),
            })
            .collect(),
        players: (0..PLAYERS)
            .map(|seat| PlayerView {
                name: name(seat).to_string(),
                points: board.points[seat],
                tiles: tiles[seat],
                gained: log.gained[seat],
                agents: board.live_count(seat),
                lost: game.lost[seat].clone(),
                score: outcome.and_then(|o| o.scores.get(seat).copied()),
            })
            .collect(),
        over: outcome.is_some(),
        winner: outcome.and_then(|o| o.winner()),
        goals: goals(game).iter().map(|&c| c.into()).collect(),
    }
}

/// League 1's goal tiles (none in the other leagues).
fn goals(game: &SoakOverflow) -> &[Coord] {
    match game.objective.as_ref() {
        Objective::Reach(spots) => spots,
        _ => &[],
    }
}

/// The board as text: three characters per tile (territory `r`/`b`/`.`, or `*` on a goal tile
/// of league 1, then `--` low cover, `##` high cover or an agent's id), then one line per agent
/// and a legend.
pub(super) fn text(game: &SoakOverflow) -> String {
    let board = &game.board;
    let grid = &board.grid;
    let agents = shown_agents(game);
    // Written piece by piece (no `format!` per tile): a frame is made at every step.
    let mut out = String::with_capacity(
        (4 + 3 * grid.width as usize) * (grid.height as usize + 1) + 64 * agents.len() + 128,
    );
    out.push_str("   ");
    for x in 0..grid.width {
        push_right(&mut out, x, 3);
    }
    out.push('\n');
    let control = board.control();
    let goals = goals(game);
    for y in 0..grid.height {
        push_right(&mut out, y, 2);
        out.push(' ');
        for x in 0..grid.width {
            let c = Coord::new(x, y);
            out.push(match control[grid.index(c)] {
                // League 1 has no territory: its goal tiles take the territory's place.
                _ if goals.contains(&c) => '*',
                Some(0) => 'r',
                Some(_) => 'b',
                None => '.',
            });
            match agents.iter().find(|(a, _)| a.at == c) {
                Some((a, _)) => push_right(&mut out, a.id, 2),
                None => out.push_str(match grid.tile(c) {
                    LOW_COVER => "--",
                    HIGH_COVER => "##",
                    _ => "  ",
                }),
            }
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    for (a, soaked) in &agents {
        out.push_str(&format!(
            "{:>2} {} {} at ({},{}) wetness {}{} · cooldown {} · bombs {}{}\n",
            a.id,
            name(a.owner),
            a.class.word(),
            a.at.x,
            a.at.y,
            a.wetness,
            if *soaked { " SOAKED" } else { "" },
            a.cooldown,
            a.bombs,
            if game.last_log.hunkered.contains(&a.id) {
                " · hunkered"
            } else {
                ""
            }
        ));
    }
    if let Some(line) = objective_line(game) {
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("r/b tile controlled by red/blue, . by nobody; -- low cover, ## high cover; numbers are agent ids");
    if !goals.is_empty() {
        out.push_str("; * goal tile");
    }
    out.push('\n');
    out
}

/// Appends `n` right-aligned in `width` characters, as `format!("{n:>width$}")` writes it.
fn push_right(out: &mut String, n: i32, width: usize) {
    let len = 1 + (n < 0) as usize + n.unsigned_abs().checked_ilog10().unwrap_or(0) as usize;
    for _ in len..width {
        out.push(' ');
    }
    engine::int_text::push_int(out, n);
}

/// The tutorial league's objective in words, with its tiles.
fn objective_line(game: &SoakOverflow) -> Option<String> {
    let league = game.board.league.number();
    Some(match game.objective.as_ref() {
        Objective::None => return None,
        Objective::Reach([a, b]) => {
            format!("league {league} objective: one red agent on {a}, the other on {b}")
        }
        Objective::Wettest => format!(
            "league {league} objective: every turn, both red agents shoot the wettest blue agent"
        ),
        Objective::RunAndGun { run, gun } => format!(
            "league {league} objective: red agents step to {} and {}, then shoot the agents on \
             {} and {}",
            run[0], run[1], gun[0], gun[1]
        ),
        Objective::Bunkers { hitlist } => {
            let left = hitlist
                .iter()
                .filter(|id| game.board.live(1).any(|a| a.id == **id))
                .count();
            format!(
                "league {league} objective: soak the {} blue agents of the bunkers without a red \
                 agent ({left} left), never hitting a red agent",
                hitlist.len()
            )
        }
    })
}

/// The key numbers per seat: the points that decide the match, the territory and its lead, the
/// agents standing and their total wetness.
pub(super) fn stats(game: &SoakOverflow) -> Vec<Stat> {
    let board = &game.board;
    let tiles = board.tiles();
    let per_seat = |f: &dyn Fn(usize) -> i64| (0..PLAYERS).map(f).collect::<Vec<i64>>();
    vec![
        Stat::new("points", per_seat(&|s| board.points[s])),
        Stat::new("territory", per_seat(&|s| tiles[s] as i64)),
        Stat::new(
            "territory lead",
            per_seat(&|s| tiles[s] as i64 - tiles[1 - s] as i64),
        ),
        Stat::new("agents", per_seat(&|s| board.live_count(s) as i64)),
        Stat::new(
            "wetness",
            per_seat(&|s| board.live(s).map(|a| i64::from(a.wetness)).sum()),
        ),
    ]
}

/// One status line per seat: "12 points · 103 tiles · 3 agents", or why it lost.
pub(super) fn status(game: &SoakOverflow) -> Vec<String> {
    let board = &game.board;
    let tiles = board.tiles();
    (0..PLAYERS)
        .map(|seat| {
            let mut line = match &game.lost[seat] {
                Some(why) => format!("lost: {why}"),
                None if game.board.league.one_player() && seat == 1 => {
                    "no agents: this league has no opponent".to_string()
                }
                None if !game.board.league.has_territory() => {
                    plural(board.live_count(seat), "agent")
                }
                None => format!(
                    "{} · {} · {}",
                    plural(board.points[seat].max(0) as usize, "point"),
                    plural(tiles[seat], "tile"),
                    plural(board.live_count(seat), "agent")
                ),
            };
            if let Some(score) = game.outcome.as_ref().and_then(|o| o.scores.get(seat)) {
                line.push_str(&format!(" · score {score}"));
            }
            line
        })
        .collect()
}
