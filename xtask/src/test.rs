//! `cargo xtask test [STEP...]`: set up, then run every check in order, stopping at the first
//! failure. Each step is announced with a banner, timed, and bounded: a command still running at
//! its step's time limit (or the whole run's) is killed with everything it started, and the run
//! fails naming it. A whole run then checks that it left the checkout as it found it.

use std::collections::BTreeMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{self, format_duration, format_size, Failure, Limit, Repo, Result};
use crate::serve;
use crate::setup::{self, CHROMEDRIVER, CHROMIUM, WASM_TARGET};

/// One check of `cargo xtask test`.
pub struct Step {
    pub name: &'static str,
    pub title: &'static str,
    needs_browser: bool,
    /// How long its commands may run together (times `$TIME_LIMIT_SCALE`): several times what the
    /// step takes on a loaded 2-core machine with nothing compiled yet.
    limit: Duration,
    run: fn(&Repo) -> Result,
}

const fn minutes(n: u64) -> Duration {
    Duration::from_secs(n * 60)
}

/// The set-up's limit: on a fresh machine it compiles Trunk and wasm-bindgen-cli (about 10
/// minutes on 2 cores) and installs the browsers.
const SETUP_LIMIT: Duration = minutes(40);

/// The whole run's limit, set-up included: CI gives a run 90 minutes, and a run that hangs must
/// end with its own message well before that.
const RUN_LIMIT: Duration = minutes(80);

/// The limit of the final look at the checkout (`git status`).
const CHECKOUT_LIMIT: Duration = minutes(2);

const STEPS: [Step; 10] = [
    Step {
        name: "fmt",
        title: "cargo fmt --all --check",
        needs_browser: false,
        limit: minutes(3),
        run: fmt,
    },
    Step {
        name: "clippy",
        title: "cargo clippy --workspace --all-targets -- -D warnings",
        needs_browser: false,
        limit: minutes(20),
        run: clippy,
    },
    Step {
        name: "clippy-wasm",
        title: "cargo clippy -p botplay-web --target wasm32-unknown-unknown --all-targets -- -D warnings",
        needs_browser: false,
        limit: minutes(15),
        run: clippy_wasm,
    },
    Step {
        name: "test",
        title: "cargo xtask wasi-bots, then cargo test --workspace",
        needs_browser: false,
        limit: minutes(25),
        run: native_tests,
    },
    Step {
        name: "fuzz",
        title: "cargo fuzz run, each target of fuzz/ briefly (nightly, or stable with RUSTC_BOOTSTRAP=1)",
        needs_browser: false,
        limit: minutes(15),
        run: fuzz_smoke,
    },
    Step {
        name: "wasm-test",
        title: "cargo test -p botplay-web --target wasm32-unknown-unknown, in headless Chromium",
        needs_browser: true,
        limit: minutes(15),
        run: wasm_tests,
    },
    Step {
        name: "build",
        title: "trunk build --release, then the size of each file in dist/",
        needs_browser: false,
        limit: minutes(15),
        run: release_build,
    },
    Step {
        name: "e2e",
        title: "node tests/e2e/run.mjs, then embed.mjs, charts.mjs, take-over.mjs, pictures.mjs, class.mjs, class-cli.mjs, wasm-bots.mjs and typescript.mjs, --dist dist, in headless Chromium",
        needs_browser: true,
        limit: minutes(25),
        run: end_to_end,
    },
    Step {
        name: "hostile",
        title: "node tests/e2e/hostile.mjs --dist dist: hostile bots against the sandbox, in headless Chromium",
        needs_browser: true,
        limit: minutes(10),
        run: hostile_bots,
    },
    Step {
        name: "browsers",
        title: "node tests/e2e/cross-browser.mjs, cross-hostile.mjs, then fair-budgets.mjs, --dist \
                dist: the checks that matter to a person, hostile bots, then honest starters under \
                strict budgets, in Firefox ESR, WebKitGTK (as shipped, without SharedArrayBuffer, \
                and with it) and Chromium without SharedArrayBuffer",
        needs_browser: true,
        limit: minutes(30),
        run: other_browsers,
    },
];

