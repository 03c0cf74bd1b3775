//! The text protocol of Soak Overflow, seen from a bot: reading what the referee sends
//! (the `games` crate's `soak_overflow` module rulebook, "Protocol") and writing lines that are always well formed (same section: a
//! malformed line loses the game).
//!
//! The referee sends the initialisation block (ids, agent classes, the grid) only before the
//! bot's first turn, glued to that turn's block. [`Reader`] collects text until a whole turn
//! has arrived, so it works whether a turn comes in one piece or line by line.
//!
//! In the tutorial leagues 2–4 the opponent (player 1) answers after red and its turn input
//! ends with red's orders of the turn (botplay's addition, see the game's documentation): the
//! number of red agents, then per agent `id[;MOVE x y][;SHOOT id|;THROW x y|;HUNKER_DOWN]`.
//! The tutorial grids have sizes the full game never has ([`Init::is_tutorial`]), so the reader
//! knows when to expect that block.

use std::fmt;

use games::soak_overflow::map::Grid;

use crate::lines::{Cursor, Lines, Parsed, Short};

/// The largest grid side the protocol allows (width 20, height 10) with margin for odd inputs.
const MAX_SIDE: i64 = 64;
/// At most this many agents (10 in the game) with margin.
const MAX_AGENTS: i64 = 64;

/// A tile: x to the right, y down, (0,0) at the top left; the game's own position, with its
/// distances.
pub use games::soak_overflow::map::Coord as Pos;

/// One agent line of the initialisation block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentClass {
    pub id: i32,
    /// The owning player's id (compare with [`Init::my_id`]).
    pub player: i32,
    pub shoot_cooldown: i32,
    pub optimal_range: i32,
    pub soaking_power: i32,
    pub bombs: i32,
}

/// The initialisation block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Init {
    pub my_id: i32,
    pub agents: Vec<AgentClass>,
    pub width: i32,
    pub height: i32,
    /// Row by row: 0 floor, 1 low cover, 2 high cover.
    pub tiles: Vec<u8>,
}

impl Init {
    /// The map as the game's [`Grid`], for the game's helpers (the path search, league 3's
    /// objective).
    pub fn grid(&self) -> Grid {
        Grid {
            width: self.width,
            height: self.height,
            tiles: self.tiles.clone(),
            y_sym: false,
            spawns: Vec::new(),
        }
    }

    /// A tutorial league's grid (8 × 5, 13 × 5, 15 × 12 or 17 × 12): the full game's grids are
    /// 6 to 10 high and twice as wide.
    pub fn is_tutorial(&self) -> bool {
        !((6..=10).contains(&self.height) && self.width == 2 * self.height)
    }

    /// Whether each turn ends with red's orders: the opponent's seat of a tutorial league.
    pub fn gets_orders(&self) -> bool {
        self.my_id == 1 && self.is_tutorial()
    }

    /// The tile type at a position (off the grid: floor).
    pub fn tile(&self, p: Pos) -> u8 {
        if p.x < 0 || p.y < 0 || p.x >= self.width || p.y >= self.height {
            return 0;
        }
        self.tiles[(p.y * self.width + p.x) as usize]
    }

    /// The player owning an agent, by the initialisation block.
    pub fn owner(&self, id: i32) -> Option<i32> {
        self.agents.iter().find(|a| a.id == id).map(|a| a.player)
    }
}

/// The combat action of an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Combat {
    Shoot(i32),
    Throw(Pos),
    HunkerDown,
}

/// What red told one of its agents this turn, as the opponent of a tutorial league is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Orders {
    pub id: i32,
    pub to: Option<Pos>,
    pub combat: Option<Combat>,
}

/// One agent line of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AgentLine {
    pub id: i32,
    pub pos: Pos,
    pub cooldown: i32,
    pub bombs: i32,
    pub wetness: i32,
}

/// Everything the referee sends for one turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInput {
    pub agents: Vec<AgentLine>,
    pub my_agent_count: usize,
    /// Red's orders of this turn (only for the opponent of a tutorial league; else empty).
    pub orders: Vec<Orders>,
}

fn small(v: i64) -> i32 {
    v.clamp(-1_000_000, 1_000_000) as i32
}

/// The agent lines of a block: their count, then that many lines of six integers, each made
/// (every number clamped, [`small`]) into an agent by `agent`.
fn agent_lines<T>(cur: &mut Cursor, agent: impl Fn([i32; 6]) -> T) -> Parsed<Vec<T>> {
    let n = cur.count(MAX_AGENTS)?;
    (0..n)
        .map(|_| {
            let v = cur.int_vec(6)?;
            Ok(agent(std::array::from_fn(|i| small(v[i]))))
        })
        .collect()
}

