//! Territory (rulebook: *Territory and points*): every tile, covers included, goes to the seat
//! whose agents are nearest to it, if all the nearest agents are that seat's; soaked agents do
//! not count, and an agent with [`HEAVY`](super::state::HEAVY) wetness or more counts double
//! distances.
//!
//! [`plain_control`] decides each tile in the plainest way. On every grid the game generates,
//! [`control`] (for the viewer) and [`counts`] (all a turn needs: how many tiles each seat
//! controls) work on whole rows instead, eight tiles at a time, and fall back on
//! [`plain_control`] elsewhere. The tests check that they agree.

use std::cmp::Ordering;

use super::map::Grid;
use super::state::{Agent, PLAYERS};

/// Per tile, row by row: the seat controlling it (`None`: a tie, or nobody has agents).
pub fn control(grid: &Grid, agents: &[Agent]) -> Vec<Option<usize>> {
    let mut nearest = FAR_EVERYWHERE;
    if !packed_distances(grid, agents, &mut nearest) {
        return plain_control(grid, agents);
    }
    let (width, height) = (grid.width as usize, grid.height as usize);
    let mut control = Vec::with_capacity(width * height);
    for (red, blue) in nearest[0][..height].iter().zip(&nearest[1][..height]) {
        for x in 0..width {
            let byte = |words: &[u64; WORDS]| words[x / LANES] >> (8 * (x % LANES)) & 0xFF;
            control.push(owner(byte(red).cmp(&byte(blue))));
        }
    }
    control
}

/// The seat controlling a tile, from how its nearest red and blue distances compare.
fn owner(red_to_blue: Ordering) -> Option<usize> {
    match red_to_blue {
        Ordering::Less => Some(0),
        Ordering::Greater => Some(1),
        Ordering::Equal => None,
    }
}

/// [`control`] in the plainest way: per tile, every agent's distance.
fn plain_control(grid: &Grid, agents: &[Agent]) -> Vec<Option<usize>> {
    (0..grid.cells())
        .map(|i| {
            let tile = grid.coord(i);
            // Per seat: the territory distance of its nearest agent.
            let mut nearest = [i64::MAX; PLAYERS];
            for a in agents.iter().filter(|a| !a.dying) {
                let d = a.zone_factor() * i64::from(a.at.manhattan(tile));
                let seat = usize::from(a.owner != 0);
                nearest[seat] = nearest[seat].min(d);
            }
            owner(nearest[0].cmp(&nearest[1]))
        })
        .collect()
}

/// How many tiles each seat controls: the tiles of [`control`] counted per seat.
pub fn counts(grid: &Grid, agents: &[Agent]) -> [usize; PLAYERS] {
    let mut nearest = FAR_EVERYWHERE;
    if !packed_distances(grid, agents, &mut nearest) {
        let mut n = [0; PLAYERS];
        for seat in plain_control(grid, agents).into_iter().flatten() {
            n[seat] += 1;
        }
        return n;
    }
    let width = grid.width as usize;
    // Per word: the top bits of the bytes that are tiles of the row.
    let valid: [u64; WORDS] = std::array::from_fn(|j| match width.saturating_sub(LANES * j) {
        0 => 0,
        n if n >= LANES => HIGH,
        n => HIGH & ((1 << (8 * n)) - 1),
    });
    // Per seat: the tiles it wins, counted per byte (at most 48 in each: no carry).
    let mut wins = [0u64; PLAYERS];
    let height = grid.height as usize;
    for (red, blue) in nearest[0][..height].iter().zip(&nearest[1][..height]) {
        for j in 0..WORDS {
            wins[0] += less_bytes(red[j], blue[j], valid[j]);
            wins[1] += less_bytes(blue[j], red[j], valid[j]);
        }
    }
    wins.map(|w| w.to_le_bytes().iter().map(|&b| usize::from(b)).sum())
}

