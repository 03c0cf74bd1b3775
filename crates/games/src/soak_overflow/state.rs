//! The agents and the resolution of a turn (rulebook: *Rules*): moves, hunkering, shots, bombs,
//! soaked agents, territory and points.

use std::sync::Arc;

use crate::java;

use super::league::League;
use super::map::{filled, Coord, Grid};
use super::path::next_step;
use super::territory;

/// Two seats: 0 and 1.
pub const PLAYERS: usize = 2;
/// Rulebook, *Splash bombs*: a splash bomb wets every agent in the 3 × 3 around its target by this much.
pub const BOMB_DAMAGE: i32 = 30;
/// Rulebook, *Splash bombs*: a bomb can be thrown this far (Manhattan).
pub const THROW_RANGE: i32 = 4;
/// Rulebook, *Soaked*: an agent this wet is soaked and leaves the game.
pub const SOAKED: i32 = 100;
/// Rulebook, *Territory and points*: an agent this wet counts double distances for territory.
pub const HEAVY: i32 = 50;
/// Rulebook, *Shooting*: hunkering takes this much off the cover multiplier of a shot.
pub const HUNKER_BONUS: f64 = 0.25;

/// `shared` emptied and refilled with `items`: in place while no copy of the match shares it
/// (a referee that keeps no frames), else in a new list (a frame keeps the old one) unless both
/// are empty (most steps soak no one and carry no message: the empty list stays shared).
pub fn refill<T: Clone>(shared: &mut Arc<Vec<T>>, items: impl Iterator<Item = T>) {
    match Arc::get_mut(shared) {
        Some(list) => {
            list.clear();
            list.extend(items);
        }
        None => {
            let list: Vec<T> = items.collect();
            if !(list.is_empty() && shared.is_empty()) {
                *shared = Arc::new(list);
            }
        }
    }
}

/// The seat names used in texts.
pub fn name(seat: usize) -> &'static str {
    ["red", "blue"][seat % PLAYERS]
}

/// `n thing` / `n things`.
pub fn plural(n: usize, thing: &str) -> String {
    if n == 1 {
        format!("{n} {thing}")
    } else {
        format!("{n} {thing}s")
    }
}

/// Rulebook, *Facts*: the five agent classes, in spawn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Gunner,
    Sniper,
    Bomber,
    Assault,
    Berserker,
}

impl Class {
    pub const ALL: [Class; 5] = [
        Class::Gunner,
        Class::Sniper,
        Class::Bomber,
        Class::Assault,
        Class::Berserker,
    ];

    /// (shoot cooldown, optimal range, soaking power, splash bombs).
    pub fn stats(self) -> (i32, i32, i32, i32) {
        match self {
            Class::Gunner => (1, 4, 16, 1),
            Class::Sniper => (5, 6, 24, 0),
            Class::Bomber => (2, 2, 8, 3),
            Class::Assault => (2, 4, 16, 2),
            Class::Berserker => (5, 2, 32, 1),
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Class::Gunner => "gunner",
            Class::Sniper => "sniper",
            Class::Bomber => "bomber",
            Class::Assault => "assault",
            Class::Berserker => "berserker",
        }
    }
}

/// The combat slot of an agent's orders: one of these per turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combat {
    Shoot(i32),
    Throw(Coord),
    Hunker,
}

/// What an agent was told this turn (rulebook: *Protocol*): a move, a combat action and a message, each at most
/// once (later ones replace earlier ones).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slots {
    pub to: Option<Coord>,
    pub combat: Option<Combat>,
    pub message: Option<String>,
}

impl Slots {
    pub fn full(&self) -> bool {
        self.to.is_some() && self.combat.is_some() && self.message.is_some()
    }
}

/// An agent's orders this turn: [`Slots`] but the message, which the match keeps apart (so that
/// an agent is plain data, copied as such into the frames).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Orders {
    pub to: Option<Coord>,
    pub combat: Option<Combat>,
}

