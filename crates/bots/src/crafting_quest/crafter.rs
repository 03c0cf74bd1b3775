//! `Crafter`: plays sensibly, one request at a time, reading each answer.
//!
//! Every unit, in id order, until it has nothing useful left to do this turn:
//!
//! 1. sets its retaliation once (hit back with 40 while it has 40 energy);
//! 2. crafts a sword or an armour when it carries a recipe; units 0–2 of the team (guards)
//!    equip their first sword, every other crafted item is dropped (crafting scores at once,
//!    and carrying items slows a unit down);
//! 3. kills a neighbouring enemy it can finish in one blow (the cheapest such attack);
//! 4. on a cell with buried resources: digs to learn the quantities, then picks everything up
//!    (points for what comes out of the ground); takes the ingredients it needs from a pile;
//!    then drops what it does not need (carried weight makes every step dearer);
//! 5. otherwise steps towards, in this order of preference: a killable enemy within two steps;
//!    the next stop of a *crafting round* — wood, stone, then the heavy ingredient (10 iron for
//!    a sword, 20 leather for an armour), each stop within 3 cells of the next so that the
//!    loaded part of the walk stays short; the best resource cell (more for bigger quantities,
//!    less for distance, one unit per cell); the nearest unexplored cell.
//!
//! A unit keeps the light ingredients (4 wood, 4 stone) only while a crafting round is
//! possible. Guards work towards a level-1 sword until they have one equipped, then armour;
//! the other units towards swords (even ids) or armour (odd ids).

use std::collections::{BTreeMap, BTreeSet};

use super::memory::{Field, Memory, Paths, NEIGHBOURS, UNKNOWN};
use super::protocol::{energy_to_kill, write, Decoder, Kind, State, UnitInfo, GOLD, RECIPES};
use crate::Bot;

/// Retaliation energy and threshold every unit sets once.
const RETALIATE: (i32, i32) = (40, 40);
const WOOD: usize = 0;
const STONE: usize = 1;
const LEATHER: usize = 2;
const IRON: usize = 4;
/// At most this many requests per unit and per turn (a guard against loops).
const PER_UNIT: u32 = 40;
/// At most this many requests per turn.
const PER_TURN: u32 = 600;
/// The most a crafting round may cost in moves: for a sword, for an armour.
const SWORD_BUDGET: u32 = 1000;
const ARMOUR_BUDGET: u32 = 800;
/// Units `0..GUARDS` of a team keep a sword equipped; the others drop what they craft.
const GUARDS: usize = 3;
/// How many units may be on a crafting round at once.
const CRAFTERS: usize = 3;
/// A resource cell is valued for at most this many units.
const MOST: u64 = 130;
/// The quantity guessed for a resource cell not dug yet.
const GUESS: u32 = 40;

// `Fields::compute` passes over the cells that offer nothing: the first recipes need some of
// every ingredient it looks for.
const _: () = assert!(
    RECIPES[0][0][WOOD] > 0
        && RECIPES[0][0][STONE] > 0
        && RECIPES[0][0][IRON] > 0
        && RECIPES[1][0][WOOD] > 0
        && RECIPES[1][0][STONE] > 0
        && RECIPES[1][0][LEATHER] > 0
);

pub struct Crafter {
    /// Reads the referee's lines, reusing its buffers.
    decoder: Decoder,
    memory: Option<Memory>,
    me: State,
    /// The unit being played.
    cursor: usize,
    /// Requests per unit this turn.
    spent: Vec<u32>,
    sent: u32,
    /// Units done for this turn.
    done: BTreeSet<usize>,
    /// Cells some unit is heading for this turn, and which.
    claims: BTreeMap<usize, usize>,
    /// (unit, cell) where a unit picked up this turn since its last dig.
    picked: BTreeSet<(usize, usize)>,
    /// Per recipe (sword, armour): the crafting fields of this turn.
    fields: [Fields; 2],
    /// Per unit: the rest of the route to its target this turn.
    routes: BTreeMap<usize, Vec<usize>>,
    /// Units on a crafting round (at most [`CRAFTERS`]), from turn to turn.
    crafters: BTreeSet<usize>,
    /// The buffers of [`Crafter::plan`]'s walks.
    paths: Paths,
    queue: Vec<u32>,
}

