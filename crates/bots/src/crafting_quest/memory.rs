//! A bot's memory of the map: what it has seen of the ground, the quantities it has dug up,
//! the towers, and breadth-first paths over 8-neighbour moves.

use super::protocol::{Sight, LETTERS};

/// Not seen yet.
pub const UNKNOWN: u8 = b'?';

// The bot asks its memory about cells thousands of times per request (its breadth-first
// walks), so everything is kept per cell in vectors (no map lookups), whether a cell can be
// walked is kept rather than worked out, and the cells with resources and the unknown ones
// are counted, so that a walk can stop once it has met them all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Memory {
    pub size: usize,
    /// Per cell: `?` unknown, `#` rock, `.` grass, a resource letter or `*` (several types).
    ground: Vec<u8>,
    /// Quantities learnt by digging, per cell.
    qty: Vec<Option<[u32; 7]>>,
    /// Per cell: a tower stands there (it blocks moves).
    towers: Vec<bool>,
    /// Per cell: rock or a tower.
    blocked: Vec<bool>,
    /// Visible piles last seen: resources per cell (zeros: none).
    pub piles: Vec<[u32; 7]>,
    /// How many cells have resources ([`Memory::has_resources`]), and how many are unknown.
    resource_cells: usize,
    unknown_cells: usize,
    /// Per cell: its neighbours in [`NEIGHBOURS`] order, [`OFF`] for those off the map (the
    /// breadth-first walks look them up instead of working them out).
    neighbours: Vec<[u32; 8]>,
    /// Per cell: its neighbours that are not blocked, in [`NEIGHBOURS`] order (the first
    /// `count` of the array): what the walks step to, kept up to date as cells are learnt.
    open: Vec<([u32; 8], u8)>,
}

/// A neighbour off the map.
pub const OFF: u32 = u32::MAX;

/// Breadth-first distances and parents from one cell.
#[derive(Clone, Debug, Default)]
pub struct Paths {
    pub dist: Vec<u32>,
    pub parent: Vec<u32>,
}

impl Memory {
    pub fn new(size: usize) -> Memory {
        let size = size.clamp(1, 1000);
        let mut memory = Memory {
            size,
            ground: vec![UNKNOWN; size * size],
            qty: vec![None; size * size],
            towers: vec![false; size * size],
            blocked: vec![false; size * size],
            piles: vec![[0; 7]; size * size],
            resource_cells: 0,
            unknown_cells: size * size,
            neighbours: Vec::new(),
            open: Vec::new(),
        };
        memory.neighbours = (0..size * size)
            .map(|c| {
                let (x, y) = memory.xy(c);
                NEIGHBOURS.map(|(dx, dy)| memory.cell(x + dx, y + dy).map_or(OFF, |n| n as u32))
            })
            .collect();
        memory.open = vec![([0; 8], 0); size * size];
        for c in 0..size * size {
            memory.reopen(c);
        }
        memory
    }

    /// Works out again which neighbours of `c` are open.
    fn reopen(&mut self, c: usize) {
        let mut open = ([0; 8], 0);
        for &n in &self.neighbours[c] {
            if n != OFF && !self.blocked[n as usize] {
                open.0[usize::from(open.1)] = n;
                open.1 += 1;
            }
        }
        self.open[c] = open;
    }

    /// Cell `c` became blocked or open: its neighbours' open lists change.
    fn set_blocked(&mut self, c: usize, blocked: bool) {
        if self.blocked[c] != blocked {
            self.blocked[c] = blocked;
            for n in self.neighbours[c] {
                if n != OFF {
                    self.reopen(n as usize);
                }
            }
        }
    }

    /// The neighbours of `c` that are not blocked (rock or a tower), in [`NEIGHBOURS`] order.
    #[inline]
    pub fn open_neighbours(&self, c: usize) -> &[u32] {
        let (cells, count) = &self.open[c];
        &cells[..usize::from(*count)]
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.ground.len()
    }

    /// The cells around `c` in [`NEIGHBOURS`] order, [`OFF`] where the map ends.
    #[inline]
    pub fn neighbours(&self, c: usize) -> &[u32; 8] {
        &self.neighbours[c]
    }

    #[inline]
    pub fn cell(&self, x: i32, y: i32) -> Option<usize> {
        let s = self.size as i32;
        (x >= 0 && y >= 0 && x < s && y < s).then(|| y as usize * self.size + x as usize)
    }

