//! Plays a match in the page: drives the engine's [`Referee`] with one bot worker per seat.
//!
//! Everything is event driven; nothing here waits. For each [`engine::Ask`] the runner sends the
//! input to the seat's worker, notes the time and arms a timer at the turn's budget. Each line
//! the worker writes goes to [`Referee::line`] with the time elapsed since that input was sent;
//! a reply goes back to the worker at once. When every asked seat is done the next turn begins.
//!
//! Time is read on one shared clock (`performance.timeOrigin + performance.now()`, the same in
//! the page and in workers), and each line is stamped by the bot's worker when the bot writes
//! it, with a clock the bot's code cannot reach. So a page busy painting never makes a bot late:
//! when the timer fires, the runner waits [`GRACE_MS`] more for lines already written in time.
//! If none completes the turn, the seat times out and its worker is stopped for good. Lines a bot writes while it is not asked are kept for its next turn, as a
//! pipe keeps them.
//!
//! The page hears about the match through [`MatchNews`], delivered from a timer (at most every
//! [`NEWS_EVERY_MS`] while the match runs), so that drawing never delays the bots' clocks.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::{Rc, Weak};

use engine::{Ask, Fault, FaultKind, Frame, Outcome, Referee, Setup, TurnRecord, Verdict};
use gloo_timers::callback::Timeout;
use yew::Callback;

use crate::bot_worker_host::{BotSource, BotWorker, WorkerNews};
use crate::protocol::FromBot;

/// How often the page hears about a running match.
pub const NEWS_EVERY_MS: u32 = 100;
/// How long after a budget the page still waits for lines stamped within it (its own main
/// thread may have been busy); a bot that writes nothing in time is stopped after this.
pub const GRACE_MS: u32 = 250;
/// How long the workers may take to start before the match is given up (a cold load of the
/// Python runtime on a slow connection takes a while; it is not counted against the bot).
const START_TIMEOUT_MS: u32 = 120_000;
/// Lines a bot may write ahead of being asked; more are dropped (the turn will be a flood).
const MAX_UNREAD_LINES: usize = engine::referee::MAX_LINES_PER_TURN + 1;

/// One seat of a match to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatSpec {
    /// The bot's name, as the replay records it.
    pub name: String,
    pub source: BotSource,
}

impl SeatSpec {
    /// The bot as a share link carries it.
    pub fn shared(&self) -> engine::SharedBot {
        let name = self.name.clone();
        match &self.source {
            BotSource::JavaScript(code) => engine::SharedBot::Code {
                name,
                language: "javascript".into(),
                code: code.clone(),
            },
            BotSource::Python(code) => engine::SharedBot::Code {
                name,
                language: "python".into(),
                code: code.clone(),
            },
            BotSource::Builtin(builtin) => engine::SharedBot::Builtin {
                name: builtin.clone(),
            },
            // A link cannot ask the person again: it names the seat, and the page sets the
            // slot to "by hand" when it opens the link (src/app/state.rs).
            BotSource::Human => engine::SharedBot::Program { name },
        }
    }
}

/// Everything needed to play a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSpec {
    pub setup: Setup,
    pub seats: Vec<SeatSpec>,
    /// Budgets × 10 (recorded in the replay).
    pub relaxed: bool,
}

/// What the page hears about a match.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchNews {
    /// A bot's language runtime is loading (Python): what to tell the person.
    Loading(String),
    /// Every bot's worker has started; the first turn is being played.
    Started,
    /// Frames and turn records completed since the last news (in order, none skipped).
    Progress {
        frames: Vec<Frame>,
        turns: Vec<TurnRecord>,
    },
    /// The match is over (or was stopped); no more news follows.
    Finished {
        outcome: Option<Outcome>,
        faults: Vec<Fault>,
        stopped: bool,
    },
    /// The match could not be played; no more news follows.
    Failed(String),
}

/// A seat played by hand is asked: the input it received this turn. The page answers with
/// [`Runner::human_lines`]; there is no time budget. (Heard through [`Runner::on_human`], after
/// the [`MatchNews`] of the same moment.)
#[derive(Clone, Debug, PartialEq)]
pub struct HumanAsk {
    pub seat: usize,
    pub input: String,
}

