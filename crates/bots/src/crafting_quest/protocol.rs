//! Reading the referee's JSON lines (with the small reader of [`super::json`]) (the player state and the answers to requests) into plain
//! structs, and writing well-formed request lines. Unknown or missing fields read as zero or
//! empty: a bot never fails on a line it does not fully understand.

use super::json::{Next, Reader};

#[cfg(test)]
mod decoder_tests;

// The scenario's numbers are the game's own (pure data of the `games` crate): the resource
// types in protocol order, their letters in sight rows, gold's index, and the recipes per kind
// (sword 0, armour 1, tower, trap) and level (index `level - 1`), per resource type.
pub use games::crafting_quest::scenario::{GOLD, LETTERS, RECIPES, RESOURCES};

/// The names of the two carried kinds.
pub const KINDS: [&str; 2] = ["sword", "armour"];

/// The damage of an attack with energy `e` ≥ 1 by a sword level on an armour level (the game's
/// own rule: its rulebook, *Energy*).
pub fn damage(e: i32, sword: i32, armour: i32) -> i32 {
    let level = |l: i32| l.clamp(0, 3) as u8;
    games::crafting_quest::scenario::damage(e, level(sword), level(armour))
}

/// The least attack energy that deals at least `life` damage (None: more than `max`).
pub fn energy_to_kill(life: i32, sword: i32, armour: i32, max: i32) -> Option<i32> {
    if armour >= 4 {
        return None;
    }
    let mut e = (life.max(1) * 16 / ((4 + sword.clamp(0, 3)) * (4 - armour.clamp(0, 3)))).max(1);
    while e <= max && damage(e, sword, armour) < life {
        e += 1;
    }
    while e > 1 && damage(e - 1, sword, armour) >= life {
        e -= 1;
    }
    (e <= max && damage(e, sword, armour) >= life).then_some(e)
}

/// A unit seen in a sight.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Seen {
    pub player: usize,
    pub id: usize,
    pub x: i32,
    pub y: i32,
    pub energy: i32,
    pub life: i32,
    pub sword: i32,
    pub armour: i32,
}

/// A visible pile.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PileInfo {
    pub x: i32,
    pub y: i32,
    pub res: [u32; 7],
    /// (kind index 0 sword / 1 armour, level, count).
    pub objects: Vec<(usize, i32, u32)>,
}

/// A square of cells around a unit or tower.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sight {
    pub x: i32,
    pub y: i32,
    /// One byte per cell: `#`, `.`, a resource letter or `*`.
    pub rows: Vec<Vec<u8>>,
    /// Cells with several buried types: (x, y, type indices).
    pub mixed: Vec<(i32, i32, Vec<usize>)>,
    pub piles: Vec<PileInfo>,
    /// (x, y, player).
    pub towers: Vec<(i32, i32, usize)>,
    /// Own traps: (x, y).
    pub traps: Vec<(i32, i32)>,
    pub units: Vec<Seen>,
}

impl Sight {
    /// The byte of a cell in sight, if it is.
    pub fn at(&self, x: i32, y: i32) -> Option<u8> {
        let row = self.rows.get(usize::try_from(y - self.y).ok()?)?;
        row.get(usize::try_from(x - self.x).ok()?).copied()
    }
}

/// One own unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UnitInfo {
    pub id: usize,
    pub x: i32,
    pub y: i32,
    pub energy: i32,
    pub life: i32,
    pub frozen: i32,
    pub sword: i32,
    pub armour: i32,
    pub retaliate: (i32, i32),
    pub res: [u32; 7],
    /// Per kind (sword, armour) and level: the count carried.
    pub items: [[u32; 3]; 2],
    pub weight: i32,
    pub move_cost: i32,
    /// The last dig of this turn: (x, y, quantities).
    pub dig: Option<(i32, i32, [u32; 7])>,
    pub sight: Sight,
}

/// The player state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct State {
    pub round: u32,
    pub rounds: u32,
    pub player: usize,
    pub players: usize,
    pub size: usize,
    pub home: (i32, i32),
    pub gold: i64,
    pub blueprints: [i32; 4],
    pub units: Vec<UnitInfo>,
    /// Own towers' sights.
    pub tower_sights: Vec<Sight>,
}

/// The answer to a request.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub result: String,
    pub reason: String,
    pub gold: i64,
    pub blueprints: [i32; 4],
    pub unit: Option<UnitInfo>,
}

/// What one line from the referee is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Message {
    /// The player state: `"turn"` at the start of a turn, `"state"` when asked.
    State {
        turn: bool,
        state: Box<State>,
    },
    Answer(Box<Answer>),
    /// A line that is not JSON or not a known message.
    Unknown,
}

/// Reads a value into `out` when it is an object of resource quantities (unknown names are
/// left out; `out` is not cleared first).
fn resources(r: &mut Reader, out: &mut [u32; 7]) -> Option<()> {
    if r.peek() != Next::Object {
        return r.skip();
    }
    r.object(|r, name| {
        let q = r.int()?;
        if let Some(i) = resource_index(name) {
            out[i] = q.unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32;
        }
        Some(())
    })
}

