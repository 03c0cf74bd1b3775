//! The text protocol of microRTS, seen from a bot: reading what the referee sends
//! (the `games` crate's `micro_rts` module rulebook, "Protocol") and writing orders that are always well formed (same section: a
//! malformed order eliminates the player).
//!
//! The referee sends the initialisation block (the size and the six entity-type lines) only
//! before the first turn, glued to that turn's block. [`Reader`] collects text until a whole
//! turn has arrived, so it works whether a turn comes in one piece or line by line.

use std::fmt;

use crate::lines::{Cursor, Lines, Parsed, Short};

/// Owners as the input gives them.
pub const NEUTRAL: i8 = -1;
pub const ME: i8 = 0;
pub const ENEMY: i8 = 1;

// The type numbers of the protocol (neutral: wall, mine, forest; player entities: castle to
// ranged), the player entity types' names and the facts of an entity-type line of the
// initialisation block are the game's own.
pub use games::micro_rts::{
    TypeData, BARRACKS, CASTLE, FOREST, HEAVY, LIGHT, MINE, RANGED, TYPES, TYPE_NAMES, WALL, WORKER,
};

/// The initialisation block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Init {
    pub width: i32,
    pub height: i32,
    /// By type number 0..5.
    pub types: [TypeData; 6],
}

impl Default for Init {
    /// The values of the statement, for a first turn that comes without its block.
    fn default() -> Self {
        Init {
            width: 0,
            height: 0,
            types: TYPES,
        }
    }
}

/// One `x y owner entityType health` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntityLine {
    pub x: i32,
    pub y: i32,
    /// −1 neutral, 0 me, 1 the enemy.
    pub owner: i8,
    pub kind: u8,
    pub health: i32,
}

/// Everything the referee sends for one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInput {
    pub gold: i32,
    pub wood: i32,
    pub enemy_gold: i32,
    pub enemy_wood: i32,
    pub entities: Vec<EntityLine>,
}

/// An order to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    Build {
        from: (i32, i32),
        to: (i32, i32),
        kind: u8,
    },
    Train {
        from: (i32, i32),
        to: (i32, i32),
        kind: u8,
    },
    Move {
        from: (i32, i32),
        to: (i32, i32),
    },
    Attack {
        from: (i32, i32),
        to: (i32, i32),
    },
    Harvest {
        from: (i32, i32),
        to: (i32, i32),
    },
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = |k: u8| TYPE_NAMES.get(usize::from(k)).copied().unwrap_or("WORKER");
        match *self {
            Order::Build { from, to, kind } => write!(
                f,
                "BUILD {} {} {} {} {}",
                from.0,
                from.1,
                to.0,
                to.1,
                name(kind)
            ),
            Order::Train { from, to, kind } => write!(
                f,
                "TRAIN {} {} {} {} {}",
                from.0,
                from.1,
                to.0,
                to.1,
                name(kind)
            ),
            Order::Move { from, to } => write!(f, "MOVE {} {} {} {}", from.0, from.1, to.0, to.1),
            Order::Attack { from, to } => {
                write!(f, "ATTACK {} {} {} {}", from.0, from.1, to.0, to.1)
            }
            Order::Harvest { from, to } => {
                write!(f, "HARVEST {} {} {} {}", from.0, from.1, to.0, to.1)
            }
        }
    }
}

/// The orders as one line: joined by `;` (no spaces), `WAIT` for none.
pub fn output_line(orders: &[Order]) -> String {
    games::text::joined_or_wait(orders)
}

fn small(v: i64) -> Result<i32, Short> {
    i32::try_from(v).map_err(|_| Short::Bad(format!("{v} is out of range")))
}

/// The largest entity count we believe (a 31 × 17 map has 527 tiles).
const MAX_ENTITIES: i64 = 10_000;

fn parse_init(cur: &mut Cursor) -> Parsed<Init> {
    let [w, h] = cur.ints::<2>()?;
    let mut init = Init {
        width: small(w)?,
        height: small(h)?,
        ..Init::default()
    };
    for _ in 0..6 {
        let [kind, max_hp, reach, attack, step, gold, wood] = cur.ints::<7>()?;
        let slot = init
            .types
            .get_mut(usize::try_from(kind).unwrap_or(usize::MAX))
            .ok_or_else(|| Short::Bad(format!("unknown entity type {kind}")))?;
        *slot = TypeData {
            max_hp: small(max_hp)?,
            reach: small(reach)?,
            attack: small(attack)?,
            step: small(step)?,
            gold: small(gold)?,
            wood: small(wood)?,
        };
    }
    Ok(init)
}

fn parse_turn(cur: &mut Cursor) -> Parsed<TurnInput> {
    let [n, gold, wood, enemy_gold, enemy_wood] = cur.ints::<5>()?;
    if !(0..=MAX_ENTITIES).contains(&n) {
        return Err(Short::Bad(format!("entity count {n} out of range")));
    }
    let mut entities = Vec::with_capacity(n as usize);
    for _ in 0..n {
        let [x, y, owner, kind, health] = cur.ints::<5>()?;
        if !(-1..=1).contains(&owner) || !(0..=5).contains(&kind) {
            return Err(Short::Bad(format!("bad owner {owner} or type {kind}")));
        }
        entities.push(EntityLine {
            x: small(x)?,
            y: small(y)?,
            owner: owner as i8,
            kind: kind as u8,
            health: small(health)?,
        });
    }
    Ok(TurnInput {
        gold: small(gold)?,
        wood: small(wood)?,
        enemy_gold: small(enemy_gold)?,
        enemy_wood: small(enemy_wood)?,
        entities,
    })
}

/// Collects the referee's text until a whole turn has arrived, then parses it.
#[derive(Clone, Debug, Default)]
pub struct Reader {
    lines: Lines,
    init: Option<Init>,
}

impl Reader {
    pub fn new() -> Self {
        Reader::default()
    }

    /// The initialisation block, once read (the statement's values if it never came).
    pub fn init(&self) -> Init {
        self.init.clone().unwrap_or_default()
    }

    /// Takes more text. Returns `None` while the turn is incomplete, the turn once complete,
    /// or an error (and forgets the text) if it cannot be a turn.
    pub fn feed(&mut self, text: &str) -> Option<Result<TurnInput, String>> {
        self.lines
            .feed_after_init(text, &mut self.init, |cur, known| {
                // An init block starts with a 2-number line; a turn block with a 5-number one.
                let init = match cur.peek(0) {
                    Some(line) if known.is_none() && line.split_whitespace().count() == 2 => {
                        Some(parse_init(cur)?)
                    }
                    _ => None,
                };
                Ok((init, parse_turn(cur)?))
            })
    }
}
