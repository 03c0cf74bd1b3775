//! The text protocol (rulebook: *Protocol*): a seat's input, and the checking of its line
//! exactly as the referee does it, with Java's `String.split` and `Integer.valueOf` semantics.

use std::fmt;

use engine::int_text::push_ints_line;

use crate::java;
use crate::text::{joined_or_wait, quote};

use super::state::{
    builds, chebyshev, data, trains, Arena, Order, Tile, Verb, BARRACKS, CASTLE, HEAVY, LIGHT,
    NEUTRAL, RANGED, TYPES, TYPE_NAMES, WORKER,
};

/// One piece of a line, as written (syntax only; the typed layer's unit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Wait,
    Order(Order),
}

impl fmt::Display for Command {
    /// The protocol form; types are written by name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Wait => f.write_str("WAIT"),
            Command::Order(o) => {
                write!(f, "{} {} {} {} {}", o.verb.word(), o.x, o.y, o.tx, o.ty)?;
                if matches!(o.verb, Verb::Build | Verb::Train) {
                    let name = TYPE_NAMES.get(usize::from(o.kind)).unwrap_or(&"CASTLE");
                    write!(f, " {name}")?;
                }
                Ok(())
            }
        }
    }
}

/// The commands as one protocol line (`WAIT` for none).
pub fn write_line(commands: &[Command]) -> String {
    joined_or_wait(commands)
}

/// The referee's `matchEntityTypeValue`: exactly a type number `0`..`5` or a type name
/// (case-sensitive).
pub fn type_value(word: &str) -> Option<u8> {
    (0..TYPES.len())
        .find(|&i| word == i.to_string() || word == TYPE_NAMES[i])
        .map(|i| i as u8)
}

/// Which orders an entity type can give (rulebook: *Facts*).
fn knows(kind: u8, verb: &str) -> bool {
    match kind {
        CASTLE | BARRACKS => verb == "TRAIN",
        WORKER => matches!(verb, "BUILD" | "MOVE" | "ATTACK" | "HARVEST"),
        LIGHT | HEAVY | RANGED => matches!(verb, "MOVE" | "ATTACK"),
        _ => false,
    }
}

/// What the referee makes of a seat's line (rulebook: *Protocol*).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Checked {
    /// The accepted orders in line order, each with the lock its source tile gets.
    pub accepted: Vec<(Order, i32)>,
    /// The first reason the seat is eliminated, if any.
    pub elimination: Option<String>,
}

/// Why a piece eliminates; `stop` is Java's `NumberFormatException`, which also ends the
/// parsing of the line.
struct Bad {
    why: String,
    stop: bool,
}

fn bad(why: impl Into<String>) -> Bad {
    Bad {
        why: why.into(),
        stop: false,
    }
}

fn number(word: &str, piece: &str) -> Result<i32, Bad> {
    java::value_of_int(word).ok_or_else(|| Bad {
        why: format!("not a number: {} in {}", quote(word), quote(piece)),
        stop: true,
    })
}

/// Checks a whole line against the arena as the referee's `checkOrder` does, piece by piece.
pub fn check_line(arena: &Arena, seat: usize, line: &str) -> Checked {
    let mut out = Checked::default();
    for piece in java::split(line, ';') {
        match check_piece(arena, seat, piece) {
            Ok(None) => {}
            Ok(Some(accepted)) => out.accepted.push(accepted),
            Err(b) => {
                if out.elimination.is_none() {
                    out.elimination = Some(b.why);
                }
                if b.stop {
                    break;
                }
            }
        }
    }
    out
}

