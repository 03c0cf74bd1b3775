//! The referee's path search (rulebook: *Moving*), tie for tie.
//!
//! It is a uniform-cost search on a `java.util.PriorityQueue`: every pushed node has the
//! priority (its path length + 1) and equal priorities come out in binary-heap order, which a
//! small port of that heap reproduces. A node's neighbours are generated up, right, down, left
//! and then stably sorted: free tiles before tiles with an agent on them, then tiles farther
//! from the point (width / 2, height / 2) first. Covers are never pushed, nor are closed tiles;
//! a tile is closed when first popped, and the search ends when the target is popped. Agents
//! are not obstacles; they only change the order.
//!
//! An unreachable target (a cover, or off the grid) is replaced by the expanded tile nearest to
//! it (Manhattan; ties to the tile farther from the centre, then to the earlier expanded), and
//! the search runs again towards that tile.

use std::cmp::Reverse;

use super::map::{filled, Coord, Grid, FLOOR};

/// One pushed node: its tile, its path length, its priority and the node it was pushed from;
/// `closed` is its rank in the closing order (from 1) if it closed its tile, else 0.
#[derive(Clone, Copy, Debug)]
struct Node {
    at: Coord,
    length: i32,
    priority: i32,
    parent: Option<usize>,
    closed: u32,
}

/// One bit per tile: the closed tiles of a search (cleared in a few words, where a flag per
/// tile would take a pass over the grid; most searches close a few tiles only).
struct TileSet(Vec<u64>);

impl TileSet {
    fn new(cells: usize) -> TileSet {
        TileSet(filled(cells.div_ceil(64), 0))
    }

    fn contains(&self, i: usize) -> bool {
        self.0[i / 64] >> (i % 64) & 1 == 1
    }

    fn insert(&mut self, i: usize) {
        self.0[i / 64] |= 1 << (i % 64);
    }
}

/// `java.util.PriorityQueue`'s binary heap over indices into a node arena, ordered by priority
/// only: insertion sifts up while strictly smaller than the parent; removal moves the last
/// element to the root and sifts down, taking the right child only when strictly smaller than
/// the left, and stopping when not greater than the smaller child.
struct JavaHeap {
    heap: Vec<usize>,
}

impl JavaHeap {
    fn push(&mut self, nodes: &[Node], item: usize) {
        let key = nodes[item].priority;
        let mut k = self.heap.len();
        self.heap.push(item);
        while k > 0 {
            let parent = (k - 1) / 2;
            if key >= nodes[self.heap[parent]].priority {
                break;
            }
            self.heap[k] = self.heap[parent];
            k = parent;
        }
        self.heap[k] = item;
    }

    fn pop(&mut self, nodes: &[Node]) -> Option<usize> {
        let result = *self.heap.first()?;
        let last = self.heap.pop()?;
        let n = self.heap.len();
        if n > 0 {
            let key = nodes[last].priority;
            let mut k = 0;
            let half = n / 2;
            while k < half {
                let mut child = 2 * k + 1;
                let right = child + 1;
                if right < n && nodes[self.heap[child]].priority > nodes[self.heap[right]].priority
                {
                    child = right;
                }
                if key <= nodes[self.heap[child]].priority {
                    break;
                }
                self.heap[k] = self.heap[child];
                k = child;
            }
            self.heap[k] = last;
        }
        Some(result)
    }
}

/// Four times the squared distance from the centre point (width / 2, height / 2): the
/// referee's measure, scaled to whole numbers (which keeps its order exactly).
fn centre_distance(grid: &Grid, c: Coord) -> i64 {
    let dx = 2 * i64::from(c.x) - i64::from(grid.width);
    let dy = 2 * i64::from(c.y) - i64::from(grid.height);
    dx * dx + dy * dy
}

/// What one search found: the nodes pushed, and the target's node if it was popped.
struct Search {
    nodes: Vec<Node>,
    target: Option<usize>,
}

impl Search {
    /// The path to the target, from the start, if it was reached.
    fn path(&self) -> Option<Vec<Coord>> {
        let mut path = Vec::new();
        let mut cur = Some(self.target?);
        while let Some(k) = cur {
            path.push(self.nodes[k].at);
            cur = self.nodes[k].parent;
        }
        path.reverse();
        Some(path)
    }

    /// The second tile of [`Search::path`], found without writing the path out: the target's
    /// ancestor pushed from the start (node 0). `None` when the target is the start.
    fn first_step(&self) -> Option<Coord> {
        let mut k = self.target?;
        loop {
            let parent = self.nodes[k].parent?;
            if parent == 0 {
                return Some(self.nodes[k].at);
            }
            k = parent;
        }
    }

    /// The closed tile nearest to `to` (Manhattan); on a tie the one farther from the centre,
    /// then the one closed first.
    fn nearest_closed(&self, grid: &Grid, to: Coord) -> Option<Coord> {
        let best = self.nodes.iter().filter(|n| n.closed > 0).min_by_key(|n| {
            (
                n.at.manhattan(to),
                Reverse(centre_distance(grid, n.at)),
                n.closed,
            )
        })?;
        Some(best.at)
    }
}