/// The index of a resource type by its name. (The seven names start with seven different
/// letters: one comparison of the whole name, not seven.)
fn resource_index(name: &str) -> Option<usize> {
    let i = match name.as_bytes().first()? {
        b'w' => 0,
        b's' => 1,
        b'l' => 2,
        b'b' => 3,
        b'i' => 4,
        b't' => 5,
        b'g' => 6,
        _ => return None,
    };
    (RESOURCES[i] == name).then_some(i)
}

fn kind_index(name: &str) -> Option<usize> {
    KINDS.iter().position(|k| *k == name)
}

/// An integer value clamped to `i32` (0 for anything else).
fn i32_of(r: &mut Reader) -> Option<i32> {
    Some(clamped_i32(r.int()?.unwrap_or(0)))
}

/// A number clamped to `i32`.
fn clamped_i32(n: i64) -> i32 {
    n.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
}

/// A plain integer (as the referee writes it) clamped to `i32`.
#[inline]
fn plain_i32(r: &mut Reader) -> Option<i32> {
    r.plain_int().map(clamped_i32)
}

/// The opening of an object that starts with its cell, `{"x":X,"y":Y`, as the referee writes
/// it (the object is counted open).
#[inline]
fn plain_point(r: &mut Reader) -> Option<(i32, i32)> {
    r.lit(b"{\"x\":")?;
    r.opened()?;
    let x = plain_i32(r)?;
    r.lit(b",\"y\":")?;
    Some((x, plain_i32(r)?))
}

/// An integer value as an index or count (0 for anything else).
fn index_of(r: &mut Reader) -> Option<usize> {
    Some(r.int()?.unwrap_or(0).clamp(0, 1 << 20) as usize)
}

/// Reads the items of an array value (nothing for anything else), each with `item`.
fn each(r: &mut Reader, item: impl FnMut(&mut Reader) -> Option<()>) -> Option<()> {
    if r.peek() != Next::Array {
        return r.skip();
    }
    r.array(item)
}

/// Reads an array value into `list` (emptied first), one `item` each (nothing for anything else).
fn refill<T>(
    r: &mut Reader,
    list: &mut Vec<T>,
    mut item: impl FnMut(&mut Reader) -> Option<T>,
) -> Option<()> {
    list.clear();
    each(r, |r| {
        list.push(item(r)?);
        Some(())
    })
}

/// What `read` gives, or `None` with the reader back where it was when `read` gives nothing.
fn or_back<'a, T>(
    r: &mut Reader<'a>,
    read: impl FnOnce(&mut Reader<'a>) -> Option<T>,
) -> Option<T> {
    let mark = r.mark();
    let got = read(r);
    if got.is_none() {
        r.back_to(mark);
    }
    got
}

/// Reads an object value with `field` (nothing for anything else); whether it was one.
fn fields<'a>(
    r: &mut Reader<'a>,
    field: impl FnMut(&mut Reader<'a>, &'a str) -> Option<()>,
) -> Option<bool> {
    if r.peek() != Next::Object {
        return r.skip().map(|()| false);
    }
    r.object(field).map(|()| true)
}

/// The slot for the `n`-th item of a list read again into the same vector: a value left from
/// an earlier line (emptied by `reset`) or a new one. `list.truncate(n)` afterwards drops the
/// rest.
fn slot<T: Default>(list: &mut Vec<T>, n: usize, reset: impl FnOnce(&mut T)) -> &mut T {
    if n < list.len() {
        reset(&mut list[n]);
    } else {
        list.push(T::default());
    }
    &mut list[n]
}

// A sight holds about twenty piles and a few units: most of what a bot reads. They are first
// read as the referee writes them (these keys in this order, no white space), which takes no
// key look-ups; anything else is read field by field (the same values either way).

/// A unit in sight written as the referee writes it, or `None` (the reader is then where it
/// was).
fn plain_seen(r: &mut Reader) -> Option<Seen> {
    or_back(r, |r| {
        if !r.may_nest(1) {
            return None;
        }
        let index = |n: i64| n.clamp(0, 1 << 20) as usize;
        r.lit(b"{\"player\":")?;
        let player = index(r.plain_int()?);
        r.lit(b",\"id\":")?;
        let id = index(r.plain_int()?);
        r.lit(b",\"x\":")?;
        let x = plain_i32(r)?;
        r.lit(b",\"y\":")?;
        let y = plain_i32(r)?;
        r.lit(b",\"energy\":")?;
        let energy = plain_i32(r)?;
        r.lit(b",\"life\":")?;
        let life = plain_i32(r)?;
        r.lit(b",\"sword\":")?;
        let sword = plain_i32(r)?;
        r.lit(b",\"armour\":")?;
        let armour = plain_i32(r)?;
        r.lit(b"}")?;
        Some(Seen {
            player,
            id,
            x,
            y,
            energy,
            life,
            sword,
            armour,
        })
    })
}