pub fn step_named(name: &str) -> Option<&'static Step> {
    STEPS.iter().find(|step| step.name == name)
}

pub fn step_names() -> Vec<&'static str> {
    STEPS.iter().map(|step| step.name).collect()
}

/// Each step's name, time limit and title, for the help.
pub fn step_titles() -> impl Iterator<Item = (&'static str, String, &'static str)> {
    STEPS
        .iter()
        .map(|step| (step.name, limit_text(step.limit(), 1.0), step.title))
}

/// The set-up's and the whole run's time limits, for the help.
pub fn run_limits() -> (String, String) {
    (limit_text(SETUP_LIMIT, 1.0), limit_text(RUN_LIMIT, 1.0))
}

/// Runs the steps named in `only` (every step when empty), in the fixed order.
pub fn run(repo: &Repo, only: &[String]) -> Result {
    common::stop_commands_on_interrupt();
    let started = Instant::now();
    let scale = common::time_scale()?;
    let run_limit = RUN_LIMIT.mul_f64(scale);
    let steps: Vec<&Step> = STEPS
        .iter()
        .filter(|step| only.is_empty() || only.iter().any(|name| name == step.name))
        .collect();
    // Each limit, in the banners: a command that hangs is killed at the step's limit, or at the
    // whole run's, whichever comes first.
    let bounded = |name: &'static str, step_limit: Duration| {
        let step_limit = step_limit.mul_f64(scale);
        let left = (started + run_limit).saturating_duration_since(Instant::now());
        if step_limit <= left {
            limit(name, step_limit, Instant::now() + step_limit)
        } else {
            Limit {
                said: format!("the whole run's limit of {}", limit_text(run_limit, 1.0)),
                ..limit(name, step_limit, started + run_limit)
            }
        }
    };

    // A whole run must leave the checkout as it found it: what git shows now is the developer's.
    let checkout_before = if only.is_empty() {
        common::within(bounded("checkout", CHECKOUT_LIMIT), || checkout_state(repo))
    } else {
        None
    };

    let setup_limit = bounded("setup", SETUP_LIMIT);
    banner(&format!("setup (limit {})", limit_text(SETUP_LIMIT, scale)));
    let setup_started = Instant::now();
    common::within(
        Limit {
            own_group: false,
            ..setup_limit
        },
        || setup::run(repo, steps.iter().any(|step| step.needs_browser)),
    )?;
    let mut results = vec![("setup", "ok", setup_started.elapsed())];

    let mut failure = None;
    for (index, step) in steps.iter().enumerate() {
        banner(&format!(
            "[{}/{}] {}: {} (limit {})",
            index + 1,
            steps.len(),
            step.name,
            step.title,
            limit_text(step.limit(), scale)
        ));
        let step_started = Instant::now();
        let outcome = common::within(bounded(step.name, step.limit()), || (step.run)(repo));
        let elapsed = step_started.elapsed();
        match outcome {
            Ok(()) => {
                banner(&format!("ok: {} ({})", step.name, format_duration(elapsed)));
                results.push((step.name, "ok", elapsed));
            }
            Err(error) => {
                banner(&format!(
                    "FAILED: {} after {}",
                    step.name,
                    format_duration(elapsed)
                ));
                results.push((step.name, "FAILED", elapsed));
                failure = Some(error);
                break;
            }
        }
    }
    for step in steps.iter().skip(results.len() - 1) {
        results.push((step.name, "not run", Duration::ZERO));
    }
    if let (None, Some(before)) = (&failure, checkout_before) {
        let checked = Instant::now();
        let after = common::within(bounded("checkout", CHECKOUT_LIMIT), || checkout_state(repo));
        if let Err(error) = check_checkout(&before, after.as_ref()) {
            failure = Some(error);
            results.push(("checkout", "FAILED", checked.elapsed()));
        } else {
            results.push(("checkout", "ok", checked.elapsed()));
        }
    }
    print_summary(&results, started.elapsed());
    match failure {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The limit of `step`, ending at `deadline`, with its own process group for each command.
fn limit(step: &str, allowed: Duration, deadline: Instant) -> Limit {
    Limit {
        step: step.to_string(),
        deadline,
        said: format!("its limit of {}", limit_text(allowed, 1.0)),
        own_group: true,
    }
}

/// `15 min`, or `15 min × 2` when `$TIME_LIMIT_SCALE` multiplies it.
fn limit_text(limit: Duration, scale: f64) -> String {
    let text = if minutes(limit.as_secs() / 60) == limit {
        format!("{} min", limit.as_secs() / 60)
    } else {
        format_duration(limit)
    };
    if scale == 1.0 {
        text
    } else {
        format!("{text} × {scale}")
    }
}

impl Step {
    /// Its time limit before `$TIME_LIMIT_SCALE`: the fuzz step's grows with `$FUZZ_SECONDS`.
    fn limit(&self) -> Duration {
        if self.name == "fuzz" {
            let per_target = Duration::from_secs(2 * fuzz_seconds());
            self.limit + per_target * FUZZ_TARGETS.len() as u32
        } else {
            self.limit
        }
    }
}

fn banner(text: &str) {
    println!("\n==== {text}");
}

fn print_summary(results: &[(&str, &str, Duration)], total: Duration) {
    banner("summary");
    for (name, status, elapsed) in results {
        let time = if *status == "not run" {
            String::new()
        } else {
            format_duration(*elapsed)
        };
        println!("  {status:<8} {name:<12} {time:>12}");
    }
    println!("  {:<8} {:<12} {:>12}", "", "total", format_duration(total));
}

// --- the steps --------------------------------------------------------------------------------

fn cargo(repo: &Repo, args: &[&str]) -> Command {
    let mut command = repo.cargo();
    command.args(args);
    command
}

fn fmt(repo: &Repo) -> Result {
    common::run(
        cargo(repo, &["fmt", "--all", "--check"]),
        "run `cargo fmt --all` and review the diff",
    )
}

fn clippy(repo: &Repo) -> Result {
    common::run(
        cargo(
            repo,
            &[
                "clippy",
                "--workspace",
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        ),
        "fix the warnings above (clippy denies every warning)",
    )
}

fn clippy_wasm(repo: &Repo) -> Result {
    common::run(
        cargo(
            repo,
            &[
                "clippy",
                "-p",
                "botplay-web",
                "--target",
                WASM_TARGET,
                "--all-targets",
                "--",
                "-D",
                "warnings",
            ],
        ),
        "fix the warnings above (clippy denies every warning)",
    )
}

fn native_tests(repo: &Repo) -> Result {
    // The CLI's tests play the project's WebAssembly bots against their native builds.
    crate::wasi_bots::build(repo)?;
    common::run(
        cargo(repo, &["test", "--workspace"]),
        "read the failing test's output above; `cargo test -p CRATE NAME` repeats one test",
    )
}

// --- the fuzz smoke run -----------------------------------------------------------------------

/// The targets of `fuzz/Cargo.toml`, each run for [`FUZZ_SECONDS`] (or `$FUZZ_SECONDS`).
const FUZZ_TARGETS: [&str; 3] = ["bot_lines", "replay", "share_link"];
const FUZZ_SECONDS: u64 = 30;

/// `$FUZZ_SECONDS`, or [`FUZZ_SECONDS`].
fn fuzz_seconds() -> u64 {
    std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(FUZZ_SECONDS)
}

/// Builds the fuzz targets once and runs each briefly from its committed seeds, in a fresh
/// corpus (`fuzz/target/smoke/`; the long runs' corpus in `fuzz/corpus/` is left alone, so the
/// time stays bounded). libFuzzer needs unstable compiler flags: the nightly toolchain when
/// rustup has one (and `FUZZ_STABLE` is not set), else this toolchain with `RUSTC_BOOTSTRAP=1`.
fn fuzz_smoke(repo: &Repo) -> Result {
    setup::ensure_cargo_fuzz(repo)?;
    if repo.find_program("c++").is_none() {
        return Err(Failure::new(
            "no C++ compiler (`c++`) for libFuzzer, which the fuzz targets link",
            "apt-get install -y g++ (Debian), then run `cargo xtask test fuzz` again",
        ));
    }
    let seconds = fuzz_seconds();
    let nightly = std::env::var_os("FUZZ_STABLE").is_none() && has_nightly(repo);
    println!(
        "  toolchain: {}; {seconds} s per target",
        if nightly {
            "nightly (rustup run nightly)"
        } else {
            "no nightly here: this stable toolchain with RUSTC_BOOTSTRAP=1"
        }
    );
    let hint = "read the output above; the crash input is in fuzz/artifacts/TARGET/ \
                (fuzz/README.md shows how to repeat it)";
    let mut build = fuzz_command(repo, nightly);
    build.args(["build", "-a", "-s", "none"]);
    common::run(build, hint)?;
    for target in FUZZ_TARGETS {
        let corpus = repo.path(&format!("fuzz/target/smoke/{target}"));
        let _ = std::fs::remove_dir_all(&corpus);
        std::fs::create_dir_all(&corpus).map_err(|e| {
            Failure::new(
                format!("cannot create {}: {e}", corpus.display()),
                "check that the checkout is writable",
            )
        })?;
        let mut run = fuzz_command(repo, nightly);
        run.args(["run", "-a", "-s", "none", target])
            .arg(&corpus)
            .args(Some(repo.path(&format!("fuzz/seeds/{target}"))).filter(|s| s.is_dir()))
            .args([
                "--",
                &format!("-max_total_time={seconds}"),
                "-timeout=20",
                "-len_control=0",
                "-max_len=32768",
                "-print_final_stats=1",
            ]);
        let shown = format!("cargo fuzz run -a -s none {target} (for {seconds} s)");
        println!("$ {shown}");
        run.stdin(Stdio::null());
        let output = common::output(run, &shown)?;
        // libFuzzer reports on stderr, a line per new input: show its summary, or its end.
        let log = String::from_utf8_lossy(&output.stderr);
        if output.status.success() {
            let stats: Vec<&str> = log.lines().filter(|l| l.starts_with("Done ")).collect();
            println!("  {target}: {}", stats.join("; "));
        } else {
            let lines: Vec<&str> = log.lines().collect();
            for line in &lines[lines.len().saturating_sub(60)..] {
                println!("  {line}");
            }
            common::check_status(&shown, output.status, hint)?;
        }
    }
    Ok(())
}

/// `cargo fuzz` in `fuzz/`, on nightly or on this toolchain with `RUSTC_BOOTSTRAP=1`, with its
/// own target directory (its instrumented builds would otherwise evict the workspace's).
fn fuzz_command(repo: &Repo, nightly: bool) -> Command {
    let mut command = if nightly {
        let mut command = repo.command("rustup");
        command.args(["run", "nightly", "cargo", "fuzz"]);
        command
    } else {
        let mut command = repo.cargo();
        command.arg("fuzz").env("RUSTC_BOOTSTRAP", "1");
        command
    };
    command
        .current_dir(repo.path("fuzz"))
        .env("CARGO_TARGET_DIR", repo.path("fuzz/target"))
        .env_remove("RUSTFLAGS");
    command
}

/// Whether rustup has a nightly toolchain.
fn has_nightly(repo: &Repo) -> bool {
    let mut command = repo.command("rustup");
    command.args(["run", "nightly", "rustc", "--version"]);
    common::stdout_of(command).is_some()
}

/// Chromium's switches for the wasm tests. wasm-bindgen-test-runner adds `headless`,
/// `no-sandbox` and `disable-dev-shm-usage` itself; the rest keep Chromium from reaching for
/// the network, which this machine's closed network refuses.
const CHROMIUM_ARGS: [&str; 9] = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
];

fn wasm_tests(repo: &Repo) -> Result {
    let mut command = cargo(
        repo,
        &["test", "-p", "botplay-web", "--target", WASM_TARGET],
    );
    command
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            "wasm-bindgen-test-runner",
        )
        .env("CHROMEDRIVER", CHROMEDRIVER)
        .env_remove("NO_HEADLESS");
    // The runner reads the browser's capabilities from this file (default: ./webdriver.json).
    if std::env::var_os("WASM_BINDGEN_TEST_WEBDRIVER_JSON").is_none() {
        let capabilities = write_webdriver_json(repo)?;
        command.env("WASM_BINDGEN_TEST_WEBDRIVER_JSON", capabilities);
    }
    // The runner's own failure ("some tests failed") comes without an anyhow backtrace.
    if std::env::var_os("RUST_LIB_BACKTRACE").is_none() {
        command.env("RUST_LIB_BACKTRACE", "0");
    }
    // The runner's default of 20 s is short for a cold Chromium on a busy 2-core machine.
    if std::env::var_os("WASM_BINDGEN_TEST_TIMEOUT").is_none() {
        command.env("WASM_BINDGEN_TEST_TIMEOUT", "120");
    }
    println!(
        "  runner: wasm-bindgen-test-runner, CHROMEDRIVER={CHROMEDRIVER}, browser {CHROMIUM} {}",
        CHROMIUM_ARGS.join(" ")
    );
    common::run(
        command,
        "read the output above; `cargo xtask test wasm-test` repeats only this step, and \
         NO_HEADLESS=1 with the same command serves the tests to open in a browser",
    )
}

