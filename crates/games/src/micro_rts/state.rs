//! The arena and the turn resolution (rulebook: *Turn resolution*): tiles with owner, type,
//! health and lock; the entity list with one order queue per entity; the resolution of one turn.

use std::collections::VecDeque;

/// Tile owners as the referee stores them: 0 neutral, 1 red (seat 0), 2 blue (seat 1).
pub const NEUTRAL: u8 = 0;
/// Neutral tile types.
pub const WALL: u8 = 1;
pub const MINE: u8 = 2;
pub const FOREST: u8 = 3;
/// Player entity types (rulebook: *Facts*), also their protocol numbers.
pub const CASTLE: u8 = 0;
pub const BARRACKS: u8 = 1;
pub const WORKER: u8 = 2;
pub const LIGHT: u8 = 3;
pub const HEAVY: u8 = 4;
pub const RANGED: u8 = 5;

/// Two players: red (seat 0) and blue (seat 1).
pub const PLAYERS: usize = 2;
/// Rulebook, *Facts*: every player starts with 10 gold and no wood.
pub const START_GOLD: i32 = 10;
/// A cap on move attempts in one turn. The referee's move loop always ends (locks only grow)
/// except for a MOVE onto its own tile, which we consume; this guard never triggers in play.
const MAX_MOVE_STEPS: usize = 1_000_000;

/// The facts of one player entity type (rulebook: *Facts*): the six init lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TypeData {
    pub max_hp: i32,
    pub reach: i32,
    pub attack: i32,
    pub step: i32,
    pub gold: i32,
    pub wood: i32,
}

/// Rulebook, *Facts*, by type number.
pub const TYPES: [TypeData; 6] = [
    TypeData {
        max_hp: 10,
        reach: 3,
        attack: 0,
        step: 0,
        gold: 5,
        wood: 5,
    },
    TypeData {
        max_hp: 4,
        reach: 2,
        attack: 0,
        step: 0,
        gold: 0,
        wood: 5,
    },
    TypeData {
        max_hp: 1,
        reach: 1,
        attack: 1,
        step: 1,
        gold: 1,
        wood: 0,
    },
    TypeData {
        max_hp: 4,
        reach: 1,
        attack: 2,
        step: 2,
        gold: 1,
        wood: 1,
    },
    TypeData {
        max_hp: 8,
        reach: 1,
        attack: 4,
        step: 1,
        gold: 2,
        wood: 1,
    },
    TypeData {
        max_hp: 1,
        reach: 3,
        attack: 1,
        step: 1,
        gold: 1,
        wood: 1,
    },
];

/// The protocol names of the player entity types, by number (case-sensitive).
pub const TYPE_NAMES: [&str; 6] = ["CASTLE", "BARRACKS", "WORKER", "LIGHT", "HEAVY", "RANGED"];

/// The types an entity of type `kind` may train: a castle workers, a barracks the fighting
/// units; nothing for the others.
pub fn trains(kind: u8) -> &'static [u8] {
    match kind {
        CASTLE => &[WORKER],
        BARRACKS => &[LIGHT, HEAVY, RANGED],
        _ => &[],
    }
}

/// The types an entity of type `kind` may build: a worker castles and barracks; nothing for
/// the others.
pub fn builds(kind: u8) -> &'static [u8] {
    match kind {
        WORKER => &[CASTLE, BARRACKS],
        _ => &[],
    }
}

/// The data of a player entity type; out-of-range numbers read as a castle, as the referee's
/// table lookup of an empty tile (type 0) does.
pub fn data(kind: u8) -> TypeData {
    TYPES.get(usize::from(kind)).copied().unwrap_or(TYPES[0])
}

/// "red" or "blue".
pub fn name(seat: usize) -> &'static str {
    if seat == 0 {
        "red"
    } else {
        "blue"
    }
}

/// A type's name for people: "worker", "gold mine".
pub fn kind_word(owner: u8, kind: u8) -> &'static str {
    if owner == NEUTRAL {
        match kind {
            WALL => "wall",
            MINE => "gold mine",
            FOREST => "forest",
            _ => "nothing",
        }
    } else {
        match kind {
            CASTLE => "castle",
            BARRACKS => "barracks",
            WORKER => "worker",
            LIGHT => "light",
            HEAVY => "heavy",
            RANGED => "ranged",
            _ => "entity",
        }
    }
}

