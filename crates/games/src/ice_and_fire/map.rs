//! The map: generation bit-exact with the referee (rulebook: *Map generation*) and the static
//! all-pairs distances the pathfinding uses (rulebook: *Rules*, MOVE).
//!
//! Cells are indexed row-major, `y * WIDTH + x`, so ascending indexes are the protocol's
//! "row by row, then x" order (rulebook: *Protocol*). The generator itself works on an `[x][y]` grid because the
//! referee scans x outer, y inner, and the RNG stream depends on that order.

use engine::JavaRandom;

/// Rulebook, *Facts*: the map is 12 × 12.
pub const WIDTH: usize = 12;
/// Rulebook, *Facts*: the map is 12 × 12.
pub const HEIGHT: usize = 12;
/// The number of cells.
pub const CELLS: usize = WIDTH * HEIGHT;

/// Rulebook, *Map generation* step 1: a cell starts NEUTRAL when `nextFloat()` is above this.
const INITIAL_THRESHOLD: f32 = 0.45;
/// Rulebook, *Map generation* step 4: automaton iterations.
const AUTOMATON_ITERATIONS: usize = 3;
/// Rulebook, *Map generation* step 4: NEUTRAL cells needed among the 9 of a 3×3 block.
const AUTOMATON_NEIGHBOURHOOD: usize = 6;
/// Rulebook, *Map generation* step 9a: mine spots per NEUTRAL cell, in f32 as the referee.
const SPOT_DENSITY: f32 = 0.15;
/// Rulebook, *Facts* / *Map generation* step 9: the fewest mine spots.
const MIN_SPOTS: i32 = 6;
/// Rulebook, *Map generation* step 9c: cells never drawn as mine spots (the HQs and the cells next to them).
const NO_SPOT: [(usize, usize); 4] = [(0, 0), (11, 11), (0, 1), (11, 10)];
/// Rulebook, *Map generation* step 3: the two mine spots every map has (Wood 1 and up).
const FIXED_SPOT: (usize, usize) = (1, 0);
/// A guard against a redraw loop that cannot end (it always ends on real maps: the rulebook's *Map generation* leaves far
/// more free cells than spots). Not in the referee, which cannot hit it either.
const MAX_SPOT_DRAWS: usize = 100_000;

/// A distance for cells that cannot reach each other (never happens: maps are connected).
pub const UNREACHABLE: u16 = u16::MAX;

/// The cell index of `(x, y)`.
pub fn idx(x: usize, y: usize) -> usize {
    y * WIDTH + x
}

/// The `(x, y)` of a cell index.
pub fn xy(c: usize) -> (usize, usize) {
    (c % WIDTH, c / WIDTH)
}

/// The point reflection `(11 − x, 11 − y)` of a cell (rulebook: *Map generation* step 6).
pub fn mirror(c: usize) -> usize {
    CELLS - 1 - c
}

/// "No neighbour" in [`ADJACENT`].
pub const NONE: usize = usize::MAX;

/// Per cell: its 4-neighbours UP, RIGHT, DOWN, LEFT, [`NONE`] off the map. A table, because
/// the rules look neighbours up many times per action.
pub static ADJACENT: [[usize; 4]; CELLS] = adjacent_table();

const fn adjacent_table() -> [[usize; 4]; CELLS] {
    let mut table = [[NONE; 4]; CELLS];
    let mut c = 0;
    while c < CELLS {
        let (x, y) = (c % WIDTH, c / WIDTH);
        if y > 0 {
            table[c][0] = c - WIDTH;
        }
        if x + 1 < WIDTH {
            table[c][1] = c + 1;
        }
        if y + 1 < HEIGHT {
            table[c][2] = c + WIDTH;
        }
        if x > 0 {
            table[c][3] = c - 1;
        }
        c += 1;
    }
    table
}

/// The 4-neighbours of a cell in the order UP, RIGHT, DOWN, LEFT (rulebook: *Rules*), `None` off the map.
pub fn neighbours(c: usize) -> [Option<usize>; 4] {
    let (x, y) = xy(c);
    [
        (y > 0).then(|| c - WIDTH),
        (x + 1 < WIDTH).then(|| c + 1),
        (y + 1 < HEIGHT).then(|| c + WIDTH),
        (x > 0).then(|| c - 1),
    ]
}

