//! The Arena panel: many matches between the person's bots and built-in bots, seats swapped on
//! seeds derived from one arena seed (the plan of the `arena` crate, as `botplay arena` plays
//! it), several matches at a time (one per core), with a live table of results per pair and per
//! bot (95% Wilson intervals, faults, Weng-Lin ratings). Any finished match opens in the viewer.
//!
//! Each match is an ordinary [`Runner`] with its bots in their own workers; the referees run on
//! the page's thread between events, so the page stays responsive however many matches run.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use arena::class::Class;
use arena::plan::{self, Planned};
use arena::report::{ArenaReport, BotLabel, Setting};
use arena::stats::{self, MatchResult};
use engine::share::SharedBot;
use engine::{Replay, Setup, TurnRecord};
use gloo_events::EventListener;
use gloo_timers::callback::Timeout;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::arena_charts::ArenaCharts;
use super::arena_progress::{self, Progress};
use super::bot_record::{BotRecord, RecordedMatch};
use super::class_roster::{self, ClassRoster};
use super::replay_store::{self, with_replay, ReplayAt};
use super::results_wall::ResultsWall;
use super::state::{entry, Action, Form, SLOT_NAMES};
use crate::runner::BotSource;
use crate::runner::{self, MatchNews, MatchSpec, Runner, SeatSpec};

/// Matches per group offered, and the default.
const MATCH_COUNTS: [usize; 6] = [2, 4, 10, 20, 50, 100];
const DEFAULT_MATCHES: usize = 10;
/// The most matches an arena in the page plays (every replay is kept to be watched).
const MAX_PAGE_MATCHES: usize = 2_000;

/// A bot the arena can seat.
#[derive(Clone, Debug, PartialEq)]
struct Contender {
    name: String,
    /// The class's pseudonym for it, if any.
    pseudonym: String,
    source: BotSource,
    /// The bot as a share link carries it.
    shared: SharedBot,
}

/// The bots on offer: the class's bots, the person's slots that hold code, then every built-in
/// bot.
fn contenders(form: &Form, class: &Class) -> Vec<Contender> {
    let mut out: Vec<Contender> = class
        .bots
        .iter()
        .filter_map(|bot| {
            Some(Contender {
                name: bot.name.clone(),
                pseudonym: bot.pseudonym.clone(),
                source: source_of(&bot.bot)?,
                shared: named(&bot.bot, &bot.name),
            })
        })
        .collect();
    out.extend(
        form.bots
            .iter()
            .enumerate()
            .filter(|(_, slot)| slot.is_code())
            .map(|(i, slot)| Contender {
                name: SLOT_NAMES[i].to_string(),
                pseudonym: String::new(),
                source: slot.source(),
                shared: SharedBot::Code {
                    name: SLOT_NAMES[i].to_string(),
                    language: slot.language.to_string(),
                    code: slot.code.clone(),
                },
            }),
    );
    out.extend(bots::builtins(form.game).map(|b| Contender {
        name: b.name.to_string(),
        pseudonym: String::new(),
        source: BotSource::Builtin(b.name.to_string()),
        shared: SharedBot::Builtin {
            name: b.name.to_string(),
        },
    }));
    out
}

/// How the page plays a bot a link carries (not a local program: the page cannot run one).
fn source_of(bot: &SharedBot) -> Option<BotSource> {
    Some(match bot {
        SharedBot::Code { language, code, .. } => BotSource::of_code(language, code.clone())
            .unwrap_or_else(|| BotSource::JavaScript(code.clone())),
        SharedBot::Builtin { name } => BotSource::Builtin(name.clone()),
        SharedBot::Program { .. } => return None,
    })
}

/// A class's bot under the name the class gives it.
fn named(bot: &SharedBot, name: &str) -> SharedBot {
    match bot {
        SharedBot::Code { language, code, .. } => SharedBot::Code {
            name: name.to_string(),
            language: language.clone(),
            code: code.clone(),
        },
        other => other.clone(),
    }
}

impl Contender {
    /// How the bot is given, as `botplay arena --json` writes it: `builtin:NAME`, or the
    /// language of its code.
    fn spec(&self) -> String {
        match &self.source {
            BotSource::Builtin(name) => format!("builtin:{name}"),
            source => source
                .code()
                .map_or("javascript", |(language, _)| language)
                .into(),
        }
    }
}

/// What an arena is, as its JSON (`arena::report`) says it.
#[derive(Clone, Debug, PartialEq)]
struct Arena {
    setting: Setting,
    labels: Vec<BotLabel>,
}

/// What the table shows.
#[derive(Clone, Debug, Default)]
struct Table {
    arena: Option<Arena>,
    names: Vec<String>,
    /// Each bot's pseudonym ("" for none).
    pseudonyms: Vec<String>,
    /// Each bot as a share link carries it (none for an arena opened from its JSON).
    bots: Rc<Vec<SharedBot>>,
    total: usize,
    /// The matches played (each with its replay when it was played here: an arena's JSON
    /// opened from a file names its replays' files but does not hold them).
    played: Vec<RecordedMatch>,
    /// Matches that could not be played, with why.
    failed: Vec<(usize, String)>,
    running: bool,
    stopped: bool,
}

enum TableAction {
    /// An arena begins, or goes on (`running`) or is shown stopped (not `running`) from its
    /// progress kept in the browser, with the matches it had played (`done`).
    Start {
        arena: Arena,
        bots: Vec<SharedBot>,
        total: usize,
        done: Vec<MatchResult>,
        running: bool,
    },
    /// An arena's JSON, opened: its table and matches, as played elsewhere.
    Opened(Box<ArenaReport>),
    Played(Box<RecordedMatch>),
    /// The matches (by index in the plan) whose replays the browser kept before a reload.
    Kept(&'static str, Vec<usize>),
    Failed(usize, String),
    Done {
        stopped: bool,
    },
}

impl Reducible for Table {
    type Action = TableAction;