/// One of the seven resource keys with its colon, right here (`"wood":`): the resource's index.
/// (Another key is read by the general path.) The seven names start with seven different
/// letters: that letter tells which name to look for.
#[inline]
fn plain_resource(r: &mut Reader) -> Option<usize> {
    match r.byte_ahead(1)? {
        b'w' => r.lit(b"\"wood\":").map(|()| 0),
        b's' => r.lit(b"\"stone\":").map(|()| 1),
        b'l' => r.lit(b"\"leather\":").map(|()| 2),
        b'b' => r.lit(b"\"bronze\":").map(|()| 3),
        b'i' => r.lit(b"\"iron\":").map(|()| 4),
        b't' => r.lit(b"\"titanium\":").map(|()| 5),
        b'g' => r.lit(b"\"gold\":").map(|()| 6),
        _ => None,
    }
}

/// A pile written as the referee writes it, or `None` (the reader is then where it was).
fn plain_pile(r: &mut Reader) -> Option<PileInfo> {
    or_back(r, |r| {
        if !r.may_nest(3) {
            return None;
        }
        let mut pile = PileInfo::default();
        r.lit(b"{\"x\":")?;
        pile.x = plain_i32(r)?;
        r.lit(b",\"y\":")?;
        pile.y = plain_i32(r)?;
        r.lit(b",\"resources\":{")?;
        if r.lit(b"}").is_none() {
            loop {
                let i = plain_resource(r)?;
                let q = r.plain_int()?;
                pile.res[i] = q.clamp(0, i64::from(u32::MAX)) as u32;
                if r.lit(b"}").is_some() {
                    break;
                }
                r.lit(b",")?;
            }
        }
        r.lit(b",\"objects\":[")?;
        if r.lit(b"]").is_none() {
            loop {
                r.lit(b"{\"kind\":\"")?;
                let kind = if r.lit(b"sword\"").is_some() {
                    0
                } else {
                    r.lit(b"armour\"")?;
                    1
                };
                r.lit(b",\"level\":")?;
                let level = plain_i32(r)?;
                r.lit(b",\"count\":")?;
                let count = plain_i32(r)?;
                r.lit(b"}")?;
                pile.objects.push((kind, level, count.max(0) as u32));
                if r.lit(b"]").is_some() {
                    break;
                }
                r.lit(b",")?;
            }
        }
        r.lit(b"}")?;
        Some(pile)
    })
}

impl Sight {
    /// Empties the sight, keeping its buffers.
    fn clear(&mut self) {
        self.x = 0;
        self.y = 0;
        self.rows.clear();
        self.mixed.clear();
        self.piles.clear();
        self.towers.clear();
        self.traps.clear();
        self.units.clear();
    }

    /// Reads a sight written as the referee writes it (these fields in this order, no white
    /// space, no escapes) into `self`, which is empty; `None` for anything else (the reader is
    /// then where it was, and the caller reads the sight again field by field, which gives the
    /// same values).
    fn read_plain(&mut self, r: &mut Reader, spare: &mut Vec<Vec<u8>>) -> Option<()> {
        or_back(r, |r| {
            // The items of a list, each read by `item`, up to its `]`.
            fn list(r: &mut Reader, mut item: impl FnMut(&mut Reader) -> Option<()>) -> Option<()> {
                r.opened()?;
                if r.lit(b"]").is_none() {
                    loop {
                        item(r)?;
                        if r.lit(b"]").is_some() {
                            break;
                        }
                        r.lit(b",")?;
                    }
                }
                r.closed();
                Some(())
            }
            (self.x, self.y) = plain_point(r)?;
            r.lit(b",\"rows\":[")?;
            list(r, |r| {
                let text = r.plain_str()?;
                let mut row = spare.pop().unwrap_or_default();
                row.clear();
                row.extend_from_slice(text.as_bytes());
                self.rows.push(row);
                Some(())
            })?;
            r.lit(b",\"mixed\":[")?;
            list(r, |r| {
                let (x, y) = plain_point(r)?;
                r.lit(b",\"types\":[")?;
                let mut types = Vec::new();
                list(r, |r| {
                    if let Some(t) = resource_index(r.plain_str()?) {
                        types.push(t);
                    }
                    Some(())
                })?;
                r.lit(b"}")?;
                r.closed();
                self.mixed.push((x, y, types));
                Some(())
            })?;
            r.lit(b",\"piles\":[")?;
            list(r, |r| {
                self.piles.push(plain_pile(r)?);
                Some(())
            })?;
            r.lit(b",\"towers\":[")?;
            list(r, |r| {
                let (x, y) = plain_point(r)?;
                r.lit(b",\"player\":")?;
                let player = r.plain_int()?.clamp(0, 1 << 20) as usize;
                r.lit(b",\"level\":")?;
                r.plain_int()?;
                r.lit(b",\"strength\":")?;
                r.plain_int()?;
                r.lit(b"}")?;
                r.closed();
                self.towers.push((x, y, player));
                Some(())
            })?;
            r.lit(b",\"traps\":[")?;
            list(r, |r| {
                let (x, y) = plain_point(r)?;
                r.lit(b",\"level\":")?;
                r.plain_int()?;
                r.lit(b"}")?;
                r.closed();
                self.traps.push((x, y));
                Some(())
            })?;
            r.lit(b",\"units\":[")?;
            list(r, |r| {
                self.units.push(plain_seen(r)?);
                Some(())
            })?;
            r.lit(b"}")?;
            r.closed();
            Some(())
        })
    }