/// Writes `target/xtask/webdriver.json`: Debian's Chromium with our switches.
fn write_webdriver_json(repo: &Repo) -> Result<PathBuf> {
    let dir = repo.target_dir().join("xtask");
    let path = dir.join("webdriver.json");
    let args: Vec<String> = CHROMIUM_ARGS.iter().map(|a| format!("\"{a}\"")).collect();
    let json = format!(
        "{{\n  \"goog:chromeOptions\": {{\n    \"binary\": \"{CHROMIUM}\",\n    \"args\": [{}]\n  }}\n}}\n",
        args.join(", ")
    );
    std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, json))
        .map_err(|e| {
            Failure::new(
                format!("cannot write {}: {e}", path.display()),
                "check that the target directory is writable",
            )
        })?;
    Ok(path)
}

pub fn release_build(repo: &Repo) -> Result {
    let mut command = serve::trunk(repo, "build");
    command.arg("--release");
    common::run(
        command,
        "read trunk's messages above; `cargo xtask serve` runs the same build with live reload",
    )?;
    report_sizes(&repo.path("dist"), "dist/")
}

fn end_to_end(repo: &Repo) -> Result {
    let script = "tests/e2e/run.mjs";
    if !repo.path(script).is_file() {
        return Err(Failure::new(
            format!("{script} is missing, so the browser end-to-end tests cannot run"),
            "restore tests/e2e/ from git",
        ));
    }
    let mut command = repo.command("node");
    command.args([script, "--dist", "dist"]);
    common::run(
        command,
        "read the output above; `cargo xtask test build e2e` repeats the build and these tests",
    )?;
    // Each in a browser and on a server of its own: the embed view framed by a page of another
    // origin; the charts of a match and of the arena; a match taken over from a turn, and the
    // original beside it; a match's earlier turns looked at while it is played (their pictures
    // asked for) and once it is over; a teacher's class built from links and a file, played,
    // exported and carried by a class link; a class played in the page and by `botplay arena
    // --class` on the class file the page saved, the two JSONs compared (it builds the CLI with
    // `cargo build -p botplay`, which `cargo test` has mostly built); WebAssembly bots (a C bot
    // compiled by clang for wasm32-wasi against its native transcript in the CLI, hostile
    // modules); TypeScript bots typed into the editor, each game's TypeScript starter, and what
    // Sucrase costs. Each with the screenshots (or files) it leaves.
    for (name, screenshots) in [
        ("embed", "embed-*.png"),
        ("charts", "charts*.png"),
        ("take-over", "take-over.png"),
        ("pictures", "pictures-live.png"),
        ("class", "class.png"),
        ("class-cli", "class-cli-*.json"),
        ("wasm-bots", "wasm-match.png"),
        ("typescript", "timeout-chromium.png"),
    ] {
        let script = format!("tests/e2e/{name}.mjs");
        let mut command = repo.command("node");
        command.args([script.as_str(), "--dist", "dist"]);
        common::run(
            command,
            &format!(
                "read the output above (and tests/e2e/screenshots/{screenshots}); `node \
                 {script} --dist dist` runs these checks alone"
            ),
        )?;
    }
    Ok(())
}

