//! The bots' own model of the arena, built from one turn's input: what stands on each tile,
//! which tiles this turn's orders already claim, and 8-direction distance fields.

use super::protocol::{
    EntityLine, Init, TurnInput, TypeData, BARRACKS, CASTLE, ENEMY, FOREST, ME, MINE, NEUTRAL,
};

/// The eight directions (all moves and ranges are Chebyshev).
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// A neighbour off the map.
const OFF: u32 = u32::MAX;

/// Distance fields use this for "unreachable".
pub const FAR: i32 = i32::MAX;

/// Chebyshev distance.
pub fn distance(a: (i32, i32), b: (i32, i32)) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

#[derive(Clone, Debug)]
pub struct Board {
    pub width: i32,
    pub height: i32,
    pub types: [TypeData; 6],
    pub gold: i32,
    pub wood: i32,
    /// Every entity of the input, in input order (x outer, y inner).
    pub entities: Vec<EntityLine>,
    cells: Vec<Option<EntityLine>>,
    /// Per tile: [`Board::passable`], worked out once (the tiles do not change during a turn).
    passable: Vec<bool>,
    /// Per tile: its neighbours in [`DIRECTIONS`] order, [`OFF`] for those off the map.
    neighbours: Vec<[u32; 8]>,
    /// Tiles that an order of this turn already targets.
    claimed: Vec<bool>,
}

impl Board {
    pub fn new(init: &Init, turn: &TurnInput) -> Board {
        // The size from the init block, or from the border walls if it never came.
        let extent = |from_init: i32, coordinate: fn(&EntityLine) -> i32| {
            let beyond = turn.entities.iter().map(|e| coordinate(e) + 1);
            beyond.fold(from_init, i32::max).clamp(1, 1000)
        };
        let width = extent(init.width, |e| e.x);
        let height = extent(init.height, |e| e.y);
        let mut board = Board {
            width,
            height,
            types: init.types,
            gold: turn.gold,
            wood: turn.wood,
            entities: turn.entities.clone(),
            cells: vec![None; (width * height) as usize],
            passable: Vec::new(),
            neighbours: Vec::new(),
            claimed: vec![false; (width * height) as usize],
        };
        for e in &turn.entities {
            if let Some(i) = board.index(e.x, e.y) {
                board.cells[i] = Some(*e);
            }
        }
        board.passable = (0..width * height)
            .map(|i| board.passable(i % width, i / width))
            .collect();
        board.neighbours = (0..width * height)
            .map(|i| {
                let (x, y) = (i % width, i / width);
                DIRECTIONS.map(|(dx, dy)| board.index(x + dx, y + dy).map_or(OFF, |j| j as u32))
            })
            .collect();
        board
    }

    pub fn inside(&self, x: i32, y: i32) -> bool {
        (0..self.width).contains(&x) && (0..self.height).contains(&y)
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        self.inside(x, y).then(|| (y * self.width + x) as usize)
    }

    pub fn at(&self, x: i32, y: i32) -> Option<EntityLine> {
        self.index(x, y).and_then(|i| self.cells[i])
    }

    /// Inside, nothing on it, and not claimed by an order of this turn.
    pub fn free(&self, x: i32, y: i32) -> bool {
        self.index(x, y)
            .is_some_and(|i| self.cells[i].is_none() && !self.claimed[i])
    }

    pub fn claim(&mut self, x: i32, y: i32) {
        if let Some(i) = self.index(x, y) {
            self.claimed[i] = true;
        }
    }

    pub fn stats(&self, kind: u8) -> TypeData {
        self.types
            .get(usize::from(kind))
            .copied()
            .unwrap_or_default()
    }

    pub fn affordable(&self, kind: u8) -> bool {
        let t = self.stats(kind);
        self.gold >= t.gold && self.wood >= t.wood
    }

    pub fn pay(&mut self, kind: u8) {
        let t = self.stats(kind);
        self.gold -= t.gold;
        self.wood -= t.wood;
    }

    pub fn mine(&self) -> Vec<EntityLine> {
        self.entities
            .iter()
            .filter(|e| e.owner == ME)
            .copied()
            .collect()
    }

    pub fn enemies(&self) -> Vec<EntityLine> {
        self.entities
            .iter()
            .filter(|e| e.owner == ENEMY)
            .copied()
            .collect()
    }

    pub fn resources(&self) -> Vec<EntityLine> {
        self.entities
            .iter()
            .filter(|e| e.owner == NEUTRAL && (e.kind == MINE || e.kind == FOREST))
            .copied()
            .collect()
    }

    /// The tiles within `r` of (x, y), on the map, in a fixed order, without (x, y).
    pub fn around(&self, x: i32, y: i32, r: i32) -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for dy in -r..=r {
            for dx in -r..=r {
                let (tx, ty) = (x + dx, y + dy);
                if (dx, dy) != (0, 0) && self.inside(tx, ty) {
                    out.push((tx, ty));
                }
            }
        }
        out
    }

    /// Whether a path may cross the tile: empty, or a unit (units move away).
    pub fn passable(&self, x: i32, y: i32) -> bool {
        self.inside(x, y)
            && match self.at(x, y) {
                None => true,
                Some(e) => e.owner != NEUTRAL && e.kind != CASTLE && e.kind != BARRACKS,
            }
    }

    /// 8-direction steps from the nearest source over passable tiles (sources are 0 even if
    /// not passable themselves). Index `y * width + x`.
    pub fn field(&self, sources: &[(i32, i32)]) -> Vec<i32> {
        let tiles = (self.width * self.height) as usize;
        let mut dist = vec![FAR; tiles];
        // A breadth-first walk: each tile enters the queue at most once.
        let mut queue: Vec<u32> = Vec::with_capacity(tiles);
        for &(x, y) in sources {
            if let Some(i) = self.index(x, y) {
                if dist[i] != 0 {
                    dist[i] = 0;
                    queue.push(i as u32);
                }
            }
        }
        let mut head = 0;
        while let Some(&i) = queue.get(head) {
            head += 1;
            let d = dist[i as usize];
            for &n in &self.neighbours[i as usize] {
                if n != OFF && dist[n as usize] == FAR && self.passable[n as usize] {
                    dist[n as usize] = d + 1;
                    queue.push(n);
                }
            }
        }
        dist
    }

    /// A field's value at a tile (FAR off the map).
    pub fn value(&self, field: &[i32], x: i32, y: i32) -> i32 {
        self.index(x, y).map_or(FAR, |i| field[i])
    }
}
