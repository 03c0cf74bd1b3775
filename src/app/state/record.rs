//! The match shown and its playback: where the match is (progress), what the runner reported
//! (the record: frames, turns, outcome, faults), the viewer's cursor and speed, and the actions
//! that move them.

use std::rc::Rc;

use engine::{Fault, Frame, Origin, Outcome, Replay, Setup, SharedBot, TurnRecord};

/// How many frames after the one shown the page has the pictures of during a match and after
/// it (it asks the match worker for them).
pub const PICTURES_AHEAD: usize = 16;

/// Where the shown match is.
#[derive(Clone, Debug, PartialEq)]
pub enum Progress {
    /// No match yet.
    Idle,
    /// A replay (from a link or a file) is shown; no bot ran. The text says where it came from.
    Replayed(String),
    /// The bots' workers are starting.
    Starting,
    /// A language runtime is loading (the text says which).
    Loading(String),
    Running,
    Over,
    Stopped,
    Failed(String),
}

impl Progress {
    pub fn is_live(&self) -> bool {
        matches!(
            self,
            Progress::Starting | Progress::Loading(_) | Progress::Running
        )
    }
}

/// The match being shown: what the runner reported so far.
#[derive(Clone, Debug, Default)]
pub struct Record {
    pub game: &'static str,
    /// The match's setup (none before the first match).
    pub setup: Option<Setup>,
    pub names: Vec<String>,
    /// The bots as a share link carries them, one per seat.
    pub bots: Vec<SharedBot>,
    pub relaxed: bool,
    /// One frame for the start, then one per completed turn.
    pub frames: Vec<Rc<Frame>>,
    /// Turn `i` led from frame `i` to frame `i + 1`.
    pub turns: Vec<Rc<TurnRecord>>,
    pub outcome: Option<Outcome>,
    pub faults: Vec<Fault>,
    /// The match it took over, and where (a match played from a turn of another).
    pub from: Option<Origin>,
    /// The match is over and its match worker still keeps it: the pictures of its frames are
    /// asked for there, as during the match (`AppState::pictures_wanted`). Only the match of
    /// the page's runner may be; once it goes (`MatchNews::PicturesGone`, a new match), the
    /// page keeps them itself ([`Record::keep_pictures`]).
    pub worker_keeps: bool,
}

/// The viewer's position and playback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Cursor {
    /// The frame shown.
    pub frame: usize,
    /// Follow the newest frame as a live match goes on.
    pub follow: bool,
    pub playing: bool,
}

impl Cursor {
    /// Showing `frame`, still.
    pub fn at(frame: usize) -> Cursor {
        Cursor {
            frame,
            follow: false,
            playing: false,
        }
    }
}

impl Record {
    /// The replay of the match (as far as it went), if there is a match.
    pub fn replay(&self) -> Option<Replay> {
        let setup = self.setup.clone()?;
        let mut replay = Replay::new(
            super::entry(&setup.game).info,
            setup,
            self.names.clone(),
            self.relaxed,
            self.turns.iter().map(|t| (**t).clone()).collect(),
        );
        replay.from = self.from.clone();
        Some(replay)
    }

    /// The frame of `other` (a match that shares this one's beginning) at the turn this one
    /// shows at `frame`: the same frame while both count their turns alike there, else the first
    /// frame of that turn (or its last frame).
    pub fn same_turn(&self, frame: usize, other: &Record) -> usize {
        let turn = self.turn_number(frame);
        let last = other.frames.len().saturating_sub(1);
        if frame <= last && other.turn_number(frame) == turn {
            return frame;
        }
        (0..=last)
            .find(|&f| other.turn_number(f) >= turn)
            .unwrap_or(last)
    }

    /// Puts in the pictures the match worker sent of frames `first..`, where the record has
    /// those frames (a frame is matched by its turn).
    pub fn put_pictures(&mut self, first: usize, frames: Vec<Frame>) {
        for (slot, frame) in self.frames.iter_mut().skip(first).zip(frames) {
            if !slot.has_picture() && slot.turn == frame.turn && frame.has_picture() {
                *slot = Rc::new(frame);
            }
        }
    }

