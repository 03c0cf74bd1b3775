//! The match set-up form: the game, seed, league, options, the two bot slots and their code
//! (saved per scope: the game's, a lesson's or a link's), and the match it describes.

use std::collections::BTreeMap;
use std::rc::Rc;

use engine::{GameEntry, Setup, ShareDoc, SharedBot};

use super::env::Env;
use crate::human::{self, HUMAN};
use crate::runner::{BotSource, MatchSpec, SeatSpec};
use crate::{isolation, starter};

/// The names the person's bots have in replays and in the viewer, by slot.
pub const SLOT_NAMES: [&str; 2] = ["your bot", "your second bot"];
/// The bot slots: the person's bot (seat 1) and the opponent (the other seats).
pub const SLOTS: usize = 2;
/// A slot's choices that mean "the code in this slot's editor", in that language.
pub const JAVASCRIPT: &str = "javascript";
pub const TYPESCRIPT: &str = "typescript";
pub const PYTHON: &str = "python";
/// A program compiled to WebAssembly: the slot's code is its module in base64, chosen as a file
/// (`src/app/wasm_file.rs`) rather than typed.
pub const WASM: &str = "wasm";
/// The editor's languages: choice value and name shown.
pub const LANGUAGES: [(&str, &str); 4] = [
    (JAVASCRIPT, "JavaScript"),
    (TYPESCRIPT, "TypeScript"),
    (PYTHON, "Python"),
    (WASM, "WebAssembly (.wasm)"),
];

/// One bot slot of the form: who plays it, and its editor.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// A language (the slot's editor code plays) or a built-in bot's name.
    pub player: String,
    /// The editor's language: one of [`LANGUAGES`].
    pub language: &'static str,
    /// The editor's code, in [`Slot::language`].
    pub code: String,
}

impl Slot {
    fn new(game: &str, slot: usize, player: String, env: &dyn Env) -> Slot {
        let language = language_of(&player).unwrap_or(JAVASCRIPT);
        Slot {
            player,
            language,
            code: saved_or_starter(env, game, game, slot, language),
        }
    }

    /// Whether the slot's editor code plays (not a built-in bot).
    pub fn is_code(&self) -> bool {
        language_of(&self.player).is_some()
    }

    /// The slot's editor code as a bot.
    pub fn source(&self) -> BotSource {
        BotSource::of_code(self.language, self.code.clone())
            .unwrap_or_else(|| BotSource::JavaScript(self.code.clone()))
    }

    /// The bot of this slot as a seat of a match.
    pub(super) fn seat(&self, slot: usize) -> SeatSpec {
        if self.player == HUMAN {
            SeatSpec {
                name: human::NAMES[slot].to_string(),
                source: BotSource::Human,
            }
        } else if self.is_code() {
            SeatSpec {
                name: SLOT_NAMES[slot].to_string(),
                source: self.source(),
            }
        } else {
            SeatSpec {
                name: self.player.clone(),
                source: BotSource::Builtin(self.player.clone()),
            }
        }
    }
}

/// The language a slot's choice names, if it names one.
pub(super) fn language_of(player: &str) -> Option<&'static str> {
    LANGUAGES.iter().map(|&(l, _)| l).find(|&l| l == player)
}

/// What the match form holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub game: &'static str,
    pub seed: String,
    pub ruleset: String,
    /// Game options (`key`, `value`) other than the defaults: Crafting Quest 3's map.
    pub options: BTreeMap<String, String>,
    /// Slot 0 plays seat 1; slot 1 (the opponent) plays every other seat.
    pub bots: [Slot; SLOTS],
    /// How many bots play (games for more than two: the opponent fills the other seats).
    pub seats: usize,
    pub relaxed: bool,
    /// The lesson the form was opened for, if any: its code is saved apart.
    pub lesson: Option<Rc<ActiveLesson>>,
    /// A link's code shown instead of the person's own, which differs (saved apart too).
    pub link: Option<Rc<LinkCode>>,
}

