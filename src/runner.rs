//! Plays a match for the page, in a match host away from the page's main thread and, where the
//! browser gives one, in a process of its own (`src/match_host`, `www/match-host.js`).
//!
//! The runner makes the host (a sandboxed frame; or, where the frame cannot have shared memory,
//! the same host script in the page, whose workers then run in the page's process), sends it the
//! match and the files its workers are made of, and hears [`MatchNews`] in batches. Where the page
//! has no shared memory either, the match is played on messages ([`Isolation::Messages`]): the
//! built-in bots as ever, and bots written in the editor through the page's service worker. The page does
//! no referee work during a match: it only draws what it hears, and sends commands (stop, a
//! person's lines).
//!
//! The host says it is alive every 100 ms. A host silent for [`DEAD_AFTER_MS`] while the page's
//! own timers ran on time has died (in Chromium, a bot that exhausts memory kills the frame's
//! process, not the page): the match ends there, with a crash of the bot that was computing.
//!
//! Once the match is over, the bots' workers and the heartbeat end, but the match worker stays
//! until the runner is dropped (a new match, the page left): it keeps every frame, and answers
//! the viewer's requests for the pictures of earlier turns ([`Runner::pictures`]), so that the
//! page never re-runs a match it played. A request it leaves unanswered for
//! [`PICTURES_WAIT_MS`] ends it ([`MatchNews::PicturesGone`]).

use std::cell::{Cell, RefCell};
use std::rc::{Rc, Weak};

use engine::{Fault, FaultKind, Frame, Outcome, Setup, TurnRecord};
use gloo_timers::callback::{Interval, Timeout};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlIFrameElement, MessageChannel, MessageEvent, MessagePort};
use yew::Callback;

use crate::match_host::{HostNews, HostStart, Player, TakeOver};
pub use crate::match_host::{Timings, TurnTiming};

/// The match host's script: put into the frame as it is (its SHA-256 is in the page's policy).
pub const MATCH_HOST_JS: &str = include_str!("../www/match-host.js");
/// A host that said nothing for this long while the page's timers were on time is dead.
pub const DEAD_AFTER_MS: f64 = 1_500.0;
/// How long a stopped match may take to say it stopped before the page stops it itself.
const STOP_GRACE_MS: u32 = 1_000;
/// How long the match worker of a match over may take to answer a request for pictures before
/// the page takes it for gone.
pub const PICTURES_WAIT_MS: u32 = 3_000;

/// Which program plays a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSource {
    /// A JavaScript bot's source code.
    JavaScript(String),
    /// A TypeScript bot's source code (made JavaScript by Sucrase in its worker).
    TypeScript(String),
    /// A Python bot's source code (run by Pyodide in the same worker runtime).
    Python(String),
    /// A WebAssembly bot (`wasm32-wasip1`): its module in base64, as class files carry it (run
    /// by `www/wasm-bot-worker.js`).
    Wasm(String),
    /// A built-in bot of the game, by name.
    Builtin(String),
    /// A person plays the seat by hand in the page (`src/human`): no worker, no time budget.
    Human,
}

impl BotSource {
    /// The bot of `code` in `language` (`javascript`, `typescript` or `python`, as share links,
    /// classes and replays name them), if the page runs that language.
    pub fn of_code(language: &str, code: String) -> Option<BotSource> {
        match language {
            "javascript" => Some(BotSource::JavaScript(code)),
            "typescript" => Some(BotSource::TypeScript(code)),
            "python" => Some(BotSource::Python(code)),
            "wasm" => Some(BotSource::Wasm(code)),
            _ => None,
        }
    }

    /// A bot written in code: its language (as [`BotSource::of_code`] takes it) and its code.
    pub fn code(&self) -> Option<(&'static str, &str)> {
        match self {
            BotSource::JavaScript(code) => Some(("javascript", code)),
            BotSource::TypeScript(code) => Some(("typescript", code)),
            BotSource::Python(code) => Some(("python", code)),
            BotSource::Wasm(code) => Some(("wasm", code)),
            BotSource::Builtin(_) | BotSource::Human => None,
        }
    }

    /// Whether the bot is code, run in a worker of its own.
    pub fn is_code(&self) -> bool {
        self.code().is_some()
    }
}

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
        match (&self.source, self.source.code()) {
            (_, Some((language, code))) => engine::SharedBot::Code {
                name,
                language: language.into(),
                code: code.into(),
            },
            (BotSource::Builtin(builtin), None) => engine::SharedBot::Builtin {
                name: builtin.clone(),
            },
            // A link cannot ask the person again: it names the seat, and the page sets the
            // slot to "by hand" when it opens the link (src/app/state.rs).
            (_, None) => engine::SharedBot::Program { name },
        }
    }
}

