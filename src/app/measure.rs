//! The measure harness: the page opened with `?measure` in its address (`index.html?measure`)
//! shows this instead of the normal page, which nothing here changes or links to.
//!
//! *Measure* plays, for every game, a few matches (seeds 1, 2, …) of the game's strongest
//! built-in bot against itself through the page's own [`Runner`] and its match host, with nothing
//! drawn, and reports:
//!
//! - per turn, the time spent outside the bots (the referee, its frames, the driver): each
//!   turn's wall time in the match worker less the built-in bots' computing time, which the match
//!   worker times around each call ([`Timings`]); median and 99th percentile;
//! - a whole match, from its first turn to its outcome (worker start-up apart, as for the bots'
//!   time budgets, and reported on its own);
//! - the floor: a bare `postMessage` round trip to a worker that echoes (`www/echo-worker.js`);
//! - one Crafting Quest 3 match on the largest map (100×100, four seats) and a share link that
//!   opens it in the normal viewer, for the rendering measure of `tests/e2e/perf.mjs`.
//!
//! `?measure&matches=N` plays N matches per game (5 by default), `&games=ID,ID` only those games.
//! Matches are relaxed (budgets × 10) so that a machine busy with other work does not end them
//! early with a timeout; the time of a healthy turn does not depend on its budget. The figures
//! are shown in a table and, for `tests/e2e/perf.mjs`, as JSON in `#measure-json`.

use std::cell::RefCell;
use std::rc::Rc;

use engine::{GameInfo, Replay, Setup, ShareDoc, SharedBot, TurnRecord};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{MessageEvent, Worker};
use yew::platform::pinned::oneshot;
use yew::platform::spawn_local;
use yew::prelude::*;

use crate::runner::BotSource;
use crate::runner::{now_ms, MatchNews, MatchSpec, Runner, SeatSpec, Timings};

/// The worker that echoes every message (copied from `www/` by Trunk).
const ECHO_WORKER_URL: &str = "./echo-worker.js";
/// Matches per game unless `?measure&matches=N` says otherwise.
const DEFAULT_MATCHES: u32 = 5;
/// Round trips timed for the floor, after as many to warm up.
const ROUND_TRIPS: usize = 2000;
/// What each round trip carries: about the size of a short turn's input.
const ROUND_TRIP_TEXT: &str = "0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 \
                               0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\n";
/// The largest Crafting Quest 3 match: a generated map of the largest side, every seat taken.
const BIG_GAME: &str = "crafting-quest";
const BIG_SIZE: &str = "100";

/// Whether the page was opened as the measure harness (`?measure` in its address).
pub fn requested() -> bool {
    query_value("measure").is_some()
}

/// The value of `name` in the page's query string (`""` for a bare `?name`).
fn query_value(name: &str) -> Option<String> {
    let search = web_sys::window()?.location().search().ok()?;
    search
        .trim_start_matches('?')
        .split('&')
        .find_map(|pair| match pair.split_once('=') {
            Some((key, value)) if key == name => Some(value.to_string()),
            None if pair == name => Some(String::new()),
            _ => None,
        })
}

/// Figures for the matches of one game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameFigures {
    pub game: String,
    /// The bot of every seat.
    pub bot: String,
    pub seats: usize,
    /// Game options, `key=value` (empty: the defaults).
    pub options: String,
    pub matches: usize,
    pub turns: usize,
    /// Lines the bots wrote per turn (each one a message from a worker; a conversational game's
    /// line also gets a reply message).
    pub lines_per_turn: f64,
    pub faults: usize,
    /// Per turn: outside the bots, the whole turn, the bots' own time.
    pub outside_median_ms: f64,
    pub outside_p99_ms: f64,
    pub turn_median_ms: f64,
    pub bots_median_ms: f64,
    /// Per turn, the match worker's own work (the referee, its frames, the driver): the rest of
    /// the time outside the bots is waiting for the workers and the messages between threads.
    pub host_median_ms: f64,
    pub host_p99_ms: f64,
    /// A whole match, first turn to outcome: median and slowest; start-up of the workers apart.
    pub match_median_ms: f64,
    pub match_max_ms: f64,
    pub startup_median_ms: f64,
}