/// The code saved for a game's slot and language, or the game's starter bot.
fn saved_or_starter(env: &dyn Env, scope: &str, game: &str, slot: usize, language: &str) -> String {
    env.load_code(scope, slot, language)
        .unwrap_or_else(|| starter::code(game, language).to_string())
}

/// A lesson opened from a link: its words, and where its students' code is saved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveLesson {
    /// Names the lesson in the browser's storage: the same link, the same saved code.
    pub id: String,
    pub title: String,
    pub text: String,
}

impl ActiveLesson {
    pub(super) fn of(doc: &ShareDoc, lesson: &engine::Lesson) -> ActiveLesson {
        // The link's hash: a lesson changed by its teacher is a new lesson.
        let hash = engine::fnv1a(doc.encode().as_bytes());
        ActiveLesson {
            id: format!("{hash:016x}"),
            title: lesson.title.clone(),
            text: lesson.text.clone(),
        }
    }
}

/// FNV-1a as 16 hexadecimal digits: names a link's code in the browser's storage.
pub(super) fn fnv(text: &str) -> String {
    format!("{:016x}", engine::fnv1a(text.as_bytes()))
}

/// A link's code, shown apart from the person's own saved code (which differs from it and is
/// never replaced without asking). Edits to it are saved under the link's own scope, so that
/// opening the same code again brings them back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkCode {
    /// Names the link's code in the browser's storage: a hash of the code the link carries.
    pub id: String,
    /// The slots whose code the link brought.
    pub slots: Vec<usize>,
}

impl LinkCode {
    /// The link's code for `doc`, when it brings code that differs from the person's saved code.
    pub(super) fn of(doc: &ShareDoc, game: &str, env: &dyn Env) -> Option<LinkCode> {
        let mut text = String::new();
        let mut slots = Vec::new();
        let mut differs = false;
        for (slot, bot) in doc.bots.iter().take(SLOTS).enumerate() {
            if let SharedBot::Code { language, code, .. } = bot {
                let language = language_of(language).unwrap_or(JAVASCRIPT);
                differs |= env
                    .load_code(game, slot, language)
                    .is_some_and(|s| s != *code);
                text.push_str(&format!("{slot}\0{language}\0{code}\0"));
                slots.push(slot);
            }
        }
        differs.then(|| LinkCode {
            id: fnv(&text),
            slots,
        })
    }
}

/// The game entry by id (the registry has it: ids come from it).
pub fn entry(game: &str) -> &'static GameEntry {
    games::entry(game).unwrap_or(&games::GAMES[0])
}

impl Form {
    pub fn new(game: &'static str, seed: i64, env: &dyn Env) -> Form {
        let info = entry(game).info;
        let strongest = bots::builtins(game)
            .last()
            .map(|b| b.name.to_string())
            .unwrap_or_else(|| JAVASCRIPT.to_string());
        Form {
            game,
            seed: seed.to_string(),
            ruleset: info.default_ruleset.to_string(),
            options: BTreeMap::new(),
            bots: [
                // Your bot in the language last chosen for this game (JavaScript at first).
                Slot::new(
                    game,
                    0,
                    env.load_language(game)
                        .and_then(|l| language_of(&l))
                        .unwrap_or(JAVASCRIPT)
                        .to_string(),
                    env,
                ),
                Slot::new(game, 1, strongest, env),
            ],
            seats: info.min_seats,
            relaxed: false,
            lesson: None,
            link: None,
        }
    }

    /// Where the editors' code is saved: the game's own place, the lesson's, or the link's.
    pub fn scope(&self) -> String {
        match (&self.lesson, &self.link) {
            (Some(lesson), _) => format!("{}/lesson-{}", self.game, lesson.id),
            (None, Some(link)) => format!("{}/link-{}", self.game, link.id),
            (None, None) => self.game.to_string(),
        }
    }