    /// Reads a sight value into `self` (an empty sight for anything but an object). The rows'
    /// buffers are kept from line to line: reading a sight allocates nothing once they grew.
    fn read(&mut self, r: &mut Reader, spare: &mut Vec<Vec<u8>>) -> Option<()> {
        spare.append(&mut self.rows);
        self.clear();
        if self.read_plain(r, spare).is_some() {
            return Some(());
        }
        spare.append(&mut self.rows);
        self.clear();
        fields(r, |r, key| {
            match key {
                "x" => self.x = i32_of(r)?,
                "y" => self.y = i32_of(r)?,
                "rows" => {
                    spare.append(&mut self.rows);
                    each(r, |r| {
                        let mut row = spare.pop().unwrap_or_default();
                        row.clear();
                        if let Some(text) = r.str()? {
                            row.extend_from_slice(text.as_bytes());
                        }
                        self.rows.push(row);
                        Some(())
                    })?;
                }
                "mixed" => refill(r, &mut self.mixed, mixed_cell_by_fields)?,
                "piles" => refill(r, &mut self.piles, any_pile)?,
                "towers" => refill(r, &mut self.towers, tower_by_fields)?,
                "traps" => refill(r, &mut self.traps, trap_by_fields)?,
                "units" => refill(r, &mut self.units, any_seen)?,
                _ => r.skip()?,
            }
            Some(())
        })
        .map(drop)
    }
}

// The items of a sight written otherwise than the referee writes them, field by field (a
// value that is not an object reads as zeros).

/// A cell with several buried types: (x, y, type indices).
fn mixed_cell_by_fields(r: &mut Reader) -> Option<(i32, i32, Vec<usize>)> {
    let (mut x, mut y, mut types) = (0, 0, Vec::new());
    fields(r, |r, key| {
        match key {
            "x" => x = i32_of(r)?,
            "y" => y = i32_of(r)?,
            "types" => {
                types.clear();
                each(r, |r| {
                    if let Some(t) = r.str()?.as_deref().and_then(resource_index) {
                        types.push(t);
                    }
                    Some(())
                })?;
            }
            _ => r.skip()?,
        }
        Some(())
    })?;
    Some((x, y, types))
}

/// A pile: as the referee writes it, else field by field.
fn any_pile(r: &mut Reader) -> Option<PileInfo> {
    if let Some(pile) = plain_pile(r) {
        return Some(pile);
    }
    let mut pile = PileInfo::default();
    fields(r, |r, key| {
        match key {
            "x" => pile.x = i32_of(r)?,
            "y" => pile.y = i32_of(r)?,
            "resources" => {
                pile.res = [0; 7];
                resources(r, &mut pile.res)?;
            }
            "objects" => {
                pile.objects.clear();
                each(r, |r| {
                    if let Some(object) = object_by_fields(r)? {
                        pile.objects.push(object);
                    }
                    Some(())
                })?;
            }
            _ => r.skip()?,
        }
        Some(())
    })?;
    Some(pile)
}

/// An object of a pile: (kind, level, count), or `None` inside for an unknown kind.
fn object_by_fields(r: &mut Reader) -> Option<Option<(usize, i32, u32)>> {
    let (mut kind, mut level, mut count) = (None, 0, 0);
    fields(r, |r, key| {
        match key {
            "kind" => kind = r.str()?.and_then(|k| kind_index(&k)),
            "level" => level = i32_of(r)?,
            "count" => count = i32_of(r)?,
            _ => r.skip()?,
        }
        Some(())
    })?;
    Some(kind.map(|k| (k, level, count.max(0) as u32)))
}

/// A tower in sight: (x, y, player).
fn tower_by_fields(r: &mut Reader) -> Option<(i32, i32, usize)> {
    let (mut x, mut y, mut player) = (0, 0, 0);
    fields(r, |r, key| {
        match key {
            "x" => x = i32_of(r)?,
            "y" => y = i32_of(r)?,
            "player" => player = index_of(r)?,
            _ => r.skip()?,
        }
        Some(())
    })?;
    Some((x, y, player))
}

/// An own trap in sight: (x, y).
fn trap_by_fields(r: &mut Reader) -> Option<(i32, i32)> {
    let (mut x, mut y) = (0, 0);
    fields(r, |r, key| {
        match key {
            "x" => x = i32_of(r)?,
            "y" => y = i32_of(r)?,
            _ => r.skip()?,
        }
        Some(())
    })?;
    Some((x, y))
}