    #[inline]
    pub fn xy(&self, c: usize) -> (i32, i32) {
        ((c % self.size) as i32, (c / self.size) as i32)
    }

    /// What the memory knows of a cell's ground (see [`Memory::set_ground`]).
    #[inline]
    pub fn ground(&self, c: usize) -> u8 {
        self.ground[c]
    }

    /// Learns a cell's ground: `?` unknown, `#` rock, `.` grass, a resource letter or `*`
    /// (several types).
    pub fn set_ground(&mut self, c: usize, b: u8) {
        let old = self.ground[c];
        self.resource_cells -= usize::from(self.has_resources(c));
        self.unknown_cells -= usize::from(old == UNKNOWN);
        self.ground[c] = b;
        self.resource_cells += usize::from(self.has_resources(c));
        self.unknown_cells += usize::from(b == UNKNOWN);
        self.set_blocked(c, b == b'#' || self.towers[c]);
    }

    fn set_tower(&mut self, c: usize, tower: bool) {
        self.towers[c] = tower;
        self.set_blocked(c, self.ground[c] == b'#' || tower);
    }

    /// The quantities dug up at a cell, if it was dug.
    #[inline]
    pub fn qty(&self, c: usize) -> Option<&[u32; 7]> {
        self.qty[c].as_ref()
    }

    /// Learns what a dig found.
    pub fn set_qty(&mut self, c: usize, q: [u32; 7]) {
        self.qty[c] = Some(q);
    }

    /// How many cells have resources, and how many are unknown.
    pub fn counts(&self) -> (usize, usize) {
        (self.resource_cells, self.unknown_cells)
    }

    /// Learns what a sight shows.
    pub fn learn(&mut self, sight: &Sight) {
        let size = self.size as i64;
        for (dy, row) in sight.rows.iter().enumerate() {
            // The part of the row on the map: its cells `cells`, its letters `letters`.
            let y = i64::from(sight.y) + dy as i64;
            let x0 = i64::from(sight.x);
            let (from, to) = (x0.max(0), (x0 + row.len() as i64).min(size));
            if y < 0 || y >= size || from >= to {
                continue;
            }
            let first = (y * size + from) as usize;
            let cells = first..first + (to - from) as usize;
            let letters = &row[(from - x0) as usize..(to - x0) as usize];
            // Mostly the row is as remembered, without towers: nothing to learn but the piles.
            if self.ground[cells.clone()] != *letters || self.towers[cells.clone()].contains(&true)
            {
                for (c, &b) in cells.clone().zip(letters) {
                    if self.ground[c] != b {
                        self.towers[c] = false;
                        self.set_ground(c, b);
                        if b == b'.' || b == b'#' {
                            self.qty[c] = None;
                        }
                    } else if self.towers[c] {
                        self.set_tower(c, false);
                    }
                }
            }
            self.piles[cells].fill([0; 7]);
        }
        for p in &sight.piles {
            if let Some(c) = self.cell(p.x, p.y) {
                self.piles[c] = p.res;
            }
        }
        for &(x, y, _) in &sight.towers {
            if let Some(c) = self.cell(x, y) {
                self.set_tower(c, true);
            }
        }
    }

    /// The buried types of a cell, as far as the memory knows (from its letter; `*` cells are
    /// resolved by digging).
    pub fn types(&self, c: usize) -> Vec<usize> {
        if let Some(q) = self.qty(c) {
            return (0..7).filter(|&r| q[r] > 0).collect();
        }
        match LETTERS.iter().position(|&l| l == self.ground[c]) {
            Some(r) => vec![r],
            None if self.ground[c] == b'*' => (0..7).collect(),
            None => Vec::new(),
        }
    }

    /// Whether a cell is known to offer at least `need` of type `r` (buried cells are assumed
    /// to hold at least 20 of their type).
    pub fn offers(&self, c: usize, r: usize, need: u32) -> bool {
        let pile = self.piles[c][r];
        let buried = match self.qty(c) {
            Some(q) => q[r],
            None if self.ground[c] == LETTERS[r] => 20,
            None => 0,
        };
        pile + buried >= need
    }

