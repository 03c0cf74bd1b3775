//! `botplay`: matches between local programs and built-in bots on the botplay engines, and
//! replays the web viewer opens.

mod args;
mod driver;
mod inbox;
mod seats;

use std::process::ExitCode;

use engine::{Referee, Replay, Setup};

use args::{Command, PlayArgs, USAGE};

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
        Command::Help => {
            print!("{USAGE}");
            Ok(())
        }
        Command::List { bots } => {
            list(bots);
            Ok(())
        }
        Command::Play(play_args) => play(play_args),
        Command::Replay { file } => replay(&file),
    }
}

/// One line per game: id, name, seats, version (tab-separated).
fn list(with_bots: bool) {
    for entry in games::GAMES {
        let info = entry.info;
        let seats = if info.min_seats == info.max_seats {
            info.min_seats.to_string()
        } else {
            format!("{}-{}", info.min_seats, info.max_seats)
        };
        println!("{}\t{}\t{}\t{}", info.id, info.name, seats, info.version);
        if with_bots {
            for bot in bots::builtins(info.id) {
                println!("  builtin:{}\t{}", bot.name, bot.summary);
            }
        }
    }
}

fn play(a: PlayArgs) -> Result<(), Failure> {
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
    if let Some(ruleset) = a.ruleset {
        setup.ruleset = ruleset;
    }
    setup.options = a.options;
    let game = (entry.new)(&setup).map_err(|e| Failure::usage(e.to_string()))?;
    eprintln!(
        "botplay: {} ({}), seed {seed}{}",
        entry.info.name,
        setup.ruleset,
        if a.relaxed { ", relaxed budgets" } else { "" }
    );
    let mut table = driver::Table::start(&a.bots, entry.info.id, seed).map_err(Failure::usage)?;
    let mut referee = Referee::new(game, setup, a.bots.clone(), a.relaxed);
    table.play(&mut referee);
    print_result(&referee);
    if let Some(path) = a.replay {
        std::fs::write(&path, referee.replay().to_json())
            .map_err(|e| Failure::runtime(format!("cannot write the replay to {path}: {e}")))?;
        eprintln!("botplay: replay written to {path}");
    }
    Ok(())
}

/// `seat N NAME score S rank R` per seat (seats shown 1-based), then one line per fault.
fn print_result(referee: &Referee) {
    if let Some(outcome) = referee.outcome() {
        for (seat, name) in referee.names().iter().enumerate() {
            println!(
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
        println!("{fault}");
    }
}

fn replay(path: &str) -> Result<(), Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("cannot read {path}: {e}")))?;
    let replay = Replay::from_json(&text).map_err(|e| Failure::usage(format!("{path}: {e}")))?;
    let entry = games::entry(&replay.setup.game).ok_or_else(|| {
        Failure::usage(format!(
            "{path}: this replay is of an unknown game '{}'",
            replay.setup.game
        ))
    })?;
    let referee = replay
        .rerun(entry)
        .map_err(|e| Failure::usage(format!("{path}: {e}")))?;
    if let Some(frame) = referee.frames().last() {
        println!("turn {}", frame.turn);
        print!("{}", frame.text);
        if !frame.text.ends_with('\n') {
            println!();
        }
        for (seat, status) in frame.status.iter().enumerate() {
            println!("seat {} {}: {status}", seat + 1, referee.names()[seat]);
        }
    }
    match referee.outcome() {
        Some(_) => print_result(&referee),
        None => println!("the replay ends before the match does"),
    }
    Ok(())
}

/// A seed for a match without `--seed`: from the clock (the CLI is not a pure crate).
fn random_seed() -> i64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    (nanos as i64).wrapping_mul(0x9E37_79B9_7F4A_7C15u64 as i64) >> 1
}