/// One agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Agent {
    pub id: i32,
    pub owner: usize,
    pub class: Class,
    pub shoot_cooldown: i32,
    pub optimal_range: i32,
    pub soaking_power: i32,
    pub at: Coord,
    /// Turns until it can shoot again, as the next input shows it.
    pub cooldown: i32,
    pub bombs: i32,
    pub wetness: i32,
    pub hunkered: bool,
    /// Soaked this turn: still on the grid until the next turn starts, but out of territory.
    pub dying: bool,
    pub orders: Orders,
}

impl Agent {
    pub fn new(id: i32, owner: usize, class: Class, at: Coord) -> Agent {
        let (shoot_cooldown, optimal_range, soaking_power, bombs) = class.stats();
        Agent {
            id,
            owner,
            class,
            shoot_cooldown,
            optimal_range,
            soaking_power,
            at,
            cooldown: 0,
            bombs,
            wetness: 0,
            hunkered: false,
            dying: false,
            orders: Orders::default(),
        }
    }

    /// "agent 3 (red bomber)".
    pub fn label(&self) -> String {
        self.named().to_string()
    }

    /// [`Agent::label`] written only where it is displayed: the resolution names an agent in
    /// each failure it logs, but most actions do not fail.
    pub fn named(&self) -> Named<'_> {
        Named(self)
    }

    /// The territory distance to a tile is the Manhattan distance times this factor: doubled
    /// from [`HEAVY`] wetness on.
    pub fn zone_factor(&self) -> i64 {
        if self.wetness >= HEAVY {
            2
        } else {
            1
        }
    }
}

/// An agent's label as [`std::fmt::Display`] writes it (see [`Agent::named`]).
pub struct Named<'a>(&'a Agent);

impl std::fmt::Display for Named<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let a = self.0;
        write!(f, "agent {} ({} {})", a.id, name(a.owner), a.class.word())
    }
}

/// Rulebook, *Shooting*: the cover multiplier of a shot from `shooter` at `target`: along each axis where they
/// are more than one tile apart, the tile beside the target on the shooter's side counts unless
/// it touches the shooter (diagonals included); the best cover wins.
pub fn cover_multiplier(grid: &Grid, shooter: Coord, target: Coord) -> f64 {
    let dx = target.x - shooter.x;
    let dy = target.y - shooter.y;
    let mut m: f64 = 1.0;
    if dx.abs() > 1 {
        let c = Coord::new(target.x - dx.signum(), target.y);
        if c.chebyshev(shooter) > 1 {
            m = m.min(grid.cover_multiplier(c));
        }
    }
    if dy.abs() > 1 {
        let c = Coord::new(target.x, target.y - dy.signum());
        if c.chebyshev(shooter) > 1 {
            m = m.min(grid.cover_multiplier(c));
        }
    }
    m
}

/// Rulebook, *Shooting*: the range multiplier of a shot: 1 up to the optimal range, 0.5 up to twice it, else
/// `None` (the shot fails).
pub fn range_multiplier(distance: i32, optimal: i32) -> Option<f64> {
    if distance <= optimal {
        Some(1.0)
    } else if distance <= optimal.saturating_mul(2) {
        Some(0.5)
    } else {
        None
    }
}

/// The wetness a shot deals (rulebook: *Shooting*).
pub fn shot_damage(power: i32, range: f64, cover: f64, hunkered: bool) -> i32 {
    let bonus = if hunkered { HUNKER_BONUS } else { 0.0 };
    java::round(f64::from(power) * range * (cover - bonus))
}

/// A move that happened or was cancelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLog {
    pub id: i32,
    pub from: Coord,
    pub to: Coord,
    pub done: bool,
}

/// A shot that hit.
#[derive(Clone, Debug, PartialEq)]
pub struct ShotLog {
    pub shooter: i32,
    pub target: i32,
    pub from: Coord,
    pub to: Coord,
    pub damage: i32,
    /// 1 or 0.5.
    pub range: f64,
    /// 1, 0.5 or 0.25.
    pub cover: f64,
}

/// A bomb that landed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ThrowLog {
    pub thrower: i32,
    pub from: Coord,
    pub target: Coord,
    /// The agents it wet, in list order.
    pub hit: Vec<i32>,
}