/// Everything needed to play a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSpec {
    pub setup: Setup,
    pub seats: Vec<SeatSpec>,
    /// Budgets × 10 (recorded in the replay).
    pub relaxed: bool,
    /// A recorded match taken over from one of its turns (`None`: a new match).
    pub from: Option<Rc<TakeOver>>,
}

impl MatchSpec {
    /// Whether a Python bot plays a seat.
    pub fn plays_python(&self) -> bool {
        self.seats
            .iter()
            .any(|seat| matches!(seat.source, BotSource::Python(_)))
    }
}

/// What the page hears about a match.
#[derive(Clone, Debug, PartialEq)]
pub enum MatchNews {
    /// A bot's language runtime is loading (Python): what to tell the person.
    Loading(String),
    /// Every bot has started; the first turn is being played.
    Started,
    /// Frames and turn records completed since the last news (in order, none skipped). Only
    /// the newest frame has its picture; [`Runner::pictures`] asks for others.
    Progress {
        frames: Vec<Frame>,
        turns: Vec<TurnRecord>,
    },
    /// The pictures asked for: frames `first..first + frames.len()`, in full.
    Pictures { first: usize, frames: Vec<Frame> },
    /// The match is over (or was stopped); only [`MatchNews::Pictures`] may follow, as
    /// [`Runner::pictures`] asks for them (then [`MatchNews::PicturesGone`], if the match worker
    /// stops answering).
    Finished {
        outcome: Option<Outcome>,
        faults: Vec<Fault>,
        stopped: bool,
    },
    /// The match could not be played; no more news follows.
    Failed(String),
    /// The match worker that kept the frames of the match over no longer answers: the page
    /// keeps their pictures itself. (Heard from a runner only after [`MatchNews::Finished`].)
    PicturesGone,
}

/// A seat played by hand is asked: the input it received this turn. The page answers with
/// [`Runner::human_lines`]; there is no time budget. (Heard through [`Runner::on_human`], after
/// the [`MatchNews`] of the same moment.)
#[derive(Clone, Debug, PartialEq)]
pub struct HumanAsk {
    pub seat: usize,
    pub input: String,
}

/// Where the match runs: the page learns it from the host's first answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Isolation {
    /// In a sandboxed frame (a process of its own in Chromium).
    Frame,
    /// In workers of the page's own process (the frame could not have shared memory).
    Page,
    /// In workers of the page's own process, on messages: this browser gives the page no
    /// `SharedArrayBuffer` (bots in workers read their input through the service worker).
    Messages,
}

thread_local! {
    /// The page's `performance` and its `timeOrigin`, looked up once.
    static CLOCK: Option<(web_sys::Performance, f64)> = web_sys::window()
        .and_then(|w| w.performance())
        .map(|p| {
            let origin = p.time_origin();
            (p, origin)
        });
    /// Where matches ran last (the page says so under the viewer).
    static LAST_ISOLATION: Cell<Option<Isolation>> = const { Cell::new(None) };
}

/// The clock shared with the workers: `performance.timeOrigin + performance.now()`, in ms.
pub fn now_ms() -> f64 {
    CLOCK.with(|clock| clock.as_ref().map_or(0.0, |(p, origin)| origin + p.now()))
}

/// Where the last match ran, once one has started.
pub fn last_isolation() -> Option<Isolation> {
    LAST_ISOLATION.with(Cell::get)
}

/// A match being played. Dropping it ends the match and everything it started.
pub struct Runner {
    inner: Rc<RefCell<Inner>>,
}

struct Inner {
    me: Weak<RefCell<Inner>>,
    spec: MatchSpec,
    news: Callback<MatchNews>,
    human_news: Option<Callback<HumanAsk>>,
    frame: Option<HtmlIFrameElement>,
    port: Option<MessagePort>,
    started: bool,
    over: bool,
    /// The match is over and its match worker still keeps its frames: pictures are asked there.
    keeping: bool,
    /// The first frames of the requests for pictures made once over and not answered yet, and
    /// the page's timer for them (with when it is due).
    unanswered: Vec<usize>,
    answer_timer: Option<(Timeout, f64)>,
    /// The host said the match was over, without a fault, and still answers: once the runner
    /// is dropped, its frame can serve another match.
    ended_well: bool,
    frames_heard: usize,
    turns_heard: usize,
    /// The frames whose pictures were asked for (each is asked for once).
    pictures_asked: std::collections::BTreeSet<usize>,
    faults_heard: Vec<Fault>,
    timings: Timings,
    /// When the host last said anything, which seats it said were computing, and when the
    /// page's watchdog last ran.
    heard_at: f64,
    running: u32,
    watched_at: f64,
    watchdog: Option<Interval>,
    stop_timer: Option<Timeout>,
    _listeners: Vec<Closure<dyn FnMut(MessageEvent)>>,
    _onload: Option<Closure<dyn FnMut()>>,
}

