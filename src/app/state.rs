//! The page's state and its reducer: the match set-up form, the match being shown, the viewer.

use std::rc::Rc;

use engine::{Fault, Frame, GameEntry, Outcome, Replay, Setup, ShareDoc, SharedBot, TurnRecord};
use yew::Reducible;

use crate::bot_worker_host::BotSource;
use crate::runner::{MatchNews, MatchSpec, SeatSpec};
use crate::{isolation, starter, storage};

/// The name the person's bot has in replays and in the viewer.
pub const YOUR_BOT: &str = "your bot";
/// The first seat's choices that mean "the code in the editor", in that language.
pub const JAVASCRIPT: &str = "javascript";
pub const PYTHON: &str = "python";
/// The editor's languages: choice value and name shown.
pub const LANGUAGES: [(&str, &str); 2] = [(JAVASCRIPT, "JavaScript"), (PYTHON, "Python")];

/// What the match form holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub game: &'static str,
    pub seed: String,
    pub ruleset: String,
    /// The editor's code, in [`Form::language`].
    pub code: String,
    /// The editor's language: [`JAVASCRIPT`] or [`PYTHON`].
    pub language: &'static str,
    /// Who plays the first seat: a language (the editor's code) or a built-in bot's name.
    pub player: String,
    pub opponent: String,
    /// How many bots play (games for more than two: the opponent fills the other seats).
    pub seats: usize,
    pub relaxed: bool,
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
}

/// Playback speeds, as multiples of the normal pace.
pub const SPEEDS: [f64; 8] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0];
/// The speed a new page plays at (1×).
const NORMAL_SPEED: usize = 2;

pub enum Action {
    PickGame(&'static str),
    SetSeed(String),
    SetRuleset(String),
    SetCode(String),
    SetPlayer(String),
    SetOpponent(String),
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
    /// Open a share link: its set-up and bots go into the form; its replay, if any, is shown.
    OpenLink(ShareDoc),
    /// Show a replay (re-run by the engine, no bot is run); the text says where it came from.
    ShowReplay(Replay, String),
    /// Put back the code the editor held before a link replaced it.
    RestoreCode,
}

/// The code saved for a game and language, or its starter bot.
fn saved_or_starter(game: &str, language: &str) -> String {
    storage::load_code(game, 0, language)
        .unwrap_or_else(|| starter::code(game, language).to_string())
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
        Form {
            game,
            seed: seed.to_string(),
            ruleset: info.default_ruleset.to_string(),
            code: saved_or_starter(game, JAVASCRIPT),
            language: JAVASCRIPT,
            player: JAVASCRIPT.to_string(),
            opponent: bots::builtins(game)
                .last()
                .map(|b| b.name.to_string())
                .unwrap_or_default(),
            seats: info.min_seats,
            relaxed: false,
        }
    }

