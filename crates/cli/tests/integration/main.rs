//! The CLI's integration tests, one binary: each module runs the `botplay` binary as a person
//! does (real processes, real bots: Python, Node, C, WebAssembly) on the helpers of `common`.

mod common;

mod arena;
mod classes;
mod cli;
mod host;
mod hostile;
mod last_words;
mod leagues;
mod load;
mod shards;
mod shell;
mod starters;
mod takeover;
mod typescript;
mod wasm;