impl Runner {
    /// Starts the match: makes its host, sends it the match, and plays as soon as every bot has
    /// started. `news` hears everything, in order.
    pub fn start(spec: MatchSpec, news: Callback<MatchNews>) -> Result<Runner, String> {
        // The game itself is built once, by the match worker (a setup it refuses comes back as
        // `Failed`); here only what the page can tell without building it.
        let entry = games::entry(&spec.setup.game)
            .ok_or_else(|| format!("there is no game '{}'", spec.setup.game))?;
        spec.setup.check(entry.info).map_err(|e| e.to_string())?;
        if spec.seats.len() != spec.setup.seats {
            return Err(format!(
                "{} bots for {} seats",
                spec.seats.len(),
                spec.setup.seats
            ));
        }
        let inner = Rc::new_cyclic(|me| {
            RefCell::new(Inner {
                me: me.clone(),
                spec,
                news,
                human_news: None,
                frame: None,
                port: None,
                started: false,
                over: false,
                keeping: false,
                unanswered: Vec::new(),
                answer_timer: None,
                ended_well: false,
                frames_heard: 0,
                turns_heard: 0,
                pictures_asked: Default::default(),
                faults_heard: Vec::new(),
                timings: Timings::default(),
                heard_at: now_ms(),
                running: 0,
                watched_at: now_ms(),
                watchdog: None,
                stop_timer: None,
                _listeners: Vec::new(),
                _onload: None,
            })
        });
        Inner::open_host(&inner)?;
        Ok(Runner { inner })
    }

    /// Where the match's time went (complete once the page heard `Finished`).
    pub fn timings(&self) -> Timings {
        self.inner.borrow().timings.clone()
    }

    /// Who hears the asks of seats played by hand.
    pub fn on_human(&self, callback: Callback<HumanAsk>) {
        self.inner.borrow_mut().human_news = Some(callback);
    }

    /// The lines a person wrote by hand for their seat's turn.
    pub fn human_lines(&self, seat: usize, lines: &[String]) {
        let inner = self.inner.borrow();
        let message = js_sys::Object::new();
        set(&message, "type", &"human".into());
        set(&message, "seat", &(seat as f64).into());
        set(&message, "lines", &lines.join("\n").into());
        inner.post(&message);
    }

    /// Asks the match worker for the pictures of `frames` (frames heard without theirs, which
    /// the viewer is about to show), during the match and after it; they come as
    /// [`MatchNews::Pictures`]. Each frame is asked for once. `false`: no match worker is there
    /// to answer any more (the match failed, or its host died or was given up), and the page
    /// must keep the pictures itself.
    pub fn pictures(&self, frames: std::ops::Range<usize>) -> bool {
        let mut inner = self.inner.borrow_mut();
        if inner.over && !inner.keeping {
            return false;
        }
        let end = frames.end.min(inner.frames_heard);
        let wanted: Vec<usize> = (frames.start..end)
            .filter(|&f| !inner.pictures_asked.contains(&f))
            .collect();
        let (Some(&first), Some(&last)) = (wanted.first(), wanted.last()) else {
            return true;
        };
        let count = (last + 1 - first).min(crate::match_host::MAX_PICTURES);
        inner.pictures_asked.extend(first..first + count);
        let message = js_sys::Object::new();
        set(&message, "type", &"pictures".into());
        set(&message, "first", &(first as f64).into());
        set(&message, "count", &(count as f64).into());
        inner.post(&message);
        if inner.keeping {
            inner.unanswered.push(first);
            if inner.answer_timer.is_none() {
                inner.await_answer();
            }
        }
        true
    }

    /// Stops the match: the host ends it and the page hears `Finished { stopped }` (at once if
    /// the host does not answer within a second).
    pub fn stop(&self) {
        let mut inner = self.inner.borrow_mut();
        if inner.over {
            return;
        }
        let message = js_sys::Object::new();
        set(&message, "type", &"stop".into());
        inner.post(&message);
        let me = inner.me.clone();
        inner.stop_timer = Some(Timeout::new(STOP_GRACE_MS, move || {
            if let Some(inner) = me.upgrade() {
                let news = inner.borrow_mut().give_up(None);
                Inner::emit(&inner, news);
            }
        }));
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        // Dropped while one of its own callbacks holds it (a news handler replacing the match):
        // closed as soon as that callback returns, never skipped. The match worker that kept a
        // match over goes with it.
        let close = |inner: &RefCell<Inner>| {
            let mut inner = inner.borrow_mut();
            inner.over = true;
            inner.keeping = false;
            inner.close();
        };
        if self.inner.try_borrow_mut().is_ok() {
            close(&self.inner);
        } else {
            let inner = Rc::clone(&self.inner);
            Timeout::new(0, move || close(&inner)).forget();
        }
    }
}

fn set(target: &js_sys::Object, key: &str, value: &JsValue) {
    let _ = js_sys::Reflect::set(target, &key.into(), value);
}

