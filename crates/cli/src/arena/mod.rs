//! `botplay arena`: many matches between bots, played in parallel, summed up in a table of
//! results per pair (with Wilson score intervals), faults per bot and ratings.
//!
//! - **The bots**: `--bot` specs (commands, built-in bots, share links' code bots), or a class's
//!   bots (`--class FILE`, which also gives the game, set-up, seed and matches per group), each
//!   with its name ([`crate::sources`]).
//! - **The plan** ([`plan`]): every group of `--players` different bots (every pair, with two
//!   seats) plays `--matches` matches; each seed is played in every seating (rotations of the
//!   group: seats swapped, for a pair), and seeds are derived from `--seed` alone.
//! - **The matches** are played by the same driver as `botplay play` ([`crate::driver`]), each
//!   in a worker thread of its own (`--jobs`, default: the machine's cores), and written to
//!   `--replays DIR` when asked, each replay's file named by its number, bots and seed.
//! - **The numbers** ([`stats`]) are summed in match order, whatever order the matches finish
//!   in; ratings (Weng-Lin, from the `skillratings` crate) are updated in that order too, so the
//!   same bots and seed give the same table, byte for byte, for deterministic bots.
//! - **Shards** (`--shard K/N`): one machine plays every N-th match of the plan from the K-th
//!   and writes its results as JSON; [`merge`] sums the shards' JSON in match order into the
//!   table and JSON of the whole arena, the same as one machine's.
//! - **Ctrl-C** (the `ctrlc` crate's handler, on its own thread) halts every match in flight:
//!   the driver kills their bots' processes, matches not finished by then are dropped, and the
//!   table of the finished ones is printed; the exit status is then 130.

mod merge;
mod progress;
mod report;

pub use merge::merge;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, MutexGuard};
use std::time::Duration;

use engine::{GameEntry, Referee, Setup};

use crate::args::ArenaArgs;
use crate::driver::{Halter, Table};
use crate::sources::{self, CodeDir, Source};
use arena::class::Class;
use arena::plan::{self, Planned};
use arena::report::{BotLabel, ShardRow};
use arena::stats::{self, MatchResult};

/// Why an arena ended early or never started.
pub enum ArenaError {
    /// A bad command line (exit status 2).
    Usage(String),
    /// A bot or file could not be used (exit status 1); the table of what was played is printed.
    Runtime(String),
    /// Stopped by Ctrl-C (exit status 130); the table of what was played is printed.
    Interrupted(String),
}

/// What every match of the arena shares.
struct Config {
    entry: &'static GameEntry,
    ruleset: Option<String>,
    options: BTreeMap<String, String>,
    relaxed: bool,
    /// The bots: what runs each, and its name.
    bots: Vec<Source>,
    /// Every local program on a pseudo-terminal (`--bot-pty`).
    pty: bool,
    replays: Option<PathBuf>,
    /// Digits of the replay file numbers.
    width: usize,
}

/// Stops the matches in flight, from the Ctrl-C handler or after a failure.
struct Stop {
    stopping: AtomicBool,
    interrupted: AtomicBool,
    /// The match each worker is playing.
    running: Mutex<Vec<Option<Halter>>>,
}

impl Stop {
    fn new(jobs: usize) -> Stop {
        Stop {
            stopping: AtomicBool::new(false),
            interrupted: AtomicBool::new(false),
            running: Mutex::new(vec![None; jobs]),
        }
    }

    fn running(&self) -> MutexGuard<'_, Vec<Option<Halter>>> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn stop_all(&self) {
        // Set before taking the lock: a match that registers after this sees the flag.
        self.stopping.store(true, Ordering::SeqCst);
        for halter in self.running().iter().flatten() {
            halter.halt();
        }
    }

    fn interrupt(&self) {
        self.interrupted.store(true, Ordering::SeqCst);
        self.stop_all();
    }

    fn stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    /// A worker's match starts: it can now be halted (at once, if stopping already).
    fn enter(&self, worker: usize, halter: Halter) {
        let mut running = self.running();
        if self.stopping() {
            halter.halt();
        }
        running[worker] = Some(halter);
    }

    fn leave(&self, worker: usize) {
        self.running()[worker] = None;
    }
}