/// Costs to finish a crafting round from each cell, by what the unit already carries (wood and
/// stone first, in either order, then the heavy ingredient, where the recipe is crafted). Steps
/// cost what a unit carrying only the ingredients pays: 20 empty, 60 with one light
/// ingredient, 100 with both. Only costs within the recipe's budget are worked out (the others
/// are `u32::MAX`): a unit never starts or goes on with a dearer round, and goes downhill only
/// from a cell within the budget, to cells cheaper still.
#[derive(Default)]
struct Fields {
    /// The round it was computed in, if it was.
    round: Option<u32>,
    both: Field,
    need_wood: Field,
    need_stone: Field,
    need_both: Field,
    /// The cells offering enough wood, and stone (buffers kept from one computation to the next).
    wood: Vec<u32>,
    stone: Vec<u32>,
}

impl Fields {
    fn compute(&mut self, memory: &Memory, kind: usize, round: u32) {
        let recipe = RECIPES[kind][0];
        let heavy = if kind == 0 { IRON } else { LEATHER };
        let limit = budget(kind);
        let n = memory.cells();
        self.round = Some(round);
        for f in [
            &mut self.both,
            &mut self.need_wood,
            &mut self.need_stone,
            &mut self.need_both,
        ] {
            f.clear(n);
        }
        self.wood.clear();
        self.stone.clear();
        for c in 0..n {
            // Most cells have nothing to offer: one look at them.
            if memory.offers_nothing(c) {
                continue;
            }
            if memory.offers(c, heavy, recipe[heavy]) {
                self.both.add_source(c, 0);
            }
            if memory.offers(c, WOOD, recipe[WOOD]) {
                self.wood.push(c as u32);
            }
            if memory.offers(c, STONE, recipe[STONE]) {
                self.stone.push(c as u32);
            }
        }
        memory.spread(&mut self.both, 100, limit);
        // A light ingredient's cells start where the rest of the round costs what `from` says.
        let add = |to: &mut Field, cells: &[u32], from: &Field| {
            for &c in cells {
                let start = from.cost[c as usize];
                if start != u32::MAX {
                    to.add_source(c as usize, start);
                }
            }
        };
        add(&mut self.need_wood, &self.wood, &self.both);
        memory.spread(&mut self.need_wood, 60, limit);
        add(&mut self.need_stone, &self.stone, &self.both);
        memory.spread(&mut self.need_stone, 60, limit);
        add(&mut self.need_both, &self.wood, &self.need_stone);
        add(&mut self.need_both, &self.stone, &self.need_wood);
        memory.spread(&mut self.need_both, 20, limit);
    }
}

/// The most a crafting round of a kind (0 sword, 1 armour) may cost.
fn budget(kind: usize) -> u32 {
    if kind == 0 {
        SWORD_BUDGET
    } else {
        ARMOUR_BUDGET
    }
}

/// What a unit wants to craft next: (kind index, the recipe, the heavy ingredient).
fn wish(u: &UnitInfo) -> (usize, [u32; 7], usize) {
    let kind = if u.id % 10 < GUARDS {
        usize::from(u.sword > 0)
    } else {
        u.id % 2
    };
    let mut w = RECIPES[kind][0];
    w[GOLD] = 0;
    (kind, w, if kind == 0 { IRON } else { LEATHER })
}

impl Crafter {
    pub fn new(_seed: i64) -> Self {
        Crafter {
            decoder: Decoder::default(),
            memory: None,
            me: State::default(),
            cursor: 0,
            spent: Vec::new(),
            sent: 0,
            done: BTreeSet::new(),
            claims: BTreeMap::new(),
            picked: BTreeSet::new(),
            fields: [Fields::default(), Fields::default()],
            routes: BTreeMap::new(),
            crafters: BTreeSet::new(),
            paths: Paths::default(),
            queue: Vec::new(),
        }
    }

    fn learn(memory: &mut Option<Memory>, state: &State) {
        let memory = match memory {
            Some(m) if m.size == state.size => m,
            _ => memory.insert(Memory::new(state.size)),
        };
        for u in &state.units {
            memory.learn(&u.sight);
            learn_dig(memory, u);
        }
        for s in &state.tower_sights {
            memory.learn(s);
        }
    }