fn get(value: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(value, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// What the page heard on the host's port.
enum HostMessage {
    /// `isolated`: shared memory works in the host.
    Hello {
        isolated: bool,
    },
    Alive {
        running: u32,
    },
    News(HostNews),
    Nonsense(String),
}

fn read(data: &JsValue) -> HostMessage {
    match get(data, "type").as_string().as_deref() {
        Some("hello") => HostMessage::Hello {
            isolated: get(data, "isolated").as_bool() == Some(true),
        },
        Some("alive") => HostMessage::Alive {
            running: get(data, "running").as_f64().unwrap_or(0.0) as u32,
        },
        Some("news") => match get(data, "json").as_string() {
            Some(json) => serde_json::from_str(&json)
                .map(HostMessage::News)
                .unwrap_or_else(|e| HostMessage::Nonsense(format!("unreadable news: {e}"))),
            None => HostMessage::Nonsense("news without text".into()),
        },
        _ => HostMessage::Nonsense("a message of an unknown kind".into()),
    }
}

impl Inner {
    /// Finds the match a host: a frame kept from an earlier match, or a new one; the page itself
    /// where it has no shared memory (a frame could not have it either).
    fn open_host(this: &Rc<RefCell<Inner>>) -> Result<(), String> {
        let me = Rc::downgrade(this);
        if !crate::isolation::shared_memory() {
            Timeout::new(0, move || {
                if let Some(inner) = me.upgrade() {
                    Inner::host_in_page(&inner);
                }
            })
            .forget();
            return Ok(());
        }
        let python = this.borrow().spec.plays_python();
        let Some(frame) = crate::host_frames::take(python) else {
            return Inner::open_frame(this);
        };
        this.borrow_mut().frame = Some(frame);
        // Its script is there and listening: it answers on a new port.
        Timeout::new(0, move || {
            if let Some(inner) = me.upgrade() {
                Inner::connect(&inner, Isolation::Frame);
            }
        })
        .forget();
        Ok(())
    }

    /// Makes the frame; its script answers once loaded.
    fn open_frame(this: &Rc<RefCell<Inner>>) -> Result<(), String> {
        let me = Rc::downgrade(this);
        let onload = Closure::<dyn FnMut()>::new(move || {
            if let Some(inner) = me.upgrade() {
                Inner::connect(&inner, Isolation::Frame);
            }
        });
        let frame = crate::host_frames::make(&onload)?;
        let mut inner = this.borrow_mut();
        inner.frame = Some(frame);
        inner._onload = Some(onload);
        Ok(())
    }

    /// Gives the host (in the frame, or in the page) a port to talk on.
    fn connect(this: &Rc<RefCell<Inner>>, place: Isolation) {
        let Ok(channel) = MessageChannel::new() else {
            return Inner::emit(this, vec![MatchNews::Failed("no message channel".into())]);
        };
        let me = Rc::downgrade(this);
        let listener = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            if let Some(inner) = me.upgrade() {
                Inner::heard(&inner, place, read(&event.data()));
            }
        });
        channel
            .port1()
            .set_onmessage(Some(listener.as_ref().unchecked_ref()));
        let hello = js_sys::Object::new();
        set(&hello, "type", &"botplay-match-host".into());
        let transfer = js_sys::Array::of1(&channel.port2());
        let window = web_sys::window();
        let target = match place {
            Isolation::Frame => this
                .borrow()
                .frame
                .as_ref()
                .and_then(|f| f.content_window()),
            Isolation::Page | Isolation::Messages => window.clone(),
        };
        let origin = match place {
            Isolation::Frame => "*".to_string(),
            Isolation::Page | Isolation::Messages => window
                .as_ref()
                .and_then(|w| w.location().origin().ok())
                .unwrap_or_else(|| "*".into()),
        };
        let mut inner = this.borrow_mut();
        inner.port = Some(channel.port1());
        inner._listeners.push(listener);
        match target {
            Some(target) => {
                let _ = target.post_message_with_transfer(&hello, &origin, &transfer);
            }
            None => {
                drop(inner);
                Inner::emit(
                    this,
                    vec![MatchNews::Failed("the match host is gone".into())],
                );
            }
        }
    }

    fn heard(this: &Rc<RefCell<Inner>>, place: Isolation, heard: HostMessage) {
        let news = {
            let mut inner = this.borrow_mut();
            // Once over, only the pictures asked for are heard (while its match worker keeps
            // the match).
            let pictures = matches!(heard, HostMessage::News(HostNews::Pictures { .. }));
            if inner.over && !(inner.keeping && pictures) {
                return;
            }
            inner.heard_at = now_ms();
            match heard {
                HostMessage::Hello { isolated: true } => {
                    LAST_ISOLATION.with(|l| l.set(Some(place)));
                    inner.watch();
                    drop(inner);
                    Inner::send_start(this, false);
                    return;
                }
                HostMessage::Hello { isolated: false } if place == Isolation::Frame => {
                    // The frame has no shared memory here: the page hosts the match itself.
                    inner.remove_frame();
                    drop(inner);
                    return Inner::host_in_page(this);
                }
                HostMessage::Hello { .. } => {
                    // No shared memory in the page either: the match is played on messages.
                    LAST_ISOLATION.with(|l| l.set(Some(Isolation::Messages)));
                    inner.watch();
                    drop(inner);
                    Inner::send_start(this, true);
                    return;
                }
                HostMessage::Alive { running } => {
                    inner.running = running;
                    return;
                }
                HostMessage::News(news) => inner.absorb(news),
                HostMessage::Nonsense(why) => {
                    inner.give_up(Some(format!("the match host said {why}")))
                }
            }
        };
        Inner::emit(this, news);
    }

    /// Loads the host script into the page (once), then connects to it.
    fn host_in_page(this: &Rc<RefCell<Inner>>) {
        let promise = page_host();
        let me = Rc::downgrade(this);
        wasm_bindgen_futures::spawn_local(async move {
            let loaded = wasm_bindgen_futures::JsFuture::from(promise).await;
            let Some(inner) = me.upgrade() else {
                return;
            };
            match loaded {
                Ok(_) => Inner::connect(&inner, Isolation::Page),
                Err(_) => Inner::emit(
                    &inner,
                    vec![MatchNews::Failed(
                        "the match host could not be loaded".into(),
                    )],
                ),
            }
        });
    }

    /// Sends the match, with the files its workers are made of (fetched once per page); on
    /// `messages` when there is no shared memory.
    fn send_start(this: &Rc<RefCell<Inner>>, messages: bool) {
        let me = Rc::downgrade(this);
        let languages: Vec<&'static str> = this
            .borrow()
            .spec
            .seats
            .iter()
            .filter_map(|s| s.source.code().map(|(language, _)| language))
            .collect();
        wasm_bindgen_futures::spawn_local(async move {
            let files = files::load(&languages).await;
            let Some(this) = me.upgrade() else {
                return;
            };
            let files = match files {
                Ok(files) => files,
                Err(why) => return Inner::emit(&this, vec![MatchNews::Failed(why)]),
            };
            let inner = this.borrow();
            if inner.over {
                return;
            }
            let start = HostStart {
                setup: inner.spec.setup.clone(),
                names: inner.spec.seats.iter().map(|s| s.name.clone()).collect(),
                players: inner
                    .spec
                    .seats
                    .iter()
                    .map(|s| match &s.source {
                        BotSource::Builtin(name) => Player::Builtin { name: name.clone() },
                        BotSource::Human => Player::Human,
                        _ => Player::Code,
                    })
                    .collect(),
                relaxed: inner.spec.relaxed,
                from: inner.spec.from.as_deref().cloned(),
            };
            let seats = js_sys::Array::new();
            for seat in &inner.spec.seats {
                let (kind, code) = match &seat.source {
                    BotSource::Builtin(_) => ("builtin", ""),
                    BotSource::Human => ("human", ""),
                    code => code.code().unwrap_or_default(),
                };
                let entry = js_sys::Object::new();
                set(&entry, "kind", &kind.into());
                set(&entry, "code", &code.into());
                seats.push(&entry);
            }
            let message = js_sys::Object::new();
            set(&message, "type", &"start".into());
            if messages {
                set(&message, "mode", &"messages".into());
            }
            let json = serde_json::to_string(&start).unwrap_or_default();
            set(&message, "start", &json.into());
            set(&message, "seats", &seats);
            set(&message, "files", &files);
            inner.post(&message);
        });
    }

    fn post(&self, message: &JsValue) {
        if let Some(port) = &self.port {
            let _ = port.post_message(message);
        }
    }

    /// Watches the host's heartbeat from now on.
    fn watch(&mut self) {
        let me = self.me.clone();
        self.watched_at = now_ms();
        self.watchdog = Some(Interval::new(250, move || {
            let Some(inner) = me.upgrade() else {
                return;
            };
            let news = {
                let Ok(mut this) = inner.try_borrow_mut() else {
                    return;
                };
                let now = now_ms();
                // The page itself was busy (or asleep in the background): judge nothing now.
                let late = now - this.watched_at > 1_000.0;
                this.watched_at = now;
                if late {
                    this.heard_at = this.heard_at.max(now - 250.0);
                    return;
                }
                if this.over || now - this.heard_at < DEAD_AFTER_MS {
                    return;
                }
                let running = this.running;
                this.died(running)
            };
            Inner::emit(&inner, news);
        }));
    }

    /// The host's process died: the match ends with a crash of each bot that was computing.
    fn died(&mut self, running: u32) -> Vec<MatchNews> {
        let turn = self.turns_heard as u32;
        let seats: Vec<usize> = (0..self.spec.seats.len())
            .filter(|&s| s < 32 && running & (1 << s) != 0)
            .collect();
        let several = self
            .spec
            .seats
            .iter()
            .filter(|s| s.source.is_code())
            .count()
            > 1;
        for &seat in &seats {
            let text = if several {
                "the process running the bots crashed while this bot was computing: it most \
                 likely used too much memory"
            } else {
                "the bot's process crashed: it most likely used too much memory"
            };
            self.faults_heard.push(Fault {
                seat,
                turn,
                kind: FaultKind::Crash,
                text: text.into(),
            });
        }
        if seats.is_empty() {
            return self.give_up(Some(
                "the process running the match stopped answering (it most likely ran out of memory)"
                    .into(),
            ));
        }
        self.over = true;
        self.close();
        vec![MatchNews::Finished {
            outcome: None,
            faults: self.faults_heard.clone(),
            stopped: false,
        }]
    }

    /// Ends the match from the page's side: `why` it failed, or stopped when `None`.
    fn give_up(&mut self, why: Option<String>) -> Vec<MatchNews> {
        if self.over {
            return Vec::new();
        }
        self.over = true;
        self.close();
        vec![match why {
            Some(why) => MatchNews::Failed(why),
            None => MatchNews::Finished {
                outcome: None,
                faults: self.faults_heard.clone(),
                stopped: true,
            },
        }]
    }

    fn absorb(&mut self, news: HostNews) -> Vec<MatchNews> {
        match news {
            HostNews::Loading { seat, text } => {
                vec![MatchNews::Loading(format!("bot {}: {text}", seat + 1))]
            }
            HostNews::Started => {
                self.started = true;
                vec![MatchNews::Started]
            }
            HostNews::Progress { frames, turns } => {
                let turns: Vec<TurnRecord> = turns.into_iter().map(TurnRecord::from).collect();
                self.frames_heard += frames.len();
                self.turns_heard += turns.len();
                for turn in &turns {
                    for seat in &turn.seats {
                        if let Some(fault) = &seat.fault {
                            self.faults_heard.push(fault.clone());
                        }
                    }
                }
                vec![MatchNews::Progress { frames, turns }]
            }
            HostNews::Pictures { first, frames } => {
                self.answered(first);
                vec![MatchNews::Pictures { first, frames }]
            }
            HostNews::Human { seat, input } => {
                if let Some(hear) = &self.human_news {
                    let hear = hear.clone();
                    // After the news of the same moment (the board shows the state first).
                    let _ = Timeout::new(0, move || hear.emit(HumanAsk { seat, input })).forget();
                }
                Vec::new()
            }
            HostNews::Finished {
                outcome,
                faults,
                stopped,
                timings,
            } => {
                self.timings = timings;
                self.over = true;
                // A frame serves another match only after a match without faults: a bot
                // stopped for a fault (a timeout, a crash, a flood) may have left its process
                // holding what it took (a hoarder's gigabytes stayed in the frame's process,
                // and the next hoarder's were added to them).
                self.ended_well = faults.is_empty();
                self.keep_for_pictures();
                vec![MatchNews::Finished {
                    outcome,
                    faults,
                    stopped,
                }]
            }
            HostNews::Failed { why } => {
                self.over = true;
                self.ended_well = true;
                self.close();
                vec![MatchNews::Failed(why)]
            }
        }
    }

    fn emit(this: &Rc<RefCell<Inner>>, news: Vec<MatchNews>) {
        let callback = this.borrow().news.clone();
        for item in news {
            callback.emit(item);
        }
    }

    /// The host said the match is over: its bots' workers and its heartbeat end (the watchdog
    /// too: an idle host is not a dead one), its match worker stays, for the pictures.
    fn keep_for_pictures(&mut self) {
        self.watchdog = None;
        self.stop_timer = None;
        self.keeping = true;
        let over = js_sys::Object::new();
        set(&over, "type", &"over".into());
        self.post(&over);
    }

    /// Times the match worker's answer to the requests for pictures made once over: unanswered
    /// after [`PICTURES_WAIT_MS`] of the page's own timers running on time, it is gone.
    fn await_answer(&mut self) {
        let me = self.me.clone();
        let due = now_ms() + f64::from(PICTURES_WAIT_MS);
        let timer = Timeout::new(PICTURES_WAIT_MS, move || {
            let Some(inner) = me.upgrade() else {
                return;
            };
            let news = {
                let Ok(mut this) = inner.try_borrow_mut() else {
                    return;
                };
                let late = this
                    .answer_timer
                    .as_ref()
                    .map_or(0.0, |(_, due)| now_ms() - due);
                this.answer_timer = None;
                if !this.keeping || this.unanswered.is_empty() {
                    return;
                }
                // The page itself was busy (or asleep in the background): wait again.
                if late > 1_000.0 {
                    this.await_answer();
                    return;
                }
                this.keeping = false;
                // A host that stops answering serves no other match.
                this.ended_well = false;
                this.close();
                vec![MatchNews::PicturesGone]
            };
            Inner::emit(&inner, news);
        });
        self.answer_timer = Some((timer, due));
    }

    /// The pictures from frame `first` on came: a request made once over, if it was one, is
    /// answered (the others are timed again from now).
    fn answered(&mut self, first: usize) {
        let Some(at) = self.unanswered.iter().position(|&f| f == first) else {
            return;
        };
        self.unanswered.remove(at);
        self.answer_timer = None;
        if self.keeping && !self.unanswered.is_empty() {
            self.await_answer();
        }
    }

    /// Ends everything the match started.
    fn close(&mut self) {
        self.watchdog = None;
        self.stop_timer = None;
        self.answer_timer = None;
        let end = js_sys::Object::new();
        set(&end, "type", &"end".into());
        self.post(&end);
        if let Some(port) = self.port.take() {
            port.set_onmessage(None);
            port.close();
        }
        self.remove_frame();
    }

    /// Removes the frame, or keeps it for the next match when the match in it ended well.
    fn remove_frame(&mut self) {
        if let Some(frame) = self.frame.take() {
            if self.ended_well {
                crate::host_frames::give_back(frame);
            } else {
                frame.set_onload(None);
                frame.remove();
            }
        }
    }
}

