//! botplay's web app: the page (Yew), the bots' workers and the canvas painters.
//!
//! Only this crate knows the DOM, canvas and workers; the rules live in the `engine` and `games`
//! crates, and the built-in bots in `bots`.

pub mod app;
pub mod bot_worker_host;
pub mod describe;
pub mod human;
pub mod input_ring;
pub mod isolation;
pub mod links;
pub mod painters;
pub mod protocol;
pub mod runner;
pub mod starter;
pub mod storage;