    /// The next line to write this turn.
    fn next(&mut self) -> Vec<String> {
        if self.sent >= PER_TURN {
            return vec![write::end()];
        }
        while self.cursor < self.me.units.len() {
            let i = self.cursor;
            if !self.done.contains(&i) && self.spent.get(i).copied().unwrap_or(0) < PER_UNIT {
                if let Some(line) = self.decide(i) {
                    self.sent += 1;
                    if let Some(s) = self.spent.get_mut(i) {
                        *s += 1;
                    }
                    return vec![line];
                }
            }
            self.cursor += 1;
        }
        vec![write::end()]
    }

    /// What unit `i` should do now, if anything.
    fn decide(&mut self, i: usize) -> Option<String> {
        // The unit is taken out while its choice is made (and put back): no copy of its sight.
        let u = std::mem::take(&mut self.me.units[i]);
        let line = self.choose(&u);
        self.me.units[i] = u;
        line
    }

    fn choose(&mut self, u: &UnitInfo) -> Option<String> {
        if u.retaliate != RETALIATE {
            return Some(write::prepare(u.id, RETALIATE.0, RETALIATE.1));
        }
        if let Some(line) = self.craft_or_equip(u) {
            return Some(line);
        }
        if let Some(line) = self.fight(u) {
            return Some(line);
        }
        let memory = self.memory.as_ref()?;
        let here = memory.cell(u.x, u.y)?;
        // Gather: dig, then take everything buried here (dig again if something is left).
        if memory.has_resources(here) {
            let dug = u
                .dig
                .filter(|d| (d.0, d.1) == (u.x, u.y) && d.2.iter().any(|&n| n > 0))
                .map(|d| d.2);
            return match dug {
                Some(q) if !self.picked.contains(&(u.id, here)) => (u.energy >= 5).then(|| {
                    self.picked.insert((u.id, here));
                    write::pickup(u.id, &q)
                }),
                _ => (u.energy >= 15).then(|| {
                    self.picked.remove(&(u.id, here));
                    write::dig(u.id)
                }),
            };
        }
        let round = self.crafting_round(u);
        let memory = self.memory.as_ref()?;
        let (_, recipe, heavy) = wish(u);
        // Take needed ingredients from a pile here.
        if round.is_some() && u.energy >= 5 {
            if let Some(pile) = memory.piles.get(here) {
                let mut take = [0u32; 7];
                let light_done = u.res[WOOD] >= recipe[WOOD] && u.res[STONE] >= recipe[STONE];
                for r in [WOOD, STONE, heavy] {
                    if r == heavy && !light_done {
                        continue;
                    }
                    take[r] = recipe[r].saturating_sub(u.res[r]).min(pile[r]);
                }
                if take.iter().any(|&n| n > 0) && !self.picked.contains(&(u.id, here)) {
                    self.picked.insert((u.id, here));
                    return Some(write::pickup(u.id, &take));
                }
            }
        }
        // Drop what is not needed: the light ingredients stay while a crafting round is on.
        let mut extra = u.res;
        extra[GOLD] = 0;
        if round.is_some() {
            for r in [WOOD, STONE] {
                extra[r] -= u.res[r].min(recipe[r]);
            }
        }
        if extra.iter().any(|&n| n > 0) {
            return Some(write::drop(u.id, &extra));
        }
        if u.energy < u.move_cost || u.frozen > 0 {
            return None;
        }
        let next = match self.hunt(u) {
            Some(step) => Some(step),
            None => match round {
                Some(_) => self.field(u).and_then(|f| self.downhill(u, f)),
                None => self.follow_route(u),
            },
        }?;
        let (x, y) = self.memory.as_ref()?.xy(next);
        Some(write::moving(u.id, x, y))
    }

