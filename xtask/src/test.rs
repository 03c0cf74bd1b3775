//! `cargo xtask test [STEP...]`: set up, then run every check in order, stopping at the first
//! failure. Each step is announced with a banner and timed.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::{self, format_duration, format_size, Failure, Repo, Result};
use crate::serve;
use crate::setup::{self, CHROMEDRIVER, CHROMIUM, WASM_TARGET};

/// One check of `cargo xtask test`.
pub struct Step {
    pub name: &'static str,
    pub title: &'static str,
    needs_browser: bool,
    run: fn(&Repo) -> Result,
}

const STEPS: [Step; 10] = [
    Step {
        name: "fmt",
        title: "cargo fmt --all --check",
        needs_browser: false,
        run: fmt,
    },
    Step {
        name: "clippy",
        title: "cargo clippy --workspace --all-targets -- -D warnings",
        needs_browser: false,
        run: clippy,
    },
    Step {
        name: "clippy-wasm",
        title: "cargo clippy -p botplay-web --target wasm32-unknown-unknown --all-targets -- -D warnings",
        needs_browser: false,
        run: clippy_wasm,
    },
    Step {
        name: "test",
        title: "cargo test --workspace",
        needs_browser: false,
        run: native_tests,
    },
    Step {
        name: "fuzz",
        title: "cargo fuzz run, each target of fuzz/ briefly (nightly, or stable with RUSTC_BOOTSTRAP=1)",
        needs_browser: false,
        run: fuzz_smoke,
    },
    Step {
        name: "wasm-test",
        title: "cargo test -p botplay-web --target wasm32-unknown-unknown, in headless Chromium",
        needs_browser: true,
        run: wasm_tests,
    },
    Step {
        name: "build",
        title: "trunk build --release, then the size of each file in dist/",
        needs_browser: false,
        run: release_build,
    },
    Step {
        name: "e2e",
        title: "node tests/e2e/run.mjs, then embed.mjs, charts.mjs, take-over.mjs and pictures.mjs, --dist dist, in headless Chromium",
        needs_browser: true,
        run: end_to_end,
    },
    Step {
        name: "hostile",
        title: "node tests/e2e/hostile.mjs --dist dist: hostile bots against the sandbox, in headless Chromium",
        needs_browser: true,
        run: hostile_bots,
    },
    Step {
        name: "browsers",
        title: "node tests/e2e/cross-browser.mjs, then cross-hostile.mjs, --dist dist: the checks \
                that matter to a person, then hostile bots, in Firefox ESR, WebKitGTK (as shipped, \
                without SharedArrayBuffer, and with it) and Chromium without SharedArrayBuffer",
        needs_browser: true,
        run: other_browsers,
    },
];

pub fn step_named(name: &str) -> Option<&'static Step> {
    STEPS.iter().find(|step| step.name == name)
}

pub fn step_names() -> Vec<&'static str> {
    STEPS.iter().map(|step| step.name).collect()
}

pub fn step_titles() -> impl Iterator<Item = (&'static str, &'static str)> {
    STEPS.iter().map(|step| (step.name, step.title))
}

/// Runs the steps named in `only` (every step when empty), in the fixed order.
pub fn run(repo: &Repo, only: &[String]) -> Result {
    let started = Instant::now();
    let steps: Vec<&Step> = STEPS
        .iter()
        .filter(|step| only.is_empty() || only.iter().any(|name| name == step.name))
        .collect();

    banner("setup");
    let setup_started = Instant::now();
    setup::run(repo, steps.iter().any(|step| step.needs_browser))?;
    let mut results = vec![("setup", "ok", setup_started.elapsed())];

    let mut failure = None;
    for (index, step) in steps.iter().enumerate() {
        banner(&format!(
            "[{}/{}] {}: {}",
            index + 1,
            steps.len(),
            step.name,
            step.title
        ));
        let step_started = Instant::now();
        let outcome = (step.run)(repo);
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
    print_summary(&results, started.elapsed());
    match failure {
        Some(error) => Err(error),
        None => Ok(()),
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
    common::run(
        cargo(repo, &["test", "--workspace"]),
        "read the failing test's output above; `cargo test -p CRATE NAME` repeats one test",
    )
}

// --- the fuzz smoke run -----------------------------------------------------------------------

/// The targets of `fuzz/Cargo.toml`, each run for [`FUZZ_SECONDS`] (or `$FUZZ_SECONDS`).
const FUZZ_TARGETS: [&str; 3] = ["bot_lines", "replay", "share_link"];
const FUZZ_SECONDS: u64 = 30;

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
    let seconds = std::env::var("FUZZ_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(FUZZ_SECONDS);
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
        let output = run
            .stdin(Stdio::null())
            .output()
            .map_err(|e| common::spawn_failure(&shown, &e))?;
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
    // asked for) and once it is over. Each with the screenshots it takes.
    for (name, screenshots) in [
        ("embed", "embed-*.png"),
        ("charts", "charts*.png"),
        ("take-over", "take-over.png"),
        ("pictures", "pictures-live.png"),
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

// --- the size report --------------------------------------------------------------------------

/// Python's runtime in `dist/`, fetched only when a Python bot plays.
const PYTHON_DIR: &str = "pyodide";

/// Prints each file of `dist` with its raw and gzipped size, and the totals: all of it, and what
/// a first visit fetches. That is every file but Python's runtime: the page and its code editor,
/// the bots' workers that a first match starts, and the rest, which the offline service worker
/// (`coi-sw.js`) caches on the first visit. `tests/e2e/perf.mjs` counts the same in Chromium.
fn report_sizes(dist: &Path, label: &str) -> Result {
    let mut files = Vec::new();
    collect_files(dist, &mut files)?;
    files.sort();
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
        if !relative.starts_with(PYTHON_DIR) {
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
        "  {:>12} {:>12}  first visit: everything but {PYTHON_DIR}/ (target: under 1 MB gzipped)",
        format_size(first_raw),
        format_size(first_gzip),
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
