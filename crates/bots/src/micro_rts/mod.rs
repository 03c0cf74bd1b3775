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

use crate::lines::whole_turn;
pub use crate::Wait;
use board::Board;
use protocol::Reader;

/// Feeds text to a reader: the board to play on once a whole turn has arrived, else the reply
/// to give without playing ([`whole_turn`]).
fn read_board(reader: &mut Reader, input: &str) -> Result<Board, Vec<String>> {
    let turn = whole_turn(reader.feed(input))?;
    Ok(Board::new(&reader.init(), &turn))
}
