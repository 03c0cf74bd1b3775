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

use crate::lines::whole_turn;
pub use crate::Wait;
use board::Board;
use protocol::Reader;

/// Feeds text to a reader: the board to play on once a whole turn has arrived, else the reply
/// to give without playing ([`whole_turn`]).
fn read_board(reader: &mut Reader, input: &str) -> Result<Board, Vec<String>> {
    let turn = whole_turn(reader.feed(input))?;
    Ok(Board::new(reader.spots(), &turn, board::CAPTURE_LEVEL))
}