/// The match host's script loaded into the page itself (once), where no frame can have shared
/// memory: a promise of its loading.
pub(crate) fn page_host() -> js_sys::Promise {
    thread_local! {
        static LOADED: RefCell<Option<js_sys::Promise>> = const { RefCell::new(None) };
    }
    LOADED.with(|loaded| {
        loaded
            .borrow_mut()
            .get_or_insert_with(|| {
                js_sys::Promise::new(&mut |resolve, reject| {
                    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
                        let _ = reject.call0(&JsValue::NULL);
                        return;
                    };
                    let Ok(script) = document.create_element("script") else {
                        let _ = reject.call0(&JsValue::NULL);
                        return;
                    };
                    let _ = script.set_attribute("src", "match-host.js");
                    let script: web_sys::HtmlScriptElement = script.unchecked_into();
                    script.set_onload(Some(&resolve));
                    script.set_onerror(Some(&reject));
                    if let Some(head) = document.head() {
                        let _ = head.append_child(&script);
                    }
                })
            })
            .clone()
    })
}

/// The files the host's workers are made of, fetched from the page's origin once (through the
/// service worker: offline too) and sent with each match (Pyodide's as Blobs, which a message
/// carries without copying their bytes).
pub(crate) mod files {
    use std::cell::RefCell;

