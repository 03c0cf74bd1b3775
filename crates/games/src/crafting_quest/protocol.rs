//! The line protocol (rulebook: *Protocol*): one JSON object per line. Requests are parsed here into
//! [`Request`] and written back (the inverse); the player state, the unit and its sight are
//! written as JSON by hand, field by field, in a fixed order.

use std::fmt::Write as _;

use serde_json::Value;

use super::scenario::*;
use super::state::{Answer, Structure, Unit, World};

/// One request line, as the original's operators (rulebook: *Protocol*).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// `Move(unit, Point2i)`.
    Move { unit: i64, x: i64, y: i64 },
    /// `Attack(unit, player, unit, energy)`.
    Attack {
        unit: i64,
        player: i64,
        target: i64,
        energy: i64,
    },
    /// `Prepare(unit, retaliateEnergy, threshold)`: the retaliation settings.
    Prepare {
        unit: i64,
        energy: i64,
        threshold: i64,
    },
    /// `Dig(unit)`.
    Dig { unit: i64 },
    /// `PickupResources` and `PickupObjects` in one: per resource type the quantity asked;
    /// objects as (kind, level, count).
    Pickup {
        unit: i64,
        resources: [Option<i64>; 7],
        objects: Vec<(Kind, i64, i64)>,
    },
    /// `DropResources` and `DropObjects` in one.
    Drop {
        unit: i64,
        resources: [Option<i64>; 7],
        objects: Vec<(Kind, i64, i64)>,
    },
    /// `CraftObject(unit, Blueprint)`.
    Craft { unit: i64, kind: Kind, level: i64 },
    /// `Equip(unit, object)`.
    Equip { unit: i64, kind: Kind, level: i64 },
    /// `PlaceTower(unit, Blueprint)`.
    PlaceTower { unit: i64, level: i64 },
    /// `PlaceTrap(unit, Blueprint)`.
    PlaceTrap { unit: i64, level: i64 },
    /// `Upgrade(unit, Blueprint)`: names the blueprint the team knows (level L); learns L + 1.
    Research { unit: i64, kind: Kind, level: i64 },
    /// `Nothing`: the unit and its sight, free.
    View { unit: i64 },
    /// `RequestState`: the whole player state, free.
    State,
    /// The end of the turn (no answer).
    End,
}

/// Per resource type the quantity asked, and objects as (kind, level, count).
pub type Amounts = ([Option<i64>; 7], Vec<(Kind, i64, i64)>);

/// Why a line is not a request: the result code to answer with and a text.
pub type Refusal = (Code, String);

fn refuse(code: Code, text: impl Into<String>) -> Refusal {
    (code, text.into())
}

fn int(v: &Value, field: &str) -> Result<i64, Refusal> {
    v.get(field).and_then(Value::as_i64).ok_or_else(|| {
        refuse(
            Code::OperandError,
            format!("\"{field}\" must be an integer"),
        )
    })
}

fn kind_of(v: &Value, field: &str, code: Code) -> Result<(Kind, i64), Refusal> {
    let o = v.get(field).filter(|o| o.is_object()).ok_or_else(|| {
        refuse(
            Code::OperandError,
            format!("\"{field}\" must be an object {{\"kind\":…,\"level\":…}}"),
        )
    })?;
    let name = o.get("kind").and_then(Value::as_str).unwrap_or("");
    let kind = Kind::parse(name).ok_or_else(|| refuse(code, format!("unknown kind {name:?}")))?;
    Ok((kind, int(o, "level")?))
}

/// A pickup (or else a drop) of these amounts by `unit`.
fn moving(pickup: bool, unit: i64, (resources, objects): Amounts) -> Request {
    if pickup {
        Request::Pickup {
            unit,
            resources,
            objects,
        }
    } else {
        Request::Drop {
            unit,
            resources,
            objects,
        }
    }
}

