//! Built-in bots. They see only protocol text, exactly as a program on stdin/stdout would:
//! the referee's text goes in, the lines to write come out. No bot gets the game state.
//!
//! Bots may use the `games` crate's pure types and helpers (positions, directions, weapons,
//! distances, the path search) on what they have read, so that a rule is written once; they
//! never build or hold a game.

pub mod crafting_quest;
pub mod ice_and_fire;
mod lines;
pub mod local;
pub mod micro_rts;
pub mod skyport;
pub mod soak_overflow;

/// A bot that speaks a game's text protocol.
pub trait Bot {
    /// Reads the text the referee sent (complete lines) and returns the lines to write,
    /// without line endings. Returning nothing means "waiting for more input".
    fn read(&mut self, input: &str) -> Vec<String>;
}

/// The `wait` bot of the games where the one line `WAIT` is a whole turn (Ice and Fire,
/// microRTS): it does nothing, answering `WAIT` to every turn.
#[derive(Clone, Copy, Debug, Default)]
pub struct Wait;

impl Bot for Wait {
    fn read(&mut self, _input: &str) -> Vec<String> {
        vec!["WAIT".to_string()]
    }
}

/// The `random` bot of a game whose turns are read into a board (Ice and Fire, microRTS, Soak
/// Overflow): it feeds the referee's text to the game's reader and answers every whole turn with
/// the game's random play, drawing from a `java.util.Random` seeded with the bot's seed.
pub struct Seeded<R, B> {
    reader: R,
    rng: engine::JavaRandom,
    /// The board to play on once a whole turn has arrived, else the reply to give without
    /// playing.
    read_board: fn(&mut R, &str) -> Result<B, Vec<String>>,
    /// The lines of one turn on a board, each choice drawn from the generator.
    play: fn(&mut engine::JavaRandom, B) -> Vec<String>,
}

impl<R: Default, B> Seeded<R, B> {
    fn with(
        seed: i64,
        read_board: fn(&mut R, &str) -> Result<B, Vec<String>>,
        play: fn(&mut engine::JavaRandom, B) -> Vec<String>,
    ) -> Self {
        Seeded {
            reader: R::default(),
            rng: engine::JavaRandom::new(seed),
            read_board,
            play,
        }
    }
}

impl<R, B> Bot for Seeded<R, B> {
    fn read(&mut self, input: &str) -> Vec<String> {
        match (self.read_board)(&mut self.reader, input) {
            Ok(board) => (self.play)(&mut self.rng, board),
            Err(reply) => reply,
        }
    }
}

/// One of `items`, drawn with one `next_int_bounded(len)` of the bot's `java.util.Random`
/// (`None`, and no draw, when there are none): how the random bots choose.
fn pick<T: Copy>(rng: &mut engine::JavaRandom, items: &[T]) -> Option<T> {
    (!items.is_empty()).then(|| items[rng.next_int_bounded(items.len() as i32) as usize])
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
        game: "micro-rts",
        name: "wait",
        summary: "does nothing: answers WAIT every turn",
        make: |_| Box::new(micro_rts::Wait),
    },
    BuiltinInfo {
        game: "micro-rts",
        name: "random",
        summary: "gives random legal orders: moves, attacks, harvests, builds, trainings (seeded)",
        make: |seed| Box::new(micro_rts::Random::new(seed)),
    },
    BuiltinInfo {
        game: "micro-rts",
        name: "rush",
        summary: "workers harvest, one barracks, heavy and light units attack the nearest enemy",
        make: |seed| Box::new(micro_rts::Rush::new(seed)),
    },
    BuiltinInfo {
        game: "soak-overflow",
        name: "wait",
        summary: "does nothing: answers WAIT (hunker down) for every agent",
        make: |_| Box::new(soak_overflow::Wait::new()),
    },
    BuiltinInfo {
        game: "soak-overflow",
        name: "random",
        summary: "random legal steps, shots, bombs and hunkering (seeded)",
        make: |seed| Box::new(soak_overflow::Random::new(seed)),
    },
    BuiltinInfo {
        game: "soak-overflow",
        name: "boss",
        summary: "the scripted opponent of the tutorial leagues 2–4, their default opponent (in \
                  the full game it only hunkers down)",
        make: |seed| Box::new(soak_overflow::Boss::new(seed)),
    },
    BuiltinInfo {
        game: "soak-overflow",
        name: "soaker",
        summary: "takes cover, shoots the best target, bombs clusters, contests territory",
        make: |seed| Box::new(soak_overflow::Soaker::new(seed)),
    },
    BuiltinInfo {
        game: "skyport",
        name: "wait",
        summary: "connects, takes the laser and the mortar, then ends every turn at once",
        make: |_| Box::new(skyport::Wait::new()),
    },
    BuiltinInfo {
        game: "skyport",
        name: "random",
        summary: "random weapons, then one to three random steps, mining, upgrades or shots a turn (seeded)",
        make: |seed| Box::new(skyport::Random::new(seed)),
    },
    BuiltinInfo {
        game: "skyport",
        name: "gunner",
        summary: "picks weapons for the map, mines, upgrades, keeps its range and shoots what it can hit",
        make: |seed| Box::new(skyport::Gunner::new(seed)),
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

/// The opponent a game's ruleset is played against by default: the scripted boss of a tutorial
/// league that has one (Soak Overflow's leagues 1–4: league 1 never asks its opponent), else the
/// game's strongest built-in bot.
pub fn default_opponent(game: &str, ruleset: &str) -> Option<&'static BuiltinInfo> {
    let boss = game == "soak-overflow"
        && matches!(ruleset, "league-1" | "league-2" | "league-3" | "league-4");
    if boss {
        builtins(game).find(|b| b.name == "boss")
    } else {
        builtins(game).last()
    }
}

/// The seed of a seat's built-in bot in a match: the same in the CLI, the page and tests, so a
/// match between built-in bots is the same everywhere.
pub fn bot_seed(match_seed: i64, seat: usize) -> i64 {
    match_seed ^ seat as i64
}

/// A new built-in bot, seeded (only random bots use the seed).
pub fn builtin(game: &str, name: &str, seed: i64) -> Option<Box<dyn Bot>> {
    builtins(game)
        .find(|b| b.name == name)
        .map(|b| (b.make)(seed))
}
