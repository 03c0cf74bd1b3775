//! Runs a match between bots: delivers each turn's input, times the answers, hands every line
//! to the referee, and stops bots that fault (the referee then ends their later turns itself:
//! [`Referee::retire`]). One loop for every command: `play`, `arena` and, with the rules of
//! Skyport's 2013 TCP server ([`Server::Skyport2013`]), `host`.

use std::borrow::Cow;
use std::net::TcpStream;

use std::sync::Arc;
use std::time::{Duration, Instant};

use engine::{AtDeadline, Game, LineOutcome, Referee, Replay, Verdict};

use crate::inbox::{Inbox, Next};
use crate::procs::Doing;
use crate::seats::{Client, SeatedBot};

/// How long the driver waits for a crashed bot's stderr to end before recording the crash.
const STDERR_GRACE: Duration = Duration::from_millis(500);

/// How long a local program interrupted at its deadline has to end and write its last debug
/// log (a Python traceback) before it is stopped.
const INTERRUPT_GRACE: Duration = Duration::from_millis(500);

/// "line 12" from a Python traceback that ends in `KeyboardInterrupt`: the line of its last
/// frame in the bot's own code (not in Python's library or a frozen module).
fn interrupted_line(stderr: &str) -> Option<String> {
    if !stderr.lines().any(|l| l.trim_end() == "KeyboardInterrupt") {
        return None;
    }
    stderr
        .lines()
        .rev()
        .filter_map(|l| l.trim_start().strip_prefix("File \""))
        .filter_map(|l| l.split_once("\", line "))
        .filter(|(file, _)| !file.starts_with('<') && !file.contains("/lib/python"))
        .filter_map(|(_, rest)| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<u32>().ok()
        })
        .next()
        .map(|n| format!("line {n}"))
}

/// How long a bot may take over one earlier turn of a match it takes over ([`Table::catch_up`]).
/// Those turns are untimed; this only keeps a bot that never answers from hanging the command.
const CATCH_UP_LIMIT: Duration = Duration::from_secs(10);

/// Added to the debug log of a local program that timed out without writing a single line in
/// its first turn: it most likely buffers its output (the fault follows it in the replay and
/// is printed with it).
pub const UNFLUSHED_HINT: &str =
    "[botplay] no output at all in the first turn: the program may be \
buffering its output instead of writing each answer at once. Flush stdout after each turn \
(fflush(stdout), std::endl, flush=True, System.out.flush()), or run it unchanged on a \
pseudo-terminal: --bot-pty, or the spec pty:COMMAND.\n";

/// Where the server a table stands for differs from a CodinGame pipe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Server {
    /// CodinGame's way (`play`, `arena`): a turn's input as the game writes it; a turn not
    /// complete at its budget is a timeout and the bot is stopped; lines written ahead of being
    /// asked are read as the next turn's, up to a cap.
    Pipes,
    /// Skyport's 2013 TCP server (`botplay host`), so that its clients play unchanged: no `info`
    /// line (the 2013 server had none); the lines a player sent since its last turn are dropped
    /// before its game state goes out (the server cleared its queue); a game turn ends at its
    /// budget, the host writing `{"message":"endturn"}` on the bot's behalf (recorded as its
    /// line), so fewer than three actions is no timeout; the handshake and the loadout time out
    /// without disconnecting the client.
    Skyport2013,
}

/// The line `botplay host` writes for a bot whose game turn reached its budget.
const ENDTURN: &str = r#"{"message":"endturn"}"#;

/// The bots of a match.
pub struct Table {
    server: Server,
    seats: Vec<SeatedBot>,
    /// The seat has written at least one line that the referee heard.
    answered: Vec<bool>,
    /// Seats that timed out in their first turn without writing anything.
    unflushed: Vec<usize>,
    inbox: Arc<Inbox>,
}

/// Stops a match from another thread (an arena's Ctrl-C): the driver stops every bot and
/// [`Table::play`] returns with the match unfinished.
#[derive(Clone)]
pub struct Halter(Arc<Inbox>);

impl Halter {
    pub fn halt(&self) {
        self.0.halt();
    }
}

/// One asked seat's clock.
struct Clock {
    seat: usize,
    started: Instant,
    budget_ms: u32,
    /// (Skyport 2013) A game turn: at its budget the turn ends ([`ENDTURN`]).
    soft: bool,
}

impl Clock {
    fn elapsed_ms(&self) -> f64 {
        self.ms_until(Instant::now())
    }

    /// The bot's time from the start of its turn to `at` (a line's arrival).
    fn ms_until(&self, at: Instant) -> f64 {
        at.saturating_duration_since(self.started).as_secs_f64() * 1000.0
    }