/// Chebyshev distance (all ranges: rulebook, *Facts*).
pub fn chebyshev(x: i32, y: i32, tx: i32, ty: i32) -> i64 {
    let dx = (i64::from(tx) - i64::from(x)).abs();
    let dy = (i64::from(ty) - i64::from(y)).abs();
    dx.max(dy)
}

/// One tile record (rulebook: *Turn resolution*). Empty = all zero. The referee's unused "pointer" field is left out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tile {
    pub owner: u8,
    pub kind: u8,
    pub health: i32,
    /// −1 locked, 0 free to move, n > 0 waited n times this turn (rulebook: *Turn resolution*, locks and MOVE).
    pub lock: i32,
}

impl Tile {
    pub fn is_empty(&self) -> bool {
        self.owner == NEUTRAL && self.kind == 0
    }

    pub fn is_wall(&self) -> bool {
        self.owner == NEUTRAL && self.kind == WALL
    }

    pub fn is_resource(&self) -> bool {
        self.owner == NEUTRAL && (self.kind == MINE || self.kind == FOREST)
    }

    /// The seat owning this tile, if a player does.
    pub fn seat(&self) -> Option<usize> {
        match self.owner {
            1 => Some(0),
            2 => Some(1),
            _ => None,
        }
    }
}

/// The five order names (rulebook: *Protocol*).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verb {
    Build,
    Train,
    Move,
    Attack,
    Harvest,
}

impl Verb {
    pub fn word(self) -> &'static str {
        match self {
            Verb::Build => "BUILD",
            Verb::Train => "TRAIN",
            Verb::Move => "MOVE",
            Verb::Attack => "ATTACK",
            Verb::Harvest => "HARVEST",
        }
    }
}

/// A queued order, with the coordinates it was written for (they go stale as things move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Order {
    pub verb: Verb,
    pub x: i32,
    pub y: i32,
    pub tx: i32,
    pub ty: i32,
    /// The type to build or train (0..5); 0 for the other verbs.
    pub kind: u8,
}

/// One entry of the entity list (rulebook: *Turn resolution*): where it stands. Its order queue
/// is at the same index of [`Arena`]'s `orders`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entity {
    pub x: i32,
    pub y: i32,
}

/// What happened during a turn, for the events in words and the viewer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Created {
        seat: usize,
        verb: Verb,
        kind: u8,
        from: (i32, i32),
        to: (i32, i32),
    },
    Unaffordable {
        seat: usize,
        kind: u8,
        from: (i32, i32),
    },
    Moved {
        seat: Option<usize>,
        kind: u8,
        from: (i32, i32),
        to: (i32, i32),
    },
    MoveFailed {
        seat: Option<usize>,
        from: (i32, i32),
        to: (i32, i32),
    },
    Harvested {
        seat: usize,
        forest: bool,
        from: (i32, i32),
        to: (i32, i32),
    },
    Damaged {
        seat: usize,
        from: (i32, i32),
        to: (i32, i32),
        amount: i32,
    },
    Removed {
        owner: u8,
        kind: u8,
        at: (i32, i32),
    },
}

/// The whole game state the rules act on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arena {
    pub width: i32,
    pub height: i32,
    /// Column-major like the referee: index `x * height + y`.
    tiles: Vec<Tile>,
    pub entities: Vec<Entity>,
    /// Each entity's order queue, at its index in `entities`; none in a frame's copy (which
    /// never resolves a turn).
    orders: Vec<VecDeque<Order>>,
    pub gold: [i32; PLAYERS],
    pub wood: [i32; PLAYERS],
    pub active: [bool; PLAYERS],
}

impl Arena {
    /// A copy without the entities' order queues: what a frame shows (a copy of each queue
    /// would cost more than the rest of the arena).
    pub fn without_orders(&self) -> Arena {
        Arena {
            width: self.width,
            height: self.height,
            tiles: self.tiles.clone(),
            entities: self.entities.clone(),
            orders: Vec::new(),
            gold: self.gold,
            wood: self.wood,
            active: self.active,
        }
    }

    /// An arena of walls (as the generator starts), no entities, start resources.
    pub fn walled(width: i32, height: i32) -> Arena {
        let wall = Tile {
            owner: NEUTRAL,
            kind: WALL,
            health: -1,
            lock: -1,
        };
        Arena {
            width,
            height,
            tiles: vec![wall; (width.max(0) * height.max(0)) as usize],
            entities: Vec::new(),
            orders: Vec::new(),
            gold: [START_GOLD; PLAYERS],
            wood: [0; PLAYERS],
            active: [true; PLAYERS],
        }
    }

