//! The text protocol (rulebook: *Protocol*): parsing a bot's line exactly as the referee, and
//! writing a seat's input.

use std::fmt;

#[cfg(test)]
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
///
/// The pieces as [`java::split`] cuts them, trimmed as [`java::trim`] trims them, each read by
/// [`quick_piece`] where it can and by [`parse_piece`] otherwise: the same commands as the plain
/// way (`plain_parse_line` in the tests, which compare them on random play and random text).
pub fn parse_line(line: &str) -> Result<Vec<Command>, Unrecognised> {
    // Room for a line of MOVEs (a piece and its `;` take at least 9 bytes but for the rarer
    // WAIT and MSG): a few allocations fewer than growing.
    let commands = Vec::with_capacity(line.len() / 9 + 1);
    read_pieces(pieces(line).map(trim), commands, |piece| {
        quick_piece(piece).or_else(|| parse_piece(piece))
    })
}

/// [`parse_line`] the plain way, piece by piece through [`java::split`], [`java::trim`] and
/// [`parse_piece`]: the tests' reference.
#[cfg(test)]
pub fn plain_parse_line(line: &str) -> Result<Vec<Command>, Unrecognised> {
    let pieces = java::split(line, ';').into_iter().map(java::trim);
    read_pieces(pieces, Vec::new(), parse_piece)
}