    /// Where the match worker is gone before every picture was looked at (the match failed, its
    /// host died, the match was left for a new one): gives every frame that came without its
    /// picture one kept by re-running the match's record here, as a replay is (each picture is
    /// then written when it is looked at; the game need not write its answers to the bots
    /// again): the same work as opening its link. A match that ends normally is not re-run: its
    /// match worker answers for the pictures. A frame the re-run does not give alike (the same
    /// turn, the same seats out) stays as it came; so do all if the record does not re-run (it
    /// then says why).
    pub fn keep_pictures(&mut self) -> Result<(), String> {
        if self.frames.iter().all(|f| f.has_picture()) {
            return Ok(());
        }
        let Some(replay) = self.replay() else {
            return Ok(());
        };
        // The turns the match worker sent stay: the re-run is for the frames alone.
        let referee = replay
            .rerun_for_frames(super::entry(&replay.setup.game))
            .map_err(|e| e.to_string())?;
        for (slot, kept) in self.frames.iter_mut().zip(referee.frames()) {
            if !slot.has_picture() && slot.turn == kept.turn && slot.out == kept.out {
                *slot = Rc::new(kept.clone());
            }
        }
        Ok(())
    }

    /// The number of the turn that led to `frame`, as the original game counts it: the game's
    /// own count of turns played (`Frame::turn`), so turn 1 is the first the bots play and 0
    /// the start (and, in Skyport, the handshake and the choice of weapons before turn 1). The
    /// viewer, the text view, the turn's input and output and the faults all show this number.
    ///
    /// A turn that ended the match with a fault is not counted by some games (Ice and Fire ends
    /// before its turn counter moves): its frame is numbered one after the frame before it, the
    /// number of the turn in which the fault happened.
    pub fn turn_number(&self, frame: usize) -> u32 {
        let Some(f) = self.frames.get(frame) else {
            return 0;
        };
        let before = frame
            .checked_sub(1)
            .and_then(|b| self.frames.get(b))
            .map(|b| b.turn);
        let faulted = frame
            .checked_sub(1)
            .and_then(|t| self.turns.get(t))
            .is_some_and(|t| t.seats.iter().any(|st| st.fault.is_some()));
        match before {
            Some(b) if faulted && f.turn <= b => b + 1,
            _ => f.turn,
        }
    }

    /// The number of the last turn shown so far.
    pub fn last_turn_number(&self) -> u32 {
        self.turn_number(self.frames.len().saturating_sub(1))
    }

    /// The number of the turn in which `fault` happened: the turn that led to the frame whose
    /// turn record holds it, or the turn after the last frame (a bot's process died while it
    /// was being played).
    pub fn fault_turn_number(&self, fault: &Fault) -> u32 {
        self.turns
            .iter()
            .position(|t| t.seats.iter().any(|st| st.fault.as_ref() == Some(fault)))
            .map_or(self.last_turn_number() + 1, |i| self.turn_number(i + 1))
    }

    /// The first frame after `from` whose turn had a fault.
    pub fn next_fault(&self, from: usize) -> Option<usize> {
        // Frame f shows the state after turn record f − 1.
        (from + 1..self.frames.len()).find(|&f| {
            self.turns
                .get(f - 1)
                .is_some_and(|t| t.seats.iter().any(|st| st.fault.is_some()))
        })
    }

    /// The first frame after `from` where a seat is out that was in the frame before.
    pub fn next_elimination(&self, from: usize) -> Option<usize> {
        (from + 1..self.frames.len()).find(|&f| {
            let (before, after) = (&self.frames[f - 1].out, &self.frames[f].out);
            after
                .iter()
                .enumerate()
                .any(|(seat, &out)| out && !before.get(seat).copied().unwrap_or(false))
        })
    }
}

