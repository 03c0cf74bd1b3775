//! The match worker's driver: plays one match to its end with blocking waits on shared memory.
//!
//! For each [`engine::Ask`] it writes the input into the seat's input ring (a bot in a worker),
//! or calls the built-in bot at once (timed here, as the CLI does), or tells the page (a person).
//! Then it sleeps on the doorbell until a record arrives or a deadline passes.
//!
//! **Time is decided here, not by the bot.** Each line is stamped by the bot's runtime when it is
//! written, but the runtime shares its worker with the bot's code, so a stamp is only believed
//! within what this driver saw itself ([`settle`]): a record was written before the driver read
//! it, and, on a ring in shared memory, after the driver's last look that found the ring empty
//! ([`Records::sees_writes_at_once`]). The driver looks at a bot's ring when it sends the input,
//! whenever the doorbell rings, at the end of the budget and [`GRACE_MS`] after it: a ring found
//! empty after the budget means a timeout, whatever comes later. A `Received` record (the input
//! reached a runtime that was already waiting for it) exists only on messages, moves a turn's
//! start at most once and by at most [`MAX_DELIVERY_MS`]; on a ring it is tampering.
//!
//! Everything a bot's runtime writes is checked here, where it is received: the kind and length of
//! each record ([`Read::Broken`] is tampering), and how much it writes without reading its input
//! (the referee's caps: more is a flood). A bot that is out is stopped by the host at once
//! ([`Outbox::kill`]) and its further records are dropped.

use std::collections::VecDeque;

use engine::referee::{MAX_AHEAD_BYTES, MAX_AHEAD_LINES, MAX_STDERR_BYTES, MAX_STDERR_FLOOD_BYTES};
use engine::{Ask, AtDeadline, FaultKind, Frame, Game, LineOutcome, Referee, Verdict};

use super::rings::{Doorbell, Kind, Read, RuntimeRecord};
use super::{
    HostNews, HostStart, Player, TakeOver, Timings, TurnTiming, WireTurn, MAX_PICTURES,
    NEWS_EVERY_MS,
};

/// How long after a budget the driver still takes lines stamped within it (the bot's worker and
/// this one share the cores with everything else).
pub const GRACE_MS: f64 = 100.0;
/// How long a bot interrupted at its deadline (a Python bot, [`Input::interrupt`]) has to stop and
/// say where its code was, its traceback in the turn's debug log, before it is stopped anyway.
/// Pyodide answers within milliseconds; the wait, once per bot, only holds a match whose bot is
/// out anyway.
const INTERRUPT_WAIT_MS: f64 = 500.0;
/// What an interruptible runtime (Python's, in `www/js-bot-worker.js`) says in its `Ready` record.
const INTERRUPTIBLE: &str = "interruptible";
/// How long the bots may take to start (a cold load of Python is not counted against a bot).
const START_TIMEOUT_MS: f64 = 120_000.0;
/// Lines a bot may write ahead of being asked; more is a flood.
const MAX_UNREAD_LINES: usize = engine::referee::MAX_LINES_PER_TURN + 1;
/// Requests for more input in one turn beyond which the runtime was tampered with (a runtime of
/// ours asks once per piece of input that did not fit its ring).
const MAX_NEED_INPUT: u32 = 4_096;
/// The longest sleep between two looks at the clock when nothing is due.
const IDLE_WAIT_MS: f64 = 1_000.0;
/// (Messages) The longest delivery of a turn's input that is not counted as the bot's time.
const MAX_DELIVERY_MS: f64 = 1_000.0;
/// How long a bot may take over one earlier turn of a match it takes over. Those turns are
/// untimed; this only keeps a bot that never answers from holding the match forever.
const CATCH_UP_LIMIT_MS: f64 = 10_000.0;

/// Where the driver's messages go: the host (`www/match-host.js`) passes news on to the page and
/// stops the workers it is asked to stop.
pub trait Outbox {
    fn news(&self, news: &HostNews);
    fn kill(&self, seat: usize);
}

/// Where records come from: a ring in shared memory ([`super::rings::RecordReader`]) or
/// messages ([`super::mailbox::Mailbox`]).
pub trait Records {
    /// The next whole record, if one is there.
    fn read(&mut self) -> Read;

    /// Whether a record written before a read is always seen by it (a ring in shared memory),
    /// so that a read that finds nothing proves that anything read later was written later.
    /// Messages may still be on their way: `false`.
    fn sees_writes_at_once(&self) -> bool;
}

/// A bot's stamp for a record, believed only between the last look that found its channel
/// empty (`after`: the record was written later) and the read that found it (`before`). A stamp
/// that is not a number is taken as the read.
pub fn settle(stamp: f64, after: f64, before: f64) -> f64 {
    if stamp.is_nan() {
        return before;
    }
    stamp.min(before).max(after.min(before))
}

/// "line 12" from an interrupted bot's last words ("KeyboardInterrupt (line 12)"): the last line
/// they name, if any (the words are the bot's runtime's, so only a number is taken from them).
fn line_named(words: &str) -> Option<String> {
    let at = words.rfind("(line ")?;
    let digits: String = words[at + "(line ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .take(10)
        .collect();
    if digits.len() > 9 {
        return None;
    }
    let line: u32 = digits.parse().ok()?;
    Some(format!("line {line}"))
}

/// Where a bot's input goes: its input ring ([`super::rings::InputRing`]), or a message.
pub trait Input {
    /// Appends text behind everything sent before.
    fn push(&mut self, text: &str);
    /// Sends what did not fit before (the bot asked for it).
    fn flush(&mut self);
    /// At the deadline of a turn not answered: whether the bot is waiting for input (asleep in
    /// its `readline()`) rather than computing, if the channel can tell (a ring in shared memory
    /// can; messages cannot).
    fn waiting(&mut self) -> Option<bool> {
        None
    }
    /// Asks the bot's runtime to stop the bot's code where it is (Python's runtime raises a
    /// `KeyboardInterrupt` and ends the program with its line); a channel that cannot, and any
    /// other runtime, does nothing.
    fn interrupt(&mut self) {}
}

/// A bot's two channels: its input and its records.
pub type BotChannels = (Box<dyn Input>, Box<dyn Records>);

/// The channels of a match, as the host made them.
pub struct Channels {
    pub control: Box<dyn Records>,
    /// Per seat: a bot in a worker has its channels.
    pub rings: Vec<Option<BotChannels>>,
}

enum Play {
    Worker {
        input: Box<dyn Input>,
        output: Box<dyn Records>,
        ready: bool,
        /// Its runtime can stop the bot's code at a deadline and say where it was.
        interruptible: bool,
    },
    Builtin(Box<dyn bots::Bot>),
    Human,
}

/// What a bot wrote since it was last given input (the caps are checked here too, whatever its
/// runtime says).
#[derive(Default)]
struct Ahead {
    lines: usize,
    bytes: usize,
    stderr: usize,
    asks_for_input: u32,
}

struct Seat {
    play: Play,
    /// Why the bot no longer plays (for the crash of its next turn).
    out: Option<String>,
    /// When its open turn's input was sent, and the turn's budget.
    open: Option<(f64, u32)>,
    /// (Messages) The runtime said it received the open turn's input (its first record of input
    /// received this turn, which moved the turn's start by the delivery, if any).
    credited: bool,
    /// When the driver last found the bot's ring empty (anything read later was written later).
    looked_empty: f64,
    /// Lines written while the seat was not asked, with their stamps.
    unread: VecDeque<(String, f64)>,
    /// Debug-log text written before the bot's first turn.
    early_stderr: Option<String>,
    ahead: Ahead,
    /// A built-in bot's computing time in the open turn.
    computed_ms: f64,
    /// Interrupted at its deadline: the turn's time then, and when the driver stops waiting for
    /// the bot to say where it was.
    interrupted: Option<(f64, f64)>,
    /// While a taken-over match catches up: the copy of the game that hears the bot's lines for
    /// the earlier turn it is reading (its answers change nothing).
    rehearsal: Option<Box<dyn Game>>,
}

/// Where a taken-over match is in re-running its earlier turns.
struct CatchUp {
    take_over: TakeOver,
    /// The turn record being re-run.
    index: usize,
    /// The seats asked in it (the referee has begun it once this is not empty).
    asks: Vec<Ask>,
    /// When its bots were given their inputs.
    since: f64,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    Starting,
    /// A taken-over match re-runs its earlier turns while the bots read them ([`CatchUp`]).
    CatchingUp,
    Running,
    Over,
}

pub struct Driver<'a> {
    referee: Referee,
    seats: Vec<Seat>,
    control: Box<dyn Records>,
    outbox: &'a dyn Outbox,
    clock: &'a dyn Fn() -> f64,
    phase: Phase,
    catch_up: Option<CatchUp>,
    queued: Vec<HostNews>,
    sent_frames: usize,
    sent_turns: usize,
    last_news: f64,
    timings: Timings,
    turn_began: Option<f64>,
    turn_waited: f64,
    turn_bots: f64,
    turn_builtin_only: bool,
    /// When the bots' start-up is given up (set at the first step).
    give_up: Option<f64>,
    /// When the driver last went idle (waiting for a record or a deadline).
    idle_since: Option<f64>,
    /// Which seats were computing when it went idle (a bit per seat).
    running: u32,
    /// The last news has been sent: nothing more will be.
    done: bool,
}