/// One piece (rulebook: *Protocol*, strict parsing), in the referee's order of checks.
fn check_piece(arena: &Arena, seat: usize, piece: &str) -> Result<Option<(Order, i32)>, Bad> {
    let words = java::split(piece, ' ');
    let n = words.len();
    if n == 1 {
        return if words[0] == "WAIT" {
            Ok(None)
        } else {
            Err(bad(format!("wrong syntax: {}", quote(piece))))
        };
    }
    if n == 0 || n == 2 || n == 4 || n > 6 {
        return Err(bad(format!(
            "wrong number of words ({n}): {}",
            quote(piece)
        )));
    }
    let x = number(words[1], piece)?;
    let y = number(words[2], piece)?;
    let verb = words[0];
    let source = check_source(arena, seat, (x, y), verb, || quote(piece)).map_err(bad)?;
    if n == 3 {
        return Err(bad(format!("wrong syntax: {}", quote(piece))));
    }
    let tx = number(words[3], piece)?;
    let ty = number(words[4], piece)?;
    let (verb, type_word) = match (n, verb) {
        (5, "MOVE") => (Verb::Move, ""),
        (5, "ATTACK") => (Verb::Attack, ""),
        (5, "HARVEST") => (Verb::Harvest, ""),
        (6, "BUILD") => (Verb::Build, words[5]),
        (6, "TRAIN") => (Verb::Train, words[5]),
        _ => return Err(bad(format!("wrong syntax: {}", quote(piece)))),
    };
    let order = Order {
        verb,
        x,
        y,
        tx,
        ty,
        kind: 0,
    };
    check_target(arena, seat, source, order, type_word, || quote(piece))
        .map(Some)
        .map_err(bad)
}

/// The first checks of an order against the arena: its source tile `(x, y)` holds an entity of
/// the seat's, which knows `verb` (as written). That tile; `piece` quotes the piece for a
/// message.
fn check_source(
    arena: &Arena,
    seat: usize,
    (x, y): (i32, i32),
    verb: &str,
    piece: impl Fn() -> String,
) -> Result<Tile, String> {
    let source = arena.tile(x, y);
    if !arena.inside(x, y) || source.owner != seat as u8 + 1 {
        return Err(format!("({x},{y}) is not your entity: {}", piece()));
    }
    if !knows(source.kind, verb) {
        return Err(format!(
            "a {} cannot {}: {}",
            super::state::kind_word(source.owner, source.kind),
            quote(verb),
            piece()
        ));
    }
    Ok(source)
}

/// The checks of an order against the arena once its source is known to be the seat's and to
/// know its verb, in the referee's order: the reach (a move's step), then what is at the target,
/// or for a build or a training the type, `type_word` as written. The accepted order with the
/// lock its source tile gets; `piece` quotes the piece for a message.
fn check_target(
    arena: &Arena,
    seat: usize,
    source: Tile,
    order: Order,
    type_word: &str,
    piece: impl Fn() -> String,
) -> Result<(Order, i32), String> {
    let (tx, ty) = (order.tx, order.ty);
    let stats = data(source.kind);
    let distance = chebyshev(order.x, order.y, tx, ty);
    let of_kind = |kind| Order { kind, ..order };
    let out_of_reach = || format!("target out of reach: {}", piece());
    let allowed: &[u8] = match order.verb {
        Verb::Move => {
            return if arena.inside(tx, ty) && distance <= i64::from(stats.step) {
                Ok((of_kind(0), 0))
            } else {
                Err(out_of_reach())
            };
        }
        Verb::Attack => {
            let enemy = 2 - seat as u8;
            return if distance > i64::from(stats.reach) {
                Err(out_of_reach())
            } else if !arena.inside(tx, ty) || arena.tile(tx, ty).owner != enemy {
                Err(format!("no enemy entity at the target: {}", piece()))
            } else {
                Ok((of_kind(0), -1))
            };
        }
        Verb::Harvest => {
            let target = arena.tile(tx, ty);
            return if distance > i64::from(stats.reach) {
                Err(out_of_reach())
            } else if !arena.inside(tx, ty) || target.owner != NEUTRAL || !target.is_resource() {
                Err(format!("no resource at the target: {}", piece()))
            } else {
                Ok((of_kind(0), -1))
            };
        }
        Verb::Build => builds(source.kind),
        Verb::Train => trains(source.kind),
    };
    if !(arena.inside(tx, ty) && distance <= i64::from(stats.reach)) {
        return Err(out_of_reach());
    }
    match type_value(type_word) {
        Some(kind) if allowed.contains(&kind) => Ok((of_kind(kind), -1)),
        _ => Err(format!(
            "a {} cannot {} {}: {}",
            super::state::kind_word(source.owner, source.kind),
            order.verb.word(),
            quote(type_word),
            piece()
        )),
    }
}