/// Playback speeds, as multiples of the normal pace.
pub const SPEEDS: [f64; 8] = [0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0];
/// The speed a new page plays at (1×).
pub(super) const NORMAL_SPEED: usize = 2;
/// A one-click match is played back in about this many seconds at most: faster than normal when
/// it is long (Ice and Fire's 200 turns would take 50 s at 1×), never slower.
const WATCH_SECONDS: f64 = 20.0;
/// Milliseconds a frame is shown at 1× (src/app/viewer.rs plays at this pace).
pub const PLAY_FRAME_MS: f64 = 250.0;

/// The slowest speed, not below `speed`, that plays `frames` frames within [`WATCH_SECONDS`].
pub fn watch_speed(speed: usize, frames: usize) -> usize {
    (speed..SPEEDS.len())
        .find(|&i| frames as f64 * PLAY_FRAME_MS / SPEEDS[i] <= WATCH_SECONDS * 1000.0)
        .unwrap_or(SPEEDS.len() - 1)
}

impl super::AppState {
    pub(super) fn last_frame(&self) -> usize {
        self.record.frames.len().saturating_sub(1)
    }

    /// A match was started from `spec`: an empty record of it, and the cursor at its start (or,
    /// for a match taken over from a turn, at that turn; the match shown is kept to compare).
    pub(super) fn started(&mut self, spec: &crate::runner::MatchSpec) {
        self.run_requested = false;
        self.notice = None;
        let previous = std::mem::replace(&mut self.progress, Progress::Starting);
        self.compare = spec.from.as_ref().map(|_| {
            // Its match worker goes with the runner the new match replaces.
            let mut other = self.record.clone();
            if other.worker_keeps {
                Rc::make_mut(&mut other).worker_keeps = false;
            }
            super::take_over::Compare {
                other,
                other_progress: previous,
                showing_original: false,
            }
        });
        self.record = Rc::new(Record {
            game: super::entry(&spec.setup.game).info.id,
            setup: Some(spec.setup.clone()),
            names: spec.seats.iter().map(|seat| seat.name.clone()).collect(),
            bots: spec
                .seats
                .iter()
                .map(crate::runner::SeatSpec::shared)
                .collect(),
            relaxed: spec.relaxed,
            from: spec.from.as_ref().map(|take_over| take_over.origin()),
            ..Record::default()
        });
        // A one-click match plays from its start, a match taken over from the turn taken over;
        // any other follows the newest frame.
        self.watching = std::mem::take(&mut self.watch_next) || spec.from.is_some();
        self.hide_result = self.watching && spec.from.is_none();
        self.cursor = Cursor {
            frame: spec.from.as_ref().map_or(0, |take_over| take_over.turns),
            follow: !self.watching,
            playing: self.watching,
        };
        self.human.clear();
        self.human_inputs.clear();
    }

    /// What the runner reported.
    pub(super) fn absorb(&mut self, news: crate::runner::MatchNews) {
        use crate::runner::MatchNews;
        match news {
            MatchNews::Loading(text) => self.progress = Progress::Loading(text),
            MatchNews::Started => self.progress = Progress::Running,
            MatchNews::Progress { frames, turns } => {
                let record = Rc::make_mut(&mut self.record);
                record.frames.extend(frames.into_iter().map(Rc::new));
                record.turns.extend(turns.into_iter().map(Rc::new));
                if self.cursor.follow {
                    self.cursor.frame = self.last_frame();
                }
            }
            MatchNews::Pictures { first, frames } => self.put_pictures(first, frames),
            MatchNews::PicturesGone => self.pictures_gone(),
            MatchNews::Finished {
                outcome,
                faults,
                stopped,
            } => {
                self.human.clear();
                let record = Rc::make_mut(&mut self.record);
                record.outcome = outcome;
                record.faults = faults;
                // Its match worker keeps it: the pictures it lacks are asked for there (and
                // kept here only if it goes).
                record.worker_keeps = record.frames.iter().any(|f| !f.has_picture());
                self.progress = if stopped {
                    Progress::Stopped
                } else {
                    Progress::Over
                };
                if self.cursor.follow {
                    self.cursor.frame = self.last_frame();
                }
                // A one-click match still being watched: fast enough to show it all.
                if self.watching && self.cursor.playing {
                    let left = self.last_frame().saturating_sub(self.cursor.frame);
                    self.speed = watch_speed(self.speed, left);
                }
                self.watching = false;
            }
            MatchNews::Failed(why) => {
                self.human.clear();
                // Its turns so far can still be looked at (its match worker is gone).
                let _ = Rc::make_mut(&mut self.record).keep_pictures();
                self.progress = Progress::Failed(why)
            }
        }
    }