impl<'a> Driver<'a> {
    /// Builds the match; `Err` says why it cannot be played.
    pub fn new(
        start: HostStart,
        channels: Channels,
        outbox: &'a dyn Outbox,
        clock: &'a dyn Fn() -> f64,
    ) -> Result<Driver<'a>, String> {
        let game = games::new_game(&start.setup).map_err(|e| e.to_string())?;
        let count = start.setup.seats;
        if start.players.len() != count || start.names.len() != count {
            return Err(format!("{} bots for {count} seats", start.players.len()));
        }
        let mut rings = channels.rings.into_iter();
        let mut seats = Vec::new();
        for (index, player) in start.players.iter().enumerate() {
            let ring = rings.next().flatten();
            let play = match (player, ring) {
                (Player::Code, Some((input, output))) => Play::Worker {
                    input,
                    output,
                    ready: false,
                    interruptible: false,
                },
                (Player::Code, None) => return Err(format!("bot {} has no channel", index + 1)),
                (Player::Builtin { name }, _) => {
                    let seed = bots::bot_seed(start.setup.seed, index);
                    match bots::builtin(&start.setup.game, name, seed) {
                        Some(bot) => Play::Builtin(bot),
                        None => {
                            return Err(format!(
                                "there is no built-in bot '{name}' for {}",
                                start.setup.game
                            ))
                        }
                    }
                }
                (Player::Human, _) => Play::Human,
            };
            seats.push(Seat {
                play,
                out: None,
                open: None,
                credited: false,
                looked_empty: f64::NEG_INFINITY,
                unread: VecDeque::new(),
                early_stderr: Some(String::new()),
                ahead: Ahead::default(),
                computed_ms: 0.0,
                interrupted: None,
                rehearsal: None,
            });
        }
        let referee = match &start.from {
            None => Referee::new(game, start.setup, start.names, start.relaxed),
            Some(from) => {
                if from.replay.setup != start.setup {
                    return Err("the match to take over has another set-up".into());
                }
                if from.turns > from.replay.turns.len() {
                    return Err(format!(
                        "the match to take over has {} turns, not {}",
                        from.replay.turns.len(),
                        from.turns
                    ));
                }
                let entry = games::entry(&start.setup.game)
                    .ok_or_else(|| format!("there is no game '{}'", start.setup.game))?;
                from.replay
                    .start(entry, start.names, start.relaxed)
                    .map_err(|e| e.to_string())?
            }
        };
        let catch_up = start.from.map(|take_over| CatchUp {
            take_over,
            index: 0,
            asks: Vec::new(),
            since: 0.0,
        });
        Ok(Driver {
            referee,
            seats,
            control: channels.control,
            outbox,
            clock,
            phase: Phase::Starting,
            catch_up,
            queued: Vec::new(),
            sent_frames: 0,
            sent_turns: 0,
            last_news: 0.0,
            timings: Timings::default(),
            turn_began: None,
            turn_waited: 0.0,
            turn_bots: 0.0,
            turn_builtin_only: true,
            give_up: None,
            idle_since: None,
            running: 0,
            done: false,
        })
    }

    fn now(&self) -> f64 {
        (self.clock)()
    }

    /// Plays the match to its end (or until it is stopped), sleeping on the doorbell of the
    /// shared memory between steps; then answers the page's requests for pictures
    /// ([`Driver::step`] once over) until the host ends this worker, asleep on the doorbell
    /// in between.
    pub fn run(mut self, doorbell: &Doorbell) {
        loop {
            let seen = doorbell.rung();
            let until = self.step();
            doorbell.set_running(self.running);
            doorbell.wait(
                seen,
                until.map_or(f64::INFINITY, |until| until - self.now()),
            );
        }
    }

    /// Does everything that can be done now: reads what was written, plays the turns it can,
    /// times out the late. Returns when to step again at the latest (the shared clock, ms), or
    /// `None` once the match is over and its last news sent. Between steps the driver waits for
    /// a record (on the doorbell, or for a message). Once over, a step only answers the page's
    /// requests for pictures ([`Driver::after_the_end`]): the driver keeps the match for them.
    pub fn step(&mut self) -> Option<f64> {
        if self.done {
            self.after_the_end();
            return None;
        }
        let now = self.now();
        if let Some(idle) = self.idle_since.take() {
            self.turn_waited += now - idle;
        }
        if self.phase == Phase::Starting {
            let give_up = *self.give_up.get_or_insert(now + START_TIMEOUT_MS);
            self.drain();
            if self.phase == Phase::Starting && self.seats.iter().all(Seat::ready) {
                self.phase = if self.catch_up.is_some() {
                    Phase::CatchingUp
                } else {
                    Phase::Running
                };
                self.timings.started_at = Some(self.now());
                self.queued.push(HostNews::Started);
            } else if self.phase == Phase::Starting && now > give_up {
                let slow: Vec<String> = (0..self.seats.len())
                    .filter(|&s| !self.seats[s].ready())
                    .map(|s| (s + 1).to_string())
                    .collect();
                let why = format!(
                    "the worker of bot {} did not start within {} s",
                    slow.join(", "),
                    START_TIMEOUT_MS / 1000.0
                );
                self.fail(why);
            } else if self.phase == Phase::Starting {
                self.send_news();
                return Some(give_up.min(now + IDLE_WAIT_MS));
            }
        }
        if self.phase == Phase::CatchingUp {
            if let Some(until) = self.catch_up() {
                self.idle_since = Some(self.now());
                return Some(until);
            }
        }
        while self.phase == Phase::Running {
            self.pump();
            if self.phase != Phase::Running {
                break;
            }
            let before = self.referee.turns().len();
            let heard = self.drain();
            self.check_deadlines();
            if self.phase != Phase::Running || !self.referee.turn_open() {
                continue;
            }
            if self.now() - self.last_news >= NEWS_EVERY_MS {
                self.send_news();
            }
            if !heard && self.referee.turns().len() == before {
                let until = self.wake_at();
                self.idle_since = Some(self.now());
                return Some(until);
            }
        }
        self.done = true;
        self.send_news();
        None
    }

    /// Which seats are computing now (a bit per seat), as of the last step.
    pub fn running(&self) -> u32 {
        self.running
    }

    /// When the next deadline or news is due; notes which seats are computing.
    fn wake_at(&mut self) -> f64 {
        let now = self.now();
        let mut until = now + IDLE_WAIT_MS;
        let mut running = 0u32;
        for (index, seat) in self.seats.iter().enumerate() {
            if let (Some((sent, budget)), Play::Worker { output, .. }) = (seat.open, &seat.play) {
                // On a ring, a look after the budget (found empty, it is a timeout); the last
                // look at the end of the grace.
                let end = sent + f64::from(budget) + 1.0;
                let next = if output.sees_writes_at_once() && seat.looked_empty < end {
                    end
                } else {
                    end + seat.grace()
                };
                until = until.min(next);
                running |= 1 << index.min(31);
            }
            if let Some((_, until_stopped)) = seat.interrupted {
                until = until.min(until_stopped);
                running |= 1 << index.min(31);
            }
            if let (Some(_), Some(catch_up)) = (&seat.rehearsal, &self.catch_up) {
                until = until.min(catch_up.since + CATCH_UP_LIMIT_MS + 1.0);
                running |= 1 << index.min(31);
            }
        }
        if self.sent_frames < self.referee.frames().len() || !self.queued.is_empty() {
            until = until.min(self.last_news + NEWS_EVERY_MS);
        }
        self.running = running;
        until
    }

    /// Reads every record waiting in the control ring and the bots' rings. Whether any was read.
    fn drain(&mut self) -> bool {
        let mut heard = false;
        loop {
            match self.control.read() {
                Read::Record(record) => {
                    heard = true;
                    self.command(record);
                }
                Read::Empty => break,
                Read::Broken(why) => return self.fail(format!("the match host broke: {why}")),
            }
            if self.phase == Phase::Over {
                return true;
            }
        }
        for seat in 0..self.seats.len() {
            heard |= self.look(seat);
            if self.phase == Phase::Over {
                return true;
            }
        }
        heard
    }

    /// Reads every record waiting from a bot's runtime, each stamp settled by what the driver
    /// saw ([`settle`]). Whether any was read.
    fn look(&mut self, seat: usize) -> bool {
        let mut heard = false;
        loop {
            let looked = self.now();
            let Play::Worker { output, .. } = &mut self.seats[seat].play else {
                return heard;
            };
            let live = output.sees_writes_at_once();
            match output.read() {
                Read::Record(mut record) => {
                    heard = true;
                    let s = &self.seats[seat];
                    if s.out.is_none() {
                        record.stamp = settle(record.stamp, s.looked_empty, self.now());
                        self.heard(seat, record, live);
                    }
                }
                Read::Empty => {
                    if live {
                        self.seats[seat].looked_empty = looked;
                    }
                    return heard;
                }
                Read::Broken(why) => {
                    self.tampered(seat, &why);
                    return true;
                }
            }
            if self.phase == Phase::Over {
                return true;
            }
        }
    }

    /// Once the match is over, the page still asks for the pictures of the frames it shows
    /// (`src/runner.rs`: the match worker stays until the page lets the match go): they are
    /// answered from the referee, which still holds every frame. Any other command comes too
    /// late and is dropped; a broken control channel is left unread (the page then hears no
    /// more pictures, and keeps them itself).
    fn after_the_end(&mut self) {
        loop {
            match self.control.read() {
                Read::Record(record) if record.kind == Kind::Pictures => {
                    let count = record.text.trim().parse().unwrap_or(0);
                    self.send_pictures(record.stamp as usize, count);
                }
                Read::Record(_) => {}
                Read::Empty | Read::Broken(_) => return,
            }
        }
    }

    /// A command from the host.
    fn command(&mut self, record: RuntimeRecord) {
        let seat = record.stamp as usize;
        match record.kind {
            Kind::Stop => self.finish(true),
            Kind::Human if seat < self.seats.len() => {
                if !matches!(self.seats[seat].play, Play::Human) {
                    return;
                }
                for line in record.text.lines() {
                    if self.seats[seat].open.is_none() {
                        break;
                    }
                    self.hear(seat, line.to_string(), None);
                }
            }
            Kind::Pictures => self.send_pictures(seat, record.text.trim().parse().unwrap_or(0)),
            Kind::WorkerError if seat < self.seats.len() => {
                if self.seats[seat].ready() {
                    self.ended(seat, record.text);
                } else {
                    self.fail(format!("bot {} could not start: {}", seat + 1, record.text));
                }
            }
            _ => {}
        }
    }

    /// A record from a bot's runtime (`live`: read from a ring in shared memory).
    fn heard(&mut self, seat: usize, record: RuntimeRecord, live: bool) {
        let s = &mut self.seats[seat];
        match record.kind {
            Kind::Ready => {
                if let Play::Worker {
                    ready,
                    interruptible,
                    ..
                } = &mut s.play
                {
                    *ready = true;
                    *interruptible = record.text == INTERRUPTIBLE;
                }
            }
            Kind::Loading => {
                if self.phase == Phase::Starting {
                    self.queued.push(HostNews::Loading {
                        seat,
                        text: record.text,
                    });
                }
            }
            Kind::Line => {
                s.ahead.lines += 1;
                s.ahead.bytes += record.text.len() + 1;
                if s.ahead.lines > MAX_AHEAD_LINES {
                    let why = format!(
                        "more than {MAX_AHEAD_LINES} lines written without reading its input"
                    );
                    return self.flooded(seat, why);
                }
                if s.ahead.bytes > MAX_AHEAD_BYTES {
                    let why =
                        "more than 1 MiB of output written without reading its input (a loop that \
                               prints and never reads its next input?)";
                    return self.flooded(seat, why.into());
                }
                if s.rehearsal.is_some() {
                    self.rehearse_line(seat, &record.text);
                } else if s.open.is_some() {
                    self.hear(seat, record.text, Some(record.stamp));
                } else if s.unread.len() < MAX_UNREAD_LINES {
                    s.unread.push_back((record.text, record.stamp));
                } else {
                    let why = format!(
                        "more than {MAX_AHEAD_LINES} lines written without reading its input"
                    );
                    self.flooded(seat, why);
                }
            }
            Kind::Stderr => {
                s.ahead.stderr += record.text.len();
                if s.ahead.stderr > MAX_STDERR_FLOOD_BYTES {
                    let why =
                        "more than 1 MiB of debug log written without reading its input (a loop \
                               that prints and never reads its next input?)";
                    return self.flooded(seat, why.into());
                }
                match &mut s.early_stderr {
                    // The debug log of the earlier turns of a taken-over match is not kept.
                    _ if self.phase == Phase::CatchingUp => {}
                    Some(early) if early.len() < MAX_STDERR_BYTES => early.push_str(&record.text),
                    Some(_) => {}
                    None => self.referee.stderr(seat, &record.text),
                }
            }
            Kind::NeedInput => {
                s.ahead.asks_for_input += 1;
                if s.ahead.asks_for_input > MAX_NEED_INPUT {
                    return self.tampered(seat, "it asked for input without end");
                }
                if let Play::Worker { input, .. } = &mut s.play {
                    input.flush();
                }
            }
            Kind::Exit => {
                if let Some((elapsed, _)) = s.interrupted {
                    let at = line_named(&record.text);
                    let seen = AtDeadline::Computing { at: at.as_deref() };
                    self.timed_out(seat, elapsed, seen);
                } else if s.ready() {
                    self.ended(seat, record.text);
                } else {
                    self.fail(format!("bot {} could not start: {}", seat + 1, record.text));
                }
            }
            Kind::Flood => self.flooded(seat, record.text),
            Kind::Received if live => self.tampered(
                seat,
                "a record of input received, which only a runtime on messages writes",
            ),
            Kind::Received => {
                // The runtime waited for its input from `began` until it got it (the record's
                // stamp): what of that wait came after the input was sent is the delivery
                // (through the service worker and, in WebKit, the page's main thread), not the
                // bot's time; whatever the bot did before it began to wait stays its own. Once a
                // turn: the first record of input received decides.
                let began = record.text.trim().parse::<f64>().unwrap_or(f64::INFINITY);
                if let (Some((sent, budget)), false) = (s.open, s.credited) {
                    s.credited = true;
                    let delivery = record.stamp - began.max(sent);
                    if delivery > 0.0 && delivery.is_finite() {
                        s.open = Some((sent + delivery.min(MAX_DELIVERY_MS), budget));
                    }
                }
            }
            Kind::Stop | Kind::Human | Kind::WorkerError | Kind::Pictures => {
                self.tampered(seat, "it wrote a message only the host may write")
            }
        }
    }

    /// Re-runs the earlier turns of a taken-over match as far as the bots let it: each turn is
    /// begun, every asked bot reads its input and answers a copy of the game, then the record's
    /// lines are played. Returns when to step again while a bot in a worker is still reading a
    /// turn, `None` once the catch-up is over (the match then runs, or has failed).
    fn catch_up(&mut self) -> Option<f64> {
        loop {
            self.drain();
            if self.phase != Phase::CatchingUp {
                return None;
            }
            let now = self.now();
            let reading = (0..self.seats.len()).find(|&s| self.seats[s].rehearsal.is_some());
            let catch_up = self.catch_up.as_mut()?;
            if let Some(seat) = reading {
                if now - catch_up.since <= CATCH_UP_LIMIT_MS {
                    if now - self.last_news >= NEWS_EVERY_MS {
                        self.send_news();
                    }
                    return Some(self.wake_at());
                }
                self.fail(format!(
                    "bot {} did not answer one of the match's earlier turns within {} s",
                    seat + 1,
                    CATCH_UP_LIMIT_MS / 1000.0
                ));
                return None;
            }
            if !catch_up.asks.is_empty() {
                let asks = std::mem::take(&mut catch_up.asks);
                let index = catch_up.index;
                catch_up.index += 1;
                let fed = catch_up
                    .take_over
                    .replay
                    .feed_turn(&mut self.referee, index, &asks);
                if let Err(why) = fed {
                    self.fail(format!("the match to take over cannot be re-run: {why}"));
                    return None;
                }
                self.deliver_notices();
                continue;
            }
            if catch_up.index >= catch_up.take_over.turns {
                self.catch_up = None;
                self.referee.check_time_from_now();
                self.phase = Phase::Running;
                return None;
            }
            catch_up.since = now;
            let index = catch_up.index;
            let asks = self.referee.begin_turn();
            if asks.is_empty() {
                // A record the game asks no one to play: the record does not fit the match.
                self.fail(format!(
                    "the match to take over cannot be re-run: no seat is asked in its turn record {}",
                    index + 1
                ));
                return None;
            }
            self.deliver_notices();
            for ask in &asks {
                self.rehearse(ask.seat, &ask.input);
            }
            if let Some(catch_up) = self.catch_up.as_mut() {
                catch_up.asks = asks;
            }
        }
    }

    /// One earlier turn for one bot: it reads its input, and a copy of the game hears its lines
    /// (and answers them) until its turn there is complete. A built-in bot does it at once. A
    /// bot stopped before the earlier turns (it flooded before reading anything) reads nothing:
    /// their records are re-run all the same, and the referee ends its live turns.
    fn rehearse(&mut self, seat: usize, input: &str) {
        if self.seats[seat].out.is_some() {
            return;
        }
        let copy = self.referee.game_copy();
        let s = &mut self.seats[seat];
        s.ahead = Ahead::default();
        match &mut s.play {
            Play::Human => return,
            Play::Worker { input: ring, .. } => ring.push(input),
            Play::Builtin(bot) => {
                let lines = bot.read(input);
                s.unread.extend(lines.into_iter().map(|line| (line, 0.0)));
            }
        }
        s.rehearsal = Some(copy);
        // Lines written before it was asked are read first, as from a pipe.
        while self.seats[seat].rehearsal.is_some() {
            let Some((line, _)) = self.seats[seat].unread.pop_front() else {
                break;
            };
            self.rehearse_line(seat, &line);
        }
        // A built-in bot that wrote all it will write and did not complete its turn there reads
        // on from the next turn, as it would in a real one.
        if matches!(self.seats[seat].play, Play::Builtin(_)) {
            self.seats[seat].rehearsal = None;
        }
    }

    /// A line of a bot reading an earlier turn, heard by its copy of the game.
    fn rehearse_line(&mut self, seat: usize, line: &str) {
        let s = &mut self.seats[seat];
        let Some(copy) = s.rehearsal.as_mut() else {
            return;
        };
        match copy.hear(seat, line) {
            LineOutcome::Reply(text) => match &mut s.play {
                Play::Worker { input, .. } => input.push(&text),
                Play::Builtin(bot) => {
                    let lines = bot.read(&text);
                    s.unread.extend(lines.into_iter().map(|line| (line, 0.0)));
                }
                Play::Human => {}
            },
            LineOutcome::More => {}
            LineOutcome::Done | LineOutcome::Fault(_) => s.rehearsal = None,
        }
    }

    /// Starts turns until a bot in a worker or a person has to answer, or the match is over.
    fn pump(&mut self) {
        while self.phase == Phase::Running && !self.referee.turn_open() {
            self.close_turn_timing();
            if self.referee.is_over() {
                return self.finish(false);
            }
            self.turn_began = Some(self.now());
            let mut asks = self.referee.begin_turn();
            if asks.is_empty() {
                // The referee played through the turns of stopped bots to the end, or the game
                // is stuck.
                if self.referee.is_over() {
                    return self.finish(false);
                }
                self.fail("the game asks no bot to play, yet it is not over".into());
                return;
            }
            self.deliver_notices();
            // Bots in workers first: they compute while the built-in bots do, here.
            asks.sort_by_key(|ask| matches!(self.seats[ask.seat].play, Play::Builtin(_)));
            for ask in asks {
                self.ask(ask);
            }
        }
        if self.phase == Phase::Running && self.referee.turn_open() {
            self.send_queued_now_if_human();
        }
    }

    fn ask(&mut self, ask: Ask) {
        let seat = ask.seat;
        let now = self.now();
        if let Some(early) = self.seats[seat].early_stderr.take() {
            if !early.is_empty() {
                self.referee.stderr(seat, &early);
            }
        }
        let s = &mut self.seats[seat];
        s.open = Some((now, ask.budget_ms));
        s.credited = false;
        s.ahead = Ahead::default();
        s.computed_ms = 0.0;
        match &mut s.play {
            Play::Human => {
                self.queue_progress();
                self.queued.push(HostNews::Human {
                    seat,
                    input: ask.input,
                });
            }
            Play::Worker { input, .. } => {
                self.turn_builtin_only = false;
                input.push(&ask.input);
                // Lines the bot wrote before it was asked are read first, as from a pipe.
                while self.seats[seat].open.is_some() {
                    let Some((line, at)) = self.seats[seat].unread.pop_front() else {
                        break;
                    };
                    self.hear(seat, line, Some(at));
                }
                // A look now: whatever is read later was written after the input was sent.
                self.look(seat);
            }
            Play::Builtin(_) => self.builtin_turn(seat, ask.input),
        }
    }

    /// A built-in bot's whole turn: it reads, the referee hears its lines (and it reads the
    /// replies of a conversational game) until its turn is complete.
    fn builtin_turn(&mut self, seat: usize, input: String) {
        self.builtin_reads(seat, &input);
        while self.seats[seat].open.is_some() {
            let Some((line, _)) = self.seats[seat].unread.pop_front() else {
                // A bot that writes nothing more cannot complete its turn: as a process waiting
                // for input forever, it runs out of time.
                let budget = self.seats[seat].open.map_or(0, |(_, b)| b);
                self.seats[seat].open = None;
                self.referee.timeout(seat, f64::from(budget) + 1.0);
                self.put_out(seat, "the bot was stopped earlier: timeout".into());
                return;
            };
            let elapsed = self.seats[seat].computed_ms;
            if let Some(reply) = self.hear_at(seat, line, elapsed) {
                self.builtin_reads(seat, &reply);
            }
        }
    }

    /// A built-in bot reads text; its lines wait in its queue; its time is counted.
    fn builtin_reads(&mut self, seat: usize, text: &str) {
        let began = self.now();
        let lines = match &mut self.seats[seat].play {
            Play::Builtin(bot) => bot.read(text),
            _ => return,
        };
        let spent = self.now() - began;
        self.turn_bots += spent;
        let s = &mut self.seats[seat];
        s.computed_ms += spent;
        s.unread.extend(lines.into_iter().map(|line| (line, 0.0)));
    }

    /// Broadcasts to seats not being asked (Skyport's game states), delivered at once, untimed.
    fn deliver_notices(&mut self) {
        for (seat, text) in self.referee.take_notices() {
            let Some(s) = self.seats.get_mut(seat) else {
                continue;
            };
            if s.out.is_some() {
                continue;
            }
            match &mut s.play {
                Play::Worker { input, .. } => input.push(&text),
                Play::Builtin(_) => self.builtin_reads(seat, &text),
                Play::Human => {}
            }
        }
    }

    /// One line from an asked seat in a worker or a person, stamped when written (`None`: now).
    fn hear(&mut self, seat: usize, line: String, stamp: Option<f64>) {
        let Some((sent, _)) = self.seats[seat].open else {
            return;
        };
        let elapsed = match (&self.seats[seat].play, stamp) {
            (Play::Human, _) => 0.0,
            (_, Some(at)) => (at - sent).max(0.0),
            (_, None) => self.now() - sent,
        };
        if let Some(reply) = self.hear_at(seat, line, elapsed) {
            if let Play::Worker { input, .. } = &mut self.seats[seat].play {
                input.push(&reply);
            }
        }
    }

    /// The referee hears a line written `elapsed` ms into the turn; the reply to send back, if
    /// the game answers at once.
    fn hear_at(&mut self, seat: usize, line: String, elapsed: f64) -> Option<String> {
        let verdict = self.referee.line(seat, &line, elapsed);
        self.deliver_notices();
        let mut reply = None;
        match verdict {
            Verdict::Reply(text) => reply = Some(text),
            Verdict::More | Verdict::Done => {}
            Verdict::Fault(fault) => {
                if matches!(fault.kind, FaultKind::Timeout | FaultKind::Flood) {
                    self.put_out(seat, format!("the bot was stopped earlier: {}", fault.kind));
                }
            }
            Verdict::NotAsked => self.seats[seat].unread.push_front((line, 0.0)),
        }
        if !self.referee.waiting_for().contains(&seat) {
            self.seats[seat].open = None;
        }
        reply
    }

    fn check_deadlines(&mut self) {
        let now = self.now();
        for seat in 0..self.seats.len() {
            let s = &self.seats[seat];
            if let Some((elapsed, until)) = s.interrupted {
                if now >= until {
                    self.timed_out(seat, elapsed, AtDeadline::Computing { at: None });
                }
                continue;
            }
            let Some((sent, budget)) = s.open else {
                continue;
            };
            let budget = f64::from(budget);
            // Silent at a look after the budget (nothing written by then), or at the grace's end.
            let silent_past_budget = s.looked_empty - sent > budget;
            if !matches!(s.play, Play::Worker { .. })
                || !(silent_past_budget || now - sent > budget + s.grace())
            {
                continue;
            }
            let elapsed = if silent_past_budget {
                s.looked_empty - sent
            } else {
                now - sent
            };
            self.past_deadline(seat, elapsed);
        }
    }

    /// A bot in a worker did not answer within its budget (and grace): a timeout, which says
    /// what the bot was doing; a computing bot whose runtime can be interrupted is asked to stop
    /// and say where it was first ([`INTERRUPT_WAIT_MS`]).
    fn past_deadline(&mut self, seat: usize, elapsed: f64) {
        let now = self.now();
        let s = &mut self.seats[seat];
        let Play::Worker {
            input,
            interruptible,
            ..
        } = &mut s.play
        else {
            return;
        };
        let seen = match input.waiting() {
            None => AtDeadline::Unknown,
            Some(true) => AtDeadline::WaitingForInput,
            Some(false) if *interruptible => {
                input.interrupt();
                s.open = None;
                s.interrupted = Some((elapsed, now + INTERRUPT_WAIT_MS));
                return;
            }
            Some(false) => AtDeadline::Computing { at: None },
        };
        self.timed_out(seat, elapsed, seen);
    }

    /// The bot's turn is a timeout: it is out.
    fn timed_out(&mut self, seat: usize, elapsed: f64, seen: AtDeadline) {
        self.seats[seat].open = None;
        self.seats[seat].interrupted = None;
        self.referee.timeout_seen(seat, elapsed, seen);
        self.put_out(seat, "the bot was stopped earlier: timeout".into());
    }

    /// The bot's program ended or its worker failed: it is out.
    fn ended(&mut self, seat: usize, message: String) {
        self.put_out(seat, message.clone());
        if let Some((sent, _)) = self.seats[seat].open.take() {
            let elapsed = self.now() - sent;
            self.referee.crash(seat, &message, elapsed);
        }
    }

    /// The bot wrote more than it may without reading: it is out; its queued lines are dropped.
    fn flooded(&mut self, seat: usize, message: String) {
        self.seats[seat].unread.clear();
        self.put_out(seat, format!("the bot was stopped earlier: {message}"));
        if let Some((sent, _)) = self.seats[seat].open.take() {
            let elapsed = self.now() - sent;
            self.referee.flood(seat, &message, elapsed);
        }
    }

    /// The bot's runtime wrote something no runtime of ours writes: the bot changed it.
    fn tampered(&mut self, seat: usize, what: &str) {
        let message = format!("the bot tampered with the bot runtime: {what}");
        self.seats[seat].unread.clear();
        self.ended(seat, message);
    }

    /// The bot plays no more: its worker is stopped. While a taken-over match catches up, that
    /// ends the match: the earlier turns are the record's, a bot cannot leave them.
    fn put_out(&mut self, seat: usize, why: String) {
        if self.phase == Phase::CatchingUp {
            self.fail(format!(
                "bot {} stopped while reading the earlier turns of the match: {why}",
                seat + 1
            ));
            return;
        }
        let s = &mut self.seats[seat];
        if s.out.is_some() {
            return;
        }
        s.out = Some(why.clone());
        if matches!(s.play, Play::Worker { .. }) {
            self.outbox.kill(seat);
        }
        // Its later turns end in a crash, made by the referee in the seat's place.
        self.referee.retire(seat, &why);
    }

    fn close_turn_timing(&mut self) {
        let Some(began) = self.turn_began.take() else {
            return;
        };
        let wall_ms = self.now() - began;
        self.timings.turns.push(TurnTiming {
            wall_ms,
            bots_ms: self.turn_builtin_only.then_some(self.turn_bots),
            host_ms: (wall_ms - self.turn_waited - self.turn_bots).max(0.0),
        });
        self.turn_waited = 0.0;
        self.turn_bots = 0.0;
        self.turn_builtin_only = true;
    }

    fn finish(&mut self, stopped: bool) {
        if self.phase == Phase::Over {
            return;
        }
        self.close_turn_timing();
        self.timings.finished_at = Some(self.now());
        self.phase = Phase::Over;
        // The bots' workers end with the match (the match worker stays: it keeps the frames).
        for seat in 0..self.seats.len() {
            let s = &self.seats[seat];
            if matches!(s.play, Play::Worker { .. }) && s.out.is_none() {
                self.outbox.kill(seat);
            }
        }
        self.running = 0;
        self.queue_progress();
        self.queued.push(HostNews::Finished {
            outcome: self.referee.outcome().filter(|_| self.referee.is_over()),
            faults: self.referee.faults().to_vec(),
            stopped,
            timings: std::mem::take(&mut self.timings),
        });
        self.send_news();
    }

    /// The match cannot go on. Returns `true` (something happened).
    fn fail(&mut self, why: String) -> bool {
        self.phase = Phase::Over;
        self.queue_progress();
        self.queued.push(HostNews::Failed { why });
        self.send_news();
        true
    }

    fn queue_progress(&mut self) {
        let frames = &self.referee.frames()[self.sent_frames..];
        let turns = &self.referee.turns()[self.sent_turns..];
        if frames.is_empty() && turns.is_empty() {
            return;
        }
        // The newest frame is the one a page following the match shows: it goes with its
        // picture; the others with their numbers, their pictures written only if asked for.
        let sent: Vec<Frame> = match frames.split_last() {
            Some((newest, before)) => before
                .iter()
                .map(Frame::numbers_only)
                .chain([newest.clone()])
                .collect(),
            None => Vec::new(),
        };
        self.sent_frames += sent.len();
        self.sent_turns += turns.len();
        self.queued.push(HostNews::Progress {
            frames: sent,
            turns: turns.iter().map(WireTurn::from).collect(),
        });
    }

    /// The page looks at frames it has without their pictures: it hears them now (at most
    /// [`MAX_PICTURES`], and only frames it was sent).
    fn send_pictures(&mut self, first: usize, count: usize) {
        let end = first
            .saturating_add(count.min(MAX_PICTURES))
            .min(self.sent_frames);
        if first >= end {
            return;
        }
        let frames = self.referee.frames()[first..end].to_vec();
        self.outbox.news(&HostNews::Pictures { first, frames });
    }

    /// A person is asked: the page hears it now, not at the next batch.
    fn send_queued_now_if_human(&mut self) {
        if self
            .queued
            .iter()
            .any(|news| matches!(news, HostNews::Human { .. }))
        {
            self.send_news();
        }
    }

    fn send_news(&mut self) {
        if self.phase != Phase::Over {
            self.queue_progress();
        }
        for news in self.queued.drain(..) {
            self.outbox.news(&news);
        }
        self.last_news = self.now();
    }
}

