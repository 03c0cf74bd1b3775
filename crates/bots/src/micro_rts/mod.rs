//! Built-in bots for microRTS (the rules are in the `games` crate's
//! `micro_rts` module rulebook).
//!
//! Like every built-in bot they see only the protocol text: [`protocol`] reads the referee's
//! input and writes well-formed orders, and [`board`] is the bots' model of the arena, on which
//! they claim the tiles their orders target so that their own orders never collide.
//!
//! - [`Wait`] answers `WAIT` every turn.
//! - [`Random`] gives random legal orders (seeded).
//! - [`Rush`] trains workers that harvest, builds a barracks, and sends heavy and light units
//!   at the nearest enemy.

pub mod board;
pub mod protocol;

mod random;
mod rush;

pub use random::Random;
pub use rush::Rush;

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
/// unreadable input (a bot must never write a malformed order).
fn read_board(reader: &mut Reader, input: &str) -> Result<Board, Vec<String>> {
    match reader.feed(input) {
        None => Err(Vec::new()),
        Some(Err(_)) => Err(vec!["WAIT".to_string()]),
        Some(Ok(turn)) => Ok(Board::new(&reader.init(), &turn)),
    }
}