fn amounts(v: &Value) -> Result<Amounts, Refusal> {
    let mut resources = [None; 7];
    match v.get("resources") {
        None | Some(Value::Null) => {}
        Some(Value::Object(map)) => {
            for (name, q) in map {
                let r = resource(name).ok_or_else(|| {
                    refuse(Code::OperandError, format!("unknown resource {name:?}"))
                })?;
                resources[r] = Some(q.as_i64().ok_or_else(|| {
                    refuse(
                        Code::OperandError,
                        format!("the quantity of {name} must be an integer"),
                    )
                })?);
            }
        }
        Some(_) => {
            return Err(refuse(
                Code::OperandError,
                "\"resources\" must be an object such as {\"iron\":10}",
            ))
        }
    }
    let mut objects = Vec::new();
    match v.get("objects") {
        None | Some(Value::Null) => {}
        Some(Value::Array(list)) => {
            for o in list {
                let name = o.get("kind").and_then(Value::as_str).unwrap_or("");
                let kind = Kind::parse(name).ok_or_else(|| {
                    refuse(Code::OperandError, format!("unknown object kind {name:?}"))
                })?;
                let count = match o.get("count") {
                    None => 1,
                    Some(_) => int(o, "count")?,
                };
                objects.push((kind, int(o, "level")?, count));
            }
        }
        Some(_) => {
            return Err(refuse(
                Code::OperandError,
                "\"objects\" must be a list such as [{\"kind\":\"sword\",\"level\":1,\"count\":1}]",
            ))
        }
    }
    Ok((resources, objects))
}

/// A cursor over a request line for [`plain_request`].
struct Plain<'a> {
    s: &'a [u8],
    i: usize,
}

impl Plain<'_> {
    /// Takes `text` if the line goes on with exactly these bytes.
    fn lit<const N: usize>(&mut self, text: &[u8; N]) -> Option<()> {
        (self.s.get(self.i..self.i + N)? == text).then(|| self.i += N)
    }

    /// A plain non-negative integer of at most nine digits, without leading zeros (what any
    /// JSON reader reads the same way).
    fn int(&mut self) -> Option<i64> {
        let digits = self.s[self.i..]
            .iter()
            .take_while(|b| b.is_ascii_digit())
            .count();
        let text = &self.s[self.i..self.i + digits];
        if digits == 0 || digits > 9 || (digits > 1 && text[0] == b'0') {
            return None;
        }
        self.i += digits;
        Some(text.iter().fold(0, |n, &d| n * 10 + i64::from(d - b'0')))
    }

    /// The bytes up to the next `"` (not taken).
    fn until_quote(&mut self) -> Option<&[u8]> {
        let rest = &self.s[self.i..];
        let len = rest.iter().position(|&b| b == b'"')?;
        self.i += len;
        Some(&rest[..len])
    }
}

/// The requests bots send most (`end`, `move`, `dig`, and `pickup` or `drop` of resources)
/// when written exactly as [`write_request`] writes them, with plain numbers: read straight from
/// their bytes, as serde_json would read them. `None` for any other line (serde_json reads it).
fn plain_request(line: &str) -> Option<Request> {
    if line == "{\"type\":\"end\"}" {
        return Some(Request::End);
    }
    let mut r = Plain {
        s: line.as_bytes(),
        i: 0,
    };
    r.lit(b"{\"unit\":")?;
    let unit = r.int()?;
    r.lit(b",\"type\":\"")?;
    let request = if r.lit(b"move\",\"to\":[").is_some() {
        let x = r.int()?;
        r.lit(b",")?;
        let y = r.int()?;
        r.lit(b"]")?;
        Request::Move { unit, x, y }
    } else if r.lit(b"dig\"").is_some() {
        Request::Dig { unit }
    } else {
        let pickup = r.lit(b"pickup\"").is_some();
        if !pickup {
            r.lit(b"drop\"")?;
        }
        r.lit(b",\"resources\":{")?;
        let mut resources = [None; 7];
        if r.lit(b"}").is_none() {
            loop {
                r.lit(b"\"")?;
                let name = std::str::from_utf8(r.until_quote()?).ok()?;
                let k = resource(name)?;
                // A repeated name is left to serde_json.
                if resources[k].is_some() {
                    return None;
                }
                r.lit(b"\":")?;
                resources[k] = Some(r.int()?);
                if r.lit(b"}").is_some() {
                    break;
                }
                r.lit(b",")?;
            }
        }
        moving(pickup, unit, (resources, Vec::new()))
    };
    r.lit(b"}")?;
    (r.i == r.s.len()).then_some(request)
}

/// Parses one request line.
pub fn parse_request(line: &str) -> Result<Request, Refusal> {
    let line = line.trim();
    match plain_request(line) {
        Some(request) => Ok(request),
        None => parse_json(line),
    }
}

