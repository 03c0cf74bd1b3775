//! The workloads of the engine benchmarks (`cargo xtask bench`, `benches/engine.rs`).
//!
//! One fixed match per game between built-in bots, played four ways:
//!
//! - [`play_match`]: the whole match as the CLI's `play` and the page play it, through the
//!   [`Referee`] and [`bots::local::play`] (map generation, input text, bots, parsing, rules, a
//!   frame per step and the replay record);
//! - [`play_arena`]: the same without the frames ([`Referee::without_frames`]), as many
//!   matches whose outcomes and replays are all that is wanted;
//! - [`play_text`]: the protocol path alone, through the text layer [`Game`] without the
//!   referee's bookkeeping: each seat's input text is written, its bot reads it and answers, and
//!   the game parses the lines and steps;
//! - [`Recording::replay`]: the rules step alone, through the typed layer [`Rules`]: the actions
//!   the bots chose in that match, parsed beforehand, are applied ([`Rules::apply`]) and the turn
//!   resolved ([`Game::step`]); no text is written or read.
//!
//! A *turn* here is one [`Game::step`]: one player's turn in the alternating games (Ice and
//! Fire, Skyport, Crafting Quest 3), one resolution of both players' orders in the simultaneous
//! ones (Soak Overflow, microRTS). The tests below check that the three ways play the same
//! match, so a benchmark never measures something other than the real game.

use std::collections::VecDeque;

use std::time::Duration;

use bots::Bot;
use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use engine::{FaultKind, Game, LineOutcome, Outcome, Referee, Rules, Setup};

/// Criterion's clock for a busy machine: the CPU time of the benchmark's thread, which time
/// spent waiting for a core does not count (`cargo xtask bench --cpu`). Memory and cache
/// contention from other work still show.
pub struct ThreadCpuTime;

/// The wall clock's formatter serves for CPU time too (both are durations).
static WALL: WallTime = WallTime;

impl Measurement for ThreadCpuTime {
    type Intermediate = cpu_time::ThreadTime;
    type Value = Duration;

    fn start(&self) -> cpu_time::ThreadTime {
        cpu_time::ThreadTime::now()
    }

    fn end(&self, started: cpu_time::ThreadTime) -> Duration {
        started.elapsed()
    }

    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }

    fn zero(&self) -> Duration {
        Duration::ZERO
    }

    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }

    fn formatter(&self) -> &dyn ValueFormatter {
        WALL.formatter()
    }
}

/// A benchmark match: a setup and the built-in bot of each seat.
#[derive(Clone, Debug)]
pub struct Workload {
    /// The benchmark's name: the game id, with the bots for the extra workloads.
    pub name: String,
    pub game: &'static str,
    pub setup: Setup,
    pub bots: Vec<&'static str>,
}

impl Workload {
    fn new(game: &'static str, seed: i64, bots: &[&'static str]) -> Workload {
        let entry = games::entry(game).expect("a registered game");
        let mut setup = Setup::new(entry.info, seed);
        setup.seats = bots.len();
        Workload {
            name: game.to_string(),
            game,
            setup,
            bots: bots.to_vec(),
        }
    }

    fn named(mut self, name: &str) -> Workload {
        self.name = name.to_string();
        self
    }

    /// A fresh game of this setup.
    pub fn game(&self) -> Box<dyn Game> {
        games::new_game(&self.setup).expect("a valid setup")
    }

    /// Fresh built-in bots, seeded as the CLI and the page seed them.
    pub fn new_bots(&self) -> Vec<Box<dyn Bot>> {
        self.bots
            .iter()
            .enumerate()
            .map(|(seat, name)| {
                bots::builtin(self.game, name, bots::bot_seed(self.setup.seed, seat))
                    .expect("a built-in bot")
            })
            .collect()
    }

    /// The bots' names as the referee records them.
    pub fn names(&self) -> Vec<String> {
        self.bots.iter().map(|b| format!("builtin:{b}")).collect()
    }
}

/// One match per game between built-in bots, each on a seed where the match runs to its turn
/// limit (the longest, steadiest work; a test checks each length): the strongest bot against
/// itself where such a match lasts (the others win early), random against random in Ice and
/// Fire, where `expander` takes an HQ within about 40 turns on every seed.
pub fn workloads() -> Vec<Workload> {
    vec![
        Workload::new("ice-and-fire", 1, &["random", "random"]),
        Workload::new("soak-overflow", 16, &["soaker", "soaker"]),
        Workload::new("micro-rts", 2, &["rush", "rush"]),
        Workload::new("skyport", 1, &["gunner", "gunner"]),
        Workload::new("crafting-quest", 1, &["crafter", "crafter"]),
    ]
}

