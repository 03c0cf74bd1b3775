//! What the viewer draws: the [`View`] a frame carries (the web painter deserialises it), the
//! board as text, and the per-seat status lines. Frames are a spectator's view: everything,
//! traps included; the painter applies each seat's fog of war itself from the units and towers.

use std::sync::Arc;

use engine::{Scene, Stat};
use serde::{Deserialize, Serialize};

use super::scenario::TOWER_RANGE;
use super::state::{Structure, Team, World};
use super::CraftingQuest;

/// The picture of a Crafting Quest 3 match after a turn. Coordinates are `(x, y)`, x to the
/// right, y down, `(0, 0)` top left; seats are 0–3.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The side of the square map.
    pub size: usize,
    /// `"v1"`, `"v2"`, `"v3"` or `"generated"`.
    pub map: String,
    /// The round being played (1-based) and the number of rounds.
    pub round: u32,
    pub rounds: u32,
    /// One character per cell, row by row: `#` rock, `.` grass, a resource letter
    /// (`w s l b i t g`) for the type buried there, `*` for several types.
    pub ground: String,
    /// Per seat: its home (respawn) cell.
    pub homes: Vec<[i32; 2]>,
    /// Every unit, in id order: `[seat, id, x, y, energy, life, sword, armour, weight,
    /// frozen]` (sword and armour are the equipped levels, 0 for none; weight is what it
    /// carries; frozen the own turns it still spends at 0 energy). Arrays keep frames small.
    pub units: Vec<[i32; 10]>,
    /// Visible piles: `[x, y, total items]`.
    pub piles: Vec<[i32; 3]>,
    /// Every tower: `[seat, x, y, level, strength, range]` (the range is also its sight).
    pub towers: Vec<[i32; 6]>,
    /// Every trap: `[seat, x, y, level]` (the painter hides other seats' traps in a seat's
    /// view).
    pub traps: Vec<[i32; 4]>,
    /// The attacks of the turn that led here: `[x0, y0, x1, y1, seat]`.
    pub strikes: Vec<[i32; 5]>,
    /// Per seat: the score.
    pub scores: Vec<i64>,
    /// Per seat: out of the match (a fault).
    pub out: Vec<bool>,
    /// The seat whose turn led to this frame.
    pub played: Option<usize>,
    /// The seat to play next (`None` once the match is over).
    pub to_move: Option<usize>,
    pub over: bool,
}

/// The ground of the map: rock, grass and buried types, one character per cell.
pub fn ground(world: &World) -> String {
    let cells = world.size() * world.size();
    let letters: Vec<u8> = (0..cells)
        .map(|c| super::protocol::letter(world.map.rock[c], &world.buried[c]))
        .collect();
    // Every letter is ASCII.
    String::from_utf8(letters).unwrap_or_default()
}

pub fn view(game: &CraftingQuest) -> View {
    let world = &game.world;
    let size = world.size();
    let mut towers = Vec::new();
    let mut traps = Vec::new();
    for (&c, s) in &world.structures {
        let (x, y) = ((c % size) as i32, (c / size) as i32);
        match *s {
            Structure::Tower {
                seat,
                level,
                strength,
                ..
            } => towers.push([
                seat as i32,
                x,
                y,
                i32::from(level),
                strength,
                TOWER_RANGE[usize::from(level.clamp(1, 3)) - 1],
            ]),
            Structure::Trap { seat, level } => {
                traps.push([seat as i32, x, y, i32::from(level)]);
            }
        }
    }
    View {
        size,
        map: world.map.name.clone(),
        round: game.round.min(game.rounds),
        rounds: game.rounds,
        ground: ground(world),
        homes: world.teams.iter().map(|t| [t.home.0, t.home.1]).collect(),
        units: world
            .units
            .iter()
            .map(|u| {
                [
                    u.seat as i32,
                    u.id as i32,
                    u.x,
                    u.y,
                    u.energy,
                    u.life,
                    i32::from(u.sword),
                    i32::from(u.armour),
                    u.weight(),
                    u.frozen as i32,
                ]
            })
            .collect(),
        piles: world
            .piles
            .iter()
            .map(|(&c, p)| [(c % size) as i32, (c / size) as i32, p.total() as i32])
            .collect(),
        towers,
        traps,
        strikes: game.last_strikes.clone(),
        scores: world.teams.iter().map(|t| t.score()).collect(),
        out: game.out.clone(),
        played: game.last_player,
        to_move: game.to_move_seat(),
        over: game.outcome.is_some(),
    }
}