    #[inline]
    pub fn inside(&self, x: i32, y: i32) -> bool {
        (0..self.width).contains(&x) && (0..self.height).contains(&y)
    }

    #[inline]
    fn index(&self, x: i32, y: i32) -> Option<usize> {
        self.inside(x, y).then(|| (x * self.height + y) as usize)
    }

    /// Every tile, x outer and y inner (column-major), as the protocol lists them.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The tile at (x, y); off the map, an empty tile.
    #[inline]
    pub fn tile(&self, x: i32, y: i32) -> Tile {
        self.index(x, y).map(|i| self.tiles[i]).unwrap_or_default()
    }

    pub fn tile_mut(&mut self, x: i32, y: i32) -> Option<&mut Tile> {
        self.index(x, y).map(|i| &mut self.tiles[i])
    }

    pub fn set_tile(&mut self, x: i32, y: i32, tile: Tile) {
        if let Some(t) = self.tile_mut(x, y) {
            *t = tile;
        }
    }

    fn set_lock(&mut self, x: i32, y: i32, lock: i32) {
        if let Some(t) = self.tile_mut(x, y) {
            t.lock = lock;
        }
    }

    fn raise_lock(&mut self, x: i32, y: i32) {
        if let Some(t) = self.tile_mut(x, y) {
            t.lock = t.lock.saturating_add(1);
        }
    }

    /// Places an entity and appends it to the entity list (the referee's `addToArena`).
    pub fn add(&mut self, x: i32, y: i32, owner: u8, kind: u8, health: i32) {
        self.set_tile(
            x,
            y,
            Tile {
                owner,
                kind,
                health,
                lock: -1,
            },
        );
        self.entities.push(Entity { x, y });
        self.orders.push(VecDeque::new());
    }

    /// A player entity of the seat, at full health.
    pub fn add_player_entity(&mut self, x: i32, y: i32, seat: usize, kind: u8) {
        self.add(x, y, seat as u8 + 1, kind, data(kind).max_hp);
    }

    /// How many orders the entity at index `i` has queued.
    #[cfg(test)]
    pub fn queued(&self, i: usize) -> usize {
        self.orders.get(i).map_or(0, VecDeque::len)
    }

    /// The index in the entity list of the entity standing at (x, y).
    pub fn entity_at(&self, x: i32, y: i32) -> Option<usize> {
        self.entities.iter().position(|e| e.x == x && e.y == y)
    }

    /// Appends an accepted order to the queue of the entity at its source and sets that
    /// tile's lock (rulebook: *Turn resolution*).
    pub fn queue(&mut self, order: Order, lock: i32) {
        if let Some(queue) = self
            .entity_at(order.x, order.y)
            .and_then(|i| self.orders.get_mut(i))
        {
            queue.push_back(order);
        }
        self.set_lock(order.x, order.y, lock);
    }

    /// The seat's materials (rulebook: *End and scoring*): the costs of its entities, plus gold and wood.
    pub fn materials(&self, seat: usize) -> i64 {
        let owner = seat as u8 + 1;
        let held: i64 = self
            .entities
            .iter()
            .map(|e| self.tile(e.x, e.y))
            .filter(|t| t.owner == owner)
            .map(|t| i64::from(data(t.kind).gold) + i64::from(data(t.kind).wood))
            .sum();
        held + i64::from(self.gold[seat]) + i64::from(self.wood[seat])
    }

    /// How many castles the seat has.
    #[cfg(test)]
    pub fn castles(&self, seat: usize) -> usize {
        self.castle_counts().get(seat).copied().unwrap_or(0)
    }

    /// How many castles each seat has, in one pass.
    pub fn castle_counts(&self) -> [usize; PLAYERS] {
        let mut counts = [0; PLAYERS];
        for e in &self.entities {
            let t = self.tile(e.x, e.y);
            if t.kind == CASTLE {
                if let Some(n) = usize::from(t.owner)
                    .checked_sub(1)
                    .and_then(|s| counts.get_mut(s))
                {
                    *n += 1;
                }
            }
        }
        counts
    }

    /// The referee's `addMaterial`: a result at or below 0 becomes 0.
    fn add_gold(&mut self, seat: usize, amount: i32) {
        let v = self.gold[seat].saturating_add(amount);
        self.gold[seat] = v.max(0);
    }

