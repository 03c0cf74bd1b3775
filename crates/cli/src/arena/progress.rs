//! The arena's progress on stderr: a bar redrawn in place when stderr is a terminal, plain
//! lines (one per tenth of the plan) when it is a file or a pipe.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

const BAR_WIDTH: usize = 30;
const REDRAW: Duration = Duration::from_millis(100);

pub struct Progress {
    total: usize,
    started: Instant,
    tty: bool,
    drawn_at: Option<Instant>,
    /// Plain mode: the last tenth reported.
    tenths: usize,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        Progress {
            total,
            started: Instant::now(),
            tty: std::io::stderr().is_terminal(),
            drawn_at: None,
            tenths: 0,
        }
    }

    /// Shows that `done` matches have finished (called on every match and now and then).
    pub fn show(&mut self, done: usize) {
        let elapsed = self.started.elapsed();
        if self.tty {
            if self.drawn_at.is_some_and(|t| t.elapsed() < REDRAW) && done < self.total {
                return;
            }
            self.drawn_at = Some(Instant::now());
            let line = bar(done, self.total, elapsed);
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{line}\x1b[K");
            let _ = err.flush();
        } else {
            let tenths = done * 10 / self.total.max(1);
            if tenths > self.tenths {
                self.tenths = tenths;
                eprintln!(
                    "botplay: {done}/{} matches played, {:.1} s",
                    self.total,
                    elapsed.as_secs_f64()
                );
            }
        }
    }

    /// Clears the bar before other text is written to stderr.
    pub fn clear(&mut self) {
        if self.tty && self.drawn_at.take().is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// `[#########.....................]  300/1000  30%  4.2 s, about 9.8 s left`
fn bar(done: usize, total: usize, elapsed: Duration) -> String {
    let total = total.max(1);
    let filled = done * BAR_WIDTH / total;
    let secs = elapsed.as_secs_f64();
    let left = if done > 0 && done < total {
        format!(
            ", about {:.0} s left",
            secs / done as f64 * (total - done) as f64
        )
    } else {
        String::new()
    };
    format!(
        "[{}{}] {done:>w$}/{total} {:>3}% {secs:.1} s{left}",
        "#".repeat(filled),
        ".".repeat(BAR_WIDTH - filled),
        done * 100 / total,
        w = total.to_string().len(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_in_proportion() {
        let b = bar(300, 1000, Duration::from_millis(4200));
        assert_eq!(
            b,
            "[#########.....................]  300/1000  30% 4.2 s, about 10 s left"
        );
        assert!(bar(0, 7, Duration::ZERO).starts_with("[......"));
        assert!(bar(7, 7, Duration::from_secs(2)).ends_with("100% 2.0 s"));
    }
}
