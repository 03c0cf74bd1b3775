//! The page's state and its reducer: the match set-up form, the match being shown, the viewer.

use std::rc::Rc;

use engine::{Fault, Frame, GameEntry, Outcome, Setup, TurnRecord};
use yew::Reducible;

use crate::bot_worker_host::BotSource;
use crate::runner::{MatchNews, MatchSpec, SeatSpec};
use crate::{isolation, starter, storage};

/// The name the person's bot has in replays and in the viewer.
pub const YOUR_BOT: &str = "your bot";
/// The first seat's choice that means "the JavaScript bot in the editor".
pub const JAVASCRIPT: &str = "javascript";

/// What the match form holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Form {
    pub game: &'static str,
    pub seed: String,
    pub ruleset: String,
    pub code: String,
    /// Who plays the first seat: [`JAVASCRIPT`] (the editor's code) or a built-in bot's name.
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
    /// The bots' workers are starting.
    Starting,
    Running,
    Over,
    Stopped,
    Failed(String),
}

impl Progress {
    pub fn is_live(&self) -> bool {
        matches!(self, Progress::Starting | Progress::Running)
    }
}

/// The match being shown: what the runner reported so far.
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub game: &'static str,
    pub names: Vec<String>,
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
}

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
}

/// A seed for a new page: random, shown and editable.
pub fn random_seed() -> i64 {
    (js_sys::Math::random() * 1_000_000_000.0) as i64
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
            code: storage::load_code(game, 0)
                .unwrap_or_else(|| starter::javascript(game).to_string()),
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
        let javascript = self.player == JAVASCRIPT;
        if javascript && !isolated {
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
        let mut seats = vec![if javascript {
            SeatSpec {
                name: YOUR_BOT.to_string(),
                source: BotSource::JavaScript(self.code.clone()),
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
    pub fn new() -> AppState {
        AppState {
            isolated: isolation::cross_origin_isolated(),
            form: Form::new(games::GAMES[0].info.id, random_seed()),
            notice: None,
            progress: Progress::Idle,
            record: Rc::new(Record::default()),
            cursor: Cursor::default(),
        }
    }

    fn last_frame(&self) -> usize {
        self.record.frames.len().saturating_sub(1)
    }

    fn absorb(&mut self, news: MatchNews) {
        match news {
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
            Action::SetPlayer(player) => s.form.player = player,
            Action::SetOpponent(name) => s.form.opponent = name,
            Action::SetSeats(seats) => s.form.seats = seats,
            Action::SetRelaxed(relaxed) => s.form.relaxed = relaxed,
            Action::Notice(text) => s.notice = Some(text),
            Action::Started(spec) => {
                s.notice = None;
                s.progress = Progress::Starting;
                s.record = Rc::new(Record {
                    game: entry(&spec.setup.game).info.id,
                    names: spec.seats.iter().map(|seat| seat.name.clone()).collect(),
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
