//! Runs a match between in-process bots: the referee's text goes in, the bots' lines come out.
//! Used by tests, benchmarks and the CLI's `builtin:` bots. Time is not measured here (built-in
//! bots answer in microseconds); each line is handed over as if it took no time.

use std::collections::VecDeque;

use engine::{Referee, Verdict};

use crate::Bot;

/// One seat's bot with the lines it wrote that the referee has not taken yet (as a pipe keeps
/// surplus lines for the next turn).
struct Seat {
    bot: Box<dyn Bot>,
    unread: VecDeque<String>,
    out: bool,
}

/// Plays the match to its end.
pub fn play(referee: &mut Referee, bots: Vec<Box<dyn Bot>>) {
    let mut seats: Vec<Seat> = bots
        .into_iter()
        .map(|bot| Seat {
            bot,
            unread: VecDeque::new(),
            out: false,
        })
        .collect();
    while !referee.is_over() {
        let asks = referee.begin_turn();
        if asks.is_empty() {
            break;
        }
        deliver_notices(referee, &mut seats);
        for ask in asks {
            answer(referee, &mut seats[ask.seat], ask.seat, &ask.input);
            deliver_notices(referee, &mut seats);
        }
    }
}

/// Broadcasts to seats not being asked: what a bot writes in answer waits as surplus lines.
fn deliver_notices(referee: &mut Referee, seats: &mut [Seat]) {
    for (seat, text) in referee.take_notices() {
        if let Some(s) = seats.get_mut(seat).filter(|s| !s.out) {
            let lines = s.bot.read(&text);
            s.unread.extend(lines);
        }
    }
}

/// Feeds one seat its input and hands its lines to the referee until its turn is complete.
fn answer(referee: &mut Referee, seat: &mut Seat, index: usize, input: &str) {
    if seat.out {
        referee.crash(index, "the bot was stopped earlier", 0.0);
        return;
    }
    seat.unread.extend(seat.bot.read(input));
    loop {
        let Some(line) = seat.unread.pop_front() else {
            // A bot that writes nothing more cannot complete its turn: as a process that waits
            // for input forever, it runs out of time.
            referee.timeout(index, f64::from(referee.budget_ms(index)) + 1.0);
            seat.out = true;
            return;
        };
        match referee.line(index, &line, 0.0) {
            Verdict::Reply(text) => {
                let lines = seat.bot.read(&text);
                seat.unread.extend(lines);
            }
            Verdict::More => {}
            Verdict::Done => return,
            Verdict::Fault(_) => {
                seat.out = true;
                return;
            }
            Verdict::NotAsked => return,
        }
    }
}