// The fast count works on whole rows at once, eight tiles per `u64`: byte k of a row's word j
// holds the distance at column 8j + k. Distances stay below 128 (at most 2 × (23 + 15) = 76 on
// the largest grid taken, 24 × 16), so the top bit of every byte is free, and that is what lets
// plain 64-bit subtraction compare eight bytes at once without one byte borrowing from the next.

/// Tiles per word.
const LANES: usize = 8;
/// Words per row: the widest row taken is 24 tiles; the game's grids are at most 20 wide.
const WORDS: usize = 3;
/// The most rows taken; the game's grids are at most 10 high.
const MAX_ROWS: usize = 16;
/// 1 in every byte: `v * ONES` is `v` in every byte.
const ONES: u64 = 0x0101_0101_0101_0101;
/// The top bit of every byte.
const HIGH: u64 = 0x80 * ONES;
/// The low seven bits of every byte; also a distance beyond any real one (the largest is 76):
/// the distance of a seat without agents.
const FAR: u64 = 0x7F * ONES;
/// Byte k holds k: the columns of a row's first word.
const COLUMNS: u64 = 0x0706_0504_0302_0100;

/// Per byte, for bytes below 128: 0x7F where `a >= b`, 0 where `a < b`. Setting each byte's top
/// bit in `a` before subtracting keeps every byte's difference positive, so no byte borrows
/// from the next, and the top bit survives exactly where `a >= b`.
fn at_least(a: u64, b: u64) -> u64 {
    let high = ((a | HIGH) - b) & HIGH;
    high - (high >> 7)
}

/// Per byte, for bytes below 128: the smaller of `a` and `b`.
fn min_bytes(a: u64, b: u64) -> u64 {
    a ^ ((a ^ b) & at_least(a, b))
}

/// Per byte, for bytes below 128: `|a − b|`. Each byte's difference is taken both ways with its
/// top bit set first (as in [`at_least`]); the top bit tells which way did not go below zero.
fn distance_bytes(a: u64, b: u64) -> u64 {
    let forward = (a | HIGH) - b;
    let backward = (b | HIGH) - a;
    let high = forward & HIGH;
    let a_not_less = high - (high >> 7);
    (forward & a_not_less) | (backward & !a_not_less & FAR)
}

/// Per byte selected by `valid` (top bits), for bytes below 128: 1 where `a < b`, else 0.
fn less_bytes(a: u64, b: u64, valid: u64) -> u64 {
    (!((a | HIGH) - b) & valid) >> 7
}

/// Per seat and row, eight tiles to a word: the distance of the seat's nearest agent.
type Rows = [[[u64; WORDS]; MAX_ROWS]; PLAYERS];

/// [`Rows`] with no agent anywhere.
const FAR_EVERYWHERE: Rows = [[[FAR; WORDS]; MAX_ROWS]; PLAYERS];