impl Seat {
    /// How long after its budget a silent bot in a worker is timed out: [`GRACE_MS`]; on
    /// messages, until its runtime said it received the input, [`MAX_DELIVERY_MS`] more (the
    /// input may still be on its way: the bot may not have it yet).
    fn grace(&self) -> f64 {
        match &self.play {
            Play::Worker { output, .. } if !output.sees_writes_at_once() && !self.credited => {
                GRACE_MS + MAX_DELIVERY_MS
            }
            _ => GRACE_MS,
        }
    }

    fn ready(&self) -> bool {
        !matches!(self.play, Play::Worker { ready: false, .. })
    }
}

/// What the page would hear of a match of built-in bots only, played to its end at once on a
/// clock of its own (a millisecond per step): for tests, natively and in wasm.
pub fn play_builtins(start: HostStart) -> Result<Vec<HostNews>, String> {
    /// Keeps every piece of news.
    struct Kept(std::cell::RefCell<Vec<HostNews>>);
    impl Outbox for Kept {
        fn news(&self, news: &HostNews) {
            self.0.borrow_mut().push(news.clone());
        }
        fn kill(&self, _seat: usize) {}
    }
    let channels = Channels {
        control: Box::new(super::mailbox::Mailbox::new()),
        rings: (0..start.setup.seats).map(|_| None).collect(),
    };
    let time = std::cell::Cell::new(0.0);
    let clock = || time.get();
    let kept = Kept(std::cell::RefCell::new(Vec::new()));
    let mut driver = Driver::new(start, channels, &kept, &clock)?;
    while driver.step().is_some() {
        time.set(time.get() + 1.0);
    }
    drop(driver);
    Ok(kept.0.into_inner())
}