/// A unit in sight: as the referee writes it, else field by field.
fn any_seen(r: &mut Reader) -> Option<Seen> {
    if let Some(s) = plain_seen(r) {
        return Some(s);
    }
    let mut s = Seen::default();
    fields(r, |r, key| {
        match key {
            "player" => s.player = index_of(r)?,
            "id" => s.id = index_of(r)?,
            "x" => s.x = i32_of(r)?,
            "y" => s.y = i32_of(r)?,
            "energy" => s.energy = i32_of(r)?,
            "life" => s.life = i32_of(r)?,
            "sword" => s.sword = i32_of(r)?,
            "armour" => s.armour = i32_of(r)?,
            _ => r.skip()?,
        }
        Some(())
    })?;
    Some(s)
}

/// Resource quantities written as the referee writes them (`{"wood":4,"iron":10}`: known
/// names, plain integers) into `out` (not cleared first).
fn plain_resources(r: &mut Reader, out: &mut [u32; 7]) -> Option<()> {
    r.lit(b"{")?;
    r.opened()?;
    if r.lit(b"}").is_none() {
        loop {
            let i = plain_resource(r)?;
            out[i] = r.plain_int()?.clamp(0, i64::from(u32::MAX)) as u32;
            if r.lit(b"}").is_some() {
                break;
            }
            r.lit(b",")?;
        }
    }
    r.closed();
    Some(())
}

impl UnitInfo {
    /// Reads a unit written as the referee writes it (these fields in this order, no white
    /// space, carrying no objects) into `self`, which holds zeros, and its sight into `sight`;
    /// `None` for anything else (the reader is then where it was, and `self` holds whatever was
    /// read: the caller reads the unit again field by field, which gives the same values).
    fn read_plain(
        &mut self,
        r: &mut Reader,
        sight: &mut Sight,
        spare: &mut Vec<Vec<u8>>,
    ) -> Option<()> {
        or_back(r, |r| {
            r.lit(b"{\"id\":")?;
            r.opened()?;
            self.id = r.plain_int()?.clamp(0, 1 << 20) as usize;
            r.lit(b",\"x\":")?;
            self.x = plain_i32(r)?;
            r.lit(b",\"y\":")?;
            self.y = plain_i32(r)?;
            r.lit(b",\"energy\":")?;
            self.energy = plain_i32(r)?;
            r.lit(b",\"life\":")?;
            self.life = plain_i32(r)?;
            r.lit(b",\"frozen\":")?;
            self.frozen = plain_i32(r)?;
            r.lit(b",\"sword\":")?;
            self.sword = plain_i32(r)?;
            r.lit(b",\"armour\":")?;
            self.armour = plain_i32(r)?;
            r.lit(b",\"retaliate\":{\"energy\":")?;
            r.opened()?;
            self.retaliate.0 = plain_i32(r)?;
            r.lit(b",\"threshold\":")?;
            self.retaliate.1 = plain_i32(r)?;
            r.lit(b"}")?;
            r.closed();
            r.lit(b",\"resources\":")?;
            plain_resources(r, &mut self.res)?;
            r.lit(b",\"objects\":[")?;
            r.opened()?;
            r.lit(b"]")?;
            r.closed();
            r.lit(b",\"weight\":")?;
            self.weight = plain_i32(r)?;
            r.lit(b",\"move_cost\":")?;
            self.move_cost = plain_i32(r)?;
            r.lit(b",\"dig\":")?;
            if r.lit(b"null").is_none() {
                let (x, y) = plain_point(r)?;
                r.lit(b",\"resources\":")?;
                let mut res = [0; 7];
                plain_resources(r, &mut res)?;
                r.lit(b"}")?;
                r.closed();
                self.dig = Some((x, y, res));
            }
            r.lit(b",\"sight\":")?;
            sight.read(r, spare)?;
            r.lit(b"}")?;
            r.closed();
            Some(())
        })
    }

    /// Reads a unit value into `self` (a unit of zeros for anything but an object), keeping
    /// the sight's buffers.
    fn read(&mut self, r: &mut Reader, spare: &mut Vec<Vec<u8>>) -> Option<()> {
        let mut sight = std::mem::take(&mut self.sight);
        spare.append(&mut sight.rows);
        sight.clear();
        *self = UnitInfo::default();
        if self.read_plain(r, &mut sight, spare).is_some() {
            self.sight = sight;
            return Some(());
        }
        *self = UnitInfo::default();
        let mut sight_seen = false;
        fields(r, |r, key| {
            match key {
                "id" => self.id = index_of(r)?,
                "x" => self.x = i32_of(r)?,
                "y" => self.y = i32_of(r)?,
                "energy" => self.energy = i32_of(r)?,
                "life" => self.life = i32_of(r)?,
                "frozen" => self.frozen = i32_of(r)?,
                "sword" => self.sword = i32_of(r)?,
                "armour" => self.armour = i32_of(r)?,
                "retaliate" => {
                    self.retaliate = (0, 0);
                    let mut retaliate = (0, 0);
                    fields(r, |r, key| {
                        match key {
                            "energy" => retaliate.0 = i32_of(r)?,
                            "threshold" => retaliate.1 = i32_of(r)?,
                            _ => r.skip()?,
                        }
                        Some(())
                    })?;
                    self.retaliate = retaliate;
                }
                "resources" => {
                    self.res = [0; 7];
                    resources(r, &mut self.res)?;
                }
                "objects" => {
                    let mut items = [[0u32; 3]; 2];
                    each(r, |r| {
                        if let Some((k, level, count)) = object_by_fields(r)? {
                            if (1..=3).contains(&level) {
                                items[k][level as usize - 1] += count;
                            }
                        }
                        Some(())
                    })?;
                    self.items = items;
                }
                "weight" => self.weight = i32_of(r)?,
                "move_cost" => self.move_cost = i32_of(r)?,
                "dig" => {
                    let (mut x, mut y, mut res) = (0, 0, [0u32; 7]);
                    let is_object = fields(r, |r, key| {
                        match key {
                            "x" => x = i32_of(r)?,
                            "y" => y = i32_of(r)?,
                            "resources" => {
                                res = [0; 7];
                                resources(r, &mut res)?;
                            }
                            _ => r.skip()?,
                        }
                        Some(())
                    })?;
                    self.dig = is_object.then_some((x, y, res));
                }
                "sight" => {
                    sight.read(r, spare)?;
                    sight_seen = true;
                }
                _ => r.skip()?,
            }
            Some(())
        })?;
        if !sight_seen {
            spare.append(&mut sight.rows);
            sight.clear();
        }
        self.sight = sight;
        Some(())
    }
}