/// Where a match's time went on the page's clock, for the measure harness (`?measure`,
/// `src/app/measure.rs`). Recording it costs two clock reads per turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timings {
    /// When every worker had started and the first turn began.
    pub started_at: Option<f64>,
    /// When the match ended (or was stopped).
    pub finished_at: Option<f64>,
    /// One per turn, in order.
    pub turns: Vec<TurnTiming>,
}

/// One turn, from the referee beginning it to the referee beginning the next one (or ending the
/// match): the referee's work, the messages to and from the workers, the runner's bookkeeping and
/// the bots' own computing.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct TurnTiming {
    pub wall_ms: f64,
    /// The bots' computing time in this turn as their workers report it (built-in bots do;
    /// JavaScript and Python bots do not: `None`). Seats asked together compute in parallel, so
    /// this is the largest of theirs.
    pub bots_ms: Option<f64>,
    /// The page's own work in this turn: the runner handling the workers' messages (the
    /// referee included) and its news timer. The rest of the time outside the bots is the
    /// messages travelling between threads and the workers' own handling.
    pub page_ms: f64,
}

impl TurnTiming {
    /// The time spent outside the bots, when the bots reported theirs.
    pub fn outside_ms(&self) -> Option<f64> {
        self.bots_ms.map(|bots| self.wall_ms - bots)
    }
}

/// A match being played. Dropping it stops the match and its workers.
pub struct Runner {
    inner: Rc<RefCell<Inner>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Starting,
    Running,
    Over,
}

/// The turn a seat is asked to complete.
struct OpenTurn {
    ask: u64,
    sent_at: f64,
    budget_ms: u32,
    deadline: Option<Timeout>,
    /// The budget has passed on the page's clock; lines stamped within it are still taken.
    in_grace: bool,
}

struct Seat {
    worker: Option<BotWorker>,
    ready: bool,
    /// Why the bot no longer plays (it timed out, crashed or ended), for the crash of its next
    /// turn.
    out: Option<String>,
    open: Option<OpenTurn>,
    /// Lines written while the seat was not asked, with their stamps.
    unread: VecDeque<(String, Option<f64>)>,
    /// Debug-log text written before the bot's first turn (kept for that turn's record).
    early_stderr: Option<String>,
}

struct Inner {
    me: Weak<RefCell<Inner>>,
    referee: Referee,
    seats: Vec<Seat>,
    phase: Phase,
    asks: u64,
    news: Callback<MatchNews>,
    queued: Vec<MatchNews>,
    sent_frames: usize,
    sent_turns: usize,
    news_timer: Option<Timeout>,
    start_timer: Option<Timeout>,
    /// Who hears the asks of seats played by hand, and the asks not yet heard.
    human_news: Option<Callback<HumanAsk>>,
    human_queued: Vec<HumanAsk>,
    timings: Timings,
    /// When the open turn began; the bots' reported time in it, per seat; whether a line came
    /// without its time.
    turn_began: Option<f64>,
    turn_spent: Vec<f64>,
    turn_unreported: bool,
    /// The page's work in the open turn so far, and when the handler running now began.
    turn_page: f64,
    handler_began: Option<f64>,
}

thread_local! {
    /// The page's `performance` and its `timeOrigin`, looked up once (the runner reads the clock
    /// several times per turn).
    static CLOCK: Option<(web_sys::Performance, f64)> = web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| {
            let origin = p.time_origin();
            (p, origin)
        });
}

/// The clock shared with the workers: `performance.timeOrigin + performance.now()`, in ms.
pub fn now_ms() -> f64 {
    CLOCK.with(|clock| clock.as_ref().map_or(0.0, |(p, origin)| origin + p.now()))
}

