//! The bots' own model of a turn: the grid, every agent with its class numbers, and the rules
//! the bots plan with (shot damage and cover, bomb splash, territory), following
//! the `games` crate's `soak_overflow` module rulebook, "Rules".

use games::soak_overflow::map::Grid;
use games::soak_overflow::{cover_multiplier, range_multiplier, shot_damage};

use super::protocol::{Init, Pos, TurnInput};

/// An agent as the bot sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub id: i32,
    pub mine: bool,
    pub pos: Pos,
    pub cooldown: i32,
    pub bombs: i32,
    pub wetness: i32,
    pub shoot_cooldown: i32,
    pub range: i32,
    pub power: i32,
}

/// A turn's board.
#[derive(Clone, Debug)]
pub struct Board {
    /// The map, as the game's own grid.
    pub grid: Grid,
    /// Every agent on the grid, in input order.
    pub units: Vec<Unit>,
}

impl Board {
    /// The board of a turn; agents missing from the initialisation block get zero numbers.
    pub fn new(init: &Init, turn: &TurnInput) -> Board {
        let units = turn
            .agents
            .iter()
            .map(|a| {
                let class = init.agents.iter().find(|c| c.id == a.id);
                Unit {
                    id: a.id,
                    mine: class.is_some_and(|c| c.player == init.my_id),
                    pos: a.pos,
                    cooldown: a.cooldown,
                    bombs: a.bombs,
                    wetness: a.wetness,
                    shoot_cooldown: class.map_or(0, |c| c.shoot_cooldown),
                    range: class.map_or(0, |c| c.optimal_range),
                    power: class.map_or(0, |c| c.soaking_power),
                }
            })
            .collect();
        Board {
            grid: init.grid(),
            units,
        }
    }

    pub fn inside(&self, p: Pos) -> bool {
        self.grid.inside(p)
    }

    pub fn index(&self, p: Pos) -> usize {
        self.grid.index(p)
    }

    pub fn pos(&self, i: usize) -> Pos {
        self.grid.coord(i)
    }

    pub fn cells(&self) -> usize {
        self.grid.cells()
    }

    /// The tile type; off the grid counts as floor.
    pub fn tile(&self, p: Pos) -> u8 {
        self.grid.tile(p)
    }

    /// A tile an agent can stand on.
    pub fn walkable(&self, p: Pos) -> bool {
        self.inside(p) && self.tile(p) == 0
    }

    /// The inside 4-neighbours, up, right, down, left.
    pub fn neighbours(&self, p: Pos) -> impl Iterator<Item = Pos> + '_ {
        self.grid.neighbours4(p)
    }

    pub fn mine(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.mine)
    }

    pub fn enemies(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| !u.mine)
    }

    /// The `soak_overflow` rulebook, *Shooting*: the cover multiplier of a shot from `from` at `to`
    /// (the game's own rule).
    pub fn cover(&self, from: Pos, to: Pos) -> f64 {
        cover_multiplier(&self.grid, from, to)
    }

    /// The wetness a shot of `power` and optimal `range` from `from` deals at `to` (the game's
    /// own rules); 0 when out of range.
    pub fn shot(&self, power: i32, range: i32, from: Pos, to: Pos, hunkered: bool) -> i32 {
        let Some(r) = range_multiplier(from.manhattan(to), range) else {
            return 0;
        };
        shot_damage(power, r, self.cover(from, to), hunkered).max(0)
    }

    /// Tiles controlled by me and by the opponent with agents at the given positions
    /// (`(position, mine, wetness)`): nearest agents by Manhattan, doubled from wetness 50.
    pub fn territory(&self, agents: &[(Pos, bool, i32)]) -> (i32, i32) {
        let (mut me, mut them) = (0, 0);
        for i in 0..self.cells() {
            let p = self.pos(i);
            let mut best = i32::MAX;
            let (mut mine, mut theirs) = (false, false);
            for &(at, is_mine, wet) in agents {
                let d = at.manhattan(p) * if wet >= 50 { 2 } else { 1 };
                if d < best {
                    best = d;
                    mine = is_mine;
                    theirs = !is_mine;
                } else if d == best {
                    mine |= is_mine;
                    theirs |= !is_mine;
                }
            }
            if mine && !theirs {
                me += 1;
            } else if theirs && !mine {
                them += 1;
            }
        }
        (me, them)
    }

    /// Walking distances (covers block, agents do not) from a tile; `i32::MAX` if unreachable.
    pub fn distances(&self, from: Pos) -> Vec<i32> {
        let mut dist = vec![i32::MAX; self.cells()];
        if !self.walkable(from) {
            return dist;
        }
        let mut queue = std::collections::VecDeque::new();
        dist[self.index(from)] = 0;
        queue.push_back(from);
        while let Some(p) = queue.pop_front() {
            let d = dist[self.index(p)];
            for n in self.neighbours(p) {
                let i = self.index(n);
                if self.walkable(n) && dist[i] == i32::MAX {
                    dist[i] = d + 1;
                    queue.push_back(n);
                }
            }
        }
        dist
    }
}
