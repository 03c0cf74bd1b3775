//! # microRTS (the CodinGame castle game)
//!
//! A small real-time strategy game on a walled arena: two players gather gold and wood, build
//! castles and barracks, train workers and soldiers, and try to destroy every enemy castle.
//! It is the CodinGame community game "microRTS" by motakmikolaj (a port inspired by Santiago
//! Ontañón's microRTS), played with the rules of its referee's latest version and the 200-turn
//! limit of our statement. This rulebook states every fact the module implements; the code
//! cites its sections by name, as in "rulebook: *Facts*".
//!
//! ## Facts
//!
//! | Item | Value |
//! |---|---|
//! | Map | 15–31 wide, 15–17 high, mirrored left–right, generated from the seed exactly as the original (see *Map generation*) |
//! | Players | 2, simultaneous: red (seat 0, owner 0 in its own input) and blue (seat 1) |
//! | Start | 10 gold, 0 wood; one castle each (mirrored), sometimes one barracks each |
//! | Turns | 200; every turn both players answer, then the turn is resolved |
//! | Time | 1000 ms for the first turn, 50 ms afterwards; a timeout eliminates |
//! | Ranges | Chebyshev (8 directions), through walls |
//!
//! | Type | Name | HP | reach | attack | step | gold | wood | orders |
//! |---|---|---|---|---|---|---|---|---|
//! | 0 | CASTLE | 10 | 3 | 0 | 0 | 5 | 5 | TRAIN WORKER |
//! | 1 | BARRACKS | 4 | 2 | 0 | 0 | 0 | 5 | TRAIN LIGHT / HEAVY / RANGED |
//! | 2 | WORKER | 1 | 1 | 1 | 1 | 1 | 0 | BUILD CASTLE / BARRACKS, MOVE, ATTACK, HARVEST |
//! | 3 | LIGHT | 4 | 1 | 2 | 2 | 1 | 1 | MOVE, ATTACK |
//! | 4 | HEAVY | 8 | 1 | 4 | 1 | 2 | 1 | MOVE, ATTACK |
//! | 5 | RANGED | 1 | 3 | 1 | 1 | 1 | 1 | MOVE, ATTACK |
//!
//! Neutral tiles: walls (type 1, health −1, unbreakable), gold mines (type 2) and forests
//! (type 3), whose health is the resource left (5–24 at the start); each HARVEST takes 1.
//!
//! ## Protocol
//!
//! Before its first turn a seat receives `width height` and six lines
//! `entityType maxHP reach attack step goldCost woodCost` (types 0–5). Every turn it receives
//! `N gold wood enemyGold enemyWood` and then N lines `x y owner entityType health`: one for
//! **every** non-empty tile, walls included, x outer and y inner; owner −1 neutral, 0 you,
//! 1 the enemy. Units have no ids: orders name them by position.
//!
//! It answers one line of orders separated by `;`:
//! `BUILD X Y tX tY type`, `TRAIN X Y tX tY type`, `MOVE X Y tX tY`, `ATTACK X Y tX tY`,
//! `HARVEST X Y tX tY`, `WAIT`. (X,Y) is the ordering entity, (tX,tY) the target; types are a
//! number `0`–`5` or an upper-case name (`CASTLE`, `WORKER`, …). A first exchange for red
//! might be:
//!
//! ```text
//! in:  24 15                 out: TRAIN 10 8 11 9 WORKER
//!      0 10 3 0 0 5 5
//!      … (five more type lines)
//!      170 10 0 10 0
//!      0 0 -1 1 -1
//!      … (169 more entity lines)
//! ```
//!
//! **Strict parsing, as the original.** The line is cut at each `;` (trailing empty
//! pieces are dropped, so `WAIT;` is fine and `;` alone is no order); each piece is cut at each
//! single space, and trailing spaces are dropped (`WAIT ` is fine, ` WAIT` is not). Numbers
//! are read like Java's `Integer.valueOf`: an optional sign, then decimal digits (`+3` and
//! `007` are fine, and so are other Unicode decimal digits of the Basic Multilingual Plane);
//! type numbers must be exactly `0`–`5`. Any of these **eliminates the player**:
//!
//! - an empty piece (`WAIT;;WAIT`, a leading `;`, an empty line); a piece of spaces only, or of
//!   2, 3, 4 or more than 6 words; a one-word piece other than `WAIT`;
//! - a word that is not a number where one is expected;
//! - a source tile that does not hold your entity, or an order that entity does not know;
//! - a MOVE beyond the unit's step or off the map (a MOVE onto its own tile is accepted);
//! - an ATTACK out of reach or at a tile without an enemy entity *now* (one killed last turn);
//! - a HARVEST out of reach or at a tile without a mine or forest *now* (one emptied last turn);
//! - a BUILD or TRAIN out of reach, off the map, or of a type the entity cannot make
//!   (lower-case names included).
//!
//! Pieces after an eliminating one are still read and their orders still queued, except after
//! a word that is not a number, which ends the reading of the line. A well-formed order that
//! turns out impossible when it runs (tile taken, not enough resources) just fails.
//!
//! ## Turn resolution
//!
//! - **Order queues.** Every accepted order is appended to its entity's queue; each turn each
//!   entity runs at most the head of its queue. Two orders for one unit in one line run on two
//!   turns, and `WAIT` does not clear a queue. A queued order keeps the coordinates it was
//!   written with: it acts on whatever stands on (X,Y) when it runs.
//! - **Locks.** MOVE sets the source tile's lock to 0 when read; the other orders set −1. A new
//!   entity has lock −1, a unit that moved gets −1. Locks persist and travel with the unit.
//! - **Collection.** In entity-list order (walls, the castles, the resources and barracks of
//!   the map, then entities in creation order), each player entity pops one order into the
//!   BUILD, TRAIN, MOVE, HARVEST or ATTACK queue.
//! - **Conflict marking.** A marker per target tile blocks a second BUILD, TRAIN or MOVE onto a
//!   tile (both are dropped) and every lower-priority BUILD > TRAIN > MOVE onto a tile a higher
//!   one targets. The referee's loop reads a shrinking queue length, so after k drops the last
//!   k orders of that queue escape the marking: kept exactly.
//! - **BUILD, then TRAIN**: the owner must be in the game and afford the cost; the target must
//!   be empty and within the source's reach. If the target holds a unit ordered to MOVE
//!   (lock 0), the order is tried once more after the moves; otherwise it fails.
//! - **MOVE** (step 1): into an empty tile; if occupied by an entity with the same lock as the
//!   mover, the mover's lock goes up by one and the move is retried at the back of the queue;
//!   otherwise it fails and the mover's lock becomes −1. So following chains work, swaps and two
//!   moves into one tile fail. A LIGHT's 2-tile move first steps to a mid tile chosen from three
//!   candidates and then retries the last tile.
//! - **Retries** of BUILD, then TRAIN. **HARVEST**: +1 gold (mine) or wood (forest) to an active
//!   owner while the resource lasts; earlier harvests in entity-list order win the last unit.
//!   **ATTACK**: every attack strikes, even from a unit killed earlier in the same phase, on
//!   whatever stands on the target tile now, for min(attack, health).
//! - **Cleanup**: entities at health 0 and empty resources are removed.
//!
//! ## End and scoring
//!
//! A player with no castle left is eliminated, as is one whose line eliminates it, or who
//! times out or crashes (both can go in the same turn). After turn 200 every player in the game
//! whose *materials* (the gold and wood costs of all its entities, plus its gold and wood) are
//! below the best is eliminated. The game ends when fewer than two players remain or after turn
//! 200. Score 1 for a player still in, 0 otherwise: equal scores are a draw.
//!
//! ## Departures from the original
//!
//! - **Turn limit 200** (our statement) instead of the referee's 250; the materials tie-break
//!   happens at turn 200.
//! - Three inputs hang or crash the original referee; here they are harmless:
//!   a MOVE onto the unit's own tile is consumed without moving (lock −1, no elimination); a
//!   LIGHT mid-step candidate off the map counts as neither empty nor a waiting tile; a queued
//!   MOVE or HARVEST whose source tile is empty when it runs is dropped.
//! - Guards that never trigger on real maps: at most 1 000 000 move attempts per turn, and map
//!   generation gives up placing an entity after 10 000 000 draws.
//! - Frames: one per turn, listing every action in words; the game summary texts are ours.
//!
//! ## Map generation
//!
//! One `java.util.Random(seed)` stream, drawn exactly as the referee draws it:
//!
//! 1. The size: width 15 + `nextInt(17)`, height 15 + `nextInt(3)`; every tile a wall.
//! 2. Only the left half is carved (the columns up to the middle one): a root row is drawn on
//!    its last column, the mirror axis; the outer border is never carved.
//! 3. A root corridor of drawn length is cleared along the axis, up and down from the root row.
//! 4. Until three fifths of the half are clear: a wall next to a clear tile is drawn and
//!    cleared, and a *builder* starts there in one of eight drawn directions, clearing up to
//!    five more tiles in that direction while it stays inside and touches clear tiles (a
//!    diagonal step also clears the tile beside it).
//! 5. A drawn number of openings are cut into the axis column, each where the tile beside it
//!    is clear.
//! 6. The half is mirrored onto the right (an odd width shares the middle column).
//! 7. The walls are listed, x outer and y inner (the start of the entity list).
//! 8. The entities, each kind in turn on drawn empty tiles: a castle each (red's drawn, blue's
//!    its mirror), gold mines and forests (each with its mirror; a drawn share of at most 5 % of
//!    the empty tiles; 5–24 resource each), then none or one barracks each, placed as the
//!    castles. Player entities never stand on the middle column.
//!
//! ## Conformance
//!
//! The tests check the map of seed 42 (24 × 15) tile by tile and its first input, the 24 rule
//! scenarios of the referee's own test material (adapted to the 200-turn limit), the Java
//! parsing semantics (`crate::java`), the three
//! departures, and the engine's conformance suite.
//!
//! ## Rulesets
//!
//! One ruleset, `default`: the referee's latest rules with the 200-turn limit. (The earlier
//! "v1" rules with a fixed 32 × 18 map are not offered.)
//!
//! ## Version history
//!
//! 1. Initial version.

