//! The arena's progress on stderr: an `indicatif` bar redrawn in place when stderr is a
//! terminal, plain lines (one per tenth of the plan) when it is a file or a pipe.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// `[#########.....................]  300/1000  30% 4.2 s, about 10 s left`
const TEMPLATE: &str = "[{bar:30}] {pos:>w$}/{len} {percent:>3}% {elapsed_s}{left}";

pub struct Progress {
    total: usize,
    started: Instant,
    /// Stderr is a terminal: progress is a bar.
    tty: bool,
    /// The bar while it is shown.
    bar: Option<ProgressBar>,
    /// Plain mode: the last tenth reported.
    tenths: usize,
}

impl Progress {
    pub fn new(total: usize) -> Progress {
        Progress {
            total,
            started: Instant::now(),
            tty: std::io::stderr().is_terminal(),
            bar: None,
            tenths: 0,
        }
    }

    /// Shows that `done` matches have finished (called on every match and now and then).
    pub fn show(&mut self, done: usize) {
        if self.tty {
            let (total, started) = (self.total, self.started);
            self.bar
                .get_or_insert_with(|| terminal_bar(total, started))
                .set_position(done as u64);
            return;
        }
        let tenths = done * 10 / self.total.max(1);
        if tenths > self.tenths {
            self.tenths = tenths;
            eprintln!(
                "botplay: {done}/{} matches played, {:.1} s",
                self.total,
                self.started.elapsed().as_secs_f64()
            );
        }
    }

    /// Clears the bar before other text is written to stderr (a new one is drawn at the next
    /// [`Progress::show`]).
    pub fn clear(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
    }

    pub fn elapsed(&self) -> Duration {
        self.started.elapsed()
    }
}

/// A bar on stderr, redrawn at most 10 times a second, its clock started at `started`.
fn terminal_bar(total: usize, started: Instant) -> ProgressBar {
    let width = total.to_string().len();
    let style = ProgressStyle::with_template(&TEMPLATE.replace("w$", &width.to_string()))
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("#.")
        .with_key(
            "elapsed_s",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1} s", state.elapsed().as_secs_f64());
            },
        )
        .with_key(
            "left",
            |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let (done, total) = (state.pos(), state.len().unwrap_or(0));
                if done > 0 && done < total {
                    let secs = state.elapsed().as_secs_f64();
                    let _ = write!(
                        w,
                        ", about {:.0} s left",
                        secs / done as f64 * (total - done) as f64
                    );
                }
            },
        );
    ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::stderr_with_hz(10))
        .with_style(style)
        .with_elapsed(started.elapsed())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bar_fills_in_proportion() {
        // The bar as a terminal shows it, drawn into memory.
        let bar = terminal_bar(1000, Instant::now());
        let term = indicatif::InMemoryTerm::new(2, 100);
        bar.set_draw_target(ProgressDrawTarget::term_like(Box::new(term.clone())));
        bar.set_position(300);
        bar.tick();
        let shown = term.contents();
        assert!(
            shown.starts_with("[#########.....................]  300/1000  30% "),
            "{shown}"
        );
        assert!(
            shown.contains(" s, about ") && shown.ends_with(" s left"),
            "{shown}"
        );
        bar.set_position(1000);
        bar.tick();
        assert!(
            term.contents().contains("1000/1000 100% "),
            "{}",
            term.contents()
        );
    }
}
