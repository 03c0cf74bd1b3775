//! `cargo xtask wasi-bots [--bench]`: builds the project's own WebAssembly bots (`bots/wasi/`:
//! C, C++ and Rust) for `wasm32-wasip1` into `target/wasi-bots/<name>.wasm`, and the same
//! sources natively into `target/wasi-bots/native/<name>` (the CLI's tests check that both
//! give the same transcript), with `target/wasi-bots/bots.json` listing them. The set-up's
//! compilers are installed first if missing (`setup::ensure_wasi_tools`).
//!
//! With `--bench`, it then measures the CLI (a release build) with them: each bot's time per
//! turn as WebAssembly and natively in the very same match, and the time to compile a module
//! of over 1 MB (the C++ bot, with its iostreams).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use crate::common::{self, format_duration, format_size, Failure, Repo, Result};
use crate::setup::{self, WASI_TARGET};

/// How a bot is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    C,
    Cpp,
    /// A binary of the Rust package `bots/wasi/rust`.
    Rust,
}

impl Language {
    pub fn name(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Cpp => "c++",
            Language::Rust => "rust",
        }
    }
}

/// One of the project's WebAssembly bots.
pub struct Bot {
    /// Its file name without `.wasm`.
    pub name: &'static str,
    /// The game it plays (a game id).
    pub game: &'static str,
    pub language: Language,
    /// Its source: a file of `bots/wasi/`, or the binary's name in `bots/wasi/rust`.
    pub source: &'static str,
}

/// Every bot: at least one per game; the C++ one is a CodinGame contest bot (cin, cout, cerr),
/// the Crafting Quest 3 one reads the game's whole protocol.
pub const BOTS: [Bot; 5] = [
    Bot {
        name: "ice-and-fire-cpp",
        game: "ice-and-fire",
        language: Language::Cpp,
        source: "ice-and-fire.cpp",
    },
    Bot {
        name: "soak-overflow-c",
        game: "soak-overflow",
        language: Language::C,
        source: "soak-overflow.c",
    },
    Bot {
        name: "micro-rts-c",
        game: "micro-rts",
        language: Language::C,
        source: "micro-rts.c",
    },
    Bot {
        name: "skyport-rust",
        game: "skyport",
        language: Language::Rust,
        source: "skyport",
    },
    Bot {
        name: "crafting-quest-rust",
        game: "crafting-quest",
        language: Language::Rust,
        source: "crafting-quest",
    },
];

/// The clang flags of the WebAssembly builds: the commands docs/guide.md gives a player.
const CLANG_WASM: [&str; 2] = ["--target=wasm32-wasi", "-O2"];
/// C++ for wasm32-wasi has no exceptions (Debian's libc++ for it is built without them).
const CPP_WASM_EXTRA: &str = "-fno-exceptions";

/// Where the bots go: `target/wasi-bots`.
pub fn out_dir(repo: &Repo) -> PathBuf {
    repo.target_dir().join("wasi-bots")
}

/// `dir`, created with its parents if missing (a folder of the target directory).
fn made_dir(dir: PathBuf) -> Result<PathBuf> {
    std::fs::create_dir_all(&dir).map_err(|e| {
        Failure::new(
            format!("cannot create {}: {e}", dir.display()),
            "check that the target directory is writable",
        )
    })?;
    Ok(dir)
}

/// `cargo xtask wasi-bots [--bench]`.
pub fn run(repo: &Repo, bench: bool) -> Result {
    build(repo)?;
    if bench {
        run_bench(repo)?;
    }
    Ok(())
}

/// Installs the compilers if missing, then builds every bot (C and C++ again only when its
/// source is newer than its build; cargo decides for Rust).
pub fn build(repo: &Repo) -> Result {
    let started = Instant::now();
    setup::ensure_wasi_tools(repo)?;
    let out = out_dir(repo);
    let native = made_dir(out.join("native"))?;
    for bot in BOTS.iter().filter(|b| b.language != Language::Rust) {
        let source = repo.path(&format!("bots/wasi/{}", bot.source));
        let compiler = if bot.language == Language::Cpp {
            "clang++"
        } else {
            "clang"
        };
        let wasm = out.join(format!("{}.wasm", bot.name));
        if !is_newer(&wasm, &source) {
            let mut command = repo.command(compiler);
            command.args(CLANG_WASM);
            if bot.language == Language::Cpp {
                command.arg(CPP_WASM_EXTRA);
            }
            command.arg("-o").arg(&wasm).arg(&source);
            common::run(command, "read the compiler's message above")?;
        }
        let exe = native.join(bot.name);
        if !is_newer(&exe, &source) {
            let mut command = repo.command(compiler);
            command.args(["-O2", "-o"]).arg(&exe).arg(&source);
            common::run(command, "read the compiler's message above")?;
        }
    }
    build_rust(repo, &out)?;
    write_manifest(&out)?;
    println!(
        "wasi-bots: {} bots in {} ({})",
        BOTS.len(),
        out.display(),
        format_duration(started.elapsed())
    );
    Ok(())
}