/// The turns each workload lasts (its game's limit).
pub const WORKLOAD_TURNS: [(&str, usize); 5] = [
    // 100 turns per player.
    ("ice-and-fire", 200),
    ("soak-overflow", 100),
    ("micro-rts", 200),
    // The connect and loadout turns, then 50 rounds of one turn per player (a destroyed player
    // misses its next turn).
    ("skyport", 86),
    // 70 rounds of one turn per player on the default 50 × 50 map.
    ("crafting-quest", 140),
];

/// Two more Ice and Fire matches: between the strongest bots (`expander` takes an HQ in 28
/// turns), for the cost of a bot that thinks; and 200 turns of `wait` against `wait`, for the
/// cost of the plumbing alone (input text, parsing, turns, frames) with no rules work and no
/// thinking.
pub fn extra_workloads() -> Vec<Workload> {
    vec![
        Workload::new("ice-and-fire", 1, &["expander", "expander"]).named("ice-and-fire-expander"),
        Workload::new("ice-and-fire", 1, &["wait", "wait"]).named("ice-and-fire-wait"),
    ]
}

/// Every workload: one per game, then the extra ones.
pub fn all_workloads() -> Vec<Workload> {
    workloads().into_iter().chain(extra_workloads()).collect()
}

/// The workload of a game.
pub fn workload(game: &str) -> Workload {
    workloads()
        .into_iter()
        .find(|w| w.game == game)
        .expect("a benchmarked game")
}

/// The whole match as the CLI plays it: a new game (map generation included), the referee and
/// the in-process bots, to the end.
pub fn play_match(w: &Workload) -> Referee {
    let mut referee = Referee::new(w.game(), w.setup.clone(), w.names(), false);
    bots::local::play(&mut referee, w.new_bots());
    referee
}

/// [`play_match`] with a referee that keeps no frames (the same turns, outcome and replay).
pub fn play_arena(w: &Workload) -> Referee {
    let mut referee = Referee::new(w.game(), w.setup.clone(), w.names(), false).without_frames();
    bots::local::play(&mut referee, w.new_bots());
    referee
}

/// The replay of a workload's match, for re-running it through the referee.
pub fn replay_of(w: &Workload) -> engine::Replay {
    play_arena(w).replay()
}

/// The referee alone re-running a recorded match from its lines (no bot thinks): with a frame
/// per step, as the page and `botplay replay` do, or without (`frames` false), as an arena does.
pub fn rerun(w: &Workload, replay: &engine::Replay, frames: bool) -> Referee {
    let entry = games::entry(w.game).expect("a registered game");
    let rerun = if frames {
        replay.rerun(entry)
    } else {
        replay.rerun_without_frames(entry)
    };
    rerun.expect("the workload's own replay re-runs")
}

/// A re-run's frames as the page's match worker sends them to a page following the match, in
/// one batch of news: each frame with its numbers only (its turn, who is out, its key numbers),
/// and the newest with its picture, written out (the page asks for the pictures of other frames
/// it shows): the cost of a match in the page beside [`rerun`]. Returns the bytes written.
pub fn send_frames(referee: &Referee) -> usize {
    let frames = referee.frames();
    let Some((newest, before)) = frames.split_last() else {
        return 0;
    };
    let sent: Vec<engine::Frame> = before
        .iter()
        .map(engine::Frame::numbers_only)
        .chain([newest.clone()])
        .collect();
    serde_json::to_string(&sent).map_or(0, |json| json.len())
}

/// Every frame's view read as the page's painter of the game reads it, into the game's own view
/// type: handed over as that type by the frame's kept scene ([`engine::Frame::view`]), or
/// (`json`) written as JSON text and read back, as a frame that came from the match worker is
/// (and as every frame was before). Returns how many views were read.
pub fn read_views(w: &Workload, frames: &[engine::Frame], json: bool) -> usize {
    fn read<V: serde::de::DeserializeOwned + 'static>(
        frames: &[engine::Frame],
        json: bool,
    ) -> usize {
        let read = |frame: &engine::Frame| {
            if json {
                serde_json::from_str::<V>(&frame.view_json()).is_ok()
            } else {
                frame
                    .view()
                    .is_some_and(|view| view.downcast::<V>().is_ok())
            }
        };
        frames.iter().filter(|f| read(f)).count()
    }
    use games::*;
    match w.game {
        "ice-and-fire" => read::<ice_and_fire::view::View>(frames, json),
        "soak-overflow" => read::<soak_overflow::view::View>(frames, json),
        "micro-rts" => read::<micro_rts::view::View>(frames, json),
        "skyport" => read::<skyport::view::View>(frames, json),
        "crafting-quest" => read::<crafting_quest::view::View>(frames, json),
        game => panic!("no view type for {game}"),
    }
}

/// What [`play_text`] played: how many turns, and how the match ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TextRun {
    pub turns: u32,
    pub outcome: Option<Outcome>,
}

