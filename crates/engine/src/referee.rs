//! The referee: a pure state machine between a game and its bots.
//!
//! The referee never reads a clock and never talks to a process or a worker. A driver (the CLI,
//! the web app, a test) asks it which seats to prompt ([`Referee::begin_turn`]), delivers each
//! line a bot writes together with the time the driver measured since the turn's input was
//! delivered ([`Referee::line`]), and reports timeouts and crashes. The referee applies the time
//! budgets and output caps, records everything into a [`Replay`], and keeps a [`Frame`] per step.
//!
//! A bot its driver has stopped is [retired](Referee::retire): the referee no longer asks its
//! driver for it, and ends each of its later turns with a crash itself, in its place among the
//! seats of the turn, so that every driver applies the same rule.

use crate::game::{Fault, FaultKind, Game, LineOutcome, Outcome, Setup};
use crate::replay::{Replay, SeatTurn, TurnRecord};
use crate::Frame;

/// The longest line a bot may write, in bytes; a longer line is a [`FaultKind::Flood`].
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// The most lines a bot may write in one turn; more is a [`FaultKind::Flood`].
pub const MAX_LINES_PER_TURN: usize = 2_000;
/// The most debug-log bytes kept per seat and turn; the rest is cut with a note.
pub const MAX_STDERR_BYTES: usize = 16 * 1024;
/// The most lines a bot may write without reading its input (ahead of its turn: drivers keep
/// such lines for its next turn, as a pipe does); more is a [`FaultKind::Flood`], reported by
/// the driver through [`Referee::flood`].
pub const MAX_AHEAD_LINES: usize = MAX_LINES_PER_TURN;
/// The most output bytes a bot may write without reading its input; more is a flood.
pub const MAX_AHEAD_BYTES: usize = 1024 * 1024;
/// The most debug-log bytes a bot may write without reading its input (of which
/// [`MAX_STDERR_BYTES`] per turn are kept); more is a flood.
pub const MAX_STDERR_FLOOD_BYTES: usize = 1024 * 1024;
/// The usual reason a driver gives [`Referee::retire`]: the crash text of a stopped bot's later
/// turns.
pub const STOPPED: &str = "the bot was stopped earlier";
/// Budgets are multiplied by this in relaxed mode (slow machines, classrooms).
pub const RELAXED_FACTOR: u32 = 10;

/// A prompt for one seat: the text to deliver and the time it has to complete its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ask {
    pub seat: usize,
    pub input: String,
    pub budget_ms: u32,
}

/// What the referee made of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Deliver this text to the seat at once; its turn goes on.
    Reply(String),
    /// The seat's turn goes on.
    More,
    /// The seat's turn is complete.
    Done,
    /// The seat's turn ended with a fault (the driver stops the bot if the game put it out).
    Fault(Fault),
    /// The seat is not being asked anything now; the line was not taken (keep it for later).
    NotAsked,
}

#[derive(Clone, Debug)]
struct Pending {
    record: SeatTurn,
    budget_ms: u32,
    open: bool,
    /// The seat was retired before this turn began: why (the text of its crash).
    retired: Option<String>,
}

/// What a driver saw a bot doing at the deadline of a turn it did not answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtDeadline<'a> {
    /// The driver cannot tell.
    Unknown,
    /// Waiting for input, while the game had sent all of the turn's and waited for lines.
    WaitingForInput,
    /// Still computing; `at` is where its code was when its runtime stopped it ("line 12"), if
    /// the runtime could say.
    Computing { at: Option<&'a str> },
}