fn parse_init(cur: &mut Cursor) -> Parsed<Init> {
    let my_id = small(cur.int()?);
    let agents = agent_lines(
        cur,
        |[id, player, shoot_cooldown, optimal_range, soaking_power, bombs]| AgentClass {
            id,
            player,
            shoot_cooldown,
            optimal_range,
            soaking_power,
            bombs,
        },
    )?;
    let size = cur.int_vec(2)?;
    let (width, height) = (size[0], size[1]);
    if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
        return Err(Short::Bad(format!("grid {width} x {height}")));
    }
    let mut tiles = vec![0u8; (width * height) as usize];
    for _ in 0..height {
        let v = cur.int_vec(3 * width as usize)?;
        for t in v.chunks_exact(3) {
            let (x, y, kind) = (t[0], t[1], t[2]);
            if !(0..width).contains(&x) || !(0..height).contains(&y) || !(0..=2).contains(&kind) {
                return Err(Short::Bad(format!("bad tile {x} {y} {kind}")));
            }
            tiles[(y * width + x) as usize] = kind as u8;
        }
    }
    Ok(Init {
        my_id,
        agents,
        width: width as i32,
        height: height as i32,
        tiles,
    })
}

fn parse_turn(cur: &mut Cursor) -> Parsed<TurnInput> {
    let agents = agent_lines(cur, |[id, x, y, cooldown, bombs, wetness]| AgentLine {
        id,
        pos: Pos::new(x, y),
        cooldown,
        bombs,
        wetness,
    })?;
    let my_agent_count = cur.count(MAX_AGENTS)?;
    Ok(TurnInput {
        agents,
        my_agent_count,
        orders: Vec::new(),
    })
}

/// One line of red's orders: `id` then `;`-separated actions.
fn parse_order(line: &str) -> Parsed<Orders> {
    let bad = || Short::Bad(format!("not an order line: '{line}'"));
    let mut pieces = line.split(';');
    let id = pieces
        .next()
        .and_then(|p| p.trim().parse::<i64>().ok())
        .ok_or_else(bad)?;
    let mut order = Orders {
        id: small(id),
        to: None,
        combat: None,
    };
    for piece in pieces {
        let words: Vec<&str> = piece.split_whitespace().collect();
        let int = |w: &str| w.parse::<i64>().map(small).map_err(|_| bad());
        match words.as_slice() {
            ["MOVE", x, y] => order.to = Some(Pos::new(int(x)?, int(y)?)),
            ["SHOOT", id] => order.combat = Some(Combat::Shoot(int(id)?)),
            ["THROW", x, y] => order.combat = Some(Combat::Throw(Pos::new(int(x)?, int(y)?))),
            ["HUNKER_DOWN"] => order.combat = Some(Combat::HunkerDown),
            _ => return Err(bad()),
        }
    }
    Ok(order)
}

fn parse_orders(cur: &mut Cursor) -> Parsed<Vec<Orders>> {
    let n = cur.count(MAX_AGENTS)?;
    (0..n).map(|_| parse_order(cur.line()?)).collect()
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

    /// Takes more text from the referee. Returns `None` while the turn is incomplete, the turn
    /// once it is complete, or an error (and forgets the text) if it cannot be a turn.
    pub fn feed(&mut self, text: &str) -> Option<Result<TurnInput, String>> {
        self.lines
            .feed_after_init(text, &mut self.init, |cur, known| {
                let init = match known {
                    None => Some(parse_init(cur)?),
                    Some(_) => None,
                };
                let mut turn = parse_turn(cur)?;
                if init.as_ref().or(known).is_some_and(Init::gets_orders) {
                    turn.orders = parse_orders(cur)?;
                }
                Ok((init, turn))
            })
    }

    /// The initialisation block, once read.
    pub fn init(&self) -> Option<&Init> {
        self.init.as_ref()
    }
}

/// One action a bot writes. Every field is checked by construction: coordinates of MOVE are
/// never negative, messages never contain `;` or line breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    Move(Pos),
    Shoot(i32),
    Throw(Pos),
    HunkerDown,
    Message(String),
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(p) => write!(f, "MOVE {} {}", p.x.max(0), p.y.max(0)),
            Action::Shoot(id) => write!(f, "SHOOT {}", id.max(&0)),
            Action::Throw(p) => write!(f, "THROW {} {}", p.x, p.y),
            Action::HunkerDown => f.write_str("HUNKER_DOWN"),
            Action::Message(text) => {
                let clean: String = text
                    .chars()
                    .map(|c| if c == ';' || c.is_control() { ' ' } else { c })
                    .collect();
                let clean = clean.trim();
                write!(f, "MESSAGE {}", if clean.is_empty() { "-" } else { clean })
            }
        }
    }
}

/// One output line for an agent: `id;action;action`, or `id;WAIT` without actions (an agent
/// line with no action would be malformed).
pub fn agent_line(id: i32, actions: &[Action]) -> String {
    format!("{id};{}", games::text::joined_or_wait(actions))
}
