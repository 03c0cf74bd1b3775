//! Runs a match between bots: delivers each turn's input, times the answers, hands every line
//! to the referee, and stops bots that fault.

use std::collections::VecDeque;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use engine::{Referee, Verdict};

use crate::seats::{Event, Seat};

/// The bots of a match and what they wrote that was not read yet.
pub struct Table {
    seats: Vec<Seat>,
    unread: Vec<VecDeque<String>>,
    closed: Vec<bool>,
    out: Vec<bool>,
    events: Receiver<Event>,
}

impl Table {
    /// Starts every bot. Start-up is not counted against the bots' budgets.
    pub fn start(specs: &[String], game: &str, seed: i64) -> Result<Table, String> {
        let (tx, rx) = mpsc::channel();
        let seats = specs
            .iter()
            .enumerate()
            .map(|(i, spec)| Seat::start(spec, game, i, seed, tx.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        let n = seats.len();
        Ok(Table {
            seats,
            unread: vec![VecDeque::new(); n],
            closed: vec![false; n],
            out: vec![false; n],
            events: rx,
        })
    }

    /// Plays the match to its end.
    pub fn play(&mut self, referee: &mut Referee) {
        while !referee.is_over() {
            let asks = referee.begin_turn();
            if asks.is_empty() {
                break;
            }
            let mut deadlines = Vec::new();
            for ask in &asks {
                let started = Instant::now();
                let deadline = started + Duration::from_millis(u64::from(ask.budget_ms));
                deadlines.push((ask.seat, started, deadline));
                if self.out[ask.seat] {
                    referee.crash(ask.seat, "the bot was stopped earlier", 0.0);
                    continue;
                }
                self.seats[ask.seat].deliver(&ask.input);
            }
            self.collect(referee, &deadlines);
        }
        for seat in &mut self.seats {
            seat.stop();
        }
    }

    /// Hands lines to the referee until every asked seat has completed its turn or faulted.
    fn collect(&mut self, referee: &mut Referee, clocks: &[(usize, Instant, Instant)]) {
        loop {
            // Lines already waiting (surplus from earlier turns, built-in answers) come first.
            for &(seat, started, _) in clocks {
                while referee.waiting_for().contains(&seat) {
                    let Some(line) = self.unread[seat].pop_front() else {
                        break;
                    };
                    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
                    self.hand(referee, seat, &line, elapsed);
                }
                if referee.waiting_for().contains(&seat) && self.closed[seat] {
                    let elapsed = started.elapsed().as_secs_f64() * 1000.0;
                    referee.crash(seat, "the bot's program ended", elapsed);
                    self.stop(seat);
                }
            }
            let waiting = referee.waiting_for();
            if waiting.is_empty() {
                return;
            }
            let now = Instant::now();
            let next_deadline = clocks
                .iter()
                .filter(|c| waiting.contains(&c.0))
                .map(|c| c.2)
                .min()
                .unwrap_or(now);
            if next_deadline <= now {
                for &(seat, started, deadline) in clocks {
                    if waiting.contains(&seat) && deadline <= now {
                        referee.timeout(seat, started.elapsed().as_secs_f64() * 1000.0);
                        self.stop(seat);
                    }
                }
                continue;
            }
            match self.events.recv_timeout(next_deadline - now) {
                Ok(Event::Line(seat, line)) => self.unread[seat].push_back(line),
                Ok(Event::Stderr(seat, text)) => referee.stderr(seat, &format!("{text}\n")),
                Ok(Event::Closed(seat)) => self.closed[seat] = true,
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    for seat in waiting {
                        self.closed[seat] = true;
                    }
                }
            }
        }
    }

    fn hand(&mut self, referee: &mut Referee, seat: usize, line: &str, elapsed: f64) {
        match referee.line(seat, line, elapsed) {
            Verdict::Reply(text) => self.seats[seat].deliver(&text),
            Verdict::Fault(_) => self.stop(seat),
            Verdict::More | Verdict::Done | Verdict::NotAsked => {}
        }
    }

    fn stop(&mut self, seat: usize) {
        self.out[seat] = true;
        self.seats[seat].stop();
    }
}