/// A timeout's text: the budget, the lines the bot wrote in the turn, and what it was doing.
fn timeout_text(budget: u32, lines: usize, seen: AtDeadline) -> String {
    let wrote = match lines {
        0 => String::new(),
        1 => "wrote 1 line and ".to_string(),
        n => format!("wrote {n} lines and "),
    };
    let head = format!("no complete answer within {budget} ms");
    match (seen, lines) {
        (AtDeadline::Unknown, 0) => head,
        (AtDeadline::Unknown, _) => format!(
            "{head}: the bot {wrote}the game was waiting for more (this turn's answer takes more \
             lines: see the rules), unless the bot was still computing (an endless loop?)"
        ),
        (AtDeadline::WaitingForInput, 0) => format!(
            "{head}: the bot was waiting for more input, but the game had sent all of this \
             turn's (does it read more lines than a turn has? see the input in the rules)"
        ),
        (AtDeadline::WaitingForInput, _) => format!(
            "{head}: the bot {wrote}then waited for its next input, but the game was waiting \
             for more lines (this turn's answer takes more lines: see the rules)"
        ),
        (AtDeadline::Computing { at }, _) => format!(
            "{head}: the bot {wrote}was still computing at the deadline{} (an endless loop, or \
             too slow for its budget?)",
            at.map(|at| format!(", in {at}")).unwrap_or_default()
        ),
    }
}

/// A match in progress between a game and its bots.
pub struct Referee {
    game: Box<dyn Game>,
    setup: Setup,
    names: Vec<String>,
    relaxed: bool,
    /// When re-running a replay, time budgets are not checked and retired seats are asked all
    /// the same (the recorded turns and faults are replayed), until [`Referee::check_time_from_now`].
    check_time: bool,
    has_played: Vec<bool>,
    /// Per seat: why its bot was stopped, once it was ([`Referee::retire`]).
    retired: Vec<Option<String>>,
    pending: Vec<Pending>,
    turns: Vec<TurnRecord>,
    /// Whether a frame is kept per step (see [`Referee::without_frames`]).
    keep_frames: bool,
    frames: Vec<Frame>,
    faults: Vec<Fault>,
    notices: Vec<(usize, String)>,
}

impl Referee {
    /// A referee for a freshly built game. `names` are the bots' names, one per seat.
    pub fn new(mut game: Box<dyn Game>, setup: Setup, names: Vec<String>, relaxed: bool) -> Self {
        let frames = vec![game.frame()];
        let seats = setup.seats;
        let notices = game.take_notices();
        Referee {
            game,
            setup,
            names,
            relaxed,
            check_time: true,
            has_played: vec![false; seats],
            retired: vec![None; seats],
            pending: Vec::new(),
            turns: Vec::new(),
            keep_frames: true,
            frames,
            faults: Vec::new(),
            notices,
        }
    }

    pub(crate) fn without_time_checks(mut self) -> Self {
        self.check_time = false;
        self
    }

    /// A referee that keeps no frames: for many matches whose outcomes and replays are all that
    /// is wanted (an arena, a benchmark). Drawing a frame after every step is a large part of a
    /// match's cost; [`Referee::frame_now`] still draws the current one, and the replay re-runs
    /// to every frame. Nothing else changes: the same turns, faults, outcome and replay.
    pub fn without_frames(mut self) -> Self {
        self.keep_frames = false;
        self.frames.clear();
        self
    }

    /// A referee whose replies nobody reads (a re-run that only draws the match): the game may
    /// leave them empty ([`Game::replies_unread`]), so the turn records hold empty replies; the
    /// frames, faults and outcome are the same.
    pub fn without_replies(mut self) -> Self {
        self.game.replies_unread();
        self
    }

    /// Budgets are checked again from now on: a match re-run from a record up to a turn goes
    /// on with bots (`Replay::start`, then a taken-over match's live turns). Seats retired
    /// meanwhile ([`Referee::retire`]) are no longer asked from now on either.
    pub fn check_time_from_now(&mut self) {
        self.check_time = true;
    }

    /// A copy of the game as it is now, to try lines on without changing the match.
    pub fn game_copy(&self) -> Box<dyn Game> {
        self.game.copy()
    }

    /// The picture of the match now (also without kept frames).
    pub fn frame_now(&self) -> Frame {
        self.game.frame()
    }

