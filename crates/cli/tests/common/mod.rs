//! What the newer CLI tests share: running the `botplay` binary and reading what it printed.
//! (Each test file is a crate of its own and uses only some of these.)
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs `botplay` with `args` to its end.
pub fn botplay(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_botplay"))
        .args(args)
        .output()
        .expect("botplay runs")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