    /// Whether the pictures of the frames shown are asked for (the match is played, or over and
    /// its match worker keeps it).
    fn asks_pictures(&self) -> bool {
        self.progress.is_live() || self.record.worker_keeps
    }

    /// The pictures asked for came: they go into the record of the runner's match, the one
    /// shown or (after a match taken over, while the original is shown) the other one.
    fn put_pictures(&mut self, first: usize, frames: Vec<Frame>) {
        if self.asks_pictures() {
            Rc::make_mut(&mut self.record).put_pictures(first, frames);
        } else if let Some(compare) = self.compare.as_mut() {
            if compare.other.worker_keeps {
                Rc::make_mut(&mut compare.other).put_pictures(first, frames);
            }
        }
    }

    /// The match worker that kept the match over is gone: the page keeps its pictures itself.
    fn pictures_gone(&mut self) {
        if self.record.worker_keeps {
            Rc::make_mut(&mut self.record).worker_keeps = false;
        }
        if let Some(compare) = self.compare.as_mut() {
            if compare.other.worker_keeps {
                Rc::make_mut(&mut compare.other).worker_keeps = false;
            }
        }
        self.keep_pictures_shown();
    }

    /// The match shown is over and no match worker keeps it: every frame gets its picture here,
    /// if some lack theirs (a match whose worker went before all were looked at).
    pub(super) fn keep_pictures_shown(&mut self) {
        if self.asks_pictures() || self.record.frames.iter().all(|f| f.has_picture()) {
            return;
        }
        if let Err(why) = Rc::make_mut(&mut self.record).keep_pictures() {
            self.notice = Some(format!(
                "Some turns of this match cannot be drawn: its record does not re-run ({why})."
            ));
        }
    }

    /// Shows `frame` (the last one at most), still.
    pub(super) fn seek(&mut self, frame: usize) {
        self.cursor = Cursor::at(frame.min(self.last_frame()));
    }

    /// Steps `by` frames; stepping onto the newest frame of a live match follows it.
    pub(super) fn step(&mut self, by: isize) {
        let frame = self
            .cursor
            .frame
            .saturating_add_signed(by)
            .min(self.last_frame());
        self.cursor = Cursor {
            frame,
            follow: self.progress.is_live() && frame == self.last_frame(),
            playing: false,
        };
    }

    /// Plays or pauses; playing from the end of a finished match starts again from its start.
    pub(super) fn toggle_play(&mut self) {
        if !self.cursor.playing
            && self.cursor.frame >= self.last_frame()
            && !self.progress.is_live()
        {
            self.cursor.frame = 0;
        }
        self.cursor.playing = !self.cursor.playing;
        self.cursor.follow = false;
    }

    /// Playback advances one frame.
    pub(super) fn tick(&mut self) {
        if !self.cursor.playing {
            return;
        }
        if self.cursor.frame < self.last_frame() {
            // During the match, playback waits for the next frame's picture (asked for ahead,
            // see `pictures_wanted`).
            let next = &self.record.frames[self.cursor.frame + 1];
            if next.has_picture() || !self.asks_pictures() {
                self.cursor.frame += 1;
            }
        } else if self.progress.is_live() {
            // Caught up with a live match: follow it, unless it is being watched from its start
            // (then playback waits for the next frames).
            if !self.watching {
                self.cursor.playing = false;
                self.cursor.follow = true;
            }
        } else {
            self.cursor.playing = false;
        }
    }