/// The Rust bots, for wasm32-wasip1 and natively, in a target directory of their own.
fn build_rust(repo: &Repo, out: &Path) -> Result {
    let manifest = repo.path("bots/wasi/rust/Cargo.toml");
    let target_dir = out.join("cargo");
    for target in [Some(WASI_TARGET), None] {
        let mut command = repo.cargo();
        command
            .args(["build", "--release", "--locked", "--manifest-path"])
            .arg(&manifest)
            .arg("--target-dir")
            .arg(&target_dir);
        if let Some(target) = target {
            command.args(["--target", target]);
        }
        // The workspace's own settings (RUSTFLAGS for the page) are not the bots'.
        command.env_remove("RUSTFLAGS");
        common::run(command, "read cargo's message above")?;
    }
    for bot in BOTS.iter().filter(|b| b.language == Language::Rust) {
        let built = [
            (
                target_dir
                    .join(WASI_TARGET)
                    .join("release")
                    .join(format!("{}.wasm", bot.source)),
                out.join(format!("{}.wasm", bot.name)),
            ),
            (
                target_dir.join("release").join(bot.source),
                out.join("native").join(bot.name),
            ),
        ];
        for (from, to) in built {
            std::fs::copy(&from, &to).map_err(|e| {
                Failure::new(
                    format!("cannot copy {} to {}: {e}", from.display(), to.display()),
                    "run `cargo xtask wasi-bots` again",
                )
            })?;
        }
    }
    Ok(())
}

/// Whether `built` exists and is newer than `source`.
fn is_newer(built: &Path, source: &Path) -> bool {
    let modified = |p: &Path| p.metadata().and_then(|m| m.modified()).ok();
    matches!((modified(built), modified(source)), (Some(b), Some(s)) if b > s)
}

/// `target/wasi-bots/bots.json`: every bot's name, game, language, source and files (relative
/// to the folder), for the tests of the CLI and of the page.
fn write_manifest(out: &Path) -> Result {
    let entries: Vec<String> = BOTS
        .iter()
        .map(|b| {
            let source = match b.language {
                Language::Rust => format!("bots/wasi/rust/src/bin/{}.rs", b.source),
                _ => format!("bots/wasi/{}", b.source),
            };
            format!(
                "  {{\"name\": \"{}\", \"game\": \"{}\", \"language\": \"{}\", \"source\": \
                 \"{source}\", \"wasm\": \"{}.wasm\", \"native\": \"native/{}\"}}",
                b.name,
                b.game,
                b.language.name(),
                b.name,
                b.name
            )
        })
        .collect();
    let path = out.join("bots.json");
    std::fs::write(&path, format!("[\n{}\n]\n", entries.join(",\n"))).map_err(|e| {
        Failure::new(
            format!("cannot write {}: {e}", path.display()),
            "check that the target directory is writable",
        )
    })?;
    Ok(())
}

// --- the benchmark ----------------------------------------------------------------------------

/// The seed of every measured match.
const BENCH_SEED: &str = "5";
/// Matches per bot and way (the figure is the median of their means).
const BENCH_ROUNDS: usize = 3;

/// Per-turn cost of each bot as WebAssembly and natively (the same match both ways), then the
/// compile time of the C++ bot (over 1 MB), all through a release build of the CLI.
fn run_bench(repo: &Repo) -> Result {
    let mut build = repo.cargo();
    build.args(["build", "--release", "-p", "botplay"]);
    common::run(build, "read cargo's message above")?;
    let botplay = repo.target_dir().join("release").join("botplay");
    let out = out_dir(repo);
    let scratch = made_dir(out.join("bench"))?;
    println!("\n{}", crate::bench::machine());
    println!(
        "per turn: the mean time a bot took to answer, over every turn of one match against \
         the game's first built-in bot (seed {BENCH_SEED}), the median of {BENCH_ROUNDS} runs; \
         the same match both ways"
    );
    println!(
        "{:<22} {:>6} {:>14} {:>14} {:>7} {:>14}",
        "bot", "turns", "native ms", "wasm ms", "ratio", "wasm 1st turn"
    );
    let think = ["", " --think 300"];
    for bot in &BOTS {
        for extra in think {
            // The C bot's "think" variant: real work each turn (paths from every agent).
            if !extra.is_empty() && bot.name != "soak-overflow-c" {
                continue;
            }
            let wasm = format!(
                "{}{extra}",
                out.join(format!("{}.wasm", bot.name)).display()
            );
            let native = format!("{}{extra}", out.join("native").join(bot.name).display());
            let (n_turns, native_ms, _) = median_turn(repo, &botplay, bot, &native, &scratch)?;
            let (_, wasm_ms, first) = median_turn(repo, &botplay, bot, &wasm, &scratch)?;
            println!(
                "{:<22} {:>6} {:>14.3} {:>14.3} {:>7.2} {:>14.3}",
                format!("{}{extra}", bot.name),
                n_turns,
                native_ms,
                wasm_ms,
                wasm_ms / native_ms.max(1e-9),
                first
            );
        }
    }
    compile_bench(&botplay, &out)
}