/// Everything a turn's resolution did, for the events and the view.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnLog {
    pub moves: Vec<MoveLog>,
    pub hunkered: Vec<i32>,
    pub shots: Vec<ShotLog>,
    pub throws: Vec<ThrowLog>,
    pub soaked: Vec<i32>,
    /// Actions that failed (logged, never fatal), in words.
    pub failures: Vec<String>,
    /// Points gained per seat.
    pub gained: [i64; PLAYERS],
}

impl TurnLog {
    /// Empties the log, keeping the room of its lists.
    pub fn clear(&mut self) {
        self.moves.clear();
        self.hunkered.clear();
        self.shots.clear();
        self.throws.clear();
        self.soaked.clear();
        self.failures.clear();
        self.gained = [0; PLAYERS];
    }
}

/// The grid, the agents and the territory.
#[derive(Clone, Debug)]
pub struct Board {
    pub grid: Arc<Grid>,
    /// Every agent on the grid, seat 0's first, each seat's in id order.
    pub agents: Vec<Agent>,
    /// Tiles controlled per seat (see [`Board::control`]), as of the last resolution.
    tiles: [usize; PLAYERS],
    /// What `tiles` was counted for: per agent on the grid, in list order, its tile, distance
    /// factor and seat (all that the territory depends on, with the grid, which never changes).
    /// Shared with the copies of the match its frames keep.
    counted_for: Arc<Vec<(Coord, i64, usize)>>,
    pub points: [i64; PLAYERS],
    /// Which actions do something, and whether there is territory.
    pub league: League,
}

impl Board {
    /// Rulebook, *Protocol* / *Map generation* step 7: the agents on their spawns, ids 1..n for seat 0 and n+1..2n for seat 1.
    pub fn new(grid: Arc<Grid>) -> Board {
        let mut agents = Vec::new();
        let mut id = 1;
        for seat in 0..PLAYERS {
            for (k, &spawn) in grid.spawns.iter().enumerate() {
                let at = if seat == 1 {
                    grid.opposite(spawn)
                } else {
                    spawn
                };
                agents.push(Agent::new(id, seat, Class::ALL[k % 5], at));
                id += 1;
            }
        }
        Board::with_agents(grid, agents, League::FULL)
    }

    /// A board with its agents given, in list order (seat 0's first), for a league.
    pub fn with_agents(grid: Arc<Grid>, agents: Vec<Agent>, league: League) -> Board {
        let mut board = Board {
            tiles: [0; PLAYERS],
            counted_for: Arc::default(),
            grid,
            agents,
            points: [0; PLAYERS],
            league,
        };
        board.update_control();
        board
    }

    pub fn agent(&self, id: i32) -> Option<&Agent> {
        self.agents.iter().find(|a| a.id == id)
    }

    /// A seat's agents that are not soaked, in list order.
    pub fn live(&self, seat: usize) -> impl Iterator<Item = &Agent> {
        self.agents
            .iter()
            .filter(move |a| a.owner == seat && !a.dying)
    }

    pub fn live_count(&self, seat: usize) -> usize {
        self.live(seat).count()
    }

    /// Tiles controlled per seat.
    pub fn tiles(&self) -> [usize; PLAYERS] {
        self.tiles
    }

    /// The start of a turn (rulebook: *A turn*, *Soaked*): soaked agents leave; orders and hunkering are cleared; cooldowns tick.
    pub fn start_turn(&mut self) {
        self.agents.retain(|a| !a.dying);
        for a in &mut self.agents {
            a.orders = Orders::default();
            a.hunkered = false;
            a.cooldown = (a.cooldown - 1).max(0);
        }
    }

