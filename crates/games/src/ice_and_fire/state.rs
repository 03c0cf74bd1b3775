//! The board and the rules that change it: activity, income, capturability, TRAIN, BUILD, MOVE
//! with its pathfinding, and the start of a turn (rulebook: *Rules*, *End and scoring*).
//!
//! Every method here is total: an impossible request is an `Err` with the reason in words,
//! never a panic.

use std::sync::Arc;

use super::events::{Event, Taken};
use super::map::{idx, neighbours, xy, Map, ADJACENT, CELLS, HEIGHT, NONE, UNREACHABLE, WIDTH};

/// Rulebook, *Facts*: two players.
pub const PLAYERS: usize = 2;
/// The players' colours, by seat: p0 is red, p1 is blue (rulebook: *Facts*).
pub const NAMES: [&str; PLAYERS] = ["red", "blue"];
/// Rulebook, *Facts*: starting gold.
pub const START_GOLD: i32 = 20;
/// Rulebook, *Facts* / *Territory*: income per owned active cell.
pub const CELL_INCOME: i32 = 1;
/// Rulebook, *Facts* / *Territory*: extra income per own mine on an active cell.
pub const MINE_INCOME: i32 = 4;
/// Rulebook, *Facts*: training cost by level (index 0 unused).
pub const UNIT_COST: [i32; 4] = [0, 10, 20, 30];
/// Rulebook, *Facts*: upkeep by level (index 0 unused).
pub const UNIT_UPKEEP: [i32; 4] = [0, 1, 4, 20];
/// Rulebook, *Facts*: the level that ignores tower protection and destroys towers.
pub const CAPTURE_LEVEL: u8 = 3;
/// Rulebook, *Facts*: a MINE or a TOWER costs a flat 15 gold (`develop`: `ec2150b`).
pub const BUILDING_COST: i32 = 15;
/// Rulebook, *Facts*: the HQs, p0 at (0,0) and p1 at (11,11).
pub const HQ_CELLS: [(usize, usize); PLAYERS] = [(0, 0), (WIDTH - 1, HEIGHT - 1)];
/// Rulebook, *Facts*: p1 also owns (11,10) at the start.
pub const BLUE_EXTRA_CELL: (usize, usize) = (WIDTH - 1, HEIGHT - 2);

/// Marks `start` active, and every inactive cell owned by `seat` connected to it through such
/// cells (rulebook: *Territory*): a walk over the owners alone, which the built-in bots' board
/// takes too.
pub fn activate_connected(
    owner: &[Option<usize>; CELLS],
    active: &mut [bool; CELLS],
    start: usize,
    seat: usize,
) {
    // A depth-first walk; each cell enters the stack at most once.
    let mut stack = [0usize; CELLS];
    stack[0] = start;
    let mut len = 1;
    active[start] = true;
    while len > 0 {
        len -= 1;
        let c = stack[len];
        for &n in &ADJACENT[c] {
            if n != NONE && owner[n] == Some(seat) && !active[n] {
                active[n] = true;
                stack[len] = n;
                len += 1;
            }
        }
    }
}

/// A league: 1 = Wood 3, 2 = Wood 2, 3 = Wood 1, 4 = Bronze and up (rulebook: *Leagues (rulesets)*).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct League(pub u8);

impl League {
    /// Rulebook, *Leagues (rulesets)* / *Rules*: the highest trainable level, which also "kills anything" (1 in Wood 3).
    pub fn max_level(self) -> u8 {
        if self.0 <= 1 {
            1
        } else {
            3
        }
    }

    /// Rulebook, *Leagues (rulesets)*: mine spots and BUILD MINE from Wood 1.
    pub fn has_mines(self) -> bool {
        self.0 >= 3
    }

    /// Rulebook, *Leagues (rulesets)*: BUILD TOWER from Bronze.
    pub fn has_towers(self) -> bool {
        self.0 >= 4
    }
}

/// Building types with their protocol codes (rulebook: *Facts*: HQ 0, MINE 1, TOWER 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum BuildingKind {
    Hq,
    Mine,
    Tower,
}

