//! `botplay`: matches between local programs and built-in bots on the botplay engines, and
//! replays the web viewer opens.

/// Prints a line on standard output. When whoever reads it has gone (`botplay list | head -1`),
/// the program ends quietly, as a Unix tool does, instead of panicking as `println!` would.
/// (SIGPIPE stays ignored: the bots' input pipes must not kill the driver when a bot exits.)
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if let Err(error) = writeln!(std::io::stdout(), $($arg)*) {
            if error.kind() == std::io::ErrorKind::BrokenPipe {
                std::process::exit(0);
            }
        }
    }};
}

mod arena;
mod args;
mod bot_input;
mod driver;
mod host;
mod inbox;
mod paths;
mod procs;
mod seats;
mod sources;
mod takeover;
mod typescript;
mod wasi;
mod wasm_bot;

use std::process::ExitCode;

use engine::{Referee, Replay, Setup, ShareDoc};

use args::{Command, PlayArgs};

/// An error for people, with the exit status it leads to.
struct Failure {
    message: String,
    status: u8,
}

impl Failure {
    fn usage(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: 2,
        }
    }
    fn runtime(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: 1,
        }
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let result = args::parse(&argv)
        .map_err(|e| Failure::usage(e.to_string()))
        .and_then(run);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("botplay: {}", f.message);
            ExitCode::from(f.status)
        }
    }
}

fn run(command: Command) -> Result<(), Failure> {
    match command {
        Command::Print(text) => {
            print!("{text}");
            Ok(())
        }
        Command::List { bots, json } => {
            if json {
                say!("{:#}", list_json());
            } else {
                list(bots);
            }
            Ok(())
        }
        Command::Completions(shell) => {
            clap_complete::generate(
                shell,
                &mut args::command(),
                "botplay",
                &mut std::io::stdout(),
            );
            Ok(())
        }
        Command::Merge { parts, json } => {
            arena::merge(&parts, json.as_deref()).map_err(|e| match e {
                arena::ArenaError::Usage(m) => Failure::usage(m),
                arena::ArenaError::Runtime(m) | arena::ArenaError::Interrupted(m) => {
                    Failure::runtime(m)
                }
            })
        }
        Command::Play(play_args) => play(play_args),
        Command::Arena(arena_args) => {
            let seed = arena_args.play.seed.unwrap_or_else(random_seed);
            arena::run(arena_args, seed).map_err(|e| match e {
                arena::ArenaError::Usage(m) => Failure::usage(m),
                arena::ArenaError::Runtime(m) => Failure::runtime(m),
                // The shell's status for a command stopped by SIGINT.
                arena::ArenaError::Interrupted(m) => Failure {
                    message: m,
                    status: 130,
                },
            })
        }
        Command::Replay { file, stats: false } => replay(&file),
        Command::Replay { file, stats: true } => replay_stats(&file),
        Command::Link {
            file,
            base,
            keep_paths,
        } => link(&file, &base, keep_paths),
        Command::Host(host_args) => {
            let seed = host_args.seed.unwrap_or_else(random_seed);
            host::run(host_args, seed).map_err(|e| match e {
                host::HostError::Usage(m) => Failure::usage(m),
                host::HostError::Runtime(m) => Failure::runtime(m),
            })
        }
    }
}

/// "2", "2-8".
fn seats(info: &engine::GameInfo) -> String {
    if info.min_seats == info.max_seats {
        info.min_seats.to_string()
    } else {
        format!("{}-{}", info.min_seats, info.max_seats)
    }
}

/// A header, then one line per game: id, name, seats, version (tab-separated).
fn list(with_bots: bool) {
    say!("id\tname\tseats\tversion");
    for entry in games::GAMES {
        let info = entry.info;
        say!(
            "{}\t{}\t{}\t{}",
            info.id,
            info.name,
            seats(info),
            info.version
        );
        if with_bots {
            for bot in bots::builtins(info.id) {
                say!("  builtin:{}\t{}", bot.name, bot.summary);
            }
        }
    }
}

/// Every game for scripts: id, name, seats, version, time budgets, rulesets (leagues are the
/// rulesets `league-N`, also listed by number), built-in bots.
fn list_json() -> serde_json::Value {
    let games: Vec<serde_json::Value> = games::GAMES
        .iter()
        .map(|entry| {
            let info = entry.info;
            let rulesets: Vec<serde_json::Value> = info
                .rulesets
                .iter()
                .map(|r| serde_json::json!({ "id": r.id, "name": r.name, "summary": r.summary }))
                .collect();
            let leagues: Vec<u32> = info
                .rulesets
                .iter()
                .filter_map(|r| r.id.strip_prefix("league-")?.parse().ok())
                .collect();
            let bots: Vec<serde_json::Value> = bots::builtins(info.id)
                .map(|b| {
                    serde_json::json!({
                        "name": b.name,
                        "spec": format!("builtin:{}", b.name),
                        "summary": b.summary,
                    })
                })
                .collect();
            serde_json::json!({
                "id": info.id,
                "name": info.name,
                "seats": { "min": info.min_seats, "max": info.max_seats },
                "version": info.version,
                "first_turn_ms": info.first_turn_ms,
                "turn_ms": info.turn_ms,
                "default_ruleset": info.default_ruleset,
                "rulesets": rulesets,
                "leagues": leagues,
                "bots": bots,
            })
        })
        .collect();
    serde_json::Value::Array(games)
}

