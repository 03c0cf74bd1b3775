//! Maps: the three official maps, complete with their buried resources (converted from
//! `asorici/cq3`, LGPL-3.0, in `maps/`), and a seeded generator of fair square maps of side
//! 50–100.
//!
//! Coordinates are `(x, y)`: x is the column (to the right), y the row (down), `(0, 0)` top left,
//! as the original's `Point2i`. Cells are indexed `y × size + x`.

use engine::JavaRandom;

use super::scenario::{LETTERS, RESOURCES, UNITS};

/// The official maps' text files (terrain, buried resources, start positions, the units'
/// starting cells, rounds; format in `maps/README.md`).
const OFFICIAL: [(&str, &str); 3] = [
    ("v1", include_str!("maps/v1.txt")),
    ("v2", include_str!("maps/v2.txt")),
    ("v3", include_str!("maps/v3.txt")),
];

/// The smallest and largest side of a map (rulebook: 50–100).
pub const MIN_SIZE: usize = 50;
pub const MAX_SIZE: usize = 100;
/// The side of a generated map when the setup names none.
pub const DEFAULT_SIZE: usize = 50;
/// The players' home corner on generated maps, and how far around it no rock is placed.
const HOME: i32 = 5;
const HOME_CLEAR: i32 = 7;

/// A map at the start of a match: terrain, buried resources, homes and unit placements.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// `"v1"`, `"v2"`, `"v3"` or `"generated"`.
    pub name: String,
    pub size: usize,
    /// Per cell: impassable rock.
    pub rock: Vec<bool>,
    /// Per cell: the buried quantity of each resource type.
    pub buried: Vec<[u16; 7]>,
    /// Per player slot (4): the home (initial and respawn position).
    pub homes: Vec<(i32, i32)>,
    /// Per player slot (4): the initial positions of its 10 units.
    pub placements: Vec<Vec<(i32, i32)>>,
    /// The number of rounds the match lasts on this map.
    pub rounds: u32,
}

impl Map {
    pub fn idx(&self, x: i32, y: i32) -> usize {
        y as usize * self.size + x as usize
    }

    pub fn inside(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && (x as usize) < self.size && (y as usize) < self.size
    }

    pub fn grass(&self, x: i32, y: i32) -> bool {
        self.inside(x, y) && !self.rock[self.idx(x, y)]
    }

    /// One of the official maps (`v1`, `v2`, `v3`), complete from its file in `maps/`: terrain,
    /// buried resources, start positions (homes), the units' starting cells and rounds. `None`
    /// for another name (or a file that does not read back as it should).
    pub fn official(name: &str) -> Option<Map> {
        let text = OFFICIAL.iter().find(|(n, _)| *n == name)?.1;
        parse_official(text).filter(|map| map.name == name)
    }

    /// A generated map of side `size` (50–100): mirrored in both axes so that the four corners
    /// (the players' homes) see the same terrain and resources; about 3–10 % rock, every grass
    /// cell reachable; resource patches of one type each, 10–130 per cell, on about 13–20 % of
    /// the grass. It lasts `size + 20` rounds.
    pub fn generate(size: usize, seed: i64) -> Map {
        let size = size.clamp(MIN_SIZE, MAX_SIZE);
        let mut rng = JavaRandom::new(seed ^ 0x0C03_6E4E);
        let rock = generate_rock(size, &mut rng);
        let params = ResourceParams {
            coverage: (13, 20),
            tens: (2, 7),
            rich_one_in: 8,
            weights: [16, 20, 16, 12, 16, 8, 12],
        };
        let buried = place_resources(size, &rock, &params, &mut rng);
        let n = size as i32 - 1;
        let mirrors = |(x, y): (i32, i32)| -> [(i32, i32); 4] {
            [(x, y), (n - x, n - y), (n - x, y), (x, n - y)]
        };
        let mut map = Map {
            name: "generated".to_string(),
            size,
            rock,
            buried,
            homes: mirrors((HOME, HOME)).to_vec(),
            placements: Vec::new(),
            rounds: size as u32 + 20,
        };
        let first = map.original_placement((HOME, HOME));
        map.placements = (0..4)
            .map(|p| first.iter().map(|&c| mirrors(c)[p]).collect())
            .collect();
        map
    }

