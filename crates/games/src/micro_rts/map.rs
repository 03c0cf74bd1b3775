//! Map generation (rulebook: *Map generation*), bit-exact with the referee: one
//! `java.util.Random(seed)` stream draws the size, carves the left half with a wandering "builder", opens the mirror
//! axis, mirrors, then places castles, gold mines, forests and barracks.

use engine::JavaRandom;

use super::state::{Arena, BARRACKS, CASTLE, FOREST, MINE, NEUTRAL};

/// Rulebook, *Map generation* step 1: width 15..31, height 15..17.
const MIN_WIDTH: i32 = 15;
const MAX_WIDTH: i32 = 32;
const MIN_HEIGHT: i32 = 15;
const MAX_HEIGHT: i32 = 18;
/// Rulebook, *Map generation* step 8: resource amounts 5..24.
const MIN_RESOURCE: i32 = 5;
const MAX_RESOURCE: i32 = 25;
/// A guard on redrawing a position (see [`place`]).
const MAX_DRAWS: u32 = 10_000_000;

/// The carving grid of the left half: `true` = wall. Indexed over the whole width, as the
/// referee's array is (the right half stays walls until mirrored).
struct Carve {
    width: i32,
    height: i32,
    wall: Vec<bool>,
}

impl Carve {
    fn wall(&self, x: i32, y: i32) -> bool {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return true;
        }
        self.wall[(x * self.height + y) as usize]
    }

    fn clear(&mut self, x: i32, y: i32) {
        if x >= 0 && y >= 0 && x < self.width && y < self.height {
            self.wall[(x * self.height + y) as usize] = false;
        }
    }
}

/// Generates the arena of a seed: walls, castles, mines, forests, barracks, in the referee's
/// entity-list order, and both players' start resources.
pub fn generate(seed: i64) -> Arena {
    let mut rng = JavaRandom::new(seed);
    let width = rng.next_int_bounded(MAX_WIDTH - MIN_WIDTH) + MIN_WIDTH;
    let height = rng.next_int_bounded(MAX_HEIGHT - MIN_HEIGHT) + MIN_HEIGHT;
    let mut carve = Carve {
        width,
        height,
        wall: vec![true; (width * height) as usize],
    };
    carve_left_half(&mut carve, &mut rng);
    // Mirror the left half onto the right (an odd width shares the middle column).
    let sx = (width + 1) / 2;
    for x in 0..sx {
        for y in 0..height {
            let w = carve.wall(x, y);
            let i = ((width - 1 - x) * height + y) as usize;
            carve.wall[i] = w;
        }
    }

    let mut arena = Arena::walled(width, height);
    for x in 0..width {
        for y in 0..height {
            if carve.wall(x, y) {
                arena.add(x, y, NEUTRAL, super::state::WALL, -1);
            } else {
                arena.set_tile(x, y, super::state::Tile::default());
            }
        }
    }
    let mut empty = (0..width)
        .flat_map(|x| (0..height).map(move |y| (x, y)))
        .filter(|&(x, y)| !carve.wall(x, y))
        .count() as i32;
    empty = place(&mut arena, &mut rng, Kind::Player(CASTLE), 1, -2, empty);
    empty = place(&mut arena, &mut rng, Kind::Resource(MINE), 0, 5, empty);
    empty = place(&mut arena, &mut rng, Kind::Resource(FOREST), 0, 5, empty);
    place(&mut arena, &mut rng, Kind::Player(BARRACKS), 0, -2, empty);
    arena
}

/// Rulebook, *Map generation* steps 2–5 on the left half.
fn carve_left_half(carve: &mut Carve, rng: &mut JavaRandom) {
    let sx = (carve.width + 1) / 2;
    let sy = carve.height;
    // A tile is frozen once no wall around it can be cleared from it; the edges start frozen.
    let mut frozen: Vec<bool> = (0..sx)
        .flat_map(|x| (0..sy).map(move |y| x == 0 || y == 0 || y == sy - 1))
        .collect();
    let mut cleared = clear_root(carve, rng);
    let mut builder: Option<Builder> = None;
    while cleared < 6 * (sx * sy) / 10 {
        match &mut builder {
            None => {
                let viable = viable_walls(carve, &mut frozen);
                if viable.is_empty() {
                    break;
                }
                let pick = rng.next_int_bounded(viable.len() as i32) as usize;
                let (x, y) = viable[pick];
                if carve.wall(x, y) {
                    carve.clear(x, y);
                    cleared += 1;
                    builder = Some(Builder {
                        x,
                        y,
                        direction: rng.next_int_bounded(8),
                        stepped: 0,
                    });
                }
            }
            Some(walking) => match walking.step(carve) {
                Some(more) => cleared += more,
                None => builder = None,
            },
        }
    }
    open_mirror_axis(carve, rng);
}

