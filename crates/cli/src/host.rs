//! `botplay host`: a Skyport match with the original clients over TCP on loopback.
//!
//! The host listens on `127.0.0.1:PORT`, takes the first N connections as seats 1..N (in the
//! order they connect), and drives the same [`Referee`] as `botplay play` with those sockets:
//! one JSON message per line each way, the game's own texts. What differs from a pipe is what
//! the 2013 server did on its socket, so that bots written for it connect unchanged:
//!
//! - The `info` line our server sends first is not sent over TCP (the 2013 server had none; a
//!   client reads the handshake's answer as the first line).
//! - Just before a player's game state goes out, the lines it sent since its last turn are
//!   dropped, as the 2013 server cleared the player's queue (actions sent out of turn, or after
//!   its last turn ended, are lost).
//! - A turn ends at its time budget like the original's deadline: the host then hands the
//!   referee `{"message":"endturn"}` on the bot's behalf (it is recorded in the replay as the
//!   bot's line), so a bot that sends fewer than three actions is not a timeout.
//! - A client that disconnects stays in the match: its turns are recorded as crashes and cost
//!   it the game's penalties, as a disconnected AI did in 2013 (the referee makes those crashes:
//!   [`Referee::retire`]).

use std::io::Write;
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

use engine::{Referee, Setup, Verdict};

use crate::args::HostArgs;
use crate::driver;
use crate::inbox::{Inbox, Next};

/// The line the host writes for a bot whose turn reached its budget.
const ENDTURN: &str = r#"{"message":"endturn"}"#;
/// How long a write to a client may block before the client counts as gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why hosting failed: bad usage (exit 2) or at run time (exit 1).
pub enum HostError {
    Usage(String),
    Runtime(String),
}

/// The crash text of a client's turns once it is gone.
const GONE: &str = "the client disconnected";

/// One connected client.
struct Client {
    stream: Option<TcpStream>,
}

/// One asked seat's clock (the driver's), and how its budget ends the turn.
struct Clock {
    time: driver::Clock,
    /// A game turn: at the budget the turn ends (the host sends `endturn`); otherwise (the
    /// handshake and the loadout) the budget is a timeout.
    soft: bool,
}

impl std::ops::Deref for Clock {
    type Target = driver::Clock;

    fn deref(&self) -> &driver::Clock {
        &self.time
    }
}

/// Plays a hosted match to its end and prints the result as `botplay play` does.
pub fn run(a: HostArgs, seed: i64) -> Result<(), HostError> {
    let entry = games::entry(&a.game)
        .ok_or_else(|| HostError::Usage(format!("unknown game '{}'", a.game)))?;
    if entry.info.id != "skyport" {
        return Err(HostError::Usage(format!(
            "`host` plays Skyport, whose original clients spoke TCP; '{}' has no TCP protocol",
            a.game
        )));
    }
    let mut setup = Setup::new(entry.info, seed);
    setup.seats = a.players;
    if let Some(r) = &a.ruleset {
        setup.ruleset = r.clone();
    }
    if let Some(r) = a.rounds {
        setup.options.insert("rounds".into(), r.to_string());
    }
    if let Some(m) = &a.map {
        setup.options.insert("map".into(), m.clone());
    }
    let game = (entry.new)(&setup).map_err(|e| HostError::Usage(e.to_string()))?;
    let listener = TcpListener::bind(("127.0.0.1", a.port))
        .map_err(|e| HostError::Runtime(format!("cannot listen on 127.0.0.1:{}: {e}", a.port)))?;
    let address = listener
        .local_addr()
        .map_err(|e| HostError::Runtime(e.to_string()))?;
    eprintln!(
        "botplay: {} ({}), seed {seed}{}: waiting for {} players on {address}",
        entry.info.name,
        setup.ruleset,
        if a.relaxed { ", relaxed budgets" } else { "" },
        a.players
    );
    let inbox = Arc::new(Inbox::new(a.players));
    let mut clients = Vec::new();
    let mut names = Vec::new();
    while clients.len() < a.players {
        let (stream, peer) = listener
            .accept()
            .map_err(|e| HostError::Runtime(format!("cannot accept a connection: {e}")))?;
        let seat = clients.len();
        eprintln!("botplay: player {} connected from {peer}", seat + 1);
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        let reader = stream
            .try_clone()
            .map_err(|e| HostError::Runtime(format!("cannot read from {peer}: {e}")))?;
        let lines = Arc::clone(&inbox);
        thread::spawn(move || {
            read_lines(reader, |line| lines.push_line(seat, line));
            lines.close(seat);
        });
        clients.push(Client {
            stream: Some(stream),
        });
        names.push(format!("tcp:{peer}"));
    }
    drop(listener);
    let mut referee = Referee::new(game, setup, names, a.relaxed);
    let mut table = Table { clients, inbox };
    table.play(&mut referee);
    table.close();
    print_result(&referee);
    if let Some(path) = a.replay {
        std::fs::write(&path, referee.replay().to_json())
            .map_err(|e| HostError::Runtime(format!("cannot write the replay to {path}: {e}")))?;
        eprintln!("botplay: replay written to {path}");
    }
    Ok(())
}

struct Table {
    clients: Vec<Client>,
    inbox: Arc<Inbox>,
}

impl Table {
    fn play(&mut self, referee: &mut Referee) {
        while !referee.is_over() {
            let asks = referee.begin_turn();
            if asks.is_empty() {
                break;
            }
            self.deliver_notices(referee);
            let mut clocks = Vec::new();
            for ask in &asks {
                let soft = is_game_turn(&ask.input);
                if soft {
                    self.drop_queued(ask.seat);
                }
                self.send(ask.seat, &without_info(&ask.input));
                clocks.push(Clock {
                    time: driver::Clock {
                        seat: ask.seat,
                        started: Instant::now(),
                        budget_ms: ask.budget_ms,
                    },
                    soft,
                });
            }
            self.deliver_notices(referee);
            self.collect(referee, &clocks);
        }
        self.deliver_notices(referee);
    }