    fn add_wood(&mut self, seat: usize, amount: i32) {
        let v = self.wood[seat].saturating_add(amount);
        self.wood[seat] = v.max(0);
    }

    fn active_owner(&self, tile: Tile) -> Option<usize> {
        tile.seat().filter(|&s| self.active[s])
    }

    /// Resolves one turn: the rulebook's *Turn resolution* (collection, conflict marking, build, train, move,
    /// retries, harvest, attack, cleanup). The end conditions are the caller's.
    pub fn resolve(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        // 1. Collect one order per player entity, by name.
        let mut build = VecDeque::new();
        let mut train = VecDeque::new();
        let mut moves = VecDeque::new();
        let mut harvest = VecDeque::new();
        let mut attack = VecDeque::new();
        for i in 0..self.entities.len() {
            let (x, y) = (self.entities[i].x, self.entities[i].y);
            if self.tile(x, y).owner == NEUTRAL {
                continue;
            }
            if let Some(order) = self.orders.get_mut(i).and_then(VecDeque::pop_front) {
                match order.verb {
                    Verb::Build => build.push_back(order),
                    Verb::Train => train.push_back(order),
                    Verb::Move => moves.push_back(order),
                    Verb::Harvest => harvest.push_back(order),
                    Verb::Attack => attack.push_back(order),
                }
            }
        }

        // 2. Conflict marking, with the referee's shrinking loop bound (the quirk).
        let mut marks = Marks::new(self.width, self.height);
        mark(&mut build, &mut marks, |m| {
            if m <= 2 {
                (1, false)
            } else {
                (2, true)
            }
        });
        mark(&mut train, &mut marks, |m| match m {
            _ if m <= 3 => (m, false),
            4 => (3, false),
            _ => (4, true),
        });
        mark(&mut moves, &mut marks, |m| match m {
            _ if m <= 5 => (m, false),
            6 => (5, false),
            _ => (6, true),
        });

        // 3, 4. Builds, then trainings; those waiting for a tile to empty retry later.
        let mut build_retries = Vec::new();
        for order in build {
            if marks.get(order.tx, order.ty) >= 2
                && self.build_train(order, &mut events) == Creation::Retry
            {
                build_retries.push(order);
            }
        }
        let mut train_retries = Vec::new();
        for order in train {
            if marks.get(order.tx, order.ty) >= 4
                && self.build_train(order, &mut events) == Creation::Retry
            {
                train_retries.push(order);
            }
        }

        // 5. Moves, with the re-queue loop.
        let mut steps = 0;
        while let Some(order) = moves.pop_front() {
            steps += 1;
            if steps > MAX_MOVE_STEPS {
                break;
            }
            if marks.get(order.tx, order.ty) >= 6 {
                self.execute_move(order, &mut moves, &mut events);
            }
        }

        // 6. One more attempt for the waiting builds and trainings.
        for order in build_retries.into_iter().chain(train_retries) {
            self.build_train(order, &mut events);
        }

        // 7. Harvests.
        for order in harvest {
            self.execute_harvest(order, &mut events);
        }

        // 8. Attacks, all with the health of before their own damage: an attacker brought to 0
        // earlier in the queue still strikes.
        for order in attack {
            self.execute_attack(order, &mut events);
        }

        // 9. Cleanup of the dead and the depleted.
        self.cleanup(&mut events);
        events
    }

    /// The referee's `executeBuildTrain`.
    fn build_train(&mut self, order: Order, events: &mut Vec<Event>) -> Creation {
        let Order {
            verb,
            x,
            y,
            tx,
            ty,
            kind,
        } = order;
        let source = self.tile(x, y);
        let Some(seat) = self.active_owner(source) else {
            return Creation::Failed;
        };
        let cost = data(kind);
        if self.gold[seat] < cost.gold || self.wood[seat] < cost.wood {
            events.push(Event::Unaffordable {
                seat,
                kind,
                from: (x, y),
            });
            return Creation::Failed;
        }
        let reach = i64::from(data(source.kind).reach);
        let target = self.tile(tx, ty);
        if target.is_empty() && self.inside(tx, ty) && chebyshev(x, y, tx, ty) <= reach {
            self.add(tx, ty, source.owner, kind, data(kind).max_hp);
            self.add_gold(seat, -cost.gold);
            self.add_wood(seat, -cost.wood);
            events.push(Event::Created {
                seat,
                verb,
                kind,
                from: (x, y),
                to: (tx, ty),
            });
            Creation::Done
        } else if target.lock == 0 {
            Creation::Retry
        } else {
            Creation::Failed
        }
    }

