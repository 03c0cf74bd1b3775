//! `cargo xtask serve [ARGS...]`: set up, then build and serve the page with `trunk serve`.
//!
//! Trunk.toml holds the address (http://127.0.0.1:8080) and the cross-origin isolation headers.
//!
//! The embed view (`embed.html`) is the one page other sites may frame, so it needs headers of
//! its own, and `trunk serve` sends the same headers with every file. So Trunk passes that one
//! address through to the browser tests' static server (`tests/e2e/serve.mjs`, started here on a
//! free port of 127.0.0.1, serving the same `dist/`), which sends the embed view's headers
//! (`www/trunk-headers.mjs`); everything else comes from Trunk as before.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::common::{check_status, describe, spawn_failure, Failure, Repo, Result};
use crate::setup;

/// The embed view's page, served through [`EmbedServer`].
const EMBED_PAGE: &str = "embed.html";

const TRUNK_HINT: &str = "read trunk's messages above; `cargo xtask setup` reinstalls missing \
                          tools, and `cargo build -p botplay-web --target wasm32-unknown-unknown` \
                          shows compile errors alone";

pub fn run(repo: &Repo, trunk_args: &[String]) -> Result {
    setup::run(repo, false)?;
    // Trunk's command line takes one proxy: a person's own comes first.
    let embed = if has_proxy(trunk_args) {
        println!(
            "note: your --proxy-backend takes the place of the one that serves {EMBED_PAGE} with \
             the headers that let other sites frame it (here it gets the page's own); to have \
             both, put yours in Trunk.toml as a [[proxy]] section"
        );
        None
    } else {
        Some(EmbedServer::start(repo, &dist_of(trunk_args))?)
    };
    let mut command = trunk(repo, "serve");
    command.args(trunk_args);
    if let Some(embed) = &embed {
        command.args(embed.proxy_args());
    }
    let shown = describe(&command);
    println!("\n$ {shown}");
    println!(
        "serving the playground on http://127.0.0.1:{} (Ctrl-C stops)",
        value_of(trunk_args, "--port").unwrap_or("8080")
    );
    let status = command.status().map_err(|e| spawn_failure(&shown, &e))?;
    if status.code().is_none() {
        // Stopped by Ctrl-C (or another signal): the normal end of a dev server.
        return Ok(());
    }
    check_status(&shown, status, TRUNK_HINT)
}

/// The folder Trunk builds into: `--dist DIR` (or `--dist=DIR`, `-d DIR`) among Trunk's
/// arguments, or Trunk.toml's `dist`.
fn dist_of(trunk_args: &[String]) -> String {
    value_of(trunk_args, "--dist")
        .or_else(|| value_of(trunk_args, "-d"))
        .unwrap_or("dist")
        .to_string()
}

/// The value of an option among Trunk's arguments: `OPTION VALUE` or `OPTION=VALUE`.
fn value_of<'a>(trunk_args: &'a [String], option: &str) -> Option<&'a str> {
    let mut args = trunk_args.iter();
    while let Some(arg) = args.next() {
        if arg == option {
            return args.next().map(String::as_str);
        }
        if let Some(value) = arg.strip_prefix(option).and_then(|v| v.strip_prefix('=')) {
            return Some(value);
        }
    }
    None
}

/// Whether Trunk's arguments give a proxy of their own (`--proxy-backend URL` or
/// `--proxy-backend=URL`).
fn has_proxy(trunk_args: &[String]) -> bool {
    trunk_args
        .iter()
        .any(|arg| arg == "--proxy-backend" || arg.starts_with("--proxy-backend="))
}

/// `tests/e2e/serve.mjs` serving `dist` on a free port, for the embed view's headers; stopped
/// when dropped.
struct EmbedServer {
    child: Child,
    url: String,
}

impl EmbedServer {
    fn start(repo: &Repo, dist: &str) -> Result<EmbedServer> {
        let mut command = repo.command("node");
        // `--lazy`: Trunk builds dist/ after this server starts.
        command
            .args([
                "tests/e2e/serve.mjs",
                "--dist",
                dist,
                "--port",
                "0",
                "--lazy",
            ])
            .stdout(Stdio::piped());
        let shown = describe(&command);
        let mut child = command.spawn().map_err(|e| spawn_failure(&shown, &e))?;
        let mut line = String::new();
        if let Some(out) = child.stdout.take() {
            let _ = BufReader::new(out).read_line(&mut line);
        }
        let Some(url) = line.trim().strip_prefix("serving ").map(str::to_string) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Failure::new(
                format!("`{shown}` did not start (it said: {:?})", line.trim()),
                "run that command by hand to see why; `npm ci` restores what it needs",
            ));
        };
        Ok(EmbedServer { child, url })
    }

    /// Trunk's arguments that pass the embed view's address through to this server.
    fn proxy_args(&self) -> [String; 4] {
        [
            "--proxy-backend".to_string(),
            format!("{}{EMBED_PAGE}", self.url),
            "--proxy-rewrite".to_string(),
            format!("/{EMBED_PAGE}"),
        ]
    }
}

impl Drop for EmbedServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `trunk <subcommand> --skip-version-check`, with `node_modules/.bin` (wasm-opt) and
/// `~/.cargo/bin` (wasm-bindgen of Cargo.lock's version) first on `PATH`, so that Trunk finds
/// every tool it needs and never downloads one.
pub fn trunk(repo: &Repo, subcommand: &str) -> Command {
    let mut command = repo.command("trunk");
    // Trunk's update check cannot reach the internet from here.
    command.args([subcommand, "--skip-version-check"]);
    // Trunk's errors are already explained in its log; no anyhow backtrace after them.
    if std::env::var_os("RUST_LIB_BACKTRACE").is_none() {
        command.env("RUST_LIB_BACKTRACE", "0");
    }
    command
}

#[cfg(test)]
mod tests {
    use super::{dist_of, has_proxy, value_of};

    #[test]
    fn the_dist_folder_is_trunks_own() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(dist_of(&args(&["--release"])), "dist");
        assert_eq!(dist_of(&args(&["--release", "--dist", "out"])), "out");
        assert_eq!(dist_of(&args(&["--dist=site", "--port", "9000"])), "site");
        assert_eq!(dist_of(&args(&["-d", "www-out"])), "www-out");
        assert_eq!(
            value_of(&args(&["--dist=site", "--port", "9000"]), "--port"),
            Some("9000")
        );
        assert_eq!(value_of(&args(&["--port=9001"]), "--port"), Some("9001"));
        assert_eq!(value_of(&args(&["--release"]), "--port"), None);
    }

    #[test]
    fn a_proxy_of_ones_own_is_seen() {
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(!has_proxy(&args(&["--release", "--port", "9000"])));
        assert!(has_proxy(&args(&[
            "--proxy-backend",
            "http://127.0.0.1:9000/api/"
        ])));
        assert!(has_proxy(&args(&[
            "--proxy-backend=http://127.0.0.1:9000/"
        ])));
        assert!(!has_proxy(&args(&["--proxy-rewrite=/api/"])));
    }
}
