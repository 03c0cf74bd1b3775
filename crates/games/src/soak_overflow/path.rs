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

use std::cmp::Ordering;

use super::map::{filled, Coord, Grid};

/// One pushed node: its tile, its path length, its priority and the node it was pushed from.
#[derive(Clone, Copy, Debug)]
struct Node {
    at: Coord,
    length: i32,
    priority: i32,
    parent: Option<usize>,
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

/// Squared distance from the centre point (width / 2.0, height / 2.0).
fn centre_distance(grid: &Grid, c: Coord) -> f64 {
    let dx = f64::from(c.x) - f64::from(grid.width) / 2.0;
    let dy = f64::from(c.y) - f64::from(grid.height) / 2.0;
    dx * dx + dy * dy
}

/// What one search found: the path to the target if it was popped, and the expanded tiles in
/// the order they were closed.
struct Search {
    path: Option<Vec<Coord>>,
    expanded: Vec<Coord>,
}

fn search(grid: &Grid, occupied: &[bool], from: Coord, to: Coord) -> Search {
    let mut closed = filled(grid.cells(), false);
    // Room for a short search without growing (most are: a step or a few towards a target).
    let mut nodes = Vec::with_capacity(64);
    nodes.push(Node {
        at: from,
        length: 0,
        priority: 0,
        parent: None,
    });
    let mut heap = JavaHeap {
        heap: Vec::with_capacity(64),
    };
    heap.push(&nodes, 0);
    let mut expanded = Vec::with_capacity(32);
    while let Some(item) = heap.pop(&nodes) {
        let node = nodes[item];
        let i = grid.index(node.at);
        if closed[i] {
            continue;
        }
        closed[i] = true;
        expanded.push(node.at);
        if node.at == to {
            let mut path = Vec::new();
            let mut cur = Some(item);
            while let Some(k) = cur {
                path.push(nodes[k].at);
                cur = nodes[k].parent;
            }
            path.reverse();
            return Search {
                path: Some(path),
                expanded,
            };
        }
        // At most four neighbours: kept on the stack (this runs for every tile expanded).
        let mut around = [node.at; 4];
        let mut count = 0;
        for n in grid.neighbours4(node.at) {
            around[count] = n;
            count += 1;
        }
        let next = &mut around[..count];
        next.sort_by(|a, b| {
            let (oa, ob) = (occupied[grid.index(*a)], occupied[grid.index(*b)]);
            oa.cmp(&ob).then_with(|| {
                centre_distance(grid, *b)
                    .partial_cmp(&centre_distance(grid, *a))
                    .unwrap_or(Ordering::Equal)
            })
        });
        for &mut n in next {
            let j = grid.index(n);
            if grid.is_cover(n) || closed[j] {
                continue;
            }
            let length = node.length + 1;
            nodes.push(Node {
                at: n,
                length,
                priority: length + 1,
                parent: Some(item),
            });
            heap.push(&nodes, nodes.len() - 1);
        }
    }
    Search {
        path: None,
        expanded,
    }
}

/// The referee's path from `from` towards `to` (rulebook: *Moving*), including `from`; `occupied` marks the
/// tiles with an agent on them, by tile index. `None` when `from` is not a floor tile inside the
/// grid (never for a living agent).
pub fn find_path(grid: &Grid, occupied: &[bool], from: Coord, to: Coord) -> Option<Vec<Coord>> {
    if !grid.inside(from) || grid.is_cover(from) || occupied.len() != grid.cells() {
        return None;
    }
    let first = search(grid, occupied, from, to);
    if let Some(path) = first.path {
        return Some(path);
    }
    let mut best: Option<Coord> = None;
    for &c in &first.expanded {
        best = match best {
            None => Some(c),
            Some(b) => {
                let (dc, db) = (c.manhattan(to), b.manhattan(to));
                let better =
                    dc < db || (dc == db && centre_distance(grid, c) > centre_distance(grid, b));
                Some(if better { c } else { b })
            }
        };
    }
    let nearest = best?;
    search(grid, occupied, from, nearest).path
}

/// The tile an agent at `from` steps to this turn when told to move to `to`: the second tile of
/// its path, if there is one.
pub fn next_step(grid: &Grid, occupied: &[bool], from: Coord, to: Coord) -> Option<Coord> {
    if from == to {
        return None;
    }
    find_path(grid, occupied, from, to).and_then(|p| p.get(1).copied())
}