/// The static part of a match: terrain, mine spots and distances.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// Per cell: not playable (`#`).
    pub void: [bool; CELLS],
    /// Per cell: a mine spot (only Wood 1 and up have any).
    pub spot: [bool; CELLS],
    /// All-pairs shortest 4-neighbour distances over non-void cells, `a * CELLS + b`.
    dist: Vec<u16>,
}

impl Map {
    /// The referee's map for a seed (rulebook: *Map generation*). `with_spots` is league ≥ 3.
    pub fn generate(seed: i64, with_spots: bool) -> Map {
        let mut rng = JavaRandom::new(seed);
        // g[x][y]: NEUTRAL.
        let mut g = [[false; HEIGHT]; WIDTH];
        // Step 1.
        for column in g.iter_mut() {
            for cell in column.iter_mut() {
                *cell = rng.next_float() > INITIAL_THRESHOLD;
            }
        }
        // Step 2.
        for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            g[x][y] = true;
        }
        // Step 4 (step 3 only flags spots; done below, it draws nothing).
        for _ in 0..AUTOMATON_ITERATIONS {
            let prev = g;
            for (x, column) in g.iter_mut().enumerate() {
                for (y, cell) in column.iter_mut().enumerate() {
                    let mut count = 0;
                    for dx in -1i32..=1 {
                        for dy in -1i32..=1 {
                            let nx = x as i32 + dx;
                            let ny = y as i32 + dy;
                            let off = nx < 0 || ny < 0 || nx >= WIDTH as i32 || ny >= HEIGHT as i32;
                            if off || prev[nx as usize][ny as usize] {
                                count += 1;
                            }
                        }
                    }
                    *cell = count >= AUTOMATON_NEIGHBOURHOOD;
                }
            }
        }
        // Step 5.
        for column in g.iter_mut() {
            for cell in column.iter_mut() {
                *cell = !*cell;
            }
        }
        // Step 6, in this exact sequence.
        for x in 0..WIDTH {
            for y in 0..=x {
                g[WIDTH - 1 - x][HEIGHT - 1 - y] = g[x][y];
            }
        }
        // Step 7.
        for x in 0..3 {
            for y in 0..3 {
                g[x][y] = true;
                g[WIDTH - 1 - x][HEIGHT - 1 - y] = true;
            }
        }
        // Step 8.
        connect(&mut g, &mut rng);

        let mut void = [false; CELLS];
        for (x, column) in g.iter().enumerate() {
            for (y, &neutral) in column.iter().enumerate() {
                void[idx(x, y)] = !neutral;
            }
        }
        let mut spot = [false; CELLS];
        if with_spots {
            // Step 3.
            let fixed = idx(FIXED_SPOT.0, FIXED_SPOT.1);
            spot[fixed] = true;
            spot[mirror(fixed)] = true;
            // Step 9.
            let neutral = void.iter().filter(|v| !**v).count() as i32;
            let max_spots = MIN_SPOTS.max((neutral as f32 * SPOT_DENSITY) as i32);
            let count = 2 * ((rng.next_int_bounded(max_spots - MIN_SPOTS + 1) + MIN_SPOTS) / 2);
            let forbidden: Vec<usize> = NO_SPOT.iter().map(|&(x, y)| idx(x, y)).collect();
            for _ in 0..(count / 2 - 1) {
                for _ in 0..MAX_SPOT_DRAWS {
                    let x = rng.next_int_bounded(WIDTH as i32) as usize;
                    let y = rng.next_int_bounded(HEIGHT as i32) as usize;
                    let c = idx(x, y);
                    if void[c] || spot[c] || forbidden.contains(&c) {
                        continue;
                    }
                    spot[c] = true;
                    spot[mirror(c)] = true;
                    break;
                }
            }
        }
        Map::from_parts(void, spot)
    }

    /// A map from its terrain and spots (tests build positions with it).
    pub fn from_parts(void: [bool; CELLS], spot: [bool; CELLS]) -> Map {
        // A breadth-first search from every cell (each match makes its map, so this is part
        // of every match's cost): the neighbours from the static table, the queue an array.
        let mut dist = vec![UNREACHABLE; CELLS * CELLS];
        let mut queue = [0usize; CELLS];
        for (from, row) in dist.chunks_exact_mut(CELLS).enumerate() {
            if void[from] {
                continue;
            }
            row[from] = 0;
            queue[0] = from;
            let (mut head, mut len) = (0, 1);
            while head < len {
                let c = queue[head];
                head += 1;
                let next = row[c] + 1;
                for &n in &ADJACENT[c] {
                    if n != NONE && !void[n] && row[n] == UNREACHABLE {
                        row[n] = next;
                        queue[len] = n;
                        len += 1;
                    }
                }
            }
        }
        Map { void, spot, dist }
    }

    /// The static distance between two cells ([`UNREACHABLE`] if either is void).
    pub fn dist(&self, a: usize, b: usize) -> u16 {
        self.dist.get(a * CELLS + b).copied().unwrap_or(UNREACHABLE)
    }

    /// The mine spots in the protocol's order: row by row, then x (rulebook: *Protocol*).
    pub fn spots(&self) -> Vec<usize> {
        (0..CELLS).filter(|&c| self.spot[c]).collect()
    }
}