    /// Rulebook, *A turn*: resolves the orders given, into `log` (emptied first). The league may
    /// switch actions off: a move, shot or throw it does not allow is skipped and reported,
    /// hunkering silently does nothing, and without territory no tile is controlled and nobody
    /// scores.
    pub fn resolve(&mut self, log: &mut TurnLog) {
        log.clear();
        let log = &mut *log;
        self.do_moves(log);
        let hunker = self.league.allows_hunker();
        for a in &mut self.agents {
            if hunker && a.orders.combat == Some(Combat::Hunker) {
                a.hunkered = true;
                log.hunkered.push(a.id);
            }
        }
        self.do_shots(log);
        self.do_throws(log);
        for a in &mut self.agents {
            if a.wetness >= SOAKED && !a.dying {
                a.dying = true;
                log.soaked.push(a.id);
            }
        }
        self.update_control();
        let tiles = self.tiles;
        for seat in 0..PLAYERS {
            let diff = tiles[seat] as i64 - tiles[1 - seat] as i64;
            if diff > 0 {
                self.points[seat] += diff;
                log.gained[seat] = diff;
            }
        }
    }

    /// Rulebook, *Moving*: every mover takes one step along its path; then collisions cancel moves.
    fn do_moves(&mut self, log: &mut TurnLog) {
        let grid = Arc::clone(&self.grid);
        // The tiles with an agent on them (for the path search), made for the first mover.
        let mut occupied: Option<Vec<bool>> = None;
        // (agent index, from, to)
        let mut moves: Vec<(usize, Coord, Coord)> = Vec::new();
        for (i, a) in self.agents.iter().enumerate() {
            let Some(target) = a.orders.to else { continue };
            if !self.league.allows_move() {
                log.failures.push(format!(
                    "{} cannot move: moving is off in this league",
                    a.named()
                ));
                continue;
            }
            let occupied = occupied.get_or_insert_with(|| {
                let mut occupied = filled(grid.cells(), false);
                for a in &self.agents {
                    if grid.inside(a.at) {
                        occupied[grid.index(a.at)] = true;
                    }
                }
                occupied
            });
            match next_step(&grid, occupied, a.at, target) {
                Some(step) => moves.push((i, a.at, step)),
                None if a.at != target => log.failures.push(format!(
                    "{} cannot move towards {target}: it is already as close as it can get",
                    a.named()
                )),
                None => {}
            }
        }
        // Whether an agent that does not move stands on the tile (looked up in place: a few
        // agents, and most turns few moves).
        let held_still = |to: Coord| {
            self.agents
                .iter()
                .enumerate()
                .any(|(i, a)| a.at == to && !moves.iter().any(|m| m.0 == i))
        };
        if moves.is_empty() {
            return;
        }
        let mut cancelled = filled(moves.len(), false);
        let mut wave: Vec<usize> = Vec::new();
        for (k, m) in moves.iter().enumerate() {
            if held_still(m.2) {
                cancelled[k] = true;
                wave.push(k);
            }
        }
        let mut conflicts = Vec::new();
        for (k, m) in moves.iter().enumerate() {
            if cancelled[k] {
                continue;
            }
            for (j, o) in moves.iter().enumerate() {
                if j == k || cancelled[j] {
                    continue;
                }
                if o.2 == m.2 || (o.2 == m.1 && m.2 == o.1) {
                    conflicts.push(j);
                }
            }
        }
        for j in conflicts {
            if !cancelled[j] {
                cancelled[j] = true;
                wave.push(j);
            }
        }
        while !wave.is_empty() {
            let mut next = Vec::new();
            for &c in &wave {
                let origin = moves[c].1;
                for (j, o) in moves.iter().enumerate() {
                    if !cancelled[j] && o.2 == origin {
                        cancelled[j] = true;
                        next.push(j);
                    }
                }
            }
            wave = next;
        }
        // At once (a new log, when a frame keeps the last one, would grow three times).
        log.moves.reserve(moves.len());
        for (k, &(i, from, to)) in moves.iter().enumerate() {
            let done = !cancelled[k];
            if done {
                self.agents[i].at = to;
            }
            log.moves.push(MoveLog {
                id: self.agents[i].id,
                from,
                to,
                done,
            });
        }
    }