use std::sync::Arc;

use engine::{
    FaultKind, Frame, Game, GameEntry, GameInfo, JavaRandom, LineOutcome, Outcome, Rules, Ruleset,
    Setup, SetupError, TurnOrder,
};

mod map;
mod protocol;
mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use protocol::Command;
use protocol::{
    check_commands, check_line, init_text, parse_syntax, turn_text, write_line, Checked,
};
/// The facts of the player entity types, as the initialisation block gives them, and what each
/// may train or build.
pub use state::{builds, trains, TypeData, TYPES};
use state::{data, name, Arena, Event, PLAYERS};
pub use state::{Order, Verb};
/// The type numbers and names of the protocol (pure data: the built-in bots use them too).
pub use state::{BARRACKS, CASTLE, FOREST, HEAVY, LIGHT, MINE, RANGED, TYPE_NAMES, WALL, WORKER};
pub use view::View;

/// The turn limit of our statement (the referee's is 250).
pub const MAX_TURNS: u32 = 200;

/// The facts about the game.
pub static INFO: GameInfo = GameInfo {
    id: "micro-rts",
    name: "microRTS",
    version: 1,
    min_seats: 2,
    max_seats: 2,
    turn_order: TurnOrder::Simultaneous,
    first_turn_ms: 1000,
    turn_ms: 50,
    rulesets: &[Ruleset {
        id: "default",
        name: "Castles (200 turns)",
        summary: "the referee's latest rules: random mirrored maps, order queues, conflict \
                  marking, materials tie-break at turn 200",
    }],
    default_ruleset: "default",
};

