//! `cargo xtask setup [--browser]`: installs whatever is missing, and only that.
//!
//! Each tool is detected first; a tool that is there prints one `ok:` line and costs nothing.

use std::path::Path;
use std::process::Command;
use std::time::{Instant, SystemTime};

use crate::common::{self, format_duration, stdout_of, Failure, Repo, Result};

pub const TRUNK_VERSION: &str = "0.21.14";
pub const WASM_TARGET: &str = "wasm32-unknown-unknown";
pub const CHROMIUM: &str = "/usr/bin/chromium";
pub const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// What a detection found: `Ok("trunk 0.21.14")`, or why the tool must be installed.
type Detected = std::result::Result<String, String>;

/// Installs what is missing; with `browser`, Debian's Chromium and ChromeDriver too, and the other
/// engines the cross-browser checks use (Firefox ESR, WebKitGTK's WebDriver and MiniBrowser, Xvfb).
pub fn run(repo: &Repo, browser: bool) -> Result {
    let started = Instant::now();
    let wasm_bindgen = locked_wasm_bindgen_version(repo)?;
    let mut installed = Vec::new();
    installed.extend(ensure_wasm_target(repo)?);
    installed.extend(ensure_trunk(repo)?);
    installed.extend(ensure_wasm_bindgen(repo, &wasm_bindgen)?);
    installed.extend(ensure_npm_packages(repo)?);
    installed.extend(ensure_parallel()?);
    installed.extend(ensure_wasi_tools(repo)?);
    if browser {
        installed.extend(ensure_browser()?);
        installed.extend(ensure_other_browsers()?);
    }
    let elapsed = format_duration(started.elapsed());
    if installed.is_empty() {
        println!("setup: nothing to install ({elapsed})");
    } else {
        println!("setup: installed {} ({elapsed})", installed.join(", "));
    }
    Ok(())
}

/// Detects a tool; if it is missing, installs it, checks again, and returns its name.
fn ensure(
    name: &str,
    detect: impl Fn() -> Detected,
    install: impl FnOnce() -> Result,
) -> Result<Option<String>> {
    let reason = match detect() {
        Ok(found) => {
            println!("ok: {found}");
            return Ok(None);
        }
        Err(reason) => reason,
    };
    println!("install: {name} ({reason})");
    let started = Instant::now();
    install()?;
    match detect() {
        Ok(found) => {
            println!(
                "installed: {found} in {}",
                format_duration(started.elapsed())
            );
            Ok(Some(name.to_string()))
        }
        Err(reason) => Err(Failure::new(
            format!("after installing {name}, it is still not usable: {reason}"),
            "run the install command shown above by hand and read its output",
        )),
    }
}

// --- the wasm32 target ------------------------------------------------------------------------

fn ensure_wasm_target(repo: &Repo) -> Result<Option<String>> {
    ensure(
        &format!("rust target {WASM_TARGET}"),
        || detect_wasm_target(repo),
        || {
            let mut command = repo.command("rustup");
            command.args(["target", "add", WASM_TARGET]);
            common::run(
                command,
                "install rustup (https://rustup.rs), or add the wasm32 standard library to your toolchain",
            )
        },
    )
}

fn detect_wasm_target(repo: &Repo) -> Detected {
    detect_rust_target(repo, WASM_TARGET)
}

/// Whether rustc's sysroot holds the standard library of `target`.
fn detect_rust_target(repo: &Repo, target: &str) -> Detected {
    let mut command = repo.command("rustc");
    command.args(["--print", "sysroot"]);
    let sysroot = stdout_of(command).ok_or("`rustc --print sysroot` failed")?;
    let lib = Path::new(&sysroot)
        .join("lib/rustlib")
        .join(target)
        .join("lib");
    if lib.is_dir() {
        Ok(format!("rust target {target}"))
    } else {
        Err("not installed".into())
    }
}

// --- trunk ------------------------------------------------------------------------------------

fn ensure_trunk(repo: &Repo) -> Result<Option<String>> {
    ensure(
        &format!("trunk {TRUNK_VERSION}"),
        || detect_version(repo, "trunk", TRUNK_VERSION),
        || {
            let mut command = repo.cargo();
            command.args(["install", "trunk", "--version", TRUNK_VERSION, "--locked"]);
            println!("  (a cold build of trunk takes about 7 minutes on 2 cores)");
            common::run(
                command,
                "check that crates.io is reachable and that gcc is installed, then run it again",
            )
        },
    )
}