    /// Rulebook, *Shooting*.
    fn do_shots(&mut self, log: &mut TurnLog) {
        for i in 0..self.agents.len() {
            let Some(Combat::Shoot(target_id)) = self.agents[i].orders.combat else {
                continue;
            };
            let shooter = &self.agents[i];
            let label = shooter.named();
            if !self.league.allows_shoot() {
                log.failures.push(format!(
                    "{label} cannot shoot: shooting is off in this league"
                ));
                continue;
            }
            if shooter.cooldown > 0 {
                log.failures.push(format!(
                    "{label} cannot shoot yet: cooldown {}",
                    shooter.cooldown
                ));
                continue;
            }
            let Some(t) = self.agents.iter().position(|a| a.id == target_id) else {
                log.failures.push(format!(
                    "{label} cannot shoot agent {target_id}: there is no such agent"
                ));
                continue;
            };
            if t == i {
                log.failures.push(format!("{label} cannot shoot itself"));
                continue;
            }
            let target = &self.agents[t];
            let distance = shooter.at.manhattan(target.at);
            let Some(range) = range_multiplier(distance, shooter.optimal_range) else {
                log.failures.push(format!(
                    "{label} cannot shoot agent {target_id}: too far away ({distance} tiles)"
                ));
                continue;
            };
            let cover = cover_multiplier(&self.grid, shooter.at, target.at);
            let damage = shot_damage(shooter.soaking_power, range, cover, target.hunkered);
            log.shots.push(ShotLog {
                shooter: shooter.id,
                target: target_id,
                from: shooter.at,
                to: target.at,
                damage,
                range,
                cover,
            });
            self.agents[t].wetness = self.agents[t].wetness.saturating_add(damage);
            let shooter = &mut self.agents[i];
            shooter.cooldown = shooter.shoot_cooldown + 1;
        }
    }

    /// Rulebook, *Splash bombs*.
    fn do_throws(&mut self, log: &mut TurnLog) {
        for i in 0..self.agents.len() {
            let Some(Combat::Throw(target)) = self.agents[i].orders.combat else {
                continue;
            };
            let thrower = &self.agents[i];
            let label = thrower.named();
            if !self.league.allows_throw() {
                log.failures.push(format!(
                    "{label} cannot throw a splash bomb: bombs are off in this league"
                ));
                continue;
            }
            if !self.grid.inside(target) {
                log.failures.push(format!(
                    "{label} cannot throw a splash bomb to {target}: off the grid"
                ));
                continue;
            }
            if target.manhattan(thrower.at) > THROW_RANGE {
                log.failures.push(format!(
                    "{label} cannot throw a splash bomb to {target}: too far away"
                ));
                continue;
            }
            if thrower.bombs <= 0 {
                log.failures
                    .push(format!("{label} has no splash bomb left"));
                continue;
            }
            let from = thrower.at;
            let thrower_id = thrower.id;
            let mut hit = Vec::new();
            for a in &mut self.agents {
                if a.at.chebyshev(target) <= 1 {
                    a.wetness = a.wetness.saturating_add(BOMB_DAMAGE);
                    hit.push(a.id);
                }
            }
            self.agents[i].bombs -= 1;
            log.throws.push(ThrowLog {
                thrower: thrower_id,
                from,
                target,
                hit,
            });
        }
    }

    /// Rulebook, *Territory and points*: counts again the tiles each seat controls (see
    /// [`Board::control`]).
    pub fn update_control(&mut self) {
        if !self.league.has_territory() {
            self.tiles = [0; PLAYERS];
            return;
        }
        // Most turns few agents move and none changes factor or leaves: when nothing that
        // counts changed, neither did the count.
        let now = self
            .agents
            .iter()
            .filter(|a| !a.dying)
            .map(|a| (a.at, a.zone_factor(), a.owner));
        if self.counted_for.iter().copied().eq(now.clone()) {
            return;
        }
        refill(&mut self.counted_for, now);
        self.tiles = territory::counts(&self.grid, &self.agents);
    }

    /// Per tile, row by row: the seat controlling it now (`None`: nobody). Worked out when asked
    /// (for the viewer): the territory changes only with the agents, and the turn itself needs
    /// only [`Board::tiles`].
    pub fn control(&self) -> Vec<Option<usize>> {
        if self.league.has_territory() {
            territory::control(&self.grid, &self.agents)
        } else {
            vec![None; self.grid.cells()]
        }
    }
}
