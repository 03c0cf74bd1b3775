//! botplay's engine: the game interface, the referee, replays and deterministic RNGs.
//!
//! This crate is pure: no IO, no clock, no global RNG, no web crates. It compiles unchanged for
//! native targets and for `wasm32-unknown-unknown`.
//!
//! ```
//! use engine::{Referee, Verdict};
//! # fn play(entry: &engine::GameEntry, setup: engine::Setup) {
//! let game = (entry.new)(&setup).expect("a valid setup");
//! let mut referee = Referee::new(game, setup, vec!["a".into(), "b".into()], false);
//! while !referee.is_over() {
//!     for ask in referee.begin_turn() {
//!         // deliver ask.input to the bot of ask.seat, then hand each line it writes back:
//!         let _ = referee.line(ask.seat, "WAIT", 1.0);
//!     }
//! }
//! # }
//! ```

pub mod fnv;
pub mod frame;
pub mod game;
pub mod int_text;
pub mod referee;
pub mod replay;
pub mod rng;
pub mod rules;
pub mod sha1prng;
pub mod share;
pub mod stats;

#[cfg(feature = "testing")]
pub mod conformance;

pub use fnv::fnv1a;
pub use frame::{Frame, Scene, SeatsOut, Stat};
pub use game::{
    Fault, FaultKind, Game, GameCopy, GameEntry, GameFacts, GameInfo, LineOutcome, Outcome,
    Ruleset, Setup, SetupError, TurnOrder,
};
pub use referee::{Ask, AtDeadline, Referee, Verdict};
pub use replay::{Origin, Replay, ReplayError, SeatTurn, TurnRecord, REPLAY_FORMAT};
pub use rng::JavaRandom;
pub use rules::Rules;
pub use sha1prng::Sha1Prng;
pub use share::{Lesson, ShareDoc, ShareError, SharedBot};
