//! `cargo xtask`: what cargo cannot do alone.
//!
//! * `cargo xtask setup [--browser]` installs the tools the page needs (idempotent).
//! * `cargo xtask serve [TRUNK ARGS...]` sets up, then serves the page with `trunk serve`.
//! * `cargo xtask test [STEP...]` sets up (with the browser), then runs every check in order.
//! * `cargo xtask dist` sets up, then builds the static site into `dist/`, ready to publish.
//! * `cargo xtask bench [--quick] [--cpu] [FILTER]` runs the engine benchmarks and prints turns
//!   per second.
//! * `cargo xtask wasi-bots [--bench]` builds the project's WebAssembly bots (`bots/wasi/`) into
//!   `target/wasi-bots/`, and measures them in the CLI with `--bench`.
//!
//! Every tool is an external command started with `std::process::Command`; `nix` only kills
//! one that went past its time limit, with everything it started.

mod bench;
mod common;
mod serve;
mod setup;
mod test;
mod wasi_bots;

use std::process::ExitCode;

use common::{Failure, Repo};

const USAGE: &str = "\
cargo xtask: set up, serve and test the botplay playground

Usage:
  cargo xtask setup [--browser]   install whatever is missing (wasm32 target, trunk,
                                  wasm-bindgen-cli, npm packages, clang for wasm32-wasi
                                  and the wasm32-wasip1 target; with --browser also
                                  Debian's chromium, chromium-driver, firefox-esr,
                                  webkit2gtk-driver and xvfb)
  cargo xtask serve [ARGS...]     set up, then build and serve the page on
                                  http://127.0.0.1:8080 with `trunk serve`; ARGS go to
                                  trunk (e.g. --release)
  cargo xtask test [STEP...]      set up (with the browser), then run every check in
                                  order, stopping at the first failure; STEP names run
                                  only those steps. Each step has a time limit (below):
                                  a command still running at it is killed with all it
                                  started, and the run fails naming it. A whole run also
                                  fails when it changed what `git status` shows
  cargo xtask dist                set up, then build the static site into dist/: publish
                                  that folder as is on any static host
  cargo xtask bench [--quick] [--cpu] [FILTER]
                                  the engine benchmarks (criterion, one core): turns per
                                  second of every game, rules step, protocol path and whole
                                  match; --quick for short runs, --cpu to measure CPU time
                                  instead of the wall clock (a busy machine), FILTER picks
                                  benchmarks by name (e.g. match/ice-and-fire)
  cargo xtask wasi-bots [--bench] build the project's WebAssembly bots (bots/wasi/: C, C++,
                                  Rust) into target/wasi-bots/NAME.wasm, and natively into
                                  target/wasi-bots/native/NAME (installing clang for
                                  wasm32-wasi and Rust's wasm32-wasip1 target if missing);
                                  --bench then prints their time per turn as WebAssembly
                                  and natively in the CLI, and a 1 MB module's compile time
  cargo xtask help                print this help (also -h, --help)

Environment:
  TIME_LIMIT_SCALE=N              multiplies every time limit of `cargo xtask test` (its
                                  steps', the whole run's and each browser check's), e.g.
                                  3 on a slow machine
  FUZZ_SECONDS=N                  how long each fuzz target runs in the fuzz step (30)

Test steps, in order, with their time limits:
";

/// What the command line asked for.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    Help,
    Setup {
        browser: bool,
    },
    Serve {
        trunk_args: Vec<String>,
    },
    Test {
        only: Vec<String>,
    },
    Dist,
    Bench {
        quick: bool,
        cpu: bool,
        filter: Option<String>,
    },
    WasiBots {
        bench: bool,
    },
}

/// A command line that makes no sense: printed with the usage, exit status 2.
#[derive(Debug, PartialEq, Eq)]
struct UsageError(String);

fn parse_args(args: &[String]) -> Result<Command, UsageError> {
    let Some((subcommand, rest)) = args.split_first() else {
        return Err(UsageError("no command given".into()));
    };
    if rest.iter().any(|a| a == "-h" || a == "--help") && subcommand != "serve" {
        return Ok(Command::Help);
    }
    match subcommand.as_str() {
        "help" | "-h" | "--help" => Ok(Command::Help),
        "setup" => parse_setup(rest),
        "serve" => Ok(parse_serve(rest)),
        "test" => parse_test(rest),
        "dist" if rest.is_empty() => Ok(Command::Dist),
        "dist" => Err(UsageError(format!(
            "`dist` takes no arguments, not `{}`",
            rest.join(" ")
        ))),
        "bench" => parse_bench(rest),
        "wasi-bots" => match rest {
            [] => Ok(Command::WasiBots { bench: false }),
            [flag] if flag == "--bench" => Ok(Command::WasiBots { bench: true }),
            _ => Err(UsageError(format!(
                "wasi-bots takes only --bench, not `{}`",
                rest.join(" ")
            ))),
        },
        other => Err(UsageError(format!("unknown command `{other}`"))),
    }
}

fn parse_setup(rest: &[String]) -> Result<Command, UsageError> {
    let mut browser = false;
    for arg in rest {
        match arg.as_str() {
            "--browser" => browser = true,
            other => return Err(UsageError(format!("unknown option `{other}` for setup"))),
        }
    }
    Ok(Command::Setup { browser })
}

fn parse_bench(rest: &[String]) -> Result<Command, UsageError> {
    let mut quick = false;
    let mut cpu = false;
    let mut filter = None;
    for arg in rest {
        match arg.as_str() {
            "--quick" => quick = true,
            "--cpu" => cpu = true,
            other if other.starts_with('-') => {
                return Err(UsageError(format!("unknown option `{other}` for bench")))
            }
            other if filter.is_none() => filter = Some(other.to_string()),
            other => {
                return Err(UsageError(format!(
                    "bench takes one FILTER, not also `{other}`"
                )))
            }
        }
    }
    Ok(Command::Bench { quick, cpu, filter })
}

fn parse_serve(rest: &[String]) -> Command {
    if rest.len() == 1 && (rest[0] == "-h" || rest[0] == "--help") {
        return Command::Help;
    }
    Command::Serve {
        trunk_args: rest.to_vec(),
    }
}

fn parse_test(rest: &[String]) -> Result<Command, UsageError> {
    for name in rest {
        if test::step_named(name).is_none() {
            return Err(UsageError(format!(
                "unknown test step `{name}` (steps: {})",
                test::step_names().join(", ")
            )));
        }
    }
    Ok(Command::Test {
        only: rest.to_vec(),
    })
}

fn usage() -> String {
    let mut text = USAGE.to_string();
    for (name, limit, title) in test::step_titles() {
        text.push_str(&format!("  {name:<12} {limit:>7}  {title}\n"));
    }
    let (setup, whole) = test::run_limits();
    text.push_str(&format!(
        "  (the set-up before them: {setup}; the whole run, set-up included: {whole})\n"
    ));
    text
}

fn run(command: Command) -> Result<(), Failure> {
    if command == Command::Help {
        print!("{}", usage());
        return Ok(());
    }
    let repo = Repo::locate()?;
    match command {
        Command::Help => Ok(()),
        Command::Setup { browser } => setup::run(&repo, browser),
        Command::Serve { trunk_args } => serve::run(&repo, &trunk_args),
        Command::Test { only } => test::run(&repo, &only),
        Command::Bench { quick, cpu, filter } => {
            bench::run_benchmarks(&repo, quick, cpu, filter.as_deref())
        }
        Command::WasiBots { bench } => wasi_bots::run(&repo, bench),
        Command::Dist => {
            setup::run(&repo, false)?;
            test::release_build(&repo)?;
            println!(
                "\ndist/ is the whole site: publish it as is on any static host (GitHub Pages, \
                 Netlify, an S3 bucket, `python3 -m http.server`). Share links then work for \
                 anyone who opens them. A host that cannot send headers is fine: the page's \
                 service worker adds the cross-origin isolation headers."
            );
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    common::install_panic_hook();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let command = match parse_args(&args) {
        Ok(command) => command,
        Err(UsageError(message)) => {
            eprint!("error: {message}\n\n{}", usage());
            return ExitCode::from(2);
        }
    };
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            failure.print();
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn parses_every_command() {
        assert_eq!(parse_args(&args(&["help"])), Ok(Command::Help));
        assert_eq!(parse_args(&args(&["--help"])), Ok(Command::Help));
        assert_eq!(parse_args(&args(&["setup", "--help"])), Ok(Command::Help));
        assert_eq!(
            parse_args(&args(&["setup"])),
            Ok(Command::Setup { browser: false })
        );
        assert_eq!(
            parse_args(&args(&["setup", "--browser"])),
            Ok(Command::Setup { browser: true })
        );
        assert_eq!(
            parse_args(&args(&["serve", "--release", "--port", "9000"])),
            Ok(Command::Serve {
                trunk_args: args(&["--release", "--port", "9000"])
            })
        );
        assert_eq!(parse_args(&args(&["dist"])), Ok(Command::Dist));
        assert!(parse_args(&args(&["dist", "now"])).is_err());
        assert_eq!(
            parse_args(&args(&["bench"])),
            Ok(Command::Bench {
                quick: false,
                cpu: false,
                filter: None
            })
        );
        assert_eq!(
            parse_args(&args(&["bench", "--quick", "--cpu", "match/ice-and-fire"])),
            Ok(Command::Bench {
                quick: true,
                cpu: true,
                filter: Some("match/ice-and-fire".into())
            })
        );
        assert!(parse_args(&args(&["bench", "--fast"])).is_err());
        assert_eq!(
            parse_args(&args(&["wasi-bots"])),
            Ok(Command::WasiBots { bench: false })
        );
        assert_eq!(
            parse_args(&args(&["wasi-bots", "--bench"])),
            Ok(Command::WasiBots { bench: true })
        );
        assert!(parse_args(&args(&["wasi-bots", "--fast"])).is_err());
        assert!(parse_args(&args(&["bench", "rules", "match"])).is_err());
        assert_eq!(
            parse_args(&args(&["test", "fmt", "wasm-test"])),
            Ok(Command::Test {
                only: args(&["fmt", "wasm-test"])
            })
        );
    }

    #[test]
    fn refuses_nonsense() {
        assert!(parse_args(&args(&[])).is_err());
        assert!(parse_args(&args(&["nonsense"])).is_err());
        assert!(parse_args(&args(&["setup", "--chrome"])).is_err());
        assert!(parse_args(&args(&["test", "lint"])).is_err());
    }
}
