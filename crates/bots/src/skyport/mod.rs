//! Built-in bots for Skyport (the `games` crate's `skyport` module rulebook).
//!
//! Like every built-in bot they see only the protocol text. [`Client`] speaks the conversation
//! (the handshake on the server's `info` line, the loadout on the turn-0 game state, a turn's
//! actions on a game state that puts this bot first) and asks a [`Strategy`] what to do.
//! Our server adds the receiver's resources to its own player object, so a bot knows its turn
//! by that even when two bots share a name.
//!
//! - [`Wait`] takes the laser and the mortar and ends every turn at once.
//! - [`Random`] plays random, mostly legal actions (seeded).
//! - [`Gunner`] chooses weapons for the map, mines, upgrades, keeps its range and shoots.

pub mod protocol;

mod gunner;
mod random;

pub use gunner::Gunner;
pub use random::Random;

use crate::Bot;
use protocol::{
    connect_line, loadout_line, turn_lines, Act, Board, Message, Ruleset, State, Weapon,
};

/// What a bot decides; [`Client`] does the talking.
pub trait Strategy {
    /// The name it connects with (3–16 characters of `a-z A-Z 0-9 - _ +`).
    fn name(&self) -> &str;
    /// Two different weapons, primary first.
    fn loadout(&mut self, board: &Board, players: usize, rules: Ruleset) -> (Weapon, Weapon);
    /// The actions of its turn (at most three; the client adds `endturn` after fewer).
    fn turn(&mut self, state: &State, rules: Ruleset) -> Vec<Act>;
}

/// A bot speaking the Skyport conversation for a strategy.
pub struct Client<S: Strategy> {
    strategy: S,
    rules: Ruleset,
}

impl<S: Strategy> Client<S> {
    pub fn with(strategy: S) -> Self {
        Client {
            strategy,
            rules: Ruleset::REV1,
        }
    }
}

impl<S: Strategy> Bot for Client<S> {
    fn read(&mut self, input: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in input.lines() {
            match Message::parse(line) {
                Some(Message::Info { ruleset }) => {
                    self.rules = Ruleset::by_id(&ruleset);
                    out.push(connect_line(self.strategy.name()));
                }
                Some(Message::Start { names, board }) => {
                    let (a, b) = self.strategy.loadout(&board, names.len(), self.rules);
                    out.push(loadout_line(a, b));
                }
                Some(Message::State(state)) if state.my_turn() => {
                    out.extend(turn_lines(&self.strategy.turn(&state, self.rules)));
                }
                _ => {}
            }
        }
        out
    }
}

/// Takes the laser and the mortar and ends every turn at once.
#[derive(Clone, Copy, Debug, Default)]
pub struct WaitStrategy;

impl Strategy for WaitStrategy {
    fn name(&self) -> &str {
        "wait"
    }

    fn loadout(&mut self, _: &Board, _: usize, _: Ruleset) -> (Weapon, Weapon) {
        (Weapon::Laser, Weapon::Mortar)
    }

    fn turn(&mut self, _: &State, _: Ruleset) -> Vec<Act> {
        Vec::new()
    }
}

/// The `wait` bot.
pub type Wait = Client<WaitStrategy>;

impl Wait {
    pub fn new() -> Wait {
        Client::with(WaitStrategy)
    }
}

impl Default for Wait {
    fn default() -> Self {
        Wait::new()
    }
}