/// What an arena plays, from its flags or from a class.
struct Arena {
    entry: &'static GameEntry,
    ruleset: Option<String>,
    options: BTreeMap<String, String>,
    relaxed: bool,
    seed: i64,
    players: usize,
    per_group: usize,
    bots: Vec<Source>,
    /// The class's name, for a class.
    class: Option<String>,
}

fn game_entry(game: &str) -> Result<&'static GameEntry, ArenaError> {
    games::entry(game).ok_or_else(|| {
        let known: Vec<&str> = games::GAMES.iter().map(|e| e.info.id).collect();
        ArenaError::Usage(format!(
            "unknown game '{game}' (known: {})",
            known.join(", ")
        ))
    })
}

/// The arena of the flags: `--game`, `--bot`s (commands, built-in bots, share links), ...
fn of_flags(a: &ArenaArgs, seed: i64, code: &mut CodeDir) -> Result<Arena, ArenaError> {
    let play = &a.play;
    let entry = game_entry(&play.game)?;
    let info = entry.info;
    let players = a.players.unwrap_or(info.min_seats);
    if !(info.min_seats..=info.max_seats).contains(&players) {
        return Err(ArenaError::Usage(format!(
            "--players must be from {} to {} for {}, not {players}",
            info.min_seats, info.max_seats, info.id
        )));
    }
    if players > play.bots.len() {
        return Err(ArenaError::Usage(format!(
            "--players {players} needs at least {players} --bot (give a bot more than once to seat it more than once)"
        )));
    }
    let bots = play
        .bots
        .iter()
        .map(|spec| sources::of_spec(spec, code))
        .collect::<Result<Vec<_>, _>>()
        .map_err(ArenaError::Usage)?;
    Ok(Arena {
        entry,
        ruleset: play.ruleset.clone(),
        options: play.options.clone(),
        relaxed: play.relaxed,
        seed,
        players,
        per_group: a.matches,
        bots,
        class: None,
    })
}

/// The arena of a class file (or a class link): its set-up, seed, budgets, matches per group
/// and bots, each named by its class name.
fn of_class(file: &str, code: &mut CodeDir) -> Result<Arena, ArenaError> {
    let usage = |m: String| ArenaError::Usage(m);
    let link = sources::is_link(file) && !Path::new(file).exists();
    let class = if link {
        Class::from_link(file).map_err(|e| usage(format!("--class: {e}")))?
    } else {
        let text =
            std::fs::read_to_string(file).map_err(|e| usage(format!("cannot read {file}: {e}")))?;
        Class::from_json(&text).map_err(|e| usage(format!("{file}: {e}")))?
    };
    // What later messages call it (not a whole link).
    let file = if link { "the class link" } else { file };
    let entry = game_entry(&class.setup.game).map_err(|e| match e {
        ArenaError::Usage(m) => usage(format!("{file}: {m}")),
        other => other,
    })?;
    let info = entry.info;
    let players = class.setup.seats;
    if !(info.min_seats..=info.max_seats).contains(&players) {
        return Err(usage(format!(
            "{file}: {} seats, and {} takes {} to {}",
            players, info.id, info.min_seats, info.max_seats
        )));
    }
    if class.bots.len() < players.max(2) {
        return Err(usage(format!(
            "{file}: an arena of {players} seats needs at least {} bots, and the class has {}",
            players.max(2),
            class.bots.len()
        )));
    }
    let bots = class
        .bots
        .iter()
        .map(|bot| sources::of_class_bot(bot, code))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| usage(format!("{file}: {e}")))?;
    Ok(Arena {
        entry,
        ruleset: Some(class.setup.ruleset.clone()),
        options: class.setup.options.clone(),
        relaxed: class.relaxed,
        seed: class.setup.seed,
        players,
        per_group: class.matches_per_group,
        bots,
        class: Some(class.name),
    })
}

