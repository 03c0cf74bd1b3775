//! A class: a named tournament of many bots (students' code from their share links or files,
//! built-in "gauntlet" bots) on one game set-up, as a teacher builds it in the page and
//! `botplay arena --class FILE` plays it. The same class and seed give the same plan
//! ([`crate::plan`]) and so the same table in the page and in the CLI.
//!
//! A class travels as a **class file** (JSON, with a format number, refused when newer, like a
//! replay) or as a **class link** (`c1.` followed by the base64url of the deflated JSON, the way a
//! share link carries a match: [`engine::share`]).

use std::fmt;

use engine::share::{self, SharedBot};
use engine::Setup;
use serde::{Deserialize, Serialize};

/// The class format this build writes and reads.
pub const CLASS_FORMAT: u32 = 1;
/// What a class file says it is, so that the page tells it from a replay or an arena's JSON.
pub const CLASS_KIND: &str = "botplay-class";
/// The prefix of a class link's fragment (the link format's letter and number).
pub const LINK_PREFIX: &str = "c1";
/// The most bots a class holds.
pub const MAX_BOTS: usize = 200;
/// The longest name of a class or a bot, in characters.
pub const MAX_NAME_CHARS: usize = 80;

/// A class: its name, the set-up every match shares (its seed is the arena's seed, from which
/// every match's seed derives), and its bots.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Class {
    /// Always [`CLASS_KIND`].
    pub kind: String,
    pub format: u32,
    pub name: String,
    pub setup: Setup,
    /// Budgets ×10 (the games' own strict budgets when `false`).
    #[serde(default)]
    pub relaxed: bool,
    /// Matches per pair (or group, for games of more seats): each seed is played in every
    /// seating of the group.
    pub matches_per_group: usize,
    pub bots: Vec<ClassBot>,
}

/// A bot of a class: its name as the teacher shows it, an optional pseudonym for showing the
/// class, and the bot itself (code with its language, or a built-in bot of the game).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassBot {
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pseudonym: String,
    pub bot: SharedBot,
}

/// The words of the pseudonyms [`Class::give_pseudonyms`] gives: 16 colours × 16 animals, more
/// than [`MAX_BOTS`].
const PSEUDONYM_COLOURS: [&str; 16] = [
    "Amber", "Azure", "Coral", "Crimson", "Golden", "Indigo", "Ivory", "Jade", "Lilac", "Olive",
    "Pearl", "Ruby", "Russet", "Silver", "Teal", "Violet",
];
const PSEUDONYM_ANIMALS: [&str; 16] = [
    "Otter", "Falcon", "Badger", "Heron", "Lynx", "Gecko", "Puffin", "Marten", "Ibis", "Bison",
    "Wren", "Orca", "Hare", "Newt", "Crane", "Yak",
];

/// The languages a class's code bots are written in, with the file endings that name them.
/// A WebAssembly bot's code is its module (`.wasm`) in base64.
pub const LANGUAGES: [(&str, &str); 4] = [
    ("javascript", "js"),
    ("typescript", "ts"),
    ("python", "py"),
    ("wasm", "wasm"),
];

impl ClassBot {
    /// The code bot a student's share link carries (the first seat with code), named as the
    /// student named it.
    pub fn from_link(link: &str) -> Result<ClassBot, ClassError> {
        let doc = share::ShareDoc::decode(link).map_err(ClassError::Link)?;
        let bot = doc
            .bots
            .into_iter()
            .find(|b| matches!(b, SharedBot::Code { .. }))
            .ok_or_else(|| {
                ClassError::Invalid("the link carries no code bot, only built-in bots".into())
            })?;
        Ok(ClassBot {
            name: bot.name().to_string(),
            pseudonym: String::new(),
            bot,
        })
    }

    /// A bot from a file of code: its language from the file's ending, its name from the file's
    /// name without it.
    pub fn from_file(file_name: &str, code: &str) -> Result<ClassBot, ClassError> {
        let (stem, ending) = file_name.rsplit_once('.').unwrap_or((file_name, ""));
        let Some((language, _)) = LANGUAGES
            .iter()
            .find(|(_, e)| e.eq_ignore_ascii_case(ending))
        else {
            let endings: Vec<String> = LANGUAGES.iter().map(|(_, e)| format!(".{e}")).collect();
            let (last, others) = endings.split_last().expect("languages");
            return Err(ClassError::Invalid(format!(
                "{file_name}: a bot file ends in {} or {last}",
                others.join(", ")
            )));
        };
        Ok(ClassBot {
            name: stem.to_string(),
            pseudonym: String::new(),
            bot: SharedBot::Code {
                name: stem.to_string(),
                language: language.to_string(),
                code: code.to_string(),
            },
        })
    }
}

