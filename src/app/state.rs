//! The page's state and its reducer: the match set-up form, the match being shown, the viewer.

use std::collections::BTreeMap;
use std::rc::Rc;

use engine::{Fault, Frame, GameEntry, Outcome, Replay, Setup, ShareDoc, SharedBot, TurnRecord};
use yew::Reducible;

use crate::human::{self, Desk, HUMAN};
use crate::runner::BotSource;
use crate::runner::{HumanAsk, MatchNews, MatchSpec, SeatSpec};
use crate::{isolation, starter, storage};

/// The names the person's bots have in replays and in the viewer, by slot.
pub const SLOT_NAMES: [&str; 2] = ["your bot", "your second bot"];
/// The bot slots: the person's bot (seat 1) and the opponent (the other seats).
pub const SLOTS: usize = 2;
/// A slot's choices that mean "the code in this slot's editor", in that language.
pub const JAVASCRIPT: &str = "javascript";
pub const PYTHON: &str = "python";
/// The editor's languages: choice value and name shown.
pub const LANGUAGES: [(&str, &str); 2] = [(JAVASCRIPT, "JavaScript"), (PYTHON, "Python")];

/// One bot slot of the form: who plays it, and its editor.
#[derive(Clone, Debug, PartialEq)]
pub struct Slot {
    /// A language (the slot's editor code plays) or a built-in bot's name.
    pub player: String,
    /// The editor's language: [`JAVASCRIPT`] or [`PYTHON`].
    pub language: &'static str,
    /// The editor's code, in [`Slot::language`].
    pub code: String,
}

impl Slot {
    fn new(game: &str, slot: usize, player: String) -> Slot {
        let language = language_of(&player).unwrap_or(JAVASCRIPT);
        Slot {
            player,
            language,
            code: saved_or_starter(game, game, slot, language),
        }
    }

    /// Whether the slot's editor code plays (not a built-in bot).
    pub fn is_code(&self) -> bool {
        language_of(&self.player).is_some()
    }

    /// The bot of this slot as a seat of a match.
    fn seat(&self, slot: usize) -> SeatSpec {
        if self.player == HUMAN {
            SeatSpec {
                name: human::NAMES[slot].to_string(),
                source: BotSource::Human,
            }
        } else if self.is_code() {
            SeatSpec {
                name: SLOT_NAMES[slot].to_string(),
                source: if self.language == PYTHON {
                    BotSource::Python(self.code.clone())
                } else {
                    BotSource::JavaScript(self.code.clone())
                },
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
fn language_of(player: &str) -> Option<&'static str> {
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

/// Where the shown match is.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress {
    /// No match yet.
    Idle,
    /// A replay (from a link or a file) is shown; no bot ran. The text says where it came from.
    Replayed(String),
    /// The bots' workers are starting.
    Starting,
    /// A language runtime is loading (the text says which).
    Loading(String),
    Running,
    Over,
    Stopped,
    Failed(String),
}

impl Progress {
    pub fn is_live(&self) -> bool {
        matches!(
            self,
            Progress::Starting | Progress::Loading(_) | Progress::Running
        )
    }
}

/// The match being shown: what the runner reported so far.
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub game: &'static str,
    /// The match's setup (none before the first match).
    pub setup: Option<Setup>,
    pub names: Vec<String>,
    /// The bots as a share link carries them, one per seat.
    pub bots: Vec<SharedBot>,
    pub relaxed: bool,
    /// One frame for the start, then one per completed turn.
    pub frames: Vec<Rc<Frame>>,
    /// Turn `i` led from frame `i` to frame `i + 1`.
    pub turns: Vec<Rc<TurnRecord>>,
    pub outcome: Option<Outcome>,
    pub faults: Vec<Fault>,
}

/// The viewer's position and playback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cursor {
    /// The frame shown.
    pub frame: usize,
    /// Follow the newest frame as a live match goes on.
    pub follow: bool,
    pub playing: bool,
}

impl Cursor {
    /// Showing `frame`, still.
    pub fn at(frame: usize) -> Cursor {
        Cursor {
            frame,
            follow: false,
            playing: false,
        }
    }
}

impl Record {
    /// The number of the turn that led to `frame`, as the original game counts it: the game's
    /// own count of turns played (`Frame::turn`), so turn 1 is the first the bots play and 0
    /// the start (and, in Skyport, the handshake and the choice of weapons before turn 1). The
    /// viewer, the text view, the turn's input and output and the faults all show this number.
    ///
    /// A turn that ended the match with a fault is not counted by some games (Ice and Fire ends
    /// before its turn counter moves): its frame is numbered one after the frame before it, the
    /// number of the turn in which the fault happened.
    pub fn turn_number(&self, frame: usize) -> u32 {
        let Some(f) = self.frames.get(frame) else {
            return 0;
        };
        let before = frame
            .checked_sub(1)
            .and_then(|b| self.frames.get(b))
            .map(|b| b.turn);
        let faulted = frame
            .checked_sub(1)
            .and_then(|t| self.turns.get(t))
            .is_some_and(|t| t.seats.iter().any(|st| st.fault.is_some()));
        match before {
            Some(b) if faulted && f.turn <= b => b + 1,
            _ => f.turn,
        }
    }

