//! Runs one benchmark workload many times, for a profiler:
//!
//! ```sh
//! cargo build -p bench --release --example profile
//! valgrind --tool=callgrind target/release/examples/profile match ice-and-fire 20
//! ```
//!
//! For the rules step alone, leave out the recording and the copies of the start:
//! `valgrind --tool=callgrind --toggle-collect='*replay_from*' ... rules GAME`.
//!
//! Arguments: the way (`rules`, `protocol`, `arena`, `match`, or `rerun` / `rerun-frames` /
//! `rerun-sent`: the referee re-running the workload's recorded match without frames, with
//! frames, and with them sent as the page's match worker sends them), the workload (a game id, or
//! `ice-and-fire-expander`, `ice-and-fire-wait`)
//! and how many times (default 1). Prints the turns played.

use std::process::ExitCode;

use bench::{
    all_workloads, play_arena, play_match, play_text, recording, replay_of, rerun, send_frames,
};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(way), Some(game)) = (args.first(), args.get(1)) else {
        eprintln!(
            "usage: profile rules|protocol|arena|match|rerun|rerun-frames|rerun-sent GAME [TIMES]"
        );
        return ExitCode::from(2);
    };
    let times: u32 = args.get(2).and_then(|t| t.parse().ok()).unwrap_or(1);
    let Some(w) = all_workloads().into_iter().find(|w| &w.name == game) else {
        eprintln!("no workload {game}");
        return ExitCode::from(2);
    };
    let recorded = match way.as_str() {
        "rules" => match recording(&w) {
            Ok(r) => Some(r),
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        },
        _ => None,
    };
    let replay = way.starts_with("rerun").then(|| replay_of(&w));
    let mut turns = 0;
    for _ in 0..times {
        turns += match way.as_str() {
            "rules" => recorded.as_ref().map_or(0, |r| {
                let _ = r.replay_boxed();
                r.turns()
            }),
            "protocol" => play_text(w.game().as_mut(), &mut w.new_bots()).turns as usize,
            "arena" => play_arena(&w).turns().len(),
            "match" => play_match(&w).turns().len(),
            "rerun" | "rerun-frames" => replay
                .as_ref()
                .map_or(0, |r| rerun(&w, r, way == "rerun-frames").turns().len()),
            "rerun-sent" => replay.as_ref().map_or(0, |r| {
                let referee = rerun(&w, r, true);
                send_frames(&referee);
                referee.turns().len()
            }),
            other => {
                eprintln!("unknown way {other}");
                return ExitCode::from(2);
            }
        };
    }
    println!("{turns} turns");
    ExitCode::SUCCESS
}