/// Fills `nearest` (given as [`FAR_EVERYWHERE`]) for a grid of at most `WORDS * LANES` columns
/// and `MAX_ROWS` rows with every agent on it; `false` (nothing done) for any other.
fn packed_distances(grid: &Grid, agents: &[Agent], nearest: &mut Rows) -> bool {
    let width = grid.width as usize;
    let height = grid.height as usize;
    let live = || agents.iter().filter(|a| !a.dying);
    let fits = (1..=WORDS * LANES).contains(&width)
        && (1..=MAX_ROWS).contains(&height)
        && grid.cells() == width * height
        && live().all(|a| grid.inside(a.at));
    if !fits {
        return false;
    }
    for a in live() {
        let factor = a.zone_factor() as u64;
        let (ax, ay) = (a.at.x as u64, a.at.y as usize);
        // The agent's distances along any row, before adding the rows between: factor × |x − ax|
        // for every column x of the words (those past the row's end are not counted).
        let across: [u64; WORDS] = std::array::from_fn(|j| {
            let columns = COLUMNS + (LANES * j) as u64 * ONES;
            factor * distance_bytes(columns, ax * ONES)
        });
        let seat = &mut nearest[usize::from(a.owner != 0)];
        for (y, row) in seat[..height].iter_mut().enumerate() {
            let down = factor * y.abs_diff(ay) as u64 * ONES;
            // Written out word by word: this runs for every agent and row.
            let [d0, d1, d2] = *row;
            *row = [
                min_bytes(d0, across[0] + down),
                min_bytes(d1, across[1] + down),
                min_bytes(d2, across[2] + down),
            ];
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::soak_overflow::map::Coord;
    use crate::soak_overflow::state::{Class, HEAVY, SOAKED};
    use engine::JavaRandom;

    /// The tiles of [`plain_control`] counted per seat.
    fn counted(grid: &Grid, agents: &[Agent]) -> [usize; PLAYERS] {
        let mut n = [0; PLAYERS];
        for seat in plain_control(grid, agents).into_iter().flatten() {
            n[seat] += 1;
        }
        n
    }

    /// Random agents on random grids, from the game's sizes to the largest the row by row work
    /// takes and beyond it (the fallback), some wet, some soaked, some off the grid.
    #[test]
    fn rows_give_the_plain_control_and_its_counts() {
        let mut rng = JavaRandom::new(7);
        let mut packed = 0;
        for round in 0..3_000 {
            let (width, height) = match round % 4 {
                0 => (20, 10),
                1 => (12, 6),
                2 => (24, 16),
                _ => (1 + rng.next_int_bounded(40), 1 + rng.next_int_bounded(20)),
            };
            let grid = Grid::from_rows(
                &vec!["0".repeat(width as usize); height as usize]
                    .iter()
                    .map(String::as_str)
                    .collect::<Vec<_>>(),
                true,
                Vec::new(),
            );
            let mut agents = Vec::new();
            for id in 0..rng.next_int_bounded(11) {
                let off = rng.next_int_bounded(50) == 0;
                let at = if off {
                    Coord::new(width + rng.next_int_bounded(3), -rng.next_int_bounded(3))
                } else {
                    Coord::new(rng.next_int_bounded(width), rng.next_int_bounded(height))
                };
                let owner = rng.next_int_bounded(2) as usize;
                let mut a = Agent::new(id + 1, owner, Class::ALL[id as usize % 5], at);
                a.wetness = [0, HEAVY - 1, HEAVY, 99, SOAKED][rng.next_int_bounded(5) as usize];
                a.dying = a.wetness >= SOAKED;
                agents.push(a);
            }
            let live = || agents.iter().filter(|a| !a.dying);
            let fits = width <= 24 && height <= 16 && live().all(|a| grid.inside(a.at));
            let mut rows = FAR_EVERYWHERE;
            assert_eq!(packed_distances(&grid, &agents, &mut rows), fits);
            packed += usize::from(fits);
            let shown = agents
                .iter()
                .map(|a| (a.owner, a.at, a.wetness, a.dying))
                .collect::<Vec<_>>();
            let why = format!("{width} × {height}, agents {shown:?}");
            assert_eq!(
                control(&grid, &agents),
                plain_control(&grid, &agents),
                "{why}"
            );
            assert_eq!(counts(&grid, &agents), counted(&grid, &agents), "{why}");
        }
        assert!(packed > 2_000, "{packed}");
    }

    #[test]
    fn bytes_compare_and_take_the_smaller() {
        let a = u64::from_le_bytes([0, 5, 127, 64, 63, 1, 90, 7]);
        let b = u64::from_le_bytes([0, 6, 126, 64, 127, 0, 91, 7]);
        assert_eq!(min_bytes(a, b).to_le_bytes(), [0, 5, 126, 64, 63, 0, 90, 7]);
        assert_eq!(
            distance_bytes(a, b).to_le_bytes(),
            [0, 1, 1, 0, 64, 1, 1, 0]
        );
        assert_eq!(
            less_bytes(a, b, HIGH).to_le_bytes(),
            [0, 1, 0, 0, 1, 0, 1, 0]
        );
        assert_eq!(
            less_bytes(b, a, HIGH).to_le_bytes(),
            [0, 0, 1, 0, 0, 1, 0, 0]
        );
        assert_eq!(less_bytes(a, b, HIGH & 0xFFFF), 1 << 8);
    }
}
