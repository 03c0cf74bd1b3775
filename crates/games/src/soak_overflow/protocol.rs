//! The text protocol (rulebook: *Protocol*): a seat's inputs and its answer lines, parsed exactly
//! as the referee parses them.

use std::fmt;

use crate::java;
use crate::text::quote;
#[cfg(test)]
use engine::int_text::{push_int, push_ints_line};

use super::map::{Coord, Grid};
use super::state::{Board, Combat, Slots, PLAYERS};

/// One recognised action of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `MOVE x y` (x, y ≥ 0; they may be off the grid).
    Move { x: i32, y: i32 },
    /// `SHOOT id`.
    Shoot { id: i32 },
    /// `THROW x y` (may be negative).
    Throw { x: i32, y: i32 },
    /// `HUNKER_DOWN`.
    HunkerDown,
    /// `WAIT`: the referee takes it as `HUNKER_DOWN`.
    Wait,
    /// `MESSAGE text` (the text trimmed, never empty, without `;`).
    Message(String),
}

impl fmt::Display for Command {
    /// The protocol form, which parses back to the same command.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Move { x, y } => write!(f, "MOVE {x} {y}"),
            Command::Shoot { id } => write!(f, "SHOOT {id}"),
            Command::Throw { x, y } => write!(f, "THROW {x} {y}"),
            Command::HunkerDown => f.write_str("HUNKER_DOWN"),
            Command::Wait => f.write_str("WAIT"),
            Command::Message(text) => write!(f, "MESSAGE {text}"),
        }
    }
}

/// One answer line: the agent id if written, and the actions recognised.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    pub agent: Option<i32>,
    pub commands: Vec<Command>,
}

impl fmt::Display for Order {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(id) = self.agent {
            write!(f, "{id};")?;
        }
        let pieces: Vec<String> = self.commands.iter().map(ToString::to_string).collect();
        f.write_str(&pieces.join(";"))
    }
}

/// Whether `s` is the ASCII `keyword` (written in capitals) in any case. Bots mostly write
/// capitals: comparing those first, all at once, saves folding the case byte by byte.
#[inline]
fn is_keyword(s: &str, keyword: &str) -> bool {
    s == keyword || s.eq_ignore_ascii_case(keyword)
}

/// The part of `s` after a case-insensitive ASCII keyword (written in capitals).
#[inline]
fn after_keyword<'a>(s: &'a str, keyword: &str) -> Option<&'a str> {
    let head = s.get(..keyword.len())?;
    is_keyword(head, keyword).then(|| &s[keyword.len()..])
}

/// Java's `.` does not match these.
fn is_line_terminator(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

/// One trimmed piece, matched as a whole and case-insensitively; words are separated by single
/// spaces and numbers are ASCII digits (rulebook: *Protocol*).
pub fn parse_piece(piece: &str) -> Option<Command> {
    // Each action has its own first letter, so that letter says which one the piece can be.
    match piece.as_bytes().first()?.to_ascii_uppercase() {
        b'H' => is_keyword(piece, "HUNKER_DOWN").then_some(Command::HunkerDown),
        b'W' => is_keyword(piece, "WAIT").then_some(Command::Wait),
        b'M' => match after_keyword(piece, "MESSAGE ") {
            Some(text) => {
                if text.is_empty() || text.chars().any(is_line_terminator) {
                    return None;
                }
                Some(Command::Message(java::trim(text).to_string()))
            }
            None => {
                let (x, y) = two_words(after_keyword(piece, "MOVE ")?)?;
                Some(Command::Move {
                    x: java::digits(x)?,
                    y: java::digits(y)?,
                })
            }
        },
        b'T' => {
            let (x, y) = two_words(after_keyword(piece, "THROW ")?)?;
            Some(Command::Throw {
                x: java::signed_digits(x)?,
                y: java::signed_digits(y)?,
            })
        }
        // A second word would hold a space, which is not a digit.
        b'S' => Some(Command::Shoot {
            id: java::digits(after_keyword(piece, "SHOOT ")?)?,
        }),
        _ => None,
    }
}

/// The two words of `text`, split at its first space. A third word stays in the second, where
/// it makes a number fail (a space is not a digit), as it must.
fn two_words(text: &str) -> Option<(&str, &str)> {
    let space = text.bytes().position(|b| b == b' ')?;
    // An ASCII space: both cuts fall on character boundaries.
    Some((text.get(..space)?, text.get(space + 1..)?))
}

/// [`java::trim`] (Java's `trim`: every character up to the space off both ends), on bytes:
/// those characters are ASCII, so no byte of a longer character is one of them.
fn trim(s: &str) -> &str {
    let bytes = s.as_bytes();
    let start = bytes.iter().position(|&b| b > b' ').unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|&b| b > b' ')
        .map_or(start, |i| i + 1);
    s.get(start..end).unwrap_or_default()
}