    /// When the turn's budget runs out.
    fn deadline(&self) -> Instant {
        self.started + Duration::from_millis(u64::from(self.budget_ms))
    }
}

impl Table {
    /// Starts every bot. Start-up is not counted against the bots' budgets.
    /// With `pty`, every local program runs on a pseudo-terminal.
    pub fn start(specs: &[String], game: &str, seed: i64, pty: bool) -> Result<Table, String> {
        let inbox = Arc::new(Inbox::new(specs.len()));
        let seats = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| SeatedBot::start(spec, game, i, seed, Arc::clone(&inbox), pty))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Table::of(Server::Pipes, seats, inbox))
    }

    /// Seats `botplay host`'s connected clients, in the order they connected.
    pub fn hosted(streams: Vec<TcpStream>, inbox: Arc<Inbox>) -> Result<Table, String> {
        let seats = streams
            .into_iter()
            .enumerate()
            .map(|(i, stream)| Client::start(stream, i, Arc::clone(&inbox)).map(SeatedBot::Client))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Table::of(Server::Skyport2013, seats, inbox))
    }

    fn of(server: Server, seats: Vec<SeatedBot>, inbox: Arc<Inbox>) -> Table {
        Table {
            server,
            answered: vec![false; seats.len()],
            unflushed: Vec::new(),
            seats,
            inbox,
        }
    }

    /// Seats (from 0) that timed out in their first turn without writing anything: they may
    /// buffer their output ([`UNFLUSHED_HINT`]).
    pub fn unflushed(&self) -> &[usize] {
        &self.unflushed
    }

    /// A handle that stops this match from another thread.
    pub fn halter(&self) -> Halter {
        Halter(Arc::clone(&self.inbox))
    }

    /// Plays the match to its end, or until it is halted (then the referee is not over).
    pub fn play(&mut self, referee: &mut Referee) {
        let hosted = self.server == Server::Skyport2013;
        while !referee.is_over() && !self.inbox.is_halted() {
            let asks = referee.begin_turn();
            if asks.is_empty() {
                break;
            }
            if hosted {
                self.deliver_notices(referee);
            }
            let mut clocks = Vec::new();
            for ask in &asks {
                let soft = hosted && is_game_turn(&ask.input);
                if soft {
                    self.drop_queued(ask.seat);
                } else if let Some(why) = self.inbox.overflow(ask.seat).filter(|_| !hosted) {
                    // Written before this turn's input: without reading its input.
                    referee.flood(ask.seat, &why, 0.0);
                    self.stop(referee, ask.seat);
                    continue;
                }
                let started = Instant::now();
                self.seats[ask.seat].begin_turn(started);
                clocks.push(Clock {
                    seat: ask.seat,
                    started,
                    budget_ms: ask.budget_ms,
                    soft,
                });
                let input = if hosted {
                    Cow::Owned(without_info(&ask.input))
                } else {
                    Cow::Borrowed(ask.input.as_str())
                };
                self.deliver(ask.seat, &input);
            }
            self.deliver_notices(referee);
            self.collect(referee, &clocks);
        }
        if hosted {
            self.deliver_notices(referee);
        }
        for seat in &mut self.seats {
            seat.stop();
        }
    }

    /// (Skyport 2013) Drops the lines a seat sent since its last turn.
    fn drop_queued(&mut self, seat: usize) {
        while let Next::Line(..) = self.inbox.next(seat) {}
    }

    /// Re-runs the first `turns` turn records of `replay` on `referee` (fresh from
    /// [`Replay::start`]) as recorded. Before each, every asked seat's bot reads the input its
    /// seat was sent then and answers a copy of the game (which answers its requests), untimed;
    /// those answers are dropped and the recorded lines played. So each bot has seen what its
    /// seat saw when the match goes on with it.
    pub fn catch_up(
        &mut self,
        referee: &mut Referee,
        replay: &Replay,
        turns: usize,
    ) -> Result<(), String> {
        for index in 0..turns {
            let asks = referee.begin_turn();
            self.deliver_notices(referee);
            for ask in &asks {
                self.rehearse(ask.seat, &ask.input, referee.game_copy())?;
            }
            replay
                .feed_turn(referee, index, &asks)
                .map_err(|e| format!("the replay cannot be re-run: {e}"))?;
        }
        self.deliver_notices(referee);
        Ok(())
    }

    /// One earlier turn for one bot: its input, then its lines heard by a copy of the game
    /// until its turn there is complete. Its debug log of those turns is not kept.
    fn rehearse(
        &mut self,
        seat: usize,
        input: &str,
        mut game: Box<dyn Game>,
    ) -> Result<(), String> {
        self.deliver(seat, input);
        let deadline = Instant::now() + CATCH_UP_LIMIT;
        loop {
            self.inbox.take_stderr(seat);
            match self.inbox.next(seat) {
                Next::Line(line, _) => match game.hear(seat, &line) {
                    LineOutcome::Reply(text) => self.deliver(seat, &text),
                    LineOutcome::More => {}
                    LineOutcome::Done | LineOutcome::Fault(_) => return Ok(()),
                },
                Next::Closed => {
                    return Err(format!(
                        "bot {} ended while reading the earlier turns of the match: {}",
                        seat + 1,
                        self.seats[seat].ended()
                    ))
                }
                Next::Nothing if Instant::now() >= deadline => {
                    return Err(format!(
                        "bot {} did not answer one of the match's earlier turns within {} s",
                        seat + 1,
                        CATCH_UP_LIMIT.as_secs()
                    ))
                }
                Next::Nothing => self.inbox.wait(&[seat], deadline),
            }
        }
    }

    /// Hands lines to the referee until every asked seat has completed its turn or faulted.
    fn collect(&mut self, referee: &mut Referee, clocks: &[Clock]) {
        loop {
            if self.inbox.is_halted() {
                return;
            }
            self.deliver_notices(referee);
            for clock in clocks {
                self.drain(referee, clock);
            }
            let waiting = referee.waiting_for();
            let open: Vec<&Clock> = clocks
                .iter()
                .filter(|c| waiting.contains(&c.seat))
                .collect();
            let Some(deadline) = open.iter().map(|c| c.deadline()).min() else {
                // The step is over: a debug log written before the line that ended it (and
                // taken after `drain` last looked) belongs to this turn, not the next one. (A
                // WebAssembly or built-in bot writes it in order; a program's comes through a
                // pipe of its own, as it comes.)
                for clock in clocks {
                    let stderr = self.inbox.take_stderr(clock.seat);
                    if !stderr.is_empty() {
                        referee.stderr(clock.seat, &stderr);
                    }
                }
                return;
            };
            if deadline <= Instant::now() {
                for clock in open.iter().filter(|c| c.deadline() <= Instant::now()) {
                    self.expire(referee, clock);
                }
                continue;
            }
            let seats: Vec<usize> = open.iter().map(|c| c.seat).collect();
            self.inbox.wait(&seats, deadline);
        }
    }

    /// A seat's budget ran out. (Skyport 2013) A game turn ends there, its `endturn` heard as the
    /// bot's own line; the handshake or loadout is a timeout that leaves the client connected.
    fn expire(&mut self, referee: &mut Referee, clock: &Clock) {
        match (self.server, clock.soft) {
            (Server::Skyport2013, true) => {
                let budget = f64::from(clock.budget_ms);
                if let Verdict::Reply(text) = referee.line(clock.seat, ENDTURN, budget) {
                    self.deliver(clock.seat, &text);
                }
            }
            (Server::Skyport2013, false) => {
                referee.timeout(clock.seat, clock.elapsed_ms());
            }
            (Server::Pipes, _) => self.time_out(referee, clock),
        }
        self.deliver_notices(referee);
    }

    /// A seat's budget ran out: a timeout, whose words say what the bot was doing. A local
    /// program still computing is interrupted and given [`INTERRUPT_GRACE`] to end: a Python
    /// program's traceback (then the turn's debug log) names the line it was running. One that
    /// wrote nothing in its first turn and is not computing may buffer its output
    /// ([`UNFLUSHED_HINT`]).
    fn time_out(&mut self, referee: &mut Referee, clock: &Clock) {
        let seat = clock.seat;
        let elapsed = clock.elapsed_ms();
        let doing = self.seats[seat].doing();
        let mut line = None;
        if doing == Doing::Computing && self.seats[seat].interrupt() {
            self.inbox
                .wait_stderr_closed(seat, Instant::now() + INTERRUPT_GRACE);
            let stderr = self.inbox.take_stderr(seat);
            line = interrupted_line(&stderr);
            if !stderr.is_empty() {
                referee.stderr(seat, &stderr);
            }
        } else if self.seats[seat].may_buffer()
            && !self.answered[seat]
            && !self.inbox.wrote_anything(seat)
        {
            referee.stderr(seat, UNFLUSHED_HINT);
            self.unflushed.push(seat);
        }
        let seen = match doing {
            Doing::Computing => AtDeadline::Computing {
                at: line.as_deref(),
            },
            Doing::Reading => AtDeadline::WaitingForInput,
            Doing::Unknown => AtDeadline::Unknown,
        };
        referee.timeout_seen(seat, elapsed, seen);
        self.stop(referee, seat);
    }

    /// Takes what one seat wrote: debug log, then lines while its turn is open.
    fn drain(&mut self, referee: &mut Referee, clock: &Clock) {
        let seat = clock.seat;
        let stderr = self.inbox.take_stderr(seat);
        if !stderr.is_empty() {
            referee.stderr(seat, &stderr);
        }
        if !referee.waiting_for().contains(&seat) {
            return;
        }
        let overflow = self.inbox.overflow(seat);
        if let Some(why) = overflow.filter(|_| self.server == Server::Pipes) {
            referee.flood(seat, &why, clock.elapsed_ms());
            self.stop(referee, seat);
            return;
        }
        while referee.waiting_for().contains(&seat) {
            match self.inbox.next(seat) {
                Next::Line(line, at) => {
                    self.answered[seat] = true;
                    let elapsed = clock.ms_until(at);
                    if clock.soft && elapsed > f64::from(clock.budget_ms) {
                        // Too late for this turn: the 2013 server would have dropped it with
                        // the seat's queue before its next turn.
                        self.expire(referee, clock);
                        return;
                    }
                    match referee.line(seat, &line, elapsed) {
                        Verdict::Reply(text) => self.deliver(seat, &text),
                        Verdict::Fault(_) => self.stop(referee, seat),
                        Verdict::More | Verdict::Done | Verdict::NotAsked => {}
                    }
                    self.deliver_notices(referee);
                }
                Next::Closed => {
                    let elapsed = clock.elapsed_ms();
                    // A crashing bot's last words (its stderr) may come after its stdout
                    // closed: read them to their end, for a while at most (a process it
                    // started may hold its stderr open), before the crash is recorded.
                    self.inbox
                        .wait_stderr_closed(seat, Instant::now() + STDERR_GRACE);
                    let stderr = self.inbox.take_stderr(seat);
                    if !stderr.is_empty() {
                        referee.stderr(seat, &stderr);
                    }
                    let why = self.seats[seat].ended();
                    referee.crash(seat, &why, elapsed);
                    self.stop(referee, seat);
                }
                Next::Nothing => return,
            }
        }
    }

    /// Broadcasts to seats not being asked, delivered at once and untimed.
    fn deliver_notices(&mut self, referee: &mut Referee) {
        for (seat, text) in referee.take_notices() {
            if seat < self.seats.len() && !referee.is_retired(seat) {
                self.deliver(seat, &text);
            }
        }
    }

    /// Input for a seat: what it writes from now on answers it.
    fn deliver(&mut self, seat: usize, text: &str) {
        self.inbox.delivered(seat);
        self.seats[seat].deliver(text);
    }

    /// Stops a seat's bot; its later turns are the referee's to end.
    fn stop(&mut self, referee: &mut Referee, seat: usize) {
        referee.retire(seat, self.seats[seat].out_reason());
        self.inbox.stop(seat);
        self.seats[seat].stop();
    }
}