/// The protocol path without the referee: every turn, each asked seat's input text is written,
/// its bot reads it and writes lines, and the game hears them (replies and broadcasts go back
/// to the bots) and steps. The lines reach the game in the same order as through
/// [`bots::local::play`], so the match is the same; frames and the replay record are not made.
pub fn play_text(game: &mut dyn Game, bots: &mut [Box<dyn Bot>]) -> TextRun {
    let seats = bots.len();
    let mut unread: Vec<VecDeque<String>> = vec![VecDeque::new(); seats];
    let mut out = vec![false; seats];
    let mut notices = game.take_notices();
    let mut turns = 0;
    while game.outcome().is_none() {
        let asked = game.to_move();
        if asked.is_empty() {
            break;
        }
        let inputs: Vec<(usize, String)> = asked.iter().map(|&s| (s, game.input(s))).collect();
        deliver(&mut notices, bots, &mut unread, &out);
        for (seat, input) in inputs {
            if out[seat] {
                game.fault(seat, FaultKind::Crash);
            } else {
                unread[seat].extend(bots[seat].read(&input));
                loop {
                    let Some(line) = unread[seat].pop_front() else {
                        game.fault(seat, FaultKind::Timeout);
                        out[seat] = true;
                        break;
                    };
                    let heard = game.hear(seat, &line);
                    notices.extend(game.take_notices());
                    match heard {
                        LineOutcome::Reply(text) => unread[seat].extend(bots[seat].read(&text)),
                        LineOutcome::More => {}
                        LineOutcome::Done => break,
                        LineOutcome::Fault(_) => {
                            out[seat] = true;
                            break;
                        }
                    }
                }
            }
            notices.extend(game.take_notices());
            deliver(&mut notices, bots, &mut unread, &out);
        }
        game.step();
        turns += 1;
        notices.extend(game.take_notices());
    }
    TextRun {
        turns,
        outcome: game.outcome(),
    }
}

/// Broadcasts to the bots still in: what they write in answer waits for their next turn.
fn deliver(
    notices: &mut Vec<(usize, String)>,
    bots: &mut [Box<dyn Bot>],
    unread: &mut [VecDeque<String>],
    out: &[bool],
) {
    for (seat, text) in notices.drain(..) {
        if seat < bots.len() && !out[seat] {
            unread[seat].extend(bots[seat].read(&text));
        }
    }
}

/// A match of a workload in typed form: the start of the match and, per turn, each seat's
/// action as the game parsed it from what the bot wrote.
#[derive(Clone, Debug)]
pub struct Recording<R: Rules> {
    start: R,
    turns: Vec<Vec<(usize, R::Action)>>,
}

impl<R: Rules> Recording<R> {
    /// Plays the workload through the referee and parses every seat's lines of every turn, on
    /// the state the game had then. An `Err` names a turn the typed layer cannot express (a
    /// fault, or lines that do not parse).
    pub fn of(w: &Workload) -> Result<Recording<R>, String> {
        let referee = play_match(w);
        let start = R::create(&w.setup).map_err(|e| e.to_string())?;
        let mut game = start.clone();
        let mut turns = Vec::new();
        for (i, turn) in referee.turns().iter().enumerate() {
            let mut actions = Vec::new();
            for st in &turn.seats {
                if let Some(f) = &st.fault {
                    return Err(format!("turn {i}: {f}"));
                }
                let action = game
                    .parse_action(st.seat, &st.lines)
                    .map_err(|e| format!("turn {i}, seat {}: {e}", st.seat))?;
                game.apply(st.seat, &action)
                    .map_err(|e| format!("turn {i}, seat {}: {e}", st.seat))?;
                actions.push((st.seat, action));
            }
            game.step();
            turns.push(actions);
        }
        Ok(Recording { start, turns })
    }

    /// The number of turns.
    pub fn turns(&self) -> usize {
        self.turns.len()
    }

    /// The rules step alone: from the start, every turn's actions applied and the turn
    /// resolved. Returns the game at the end.
    pub fn replay(&self) -> R {
        self.replay_from(self.start.clone())
    }

    /// [`Recording::replay`] on a copy of the start made beforehand.
    pub fn replay_from(&self, mut game: R) -> R {
        for turn in &self.turns {
            for (seat, action) in turn {
                let _ = game.apply(*seat, action);
            }
            game.step();
        }
        game
    }
}

/// [`Recording::of`] for a game id, type-erased: what a benchmark needs to replay it.
pub fn recording(w: &Workload) -> Result<Box<dyn Replayable>, String> {
    use games::{crafting_quest, ice_and_fire, micro_rts, skyport, soak_overflow};
    Ok(match w.game {
        "ice-and-fire" => Box::new(Recording::<ice_and_fire::IceAndFire>::of(w)?),
        "soak-overflow" => Box::new(Recording::<soak_overflow::SoakOverflow>::of(w)?),
        "micro-rts" => Box::new(Recording::<micro_rts::MicroRts>::of(w)?),
        "skyport" => Box::new(Recording::<skyport::Skyport>::of(w)?),
        "crafting-quest" => Box::new(Recording::<crafting_quest::CraftingQuest>::of(w)?),
        other => return Err(format!("no typed layer known for {other}")),
    })
}