    fn reduce(self: Rc<Self>, action: TableAction) -> Rc<Self> {
        let mut t = (*self).clone();
        match action {
            TableAction::Start {
                arena,
                bots,
                total,
                done,
                running,
            } => {
                t = Table {
                    names: arena.labels.iter().map(|l| l.name.clone()).collect(),
                    pseudonyms: arena.labels.iter().map(|l| l.pseudonym.clone()).collect(),
                    bots: Rc::new(bots),
                    arena: Some(arena),
                    total,
                    // Going on with the arena shown: its matches keep their replays.
                    played: done
                        .into_iter()
                        .map(|result| RecordedMatch {
                            replay: self
                                .played
                                .iter()
                                .find(|p| p.result == result)
                                .and_then(|p| p.replay.clone()),
                            result,
                        })
                        .collect(),
                    running,
                    stopped: !running,
                    ..Table::default()
                }
            }
            TableAction::Opened(report) => {
                let played = report.results().unwrap_or_default();
                t = Table {
                    names: report.labels().iter().map(|l| l.name.clone()).collect(),
                    pseudonyms: report
                        .labels()
                        .iter()
                        .map(|l| l.pseudonym.clone())
                        .collect(),
                    total: report.planned,
                    stopped: report.interrupted,
                    played: played
                        .into_iter()
                        .map(|result| RecordedMatch {
                            result,
                            replay: None,
                        })
                        .collect(),
                    arena: None,
                    ..Table::default()
                };
            }
            TableAction::Played(played) => t.played.push(*played),
            TableAction::Kept(game, kept) => {
                for p in t.played.iter_mut().filter(|p| p.replay.is_none()) {
                    let index = p.result.index;
                    if kept.contains(&index) {
                        p.replay = Some(ReplayAt::Kept { game, index });
                    }
                }
            }
            TableAction::Failed(index, why) => t.failed.push((index, why)),
            TableAction::Done { stopped } => {
                t.running = false;
                t.stopped = stopped;
            }
        }
        Rc::new(t)
    }
}

/// An arena to play: its set-up, bots and plan, what it is (for its JSON) and the matches of
/// the plan already played (when it goes on after a stop).
struct ArenaRun {
    setup: Setup,
    relaxed: bool,
    bots: Vec<Contender>,
    plan: Vec<Planned>,
    arena: Arena,
    done: Vec<MatchResult>,
}

/// The matches being played: a queue of planned matches, at most `parallel` at a time. The
/// arena's progress is kept in the browser after each match (`arena_progress`).
struct Pool {
    me: Weak<RefCell<Pool>>,
    setup: Setup,
    relaxed: bool,
    bots: Vec<Contender>,
    plan: Vec<Planned>,
    /// The plan's matches to play, in order, and the next of them.
    queue: Vec<usize>,
    next: usize,
    progress: Progress,
    parallel: usize,
    /// Matches in flight: plan index, runner, the turns heard so far.
    running: Vec<(usize, Runner, Vec<TurnRecord>)>,
    table: UseReducerDispatcher<Table>,
    stopped: bool,
    /// When the progress was last kept in the browser, and the timer that keeps the matches
    /// played since then.
    saved_at: f64,
    save_timer: Option<Timeout>,
    /// Keeps the progress when the page is left (a closed tab, a reload).
    _leaving: Option<EventListener>,
}

/// How often an arena's progress is kept in the browser at most, in ms: the stored text holds
/// every bot's code and every result, and a class plays several matches a second. The matches of
/// the last interval that a reload catches before they are kept are played again (the same
/// results: matches are deterministic).
const SAVE_EVERY_MS: f64 = 2_000.0;

impl Pool {
    /// A pool for an arena, its first matches started.
    fn start(
        run: ArenaRun,
        parallel: usize,
        table: UseReducerDispatcher<Table>,
    ) -> Rc<RefCell<Pool>> {
        let done: Vec<usize> = run.done.iter().map(|r| r.index).collect();
        let queue = (0..run.plan.len())
            .filter(|i| !done.contains(&run.plan[*i].index))
            .collect();
        let progress = Progress {
            setting: run.arena.setting.clone(),
            labels: run.arena.labels.clone(),
            bots: run.bots.iter().map(|b| b.shared.clone()).collect(),
            results: run.done,
        };
        let pool = Rc::new_cyclic(|me| {
            RefCell::new(Pool {
                me: me.clone(),
                setup: run.setup,
                relaxed: run.relaxed,
                bots: run.bots,
                plan: run.plan,
                queue,
                next: 0,
                progress,
                parallel,
                running: Vec::new(),
                table,
                stopped: false,
                saved_at: runner::now_ms(),
                save_timer: None,
                _leaving: None,
            })
        });
        {
            let mut started = pool.borrow_mut();
            if started.progress.results.is_empty() {
                // A new arena: the replays kept for the one before are not its own.
                replay_store::forget(started.progress.setting.game.id);
            }
            started.progress.save();
            let me = started.me.clone();
            started._leaving = web_sys::window().map(|w| {
                EventListener::new(&w, "pagehide", move |_| {
                    if let Some(pool) = me.upgrade() {
                        if let Ok(mut pool) = pool.try_borrow_mut() {
                            pool.save_now();
                        }
                    }
                })
            });
            started.pump();
        }
        pool
    }

    /// Keeps the progress in the browser: now, or with the next matches within
    /// [`SAVE_EVERY_MS`].
    fn save_soon(&mut self) {
        let wait = self.saved_at + SAVE_EVERY_MS - runner::now_ms();
        if wait <= 0.0 {
            return self.save_now();
        }
        if self.save_timer.is_none() {
            let me = self.me.clone();
            self.save_timer = Some(Timeout::new(wait.ceil() as u32, move || {
                if let Some(pool) = me.upgrade() {
                    if let Ok(mut pool) = pool.try_borrow_mut() {
                        pool.save_now();
                    }
                }
            }));
        }
    }

    fn save_now(&mut self) {
        self.save_timer = None;
        self.saved_at = runner::now_ms();
        self.progress.save();
    }