/// Parses one request line with serde_json.
fn parse_json(line: &str) -> Result<Request, Refusal> {
    let v: Value = serde_json::from_str(line)
        .map_err(|e| refuse(Code::UnknownActionError, format!("not a JSON object: {e}")))?;
    if !v.is_object() {
        return Err(refuse(Code::UnknownActionError, "not a JSON object"));
    }
    let Some(kind) = v.get("type").and_then(Value::as_str) else {
        return Err(refuse(Code::UnknownActionError, "a request needs \"type\""));
    };
    match kind {
        "end" => return Ok(Request::End),
        "state" => return Ok(Request::State),
        _ => {}
    }
    const TYPES: [&str; 12] = [
        "move",
        "attack",
        "prepare",
        "dig",
        "pickup",
        "drop",
        "craft",
        "equip",
        "placeTower",
        "placeTrap",
        "research",
        "view",
    ];
    if !TYPES.contains(&kind) {
        return Err(refuse(
            Code::UnknownActionError,
            format!("unknown type {kind:?}"),
        ));
    }
    let unit = v
        .get("unit")
        .and_then(Value::as_i64)
        .ok_or_else(|| refuse(Code::UnitIdError, "\"unit\" must be a unit id"))?;
    Ok(match kind {
        "move" => {
            let to = v.get("to").and_then(Value::as_array);
            let xy: Vec<i64> = to.into_iter().flatten().filter_map(Value::as_i64).collect();
            match (to.map(Vec::len), xy.as_slice()) {
                (Some(2), &[x, y]) => Request::Move { unit, x, y },
                _ => {
                    return Err(refuse(
                        Code::OperandError,
                        "\"to\" must be [x, y] with integers",
                    ))
                }
            }
        }
        "attack" => {
            let target = v.get("target").filter(|t| t.is_object()).ok_or_else(|| {
                refuse(
                    Code::OperandError,
                    "\"target\" must be {\"player\":…,\"unit\":…}",
                )
            })?;
            Request::Attack {
                unit,
                player: int(target, "player")?,
                target: int(target, "unit")?,
                energy: int(&v, "energy")?,
            }
        }
        "prepare" => Request::Prepare {
            unit,
            energy: int(&v, "energy")?,
            threshold: match v.get("threshold") {
                None => 0,
                Some(_) => int(&v, "threshold")?,
            },
        },
        "dig" => Request::Dig { unit },
        "pickup" | "drop" => moving(kind == "pickup", unit, amounts(&v)?),
        "craft" => {
            let (kind, level) = kind_of(&v, "blueprint", Code::BlueprintError)?;
            Request::Craft { unit, kind, level }
        }
        "equip" => {
            let (kind, level) = kind_of(&v, "item", Code::OperandError)?;
            Request::Equip { unit, kind, level }
        }
        "placeTower" => Request::PlaceTower {
            unit,
            level: int(&v, "level")?,
        },
        "placeTrap" => Request::PlaceTrap {
            unit,
            level: int(&v, "level")?,
        },
        "research" => {
            let (kind, level) = kind_of(&v, "blueprint", Code::BlueprintError)?;
            Request::Research { unit, kind, level }
        }
        _ => Request::View { unit },
    })
}

fn write_amounts(out: &mut String, resources: &[Option<i64>; 7], objects: &[(Kind, i64, i64)]) {
    if resources.iter().any(Option::is_some) {
        out.push_str(",\"resources\":{");
        let mut first = true;
        for (r, q) in resources.iter().enumerate() {
            if let Some(q) = q {
                if !first {
                    out.push(',');
                }
                first = false;
                let _ = write!(out, "\"{}\":{q}", RESOURCES[r]);
            }
        }
        out.push('}');
    }
    if !objects.is_empty() {
        out.push_str(",\"objects\":[");
        for (i, (kind, level, count)) in objects.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{{\"kind\":\"{}\",\"level\":{level},\"count\":{count}}}",
                kind.name()
            );
        }
        out.push(']');
    }
}