/// [`check_line`] for pieces already parsed (the typed layer's [`Rules::apply`]): the same
/// checks in the same order, on the line [`write_line`] would write. Parsed pieces have no
/// syntax left to get wrong, so only the checks against the arena remain.
///
/// [`Rules::apply`]: engine::Rules::apply
pub fn check_commands(arena: &Arena, seat: usize, commands: &[Command]) -> Checked {
    let mut out = Checked::default();
    for command in commands {
        match check_command(arena, seat, command) {
            Ok(None) => {}
            Ok(Some(accepted)) => out.accepted.push(accepted),
            Err(why) => {
                if out.elimination.is_none() {
                    out.elimination = Some(why);
                }
            }
        }
    }
    out
}

/// [`check_piece`] for a parsed piece; messages quote the piece as [`Command`] writes it.
fn check_command(
    arena: &Arena,
    seat: usize,
    command: &Command,
) -> Result<Option<(Order, i32)>, String> {
    let Command::Order(o) = *command else {
        return Ok(None);
    };
    let piece = || quote(&command.to_string());
    let source = check_source(arena, seat, (o.x, o.y), o.verb.word(), piece)?;
    // A type number out of range is written as CASTLE (see `Display`).
    let type_word = TYPE_NAMES.get(usize::from(o.kind)).unwrap_or(&"CASTLE");
    check_target(arena, seat, source, o, type_word, piece).map(Some)
}

/// The syntax of a line without the arena (the typed layer's parse): the pieces a bot wrote.
pub fn parse_syntax(line: &str) -> Result<Vec<Command>, String> {
    let mut out = Vec::new();
    for piece in java::split(line, ';') {
        let words = java::split(piece, ' ');
        let ints = |from: usize| -> Result<[i32; 4], String> {
            let mut v = [0; 4];
            for (k, slot) in v.iter_mut().enumerate() {
                *slot = java::value_of_int(words[from + k])
                    .ok_or_else(|| format!("not a number in {}", quote(piece)))?;
            }
            Ok(v)
        };
        let command = match (words.as_slice(), words.len()) {
            (["WAIT"], _) => Command::Wait,
            ([verb, ..], 5) => {
                let verb = match *verb {
                    "MOVE" => Verb::Move,
                    "ATTACK" => Verb::Attack,
                    "HARVEST" => Verb::Harvest,
                    _ => return Err(format!("unknown order {}", quote(piece))),
                };
                let [x, y, tx, ty] = ints(1)?;
                Command::Order(Order {
                    verb,
                    x,
                    y,
                    tx,
                    ty,
                    kind: 0,
                })
            }
            ([verb, .., kind], 6) => {
                let verb = match *verb {
                    "BUILD" => Verb::Build,
                    "TRAIN" => Verb::Train,
                    _ => return Err(format!("unknown order {}", quote(piece))),
                };
                let [x, y, tx, ty] = ints(1)?;
                let kind =
                    type_value(kind).ok_or_else(|| format!("unknown type in {}", quote(piece)))?;
                Command::Order(Order {
                    verb,
                    x,
                    y,
                    tx,
                    ty,
                    kind,
                })
            }
            _ => return Err(format!("malformed order {}", quote(piece))),
        };
        out.push(command);
    }
    Ok(out)
}