/// Runs `program --version` and expects `program X.Y.Z` with the wanted version.
fn detect_version(repo: &Repo, program: &str, wanted: &str) -> Detected {
    if repo.find_program(program).is_none() {
        return Err("not installed".into());
    }
    let mut command = repo.command(program);
    command.arg("--version");
    let printed = stdout_of(command).ok_or(format!("`{program} --version` failed"))?;
    match printed.split_whitespace().nth(1) {
        Some(version) if version.trim_start_matches('v') == wanted => {
            Ok(format!("{program} {wanted}"))
        }
        Some(version) => Err(format!("found version {version}, need {wanted}")),
        None => Err(format!("`{program} --version` printed `{printed}`")),
    }
}

// --- wasm-bindgen-cli -------------------------------------------------------------------------

/// The version of the `wasm-bindgen` crate in `Cargo.lock`: the CLI must match it exactly.
pub fn locked_wasm_bindgen_version(repo: &Repo) -> Result<String> {
    let path = repo.path("Cargo.lock");
    let lock = std::fs::read_to_string(&path).map_err(|e| {
        Failure::new(
            format!("cannot read {}: {e}", path.display()),
            "run `cargo generate-lockfile` (or any cargo build) to create it",
        )
    })?;
    let versions = locked_versions(&lock, "wasm-bindgen");
    match versions.as_slice() {
        [version] => Ok(version.clone()),
        [] => Err(Failure::new(
            "Cargo.lock has no `wasm-bindgen` package",
            "the web app depends on wasm-bindgen; run `cargo update -p wasm-bindgen` or a build",
        )),
        many => Err(Failure::new(
            format!(
                "Cargo.lock has several wasm-bindgen versions: {}",
                many.join(", ")
            ),
            "pin one version (`wasm-bindgen = \"=X\"`) so that one CLI matches it",
        )),
    }
}

/// Every `version` of the `[[package]]` entries called `name` in a Cargo.lock.
fn locked_versions(lock: &str, name: &str) -> Vec<String> {
    let wanted_name = format!("name = \"{name}\"");
    lock.split("[[package]]")
        .filter(|entry| entry.lines().any(|line| line.trim() == wanted_name))
        .filter_map(|entry| {
            entry.lines().find_map(|line| {
                line.trim()
                    .strip_prefix("version = \"")
                    .and_then(|rest| rest.strip_suffix('"'))
                    .map(str::to_string)
            })
        })
        .collect()
}

fn ensure_wasm_bindgen(repo: &Repo, version: &str) -> Result<Option<String>> {
    ensure(
        &format!("wasm-bindgen-cli {version}"),
        || detect_wasm_bindgen(repo, version),
        || {
            // Without --locked: the registry lacks one of the CLI's locked dependencies.
            let mut command = repo.cargo();
            command.args(["install", "wasm-bindgen-cli", "--version", version]);
            println!("  (about 2 minutes on 2 cores)");
            common::run(
                command,
                "check that crates.io is reachable, then run it again",
            )
        },
    )
}

fn detect_wasm_bindgen(repo: &Repo, version: &str) -> Detected {
    detect_version(repo, "wasm-bindgen", version)?;
    detect_version(repo, "wasm-bindgen-test-runner", version)?;
    Ok(format!(
        "wasm-bindgen-cli {version} (wasm-bindgen, wasm-bindgen-test-runner; as in Cargo.lock)"
    ))
}

// --- cargo-fuzz (only for the fuzz step) -----------------------------------------------------

pub const CARGO_FUZZ_VERSION: &str = "0.13.2";

/// Installs cargo-fuzz if it is missing; only `cargo xtask test fuzz` needs it, so plain
/// `cargo xtask setup` does not install it.
pub fn ensure_cargo_fuzz(repo: &Repo) -> Result<Option<String>> {
    ensure(
        &format!("cargo-fuzz {CARGO_FUZZ_VERSION}"),
        || detect_version(repo, "cargo-fuzz", CARGO_FUZZ_VERSION),
        || {
            let mut command = repo.cargo();
            command.args([
                "install",
                "cargo-fuzz",
                "--version",
                CARGO_FUZZ_VERSION,
                "--locked",
            ]);
            println!("  (about 2 minutes on 2 cores)");
            common::run(
                command,
                "check that crates.io is reachable, then run it again",
            )
        },
    )
}