/// A seat's lines for one turn, parsed as the referee parses them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// Per accepted line: the agent it is for, and the line as recognised (the actions up to
    /// an invalid piece, or up to the point where the agent's three slots were full).
    pub orders: Vec<(i32, Order)>,
    /// The first reason for disqualification, if any.
    pub error: Option<String>,
}

/// Puts a command into an agent's slots.
pub fn apply(slots: &mut Slots, command: &Command) {
    match command {
        Command::Move { x, y } => slots.to = Some(Coord::new(*x, *y)),
        Command::Shoot { id } => slots.combat = Some(Combat::Shoot(*id)),
        Command::Throw { x, y } => slots.combat = Some(Combat::Throw(Coord::new(*x, *y))),
        Command::HunkerDown | Command::Wait => slots.combat = Some(Combat::Hunker),
        Command::Message(text) => slots.message = Some(text.clone()),
    }
}

/// Rulebook, *Protocol*: the lines of a seat whose living agents are `own` (ids, in list order). A line whose
/// first of several pieces is an int names its agent; otherwise line k is for the k-th agent.
/// The agent must be one of `own`. Each piece must be a recognised action; once the agent has
/// a move, a combat action and a message (from this line or earlier ones), the rest of the line
/// is not read. Every error disqualifies; the other lines and the pieces before the error
/// still count.
pub fn parse_lines(lines: &[String], own: &[i32]) -> Parsed {
    let mut slots = vec![Slots::default(); own.len()];
    let mut orders: Vec<(i32, Order)> = Vec::new();
    let error = read_lines(lines, own, &mut slots, |read| match read {
        Read::Line { agent, written } => orders.push((
            agent,
            Order {
                agent: written,
                commands: Vec::new(),
            },
        )),
        Read::Command(command) => {
            if let Some((_, order)) = orders.last_mut() {
                order.commands.push(command);
            }
        }
    });
    Parsed { orders, error }
}

/// What [`read_lines`] reports, in line order: an accepted line (the agent it is for, and the
/// id written on it if any), then each command it recognised on that line.
enum Read {
    Line { agent: i32, written: Option<i32> },
    Command(Command),
}

/// The reading of [`parse_lines`]: each command is put into `slots` (one per agent of `own`)
/// and reported to `each`; returns the first reason for disqualification.
fn read_lines(
    lines: &[String],
    own: &[i32],
    slots: &mut [Slots],
    mut each: impl FnMut(Read),
) -> Option<String> {
    let mut error = None;
    for (k, line) in lines.iter().enumerate() {
        read_line(k, line, own, slots, &mut error, &mut each);
    }
    error
}