/// The first cleared strip: part of the half's last column around a random row. Returns the
/// number of tiles cleared.
fn clear_root(carve: &mut Carve, rng: &mut JavaRandom) -> i32 {
    let sx = (carve.width + 1) / 2;
    let sy = carve.height;
    let root_x = sx - 1;
    let root_y = rng.next_int_bounded(sy - 2) + 1;
    let mut cleared = 0;
    let expansion = rng.next_int_bounded(sy - 1) + 1;
    for i in 0..expansion {
        if root_y - i > 0 {
            carve.clear(root_x, root_y - i);
            cleared += 1;
        }
        if root_y + i < sy - 1 {
            carve.clear(root_x, root_y + i);
            cleared += 1;
        }
    }
    cleared
}

/// Every wall beside a cleared tile of the left half that is not frozen, in the referee's order
/// (a wall beside several tiles is listed once for each); a cleared tile with none beside it
/// becomes frozen.
fn viable_walls(carve: &Carve, frozen: &mut [bool]) -> Vec<(i32, i32)> {
    let sx = (carve.width + 1) / 2;
    let sy = carve.height;
    let fi = |x: i32, y: i32| (x * sy + y) as usize;
    let mut viable: Vec<(i32, i32)> = Vec::new();
    for i in 1..sx {
        for j in 1..sy {
            if carve.wall(i, j) || frozen[fi(i, j)] {
                continue;
            }
            let before = viable.len();
            // N, NE, E, SE, S, SW, W, NW, each with its bounds condition.
            let candidates = [
                (i, j - 1, j - 1 > 0),
                (i + 1, j - 1, j - 1 > 0 && i + 1 < sx),
                (i + 1, j, i + 1 < sx),
                (i + 1, j + 1, j + 1 < sy - 1 && i + 1 < sx),
                (i, j + 1, j + 1 < sy - 1),
                (i - 1, j + 1, j + 1 < sy - 1 && i - 1 > 0),
                (i - 1, j, i - 1 > 0),
                (i - 1, j - 1, j - 1 > 0 && i - 1 > 0),
            ];
            for (x, y, ok) in candidates {
                if ok && carve.wall(x, y) {
                    viable.push((x, y));
                }
            }
            if viable.len() == before {
                frozen[fi(i, j)] = true;
            }
        }
    }
    viable
}

/// A builder walking from the wall it cleared in one of eight directions.
struct Builder {
    x: i32,
    y: i32,
    direction: i32,
    stepped: i32,
}