    /// Starts matches until `parallel` are in flight; reports the end when none is left.
    fn pump(&mut self) {
        while !self.stopped && self.running.len() < self.parallel && self.next < self.queue.len() {
            let planned = self.plan[self.queue[self.next]].clone();
            self.next += 1;
            let mut setup = self.setup.clone();
            setup.seed = planned.seed;
            let spec = MatchSpec {
                setup,
                seats: planned
                    .seats
                    .iter()
                    .map(|&b| SeatSpec {
                        name: self.bots[b].name.clone(),
                        source: self.bots[b].source.clone(),
                    })
                    .collect(),
                relaxed: self.relaxed,
                from: None,
            };
            let me = self.me.clone();
            let index = planned.index;
            let news = Callback::from(move |news: MatchNews| {
                // Handled after the runner's own event is over: it may be dropped here.
                let me = me.clone();
                Timeout::new(0, move || {
                    if let Some(pool) = me.upgrade() {
                        pool.borrow_mut().hear(index, news);
                    }
                })
                .forget();
            });
            match Runner::start(spec, news) {
                Ok(runner) => self.running.push((index, runner, Vec::new())),
                Err(why) => self.table.dispatch(TableAction::Failed(index, why)),
            }
        }
        if self.running.is_empty() && (self.stopped || self.next >= self.queue.len()) {
            // Over: nothing to go on with. Stopped: the progress kept after its last match.
            // (Its replays stay kept: the table shown reads those played before a reload from
            // there. The next arena of the game forgets them.)
            // Nothing more to keep (a stopped arena was kept as it stopped).
            self.save_timer = None;
            self._leaving = None;
            if !self.stopped {
                arena_progress::clear(self.progress.setting.game.id);
            }
            self.table.dispatch(TableAction::Done {
                stopped: self.stopped,
            });
        }
    }

    fn hear(&mut self, index: usize, news: MatchNews) {
        let Some(at) = self.running.iter().position(|(i, _, _)| *i == index) else {
            return;
        };
        match news {
            MatchNews::Progress { turns, .. } => self.running[at].2.extend(turns),
            MatchNews::Finished {
                outcome, faults, ..
            } => {
                let (_, _runner, turns) = self.running.remove(at);
                let planned = &self.plan[index];
                match outcome {
                    Some(outcome) if !self.stopped => {
                        let mut setup = self.setup.clone();
                        setup.seed = planned.seed;
                        let names = planned
                            .seats
                            .iter()
                            .map(|&b| self.bots[b].name.clone())
                            .collect();
                        let info = entry(&setup.game).info;
                        let replay = Replay::new(info, setup, names, self.relaxed, turns);
                        let result = MatchResult {
                            index,
                            seed: planned.seed,
                            seats: planned.seats.clone(),
                            scores: outcome.scores,
                            ranks: outcome.ranks,
                            faults,
                            replay: None,
                        };
                        self.progress.results.push(result.clone());
                        self.save_soon();
                        replay_store::keep(info.id, index, &replay);
                        self.table
                            .dispatch(TableAction::Played(Box::new(RecordedMatch {
                                result,
                                replay: Some(ReplayAt::Here(Rc::new(replay))),
                            })));
                    }
                    _ => {}
                }
                self.pump();
            }
            MatchNews::Failed(why) => {
                self.running.remove(at);
                self.table.dispatch(TableAction::Failed(index, why));
                self.pump();
            }
            MatchNews::Loading(_)
            | MatchNews::Started
            | MatchNews::Pictures { .. }
            | MatchNews::PicturesGone => {}
        }
    }