#[cfg(test)]
mod tests {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;

    use engine::{FaultKind, Setup};

    use super::*;
    use crate::match_host::mailbox::Mailbox;

    /// What the driver sends a bot, kept.
    struct Sent(Rc<RefCell<Vec<String>>>);

    impl Input for Sent {
        fn push(&mut self, text: &str) {
            self.0.borrow_mut().push(text.to_string());
        }

        fn flush(&mut self) {}
    }

    #[derive(Default)]
    struct NewsLog(RefCell<Vec<HostNews>>);

    impl Outbox for NewsLog {
        fn news(&self, news: &HostNews) {
            self.0.borrow_mut().push(news.clone());
        }

        fn kill(&self, _seat: usize) {}
    }

    fn played(start: HostStart) -> Vec<HostNews> {
        play_builtins(start).expect("a match")
    }

    /// The turn records of a match, as the page heard them.
    fn turns_of(news: &[HostNews]) -> Vec<engine::TurnRecord> {
        news.iter()
            .filter_map(|n| match n {
                HostNews::Progress { turns, .. } => Some(turns.iter().cloned().map(Into::into)),
                _ => None,
            })
            .flatten()
            .collect()
    }

    /// A bot in a worker in seat 1 against the built-in bot `name`.
    fn code_against(name: &str) -> Vec<Player> {
        vec![Player::Code, Player::Builtin { name: name.into() }]
    }