    use wasm_bindgen::prelude::*;
    use wasm_bindgen::JsCast;
    use wasm_bindgen_futures::JsFuture;

    /// Pyodide's files (copied from npm by `www/editor/build.mjs`).
    const PYODIDE: [&str; 5] = [
        "pyodide.js",
        "pyodide.asm.mjs",
        "pyodide.asm.wasm",
        "python_stdlib.zip",
        "pyodide-lock.json",
    ];

    thread_local! {
        static CORE: RefCell<Option<JsValue>> = const { RefCell::new(None) };
        static PYTHON: RefCell<Option<JsValue>> = const { RefCell::new(None) };
        static TYPESCRIPT: RefCell<Option<JsValue>> = const { RefCell::new(None) };
        static WASM: RefCell<Option<JsValue>> = const { RefCell::new(None) };
    }

    /// What a fetched file is kept as.
    #[derive(Clone, Copy)]
    enum Body {
        Text,
        /// Posted to the host and its workers without a copy (Pyodide's 13 MB and the page's
        /// module, at each match).
        Blob,
    }

    async fn fetch(url: &str, kind: Body) -> Result<JsValue, String> {
        let window = web_sys::window().ok_or("no window")?;
        let failed = |e: JsValue| format!("{url} could not be loaded: {e:?}");
        let response: web_sys::Response = JsFuture::from(window.fetch_with_str(url))
            .await
            .map_err(failed)?
            .unchecked_into();
        if !response.ok() {
            return Err(format!("{url} could not be loaded ({})", response.status()));
        }
        let body = match kind {
            Body::Text => response.text(),
            Body::Blob => response.blob(),
        };
        JsFuture::from(body.map_err(failed)?).await.map_err(failed)
    }