/// A recording of any game: replays it and hands back the game at the end.
pub trait Replayable {
    fn turns(&self) -> usize;
    fn replay_boxed(&self) -> Box<dyn Game>;
    /// A replay ready to run on a copy of the start made now: a benchmark makes the copy (and
    /// drops the game at the end) outside the measured time.
    fn prepared(&self) -> Box<dyn FnOnce() -> Box<dyn Game> + '_>;
}

impl<R: Rules> Replayable for Recording<R> {
    fn turns(&self) -> usize {
        Recording::turns(self)
    }

    fn replay_boxed(&self) -> Box<dyn Game> {
        Box::new(self.replay())
    }

    fn prepared(&self) -> Box<dyn FnOnce() -> Box<dyn Game> + '_> {
        let start = self.start.clone();
        Box::new(move || Box::new(self.replay_from(start)))
    }
}

#[cfg(test)]
mod tests {
    use engine::Frame;

    use super::*;

    #[test]
    fn every_game_has_one_workload() {
        let ids: Vec<&str> = workloads().iter().map(|w| w.game).collect();
        let registered: Vec<&str> = games::GAMES.iter().map(|e| e.info.id).collect();
        assert_eq!(ids, registered);
    }

    #[test]
    fn every_workload_runs_to_its_limit_without_faults() {
        for (w, (game, turns)) in workloads().iter().zip(WORKLOAD_TURNS) {
            assert_eq!(w.game, game);
            let referee = play_match(w);
            assert!(
                referee.faults().is_empty(),
                "{game}: {:?}",
                referee.faults()
            );
            assert_eq!(referee.turns().len(), turns, "{game}");
        }
        let lengths: Vec<(String, usize)> = extra_workloads()
            .iter()
            .map(|w| {
                let referee = play_match(w);
                assert!(referee.faults().is_empty(), "{}", w.name);
                (w.name.clone(), referee.turns().len())
            })
            .collect();
        assert_eq!(
            lengths,
            [
                ("ice-and-fire-expander".to_string(), 28),
                ("ice-and-fire-wait".to_string(), 200)
            ]
        );
    }

    #[test]
    fn every_frames_view_is_read_typed_and_from_json() {
        for w in workloads() {
            let referee = rerun(&w, &replay_of(&w), true);
            let frames = referee.frames();
            assert!(!frames.is_empty(), "{}", w.game);
            assert_eq!(read_views(&w, frames, false), frames.len(), "{}", w.game);
            assert_eq!(read_views(&w, frames, true), frames.len(), "{}", w.game);
        }
    }

    /// Fails unless a match of `w` played another way, to `last_frame` after `turns` turn
    /// records with `outcome`, ends as the referee's match did: the same turns, outcome and
    /// last frame.
    fn assert_ends_as(
        w: &Workload,
        referee: &Referee,
        turns: usize,
        outcome: Option<Outcome>,
        last_frame: Frame,
    ) {
        assert_eq!(turns, referee.turns().len(), "{}", w.game);
        assert_eq!(outcome, referee.outcome(), "{}", w.game);
        assert_eq!(
            Some(&last_frame),
            referee.frames().last(),
            "{}: the last frame differs",
            w.game
        );
    }

    #[test]
    fn the_protocol_path_plays_the_referees_match() {
        for w in all_workloads() {
            let referee = play_match(&w);
            let mut game = w.game();
            let run = play_text(game.as_mut(), &mut w.new_bots());
            assert_ends_as(&w, &referee, run.turns as usize, run.outcome, game.frame());
        }
    }

    #[test]
    fn a_match_without_frames_is_the_same_match() {
        for w in all_workloads() {
            let framed = play_match(&w);
            let arena = play_arena(&w);
            assert!(arena.frames().is_empty());
            assert_eq!(
                arena.replay().to_json(),
                framed.replay().to_json(),
                "{}",
                w.game
            );
            let turns = arena.turns().len();
            assert_ends_as(&w, &framed, turns, arena.outcome(), arena.frame_now());
        }
    }

    #[test]
    fn the_rules_step_plays_the_referees_match() {
        for w in all_workloads() {
            let referee = play_match(&w);
            let recording = recording(&w).unwrap_or_else(|e| panic!("{}: {e}", w.game));
            let game = recording.replay_boxed();
            let turns = recording.turns();
            assert_ends_as(&w, &referee, turns, game.outcome(), game.frame());
        }
    }
}