    /// An Ice and Fire match of seed 7 between these players, named as given.
    fn ice_and_fire(names: [&str; 2], players: Vec<Player>) -> HostStart {
        let entry = games::entry("ice-and-fire").expect("Ice and Fire");
        HostStart {
            setup: Setup::new(entry.info, 7),
            names: names.map(String::from).to_vec(),
            players,
            relaxed: false,
            from: None,
        }
    }

    fn builtins(names: &[&str]) -> Vec<Player> {
        names
            .iter()
            .map(|&name| Player::Builtin { name: name.into() })
            .collect()
    }

    /// A match taken over by the same built-in bots in the middle is the same match, line for
    /// line, in every game: each bot read the earlier turns of its seat as it had played them.
    #[test]
    fn a_match_taken_over_by_the_same_bots_is_the_same_match() {
        let games = [
            ("ice-and-fire", "expander"),
            ("soak-overflow", "soaker"),
            ("micro-rts", "rush"),
            ("skyport", "gunner"),
            ("crafting-quest", "crafter"),
        ];
        for (game, bot) in games {
            let entry = games::entry(game).expect("a game");
            let mut setup = Setup::new(entry.info, 7);
            if game == "crafting-quest" {
                setup.options.insert("rounds".into(), "12".into());
            }
            let names = vec![bot.to_string(), "random".to_string()];
            let start = HostStart {
                setup: setup.clone(),
                names: names.clone(),
                players: builtins(&[bot, "random"]),
                relaxed: false,
                from: None,
            };
            let first = played(start.clone());
            let records = turns_of(&first);
            let replay = engine::Replay::new(entry.info, setup, names, false, records.clone());
            let turns = records.len() / 2;
            let again = played(HostStart {
                from: Some(TakeOver { replay, turns }),
                ..start
            });
            let lines = |records: &[engine::TurnRecord]| -> Vec<Vec<Vec<String>>> {
                records
                    .iter()
                    .map(|t| t.seats.iter().map(|s| s.lines.clone()).collect())
                    .collect()
            };
            assert_eq!(lines(&turns_of(&again)), lines(&records), "{game}");
            let outcome = |news: &[HostNews]| match news.last() {
                Some(HostNews::Finished { outcome, .. }) => outcome.clone(),
                other => panic!("{game}: not finished: {other:?}"),
            };
            assert_eq!(outcome(&again), outcome(&first), "{game}");
            assert!(outcome(&first).is_some(), "{game}");
        }
    }

    /// A record the game asks no one to play (here, one past the end of the match) fails the
    /// match with a reason, instead of waiting for it forever.
    #[test]
    fn a_record_past_the_end_of_the_match_fails_the_take_over() {
        let entry = games::entry("ice-and-fire").expect("Ice and Fire");
        let start = ice_and_fire(["expander", "random"], builtins(&["expander", "random"]));
        let (setup, names) = (start.setup.clone(), start.names.clone());
        let mut records = turns_of(&played(start.clone()));
        records.push(records[records.len() - 1].clone());
        let turns = records.len();
        let replay = engine::Replay::new(entry.info, setup, names, false, records);
        let news = played(HostStart {
            from: Some(TakeOver { replay, turns }),
            ..start
        });
        let Some(HostNews::Failed { why }) = news.last() else {
            panic!("not failed: {:?}", news.last());
        };
        assert!(why.contains("no seat is asked"), "{why}");
    }