    /// Moves the whole tile record from `from` to the empty tile `to`, and the entity with it.
    fn carry(&mut self, entity: usize, from: (i32, i32), to: (i32, i32)) {
        let record = self.tile(from.0, from.1);
        self.set_tile(to.0, to.1, record);
        self.set_tile(from.0, from.1, Tile::default());
        self.entities[entity].x = to.0;
        self.entities[entity].y = to.1;
    }

    /// Rulebook, *Turn resolution*, MOVE, for one queued move (with the three documented departures).
    fn execute_move(&mut self, order: Order, queue: &mut VecDeque<Order>, events: &mut Vec<Event>) {
        let Order { x, y, tx, ty, .. } = order;
        // Departure: a stale order whose source is now empty is dropped (the referee throws).
        let Some(entity) = self.entity_at(x, y) else {
            return;
        };
        let source = self.tile(x, y);
        let fail = |arena: &mut Arena, events: &mut Vec<Event>| {
            arena.set_lock(x, y, -1);
            events.push(Event::MoveFailed {
                seat: source.seat(),
                from: (x, y),
                to: (tx, ty),
            });
        };
        match chebyshev(x, y, tx, ty) {
            // Departure: a MOVE onto the unit's own tile is consumed (the referee loops forever).
            0 => fail(self, events),
            1 => {
                let target = self.tile(tx, ty);
                if target.is_empty() && self.inside(tx, ty) {
                    self.carry(entity, (x, y), (tx, ty));
                    self.set_lock(tx, ty, -1);
                    events.push(Event::Moved {
                        seat: source.seat(),
                        kind: source.kind,
                        from: (x, y),
                        to: (tx, ty),
                    });
                } else if source.lock == target.lock {
                    self.raise_lock(x, y);
                    queue.push_back(order);
                } else {
                    fail(self, events);
                }
            }
            2 => {
                let Some((mx, my)) = self.mid_step(order) else {
                    fail(self, events);
                    return;
                };
                let mid = self.tile(mx, my);
                if mid.is_empty() {
                    self.carry(entity, (x, y), (mx, my));
                    self.raise_lock(mx, my);
                    events.push(Event::Moved {
                        seat: source.seat(),
                        kind: source.kind,
                        from: (x, y),
                        to: (mx, my),
                    });
                    queue.push_back(Order {
                        x: mx,
                        y: my,
                        ..order
                    });
                } else if source.lock == mid.lock {
                    self.raise_lock(x, y);
                    queue.push_back(order);
                } else {
                    fail(self, events);
                }
            }
            // Parsing never accepts a longer move.
            _ => {}
        }
    }

    /// The mid tile of a 2-step move (rulebook: *Turn resolution*, MOVE): the first empty candidate, else the last
    /// one whose lock equals the mover's. Departure: a candidate off the map counts as neither
    /// (the referee throws).
    fn mid_step(&self, order: Order) -> Option<(i32, i32)> {
        let Order { x, y, tx, ty, .. } = order;
        // Java's integer division truncates towards zero, as Rust's does.
        let dx = (tx - x) / 2;
        let dy = (ty - y) / 2;
        let lock = self.tile(x, y).lock;
        let mut wait = None;
        for i in -1..=1 {
            let (cx, cy) = if dx == 0 {
                (tx + i, ty - dy)
            } else if dy == 0 {
                (tx - dx, ty + i)
            } else {
                (tx - dx, ty - dy)
            };
            if !self.inside(cx, cy) {
                continue;
            }
            let c = self.tile(cx, cy);
            if c.is_empty() {
                return Some((cx, cy));
            }
            if c.lock == lock {
                wait = Some((cx, cy));
            }
        }
        wait
    }