impl BuildingKind {
    /// The protocol code (rulebook: *Facts*).
    pub fn code(self) -> u8 {
        match self {
            BuildingKind::Hq => 0,
            BuildingKind::Mine => 1,
            BuildingKind::Tower => 2,
        }
    }

    /// The protocol word.
    pub fn word(self) -> &'static str {
        match self {
            BuildingKind::Hq => "HQ",
            BuildingKind::Mine => "MINE",
            BuildingKind::Tower => "TOWER",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Building {
    pub owner: usize,
    pub kind: BuildingKind,
    pub cell: usize,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub owner: usize,
    pub id: i32,
    pub level: u8,
    pub cell: usize,
    /// Moved this turn (rulebook: *Rules*, MOVE).
    pub moved: bool,
    /// Trained this turn: cannot move (rulebook: *Facts*).
    pub fresh: bool,
}

/// The state of the board: territory, buildings, units, gold.
#[derive(Clone, Debug)]
pub struct Board {
    pub league: League,
    pub map: Arc<Map>,
    /// Per cell: the owning seat, `None` for neutral and void cells.
    pub owner: [Option<usize>; CELLS],
    /// Per cell: connected to its owner's HQ (rulebook: *Territory*). Neutral cells are always "active" (rulebook: *Territory*).
    pub active: [bool; CELLS],
    /// Every building; the two HQs are never removed (rulebook: *Rules*).
    pub buildings: Vec<Building>,
    /// Every living unit, in id order.
    pub units: Vec<Unit>,
    pub gold: [i32; PLAYERS],
    pub income: [i32; PLAYERS],
    /// The next unit id: one counter for both players, from 1 (rulebook: *Facts*).
    pub next_id: i32,
    /// Per cell: the level of the unit on it, 0 for none. An index of `units` (at most one unit
    /// stands on a cell), kept by every change of `units` (see [`Board::reindex`]).
    unit_here: [u8; CELLS],
    /// Per cell: the code of the building on it plus 1, 0 for none; an index of `buildings`
    /// (at most one building stands on a cell), kept as `unit_here`.
    building_here: [u8; CELLS],
}

/// What a successful action reports.
pub type Done = Result<Event, String>;

/// [`Board::building_here`] of a tower.
const TOWER_HERE: u8 = 3;

impl Board {
    /// The board at the start of a match (rulebook: *Map generation* step 10, *Facts*), incomes computed.
    pub fn new(map: Arc<Map>, league: League) -> Board {
        let mut board = Board {
            league,
            map,
            owner: [None; CELLS],
            active: [true; CELLS],
            buildings: Vec::new(),
            units: Vec::new(),
            gold: [START_GOLD; PLAYERS],
            income: [0; PLAYERS],
            next_id: 1,
            unit_here: [0; CELLS],
            building_here: [0; CELLS],
        };
        for (seat, &(x, y)) in HQ_CELLS.iter().enumerate() {
            board.owner[idx(x, y)] = Some(seat);
            board.buildings.push(Building {
                owner: seat,
                kind: BuildingKind::Hq,
                cell: idx(x, y),
            });
        }
        board.owner[idx(BLUE_EXTRA_CELL.0, BLUE_EXTRA_CELL.1)] = Some(1);
        board.reindex();
        board.compute_activity();
        board.compute_incomes();
        board
    }

    /// Whether `(x, y)` is on the map and not void (the check made when a line is read: rulebook, *Protocol*).
    pub fn inside(&self, x: i32, y: i32) -> bool {
        (0..WIDTH as i32).contains(&x)
            && (0..HEIGHT as i32).contains(&y)
            && !self.map.void[idx(x as usize, y as usize)]
    }

    /// Writes the per-cell indexes of units and buildings from the lists (after the lists
    /// were set by hand, as tests set up positions).
    pub fn reindex(&mut self) {
        self.unit_here = [0; CELLS];
        for u in &self.units {
            self.unit_here[u.cell] = u.level.max(1);
        }
        self.building_here = [0; CELLS];
        for b in &self.buildings {
            self.building_here[b.cell] = b.kind.code() + 1;
        }
    }

    /// Whether the per-cell indexes are what [`Board::reindex`] writes from the lists, and
    /// every id finds by [`Board::unit_by_id`] the unit a scan of the list finds.
    #[cfg(test)]
    pub fn indexes_agree(&self) -> bool {
        let mut again = self.clone();
        again.reindex();
        again.unit_here == self.unit_here
            && again.building_here == self.building_here
            && (0..=self.next_id)
                .all(|id| self.unit_by_id(id) == self.units.iter().find(|u| u.id == id))
    }

    /// The unit on cell `c`: looked for in the list only when the index says there is one.
    pub fn unit_at(&self, c: usize) -> Option<&Unit> {
        if self.unit_here[c] == 0 {
            return None;
        }
        self.units.iter().find(|u| u.cell == c)
    }

    /// The position in `units` of the living unit `id`: the list is in id order (units are
    /// trained with ever greater ids and pushed at its end, and only removed from it), so a
    /// binary search finds what a scan would.
    fn unit_index(&self, id: i32) -> Option<usize> {
        debug_assert!(self.units.windows(2).all(|w| w[0].id < w[1].id));
        self.units.binary_search_by_key(&id, |u| u.id).ok()
    }

    pub fn unit_by_id(&self, id: i32) -> Option<&Unit> {
        self.unit_index(id).map(|i| &self.units[i])
    }

    /// The building on cell `c` (looked for only when the index says there is one).
    pub fn building_at(&self, c: usize) -> Option<&Building> {
        if self.building_here[c] == 0 {
            return None;
        }
        self.buildings.iter().find(|b| b.cell == c)
    }

    /// The HQ cell of a seat.
    pub fn hq_cell(&self, seat: usize) -> usize {
        self.buildings
            .iter()
            .find(|b| b.kind == BuildingKind::Hq && b.owner == seat)
            .map_or_else(
                || idx(HQ_CELLS[seat % PLAYERS].0, HQ_CELLS[seat % PLAYERS].1),
                |b| b.cell,
            )
    }

    fn owned_active(&self, c: usize, seat: usize) -> bool {
        self.owner[c] == Some(seat) && self.active[c]
    }

    /// Rulebook, *Territory*: BFS from each HQ over 4-neighbours owned by the same player. Owned cells not
    /// reached are inactive; neutral cells keep the flag set (rulebook: *Territory*).
    ///
    /// Activity depends on the owners alone, so TRAIN and MOVE update it only when they
    /// change a cell's owner (see [`Board::activity_after_taking`]): the original recomputes
    /// after every action, with the same result.
    pub fn compute_activity(&mut self) {
        for c in 0..CELLS {
            self.active[c] = self.owner[c].is_none();
        }
        for seat in 0..PLAYERS {
            self.activate_from_hq(seat);
        }
    }

    /// The seat's cells connected to its HQ (while it owns its HQ cell) become active; the
    /// others are left as they are.
    fn activate_from_hq(&mut self, seat: usize) {
        let hq = self.hq_cell(seat);
        if self.owner[hq] == Some(seat) {
            self.activate_from(hq, seat);
        }
    }

    /// Marks `start` active, and every inactive cell of `seat` connected to it through such
    /// cells.
    fn activate_from(&mut self, start: usize, seat: usize) {
        activate_connected(&self.owner, &mut self.active, start, seat);
    }

    /// Activity after `seat` took cell `c` from `before` (its owner until then, `None` for a
    /// neutral cell): what [`Board::compute_activity`] would find, visiting only what can
    /// change. Activity is each player's cells reachable from its HQ, so:
    /// - the loser's reachable cells change only if `c` was one of them (then its cells are
    ///   walked again from its HQ), and not even then when `c` was not its HQ and
    ///   [`Board::bypassable`]: every path through `c` has a way round it;
    /// - the taker's grow by `c` and what `c` connects, if `c` touches one of them (a path
    ///   from the HQ to `c` enters it from such a neighbour) or is its HQ cell;
    /// - every other cell keeps its activity.
    fn activity_after_taking(&mut self, c: usize, seat: usize, before: Option<usize>) {
        if let Some(loser) = before.filter(|&l| l != seat) {
            if self.active[c] && (c == self.hq_cell(loser) || !self.bypassable(c, loser)) {
                for cell in 0..CELLS {
                    if self.owner[cell] == Some(loser) {
                        self.active[cell] = false;
                    }
                }
                self.activate_from_hq(loser);
            }
        }
        self.active[c] = false;
        let joins = c == self.hq_cell(seat)
            || ADJACENT[c]
                .iter()
                .any(|&n| n != NONE && self.owned_active(n, seat));
        if joins {
            self.activate_from(c, seat);
        }
    }

    /// Whether `loser`'s cells 4-adjacent to `c` are joined by its cells among the 8 around
    /// `c`: a path of its cells that enters `c` from one of them and leaves to another can
    /// then go round `c` instead, so losing `c` cuts no cell off from its HQ. The 8 cells in
    /// turn around `c` are each 4-adjacent to the next, so a run of the loser's cells in that
    /// ring is joined; the 4-neighbours sit at the even places of the ring.
    fn bypassable(&self, c: usize, loser: usize) -> bool {
        const RING: [(i32, i32); 8] = [
            (0, -1),
            (1, -1),
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
        ];
        let (x, y) = xy(c);
        let owned = RING.map(|(dx, dy)| {
            let (nx, ny) = (x as i32 + dx, y as i32 + dy);
            (0..WIDTH as i32).contains(&nx)
                && (0..HEIGHT as i32).contains(&ny)
                && self.owner[idx(nx as usize, ny as usize)] == Some(loser)
        });
        // Start after a place that is not the loser's: every run then ends within the turn.
        let Some(start) = owned.iter().position(|&o| !o) else {
            return true;
        };
        let mut runs_with_neighbours = 0;
        let mut neighbour_in_run = false;
        for k in 1..=RING.len() {
            let i = (start + k) % RING.len();
            if owned[i] {
                neighbour_in_run |= i & 1 == 0;
            } else {
                runs_with_neighbours += usize::from(neighbour_in_run);
                neighbour_in_run = false;
            }
        }
        runs_with_neighbours <= 1
    }

    /// Rulebook, *Territory*, both players (recomputed when *A player's turn* and *Rules* say): active cells + 4 per mine on an
    /// active cell − the upkeep of units on active cells.
    pub fn compute_incomes(&mut self) {
        let mut income = [0; PLAYERS];
        for c in 0..CELLS {
            if let Some(seat) = self.owner[c] {
                if self.active[c] && seat < PLAYERS {
                    income[seat] += CELL_INCOME;
                }
            }
        }
        for b in &self.buildings {
            if b.kind == BuildingKind::Mine && self.owned_active(b.cell, b.owner) {
                income[b.owner % PLAYERS] += MINE_INCOME;
            }
        }
        for u in &self.units {
            if self.owned_active(u.cell, u.owner) {
                income[u.owner % PLAYERS] -= UNIT_UPKEEP[usize::from(u.level.min(3))];
            }
        }
        self.income = income;
    }

    /// Rulebook, *Rules*, TRAIN, its first condition: owned and active, or 4-adjacent to an owned active cell.
    pub fn playable(&self, c: usize, seat: usize) -> bool {
        !self.map.void[c]
            && (self.owned_active(c, seat)
                || ADJACENT[c]
                    .iter()
                    .any(|&n| n != NONE && self.owned_active(n, seat)))
    }

    fn has_tower(&self, c: usize) -> bool {
        self.building_here[c] == TOWER_HERE
    }

    /// Rulebook, *Taking a cell*: a tower on the cell, or on an active 4-neighbour of the cell's owner. Neutral
    /// cells are never protected.
    pub fn protected(&self, c: usize) -> bool {
        let Some(owner) = self.owner[c] else {
            return false;
        };
        self.has_tower(c)
            || ADJACENT[c]
                .iter()
                .any(|&n| n != NONE && self.owned_active(n, owner) && self.has_tower(n))
    }

    /// Rulebook, *Taking a cell*: the capturability of cell `c` by a unit of `seat` at `level`; the first rule that
    /// matches decides.
    pub fn capturable(&self, c: usize, seat: usize, level: u8) -> bool {
        if self.map.void[c] {
            return false;
        }
        let foreign = self.owner[c] != Some(seat);
        // Rule 1.
        if foreign && self.active[c] && self.protected(c) && level < CAPTURE_LEVEL {
            return false;
        }
        // Rule 2: also towers on inactive cells.
        if foreign && self.has_tower(c) && level < CAPTURE_LEVEL {
            return false;
        }
        // The level of the unit on the cell, 0 for none (a unit's level is at least 1).
        let unit = self.unit_here[c];
        // Rule 3.
        if unit == 0 && self.building_here[c] == 0 {
            return true;
        }
        // Rule 4.
        if !foreign {
            return false;
        }
        // Rule 5.
        if unit != 0 && level != self.league.max_level() && level <= unit {
            return false;
        }
        // Rule 6.
        true
    }

    /// Takes cell `c` for `seat`: kills the unit there, destroys a non-HQ building, changes
    /// the owner (rulebook: *Taking a cell*). Returns what happened besides.
    fn capture(&mut self, c: usize, seat: usize) -> Taken {
        let mut taken = Taken::default();
        if self.unit_here[c] != 0 {
            if let Some(i) = self.units.iter().position(|u| u.cell == c) {
                let u = self.units.remove(i);
                self.unit_here[c] = 0;
                taken.killed = Some((u.owner, u.level, u.id));
            }
        }
        if self.building_here[c] != 0 {
            if let Some(i) = self.buildings.iter().position(|b| b.cell == c) {
                let b = &self.buildings[i];
                if b.kind == BuildingKind::Hq {
                    if b.owner != seat {
                        taken.building = Some((b.owner, b.kind));
                    }
                } else {
                    let b = self.buildings.remove(i);
                    self.building_here[c] = 0;
                    taken.building = Some((b.owner, b.kind));
                }
            }
        }
        self.owner[c] = Some(seat);
        taken
    }

    /// Rulebook, *Rules*, BUILD, checked in the referee's order; the incomes are recomputed
    /// after it, as the referee does after each action (the tests' way to run one action).
    #[cfg(test)]
    pub fn build(&mut self, seat: usize, kind: BuildingKind, x: i32, y: i32) -> Done {
        self.then_incomes(|b| b.build_leaving_incomes(seat, kind, x, y))
    }

    /// Rulebook, *Rules*, MOVE, checked in the referee's order; the incomes are recomputed
    /// after it.
    #[cfg(test)]
    pub fn move_unit(&mut self, seat: usize, id: i32, x: i32, y: i32) -> Done {
        self.then_incomes(|b| b.move_leaving_incomes(seat, id, x, y))
    }

    /// The action, then the incomes when it succeeded (as the referee recomputes them).
    #[cfg(test)]
    fn then_incomes(&mut self, action: impl FnOnce(&mut Board) -> Done) -> Done {
        let done = action(self);
        if done.is_ok() {
            self.compute_incomes();
        }
        done
    }

    /// Rulebook, *Rules*, TRAIN, checked in the referee's order, without the incomes: the
    /// referee recomputes them after each action, but a match runs a line's actions with this
    /// and its two siblings and computes them once after the last (see `IceAndFire::execute`).
    pub fn train_leaving_incomes(&mut self, seat: usize, level: i32, x: i32, y: i32) -> Done {
        let c = self.cell_of(x, y)?;
        if !self.playable(c, seat) {
            return Err(format!(
                "({x},{y}) is not in or next to {}'s active territory",
                name(seat)
            ));
        }
        if level < 1 || level > i32::from(self.league.max_level()) {
            return Err(format!("level {level} cannot be trained in this league"));
        }
        let level = level as u8;
        let cost = UNIT_COST[usize::from(level)];
        if self.gold[seat] < cost {
            return Err(format!(
                "not enough gold ({} for a cost of {cost})",
                self.gold[seat]
            ));
        }
        if !self.capturable(c, seat, level) {
            return Err(format!("a level-{level} unit cannot take ({x},{y})"));
        }
        self.gold[seat] -= cost;
        let before = self.owner[c];
        let taken = self.capture(c, seat);
        let id = self.next_id;
        self.next_id = self.next_id.saturating_add(1);
        self.units.push(Unit {
            owner: seat,
            id,
            level,
            cell: c,
            moved: false,
            fresh: true,
        });
        self.unit_here[c] = level;
        if before != Some(seat) {
            self.activity_after_taking(c, seat, before);
        }
        Ok(Event::Trained {
            seat,
            level,
            id,
            cell: c,
            taken,
        })
    }

    /// Rulebook, *Rules*, BUILD without the incomes (see [`Board::train_leaving_incomes`]).
    pub fn build_leaving_incomes(
        &mut self,
        seat: usize,
        kind: BuildingKind,
        x: i32,
        y: i32,
    ) -> Done {
        let c = self.cell_of(x, y)?;
        if !self.playable(c, seat) {
            return Err(format!(
                "({x},{y}) is not in or next to {}'s active territory",
                name(seat)
            ));
        }
        let allowed = match kind {
            BuildingKind::Mine => self.league.has_mines(),
            BuildingKind::Tower => self.league.has_towers(),
            BuildingKind::Hq => false,
        };
        if !allowed {
            return Err(format!("no {} in this league", kind.word()));
        }
        if self.unit_at(c).is_some() || self.building_at(c).is_some() {
            return Err(format!("({x},{y}) is occupied"));
        }
        if self.owner[c] != Some(seat) {
            return Err(format!("({x},{y}) is not {}'s", name(seat)));
        }
        if self.gold[seat] < BUILDING_COST {
            return Err(format!(
                "not enough gold ({} for a cost of {BUILDING_COST})",
                self.gold[seat]
            ));
        }
        let spot = self.map.spot[c];
        if kind == BuildingKind::Mine && !spot {
            return Err(format!("({x},{y}) is not a mine spot"));
        }
        if kind == BuildingKind::Tower && spot {
            return Err(format!("({x},{y}) is a mine spot: no tower there"));
        }
        self.gold[seat] -= BUILDING_COST;
        self.buildings.push(Building {
            owner: seat,
            kind,
            cell: c,
        });
        self.building_here[c] = kind.code() + 1;
        Ok(Event::Built {
            seat,
            kind,
            cell: c,
        })
    }

    /// Rulebook, *Rules*, MOVE without the incomes (see [`Board::train_leaving_incomes`]).
    pub fn move_leaving_incomes(&mut self, seat: usize, id: i32, x: i32, y: i32) -> Done {
        let target = self.cell_of(x, y)?;
        let Some(unit) = self.unit_by_id(id).filter(|u| u.owner == seat).cloned() else {
            return Err(format!("{} has no unit {id}", name(seat)));
        };
        let from = unit.cell;
        if unit.fresh {
            return Err(format!("unit {id} was trained this turn"));
        }
        if unit.moved {
            return Err(format!("unit {id} has already moved"));
        }
        if manhattan(unit.cell, target) == 1 && !self.capturable(target, seat, unit.level) {
            return Err(format!(
                "unit {id} (level {}) cannot take ({x},{y})",
                unit.level
            ));
        }
        let next = self.next_cell(&unit, target);
        if next == unit.cell {
            return Err(format!(
                "unit {id} stays still: no cell towards ({x},{y}) it can take"
            ));
        }
        let before = self.owner[next];
        let taken = self.capture(next, seat);
        // Found again: the capture may have removed a unit before it in the list.
        if let Some(i) = self.unit_index(id) {
            let u = &mut self.units[i];
            u.cell = next;
            u.moved = true;
            self.unit_here[from] = 0;
            self.unit_here[next] = unit.level;
        }
        if before != Some(seat) {
            self.activity_after_taking(next, seat, before);
        }
        Ok(Event::Moved {
            seat,
            id,
            cell: next,
            taken,
        })
    }

    /// Rulebook, *Rules*, MOVE, the pathfinding: among the 4-neighbours in the player's order, the one closest to the
    /// target that is strictly closer than the unit's cell and capturable; earlier wins ties.
    /// The unit's own cell if there is none.
    pub fn next_cell(&self, unit: &Unit, target: usize) -> usize {
        let [up, right, down, left] = neighbours(unit.cell);
        let order = if unit.owner == 0 {
            [up, right, down, left]
        } else {
            [down, left, up, right]
        };
        let here = self.map.dist(unit.cell, target);
        let mut best = unit.cell;
        let mut best_dist = here;
        for n in order.into_iter().flatten() {
            let d = self.map.dist(n, target);
            if d == UNREACHABLE || d >= here || d >= best_dist {
                continue;
            }
            if self.capturable(n, unit.owner, unit.level) {
                best = n;
                best_dist = d;
            }
        }
        best
    }

    fn cell_of(&self, x: i32, y: i32) -> Result<usize, String> {
        if self.inside(x, y) {
            Ok(idx(x as usize, y as usize))
        } else {
            Err(format!("({x},{y}) is out of bounds"))
        }
    }

    /// The seat whose HQ cell is owned by someone else, if any (rulebook: *End and scoring*).
    pub fn hq_lost(&self) -> Option<usize> {
        self.buildings
            .iter()
            .find(|b| b.kind == BuildingKind::Hq && self.owner[b.cell] != Some(b.owner))
            .map(|b| b.owner)
    }

    /// Rulebook, *A player's turn*, the referee's `initTurn(p)`: activity, deaths on inactive cells, incomes, gold,
    /// bankruptcy (income deliberately not recomputed after it), units ready to move.
    ///
    /// The referee's `initTurn` recomputes activity first; here it is already what that finds,
    /// so it is not: it depends on the owners alone, [`Board::new`] computes it, and every
    /// change of an owner (a TRAIN or a MOVE, through [`Board::activity_after_taking`])
    /// brings it up to date (the tests check it against [`Board::compute_activity`] on random
    /// play, after every action).
    pub fn init_turn(&mut self, seat: usize, events: &mut Vec<Event>) {
        let dies = |u: &Unit| u.owner == seat && !self.active[u.cell];
        let dead: Vec<Unit> = if self.units.iter().any(dies) {
            let dead = self.units.iter().filter(|u| dies(u)).cloned().collect();
            let active = &self.active;
            self.units.retain(|u| u.owner != seat || active[u.cell]);
            dead
        } else {
            Vec::new()
        };
        for u in &dead {
            self.unit_here[u.cell] = 0;
        }
        if !dead.is_empty() {
            let ids: Vec<String> = dead.iter().map(|u| u.id.to_string()).collect();
            events.push(Event::Text(format!(
                "{}'s {} on inactive cells {} (id {})",
                name(seat),
                plural(dead.len(), "unit"),
                if dead.len() == 1 { "dies" } else { "die" },
                ids.join(", ")
            )));
        }
        self.compute_incomes();
        self.gold[seat] = self.gold[seat].saturating_add(self.income[seat]);
        if self.gold[seat] < 0 {
            self.gold[seat] = 0;
            let before = self.units.len();
            for u in self.units.iter().filter(|u| u.owner == seat) {
                self.unit_here[u.cell] = 0;
            }
            self.units.retain(|u| u.owner != seat);
            events.push(Event::Text(format!(
                "{} goes bankrupt: all its units die ({})",
                name(seat),
                plural(before - self.units.len(), "unit")
            )));
        }
        for u in self.units.iter_mut().filter(|u| u.owner == seat) {
            u.moved = false;
            u.fresh = false;
        }
    }

    /// Rulebook, *End and scoring*: gold plus the training cost of every living unit (cut-off ones included).
    pub fn military_power(&self, seat: usize) -> i64 {
        i64::from(self.gold[seat])
            + self
                .units
                .iter()
                .filter(|u| u.owner == seat)
                .map(|u| i64::from(UNIT_COST[usize::from(u.level.min(3))]))
                .sum::<i64>()
    }
}

/// A seat's colour ("red", "blue").
pub fn name(seat: usize) -> &'static str {
    NAMES.get(seat).copied().unwrap_or("?")
}

/// "1 unit", "3 units".
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

fn manhattan(a: usize, b: usize) -> usize {
    let (ax, ay) = xy(a);
    let (bx, by) = xy(b);
    ax.abs_diff(bx) + ay.abs_diff(by)
}
