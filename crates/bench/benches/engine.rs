//! Engine benchmarks: turns per second of every game on one core with built-in bots.
//!
//! - `rules/GAME`: the rules step alone, through the typed layer: already-parsed actions applied
//!   and the turn resolved ([`bench::Recording::replay`]);
//! - `rerun/GAME/no-frames`, `…/frames`, `…/frames-sent`: the referee alone re-running the
//!   recorded match, without frames, with a frame per step, and with the frames sent as the
//!   page's match worker sends them ([`bench::rerun`], [`bench::send_frames`]);
//! - `views/GAME/typed`, `views/GAME/json`: every frame's view as the page's painter reads it,
//!   handed over typed or through JSON ([`bench::read_views`]);
//! - `protocol/GAME`: the full protocol path: input text written, bots answering, their lines
//!   parsed by the game, the turn resolved ([`bench::play_text`]);
//! - `arena/GAME`: a whole match through the referee, map generation and replay record included,
//!   without frames ([`bench::play_arena`]);
//! - `match/GAME`: the same with a frame per step, as the CLI's `play` and the page keep them
//!   ([`bench::play_match`]).
//!
//! Throughput is in turns (elements) per second. Run with `cargo xtask bench` (see
//! docs/performance.md); `cargo xtask bench --quick` for short runs while developing. With
//! `BOTPLAY_BENCH_CLOCK=cpu` in the environment (`cargo xtask bench --cpu`), the benchmarks
//! measure their thread's CPU time instead of the wall clock: steadier on a busy machine.

use criterion::measurement::Measurement;
use criterion::{BatchSize, Criterion, Throughput};
use engine::Referee;

use bench::{
    all_workloads, play_arena, play_match, play_text, read_views, recording, replay_of, rerun,
    send_frames, workloads, ThreadCpuTime, Workload,
};

fn main() {
    if std::env::var("BOTPLAY_BENCH_CLOCK").as_deref() == Ok("cpu") {
        run(Criterion::default().with_measurement(ThreadCpuTime));
    } else {
        run(Criterion::default());
    }
    Criterion::default().configure_from_args().final_summary();
}

fn run<M: Measurement + 'static>(c: Criterion<M>) {
    let mut c = c.configure_from_args();
    rules(&mut c);
    reruns(&mut c);
    views(&mut c);
    protocol(&mut c);
    arena(&mut c);
    matches(&mut c);
}

fn rules<M: Measurement>(c: &mut Criterion<M>) {
    let mut group = c.benchmark_group("rules");
    for w in workloads() {
        let recording = recording(&w).expect("a match the typed layer can express");
        group.throughput(Throughput::Elements(recording.turns() as u64));
        group.bench_function(w.game, |b| {
            b.iter_batched(|| recording.prepared(), |run| run(), BatchSize::SmallInput)
        });
    }
    group.finish();
}

/// The referee re-running each workload's recorded match, without frames, with a frame per step
/// (kept, written only when read), and with the frames sent as the page's match worker sends them
/// (each with its numbers, the newest with its picture): what frames cost beside the rules.
fn reruns<M: Measurement>(c: &mut Criterion<M>) {
    let mut group = c.benchmark_group("rerun");
    for w in workloads() {
        let replay = replay_of(&w);
        group.throughput(Throughput::Elements(replay.turns.len() as u64));
        group.bench_function(format!("{}/no-frames", w.game), |b| {
            b.iter(|| rerun(&w, &replay, false))
        });
        group.bench_function(format!("{}/frames", w.game), |b| {
            b.iter(|| rerun(&w, &replay, true))
        });
        group.bench_function(format!("{}/frames-sent", w.game), |b| {
            b.iter(|| send_frames(&rerun(&w, &replay, true)))
        });
    }
    group.finish();
}

/// Every frame of each workload's match read by the game's painter in the page: handed over as the
/// game's view type, or written as JSON and read back (a frame from the match worker).
fn views<M: Measurement>(c: &mut Criterion<M>) {
    let mut group = c.benchmark_group("views");
    for w in workloads() {
        let referee = rerun(&w, &replay_of(&w), true);
        let frames = referee.frames();
        group.throughput(Throughput::Elements(frames.len() as u64));
        group.bench_function(format!("{}/typed", w.game), |b| {
            b.iter(|| read_views(&w, frames, false))
        });
        group.bench_function(format!("{}/json", w.game), |b| {
            b.iter(|| read_views(&w, frames, true))
        });
    }
    group.finish();
}

fn protocol<M: Measurement>(c: &mut Criterion<M>) {
    let mut group = c.benchmark_group("protocol");
    for w in workloads() {
        group.throughput(Throughput::Elements(turns(&w)));
        group.bench_function(w.game, |b| {
            b.iter_batched(
                || (w.game(), w.new_bots()),
                |(mut game, mut bots)| play_text(game.as_mut(), &mut bots),
                BatchSize::SmallInput,
            )
        });
    }
    group.finish();
}

fn arena<M: Measurement>(c: &mut Criterion<M>) {
    whole_matches(c, "arena", play_arena);
}

fn matches<M: Measurement>(c: &mut Criterion<M>) {
    whole_matches(c, "match", play_match);
}

/// The benchmark group `name`: a whole match of each workload played by `play`, in turns.
fn whole_matches<M: Measurement>(c: &mut Criterion<M>, name: &str, play: fn(&Workload) -> Referee) {
    let mut group = c.benchmark_group(name);
    for w in all_workloads() {
        group.throughput(Throughput::Elements(turns(&w)));
        group.bench_function(&w.name, |b| b.iter(|| play(&w)));
    }
    group.finish();
}

/// The turns a workload lasts.
fn turns(w: &Workload) -> u64 {
    play_match(w).turns().len() as u64
}
