//! The in-process driver: runs a match between built-in bots, the referee's text in, the bots'
//! lines out. Tests (the golden transcripts among them), benchmarks and the rules pages all play
//! through it. Time is not measured here (built-in bots answer in microseconds); each line is
//! handed over as if it took no time.
//!
//! [`play`] plays to the end; [`watch`] also tells a watcher every prompt, line and broadcast,
//! and lets it stop the match early.

use std::collections::VecDeque;

use engine::referee::STOPPED;
use engine::{Referee, Verdict};

use crate::Bot;

/// What [`watch`] tells its watcher, as it happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event<'a> {
    /// The next turn is about to begin; `turn` counts the turns completed so far.
    Turn { turn: usize },
    /// A seat is asked to play: the text it is sent. `turn` is the referee's turn index (the
    /// number of turns completed before it).
    Ask {
        turn: usize,
        seat: usize,
        input: &'a str,
    },
    /// A line the asked seat wrote, with the game's immediate answer if it gave one.
    Line {
        seat: usize,
        line: &'a str,
        reply: Option<&'a str>,
    },
    /// Text for a seat that is not being asked (a broadcast). A stopped bot does not read it.
    Notice { seat: usize, text: &'a str },
}

/// The watcher's answer: go on, or stop the match where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    Go,
    Stop,
}

/// One seat's bot with the lines it wrote that the referee has not taken yet (as a pipe keeps
/// surplus lines for the next turn).
struct LocalSeat {
    bot: Box<dyn Bot>,
    unread: VecDeque<String>,
}

/// Plays the match to its end.
pub fn play(referee: &mut Referee, bots: Vec<Box<dyn Bot>>) {
    watch(referee, bots, |_, _| Flow::Go);
}

/// Plays the match, telling `watcher` each [`Event`] with the referee as it is then, until the
/// match ends or the watcher answers [`Flow::Stop`] (the match is then left where it is, a turn
/// possibly open).
///
/// A bot that runs out of lines in its turn has timed out (as a program waiting for input
/// forever would); a bot that timed out or faulted is stopped ([`Referee::retire`]).
pub fn watch(
    referee: &mut Referee,
    bots: Vec<Box<dyn Bot>>,
    mut watcher: impl FnMut(&Referee, Event<'_>) -> Flow,
) {
    let mut seats: Vec<LocalSeat> = bots
        .into_iter()
        .map(|bot| LocalSeat {
            bot,
            unread: VecDeque::new(),
        })
        .collect();
    let mut go = |referee: &Referee, event: Event<'_>| watcher(referee, event) == Flow::Go;
    while !referee.is_over() {
        if !go(
            referee,
            Event::Turn {
                turn: referee.turns().len(),
            },
        ) {
            return;
        }
        let asks = referee.begin_turn();
        if asks.is_empty() {
            break;
        }
        if !deliver_notices(referee, &mut seats, &mut go) {
            return;
        }
        for ask in asks {
            let event = Event::Ask {
                turn: referee.turns().len(),
                seat: ask.seat,
                input: &ask.input,
            };
            if !go(referee, event)
                || !answer(referee, &mut seats[ask.seat], ask.seat, &ask.input, &mut go)
                || !deliver_notices(referee, &mut seats, &mut go)
            {
                return;
            }
        }
    }
}

/// Broadcasts to seats not being asked: what a bot writes in answer waits as surplus lines.
/// `false`: the watcher stopped the match.
fn deliver_notices(
    referee: &mut Referee,
    seats: &mut [LocalSeat],
    go: &mut impl FnMut(&Referee, Event<'_>) -> bool,
) -> bool {
    for (seat, text) in referee.take_notices() {
        if !go(referee, Event::Notice { seat, text: &text }) {
            return false;
        }
        if referee.is_retired(seat) {
            continue;
        }
        if let Some(s) = seats.get_mut(seat) {
            let lines = s.bot.read(&text);
            s.unread.extend(lines);
        }
    }
    true
}

/// Feeds one seat its input and hands its lines to the referee until its turn is complete.
/// `false`: the watcher stopped the match.
fn answer(
    referee: &mut Referee,
    seat: &mut LocalSeat,
    index: usize,
    input: &str,
    go: &mut impl FnMut(&Referee, Event<'_>) -> bool,
) -> bool {
    seat.unread.extend(seat.bot.read(input));
    loop {
        let Some(line) = seat.unread.pop_front() else {
            // A bot that writes nothing more cannot complete its turn: as a process that waits
            // for input forever, it runs out of time.
            referee.timeout(index, f64::from(referee.budget_ms(index)) + 1.0);
            referee.retire(index, STOPPED);
            return true;
        };
        let verdict = referee.line(index, &line, 0.0);
        let reply = match &verdict {
            Verdict::Reply(text) => Some(text.as_str()),
            _ => None,
        };
        let event = Event::Line {
            seat: index,
            line: &line,
            reply,
        };
        if !go(referee, event) {
            return false;
        }
        match verdict {
            Verdict::Reply(text) => {
                let lines = seat.bot.read(&text);
                seat.unread.extend(lines);
            }
            Verdict::More => {}
            Verdict::Done | Verdict::NotAsked => return true,
            Verdict::Fault(_) => {
                referee.retire(index, STOPPED);
                return true;
            }
        }
    }
}
