//! The leagues: the original's four tutorial leagues (Wood 4 to Wood 1, levels 1–4) and the full
//! game (level 5). Each tutorial league is a fixed scenario with an objective: its own grid and
//! agents (some drawn from the seed, with the referee's SHA1PRNG calls in the referee's order),
//! a few actions switched off, no territory, a short turn limit, and a scripted opponent.
//!
//! Everything here was read from the original referee's tutorial set-up, its boss rules and its
//! objective checks; the rulebook's *Leagues (rulesets)* describes it.

use engine::Sha1Prng;

use super::map::{Coord, Grid, FLOOR, HIGH_COVER, LOW_COVER};
use super::path::next_step;
use super::state::{Agent, Class};

/// A league, 1 (Wood 4) to 5 (Bronze and up, the full game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct League(u8);

impl League {
    /// The full game.
    pub const FULL: League = League(5);

    /// The league of a ruleset id (`league-1` … `league-5`); anything else is the full game
    /// (setups are checked against the rulesets before this is asked).
    pub fn of_ruleset(id: &str) -> League {
        match id {
            "league-1" => League(1),
            "league-2" => League(2),
            "league-3" => League(3),
            "league-4" => League(4),
            _ => League::FULL,
        }
    }

    /// 1 to 5.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Leagues 1–4: a scenario with an objective against a scripted opponent.
    pub fn is_tutorial(self) -> bool {
        self.0 < 5
    }

    /// The turn limit: 20, 20, 1, 40, then 100.
    pub fn max_turns(self) -> u32 {
        match self.0 {
            1 | 2 => 20,
            3 => 1,
            4 => 40,
            _ => 100,
        }
    }

    /// MOVE does something (not in league 2, where agents stand still).
    pub fn allows_move(self) -> bool {
        self.0 != 2
    }

    /// SHOOT does something (not in league 1).
    pub fn allows_shoot(self) -> bool {
        self.0 != 1
    }

    /// THROW does something (from league 4 on).
    pub fn allows_throw(self) -> bool {
        self.0 >= 4
    }

    /// HUNKER_DOWN (and WAIT) does something (league 5 only).
    pub fn allows_hunker(self) -> bool {
        self.0 == 5
    }

    /// Tiles are controlled and points scored (league 5 only).
    pub fn has_territory(self) -> bool {
        self.0 == 5
    }

    /// League 1 has no opponent at all: only red is ever asked.
    pub fn one_player(self) -> bool {
        self.0 == 1
    }

    /// Leagues 2–4: the opponent answers after red and is first told red's orders of the turn
    /// (the original's boss is part of the referee and reacts to them).
    pub fn opponent_follows(self) -> bool {
        (2..=4).contains(&self.0)
    }

    /// The seed draws something: every league but league 1, whose scenario is fixed.
    pub fn uses_seed(self) -> bool {
        self.0 != 1
    }
}

/// What red must achieve in a tutorial league.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Objective {
    /// League 5: no objective, points decide.
    None,
    /// League 1: one agent on each of these tiles (either way round).
    Reach([Coord; 2]),
    /// League 2: every turn, both agents shoot the wettest enemy; the team left wins.
    Wettest,
    /// League 3: in the one turn, the first agent steps to `run[0]` and the second to `run[1]`
    /// (beside the high cover), and they shoot the enemies on `gun[0]` and `gun[1]` (the ones
    /// behind the weaker cover).
    RunAndGun { run: [Coord; 2], gun: [Coord; 2] },
    /// League 4: every enemy in the three bunkers without a red agent is soaked.
    Bunkers { hitlist: Vec<i32> },
}

/// A tutorial scenario: its grid, its agents in list order (red's first) and its objective.
pub struct Scenario {
    pub grid: Grid,
    pub agents: Vec<Agent>,
    pub objective: Objective,
}

/// An empty grid of floor tiles.
fn empty(width: i32, height: i32) -> Grid {
    Grid {
        width,
        height,
        tiles: vec![FLOOR; (width * height) as usize],
        y_sym: false,
        spawns: Vec::new(),
    }
}

fn set(grid: &mut Grid, x: i32, y: i32, tile: u8) {
    let i = grid.index(Coord::new(x, y));
    grid.tiles[i] = tile;
}

/// The tutorial agents are all snipers with their numbers changed: cooldown 0, no bomb unless
/// said otherwise.
fn sniper(id: i32, owner: usize, at: Coord, power: i32) -> Agent {
    let mut a = Agent::new(id, owner, Class::Sniper, at);
    a.shoot_cooldown = 0;
    a.soaking_power = power;
    a.bombs = 0;
    a
}

/// `cover` if `low` else high cover.
fn low_or_high(low: bool) -> u8 {
    if low {
        LOW_COVER
    } else {
        HIGH_COVER
    }
}

/// The scenario of a tutorial league (1–4) for a seed; `None` for the full game.
pub fn scenario(league: League, seed: i64) -> Option<Scenario> {
    match league.0 {
        1 => Some(league_1()),
        2 => Some(league_2(&mut Sha1Prng::new(seed))),
        3 => Some(league_3(&mut Sha1Prng::new(seed))),
        4 => Some(league_4(&mut Sha1Prng::new(seed))),
        _ => None,
    }
}

