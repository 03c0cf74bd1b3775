//! The text protocol of A Code of Ice and Fire, seen from a bot: reading what the referee sends
//! (the `games` crate's `ice_and_fire` rulebook, "Protocol") and writing commands that are always
//! well formed (an unrecognised command loses the game: same section).
//!
//! The referee sends the initialisation block (the mine spots) only before the bot's first turn,
//! glued to that turn's block. [`Reader`] collects text until a whole turn has arrived, so it
//! works whether a turn comes in one piece or line by line.

use std::fmt;

use crate::lines::{Cursor, Lines, Parsed, Short};

/// The map is always 12 × 12.
pub const SIZE: usize = 12;

/// A cell's coordinates: x to the right, y down, (0,0) at the top left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub x: usize,
    pub y: usize,
}

impl Pos {
    pub const fn new(x: usize, y: usize) -> Self {
        Pos { x, y }
    }
}

/// A building type as the protocol numbers them (0, 1, 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildingKind {
    Hq,
    Mine,
    Tower,
}

/// One `owner buildingType x y` line. Owner 0 is the reading bot, 1 its opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildingLine {
    pub owner: usize,
    pub kind: BuildingKind,
    pub pos: Pos,
}

/// One `owner unitId level x y` line. Owner 0 is the reading bot, 1 its opponent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnitLine {
    pub owner: usize,
    pub id: u32,
    pub level: u8,
    pub pos: Pos,
}

/// Everything the referee sends for one turn (the per-turn block of the `ice_and_fire`
/// rulebook's *Protocol*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnInput {
    pub gold: i32,
    pub income: i32,
    pub opponent_gold: i32,
    pub opponent_income: i32,
    /// The 12 map rows, y = 0..11; each row holds 12 of `#` `.` `O` `o` `X` `x`.
    pub rows: [[u8; SIZE]; SIZE],
    pub buildings: Vec<BuildingLine>,
    pub units: Vec<UnitLine>,
}

impl TurnInput {
    /// The map character at a cell.
    pub fn at(&self, pos: Pos) -> u8 {
        self.rows[pos.y][pos.x]
    }
}

/// A cell of the map, or why it is not one.
fn cell(x: i64, y: i64) -> Parsed<Pos> {
    let range = 0..SIZE as i64;
    if range.contains(&x) && range.contains(&y) {
        Ok(Pos::new(x as usize, y as usize))
    } else {
        Err(Short::Bad(format!("cell ({x},{y}) is off the map")))
    }
}

/// Whether a line is a map row (and therefore not part of an initialisation block).
fn is_map_row(line: &str) -> bool {
    line.len() == SIZE && line.bytes().all(|b| b"#.OoXx".contains(&b))
}

/// The initialisation block: `numberMineSpots`, then that many `x y` lines.
fn parse_init(cur: &mut Cursor) -> Parsed<Vec<Pos>> {
    // A turn block has a map row as its fifth line; an initialisation block never does (its
    // lines are numbers). This tells a first turn without its block (nothing is lost) apart.
    match cur.peek(4) {
        None => return Err(Short::More),
        Some(line) if is_map_row(line) => return Ok(Vec::new()),
        Some(_) => {}
    }
    let n = cur.count((SIZE * SIZE) as i64)?;
    (0..n)
        .map(|_| {
            let [x, y] = cur.ints::<2>()?;
            cell(x, y)
        })
        .collect()
}

/// The per-turn block (rulebook: *Protocol*).
fn parse_turn(cur: &mut Cursor) -> Parsed<TurnInput> {
    let gold = cur.int()?;
    let income = cur.int()?;
    let opponent_gold = cur.int()?;
    let opponent_income = cur.int()?;
    let mut rows = [[b'#'; SIZE]; SIZE];
    for row in &mut rows {
        let line = cur.line()?;
        if !is_map_row(line) {
            return Err(Short::Bad(format!("not a map row: '{line}'")));
        }
        row.copy_from_slice(line.as_bytes());
    }
    let building_count = cur.count((SIZE * SIZE) as i64)?;
    let mut buildings = Vec::with_capacity(building_count);
    for _ in 0..building_count {
        let [owner, kind, x, y] = cur.ints::<4>()?;
        let kind = match kind {
            0 => BuildingKind::Hq,
            1 => BuildingKind::Mine,
            2 => BuildingKind::Tower,
            _ => return Err(Short::Bad(format!("unknown building type {kind}"))),
        };
        buildings.push(BuildingLine {
            owner: owner_of(owner)?,
            kind,
            pos: cell(x, y)?,
        });
    }
    let unit_count = cur.count((SIZE * SIZE) as i64)?;
    let mut units = Vec::with_capacity(unit_count);
    for _ in 0..unit_count {
        let [owner, id, level, x, y] = cur.ints::<5>()?;
        if !(1..=3).contains(&level) || !(0..=i64::from(u32::MAX)).contains(&id) {
            return Err(Short::Bad(format!("bad unit id {id} or level {level}")));
        }
        units.push(UnitLine {
            owner: owner_of(owner)?,
            id: id as u32,
            level: level as u8,
            pos: cell(x, y)?,
        });
    }
    let clamp = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
    Ok(TurnInput {
        gold: clamp(gold),
        income: clamp(income),
        opponent_gold: clamp(opponent_gold),
        opponent_income: clamp(opponent_income),
        rows,
        buildings,
        units,
    })
}

fn owner_of(owner: i64) -> Parsed<usize> {
    match owner {
        0 | 1 => Ok(owner as usize),
        _ => Err(Short::Bad(format!("unknown owner {owner}"))),
    }
}

/// Collects the referee's text until a whole turn has arrived, then parses it.
#[derive(Clone, Debug, Default)]
pub struct Reader {
    /// Lines received but not yet used.
    lines: Lines,
    /// The mine spots, once the initialisation block has been read.
    spots: Option<Vec<Pos>>,
}

impl Reader {
    pub fn new() -> Self {
        Reader::default()
    }

    /// Takes more text from the referee. Returns `None` while the turn is incomplete, the turn
    /// once it is complete, or an error (and forgets the text) if it cannot be a turn.
    pub fn feed(&mut self, text: &str) -> Option<Result<TurnInput, String>> {
        self.lines
            .feed_after_init(text, &mut self.spots, |cur, known| {
                let spots = match known {
                    None => Some(parse_init(cur)?),
                    Some(_) => None,
                };
                Ok((spots, parse_turn(cur)?))
            })
    }

    /// The mine spots (empty before the first turn and in the leagues without mines).
    pub fn spots(&self) -> &[Pos] {
        self.spots.as_deref().unwrap_or(&[])
    }
}

/// One command. Every field is unsigned and every word fixed, so the text is always well formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Move { id: u32, to: Pos },
    Train { level: u8, at: Pos },
    BuildMine(Pos),
    BuildTower(Pos),
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Move { id, to } => write!(f, "MOVE {id} {} {}", to.x, to.y),
            Command::Train { level, at } => write!(f, "TRAIN {level} {} {}", at.x, at.y),
            Command::BuildMine(at) => write!(f, "BUILD MINE {} {}", at.x, at.y),
            Command::BuildTower(at) => write!(f, "BUILD TOWER {} {}", at.x, at.y),
        }
    }
}

/// The one output line of a turn: the commands joined by `;`, or `WAIT` when there are none
/// (an empty line would be an empty command, which loses).
pub fn output_line(commands: &[Command]) -> String {
    games::text::joined_or_wait(commands)
}