/// Writes a request as its line (the inverse of [`parse_request`]).
pub fn write_request(request: &Request) -> String {
    let mut out = String::with_capacity(64);
    let head = |out: &mut String, unit: i64, kind: &str| {
        let _ = write!(out, "{{\"unit\":{unit},\"type\":\"{kind}\"");
    };
    match request {
        Request::Move { unit, x, y } => {
            head(&mut out, *unit, "move");
            let _ = write!(out, ",\"to\":[{x},{y}]");
        }
        Request::Attack {
            unit,
            player,
            target,
            energy,
        } => {
            head(&mut out, *unit, "attack");
            let _ = write!(
                out,
                ",\"target\":{{\"player\":{player},\"unit\":{target}}},\"energy\":{energy}"
            );
        }
        Request::Prepare {
            unit,
            energy,
            threshold,
        } => {
            head(&mut out, *unit, "prepare");
            let _ = write!(out, ",\"energy\":{energy},\"threshold\":{threshold}");
        }
        Request::Dig { unit } => head(&mut out, *unit, "dig"),
        Request::Pickup {
            unit,
            resources,
            objects,
        } => {
            head(&mut out, *unit, "pickup");
            write_amounts(&mut out, resources, objects);
        }
        Request::Drop {
            unit,
            resources,
            objects,
        } => {
            head(&mut out, *unit, "drop");
            write_amounts(&mut out, resources, objects);
        }
        Request::Craft { unit, kind, level } => {
            head(&mut out, *unit, "craft");
            let _ = write!(
                out,
                ",\"blueprint\":{{\"kind\":\"{}\",\"level\":{level}}}",
                kind.name()
            );
        }
        Request::Equip { unit, kind, level } => {
            head(&mut out, *unit, "equip");
            let _ = write!(
                out,
                ",\"item\":{{\"kind\":\"{}\",\"level\":{level}}}",
                kind.name()
            );
        }
        Request::PlaceTower { unit, level } => {
            head(&mut out, *unit, "placeTower");
            let _ = write!(out, ",\"level\":{level}");
        }
        Request::PlaceTrap { unit, level } => {
            head(&mut out, *unit, "placeTrap");
            let _ = write!(out, ",\"level\":{level}");
        }
        Request::Research { unit, kind, level } => {
            head(&mut out, *unit, "research");
            let _ = write!(
                out,
                ",\"blueprint\":{{\"kind\":\"{}\",\"level\":{level}}}",
                kind.name()
            );
        }
        Request::View { unit } => head(&mut out, *unit, "view"),
        Request::State => out.push_str("{\"type\":\"state\""),
        Request::End => out.push_str("{\"type\":\"end\""),
    }
    out.push('}');
    out
}

