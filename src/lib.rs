//! botplay's web app: the page (Yew), the bots' workers and the canvas painters.
//!
//! One WebAssembly module serves the page (`src/bin/app.rs`) and its match worker
//! ([`match_worker`], started in a worker by `www/match-host.js`).
//!
//! Only this crate knows the DOM, canvas and workers; the rules live in the `engine` and `games`
//! crates, and the built-in bots in `bots`.

pub mod app;
pub mod describe;
pub mod host_frames;
pub mod human;
pub mod isolation;
pub mod match_host;
pub mod match_worker;
pub mod painters;
pub mod python_ready;
pub mod registry;
pub mod runner;
pub mod starter;
pub mod storage;
