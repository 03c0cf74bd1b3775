//! The bot's own model of the board, built from one turn's input and updated as the bot plans its
//! commands, so that each command is checked against the state the earlier ones leave behind.
//! It follows the referee's rules for the reading player's actions (the `games` crate's `ice_and_fire` rulebook,
//! "Rules").
//!
//! Player 0 ([`ME`]) is always the reading bot: the input is written from its side.

use super::protocol::{BuildingKind, Pos, TurnInput, SIZE};

/// Cells are indexed `y * 12 + x`.
pub type Cell = usize;
pub const CELLS: usize = SIZE * SIZE;

pub const ME: usize = 0;
pub const OPPONENT: usize = 1;

// Training cost and upkeep by level (index 0 unused), a building's cost, a mine's income and
// the level that ignores towers and kills anything are the game's own facts.
pub use games::ice_and_fire::{
    BUILDING_COST, CAPTURE_LEVEL, MINE_INCOME, UNIT_COST as COST, UNIT_UPKEEP as UPKEEP,
};
// Activity is the game's own rule.
use games::ice_and_fire::activate_connected;
/// A distance meaning "unreachable".
pub const FAR: u8 = u8::MAX;

pub fn cell(pos: Pos) -> Cell {
    pos.y * SIZE + pos.x
}

pub fn pos(cell: Cell) -> Pos {
    Pos::new(cell % SIZE, cell / SIZE)
}

