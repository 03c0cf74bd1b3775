//! Replays: a match's setup plus every line each bot wrote, turn by turn.
//!
//! Re-running the game on a replay reproduces every frame exactly, so a viewer needs no bot to
//! show a match. Replays are JSON with a format number; a replay of another game version is
//! refused, never replayed into a different result.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::game::{Fault, GameEntry, GameInfo, SetupError};
use crate::referee::{Ask, Referee, Verdict};

/// The replay format this build writes and reads.
pub const REPLAY_FORMAT: u32 = 1;

/// One seat's part of one turn.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatTurn {
    pub seat: usize,
    /// The game's turn counter when the seat was asked.
    pub turn: u32,
    /// What the seat was sent (re-derived on re-run, so not stored in replay files).
    #[serde(skip)]
    pub input: String,
    /// Every line the seat wrote in this turn, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<String>,
    /// The game's immediate answers to those lines (re-derived on re-run).
    #[serde(skip)]
    pub replies: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fault: Option<Fault>,
    /// Time from the delivery of the input to the last line, in milliseconds.
    #[serde(default, serialize_with = "round_ms")]
    pub time_ms: f64,
    /// What the seat wrote to its debug log in this turn.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub stderr: String,
}

fn round_ms<S: serde::Serializer>(ms: &f64, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64((ms * 100.0).round() / 100.0)
}

impl SeatTurn {
    pub fn new(seat: usize, turn: u32, input: String) -> Self {
        SeatTurn {
            seat,
            turn,
            input,
            lines: Vec::new(),
            replies: Vec::new(),
            fault: None,
            time_ms: 0.0,
            stderr: String::new(),
        }
    }
}

/// One turn of the referee: every seat that was asked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurnRecord {
    pub seats: Vec<SeatTurn>,
}

/// A whole match, re-runnable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Replay {
    pub format: u32,
    pub game_version: u32,
    pub setup: crate::game::Setup,
    /// The bots' names, one per seat.
    pub bots: Vec<String>,
    /// Whether the time budgets were relaxed (multiplied by 10).
    #[serde(default)]
    pub relaxed: bool,
    pub turns: Vec<TurnRecord>,
    /// For a match that took over another from one of its turns: which match and where.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<Origin>,
}

/// Where a taken-over match came from: its first `turns` records are the original's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Origin {
    /// The original replay's [`Replay::digest`].
    pub replay: String,
    /// How many of the original's turn records were re-run before the new bots played.
    pub turns: usize,
    /// The game's own turn number at that point, as the viewer shows it.
    pub turn: u32,
}

/// Why a replay cannot be shown.
#[derive(Clone, Debug, PartialEq)]
pub enum ReplayError {
    /// Not a replay, or a damaged one.
    Damaged(String),
    /// Written by a newer botplay.
    NewerFormat {
        found: u32,
        supported: u32,
    },
    UnknownGame(String),
    /// Recorded under other rules of the game.
    GameVersion {
        game: String,
        recorded: u32,
        current: u32,
    },
    Setup(SetupError),
    /// The recorded lines do not lead to the recorded turns.
    Diverged {
        turn: usize,
        why: String,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Damaged(why) => write!(f, "this is not a readable replay: {why}"),
            ReplayError::NewerFormat { found, supported } => write!(
                f,
                "this replay has format {found}, newer than this botplay reads ({supported}); update botplay"
            ),
            ReplayError::UnknownGame(id) => write!(f, "this replay is of an unknown game '{id}'"),
            ReplayError::GameVersion {
                game,
                recorded,
                current,
            } => write!(
                f,
                "this replay was recorded with version {recorded} of the {game} rules, but this botplay has version {current}; it cannot be replayed faithfully"
            ),
            ReplayError::Setup(e) => write!(f, "this replay's setup is invalid: {e}"),
            ReplayError::Diverged { turn, why } => {
                write!(f, "this replay is damaged: at turn record {turn}, {why}")
            }
        }
    }
}

impl std::error::Error for ReplayError {}

impl Replay {
    pub fn new(
        info: &GameInfo,
        setup: crate::game::Setup,
        bots: Vec<String>,
        relaxed: bool,
        turns: Vec<TurnRecord>,
    ) -> Self {
        Replay {
            format: REPLAY_FORMAT,
            game_version: info.version,
            setup,
            bots,
            relaxed,
            turns,
            from: None,
        }
    }

    /// A short fingerprint of the replay (64-bit FNV-1a of its JSON, in hex), naming it in a
    /// match that takes over from it.
    pub fn digest(&self) -> String {
        format!("{:016x}", crate::fnv1a(self.to_json().as_bytes()))
    }

    /// The index of the first turn record in which the game's own turn counter reads `turn`
    /// (what the viewer shows), if the match reached it.
    pub fn record_of_turn(&self, turn: u32) -> Option<usize> {
        self.turns
            .iter()
            .position(|t| t.seats.iter().any(|s| s.turn == turn))
    }