    /// Crafts when a recipe is carried; equips the first sword; drops other crafted items.
    fn craft_or_equip(&mut self, u: &UnitInfo) -> Option<String> {
        for kind in [0, 1] {
            let known = self.me.blueprints[kind].clamp(1, 3);
            for level in (1..=known).rev() {
                let recipe = &RECIPES[kind][level as usize - 1];
                if (0..7).all(|r| u.res[r] >= recipe[r]) {
                    self.crafters.remove(&u.id);
                    return Some(write::craft(u.id, kind, level));
                }
            }
        }
        // Guards keep a sword equipped; the others stay light.
        let guard = u.id % 10 < GUARDS;
        let swords = &u.items[0];
        if u.sword == 0 && guard {
            if let Some(l) = (0..3).rev().find(|&l| swords[l] > 0) {
                return Some(write::equip(u.id, 0, l as i32 + 1));
            }
        }
        for kind in [0, 1] {
            for l in 0..3 {
                let equipped = if kind == 0 { u.sword } else { u.armour } == l as i32 + 1;
                let n = u.items[kind][l].saturating_sub(u32::from(equipped));
                if n > 0 {
                    return Some(write::drop_object(u.id, kind, l as i32 + 1, n));
                }
            }
        }
        None
    }

    /// Attacks the neighbouring enemy that costs least to kill in one blow.
    fn fight(&self, u: &UnitInfo) -> Option<String> {
        let best = u
            .sight
            .units
            .iter()
            .filter(|s| {
                s.player != self.me.player && (s.x - u.x).abs() <= 1 && (s.y - u.y).abs() <= 1
            })
            .filter_map(|s| energy_to_kill(s.life, u.sword, s.armour, u.energy).map(|e| (e, s)))
            .min_by_key(|(e, s)| (*e, s.id))?;
        Some(write::attack(u.id, best.1.player, best.1.id, best.0))
    }

    /// A step towards a killable enemy two steps away.
    fn hunt(&self, u: &UnitInfo) -> Option<usize> {
        let memory = self.memory.as_ref()?;
        let left = u.energy - u.move_cost;
        let (_, _, ex, ey) = u
            .sight
            .units
            .iter()
            .filter(|s| {
                s.player != self.me.player
                    && (s.x - u.x).abs().max((s.y - u.y).abs()) == 2
                    && energy_to_kill(s.life, u.sword, s.armour, left).is_some()
            })
            .map(|s| (s.life, s.id, s.x, s.y))
            .min()?;
        NEIGHBOURS
            .iter()
            .map(|(dx, dy)| (u.x + dx, u.y + dy))
            .filter(|&(x, y)| (x - ex).abs() <= 1 && (y - ey).abs() <= 1)
            .filter_map(|(x, y)| memory.cell(x, y))
            .find(|&c| memory.passable(c))
    }

    /// The next step of the unit's route to a resource cell or the unknown, planned again when
    /// it has none.
    fn follow_route(&mut self, u: &UnitInfo) -> Option<usize> {
        let memory = self.memory.as_ref()?;
        if let Some(route) = self.routes.get_mut(&u.id) {
            // Go on while the target is still worth it and nobody else took it.
            let target = route.last().copied();
            let still = target.is_some_and(|t| {
                (memory.has_resources(t) || memory.ground(t) == UNKNOWN)
                    && self.claims.get(&t).is_none_or(|&who| who == u.id)
            });
            if let (true, Some(&next)) = (still, route.first()) {
                let (nx, ny) = memory.xy(next);
                if (nx - u.x).abs() <= 1 && (ny - u.y).abs() <= 1 && memory.passable(next) {
                    route.remove(0);
                    if let Some(t) = target {
                        self.claims.retain(|_, who| *who != u.id);
                        self.claims.insert(t, u.id);
                    }
                    return Some(next);
                }
            }
        }
        let (target, mut route) = self.plan(u)?;
        self.claims.retain(|_, who| *who != u.id);
        self.claims.insert(target, u.id);
        let next = route.remove(0);
        self.routes.insert(u.id, route);
        Some(next)
    }

    /// The crafting fields of a recipe (see [`Fields`]), computed at most every other turn.
    fn ensure_field(&mut self, kind: usize) {
        let round = self.me.round;
        if self.fields[kind].round.is_some_and(|r| r + 1 >= round) {
            return;
        }
        let Some(memory) = &self.memory else { return };
        self.fields[kind].compute(memory, kind, round);
    }