    /// The number of the last turn shown so far.
    pub fn last_turn_number(&self) -> u32 {
        self.turn_number(self.frames.len().saturating_sub(1))
    }

    /// The number of the turn in which `fault` happened: the turn that led to the frame whose
    /// turn record holds it, or the turn after the last frame (a bot's process died while it
    /// was being played).
    pub fn fault_turn_number(&self, fault: &Fault) -> u32 {
        self.turns
            .iter()
            .position(|t| t.seats.iter().any(|st| st.fault.as_ref() == Some(fault)))
            .map_or(self.last_turn_number() + 1, |i| self.turn_number(i + 1))
    }

    /// The first frame after `from` whose turn had a fault.
    pub fn next_fault(&self, from: usize) -> Option<usize> {
        // Frame f shows the state after turn record f − 1.
        (from + 1..self.frames.len()).find(|&f| {
            self.turns
                .get(f - 1)
                .is_some_and(|t| t.seats.iter().any(|st| st.fault.is_some()))
        })
    }

    /// The first frame after `from` where a seat is out that was in the frame before.
    pub fn next_elimination(&self, from: usize) -> Option<usize> {
        (from + 1..self.frames.len()).find(|&f| {
            let (before, after) = (&self.frames[f - 1].out, &self.frames[f].out);
            after
                .iter()
                .enumerate()
                .any(|(seat, &out)| out && !before.get(seat).copied().unwrap_or(false))
        })
    }
}

/// A turn of a seat played by hand, waiting for the person.
#[derive(Clone, Debug, PartialEq)]
pub struct HumanTurn {
    pub seat: usize,
    /// The input the seat received this turn.
    pub input: String,
    /// The turn being made (or why the input could not be read).
    pub desk: Result<Desk, String>,
    /// Where the selected cell was clicked, as a share of the board's width and height.
    pub selected_at: Option<(f64, f64)>,
}

#[derive(Clone, Debug)]
pub struct AppState {
    pub isolated: bool,
    pub form: Form,
    /// A message about the form or the last attempt to run (shown beside the buttons).
    pub notice: Option<String>,
    pub progress: Progress,
    pub record: Rc<Record>,
    pub cursor: Cursor,
    /// Playback speed, an index into [`SPEEDS`].
    pub speed: usize,
    /// A link without its match was opened: the page runs it once the form holds it.
    pub run_requested: bool,
    /// The link whose bots that run would be (its hash), so that a link whose run never finished
    /// (it crashed or froze the tab) is not run again unasked (`storage::auto_run_unfinished`).
    pub auto_run_link: Option<String>,
    /// Seats played by hand that are asked now, in the order asked (the first is shown).
    pub human: Vec<HumanTurn>,
    /// Every input each seat played by hand received in this match, by seat.
    pub human_inputs: Vec<Vec<String>>,
    /// The next match started is a one-click *Play* from the gallery: it is watched from its
    /// start (`watching` once it has started), not shown at its last frame.
    pub watch_next: bool,
    pub watching: bool,
}

/// Playback speeds, as multiples of the normal pace.
pub const SPEEDS: [f64; 8] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0];
/// The speed a new page plays at (1×).
const NORMAL_SPEED: usize = 2;
/// A one-click match is played back in about this many seconds at most: faster than normal when
/// it is long (Ice and Fire's 200 turns would take 50 s at 1×), never slower.
const WATCH_SECONDS: f64 = 20.0;
/// Milliseconds a frame is shown at 1× (src/app/viewer.rs plays at this pace).
pub const PLAY_FRAME_MS: f64 = 250.0;