/// Rulebook, *Map generation* step 8: joins the 4-connected NEUTRAL components with straight corridors.
fn connect(g: &mut [[bool; HEIGHT]; WIDTH], rng: &mut JavaRandom) {
    let mut seen = [[false; HEIGHT]; WIDTH];
    let mut components: Vec<Vec<(usize, usize)>> = Vec::new();
    for x in 0..WIDTH {
        for y in 0..HEIGHT {
            if g[x][y] && !seen[x][y] {
                components.push(explore(g, &mut seen, x, y));
            }
        }
    }
    if components.len() <= 1 {
        return;
    }
    let picked: Vec<(usize, usize)> = components
        .iter()
        .map(|list| list[rng.next_int_bounded(list.len() as i32) as usize])
        .collect();
    let mut open = |x: usize, y: usize| {
        g[x][y] = true;
        g[WIDTH - 1 - x][HEIGHT - 1 - y] = true;
    };
    for i in 0..picked.len() {
        for j in i + 1..picked.len() {
            let (ax, ay) = picked[i];
            let (bx, by) = picked[j];
            for x in ax.min(bx)..=ax.max(bx) {
                open(x, by);
            }
            for y in ay.min(by)..=ay.max(by) {
                open(ax, y);
            }
        }
    }
}

/// The referee's recursive depth-first search, as an explicit stack: records a cell on arrival,
/// then tries (x−1,y), (x+1,y), (x,y−1), (x,y+1), each checked when reached.
fn explore(
    g: &[[bool; HEIGHT]; WIDTH],
    seen: &mut [[bool; HEIGHT]; WIDTH],
    x: usize,
    y: usize,
) -> Vec<(usize, usize)> {
    const STEPS: [(i32, i32); 4] = [(-1, 0), (1, 0), (0, -1), (0, 1)];
    let mut list = vec![(x, y)];
    seen[x][y] = true;
    // (x, y, next step to try)
    let mut stack = vec![(x, y, 0usize)];
    while let Some(top) = stack.last_mut() {
        let (cx, cy, step) = *top;
        if step == STEPS.len() {
            stack.pop();
            continue;
        }
        top.2 += 1;
        let nx = cx as i32 + STEPS[step].0;
        let ny = cy as i32 + STEPS[step].1;
        if nx < 0 || ny < 0 || nx >= WIDTH as i32 || ny >= HEIGHT as i32 {
            continue;
        }
        let (nx, ny) = (nx as usize, ny as usize);
        if g[nx][ny] && !seen[nx][ny] {
            seen[nx][ny] = true;
            list.push((nx, ny));
            stack.push((nx, ny, 0));
        }
    }
    list
}