    /// Hands lines to the referee until every asked seat has completed its turn.
    fn collect(&mut self, referee: &mut Referee, clocks: &[Clock]) {
        loop {
            for clock in clocks {
                self.drain(referee, clock);
            }
            let waiting = referee.waiting_for();
            let open: Vec<&Clock> = clocks
                .iter()
                .filter(|c| waiting.contains(&c.seat))
                .collect();
            let Some(deadline) = open.iter().map(|c| c.deadline()).min() else {
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

    /// A seat's budget ran out: a game turn simply ends; the handshake or loadout times out.
    fn expire(&mut self, referee: &mut Referee, clock: &Clock) {
        if clock.soft {
            let verdict = referee.line(clock.seat, ENDTURN, f64::from(clock.budget_ms));
            if let Verdict::Reply(text) = verdict {
                self.send(clock.seat, &text);
            }
        } else {
            referee.timeout(clock.seat, clock.elapsed_ms());
        }
        self.deliver_notices(referee);
    }

    /// Takes what one seat wrote while its turn is open.
    fn drain(&mut self, referee: &mut Referee, clock: &Clock) {
        let seat = clock.seat;
        while referee.waiting_for().contains(&seat) {
            match self.inbox.next(seat) {
                Next::Line(line, at) => {
                    let elapsed = clock.ms_until(at);
                    if clock.soft && elapsed > f64::from(clock.budget_ms) {
                        // Too late for this turn: the 2013 server would have dropped it with
                        // the seat's queue before its next turn.
                        self.expire(referee, clock);
                        return;
                    }
                    match referee.line(seat, &line, elapsed) {
                        Verdict::Reply(text) => self.send(seat, &text),
                        Verdict::Fault(_) => self.disconnect(referee, seat),
                        Verdict::More | Verdict::Done | Verdict::NotAsked => {}
                    }
                    self.deliver_notices(referee);
                }
                Next::Closed => {
                    referee.crash(seat, GONE, clock.elapsed_ms());
                    referee.retire(seat, GONE);
                    self.deliver_notices(referee);
                }
                Next::Nothing => return,
            }
        }
    }

    /// Drops the lines a seat sent since its last turn.
    fn drop_queued(&mut self, seat: usize) {
        while let Next::Line(..) = self.inbox.next(seat) {}
    }

    fn deliver_notices(&mut self, referee: &mut Referee) {
        for (seat, text) in referee.take_notices() {
            self.send(seat, &text);
        }
    }

    fn send(&mut self, seat: usize, text: &str) {
        let Some(client) = self.clients.get_mut(seat) else {
            return;
        };
        if text.is_empty() {
            return;
        }
        if let Some(stream) = client.stream.as_mut() {
            if stream
                .write_all(text.as_bytes())
                .and_then(|_| stream.flush())
                .is_err()
            {
                // The client went away; its reader thread reports the end.
                client.stream = None;
            }
        }
    }

    /// Ends a client's connection after a fault: its later turns are crashes.
    fn disconnect(&mut self, referee: &mut Referee, seat: usize) {
        referee.retire(seat, GONE);
        self.inbox.stop(seat);
        if let Some(stream) = self.clients[seat].stream.take() {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    /// Ends every connection: the clients see the end of the stream.
    fn close(&mut self) {
        for seat in 0..self.clients.len() {
            self.inbox.stop(seat);
            if let Some(stream) = self.clients[seat].stream.take() {
                let _ = stream.shutdown(Shutdown::Both);
            }
        }
    }
}

/// Whether an input is a game state of a turn (not the handshake's `info` nor turn 0).
fn is_game_turn(input: &str) -> bool {
    input.starts_with("{\"message\":\"gamestate\"")
        && !input.starts_with("{\"message\":\"gamestate\",\"turn\":0,")
}

/// The input without our `info` line, which the 2013 server did not send.
fn without_info(input: &str) -> String {
    input
        .lines()
        .filter(|l| !l.starts_with("{\"message\":\"info\""))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Hands each line of a connection (without its line ending) to `take`, until it closes. A
/// line longer than the referee accepts is cut one byte over (the referee faults it as a flood):
/// an endless line costs no memory.
fn read_lines(stream: TcpStream, mut take: impl FnMut(String)) {
    crate::inbox::read_lines(stream, engine::referee::MAX_LINE_BYTES + 1, |line, _| {
        take(line)
    });
}

/// `seat N NAME score S rank R` per seat (NAME as the client connected), then the faults.
fn print_result(referee: &Referee) {
    let view: Option<serde_json::Value> = referee
        .frames()
        .last()
        .and_then(|f| serde_json::from_str(&f.view_json()).ok());
    let name = |seat: usize| -> String {
        view.as_ref()
            .and_then(|v| v["players"][seat]["name"].as_str())
            .map(str::to_string)
            .unwrap_or_else(|| referee.names()[seat].clone())
    };
    if let Some(outcome) = referee.outcome() {
        for seat in 0..referee.names().len() {
            say!(
                "seat {} {} score {} rank {}",
                seat + 1,
                name(seat),
                outcome.scores[seat],
                outcome.ranks[seat]
            );
        }
        eprintln!("botplay: {}", outcome.reason);
    }
    for fault in referee.faults() {
        say!("{fault}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_told_apart() {
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
}
