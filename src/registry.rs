//! The page's registry of games: for each game of `games::GAMES`, everything the page shows of
//! it — its painter, its seat names, its human-play seat (if a person can play it by hand), its
//! starter bots and its landing sentence (its rules page is `www/rules/<game>.html`, fetched when
//! the Rules dialog first opens: `app::rules`). It stands beside `games::GAMES` (the
//! rules) and `bots::BUILTINS` (the built-in bots); `tests/registry.rs` fails when a game of
//! `games::GAMES` has no entry here (or no bots), or when an entry names a game `games::GAMES`
//! lacks.
//!
//! Everything else in `src/` finds a game's part through [`entry`], never by matching on ids.

use crate::human;
use crate::painters::{self, Painter};

/// What the page shows of one game.
pub struct Game {
    /// The game's id in `games::GAMES`.
    pub id: &'static str,
    /// Draws and inspects its frames (and, for a board with controls, declares its keys).
    pub painter: &'static dyn Painter,
    /// What people call each seat ("red", "blue"); a seat beyond the list is "seat N".
    pub seat_names: &'static [&'static str],
    /// Reads a human seat's input text, for a game a person can play by hand.
    pub human: Option<human::Reader>,
    /// The starter bot in JavaScript (`www/starter/<game>.js`).
    pub javascript: &'static str,
    /// The same bot in TypeScript (`www/starter/<game>.ts`).
    pub typescript: &'static str,
    /// The starter bot in Python (`www/starter/<game>.py`).
    pub python: &'static str,
    /// One sentence on the landing page: what the game is about.
    pub sentence: &'static str,
    /// Why it suits a class's first lesson, when it does (the landing page marks it).
    pub first_lesson: Option<&'static str>,
    /// The maps the match form offers (the option `map`: its value and a few words), the first
    /// the default (the option left out); none for a game whose map comes from the seed alone.
    pub maps: &'static [(&'static str, &'static str)],
}

/// Every game the page shows, in the order of `games::GAMES`.
pub static GAMES: &[Game] = &[
    Game {
        id: "ice-and-fire",
        painter: &painters::ice_and_fire::IceAndFire,
        seat_names: painters::RED_BLUE,
        human: Some(human::ice_and_fire::read),
        javascript: include_str!("../www/starter/ice-and-fire.js"),
        typescript: include_str!("../www/starter/ice-and-fire.ts"),
        python: include_str!("../www/starter/ice-and-fire.py"),
        sentence: "Train soldiers, claim land and build mines and towers on a 12 × 12 map until \
                   one side captures the other's HQ.",
        first_lesson: None,
        maps: &[],
    },
    Game {
        id: "soak-overflow",
        painter: &painters::soak_overflow::SoakOverflow,
        seat_names: painters::RED_BLUE,
        human: Some(human::soak_overflow::read),
        javascript: include_str!("../www/starter/soak-overflow.js"),
        typescript: include_str!("../www/starter/soak-overflow.ts"),
        python: include_str!("../www/starter/soak-overflow.py"),
        sentence: "Move a team of agents behind cover, soak the other team with shots and splash \
                   bombs, and hold more of the map.",
        first_lesson: Some(
            "Good for a first lesson: its four tutorial leagues (Wood 4 to Wood 1) add one \
             order at a time, starting with two agents walked to their goal tiles.",
        ),
        maps: &[],
    },
    Game {
        id: "micro-rts",
        painter: &painters::micro_rts::MicroRts,
        seat_names: painters::RED_BLUE,
        human: Some(human::micro_rts::read),
        javascript: include_str!("../www/starter/micro-rts.js"),
        typescript: include_str!("../www/starter/micro-rts.ts"),
        python: include_str!("../www/starter/micro-rts.py"),
        sentence: "A small real-time strategy game: gather gold and wood, build barracks, train \
                   an army and take the enemy's castles.",
        first_lesson: None,
        maps: &[],
    },
    Game {
        id: "skyport",
        painter: &painters::skyport::Skyport,
        seat_names: &[],
        human: None,
        javascript: include_str!("../www/starter/skyport.js"),
        typescript: include_str!("../www/starter/skyport.ts"),
        python: include_str!("../www/starter/skyport.py"),
        sentence: "Up to eight ships on a hex map mine resources, upgrade lasers, mortars and \
                   droids, and shoot it out for points.",
        first_lesson: None,
        maps: &[],
    },
    Game {
        id: "crafting-quest",
        painter: &painters::crafting_quest::CraftingQuest,
        seat_names: &[],
        human: None,
        javascript: include_str!("../www/starter/crafting-quest.js"),
        typescript: include_str!("../www/starter/crafting-quest.ts"),
        python: include_str!("../www/starter/crafting-quest.py"),
        sentence: "Ten units each dig for buried resources under fog of war, craft swords and \
                   armour, set traps and towers, and fight.",
        first_lesson: None,
        maps: &games::crafting_quest::MAPS,
    },
];

/// The page's entry of a game id.
pub fn entry(id: &str) -> Option<&'static Game> {
    GAMES.iter().find(|g| g.id == id)
}