    fn stop(&mut self) {
        self.stopped = true;
        self.save_now();
        for (_, runner, _) in &self.running {
            runner.stop();
        }
    }
}

/// How many matches to play at once: one per core the browser reports.
fn cores() -> usize {
    web_sys::window()
        .map(|w| w.navigator().hardware_concurrency() as usize)
        .unwrap_or(1)
        .clamp(1, 16)
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub form: Form,
    /// The page is cross-origin isolated (code bots can run).
    pub isolated: bool,
    pub dispatch: Callback<Action>,
}

/// The class of the form's game: read when the game changes, another tab changes it or a class
/// link is opened; and the callback that changes it.
#[hook]
fn use_class(form: &Form) -> (UseStateHandle<Class>, Callback<Class>) {
    let info = entry(form.game).info;
    let mut fresh = Setup::new(info, 1);
    fresh.ruleset = form.ruleset.clone();
    fresh.options = form.options.clone();
    fresh.seats = form.seats.clamp(info.min_seats, info.max_seats);
    let stored = {
        let fresh = fresh.clone();
        move |game: &str| {
            class_roster::load_class(game).unwrap_or_else(|| class_roster::empty_class(fresh))
        }
    };
    let class = {
        let (stored, game) = (stored.clone(), form.game);
        use_state(move || stored(game))
    };
    {
        let class = class.clone();
        use_effect_with(form.game, move |&game| {
            class.set(stored(game));
            let listeners =
                class_roster::watch_class(game, Callback::from(move |c: Class| class.set(c)));
            move || drop(listeners)
        });
    }
    let on_class = {
        let class = class.clone();
        Callback::from(move |c: Class| class.set(c))
    };
    (class, on_class)
}

/// What the person asked for in the panel, to start an arena.
struct Request {
    form: Form,
    bots: Vec<Contender>,
    seed: String,
    players: usize,
    matches: usize,
    total: usize,
    isolated: bool,
}

/// The arena a request asks for: its set-up and what its JSON says it is, or why not.
fn arena_of(r: &Request) -> Result<(Setup, Arena), String> {
    let info = entry(r.form.game).info;
    let seed = r.seed.trim().parse::<i64>().map_err(|_| {
        format!(
            "the arena seed must be a whole number, not '{}'",
            r.seed.trim()
        )
    })?;
    if r.bots.len() < r.players {
        return Err(format!(
            "tick at least {0} bots: each match seats {0}",
            r.players
        ));
    }
    if !r.isolated
        && r.bots
            .iter()
            .any(|b| !matches!(b.source, BotSource::Builtin(_)))
    {
        return Err(crate::isolation::NOT_ISOLATED.to_string());
    }
    if r.total > MAX_PAGE_MATCHES {
        return Err(format!(
            "{} matches is more than the page plays at once ({MAX_PAGE_MATCHES}); \
             `botplay arena` plays any number",
            r.total
        ));
    }
    let mut setup = Setup::new(info, seed);
    setup.ruleset = r.form.ruleset.clone();
    setup.options = r.form.options.clone();
    setup.seats = r.players;
    setup.check(info).map_err(|why| why.to_string())?;
    let labels = r
        .bots
        .iter()
        .map(|b| BotLabel {
            spec: b.spec(),
            name: b.name.clone(),
            pseudonym: b.pseudonym.clone(),
        })
        .collect();
    let setting = Setting {
        game: info,
        ruleset: setup.ruleset.clone(),
        options: setup.options.clone(),
        relaxed: r.form.relaxed,
        seed,
        players: r.players,
        matches_per_group: r.matches,
        planned: r.total,
        interrupted: false,
        shard: None,
    };
    Ok((setup, Arena { setting, labels }))
}

/// The run that goes on with the arena shown (stopped, or kept from before a reload): the
/// matches of its plan not yet played.
fn resumed_run(t: &Table, isolated: bool) -> Result<ArenaRun, String> {
    let arena = t.arena.clone().ok_or("there is no arena to go on with")?;
    let bots = arena
        .labels
        .iter()
        .zip(t.bots.iter())
        .map(|(label, shared)| {
            Some(Contender {
                name: label.name.clone(),
                pseudonym: label.pseudonym.clone(),
                source: source_of(shared)?,
                shared: shared.clone(),
            })
        })
        .collect::<Option<Vec<Contender>>>()
        .filter(|bots| bots.len() == arena.labels.len())
        .ok_or("the arena's bots are not all known here")?;
    if !isolated
        && bots
            .iter()
            .any(|b| !matches!(b.source, BotSource::Builtin(_)))
    {
        return Err(crate::isolation::NOT_ISOLATED.to_string());
    }
    let s = &arena.setting;
    let mut setup = Setup::new(s.game, s.seed);
    setup.ruleset = s.ruleset.clone();
    setup.options = s.options.clone();
    setup.seats = s.players;
    let plan = plan::plan(bots.len(), s.players, s.matches_per_group, s.seed);
    Ok(ArenaRun {
        setup,
        relaxed: s.relaxed,
        bots,
        plan,
        done: t.played.iter().map(|p| p.result.clone()).collect(),
        arena,
    })
}

/// Plays a run in place of the arena playing now, if any.
fn start_run(
    run: ArenaRun,
    parallel: usize,
    pool: &RefCell<Option<Rc<RefCell<Pool>>>>,
    table: &UseReducerHandle<Table>,
) {
    if let Some(old) = pool.borrow_mut().take() {
        old.borrow_mut().stop();
    }
    table.dispatch(TableAction::Start {
        arena: run.arena.clone(),
        bots: run.bots.iter().map(|b| b.shared.clone()).collect(),
        total: run.arena.setting.planned,
        done: run.done.clone(),
        running: true,
    });
    *pool.borrow_mut() = Some(Pool::start(run, parallel, table.dispatcher()));
}

/// Shows the arena kept in the browser for `game` (stopped, or cut short by a reload), ready to
/// go on.
#[hook]
fn use_kept_arena(game: &'static str, table: UseReducerDispatcher<Table>) {
    use_effect_with(game, move |&game| {
        if let Some(kept) = arena_progress::load(game) {
            table.dispatch(TableAction::Start {
                total: kept.setting.planned,
                arena: Arena {
                    setting: kept.setting,
                    labels: kept.labels,
                },
                bots: kept.bots,
                done: kept.results,
                running: false,
            });
            // The replays of the matches played before the reload, as the browser kept them.
            wasm_bindgen_futures::spawn_local(async move {
                let indices = replay_store::kept(game).await;
                if !indices.is_empty() {
                    table.dispatch(TableAction::Kept(game, indices));
                }
            });
        }
    });
}

/// Reads an arena's JSON file into the table, or says why it cannot be read.
fn open_results_file(
    file: web_sys::File,
    table: UseReducerDispatcher<Table>,
    error: UseStateHandle<Option<String>>,
) {
    let name = file.name();
    let Ok(reader) = web_sys::FileReader::new() else {
        return;
    };
    let reader_in = reader.clone();
    let on_load = wasm_bindgen::closure::Closure::once_into_js(move || {
        let text = reader_in.result().ok().and_then(|r| r.as_string());
        let opened = text
            .ok_or_else(|| "it could not be read as text".to_string())
            .and_then(|t| ArenaReport::from_json(&t).map_err(|e| e.to_string()))
            .and_then(|r| r.results().map(|_| r).map_err(|e| e.to_string()));
        match opened {
            Ok(report) => {
                error.set(None);
                table.dispatch(TableAction::Opened(Box::new(report)));
            }
            Err(why) => error.set(Some(format!("{name}: {why}"))),
        }
    });
    reader.set_onload(Some(wasm_bindgen::JsCast::unchecked_ref(&on_load)));
    let _ = reader.read_as_text(&file);
}

/// A box per bot on offer, ticked unless its name is in `unticked`.
fn bot_checkboxes(offered: &[Contender], unticked: &UseStateHandle<Vec<String>>) -> Html {
    let tick = |name: String| {
        let unticked = unticked.clone();
        Callback::from(move |e: Event| {
            let on = e.target_unchecked_into::<HtmlInputElement>().checked();
            let mut list: Vec<String> = (*unticked).clone();
            list.retain(|n| *n != name);
            if !on {
                list.push(name.clone());
            }
            unticked.set(list);
        })
    };
    html! {
        <fieldset class="arena-bots">
            <legend>{ "Bots" }</legend>
            { for offered.iter().map(|b| html! {
                <label class="check">
                    <input type="checkbox" class="arena-bot" value={b.name.clone()}
                        checked={!unticked.contains(&b.name)} onchange={tick(b.name.clone())} />
                    { format!(" {}", b.name) }
                </label>
            }) }
        </fieldset>
    }
}

/// How many matches, how many at once, on which seed.
fn options_row(
    players: usize,
    matches: &UseStateHandle<usize>,
    parallel: &UseStateHandle<usize>,
    seed: &UseStateHandle<String>,
) -> Html {
    let on_matches = select_number(matches);
    let on_parallel = select_number(parallel);
    let on_seed = {
        let seed = seed.clone();
        Callback::from(move |e: InputEvent| {
            seed.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    html! {
        <div class="row">
            <label for="arena-matches">{ if players == 2 { "Matches per pair" } else { "Matches per group" } }</label>
            <select id="arena-matches" onchange={on_matches}>
                { for counts_offered(**matches).into_iter().map(|n| html! {
                    <option value={n.to_string()} selected={n == **matches}>{ n }</option>
                }) }
            </select>
            <label for="arena-parallel">{ "At once" }</label>
            <select id="arena-parallel" onchange={on_parallel}>
                { for (1..=cores().max(4)).map(|n| html! {
                    <option value={n.to_string()} selected={n == **parallel}>{ n }</option>
                }) }
            </select>
            <label for="arena-seed">{ "Seed" }</label>
            <input id="arena-seed" type="text" inputmode="numeric" value={(**seed).clone()}
                oninput={on_seed} />
        </div>
    }
}

/// The matches per group offered: the usual counts, and the one chosen (a class's own).
fn counts_offered(chosen: usize) -> Vec<usize> {
    let mut counts = MATCH_COUNTS.to_vec();
    if !counts.contains(&chosen) {
        counts.push(chosen);
        counts.sort_unstable();
    }
    counts
}

/// A select of numbers that sets `state`.
fn select_number(state: &UseStateHandle<usize>) -> Callback<Event> {
    let state = state.clone();
    Callback::from(move |e: Event| {
        if let Ok(n) = e
            .target_unchecked_into::<HtmlSelectElement>()
            .value()
            .parse()
        {
            state.set(n);
        }
    })
}

/// A class's arena is its own: its seed and matches per group are the panel's (a class opened
/// from a file or a link plays as it was played).
#[hook]
fn use_class_setting(
    class: &Class,
    seed: &UseStateHandle<String>,
    matches: &UseStateHandle<usize>,
) {
    let (seed, matches) = (seed.clone(), matches.clone());
    let key = (
        class.setup.seed,
        class.matches_per_group,
        !class.bots.is_empty(),
    );
    use_effect_with(key, move |&(class_seed, per_group, has_bots)| {
        if has_bots {
            seed.set(class_seed.to_string());
            matches.set(per_group);
        }
    });
}

/// Leaving the page (or another game) stops the arena's matches.
#[hook]
fn use_stop_on_leaving(game: &'static str, pool: &Rc<RefCell<Option<Rc<RefCell<Pool>>>>>) {
    let pool = pool.clone();
    use_effect_with(game, move |_| {
        move || {
            if let Some(p) = pool.borrow_mut().take() {
                p.borrow_mut().stop();
            }
        }
    });
}

/// What the panel's buttons act on: the matches playing, the table, the error line.
#[derive(Clone)]
struct Handles {
    pool: Rc<RefCell<Option<Rc<RefCell<Pool>>>>>,
    table: UseReducerHandle<Table>,
    error: UseStateHandle<Option<String>>,
}

impl Handles {
    /// Go on: the arena shown, its matches not yet played.
    fn resume(&self, isolated: bool, parallel: usize) -> Callback<MouseEvent> {
        let h = self.clone();
        Callback::from(move |_: MouseEvent| match resumed_run(&h.table, isolated) {
            Ok(run) => {
                h.error.set(None);
                start_run(run, parallel, &h.pool, &h.table);
            }
            Err(why) => h.error.set(Some(why)),
        })
    }

    fn stop(&self) -> Callback<MouseEvent> {
        let pool = self.pool.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(p) = pool.borrow().as_ref() {
                p.borrow_mut().stop();
            }
        })
    }

    /// An arena's JSON chosen, read into the table.
    fn open_results(&self) -> Callback<Event> {
        let (table, error) = (self.table.dispatcher(), self.error.clone());
        Callback::from(move |e: Event| {
            let input = e.target_unchecked_into::<HtmlInputElement>();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                open_results_file(file, table.clone(), error.clone());
            }
            input.set_value("");
        })
    }
}

/// The class as the arena about to run plays it: its set-up, budgets and matches per group.
fn class_as_played(class: &Class, setup: &Setup, relaxed: bool, matches: usize) -> Class {
    let mut played = class.clone();
    played.setup = setup.clone();
    played.relaxed = relaxed;
    played.matches_per_group = matches;
    played
}

/// Run: the arena the panel asks for, or why not. An arena with the class's bots is the class's
/// (`class`: the class, where it goes when it changes, and whether its bots are ticked): its
/// file and link then play it again.
fn run_callback(
    h: Handles,
    request: Request,
    class: (Class, Callback<Class>, bool),
    parallel: usize,
) -> Callback<MouseEvent> {
    Callback::from(move |_: MouseEvent| {
        let (setup, arena) = match arena_of(&request) {
            Ok(found) => found,
            Err(why) => return h.error.set(Some(why)),
        };
        h.error.set(None);
        let (class, on_class, class_ticked) = &class;
        let played = class_as_played(class, &setup, request.form.relaxed, request.matches);
        if *class_ticked && played != *class {
            class_roster::save_class(&played);
            on_class.emit(played);
        }
        let bots = request.bots.clone();
        let plan = plan::plan(
            bots.len(),
            request.players,
            request.matches,
            arena.setting.seed,
        );
        let run = ArenaRun {
            setup,
            relaxed: request.form.relaxed,
            bots,
            plan,
            arena,
            done: Vec::new(),
        };
        start_run(run, parallel, &h.pool, &h.table);
    })
}

#[component(ArenaPanel)]
pub fn arena_panel(props: &Props) -> Html {
    let form = &props.form;
    let info = entry(form.game).info;
    let (class, on_class) = use_class(form);
    let offered = contenders(form, &class);
    let table = use_reducer(Table::default);
    use_kept_arena(form.game, table.dispatcher());
    let pool: Rc<RefCell<Option<Rc<RefCell<Pool>>>>> = use_mut_ref(|| None);
    let matches = use_state(|| DEFAULT_MATCHES);
    let parallel = use_state(cores);
    // The bots ticked, by name; the default is every bot on offer.
    let unticked = use_state(Vec::<String>::new);
    let seed = use_state(|| super::state::random_seed().to_string());
    let error = use_state(|| None::<String>);
    let chosen: Vec<usize> = (0..offered.len())
        .filter(|&i| !unticked.contains(&offered[i].name))
        .collect();
    let players = form.seats.clamp(info.min_seats, info.max_seats);
    let total = plan::count(chosen.len(), players, *matches).unwrap_or(usize::MAX);
    // The class's bots that the arena can seat come first among the bots on offer.
    let in_class = class
        .bots
        .iter()
        .filter(|b| source_of(&b.bot).is_some())
        .count();
    use_class_setting(&class, &seed, &matches);
    use_stop_on_leaving(form.game, &pool);
    let handles = Handles {
        pool: pool.clone(),
        table: table.clone(),
        error: error.clone(),
    };
    let on_run = run_callback(
        handles.clone(),
        Request {
            form: form.clone(),
            bots: chosen.iter().map(|&i| offered[i].clone()).collect(),
            seed: (*seed).clone(),
            players,
            matches: *matches,
            total,
            isolated: props.isolated,
        },
        (
            (*class).clone(),
            on_class.clone(),
            chosen.first().is_some_and(|&i| i < in_class),
        ),
        *parallel,
    );
    let (on_resume, on_stop) = (handles.resume(props.isolated, *parallel), handles.stop());
    let on_open_results = handles.open_results();
    let resumable = !table.running
        && table.arena.is_some()
        && !table.bots.is_empty()
        && table.played.len() < table.total;

    html! {
        <details id="arena" class="panel arena">
            <summary>{ "Arena: many matches, win rates and ratings" }</summary>
            <p class="hint">
                { format!("Every group of {players} ticked bots plays the chosen number of matches, \
                    seats swapped on the same maps; several matches run at once, each bot in its \
                    own worker. The same seed plans the same matches as \
                    `botplay arena --game {} --seed S`.", form.game) }
            </p>
            <ClassRoster class={(*class).clone()} on_change={on_class} />
            { bot_checkboxes(&offered, &unticked) }
            { options_row(players, &matches, &parallel, &seed) }
            <div class="row buttons">
                <button type="button" id="arena-run" class="primary" onclick={on_run}
                    disabled={table.running}>
                    { if total == usize::MAX { "Run the arena".to_string() }
                      else { format!("Run {total} matches") } }
                </button>
                <button type="button" id="arena-stop" onclick={on_stop} disabled={!table.running}>
                    { "Stop" }
                </button>
                if resumable {
                    <button type="button" id="arena-resume" onclick={on_resume}
                        title="Plays the matches of the arena shown that are not played yet">
                        { format!("Go on ({} of {} played)", table.played.len(), table.total) }
                    </button>
                }
                <label class="file-button" title="The JSON of `botplay arena --json` or `botplay arena merge`">
                    { "Open arena results (JSON) " }
                    <input type="file" id="arena-open" accept=".json,application/json"
                        onchange={on_open_results} disabled={table.running} />
                </label>
            </div>
            if let Some(text) = &*error {
                <p id="arena-error" class="warning" role="alert">{ text }</p>
            }
            <ArenaTable table={TableRef(Rc::new((*table).clone()))} dispatch={props.dispatch.clone()} />
        </details>
    }
}

#[derive(Clone)]
struct TableRef(Rc<Table>);

impl PartialEq for TableRef {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.0, &other.0);
        let replays = |t: &Table| t.played.iter().filter(|p| p.replay.is_some()).count();
        a.total == b.total
            && a.played.len() == b.played.len()
            && replays(a) == replays(b)
            && a.failed.len() == b.failed.len()
            && a.running == b.running
            && a.names == b.names
    }
}

