//! A step's events kept as data: the frequent ones (a unit trained, moved, a building built)
//! are written out in words only when a frame is read, as most frames never are; every other
//! event is kept as its text. The words are those the rules wrote before as they went.

use std::fmt;

use super::map::xy;
use super::state::{name, BuildingKind};

/// One event of a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// `seat` trained a level-`level` unit with id `id` on `cell`.
    Trained {
        seat: usize,
        level: u8,
        id: i32,
        cell: usize,
        taken: Taken,
    },
    /// `seat`'s unit `id` moved to `cell`.
    Moved {
        seat: usize,
        id: i32,
        cell: usize,
        taken: Taken,
    },
    /// `seat` built a mine or a tower on `cell`.
    Built {
        seat: usize,
        kind: BuildingKind,
        cell: usize,
    },
    /// Any other event, in words.
    Text(String),
}

/// What taking a cell did besides: the unit killed there (its owner, level and id), and the
/// enemy building destroyed, or the enemy HQ captured (its owner and kind).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Taken {
    pub killed: Option<(usize, u8, i32)>,
    pub building: Option<(usize, BuildingKind)>,
}

impl fmt::Display for Taken {
    /// The words after the move or the training: " and kills red's level-1 unit 4", " and
    /// destroys blue's mine", " and captures red's HQ", or nothing.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some((owner, level, id)) = self.killed {
            write!(f, " and kills {}'s level-{level} unit {id}", name(owner))?;
        }
        match self.building {
            Some((owner, BuildingKind::Hq)) => write!(f, " and captures {}'s HQ", name(owner)),
            Some((owner, kind)) => write!(
                f,
                " and destroys {}'s {}",
                name(owner),
                kind.word().to_lowercase()
            ),
            None => Ok(()),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Trained {
                seat,
                level,
                id,
                cell,
                taken,
            } => {
                let (x, y) = xy(*cell);
                let who = name(*seat);
                write!(
                    f,
                    "{who} trains a level-{level} unit (id {id}) at ({x},{y}){taken}"
                )
            }
            Event::Moved {
                seat,
                id,
                cell,
                taken,
            } => {
                let (x, y) = xy(*cell);
                write!(f, "{}'s unit {id} moves to ({x},{y}){taken}", name(*seat))
            }
            Event::Built { seat, kind, cell } => {
                let (x, y) = xy(*cell);
                let what = kind.word().to_lowercase();
                write!(f, "{} builds a {what} at ({x},{y})", name(*seat))
            }
            Event::Text(text) => f.write_str(text),
        }
    }
}