// --- npm packages -----------------------------------------------------------------------------

const NPM_PACKAGES: [&str; 2] = ["binaryen", "playwright-core"];

fn ensure_npm_packages(repo: &Repo) -> Result<Option<String>> {
    ensure(
        "npm packages",
        || detect_npm_packages(repo),
        || {
            let mut command = repo.command("npm");
            // `npm ci` installs exactly package-lock.json; without a lock file, make one.
            if repo.path("package-lock.json").is_file() {
                command.arg("ci");
            } else {
                command.arg("install");
            }
            command.arg("--no-audit").arg("--no-fund");
            common::run(
                command,
                "install Node.js 20+ with npm (Debian: apt-get install nodejs npm) and check that \
                 the npm registry is reachable",
            )
        },
    )
}

fn detect_npm_packages(repo: &Repo) -> Detected {
    let lock = modified(&repo.path("package-lock.json")).ok_or("package-lock.json is missing")?;
    // npm writes node_modules/.package-lock.json at the end of every install.
    let installed =
        modified(&repo.path("node_modules/.package-lock.json")).ok_or("node_modules is missing")?;
    if installed < lock {
        return Err("node_modules is older than package-lock.json".into());
    }
    if !repo.path("node_modules/.bin/wasm-opt").is_file() {
        return Err("node_modules/.bin/wasm-opt is missing".into());
    }
    let versions: Vec<String> = NPM_PACKAGES
        .iter()
        .map(|name| installed_npm_version(repo, name).map(|v| format!("{name} {v}")))
        .collect::<std::result::Result<_, _>>()?;
    Ok(format!("npm packages: {}", versions.join(", ")))
}

fn modified(path: &Path) -> Option<SystemTime> {
    path.metadata().and_then(|m| m.modified()).ok()
}

/// The `"version"` of `node_modules/<name>/package.json`.
fn installed_npm_version(repo: &Repo, name: &str) -> Detected {
    let path = repo.path(&format!("node_modules/{name}/package.json"));
    let text = std::fs::read_to_string(path).map_err(|_| format!("{name} is not installed"))?;
    json_string_field(&text, "version").ok_or(format!("{name}'s package.json has no version"))
}

/// The first `"field": "value"` in a JSON text (enough for package.json's top-level version).
fn json_string_field(text: &str, field: &str) -> Option<String> {
    let after_key = text.split(&format!("\"{field}\"")).nth(1)?;
    let after_colon = after_key.trim_start().strip_prefix(':')?.trim_start();
    let value = after_colon.strip_prefix('"')?;
    value.split('"').next().map(str::to_string)
}

// --- Chromium and ChromeDriver ----------------------------------------------------------------

const BROWSER_PACKAGES: [&str; 2] = ["chromium", "chromium-driver"];

fn ensure_browser() -> Result<Option<String>> {
    ensure("chromium and chromium-driver", detect_browser, || {
        apt_install(&BROWSER_PACKAGES)
    })
}

fn detect_browser() -> Detected {
    for path in [CHROMIUM, CHROMEDRIVER] {
        if !Path::new(path).is_file() {
            return Err(format!("{path} is missing"));
        }
    }
    // "Chromium 156.0.8078.79 built on Debian ...", "ChromeDriver 156.0.8078.79 (hash...)".
    let version = |program: &str| {
        let mut command = Command::new(program);
        command.arg("--version");
        let printed = stdout_of(command).unwrap_or_default();
        let words: Vec<&str> = printed.split_whitespace().take(2).collect();
        if words.len() == 2 {
            words.join(" ")
        } else {
            format!("{program} (version unknown)")
        }
    };
    Ok(format!("{}, {}", version(CHROMIUM), version(CHROMEDRIVER)))
}

// --- Firefox ESR, WebKitGTK and Xvfb (tests/e2e/cross-browser.mjs) --------------------------------

pub const FIREFOX: &str = "/usr/bin/firefox-esr";
pub const WEBKIT_DRIVER: &str = "/usr/bin/WebKitWebDriver";
/// Installed by libwebkit2gtk-4.1-0, which webkit2gtk-driver depends on.
pub const MINIBROWSER: &str = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser";
pub const XVFB: &str = "/usr/bin/Xvfb";