#[derive(Properties, PartialEq)]
struct TableProps {
    table: TableRef,
    dispatch: Callback<Action>,
}

fn percent(x: f64) -> String {
    format!("{:.0}%", 100.0 * x)
}

/// The bots of a match, by seat, as the page can play them again (when it knows them).
fn seat_bots(bots: &[SharedBot], seats: &[usize]) -> Option<Vec<SharedBot>> {
    seats.iter().map(|&b| bots.get(b).cloned()).collect()
}

/// The matches played, each to watch in the viewer (or its replay's file named, for an arena's
/// JSON opened from a file), and those that could not be played. The list (hundreds of matches
/// in a class) is drawn only while it is open: an arena's progress redraws the table after
/// every match.
#[component(MatchList)]
fn match_list(props: &TableProps) -> Html {
    let (open, on_toggle) = super::disclosure::use_open();
    let t = &props.table.0;
    html! {
        <details class="arena-matches" ontoggle={on_toggle}>
            <summary>{ format!("The {} matches played (watch any)", t.played.len()) }</summary>
            if open {
                { match_items(t, &props.dispatch) }
            }
            { for t.failed.iter().map(|(i, why)| html! {
                <p class="warning">{ format!("match {} could not be played: {why}", i + 1) }</p>
            }) }
        </details>
    }
}