/// The floor: a bare postMessage round trip.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RoundTrips {
    pub count: usize,
    pub median_ms: f64,
    pub p99_ms: f64,
}

/// Everything the harness reports.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Report {
    pub cross_origin_isolated: bool,
    pub round_trip: Option<RoundTrips>,
    pub games: Vec<GameFigures>,
    /// Over every turn of every game above.
    pub all_outside_median_ms: Option<f64>,
    pub all_outside_p99_ms: Option<f64>,
    /// The Crafting Quest 3 match on the largest map, and the link that opens it in the viewer.
    pub big_map: Option<GameFigures>,
    pub big_map_link: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
struct State {
    running: bool,
    done: bool,
    status: String,
    error: Option<String>,
    report: Report,
}

enum Step {
    Status(String),
    Report(Box<Report>),
    Failed(String),
    Done,
}

impl Reducible for State {
    type Action = Step;

    fn reduce(self: Rc<Self>, step: Step) -> Rc<Self> {
        let mut s = (*self).clone();
        match step {
            Step::Status(text) => {
                s.running = true;
                s.done = false;
                s.error = None;
                s.status = text;
            }
            Step::Report(report) => s.report = *report,
            Step::Failed(why) => {
                s.running = false;
                s.status = "Failed.".into();
                s.error = Some(why);
            }
            Step::Done => {
                s.running = false;
                s.done = true;
                s.status = "Done.".into();
            }
        }
        Rc::new(s)
    }
}

#[component(Measure)]
pub fn measure() -> Html {
    let state = use_reducer(State::default);
    let matches = use_state(|| {
        query_value("matches")
            .and_then(|m| m.parse::<u32>().ok())
            .filter(|&m| m >= 1)
            .unwrap_or(DEFAULT_MATCHES)
    });
    let on_matches = {
        let matches = matches.clone();
        Callback::from(move |e: InputEvent| {
            let value = e
                .target_unchecked_into::<web_sys::HtmlInputElement>()
                .value();
            if let Ok(m) = value.parse::<u32>() {
                matches.set(m.clamp(1, 100));
            }
        })
    };
    let on_run = run_on_click(&state, *matches);
    let report = &state.report;
    let json = serde_json::to_string_pretty(report).unwrap_or_default();

    html! {
        <main class="measure">
            <h1>{ "botplay: measure" }</h1>
            <p>
                { "Plays matches between built-in bots in this page's workers with nothing drawn, \
                   and reports where the time goes: per turn outside the bots (referee, worker \
                   messages, bookkeeping), whole matches, and a bare postMessage round trip. \
                   Times in milliseconds. " }
                <a href="./">{ "Back to botplay" }</a>
            </p>
            <p>
                <label>
                    { "Matches per game " }
                    <input id="measure-matches" type="number" min="1" max="100"
                        value={matches.to_string()} oninput={on_matches} />
                </label>
                { " " }
                <button type="button" id="measure-run" onclick={on_run} disabled={state.running}>
                    { "Measure" }
                </button>
            </p>
            <p id="measure-status" data-done={state.done.to_string()}>{ &state.status }</p>
            if let Some(why) = &state.error {
                <p id="measure-error" class="warning" role="alert">{ why }</p>
            }
            if let Some(rt) = &report.round_trip {
                <p id="measure-round-trip">
                    { format!("postMessage round trip (page → echo worker → page), {} times: median {} ms, 99th percentile {} ms.",
                        rt.count, ms(rt.median_ms), ms(rt.p99_ms)) }
                </p>
            }
            { figures_table(report) }
            if let (Some(median), Some(p99)) = (report.all_outside_median_ms, report.all_outside_p99_ms) {
                <p id="measure-all">
                    { format!("Every turn of every game above: outside the bots, median {} ms, 99th percentile {} ms.",
                        ms(median), ms(p99)) }
                </p>
            }
            if let Some(link) = &report.big_map_link {
                <p>
                    <a id="measure-big-map-link" href={link.clone()}>
                        { "Open the largest Crafting Quest 3 match in the viewer" }
                    </a>
                </p>
            }
            if state.done {
                <pre id="measure-json">{ json }</pre>
            }
        </main>
    }
}

