//! The text protocol (rulebook: *Protocol*): parsing a bot's line exactly as the referee, and
//! writing a seat's input.

use std::fmt;

use engine::int_text::push_ints_line;

use crate::java;

use super::map::{xy, HEIGHT, WIDTH};
use super::state::{Board, BuildingKind, PLAYERS};

/// What BUILD can build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildKind {
    Mine,
    Tower,
}

impl BuildKind {
    pub fn building(self) -> BuildingKind {
        match self {
            BuildKind::Mine => BuildingKind::Mine,
            BuildKind::Tower => BuildingKind::Tower,
        }
    }
}

/// One recognised command of a line (rulebook: *Protocol*). Numbers are what the bot wrote: ASCII digits
/// that fit a Java `int`, so never negative.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Wait,
    /// `MSG text`: the text after `MSG ` (it may not contain `;`).
    Msg(String),
    Move {
        id: i32,
        x: i32,
        y: i32,
    },
    Train {
        level: i32,
        x: i32,
        y: i32,
    },
    Build {
        kind: BuildKind,
        x: i32,
        y: i32,
    },
}

impl fmt::Display for Command {
    /// The protocol form, which parses back to the same command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Wait => f.write_str("WAIT"),
            Command::Msg(text) => write!(f, "MSG {text}"),
            Command::Move { id, x, y } => write!(f, "MOVE {id} {x} {y}"),
            Command::Train { level, x, y } => write!(f, "TRAIN {level} {x} {y}"),
            Command::Build { kind, x, y } => {
                let word = kind.building().word();
                write!(f, "BUILD {word} {x} {y}")
            }
        }
    }
}

/// A line with an unrecognised piece (rulebook: *Protocol*): the player loses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unrecognised {
    /// The offending piece, trimmed.
    pub piece: String,
    /// The commands recognised before it (the referee has already shown their messages).
    pub before: Vec<Command>,
}

/// One trimmed piece, checked in the referee's order (rulebook: *Protocol*).
pub fn parse_piece(piece: &str) -> Option<Command> {
    if piece == "WAIT" {
        return Some(Command::Wait);
    }
    if let Some(text) = piece.strip_prefix("MSG ") {
        return Some(Command::Msg(text.to_string()));
    }
    // The referee's patterns end in `$`, which in Java also matches before one final line
    // terminator; trimming leaves only these three possible.
    let body = piece
        .strip_suffix(['\u{85}', '\u{2028}', '\u{2029}'])
        .unwrap_or(piece);
    let words: Vec<&str> = body.split(' ').collect();
    match words.as_slice() {
        [verb @ ("MOVE" | "TRAIN"), a, x, y] => {
            let (a, x, y) = (java::digits(a)?, java::digits(x)?, java::digits(y)?);
            Some(if *verb == "MOVE" {
                Command::Move { id: a, x, y }
            } else {
                Command::Train { level: a, x, y }
            })
        }
        ["BUILD", kind @ ("MINE" | "TOWER"), x, y] => {
            let kind = if *kind == "MINE" {
                BuildKind::Mine
            } else {
                BuildKind::Tower
            };
            Some(Command::Build {
                kind,
                x: java::digits(x)?,
                y: java::digits(y)?,
            })
        }
        _ => None,
    }
}

/// A whole line (rulebook: *Protocol*): split, trim, recognise every piece. A line of only `;` is no command.
pub fn parse_line(line: &str) -> Result<Vec<Command>, Unrecognised> {
    let mut commands = Vec::new();
    for piece in java::split(line, ';') {
        let piece = java::trim(piece);
        match parse_piece(piece) {
            Some(c) => commands.push(c),
            None => {
                return Err(Unrecognised {
                    piece: piece.to_string(),
                    before: commands,
                })
            }
        }
    }
    Ok(commands)
}

/// The commands as one protocol line.
pub fn write_line(commands: &[Command]) -> String {
    commands
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(";")
}

/// The initialisation block (rulebook: *Protocol*): the number of mine spots, then one `x y` line each, row by row.
pub fn init_text(board: &Board) -> String {
    let spots = board.map.spots();
    let mut out = String::with_capacity(8 + 6 * spots.len());
    push_ints_line(&mut out, &[spots.len() as i32]);
    for c in spots {
        let (x, y) = xy(c);
        push_ints_line(&mut out, &[x as i32, y as i32]);
    }
    out
}

/// A seat's per-turn block (rulebook: *Protocol*): gold and income of both, the map from the seat's side,
/// buildings (own first, then HQ/MINE/TOWER, then x, then y), units (own first, then id).
pub fn turn_text(board: &Board, seat: usize) -> String {
    let seat = seat % PLAYERS;
    let other = 1 - seat;
    let mut out = String::with_capacity(200 + 12 * board.buildings.len() + 16 * board.units.len());
    for v in [
        board.gold[seat],
        board.income[seat],
        board.gold[other],
        board.income[other],
    ] {
        push_ints_line(&mut out, &[v]);
    }
    for y in 0..HEIGHT {
        for x in 0..WIDTH {
            let c = y * WIDTH + x;
            let ch = if board.map.void[c] {
                '#'
            } else {
                match (board.owner[c], board.active[c]) {
                    (None, _) => '.',
                    (Some(o), true) if o == seat => 'O',
                    (Some(o), false) if o == seat => 'o',
                    (Some(_), true) => 'X',
                    (Some(_), false) => 'x',
                }
            };
            out.push(ch);
        }
        out.push('\n');
    }
    let mut buildings: Vec<_> = board.buildings.iter().collect();
    // No two buildings share a cell, so the keys are distinct and any sort gives this order.
    buildings.sort_unstable_by_key(|b| {
        let (x, y) = xy(b.cell);
        (b.owner != seat, b.kind.code(), x, y)
    });
    push_ints_line(&mut out, &[buildings.len() as i32]);
    for b in buildings {
        let (x, y) = xy(b.cell);
        let owner = i32::from(b.owner != seat);
        push_ints_line(&mut out, &[owner, b.kind.code().into(), x as i32, y as i32]);
    }
    // Own units first, then by id: the board keeps its units in id order, so the seat's, then
    // the others' (no sort needed).
    debug_assert!(board.units.windows(2).all(|w| w[0].id < w[1].id));
    let own = board.units.iter().filter(|u| u.owner == seat);
    let others = board.units.iter().filter(|u| u.owner != seat);
    push_ints_line(&mut out, &[board.units.len() as i32]);
    for u in own.chain(others) {
        let (x, y) = xy(u.cell);
        let owner = i32::from(u.owner != seat);
        push_ints_line(&mut out, &[owner, u.id, u.level.into(), x as i32, y as i32]);
    }
    out
}
