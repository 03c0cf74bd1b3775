//! The page's state and its reducer, by concern: the match set-up form (`form.rs`), the match
//! shown and its playback (`record.rs`), the seats played by hand (`human_turns.rs`), a match
//! taken over from a turn and the original beside it (`take_over.rs`). The reducer
//! is a pure function of the state, the action and an environment (`env.rs`: the browser's
//! storage and random seeds), so that it is tested natively (the tests below).

mod env;
mod form;
mod human_turns;
mod record;
pub mod take_over;

use std::rc::Rc;

use engine::{Replay, ShareDoc, SharedBot};
use yew::Reducible;

use crate::human::{self, HUMAN};
use crate::isolation;
use crate::runner::{HumanAsk, MatchNews, MatchSpec};

pub use env::{random_seed, Browser, Env};
pub use form::{
    entry, ActiveLesson, Form, LinkCode, Slot, JAVASCRIPT, LANGUAGES, PYTHON, SLOTS, SLOT_NAMES,
    TYPESCRIPT, WASM,
};
use form::{fnv, language_of};
pub use human_turns::HumanTurn;
use record::NORMAL_SPEED;
pub use record::{watch_speed, Cursor, Progress, Record, PLAY_FRAME_MS, SPEEDS};

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
    /// The result of a one-click match is kept for the end of its playback (a demonstration is
    /// not spoiled): until the cursor reaches the last frame of the match over, or a click.
    pub hide_result: bool,
    /// The presenter view: the board and the console side by side, in large type, nothing else
    /// (the result kept for the end of the playback).
    pub presenting: bool,
    /// A match taken over from a turn of another: the other one, to switch to.
    pub compare: Option<take_over::Compare>,
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
    /// Show a match played in this page, with each seat's bot when the page knows it (its code:
    /// taken over, a seat can be played again as recorded).
    ShowPlayed(Replay, Option<Vec<SharedBot>>, String),
    /// Close the lesson: the game's own saved code comes back.
    LeaveLesson,
    /// The link's code (as the editors show it) becomes the person's saved code, which goes
    /// into its history (the person confirmed).
    UseLinkCode,
    /// Leave the link's code: the person's own saved code comes back.
    BackToMyCode,
    /// Show the original match instead of the one that took it over, or back (at the same turn).
    SwitchMatch,
    /// Show the result of a one-click match before its playback reaches the end.
    RevealResult,
    /// Enter (`true`) or leave the presenter view.
    Present(bool),
}