fn hostile_bots(repo: &Repo) -> Result {
    let script = "tests/e2e/hostile.mjs";
    let mut command = repo.command("node");
    command.args([script, "--dist", "dist"]);
    common::run(
        command,
        "read the output above (and tests/e2e/screenshots/hostile-failure.png); \
         `cargo xtask test build hostile` repeats the build and these tests",
    )
}

fn other_browsers(repo: &Repo) -> Result {
    for (script, shots) in [
        ("tests/e2e/cross-browser.mjs", "xb"),
        ("tests/e2e/cross-hostile.mjs", "xh"),
        ("tests/e2e/fair-budgets.mjs", "fair"),
    ] {
        let mut command = repo.command("node");
        command.args([script, "--dist", "dist"]);
        common::run(
            command,
            &format!(
                "read the output above (and tests/e2e/screenshots/{shots}-<browser>-failure.png); \
                 `node {script} --browsers <name>` runs one browser alone; \
                 `cargo xtask test build browsers` repeats the build and these tests"
            ),
        )?;
    }
    Ok(())
}

// --- the checkout, as the run found it ------------------------------------------------------

/// What `git status` lists (tracked files changed, untracked files not ignored), each with its
/// status and a hash of its contents (`None`: no such file). A run must leave it as it was: only
/// git-ignored files (`.gitignore`: builds, screenshots, fuzz corpora) may change.
type Checkout = BTreeMap<String, (String, Option<u64>)>;