    /// The original's placement rule (`GameGenerator.setupPlayerState`): each unit goes on the
    /// first free grass cell of a 10 × 10 box near the home: for a home in the left half, x from −2 to +7 and y from −2 to +7, row by row; in the right half,
    /// from +2 down to −7, backwards. Falls back to the nearest free grass cells.
    pub(super) fn original_placement(&self, home: (i32, i32)) -> Vec<(i32, i32)> {
        let (hx, hy) = home;
        let mut cells = Vec::new();
        if (hx as usize) < self.size / 2 {
            for y in hy - 2..hy + 8 {
                for x in hx - 2..hx + 8 {
                    cells.push((x, y));
                }
            }
        } else {
            for y in (hy - 7..=hy + 2).rev() {
                for x in (hx - 7..=hx + 2).rev() {
                    cells.push((x, y));
                }
            }
        }
        // Then every cell by distance from home, for maps where the box is crowded.
        let r = self.size as i32;
        let mut rest: Vec<(i32, i32)> = (0..r).flat_map(|y| (0..r).map(move |x| (x, y))).collect();
        rest.sort_by_key(|&(x, y)| ((x - hx).abs().max((y - hy).abs()), y, x));
        cells.extend(rest);
        let mut out: Vec<(i32, i32)> = Vec::with_capacity(UNITS);
        for (x, y) in cells {
            if out.len() == UNITS {
                break;
            }
            if self.grass(x, y) && !out.contains(&(x, y)) {
                out.push((x, y));
            }
        }
        while out.len() < UNITS {
            out.push(home);
        }
        out
    }
}

/// Reads an official map file (format `cq3-map 1`, described in `maps/README.md`): the header
/// lines, `terrain` rows (`.` grass, `#` rock), the `resource_grid` overview (checked against
/// the list) and the `resources` list, which is the authoritative resource data. The counts the
/// file states (`rock_cells`, `resource_cells`, each `total`) must agree with what was read, the
/// map must be square, the homes and every unit's starting cell on grass; otherwise `None`.
pub(super) fn parse_official(text: &str) -> Option<Map> {
    let mut lines = text.lines().filter(|l| !l.starts_with("# "));
    let mut file = OfficialFile::default();
    while let Some(line) = lines.next() {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words == ["end"] {
            return file.finish();
        }
        file.read_line(&words, &mut lines)?;
    }
    None // no `end` line
}

/// What an official map file says, read line by line before it is checked as a whole.
#[derive(Default)]
struct OfficialFile {
    name: Option<String>,
    size: usize,
    rounds: u32,
    units_per_player: usize,
    homes: Vec<(i32, i32)>,
    placements: Vec<Vec<(i32, i32)>>,
    rock_cells: Option<usize>,
    resource_cells: Option<usize>,
    /// (resource, quantity, cells) of each `total` line.
    totals: Vec<(usize, u32, usize)>,
    rock: Vec<bool>,
    /// The overview letters of the `resource_grid` block.
    grid: Vec<u8>,
    buried: Vec<[u16; 7]>,
}