/// The list of [`MatchList`], in the order the matches were planned.
fn match_items(t: &Table, dispatch: &Callback<Action>) -> Html {
    let mut played: Vec<&RecordedMatch> = t.played.iter().collect();
    played.sort_by_key(|p| p.result.index);
    html! {
        <ol id="arena-match-list">
            { for played.iter().map(|p| {
                let r = &p.result;
                let seats: Vec<String> = r.seats.iter().zip(&r.scores)
                    .map(|(&b, s)| format!("{} {s}", t.names[b])).collect();
                let onclick = p.replay.clone().map(|at| {
                    let (dispatch, n) = (dispatch.clone(), r.index + 1);
                    let (bots, seats) = (t.bots.clone(), r.seats.clone());
                    Callback::from(move |_: MouseEvent| {
                        let (dispatch, bots) = (dispatch.clone(), seat_bots(&bots, &seats));
                        with_replay(&at, move |read| dispatch.emit(match read {
                            Ok(replay) => Action::ShowPlayed(
                                (*replay).clone(), bots, format!("arena match {n}")),
                            Err(why) => Action::Notice(why),
                        }))
                    })
                });
                html! { <li value={(r.index + 1).to_string()}>
                    { format!("seed {}: {}", r.seed, seats.join(" · ")) }
                    if !r.faults.is_empty() { { format!(" · {} fault(s)", r.faults.len()) } }
                    { " " }
                    if let Some(onclick) = onclick {
                        <button type="button" class="arena-watch" {onclick}>{ "watch" }</button>
                    } else if let Some(file) = &r.replay {
                        <span class="hint">{ format!(" replay: {file}") }</span>
                    } else {
                        <span class="hint">{ " (played before the page was reloaded; this browser did not keep its replay)" }</span>
                    }
                </li> }
            }) }
        </ol>
    }
}

