//! botplay's web app: the page (Yew), the bots' workers and the canvas painters.
//!
//! Only this crate knows the DOM, canvas and workers; the rules live in the `engine` and `games`
//! crates, and the built-in bots in `bots`.

pub mod app;
pub mod describe;
pub mod human;
pub mod isolation;
pub mod match_host;
pub mod painters;
pub mod registry;
pub mod runner;
pub mod starter;
pub mod storage;