fn search(grid: &Grid, occupied: &[bool], from: Coord, to: Coord) -> Search {
    let mut closed = TileSet::new(grid.cells());
    let mut rank = 0;
    // Room for a short search without growing (most are: a step or a few towards a target),
    // and small enough for the allocator's per-thread cache (which takes up to about 1 kB).
    let mut nodes = Vec::with_capacity(16);
    nodes.push(Node {
        at: from,
        length: 0,
        priority: 0,
        parent: None,
        closed: 0,
    });
    let mut heap = JavaHeap {
        heap: Vec::with_capacity(16),
    };
    heap.push(&nodes, 0);
    while let Some(item) = heap.pop(&nodes) {
        let node = nodes[item];
        let i = grid.index(node.at);
        if closed.contains(i) {
            continue;
        }
        closed.insert(i);
        rank += 1;
        nodes[item].closed = rank;
        if node.at == to {
            return Search {
                nodes,
                target: Some(item),
            };
        }
        // The neighbours inside the grid, up, right, down, left, with their sort keys: free
        // tiles first, then the farther from the centre first. At most four: kept on the stack
        // (this runs for every tile expanded).
        let mut around = [((false, Reverse(0)), node.at, 0); 4];
        let mut count = 0;
        for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
            let n = Coord::new(node.at.x + dx, node.at.y + dy);
            if grid.inside(n) {
                let j = grid.index(n);
                around[count] = ((occupied[j], Reverse(centre_distance(grid, n))), n, j);
                count += 1;
            }
        }
        let next = &mut around[..count];
        // Stable: equal keys keep the order above.
        next.sort_by_key(|&(key, _, _)| key);
        for &mut (_, n, j) in next {
            if grid.tiles[j] != FLOOR || closed.contains(j) {
                continue;
            }
            let length = node.length + 1;
            nodes.push(Node {
                at: n,
                length,
                priority: length + 1,
                parent: Some(item),
                closed: 0,
            });
            heap.push(&nodes, nodes.len() - 1);
        }
    }
    Search {
        nodes,
        target: None,
    }
}

/// The referee's search from `from` towards `to` (rulebook: *Moving*): towards `to` if it is
/// reached, else again towards the expanded tile nearest to it. `None` when `from` is not a
/// floor tile inside the grid (never for a living agent).
fn path_search(grid: &Grid, occupied: &[bool], from: Coord, to: Coord) -> Option<Search> {
    if !grid.inside(from) || grid.is_cover(from) || occupied.len() != grid.cells() {
        return None;
    }
    let first = search(grid, occupied, from, to);
    if first.target.is_some() {
        return Some(first);
    }
    let nearest = first.nearest_closed(grid, to)?;
    Some(search(grid, occupied, from, nearest))
}

/// The referee's path from `from` towards `to` (rulebook: *Moving*), including `from`; `occupied` marks the
/// tiles with an agent on them, by tile index. `None` when `from` is not a floor tile inside the
/// grid (never for a living agent).
pub fn find_path(grid: &Grid, occupied: &[bool], from: Coord, to: Coord) -> Option<Vec<Coord>> {
    path_search(grid, occupied, from, to)?.path()
}

/// The tile an agent at `from` steps to this turn when told to move to `to`: the second tile of
/// its path, if there is one. Without a search where the way is a straight line of floor
/// ([`straight_step`]).
pub fn next_step(grid: &Grid, occupied: &[bool], from: Coord, to: Coord) -> Option<Coord> {
    if from == to {
        return None;
    }
    if let Some(step) = straight_step(grid, occupied, from, to) {
        return Some(step);
    }
    path_search(grid, occupied, from, to)?.first_step()
}

/// [`next_step`] when `to` is in `from`'s row or column with floor all the way (the tests
/// compare it with the search on random grids): the search then finds `to` (it is reachable),
/// by a shortest path (it closes each tile at its first, shortest, length), and the one path
/// of that length is the straight line (a path as long as the Manhattan distance never steps
/// back, so never leaves the line). Its first step is the tile after `from` on the line,
/// whatever the order of ties. `None` where this does not apply.
fn straight_step(grid: &Grid, occupied: &[bool], from: Coord, to: Coord) -> Option<Coord> {
    let valid = grid.inside(from) && !grid.is_cover(from) && occupied.len() == grid.cells();
    if !valid || !grid.inside(to) || (from.x != to.x && from.y != to.y) {
        return None;
    }
    let (dx, dy) = ((to.x - from.x).signum(), (to.y - from.y).signum());
    let first = Coord::new(from.x + dx, from.y + dy);
    let mut c = from;
    while c != to {
        c = Coord::new(c.x + dx, c.y + dy);
        if grid.tiles[grid.index(c)] != FLOOR {
            return None;
        }
    }
    Some(first)
}

/// [`next_step`] by the search alone: the tests' reference for [`straight_step`].
#[cfg(test)]
pub fn searched_step(grid: &Grid, occupied: &[bool], from: Coord, to: Coord) -> Option<Coord> {
    if from == to {
        return None;
    }
    path_search(grid, occupied, from, to)?.first_step()
}
