//! The game interface: the object-safe text layer that the referee, the web app and the CLI use.
//!
//! A turn is a conversation. The referee asks a game which seats must answer now
//! ([`Game::to_move`]), sends each of them its [`Game::input`], and hands the game every line a
//! bot writes ([`Game::hear`]). The game answers whether the line is answered at once, whether
//! the seat's turn is complete, or whether the line is a fault. Once every asked seat is complete
//! (or faulted), the referee calls [`Game::step`]. Simultaneous games ask every seat at once;
//! alternating games ask one seat per turn.
//!
//! Each game also has a typed layer of its own (state, action type, rules); see [`crate::Rules`].

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::Frame;

/// Whether the seats of a turn answer together or one after another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TurnOrder {
    /// One seat per turn, in a fixed ring (Ice and Fire, Skyport, Crafting Quest 3).
    Alternating,
    /// Every living seat answers, then the turn is resolved at once (Soak Overflow, microRTS).
    Simultaneous,
}

/// A named variant of a game's rules ("league-3", "tg2013").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruleset {
    pub id: &'static str,
    pub name: &'static str,
    pub summary: &'static str,
}

/// The facts about a game that do not depend on a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameInfo {
    /// The id used by the CLI, replays and links: `ice-and-fire`.
    pub id: &'static str,
    /// The name shown to people.
    pub name: &'static str,
    /// Bumped on every rules change; replays record it.
    pub version: u32,
    pub min_seats: usize,
    pub max_seats: usize,
    pub turn_order: TurnOrder,
    /// The time budget of a seat's first turn, in milliseconds, as the original.
    pub first_turn_ms: u32,
    /// The time budget of every later turn, in milliseconds, as the original.
    pub turn_ms: u32,
    /// Every ruleset the game offers; the first is listed first in pickers.
    pub rulesets: &'static [Ruleset],
    /// The ruleset used when a setup names none.
    pub default_ruleset: &'static str,
}

impl GameInfo {
    /// A seat's time budget for a turn: the first turn's or a later one's, ten times longer
    /// when the match's budgets are relaxed ([`crate::referee::RELAXED_FACTOR`]).
    pub fn budget_ms(&self, first_turn: bool, relaxed: bool) -> u32 {
        let base = if first_turn {
            self.first_turn_ms
        } else {
            self.turn_ms
        };
        if relaxed {
            base * crate::referee::RELAXED_FACTOR
        } else {
            base
        }
    }

    /// The ruleset with this id, if the game has it.
    pub fn ruleset(&self, id: &str) -> Option<&'static Ruleset> {
        self.rulesets.iter().find(|r| r.id == id)
    }
}

/// Everything a match is built from, apart from the bots.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    pub game: String,
    pub ruleset: String,
    /// The match seed; all randomness of the match derives from it.
    pub seed: i64,
    pub seats: usize,
    /// Game-specific options, `key = value`, checked by the game.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

impl Setup {
    /// A setup with the game's default ruleset and its smallest number of seats.
    pub fn new(info: &GameInfo, seed: i64) -> Self {
        Setup {
            game: info.id.to_string(),
            ruleset: info.default_ruleset.to_string(),
            seed,
            seats: info.min_seats,
            options: BTreeMap::new(),
        }
    }

    /// Checks what every game checks: the game id, the seat count and the ruleset.
    pub fn check(&self, info: &GameInfo) -> Result<(), SetupError> {
        if self.game != info.id {
            return Err(SetupError::WrongGame {
                expected: info.id.to_string(),
                found: self.game.clone(),
            });
        }
        if self.seats < info.min_seats || self.seats > info.max_seats {
            return Err(SetupError::BadSeatCount {
                found: self.seats,
                min: info.min_seats,
                max: info.max_seats,
            });
        }
        if info.ruleset(&self.ruleset).is_none() {
            return Err(SetupError::UnknownRuleset {
                found: self.ruleset.clone(),
                known: info.rulesets.iter().map(|r| r.id.to_string()).collect(),
            });
        }
        Ok(())
    }

    /// [`Setup::check`] for a game that takes no option: any option is refused as unknown.
    pub fn check_without_options(&self, info: &GameInfo) -> Result<(), SetupError> {
        self.check(info)?;
        match self.options.keys().next() {
            Some(key) => Err(SetupError::UnknownOption(key.clone())),
            None => Ok(()),
        }
    }
}

/// Why a match cannot be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    UnknownGame(String),
    WrongGame {
        expected: String,
        found: String,
    },
    BadSeatCount {
        found: usize,
        min: usize,
        max: usize,
    },
    UnknownRuleset {
        found: String,
        known: Vec<String>,
    },
    UnknownOption(String),
    BadOption {
        key: String,
        value: String,
        why: String,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::UnknownGame(id) => write!(f, "unknown game '{id}'"),
            SetupError::WrongGame { expected, found } => {
                write!(f, "this setup is for '{found}', not '{expected}'")
            }
            SetupError::BadSeatCount { found, min, max } if min == max => {
                write!(f, "this game is played by {min} bots, not {found}")
            }
            SetupError::BadSeatCount { found, min, max } => {
                write!(f, "this game is played by {min} to {max} bots, not {found}")
            }
            SetupError::UnknownRuleset { found, known } => {
                write!(f, "unknown ruleset '{found}' (known: {})", known.join(", "))
            }
            SetupError::UnknownOption(key) => write!(f, "unknown option '{key}'"),
            SetupError::BadOption { key, value, why } => {
                write!(f, "option {key} = '{value}': {why}")
            }
        }
    }
}

impl std::error::Error for SetupError {}