fn play(a: PlayArgs) -> Result<(), Failure> {
    // Bots run in process groups of their own, out of reach of the terminal's Ctrl-C: stop
    // them (and what they started) before going.
    let _ = ctrlc::set_handler(|| {
        procs::kill_all();
        sources::remove_code_dirs();
        std::process::exit(130);
    });
    if let Some(mb) = a.wasm_memory {
        wasm_bot::set_memory_limit_mb(mb);
    }
    // Share links' code, written out for the match and removed after it.
    let mut code = sources::CodeDir::new();
    let bots = a
        .bots
        .iter()
        .map(|spec| sources::of_spec(spec, &mut code))
        .collect::<Result<Vec<_>, _>>()
        .map_err(Failure::usage)?;
    let runs: Vec<String> = bots.iter().map(|b| b.run.clone()).collect();
    let names: Vec<String> = bots.iter().map(|b| b.name().to_string()).collect();
    let (mut table, mut referee, origin) = match &a.from {
        Some((path, turn)) => {
            let replay = read_replay_file(path)?;
            let (table, referee, origin) =
                takeover::referee(&replay, path, *turn, (&runs, &names), a.relaxed, a.bot_pty)?;
            eprintln!(
                "botplay: {} ({}), seed {}, taken over from turn {turn} of {path}{}",
                replay.setup.game,
                replay.setup.ruleset,
                replay.setup.seed,
                if a.relaxed { ", relaxed budgets" } else { "" }
            );
            (table, referee, Some(origin))
        }
        None => {
            let (table, referee) = new_match(&a, &runs, &names)?;
            (table, referee, None)
        }
    };
    table.play(&mut referee);
    if procs::stopping() {
        // Ctrl-C killed the bots, which ended the match: no result; the handler's thread ends
        // the process with status 130 (the main thread must not end it first).
        loop {
            std::thread::park();
        }
    }
    print_result(&referee);
    for &seat in table.unflushed() {
        eprint!(
            "botplay: seat {}: {}",
            seat + 1,
            driver::UNFLUSHED_HINT.trim_start_matches("[botplay] ")
        );
    }
    if let Some(path) = a.replay {
        let mut replay = referee.replay();
        replay.from = origin;
        std::fs::write(&path, replay.to_json())
            .map_err(|e| Failure::runtime(format!("cannot write the replay to {path}: {e}")))?;
        eprintln!("botplay: replay written to {path}");
    }
    Ok(())
}

/// A new match of `play`: its setup from the flags, its bots started (`runs`, named `names`).
fn new_match(
    a: &PlayArgs,
    runs: &[String],
    names: &[String],
) -> Result<(driver::Table, Referee), Failure> {
    let entry = games::entry(&a.game).ok_or_else(|| {
        let known: Vec<&str> = games::GAMES.iter().map(|e| e.info.id).collect();
        Failure::usage(format!(
            "unknown game '{}' (known: {})",
            a.game,
            known.join(", ")
        ))
    })?;
    let seed = a.seed.unwrap_or_else(random_seed);
    let mut setup = Setup::new(entry.info, seed);
    setup.seats = a.bots.len();
    if let Some(ruleset) = &a.ruleset {
        setup.ruleset = ruleset.clone();
    }
    setup.options = a.options.clone();
    let asked = setup.seed;
    let game = games::new_game_picking_seed(&mut setup, random_seed)
        .map_err(|e| Failure::usage(e.to_string()))?;
    if setup.seed != asked {
        eprintln!(
            "botplay: seed 0 means a random map in this game; using seed {}",
            setup.seed
        );
    }
    let seed = setup.seed;
    eprintln!(
        "botplay: {} ({}), seed {seed}{}",
        entry.info.name,
        setup.ruleset,
        if a.relaxed { ", relaxed budgets" } else { "" }
    );
    let table =
        driver::Table::start(runs, entry.info.id, seed, a.bot_pty).map_err(Failure::usage)?;
    Ok((table, Referee::new(game, setup, names.to_vec(), a.relaxed)))
}

/// `seat N NAME score S rank R` per seat (seats shown 1-based), then one line per fault.
fn print_result(referee: &Referee) {
    if let Some(outcome) = referee.outcome() {
        for (seat, name) in referee.names().iter().enumerate() {
            say!(
                "seat {} {} score {} rank {}",
                seat + 1,
                name,
                outcome.scores[seat],
                outcome.ranks[seat]
            );
        }
        eprintln!("botplay: {}", outcome.reason);
    }
    for fault in referee.faults() {
        say!("{fault}");
    }
}