    /// The match this form describes: slot 0's bot in seat 1, the opponent in the others. A
    /// game that takes seed 0 for "a random map" gets the seed `random` picks
    /// (`games::new_game_picking_seed`, as the CLI).
    /// Whether a slot plays Python code (the page then has Python ready for the next Run).
    pub fn plays_python(&self) -> bool {
        self.bots.iter().any(|slot| slot.player == PYTHON)
    }

    pub fn spec(&self, isolated: bool, random: impl FnOnce() -> i64) -> Result<MatchSpec, String> {
        let info = entry(self.game).info;
        let seed: i64 = self.seed.trim().parse().map_err(|_| {
            format!(
                "the seed must be a whole number, not '{}'",
                self.seed.trim()
            )
        })?;
        if self.bots.iter().any(Slot::is_code) && !isolated {
            return Err(isolation::NOT_ISOLATED.to_string());
        }
        let mut setup = Setup::new(info, seed);
        setup.ruleset = self.ruleset.clone();
        setup.options = self.options.clone();
        setup.seats = self.seats.clamp(info.min_seats, info.max_seats);
        setup.check(info).map_err(|e| e.to_string())?;
        // The game itself is built by the match worker, which says what it refuses.
        games::pick_seed(&mut setup, random).map_err(|why| why.to_string())?;
        let mut seats = vec![self.bots[0].seat(0)];
        while seats.len() < setup.seats {
            seats.push(self.bots[1].seat(1));
        }
        Ok(MatchSpec {
            setup,
            seats,
            relaxed: self.relaxed,
            from: None,
        })
    }

    /// Another league. An opponent left at the league's default follows the league: Soak
    /// Overflow's tutorial leagues are played against their boss.
    pub(super) fn set_ruleset(&mut self, ruleset: String) {
        let before = bots::default_opponent(self.game, &self.ruleset).map(|b| b.name);
        let after = bots::default_opponent(self.game, &ruleset).map(|b| b.name);
        if let (Some(opponent), Some(name)) = (self.bots.get_mut(1), after) {
            if Some(opponent.player.as_str()) == before {
                opponent.player = name.to_string();
            }
        }
        self.ruleset = ruleset;
    }

    /// A game option (an empty value: the game's default).
    pub(super) fn set_option(&mut self, key: String, value: String) {
        if value.is_empty() {
            self.options.remove(&key);
        } else {
            self.options.insert(key, value);
        }
    }

    /// Who plays a slot. Choosing a language shows that language's code in the slot's editor
    /// (and, for the person's own bot, is remembered for the game).
    pub(super) fn set_player(&mut self, slot: usize, player: String, env: &mut dyn Env) {
        let (game, scope) = (self.game, self.scope());
        let Some(bot) = self.bots.get_mut(slot) else {
            return;
        };
        if let Some(language) = language_of(&player) {
            if slot == 0 {
                env.save_language(game, language);
            }
            if language != bot.language {
                bot.language = language;
                bot.code = saved_or_starter(env, &scope, game, slot, language);
            }
        }
        bot.player = player;
    }

    /// The link's code becomes the person's saved code (what it replaces goes into its
    /// history); false if no link's code was shown.
    pub(super) fn use_link_code(&mut self, env: &mut dyn Env) -> bool {
        let Some(link) = self.link.take() else {
            return false;
        };
        let (game, scope) = (self.game, format!("{}/link-{}", self.game, link.id));
        for &slot in &link.slots {
            let bot = &self.bots[slot];
            if bot.is_code() {
                env.replace_code(game, slot, bot.language, &bot.code, &bot.code);
                env.forget_code(&scope, slot, bot.language);
            }
        }
        true
    }

    /// Leaves the link's code: the person's own saved code comes back; false if no link's code
    /// was shown.
    pub(super) fn back_to_my_code(&mut self, env: &dyn Env) -> bool {
        if self.link.take().is_none() {
            return false;
        }
        let game = self.game;
        for (slot, bot) in self.bots.iter_mut().enumerate() {
            bot.code = saved_or_starter(env, game, game, slot, bot.language);
        }
        true
    }
}