/// Each program and the package that installs it.
const OTHER_BROWSERS: [(&str, &str); 4] = [
    (FIREFOX, "firefox-esr"),
    (WEBKIT_DRIVER, "webkit2gtk-driver"),
    (MINIBROWSER, "webkit2gtk-driver"),
    (XVFB, "xvfb"),
];

fn ensure_other_browsers() -> Result<Option<String>> {
    ensure(
        "firefox-esr, webkit2gtk-driver and xvfb",
        detect_other_browsers,
        || {
            let mut missing: Vec<&str> = OTHER_BROWSERS
                .iter()
                .filter(|(path, _)| !Path::new(path).is_file())
                .map(|(_, package)| *package)
                .collect();
            missing.dedup();
            apt_install(&missing)
        },
    )
}

fn detect_other_browsers() -> Detected {
    let missing: Vec<&str> = OTHER_BROWSERS
        .iter()
        .filter(|(path, _)| !Path::new(path).is_file())
        .map(|(path, _)| *path)
        .collect();
    if !missing.is_empty() {
        return Err(format!("{} missing", missing.join(", ")));
    }
    // "Mozilla Firefox 140.10.2esr"; WebKitGTK's version is its package's.
    let mut command = Command::new(FIREFOX);
    command.arg("--version");
    let firefox = stdout_of(command)
        .map(|v| v.trim().to_string())
        .unwrap_or_else(|| "Firefox ESR (version unknown)".into());
    let mut command = Command::new("dpkg-query");
    command.args(["-W", "-f", "${Version}", "libwebkit2gtk-4.1-0"]);
    let webkit = stdout_of(command).unwrap_or_else(|| "unknown".into());
    Ok(format!("{firefox}, WebKitGTK {webkit}, Xvfb"))
}

// --- GNU parallel (the CLI's sharded-arena test runs its shards with it) -----------------------

fn ensure_parallel() -> Result<Option<String>> {
    ensure("parallel", detect_parallel, || apt_install(&["parallel"]))
}

fn detect_parallel() -> Detected {
    // "GNU parallel 20221122"
    let mut command = Command::new("parallel");
    command.arg("--version");
    stdout_of(command)
        .and_then(|out| out.lines().next().map(str::to_string))
        .filter(|line| line.starts_with("GNU parallel"))
        .ok_or_else(|| "GNU parallel is not installed".to_string())
}

// --- the WASI bots' compilers (`cargo xtask wasi-bots`, bots/wasi/) -----------------------------

/// Rust's target for WebAssembly bots (WASI preview 1).
pub const WASI_TARGET: &str = "wasm32-wasip1";

/// Debian's clang for wasm32-wasi: the compiler, its linker, the C library, the C++ library and
/// the compiler's runtime.
const WASI_PACKAGES: [&str; 5] = [
    "clang",
    "lld",
    "wasi-libc",
    "libc++-dev-wasm32",
    "libclang-rt-dev-wasm32",
];

/// Installs what building the project's WebAssembly bots needs, if missing: Debian's clang
/// with its wasm32-wasi libraries, and Rust's `wasm32-wasip1` target.
pub fn ensure_wasi_tools(repo: &Repo) -> Result<Vec<String>> {
    let mut installed = Vec::new();
    installed.extend(ensure(
        &WASI_PACKAGES.join(", "),
        || detect_wasi_clang(repo),
        || apt_install(&WASI_PACKAGES),
    )?);
    installed.extend(ensure(
        &format!("rust target {WASI_TARGET}"),
        || detect_rust_target(repo, WASI_TARGET),
        || {
            let mut command = repo.command("rustup");
            command.args(["target", "add", WASI_TARGET]);
            common::run(
                command,
                "install rustup (https://rustup.rs), or add the wasm32-wasip1 standard library \
                 to your toolchain",
            )
        },
    )?);
    Ok(installed)
}

