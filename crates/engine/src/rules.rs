//! The typed layer of a game, as the conformance suite and the random bots use it.

use std::fmt;

use crate::game::{Game, GameEntry, GameFacts, GameInfo, Setup, SetupError};
use crate::rng::JavaRandom;

/// A game's typed layer: its state type implements this beside the text layer [`Game`].
///
/// An action is one seat's whole answer for one turn (for Ice and Fire, the commands of its
/// line; for a conversational game, every request of the turn and the end-of-turn line).
pub trait Rules: Game + Clone + Sized + 'static {
    type Action: Clone + PartialEq + fmt::Debug;

    /// The facts about the game (what [`GameFacts::info`] gives behind `dyn Game`).
    const INFO: &'static GameInfo;

    /// Builds turn 0 of a match.
    fn create(setup: &Setup) -> Result<Self, SetupError>;

    /// A random action for the seat, legal in this state where the rules allow telling.
    fn random_action(&self, seat: usize, rng: &mut JavaRandom) -> Self::Action;

    /// The protocol lines a bot writes for this action.
    fn write_action(&self, seat: usize, action: &Self::Action) -> Vec<String>;

    /// Parses a seat's lines back into an action: the inverse of [`Rules::write_action`].
    fn parse_action(&self, seat: usize, lines: &[String]) -> Result<Self::Action, String>;

    /// Plays a seat's whole answer for the current turn from its typed form, with no protocol
    /// text written or read: the same as [`Game::hear`] on each line of
    /// [`Rules::write_action`] (the conformance suite checks it), without the replies. `Err` is
    /// a fault, already handled by the game's own policy as `hear` handles it. The rules alone
    /// run here, which is what the benchmarks' rules step measures.
    fn apply(&mut self, seat: usize, action: &Self::Action) -> Result<(), String>;
}

impl<R: Rules> GameFacts for R {
    fn info(&self) -> &'static GameInfo {
        R::INFO
    }
}

/// The one line of an action that a bot writes as one line (Ice and Fire's, microRTS's), for
/// [`Rules::parse_action`]; else an error that says how many lines there were.
pub fn one_line(lines: &[String]) -> Result<&str, String> {
    match lines {
        [line] => Ok(line),
        _ => Err(format!("one line expected, not {}", lines.len())),
    }
}

/// The constructor a registry entry needs, for any game with a typed layer.
pub fn boxed<R: Rules>(setup: &Setup) -> Result<Box<dyn Game>, SetupError> {
    Ok(Box::new(R::create(setup)?))
}

impl GameEntry {
    /// The registry entry of a game with a typed layer: its facts ([`Rules::INFO`]) and its
    /// constructor ([`boxed`]).
    pub const fn of<R: Rules>() -> GameEntry {
        GameEntry {
            info: R::INFO,
            new: boxed::<R>,
        }
    }
}