    /// The text of a file of the site (a rules page, say), or why it could not be had.
    pub(crate) async fn fetch_text(url: &str) -> Result<String, String> {
        fetch(url, Body::Text)
            .await?
            .as_string()
            .ok_or_else(|| format!("{url} is not text"))
    }

    fn set(target: &js_sys::Object, key: &str, value: &JsValue) {
        let _ = js_sys::Reflect::set(target, &key.into(), value);
    }

    /// `{matchJs, matchWasm, runtime, languages}` (the match worker's glue and module: the
    /// page's own, [`app_module`]), where `languages` holds what the bots of
    /// each of `languages` that needs more than the runtime are sent (`python`: Pyodide's files;
    /// `typescript`: Sucrase's text, `typescript.js`), each fetched when such a bot first plays.
    pub async fn load(languages: &[&str]) -> Result<JsValue, String> {
        let core = match CORE.with(|c| c.borrow().clone()) {
            Some(core) => core,
            None => {
                let core = js_sys::Object::new();
                let (glue, module) = app_module().await?;
                set(&core, "matchJs", &glue);
                set(&core, "matchWasm", &module);
                set(&core, "runtime", &bot_script("js-bot-worker.js").await?);
                let core: JsValue = core.into();
                CORE.with(|c| *c.borrow_mut() = Some(core.clone()));
                core
            }
        };
        let files = js_sys::Object::assign(&js_sys::Object::new(), core.unchecked_ref());
        let needs = js_sys::Object::new();
        if languages.contains(&"python") {
            let pyodide = match PYTHON.with(|p| p.borrow().clone()) {
                Some(pyodide) => pyodide,
                None => {
                    let pyodide = js_sys::Object::new();
                    for name in PYODIDE {
                        let body = fetch(&format!("pyodide/{name}"), Body::Blob).await?;
                        set(&pyodide, name, &body);
                    }
                    let pyodide: JsValue = pyodide.into();
                    PYTHON.with(|p| *p.borrow_mut() = Some(pyodide.clone()));
                    pyodide
                }
            };
            set(&needs, "python", &pyodide);
        }
        if languages.contains(&"typescript") {
            let sucrase = match TYPESCRIPT.with(|t| t.borrow().clone()) {
                Some(sucrase) => sucrase,
                None => {
                    let sucrase = fetch("typescript.js", Body::Text).await?;
                    TYPESCRIPT.with(|t| *t.borrow_mut() = Some(sucrase.clone()));
                    sucrase
                }
            };
            set(&needs, "typescript", &sucrase);
        }
        if languages.contains(&"wasm") {
            set(&needs, "wasm", &wasm_worker().await?);
        }
        set(&files, "languages", &needs);
        Ok(files.into())
    }