/// A JSON string literal.
pub fn json_string(out: &mut String, text: &str) {
    out.push('"');
    for ch in text.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20
                || c == '\u{7f}'
                || c == '\u{85}'
                || c == '\u{2028}'
                || c == '\u{2029}' =>
            {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

// The writers below answer every request a bot makes (a unit and its sight, about 2 KB), so
// they put the text together as bytes in one buffer: literal pieces of constant length (copied
// without a call), numbers digit by digit, no `format!`, no intermediate values; the buffer
// becomes the `String` once, at the end. `tests::the_writers_write_what_serde_json_writes`
// checks them against serde_json, which writes the same messages built the plain way (typed
// values read off the world), on every answer and player state of several random matches.

/// The text being written (UTF-8 throughout: every piece is ASCII but the reason of an answer,
/// copied whole from a `str`). Pieces go first to a small array at a known place (a literal
/// of constant length is then copied by a few moves, with no call), which is moved to the
/// text when full and at the end.
struct Text {
    out: Vec<u8>,
    staged: [u8; STAGE],
    /// How many bytes of `staged` are in use.
    n: usize,
}

const STAGE: usize = 256;

impl Text {
    fn with_capacity(n: usize) -> Text {
        Text {
            out: Vec::with_capacity(n),
            staged: [0; STAGE],
            n: 0,
        }
    }

    /// Moves the staged bytes to the text.
    fn flush(&mut self) {
        self.out.extend_from_slice(&self.staged[..self.n]);
        self.n = 0;
    }

    /// Appends literal bytes.
    #[inline]
    fn lit<const N: usize>(&mut self, text: &[u8; N]) {
        if self.n + N > STAGE {
            self.flush();
        }
        if let Some(to) = self.staged.get_mut(self.n..self.n + N) {
            to.copy_from_slice(text);
            self.n += N;
        } else {
            // Longer than the stage itself.
            self.out.extend_from_slice(text);
        }
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        if self.n == STAGE {
            self.flush();
        }
        self.staged[self.n] = b;
        self.n += 1;
    }

    fn str(&mut self, text: &str) {
        self.bytes(text.as_bytes());
    }

    fn bytes(&mut self, bytes: &[u8]) {
        if self.n + bytes.len() > STAGE {
            self.flush();
            self.out.extend_from_slice(bytes);
        } else {
            self.staged[self.n..self.n + bytes.len()].copy_from_slice(bytes);
            self.n += bytes.len();
        }
    }

    /// Appends a number as `Display` writes it (most are coordinates, energies and ids: below
    /// 1000, written without the general loop).
    #[inline]
    fn num(&mut self, v: impl Into<i64>) {
        let v: i64 = v.into();
        if !(0..1000).contains(&v) {
            return self.any_num(v);
        }
        if self.n + 3 > STAGE {
            self.flush();
        }
        let v = v as u32;
        let digit = |d: u32| b'0' + d as u8;
        let n = self.n;
        let to = &mut self.staged[n..n + 3];
        self.n += if v >= 100 {
            to[0] = digit(v / 100);
            to[1] = digit(v / 10 % 10);
            to[2] = digit(v % 10);
            3
        } else if v >= 10 {
            to[0] = digit(v / 10);
            to[1] = digit(v % 10);
            2
        } else {
            to[0] = digit(v);
            1
        };
    }

    /// [`Text::num`] for the rarer numbers: negative, or of four digits or more.
    #[cold]
    fn any_num(&mut self, v: i64) {
        let mut text = String::new();
        engine::int_text::push_int(&mut text, v);
        self.str(&text);
    }

    /// The text as a `String`. (It is UTF-8 by construction: the lossy conversion never
    /// changes anything, it only spares a panic.)
    fn into_string(mut self) -> String {
        self.flush();
        String::from_utf8(self.out)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// The letter of a cell in a sight's rows (and in the viewer's ground): `#` rock, `.` nothing
/// buried, the letter of its one buried type, or `*` for several.
#[inline]
pub(super) fn letter(rock: bool, buried: &[u16; 7]) -> u8 {
    if rock {
        return b'#';
    }
    // Most cells hold nothing: one comparison of the whole array for them (a few wide loads).
    if *buried == [0; 7] {
        return b'.';
    }
    let mut types = buried.iter().enumerate().filter(|(_, &q)| q > 0);
    match (types.next(), types.next()) {
        (Some((r, _)), None) => LETTERS[r],
        _ => b'*',
    }
}

fn write_res(out: &mut Text, res: &[u32; 7]) {
    out.byte(b'{');
    let mut first = true;
    for (r, &n) in res.iter().enumerate() {
        if n > 0 {
            if !first {
                out.byte(b',');
            }
            first = false;
            // `"wood":` and so on, each a literal.
            match r {
                0 => out.lit(b"\"wood\":"),
                1 => out.lit(b"\"stone\":"),
                2 => out.lit(b"\"leather\":"),
                3 => out.lit(b"\"bronze\":"),
                4 => out.lit(b"\"iron\":"),
                5 => out.lit(b"\"titanium\":"),
                _ => out.lit(b"\"gold\":"),
            }
            out.num(n);
        }
    }
    out.byte(b'}');
}

fn write_items(out: &mut Text, items: &[[u32; 3]; 2]) {
    if items.iter().flatten().all(|&n| n == 0) {
        out.lit(b"[]");
        return;
    }
    out.byte(b'[');
    let mut first = true;
    for (k, levels) in items.iter().enumerate() {
        for (l, &n) in levels.iter().enumerate() {
            if n > 0 {
                if !first {
                    out.byte(b',');
                }
                first = false;
                out.lit(b"{\"kind\":\"");
                out.str(Kind::ALL[k].name());
                out.lit(b"\",\"level\":");
                out.num(l as i64 + 1);
                out.lit(b",\"count\":");
                out.num(n);
                out.byte(b'}');
            }
        }
    }
    out.byte(b']');
}

/// The widest sight: a level-3 tower's (the size of the row buffer of [`write_sight`]).
const MAX_RADIUS: i32 = 7;

/// `{"x":…,"y":…` of a cell.
fn open_cell(out: &mut Text, c: usize, size: usize) {
    out.lit(b"{\"x\":");
    out.num((c % size) as i64);
    out.lit(b",\"y\":");
    out.num((c / size) as i64);
}

/// The cells around `(x, y)` within `radius`, as seen by `viewer`: terrain and buried types
/// (rows of letters), piles, towers, the viewer's own traps, and units.
fn write_sight(out: &mut Text, world: &World, viewer: usize, x: i32, y: i32, radius: i32) {
    let n = world.size() as i32;
    let window = Window {
        x0: (x - radius).max(0),
        x1: (x + radius).min(n - 1),
        y0: (y - radius).max(0),
        y1: (y + radius).min(n - 1),
    };
    out.lit(b"{\"x\":");
    out.num(window.x0);
    out.lit(b",\"y\":");
    out.num(window.y0);
    out.lit(b",\"rows\":[");
    let mixed = write_letter_rows(out, world, window);
    out.lit(b"],\"mixed\":[");
    if mixed {
        write_mixed_cells(out, world, window);
    }
    out.lit(b"],\"piles\":[");
    write_piles(out, world, window);
    out.lit(b"],\"towers\":[");
    write_towers(out, world, window);
    out.lit(b"],\"traps\":[");
    write_traps(out, world, viewer, window);
    out.lit(b"],\"units\":[");
    write_units(out, world, window);
    out.lit(b"]}");
}

/// The cells a sight covers: columns `x0..=x1` of rows `y0..=y1`, inside the map.
#[derive(Clone, Copy)]
struct Window {
    x0: i32,
    x1: i32,
    y0: i32,
    y1: i32,
}

impl Window {
    fn holds(self, x: i32, y: i32) -> bool {
        x >= self.x0 && x <= self.x1 && y >= self.y0 && y <= self.y1
    }

    /// Whether the map's cell `c` (row by row, `size` a row) is in the window.
    fn holds_cell(self, c: usize, size: usize) -> bool {
        self.holds((c % size) as i32, (c / size) as i32)
    }

    /// The map's cells from the window's first to its last, row by row: a range to search
    /// the map's ordered piles and structures once, not once a row.
    fn span(self, world: &World) -> std::ops::RangeInclusive<usize> {
        world.idx(self.x0, self.y0)..=world.idx(self.x1, self.y1)
    }
}

/// A `,` before every item of a list but the first.
fn comma(out: &mut Text, first: &mut bool) {
    if !*first {
        out.byte(b',');
    }
    *first = false;
}

/// The window's rows of letters (terrain and buried types), each a string. Returns whether a
/// cell holds several types (`*`).
fn write_letter_rows(out: &mut Text, world: &World, window: Window) -> bool {
    let Window { x0, x1, y0, y1 } = window;
    let mut mixed = false;
    // A row is put together here and appended at once.
    let mut row = [0u8; 2 * MAX_RADIUS as usize + 1];
    for yy in y0..=y1 {
        if yy > y0 {
            out.byte(b',');
        }
        out.byte(b'"');
        // (In pieces of the buffer's width, should a sight ever be wider.)
        for from in (x0..=x1).step_by(row.len()) {
            let first = world.idx(from, yy);
            let width = (x1 - from + 1).min(row.len() as i32) as usize;
            let cells = first..first + width;
            let (rocks, buried) = (&world.map.rock[cells.clone()], &world.buried[cells]);
            let row = &mut row[..width];
            // (One walk over the buried arrays, the others indexed: cheaper than zipping.)
            for (i, buried) in buried.iter().enumerate() {
                row[i] = letter(rocks[i], buried);
                mixed |= row[i] == b'*';
            }
            out.bytes(row);
        }
        out.byte(b'"');
    }
    mixed
}

/// The types buried in each cell of the window that holds several, in the rows' order: a
/// second look at the few cells written `*`.
fn write_mixed_cells(out: &mut Text, world: &World, window: Window) {
    let mut first = true;
    for yy in window.y0..=window.y1 {
        for xx in window.x0..=window.x1 {
            let c = world.idx(xx, yy);
            if letter(world.map.rock[c], &world.buried[c]) != b'*' {
                continue;
            }
            comma(out, &mut first);
            out.lit(b"{\"x\":");
            out.num(xx);
            out.lit(b",\"y\":");
            out.num(yy);
            out.lit(b",\"types\":[");
            let mut first_type = true;
            for (r, &q) in world.buried[c].iter().enumerate() {
                if q > 0 {
                    comma(out, &mut first_type);
                    out.byte(b'"');
                    out.str(RESOURCES[r]);
                    out.byte(b'"');
                }
            }
            out.lit(b"]}");
        }
    }
}

/// The piles in the window, in the order of the cells (row by row).
fn write_piles(out: &mut Text, world: &World, window: Window) {
    let size = world.size();
    let mut first = true;
    for (&c, pile) in world
        .piles
        .range(window.span(world))
        .filter(|(&c, _)| window.holds_cell(c, size))
    {
        comma(out, &mut first);
        open_cell(out, c, size);
        out.lit(b",\"resources\":");
        write_res(out, &pile.res);
        out.lit(b",\"objects\":");
        write_items(out, &pile.items);
        out.byte(b'}');
    }
}

/// The structures in the window, in the order of the cells.
fn structures_in(world: &World, window: Window) -> impl Iterator<Item = (usize, &Structure)> {
    let size = world.size();
    world
        .structures
        .range(window.span(world))
        .filter(move |(&c, _)| window.holds_cell(c, size))
        .map(|(&c, s)| (c, s))
}

/// Every player's towers in the window.
fn write_towers(out: &mut Text, world: &World, window: Window) {
    let size = world.size();
    let mut first = true;
    for (c, s) in structures_in(world, window) {
        if let Structure::Tower {
            seat,
            level,
            strength,
            ..
        } = *s
        {
            comma(out, &mut first);
            open_cell(out, c, size);
            out.lit(b",\"player\":");
            out.num(seat as i64);
            out.lit(b",\"level\":");
            out.num(level);
            out.lit(b",\"strength\":");
            out.num(strength);
            out.byte(b'}');
        }
    }
}

/// The viewer's own traps in the window (another player's are hidden).
fn write_traps(out: &mut Text, world: &World, viewer: usize, window: Window) {
    let size = world.size();
    let mut first = true;
    for (c, s) in structures_in(world, window) {
        if let Structure::Trap { seat, level } = *s {
            if seat == viewer {
                comma(out, &mut first);
                open_cell(out, c, size);
                out.lit(b",\"level\":");
                out.num(level);
                out.byte(b'}');
            }
        }
    }
}

/// Every unit in the window, in the world's order.
fn write_units(out: &mut Text, world: &World, window: Window) {
    let mut first = true;
    for u in world.units.iter().filter(|u| window.holds(u.x, u.y)) {
        comma(out, &mut first);
        out.lit(b"{\"player\":");
        out.num(u.seat as i64);
        out.lit(b",\"id\":");
        out.num(u.id as i64);
        out.lit(b",\"x\":");
        out.num(u.x);
        out.lit(b",\"y\":");
        out.num(u.y);
        out.lit(b",\"energy\":");
        out.num(u.energy);
        out.lit(b",\"life\":");
        out.num(u.life);
        out.lit(b",\"sword\":");
        out.num(u.sword);
        out.lit(b",\"armour\":");
        out.num(u.armour);
        out.byte(b'}');
    }
}

/// One own unit: position, energy, equipment, cargo, retaliation, dig result and sight.
fn write_unit(out: &mut Text, world: &World, u: &Unit) {
    out.lit(b"{\"id\":");
    out.num(u.id as i64);
    out.lit(b",\"x\":");
    out.num(u.x);
    out.lit(b",\"y\":");
    out.num(u.y);
    out.lit(b",\"energy\":");
    out.num(u.energy);
    out.lit(b",\"life\":");
    out.num(u.life);
    out.lit(b",\"frozen\":");
    out.num(u.frozen);
    out.lit(b",\"sword\":");
    out.num(u.sword);
    out.lit(b",\"armour\":");
    out.num(u.armour);
    out.lit(b",\"retaliate\":{\"energy\":");
    out.num(u.retaliate.0);
    out.lit(b",\"threshold\":");
    out.num(u.retaliate.1);
    out.lit(b"},\"resources\":");
    write_res(out, &u.res);
    out.lit(b",\"objects\":");
    write_items(out, &u.items);
    out.lit(b",\"weight\":");
    out.num(u.weight());
    out.lit(b",\"move_cost\":");
    out.num(u.move_cost());
    out.lit(b",\"dig\":");
    match &u.dig {
        None => out.lit(b"null"),
        Some((dx, dy, found)) => {
            out.lit(b"{\"x\":");
            out.num(*dx);
            out.lit(b",\"y\":");
            out.num(*dy);
            out.lit(b",\"resources\":");
            write_res(out, &found.map(u32::from));
            out.byte(b'}');
        }
    }
    out.lit(b",\"sight\":");
    write_sight(out, world, u.seat, u.x, u.y, SIGHT);
    out.byte(b'}');
}

fn write_blueprints(out: &mut Text, known: &[u8; 4]) {
    out.lit(b"\"blueprints\":{\"sword\":");
    out.num(known[0]);
    out.lit(b",\"armour\":");
    out.num(known[1]);
    out.lit(b",\"tower\":");
    out.num(known[2]);
    out.lit(b",\"trap\":");
    out.num(known[3]);
    out.byte(b'}');
}

/// Where a match stands, for the player state.
pub struct Clock {
    pub round: u32,
    pub rounds: u32,
    pub actions_left: u32,
}

/// The whole player state of `seat` as one JSON object (no line ending). `kind` is `"turn"`
/// (the input at the start of a turn) or `"state"` (the answer to a state request).
pub fn write_state(world: &World, seat: usize, clock: &Clock, kind: &str) -> String {
    let mut out = Text::with_capacity(32_000);
    let team = &world.teams[seat];
    out.lit(b"{\"type\":\"");
    out.str(kind);
    out.byte(b'"');
    if kind == "state" {
        out.lit(b",\"result\":\"NoError\"");
    }
    out.lit(b",\"round\":");
    out.num(clock.round);
    out.lit(b",\"rounds\":");
    out.num(clock.rounds);
    out.lit(b",\"player\":");
    out.num(seat as i64);
    out.lit(b",\"players\":");
    out.num(world.seats as i64);
    out.lit(b",\"size\":");
    out.num(world.size() as i64);
    out.lit(b",\"home\":[");
    out.num(team.home.0);
    out.byte(b',');
    out.num(team.home.1);
    out.byte(b']');
    out.lit(b",\"gold\":");
    out.num(team.gold);
    out.lit(b",\"actions_left\":");
    out.num(clock.actions_left);
    out.byte(b',');
    write_blueprints(&mut out, &team.known);
    out.lit(b",\"score\":");
    out.num(team.score());
    out.lit(b",\"kills\":");
    out.num(team.kills);
    out.lit(b",\"deaths\":");
    out.num(team.deaths);
    out.lit(b",\"towers\":[");
    let size = world.size();
    let mut first = true;
    for (&c, s) in &world.structures {
        if let Structure::Tower {
            seat: owner,
            level,
            strength,
            ..
        } = *s
        {
            if owner == seat {
                if !first {
                    out.byte(b',');
                }
                first = false;
                let (x, y) = ((c % size) as i32, (c / size) as i32);
                open_cell(&mut out, c, size);
                out.lit(b",\"level\":");
                out.num(level);
                out.lit(b",\"strength\":");
                out.num(strength);
                out.lit(b",\"sight\":");
                let range = TOWER_RANGE[usize::from(level.clamp(1, 3)) - 1];
                write_sight(&mut out, world, seat, x, y, range);
                out.byte(b'}');
            }
        }
    }
    out.lit(b"],\"traps\":[");
    let mut first = true;
    for (&c, s) in &world.structures {
        if let Structure::Trap { seat: owner, level } = *s {
            if owner == seat {
                if !first {
                    out.byte(b',');
                }
                first = false;
                open_cell(&mut out, c, size);
                out.lit(b",\"level\":");
                out.num(level);
                out.byte(b'}');
            }
        }
    }
    out.lit(b"],\"units\":[");
    for (i, u) in world.team_units(seat).iter().enumerate() {
        if i > 0 {
            out.byte(b',');
        }
        write_unit(&mut out, world, u);
    }
    out.lit(b"]}");
    out.into_string()
}

/// The answer to a request: the result code, the reason, and the acting unit with its sight.
pub fn write_answer(world: &World, seat: usize, answer: &Answer, actions_left: u32) -> String {
    let mut out = Text::with_capacity(4_096);
    out.lit(b"{\"type\":\"result\",\"result\":\"");
    out.str(answer.code.name());
    out.lit(b"\",\"reason\":");
    if answer.reason.is_empty() {
        out.lit(b"\"\"");
    } else {
        let mut reason = String::new();
        json_string(&mut reason, &answer.reason);
        out.str(&reason);
    }
    out.lit(b",\"actions_left\":");
    out.num(actions_left);
    out.lit(b",\"gold\":");
    out.num(world.teams[seat].gold);
    out.byte(b',');
    write_blueprints(&mut out, &world.teams[seat].known);
    out.lit(b",\"unit\":");
    match answer.unit.and_then(|i| world.units.get(i)) {
        Some(u) => write_unit(&mut out, world, u),
        None => out.lit(b"null"),
    }
    out.byte(b'}');
    out.into_string()
}

#[cfg(test)]
mod tests;