/// The initialisation block (rulebook: *Protocol*): the size, then one line per player entity type.
pub fn init_text(arena: &Arena) -> String {
    let mut out = String::with_capacity(128);
    push_ints_line(&mut out, &[i64::from(arena.width), i64::from(arena.height)]);
    for (kind, t) in TYPES.iter().enumerate() {
        push_ints_line(
            &mut out,
            &[
                kind as i64,
                t.max_hp.into(),
                t.reach.into(),
                t.attack.into(),
                t.step.into(),
                t.gold.into(),
                t.wood.into(),
            ],
        );
    }
    out
}

/// A seat's turn block (rulebook: *Protocol*): the count and both players' resources, then every non-empty
/// tile, x outer and y inner, with the owner seen from the seat (−1 neutral, 0 you, 1 enemy).
///
/// This is most of the referee's work in a match (hundreds of tiles, walls included, for each
/// seat every turn), so the tiles' lines are written straight into a byte buffer kept long
/// enough for the next line, their numbers digit by digit (they are all small, see
/// [`put_small`]).
pub fn turn_text(arena: &Arena, seat: usize) -> String {
    let seat = seat.min(1);
    let other = 1 - seat;
    let mut head = String::with_capacity(32);
    push_ints_line(
        &mut head,
        &[
            arena.entities.len() as i64,
            arena.gold[seat].into(),
            arena.wood[seat].into(),
            arena.gold[other].into(),
            arena.wood[other].into(),
        ],
    );
    let mut end = head.len();
    let mut out = head.into_bytes();
    // The owner as this seat reads it, by the tile's owner number (neutral, seat 0, seat 1).
    let owners: [i32; 3] = [-1, i32::from(seat != 0), i32::from(seat != 1)];
    let height = arena.height.max(1) as usize;
    for (x, column) in arena.tiles().chunks(height).enumerate() {
        for (y, t) in column.iter().enumerate() {
            if t.is_empty() {
                continue;
            }
            if out.len() < end + LINE {
                out.resize(2 * out.len() + 16 * LINE, 0);
            }
            let owner = owners.get(usize::from(t.owner)).copied().unwrap_or(-1);
            end = put_small(&mut out, end, x as i32);
            out[end] = b' ';
            end = put_small(&mut out, end + 1, y as i32);
            out[end] = b' ';
            end = put_small(&mut out, end + 1, owner);
            out[end] = b' ';
            end = put_small(&mut out, end + 1, i32::from(t.kind));
            out[end] = b' ';
            end = put_small(&mut out, end + 1, t.health);
            out[end] = b'\n';
            end += 1;
        }
    }
    out.truncate(end);
    // Only ASCII digits, signs, spaces and newlines were written: always valid.
    String::from_utf8(out).unwrap_or_default()
}

/// The most a tile's line takes: five numbers of at most 11 characters (`-2147483648`), four
/// spaces and the newline.
const LINE: usize = 5 * 11 + 5;

/// Writes `v` into `out` from `at`, exactly as `Display` writes it, and returns where it
/// ends: −1 and 0 to 99 (every coordinate, owner and type, and the healths) directly,
/// anything else through the general writer. `out` has room for 11 characters from `at`.
#[inline(always)]
fn put_small(out: &mut [u8], at: usize, v: i32) -> usize {
    match v {
        0..=9 => {
            out[at] = b'0' + v as u8;
            at + 1
        }
        10..=99 => {
            out[at] = b'0' + (v / 10) as u8;
            out[at + 1] = b'0' + (v % 10) as u8;
            at + 2
        }
        -1 => {
            out[at] = b'-';
            out[at + 1] = b'1';
            at + 2
        }
        _ => put_any(out, at, v),
    }
}

/// [`put_small`] for any other number (never on real maps).
#[cold]
fn put_any(out: &mut [u8], at: usize, v: i32) -> usize {
    let mut text = String::new();
    engine::int_text::push_int(&mut text, v);
    let end = at + text.len();
    if let Some(room) = out.get_mut(at..end) {
        room.copy_from_slice(text.as_bytes());
    }
    end
}