/// The bots' table, best first; a click on a name shows that bot's matches.
fn bots_table(t: &Table, summary: &stats::Summary, on_pick: &Callback<usize>) -> Html {
    let order = arena::csv_tables::ranking(summary);
    html! {
        <table id="arena-bots-table" class="arena-table">
            <caption>{ "Bots, by rating (Weng-Lin μ ± σ); a name lists its matches" }</caption>
            <thead><tr>
                <th>{ "Bot" }</th><th>{ "Rating" }</th><th>{ "Won" }</th><th>{ "Drawn" }</th>
                <th>{ "Lost" }</th><th>{ "Avg score" }</th><th>{ "Timeouts" }</th>
                <th>{ "Crashes" }</th><th>{ "Invalid" }</th>
            </tr></thead>
            <tbody>
                { for order.iter().map(|&b| {
                    let s = &summary.bots[b];
                    let pick = on_pick.reform(move |_: MouseEvent| b);
                    html! { <tr>
                        <th scope="row">
                            <button type="button" class="arena-record-open" onclick={pick}>
                                { &t.names[b] }
                            </button>
                        </th>
                        <td>{ format!("{:.1} ± {:.1}", s.rating.rating, s.rating.uncertainty) }</td>
                        <td>{ s.wins }</td><td>{ s.draws }</td><td>{ s.losses }</td>
                        <td>{ s.average_score().map_or("–".into(), |a| format!("{a:.1}")) }</td>
                        <td>{ s.faults.timeout }</td><td>{ s.faults.crash }</td>
                        <td>{ s.faults.invalid() }</td>
                    </tr> }
                }) }
            </tbody>
        </table>
    }
}

fn pairs_table(t: &Table, summary: &stats::Summary) -> Html {
    html! {
        <table id="arena-pairs-table" class="arena-table">
            <caption>{ "Head to head (win rate of the first, draws count half; 95% interval)" }</caption>
            <thead><tr>
                <th>{ "Pair" }</th><th>{ "W–D–L" }</th><th>{ "Win rate" }</th>
                <th>{ "95% interval" }</th><th>{ "Avg scores" }</th>
            </tr></thead>
            <tbody>
                { for summary.pairs.iter().filter(|p| p.matches > 0).map(|p| html! { <tr>
                    <th scope="row">{ format!("{} vs {}", t.names[p.a], t.names[p.b]) }</th>
                    <td>{ format!("{}–{}–{}", p.wins, p.draws, p.losses) }</td>
                    <td>{ p.score_rate().map_or("–".into(), percent) }</td>
                    <td>{ p.interval().map_or("–".into(), |(lo, hi)| format!("{}–{}", percent(lo), percent(hi))) }</td>
                    <td>{ p.average_scores().map_or("–".into(), |(a, b)| format!("{a:.1} : {b:.1}")) }</td>
                </tr> }) }
            </tbody>
        </table>
    }
}

/// The standings or the pairs as CSV, with the bots' names (never their pseudonyms).
fn csv_export(t: &Table, summary: &stats::Summary, what: &'static str) -> Callback<MouseEvent> {
    let (names, summary) = (t.names.clone(), summary.clone());
    Callback::from(move |_: MouseEvent| {
        let text = match what {
            "standings" => arena::csv_tables::standings(&names, &summary),
            _ => arena::csv_tables::pairs(&names, &summary),
        };
        super::sharing::download(&format!("botplay-arena-{what}.csv"), &text, "text/csv");
    })
}

/// The results as `botplay arena --json` writes them.
fn json_export(t: &Table, summary: &stats::Summary) -> Callback<MouseEvent> {
    let (arena, summary) = (t.arena.clone(), summary.clone());
    let results: Vec<MatchResult> = t.played.iter().map(|p| p.result.clone()).collect();
    let interrupted = t.stopped;
    Callback::from(move |_: MouseEvent| {
        let Some(arena) = &arena else {
            return;
        };
        let mut setting = arena.setting.clone();
        setting.interrupted = interrupted;
        let refs: Vec<&MatchResult> = results.iter().collect();
        let report = ArenaReport::new(setting, &arena.labels, &summary, &refs);
        let name = format!("botplay-arena-{}-{}.json", report.game, report.seed);
        super::sharing::download(&name, &report.to_json(), "application/json");
    })
}

