//! The hex grid: `(j, k)` coordinates, the six directions and hex distance (rulebook: *The map*).

use std::fmt;

/// A tile position: J runs down-left, K down-right; (0,0) is the top tile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    pub j: i32,
    pub k: i32,
}

impl Pos {
    pub const fn new(j: i32, k: i32) -> Pos {
        Pos { j, k }
    }

    /// The neighbour in a direction (possibly off the map).
    pub fn step(self, dir: Dir) -> Pos {
        let (dj, dk) = dir.delta();
        Pos::new(self.j + dj, self.k + dk)
    }

    /// The position `n` steps away in a direction.
    pub fn steps(self, dir: Dir, n: i32) -> Pos {
        let (dj, dk) = dir.delta();
        Pos::new(self.j + n * dj, self.k + n * dk)
    }

    pub fn offset(self, dj: i32, dk: i32) -> Pos {
        Pos::new(self.j + dj, self.k + dk)
    }

    /// The six neighbours, in the order the original's explosions visit them (up, down,
    /// right-down, right-up, left-down, left-up).
    pub fn around(self) -> [Pos; 6] {
        [
            Dir::Up,
            Dir::Down,
            Dir::RightDown,
            Dir::RightUp,
            Dir::LeftDown,
            Dir::LeftUp,
        ]
        .map(|d| self.step(d))
    }
}

impl fmt::Display for Pos {
    /// As the protocol writes positions: `"j,k"`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.j, self.k)
    }
}

/// Hex distance between two positions: `max(|Δj|, |Δk|, |Δj − Δk|)`.
pub fn distance(a: Pos, b: Pos) -> i32 {
    offset_length(a.j - b.j, a.k - b.k)
}

/// Hex length of an offset `(dj, dk)`.
pub fn offset_length(dj: i32, dk: i32) -> i32 {
    let (dj, dk) = (i64::from(dj), i64::from(dk));
    dj.abs()
        .max(dk.abs())
        .max((dj - dk).abs())
        .min(i64::from(i32::MAX)) as i32
}

/// The six directions, with their protocol names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Dir {
    Up,
    Down,
    LeftDown,
    RightDown,
    LeftUp,
    RightUp,
}

impl Dir {
    pub const ALL: [Dir; 6] = [
        Dir::Up,
        Dir::Down,
        Dir::LeftDown,
        Dir::RightDown,
        Dir::LeftUp,
        Dir::RightUp,
    ];

    /// `(Δj, Δk)`.
    pub fn delta(self) -> (i32, i32) {
        match self {
            Dir::Up => (-1, -1),
            Dir::Down => (1, 1),
            Dir::LeftDown => (1, 0),
            Dir::RightDown => (0, 1),
            Dir::LeftUp => (0, -1),
            Dir::RightUp => (-1, 0),
        }
    }

    /// The protocol name: `"up"`, `"left-down"`, ...
    pub fn name(self) -> &'static str {
        match self {
            Dir::Up => "up",
            Dir::Down => "down",
            Dir::LeftDown => "left-down",
            Dir::RightDown => "right-down",
            Dir::LeftUp => "left-up",
            Dir::RightUp => "right-up",
        }
    }

    /// A direction from its protocol name (exactly as the original server accepts it).
    pub fn parse(name: &str) -> Option<Dir> {
        Dir::ALL.into_iter().find(|d| d.name() == name)
    }

    /// A direction from its protocol name or one of the camelCase aliases of the original
    /// documentation's droid example (`rightUp`, `rightDown`, `leftUp`, `leftDown`).
    pub fn parse_lenient(name: &str) -> Option<Dir> {
        Dir::parse(name).or(match name {
            "leftDown" => Some(Dir::LeftDown),
            "rightDown" => Some(Dir::RightDown),
            "leftUp" => Some(Dir::LeftUp),
            "rightUp" => Some(Dir::RightUp),
            _ => None,
        })
    }

    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::LeftDown => Dir::RightUp,
            Dir::RightDown => Dir::LeftUp,
            Dir::LeftUp => Dir::RightDown,
            Dir::RightUp => Dir::LeftDown,
        }
    }
}

impl fmt::Display for Dir {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