/// Reads a replay file and checks that this botplay can re-run it.
/// A replay file read and checked, not re-run.
fn read_replay_file(path: &str) -> Result<Replay, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {path}: {e}")))?;
    Replay::from_json(&text).map_err(|e| Failure::usage(format!("{path}: {e}")))
}

fn read_replay(path: &str) -> Result<(Replay, Referee), Failure> {
    let replay = read_replay_file(path)?;
    let entry = games::entry(&replay.setup.game).ok_or_else(|| {
        Failure::usage(format!(
            "{path}: this replay is of an unknown game '{}'",
            replay.setup.game
        ))
    })?;
    let referee = replay
        .rerun(entry)
        .map_err(|e| Failure::usage(format!("{path}: {e}")))?;
    Ok((replay, referee))
}

/// Prints a replay's numbers per step as CSV: one row per step and seat.
fn replay_stats(path: &str) -> Result<(), Failure> {
    let (replay, referee) = read_replay(path)?;
    let info = games::entry(&replay.setup.game)
        .map(|e| e.info)
        .ok_or_else(|| Failure::usage(format!("{path}: unknown game")))?;
    let steps = engine::stats::steps(info, replay.relaxed, referee.frames(), referee.turns());
    let mut out = csv::Writer::from_writer(std::io::stdout().lock());
    let write = |e: csv::Error| Failure::runtime(format!("cannot write the table: {e}"));
    let mut header: Vec<String> = ["frame", "turn", "seat", "bot", "out"]
        .map(String::from)
        .to_vec();
    if let Some(first) = steps.first() {
        header.extend(first.stats.iter().map(|s| s.name.to_string()));
    }
    header.extend(["time_ms", "budget_ms", "fault"].map(String::from));
    out.write_record(&header).map_err(write)?;
    for step in &steps {
        for seat in 0..step.out.len() {
            let mut row = vec![
                step.frame.to_string(),
                step.turn.to_string(),
                (seat + 1).to_string(),
                referee.names().get(seat).cloned().unwrap_or_default(),
                u8::from(step.out[seat]).to_string(),
            ];
            row.extend(
                step.stats
                    .iter()
                    .map(|s| s.values.get(seat).map_or(String::new(), i64::to_string)),
            );
            match step.seats[seat] {
                Some(t) => row.extend([
                    format!("{:.3}", t.time_ms),
                    t.budget_ms.to_string(),
                    t.fault.map_or(String::new(), |k| k.to_string()),
                ]),
                None => row.extend([String::new(), String::new(), String::new()]),
            }
            out.write_record(&row).map_err(write)?;
        }
    }
    out.flush()
        .map_err(|e| Failure::runtime(format!("cannot write the table: {e}")))
}

/// Prints the share link of a replay: the page opens it at the start of the match. Disk paths
/// in it are cut to file names unless `keep_paths`; stderr says what the link holds.
fn link(path: &str, base: &str, keep_paths: bool) -> Result<(), Failure> {
    let (replay, _) = read_replay(path)?;
    let (replay, cut) = if keep_paths {
        (replay, 0)
    } else {
        paths::shorten_replay(replay)
    };
    let logs = replay
        .turns
        .iter()
        .any(|t| t.seats.iter().any(|s| !s.stderr.is_empty()));
    let holds = if logs {
        "the match, the bots' names (their commands) and their debug logs"
    } else {
        "the match and the bots' names (their commands)"
    };
    let paths = match (keep_paths, cut) {
        (true, _) => "; disk paths kept (--keep-paths)".to_string(),
        (false, 0) => String::new(),
        (false, 1) => "; 1 disk path cut to its file name (--keep-paths keeps it)".to_string(),
        (false, n) => format!("; {n} disk paths cut to their file names (--keep-paths keeps them)"),
    };
    eprintln!("The link holds {holds}, not the bots' code{paths}.");
    let fragment = ShareDoc::of_replay(replay).encode();
    let base = base.split('#').next().unwrap_or(base);
    say!("{base}#{fragment}");
    Ok(())
}

fn replay(path: &str) -> Result<(), Failure> {
    let (_, referee) = read_replay(path)?;
    if let Some(frame) = referee.frames().last() {
        say!("turn {}", frame.turn);
        let text = frame.text();
        print!("{text}");
        if !text.ends_with('\n') {
            say!();
        }
        for (seat, status) in frame.status().iter().enumerate() {
            say!("seat {} {}: {status}", seat + 1, referee.names()[seat]);
        }
    }
    match referee.outcome() {
        Some(_) => print_result(&referee),
        None => say!("the replay ends before the match does"),
    }
    Ok(())
}

/// A seed for a match without `--seed`: from the clock (the CLI is not a pure crate), never 0.
fn random_seed() -> i64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    match (nanos as i64).wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64) >> 1 {
        0 => 1,
        seed => seed,
    }
}