impl Runner {
    /// Builds the match, starts one worker per seat and plays as soon as they are all ready.
    pub fn start(spec: MatchSpec, news: Callback<MatchNews>) -> Result<Runner, String> {
        let game = games::new_game(&spec.setup).map_err(|e| e.to_string())?;
        if spec.seats.len() != spec.setup.seats {
            return Err(format!(
                "{} bots for {} seats",
                spec.seats.len(),
                spec.setup.seats
            ));
        }
        let names = spec.seats.iter().map(|s| s.name.clone()).collect();
        let referee = Referee::new(game, spec.setup.clone(), names, spec.relaxed);
        let inner = Rc::new_cyclic(|me| {
            RefCell::new(Inner {
                me: me.clone(),
                referee,
                seats: Vec::new(),
                phase: Phase::Starting,
                asks: 0,
                news,
                queued: Vec::new(),
                sent_frames: 0,
                sent_turns: 0,
                news_timer: None,
                start_timer: None,
                human_news: None,
                human_queued: Vec::new(),
                timings: Timings::default(),
                turn_began: None,
                turn_spent: vec![0.0; spec.seats.len()],
                turn_unreported: false,
                turn_page: 0.0,
                handler_began: None,
            })
        });
        let mut seats = Vec::new();
        for (index, seat) in spec.seats.iter().enumerate() {
            if seat.source == BotSource::Human {
                seats.push(Seat {
                    worker: None,
                    ready: true,
                    out: None,
                    open: None,
                    unread: VecDeque::new(),
                    early_stderr: None,
                });
                continue;
            }
            let me = Rc::downgrade(&inner);
            let label = format!("bot {} ({})", index + 1, seat.name);
            let worker = BotWorker::spawn(
                &seat.source,
                &spec.setup.game,
                bots::bot_seed(spec.setup.seed, index),
                &label,
                move |news| {
                    if let Some(inner) = me.upgrade() {
                        inner.borrow_mut().on_worker(index, news);
                    }
                },
            )?;
            seats.push(Seat {
                worker: Some(worker),
                ready: false,
                out: None,
                open: None,
                unread: VecDeque::new(),
                early_stderr: Some(String::new()),
            });
        }
        {
            let mut this = inner.borrow_mut();
            this.seats = seats;
            let me = Rc::downgrade(&inner);
            this.start_timer = Some(Timeout::new(START_TIMEOUT_MS, move || {
                if let Some(inner) = me.upgrade() {
                    inner.borrow_mut().on_start_timeout();
                }
            }));
            // Every seat played by hand: no worker will say it is ready.
            if this.seats.iter().all(|s| s.ready) {
                this.on_worker(0, WorkerNews::Message(FromBot::Ready));
            }
        }
        Ok(Runner { inner })
    }

    /// Where the match's time went so far (complete once the page heard `Finished`).
    pub fn timings(&self) -> Timings {
        self.inner
            .try_borrow()
            .map(|inner| inner.timings.clone())
            .unwrap_or_default()
    }

    /// Who hears the asks of seats played by hand (set it right after [`Runner::start`]: asks are
    /// delivered from a timer).
    pub fn on_human(&self, callback: Callback<HumanAsk>) {
        if let Ok(mut inner) = self.inner.try_borrow_mut() {
            inner.human_news = Some(callback);
        }
    }

    /// The lines a person wrote by hand for their seat's turn: heard by the referee as written
    /// at once (human turns have no time budget).
    pub fn human_lines(&self, seat: usize, lines: &[String]) {
        let Ok(mut inner) = self.inner.try_borrow_mut() else {
            return;
        };
        if inner.phase != Phase::Running {
            return;
        }
        for line in lines {
            let Some(open) = &inner.seats.get(seat).and_then(|s| s.open.as_ref()) else {
                break;
            };
            let at = open.sent_at;
            inner.hear(seat, line.clone(), Some(at));
        }
        inner.pump();
        inner.schedule_news();
    }

    /// Stops the match now: the workers are stopped and the page hears `Finished { stopped }`.
    pub fn stop(&self) {
        let Ok(mut inner) = self.inner.try_borrow_mut() else {
            return;
        };
        if inner.phase != Phase::Over {
            inner.finish(true);
        }
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        if let Ok(mut inner) = self.inner.try_borrow_mut() {
            inner.phase = Phase::Over;
            inner.stop_workers();
            inner.news_timer = None;
            inner.start_timer = None;
        }
    }
}

impl Inner {
    fn on_worker(&mut self, seat: usize, news: WorkerNews) {
        if self.phase == Phase::Over {
            return;
        }
        self.handler_began = Some(now_ms());
        self.handle(seat, news);
        self.handler_done();
    }

    /// Adds the running handler's time to the open turn's page work.
    fn handler_done(&mut self) {
        if let Some(began) = self.handler_began.take() {
            self.turn_page += now_ms() - began;
        }
    }