/// (Skyport 2013) Whether an input is a game state of a turn (not the handshake's `info` nor
/// turn 0).
fn is_game_turn(input: &str) -> bool {
    input.starts_with("{\"message\":\"gamestate\"")
        && !input.starts_with("{\"message\":\"gamestate\",\"turn\":0,")
}

/// (Skyport 2013) The input without our `info` line, which the 2013 server did not send.
fn without_info(input: &str) -> String {
    input
        .lines()
        .filter(|l| !l.starts_with("{\"message\":\"info\""))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skyports_inputs_are_told_apart() {
        assert!(is_game_turn(
            "{\"message\":\"gamestate\",\"turn\":3,\"players\":[]}\n"
        ));
        assert!(!is_game_turn(
            "{\"message\":\"gamestate\",\"turn\":0,\"players\":[]}\n"
        ));
        assert!(!is_game_turn("{\"message\":\"info\",\"rounds\":50}\n"));
        assert_eq!(without_info("{\"message\":\"info\",\"rounds\":50}\n"), "");
        assert_eq!(
            without_info("{\"message\":\"gamestate\"}\n"),
            "{\"message\":\"gamestate\"}\n"
        );
    }

    #[test]
    fn an_interrupted_python_program_names_its_own_line() {
        let traceback = "Traceback (most recent call last):\n  File \"/home/a/bot.py\", line 12, \
                         in <module>\n    think()\n  File \"/home/a/bot.py\", line 7, in think\n    \
                         x += 1\n  File \"/usr/lib/python3.11/heapq.py\", line 40, in push\n\
                         KeyboardInterrupt\n";
        assert_eq!(interrupted_line(traceback).as_deref(), Some("line 7"));
        assert_eq!(
            interrupted_line("  File \"bot.py\", line 3\nValueError\n"),
            None
        );
        assert_eq!(interrupted_line("KeyboardInterrupt\n"), None);
    }
}