/// The checkout's state, or `None` (with a note) where git cannot tell it.
fn checkout_state(repo: &Repo) -> Option<Checkout> {
    let mut command = Command::new("git");
    command.current_dir(&repo.root).args([
        "status",
        "--porcelain=v1",
        "-z",
        "--untracked-files=all",
    ]);
    let shown = common::describe(&command);
    match common::output(command, &shown) {
        Ok(output) if output.status.success() => Some(
            parse_status(&output.stdout)
                .into_iter()
                .map(|(status, path)| {
                    let hash = std::fs::read(repo.root.join(&path)).ok().map(|bytes| {
                        let mut hasher = DefaultHasher::new();
                        bytes.hash(&mut hasher);
                        hasher.finish()
                    });
                    (path, (status, hash))
                })
                .collect(),
        ),
        _ => {
            println!("  (`{shown}` failed: whether the run leaves the checkout as it was is not checked)");
            None
        }
    }
}

/// The entries of `git status --porcelain=v1 -z`: (status, path). A rename or copy names the
/// new path, then the old one, which is left out.
fn parse_status(text: &[u8]) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    let mut fields = text.split(|b| *b == 0).filter(|f| !f.is_empty());
    while let Some(field) = fields.next() {
        let field = String::from_utf8_lossy(field);
        let (Some(status), Some(path)) = (field.get(..2), field.get(3..)) else {
            continue;
        };
        if status.contains(['R', 'C']) {
            fields.next();
        }
        entries.push((status.to_string(), path.to_string()));
    }
    entries
}