    fn handle(&mut self, seat: usize, news: WorkerNews) {
        match news {
            WorkerNews::Message(FromBot::Ready) => {
                self.seats[seat].ready = true;
                if self.phase == Phase::Starting && self.seats.iter().all(|s| s.ready) {
                    self.phase = Phase::Running;
                    self.start_timer = None;
                    self.timings.started_at = Some(now_ms());
                    self.queued.push(MatchNews::Started);
                    self.pump();
                }
            }
            WorkerNews::Message(FromBot::Loading { text }) => {
                if self.phase == Phase::Starting {
                    self.queued
                        .push(MatchNews::Loading(format!("bot {}: {text}", seat + 1)));
                }
            }
            WorkerNews::Message(FromBot::Line { text, at, spent }) => {
                match spent {
                    Some(ms) => self.turn_spent[seat] += ms,
                    None => self.turn_unreported = true,
                }
                if self.seats[seat].open.is_some() {
                    self.hear(seat, text, at);
                    self.pump();
                } else if self.seats[seat].unread.len() < MAX_UNREAD_LINES {
                    self.seats[seat].unread.push_back((text, at));
                }
            }
            WorkerNews::Message(lines @ FromBot::Lines { .. }) => {
                for line in lines.each() {
                    self.handle(seat, WorkerNews::Message(line));
                }
            }
            WorkerNews::Message(FromBot::Stderr { text }) => {
                match &mut self.seats[seat].early_stderr {
                    Some(early) if early.len() < engine::referee::MAX_STDERR_BYTES => {
                        early.push_str(&text)
                    }
                    Some(_) => {}
                    None => self.referee.stderr(seat, &text),
                }
            }
            WorkerNews::Message(FromBot::Flood { message }) => self.flooded(seat, message),
            WorkerNews::Message(FromBot::NeedInput) => {
                if let Some(worker) = &mut self.seats[seat].worker {
                    worker.refill();
                }
            }
            WorkerNews::Message(FromBot::Exit { message }) | WorkerNews::Error(message)
                if !self.seats[seat].ready =>
            {
                let why = format!("bot {} could not start: {message}", seat + 1);
                self.fail(why);
            }
            WorkerNews::Message(FromBot::Exit { message }) | WorkerNews::Error(message) => {
                self.ended(seat, message)
            }
        }
        self.schedule_news();
    }

    /// The bot's program ended or its worker failed: the bot is out.
    fn ended(&mut self, seat: usize, message: String) {
        self.put_out(seat, message.clone());
        if let Some(open) = self.seats[seat].open.take() {
            let elapsed = now_ms() - open.sent_at;
            self.referee.crash(seat, &message, elapsed);
            self.pump();
        }
    }

    /// The bot wrote more than it may without reading its input: it is out, and the lines it
    /// wrote ahead are dropped. The fault is a flood if the bot is being asked now; otherwise
    /// its next turn is a crash that says why.
    fn flooded(&mut self, seat: usize, message: String) {
        self.seats[seat].unread.clear();
        self.put_out(seat, format!("the bot was stopped earlier: {message}"));
        if let Some(open) = self.seats[seat].open.take() {
            let elapsed = now_ms() - open.sent_at;
            self.referee.flood(seat, &message, elapsed);
            self.pump();
        }
    }

    /// Starts turns until a bot has to answer or the match is over.
    fn pump(&mut self) {
        while self.phase == Phase::Running && !self.referee.turn_open() {
            self.close_turn_timing();
            if self.referee.is_over() {
                self.finish(false);
                return;
            }
            self.turn_began = Some(now_ms());
            let asks = self.referee.begin_turn();
            if asks.is_empty() {
                self.fail("the game asks no bot to play, yet it is not over".into());
                return;
            }
            self.deliver_notices();
            for ask in asks {
                self.ask(ask);
            }
        }
    }

    /// Records the turn that just ended, if one was timed.
    fn close_turn_timing(&mut self) {
        let Some(began) = self.turn_began.take() else {
            return;
        };
        let bots = self.turn_spent.iter().copied().fold(0.0, f64::max);
        let now = now_ms();
        // The handler running now goes on into the next turn.
        if let Some(handler) = self.handler_began.replace(now) {
            self.turn_page += now - handler;
        }
        self.timings.turns.push(TurnTiming {
            wall_ms: now - began,
            bots_ms: (!self.turn_unreported).then_some(bots),
            page_ms: self.turn_page,
        });
        self.turn_spent.iter_mut().for_each(|ms| *ms = 0.0);
        self.turn_unreported = false;
        self.turn_page = 0.0;
    }