impl AppState {
    /// Re-runs a replay with the engine and shows it at `turn` (the start by default).
    fn show_replay(
        &mut self,
        replay: &Replay,
        source: &str,
        turn: Option<usize>,
        known: Option<Vec<SharedBot>>,
    ) -> Result<(), String> {
        let game = games::entry(&replay.setup.game)
            .ok_or_else(|| format!("this replay is of an unknown game '{}'", replay.setup.game))?;
        let referee = replay.rerun(game).map_err(|e| e.to_string())?;
        let bots = known
            .filter(|bots| bots.len() == replay.bots.len())
            .unwrap_or_else(|| {
                let names = replay.bots.iter();
                names.map(|n| SharedBot::of_replay_name(n)).collect()
            });
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
            from: replay.from.clone(),
            worker_keeps: false,
        });
        self.compare = None;
        self.progress = Progress::Replayed(source.to_string());
        self.cursor = Cursor {
            frame: turn.unwrap_or(0).min(self.last_frame()),
            follow: false,
            playing: false,
        };
        Ok(())
    }

    /// Puts a link's set-up and bots into the form and shows its replay, if it has one.
    fn open_link(&mut self, doc: ShareDoc, env: &mut dyn Env) {
        let Some(game) = games::entry(&doc.setup.game) else {
            self.notice = Some(format!(
                "This link is of a game this botplay does not have: '{}'.",
                doc.setup.game
            ));
            return;
        };
        let mut form = Form::new(game.info.id, doc.setup.seed, env);
        form.ruleset = doc.setup.ruleset.clone();
        form.options = doc.setup.options.clone();
        form.relaxed = doc.relaxed;
        form.seats = doc.setup.seats;
        form.lesson = doc
            .lesson
            .as_ref()
            .map(|l| Rc::new(ActiveLesson::of(&doc, l)));
        if form.lesson.is_none() {
            form.link = LinkCode::of(&doc, game.info.id, env).map(Rc::new);
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
                        code: env
                            .load_code(&scope, slot, language)
                            .unwrap_or_else(|| code.clone()),
                    };
                }
                // Nothing saved, or the same code: the link's code is the person's.
                SharedBot::Code { language, code, .. } => {
                    let language = language_of(language).unwrap_or(JAVASCRIPT);
                    env.save_code(game.info.id, slot, language, code);
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
                // The link's bots, not the replay's names: its code and built-in bots can play
                // again when the match is taken over.
                let bots = Some(doc.bots.clone());
                if let Err(why) = self.show_replay(replay, "a link", doc.turn, bots) {
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

    /// The page's state when it opens: the game last chosen in this browser (a reload keeps
    /// it), or the first.
    pub fn new() -> AppState {
        AppState::opening(&mut Browser, isolation::cross_origin_isolated())
    }

    /// [`AppState::new`] in an environment.
    pub fn opening(env: &mut dyn Env, isolated: bool) -> AppState {
        let game = env
            .load_game()
            .and_then(|id| games::GAMES.iter().find(|g| g.info.id == id))
            .map_or(games::GAMES[0].info.id, |g| g.info.id);
        let seed = env.random_seed();
        let mut state = AppState {
            isolated,
            form: Form::new(game, seed, env),
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
            hide_result: false,
            presenting: false,
            compare: None,
        };
        state.show_start(seed);
        state
    }

    /// A new form for `game`, unless it is the one shown; remembered as the game last chosen.
    fn pick_game(&mut self, game: &'static str, env: &mut dyn Env) {
        env.save_game(game);
        if game != self.form.game {
            let seed = env.random_seed();
            self.form = Form::new(game, seed, env);
            // The new game's start replaces the other game's match (a match being played goes
            // on, shown until it ends).
            if !self.progress.is_live() {
                self.show_start(seed);
            }
        }
    }

    /// The form's game at its start on `seed`, no match played.
    fn show_start(&mut self, seed: i64) {
        let game = self.form.game;
        let setup = engine::Setup::new(entry(game).info, seed);
        let frames = games::new_game(&setup)
            .map(|g| vec![Rc::new(g.frame())])
            .unwrap_or_default();
        self.record = Rc::new(Record {
            game,
            frames,
            ..Record::default()
        });
        self.progress = Progress::Idle;
        self.compare = None;
        self.cursor = Cursor::default();
    }

    /// What the gallery's one-click Play of `game` plays, in words: "starter bot vs soaker",
    /// "your bot vs soaker" (the editor holds code of the person's), "the link's bot vs …"; the
    /// form it would play is this one for the game shown, the game's own otherwise.
    pub fn play_now_label(&self, game: &'static str, env: &dyn Env) -> String {
        let other;
        let form = if game == self.form.game {
            &self.form
        } else {
            other = Form::new(game, 0, env);
            &other
        };
        let mine = &form.bots[0];
        let who = if !mine.is_code() {
            mine.player.clone()
        } else if form.lesson.is_some() {
            "the lesson's bot".to_string()
        } else if form.link.is_some() {
            "the link's bot".to_string()
        } else if mine.code == crate::starter::code(game, mine.language) {
            "starter bot".to_string()
        } else {
            "your bot".to_string()
        };
        let opponent = &form.bots[1];
        let against = if opponent.is_code() {
            "your second bot".to_string()
        } else {
            opponent.player.clone()
        };
        format!("Play: {who} vs {against}")
    }

    /// The reducer: the state after `action`, in `env`.
    pub fn apply(&mut self, action: Action, env: &mut dyn Env) {
        match action {
            Action::PickGame(game) => self.pick_game(game, env),
            Action::PlayNow(game) => {
                self.pick_game(game, env);
                self.run_requested = true;
                self.auto_run_link = None;
                self.watch_next = true;
            }
            Action::SetSeed(seed) => self.form.seed = seed,
            Action::SetRuleset(ruleset) => self.form.set_ruleset(ruleset),
            Action::SetOption(key, value) => self.form.set_option(key, value),
            Action::SetCode(slot, code) => {
                if let Some(bot) = self.form.bots.get_mut(slot) {
                    bot.code = code;
                }
            }
            Action::SetPlayer(slot, player) => self.form.set_player(slot, player, env),
            Action::SetSeats(seats) => self.form.seats = seats,
            Action::SetRelaxed(relaxed) => self.form.relaxed = relaxed,
            Action::Notice(text) => {
                self.run_requested = false;
                self.watch_next = false;
                self.notice = Some(text);
            }
            Action::Started(spec) => self.started(&spec),
            Action::News(news) => self.absorb(news),
            Action::Seek(frame) => self.seek(frame),
            Action::Step(by) => self.step(by),
            Action::TogglePlay => self.toggle_play(),
            Action::Tick => self.tick(),
            Action::ChangeSpeed(by) => self.set_speed(self.speed.saturating_add_signed(by)),
            Action::SetSpeed(index) => self.set_speed(index),
            Action::NextFault => self.jump(Record::next_fault),
            Action::NextElimination => self.jump(Record::next_elimination),
            Action::OpenLink(doc) => self.open_link(doc, env),
            Action::ShowReplay(replay, source) => {
                if let Err(why) = self.show_replay(&replay, &source, None, None) {
                    self.notice = Some(why);
                }
            }
            Action::ShowPlayed(replay, bots, source) => {
                if let Err(why) = self.show_replay(&replay, &source, None, bots) {
                    self.notice = Some(why);
                }
            }
            Action::UseLinkCode => {
                if self.form.use_link_code(env) {
                    self.notice = Some(
                        "The link's code is now your code; your previous code is under \
                         Earlier versions."
                            .to_string(),
                    );
                }
            }
            Action::BackToMyCode => {
                if self.form.back_to_my_code(env) {
                    self.notice = None;
                }
            }
            Action::LeaveLesson => {
                if self.form.lesson.is_some() {
                    let seed = env.random_seed();
                    self.form = Form::new(self.form.game, seed, env);
                    self.notice = None;
                }
            }
            Action::HumanAsked(ask) => self.human_asked(ask),
            Action::HumanClick(cell, at) => self.human_click(cell, at),
            Action::HumanPress(key) => self.human_press(key),
            Action::HumanUndo => self.human_undo(),
            Action::HumanClear => self.human_clear(),
            Action::HumanSent => self.human_sent(),
            Action::SwitchMatch => self.switch_match(),
            Action::RevealResult => self.hide_result = false,
            Action::Present(on) => {
                // A match shown before its end keeps its result for the end, on the projector.
                if on && !self.presenting && self.record.outcome.is_some() {
                    self.hide_result = self.cursor.frame < self.last_frame();
                }
                self.presenting = on;
            }
        }
        if self.hide_result && !self.progress.is_live() && self.cursor.frame >= self.last_frame() {
            self.hide_result = false;
        }
    }

    /// The match that would take over the one shown after its frame `frame`, played as `picks`
    /// says (one choice per seat, [`take_over::choices`]).
    pub fn take_over_spec(
        &self,
        frame: usize,
        picks: &[String],
    ) -> Result<crate::runner::MatchSpec, String> {
        if let Some(why) = take_over::refusal(&self.record, &self.progress, frame) {
            return Err(why);
        }
        take_over::spec(&self.record, &self.form, frame, picks, self.isolated)
    }

    /// The original and the match that took it over trade places, at the same turn (not while
    /// the new match is being played).
    fn switch_match(&mut self) {
        if self.progress.is_live() {
            return;
        }
        let Some(compare) = self.compare.as_mut() else {
            return;
        };
        let frame = self.record.same_turn(self.cursor.frame, &compare.other);
        std::mem::swap(&mut self.record, &mut compare.other);
        std::mem::swap(&mut self.progress, &mut compare.other_progress);
        compare.showing_original = !compare.showing_original;
        self.cursor = Cursor::at(frame);
        // The original's match worker went when the new match started.
        self.keep_pictures_shown();
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
        let mut state = (*self).clone();
        state.apply(action, &mut Browser);
        Rc::new(state)
    }
}

/// News the tests give the page's state.
#[cfg(test)]
pub(crate) mod news {
    use super::Action;
    use crate::runner::MatchNews;

    /// The match stopped by the person, no result.
    pub fn stopped() -> Action {
        Action::News(MatchNews::Finished {
            outcome: None,
            faults: Vec::new(),
            stopped: true,
        })
    }

    /// The match over as `referee` ended it.
    pub fn over(referee: &engine::Referee) -> Action {
        Action::News(MatchNews::Finished {
            outcome: referee.outcome(),
            faults: referee.faults().to_vec(),
            stopped: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::env::Memory;
    use super::*;
    use crate::runner::{BotSource, SeatSpec};
    use engine::{Frame, Outcome, Setup, TurnRecord};

    fn opened(env: &mut Memory) -> AppState {
        AppState::opening(env, true)
    }

    fn frame(turn: u32) -> Frame {
        Frame::written_out(
            turn,
            Vec::new(),
            Vec::new(),
            Vec::new(),
            String::new(),
            "null".into(),
        )
    }

    /// A match of `frames` frames reported by the runner, finished.
    fn played(state: &mut AppState, env: &mut Memory, frames: u32, finished: bool) {
        let spec = state.form.spec(true, || 5).expect("a match");
        state.apply(Action::Started(spec), env);
        state.apply(
            Action::News(MatchNews::Progress {
                frames: (0..frames).map(frame).collect(),
                turns: (1..frames)
                    .map(|_| TurnRecord { seats: Vec::new() })
                    .collect(),
            }),
            env,
        );
        if finished {
            state.apply(
                Action::News(MatchNews::Finished {
                    outcome: Some(Outcome {
                        scores: vec![1, 0],
                        ranks: vec![1, 2],
                        reason: "a test".into(),
                    }),
                    faults: Vec::new(),
                    stopped: false,
                }),
                env,
            );
        }
    }

    #[test]
    fn a_page_opens_on_the_game_last_chosen_with_a_seed_from_its_environment() {
        let mut env = Memory::default();
        let first = opened(&mut env);
        assert_eq!(first.form.game, games::GAMES[0].info.id);
        assert_eq!(first.form.seed, "1001");
        let mut state = first.clone();
        state.apply(Action::PickGame("soak-overflow"), &mut env);
        assert_eq!(
            (state.form.game, state.form.seed.as_str()),
            ("soak-overflow", "1002")
        );
        // Picking the game shown keeps its form.
        state.apply(Action::SetSeed("7".into()), &mut env);
        state.apply(Action::PickGame("soak-overflow"), &mut env);
        assert_eq!(state.form.seed, "7");
        let again = opened(&mut env);
        assert_eq!(again.form.game, "soak-overflow");
    }

    #[test]
    fn a_language_shows_its_saved_code_or_the_starter_and_is_remembered_for_the_game() {
        let mut env = Memory::default();
        env.save_code("micro-rts", 0, PYTHON, "print('mine')");
        let mut state = opened(&mut env);
        state.apply(Action::PickGame("micro-rts"), &mut env);
        assert_eq!(state.form.bots[0].language, JAVASCRIPT);
        assert_eq!(
            state.form.bots[0].code,
            crate::starter::code("micro-rts", JAVASCRIPT)
        );
        state.apply(Action::SetPlayer(0, PYTHON.into()), &mut env);
        assert_eq!(state.form.bots[0].code, "print('mine')");
        assert_eq!(env.load_language("micro-rts").as_deref(), Some(PYTHON));
        // The opponent's choice is not the person's language.
        state.apply(Action::SetPlayer(1, JAVASCRIPT.into()), &mut env);
        assert_eq!(env.load_language("micro-rts").as_deref(), Some(PYTHON));
        // A new form for the game starts in Python.
        let reopened = opened(&mut env);
        assert_eq!(reopened.form.bots[0].language, PYTHON);
        // TypeScript: its own starter, and a bot of its own language.
        state.apply(Action::SetPlayer(0, TYPESCRIPT.into()), &mut env);
        assert_eq!(
            state.form.bots[0].code,
            crate::starter::code("micro-rts", TYPESCRIPT)
        );
        assert!(state.form.bots[0].code.contains("starter bot (TypeScript)"));
        assert!(matches!(
            state.form.bots[0].seat(0).source,
            crate::runner::BotSource::TypeScript(_)
        ));
    }

    #[test]
    fn a_links_code_that_differs_is_kept_apart_until_the_person_takes_it() {
        let mut env = Memory::default();
        env.save_code("ice-and-fire", 0, JAVASCRIPT, "// mine");
        let mut state = opened(&mut env);
        let setup = Setup::new(games::ice_and_fire::ENTRY.info, 3);
        let doc = ShareDoc {
            setup,
            relaxed: false,
            bots: vec![
                SharedBot::Code {
                    name: "a friend's bot".into(),
                    language: JAVASCRIPT.into(),
                    code: "// theirs".into(),
                },
                SharedBot::Builtin {
                    name: "expander".into(),
                },
            ],
            replay: None,
            turn: None,
            lesson: None,
        };
        state.apply(Action::OpenLink(doc.clone()), &mut env);
        assert!(state.form.link.is_some() && state.run_requested);
        assert_eq!(state.form.bots[0].code, "// theirs");
        assert_eq!(
            env.load_code("ice-and-fire", 0, JAVASCRIPT).as_deref(),
            Some("// mine")
        );
        state.apply(Action::BackToMyCode, &mut env);
        assert_eq!(state.form.bots[0].code, "// mine");
        state.apply(Action::OpenLink(doc), &mut env);
        state.apply(Action::UseLinkCode, &mut env);
        assert!(state.form.link.is_none());
        assert_eq!(
            env.load_code("ice-and-fire", 0, JAVASCRIPT).as_deref(),
            Some("// theirs")
        );
    }

    #[test]
    fn another_game_shows_its_start_instead_of_the_match_of_the_game_before() {
        let mut env = Memory::default();
        let mut state = opened(&mut env);
        state.apply(Action::PickGame("ice-and-fire"), &mut env);
        played(&mut state, &mut env, 4, true);
        assert_eq!(state.record.game, "ice-and-fire");
        state.apply(Action::PickGame("soak-overflow"), &mut env);
        assert_eq!(state.record.game, "soak-overflow");
        assert_eq!(state.record.frames.len(), 1, "the start of the new game");
        assert!(
            state.record.setup.is_none(),
            "no match to share or take over"
        );
        assert_eq!(state.progress, Progress::Idle);
        assert_eq!(state.cursor.frame, 0);
    }

    #[test]
    fn a_one_click_match_keeps_its_result_for_the_end_of_its_playback() {
        let mut env = Memory::default();
        let mut state = opened(&mut env);
        state.apply(Action::PlayNow("ice-and-fire"), &mut env);
        played(&mut state, &mut env, 6, true);
        assert!(state.hide_result, "over, but played back from its start");
        state.apply(Action::Seek(3), &mut env);
        assert!(state.hide_result);
        state.apply(Action::Seek(usize::MAX), &mut env);
        assert!(!state.hide_result, "the end reached");
        state.apply(Action::PlayNow("ice-and-fire"), &mut env);
        played(&mut state, &mut env, 6, true);
        state.apply(Action::RevealResult, &mut env);
        assert!(!state.hide_result, "shown on a click");
        played(&mut state, &mut env, 6, true);
        assert!(
            !state.hide_result,
            "a match run from the form shows its result"
        );
    }

    #[test]
    fn the_presenter_view_keeps_the_result_of_a_match_shown_before_its_end() {
        let mut env = Memory::default();
        let mut state = opened(&mut env);
        state.apply(Action::PickGame("ice-and-fire"), &mut env);
        played(&mut state, &mut env, 6, true);
        state.apply(Action::Seek(0), &mut env);
        state.apply(Action::Present(true), &mut env);
        assert!(state.presenting && state.hide_result);
        state.apply(Action::Seek(usize::MAX), &mut env);
        assert!(!state.hide_result, "told at the end");
        state.apply(Action::Present(false), &mut env);
        state.apply(Action::Present(true), &mut env);
        assert!(!state.hide_result, "shown at its end: nothing to keep");
    }

    #[test]
    fn the_gallery_s_play_says_what_it_plays() {
        let mut env = Memory::default();
        let mut state = opened(&mut env);
        state.apply(Action::PickGame("ice-and-fire"), &mut env);
        let strongest = bots::builtins("soak-overflow").last().expect("a bot").name;
        assert_eq!(
            state.play_now_label("soak-overflow", &env),
            format!("Play: starter bot vs {strongest}")
        );
        env.save_code("soak-overflow", 0, JAVASCRIPT, "// a classmate's code");
        assert_eq!(
            state.play_now_label("soak-overflow", &env),
            format!("Play: your bot vs {strongest}")
        );
        state.apply(Action::SetPlayer(1, "wait".into()), &mut env);
        assert_eq!(
            state.play_now_label("ice-and-fire", &env),
            "Play: starter bot vs wait",
            "the game shown plays its form as it is"
        );
    }

    #[test]
    fn a_match_is_followed_live_then_played_back_from_its_start() {
        let mut env = Memory::default();
        let mut state = opened(&mut env);
        played(&mut state, &mut env, 4, false);
        assert_eq!(state.progress, Progress::Starting);
        assert_eq!(state.cursor.frame, 3, "a live match is followed");
        state.apply(Action::Step(-2), &mut env);
        assert_eq!(state.cursor, Cursor::at(1));
        state.apply(Action::Step(5), &mut env);
        assert!(
            state.cursor.follow,
            "back on the newest frame of a live match"
        );
        state.apply(news::stopped(), &mut env);
        assert_eq!(state.progress, Progress::Stopped);
        // Play at the end of a finished match starts from its start; ticks stop at its end.
        state.apply(Action::TogglePlay, &mut env);
        assert_eq!((state.cursor.frame, state.cursor.playing), (0, true));
        for _ in 0..10 {
            state.apply(Action::Tick, &mut env);
        }
        assert_eq!((state.cursor.frame, state.cursor.playing), (3, false));
        state.apply(Action::ChangeSpeed(100), &mut env);
        assert_eq!(state.speed, SPEEDS.len() - 1);
        state.apply(Action::Seek(usize::MAX), &mut env);
        assert_eq!(state.cursor, Cursor::at(3));
    }

    #[test]
    fn a_one_click_match_is_watched_from_its_start() {
        let mut env = Memory::default();
        let mut state = opened(&mut env);
        state.apply(Action::PlayNow("ice-and-fire"), &mut env);
        assert!(state.run_requested && state.watch_next);
        played(&mut state, &mut env, 200, true);
        assert_eq!(state.cursor.frame, 0);
        assert!(state.cursor.playing);
        assert_eq!(SPEEDS[state.speed], 4.0, "200 frames in 20 s at most");
        // A notice (a refused run) cancels the one-click watch.
        state.apply(Action::PlayNow("ice-and-fire"), &mut env);
        state.apply(Action::Notice("no".into()), &mut env);
        assert!(!state.run_requested && !state.watch_next);
    }

    #[test]
    fn a_seat_played_by_hand_is_shown_its_turn_and_the_next_after_it_is_sent() {
        let mut env = Memory::default();
        let mut state = opened(&mut env);
        state.apply(Action::PickGame("ice-and-fire"), &mut env);
        let mut spec = state.form.spec(true, || 5).expect("a match");
        spec.seats[0] = SeatSpec {
            name: "you".into(),
            source: BotSource::Human,
        };
        let setup = spec.setup.clone();
        state.apply(Action::Started(spec), &mut env);
        let game = games::new_game(&setup).expect("a game");
        let input = game.input(0);
        state.apply(
            Action::HumanAsked(HumanAsk {
                seat: 0,
                input: input.clone(),
            }),
            &mut env,
        );
        state.apply(Action::HumanAsked(HumanAsk { seat: 1, input }), &mut env);
        assert_eq!(state.human.len(), 2);
        assert!(state.human[0].desk.is_ok(), "the input is read");
        state.apply(Action::HumanClear, &mut env);
        state.apply(Action::HumanSent, &mut env);
        assert_eq!(state.human.len(), 1);
        assert_eq!(state.human[0].seat, 1);
        state.apply(Action::News(MatchNews::Failed("gone".into())), &mut env);
        assert!(state.human.is_empty());
    }

    #[test]
    fn leaving_a_lesson_brings_back_the_games_own_form() {
        let mut env = Memory::default();
        let mut state = opened(&mut env);
        let doc = ShareDoc {
            setup: Setup::new(games::ice_and_fire::ENTRY.info, 3),
            relaxed: false,
            bots: vec![
                SharedBot::Code {
                    name: "start".into(),
                    language: JAVASCRIPT.into(),
                    code: "// lesson".into(),
                },
                SharedBot::Builtin {
                    name: "expander".into(),
                },
            ],
            replay: None,
            turn: None,
            lesson: Some(engine::Lesson::new("Move", "Move a unit").expect("a lesson")),
        };
        state.apply(Action::OpenLink(doc), &mut env);
        assert!(state.form.lesson.is_some() && !state.run_requested);
        assert_eq!(state.form.bots[0].code, "// lesson");
        state.apply(Action::LeaveLesson, &mut env);
        assert!(state.form.lesson.is_none());
        assert_eq!(
            state.form.bots[0].code,
            crate::starter::code("ice-and-fire", JAVASCRIPT)
        );
    }

    /// A match heard with the pictures of its newest frames only (as the match worker sends
    /// them): the page asks for those it is about to show, playback waits for them, during the
    /// match and once it is over (its match worker keeps it: nothing is re-run here); once that
    /// worker is gone, every frame has its picture, re-run from the record.
    #[test]
    fn a_match_heard_without_its_pictures_is_drawn_as_it_is_watched_and_whole_once_over() {
        let mut env = Memory::default();
        let mut state = opened(&mut env);
        state.apply(Action::PickGame("ice-and-fire"), &mut env);
        let entry = games::entry("ice-and-fire").expect("Ice and Fire");
        let setup = Setup::new(entry.info, 7);
        let names = vec!["random".to_string(), "wait".to_string()];
        let mut referee = engine::Referee::new(
            (entry.new)(&setup).expect("a game"),
            setup.clone(),
            names.clone(),
            false,
        );
        let bots = names
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                bots::builtin("ice-and-fire", name, bots::bot_seed(7, seat)).expect("a bot")
            })
            .collect();
        bots::local::play(&mut referee, bots);
        let all = referee.frames();
        assert!(all.len() > 30, "{} frames", all.len());
        let spec = crate::runner::MatchSpec {
            setup,
            seats: names
                .iter()
                .map(|name| SeatSpec {
                    name: name.clone(),
                    source: BotSource::Builtin(name.clone()),
                })
                .collect(),
            relaxed: false,
            from: None,
        };
        state.apply(Action::Started(spec), &mut env);
        // The first 30 frames, the newest with its picture; watched from the start.
        let mut heard: Vec<Frame> = all[..30].iter().map(Frame::numbers_only).collect();
        heard[29] = all[29].clone();
        state.apply(
            Action::News(MatchNews::Progress {
                frames: heard,
                turns: referee.turns()[..29].to_vec(),
            }),
            &mut env,
        );
        state.apply(Action::Seek(3), &mut env);
        state.apply(Action::TogglePlay, &mut env);
        assert_eq!(state.pictures_wanted(), Some(3..19));
        state.apply(Action::Tick, &mut env);
        assert_eq!(state.cursor.frame, 3, "playback waits for the picture");
        state.apply(
            Action::News(MatchNews::Pictures {
                first: 3,
                frames: all[3..19].to_vec(),
            }),
            &mut env,
        );
        assert!(state.record.frames[3..19].iter().all(|f| f.has_picture()));
        assert_eq!(state.pictures_wanted(), None);
        state.apply(Action::Tick, &mut env);
        assert_eq!(state.cursor.frame, 4);
        assert_eq!(state.pictures_wanted(), Some(19..20));
        assert_eq!(*state.record.frames[4], all[4]);

        state.apply(
            Action::News(MatchNews::Progress {
                frames: all[30..].iter().map(Frame::numbers_only).collect(),
                turns: referee.turns()[29..].to_vec(),
            }),
            &mut env,
        );
        state.apply(news::over(&referee), &mut env);
        assert_eq!(state.progress, Progress::Over);
        assert_eq!(state.record.frames.len(), all.len());
        assert!(
            !state.record.frames[30].has_picture(),
            "the end re-runs nothing"
        );
        // Still asked for once over: the match worker keeps the match.
        assert_eq!(state.pictures_wanted(), Some(19..20));
        state.apply(Action::Seek(1), &mut env);
        assert_eq!(state.pictures_wanted(), Some(1..3));
        state.apply(Action::TogglePlay, &mut env);
        state.apply(Action::Tick, &mut env);
        assert_eq!(state.cursor.frame, 1, "playback waits for the picture");
        state.apply(
            Action::News(MatchNews::Pictures {
                first: 1,
                frames: all[1..3].to_vec(),
            }),
            &mut env,
        );
        state.apply(Action::Tick, &mut env);
        assert_eq!(state.cursor.frame, 2);
        assert_eq!(*state.record.frames[2], all[2]);
        assert!(!state.record.frames[31].has_picture());

        // The match worker is gone: every frame gets its picture here.
        state.apply(Action::News(MatchNews::PicturesGone), &mut env);
        assert_eq!(state.pictures_wanted(), None);
        for (shown, kept) in state.record.frames.iter().zip(all) {
            assert!(shown.has_picture());
            assert_eq!(**shown, *kept);
        }
        assert_eq!(state.notice, None);
    }
}
