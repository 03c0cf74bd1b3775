//! What the bots wrote, per seat, waiting for the driver.
//!
//! Reader threads push each bot's lines here; the driver takes them when the referee wants
//! them. A seat's queue holds at most [`MAX_QUEUED_LINES`] lines and [`MAX_QUEUED_BYTES`]
//! bytes: a bot that writes faster than it is read blocks on its full pipe, as with a real
//! pipe, so a flood costs no memory and never delays the other seats. What a bot writes
//! between two deliveries of input to it is counted: more than the referee's caps
//! ([`MAX_AHEAD_LINES`], [`MAX_AHEAD_BYTES`], [`MAX_STDERR_FLOOD_BYTES`]) is a flood
//! ([`Inbox::overflow`]).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, ErrorKind, Read};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::Instant;

use engine::referee::{MAX_AHEAD_BYTES, MAX_AHEAD_LINES, MAX_STDERR_FLOOD_BYTES};

pub const MAX_QUEUED_LINES: usize = 4_096;
/// Bytes of lines queued per seat at most (more than a flood needs, so floods are seen).
pub const MAX_QUEUED_BYTES: usize = 2 * MAX_AHEAD_BYTES;
/// Debug-log bytes kept per seat between two reads by the driver (the referee caps per turn).
const MAX_QUEUED_STDERR: usize = 64 * 1024;

/// What a seat wrote since input was last delivered to it.
#[derive(Clone, Copy, Default)]
struct Written {
    lines: usize,
    bytes: usize,
    stderr: usize,
}

#[derive(Default)]
struct Queues {
    /// Each line with the moment it arrived (the bot's clock stops then, not when the driver
    /// gets to it: a built-in bot answers while the driver is busy with the next seat).
    lines: Vec<VecDeque<(String, Instant)>>,
    /// Bytes of the lines in each queue.
    queued_bytes: Vec<usize>,
    written: Vec<Written>,
    stderr: Vec<String>,
    closed: Vec<bool>,
    /// The seat wrote at least one line (or part of one) on its standard output.
    wrote_anything: Vec<bool>,
    /// The bot's standard error closed (its reader took everything).
    stderr_closed: Vec<bool>,
    stopped: Vec<bool>,
    /// The whole match is being stopped from outside (an arena's Ctrl-C).
    halted: bool,
    /// Threads waiting on the condition variable now.
    waiters: usize,
}

/// The shared inbox of a match.
pub struct Inbox {
    queues: Mutex<Queues>,
    changed: Condvar,
}

/// What the driver finds for a seat.
pub enum Next {
    /// A line, and when it arrived.
    Line(String, Instant),
    /// The bot's program ended and every line it wrote has been taken.
    Closed,
    Nothing,
}