/// What a frame of Crafting Quest 3 keeps of a step: its view, the teams' numbers and the
/// step's events. (A copy of the whole match, as the other games keep, would hold every cell's
/// buried resources once per step; the view holds one character per cell.)
pub struct Picture {
    view: View,
    teams: Vec<Team>,
    events: Arc<[String]>,
    stats: Vec<Stat>,
}

impl Picture {
    pub fn of(game: &CraftingQuest) -> Picture {
        Picture {
            view: view(game),
            teams: game.world.teams.clone(),
            events: game.last_events.clone(),
            stats: stats(&game.world),
        }
    }
}

/// The key numbers per seat: the score, the units alive, the resources and items they carry
/// (equipped items included), the resources dug up and the kills.
pub fn stats(world: &World) -> Vec<Stat> {
    let seats = world.teams.len();
    let mut alive = vec![0i64; seats];
    let mut carried = vec![0i64; seats];
    let mut items = vec![0i64; seats];
    for u in world.units.iter().filter(|u| u.seat < seats) {
        alive[u.seat] += i64::from(u.life > 0);
        carried[u.seat] += u.res.iter().map(|&n| i64::from(n)).sum::<i64>();
        items[u.seat] += u.items.iter().flatten().map(|&n| i64::from(n)).sum::<i64>()
            + i64::from(u.sword > 0)
            + i64::from(u.armour > 0);
    }
    let teams = &world.teams;
    vec![
        Stat::new("score", teams.iter().map(Team::score)),
        Stat::new("units alive", alive),
        Stat::new("resources carried", carried),
        Stat::new("items", items),
        Stat::new("dug up", teams.iter().map(|t| t.dug_up as i64)),
        Stat::new("kills", teams.iter().map(|t| i64::from(t.kills))),
    ]
}

impl Scene for Picture {
    fn events(&self) -> Vec<String> {
        self.events.to_vec()
    }

    fn status(&self) -> Vec<String> {
        status(&self.teams, &self.view.out)
    }

    fn text(&self) -> String {
        text(&self.view)
    }

    fn view_json(&self) -> String {
        serde_json::to_string(&self.view).unwrap_or_default()
    }

    fn view(&self) -> Box<dyn std::any::Any> {
        Box::new(self.view.clone())
    }

    fn stats(&self) -> Vec<Stat> {
        self.stats.clone()
    }
}

/// The board as text: one row per line, then a legend and the scores.
pub fn text(view: &View) -> String {
    let size = view.size;
    let mut grid: Vec<u8> = view
        .ground
        .bytes()
        .map(|c| match c {
            b'#' | b'.' => c,
            _ => b':',
        })
        .collect();
    let at = |x: i32, y: i32| y as usize * size + x as usize;
    for &[x, y, _] in &view.piles {
        grid[at(x, y)] = b'*';
    }
    // Towers and traps in cell order, as the structures are kept (one per cell).
    for &[_, x, y, ..] in &view.towers {
        grid[at(x, y)] = b'T';
    }
    for &[_, x, y, _] in &view.traps {
        grid[at(x, y)] = b'^';
    }
    let mut seen = vec![None::<i32>; size * size];
    for &[seat, _, x, y, ..] in &view.units {
        let c = at(x, y);
        // A cell once shared by two seats stays `+`, whatever unit comes after.
        grid[c] = match seen[c] {
            Some(s) if s != seat || grid[c] == b'+' => b'+',
            _ => b'1' + seat as u8,
        };
        seen[c] = Some(seat);
    }
    let mut out = String::with_capacity(size * (size + 1) + 200);
    for row in grid.chunks(size) {
        out.push_str(&String::from_utf8_lossy(row));
        out.push('\n');
    }
    out.push_str(
        "# rock, . grass, : buried resources, * pile, T tower, ^ trap, 1-4 units of seat 1-4, + units of several seats\n",
    );
    let scores: Vec<String> = view
        .scores
        .iter()
        .enumerate()
        .map(|(s, score)| format!("seat {} {score}", s + 1))
        .collect();
    out.push_str(&format!(
        "round {} of {}; scores: {}\n",
        view.round,
        view.rounds,
        scores.join(", ")
    ));
    out
}

/// Per seat: a short status.
pub fn status(teams: &[Team], out: &[bool]) -> Vec<String> {
    teams
        .iter()
        .enumerate()
        .map(|(s, t)| {
            let mut line = format!(
                "score {} · kills {} · deaths {} · dug {} · gold {}",
                t.score(),
                t.kills,
                t.deaths,
                t.dug_up,
                t.gold
            );
            if out.get(s).copied().unwrap_or(false) {
                line.push_str(" · out");
            }
            line
        })
        .collect()
}