/// What a game makes of one line a bot wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// The line is answered at once with this text (complete lines); the turn goes on.
    Reply(String),
    /// The line was taken; the seat's turn goes on and more lines are expected.
    More,
    /// The seat's turn is complete.
    Done,
    /// The line is a fault (for example an unrecognised command). The game has already applied
    /// its own policy; the seat's turn is over.
    Fault(String),
}

/// The kinds of fault the referee records.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// The bot did not complete its turn within its time budget.
    Timeout,
    /// The bot's program ended or threw.
    Crash,
    /// The bot wrote something the protocol does not allow; the game decided it is a fault.
    Malformed,
    /// The bot wrote more than the referee accepts in one turn (lines or bytes).
    Flood,
}

impl fmt::Display for FaultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FaultKind::Timeout => "timeout",
            FaultKind::Crash => "crash",
            FaultKind::Malformed => "malformed output",
            FaultKind::Flood => "too much output",
        })
    }
}

/// A fault: which seat, on which turn, what kind, and a message for people.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    pub seat: usize,
    /// The game's turn counter when the fault happened ([`Game::turn`]: the turns done before
    /// it, 0 in the first turn), as replays record it. People are shown
    /// [`Fault::turn_shown`].
    pub turn: u32,
    pub kind: FaultKind,
    pub text: String,
}

impl Fault {
    /// The turn in which the fault happened, as people are shown it: turns counted from 1, as
    /// the page's viewer, its text view and `botplay replay --stats` number them (a timeout in
    /// the first turn is in turn 1, a crash after four turns played in turn 5). The CLI's fault
    /// lines and the arena's JSON say this number.
    pub fn turn_shown(&self) -> u32 {
        self.turn.saturating_add(1)
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "fault seat {} turn {} {}: {}",
            self.seat + 1,
            self.turn_shown(),
            self.kind,
            self.text
        )
    }
}

/// How a match ended: a score per seat, ranks derived from them, and why it ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    pub scores: Vec<i64>,
    /// 1 for the best; equal scores share a rank.
    pub ranks: Vec<usize>,
    pub reason: String,
}

impl Outcome {
    /// Ranks from scores: 1 + the number of seats with a strictly higher score.
    pub fn from_scores(scores: Vec<i64>, reason: impl Into<String>) -> Self {
        let ranks = scores
            .iter()
            .map(|s| 1 + scores.iter().filter(|o| *o > s).count())
            .collect();
        Outcome {
            scores,
            ranks,
            reason: reason.into(),
        }
    }

    /// The seat ranked first alone, if there is one.
    pub fn winner(&self) -> Option<usize> {
        let firsts: Vec<usize> = (0..self.ranks.len())
            .filter(|&s| self.ranks[s] == 1)
            .collect();
        (firsts.len() == 1).then(|| firsts[0])
    }
}

/// A copy of a match in progress, for a look ahead that must not touch it (a bot catching up
/// on the turns of a match it takes over answers a copy: `Referee::game_copy`). Every game is
/// `Clone`; this gives the copy behind `dyn Game`.
pub trait GameCopy {
    fn copy(&self) -> Box<dyn Game>;
}

impl<T: Game + Clone + 'static> GameCopy for T {
    fn copy(&self) -> Box<dyn Game> {
        Box::new(self.clone())
    }
}

/// The facts about a game behind `dyn Game`. A game states them once, in its typed layer
/// ([`crate::Rules::INFO`], which gives them here); a game without one (a test's) implements
/// this itself.
pub trait GameFacts {
    /// The facts about this game.
    fn info(&self) -> &'static GameInfo;
}

/// The object-safe text layer of a game; one value is one match in progress.
pub trait Game: GameCopy + GameFacts {
    /// The game's own turn counter (shown to people, recorded in faults).
    fn turn(&self) -> u32;

    /// The seats that must answer now, in order; empty when the match is over.
    fn to_move(&self) -> Vec<usize>;

    /// The text a seat is sent at the start of its turn: complete lines, each ending in `\n`.
    fn input(&self, seat: usize) -> String;

    /// One line the seat wrote (without its line ending).
    fn hear(&mut self, seat: usize, line: &str) -> LineOutcome;

    /// The referee reports a fault the game did not see itself (timeout, crash, flood); the
    /// game applies its own policy (in most games the seat loses).
    fn fault(&mut self, seat: usize, kind: FaultKind);

    /// Resolve the turn: every seat of [`Game::to_move`] is complete or faulted.
    fn step(&mut self);

    /// The outcome, once the match is over.
    fn outcome(&self) -> Option<Outcome>;

    /// The picture of the match now, with the events of the last step.
    fn frame(&self) -> Frame;

    /// From now on nobody reads the replies of [`Game::hear`] (a re-run that only draws the
    /// match): a game whose replies cost much to write may leave them empty. Nothing else may
    /// change: the same state, frames and outcome.
    fn replies_unread(&mut self) {}

    /// Text for seats that are not being asked anything: broadcasts such as Skyport's game
    /// state sent to every player. Drained by the referee after each line and step; drivers
    /// deliver it at once (untimed). Most games have none.
    fn take_notices(&mut self) -> Vec<(usize, String)> {
        Vec::new()
    }
}

/// How to build a game: one entry per game in the registry.
#[derive(Clone, Copy)]
pub struct GameEntry {
    pub info: &'static GameInfo,
    pub new: fn(&Setup) -> Result<Box<dyn Game>, SetupError>,
}

impl fmt::Debug for GameEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameEntry")
            .field("id", &self.info.id)
            .finish()
    }
}