/// Wood 4: an empty 8 × 5 grid, two red snipers at (0,0) and (0,4) (power 24, range 6), no
/// opponent. Objective: one agent on (6,1) and the other on (6,3).
fn league_1() -> Scenario {
    let agents = vec![
        sniper(1, 0, Coord::new(0, 0), 24),
        sniper(2, 0, Coord::new(0, 4), 24),
    ];
    Scenario {
        grid: empty(8, 5),
        agents,
        objective: Objective::Reach([Coord::new(6, 1), Coord::new(6, 3)]),
    }
}

/// Wood 3: an empty 8 × 5 grid; red's snipers 1 and 2 (power 50) at (3,2) and (4,2) face four
/// blue snipers (power 100) at (2,1), (2,3), (5,1), (5,3) with wetness 90, 80, 70, 60. Blue's
/// ids 3–6 are shuffled over those places (one `Collections.shuffle` of the four): blue's agents
/// are listed in place order, so not by id.
fn league_2(rng: &mut Sha1Prng) -> Scenario {
    let mut agents = vec![
        sniper(1, 0, Coord::new(3, 2), 50),
        sniper(2, 0, Coord::new(4, 2), 50),
    ];
    let mut ids = [3, 4, 5, 6];
    rng.shuffle(&mut ids);
    let places = [(2, 1), (2, 3), (5, 1), (5, 3)];
    for (k, (&id, &(x, y))) in ids.iter().zip(places.iter()).enumerate() {
        let mut a = sniper(id, 1, Coord::new(x, y), 100);
        a.wetness = 90 - 10 * k as i32;
        agents.push(a);
    }
    Scenario {
        grid: empty(8, 5),
        agents,
        objective: Objective::Wettest,
    }
}

/// Wood 2: a 13 × 5 grid. Red's snipers 1 at (0,2) and 2 at (12,2) (power 50, range 6); blue's
/// snipers 3 at (4,1), 4 at (4,3), 5 at (8,1), 6 at (8,3) (power 100). Covers, drawn in this
/// order: beside each red agent a low and a high cover above and below it (which is which:
/// one draw per side); a defence for blue (low cover or nothing: one draw); in front of each
/// pair of blue agents that defence on one of them and high cover on the other (one draw per
/// side); then, each on a draw, high covers at (6,1) and (6,3), and low/high pairs at (4,2)/(8,2),
/// (4,0)/(8,0) and (4,4)/(8,4) (a second draw says which side gets the low one).
fn league_3(rng: &mut Sha1Prng) -> Scenario {
    let w = 13;
    let mut grid = empty(w, 5);
    let mut agents = vec![
        sniper(1, 0, Coord::new(0, 2), 50),
        sniper(2, 0, Coord::new(w - 1, 2), 50),
    ];
    for (k, (x, y)) in [(4, 1), (4, 3), (w - 5, 1), (w - 5, 3)]
        .into_iter()
        .enumerate()
    {
        agents.push(sniper(3 + k as i32, 1, Coord::new(x, y), 100));
    }
    let t = rng.next_boolean();
    set(&mut grid, 1, 1, low_or_high(t));
    set(&mut grid, 1, 3, low_or_high(!t));
    let t = rng.next_boolean();
    set(&mut grid, w - 2, 1, low_or_high(t));
    set(&mut grid, w - 2, 3, low_or_high(!t));
    let defence = if rng.next_boolean() { LOW_COVER } else { FLOOR };
    for x in [3, w - 4] {
        let t = rng.next_boolean();
        set(&mut grid, x, 1, if t { defence } else { HIGH_COVER });
        set(&mut grid, x, 3, if t { HIGH_COVER } else { defence });
    }
    if rng.next_boolean() {
        set(&mut grid, w / 2, 1, HIGH_COVER);
        set(&mut grid, w / 2, 3, HIGH_COVER);
    }
    for y in [2, 0, 4] {
        if rng.next_boolean() {
            let t = rng.next_boolean();
            set(&mut grid, 4, y, low_or_high(t));
            set(&mut grid, w - 5, y, low_or_high(!t));
        }
    }
    let (run, gun) = run_and_gun_spots(&grid);
    Scenario {
        grid,
        agents,
        objective: Objective::RunAndGun { run, gun },
    }
}

/// League 3's objective on its grid (Wood 2): where red's two agents must stand, behind the
/// high cover beside each, and the tiles they must shoot at, the blue agents behind the weaker
/// cover in front of each; red's first agent first. The bots read it off the grid as well.
pub fn run_and_gun_spots(grid: &Grid) -> ([Coord; 2], [Coord; 2]) {
    let w = grid.width;
    let high = |x: i32| grid.tile(Coord::new(x, 1)) == HIGH_COVER;
    let run = [
        Coord::new(0, if high(1) { 1 } else { 3 }),
        Coord::new(w - 1, if high(w - 2) { 1 } else { 3 }),
    ];
    let gun = [
        Coord::new(4, if high(3) { 3 } else { 1 }),
        Coord::new(w - 5, if high(w - 4) { 3 } else { 1 }),
    ];
    (run, gun)
}