/// The "Measure" button's action: plays and measures `matches` matches per game in the
/// background, reporting each step to the page's state (nothing while a run is going).
fn run_on_click(state: &UseReducerHandle<State>, matches: u32) -> Callback<MouseEvent> {
    let dispatcher = state.dispatcher();
    let running = state.running;
    Callback::from(move |_: MouseEvent| {
        if running {
            return;
        }
        let dispatcher = dispatcher.clone();
        spawn_local(async move {
            let report = |step| dispatcher.dispatch(step);
            match measure_all(matches, &report).await {
                Ok(()) => report(Step::Done),
                Err(why) => report(Step::Failed(why)),
            }
        });
    })
}

/// Milliseconds as the page shows them.
fn ms(v: f64) -> String {
    format!("{v:.3}")
}

/// The table of figures: a row per game measured, then the big map's.
fn figures_table(report: &Report) -> Html {
    html! {
        <table id="measure-table">
            <thead>
                <tr>
                    <th>{ "game" }</th><th>{ "bots" }</th><th>{ "matches" }</th>
                    <th>{ "turns" }</th><th>{ "lines/turn" }</th>
                    <th>{ "outside bots, median" }</th><th>{ "outside bots, p99" }</th>
                    <th>{ "turn, median" }</th><th>{ "bots, median" }</th>
                    <th>{ "match worker's work, median" }</th><th>{ "match worker's work, p99" }</th>
                    <th>{ "match, median" }</th><th>{ "match, max" }</th>
                    <th>{ "worker start-up" }</th><th>{ "faults" }</th>
                </tr>
            </thead>
            <tbody>
                { for report.games.iter().map(figures_row) }
                { for report.big_map.iter().map(figures_row) }
            </tbody>
        </table>
    }
}

/// One game's figures as a row of the table.
fn figures_row(f: &GameFigures) -> Html {
    html! {
        <tr>
            <td>{ &f.game }{ if f.options.is_empty() { String::new() } else { format!(" ({})", f.options) } }</td>
            <td>{ format!("{} × {}", f.bot, f.seats) }</td>
            <td>{ f.matches }</td>
            <td>{ f.turns }</td>
            <td>{ format!("{:.1}", f.lines_per_turn) }</td>
            <td>{ ms(f.outside_median_ms) }</td>
            <td>{ ms(f.outside_p99_ms) }</td>
            <td>{ ms(f.turn_median_ms) }</td>
            <td>{ ms(f.bots_median_ms) }</td>
            <td>{ ms(f.host_median_ms) }</td>
            <td>{ ms(f.host_p99_ms) }</td>
            <td>{ format!("{:.1}", f.match_median_ms) }</td>
            <td>{ format!("{:.1}", f.match_max_ms) }</td>
            <td>{ format!("{:.1}", f.startup_median_ms) }</td>
            <td>{ f.faults }</td>
        </tr>
    }
}