    /// Broadcasts to seats not being asked (Skyport's game states), delivered at once, untimed.
    fn deliver_notices(&mut self) {
        for (seat, text) in self.referee.take_notices() {
            let Some(s) = self.seats.get_mut(seat) else {
                continue;
            };
            if let (None, Some(worker)) = (&s.out, &mut s.worker) {
                worker.deliver(&text);
            }
        }
    }

    fn ask(&mut self, ask: Ask) {
        let seat = ask.seat;
        if let Some(early) = self.seats[seat].early_stderr.take() {
            if !early.is_empty() {
                self.referee.stderr(seat, &early);
            }
        }
        self.asks += 1;
        let id = self.asks;
        // A seat played by hand: the page shows the input and waits, with no deadline.
        if self.seats[seat].worker.is_none() && self.seats[seat].out.is_none() {
            self.seats[seat].open = Some(OpenTurn {
                ask: id,
                sent_at: now_ms(),
                budget_ms: ask.budget_ms,
                deadline: None,
                in_grace: false,
            });
            self.queue_progress();
            self.human_queued.push(HumanAsk {
                seat,
                input: ask.input,
            });
            self.schedule_news_now();
            return;
        }
        let me = self.me.clone();
        let deadline = Timeout::new(ask.budget_ms, move || {
            if let Some(inner) = me.upgrade() {
                inner.borrow_mut().on_deadline(seat, id);
            }
        });
        self.seats[seat].open = Some(OpenTurn {
            ask: id,
            sent_at: now_ms(),
            budget_ms: ask.budget_ms,
            deadline: Some(deadline),
            in_grace: false,
        });
        if let Some(worker) = &mut self.seats[seat].worker {
            worker.deliver(&ask.input);
        }
        // Lines the bot wrote before it was asked are read first, as from a pipe.
        while self.seats[seat].open.is_some() {
            let Some((line, at)) = self.seats[seat].unread.pop_front() else {
                break;
            };
            self.hear(seat, line, at);
        }
        // A bot that no longer runs cannot complete the turn.
        if let (Some(why), Some(open)) = (&self.seats[seat].out, &self.seats[seat].open) {
            let (why, elapsed) = (why.clone(), now_ms() - open.sent_at);
            self.seats[seat].open = None;
            self.referee.crash(seat, &why, elapsed);
        }
    }

    /// One line from an asked seat, stamped by its worker when the bot wrote it (a line written
    /// before the seat was asked counts as written at once).
    fn hear(&mut self, seat: usize, line: String, at: Option<f64>) {
        let Some(open) = &self.seats[seat].open else {
            return;
        };
        let elapsed = (at.unwrap_or_else(now_ms) - open.sent_at).max(0.0);
        let verdict = self.referee.line(seat, &line, elapsed);
        self.deliver_notices();
        match verdict {
            Verdict::Reply(text) => {
                if let Some(worker) = &mut self.seats[seat].worker {
                    worker.deliver(&text);
                }
            }
            Verdict::More | Verdict::Done => {}
            Verdict::Fault(fault) => {
                if matches!(fault.kind, FaultKind::Timeout | FaultKind::Flood) {
                    let why = format!("the bot was stopped earlier: {}", fault.kind);
                    self.put_out(seat, why);
                }
            }
            Verdict::NotAsked => self.seats[seat].unread.push_front((line, at)),
        }
        if !self.referee.waiting_for().contains(&seat) {
            self.seats[seat].open = None;
        }
    }