/// Every replay played here in one zip; `state` says how it goes.
fn zip_export(t: &Table, state: &UseStateHandle<Option<String>>) -> Callback<MouseEvent> {
    let mut files: Vec<(usize, ReplayAt, Vec<String>, i64)> = t
        .played
        .iter()
        .filter_map(|p| {
            let names = p.result.seats.iter().map(|&b| t.names[b].clone()).collect();
            Some((p.result.index + 1, p.replay.clone()?, names, p.result.seed))
        })
        .collect();
    files.sort_by_key(|f| f.0);
    let width = t.total.to_string().len().max(4);
    let name = t.arena.as_ref().map_or_else(
        || "botplay-arena-replays.zip".to_string(),
        |a| {
            format!(
                "botplay-arena-{}-{}-replays.zip",
                a.setting.game.id, a.setting.seed
            )
        },
    );
    let state = state.clone();
    Callback::from(move |_: MouseEvent| {
        let (files, state, name) = (files.clone(), state.clone(), name.clone());
        let count = files.len();
        state.set(Some(format!("zipping {count} replays…")));
        wasm_bindgen_futures::spawn_local(async move {
            let mut texts = Vec::with_capacity(count);
            for (n, at, names, seed) in &files {
                let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                let file = arena::report::replay_file_name(*n, width, &refs, *seed);
                match at.text().await {
                    Ok(text) => texts.push((file, text)),
                    Err(why) => return state.set(Some(why)),
                }
            }
            match super::replay_zip::zip(texts).await {
                Ok(blob) => {
                    super::sharing::download_blob(&name, &blob);
                    state.set(Some(format!("{count} replays zipped into {name}")));
                }
                Err(why) => state.set(Some(why)),
            }
        });
    })
}

/// How far the arena is, in words.
fn status_text(t: &Table) -> String {
    let done = t.played.len() + t.failed.len();
    if t.running {
        format!("playing: {done} of {} matches done", t.total)
    } else if t.stopped {
        format!("stopped: {done} of {} matches played", t.total)
    } else {
        format!("done: {} matches", t.total)
    }
}

/// How often the standings, the pairs, the charts and the results wall are drawn again at most
/// while an arena plays, in ms (the progress line follows every match): each time, hundreds of
/// their cells change and the page lays them all out again, and a class plays several matches a
/// second.
const STANDINGS_EVERY_MS: f64 = 1_000.0;

/// The table the standings are drawn from: the newest, or while an arena plays, the one drawn
/// last if that was within [`STANDINGS_EVERY_MS`] (the newest follows when that time is over).
#[hook]
fn use_standings_table(newest: &Rc<Table>) -> Rc<Table> {
    let shown = use_mut_ref(|| (newest.clone(), f64::NEG_INFINITY));
    let timer = use_mut_ref(|| None::<Timeout>);
    let redraw = use_force_update();
    let now = runner::now_ms();
    let mut shown = shown.borrow_mut();
    let same_arena = shown.0.names == newest.names && shown.0.played.len() <= newest.played.len();
    let wait = shown.1 + STANDINGS_EVERY_MS - now;
    if !newest.running || !same_arena || wait <= 0.0 {
        *shown = (newest.clone(), now);
        timer.borrow_mut().take();
    } else if timer.borrow().is_none() {
        let due = Timeout::new(wait.ceil() as u32, move || redraw.force_update());
        *timer.borrow_mut() = Some(due);
    }
    shown.0.clone()
}

#[component(ArenaTable)]
fn arena_table(props: &TableProps) -> Html {
    let newest = &props.table.0;
    let shown = use_standings_table(newest);
    let t = &*shown;
    let record = use_state(|| None::<usize>);
    let wall = use_state(|| false);
    let zip_state = use_state(|| None::<String>);
    if t.names.is_empty() {
        return html! {};
    }
    let results: Vec<&MatchResult> = t.played.iter().map(|p| &p.result).collect();
    let summary = stats::summarize(t.names.len(), &results);
    let done = newest.played.len() + newest.failed.len();
    let results = Rc::new(
        t.played
            .iter()
            .map(|p| p.result.clone())
            .collect::<Vec<_>>(),
    );
    let on_pick = {
        let record = record.clone();
        Callback::from(move |b: usize| record.set(Some(b)))
    };
    let close_record = {
        let record = record.clone();
        Callback::from(move |()| record.set(None))
    };
    let (open_wall, close_wall) = {
        let (a, b) = (wall.clone(), wall.clone());
        (
            Callback::from(move |_: MouseEvent| a.set(true)),
            Callback::from(move |()| b.set(false)),
        )
    };
    let replays = newest.played.iter().filter(|p| p.replay.is_some()).count();
    html! {
        <div class="arena-results">
            <p id="arena-progress" aria-live="polite">
                <progress max={newest.total.to_string()} value={done.to_string()}></progress>
                { format!(" {}", status_text(newest)) }
            </p>
            { bots_table(t, &summary, &on_pick) }
            if let Some(bot) = *record {
                <BotRecord bot={bot} names={t.names.clone()} bots={t.bots.clone()}
                    matches={Rc::new(t.played.clone())} dispatch={props.dispatch.clone()}
                    on_close={close_record} />
            }
            { pairs_table(t, &summary) }
            <div class="row buttons">
                <button type="button" id="arena-wall" class="primary" onclick={open_wall}
                    title="The standings and the head-to-head matrix, full screen, for a projector">
                    { "Results wall" }
                </button>
                <button type="button" id="arena-standings-csv" onclick={csv_export(t, &summary, "standings")}>
                    { "Standings as CSV" }
                </button>
                <button type="button" id="arena-pairs-csv" onclick={csv_export(t, &summary, "pairs")}>
                    { "Pairs as CSV" }
                </button>
                if t.arena.is_some() {
                    <button type="button" id="arena-json" onclick={json_export(t, &summary)}
                        title="The results as `botplay arena --json` writes them">
                        { "Results as JSON" }
                    </button>
                }
                if replays > 0 {
                    <button type="button" id="arena-zip" onclick={zip_export(newest, &zip_state)}
                        title="Each replay named with its match's number, its bots and its seed">
                        { format!("All {replays} replays (zip)") }
                    </button>
                }
            </div>
            if let Some(text) = &*zip_state {
                <p id="arena-zip-state" class="hint" aria-live="polite">{ text }</p>
            }
            if *wall {
                <ResultsWall names={t.names.clone()} pseudonyms={t.pseudonyms.clone()}
                    results={results.clone()} status={status_text(newest)} on_close={close_wall} />
            }
            <ArenaCharts names={t.names.clone()} results={results} />
            <MatchList table={props.table.clone()} dispatch={props.dispatch.clone()} />
        </div>
    }
}