/// Compiles a small C++ program for wasm32-wasi (which needs every one of the packages).
fn detect_wasi_clang(repo: &Repo) -> Detected {
    if repo.find_program("clang++").is_none() {
        return Err("clang++ is not installed".into());
    }
    let dir = repo.target_dir().join("xtask");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let source = dir.join("wasi-probe.cpp");
    let output = dir.join("wasi-probe.wasm");
    std::fs::write(
        &source,
        "#include <iostream>\n#include <string>\nint main() { std::string s; \
         std::getline(std::cin, s); std::cout << s.size() << std::endl; }\n",
    )
    .map_err(|e| format!("cannot write {}: {e}", source.display()))?;
    let mut command = repo.command("clang++");
    command
        .args(["--target=wasm32-wasi", "-O1", "-fno-exceptions", "-o"])
        .arg(&output)
        .arg(&source);
    stdout_of(command).ok_or("clang++ cannot build a C++ program for wasm32-wasi")?;
    let mut command = repo.command("clang");
    command.arg("--version");
    let version = stdout_of(command)
        .and_then(|v| v.lines().next().map(str::to_string))
        .unwrap_or_else(|| "clang".into());
    Ok(format!(
        "{version} for wasm32-wasi (lld, wasi-libc, libc++, compiler-rt)"
    ))
}

const APT_HINT: &str = "install them by hand: apt-get update && apt-get install -y PACKAGES \
                        (those named above: chromium chromium-driver, firefox-esr \
                        webkit2gtk-driver xvfb, parallel, clang lld wasi-libc libc++-dev-wasm32 \
                        libclang-rt-dev-wasm32), as root or with sudo";

/// `apt-get install -y`, after `apt-get update` when the package lists lack a package or when
/// the install fails with lists that may be stale.
fn apt_install(packages: &[&str]) -> Result {
    let sudo = needs_sudo();
    let mut updated = false;
    if !apt_knows(packages) {
        apt_get(sudo, &["update"])?;
        updated = true;
    }
    let mut install_args = vec!["install", "-y"];
    install_args.extend(packages);
    match apt_get(sudo, &install_args) {
        Ok(()) => Ok(()),
        Err(_) if !updated => {
            println!("  the install failed; updating the package lists and trying once more");
            apt_get(sudo, &["update"])?;
            apt_get(sudo, &install_args)
        }
        Err(failure) => Err(failure),
    }
}

fn needs_sudo() -> bool {
    let mut command = Command::new("id");
    command.arg("-u");
    stdout_of(command).as_deref() != Some("0")
}

/// Whether `apt-cache policy` has an install candidate for every package.
fn apt_knows(packages: &[&str]) -> bool {
    let mut command = Command::new("apt-cache");
    command.arg("policy").args(packages);
    let Some(policy) = stdout_of(command) else {
        return false;
    };
    let candidates: Vec<&str> = policy
        .lines()
        .filter_map(|line| line.trim().strip_prefix("Candidate:"))
        .map(str::trim)
        .collect();
    candidates.len() == packages.len() && candidates.iter().all(|c| *c != "(none)")
}

fn apt_get(sudo: bool, args: &[&str]) -> Result {
    let mut command = if sudo {
        let mut command = Command::new("sudo");
        command.args(["env", "DEBIAN_FRONTEND=noninteractive", "apt-get"]);
        command
    } else {
        let mut command = Command::new("apt-get");
        command.env("DEBIAN_FRONTEND", "noninteractive");
        command
    };
    command.args(args);
    common::run(command, APT_HINT)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOCK: &str = r#"
[[package]]
name = "wasm-bindgen"
version = "0.2.130"
source = "registry+https://github.com/rust-lang/crates.io-index"

[[package]]
name = "wasm-bindgen-backend"
version = "0.2.99"

[[package]]
name = "wasm-bindgen-test"
version = "0.3.80"
"#;

    #[test]
    fn reads_the_locked_wasm_bindgen_version() {
        assert_eq!(locked_versions(LOCK, "wasm-bindgen"), vec!["0.2.130"]);
        assert_eq!(locked_versions(LOCK, "wasm-bindgen-test"), vec!["0.3.80"]);
        assert!(locked_versions(LOCK, "yew").is_empty());
    }

    #[test]
    fn reads_a_package_json_version() {
        let text = "{\n  \"name\": \"binaryen\",\n  \"version\" : \"132.0.0\",\n  \"x\": 1 }";
        assert_eq!(
            json_string_field(text, "version").as_deref(),
            Some("132.0.0")
        );
        assert_eq!(json_string_field(text, "license"), None);
    }
}