/// One bot's mean time per turn over a match (the median of [`BENCH_ROUNDS`] matches), its
/// turns, and its first turn's time.
fn median_turn(
    repo: &Repo,
    botplay: &Path,
    bot: &Bot,
    spec: &str,
    scratch: &Path,
) -> Result<(usize, f64, f64)> {
    let mut means = Vec::new();
    let mut turns = 0;
    let mut first = 0.0;
    for round in 0..BENCH_ROUNDS {
        let replay = scratch.join(format!("{}-{round}.json", bot.name));
        let opponent = first_builtin(botplay, bot.game)?;
        let mut play = Command::new(botplay);
        play.args(["play", "--game", bot.game, "--seed", BENCH_SEED])
            .args(["--bot", spec, "--bot", &opponent, "--replay"])
            .arg(&replay)
            .current_dir(&repo.root);
        let shown = format!("botplay play --game {} --bot {spec}", bot.game);
        let output = common::output(play, &shown)?;
        common::check_status(&shown, output.status, "run the command above by hand")?;
        let times = seat_times(botplay, &replay)?;
        if times.is_empty() {
            return Err(Failure::new(
                format!("{shown}: the bot played no turn"),
                "run the command above by hand",
            ));
        }
        turns = times.len();
        first = times[0];
        means.push(times.iter().sum::<f64>() / times.len() as f64);
    }
    means.sort_by(f64::total_cmp);
    Ok((turns, means[means.len() / 2], first))
}

/// The first built-in bot of a game (`botplay list --bots`).
fn first_builtin(botplay: &Path, game: &str) -> Result<String> {
    let mut list = Command::new(botplay);
    list.args(["list", "--bots"]);
    let text = common::stdout_of(list).unwrap_or_default();
    let mut in_game = false;
    for line in text.lines() {
        if !line.starts_with(' ') {
            in_game = line.split('\t').next() == Some(game);
        } else if in_game {
            if let Some(spec) = line.split_whitespace().next() {
                return Ok(spec.to_string());
            }
        }
    }
    Err(Failure::new(
        format!("no built-in bot for {game} in `botplay list --bots`"),
        "",
    ))
}

/// Seat 1's time of each of its turns, from `botplay replay --stats` (CSV).
fn seat_times(botplay: &Path, replay: &Path) -> Result<Vec<f64>> {
    let mut stats = Command::new(botplay);
    stats.args(["replay", "--stats"]).arg(replay);
    let text = common::stdout_of(stats).ok_or_else(|| {
        Failure::new(
            format!("botplay replay --stats {} failed", replay.display()),
            "",
        )
    })?;
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or_default().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name);
    let (Some(seat), Some(time)) = (column("seat"), column("time_ms")) else {
        return Err(Failure::new(
            "botplay replay --stats has no seat or time_ms",
            "",
        ));
    };
    Ok(lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|f| f.get(seat) == Some(&"1"))
        .filter_map(|f| f.get(time)?.parse().ok())
        .collect())
}

/// The compile time of the C++ bot's module, as the CLI reports it when it starts the bot.
fn compile_bench(botplay: &Path, out: &Path) -> Result {
    let wasm = out.join("ice-and-fire-cpp.wasm");
    let size = wasm.metadata().map(|m| m.len()).unwrap_or(0);
    let mut times = Vec::new();
    for _ in 0..BENCH_ROUNDS {
        let mut play = Command::new(botplay);
        play.args([
            "play",
            "--game",
            "ice-and-fire",
            "--seed",
            BENCH_SEED,
            "--bot",
        ])
        .arg(&wasm)
        .args(["--bot", "builtin:wait"]);
        let output = common::output(play, "botplay play (compile time)")?;
        let stderr = String::from_utf8_lossy(&output.stderr);
        let ms = stderr
            .lines()
            .find_map(|l| l.split(" compiled in ").nth(1))
            .and_then(|rest| rest.split(" ms").next())
            .and_then(|ms| ms.trim().parse::<f64>().ok())
            .ok_or_else(|| {
                Failure::new(
                    format!("botplay did not say how long the module took to compile:\n{stderr}"),
                    "",
                )
            })?;
        times.push(ms);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "\nstart-up: {} ({}) compiled by the CLI in {:.0} ms (median of {BENCH_ROUNDS}; \
         wasmtime with Cranelift, once per module and process)",
        wasm.file_name().unwrap_or_default().to_string_lossy(),
        format_size(size),
        times[times.len() / 2]
    );
    Ok(())
}
