//! Built-in bots for A Code of Ice and Fire (the rules are in the `games` crate's
//! `ice_and_fire` module rulebook).
//!
//! Like every built-in bot they see only the protocol text: [`protocol`] reads the referee's
//! input and writes well-formed commands, and [`board`] is the bots' own model of the board,
//! which they update as they plan so that their commands are legal when the referee runs them.
//!
//! - [`Wait`] answers `WAIT` every turn.
//! - [`Random`] plays random legal moves, trainings and buildings (seeded).
//! - [`Expander`] expands towards the enemy, trains by income, builds mines and goes for the HQ.

pub mod board;
pub mod protocol;

mod expander;
mod random;

pub use expander::Expander;
pub use random::Random;

use crate::Bot;
use board::Board;
use protocol::Reader;

/// Does nothing: answers `WAIT` to every turn.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wait;

impl Bot for Wait {
    fn read(&mut self, _input: &str) -> Vec<String> {
        vec!["WAIT".to_string()]
    }
}

/// Feeds text to a reader. Once a whole turn has arrived, returns the board to play on;
/// otherwise the reply to give without playing: nothing while the turn is incomplete, `WAIT` for
/// unreadable input (a bot must never write a malformed command).
fn read_board(reader: &mut Reader, input: &str) -> Result<Board, Vec<String>> {
    match reader.feed(input) {
        None => Err(Vec::new()),
        Some(Err(_)) => Err(vec!["WAIT".to_string()]),
        Some(Ok(turn)) => Ok(Board::new(reader.spots(), &turn, board::CAPTURE_LEVEL)),
    }
}