/// Wood 1: a 15 × 12 or 17 × 12 grid (one draw) with four bunkers: 5 × 5 rings of high cover
/// centred on (2,2), (2,9), (w−3,2) and (w−3,9). Red has two snipers with wetness 70, power
/// 10, range 1: the first with 3 bombs at (w/2, 6), the second with 1 bomb (one draw swaps
/// their ids 1 and 2). Four enemy counts (5–7, 4–6, 7, 7–10; three draws, then shuffled) give
/// the number of blue snipers in each bunker (at most 9 fit): wetness 70, power 200, range 64.
/// The bunker with the smallest count (the last one on a tie) also holds red's second agent.
/// Each bunker's cells are visited in a shuffled order of x offsets (outer) and y offsets
/// (inner), each a shuffle of −2..2: the ring gets high cover, the inner cells red's agent
/// first (in its bunker) and then blue's agents, ids from 3 in that order.
fn league_4(rng: &mut Sha1Prng) -> Scenario {
    let w = if rng.next_boolean() { 15 } else { 17 };
    let h = 12;
    let mut grid = empty(w, h);
    let mut red: Vec<Agent> = (0..2)
        .map(|i| {
            let mut a = sniper(i + 1, 0, Coord::new(w / 2, h / 2 - i), 10);
            a.wetness = 70;
            a.optimal_range = 1;
            a.bombs = if i == 0 { 3 } else { 1 };
            a
        })
        .collect();
    if rng.next_boolean() {
        red[0].id = 2;
        red[1].id = 1;
    }
    let first = rng.next_int_bounded(3) + 5;
    let second = rng.next_int_bounded(3) + 4;
    let fourth = rng.next_int_bounded(4) + 7;
    let mut counts = [first, second, 7, fourth];
    rng.shuffle(&mut counts);
    // `reduce((i, j) -> c[i] < c[j] ? i : j)`: a tie goes to the later bunker.
    let trapped = (1..4).fold(0, |i, j| if counts[i] < counts[j] { i } else { j });
    let mut blue = Vec::new();
    let mut hitlist = Vec::new();
    let mut next_id = 3;
    for (i, &count) in counts.iter().enumerate() {
        let mut count = count;
        let bx = 2 + (w - 5) * (i as i32 / 2);
        let by = 2 + (h - 5) * (i as i32 % 2);
        let mut placed = false;
        let mut xs = [-2, -1, 0, 1, 2];
        let mut ys = [-2, -1, 0, 1, 2];
        rng.shuffle(&mut xs);
        rng.shuffle(&mut ys);
        for x in xs {
            for y in ys {
                let at = Coord::new(bx + x, by + y);
                if x.abs() == 2 || y.abs() == 2 {
                    set(&mut grid, at.x, at.y, HIGH_COVER);
                } else if count > 0 {
                    if i == trapped && !placed {
                        red[1].at = at;
                        placed = true;
                    } else {
                        let mut a = sniper(next_id, 1, at, 200);
                        a.optimal_range = 64;
                        a.wetness = 70;
                        if i != trapped {
                            hitlist.push(next_id);
                        }
                        blue.push(a);
                        next_id += 1;
                        count -= 1;
                    }
                }
            }
        }
    }
    red.extend(blue);
    Scenario {
        grid,
        agents: red,
        objective: Objective::Bunkers { hitlist },
    }
}

/// League 1: red's first and second agents (list order) stand on the two tiles, either way.
pub fn reached(spots: &[Coord; 2], red: &[&Agent]) -> bool {
    match red {
        [a, b, ..] => {
            (a.at == spots[0] && b.at == spots[1]) || (a.at == spots[1] && b.at == spots[0])
        }
        _ => false,
    }
}

/// League 3, as the referee checks it when the game ends: red's first and second agents (list
/// order) both have a move and either both moves' next steps lead to their `run` tiles or both
/// agents stand on them; and both shoot, at agents standing on the `gun` tiles. Next steps are
/// searched from where the agents stand now, with `occupied` marking the tiles taken when the
/// turn's moves began (the referee's path finder keeps the last list it was given).
pub fn run_and_gun(
    grid: &Grid,
    occupied: &[bool],
    run: &[Coord; 2],
    gun: &[Coord; 2],
    red: &[&Agent],
    all: &[Agent],
) -> bool {
    let [a, b, ..] = red else {
        return false;
    };
    let (Some(to_a), Some(to_b)) = (a.orders.to, b.orders.to) else {
        return false;
    };
    let step_a = next_step(grid, occupied, a.at, to_a);
    let step_b = next_step(grid, occupied, b.at, to_b);
    let stepping = step_a == Some(run[0]) && step_b == Some(run[1]);
    let standing = a.at == run[0] && b.at == run[1];
    if !(stepping || standing) {
        return false;
    }
    let target = |agent: &Agent| match agent.orders.combat {
        Some(super::state::Combat::Shoot(id)) => all.iter().find(|t| t.id == id).map(|t| t.at),
        _ => None,
    };
    target(a) == Some(gun[0]) && target(b) == Some(gun[1])
}