    fn on_deadline(&mut self, seat: usize, ask: u64) {
        let Some(open) = &mut self.seats[seat].open else {
            return;
        };
        if open.ask != ask || self.phase != Phase::Running {
            return;
        }
        // This timer has fired: let it go without cancelling it from inside its own callback.
        if let Some(timer) = open.deadline.take() {
            timer.forget();
        }
        let elapsed = now_ms() - open.sent_at;
        let budget = f64::from(open.budget_ms);
        let wait = if elapsed < budget {
            // The timer ran a little early by this clock: wait for the rest.
            Some((budget - elapsed).ceil() as u32)
        } else if !open.in_grace {
            // Lines written in time may still be queued behind the page's own work.
            open.in_grace = true;
            Some(GRACE_MS)
        } else {
            None
        };
        if let Some(wait) = wait {
            let me = self.me.clone();
            open.deadline = Some(Timeout::new(wait.max(1), move || {
                if let Some(inner) = me.upgrade() {
                    inner.borrow_mut().on_deadline(seat, ask);
                }
            }));
            return;
        }
        self.seats[seat].open = None;
        self.referee.timeout(seat, elapsed);
        self.put_out(seat, "the bot was stopped earlier: timeout".into());
        self.pump();
        self.schedule_news();
    }

    /// The bot plays no more: its worker is stopped (a looping bot included).
    fn put_out(&mut self, seat: usize, why: String) {
        let seat = &mut self.seats[seat];
        if seat.out.is_none() {
            seat.out = Some(why);
        }
        if let Some(worker) = &mut seat.worker {
            worker.stop();
        }
    }

    fn on_start_timeout(&mut self) {
        if let Some(timer) = self.start_timer.take() {
            timer.forget();
        }
        if self.phase == Phase::Starting {
            let slow: Vec<String> = (0..self.seats.len())
                .filter(|&s| !self.seats[s].ready)
                .map(|s| (s + 1).to_string())
                .collect();
            self.fail(format!(
                "the worker of bot {} did not start within {} s",
                slow.join(", "),
                START_TIMEOUT_MS / 1000
            ));
        }
    }

    fn stop_workers(&mut self) {
        for seat in &mut self.seats {
            seat.open = None;
            if let Some(worker) = &mut seat.worker {
                worker.stop();
            }
        }
    }

    fn finish(&mut self, stopped: bool) {
        self.close_turn_timing();
        self.timings.finished_at = Some(now_ms());
        self.phase = Phase::Over;
        self.stop_workers();
        self.queue_progress();
        self.queued.push(MatchNews::Finished {
            outcome: self.referee.outcome().filter(|_| self.referee.is_over()),
            faults: self.referee.faults().to_vec(),
            stopped,
        });
        self.schedule_news_now();
    }

    fn fail(&mut self, why: String) {
        self.phase = Phase::Over;
        self.stop_workers();
        self.queue_progress();
        self.queued.push(MatchNews::Failed(why));
        self.schedule_news_now();
    }

    fn queue_progress(&mut self) {
        let frames = &self.referee.frames()[self.sent_frames..];
        let turns = &self.referee.turns()[self.sent_turns..];
        if frames.is_empty() && turns.is_empty() {
            return;
        }
        self.queued.push(MatchNews::Progress {
            frames: frames.to_vec(),
            turns: turns.to_vec(),
        });
        self.sent_frames += frames.len();
        self.sent_turns += turns.len();
    }

    fn schedule_news(&mut self) {
        if self.news_timer.is_none() {
            self.arm_news_timer(NEWS_EVERY_MS);
        }
    }

    fn schedule_news_now(&mut self) {
        if let Some(timer) = self.news_timer.take() {
            drop(timer);
        }
        self.arm_news_timer(0);
    }

    fn arm_news_timer(&mut self, millis: u32) {
        let me = self.me.clone();
        self.news_timer = Some(Timeout::new(millis, move || {
            let Some(inner) = me.upgrade() else {
                return;
            };
            // Take the news out first: the page's handlers run with the runner free.
            let began = now_ms();
            let (news, callback) = {
                let mut this = inner.borrow_mut();
                if let Some(timer) = this.news_timer.take() {
                    timer.forget();
                }
                if this.phase != Phase::Over {
                    this.queue_progress();
                }
                (std::mem::take(&mut this.queued), this.news.clone())
            };
            for item in news {
                callback.emit(item);
            }
            let human = inner.try_borrow_mut().ok().and_then(|mut this| {
                let asks = std::mem::take(&mut this.human_queued);
                this.human_news.clone().map(|hear| (asks, hear))
            });
            if let Some((asks, hear)) = human {
                asks.into_iter().for_each(|ask| hear.emit(ask));
            }
            // Bookkeeping between the bots' messages: part of the open turn's page work.
            if let Ok(mut this) = inner.try_borrow_mut() {
                this.turn_page += now_ms() - began;
            };
        }));
    }
}