/// Why a class file or link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClassError {
    /// Not a class at all (a replay, an arena's JSON, something else).
    NotAClass(String),
    /// Made by a newer botplay.
    NewerFormat { found: u32 },
    /// A class link that cannot be read.
    Link(share::ShareError),
    /// Readable, but not a class this page can play.
    Invalid(String),
}

impl fmt::Display for ClassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClassError::NotAClass(why) => write!(f, "this is not a botplay class: {why}"),
            ClassError::NewerFormat { found } => write!(
                f,
                "this class was made by a newer botplay (class format {found}; this one reads \
                 {CLASS_FORMAT}); open it with the newer version"
            ),
            ClassError::Link(e) => write!(f, "{e}"),
            ClassError::Invalid(why) => write!(f, "this class cannot be played: {why}"),
        }
    }
}

impl std::error::Error for ClassError {}

impl Class {
    /// An empty class for a set-up.
    pub fn new(name: &str, setup: Setup, matches_per_group: usize) -> Class {
        Class {
            kind: CLASS_KIND.into(),
            format: CLASS_FORMAT,
            name: name.into(),
            setup,
            relaxed: false,
            matches_per_group,
            bots: Vec::new(),
        }
    }

    /// The class file's text.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a class file, checking its kind and format first, then what it holds.
    pub fn from_json(text: &str) -> Result<Class, ClassError> {
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| ClassError::NotAClass(format!("not JSON ({e})")))?;
        if value.get("kind").and_then(|k| k.as_str()) != Some(CLASS_KIND) {
            return Err(ClassError::NotAClass(format!(
                "it does not say \"kind\": \"{CLASS_KIND}\""
            )));
        }
        match value.get("format").and_then(|f| f.as_u64()) {
            None | Some(0) => return Err(ClassError::NotAClass("no format number".into())),
            Some(found) if found > u64::from(CLASS_FORMAT) => {
                return Err(ClassError::NewerFormat {
                    found: u32::try_from(found).unwrap_or(u32::MAX),
                })
            }
            Some(_) => {}
        }
        let class: Class =
            serde_json::from_value(value).map_err(|e| ClassError::Invalid(e.to_string()))?;
        class.check()?;
        Ok(class)
    }

    /// The class link's fragment (without `#`).
    pub fn to_link(&self) -> String {
        share::pack(LINK_PREFIX, self.to_json().as_bytes())
    }

    /// Reads a class link (a whole URL or its fragment).
    pub fn from_link(link: &str) -> Result<Class, ClassError> {
        let json = share::unpack(LINK_PREFIX, link).map_err(ClassError::Link)?;
        let text = String::from_utf8(json)
            .map_err(|_| ClassError::Invalid("the link's contents are not text".into()))?;
        Class::from_json(&text)
    }

    /// What every class must be: a name, bots within bounds, a plan that exists.
    pub fn check(&self) -> Result<(), ClassError> {
        let invalid = |why: String| Err(ClassError::Invalid(why));
        if self.bots.len() > MAX_BOTS {
            return invalid(format!(
                "{} bots (a class holds at most {MAX_BOTS})",
                self.bots.len()
            ));
        }
        if self.matches_per_group == 0 {
            return invalid("no matches per pair".into());
        }
        if self.name.chars().count() > MAX_NAME_CHARS {
            return invalid(format!(
                "its name is longer than {MAX_NAME_CHARS} characters"
            ));
        }
        for (i, bot) in self.bots.iter().enumerate() {
            if bot.name.trim().is_empty() {
                return invalid(format!("bot {} has no name", i + 1));
            }
            if bot.name.chars().count() > MAX_NAME_CHARS
                || bot.pseudonym.chars().count() > MAX_NAME_CHARS
            {
                return invalid(format!(
                    "bot {}'s name is longer than {MAX_NAME_CHARS} characters",
                    i + 1
                ));
            }
            if matches!(bot.bot, SharedBot::Program { .. }) {
                return invalid(format!(
                    "bot {} ('{}') is a local program, which a class cannot carry",
                    i + 1,
                    bot.name
                ));
            }
        }
        if crate::plan::count(self.bots.len(), self.setup.seats, self.matches_per_group).is_none() {
            return invalid("its plan has too many matches".into());
        }
        Ok(())
    }

    /// The names shown to the class: each bot's pseudonym where it has one and `pseudonyms` is
    /// asked for, its name otherwise.
    pub fn shown_names(&self, pseudonyms: bool) -> Vec<String> {
        self.bots
            .iter()
            .map(|b| {
                if pseudonyms && !b.pseudonym.is_empty() {
                    b.pseudonym.clone()
                } else {
                    b.name.clone()
                }
            })
            .collect()
    }

    /// Gives every bot without a pseudonym one of its own, unique in the class: a colour and an
    /// animal ("Amber Otter", "Azure Falcon": both words change from one to the next), the first
    /// free in a fixed order, so the same class gets the same pseudonyms. Pseudonyms already
    /// given are kept.
    pub fn give_pseudonyms(&mut self) {
        let (colours, animals) = (PSEUDONYM_COLOURS.len(), PSEUDONYM_ANIMALS.len());
        // k = colours·j + r gives colour r and animal r + j: every pair once.
        let mut free = (0..colours * animals).map(|k| {
            let (j, r) = (k / colours, k % colours);
            format!(
                "{} {}",
                PSEUDONYM_COLOURS[r],
                PSEUDONYM_ANIMALS[(r + j) % animals]
            )
        });
        for i in 0..self.bots.len() {
            if !self.bots[i].pseudonym.is_empty() {
                continue;
            }
            let taken = |p: &str| self.bots.iter().any(|b| b.pseudonym == p || b.name == p);
            let found = free.by_ref().find(|p| !taken(p));
            self.bots[i].pseudonym = found.unwrap_or_else(|| format!("Bot {}", i + 1));
        }
    }

    /// Adds a bot, its name made unique in the class ("Ada", then "Ada (2)"). `Err` when the
    /// class is full.
    pub fn add(&mut self, mut bot: ClassBot) -> Result<(), ClassError> {
        if self.bots.len() >= MAX_BOTS {
            return Err(ClassError::Invalid(format!(
                "a class holds at most {MAX_BOTS} bots"
            )));
        }
        let base: String = bot.name.trim().chars().take(MAX_NAME_CHARS - 6).collect();
        let base = if base.is_empty() {
            format!("bot {}", self.bots.len() + 1)
        } else {
            base
        };
        let taken = |name: &str| self.bots.iter().any(|b| b.name == name);
        let mut name = base.clone();
        let mut n = 2;
        while taken(&name) {
            name = format!("{base} ({n})");
            n += 1;
        }
        bot.name = name;
        self.bots.push(bot);
        Ok(())
    }

    /// The matches of the class, in plan order.
    pub fn plan(&self) -> Vec<crate::plan::Planned> {
        crate::plan::plan(
            self.bots.len(),
            self.setup.seats,
            self.matches_per_group,
            self.setup.seed,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class() -> Class {
        let mut setup = Setup {
            game: "soak-overflow".into(),
            ruleset: "default".into(),
            seed: 7,
            seats: 2,
            options: Default::default(),
        };
        setup.options.insert("league".into(), "4".into());
        let mut class = Class::new("Year 10, \"group\" B", setup, 2);
        class.bots.push(ClassBot {
            name: "Ada, L.".into(),
            pseudonym: "Falcon".into(),
            bot: SharedBot::Code {
                name: "Ada, L.".into(),
                language: "python".into(),
                code: "print('MOVE')\n".into(),
            },
        });
        class.bots.push(ClassBot {
            name: "gauntlet".into(),
            pseudonym: String::new(),
            bot: SharedBot::Builtin {
                name: "soaker".into(),
            },
        });
        class
    }

    #[test]
    fn a_class_round_trips_through_its_file_and_its_link() {
        let class = class();
        assert_eq!(Class::from_json(&class.to_json()), Ok(class.clone()));
        let link = class.to_link();
        assert!(link.starts_with("c1."), "{link}");
        let url = format!("https://example.org/botplay/#{link}");
        assert_eq!(Class::from_link(&url), Ok(class));
    }

    #[test]
    fn other_files_newer_classes_and_broken_classes_are_refused_clearly() {
        let not = Class::from_json(r#"{"format": 1, "setup": {}}"#).unwrap_err();
        assert!(not.to_string().contains("not a botplay class"), "{not}");
        let replay_like = Class::from_json("[1, 2]").unwrap_err();
        assert!(matches!(replay_like, ClassError::NotAClass(_)));
        let newer = class()
            .to_json()
            .replacen("\"format\": 1", "\"format\": 9", 1);
        assert_eq!(
            Class::from_json(&newer),
            Err(ClassError::NewerFormat { found: 9 })
        );
        let mut nameless = class();
        nameless.bots[0].name = "  ".into();
        assert!(Class::from_json(&nameless.to_json())
            .unwrap_err()
            .to_string()
            .contains("bot 1 has no name"));
        let mut program = class();
        program.bots[1].bot = SharedBot::Program {
            name: "./bot".into(),
        };
        assert!(Class::from_json(&program.to_json())
            .unwrap_err()
            .to_string()
            .contains("local program"));
        let cut = &class().to_link()[..20];
        assert!(matches!(Class::from_link(cut), Err(ClassError::Link(_))));
        let share = Class::from_link("b1.AAAA").unwrap_err();
        assert!(matches!(share, ClassError::Link(_)), "{share}");
    }

    #[test]
    fn bots_come_from_links_and_files_with_unique_names() {
        let link = engine::share::ShareDoc {
            setup: class().setup,
            relaxed: false,
            bots: vec![
                SharedBot::Builtin {
                    name: "soaker".into(),
                },
                SharedBot::Code {
                    name: "Ada, L.".into(),
                    language: "javascript".into(),
                    code: "console.log(1)".into(),
                },
            ],
            replay: None,
            turn: None,
            lesson: None,
        }
        .encode();
        let from_link = ClassBot::from_link(&format!("https://x.org/#{link}")).expect("a bot");
        assert_eq!(from_link.name, "Ada, L.");
        let mut class = class();
        class.add(from_link).expect("room");
        assert_eq!(class.bots[2].name, "Ada, L. (2)");
        let file = ClassBot::from_file("noor.py", "print(1)").expect("a bot");
        assert_eq!(file.name, "noor");
        assert!(matches!(file.bot, SharedBot::Code { ref language, .. } if language == "python"));
        let typed = ClassBot::from_file("Grace.TS", "let n: number = 1;").expect("a TS bot");
        assert_eq!(typed.name, "Grace");
        assert!(
            matches!(typed.bot, SharedBot::Code { ref language, .. } if language == "typescript")
        );
        // A WebAssembly module travels in base64, named by its file.
        let module = ClassBot::from_file("fast.wasm", "AGFzbQEAAAA=").expect("a wasm bot");
        assert_eq!(module.name, "fast");
        assert!(
            matches!(module.bot, SharedBot::Code { ref language, ref code, .. }
            if language == "wasm" && code == "AGFzbQEAAAA=")
        );
        let wrong = ClassBot::from_file("notes.txt", "").unwrap_err();
        assert!(
            wrong.to_string().contains("ends in .js, .ts, .py or .wasm"),
            "{wrong}"
        );
        let builtins_only = engine::share::ShareDoc::decode(&link)
            .map(|mut d| {
                d.bots.truncate(1);
                d.setup.seats = 1;
                d.encode()
            })
            .expect("a link");
        assert!(ClassBot::from_link(&builtins_only)
            .unwrap_err()
            .to_string()
            .contains("no code bot"));
        for _ in class.bots.len()..MAX_BOTS {
            class.add(file.clone()).expect("room");
        }
        assert!(class.add(file).is_err(), "full");
        assert_eq!(class.check(), Ok(()));
    }

    #[test]
    fn pseudonyms_are_given_to_every_bot_unique_and_the_same_each_time() {
        let mut class = class();
        for n in 0..MAX_BOTS - 2 {
            class
                .add(ClassBot::from_file(&format!("s{n}.js"), "x").unwrap())
                .unwrap();
        }
        class.bots[5].name = "Amber Otter".into();
        let mut again = class.clone();
        class.give_pseudonyms();
        again.give_pseudonyms();
        assert_eq!(class, again, "the same class gets the same pseudonyms");
        assert_eq!(
            class.bots[0].pseudonym, "Falcon",
            "a pseudonym given is kept"
        );
        assert_eq!(
            class.bots[1].pseudonym, "Azure Falcon",
            "a name is not a pseudonym"
        );
        assert_eq!(class.bots[2].pseudonym, "Coral Badger");
        let mut seen = std::collections::HashSet::new();
        for bot in &class.bots {
            assert!(!bot.pseudonym.is_empty());
            assert!(
                seen.insert(bot.pseudonym.clone()),
                "{} twice",
                bot.pseudonym
            );
            assert!(
                class.bots.iter().all(|b| b.name != bot.pseudonym),
                "{} is a bot's name",
                bot.pseudonym
            );
        }
        assert_eq!(class.check(), Ok(()));
    }

    #[test]
    fn pseudonyms_are_shown_only_when_asked_for_and_only_where_given() {
        let class = class();
        assert_eq!(class.shown_names(false), ["Ada, L.", "gauntlet"]);
        assert_eq!(class.shown_names(true), ["Falcon", "gauntlet"]);
    }

    #[test]
    fn the_plan_is_the_arena_plan_of_its_bots_seats_matches_and_seed() {
        let class = class();
        assert_eq!(class.plan(), crate::plan::plan(2, 2, 2, 7));
    }
}