/// The 4-neighbours of a cell that are on the map, in the order up, right, down, left (the
/// game's own).
pub fn neighbours(c: Cell) -> impl Iterator<Item = Cell> {
    games::ice_and_fire::neighbours(c).into_iter().flatten()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unit {
    pub owner: usize,
    /// 0 for a unit trained this turn (the referee's id is not known yet; it cannot move anyway).
    pub id: u32,
    pub level: u8,
    pub can_move: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Building {
    pub owner: usize,
    pub kind: BuildingKind,
}

#[derive(Clone, Debug)]
pub struct Board {
    pub void: [bool; CELLS],
    pub owner: [Option<usize>; CELLS],
    /// Meaningful for owned cells only: connected to the owner's HQ.
    pub active: [bool; CELLS],
    pub unit: [Option<Unit>; CELLS],
    pub building: [Option<Building>; CELLS],
    pub spot: [bool; CELLS],
    pub gold: [i32; 2],
    pub income: [i32; 2],
    pub hq: [Option<Cell>; 2],
    /// 3, or 1 in the lowest league (where level 1 kills level 1). The input does not say which
    /// league is played; the bot passes its best guess.
    pub max_level: u8,
}

impl Board {
    /// The board as one turn's input describes it.
    pub fn new(spots: &[Pos], input: &TurnInput, max_level: u8) -> Self {
        let mut b = Board {
            void: [false; CELLS],
            owner: [None; CELLS],
            active: [true; CELLS],
            unit: [None; CELLS],
            building: [None; CELLS],
            spot: [false; CELLS],
            gold: [input.gold, input.opponent_gold],
            income: [input.income, input.opponent_income],
            hq: [None; 2],
            max_level,
        };
        for c in 0..CELLS {
            let (owner, active) = match input.at(pos(c)) {
                b'#' => {
                    b.void[c] = true;
                    (None, true)
                }
                b'O' => (Some(ME), true),
                b'o' => (Some(ME), false),
                b'X' => (Some(OPPONENT), true),
                b'x' => (Some(OPPONENT), false),
                _ => (None, true),
            };
            b.owner[c] = owner;
            b.active[c] = active;
        }
        for &p in spots {
            b.spot[cell(p)] = true;
        }
        for line in &input.buildings {
            let c = cell(line.pos);
            b.building[c] = Some(Building {
                owner: line.owner,
                kind: line.kind,
            });
            if line.kind == BuildingKind::Hq {
                b.hq[line.owner] = Some(c);
            }
        }
        for line in &input.units {
            b.unit[cell(line.pos)] = Some(Unit {
                owner: line.owner,
                id: line.id,
                level: line.level,
                can_move: line.owner == ME,
            });
        }
        // The displayed income can be stale after a bankruptcy (rulebook, "Rules": bankruptcy); recompute it.
        b.refresh();
        b
    }

    pub fn owned_active(&self, c: Cell, p: usize) -> bool {
        self.owner[c] == Some(p) && self.active[c]
    }

    fn tower_of(&self, c: Cell, p: usize) -> bool {
        self.building[c].is_some_and(|b| b.owner == p && b.kind == BuildingKind::Tower)
    }

    /// Whether a cell is shielded by a tower of its owner (only level 3 may take it).
    pub fn protected(&self, c: Cell) -> bool {
        let Some(o) = self.owner[c] else {
            return false;
        };
        self.active[c]
            && (self.tower_of(c, o)
                || neighbours(c).any(|n| self.owned_active(n, o) && self.tower_of(n, o)))
    }

    /// Whether player `p` may train on, build on or act from this cell's neighbourhood: an own
    /// active cell or one 4-adjacent to it.
    pub fn playable(&self, c: Cell, p: usize) -> bool {
        !self.void[c] && (self.owned_active(c, p) || neighbours(c).any(|n| self.owned_active(n, p)))
    }

    /// Whether a unit of player `p` at `level` may enter (or be trained on) a cell (rulebook, "Rules": moving and training).
    pub fn capturable(&self, c: Cell, p: usize, level: u8) -> bool {
        if self.void[c] {
            return false;
        }
        let foreign = self.owner[c].is_some_and(|o| o != p);
        if foreign && level < CAPTURE_LEVEL && self.protected(c) {
            return false;
        }
        if self.owner[c] != Some(p) && level < CAPTURE_LEVEL && self.tower_of_anyone(c) {
            return false;
        }
        match (self.unit[c], self.building[c]) {
            (None, None) => true,
            _ if self.owner[c] == Some(p) => false,
            (Some(u), _) => level == self.max_level || level > u.level,
            (None, Some(_)) => true,
        }
    }

    fn tower_of_anyone(&self, c: Cell) -> bool {
        self.building[c].is_some_and(|b| b.kind == BuildingKind::Tower)
    }

    pub fn can_train(&self, level: u8, c: Cell) -> bool {
        (1..=self.max_level).contains(&level)
            && self.playable(c, ME)
            && self.gold[ME] >= COST[level as usize]
            && self.capturable(c, ME, level)
    }

    /// Trains a unit of mine; returns false (and changes nothing) if the referee would refuse.
    pub fn train(&mut self, level: u8, c: Cell) -> bool {
        if !self.can_train(level, c) {
            return false;
        }
        self.gold[ME] -= COST[level as usize];
        let taken = self.capture(c, ME);
        self.unit[c] = Some(Unit {
            owner: ME,
            id: 0,
            level,
            can_move: false,
        });
        self.refresh_after(taken);
        true
    }

    /// Whether my unit at `from` may step to the adjacent cell `to`.
    pub fn can_move(&self, from: Cell, to: Cell) -> bool {
        let Some(u) = self.unit[from] else {
            return false;
        };
        u.owner == ME
            && u.can_move
            && neighbours(from).any(|n| n == to)
            && self.capturable(to, ME, u.level)
    }

    /// Moves my unit one step; returns false (and changes nothing) if the referee would refuse.
    pub fn move_unit(&mut self, from: Cell, to: Cell) -> bool {
        if !self.can_move(from, to) {
            return false;
        }
        let Some(mut u) = self.unit[from].take() else {
            return false;
        };
        u.can_move = false;
        let taken = self.capture(to, ME);
        self.unit[to] = Some(u);
        self.refresh_after(taken);
        true
    }

    /// Whether I may build here. The league is not checked (the input does not tell it).
    pub fn can_build(&self, kind: BuildingKind, c: Cell) -> bool {
        let spot_ok = match kind {
            BuildingKind::Mine => self.spot[c],
            BuildingKind::Tower => !self.spot[c],
            BuildingKind::Hq => false,
        };
        spot_ok
            && self.owned_active(c, ME)
            && self.unit[c].is_none()
            && self.building[c].is_none()
            && self.gold[ME] >= BUILDING_COST
    }

    pub fn build(&mut self, kind: BuildingKind, c: Cell) -> bool {
        if !self.can_build(kind, c) {
            return false;
        }
        self.gold[ME] -= BUILDING_COST;
        self.building[c] = Some(Building { owner: ME, kind });
        self.refresh_income();
        true
    }

    /// Player `p` takes a cell: an enemy unit there dies, an enemy building other than the HQ is
    /// destroyed. Activity and incomes are not refreshed here. Returns whether the cell changed
    /// owner.
    pub fn capture(&mut self, c: Cell, p: usize) -> bool {
        if self.unit[c].is_some_and(|u| u.owner != p) {
            self.unit[c] = None;
        }
        if self.building[c].is_some_and(|b| b.owner != p && b.kind != BuildingKind::Hq) {
            self.building[c] = None;
        }
        let taken = self.owner[c] != Some(p);
        self.owner[c] = Some(p);
        taken
    }

    /// [`Board::refresh`] after a move or a training: activity depends on the owners alone, so
    /// it is recomputed only when a cell changed owner (`taken`).
    fn refresh_after(&mut self, taken: bool) {
        if taken {
            self.refresh_activity();
        }
        self.refresh_income();
    }

    /// Recomputes both players' active cells, then both incomes (as the referee after a move or
    /// a training).
    pub fn refresh(&mut self) {
        self.refresh_activity();
        self.refresh_income();
    }

    /// Active = connected to the owner's HQ through the owner's cells (4-neighbours).
    pub fn refresh_activity(&mut self) {
        for c in 0..CELLS {
            self.active[c] = self.owner[c].is_none();
        }
        for p in [ME, OPPONENT] {
            let Some(hq) = self.hq[p] else { continue };
            if self.owner[hq] != Some(p) {
                continue;
            }
            activate_connected(&self.owner, &mut self.active, hq, p);
        }
    }

    /// Both incomes: active cells + 4 per active mine − upkeep of the units on active cells
    /// (rulebook, "Rules": territory), in one pass over the board.
    pub fn refresh_income(&mut self) {
        let mut income = [0; 2];
        for c in 0..CELLS {
            let Some(p) = self.owner[c].filter(|&p| p < 2 && self.active[c]) else {
                continue;
            };
            income[p] += 1;
            if self.building[c].is_some_and(|b| b.owner == p && b.kind == BuildingKind::Mine) {
                income[p] += MINE_INCOME;
            }
            if let Some(u) = self.unit[c].filter(|u| u.owner == p) {
                income[p] -= UPKEEP[u.level as usize];
            }
        }
        self.income = income;
    }

    pub fn active_count(&self, p: usize) -> i32 {
        (0..CELLS).filter(|&c| self.owned_active(c, p)).count() as i32
    }

    /// Whether I own the opponent's HQ cell (the game is won).
    pub fn won(&self) -> bool {
        self.hq[OPPONENT].is_some_and(|hq| self.owner[hq] == Some(ME))
    }

    /// The cells holding a unit of player `p`, in cell order.
    pub fn units_of(&self, p: usize) -> impl Iterator<Item = Cell> + '_ {
        (0..CELLS).filter(move |&c| self.unit[c].is_some_and(|u| u.owner == p))
    }

    /// Walking distances (4-neighbours, through every non-void cell) from the nearest source.
    pub fn distances(&self, sources: impl IntoIterator<Item = Cell>) -> [u8; CELLS] {
        let mut dist = [FAR; CELLS];
        let mut queue = std::collections::VecDeque::new();
        for s in sources {
            if !self.void[s] && dist[s] == FAR {
                dist[s] = 0;
                queue.push_back(s);
            }
        }
        while let Some(c) = queue.pop_front() {
            for n in neighbours(c) {
                if !self.void[n] && dist[n] == FAR {
                    dist[n] = dist[c] + 1;
                    queue.push_back(n);
                }
            }
        }
        dist
    }
}