/// Appends to `commands` the command of each piece as `read` reads it, up to the first piece
/// it cannot read: that piece is [`Unrecognised`], with the commands before it.
#[inline]
fn read_pieces<'a>(
    pieces: impl Iterator<Item = &'a str>,
    mut commands: Vec<Command>,
    read: impl Fn(&'a str) -> Option<Command>,
) -> Result<Vec<Command>, Unrecognised> {
    for piece in pieces {
        match read(piece) {
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

/// The pieces of [`java::split`]`(line, ';')` without a list: Java drops every trailing empty
/// piece when there is more than one, which is cutting the trailing `;` off first; a line of
/// nothing but `;` then has no piece, and a line without any `;` is its own one piece (even
/// when empty).
fn pieces(line: &str) -> impl Iterator<Item = &str> {
    let body = line.trim_end_matches(';');
    let none = body.is_empty() && !line.is_empty();
    (!none).then(|| body.split(';')).into_iter().flatten()
}

/// [`java::trim`] by bytes: the characters it strips (up to U+0020) are single bytes, and no
/// byte of a longer character is that small, so the first and last bytes above U+0020 start
/// and end the same text.
fn trim(piece: &str) -> &str {
    let bytes = piece.as_bytes();
    let Some(start) = bytes.iter().position(|&b| b > b' ') else {
        return "";
    };
    let end = bytes
        .iter()
        .rposition(|&b| b > b' ')
        .map_or(start, |i| i + 1);
    &piece[start..end]
}

/// The commonest pieces read straight from their bytes: `MOVE a x y`, `TRAIN a x y` and
/// `BUILD MINE|TOWER x y` with numbers of one to nine ASCII digits (which always fit an
/// `int`), single spaces and nothing else. `None` for anything else, which [`parse_piece`]
/// then reads; where this gives a command, it is the one [`parse_piece`] gives.
pub fn quick_piece(piece: &str) -> Option<Command> {
    let bytes = piece.as_bytes();
    if let Some(rest) = bytes.strip_prefix(b"MOVE ") {
        let [id, x, y] = numbers::<3>(rest)?;
        return Some(Command::Move { id, x, y });
    }
    if let Some(rest) = bytes.strip_prefix(b"TRAIN ") {
        let [level, x, y] = numbers::<3>(rest)?;
        return Some(Command::Train { level, x, y });
    }
    let rest = bytes.strip_prefix(b"BUILD ")?;
    let (kind, rest) = if let Some(rest) = rest.strip_prefix(b"MINE ") {
        (BuildKind::Mine, rest)
    } else {
        (BuildKind::Tower, rest.strip_prefix(b"TOWER ")?)
    };
    let [x, y] = numbers::<2>(rest)?;
    Some(Command::Build { kind, x, y })
}

/// Exactly `N` numbers of one to nine ASCII digits, separated by single spaces.
fn numbers<const N: usize>(bytes: &[u8]) -> Option<[i32; N]> {
    let mut out = [0; N];
    let mut at = 0;
    for (i, slot) in out.iter_mut().enumerate() {
        if i > 0 {
            if bytes.get(at) != Some(&b' ') {
                return None;
            }
            at += 1;
        }
        let start = at;
        let mut value = 0i32;
        while let Some(&b) = bytes.get(at).filter(|b| b.is_ascii_digit()) {
            if at - start == 9 {
                return None;
            }
            value = value * 10 + i32::from(b - b'0');
            at += 1;
        }
        if at == start {
            return None;
        }
        *slot = value;
    }
    (at == bytes.len()).then_some(out)
}

/// The commands as one protocol line.
pub fn write_line(commands: &[Command]) -> String {
    commands
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(";")
}

/// A seat's input for a turn, its initialisation block first (`first`): the text of
/// [`init_text`] and [`turn_text`] (the tests' plain reference, compared on random play),
/// written as bytes: numbers through a small buffer, a map row at a time, the buildings
/// sorted as keys in an array.
pub fn input_text(board: &Board, seat: usize, first: bool) -> String {
    let mut out = Vec::with_capacity(256 + 12 * board.buildings.len() + 16 * board.units.len());
    if first {
        let spots = board.map.spots();
        push_numbers(&mut out, [spots.len() as i32]);
        for c in spots {
            let (x, y) = xy(c);
            push_numbers(&mut out, [x as i32, y as i32]);
        }
    }
    let seat = seat % PLAYERS;
    let other = 1 - seat;
    for v in [
        board.gold[seat],
        board.income[seat],
        board.gold[other],
        board.income[other],
    ] {
        push_numbers(&mut out, [v]);
    }
    push_map(&mut out, board, seat);
    push_buildings(&mut out, board, seat);
    // Own units first, then by id: the board keeps its units in id order.
    let own = board.units.iter().filter(|u| u.owner == seat);
    let others = board.units.iter().filter(|u| u.owner != seat);
    push_numbers(&mut out, [board.units.len() as i32]);
    for u in own.chain(others) {
        let (x, y) = xy(u.cell);
        let owner = i32::from(u.owner != seat);
        push_numbers(&mut out, [owner, u.id, u.level.into(), x as i32, y as i32]);
    }
    // Only ASCII was written.
    String::from_utf8(out).unwrap_or_default()
}

/// The 12 map rows of [`turn_text`], each written whole.
fn push_map(out: &mut Vec<u8>, board: &Board, seat: usize) {
    for y in 0..HEIGHT {
        let mut row = [b'\n'; WIDTH + 1];
        for (x, ch) in row[..WIDTH].iter_mut().enumerate() {
            let c = y * WIDTH + x;
            *ch = if board.map.void[c] {
                b'#'
            } else {
                match (board.owner[c], board.active[c]) {
                    (None, _) => b'.',
                    (Some(o), true) if o == seat => b'O',
                    (Some(o), false) if o == seat => b'o',
                    (Some(_), true) => b'X',
                    (Some(_), false) => b'x',
                }
            };
        }
        out.extend_from_slice(&row);
    }
}

/// The buildings of [`turn_text`] (own first, then HQ, MINE, TOWER, then x, then y): each as
/// one key in that order, `other << 11 | code << 8 | x << 4 | y` (a code is below 4, x and y
/// below 16), sorted in an array (at most one building stands on a cell, so at most `CELLS`).
fn push_buildings(out: &mut Vec<u8>, board: &Board, seat: usize) {
    let mut keys = [0u16; super::map::CELLS];
    let mut n = 0;
    for (key, b) in keys.iter_mut().zip(&board.buildings) {
        let (x, y) = xy(b.cell);
        *key = u16::from(b.owner != seat) << 11
            | u16::from(b.kind.code()) << 8
            | (x as u16) << 4
            | y as u16;
        n += 1;
    }
    let keys = &mut keys[..n];
    keys.sort_unstable();
    push_numbers(out, [board.buildings.len() as i32]);
    for &key in keys.iter() {
        let field = |shift: u16, mask: u16| i32::from(key >> shift & mask);
        push_numbers(out, [field(11, 1), field(8, 7), field(4, 15), field(0, 15)]);
    }
}

/// One protocol line of numbers, each as `Display` writes it, separated by single spaces.
#[inline(always)]
fn push_numbers<const N: usize>(out: &mut Vec<u8>, values: [i32; N]) {
    // At most 11 bytes a number, a space or the newline after each.
    let mut line = [0u8; 64];
    let mut len = 0;
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            line[len] = b' ';
            len += 1;
        }
        len += write_number(&mut line[len..], v);
    }
    line[len] = b'\n';
    out.extend_from_slice(&line[..=len]);
}

/// Writes `v` as `Display` does at the start of `buf`; returns the bytes written. Nearly every
/// number of the input (coordinates, ids, levels, counts) is below 1000: written digit by
/// digit, without the general loop.
#[inline(always)]
pub(super) fn write_number(buf: &mut [u8], v: i32) -> usize {
    let digit = |d: i32| b'0' + d as u8;
    match v {
        0..=9 => {
            buf[0] = digit(v);
            1
        }
        10..=99 => {
            buf[..2].copy_from_slice(&[digit(v / 10), digit(v % 10)]);
            2
        }
        100..=999 => {
            buf[..3].copy_from_slice(&[digit(v / 100), digit(v / 10 % 10), digit(v % 10)]);
            3
        }
        _ => engine::int_text::write_int(buf, v),
    }
}

/// The initialisation block (rulebook: *Protocol*): the number of mine spots, then one `x y` line each, row by row.
#[cfg(test)]
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
#[cfg(test)]
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