/// The registry entry.
pub const ENTRY: GameEntry = GameEntry::of::<MicroRts>();

/// A match of microRTS in progress.
#[derive(Clone, Debug)]
pub struct MicroRts {
    arena: Arena,
    /// Resolved turns.
    turns_done: u32,
    /// Per seat: its line of the current turn has been heard.
    answered: [bool; PLAYERS],
    /// Per seat: why it was eliminated.
    lost: [Option<String>; PLAYERS],
    outcome: Option<Outcome>,
    /// Events in words since the last step.
    events: Vec<String>,
    /// Events of the last step (shown by the frame; shared with the frames that copy the match).
    last_events: Arc<[String]>,
    /// Actions of the last step (drawn by the viewer; shared as the events are).
    last_actions: Arc<[Event]>,
}

impl MicroRts {
    fn from_arena(arena: Arena) -> MicroRts {
        MicroRts {
            arena,
            turns_done: 0,
            answered: [false; PLAYERS],
            lost: [None, None],
            outcome: None,
            events: Vec::new(),
            last_events: Arc::new([]),
            last_actions: Arc::new([]),
        }
    }

    /// The referee's `deactivate`: the seat is out (it stays out; the first reason is kept).
    fn eliminate(&mut self, seat: usize, why: String) {
        if seat >= PLAYERS || !self.arena.active[seat] {
            return;
        }
        self.arena.active[seat] = false;
        self.events
            .push(format!("{} is eliminated: {why}", name(seat)));
        self.lost[seat] = Some(why);
    }