    /// The match worker's files: the page's own module, which runs the match worker too
    /// (`src/match_worker.rs`): its wasm-bindgen glue (the text of `data-app-js`, an ES module,
    /// made a classic script) and its bytes, those `www/boot.js` kept (`botplayAppWasm`: the
    /// module is downloaded once), or fetched where a page was started without them, as a Blob.
    async fn app_module() -> Result<(JsValue, JsValue), String> {
        let script = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.query_selector("script[data-app-js]").ok().flatten())
            .ok_or("the page's script is missing")?;
        let url = |name: &str| {
            script
                .get_attribute(name)
                .ok_or("the page's script has no file names")
        };
        let glue = fetch(&url("data-app-js")?, Body::Text).await?;
        let glue = crate::match_worker::classic_script(&glue.as_string().unwrap_or_default())?;
        let kept = js_sys::Reflect::get(&js_sys::global(), &"botplayAppWasm".into())
            .ok()
            .and_then(|kept| kept.dyn_into::<js_sys::Promise>().ok());
        // A Blob: each match's start message then carries a handle, not 2.4 MB of bytes that the
        // page's main thread would copy into every match host (13 ms a match, measured).
        let module = match kept {
            Some(kept) => JsFuture::from(kept)
                .await
                .map_err(|e| format!("the page's module could not be read: {e:?}"))?,
            None => fetch(&url("data-app-wasm")?, Body::Blob).await?,
        };
        Ok((glue.into(), module))
    }

    /// A bot worker's script: the bots' channel (`bot-channel.js`), then the `runtime` that
    /// takes it (JavaScript and Python, or WebAssembly).
    async fn bot_script(runtime: &str) -> Result<JsValue, String> {
        let channel = fetch("bot-channel.js", Body::Text).await?;
        let runtime = fetch(runtime, Body::Text).await?;
        Ok(JsValue::from(format!(
            "{}\n{}",
            channel.as_string().unwrap_or_default(),
            runtime.as_string().unwrap_or_default()
        )))
    }

    /// A WebAssembly bot's worker script (fetched when such a bot first plays).
    async fn wasm_worker() -> Result<JsValue, String> {
        if let Some(worker) = WASM.with(|w| w.borrow().clone()) {
            return Ok(worker);
        }
        let worker = bot_script("wasm-bot-worker.js").await?;
        WASM.with(|w| *w.borrow_mut() = Some(worker.clone()));
        Ok(worker)
    }
}