/// Runs every measure in turn, reporting progress and figures as they come.
async fn measure_all(matches: u32, report: &dyn Fn(Step)) -> Result<(), String> {
    let mut figures = Report {
        cross_origin_isolated: crate::isolation::cross_origin_isolated(),
        ..Report::default()
    };
    report(Step::Status("Timing postMessage round trips…".into()));
    figures.round_trip = Some(round_trips(ROUND_TRIPS).await?);
    report(Step::Report(Box::new(figures.clone())));

    // `?measure&games=ice-and-fire,skyport` measures only those (for profiling one game).
    let only = query_value("games");
    let wanted = |game: &str| {
        only.as_ref()
            .is_none_or(|o| o.split(',').any(|g| g == game))
    };
    let mut every_turn = Vec::new();
    for entry in games::GAMES.iter().filter(|e| wanted(e.info.id)) {
        let info = entry.info;
        let bot = strongest(info.id)?;
        let mut played = Vec::new();
        for seed in 1..=i64::from(matches) {
            report(Step::Status(format!(
                "Playing {} ({bot} against itself), match {seed} of {matches}…",
                info.name
            )));
            let setup = Setup::new(info, seed);
            played.push(play(info, setup, &bot).await?);
        }
        let game = summarise(info, &bot, "", &played, Some(&mut every_turn));
        figures.games.push(game);
        figures.all_outside_median_ms = Some(percentile(&mut every_turn, 0.5));
        figures.all_outside_p99_ms = Some(percentile(&mut every_turn, 0.99));
        report(Step::Report(Box::new(figures.clone())));
    }

    if !wanted(BIG_GAME) {
        return Ok(());
    }
    let entry = games::entry(BIG_GAME).ok_or("Crafting Quest 3 is not in this botplay")?;
    let info = entry.info;
    let bot = strongest(info.id)?;
    report(Step::Status(format!(
        "Playing {} on a {BIG_SIZE}×{BIG_SIZE} map with {} seats…",
        info.name, info.max_seats
    )));
    let mut setup = Setup::new(info, 1);
    setup.seats = info.max_seats;
    setup.options.insert("size".into(), BIG_SIZE.into());
    let big = play(info, setup.clone(), &bot).await?;
    let options = format!("size={BIG_SIZE}");
    figures.big_map = Some(summarise(
        info,
        &bot,
        &options,
        std::slice::from_ref(&big),
        None,
    ));
    let replay = Replay::new(
        info,
        setup.clone(),
        vec![bot.clone(); setup.seats],
        true,
        big.turns,
    );
    let doc = ShareDoc {
        setup,
        relaxed: true,
        bots: vec![SharedBot::Builtin { name: bot }; info.max_seats],
        replay: Some(replay),
        turn: None,
        lesson: None,
    };
    figures.big_map_link = Some(format!("./#{}", doc.encode()));
    report(Step::Report(Box::new(figures)));
    Ok(())
}

/// The strongest built-in bot of a game (the registry lists them weakest first).
fn strongest(game: &str) -> Result<String, String> {
    bots::builtins(game)
        .last()
        .map(|b| b.name.to_string())
        .ok_or_else(|| format!("{game} has no built-in bot"))
}

/// One match, played to its end.
struct Played {
    timings: Timings,
    startup_ms: f64,
    turns: Vec<TurnRecord>,
    faults: usize,
}

/// Plays one match of `bot` in every seat, relaxed, with nothing drawn.
async fn play(info: &GameInfo, setup: Setup, bot: &str) -> Result<Played, String> {
    let seats = (0..setup.seats)
        .map(|_| SeatSpec {
            name: bot.to_string(),
            source: BotSource::Builtin(bot.to_string()),
        })
        .collect();
    let spec = MatchSpec {
        setup,
        seats,
        relaxed: true,
        from: None,
    };
    let (sender, receiver) = oneshot::channel::<Result<usize, String>>();
    let sender = RefCell::new(Some(sender));
    let turns = Rc::new(RefCell::new(Vec::new()));
    let news = {
        let turns = turns.clone();
        let name = info.name;
        Callback::from(move |news: MatchNews| {
            let end = match news {
                MatchNews::Progress { turns: more, .. } => {
                    turns.borrow_mut().extend(more);
                    None
                }
                MatchNews::Finished {
                    outcome: Some(_),
                    faults,
                    stopped: false,
                } => Some(Ok(faults.len())),
                MatchNews::Finished { .. } => Some(Err(format!(
                    "a {name} match between built-in bots ended without an outcome"
                ))),
                MatchNews::Failed(why) => Some(Err(format!("a {name} match failed: {why}"))),
                MatchNews::Loading(_)
                | MatchNews::Started
                | MatchNews::Pictures { .. }
                | MatchNews::PicturesGone => None,
            };
            if let Some(end) = end {
                if let Some(sender) = sender.borrow_mut().take() {
                    let _ = sender.send(end);
                }
            }
        })
    };
    let spawned = now_ms();
    let runner = Runner::start(spec, news)?;
    let faults = receiver
        .await
        .map_err(|_| "the match ended without news".to_string())??;
    let timings = runner.timings();
    drop(runner);
    let startup_ms = timings.started_at.map_or(0.0, |at| at - spawned);
    let turns = std::mem::take(&mut *turns.borrow_mut());
    Ok(Played {
        timings,
        startup_ms,
        turns,
        faults,
    })
}

