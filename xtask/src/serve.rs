//! `cargo xtask serve [ARGS...]`: set up, then build and serve the page with `trunk serve`.
//!
//! Trunk.toml holds the address (http://127.0.0.1:8080) and the cross-origin isolation headers.

use std::process::Command;

use crate::common::{check_status, describe, spawn_failure, Repo, Result};
use crate::setup;

const TRUNK_HINT: &str = "read trunk's messages above; `cargo xtask setup` reinstalls missing \
                          tools, and `cargo build -p botplay-web --target wasm32-unknown-unknown` \
                          shows compile errors alone";

pub fn run(repo: &Repo, trunk_args: &[String]) -> Result {
    setup::run(repo, false)?;
    let mut command = trunk(repo, "serve");
    command.args(trunk_args);
    let shown = describe(&command);
    println!("\n$ {shown}");
    println!("serving the playground on http://127.0.0.1:8080 (Ctrl-C stops)");
    let status = command.status().map_err(|e| spawn_failure(&shown, &e))?;
    if status.code().is_none() {
        // Stopped by Ctrl-C (or another signal): the normal end of a dev server.
        return Ok(());
    }
    check_status(&shown, status, TRUNK_HINT)
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