    /// Rulebook, *End and scoring*, after a resolved turn.
    fn check_end(&mut self) {
        let castles = self.arena.castle_counts();
        for (seat, &count) in castles.iter().enumerate() {
            if self.arena.active[seat] && count == 0 {
                self.eliminate(seat, "no castle left".to_string());
            }
        }
        let at_limit = self.turns_done >= MAX_TURNS;
        if self.turns_done == MAX_TURNS {
            let materials: Vec<i64> = (0..PLAYERS).map(|s| self.arena.materials(s)).collect();
            let best = (0..PLAYERS)
                .filter(|&s| self.arena.active[s])
                .map(|s| materials[s])
                .fold(0, i64::max);
            self.events.push(format!(
                "turn limit: materials red {}, blue {}",
                materials[0], materials[1]
            ));
            for (seat, &mine) in materials.iter().enumerate() {
                if self.arena.active[seat] && mine < best {
                    let why = format!("fewer materials at the turn limit ({mine} against {best})");
                    self.eliminate(seat, why);
                }
            }
        }
        let active = self.arena.active.iter().filter(|&&a| a).count();
        if active < 2 || at_limit {
            let scores: Vec<i64> = self.arena.active.iter().map(|&a| i64::from(a)).collect();
            let reason = match (self.arena.active, &self.lost) {
                ([true, false], [_, Some(why)]) => format!("red wins, blue is out: {why}"),
                ([false, true], [Some(why), _]) => format!("blue wins, red is out: {why}"),
                ([true, true], _) => format!(
                    "draw at the turn limit: equal materials ({})",
                    self.arena.materials(0)
                ),
                _ => "draw: both players are out".to_string(),
            };
            self.events.push(reason.clone());
            self.outcome = Some(Outcome::from_scores(scores, reason));
        }
    }

    /// A random line for the seat: mostly legal orders, one per entity at most, sometimes a
    /// second queued one (see [`Rules::random_action`]).
    /// Queues a seat's checked orders; an eliminating one eliminates the seat (rulebook: *Protocol*).
    fn take_checked(&mut self, seat: usize, checked: Checked) -> LineOutcome {
        for (order, lock) in checked.accepted {
            self.arena.queue(order, lock);
        }
        match checked.elimination {
            None => LineOutcome::Done,
            Some(why) => {
                let text = format!("invalid order: {why}");
                self.eliminate(seat, text.clone());
                LineOutcome::Fault(format!("{text}: {} is eliminated", name(seat)))
            }
        }
    }