/// Line `k` (from 0) of [`read_lines`]; a reason for disqualification goes to `error` unless it
/// holds one already.
fn read_line(
    k: usize,
    line: &str,
    own: &[i32],
    slots: &mut [Slots],
    error: &mut Option<String>,
    mut each: impl FnMut(Read),
) {
    let mut fail = |why: String| {
        if error.is_none() {
            *error = Some(why);
        }
    };
    let mut pieces = line_pieces(line);
    let first = pieces.next();
    let named = if pieces.rest.is_some() {
        first.and_then(|id| match id.as_bytes() {
            // Most ids are one digit: read at once.
            &[digit] if digit.is_ascii_digit() => Some(i32::from(digit - b'0')),
            _ => java::parse_ascii_int(id),
        })
    } else {
        None
    };
    // The pieces that are actions: those after the agent's id, or all of them.
    let (agent, written, actions) = match named {
        Some(id) => (Some(id), Some(id), pieces),
        None => (own.get(k).copied(), None, line_pieces(line)),
    };
    let Some(agent) = agent else {
        fail(format!("line {} names no agent", k + 1));
        return;
    };
    let Some(slot) = own.iter().position(|&id| id == agent) else {
        fail(format!(
            "agent {agent} is not one of your agents on the grid"
        ));
        return;
    };
    each(Read::Line { agent, written });
    for piece in actions {
        let piece = trim(piece);
        match parse_piece(piece) {
            Some(command) => {
                apply(&mut slots[slot], &command);
                each(Read::Command(command));
                if slots[slot].full() {
                    break;
                }
            }
            None => {
                fail(format!(
                    "invalid action {} (expected MOVE x y | SHOOT id | THROW x y | \
                     HUNKER_DOWN | MESSAGE text)",
                    quote(piece)
                ));
                break;
            }
        }
    }
}

/// A seat's answer read line by line as its lines arrive, as [`parse_lines`] reads them, for
/// the referee, which needs only what the lines give each agent (its slots) and the first
/// reason for disqualification.
#[derive(Clone, Debug, Default)]
pub struct Reading {
    /// The lines read this turn.
    pub lines: usize,
    /// The ids of the seat's agents on the grid, in list order, when the turn's first line came.
    pub own: Vec<i32>,
    /// What the lines give each agent of `own`.
    pub slots: Vec<Slots>,
    /// The first reason for disqualification.
    pub error: Option<String>,
}

impl Reading {
    /// Empties the reading for the next turn, keeping its room (and a copy of the match, a
    /// frame, copies nothing of it).
    pub fn clear(&mut self) {
        self.lines = 0;
        self.own.clear();
        self.slots.clear();
        self.error = None;
    }

    /// Reads the next line of a seat whose agents on the grid are `own` (used for the turn's
    /// first line only: they stay the same all turn).
    pub fn read(&mut self, line: &str, own: impl Iterator<Item = i32>) {
        if self.lines == 0 {
            // A new turn: the room of the last one is kept.
            self.own.clear();
            self.own.extend(own);
            self.slots.clear();
            self.slots.resize(self.own.len(), Slots::default());
            self.error = None;
        }
        read_line(
            self.lines,
            line,
            &self.own,
            &mut self.slots,
            &mut self.error,
            |_| {},
        );
        self.lines += 1;
    }
}

/// The pieces of a line as Java's `line.split(";")` gives them (see `java::split`), without
/// collecting them: with a `;` in the line, trailing empty pieces are dropped (`";"` has
/// none); without one, the whole line is the one piece (even when empty).
fn line_pieces(line: &str) -> Pieces<'_> {
    let bytes = line.as_bytes();
    let kept = if bytes.contains(&b';') {
        let end = bytes.iter().rposition(|&b| b != b';').map_or(0, |i| i + 1);
        // Before an ASCII `;` (or the whole line): a character boundary.
        line.get(..end).unwrap_or(line)
    } else {
        line
    };
    let mut pieces = Pieces::new(kept, b';');
    if kept.is_empty() && !line.is_empty() {
        // Only separators: no piece at all.
        pieces.next();
    }
    pieces
}

