//! The grid and its generation from the seed, exactly as the referee (rulebook: *Map
//! generation*): one SHA1PRNG stream gives the size, the symmetry, the covers, the spawns and the order in which
//! walls are opened to connect the map.

use engine::Sha1Prng;

/// A tile's type as the protocol numbers it.
pub const FLOOR: u8 = 0;
pub const LOW_COVER: u8 = 1;
pub const HIGH_COVER: u8 = 2;

/// A list of `n` copies of `value`. For the lists made every turn (a flag per tile, per move):
/// `vec![false; n]` asks the allocator for zeroed memory, which glibc serves without its fast
/// per-thread cache, at several times the cost of allocating and filling.
pub fn filled<T: Clone>(n: usize, value: T) -> Vec<T> {
    let mut list = Vec::with_capacity(n);
    list.resize(n, value);
    list
}

/// A position; x to the right, y down, (0,0) top left. Signed: bots may name tiles off the grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Coord {
    pub x: i32,
    pub y: i32,
}

impl Coord {
    pub const fn new(x: i32, y: i32) -> Self {
        Coord { x, y }
    }

    /// Java's `int` Manhattan distance (wrapping on overflow, as the referee's).
    pub fn manhattan(self, o: Coord) -> i32 {
        self.x
            .wrapping_sub(o.x)
            .wrapping_abs()
            .wrapping_add(self.y.wrapping_sub(o.y).wrapping_abs())
    }

    pub fn chebyshev(self, o: Coord) -> i32 {
        self.x
            .wrapping_sub(o.x)
            .wrapping_abs()
            .max(self.y.wrapping_sub(o.y).wrapping_abs())
    }
}

impl std::fmt::Display for Coord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// The grid: its size, its tiles, whether it is point-symmetric, and the spawns of seat 0.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    pub width: i32,
    pub height: i32,
    /// Row by row: [`FLOOR`], [`LOW_COVER`] or [`HIGH_COVER`].
    pub tiles: Vec<u8>,
    /// Whether the second seat's side mirrors both axes (else only x).
    pub y_sym: bool,
    /// Seat 0's agent spawns in agent order; seat 1's are their [`Grid::opposite`]s.
    pub spawns: Vec<Coord>,
}

impl Grid {
    /// A grid from its rows of tile digits (tests and hand-made positions).
    pub fn from_rows(rows: &[&str], y_sym: bool, spawns: Vec<Coord>) -> Grid {
        let height = rows.len() as i32;
        let width = rows.first().map_or(0, |r| r.len()) as i32;
        let tiles = rows
            .iter()
            .flat_map(|r| r.bytes().map(|b| b.saturating_sub(b'0').min(HIGH_COVER)))
            .collect();
        Grid {
            width,
            height,
            tiles,
            y_sym,
            spawns,
        }
    }

    pub fn inside(&self, c: Coord) -> bool {
        c.x >= 0 && c.y >= 0 && c.x < self.width && c.y < self.height
    }

    /// The index of an inside position.
    pub fn index(&self, c: Coord) -> usize {
        (c.y * self.width + c.x) as usize
    }

    pub fn coord(&self, i: usize) -> Coord {
        let w = self.width.max(1) as usize;
        Coord::new((i % w) as i32, (i / w) as i32)
    }

    pub fn cells(&self) -> usize {
        self.tiles.len()
    }

    /// The tile type at a position; off the grid counts as floor (no cover).
    pub fn tile(&self, c: Coord) -> u8 {
        if self.inside(c) {
            self.tiles[self.index(c)]
        } else {
            FLOOR
        }
    }

    pub fn is_cover(&self, c: Coord) -> bool {
        self.tile(c) != FLOOR
    }

    /// The multiplier a tile gives to a shot as cover (rulebook: *Shooting*): floor 1, low 0.5, high 0.25.
    pub fn cover_multiplier(&self, c: Coord) -> f64 {
        match self.tile(c) {
            LOW_COVER => 0.5,
            HIGH_COVER => 0.25,
            _ => 1.0,
        }
    }

    /// The position mirroring `c` on the other seat's side.
    pub fn opposite(&self, c: Coord) -> Coord {
        Coord::new(
            self.width - 1 - c.x,
            if self.y_sym {
                self.height - 1 - c.y
            } else {
                c.y
            },
        )
    }

