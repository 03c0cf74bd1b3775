//! What the bots wrote, per seat, waiting for the driver.
//!
//! Reader threads push each bot's lines here; the driver takes them when the referee wants
//! them. A seat's queue holds at most [`MAX_QUEUED_LINES`]: a bot that writes faster than it is
//! read blocks on its full pipe, as with a real pipe, so a flood costs no memory and never
//! delays the other seats.

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

pub const MAX_QUEUED_LINES: usize = 4_096;
/// Debug-log bytes kept per seat between two reads by the driver (the referee caps per turn).
const MAX_QUEUED_STDERR: usize = 64 * 1024;

#[derive(Default)]
struct Queues {
    lines: Vec<VecDeque<String>>,
    stderr: Vec<String>,
    closed: Vec<bool>,
    stopped: Vec<bool>,
    /// The whole match is being stopped from outside (an arena's Ctrl-C).
    halted: bool,
}

/// The shared inbox of a match.
pub struct Inbox {
    queues: Mutex<Queues>,
    changed: Condvar,
}

/// What the driver finds for a seat.
pub enum Next {
    Line(String),
    /// The bot's program ended and every line it wrote has been taken.
    Closed,
    Nothing,
}

impl Inbox {
    pub fn new(seats: usize) -> Inbox {
        Inbox {
            queues: Mutex::new(Queues {
                lines: vec![VecDeque::new(); seats],
                stderr: vec![String::new(); seats],
                closed: vec![false; seats],
                stopped: vec![false; seats],
                halted: false,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A line a bot wrote; blocks while the seat's queue is full (unless the seat was stopped).
    pub fn push_line(&self, seat: usize, line: String) {
        let mut q = self.lock();
        while q.lines[seat].len() >= MAX_QUEUED_LINES && !q.stopped[seat] {
            q = self.changed.wait(q).unwrap_or_else(|e| e.into_inner());
        }
        if !q.stopped[seat] {
            q.lines[seat].push_back(line);
        }
        self.changed.notify_all();
    }

    /// Debug-log text; beyond the cap it is dropped rather than blocking the bot.
    pub fn push_stderr(&self, seat: usize, text: &str) {
        let mut q = self.lock();
        if q.stderr[seat].len() + text.len() <= MAX_QUEUED_STDERR {
            q.stderr[seat].push_str(text);
        }
        self.changed.notify_all();
    }

    /// The bot's standard output closed.
    pub fn close(&self, seat: usize) {
        self.lock().closed[seat] = true;
        self.changed.notify_all();
    }

    /// The seat is out: drop its lines and never block its reader again.
    pub fn stop(&self, seat: usize) {
        let mut q = self.lock();
        q.stopped[seat] = true;
        q.lines[seat].clear();
        self.changed.notify_all();
    }

    /// Stops the whole match from another thread: wakes the driver, which stops every bot.
    pub fn halt(&self) {
        self.lock().halted = true;
        self.changed.notify_all();
    }

    pub fn is_halted(&self) -> bool {
        self.lock().halted
    }

    /// The next line of a seat, if there is one.
    pub fn next(&self, seat: usize) -> Next {
        let mut q = self.lock();
        let next = match q.lines[seat].pop_front() {
            Some(line) => Next::Line(line),
            None if q.closed[seat] => Next::Closed,
            None => Next::Nothing,
        };
        self.changed.notify_all();
        next
    }

    /// The debug log written since the last call.
    pub fn take_stderr(&self, seat: usize) -> String {
        std::mem::take(&mut self.lock().stderr[seat])
    }

    /// Waits until something arrives from one of `seats`, the deadline passes or the match is
    /// halted.
    pub fn wait(&self, seats: &[usize], deadline: Instant) {
        let mut q = self.lock();
        loop {
            let ready = seats
                .iter()
                .any(|&s| !q.lines[s].is_empty() || q.closed[s] || !q.stderr[s].is_empty())
                || q.halted;
            let now = Instant::now();
            if ready || now >= deadline {
                return;
            }
            q = self
                .changed
                .wait_timeout(q, deadline - now)
                .map(|(q, _)| q)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }
}
