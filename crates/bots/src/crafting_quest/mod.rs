//! Built-in bots for Crafting Quest 3 (the rules and the protocol are in the `games` crate's
//! `crafting_quest` module rulebook).
//!
//! Like every built-in bot they see only the protocol text: [`protocol`] reads the referee's
//! JSON lines and writes well-formed requests, and [`memory`] is a bot's memory of the map.
//!
//! - [`Wait`] ends every turn at once.
//! - [`Random`] writes a batch of random requests every turn (seeded).
//! - [`Crafter`] explores, digs, gathers, crafts and equips swords, and kills enemies it can
//!   finish in one blow; one request at a time, reading each answer.

pub mod json;
pub mod memory;
pub mod protocol;

mod crafter;
mod random;

pub use crafter::Crafter;
pub use random::Random;

use crate::Bot;

/// Ends every turn at once: answers each turn with `{"type":"end"}`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wait;

impl Bot for Wait {
    fn read(&mut self, input: &str) -> Vec<String> {
        input
            .lines()
            .filter(|l| l.contains(r#""type":"turn""#))
            .map(|_| protocol::write::end())
            .collect()
    }
}