    /// Whether a cell is known to offer nothing at all: no letter, nothing dug, no pile
    /// ([`Memory::offers`] is then false for every type and every need above zero).
    #[inline]
    pub fn offers_nothing(&self, c: usize) -> bool {
        !self.has_resources(c) && self.qty[c].is_none() && self.piles[c] == [0; 7]
    }

    #[inline]
    pub fn has_resources(&self, c: usize) -> bool {
        let g = self.ground[c];
        g != UNKNOWN && g != b'.' && g != b'#'
    }

    #[inline]
    pub fn passable(&self, c: usize) -> bool {
        !self.blocked[c]
    }
}

/// The 8 neighbour offsets.
pub const NEIGHBOURS: [(i32, i32); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// A cost map over the cells, filled by [`Memory::spread`]. It keeps the buffers of its search
/// from one computation to the next, and [`Field::clear`] resets only the cells the last one
/// reached (a bounded search reaches a small part of the map).
#[derive(Clone, Debug, Default)]
pub struct Field {
    /// Per cell: the cheapest cost, or `u32::MAX` (unreachable, or dearer than the limit).
    pub cost: Vec<u32>,
    /// The sources, as `start << 32 | cell` (sorted by start in [`Memory::spread`]).
    sources: Vec<u64>,
    /// The cells the search reached, in the order reached (also its first-in first-out queue).
    reached: Vec<u32>,
}

impl Field {
    /// Starts again over `n` cells: no sources, every cost `u32::MAX`.
    pub fn clear(&mut self, n: usize) {
        if self.cost.len() == n {
            for &s in &self.sources {
                self.cost[s as u32 as usize] = u32::MAX;
            }
            for &c in &self.reached {
                self.cost[c as usize] = u32::MAX;
            }
        } else {
            self.cost.clear();
            self.cost.resize(n, u32::MAX);
        }
        self.sources.clear();
        self.reached.clear();
    }

    /// Makes cell `c` a source that starts at `start` (the cheaper start, if it is one already).
    pub fn add_source(&mut self, c: usize, start: u32) {
        if start < self.cost[c] {
            self.cost[c] = start;
            self.sources.push(u64::from(start) << 32 | c as u64);
        }
    }
}

impl Memory {
    /// Cheapest costs to a goal, up to `limit`: each source starts at its start (see
    /// [`Field::add_source`]) and every step costs `step`, over passable cells with 8-neighbour
    /// moves; the cells dearer than `limit` are left at `u32::MAX`. (Steps cost the same
    /// everywhere, so a breadth-first walk merging the sorted sources is exact, and the costs
    /// it takes come in order: it stops at the first one past the limit.)
    pub fn spread(&self, field: &mut Field, step: u32, limit: u32) {
        let Field {
            cost,
            sources,
            reached,
        } = field;
        sources.sort_unstable();
        reached.reserve(cost.len());
        let (mut next_source, mut head) = (0, 0);
        loop {
            // The cheaper of the next source and the queue's front (the source on a tie). A
            // queued cell's cost never changes once queued (later costs are never cheaper), so
            // the queue holds cells only, each at most once.
            let c = match (sources.get(next_source), reached.get(head)) {
                (Some(&s), Some(&q)) if (s >> 32) as u32 > cost[q as usize] => {
                    head += 1;
                    q as usize
                }
                (Some(&s), _) => {
                    next_source += 1;
                    let c = s as u32 as usize;
                    // A source reached more cheaply from another, or listed twice.
                    if (s >> 32) as u32 > cost[c] {
                        continue;
                    }
                    c
                }
                (None, Some(&q)) => {
                    head += 1;
                    q as usize
                }
                (None, None) => break,
            };
            let w = cost[c].saturating_add(step);
            if w > limit {
                break;
            }
            for &n in self.open_neighbours(c) {
                let slot = &mut cost[n as usize];
                if w < *slot {
                    *slot = w;
                    reached.push(n);
                }
            }
        }
    }
}

impl Paths {
    /// The cells from the start (excluded) to `target` (included), if it is reachable.
    pub fn route(&self, mut target: usize) -> Option<Vec<usize>> {
        if self
            .dist
            .get(target)
            .is_none_or(|&d| d == u32::MAX || d == 0)
        {
            return None;
        }
        let mut out = vec![target];
        while self.dist[target] > 1 {
            target = self.parent[target] as usize;
            out.push(target);
        }
        out.reverse();
        Some(out)
    }
}