/// Runs the arena; `seed` is `--seed` or a random seed (a class has its own).
pub fn run(a: ArenaArgs, seed: i64) -> Result<(), ArenaError> {
    let usage = |m: String| ArenaError::Usage(m);
    // The bots' code, removed when the arena ends (however it ends).
    let mut code = CodeDir::new();
    let arena = match &a.class {
        Some(file) => of_class(file, &mut code)?,
        None => of_flags(&a, seed, &mut code)?,
    };
    let (entry, players, seed) = (arena.entry, arena.players, arena.seed);
    if let Some(mb) = a.play.wasm_memory {
        crate::wasm_bot::set_memory_limit_mb(mb);
    }
    check_bots(&arena.bots, entry.info.id)?;
    let total = plan::count(arena.bots.len(), players, arena.per_group).ok_or_else(|| {
        usage(format!(
            "that is more than {} matches: fewer bots or fewer --matches",
            plan::MAX_MATCHES
        ))
    })?;
    let planned = plan::plan(arena.bots.len(), players, arena.per_group, seed);
    debug_assert_eq!(planned.len(), total);
    // A shard plays every N-th match of the plan from the K-th (the slices are about as long
    // and as varied as each other, whichever bots are slow).
    let mine: Vec<Planned> = match a.shard {
        Some((k, n)) => planned
            .iter()
            .filter(|m| m.index % n == k - 1)
            .cloned()
            .collect(),
        None => planned.clone(),
    };
    let to_play = mine.len();

    let config = Config {
        entry,
        ruleset: arena.ruleset.clone(),
        options: arena.options.clone(),
        relaxed: arena.relaxed,
        bots: arena.bots.clone(),
        pty: a.play.bot_pty,
        replays: a.replays.clone().map(PathBuf::from),
        width: total.to_string().len().max(4),
    };
    // The setup is the same for every match but the seed: check it once, before any bot runs.
    let first = setup(&config, &planned[0]);
    (entry.new)(&first).map_err(|e| usage(e.to_string()))?;
    if let Some(dir) = &config.replays {
        std::fs::create_dir_all(dir).map_err(|e| {
            ArenaError::Runtime(format!(
                "cannot create the replay folder {}: {e}",
                dir.display()
            ))
        })?;
    }

    let jobs = a
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .min(to_play.max(1));
    announce(
        &arena,
        &first.ruleset,
        total,
        a.shard.map(|s| (s, to_play)),
        jobs,
    );

    let stop = Arc::new(Stop::new(jobs));
    let handler_stop = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || handler_stop.interrupt()) {
        eprintln!("botplay: Ctrl-C will not stop the arena cleanly: {e}");
    }

    let (results, failure) = play_all(&config, &mine, jobs, &stop);

    let played: Vec<&MatchResult> = results.iter().flatten().collect();
    let summary = stats::summarize(config.bots.len(), &played);
    let labels: Vec<BotLabel> = config.bots.iter().map(|b| b.label.clone()).collect();
    let ctx = report::Context {
        game: entry.info,
        ruleset: &first.ruleset,
        options: &config.options,
        relaxed: config.relaxed,
        seed,
        players,
        per_group: arena.per_group,
        planned: total,
        labels: &labels,
        interrupted: stop.interrupted(),
        shard: a.shard.map(|(k, n)| ShardRow {
            index: k,
            count: n,
            planned: to_play,
        }),
    };
    let write_failure = write_results(&ctx, &summary, &played, a.json.as_deref());
    if let Some(message) = failure.or(write_failure) {
        return Err(ArenaError::Runtime(message));
    }
    if stop.interrupted() {
        return Err(ArenaError::Interrupted(format!(
            "interrupted: {} of {to_play} matches played",
            summary.played
        )));
    }
    Ok(())
}