    /// Rulebook, *Turn resolution*, HARVEST, for one harvest.
    fn execute_harvest(&mut self, order: Order, events: &mut Vec<Event>) {
        let Order { x, y, tx, ty, .. } = order;
        let target = self.tile(tx, ty);
        // A resource already emptied this turn (or removed earlier) gives nothing. Departure:
        // with the source empty too, the referee throws; we do nothing.
        if target.health == 0 {
            return;
        }
        let source = self.tile(x, y);
        let Some(seat) = self.active_owner(source) else {
            return;
        };
        let reach = i64::from(data(source.kind).reach);
        let in_reach = chebyshev(x, y, tx, ty) <= reach;
        let forest = match target.kind {
            MINE if target.owner == NEUTRAL && in_reach => false,
            FOREST if target.owner == NEUTRAL && in_reach => true,
            _ => return,
        };
        if target.health > 0 {
            if let Some(t) = self.tile_mut(tx, ty) {
                t.health -= 1;
            }
        }
        if forest {
            self.add_wood(seat, 1);
        } else {
            self.add_gold(seat, 1);
        }
        events.push(Event::Harvested {
            seat,
            forest,
            from: (x, y),
            to: (tx, ty),
        });
    }

    /// Rulebook, *Turn resolution*, ATTACK, for one attack: damage lands on whatever stands on the target tile now.
    fn execute_attack(&mut self, order: Order, events: &mut Vec<Event>) {
        let Order { x, y, tx, ty, .. } = order;
        let source = self.tile(x, y);
        let Some(seat) = self.active_owner(source) else {
            return;
        };
        let stats = data(source.kind);
        if chebyshev(x, y, tx, ty) > i64::from(stats.reach) {
            return;
        }
        let Some(target) = self.tile_mut(tx, ty) else {
            return;
        };
        if target.health == 0 {
            return;
        }
        let amount = stats.attack.min(target.health);
        target.health -= amount;
        events.push(Event::Damaged {
            seat,
            from: (x, y),
            to: (tx, ty),
            amount,
        });
    }

    /// Rulebook, *Turn resolution*, cleanup: entities at health 0 leave the list and their tiles are cleared.
    fn cleanup(&mut self, events: &mut Vec<Event>) {
        if self
            .entities
            .iter()
            .all(|e| self.tile(e.x, e.y).health != 0)
        {
            return;
        }
        let mut kept = Vec::with_capacity(self.entities.len());
        let mut kept_orders = Vec::with_capacity(self.orders.len());
        let mut orders = std::mem::take(&mut self.orders).into_iter();
        for e in std::mem::take(&mut self.entities) {
            let queue = orders.next().unwrap_or_default();
            let t = self.tile(e.x, e.y);
            if t.health == 0 {
                events.push(Event::Removed {
                    owner: t.owner,
                    kind: t.kind,
                    at: (e.x, e.y),
                });
                self.set_tile(e.x, e.y, Tile::default());
            } else {
                kept.push(e);
                kept_orders.push(queue);
            }
        }
        self.entities = kept;
        self.orders = kept_orders;
    }
}

/// What a build or train attempt did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Creation {
    Done,
    /// The target holds a unit ordered to move: try again after the moves.
    Retry,
    Failed,
}

/// The per-tile conflict markers of the rulebook's *Turn resolution*, conflict marking (7 = nothing yet).
struct Marks {
    height: i32,
    cells: Vec<u8>,
}

impl Marks {
    fn new(width: i32, height: i32) -> Marks {
        Marks {
            height,
            cells: vec![7; (width.max(0) * height.max(0)) as usize],
        }
    }

    fn slot(&self, x: i32, y: i32) -> Option<usize> {
        let i = (x * self.height + y) as usize;
        (x >= 0 && y >= 0 && y < self.height && i < self.cells.len()).then_some(i)
    }

    fn get(&self, x: i32, y: i32) -> u8 {
        self.slot(x, y).map_or(7, |i| self.cells[i])
    }

    fn set(&mut self, x: i32, y: i32, v: u8) {
        if let Some(i) = self.slot(x, y) {
            self.cells[i] = v;
        }
    }
}

/// One marking pass: `rule(marker)` gives the new marker and whether the order stays (moved
/// to the back). The loop bound is the current queue length, re-read every step, so after k
/// drops the last k orders are never examined (they end up at the front, unmarked).
fn mark(queue: &mut VecDeque<Order>, marks: &mut Marks, rule: impl Fn(u8) -> (u8, bool)) {
    let mut i = 0;
    while i < queue.len() {
        let Some(order) = queue.pop_front() else {
            break;
        };
        let (value, keep) = rule(marks.get(order.tx, order.ty));
        marks.set(order.tx, order.ty, value);
        if keep {
            queue.push_back(order);
        }
        i += 1;
    }
}