    /// The crafting field a unit follows now, if it is on a crafting round or may start one:
    /// the field and the unit's cost to finish. A round ends when it is too dear, or when the
    /// field leads nowhere from here (its stops were taken); at most [`CRAFTERS`] units are on
    /// rounds at once.
    fn crafting_round(&mut self, u: &UnitInfo) -> Option<(usize, u32)> {
        let (kind, _, heavy) = wish(u);
        let on = self.crafters.contains(&u.id);
        if !on && self.crafters.len() >= CRAFTERS {
            return None;
        }
        self.ensure_field(kind);
        let memory = self.memory.as_ref()?;
        let field = self.field(u)?;
        let here = memory.cell(u.x, u.y)?;
        let cost = field[here];
        let budget = budget(kind);
        let at_stop = cost == 0 && memory.piles[here][heavy] > 0;
        let leads = at_stop || self.downhill(u, field).is_some();
        if cost <= budget && leads && (on || self.crafters.len() < CRAFTERS) {
            self.crafters.insert(u.id);
            Some((kind, cost))
        } else {
            self.crafters.remove(&u.id);
            None
        }
    }

    /// The crafting field for what the unit carries now.
    fn field(&self, u: &UnitInfo) -> Option<&[u32]> {
        let (kind, recipe, _) = wish(u);
        let fields = &self.fields[kind];
        fields.round?;
        let field = match (u.res[WOOD] >= recipe[WOOD], u.res[STONE] >= recipe[STONE]) {
            (true, true) => &fields.both,
            (true, false) => &fields.need_stone,
            (false, true) => &fields.need_wood,
            (false, false) => &fields.need_both,
        };
        Some(&field.cost)
    }

    /// The neighbouring cell that goes down a field.
    fn downhill(&self, u: &UnitInfo, field: &[u32]) -> Option<usize> {
        let memory = self.memory.as_ref()?;
        let here = field[memory.cell(u.x, u.y)?];
        NEIGHBOURS
            .iter()
            .filter_map(|(dx, dy)| memory.cell(u.x + dx, u.y + dy))
            .filter(|&n| memory.passable(n) && field[n] < here)
            .min_by_key(|&n| (field[n], n))
    }

    /// A route to the best resource cell to dig up (points per energy spent walking; one unit
    /// per cell), or else to the nearest unexplored cell: a breadth-first search from the unit
    /// that stops once no farther cell could be better, or once it has met every cell with
    /// resources and an unexplored one (nothing farther could change its choice).
    fn plan(&mut self, u: &UnitInfo) -> Option<(usize, Vec<usize>)> {
        let memory = self.memory.as_ref()?;
        let start = memory.cell(u.x, u.y)?;
        let n = memory.cells();
        let (resource_cells, unknown_cells) = memory.counts();
        // The walk's buffers are kept from one plan to the next: the cells the last walk
        // reached (all in its queue) are unreached again.
        let Paths { dist, parent } = &mut self.paths;
        let queue = &mut self.queue;
        if dist.len() == n {
            for &c in queue.iter() {
                dist[c as usize] = u32::MAX;
            }
        } else {
            dist.clear();
            dist.resize(n, u32::MAX);
            parent.resize(n, u32::MAX);
        }
        dist[start] = 0;
        // (As slices, the walk keeps where they are and how long in registers.)
        let (dist, parent) = (&mut dist[..], &mut parent[..]);
        // A first-in first-out queue: `head` is its front. Each cell enters it at most once.
        queue.clear();
        queue.reserve(n);
        queue.push(start as u32);
        let mut head = 0;
        let step = u64::from(u.move_cost.max(20) as u32);
        let mut best: Option<(u64, usize)> = None;
        let mut unknown: Option<usize> = None;
        // The cells with resources and the unknown ones met so far.
        let (mut resources_met, mut unknown_met) = (0, 0);
        while let Some(&c) = queue.get(head) {
            head += 1;
            let c = c as usize;
            let d = u64::from(dist[c]);
            if let Some((value, _)) = best {
                // A cell counts for at most `MOST` units: no farther cell can beat `value`.
                if value > 0 && MOST * 10_000 / (d * step + 15) < value {
                    break;
                }
            }
            // Whether another unit claimed the cell: asked only of the cells that could be a
            // target (most cells are not).
            let free = || self.claims.get(&c).is_none_or(|&who| who == u.id);
            let ground = memory.ground(c);
            if memory.has_resources(c) {
                resources_met += 1;
                if d > 0 && free() {
                    let amount: u32 = match memory.qty(c) {
                        Some(q) => q.iter().sum(),
                        // What `Memory::types` counts for a cell not dug: all seven types of a
                        // `*`, one for a letter; at most two guesses.
                        None => GUESS * if ground == b'*' { 2 } else { 1 },
                    };
                    let value = u64::from(amount).min(MOST) * 10_000 / (d * step + 15);
                    if best.is_none_or(|(v, _)| value > v) {
                        best = Some((value, c));
                    }
                }
            } else if ground == UNKNOWN {
                unknown_met += 1;
                if d > 0 && unknown.is_none() && free() {
                    unknown = Some(c);
                }
            }
            if resources_met == resource_cells
                && (unknown.is_some() || unknown_met == unknown_cells)
            {
                break;
            }
            let next = dist[c] + 1;
            for &m in memory.open_neighbours(c) {
                let slot = &mut dist[m as usize];
                if *slot == u32::MAX {
                    *slot = next;
                    parent[m as usize] = c as u32;
                    queue.push(m);
                }
            }
        }
        let target = best.map(|(_, c)| c).or(unknown)?;
        Some((target, self.paths.route(target)?))
    }
}