/// `text.split(sep)` for an ASCII separator, looked for byte by byte: a line's pieces and
/// words are a few characters long, for which this costs less than the general search.
#[derive(Clone, Debug)]
struct Pieces<'a> {
    /// What is left to split; `None` once the last piece is out (so `Some` while there is a
    /// piece to come, even an empty one).
    rest: Option<&'a str>,
    sep: u8,
}

impl<'a> Pieces<'a> {
    fn new(text: &'a str, sep: u8) -> Pieces<'a> {
        Pieces {
            rest: Some(text),
            sep,
        }
    }
}

impl<'a> Iterator for Pieces<'a> {
    type Item = &'a str;

    #[inline]
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.rest?;
        match rest.bytes().position(|b| b == self.sep) {
            // An ASCII separator: both cuts fall on character boundaries.
            Some(i) => {
                self.rest = rest.get(i + 1..);
                rest.get(..i)
            }
            None => {
                self.rest = None;
                Some(rest)
            }
        }
    }
}

/// The room [`push_init`] takes.
pub fn init_len(board: &Board, initial: &[InitAgent]) -> usize {
    64 + 24 * initial.len() + 8 * board.grid.cells()
}

/// A seat's input, its initialisation block first (`first`), as bytes: the text of
/// [`push_init`] and [`push_turn`] (the tests' plain reference, compared on random play).
/// `agents` is [`agents_lines`] of the board: the same for both seats.
pub fn input_bytes(
    board: &Board,
    initial: &[InitAgent],
    seat: usize,
    first: bool,
    agents: &[u8],
) -> Vec<u8> {
    let room = agents.len() + 8 + if first { init_len(board, initial) } else { 0 };
    let mut out = Vec::with_capacity(room);
    if first {
        write_init(&mut out, board, initial, seat);
    }
    out.extend_from_slice(agents);
    let live = board.agents.iter().filter(|a| !a.dying);
    let own = live.filter(|a| a.owner == seat % PLAYERS).count();
    push_numbers(&mut out, [own as i32]);
    out
}

/// The agents on the grid as [`push_turn`] lists them, with their number first: the part of a
/// turn's input that does not depend on the seat.
pub fn agents_lines(board: &Board) -> Vec<u8> {
    let mut out = Vec::with_capacity(turn_len(board));
    let live = || board.agents.iter().filter(|a| !a.dying);
    push_numbers(&mut out, [live().count() as i32]);
    for a in live() {
        push_numbers(
            &mut out,
            [a.id, a.at.x, a.at.y, a.cooldown, a.bombs, a.wetness],
        );
    }
    out
}

/// [`push_init`] as bytes.
fn write_init(out: &mut Vec<u8>, board: &Board, initial: &[InitAgent], seat: usize) {
    let grid: &Grid = &board.grid;
    push_numbers(out, [seat as i32]);
    push_numbers(out, [initial.len() as i32]);
    for a in initial {
        let numbers = [a.shoot_cooldown, a.optimal_range, a.soaking_power, a.bombs];
        let [c, r, p, b] = numbers;
        push_numbers(out, [a.id, a.owner as i32, c, r, p, b]);
    }
    push_numbers(out, [grid.width, grid.height]);
    for y in 0..grid.height {
        for x in 0..grid.width {
            if x > 0 {
                out.push(b' ');
            }
            let tile = i32::from(grid.tile(Coord::new(x, y)));
            push_number(out, x);
            out.push(b' ');
            push_number(out, y);
            out.push(b' ');
            push_number(out, tile);
        }
        out.push(b'\n');
    }
}

/// One protocol line of numbers, each as `Display` writes it, separated by single spaces.
#[inline(always)]
fn push_numbers<const N: usize>(out: &mut Vec<u8>, values: [i32; N]) {
    for (i, v) in values.into_iter().enumerate() {
        if i > 0 {
            out.push(b' ');
        }
        push_number(out, v);
    }
    out.push(b'\n');
}