impl Inbox {
    pub fn new(seats: usize) -> Inbox {
        Inbox {
            queues: Mutex::new(Queues {
                lines: vec![VecDeque::new(); seats],
                queued_bytes: vec![0; seats],
                written: vec![Written::default(); seats],
                stderr: vec![String::new(); seats],
                closed: vec![false; seats],
                stderr_closed: vec![false; seats],
                wrote_anything: vec![false; seats],
                stopped: vec![false; seats],
                halted: false,
                waiters: 0,
            }),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Queues> {
        self.queues.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes the threads waiting for a change, if any. (A notification is a system call even
    /// when nobody waits, and a built-in bot's every line and every line the driver takes
    /// would make one: a large part of an arena's time.) Waiters count themselves under the
    /// lock before they wait, so none is missed.
    fn wake(&self, q: &Queues) {
        if q.waiters > 0 {
            self.changed.notify_all();
        }
    }

    /// Waits for a change (or `timeout`), counted in [`Queues::waiters`].
    fn wait_for_change<'a>(
        &self,
        mut q: MutexGuard<'a, Queues>,
        timeout: Option<std::time::Duration>,
    ) -> MutexGuard<'a, Queues> {
        q.waiters += 1;
        let mut q = match timeout {
            None => self.changed.wait(q).unwrap_or_else(|e| e.into_inner()),
            Some(t) => self
                .changed
                .wait_timeout(q, t)
                .map(|(q, _)| q)
                .unwrap_or_else(|e| e.into_inner().0),
        };
        q.waiters -= 1;
        q
    }

    /// A line a bot wrote, arriving now; blocks while the seat's queue is full (unless the
    /// seat was stopped).
    pub fn push_line(&self, seat: usize, line: String) {
        self.push_line_at(seat, line, Instant::now());
    }

    /// A line with the moment its bot's clock stopped (a built-in bot's: its turn's start plus
    /// the CPU time it used).
    pub fn push_line_at(&self, seat: usize, line: String, at: Instant) {
        let mut q = self.lock();
        while (q.lines[seat].len() >= MAX_QUEUED_LINES || q.queued_bytes[seat] >= MAX_QUEUED_BYTES)
            && !q.stopped[seat]
        {
            q = self.wait_for_change(q, None);
        }
        q.wrote_anything[seat] = true;
        if !q.stopped[seat] {
            let written = &mut q.written[seat];
            written.lines += 1;
            written.bytes += line.len() + 1;
            q.queued_bytes[seat] += line.len() + 1;
            q.lines[seat].push_back((line, at));
        }
        self.wake(&q);
    }

    /// Debug-log text (and the count of bytes the reader dropped from an overlong line); beyond
    /// the cap it is dropped rather than blocking the bot, but still counted.
    pub fn push_stderr(&self, seat: usize, text: &str, dropped: usize) {
        let mut q = self.lock();
        q.written[seat].stderr += text.len() + dropped;
        if q.stderr[seat].len() + text.len() <= MAX_QUEUED_STDERR {
            q.stderr[seat].push_str(text);
        }
        self.wake(&q);
    }

    /// Input was delivered to the seat: what it writes from now on answers it.
    pub fn delivered(&self, seat: usize) {
        self.lock().written[seat] = Written::default();
    }

    /// Why the seat is flooding, if it wrote more than the referee's caps without reading its
    /// input: since input was last delivered to it, or (as a full queue blocks its writes) in
    /// the lines still queued. The reason becomes its fault's text.
    pub fn overflow(&self, seat: usize) -> Option<String> {
        let q = self.lock();
        let mut written = q.written[seat];
        written.lines = written.lines.max(q.lines[seat].len());
        written.bytes = written.bytes.max(q.queued_bytes[seat]);
        drop(q);
        if written.lines > MAX_AHEAD_LINES {
            Some(format!(
                "more than {MAX_AHEAD_LINES} lines written without reading its input"
            ))
        } else if written.bytes > MAX_AHEAD_BYTES {
            Some(format!(
                "more than {} of output written without reading its input (a loop that prints and \
                 never reads its next input?)",
                size(MAX_AHEAD_BYTES)
            ))
        } else if written.stderr > MAX_STDERR_FLOOD_BYTES {
            Some(format!(
                "more than {} of debug log written without reading its input (a loop that prints \
                 and never reads its next input?)",
                size(MAX_STDERR_FLOOD_BYTES)
            ))
        } else {
            None
        }
    }

    /// The bot's standard output closed.
    pub fn close(&self, seat: usize) {
        let mut q = self.lock();
        q.closed[seat] = true;
        self.wake(&q);
    }

    /// The bot's standard error closed: every debug line it wrote is here.
    pub fn close_stderr(&self, seat: usize) {
        let mut q = self.lock();
        q.stderr_closed[seat] = true;
        self.wake(&q);
    }

    /// Waits until the seat's standard error has closed or the deadline passes; whether it
    /// closed. (A crashed bot's last words may arrive after its standard output closed.)
    pub fn wait_stderr_closed(&self, seat: usize, deadline: Instant) -> bool {
        let mut q = self.lock();
        loop {
            let now = Instant::now();
            if q.stderr_closed[seat] || q.halted || now >= deadline {
                return q.stderr_closed[seat];
            }
            q = self.wait_for_change(q, Some(deadline - now));
        }
    }

    /// Whether the seat wrote anything at all on its standard output so far.
    pub fn wrote_anything(&self, seat: usize) -> bool {
        self.lock().wrote_anything[seat]
    }

    /// The seat is out: drop its lines and never block its reader again.
    pub fn stop(&self, seat: usize) {
        let mut q = self.lock();
        q.stopped[seat] = true;
        q.lines[seat].clear();
        q.queued_bytes[seat] = 0;
        self.wake(&q);
    }

    /// Stops the whole match from another thread: wakes the driver, which stops every bot.
    pub fn halt(&self) {
        let mut q = self.lock();
        q.halted = true;
        self.wake(&q);
    }

    pub fn is_halted(&self) -> bool {
        self.lock().halted
    }

    /// The next line of a seat, if there is one.
    pub fn next(&self, seat: usize) -> Next {
        let mut q = self.lock();
        let next = match q.lines[seat].pop_front() {
            Some((line, at)) => {
                q.queued_bytes[seat] -= line.len() + 1;
                Next::Line(line, at)
            }
            None if q.closed[seat] => Next::Closed,
            None => Next::Nothing,
        };
        self.wake(&q);
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
            q = self.wait_for_change(q, Some(deadline - now));
        }
    }
}

/// "1 MiB", "64 KiB", "100 bytes".
fn size(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// Hands each line of a pipe (without its line ending) to `take`, with the number of bytes the
/// line had beyond `cap`, which are dropped: an endless line costs no memory. Ends when the
/// pipe closes.
pub fn read_lines(pipe: impl Read, cap: usize, mut take: impl FnMut(String, usize)) {
    let mut reader = BufReader::with_capacity(64 * 1024, pipe);
    let mut line = Vec::new();
    let mut dropped = 0;
    loop {
        let (used, complete) = match reader.fill_buf() {
            Ok([]) => {
                if !line.is_empty() || dropped > 0 {
                    take(finish_line(&mut line), dropped);
                }
                return;
            }
            Ok(buf) => {
                let (chunk, used, complete) = match buf.iter().position(|&b| b == b'\n') {
                    Some(i) => (&buf[..i], i + 1, true),
                    None => (buf, buf.len(), false),
                };
                let keep = chunk.len().min(cap.saturating_sub(line.len()));
                line.extend_from_slice(&chunk[..keep]);
                dropped += chunk.len() - keep;
                (used, complete)
            }
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        reader.consume(used);
        if complete {
            take(finish_line(&mut line), std::mem::take(&mut dropped));
        }
    }
}

/// The line read so far, without a trailing carriage return, as text (invalid UTF-8 replaced);
/// `line` is left empty for the next one. For a program's pipes and a WebAssembly bot's output.
pub fn finish_line(line: &mut Vec<u8>) -> String {
    while line.last() == Some(&b'\r') {
        line.pop();
    }
    let text = String::from_utf8_lossy(line).into_owned();
    line.clear();
    text
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::thread;
    use std::time::Duration;

    use super::*;

    /// Only waiting threads are notified ([`Inbox::wake`]): a driver waiting for a line and a
    /// reader waiting on a full queue are each woken by the other side.
    #[test]
    fn waiting_threads_are_woken() {
        let inbox = Arc::new(Inbox::new(1));
        let reader = {
            let inbox = Arc::clone(&inbox);
            thread::spawn(move || {
                thread::sleep(Duration::from_millis(50));
                // More than a queue holds: the last push waits for the driver to take one.
                for i in 0..=MAX_QUEUED_LINES {
                    inbox.push_line(0, i.to_string());
                }
            })
        };
        let start = Instant::now();
        let far = start + Duration::from_secs(60);
        inbox.wait(&[0], far);
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "not woken by a line"
        );
        while inbox.lock().lines[0].len() < MAX_QUEUED_LINES {
            inbox.wait(&[0], far);
            thread::sleep(Duration::from_millis(1));
        }
        thread::sleep(Duration::from_millis(50));
        assert!(
            !reader.is_finished(),
            "the full queue did not hold the reader"
        );
        assert!(matches!(inbox.next(0), Next::Line(line, _) if line == "0"));
        reader
            .join()
            .expect("the reader ends once a line was taken");
        assert_eq!(inbox.lock().lines[0].len(), MAX_QUEUED_LINES);
    }

    fn lines_of(input: &[u8], cap: usize) -> Vec<(String, usize)> {
        let mut out = Vec::new();
        read_lines(input, cap, |line, dropped| out.push((line, dropped)));
        out
    }

    #[test]
    fn lines_are_cut_at_the_cap_and_the_rest_counted() {
        assert_eq!(
            lines_of(b"ab\r\ncdef\n\ngh", 3),
            vec![
                ("ab".to_string(), 0),
                ("cde".to_string(), 1),
                (String::new(), 0),
                ("gh".to_string(), 0)
            ]
        );
        let long = vec![b'x'; 300_000];
        let got = lines_of(&long, 10);
        assert_eq!(got, vec![("x".repeat(10), 299_990)]);
        assert_eq!(
            lines_of(b"\xff\xfeok\n", 100),
            vec![("\u{fffd}\u{fffd}ok".to_string(), 0)]
        );
    }

    #[test]
    fn a_line_keeps_the_moment_it_arrived() {
        let inbox = Inbox::new(1);
        let before = Instant::now();
        inbox.push_line(0, "WAIT".into());
        let after = Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(30));
        // Taken 30 ms later (the driver was busy), the line still says when it came.
        match inbox.next(0) {
            Next::Line(line, at) => {
                assert_eq!(line, "WAIT");
                assert!(before <= at && at <= after);
            }
            _ => panic!("the line is there"),
        }
    }

    #[test]
    fn writing_without_reading_is_a_flood() {
        let inbox = Inbox::new(1);
        for _ in 0..MAX_AHEAD_LINES {
            inbox.push_line(0, "WAIT".into());
        }
        assert_eq!(inbox.overflow(0), None);
        inbox.push_line(0, "WAIT".into());
        let why = inbox.overflow(0).expect("a flood");
        assert!(why.contains("more than 2000 lines"), "{why}");
        // Input delivered, the lines still queued are still ahead; once taken, all is well.
        inbox.delivered(0);
        assert!(inbox.overflow(0).is_some());
        while let Next::Line(..) = inbox.next(0) {}
        assert_eq!(inbox.overflow(0), None);
        inbox.push_stderr(0, "x", MAX_STDERR_FLOOD_BYTES);
        let why = inbox.overflow(0).expect("a flood");
        assert!(why.contains("1 MiB of debug log"), "{why}");
    }
}