    /// A bot in a worker taking over is sent, untimed, every input its seat had in the earlier
    /// turns, and a copy of the game answers it there (what it writes changes nothing); then it
    /// plays with the game's budget. A bot that stops reading them ends the match with a reason.
    #[test]
    fn a_bot_taking_over_reads_the_earlier_turns_of_its_seat_then_plays() {
        let entry = games::entry("ice-and-fire").expect("Ice and Fire");
        let start = ice_and_fire(
            ["expander", "expander"],
            builtins(&["expander", "expander"]),
        );
        let (setup, names) = (start.setup.clone(), start.names.clone());
        let records = turns_of(&played(start));
        let replay = engine::Replay::new(entry.info, setup.clone(), names, false, records.clone());
        let turns = 6;
        let sent_to_me: Vec<String> = records[..turns]
            .iter()
            .flat_map(|t| t.seats.iter().filter(|s| s.seat == 0))
            .map(|s| s.input.clone())
            .collect();
        assert_eq!(sent_to_me.len(), 3, "Ice and Fire alternates its seats");
        for stops in [false, true] {
            let take_over = HostStart {
                from: Some(TakeOver {
                    replay: replay.clone(),
                    turns,
                }),
                ..ice_and_fire(["me", "expander"], code_against("expander"))
            };
            let (bot, sent, channels) = code_in_seat_1();
            let time = Cell::new(0.0);
            let clock = || time.get();
            let heard = NewsLog::default();
            let mut driver = Driver::new(take_over, channels, &heard, &clock).expect("a match");
            record(&bot, Kind::Ready, "", 0.0);
            driver.step();
            for (read, input) in sent_to_me.iter().enumerate() {
                assert_eq!(sent.borrow().len(), read + 1, "stops: {stops}");
                assert_eq!(&sent.borrow()[read], input, "turn {read}");
                if stops && read == 1 {
                    record(&bot, Kind::Exit, "it threw", 1.0);
                    driver.step();
                    break;
                }
                // Whatever it answers there, a minute later: untimed, and dropped.
                time.set(time.get() + 60.0);
                record(&bot, Kind::Stderr, "thinking\n", time.get());
                record(&bot, Kind::Line, "MOVE 1 11 11", time.get());
                driver.step();
            }
            let news = heard.0.borrow();
            if stops {
                let Some(HostNews::Failed { why }) = news.last() else {
                    panic!("not failed: {:?}", news.last());
                };
                assert!(
                    why.contains("bot 1 stopped while reading the earlier turns"),
                    "{why}"
                );
                continue;
            }
            // Its first real turn: the input of the record it takes over, timed.
            assert_eq!(sent.borrow().len(), 4);
            assert_eq!(sent.borrow()[3], records[turns].seats[0].input);
            let earlier = turns_of(&news);
            assert_eq!(earlier.len(), turns, "the earlier turns are the record's");
            for (new, old) in earlier.iter().zip(&records) {
                assert_eq!(new.seats[0].lines, old.seats[0].lines);
                assert!(
                    new.seats[0].stderr.is_empty(),
                    "their debug log is not kept"
                );
            }
            drop(news);
            // Silent, without a record of input received (on messages): timed out once the
            // longest delivery is over too.
            time.set(time.get() + 200.0 + MAX_DELIVERY_MS);
            driver.step();
            let news = heard.0.borrow();
            let late = turns_of(&news);
            let fault = late[turns].seats[0].fault.as_ref().expect("a timeout");
            assert_eq!(fault.kind, FaultKind::Timeout);
        }
    }

    /// A bot that floods its debug log before it reads anything is stopped before the earlier
    /// turns are re-run: they are re-run as recorded all the same (the record says how each
    /// ended), and from the turn taken over its turns end in a crash, as in any match. Each
    /// take-over of such a match is played: of the original, of the match the first one made,
    /// from another turn. (The seat was once retired at once, so the referee ended its turns in
    /// the record's place, and the take-over was refused: "no seat is asked in its turn record
    /// 1".)
    #[test]
    fn a_bot_that_floods_its_debug_log_before_reading_is_stopped_and_the_take_over_plays() {
        let entry = games::entry("ice-and-fire").expect("Ice and Fire");
        let start = ice_and_fire(
            ["expander", "expander"],
            builtins(&["expander", "expander"]),
        );
        let (setup, names) = (start.setup.clone(), start.names.clone());
        let original = engine::Replay::new(entry.info, setup.clone(), names, false, {
            turns_of(&played(start))
        });
        let flood = "x".repeat(64 * 1024);
        let take_over = |replay: &engine::Replay, turns: usize| -> Vec<HostNews> {
            let start = HostStart {
                from: Some(TakeOver {
                    replay: replay.clone(),
                    turns,
                }),
                ..ice_and_fire(["flood", "expander"], code_against("expander"))
            };
            let (bot, sent, channels) = code_in_seat_1();
            let time = Cell::new(0.0);
            let clock = || time.get();
            let heard = NewsLog::default();
            let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
            record(&bot, Kind::Ready, "", 0.0);
            for _ in 0..=MAX_STDERR_FLOOD_BYTES / flood.len() {
                record(&bot, Kind::Stderr, &flood, 0.0);
            }
            while let Some(until) = driver.step() {
                time.set(until.max(time.get() + 1.0));
            }
            assert!(sent.borrow().is_empty(), "a stopped bot reads nothing");
            drop(driver);
            heard.0.take()
        };
        let mut replay = original.clone();
        for (round, turns) in [6, 6, 2].into_iter().enumerate() {
            let news = take_over(&replay, turns);
            let Some(HostNews::Finished { outcome, .. }) = news.last() else {
                panic!("round {round}: not finished: {:?}", news.last());
            };
            assert_eq!(
                outcome.as_ref().map(|o| o.ranks.clone()),
                Some(vec![2, 1]),
                "round {round}"
            );
            let records = turns_of(&news);
            assert_eq!(records.len(), turns + 1, "round {round}");
            for (new, old) in records.iter().zip(&replay.turns[..turns]) {
                let seats = |t: &engine::TurnRecord| -> Vec<_> {
                    t.seats
                        .iter()
                        .map(|s| (s.seat, s.lines.clone(), s.fault.clone()))
                        .collect()
                };
                assert_eq!(seats(new), seats(old), "round {round}: re-run as recorded");
            }
            let mine = &records[turns].seats[0];
            let fault = mine.fault.as_ref().expect("a crash");
            assert_eq!(fault.kind, FaultKind::Crash, "round {round}");
            assert_eq!(
                fault.text,
                "the bot was stopped earlier: more than 1 MiB of debug log written without \
                 reading its input (a loop that prints and never reads its next input?)",
                "round {round}"
            );
            // The next round takes over the match this one made (then the original again).
            replay = if round == 0 {
                let mut made = engine::Replay::new(
                    entry.info,
                    setup.clone(),
                    vec!["flood".into(), "expander".into()],
                    false,
                    records,
                );
                made.from = Some(engine::Origin {
                    replay: original.digest(),
                    turns,
                    turn: original.turns[turns].seats[0].turn,
                });
                assert!(made.rerun(entry).is_ok(), "its record re-runs");
                made
            } else {
                original.clone()
            };
        }
    }

    /// The channels of a two-seat match whose first seat is a bot in a worker (on messages):
    /// its records' mailbox, what it was sent, and the channels.
    fn code_in_seat_1() -> (Mailbox, Rc<RefCell<Vec<String>>>, Channels) {
        let bot = Mailbox::new();
        let sent = Rc::new(RefCell::new(Vec::new()));
        let channels = Channels {
            control: Box::new(Mailbox::new()),
            rings: vec![
                Some((Box::new(Sent(sent.clone())), Box::new(bot.clone()))),
                None,
            ],
        };
        (bot, sent, channels)
    }

    fn record(bot: &Mailbox, kind: Kind, text: &str, stamp: f64) {
        bot.receive(Some(f64::from(kind as u8)), Some(text.into()), Some(stamp));
    }

    /// Frames travel with their numbers only, but the newest of each batch of news; the page
    /// gets the pictures it asks for, and they are the frames a re-run of the match's record
    /// keeps.
    #[test]
    fn frames_travel_without_their_pictures_but_the_newest_and_come_in_full_when_asked_for() {
        let entry = games::entry("ice-and-fire").expect("Ice and Fire");
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (setup, names) = (start.setup.clone(), start.names.clone());
        let (bot, _sent, mut channels) = code_in_seat_1();
        let control = Mailbox::new();
        channels.control = Box::new(control.clone());
        let time = Cell::new(0.0);
        let clock = || time.get();
        let heard = NewsLog::default();
        let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
        record(&bot, Kind::Ready, "", 0.0);
        driver.step();
        // Four turns, news at 60 ms (every 50 ms at most), three more turns.
        for ms in [10.0, 20.0, 30.0, 40.0, 60.0, 70.0, 80.0, 90.0] {
            time.set(ms);
            if ms != 60.0 {
                record(&bot, Kind::Line, "WAIT", ms);
            }
            driver.step();
        }
        time.set(120.0);
        driver.step();
        let batches: Vec<Vec<Frame>> = heard
            .0
            .borrow()
            .iter()
            .filter_map(|n| match n {
                HostNews::Progress { frames, .. } if !frames.is_empty() => Some(frames.clone()),
                _ => None,
            })
            .collect();
        assert!(batches.len() >= 2, "{} batches", batches.len());
        for batch in &batches {
            let (newest, before) = batch.split_last().expect("a frame");
            assert!(newest.has_picture(), "the newest frame of a batch is drawn");
            assert!(
                before.iter().all(|f| !f.has_picture()),
                "the others are not"
            );
        }
        let sent: Vec<Frame> = batches.concat();
        assert!(sent.iter().filter(|f| !f.has_picture()).count() >= 4);

        // The page asks for more than there are, from frame 1: it gets all it was sent.
        record(&control, Kind::Pictures, "1000", 1.0);
        driver.step();
        let news = heard.0.borrow();
        let Some(HostNews::Pictures { first, frames }) =
            news.iter().find(|n| matches!(n, HostNews::Pictures { .. }))
        else {
            panic!("no pictures: {news:?}");
        };
        assert_eq!((*first, frames.len()), (1, sent.len() - 1));
        assert!(frames.iter().all(Frame::has_picture));

        let replay = engine::Replay::new(entry.info, setup, names, false, turns_of(&news));
        let rerun = replay.rerun(entry).expect("a re-run");
        let kept = &rerun.frames()[..sent.len()];
        assert_eq!(
            frames.as_slice(),
            &kept[1..],
            "the pictures are the re-run's"
        );
        for (sent, kept) in sent.iter().zip(kept) {
            assert_eq!(sent.numbers_only(), kept.numbers_only(), "the numbers");
            if sent.has_picture() {
                assert_eq!(sent, kept, "a picture sent is the re-run's");
            }
        }
    }