/// An answer written as the referee writes it (these fields in this order, no white space,
/// no escapes) up to the end of the line: its result and reason (in `result` and `reason`),
/// unit (in `unit`), and its gold, blueprints and whether it has a unit. `None` for anything
/// else (the reader is then where it was, `result` and `reason` are empty).
fn plain_answer(
    r: &mut Reader,
    result: &mut String,
    reason: &mut String,
    unit: &mut Option<UnitInfo>,
    spare: &mut Vec<Vec<u8>>,
) -> Option<(i64, [i32; 4], bool)> {
    let read = or_back(r, |r| {
        r.lit(b"{\"type\":\"result\",\"result\":")?;
        r.opened()?;
        result.push_str(r.plain_str()?);
        r.lit(b",\"reason\":")?;
        reason.push_str(r.plain_str()?);
        r.lit(b",\"actions_left\":")?;
        r.plain_int()?;
        r.lit(b",\"gold\":")?;
        let gold = r.plain_int()?;
        r.lit(b",\"blueprints\":{\"sword\":")?;
        r.opened()?;
        let mut blueprints = [0; 4];
        blueprints[0] = r.plain_int()? as i32;
        r.lit(b",\"armour\":")?;
        blueprints[1] = r.plain_int()? as i32;
        r.lit(b",\"tower\":")?;
        blueprints[2] = r.plain_int()? as i32;
        r.lit(b",\"trap\":")?;
        blueprints[3] = r.plain_int()? as i32;
        r.lit(b"}")?;
        r.closed();
        r.lit(b",\"unit\":")?;
        let has_unit = r.peek() == Next::Object;
        if has_unit {
            unit.get_or_insert_with(UnitInfo::default).read(r, spare)?;
        } else {
            r.lit(b"null")?;
        }
        r.lit(b"}")?;
        r.closed();
        r.at_end().then_some((gold, blueprints, has_unit))
    });
    if read.is_none() {
        result.clear();
        reason.clear();
    }
    read
}

/// What a line from the referee was, read by [`Decoder::read`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The player state at the start of a turn: in [`Decoder::state`].
    Turn,
    /// The player state asked for: in [`Decoder::state`].
    State,
    /// The answer to a request: in [`Decoder::answer`].
    Answer,
    /// A line that is not JSON or not a known message.
    Unknown,
}

/// Reads the referee's lines into the same structs again and again: a bot that keeps one
/// reads each answer without allocating once the buffers have grown (and may swap what it
/// wants to keep out of [`Decoder::state`] and [`Decoder::answer`]: whatever it swaps in is
/// reused).
#[derive(Debug, Default)]
pub struct Decoder {
    pub state: State,
    pub answer: Answer,
    /// Row buffers of sights read before, for the next ones.
    spare: Vec<Vec<u8>>,
}

impl Decoder {
    /// Reads one line. Only the struct the kind names holds this line; the other holds
    /// whatever it held.
    pub fn read(&mut self, line: &str) -> Kind {
        self.read_line(line.trim()).unwrap_or(Kind::Unknown)
    }

    fn read_line(&mut self, line: &str) -> Option<Kind> {
        let mut r = Reader::new(line);
        if r.peek() != Next::Object {
            // Not an object, so not a message (if it is JSON at all).
            return Some(Kind::Unknown);
        }
        let mut read = LineFields::taking(&mut self.answer);
        // An answer as the referee writes it is read straight, any other line field by field.
        let plain = plain_answer(
            &mut r,
            &mut read.result,
            &mut read.reason,
            &mut read.unit,
            &mut self.spare,
        );
        if let Some((gold, blueprints, has_unit)) = plain {
            read.kind = Some(Kind::Answer);
            (read.gold, read.blueprints, read.has_unit) = (gold, blueprints, has_unit);
        } else {
            let (state, spare) = (&mut self.state, &mut self.spare);
            r.object(|r, key| read.field(r, key, state, spare))?;
            if !r.at_end() {
                return None;
            }
        }
        Some(self.keep(read))
    }