/// What changed between two states of the checkout, a line per file.
fn checkout_changes(before: &Checkout, after: &Checkout) -> Vec<String> {
    let mut changes = Vec::new();
    for (path, (status, hash)) in after {
        let what = match before.get(path) {
            Some(was) if was == &(status.clone(), *hash) => continue,
            Some(_) => "changed again (it was already changed before the run)",
            None if status == "??" => "new, and not git-ignored",
            None if status.contains('D') => "deleted",
            None => "changed",
        };
        changes.push(format!("{path}: {what}"));
    }
    for path in before.keys().filter(|path| !after.contains_key(*path)) {
        changes.push(format!(
            "{path}: put back as committed (its changes before the run are gone)"
        ));
    }
    changes
}

fn check_checkout(before: &Checkout, after: Option<&Checkout>) -> Result {
    let Some(after) = after else {
        return Ok(());
    };
    let changes = checkout_changes(before, after);
    if changes.is_empty() {
        println!("\nthe checkout is as the run found it (git status)");
        return Ok(());
    }
    Err(Failure::new(
        format!(
            "the test run changed the checkout (git status), which it must leave as it found \
             it:\n  {}",
            changes.join("\n  ")
        ),
        "a test may write only where .gitignore ignores (builds, screenshots, fuzz corpora); \
         `git diff` shows what changed in tracked files",
    ))
}