impl OfficialFile {
    /// Takes in one line (as words), and the rows of the block it opens from `lines`. `None`
    /// for a line the format does not have or a value that does not read.
    fn read_line<'a>(
        &mut self,
        words: &[&str],
        lines: &mut impl Iterator<Item = &'a str>,
    ) -> Option<()> {
        let cell = |word: &str| -> Option<(i32, i32)> {
            let (x, y) = word.split_once(',')?;
            Some((x.parse().ok()?, y.parse().ok()?))
        };
        let size = self.size;
        match words {
            ["format", "cq3-map", "1"] | ["source", _] | ["players", "4"] => {}
            ["name", n] => self.name = Some(n.to_string()),
            ["size", w, h] if w == h => {
                self.size = w
                    .parse()
                    .ok()
                    .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))?;
                self.buried = vec![[0; 7]; self.size * self.size];
            }
            ["rounds", n] => self.rounds = n.parse().ok()?,
            ["units_per_player", n] => self.units_per_player = n.parse().ok()?,
            ["start", p, x, y] => {
                (p.parse::<usize>().ok()? == self.homes.len() + 1).then_some(())?;
                self.homes.push((x.parse().ok()?, y.parse().ok()?));
            }
            ["units", p, cells @ ..] => {
                (p.parse::<usize>().ok()? == self.placements.len() + 1).then_some(())?;
                (self.placements).push(cells.iter().map(|c| cell(c)).collect::<Option<_>>()?);
            }
            ["rock_cells", n] => self.rock_cells = Some(n.parse::<usize>().ok()?),
            ["resource_cells", n] => self.resource_cells = Some(n.parse::<usize>().ok()?),
            ["total", kind, qty, cells] => self.totals.push((
                RESOURCES.iter().position(|r| r == kind)?,
                qty.parse().ok()?,
                cells.parse().ok()?,
            )),
            ["terrain", n] if size > 0 && n.parse() == Ok(size) => {
                for row in square_rows(lines, size)? {
                    for b in row.bytes() {
                        self.rock.push(match b {
                            b'.' => false,
                            b'#' => true,
                            _ => return None,
                        });
                    }
                }
            }
            ["resource_grid", n] if size > 0 && n.parse() == Ok(size) => {
                for row in square_rows(lines, size)? {
                    self.grid.extend(row.bytes());
                }
            }
            ["resources", n] if size > 0 => {
                for _ in 0..n.parse::<usize>().ok()? {
                    self.read_buried(lines.next()?)?;
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// One line of the `resources` block: `x y` and pairs of resource and quantity, for a
    /// cell not listed before, each resource once.
    fn read_buried(&mut self, line: &str) -> Option<()> {
        let size = self.size;
        let words: Vec<&str> = line.split_whitespace().collect();
        let [x, y, pairs @ ..] = words.as_slice() else {
            return None;
        };
        let (x, y): (usize, usize) = (x.parse().ok()?, y.parse().ok()?);
        (x < size && y < size && !pairs.is_empty() && pairs.len() % 2 == 0).then_some(())?;
        let here = &mut self.buried[y * size + x];
        (here.iter().all(|&q| q == 0)).then_some(())?;
        for pair in pairs.chunks(2) {
            let kind = RESOURCES.iter().position(|r| *r == pair[0])?;
            let qty: u16 = pair[1].parse().ok().filter(|&q| q > 0)?;
            (here[kind] == 0).then_some(())?;
            here[kind] = qty;
        }
        Some(())
    }

    /// The map, if everything the file says agrees: the overview grid and the counts with the
    /// cells, four homes and four placements of the units on grass.
    fn finish(self) -> Option<Map> {
        let OfficialFile {
            size,
            rounds,
            units_per_player,
            rock_cells,
            resource_cells,
            totals,
            grid,
            ..
        } = self;
        let n = size * size;
        let map = Map {
            name: self.name?,
            size,
            rock: self.rock,
            buried: self.buried,
            homes: self.homes,
            placements: self.placements,
            rounds,
        };
        // The overview letter of each cell, from the list.
        let letter = |b: &[u16; 7]| match b.iter().filter(|&&q| q > 0).count() {
            0 => b'.',
            1 => b
                .iter()
                .position(|&q| q > 0)
                .map_or(b'?', |k| LETTERS[k].to_ascii_uppercase()),
            _ => b'*',
        };
        let consistent = size > 0
            && rounds > 0
            && map.rock.len() == n
            && grid.len() == n
            && (0..n).all(|c| grid[c] == letter(&map.buried[c]))
            && rock_cells == Some(map.rock.iter().filter(|&&r| r).count())
            && resource_cells
                == Some(
                    map.buried
                        .iter()
                        .filter(|b| b.iter().any(|&q| q > 0))
                        .count(),
                )
            && totals.len() == RESOURCES.len()
            && totals.iter().all(|&(kind, qty, cells)| {
                map.buried.iter().map(|b| u32::from(b[kind])).sum::<u32>() == qty
                    && map.buried.iter().filter(|b| b[kind] > 0).count() == cells
            })
            && map.homes.len() == 4
            && map.homes.iter().all(|&(x, y)| map.grass(x, y))
            && map.placements.len() == 4
            && units_per_player == UNITS
            && map
                .placements
                .iter()
                .all(|p| p.len() == UNITS && p.iter().all(|&(x, y)| map.grass(x, y)));
        consistent.then_some(map)
    }
}

/// The `size` rows of a square block, each `size` bytes long; `None` if the file ends first or
/// a row has another length.
fn square_rows<'a>(lines: &mut impl Iterator<Item = &'a str>, size: usize) -> Option<Vec<&'a str>> {
    (0..size)
        .map(|_| lines.next().filter(|row| row.len() == size))
        .collect()
}