/// The figures of some matches of one game; every turn's time outside the bots is also added to
/// `every_turn`.
fn summarise(
    info: &GameInfo,
    bot: &str,
    options: &str,
    played: &[Played],
    every_turn: Option<&mut Vec<f64>>,
) -> GameFigures {
    let turns: Vec<_> = played.iter().flat_map(|p| &p.timings.turns).collect();
    let mut outside: Vec<f64> = turns.iter().filter_map(|t| t.outside_ms()).collect();
    let mut wall: Vec<f64> = turns.iter().map(|t| t.wall_ms).collect();
    let mut bots: Vec<f64> = turns.iter().filter_map(|t| t.bots_ms).collect();
    let mut host: Vec<f64> = turns.iter().map(|t| t.host_ms).collect();
    let mut whole: Vec<f64> = played
        .iter()
        .filter_map(|p| Some(p.timings.finished_at? - p.timings.started_at?))
        .collect();
    let mut startup: Vec<f64> = played.iter().map(|p| p.startup_ms).collect();
    let lines: usize = played
        .iter()
        .flat_map(|p| &p.turns)
        .flat_map(|t| &t.seats)
        .map(|s| s.lines.len())
        .sum();
    if let Some(every) = every_turn {
        every.extend(&outside);
    }
    GameFigures {
        game: info.id.to_string(),
        bot: bot.to_string(),
        seats: seats_of(played),
        options: options.to_string(),
        matches: played.len(),
        turns: turns.len(),
        lines_per_turn: lines as f64 / turns.len().max(1) as f64,
        faults: played.iter().map(|p| p.faults).sum(),
        outside_median_ms: percentile(&mut outside, 0.5),
        outside_p99_ms: percentile(&mut outside, 0.99),
        turn_median_ms: percentile(&mut wall, 0.5),
        bots_median_ms: percentile(&mut bots, 0.5),
        host_median_ms: percentile(&mut host, 0.5),
        host_p99_ms: percentile(&mut host, 0.99),
        match_median_ms: percentile(&mut whole, 0.5),
        match_max_ms: whole.iter().copied().fold(0.0, f64::max),
        startup_median_ms: percentile(&mut startup, 0.5),
    }
}

/// The number of seats of these matches (the most any turn record names).
fn seats_of(played: &[Played]) -> usize {
    played
        .iter()
        .flat_map(|p| &p.turns)
        .flat_map(|t| &t.seats)
        .map(|s| s.seat + 1)
        .max()
        .unwrap_or(0)
}

/// The `q` quantile (nearest rank) of `values`, which it sorts; 0 when there are none.
fn percentile(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f64::total_cmp);
    let rank = (q * values.len() as f64).ceil() as usize;
    values[rank.clamp(1, values.len()) - 1]
}

/// Times `count` postMessage round trips to a worker that echoes, one after the other, after as
/// many to warm up.
async fn round_trips(count: usize) -> Result<RoundTrips, String> {
    let worker = Worker::new(ECHO_WORKER_URL)
        .map_err(|e| format!("the echo worker could not be created: {e:?}"))?;
    let (sender, receiver) = oneshot::channel::<Vec<f64>>();
    let sender = RefCell::new(Some(sender));
    let times = RefCell::new(Vec::with_capacity(2 * count));
    let sent_at = Rc::new(std::cell::Cell::new(0.0));
    let message = JsValue::from_str(ROUND_TRIP_TEXT);
    let echo = worker.clone();
    let first_sent_at = sent_at.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |_: MessageEvent| {
        let now = now_ms();
        let mut times = times.borrow_mut();
        times.push(now - sent_at.get());
        if times.len() == 2 * count {
            if let Some(sender) = sender.borrow_mut().take() {
                let _ = sender.send(times.split_off(count));
            }
            return;
        }
        sent_at.set(now_ms());
        let _ = echo.post_message(&message);
    });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    first_sent_at.set(now_ms());
    worker
        .post_message(&JsValue::from_str(ROUND_TRIP_TEXT))
        .map_err(|e| format!("the echo worker cannot be sent a message: {e:?}"))?;
    let mut times = receiver
        .await
        .map_err(|_| "the echo worker stopped answering".to_string())?;
    worker.set_onmessage(None);
    worker.terminate();
    drop(on_message);
    Ok(RoundTrips {
        count,
        median_ms: percentile(&mut times, 0.5),
        p99_ms: percentile(&mut times, 0.99),
    })
}
