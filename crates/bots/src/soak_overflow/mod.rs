//! Built-in bots for Soak Overflow (the `games` crate's `soak_overflow` module rulebook).
//!
//! Like every built-in bot they see only the protocol text: [`protocol`] reads the referee's
//! input and writes well-formed lines, and [`board`] is the bots' own model of a turn.
//!
//! - [`Wait`] answers `WAIT` (which hunkers down) for every agent.
//! - [`Random`] plays random legal moves, shots, bombs and hunkering (seeded).
//! - [`Soaker`] takes cover, shoots the best target, bombs clusters and contests territory.
//! - [`Boss`] is the scripted opponent of the tutorial leagues 2–4 (their default opponent).

pub mod board;
pub mod protocol;

mod boss;
mod random;
mod soaker;

pub use boss::Boss;
pub use random::Random;
pub use soaker::Soaker;

use crate::lines::whole_turn;
use crate::Bot;
use board::Board;
use protocol::Reader;

/// Feeds text to a reader: the board to play on once a whole turn has arrived, else the reply
/// to give without playing ([`whole_turn`]; one `WAIT` too for a turn without its init).
fn read_board(reader: &mut Reader, input: &str) -> Result<Board, Vec<String>> {
    let turn = whole_turn(reader.feed(input))?;
    match reader.init() {
        Some(init) => Ok(Board::new(init, &turn)),
        None => Err(vec!["WAIT".to_string()]),
    }
}

/// Hunkers every agent down, every turn: one `WAIT` line per own agent.
#[derive(Clone, Debug, Default)]
pub struct Wait {
    reader: Reader,
}

impl Wait {
    pub fn new() -> Self {
        Wait::default()
    }
}

impl Bot for Wait {
    fn read(&mut self, input: &str) -> Vec<String> {
        match whole_turn(self.reader.feed(input)) {
            Ok(turn) => vec!["WAIT".to_string(); turn.my_agent_count.max(1)],
            Err(reply) => reply,
        }
    }
}