    /// The match this form describes: the person's bot (or a built-in) in seat 1, the opponent
    /// in the others.
    pub fn spec(&self, isolated: bool) -> Result<MatchSpec, String> {
        let info = entry(self.game).info;
        let seed: i64 = self.seed.trim().parse().map_err(|_| {
            format!(
                "the seed must be a whole number, not '{}'",
                self.seed.trim()
            )
        })?;
        let editor = self.player == JAVASCRIPT || self.player == PYTHON;
        if editor && !isolated {
            return Err(isolation::NOT_ISOLATED.to_string());
        }
        if self.opponent.is_empty() {
            return Err(format!(
                "{} has no built-in bot to play against yet",
                info.name
            ));
        }
        let mut setup = Setup::new(info, seed);
        setup.ruleset = self.ruleset.clone();
        setup.seats = self.seats.clamp(info.min_seats, info.max_seats);
        setup.check(info).map_err(|e| e.to_string())?;
        match games::new_game(&setup) {
            // Seed 0 gives a random map in some originals (Soak Overflow): the page picks a
            // seed, and the form shows it.
            Err(engine::SetupError::BadOption { key, .. }) if key == "seed" && seed == 0 => {
                setup.seed = random_seed();
            }
            Err(why) => return Err(why.to_string()),
            Ok(_) => {}
        }
        let mut seats = vec![if editor {
            SeatSpec {
                name: YOUR_BOT.to_string(),
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
        }];
        while seats.len() < setup.seats {
            seats.push(SeatSpec {
                name: self.opponent.clone(),
                source: BotSource::Builtin(self.opponent.clone()),
            });
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
        form.relaxed = doc.relaxed;
        let mut notes = Vec::new();
        match doc.bots.first() {
            Some(SharedBot::Code { language, code, .. }) => {
                let language = LANGUAGES
                    .iter()
                    .map(|(l, _)| *l)
                    .find(|l| l == language)
                    .unwrap_or(JAVASCRIPT);
                let saved = storage::load_code(game.info.id, 0, language);
                if saved.as_ref().is_some_and(|saved| saved != code) {
                    storage::keep_backup(game.info.id, 0, language, saved.as_deref().unwrap_or(""));
                    notes.push(
                        "The link's code is in the editor; your previous code is kept (Restore my code).",
                    );
                }
                storage::save_code(game.info.id, 0, language, code);
                form.language = language;
                form.player = language.to_string();
                form.code = code.clone();
            }
            Some(SharedBot::Builtin { name }) if bots::builtin(game.info.id, name, 0).is_some() => {
                form.player = name.clone();
            }
            _ => notes.push(
                "The first bot of this link is a local program: it can be watched, not re-run.",
            ),
        }
        match doc.bots.get(1) {
            Some(SharedBot::Builtin { name }) if bots::builtin(game.info.id, name, 0).is_some() => {
                form.opponent = name.clone();
            }
            Some(SharedBot::Code { .. }) => notes.push(
                "The second bot of this link is code; a built-in bot replaces it when you run.",
            ),
            _ => {}
        }
        self.form = form;
        self.notice = (!notes.is_empty()).then(|| notes.join(" "));
        match &doc.replay {
            Some(replay) => {
                if let Err(why) = self.show_replay(replay, "a link", doc.turn) {
                    self.notice = Some(format!("The link's match cannot be shown: {why}"));
                }
            }
            // A link without its match re-runs it from the bots it carries.
            None => self.run_requested = true,
        }
    }

    pub fn new() -> AppState {
        AppState {
            isolated: isolation::cross_origin_isolated(),
            form: Form::new(games::GAMES[0].info.id, random_seed()),
            notice: None,
            progress: Progress::Idle,
            record: Rc::new(Record::default()),
            cursor: Cursor::default(),
            speed: NORMAL_SPEED,
            run_requested: false,
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
            }
            MatchNews::Failed(why) => self.progress = Progress::Failed(why),
        }
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
                if game != s.form.game {
                    s.form = Form::new(game, random_seed());
                }
            }
            Action::SetSeed(seed) => s.form.seed = seed,
            Action::SetRuleset(ruleset) => s.form.ruleset = ruleset,
            Action::SetCode(code) => s.form.code = code,
            Action::SetPlayer(player) => {
                // Choosing a language shows that language's code in the editor.
                if let Some(&(language, _)) = LANGUAGES.iter().find(|(l, _)| *l == player) {
                    if language != s.form.language {
                        s.form.language = language;
                        s.form.code = saved_or_starter(s.form.game, language);
                    }
                }
                s.form.player = player;
            }
            Action::SetOpponent(name) => s.form.opponent = name,
            Action::SetSeats(seats) => s.form.seats = seats,
            Action::SetRelaxed(relaxed) => s.form.relaxed = relaxed,
            Action::Notice(text) => {
                s.run_requested = false;
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
                s.cursor = Cursor {
                    frame: 0,
                    follow: true,
                    playing: false,
                };
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
                let from = s.cursor.frame;
                // Frame f shows the state after turn record f − 1.
                if let Some(frame) = (from + 1..=s.last_frame()).find(|&f| {
                    s.record
                        .turns
                        .get(f - 1)
                        .is_some_and(|t| t.seats.iter().any(|st| st.fault.is_some()))
                }) {
                    s.cursor = Cursor {
                        frame,
                        follow: false,
                        playing: false,
                    };
                }
            }
            Action::OpenLink(doc) => s.open_link(doc),
            Action::ShowReplay(replay, source) => {
                if let Err(why) = s.show_replay(&replay, &source, None) {
                    s.notice = Some(why);
                }
            }
            Action::RestoreCode => {
                let (game, language) = (s.form.game, s.form.language);
                if let Some(code) = storage::take_backup(game, 0, language) {
                    storage::save_code(game, 0, language, &code);
                    s.form.code = code;
                    s.notice = Some("Your previous code is back in the editor.".into());
                }
            }
            Action::Tick => {
                if s.cursor.playing {
                    if s.cursor.frame < s.last_frame() {
                        s.cursor.frame += 1;
                    } else if s.progress.is_live() {
                        s.cursor.playing = false;
                        s.cursor.follow = true;
                    } else {
                        s.cursor.playing = false;
                    }
                }
            }
        }
        Rc::new(s)
    }
}