/// Appends `v` as `Display` writes it. Nearly every number of the input (ids, coordinates,
/// cooldowns, wetness) is below 100: written digit by digit, without the general loop.
#[inline(always)]
fn push_number(out: &mut Vec<u8>, v: i32) {
    let digit = |d: i32| b'0' + d as u8;
    match v {
        0..=9 => out.push(digit(v)),
        10..=99 => {
            out.push(digit(v / 10));
            out.push(digit(v % 10));
        }
        _ => {
            let mut buf = [0u8; 11];
            let n = engine::int_text::write_int(&mut buf, v);
            out.extend_from_slice(&buf[..n]);
        }
    }
}

/// Appends the initialisation block (rulebook: *Protocol*): `myId`, the agents of both seats
/// with their classes' numbers, `width height`, then one line per row of `x y tileType` triples.
#[cfg(test)]
pub fn push_init(out: &mut String, board: &Board, initial: &[InitAgent], seat: usize) {
    let grid: &Grid = &board.grid;
    push_ints_line(out, &[seat as i32]);
    push_ints_line(out, &[initial.len() as i32]);
    for a in initial {
        push_ints_line(
            out,
            &[
                a.id,
                a.owner as i32,
                a.shoot_cooldown,
                a.optimal_range,
                a.soaking_power,
                a.bombs,
            ],
        );
    }
    push_ints_line(out, &[grid.width, grid.height]);
    for y in 0..grid.height {
        for x in 0..grid.width {
            if x > 0 {
                out.push(' ');
            }
            push_int(out, x);
            out.push(' ');
            push_int(out, y);
            out.push(' ');
            push_int(out, i32::from(grid.tile(Coord::new(x, y))));
        }
        out.push('\n');
    }
}

/// An agent as the initialisation block describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InitAgent {
    pub id: i32,
    pub owner: usize,
    pub shoot_cooldown: i32,
    pub optimal_range: i32,
    pub soaking_power: i32,
    pub bombs: i32,
}

/// The room [`push_turn`] takes.
pub fn turn_len(board: &Board) -> usize {
    16 + 24 * board.agents.len()
}

/// Appends the per-turn block (rulebook: *Protocol*): the agents on the grid (soaked ones are
/// gone), seat 0's first, `agentId x y cooldown splashBombs wetness`, then the number of the
/// seat's own agents.
#[cfg(test)]
pub fn push_turn(out: &mut String, board: &Board, seat: usize) {
    let live = || board.agents.iter().filter(|a| !a.dying);
    push_ints_line(out, &[live().count() as i32]);
    for a in live() {
        push_ints_line(out, &[a.id, a.at.x, a.at.y, a.cooldown, a.bombs, a.wetness]);
    }
    let own = live().filter(|a| a.owner == seat % PLAYERS).count();
    push_ints_line(out, &[own as i32]);
}

/// Leagues 2–4, the opponent's input only (our addition: the original's opponent is part of
/// its referee and reads red's orders directly): after the turn block, the number of the seat's
/// agents on the grid, then one line per agent in list order: its id, then `;MOVE x y` if it
/// was told to move and `;SHOOT id`, `;THROW x y` or `;HUNKER_DOWN` (also for `WAIT`) for its
/// combat action, as the referee read them from the seat's lines this turn. Messages are left
/// out; an agent told nothing is its id alone.
pub fn orders_text(board: &Board, seat: usize) -> String {
    let agents: Vec<_> = board.live(seat).collect();
    let mut out = format!("{}\n", agents.len());
    for a in agents {
        out.push_str(&a.id.to_string());
        if let Some(to) = a.orders.to {
            out.push_str(&format!(";MOVE {} {}", to.x, to.y));
        }
        match a.orders.combat {
            Some(Combat::Shoot(id)) => out.push_str(&format!(";SHOOT {id}")),
            Some(Combat::Throw(c)) => out.push_str(&format!(";THROW {} {}", c.x, c.y)),
            Some(Combat::Hunker) => out.push_str(";HUNKER_DOWN"),
            None => {}
        }
        out.push('\n');
    }
    out
}