    fn random_commands(&self, seat: usize, rng: &mut JavaRandom) -> Vec<Command> {
        let arena = &self.arena;
        let owner = seat as u8 + 1;
        let enemy = 2 - seat as u8;
        let mut gold = arena.gold[seat];
        let mut wood = arena.wood[seat];
        let mut out = Vec::new();
        let mut claimed: Vec<(i32, i32)> = Vec::new();
        let pick = |rng: &mut JavaRandom, n: usize| rng.next_int_bounded(n as i32) as usize;
        for e in &arena.entities {
            let (x, y) = (e.x, e.y);
            let t = arena.tile(x, y);
            if t.owner != owner || rng.next_int_bounded(4) == 0 {
                continue;
            }
            let stats = data(t.kind);
            let around = |r: i32| {
                let mut v = Vec::new();
                for tx in x - r..=x + r {
                    for ty in y - r..=y + r {
                        if (tx, ty) != (x, y) && arena.inside(tx, ty) {
                            v.push((tx, ty));
                        }
                    }
                }
                v
            };
            let order = |verb, (tx, ty): (i32, i32), kind| {
                Command::Order(Order {
                    verb,
                    x,
                    y,
                    tx,
                    ty,
                    kind,
                })
            };
            let mut options: Vec<Command> = Vec::new();
            let free: Vec<(i32, i32)> = around(stats.reach)
                .into_iter()
                .filter(|&(tx, ty)| arena.tile(tx, ty).is_empty() && !claimed.contains(&(tx, ty)))
                .collect();
            match t.kind {
                CASTLE | BARRACKS => {
                    let kinds = trains(t.kind);
                    let kind = kinds[pick(rng, kinds.len())];
                    let cost = data(kind);
                    if !free.is_empty() && gold >= cost.gold && wood >= cost.wood {
                        options.push(order(Verb::Train, free[pick(rng, free.len())], kind));
                    }
                }
                _ => {
                    for (tx, ty) in around(stats.reach) {
                        let target = arena.tile(tx, ty);
                        if target.owner == enemy {
                            options.push(order(Verb::Attack, (tx, ty), 0));
                        }
                        if t.kind == WORKER && target.is_resource() {
                            options.push(order(Verb::Harvest, (tx, ty), 0));
                        }
                    }
                    let steps: Vec<(i32, i32)> = around(stats.step)
                        .into_iter()
                        .filter(|&(tx, ty)| !arena.tile(tx, ty).is_wall())
                        .collect();
                    if !steps.is_empty() {
                        options.push(order(Verb::Move, steps[pick(rng, steps.len())], 0));
                    }
                    if rng.next_int_bounded(200) == 0 {
                        // Accepted by the referee, which then loops forever (a departure).
                        options.push(order(Verb::Move, (x, y), 0));
                    }
                    if t.kind == WORKER && !free.is_empty() && rng.next_int_bounded(6) == 0 {
                        let kind = if rng.next_int_bounded(8) == 0 {
                            CASTLE
                        } else {
                            BARRACKS
                        };
                        let cost = data(kind);
                        if gold >= cost.gold && wood >= cost.wood {
                            options.push(order(Verb::Build, free[pick(rng, free.len())], kind));
                        }
                    }
                }
            }
            if options.is_empty() {
                continue;
            }
            let chosen = options[pick(rng, options.len())];
            if let Command::Order(o) = chosen {
                if matches!(o.verb, Verb::Build | Verb::Train) {
                    let cost = data(o.kind);
                    gold -= cost.gold;
                    wood -= cost.wood;
                    claimed.push((o.tx, o.ty));
                }
            }
            out.push(chosen);
            // Sometimes a second order, which waits in the queue (and may go stale).
            if rng.next_int_bounded(25) == 0 {
                let second = options[pick(rng, options.len())];
                if !matches!(second, Command::Order(o) if matches!(o.verb, Verb::Build | Verb::Train))
                {
                    out.push(second);
                }
            }
        }
        if out.is_empty() || rng.next_int_bounded(20) == 0 {
            out.push(Command::Wait);
        }
        out
    }
}

impl Game for MicroRts {
    fn turn(&self) -> u32 {
        self.turns_done
    }