/// Refuses, before the first match, a bot that cannot play: a WebAssembly module that will not
/// run (compiled once for all of them), a built-in bot the game does not have.
fn check_bots(bots: &[Source], game: &str) -> Result<(), ArenaError> {
    for bot in bots {
        if crate::wasm_bot::parse_spec(&bot.run).is_some() {
            crate::wasm_bot::check_spec(&bot.run).map_err(ArenaError::Usage)?;
        }
        if let Some(name) = bot.run.strip_prefix("builtin:") {
            if bots::builtin(game, name, 0).is_none() {
                let known: Vec<&str> = bots::builtins(game).map(|b| b.name).collect();
                return Err(ArenaError::Usage(format!(
                    "no built-in bot '{name}' for {game} (known: {})",
                    known.join(", ")
                )));
            }
        }
    }
    Ok(())
}

/// Says on stderr what the arena plays: "botplay: arena of Ice and Fire (league-4), 12 matches
/// (2 per pair), 2 at a time, seed 7".
fn announce(
    arena: &Arena,
    ruleset: &str,
    total: usize,
    shard: Option<((usize, usize), usize)>,
    jobs: usize,
) {
    let shard_note = match shard {
        Some(((k, n), to_play)) => format!(", shard {k}/{n}: {to_play} of them"),
        None => String::new(),
    };
    let class_note = match &arena.class {
        Some(name) => format!(" for the class '{name}' ({} bots)", arena.bots.len()),
        None => String::new(),
    };
    let group = if arena.players == 2 {
        "pair".to_string()
    } else {
        format!("group of {}", arena.players)
    };
    let relaxed = if arena.relaxed {
        ", relaxed budgets"
    } else {
        ""
    };
    eprintln!(
        "botplay: arena of {}{class_note} ({ruleset}), {total} matches ({} per {group}){shard_note}, {jobs} at a time, seed {}{relaxed}",
        arena.entry.info.name, arena.per_group, arena.seed,
    );
}

/// Prints the table (unless the JSON goes to stdout, `--json -`) and writes the JSON when
/// asked; why the JSON could not be written, if it could not.
fn write_results(
    ctx: &report::Context,
    summary: &stats::Summary,
    played: &[&MatchResult],
    json: Option<&str>,
) -> Option<String> {
    let to_stdout = json == Some("-");
    if !to_stdout {
        print!("{}", report::text(ctx, summary));
    }
    let path = json?;
    let text = report::json(ctx, summary, played);
    if to_stdout {
        print!("{text}");
        return None;
    }
    std::fs::write(path, text)
        .err()
        .map(|e| format!("cannot write the results to {path}: {e}"))
}

/// The setup of one match.
fn setup(config: &Config, m: &Planned) -> Setup {
    let mut setup = Setup::new(config.entry.info, m.seed);
    setup.seats = m.seats.len();
    if let Some(ruleset) = &config.ruleset {
        setup.ruleset = ruleset.clone();
    }
    setup.options = config.options.clone();
    setup
}