fn learn_dig(memory: &mut Memory, u: &UnitInfo) {
    if let Some((x, y, q)) = u.dig {
        if let Some(c) = memory.cell(x, y) {
            memory.set_qty(c, q);
            if q.iter().all(|&n| n == 0) {
                memory.set_ground(c, b'.');
            }
        }
    }
}

/// The lines of a text, as [`str::lines`] splits them, each end found by `memchr` (many bytes
/// at a time: an answer is one line of about 2 KB).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => {
                let line = &rest[..i];
                rest = &rest[i + 1..];
                Some(line.strip_suffix('\r').unwrap_or(line))
            }
            None => Some(std::mem::take(&mut rest)),
        }
    })
}

impl Bot for Crafter {
    fn read(&mut self, input: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in lines(input) {
            match self.decoder.read(line) {
                Kind::Turn => {
                    let state = &mut self.decoder.state;
                    Crafter::learn(&mut self.memory, state);
                    self.spent.clear();
                    self.spent.resize(state.units.len(), 0);
                    // What the decoder held before comes back to it to be read into again.
                    std::mem::swap(&mut self.me, state);
                    self.cursor = 0;
                    self.sent = 0;
                    self.done.clear();
                    self.claims.clear();
                    self.picked.clear();
                    // Routes go on from turn to turn; their targets are claimed again.
                    for (&id, route) in &self.routes {
                        if let Some(&t) = route.last() {
                            self.claims.entry(t).or_insert(id);
                        }
                    }
                    out = self.next();
                }
                Kind::State => {
                    let state = &mut self.decoder.state;
                    Crafter::learn(&mut self.memory, state);
                    std::mem::swap(&mut self.me.units, &mut state.units);
                    out = self.next();
                }
                Kind::Answer => {
                    let answer = &mut self.decoder.answer;
                    self.me.gold = answer.gold;
                    self.me.blueprints = answer.blueprints;
                    let failed = answer.result != "NoError";
                    if let Some(unit) = &mut answer.unit {
                        if let Some(memory) = &mut self.memory {
                            memory.learn(&unit.sight);
                            learn_dig(memory, unit);
                        }
                        if let Some(slot) = self.me.units.iter().position(|u| u.id == unit.id) {
                            if failed {
                                self.done.insert(slot);
                            }
                            std::mem::swap(&mut self.me.units[slot], unit);
                        }
                    } else if failed {
                        self.done.insert(self.cursor);
                    }
                    out = self.next();
                }
                Kind::Unknown => {}
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn lines_split_as_str_lines_does() {
        for text in [
            "",
            "\n",
            "a",
            "a\n",
            "a\r\n",
            "a\r",
            "\r\n\r\n",
            "a\nb",
            "a\r\nb\r",
            "a\n\nb\n",
            "é\r\r\nx",
        ] {
            let ours: Vec<&str> = super::lines(text).collect();
            let std: Vec<&str> = text.lines().collect();
            assert_eq!(ours, std, "{text:?}");
        }
    }
}
