//! Built-in bots. They see only protocol text, exactly as a program on stdin/stdout would:
//! the referee's text goes in, the lines to write come out. No bot gets the game state.

pub mod crafting_quest;
pub mod ice_and_fire;
pub mod local;

/// A bot that speaks a game's text protocol.
pub trait Bot {
    /// Reads the text the referee sent (complete lines) and returns the lines to write,
    /// without line endings. Returning nothing means "waiting for more input".
    fn read(&mut self, input: &str) -> Vec<String>;
}

/// A built-in bot of a game, as pickers and the CLI list them.
#[derive(Clone, Copy)]
pub struct BuiltinInfo {
    pub game: &'static str,
    pub name: &'static str,
    /// One line for people: how it plays and how strong it is.
    pub summary: &'static str,
    make: fn(i64) -> Box<dyn Bot>,
}

/// Every built-in bot, strongest last within each game.
pub static BUILTINS: &[BuiltinInfo] = &[
    BuiltinInfo {
        game: "ice-and-fire",
        name: "wait",
        summary: "does nothing: answers WAIT every turn",
        make: |_| Box::new(ice_and_fire::Wait),
    },
    BuiltinInfo {
        game: "ice-and-fire",
        name: "random",
        summary: "plays random legal moves, trains and builds (seeded)",
        make: |seed| Box::new(ice_and_fire::Random::new(seed)),
    },
    BuiltinInfo {
        game: "ice-and-fire",
        name: "expander",
        summary: "expands towards the enemy, trains by income, builds mines, defends its HQ",
        make: |seed| Box::new(ice_and_fire::Expander::new(seed)),
    },
    BuiltinInfo {
        game: "crafting-quest",
        name: "wait",
        summary: "does nothing: ends every turn at once",
        make: |_| Box::new(crafting_quest::Wait),
    },
    BuiltinInfo {
        game: "crafting-quest",
        name: "random",
        summary: "writes a batch of random requests every turn (seeded)",
        make: |seed| Box::new(crafting_quest::Random::new(seed)),
    },
    BuiltinInfo {
        game: "crafting-quest",
        name: "crafter",
        summary: "explores, digs and gathers, crafts and equips swords, kills what it can finish",
        make: |seed| Box::new(crafting_quest::Crafter::new(seed)),
    },
];

/// The built-in bots of a game.
pub fn builtins(game: &str) -> impl Iterator<Item = &'static BuiltinInfo> + '_ {
    BUILTINS.iter().filter(move |b| b.game == game)
}

/// A new built-in bot, seeded (only random bots use the seed).
pub fn builtin(game: &str, name: &str, seed: i64) -> Option<Box<dyn Bot>> {
    builtins(game)
        .find(|b| b.name == name)
        .map(|b| (b.make)(seed))
}