    /// The inside 4-neighbours in the order up, right, down, left.
    pub fn neighbours4(&self, c: Coord) -> impl Iterator<Item = Coord> + '_ {
        [(0, -1), (1, 0), (0, 1), (-1, 0)]
            .into_iter()
            .map(move |(dx, dy)| Coord::new(c.x + dx, c.y + dy))
            .filter(|n| self.inside(*n))
    }

    fn set(&mut self, c: Coord, tile: u8) {
        let i = self.index(c);
        self.tiles[i] = tile;
    }

    /// Rulebook, *Map generation*: the map of a seed, bit for bit as the referee's.
    pub fn generate(seed: i64) -> Grid {
        let mut rng = Sha1Prng::new(seed);
        let height = rng.next_int_range(6, 11);
        let width = height * 2;
        let y_sym = rng.next_boolean() || rng.next_boolean();
        let mut grid = Grid {
            width,
            height,
            tiles: vec![FLOOR; (width * height) as usize],
            y_sym,
            spawns: Vec::new(),
        };
        for y in 1..height - 1 {
            for x in 1..width / 2 - 1 {
                let tile = match rng.next_int_bounded(10) {
                    0 => HIGH_COVER,
                    1 => LOW_COVER,
                    _ => FLOOR,
                };
                let c = Coord::new(x, y);
                grid.set(c, tile);
                grid.set(grid.opposite(c), tile);
            }
        }
        let mut count = rng.next_int_range(3, 6);
        let mut column: Vec<Coord> = (0..height).map(|y| Coord::new(0, y)).collect();
        rng.shuffle(&mut column);
        if count == 5 && rng.next_boolean() {
            count = 4;
        }
        if count == 4 && rng.next_boolean() {
            count = 3;
        }
        column.truncate(count as usize);
        grid.spawns = column;
        let mut walls: Vec<Coord> = (0..grid.cells())
            .filter(|&i| grid.tiles[i] != FLOOR)
            .map(|i| grid.coord(i))
            .collect();
        rng.shuffle(&mut walls);
        grid.connect(walls);
        grid
    }

    /// The 4-connected components of floor tiles, discovered row by row: per tile its island
    /// number (`None` for covers), and the number of islands.
    fn islands(&self) -> (Vec<Option<usize>>, usize) {
        let mut island = filled(self.cells(), None);
        let mut count = 0;
        for start in 0..self.cells() {
            if self.tiles[start] != FLOOR || island[start].is_some() {
                continue;
            }
            island[start] = Some(count);
            let mut stack = vec![self.coord(start)];
            while let Some(c) = stack.pop() {
                for n in self.neighbours4(c) {
                    let i = self.index(n);
                    if self.tiles[i] == FLOOR && island[i].is_none() {
                        island[i] = Some(count);
                        stack.push(n);
                    }
                }
            }
            count += 1;
        }
        (island, count)
    }

    /// Rulebook, *Map generation* step 6: opens walls (in the shuffled order) until the floor is one island. After a
    /// bridge the touched islands merge, but the bridge tiles join no island and the islands
    /// are not recomputed (the referee's stale bookkeeping, which can open extra walls).
    fn connect(&mut self, mut walls: Vec<Coord>) {
        let (mut island, mut count) = self.islands();
        let mut next_id = count;
        while count > 1 {
            let bridge = walls.iter().position(|&w| self.touched(&island, w).1 >= 2);
            match bridge {
                Some(k) => {
                    let wall = walls[k];
                    let (ids, n) = self.touched(&island, wall);
                    let touched = &ids[..n];
                    self.open(&mut walls, wall);
                    for id in island.iter_mut() {
                        if id.is_some_and(|i| touched.contains(&i)) {
                            *id = Some(next_id);
                        }
                    }
                    next_id += 1;
                    count = count + 1 - touched.len();
                }
                None => {
                    let Some(k) = walls.iter().position(|&w| {
                        self.neighbours4(w)
                            .any(|n| self.tiles[self.index(n)] == FLOOR)
                    }) else {
                        // Cannot happen on a generated grid (column 0 is floor); never loop.
                        return;
                    };
                    let wall = walls[k];
                    self.open(&mut walls, wall);
                    (island, count) = self.islands();
                    next_id = count;
                }
            }
        }
    }

    /// The islands next to a wall, each once (the first `n` of the array): kept on the stack, as
    /// the search for a bridge asks this of every wall.
    fn touched(&self, island: &[Option<usize>], wall: Coord) -> ([usize; 4], usize) {
        let mut ids = [0; 4];
        let mut n = 0;
        for id in self.neighbours4(wall).filter_map(|c| island[self.index(c)]) {
            if !ids[..n].contains(&id) {
                ids[n] = id;
                n += 1;
            }
        }
        (ids, n)
    }

    /// Clears a wall and its opposite and takes both off the list.
    fn open(&mut self, walls: &mut Vec<Coord>, wall: Coord) {
        let other = self.opposite(wall);
        self.set(wall, FLOOR);
        self.set(other, FLOOR);
        walls.retain(|&w| w != wall && w != other);
    }

    /// The rows as tile digits (tests and the text board).
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| char::from(b'0' + self.tile(Coord::new(x, y))))
                    .collect()
            })
            .collect()
    }
}