// --- the size report --------------------------------------------------------------------------

/// Python's runtime in `dist/`, fetched only when a Python bot plays.
const PYTHON_DIR: &str = "pyodide";

/// The files the offline service worker caches only once the page has been idle a while (its
/// manifest's `later` list, written by `www/editor/sw.mjs` into `coi-sw.js`).
fn later_files(worker: &str) -> Vec<String> {
    let Some(start) = worker.find("\"later\": [") else {
        return Vec::new();
    };
    let list = &worker[start..];
    let list = &list[..list.find(']').unwrap_or(list.len())];
    list.split('"')
        .skip(3)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

/// Prints each file of `dist` with its raw and gzipped size, and the totals: all of it, and what
/// a first visit fetches. That is every file but Python's runtime and what the offline service
/// worker (`coi-sw.js`) caches only later: the page and its code editor, the bots' workers that
/// a first match starts, and the rest of what the worker caches at once. `tests/e2e/perf.mjs`
/// counts the same in Chromium.
fn report_sizes(dist: &Path, label: &str) -> Result {
    let mut files = Vec::new();
    collect_files(dist, &mut files)?;
    files.sort();
    let later = later_files(&std::fs::read_to_string(dist.join("coi-sw.js")).unwrap_or_default());
    println!("\nsize of {label} (gzip -9):");
    println!("  {:>12} {:>12}  file", "raw", "gzipped");
    let (mut raw_total, mut gzip_total) = (0, 0);
    let (mut first_raw, mut first_gzip) = (0, 0);
    for file in &files {
        let raw = file
            .metadata()
            .map(|m| m.len())
            .map_err(|e| read_failure(file, &e))?;
        let gzipped = gzip_size(file)?;
        raw_total += raw;
        gzip_total += gzipped;
        let relative = file.strip_prefix(dist).unwrap_or(file);
        let cached_later = later.iter().any(|f| relative == Path::new(f));
        if !relative.starts_with(PYTHON_DIR) && !cached_later {
            first_raw += raw;
            first_gzip += gzipped;
        }
        let name = relative.display();
        println!(
            "  {:>12} {:>12}  {name}",
            format_size(raw),
            format_size(gzipped)
        );
    }
    println!(
        "  {:>12} {:>12}  total ({} files)",
        format_size(raw_total),
        format_size(gzip_total),
        files.len()
    );
    println!(
        "  {:>12} {:>12}  first visit: everything but {PYTHON_DIR}/ and the {} files cached later (target: under 1 MB gzipped)",
        format_size(first_raw),
        format_size(first_gzip),
        later.len(),
    );
    Ok(())
}

fn collect_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result {
    let entries = std::fs::read_dir(dir).map_err(|e| read_failure(dir, &e))?;
    for entry in entries {
        let path = entry.map_err(|e| read_failure(dir, &e))?.path();
        if path.is_dir() {
            collect_files(&path, files)?;
        } else {
            files.push(path);
        }
    }
    Ok(())
}

fn read_failure(path: &Path, error: &std::io::Error) -> Failure {
    Failure::new(
        format!("cannot read {}: {error}", path.display()),
        "run `trunk build --release` again; it recreates dist/",
    )
}

/// The size of `gzip -9 -c FILE`.
fn gzip_size(file: &Path) -> Result<u64> {
    let output = Command::new("gzip")
        .args(["-9", "-c"])
        .arg(file)
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| common::spawn_failure("gzip", &e))?;
    if !output.status.success() {
        return Err(Failure::new(
            format!("`gzip -9 -c {}` failed", file.display()),
            "check that gzip works (Debian package gzip)",
        ));
    }
    Ok(output.stdout.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_cached_later_are_read_from_the_worker_s_manifest() {
        let worker = "const MANIFEST = {\n  \"version\": \"ab\",\n  \"later\": [\n    \"charts.png\",\n    \"zip.js\"\n  ],\n  \"pyodide\": {}\n};";
        assert_eq!(later_files(worker), ["charts.png", "zip.js"]);
        assert!(later_files("const MANIFEST = { \"later\": [] };").is_empty());
        assert!(later_files("no manifest").is_empty());
    }

    #[test]
    fn every_step_is_bounded_within_the_whole_run() {
        for step in &STEPS {
            assert!(
                step.limit() >= minutes(3) && step.limit() + SETUP_LIMIT <= RUN_LIMIT,
                "{}: {:?}",
                step.name,
                step.limit()
            );
        }
        assert!(RUN_LIMIT < minutes(90), "CI gives a run 90 minutes");
    }

    #[test]
    fn limits_read_well() {
        assert_eq!(limit_text(minutes(15), 1.0), "15 min");
        assert_eq!(limit_text(minutes(15), 2.0), "15 min × 2");
        assert_eq!(limit_text(Duration::from_secs(90), 1.0), "1 min 30 s");
    }

    #[test]
    fn git_status_is_read() {
        let text = b" M fuzz/Cargo.lock\0?? tests/e2e/a b.png\0R  new.rs\0old.rs\0D  gone.rs\0";
        assert_eq!(
            parse_status(text),
            [
                (" M", "fuzz/Cargo.lock"),
                ("??", "tests/e2e/a b.png"),
                ("R ", "new.rs"),
                ("D ", "gone.rs"),
            ]
            .map(|(s, p)| (s.to_string(), p.to_string()))
        );
    }

    #[test]
    fn only_what_the_run_changed_is_blamed() {
        let state = |entries: &[(&str, &str, Option<u64>)]| -> Checkout {
            entries
                .iter()
                .map(|(path, status, hash)| (path.to_string(), (status.to_string(), *hash)))
                .collect()
        };
        // The developer's own work, before the run.
        let before = state(&[("src/mine.rs", " M", Some(1)), ("notes.txt", "??", Some(2))]);
        assert!(checkout_changes(&before, &before.clone()).is_empty());
        let after = state(&[
            ("src/mine.rs", " M", Some(1)),
            ("notes.txt", "??", Some(3)),
            ("fuzz/Cargo.lock", " M", Some(4)),
            ("shot.png", "??", Some(5)),
            ("README.md", " D", None),
        ]);
        assert_eq!(
            checkout_changes(&before, &after),
            [
                "README.md: deleted",
                "fuzz/Cargo.lock: changed",
                "notes.txt: changed again (it was already changed before the run)",
                "shot.png: new, and not git-ignored",
            ]
        );
        let reverted = state(&[("notes.txt", "??", Some(2))]);
        assert_eq!(
            checkout_changes(&before, &reverted),
            ["src/mine.rs: put back as committed (its changes before the run are gone)"]
        );
        let error = check_checkout(&before, Some(&after)).unwrap_err();
        assert!(error.what.contains("\n  shot.png: new"), "{}", error.what);
        assert!(check_checkout(&before, None).is_ok());
    }
}