    /// Once the match is over its bots' workers are stopped, but the driver still answers the
    /// page's requests for pictures, from its own frames (the page re-runs nothing), and drops
    /// any other command.
    #[test]
    fn after_the_end_the_bots_go_and_the_pictures_are_still_answered() {
        #[derive(Default)]
        struct Kept {
            news: RefCell<Vec<HostNews>>,
            killed: RefCell<Vec<usize>>,
        }
        impl Outbox for Kept {
            fn news(&self, news: &HostNews) {
                self.news.borrow_mut().push(news.clone());
            }
            fn kill(&self, seat: usize) {
                self.killed.borrow_mut().push(seat);
            }
        }
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (bot, _sent, mut channels) = code_in_seat_1();
        let control = Mailbox::new();
        channels.control = Box::new(control.clone());
        let time = Cell::new(0.0);
        let clock = || time.get();
        let kept = Kept::default();
        let mut driver = Driver::new(start, channels, &kept, &clock).expect("a match");
        record(&bot, Kind::Ready, "", 0.0);
        driver.step();
        for ms in [10.0, 20.0, 30.0] {
            time.set(ms);
            record(&bot, Kind::Line, "WAIT", ms);
            driver.step();
        }
        assert!(
            kept.killed.borrow().is_empty(),
            "no bot is stopped while it plays"
        );
        record(&control, Kind::Stop, "", 0.0);
        time.set(40.0);
        assert_eq!(driver.step(), None, "stopped");
        assert_eq!(
            *kept.killed.borrow(),
            [0],
            "the bot's worker ends with the match"
        );
        let frames = driver.referee.frames().to_vec();
        let heard = kept.news.borrow().len();
        assert!(matches!(
            kept.news.borrow().last(),
            Some(HostNews::Finished { stopped: true, .. })
        ));

        // Later: a stop again, a person's line, then pictures from frame 1.
        time.set(5_000.0);
        record(&control, Kind::Stop, "", 0.0);
        record(&control, Kind::Human, "WAIT", 0.0);
        record(&control, Kind::Pictures, "2", 1.0);
        assert_eq!(driver.step(), None);
        let news = kept.news.borrow();
        assert_eq!(
            news[heard..],
            [HostNews::Pictures {
                first: 1,
                frames: frames[1..3].to_vec()
            }],
            "only the pictures are answered"
        );
        assert!(frames[1..3].iter().all(Frame::has_picture));
    }

    /// On messages, a turn is timed from when the bot's runtime got its input if it was already
    /// waiting for it (the delivery is not the bot's time), and from when it was sent otherwise.
    #[test]
    fn on_messages_a_turn_counts_from_the_input_received_if_the_bot_was_waiting() {
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (bot, sent, channels) = code_in_seat_1();
        let time = Cell::new(0.0);
        let clock = || time.get();
        let heard = NewsLog::default();
        let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
        record(&bot, Kind::Ready, "", 0.0);
        assert!(driver.step().is_some());
        assert_eq!(sent.borrow().len(), 1, "the first turn's input");
        // The first turn, answered at once.
        time.set(10.0);
        record(&bot, Kind::Line, "WAIT", 10.0);
        driver.step();
        assert_eq!(
            sent.borrow().len(),
            2,
            "the second turn's input, sent at 10 ms"
        );
        // Waiting since 5 ms, it got the input at 70 ms and answered at 100 ms: 30 ms of its own.
        time.set(100.0);
        record(&bot, Kind::Received, "5", 70.0);
        record(&bot, Kind::Line, "WAIT", 100.0);
        driver.step();
        assert_eq!(
            sent.borrow().len(),
            3,
            "the third turn's input, sent at 100 ms"
        );
        // Busy until 150 ms, it asked for input then: 75 ms of its own, over the 50 ms budget.
        time.set(175.0);
        record(&bot, Kind::Received, "150", 150.0);
        record(&bot, Kind::Line, "WAIT", 175.0);
        while driver.step().is_some() {}
        let news = heard.0.borrow();
        let Some(HostNews::Finished { faults, .. }) = news.last() else {
            panic!("the match did not finish: {:?}", news.last());
        };
        let mine: Vec<_> = faults.iter().filter(|f| f.seat == 0).collect();
        assert_eq!(mine.len(), 1, "{faults:?}");
        assert_eq!(mine[0].kind, FaultKind::Timeout, "{faults:?}");
    }

    /// A bot's input on a ring, faked: at a deadline the bot is `waiting` for input or
    /// computing; interrupted, its runtime writes `last_words` (a traceback, then its end), if
    /// any, as Python's does.
    struct Stalling {
        bot: Mailbox,
        waiting: bool,
        last_words: Option<(&'static str, &'static str)>,
        interrupted: Rc<Cell<bool>>,
    }

    impl Input for Stalling {
        fn push(&mut self, _text: &str) {}
        fn flush(&mut self) {}
        fn waiting(&mut self) -> Option<bool> {
            Some(self.waiting)
        }
        fn interrupt(&mut self) {
            self.interrupted.set(true);
            if let Some((traceback, exit)) = self.last_words {
                record(&self.bot, Kind::Stderr, traceback, 0.0);
                record(&self.bot, Kind::Exit, exit, 0.0);
            }
        }
    }

    /// The fault of a bot (in seat 1, on a ring; its runtime's `Ready` record says `ready`) that
    /// never answers its first turn, as [`Stalling`] says, with its debug log of that turn, and
    /// whether it was interrupted (the fault's time is the turn's).
    fn stalled(
        ready: &str,
        waiting: bool,
        last_words: Option<(&'static str, &'static str)>,
    ) -> (engine::Fault, String, bool) {
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (bot, _, mut channels) = code_in_seat_1();
        let interrupted = Rc::new(Cell::new(false));
        let stalling = Stalling {
            bot: bot.clone(),
            waiting,
            last_words,
            interrupted: interrupted.clone(),
        };
        channels.rings[0] = Some((Box::new(stalling), Box::new(Ring(bot.clone()))));
        let time = Cell::new(0.0);
        let clock = || time.get();
        let heard = NewsLog::default();
        let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
        record(&bot, Kind::Ready, ready, 0.0);
        let faults = my_faults(&mut driver, &time, &heard);
        let news = heard.0.borrow();
        let first = &turns_of(&news)[0];
        let mine = first
            .seats
            .iter()
            .find(|s| s.seat == 0)
            .expect("seat 1 asked");
        let fault = faults.first().expect("a fault").clone();
        assert_eq!(mine.fault.as_ref(), Some(&fault), "the first turn's fault");
        assert!(
            mine.time_ms < 1200.0,
            "timed at the deadline: {}",
            mine.time_ms
        );
        (fault, mine.stderr.clone(), interrupted.get())
    }

    #[test]
    fn a_python_bot_computing_at_its_deadline_is_interrupted_and_its_line_named() {
        let traceback = "Traceback (most recent call last):\n  File \"bot.py\", line 12\n";
        let words = Some((traceback, "KeyboardInterrupt (line 12)"));
        let (fault, stderr, interrupted) = stalled(INTERRUPTIBLE, false, words);
        assert!(interrupted);
        assert_eq!(fault.kind, FaultKind::Timeout);
        assert_eq!(
            fault.text,
            "no complete answer within 1000 ms: the bot was still computing at the deadline, in \
             line 12 (an endless loop, or too slow for its budget?)"
        );
        assert_eq!(stderr, traceback, "the traceback is the turn's debug log");
        // A runtime that says nothing once interrupted (the bot caught the interrupt) is stopped
        // after INTERRUPT_WAIT_MS, and the fault says what was seen.
        let (fault, _, interrupted) = stalled(INTERRUPTIBLE, false, None);
        assert!(interrupted);
        assert_eq!(
            fault.text,
            "no complete answer within 1000 ms: the bot was still computing at the deadline (an \
             endless loop, or too slow for its budget?)"
        );
        // A runtime that cannot be interrupted (JavaScript's) is not asked to be.
        let (fault, _, interrupted) = stalled("", false, None);
        assert!(!interrupted);
        assert!(fault
            .text
            .contains("still computing at the deadline (an endless loop"));
    }

    #[test]
    fn a_bot_waiting_for_input_at_its_deadline_is_told_it_reads_more_than_the_turn_has() {
        let (fault, _, interrupted) = stalled(INTERRUPTIBLE, true, None);
        assert!(!interrupted, "a bot waiting for input is not computing");
        assert!(
            fault.text.contains("the bot was waiting for more input"),
            "{}",
            fault.text
        );
    }