    pub fn setup(&self) -> &Setup {
        &self.setup
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    pub fn relaxed(&self) -> bool {
        self.relaxed
    }

    /// The time budget of a seat's next turn.
    pub fn budget_ms(&self, seat: usize) -> u32 {
        self.game
            .info()
            .budget_ms(!self.has_played[seat], self.relaxed)
    }

    /// Starts the next turn and returns the prompts to deliver. Empty when the match is over.
    /// While a turn is open, returns nothing new: finish it first.
    ///
    /// Retired seats ([`Referee::retire`]) get no prompt: their turns end in a crash, made by
    /// the referee as soon as every seat asked before them has completed its turn. A turn that
    /// asks only retired seats is played through at once, and the next one begins. (Not while a
    /// record is re-run: see [`Referee::retire`].)
    pub fn begin_turn(&mut self) -> Vec<Ask> {
        loop {
            if self.turn_open() || self.is_over() {
                return Vec::new();
            }
            let to_move = self.game.to_move();
            if to_move.is_empty() {
                return Vec::new();
            }
            let turn = self.game.turn();
            let mut asks = Vec::new();
            for seat in to_move {
                let input = self.game.input(seat);
                let budget_ms = self.budget_ms(seat);
                self.has_played[seat] = true;
                // A turn re-run from a record is played as recorded, whoever was retired since:
                // the record says how each seat's turn ended.
                let retired = self.retired.get(seat).cloned().flatten();
                let retired = retired.filter(|_| self.check_time);
                if retired.is_none() {
                    asks.push(Ask {
                        seat,
                        input: input.clone(),
                        budget_ms,
                    });
                }
                self.pending.push(Pending {
                    record: SeatTurn::new(seat, turn, input),
                    budget_ms,
                    open: true,
                    retired,
                });
            }
            self.settle();
            if !asks.is_empty() {
                return asks;
            }
        }
    }

    /// The seat's bot was stopped by its driver (it timed out, wrote too much, crashed, or was
    /// put out for any reason of the driver's): it plays no more. Each of its later turns ends
    /// with a crash whose text is `why`, in its place in the turn's order (after the seats asked
    /// before it); [`Referee::begin_turn`] no longer prompts it. A turn of the seat that is open
    /// now is not ended by this: report what stopped the bot first (a timeout, crash or flood).
    /// Retiring a seat again keeps the first reason. While a record is re-run
    /// ([`Replay::start`]), its turns are still played as recorded: retirement counts from
    /// the live turns on ([`Referee::check_time_from_now`]).
    pub fn retire(&mut self, seat: usize, why: &str) {
        if let Some(slot) = self.retired.get_mut(seat) {
            if slot.is_none() {
                *slot = Some(why.to_string());
            }
        }
    }

    /// Whether the seat's bot was stopped ([`Referee::retire`]): broadcasts need not reach it.
    pub fn is_retired(&self, seat: usize) -> bool {
        self.retired.get(seat).is_some_and(Option::is_some)
    }

    /// Whether some seat of the current turn has not completed it yet.
    pub fn turn_open(&self) -> bool {
        self.pending.iter().any(|p| p.open)
    }

    /// The seats still expected to answer in the current turn (retired seats are not: the
    /// referee ends their turns itself).
    pub fn waiting_for(&self) -> Vec<usize> {
        self.pending
            .iter()
            .filter(|p| p.open && p.retired.is_none())
            .map(|p| p.record.seat)
            .collect()
    }

    fn pending_mut(&mut self, seat: usize) -> Option<&mut Pending> {
        self.pending
            .iter_mut()
            .find(|p| p.record.seat == seat && p.open)
    }

    /// A line the seat wrote, `elapsed_ms` after its turn's input was delivered.
    pub fn line(&mut self, seat: usize, line: &str, elapsed_ms: f64) -> Verdict {
        let check_time = self.check_time;
        let Some(p) = self.pending_mut(seat) else {
            return Verdict::NotAsked;
        };
        if check_time && elapsed_ms > f64::from(p.budget_ms) {
            let text = format!(
                "no complete answer within {} ms (took {:.0} ms)",
                p.budget_ms, elapsed_ms
            );
            return self.fail(seat, FaultKind::Timeout, text, elapsed_ms);
        }
        if line.len() > MAX_LINE_BYTES {
            let text = format!("a line longer than {MAX_LINE_BYTES} bytes");
            return self.fail(seat, FaultKind::Flood, text, elapsed_ms);
        }
        if p.record.lines.len() >= MAX_LINES_PER_TURN {
            let text = format!("more than {MAX_LINES_PER_TURN} lines in one turn");
            return self.fail(seat, FaultKind::Flood, text, elapsed_ms);
        }
        p.record.lines.push(line.to_string());
        p.record.time_ms = elapsed_ms;
        let heard = self.game.hear(seat, line);
        self.notices.extend(self.game.take_notices());
        match heard {
            LineOutcome::Reply(text) => {
                if let Some(p) = self.pending_mut(seat) {
                    p.record.replies.push(text.clone());
                }
                Verdict::Reply(text)
            }
            LineOutcome::More => Verdict::More,
            LineOutcome::Done => {
                self.close(seat);
                Verdict::Done
            }
            LineOutcome::Fault(text) => {
                let fault = self.record_fault(seat, FaultKind::Malformed, text);
                self.close(seat);
                Verdict::Fault(fault)
            }
        }
    }

    /// The seat did not complete its turn in time (the driver stopped waiting). When it wrote
    /// part of an answer, the text says so: the game was still reading (a bot that writes one
    /// line where the turn takes one per unit).
    pub fn timeout(&mut self, seat: usize, elapsed_ms: f64) -> Option<Fault> {
        self.timeout_seen(seat, elapsed_ms, AtDeadline::Unknown)
    }

    /// [`Referee::timeout`], with what the driver saw the bot doing at the deadline, which the
    /// fault's text then names: a beginner's endless loop and a bot reading more lines than the
    /// turn has look alike otherwise.
    pub fn timeout_seen(
        &mut self,
        seat: usize,
        elapsed_ms: f64,
        seen: AtDeadline,
    ) -> Option<Fault> {
        let pending = self.pending_mut(seat)?;
        let text = timeout_text(pending.budget_ms, pending.record.lines.len(), seen);
        match self.fail(seat, FaultKind::Timeout, text, elapsed_ms) {
            Verdict::Fault(f) => Some(f),
            _ => None,
        }
    }

    /// The seat's program ended or threw during its turn.
    pub fn crash(&mut self, seat: usize, message: &str, elapsed_ms: f64) -> Option<Fault> {
        self.pending_mut(seat)?;
        match self.fail(seat, FaultKind::Crash, message.to_string(), elapsed_ms) {
            Verdict::Fault(f) => Some(f),
            _ => None,
        }
    }

    /// The seat wrote more than a driver accepts outside the referee's view (more than
    /// [`MAX_AHEAD_LINES`] or [`MAX_AHEAD_BYTES`] of output, or [`MAX_STDERR_FLOOD_BYTES`] of
    /// debug log, without reading its input): a flood. `None` if the seat is not being asked.
    pub fn flood(&mut self, seat: usize, text: &str, elapsed_ms: f64) -> Option<Fault> {
        self.pending_mut(seat)?;
        match self.fail(seat, FaultKind::Flood, text.to_string(), elapsed_ms) {
            Verdict::Fault(f) => Some(f),
            _ => None,
        }
    }

    /// Debug-log text the seat wrote during its current turn (kept up to a cap).
    pub fn stderr(&mut self, seat: usize, text: &str) {
        if let Some(target) = self.stderr_target(seat) {
            append_capped(&mut target.stderr, text, MAX_STDERR_BYTES);
        }
    }

    /// The debug log of a replayed turn as it was recorded: already capped, so not cut again
    /// (a longer one, from a hand-made file, is capped as usual).
    pub(crate) fn restore_stderr(&mut self, seat: usize, text: &str) {
        if let Some(target) = self.stderr_target(seat) {
            if target.stderr.len() + text.len() <= MAX_STDERR_BYTES + CUT.len() {
                target.stderr.push_str(text);
            } else {
                append_capped(&mut target.stderr, text, MAX_STDERR_BYTES);
            }
        }
    }

    /// Where a seat's debug log goes: its current turn, or else its last completed one.
    fn stderr_target(&mut self, seat: usize) -> Option<&mut SeatTurn> {
        match self
            .pending
            .iter_mut()
            .rev()
            .find(|p| p.record.seat == seat)
        {
            Some(p) => Some(&mut p.record),
            None => self
                .turns
                .last_mut()
                .and_then(|t| t.seats.iter_mut().find(|s| s.seat == seat)),
        }
    }

    pub(crate) fn fail(
        &mut self,
        seat: usize,
        kind: FaultKind,
        text: String,
        elapsed_ms: f64,
    ) -> Verdict {
        let fault = self.game_fault(seat, kind, text, elapsed_ms);
        self.close(seat);
        Verdict::Fault(fault)
    }

    /// Tells the game of a seat's fault and records it; the seat's turn stays open.
    fn game_fault(&mut self, seat: usize, kind: FaultKind, text: String, elapsed_ms: f64) -> Fault {
        if let Some(p) = self.pending_mut(seat) {
            p.record.time_ms = elapsed_ms;
        }
        self.game.fault(seat, kind);
        self.notices.extend(self.game.take_notices());
        self.record_fault(seat, kind, text)
    }

    fn record_fault(&mut self, seat: usize, kind: FaultKind, text: String) -> Fault {
        let fault = Fault {
            seat,
            turn: self.game.turn(),
            kind,
            text,
        };
        if let Some(p) = self.pending_mut(seat) {
            p.record.fault = Some(fault.clone());
        }
        self.faults.push(fault.clone());
        fault
    }

    fn close(&mut self, seat: usize) {
        if let Some(p) = self.pending_mut(seat) {
            p.open = false;
        }
        self.settle();
    }

    /// Ends the turns of retired seats whose place has come (every seat before them in the
    /// turn has completed), then steps the game once every seat has completed.
    fn settle(&mut self) {
        while let Some(p) = self.pending.iter().find(|p| p.open) {
            let Some(why) = p.retired.clone() else {
                break;
            };
            let seat = p.record.seat;
            self.game_fault(seat, FaultKind::Crash, why, 0.0);
            if let Some(p) = self.pending_mut(seat) {
                p.open = false;
            }
        }
        if !self.turn_open() {
            self.game.step();
            self.notices.extend(self.game.take_notices());
            let seats = self.pending.drain(..).map(|p| p.record).collect();
            self.turns.push(TurnRecord { seats });
            if self.keep_frames {
                self.frames.push(self.game.frame());
            }
        }
    }

    /// Text for seats that are not being asked (broadcasts), to deliver at once, untimed.
    pub fn take_notices(&mut self) -> Vec<(usize, String)> {
        std::mem::take(&mut self.notices)
    }

    pub fn is_over(&self) -> bool {
        self.game.outcome().is_some() && !self.turn_open()
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// One frame for the start and one per completed turn (none [`Referee::without_frames`]).
    pub fn frames(&self) -> &[Frame] {
        &self.frames
    }

    /// Every completed turn, with what each seat received and wrote.
    pub fn turns(&self) -> &[TurnRecord] {
        &self.turns
    }

    pub fn faults(&self) -> &[Fault] {
        &self.faults
    }

    /// The replay of the match so far.
    pub fn replay(&self) -> Replay {
        Replay::new(
            self.game.info(),
            self.setup.clone(),
            self.names.clone(),
            self.relaxed,
            self.turns.clone(),
        )
    }
}

/// The note that ends a debug log cut at its cap.
const CUT: &str = "\n[debug log cut: too long]\n";

/// Appends `text` to `buf`, keeping at most `cap` bytes and noting the cut once.
fn append_capped(buf: &mut String, text: &str, cap: usize) {
    if buf.ends_with(CUT) {
        return;
    }
    if buf.len() + text.len() <= cap {
        buf.push_str(text);
        return;
    }
    let mut end = cap.saturating_sub(buf.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    buf.push_str(&text[..end]);
    buf.push_str(CUT);
}

impl std::fmt::Debug for Referee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Referee")
            .field("setup", &self.setup)
            .field("turns", &self.turns.len())
            .field("faults", &self.faults)
            .finish_non_exhaustive()
    }
}