    fn to_move(&self) -> Vec<usize> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        (0..PLAYERS).filter(|&s| self.arena.active[s]).collect()
    }

    fn input(&self, seat: usize) -> String {
        if seat >= PLAYERS {
            return String::new();
        }
        let turn = turn_text(&self.arena, seat);
        if self.turns_done > 0 {
            // Every turn but the first: the turn block alone, as written (no copy).
            return turn;
        }
        let mut text = init_text(&self.arena);
        text.push_str(&turn);
        text
    }

    fn hear(&mut self, seat: usize, line: &str) -> LineOutcome {
        if self.outcome.is_some()
            || seat >= PLAYERS
            || !self.arena.active[seat]
            || self.answered[seat]
        {
            return LineOutcome::Done;
        }
        self.answered[seat] = true;
        let checked = check_line(&self.arena, seat, line);
        self.take_checked(seat, checked)
    }

    fn fault(&mut self, seat: usize, kind: FaultKind) {
        if self.outcome.is_some() {
            return;
        }
        self.eliminate(seat, kind.to_string());
    }

    fn step(&mut self) {
        if self.outcome.is_some() {
            if !self.events.is_empty() {
                self.last_events = std::mem::take(&mut self.events).into();
                self.last_actions = Arc::new([]);
            }
            return;
        }
        let actions = self.arena.resolve();
        let mut events: Vec<String> = std::mem::take(&mut self.events);
        events.extend(actions.iter().map(view::words));
        self.events = events;
        self.turns_done += 1;
        self.answered = [false; PLAYERS];
        self.check_end();
        self.last_events = std::mem::take(&mut self.events).into();
        self.last_actions = actions.into();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// A copy of the match is the frame's scene (without the order queues, which a frame never
    /// shows): the step's parts are written when read.
    fn frame(&self) -> Frame {
        let copy = MicroRts {
            arena: self.arena.without_orders(),
            turns_done: self.turns_done,
            answered: self.answered,
            lost: self.lost.clone(),
            outcome: self.outcome.clone(),
            events: Vec::new(),
            last_events: Arc::clone(&self.last_events),
            last_actions: Arc::clone(&self.last_actions),
        };
        Frame::new(
            self.turns_done,
            self.lost.iter().map(Option::is_some),
            Arc::new(copy),
        )
    }
}

// What a frame of this game writes when read, from the copy of the match it keeps.
scene_of_a_copy!(MicroRts, last_events);

impl MicroRts {
    /// The events of the last step, in words.
    fn last_events(&self) -> Vec<String> {
        self.last_events.to_vec()
    }
}

impl Rules for MicroRts {
    /// The pieces of one line, in order, as written (before any check against the arena).
    type Action = Vec<Command>;

    const INFO: &'static GameInfo = &INFO;

    fn create(setup: &Setup) -> Result<Self, SetupError> {
        setup.check_without_options(&INFO)?;
        Ok(Self::from_arena(map::generate(setup.seed)))
    }

    fn random_action(&self, seat: usize, rng: &mut JavaRandom) -> Vec<Command> {
        if self.outcome.is_some() || seat >= PLAYERS || !self.arena.active[seat] {
            return vec![Command::Wait];
        }
        self.random_commands(seat, rng)
    }

    fn write_action(&self, _seat: usize, action: &Vec<Command>) -> Vec<String> {
        vec![write_line(action)]
    }

    fn parse_action(&self, _seat: usize, lines: &[String]) -> Result<Vec<Command>, String> {
        parse_syntax(engine::rules::one_line(lines)?)
    }

    fn apply(&mut self, seat: usize, action: &Vec<Command>) -> Result<(), String> {
        if self.outcome.is_some()
            || seat >= PLAYERS
            || !self.arena.active[seat]
            || self.answered[seat]
        {
            return Ok(());
        }
        self.answered[seat] = true;
        // No command is written as WAIT.
        let checked = check_commands(&self.arena, seat, action);
        match self.take_checked(seat, checked) {
            LineOutcome::Fault(why) => Err(why),
            _ => Ok(()),
        }
    }
}
