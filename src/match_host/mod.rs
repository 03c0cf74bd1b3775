//! A match played away from the page: the referee and every bot of one match run in a *match
//! host*, a sandboxed frame that Chromium gives a process of its own (or, where the browser cannot
//! isolate it, the page itself), so that no bot can crash or freeze the page.
//!
//! ```text
//!  page (src/runner.rs)            match host (www/match-host.js, in the frame)
//!   Runner ── start/stop/human ──>  supervisor ── spawns ──> match worker (src/match_worker.rs)
//!          <── news, heartbeat ───    │  control ring ──────>   driver: Referee + built-in bots
//!                                     └─ spawns ──> bot workers (www/js-bot-worker.js)
//!                                                    <── input rings / output rings ──>
//! ```
//!
//! The match worker drives the match on its own thread with blocking waits on shared memory
//! ([`rings`]): it writes each bot's input into its input ring and sleeps on one doorbell until a
//! bot or the supervisor writes a record (a line, debug log, an end, a command) or a deadline
//! comes. Built-in bots are our own code and run in the match worker itself, as in the CLI. The
//! page hears [`HostNews`] in batches at most every [`NEWS_EVERY_MS`], and draws.
//!
//! Where the browser gives no `SharedArrayBuffer` (WebKitGTK as shipped; a page that is not
//! cross-origin isolated), the same driver runs on messages instead ([`mailbox`]): the match
//! worker steps the driver after each message and at each deadline, built-in bots play as
//! before, and a bot in a worker gets its input from the page's service worker, through a
//! synchronous request that its `readline()` blocks on.

pub mod rings;

pub mod mailbox;

pub mod driver;

use engine::{Fault, Frame, Origin, Outcome, Replay, Setup, TurnRecord};
use serde::{Deserialize, Serialize};

/// How often the page hears about a running match, at most.
pub const NEWS_EVERY_MS: f64 = 50.0;

/// The most pictures the page may ask for at once.
pub const MAX_PICTURES: usize = 32;

/// Who plays a seat, as the match worker needs to know it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Player {
    /// A program in a worker of its own (JavaScript, TypeScript or Python), with an input and an
    /// output ring.
    Code,
    /// A built-in bot, by name, run in the match worker.
    Builtin { name: String },
    /// A person in the page.
    Human,
}

/// What the match worker is asked to play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HostStart {
    pub setup: Setup,
    pub names: Vec<String>,
    pub players: Vec<Player>,
    pub relaxed: bool,
    /// A recorded match taken over from one of its turns: its earlier turns are re-run first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<TakeOver>,
}

/// A recorded match to take over: its first `turns` turn records are re-run as recorded while
/// each bot reads, untimed, what its seat was sent then (its answers go to a copy of the game
/// and are dropped); from there on the bots play for real.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TakeOver {
    pub replay: Replay,
    pub turns: usize,
}

impl TakeOver {
    /// Where the new match comes from, as its replay records it: the game's turn counter is the
    /// one the CLI's `play --from REPLAY --turn N` takes (that of the first turn re-played).
    pub fn origin(&self) -> Origin {
        let turn = match self.replay.turns.get(self.turns) {
            Some(record) => record.seats.iter().map(|s| s.turn).min().unwrap_or(0),
            None => self
                .replay
                .turns
                .last()
                .and_then(|t| t.seats.iter().map(|s| s.turn + 1).max())
                .unwrap_or(0),
        };
        Origin {
            replay: self.replay.digest(),
            turns: self.turns,
            turn,
        }
    }
}

/// What the page hears from a match host.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum HostNews {
    /// A bot's language runtime is loading (Python).
    Loading { seat: usize, text: String },
    /// Every bot is ready; the first turn is being played.
    Started,
    /// Frames and turn records completed since the last news, in order. Only the newest frame
    /// comes with its picture (it is the one a page following the match shows); the others come
    /// with their numbers only ([`engine::Frame::numbers_only`]), and the page asks for the
    /// pictures it shows ([`HostNews::Pictures`]).
    Progress {
        frames: Vec<Frame>,
        turns: Vec<WireTurn>,
    },
    /// The pictures the page asked for: frames `first..first + frames.len()`, written out.
    Pictures { first: usize, frames: Vec<Frame> },
    /// A seat played by hand is asked: the input it received.
    Human { seat: usize, input: String },
    /// The match is over (or was stopped).
    Finished {
        outcome: Option<Outcome>,
        faults: Vec<Fault>,
        stopped: bool,
        timings: Timings,
    },
    /// The match could not be played.
    Failed { why: String },
}

/// A turn record as it travels to the page. A record's JSON leaves out what a re-run derives
/// (what each seat was sent, and the game's immediate replies), which the page shows: they
/// travel beside it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WireTurn {
    pub record: TurnRecord,
    pub inputs: Vec<String>,
    pub replies: Vec<Vec<String>>,
}

impl From<&TurnRecord> for WireTurn {
    fn from(record: &TurnRecord) -> WireTurn {
        WireTurn {
            record: record.clone(),
            inputs: record.seats.iter().map(|s| s.input.clone()).collect(),
            replies: record.seats.iter().map(|s| s.replies.clone()).collect(),
        }
    }
}

impl From<WireTurn> for TurnRecord {
    fn from(wire: WireTurn) -> TurnRecord {
        let mut record = wire.record;
        for ((seat, input), replies) in record.seats.iter_mut().zip(wire.inputs).zip(wire.replies) {
            seat.input = input;
            seat.replies = replies;
        }
        record
    }
}

/// Where a match's time went in the match worker, for the measure harness (`?measure`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// When every bot was ready and the first turn began (the shared clock, ms).
    pub started_at: Option<f64>,
    /// When the match ended (or was stopped).
    pub finished_at: Option<f64>,
    /// One per turn, in order.
    pub turns: Vec<TurnTiming>,
}

/// One turn, from the referee beginning it to the referee beginning the next one (or ending the
/// match).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TurnTiming {
    pub wall_ms: f64,
    /// The bots' computing time in this turn, when every bot asked was a built-in bot (timed in
    /// the match worker); seats asked together are timed one after the other, so this is their
    /// sum. `None` when a bot in a worker of its own was asked.
    pub bots_ms: Option<f64>,
    /// The match worker's own work in this turn: the referee and the driver.
    pub host_ms: f64,
}

impl TurnTiming {
    /// The time spent outside the bots, when the bots' time is known.
    pub fn outside_ms(&self) -> Option<f64> {
        self.bots_ms.map(|bots| self.wall_ms - bots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the page shows of a turn survives the trip from the match worker.
    #[test]
    fn a_turn_keeps_its_inputs_and_replies_on_the_wire() {
        let setup = Setup::new(games::GAMES[0].info, 7);
        let mut referee = engine::Referee::new(
            games::new_game(&setup).expect("a game"),
            setup,
            vec!["a".into(), "b".into()],
            false,
        );
        let asks = referee.begin_turn();
        let seat = asks[0].seat;
        referee.line(seat, "WAIT", 1.0);
        let record = referee.turns()[0].clone();
        let news = HostNews::Progress {
            frames: Vec::new(),
            turns: vec![WireTurn::from(&record)],
        };
        let json = serde_json::to_string(&news).expect("JSON");
        let Ok(HostNews::Progress { turns, .. }) = serde_json::from_str(&json) else {
            panic!("not progress: {json}");
        };
        let back = TurnRecord::from(turns[0].clone());
        assert_eq!(back, record);
        assert!(!back.seats[0].input.is_empty());
    }
}