    /// The frames whose pictures the page should ask the match worker for now: during the
    /// match and after it (while its match worker keeps it), those from the one shown to
    /// [`PICTURES_AHEAD`] after it that came without (the first to the last of them), so that
    /// playback finds them there.
    pub fn pictures_wanted(&self) -> Option<std::ops::Range<usize>> {
        if !self.asks_pictures() {
            return None;
        }
        let frames = &self.record.frames;
        let window = self.cursor.frame..(self.cursor.frame + PICTURES_AHEAD).min(frames.len());
        let first = window.clone().find(|&f| !frames[f].has_picture())?;
        let last = window.rev().find(|&f| !frames[f].has_picture())?;
        Some(first..last + 1)
    }

    /// Faster or slower by `by` steps of [`SPEEDS`] (or a speed chosen by index).
    pub(super) fn set_speed(&mut self, index: usize) {
        self.speed = index.min(SPEEDS.len() - 1);
    }

    /// Shows the frame `find` gives from the cursor's, if any (stops playback).
    pub(super) fn jump(&mut self, find: fn(&Record, usize) -> Option<usize>) {
        if let Some(frame) = find(&self.record, self.cursor.frame) {
            self.cursor = Cursor::at(frame);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{FaultKind, SeatTurn};

    fn frame(turn: u32) -> Rc<Frame> {
        Rc::new(Frame::written_out(
            turn,
            Vec::new(),
            Vec::new(),
            Vec::new(),
            String::new(),
            "null".into(),
        ))
    }

    fn turn(fault: Option<u32>) -> Rc<TurnRecord> {
        let mut seat = SeatTurn::new(0, 0, String::new());
        seat.fault = fault.map(|turn| Fault {
            seat: 0,
            turn,
            kind: FaultKind::Crash,
            text: "boom".into(),
        });
        Rc::new(TurnRecord { seats: vec![seat] })
    }

    #[test]
    fn turns_are_numbered_as_the_game_counts_them() {
        // Skyport: two set-up frames (turn 0), then turns 1 and 2.
        let record = Record {
            frames: vec![frame(0), frame(0), frame(0), frame(1), frame(2)],
            turns: vec![turn(None), turn(None), turn(None), turn(None)],
            ..Record::default()
        };
        let numbers: Vec<u32> = (0..5).map(|f| record.turn_number(f)).collect();
        assert_eq!(numbers, [0, 0, 0, 1, 2]);
        assert_eq!(record.last_turn_number(), 2);
        // Ice and Fire: a crash in the first turn ends the match before the count moves; it is
        // turn 1, in the viewer and in the fault.
        let record = Record {
            frames: vec![frame(0), frame(0)],
            turns: vec![turn(Some(0))],
            faults: vec![turn(Some(0)).seats[0].fault.clone().unwrap()],
            ..Record::default()
        };
        assert_eq!(record.turn_number(1), 1);
        assert_eq!(record.last_turn_number(), 1);
        assert_eq!(record.fault_turn_number(&record.faults[0]), 1);
    }

    #[test]
    fn a_watched_match_takes_twenty_seconds_at_most_and_never_slows_down() {
        // 36 frames at 1× (250 ms each): 9 s.
        assert_eq!(watch_speed(NORMAL_SPEED, 36), NORMAL_SPEED);
        // 200 frames: 50 s at 1×, 25 s at 2×, 12.5 s at 4×.
        assert_eq!(SPEEDS[watch_speed(NORMAL_SPEED, 200)], 4.0);
        // A chosen faster speed stays.
        assert_eq!(watch_speed(6, 10), 6);
        // Longer than 20 s even at the fastest: the fastest.
        assert_eq!(watch_speed(NORMAL_SPEED, 100_000), SPEEDS.len() - 1);
    }
}