    /// Moves what a line said into the state or the answer, as its type says.
    fn keep(&mut self, read: LineFields) -> Kind {
        let (state, answer) = (&mut self.state, &mut self.answer);
        match read.kind {
            Some(k @ (Kind::Turn | Kind::State)) => {
                state.units.truncate(read.units);
                state.tower_sights.truncate(read.towers);
                state.round = read.round;
                state.rounds = read.rounds;
                state.player = read.player;
                state.players = read.players;
                state.size = read.size;
                state.home = read.home;
                state.gold = read.gold;
                state.blueprints = read.blueprints;
                answer.unit = read.unit;
                k
            }
            Some(Kind::Answer) => {
                let mut unit = read.unit;
                answer.result = read.result;
                answer.reason = read.reason;
                answer.gold = read.gold;
                answer.blueprints = read.blueprints;
                if !read.has_unit {
                    if let Some(u) = &mut unit {
                        self.spare.append(&mut u.sight.rows);
                    }
                }
                answer.unit = unit.filter(|_| read.has_unit);
                Kind::Answer
            }
            _ => Kind::Unknown,
        }
    }
}

/// A line's fields as they are read, before they go to the state or the answer. The state's
/// units and tower sights are read in place; `units` and `towers` count those of this line.
struct LineFields {
    kind: Option<Kind>,
    round: u32,
    rounds: u32,
    player: usize,
    players: usize,
    size: usize,
    home: (i32, i32),
    gold: i64,
    blueprints: [i32; 4],
    units: usize,
    towers: usize,
    result: String,
    reason: String,
    unit: Option<UnitInfo>,
    has_unit: bool,
}

impl LineFields {
    /// Empty fields (zero when missing, and blueprints 1) that reuse the answer's buffers.
    fn taking(answer: &mut Answer) -> LineFields {
        let mut result = std::mem::take(&mut answer.result);
        let mut reason = std::mem::take(&mut answer.reason);
        result.clear();
        reason.clear();
        LineFields {
            kind: None,
            round: 0,
            rounds: 0,
            player: 0,
            players: 0,
            size: 0,
            home: (0, 0),
            gold: 0,
            blueprints: [1; 4],
            units: 0,
            towers: 0,
            result,
            reason,
            unit: answer.unit.take(),
            has_unit: false,
        }
    }

    /// Reads the value of the field `key` of a line's object.
    fn field(
        &mut self,
        r: &mut Reader,
        key: &str,
        state: &mut State,
        spare: &mut Vec<Vec<u8>>,
    ) -> Option<()> {
        match key {
            "type" => {
                self.kind = match r.str()?.as_deref() {
                    Some("turn") => Some(Kind::Turn),
                    Some("state") => Some(Kind::State),
                    Some("result") => Some(Kind::Answer),
                    _ => None,
                }
            }
            "round" => self.round = r.int()?.unwrap_or(0).clamp(0, 1 << 20) as u32,
            "rounds" => self.rounds = r.int()?.unwrap_or(0).clamp(0, 1 << 20) as u32,
            "player" => self.player = index_of(r)?,
            "players" => self.players = index_of(r)?,
            "size" => self.size = index_of(r)?.min(1000),
            "home" => self.home = home_by_items(r)?,
            "gold" => self.gold = r.int()?.unwrap_or(0),
            "blueprints" => self.blueprints = blueprints_by_fields(r)?,
            "units" => self.units = read_units(r, &mut state.units, spare)?,
            "towers" => self.towers = read_tower_sights(r, &mut state.tower_sights, spare)?,
            "result" => read_text(r, &mut self.result)?,
            "reason" => read_text(r, &mut self.reason)?,
            "unit" => {
                self.has_unit = r.peek() == Next::Object;
                if self.has_unit {
                    (self.unit.get_or_insert_with(UnitInfo::default)).read(r, spare)?;
                } else {
                    r.skip()?;
                }
            }
            _ => r.skip()?,
        }
        Some(())
    }
}

/// A home, `[x, y]` (missing numbers read as 0, more are left out).
fn home_by_items(r: &mut Reader) -> Option<(i32, i32)> {
    let mut home = (0, 0);
    let mut i = 0;
    each(r, |r| {
        let n = r.int()?.unwrap_or(0) as i32;
        match i {
            0 => home.0 = n,
            1 => home.1 = n,
            _ => {}
        }
        i += 1;
        Some(())
    })?;
    Some(home)
}

/// The blueprint levels known for sword, armour, tower and trap (1 when missing).
fn blueprints_by_fields(r: &mut Reader) -> Option<[i32; 4]> {
    let mut blueprints = [1; 4];
    fields(r, |r, key| {
        let n = r.int()?;
        let i = ["sword", "armour", "tower", "trap"]
            .iter()
            .position(|k| *k == key);
        if let Some(i) = i {
            blueprints[i] = n.map_or(1, |n| n as i32);
        }
        Some(())
    })?;
    Some(blueprints)
}