/// The slowest speed, not below `speed`, that plays `frames` frames within [`WATCH_SECONDS`].
pub fn watch_speed(speed: usize, frames: usize) -> usize {
    (speed..SPEEDS.len())
        .find(|&i| frames as f64 * PLAY_FRAME_MS / SPEEDS[i] <= WATCH_SECONDS * 1000.0)
        .unwrap_or(SPEEDS.len() - 1)
}

pub enum Action {
    /// A seat played by hand is asked (the runner's [`HumanAsk`]).
    HumanAsked(HumanAsk),
    /// On a human turn, the board was clicked: the cell, and where (shares of the board's size).
    HumanClick((i32, i32), (f64, f64)),
    /// On a human turn, an action button was pressed.
    HumanPress(&'static str),
    HumanUndo,
    HumanClear,
    /// The human turn shown was sent to the runner.
    HumanSent,
    PickGame(&'static str),
    /// Pick a game and run a match at once (the landing page's Play).
    PlayNow(&'static str),
    SetSeed(String),
    SetRuleset(String),
    /// A game option: key and value (an empty value: the game's default).
    SetOption(String, String),
    /// The code of a slot's editor, as typed.
    SetCode(usize, String),
    /// Who plays a slot: a language or a built-in bot's name.
    SetPlayer(usize, String),
    SetSeats(usize),
    SetRelaxed(bool),
    Notice(String),
    /// A match was started from this spec.
    Started(MatchSpec),
    News(MatchNews),
    /// Show this frame (stops playback and following).
    Seek(usize),
    Step(isize),
    TogglePlay,
    /// Playback advances one frame.
    Tick,
    /// Faster (+1) or slower (−1) playback, within [`SPEEDS`].
    ChangeSpeed(isize),
    SetSpeed(usize),
    /// Show the next frame whose turn had a fault (stops playback).
    NextFault,
    /// Show the next frame where a seat goes out of the match (stops playback).
    NextElimination,
    /// Open a share link: its set-up and bots go into the form; its replay, if any, is shown.
    OpenLink(ShareDoc),
    /// Show a replay (re-run by the engine, no bot is run); the text says where it came from.
    ShowReplay(Replay, String),
    /// Close the lesson: the game's own saved code comes back.
    LeaveLesson,
    /// The link's code (as the editors show it) becomes the person's saved code, which goes
    /// into its history (the person confirmed).
    UseLinkCode,
    /// Leave the link's code: the person's own saved code comes back.
    BackToMyCode,
}

/// The code saved for a game's slot and language, or the game's starter bot.
fn saved_or_starter(scope: &str, game: &str, slot: usize, language: &str) -> String {
    storage::load_code(scope, slot, language)
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
    fn of(doc: &ShareDoc, lesson: &engine::Lesson) -> ActiveLesson {
        // FNV-1a of the link: a lesson changed by its teacher is a new lesson.
        let hash = doc
            .encode()
            .bytes()
            .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
            });
        ActiveLesson {
            id: format!("{hash:016x}"),
            title: lesson.title.clone(),
            text: lesson.text.clone(),
        }
    }
}

/// FNV-1a, as 16 hexadecimal digits: names a link's code in the browser's storage.
fn fnv(text: &str) -> String {
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    format!("{hash:016x}")
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
    fn of(doc: &ShareDoc, game: &str) -> Option<LinkCode> {
        let mut text = String::new();
        let mut slots = Vec::new();
        let mut differs = false;
        for (slot, bot) in doc.bots.iter().take(SLOTS).enumerate() {
            if let SharedBot::Code { language, code, .. } = bot {
                let language = language_of(language).unwrap_or(JAVASCRIPT);
                differs |= storage::load_code(game, slot, language).is_some_and(|s| s != *code);
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

/// A seed for a new page: random (never 0), shown and editable.
pub fn random_seed() -> i64 {
    1 + (js_sys::Math::random() * 999_999_999.0) as i64
}

/// The game entry by id (the registry has it: ids come from it).
pub fn entry(game: &str) -> &'static GameEntry {
    games::entry(game).unwrap_or(&games::GAMES[0])
}

impl Form {
    pub fn new(game: &'static str, seed: i64) -> Form {
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
                    storage::load_language(game)
                        .and_then(|l| language_of(&l))
                        .unwrap_or(JAVASCRIPT)
                        .to_string(),
                ),
                Slot::new(game, 1, strongest),
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
        games::new_game_picking_seed(&mut setup, random).map_err(|why| why.to_string())?;
        let mut seats = vec![self.bots[0].seat(0)];
        while seats.len() < setup.seats {
            seats.push(self.bots[1].seat(1));
        }
        Ok(MatchSpec {
            setup,
            seats,
            relaxed: self.relaxed,
        })
    }
}

impl AppState {
    /// Re-runs a replay with the engine and shows it at `turn` (the start by default).
    fn show_replay(
        &mut self,
        replay: &Replay,
        source: &str,
        turn: Option<usize>,
    ) -> Result<(), String> {
        let game = games::entry(&replay.setup.game)
            .ok_or_else(|| format!("this replay is of an unknown game '{}'", replay.setup.game))?;
        let referee = replay.rerun(game).map_err(|e| e.to_string())?;
        let bots = replay
            .bots
            .iter()
            .map(|name| match name.strip_prefix("builtin:") {
                Some(builtin) => SharedBot::Builtin {
                    name: builtin.to_string(),
                },
                None => SharedBot::Program { name: name.clone() },
            })
            .collect();
        self.record = Rc::new(Record {
            game: game.info.id,
            setup: Some(replay.setup.clone()),
            names: replay.bots.clone(),
            bots,
            relaxed: replay.relaxed,
            frames: referee.frames().iter().cloned().map(Rc::new).collect(),
            turns: referee.turns().iter().cloned().map(Rc::new).collect(),
            outcome: referee.outcome(),
            faults: referee.faults().to_vec(),
        });
        self.progress = Progress::Replayed(source.to_string());
        self.cursor = Cursor {
            frame: turn.unwrap_or(0).min(self.last_frame()),
            follow: false,
            playing: false,
        };
        Ok(())
    }

    /// Puts a link's set-up and bots into the form and shows its replay, if it has one.
    fn open_link(&mut self, doc: ShareDoc) {
        let Some(game) = games::entry(&doc.setup.game) else {
            self.notice = Some(format!(
                "This link is of a game this botplay does not have: '{}'.",
                doc.setup.game
            ));
            return;
        };
        let mut form = Form::new(game.info.id, doc.setup.seed);
        form.ruleset = doc.setup.ruleset.clone();
        form.options = doc.setup.options.clone();
        form.relaxed = doc.relaxed;
        form.seats = doc.setup.seats;
        form.lesson = doc
            .lesson
            .as_ref()
            .map(|l| Rc::new(ActiveLesson::of(&doc, l)));
        if form.lesson.is_none() {
            form.link = LinkCode::of(&doc, game.info.id).map(Rc::new);
        }
        let scope = form.scope();
        let mut notes = Vec::new();
        for (slot, bot) in doc.bots.iter().take(SLOTS).enumerate() {
            match bot {
                // A lesson's code is the students' start: their own work on it is kept apart
                // and comes back whenever they open the lesson again.
                // So is the code of a link that differs from the person's own saved code.
                SharedBot::Code { language, code, .. }
                    if form.lesson.is_some() || form.link.is_some() =>
                {
                    let language = language_of(language).unwrap_or(JAVASCRIPT);
                    form.bots[slot] = Slot {
                        player: language.to_string(),
                        language,
                        code: storage::load_code(&scope, slot, language)
                            .unwrap_or_else(|| code.clone()),
                    };
                }
                // Nothing saved, or the same code: the link's code is the person's.
                SharedBot::Code { language, code, .. } => {
                    let language = language_of(language).unwrap_or(JAVASCRIPT);
                    storage::save_code(game.info.id, slot, language, code);
                    form.bots[slot] = Slot {
                        player: language.to_string(),
                        language,
                        code: code.clone(),
                    };
                }
                SharedBot::Builtin { name } if bots::builtin(game.info.id, name, 0).is_some() => {
                    form.bots[slot].player = name.clone();
                }
                SharedBot::Builtin { name } => notes.push(format!(
                    "This botplay has no built-in bot '{name}': {} plays instead.",
                    form.bots[slot].player
                )),
                SharedBot::Program { name }
                    if name.ends_with(human::BY_HAND) && human::supports(game.info.id) =>
                {
                    form.bots[slot].player = HUMAN.to_string();
                }
                SharedBot::Program { name } => notes.push(format!(
                    "'{name}' was a local program: it can be watched, not re-run."
                )),
            }
        }
        self.form = form;
        self.notice = (!notes.is_empty()).then(|| notes.join(" "));
        match &doc.replay {
            Some(replay) => {
                if let Err(why) = self.show_replay(replay, "a link", doc.turn) {
                    self.notice = Some(format!("The link's match cannot be shown: {why}"));
                }
            }
            // A lesson waits for its students to press Run.
            None if doc.lesson.is_some() => {}
            // A link without its match re-runs it from the bots it carries.
            None => {
                self.run_requested = true;
                self.auto_run_link = Some(fnv(&doc.encode()));
            }
        }
    }

    pub fn new() -> AppState {
        AppState {
            isolated: isolation::cross_origin_isolated(),
            // The game last chosen in this browser (a reload keeps it), or the first.
            form: Form::new(
                storage::load_game()
                    .and_then(|id| games::GAMES.iter().find(|g| g.info.id == id))
                    .map_or(games::GAMES[0].info.id, |g| g.info.id),
                random_seed(),
            ),
            notice: None,
            progress: Progress::Idle,
            record: Rc::new(Record::default()),
            cursor: Cursor::default(),
            speed: NORMAL_SPEED,
            run_requested: false,
            auto_run_link: None,
            human: Vec::new(),
            human_inputs: Vec::new(),
            watch_next: false,
            watching: false,
        }
    }

    fn last_frame(&self) -> usize {
        self.record.frames.len().saturating_sub(1)
    }

    fn absorb(&mut self, news: MatchNews) {
        match news {
            MatchNews::Loading(text) => self.progress = Progress::Loading(text),
            MatchNews::Started => self.progress = Progress::Running,
            MatchNews::Progress { frames, turns } => {
                let record = Rc::make_mut(&mut self.record);
                record.frames.extend(frames.into_iter().map(Rc::new));
                record.turns.extend(turns.into_iter().map(Rc::new));
                if self.cursor.follow {
                    self.cursor.frame = self.last_frame();
                }
            }
            MatchNews::Finished {
                outcome,
                faults,
                stopped,
            } => {
                self.human.clear();
                let record = Rc::make_mut(&mut self.record);
                record.outcome = outcome;
                record.faults = faults;
                self.progress = if stopped {
                    Progress::Stopped
                } else {
                    Progress::Over
                };
                if self.cursor.follow {
                    self.cursor.frame = self.last_frame();
                }
                // A one-click match still being watched: fast enough to show it all.
                if self.watching && self.cursor.playing {
                    let left = self.last_frame().saturating_sub(self.cursor.frame);
                    self.speed = watch_speed(self.speed, left);
                }
                self.watching = false;
            }
            MatchNews::Failed(why) => {
                self.human.clear();
                self.progress = Progress::Failed(why)
            }
        }
    }

    /// A seat played by hand is asked: its turn is shown (and the board follows the match).
    fn human_asked(&mut self, HumanAsk { seat, input }: HumanAsk) {
        if self.human_inputs.len() <= seat {
            self.human_inputs.resize(seat + 1, Vec::new());
        }
        self.human_inputs[seat].push(input.clone());
        let desk = human::Seat::read(self.record.game, &self.human_inputs[seat]).map(Desk::new);
        self.human.push(HumanTurn {
            seat,
            input,
            desk,
            selected_at: None,
        });
        // The board shows the state the person decides on.
        self.cursor = Cursor {
            frame: self.last_frame(),
            follow: true,
            playing: false,
        };
    }
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new()
    }
}

impl Reducible for AppState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut s = (*self).clone();
        match action {
            Action::PickGame(game) => {
                storage::save_game(game);
                if game != s.form.game {
                    s.form = Form::new(game, random_seed());
                }
            }
            Action::PlayNow(game) => {
                storage::save_game(game);
                if game != s.form.game {
                    s.form = Form::new(game, random_seed());
                }
                s.run_requested = true;
                s.auto_run_link = None;
                s.watch_next = true;
            }
            Action::SetSeed(seed) => s.form.seed = seed,
            Action::SetRuleset(ruleset) => {
                // An opponent left at the league's default follows the league: Soak
                // Overflow's tutorial leagues are played against their boss.
                let game = s.form.game;
                let before = bots::default_opponent(game, &s.form.ruleset).map(|b| b.name);
                let after = bots::default_opponent(game, &ruleset).map(|b| b.name);
                if let (Some(opponent), Some(name)) = (s.form.bots.get_mut(1), after) {
                    if Some(opponent.player.as_str()) == before {
                        opponent.player = name.to_string();
                    }
                }
                s.form.ruleset = ruleset;
            }
            Action::SetOption(key, value) => {
                if value.is_empty() {
                    s.form.options.remove(&key);
                } else {
                    s.form.options.insert(key, value);
                }
            }
            Action::SetCode(slot, code) => {
                if let Some(bot) = s.form.bots.get_mut(slot) {
                    bot.code = code;
                }
            }
            Action::SetPlayer(slot, player) => {
                let (game, scope) = (s.form.game, s.form.scope());
                if let Some(bot) = s.form.bots.get_mut(slot) {
                    // Choosing a language shows that language's code in the slot's editor.
                    if let Some(language) = language_of(&player) {
                        if slot == 0 {
                            storage::save_language(game, language);
                        }
                        if language != bot.language {
                            bot.language = language;
                            bot.code = saved_or_starter(&scope, game, slot, language);
                        }
                    }
                    bot.player = player;
                }
            }
            Action::SetSeats(seats) => s.form.seats = seats,
            Action::SetRelaxed(relaxed) => s.form.relaxed = relaxed,
            Action::Notice(text) => {
                s.run_requested = false;
                s.watch_next = false;
                s.notice = Some(text);
            }
            Action::Started(spec) => {
                s.run_requested = false;
                s.notice = None;
                s.progress = Progress::Starting;
                s.record = Rc::new(Record {
                    game: entry(&spec.setup.game).info.id,
                    setup: Some(spec.setup.clone()),
                    names: spec.seats.iter().map(|seat| seat.name.clone()).collect(),
                    bots: spec.seats.iter().map(SeatSpec::shared).collect(),
                    relaxed: spec.relaxed,
                    ..Record::default()
                });
                // A one-click match plays from its start; any other follows the newest frame.
                s.watching = std::mem::take(&mut s.watch_next);
                s.cursor = Cursor {
                    frame: 0,
                    follow: !s.watching,
                    playing: s.watching,
                };
                s.human.clear();
                s.human_inputs.clear();
            }
            Action::News(news) => s.absorb(news),
            Action::Seek(frame) => {
                s.cursor = Cursor {
                    frame: frame.min(s.last_frame()),
                    follow: false,
                    playing: false,
                };
            }
            Action::Step(by) => {
                let frame = s.cursor.frame.saturating_add_signed(by).min(s.last_frame());
                s.cursor = Cursor {
                    frame,
                    follow: s.progress.is_live() && frame == s.last_frame(),
                    playing: false,
                };
            }
            Action::TogglePlay => {
                if s.cursor.playing {
                    s.cursor.playing = false;
                    s.cursor.follow = false;
                } else {
                    if s.cursor.frame >= s.last_frame() && !s.progress.is_live() {
                        s.cursor.frame = 0;
                    }
                    s.cursor.playing = true;
                    s.cursor.follow = false;
                }
            }
            Action::ChangeSpeed(by) => {
                s.speed = s.speed.saturating_add_signed(by).min(SPEEDS.len() - 1);
            }
            Action::SetSpeed(index) => s.speed = index.min(SPEEDS.len() - 1),
            Action::NextFault => {
                if let Some(frame) = s.record.next_fault(s.cursor.frame) {
                    s.cursor = Cursor::at(frame);
                }
            }
            Action::NextElimination => {
                if let Some(frame) = s.record.next_elimination(s.cursor.frame) {
                    s.cursor = Cursor::at(frame);
                }
            }
            Action::OpenLink(doc) => s.open_link(doc),
            Action::ShowReplay(replay, source) => {
                if let Err(why) = s.show_replay(&replay, &source, None) {
                    s.notice = Some(why);
                }
            }
            Action::UseLinkCode => {
                if let Some(link) = s.form.link.take() {
                    let (game, scope) = (s.form.game, format!("{}/link-{}", s.form.game, link.id));
                    for &slot in &link.slots {
                        let bot = &s.form.bots[slot];
                        if bot.is_code() {
                            storage::replace_code(game, slot, bot.language, &bot.code, &bot.code);
                            storage::forget_code(&scope, slot, bot.language);
                        }
                    }
                    s.notice = Some(
                        "The link's code is now your code; your previous code is under \
                         Earlier versions."
                            .to_string(),
                    );
                }
            }
            Action::BackToMyCode => {
                if s.form.link.take().is_some() {
                    let game = s.form.game;
                    for (slot, bot) in s.form.bots.iter_mut().enumerate() {
                        bot.code = saved_or_starter(game, game, slot, bot.language);
                    }
                    s.notice = None;
                }
            }
            Action::LeaveLesson => {
                if s.form.lesson.is_some() {
                    s.form = Form::new(s.form.game, random_seed());
                    s.notice = None;
                }
            }
            Action::HumanAsked(ask) => s.human_asked(ask),
            Action::HumanClick(cell, at) => {
                if let Some(HumanTurn {
                    desk: Ok(desk),
                    selected_at,
                    ..
                }) = s.human.first_mut()
                {
                    let before = desk.selected;
                    desk.click(cell);
                    if desk.selected != before {
                        *selected_at = desk.selected.map(|_| at);
                    }
                }
            }
            Action::HumanPress(key) => {
                if let Some(HumanTurn { desk: Ok(desk), .. }) = s.human.first_mut() {
                    desk.press(key);
                }
            }
            Action::HumanUndo => {
                if let Some(HumanTurn { desk: Ok(desk), .. }) = s.human.first_mut() {
                    desk.undo();
                }
            }
            Action::HumanClear => {
                if let Some(HumanTurn {
                    desk: Ok(desk),
                    selected_at,
                    ..
                }) = s.human.first_mut()
                {
                    desk.clear();
                    *selected_at = None;
                }
            }
            Action::HumanSent => {
                if !s.human.is_empty() {
                    s.human.remove(0);
                }
            }
            Action::Tick => {
                if s.cursor.playing {
                    if s.cursor.frame < s.last_frame() {
                        s.cursor.frame += 1;
                    } else if s.progress.is_live() {
                        // Caught up with a live match: follow it, unless it is being watched
                        // from its start (then playback waits for the next frames).
                        if !s.watching {
                            s.cursor.playing = false;
                            s.cursor.follow = true;
                        }
                    } else {
                        s.cursor.playing = false;
                    }
                }
            }
        }
        Rc::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{FaultKind, SeatTurn};

    fn frame(turn: u32) -> Rc<Frame> {
        Rc::new(Frame {
            turn,
            events: Vec::new(),
            status: Vec::new(),
            out: Vec::new(),
            text: String::new(),
            view: serde_json::Value::Null,
        })
    }

    fn turn(fault: Option<u32>) -> Rc<TurnRecord> {
        let mut seat = SeatTurn::new(0, 0, String::new());
        seat.fault = fault.map(|turn| Fault {
            seat: 0,
            turn,
            kind: FaultKind::Crash,
            text: "boom".into(),
        });
        Rc::new(TurnRecord { seats: vec![seat] })
    }

    #[test]
    fn turns_are_numbered_as_the_game_counts_them() {
        // Skyport: two set-up frames (turn 0), then turns 1 and 2.
        let record = Record {
            frames: vec![frame(0), frame(0), frame(0), frame(1), frame(2)],
            turns: vec![turn(None), turn(None), turn(None), turn(None)],
            ..Record::default()
        };
        let numbers: Vec<u32> = (0..5).map(|f| record.turn_number(f)).collect();
        assert_eq!(numbers, [0, 0, 0, 1, 2]);
        assert_eq!(record.last_turn_number(), 2);
        // Ice and Fire: a crash in the first turn ends the match before the count moves; it is
        // turn 1, in the viewer and in the fault.
        let record = Record {
            frames: vec![frame(0), frame(0)],
            turns: vec![turn(Some(0))],
            faults: vec![turn(Some(0)).seats[0].fault.clone().unwrap()],
            ..Record::default()
        };
        assert_eq!(record.turn_number(1), 1);
        assert_eq!(record.last_turn_number(), 1);
        assert_eq!(record.fault_turn_number(&record.faults[0]), 1);
    }

    #[test]
    fn a_watched_match_takes_twenty_seconds_at_most_and_never_slows_down() {
        // 36 frames at 1× (250 ms each): 9 s.
        assert_eq!(watch_speed(NORMAL_SPEED, 36), NORMAL_SPEED);
        // 200 frames: 50 s at 1×, 25 s at 2×, 12.5 s at 4×.
        assert_eq!(SPEEDS[watch_speed(NORMAL_SPEED, 200)], 4.0);
        // A chosen faster speed stays.
        assert_eq!(watch_speed(6, 10), 6);
        // Longer than 20 s even at the fastest: the fastest.
        assert_eq!(watch_speed(NORMAL_SPEED, 100_000), SPEEDS.len() - 1);
    }
}