impl Builder {
    /// One step: moves when the edge allows, then clears its tile if a cleared tile touches it
    /// (a diagonal touch also clears the tile beside). Returns the number of tiles counted as
    /// cleared, or `None` when the builder stops (near the edge, or after five steps).
    fn step(&mut self, carve: &mut Carve) -> Option<i32> {
        let sx = (carve.width + 1) / 2;
        let sy = carve.height;
        let (cx, cy) = (self.x, self.y);
        let moved = match self.direction {
            0 if cy > 1 => Some((0, -1)),
            1 if cx < sx - 1 => Some((1, 0)),
            2 if cy < sy - 1 => Some((0, 1)),
            3 if cx > 1 => Some((-1, 0)),
            4 if cx < sx - 1 && cy > 1 => Some((1, -1)),
            5 if cx < sx - 1 && cy < sy - 1 => Some((1, 1)),
            6 if cx > 1 && cy < sy - 1 => Some((-1, 1)),
            7 if cx > 1 && cy > 1 => Some((-1, -1)),
            _ => None,
        };
        if let Some((dx, dy)) = moved {
            self.x += dx;
            self.y += dy;
            self.stepped += 1;
        }
        let (cx, cy) = (self.x, self.y);
        if !(cx < sx - 1 && cy < sy - 1 && cx > 1 && cy > 1 && self.stepped <= 5) {
            return None;
        }
        // The first cleared neighbour in the order E, W, S, N, NE, SE, SW, NW; a diagonal one
        // also clears the tile beside (counted even if already clear).
        let order = [
            (1, 0, 0),
            (-1, 0, 0),
            (0, 1, 0),
            (0, -1, 0),
            (1, -1, 1),
            (1, 1, 1),
            (-1, 1, -1),
            (-1, -1, -1),
        ];
        let mut cleared = 0;
        if let Some(&(_, _, side)) = order
            .iter()
            .find(|&&(dx, dy, _)| !carve.wall(cx + dx, cy + dy))
        {
            if carve.wall(cx, cy) {
                carve.clear(cx, cy);
                cleared += 1;
                if side != 0 {
                    carve.clear(cx + side, cy);
                    cleared += 1;
                }
            }
        }
        Some(cleared)
    }
}

/// Openings on the mirror axis: a random number of the walls left in the half's last column
/// are cleared, each only where a cleared tile lies beside it (rulebook: *Map generation*).
fn open_mirror_axis(carve: &mut Carve, rng: &mut JavaRandom) {
    let sx = (carve.width + 1) / 2;
    let sy = carve.height;
    let mut blocked: Vec<i32> = (1..sy - 1).filter(|&j| carve.wall(sx - 1, j)).collect();
    if !blocked.is_empty() {
        let mut extra = rng.next_int_bounded(blocked.len() as i32);
        while extra > 0 && !blocked.is_empty() {
            let m = rng.next_int_bounded(blocked.len() as i32) as usize;
            let j = blocked[m];
            if !carve.wall(sx - 2, j) || !carve.wall(sx - 2, j - 1) || !carve.wall(sx - 2, j + 1) {
                carve.clear(sx - 1, j);
                extra -= 1;
            }
            blocked.remove(m);
        }
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Player(u8),
    Resource(u8),
}

/// The referee's `generateEntities`: how many of a kind, then where (rulebook: *Map generation* step 8). Returns the
/// number of empty tiles left.
fn place(
    arena: &mut Arena,
    rng: &mut JavaRandom,
    kind: Kind,
    min: i32,
    max_value: i32,
    mut empty: i32,
) -> i32 {
    let max = if max_value <= 0 {
        max_value.abs()
    } else {
        // ceil(empty · v / 100), in integers.
        (empty * max_value + 99).div_euclid(100)
    };
    let amount = if min >= max {
        min
    } else {
        rng.next_int_bounded(max - min) + min
    };
    let width = arena.width;
    let height = arena.height;
    let mut i = 0;
    while i < amount && empty > 0 {
        let mut x = rng.next_int_bounded(width);
        let mut y = rng.next_int_bounded(height);
        let middle = |x: i32| x == width - x - 1;
        let player = matches!(kind, Kind::Player(_));
        let mut draws = 0;
        while !arena.tile(x, y).is_empty() || (player && middle(x)) {
            draws += 1;
            if draws > MAX_DRAWS {
                // No free tile is left: the referee would draw forever; never reached on the
                // generated maps, which stay over half open.
                return empty;
            }
            x = rng.next_int_bounded(width);
            y = rng.next_int_bounded(height);
        }
        match kind {
            Kind::Resource(resource) => {
                let amount = rng.next_int_bounded(MAX_RESOURCE - MIN_RESOURCE) + MIN_RESOURCE;
                arena.add(x, y, NEUTRAL, resource, amount);
                if middle(x) {
                    empty -= 1;
                } else {
                    arena.add(width - x - 1, y, NEUTRAL, resource, amount);
                    empty -= 2;
                }
            }
            Kind::Player(entity) => {
                arena.add_player_entity(x, y, 0, entity);
                arena.add_player_entity(width - x - 1, y, 1, entity);
            }
        }
        i += 1;
    }
    empty
}