    /// The replay as JSON text.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads a replay, checking its format number first so that a newer file gets a clear message.
    pub fn from_json(text: &str) -> Result<Replay, ReplayError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ReplayError::Damaged(format!("not JSON ({e})")))?;
        let format = value
            .get("format")
            .and_then(|f| f.as_u64())
            .ok_or_else(|| ReplayError::Damaged("no format number".into()))?;
        if format > u64::from(REPLAY_FORMAT) {
            return Err(ReplayError::NewerFormat {
                found: format.min(u64::from(u32::MAX)) as u32,
                supported: REPLAY_FORMAT,
            });
        }
        let replay: Replay =
            serde_json::from_value(value).map_err(|e| ReplayError::Damaged(e.to_string()))?;
        replay.check_names(&replay.bots)?;
        Ok(replay)
    }

    /// A name per seat, or why not.
    fn check_names(&self, names: &[String]) -> Result<(), ReplayError> {
        if names.len() != self.setup.seats {
            return Err(ReplayError::Damaged(format!(
                "{} bot names for {} seats",
                names.len(),
                self.setup.seats
            )));
        }
        Ok(())
    }

    /// Re-runs the match from the recorded lines; the result has every frame of the original.
    pub fn rerun(&self, entry: &GameEntry) -> Result<Referee, ReplayError> {
        self.rerun_with(entry, |referee| referee)
    }

    /// [`Replay::rerun`] for its frames alone: the game may leave its replies to the bots
    /// unwritten ([`Referee::without_replies`]), so the turn records it gives do not hold them.
    /// The page draws a match it played this way, from the turns the match worker sent.
    pub fn rerun_for_frames(&self, entry: &GameEntry) -> Result<Referee, ReplayError> {
        self.rerun_with(entry, Referee::without_replies)
    }

    /// [`Replay::rerun`] with a referee that keeps no frames (the same turns, faults and
    /// outcome): checking a replay, measuring the rules.
    pub fn rerun_without_frames(&self, entry: &GameEntry) -> Result<Referee, ReplayError> {
        self.rerun_with(entry, Referee::without_frames)
    }

    /// Re-runs the match on the referee `made` makes of the replay's own.
    fn rerun_with(
        &self,
        entry: &GameEntry,
        made: impl FnOnce(Referee) -> Referee,
    ) -> Result<Referee, ReplayError> {
        let mut referee = made(self.start(entry, self.bots.clone(), self.relaxed)?);
        for index in 0..self.turns.len() {
            let asks = referee.begin_turn();
            self.feed_turn(&mut referee, index, &asks)?;
        }
        Ok(referee)
    }

    /// A referee for this replay's setup with these bot names, budgets not checked (the
    /// recorded faults are replayed): [`Replay::feed_turn`] then plays the recorded turns.
    pub fn start(
        &self,
        entry: &GameEntry,
        names: Vec<String>,
        relaxed: bool,
    ) -> Result<Referee, ReplayError> {
        if entry.info.id != self.setup.game {
            return Err(ReplayError::UnknownGame(self.setup.game.clone()));
        }
        if entry.info.version != self.game_version {
            return Err(ReplayError::GameVersion {
                game: entry.info.name.to_string(),
                recorded: self.game_version,
                current: entry.info.version,
            });
        }
        // A replay read from a link rather than a file comes here unchecked.
        self.check_names(&names)?;
        let game = (entry.new)(&self.setup).map_err(ReplayError::Setup)?;
        Ok(Referee::new(game, self.setup.clone(), names, relaxed).without_time_checks())
    }

    /// Plays the recorded turn `index` on a referee that has just begun it (`asks`, from
    /// [`Referee::begin_turn`]): every asked seat's lines, fault and debug log.
    pub fn feed_turn(
        &self,
        referee: &mut Referee,
        index: usize,
        asks: &[Ask],
    ) -> Result<(), ReplayError> {
        let diverged = |why: String| ReplayError::Diverged { turn: index, why };
        let turn = self
            .turns
            .get(index)
            .ok_or_else(|| diverged("the replay has no such turn".into()))?;
        // Compared without lists (a re-run feeds every turn through here); written out only
        // for the error.
        let same = asks
            .iter()
            .map(|a| a.seat)
            .eq(turn.seats.iter().map(|s| s.seat));
        if !same {
            let asked: Vec<usize> = asks.iter().map(|a| a.seat).collect();
            let recorded: Vec<usize> = turn.seats.iter().map(|s| s.seat).collect();
            return Err(diverged(format!(
                "the referee asks seats {asked:?} but the replay has {recorded:?}"
            )));
        }
        for st in &turn.seats {
            replay_seat(referee, st).map_err(diverged)?;
        }
        Ok(())
    }
}

/// Feeds one seat's recorded lines and fault back through the referee.
fn replay_seat(referee: &mut Referee, st: &SeatTurn) -> Result<(), String> {
    let seat = st.seat;
    if st.seat >= referee.setup().seats {
        return Err(format!("seat {} does not exist", st.seat + 1));
    }
    let mut heard_fault = None;
    for (i, line) in st.lines.iter().enumerate() {
        let last = i + 1 == st.lines.len();
        match referee.line(seat, line, st.time_ms) {
            Verdict::Reply(_) | Verdict::More => {}
            Verdict::Done if last => {}
            Verdict::Fault(f) if last => heard_fault = Some(f),
            Verdict::Done | Verdict::Fault(_) => {
                return Err(format!(
                    "seat {}'s turn ended before its last line",
                    seat + 1
                ))
            }
            Verdict::NotAsked => return Err(format!("seat {} was not asked", seat + 1)),
        }
    }
    match (&heard_fault, &st.fault) {
        (Some(heard), Some(recorded)) if heard == recorded => {}
        (Some(heard), _) => {
            return Err(format!(
                "seat {}'s line now gives a fault that was not recorded: {}",
                seat + 1,
                heard.text
            ))
        }
        (None, _) if referee.waiting_for().contains(&seat) => {
            let fault = st.fault.as_ref().ok_or_else(|| {
                format!("seat {}'s turn is incomplete and has no fault", seat + 1)
            })?;
            referee.fail(seat, fault.kind, fault.text.clone(), st.time_ms);
        }
        (None, Some(recorded)) => {
            return Err(format!(
                "seat {}'s recorded fault did not happen: {}",
                seat + 1,
                recorded.text
            ))
        }
        (None, None) => {}
    }
    if !st.stderr.is_empty() {
        referee.restore_stderr(seat, &st.stderr);
    }
    Ok(())
}