/// Plays the plan on `jobs` worker threads. Returns every match's result by index (`None`:
/// not played, or stopped before its end) and the first failure, if one stopped the arena.
fn play_all(
    config: &Config,
    planned: &[Planned],
    jobs: usize,
    stop: &Stop,
) -> (Vec<Option<MatchResult>>, Option<String>) {
    let next = AtomicUsize::new(0);
    let mut results: Vec<Option<MatchResult>> = vec![None; planned.len()];
    let mut failure = None;
    let mut progress = progress::Progress::new(planned.len());
    // The workers send each result without waking this thread (a wake per match is a system
    // call and a switch of threads, a tenth of an arena's time when matches take a
    // millisecond): it looks at what came every 100 ms, and the last worker to end wakes it.
    let live = AtomicUsize::new(jobs);
    let main = std::thread::current();
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<(usize, Result<Option<MatchResult>, String>)>();
        for worker in 0..jobs {
            let tx = tx.clone();
            let (next, live, main) = (&next, &live, main.clone());
            scope.spawn(move || {
                // Counted out however the worker ends, a panic included.
                let _leaving = Leaving(live, main);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= planned.len() || stop.stopping() {
                        return;
                    }
                    let result = play_one(config, &planned[i], stop, worker);
                    if result.is_err() {
                        // The other matches stop at once, not when the result is read.
                        stop.stop_all();
                    }
                    if tx.send((i, result)).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut done = 0;
        let mut told = false;
        loop {
            if stop.interrupted() && !told {
                told = true;
                progress.clear();
                eprintln!("botplay: interrupted; stopping the matches in flight");
            }
            // Every worker has ended once none is live: what they sent is all there.
            let ended = live.load(Ordering::SeqCst) == 0;
            while let Ok((i, result)) = rx.try_recv() {
                match result {
                    Ok(result) => {
                        if result.is_some() {
                            done += 1;
                        }
                        results[i] = result;
                    }
                    Err(message) => {
                        if failure.is_none() {
                            failure = Some(format!("match {}: {message}", i + 1));
                            stop.stop_all();
                        }
                    }
                }
                if !stop.stopping() {
                    progress.show(done);
                }
            }
            if ended {
                break;
            }
            std::thread::park_timeout(Duration::from_millis(100));
        }
    });
    progress.clear();
    let played = results.iter().flatten().count();
    let seconds = progress.elapsed().as_secs_f64();
    eprintln!(
        "botplay: {played} matches played in {seconds:.1} s ({:.1} matches per second)",
        played as f64 / seconds.max(1e-9)
    );
    (results, failure)
}

/// A worker of [`play_all`] going away: one fewer live, and the main thread woken when none is.
struct Leaving<'a>(&'a AtomicUsize, std::thread::Thread);

impl Drop for Leaving<'_> {
    fn drop(&mut self) {
        if self.0.fetch_sub(1, Ordering::SeqCst) == 1 {
            self.1.unpark();
        }
    }
}

/// Plays one match with the CLI's driver. `Ok(None)`: the arena was stopped before its end.
fn play_one(
    config: &Config,
    m: &Planned,
    stop: &Stop,
    worker: usize,
) -> Result<Option<MatchResult>, String> {
    let setup = setup(config, m);
    let game = (config.entry.new)(&setup).map_err(|e| e.to_string())?;
    let runs: Vec<String> = m
        .seats
        .iter()
        .map(|&b| config.bots[b].run.clone())
        .collect();
    let names: Vec<String> = m
        .seats
        .iter()
        .map(|&b| config.bots[b].name().to_string())
        .collect();
    let mut table = Table::start(&runs, config.entry.info.id, m.seed, config.pty)?;
    stop.enter(worker, table.halter());
    // An arena keeps outcomes, faults and replays, never frames: drawing one after every step
    // would cost as much as the rules themselves.
    let mut referee = Referee::new(game, setup, names, config.relaxed).without_frames();
    table.play(&mut referee);
    stop.leave(worker);
    drop(table);
    // A match that ends after Ctrl-C (or a failure) may have ended because of the stop: it is
    // not counted.
    if stop.stopping() {
        return Ok(None);
    }
    let outcome = referee
        .outcome()
        .ok_or("the match stopped before its end")?;
    let replay = match &config.replays {
        Some(dir) => Some(write_replay(dir, config.width, m, &referee)?),
        None => None,
    };
    Ok(Some(MatchResult {
        index: m.index,
        seed: m.seed,
        seats: m.seats.clone(),
        scores: outcome.scores,
        ranks: outcome.ranks,
        faults: referee.faults().to_vec(),
        replay,
    }))
}

/// Writes the match's replay to `DIR/match-NNNN_A_vs_B_seed-S.json` (numbered from 1, with its
/// bots' names made safe for file names: [`arena::report::replay_file_name`]) and returns the
/// file name.
fn write_replay(
    dir: &Path,
    width: usize,
    m: &Planned,
    referee: &Referee,
) -> Result<String, String> {
    let names: Vec<&str> = referee.names().iter().map(String::as_str).collect();
    let name = arena::report::replay_file_name(m.index + 1, width, &names, m.seed);
    let path = dir.join(&name);
    std::fs::write(&path, referee.replay().to_json())
        .map_err(|e| format!("cannot write the replay to {}: {e}", path.display()))?;
    Ok(name)
}