    #[test]
    fn only_a_line_number_is_taken_from_an_interrupted_bots_last_words() {
        assert_eq!(
            line_named("KeyboardInterrupt (line 12)").as_deref(),
            Some("line 12")
        );
        assert_eq!(
            line_named("x (line 3) y (line 40)").as_deref(),
            Some("line 40")
        );
        assert_eq!(line_named("(line forty)"), None);
        assert_eq!(line_named("KeyboardInterrupt"), None);
        assert_eq!(line_named("(line 99999999999999)"), None);
    }

    /// A bot's records on a ring in shared memory, faked with a mailbox: a read that finds
    /// nothing means nothing was written before it.
    struct Ring(Mailbox);

    impl Records for Ring {
        fn read(&mut self) -> Read {
            self.0.read()
        }

        fn sees_writes_at_once(&self) -> bool {
            true
        }
    }

    /// As [`code_in_seat_1`], on a ring.
    fn code_in_seat_1_on_a_ring() -> (Mailbox, Rc<RefCell<Vec<String>>>, Channels) {
        let (bot, sent, mut channels) = code_in_seat_1();
        channels.rings[0] = Some((Box::new(Sent(sent.clone())), Box::new(Ring(bot.clone()))));
        (bot, sent, channels)
    }

    /// The faults of seat 1 once the match is played to its end, the clock moved to each time
    /// the driver asks to be woken (as the doorbell's timed wait does).
    fn my_faults(driver: &mut Driver, time: &Cell<f64>, heard: &NewsLog) -> Vec<engine::Fault> {
        while let Some(until) = driver.step() {
            time.set(until.max(time.get()));
        }
        let news = heard.0.borrow();
        let Some(HostNews::Finished { faults, .. }) = news.last() else {
            panic!("the match did not finish: {:?}", news.last());
        };
        faults.iter().filter(|f| f.seat == 0).cloned().collect()
    }

    #[test]
    fn a_stamp_is_believed_only_between_the_last_empty_look_and_the_read() {
        assert_eq!(settle(20.0, 10.0, 30.0), 20.0);
        assert_eq!(
            settle(0.0, 10.0, 30.0),
            10.0,
            "written after the empty look"
        );
        assert_eq!(settle(99.0, 10.0, 30.0), 30.0, "written before the read");
        assert_eq!(settle(f64::NAN, 10.0, 30.0), 30.0);
        assert_eq!(
            settle(f64::NEG_INFINITY, f64::NEG_INFINITY, 30.0),
            f64::NEG_INFINITY
        );
        assert_eq!(settle(5.0, 40.0, 30.0), 30.0, "never after the read");
    }

    /// A bot that computes past its budget and then writes its line stamped at the turn's start
    /// is timed out at the look after its budget: the ring was empty then.
    #[test]
    fn on_a_ring_a_line_forged_early_after_an_empty_look_is_a_timeout() {
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (bot, sent, channels) = code_in_seat_1_on_a_ring();
        let time = Cell::new(0.0);
        let clock = || time.get();
        let heard = NewsLog::default();
        let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
        record(&bot, Kind::Ready, "", 0.0);
        driver.step();
        time.set(10.0);
        record(&bot, Kind::Line, "WAIT", 10.0);
        driver.step();
        assert_eq!(sent.borrow().len(), 2, "the second turn, sent at 10 ms");
        // Nothing is written by the end of the 50 ms budget: the driver looks then.
        let mut wakes = Vec::new();
        while time.get() < 61.0 {
            let until = driver.step().expect("a deadline");
            wakes.push(until);
            time.set(until);
        }
        assert_eq!(
            wakes.last(),
            Some(&61.0),
            "a look at the end of the budget: {wakes:?}"
        );
        driver.step();
        // The line comes at 100 ms, within the grace, stamped at 11 ms.
        time.set(100.0);
        record(&bot, Kind::Line, "WAIT", 11.0);
        let faults = my_faults(&mut driver, &time, &heard);
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!(
            (faults[0].kind, faults[0].turn),
            (FaultKind::Timeout, 2),
            "{faults:?}"
        );
    }

    /// An honest line read late (the driver was slow to wake) keeps its stamp: it was written
    /// after the last empty look and before the read.
    #[test]
    fn on_a_ring_an_honest_stamp_read_late_is_believed() {
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (bot, sent, channels) = code_in_seat_1_on_a_ring();
        let time = Cell::new(0.0);
        let clock = || time.get();
        let heard = NewsLog::default();
        let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
        record(&bot, Kind::Ready, "", 0.0);
        driver.step();
        time.set(10.0);
        record(&bot, Kind::Line, "WAIT", 10.0);
        driver.step();
        // Written at 55 ms (45 ms into the turn), read at 95 ms.
        time.set(95.0);
        record(&bot, Kind::Line, "WAIT", 55.0);
        driver.step();
        assert_eq!(sent.borrow().len(), 3, "the third turn");
        drop(driver);
        let turns = turns_of(&heard.0.borrow());
        // Ice and Fire's seats take turns: the bot's second turn is the third record.
        assert_eq!(turns[2].seats[0].time_ms, 45.0);
        assert!(turns.iter().all(|t| t.seats[0].fault.is_none()));
    }

    /// On a ring a record of input received is not the runtime's: the bot is out for it.
    #[test]
    fn on_a_ring_a_received_record_is_tampering() {
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (bot, _sent, channels) = code_in_seat_1_on_a_ring();
        let time = Cell::new(0.0);
        let clock = || time.get();
        let heard = NewsLog::default();
        let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
        record(&bot, Kind::Ready, "", 0.0);
        driver.step();
        time.set(5.0);
        record(&bot, Kind::Received, "0", 5.0);
        let faults = my_faults(&mut driver, &time, &heard);
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!(faults[0].kind, FaultKind::Crash);
        assert!(faults[0].text.contains("tampered"), "{faults:?}");
    }

    /// On messages, the delivery is credited once a turn: a second record of input received
    /// moves nothing.
    #[test]
    fn on_messages_input_received_is_credited_once_a_turn() {
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (bot, _sent, channels) = code_in_seat_1();
        let time = Cell::new(0.0);
        let clock = || time.get();
        let heard = NewsLog::default();
        let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
        record(&bot, Kind::Ready, "", 0.0);
        driver.step();
        time.set(10.0);
        record(&bot, Kind::Line, "WAIT", 10.0);
        driver.step();
        // Sent at 10 ms; "received" at 40 ms, then again at 80 ms; the line at 120 ms.
        time.set(120.0);
        record(&bot, Kind::Received, "0", 40.0);
        record(&bot, Kind::Received, "0", 80.0);
        record(&bot, Kind::Line, "WAIT", 120.0);
        let faults = my_faults(&mut driver, &time, &heard);
        assert_eq!(faults.len(), 1, "{faults:?}");
        assert_eq!(
            (faults[0].kind, faults[0].turn),
            (FaultKind::Timeout, 2),
            "{faults:?}"
        );
    }

    /// On messages, a runtime that began to wait only after the input was sent is charged what
    /// it did before, not the delivery after: 2 ms of its own, 33 ms on the way, 35 ms of its
    /// own again is 37 ms, within the 50 ms budget.
    #[test]
    fn on_messages_the_delivery_is_credited_when_the_bot_began_to_wait_after_the_input_was_sent() {
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (bot, _sent, channels) = code_in_seat_1();
        let time = Cell::new(0.0);
        let clock = || time.get();
        let heard = NewsLog::default();
        let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
        record(&bot, Kind::Ready, "", 0.0);
        driver.step();
        time.set(10.0);
        record(&bot, Kind::Line, "WAIT", 10.0);
        driver.step();
        // Sent at 10 ms; the runtime began to wait at 12 ms, got the input at 45 ms, answered
        // at 80 ms.
        time.set(81.0);
        record(&bot, Kind::Received, "12", 45.0);
        record(&bot, Kind::Line, "WAIT", 80.0);
        let faults = my_faults(&mut driver, &time, &heard);
        assert!(faults.iter().all(|f| f.turn != 2), "{faults:?}");
        assert_eq!(faults.len(), 1, "silent from the third turn on: {faults:?}");
    }

    /// On messages, until its runtime says it received the input, a silent bot may not have it
    /// yet: it is timed out only once the longest delivery is over, and its turn counts from
    /// the input received when that comes.
    #[test]
    fn on_messages_a_bot_is_not_timed_out_while_its_input_may_be_on_its_way() {
        let start = ice_and_fire(["me", "wait"], code_against("wait"));
        let (bot, _sent, channels) = code_in_seat_1();
        let time = Cell::new(0.0);
        let clock = || time.get();
        let heard = NewsLog::default();
        let mut driver = Driver::new(start, channels, &heard, &clock).expect("a match");
        record(&bot, Kind::Ready, "", 0.0);
        driver.step();
        time.set(10.0);
        record(&bot, Kind::Line, "WAIT", 10.0);
        driver.step();
        // Past its budget and grace, then 500 ms on, nothing from the bot: it is still asked.
        for at in [170.0, 510.0] {
            time.set(at);
            driver.step();
            assert!(
                driver.seats[0].open.is_some(),
                "timed out at {at} ms while its input was on its way"
            );
        }
        // Waiting since 5 ms, it got the input at 500 ms and answered 20 ms later.
        time.set(521.0);
        record(&bot, Kind::Received, "5", 500.0);
        record(&bot, Kind::Line, "WAIT", 520.0);
        driver.step();
        // Then silent: from the input received on, its grace is the usual one.
        let faults = my_faults(&mut driver, &time, &heard);
        assert!(faults.iter().all(|f| f.turn != 2), "{faults:?}");
        assert_eq!(faults.len(), 1, "silent from the third turn on: {faults:?}");
        assert_eq!(faults[0].kind, FaultKind::Timeout, "{faults:?}");
    }
}