/// Rock for a generated map: wall segments in the top-left quadrant, mirrored in both axes;
/// grass cells cut off from the homes become rock. Retries when the homes are not connected.
fn generate_rock(size: usize, rng: &mut JavaRandom) -> Vec<bool> {
    let q = size.div_ceil(2) as i32;
    let n = size as i32 - 1;
    for _attempt in 0..20 {
        let mut rock = vec![false; size * size];
        let target = ((q * q) as usize * (3 + rng.next_int_bounded(8) as usize)).div_ceil(100);
        let mut placed = 0;
        let mut tries = 0;
        while placed < target && tries < 2000 {
            tries += 1;
            let len = 3 + rng.next_int_bounded(10);
            let (dx, dy) = [(1, 0), (0, 1), (1, 1), (1, -1)][rng.next_int_bounded(4) as usize];
            let (x0, y0) = (rng.next_int_bounded(q), rng.next_int_bounded(q));
            for i in 0..len {
                let (x, y) = (x0 + dx * i, y0 + dy * i);
                if x < 0 || y < 0 || x >= q || y >= q {
                    break;
                }
                if (x - HOME).abs() <= HOME_CLEAR && (y - HOME).abs() <= HOME_CLEAR {
                    continue;
                }
                for (mx, my) in [(x, y), (n - x, y), (x, n - y), (n - x, n - y)] {
                    let c = my as usize * size + mx as usize;
                    if !rock[c] {
                        rock[c] = true;
                        if mx == x && my == y {
                            placed += 1;
                        }
                    }
                }
            }
        }
        let reach = reachable(size, &rock, (HOME, HOME));
        if reach[(n - HOME) as usize * size + (n - HOME) as usize] {
            for c in 0..size * size {
                if !reach[c] {
                    rock[c] = true;
                }
            }
            return rock;
        }
    }
    vec![false; size * size]
}

/// The cells reachable from `from` over grass with 8-neighbour moves.
pub fn reachable(size: usize, rock: &[bool], from: (i32, i32)) -> Vec<bool> {
    let mut seen = vec![false; size * size];
    let s = size as i32;
    let start = from.1 as usize * size + from.0 as usize;
    if rock.get(start) != Some(&false) {
        return seen;
    }
    seen[start] = true;
    let mut stack = vec![from];
    while let Some((x, y)) = stack.pop() {
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (nx, ny) = (x + dx, y + dy);
                if nx < 0 || ny < 0 || nx >= s || ny >= s {
                    continue;
                }
                let c = ny as usize * size + nx as usize;
                if !rock[c] && !seen[c] {
                    seen[c] = true;
                    stack.push((nx, ny));
                }
            }
        }
    }
    seen
}