/// Reads a list of own units into `units`, reusing the units read before; the count read
/// (the caller truncates `units` to it).
fn read_units(
    r: &mut Reader,
    units: &mut Vec<UnitInfo>,
    spare: &mut Vec<Vec<u8>>,
) -> Option<usize> {
    let mut count = 0;
    each(r, |r| {
        slot(units, count, |_| {}).read(r, spare)?;
        count += 1;
        Some(())
    })?;
    Some(count)
}

/// Reads a list of own towers into `sights`, reusing the sights read before; the count of
/// towers that had a sight (the caller truncates `sights` to it).
fn read_tower_sights(
    r: &mut Reader,
    sights: &mut Vec<Sight>,
    spare: &mut Vec<Vec<u8>>,
) -> Option<usize> {
    let mut count = 0;
    each(r, |r| {
        let s = slot(sights, count, |s| {
            spare.append(&mut s.rows);
            s.clear();
        });
        let mut has_sight = false;
        fields(r, |r, key| {
            if key == "sight" {
                // A later "sight" of the same tower replaces the first.
                s.read(r, spare)?;
                has_sight = true;
                Some(())
            } else {
                r.skip()
            }
        })?;
        if has_sight {
            count += 1;
        }
        Some(())
    })?;
    Some(count)
}

/// A string value into `text`, which is emptied first (and left empty for anything else).
fn read_text(r: &mut Reader, text: &mut String) -> Option<()> {
    text.clear();
    if let Some(value) = r.str()? {
        text.push_str(&value);
    }
    Some(())
}

/// Reads one line from the referee.
pub fn read(line: &str) -> Message {
    let mut decoder = Decoder::default();
    match decoder.read(line) {
        Kind::Turn => Message::State {
            turn: true,
            state: Box::new(decoder.state),
        },
        Kind::State => Message::State {
            turn: false,
            state: Box::new(decoder.state),
        },
        Kind::Answer => Message::Answer(Box::new(decoder.answer)),
        Kind::Unknown => Message::Unknown,
    }
}

/// Request lines, always well formed.
pub mod write {
    use super::{KINDS, RESOURCES};

    pub fn end() -> String {
        r#"{"type":"end"}"#.to_string()
    }

    pub fn moving(unit: usize, x: i32, y: i32) -> String {
        format!(r#"{{"unit":{unit},"type":"move","to":[{x},{y}]}}"#)
    }

    pub fn dig(unit: usize) -> String {
        format!(r#"{{"unit":{unit},"type":"dig"}}"#)
    }

    fn amounts(res: &[u32; 7]) -> String {
        let parts: Vec<String> = res
            .iter()
            .enumerate()
            .filter(|(_, &q)| q > 0)
            .map(|(r, q)| format!(r#""{}":{q}"#, RESOURCES[r]))
            .collect();
        format!("{{{}}}", parts.join(","))
    }

    pub fn pickup(unit: usize, res: &[u32; 7]) -> String {
        format!(
            r#"{{"unit":{unit},"type":"pickup","resources":{}}}"#,
            amounts(res)
        )
    }

    pub fn pickup_object(unit: usize, kind: usize, level: i32, count: u32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"pickup","objects":[{{"kind":"{}","level":{level},"count":{count}}}]}}"#,
            KINDS[kind.min(1)]
        )
    }

    pub fn drop(unit: usize, res: &[u32; 7]) -> String {
        format!(
            r#"{{"unit":{unit},"type":"drop","resources":{}}}"#,
            amounts(res)
        )
    }

    pub fn drop_object(unit: usize, kind: usize, level: i32, count: u32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"drop","objects":[{{"kind":"{}","level":{level},"count":{count}}}]}}"#,
            KINDS[kind.min(1)]
        )
    }

    pub fn craft(unit: usize, kind: usize, level: i32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"craft","blueprint":{{"kind":"{}","level":{level}}}}}"#,
            KINDS[kind.min(1)]
        )
    }

    pub fn equip(unit: usize, kind: usize, level: i32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"equip","item":{{"kind":"{}","level":{level}}}}}"#,
            KINDS[kind.min(1)]
        )
    }

    pub fn attack(unit: usize, player: usize, target: usize, energy: i32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"attack","target":{{"player":{player},"unit":{target}}},"energy":{energy}}}"#
        )
    }

    pub fn prepare(unit: usize, energy: i32, threshold: i32) -> String {
        format!(r#"{{"unit":{unit},"type":"prepare","energy":{energy},"threshold":{threshold}}}"#)
    }

    pub fn place(unit: usize, what: &str, level: i32) -> String {
        let kind = if what == "tower" {
            "placeTower"
        } else {
            "placeTrap"
        };
        format!(r#"{{"unit":{unit},"type":"{kind}","level":{level}}}"#)
    }

    pub fn research(unit: usize, kind: &str, level: i32) -> String {
        format!(
            r#"{{"unit":{unit},"type":"research","blueprint":{{"kind":"{kind}","level":{level}}}}}"#
        )
    }
}
