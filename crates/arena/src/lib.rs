//! Arenas: many matches between several bots, with seats swapped and seeds derived from one
//! arena seed ([`plan`]), summed up per pair and per bot with confidence intervals, faults and
//! ratings ([`stats`]), and written as one JSON document ([`report`]). Pure, like the engines:
//! the CLI (`botplay arena`, matches in threads) and the page (the Arena panel, matches in
//! workers) share it, so both plan and count alike.

pub mod class;
pub mod csv_tables;
pub mod plan;
pub mod report;
pub mod stats;