/// How resources are laid out.
struct ResourceParams {
    /// Percent of the grass that holds buried resources: a range drawn from.
    coverage: (i32, i32),
    /// Quantity per cell in tens: a range drawn from per patch.
    tens: (i32, i32),
    /// One patch in this many is rich (80–130 per cell); 0: never.
    rich_one_in: i32,
    /// Relative weight of each resource type when a patch's type is drawn.
    weights: [u32; 7],
}

/// Resource patches of a single type (discs and veins) in the top-left quadrant, mirrored in
/// both axes; never on rock. The first seven patches have the seven types, so every quadrant
/// holds every type.
fn place_resources(
    size: usize,
    rock: &[bool],
    params: &ResourceParams,
    rng: &mut JavaRandom,
) -> Vec<[u16; 7]> {
    let q = size.div_ceil(2) as i32;
    let n = size as i32 - 1;
    let mut buried = vec![[0u16; 7]; size * size];
    let quad_grass = (0..q)
        .flat_map(|y| (0..q).map(move |x| (x, y)))
        .filter(|&(x, y)| !rock[y as usize * size + x as usize])
        .count() as i32;
    let span = params.coverage.1 - params.coverage.0 + 1;
    let target = quad_grass * (params.coverage.0 + rng.next_int_bounded(span)) / 100;
    let mut order: Vec<usize> = (0..RESOURCES.len()).collect();
    for i in (1..order.len()).rev() {
        let j = rng.next_int_bounded(i as i32 + 1) as usize;
        order.swap(i, j);
    }
    let total_weight: u32 = params.weights.iter().sum();
    let mut covered = 0;
    let mut patch = 0;
    while covered < target && patch < 600 {
        let kind = if patch < order.len() {
            order[patch]
        } else {
            let mut w = rng.next_int_bounded(total_weight.max(1) as i32) as u32;
            let mut k = 0;
            while k + 1 < params.weights.len() && w >= params.weights[k] {
                w -= params.weights[k];
                k += 1;
            }
            k
        };
        patch += 1;
        let tens_span = params.tens.1 - params.tens.0 + 1;
        let base = if params.rich_one_in > 0 && rng.next_int_bounded(params.rich_one_in) == 0 {
            10 * (8 + rng.next_int_bounded(6))
        } else {
            10 * (params.tens.0 + rng.next_int_bounded(tens_span))
        };
        let (cx, cy) = (rng.next_int_bounded(q), rng.next_int_bounded(q));
        let mut cells = Vec::new();
        if rng.next_int_bounded(2) == 0 {
            let r = 1 + rng.next_int_bounded(3);
            for dy in -r..=r {
                for dx in -r..=r {
                    if dx * dx + dy * dy <= r * r + r {
                        cells.push((cx + dx, cy + dy));
                    }
                }
            }
        } else {
            let len = 3 + rng.next_int_bounded(6);
            let width = 1 + rng.next_int_bounded(2);
            let (dx, dy): (i32, i32) =
                [(1, 0), (0, 1), (1, 1), (1, -1)][rng.next_int_bounded(4) as usize];
            for i in 0..len {
                for w in 0..width {
                    cells.push((cx + dx * i + dy.abs() * w, cy + dy * i + dx.abs() * w));
                }
            }
        }
        for (x, y) in cells {
            if x < 0 || y < 0 || x >= q || y >= q || rock[y as usize * size + x as usize] {
                continue;
            }
            let qty = (base + 10 * (rng.next_int_bounded(3) - 1)).clamp(10, 130) as u16;
            let first = buried[y as usize * size + x as usize]
                .iter()
                .all(|&v| v == 0);
            for (mx, my) in [(x, y), (n - x, y), (x, n - y), (n - x, n - y)] {
                let c = my as usize * size + mx as usize;
                if !rock[c] {
                    buried[c][kind] = buried[c][kind].max(qty);
                }
            }
            if first {
                covered += 1;
            }
        }
    }
    buried
}
