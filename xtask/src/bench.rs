//! `cargo xtask bench [--quick] [--cpu] [FILTER]`: the engine benchmarks (criterion,
//! `crates/bench`), then a table of turns per second per game read back from criterion's
//! estimates. `--cpu` measures each benchmark thread's CPU time instead of the wall clock.
//!
//! Speed is measured here, never asserted: `cargo xtask test` only compiles the benchmarks (its
//! clippy step covers `--all-targets`), so they cannot rot.

use std::path::Path;

use crate::common::{run, Failure, Repo, Result};

/// The ways each game is measured, as the benchmark groups are named.
const WAYS: [(&str, &str); 4] = [
    ("rules", "rules step"),
    ("protocol", "protocol path"),
    ("arena", "match, no frames"),
    ("match", "match, frames"),
];

/// Runs the benchmarks; `quick` uses criterion's short runs, `cpu` the CPU-time clock, `filter`
/// picks benchmarks by name.
pub fn run_benchmarks(repo: &Repo, quick: bool, cpu: bool, filter: Option<&str>) -> Result {
    let mut cargo = repo.cargo();
    if cpu {
        cargo.env("BOTPLAY_BENCH_CLOCK", "cpu");
    }
    cargo.args(["bench", "-p", "bench", "--bench", "engine", "--"]);
    if quick {
        cargo.arg("--quick");
    }
    if let Some(filter) = filter {
        cargo.arg(filter);
    }
    run(
        cargo,
        "cargo bench -p bench --bench engine -- --list shows the benchmarks",
    )?;
    let table = summary(&repo.target_dir().join("criterion"));
    if table.is_empty() {
        return Err(Failure::new(
            "criterion wrote no estimates under target/criterion",
            "run `cargo bench -p bench --bench engine` and read its output",
        ));
    }
    println!("\n{} (one core per benchmark)", machine());
    println!(
        "clock: {}",
        if cpu {
            "CPU time of the benchmark thread"
        } else {
            "wall clock"
        }
    );
    print!("{table}");
    Ok(())
}

/// The CPU, the cores and the load now: figures from a busy machine are noisy.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .and_then(|rest| rest.split_once(':'))
        .map_or("unknown CPU", |(_, name)| name.trim());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".to_string());
    format!("machine: {model}, {cores} cores, load average {load}")
}

/// One line per benchmarked game: turns per second each way, and the whole match's time.
fn summary(criterion: &Path) -> String {
    // The games measured: every workload of the match group and of the re-run group (named
    // `<game>_no-frames`, `<game>_frames` and `<game>_frames-sent` there).
    let mut games: Vec<String> = ["match", "rerun"]
        .iter()
        .filter_map(|group| std::fs::read_dir(criterion.join(group)).ok())
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| !name.starts_with('.') && name != "report")
        .map(|name| {
            let game = ["_no-frames", "_frames-sent", "_frames"]
                .iter()
                .find_map(|suffix| name.strip_suffix(suffix));
            game.map_or(name.clone(), str::to_string)
        })
        .collect();
    games.sort();
    games.dedup();
    if games.is_empty() {
        return String::new();
    }
    let mut out = format!("{:<24}", "turns per second");
    for (_, title) in WAYS {
        out.push_str(&format!("{title:>18}"));
    }
    out.push_str(
        "   one match, no frames / frames   re-run, no frames / frames (×) / frames sent (×)\n",
    );
    for game in games {
        out.push_str(&format!("{game:<24}"));
        for (group, _) in WAYS {
            let cell = estimate(&criterion.join(group).join(&game))
                .map_or("-".to_string(), |e| thousands(e.turns_per_second()));
            out.push_str(&format!("{cell:>18}"));
        }
        let time = |group: &str| {
            estimate(&criterion.join(group).join(&game))
                .map_or("-".to_string(), |e| duration(e.median_ns))
        };
        out.push_str(&format!("{:>12} /{:>10}", time("arena"), time("match")));
        // The referee re-running the recorded match: what frames cost beside the rules, kept
        // (written only when read) and sent as the page's match worker sends them (each with its
        // numbers, the newest with its picture).
        let rerun =
            |frames: &str| estimate(&criterion.join("rerun").join(format!("{game}_{frames}")));
        let Some(bare) = rerun("no-frames") else {
            out.push_str(&format!("{:>14} /{:>10}\n", "-", "-"));
            continue;
        };
        out.push_str(&format!("{:>14}", duration(bare.median_ns)));
        for frames in ["frames", "frames-sent"] {
            match rerun(frames) {
                Some(e) => out.push_str(&format!(
                    " /{:>10} ({:.2}×)",
                    duration(e.median_ns),
                    e.median_ns / bare.median_ns
                )),
                None => out.push_str(&format!(" /{:>10}", "-")),
            }
        }
        out.push('\n');
    }
    out.push_str("(medians of criterion's samples; a turn is one step of the game)\n");
    out.push_str(&views(criterion));
    out
}

/// The `views` group: per game, one frame's view read by the page's painter, handed over typed
/// and written as JSON and read back (what a frame from the match worker costs); empty without
/// the group.
fn views(criterion: &Path) -> String {
    let mut games: Vec<String> = std::fs::read_dir(criterion.join("views"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.strip_suffix("_typed").map(str::to_string)
        })
        .collect();
    games.sort();
    let mut out = String::new();
    for game in games {
        let per_view = |way: &str| {
            estimate(&criterion.join("views").join(format!("{game}_{way}")))
                .map(|e| e.median_ns / e.turns)
        };
        let (Some(typed), Some(json)) = (per_view("typed"), per_view("json")) else {
            continue;
        };
        if out.is_empty() {
            out.push_str(&format!(
                "\n{:<24}{:>12}{:>12}\n",
                "one view read, per frame", "typed", "JSON"
            ));
        }
        out.push_str(&format!(
            "{game:<24}{:>9.1} µs{:>9.1} µs  ({:.1}×)\n",
            typed / 1e3,
            json / 1e3,
            json / typed
        ));
    }
    out
}

/// What criterion measured for one benchmark.
#[derive(Debug, PartialEq)]
struct Estimate {
    median_ns: f64,
    turns: f64,
}

impl Estimate {
    fn turns_per_second(&self) -> f64 {
        self.turns / (self.median_ns / 1e9)
    }
}

/// Reads `new/estimates.json` and `new/benchmark.json` of a benchmark's directory.
fn estimate(dir: &Path) -> Option<Estimate> {
    let estimates = std::fs::read_to_string(dir.join("new").join("estimates.json")).ok()?;
    let benchmark = std::fs::read_to_string(dir.join("new").join("benchmark.json")).ok()?;
    parse_estimate(&estimates, &benchmark)
}

fn parse_estimate(estimates: &str, benchmark: &str) -> Option<Estimate> {
    let median = &estimates[estimates.find("\"median\":")?..];
    let median_ns = number_after(median, "\"point_estimate\":")?;
    let turns = number_after(benchmark, "\"Elements\":")?;
    (median_ns > 0.0).then_some(Estimate { median_ns, turns })
}

/// The number right after `key` in JSON text (criterion's files are small and flat enough).
fn number_after(text: &str, key: &str) -> Option<f64> {
    let rest = &text[text.find(key)? + key.len()..];
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// `1,234,567`.
fn thousands(value: f64) -> String {
    let digits = format!("{:.0}", value.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `812 µs`, `1.52 ms`, `93.10 ms`, `250 ms`, `1.20 s`.
fn duration(ns: f64) -> String {
    if ns < 1e6 {
        format!("{:.0} µs", ns / 1e3)
    } else if ns < 1e8 {
        format!("{:.2} ms", ns / 1e6)
    } else if ns < 1e9 {
        format!("{:.0} ms", ns / 1e6)
    } else {
        format!("{:.2} s", ns / 1e9)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_criterion_estimates() {
        let estimates = r#"{"mean":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":71071039.625,"standard_error":1.5},"median":{"confidence_interval":{"confidence_level":0.95,"lower_bound":1.0,"upper_bound":2.0},"point_estimate":2.5e6,"standard_error":1.0}}"#;
        let benchmark = r#"{"group_id":"protocol","function_id":"ice-and-fire","throughput":{"Elements":200},"full_id":"protocol/ice-and-fire"}"#;
        let e = parse_estimate(estimates, benchmark).expect("parsed");
        assert_eq!(
            e,
            Estimate {
                median_ns: 2.5e6,
                turns: 200.0
            }
        );
        assert_eq!(e.turns_per_second(), 80_000.0);
        assert_eq!(parse_estimate("{}", benchmark), None);
        assert_eq!(parse_estimate(estimates, r#"{"throughput":null}"#), None);
    }

    #[test]
    fn figures_read_well() {
        assert_eq!(thousands(1_234_567.4), "1,234,567");
        assert_eq!(thousands(999.0), "999");
        assert_eq!(thousands(1000.0), "1,000");
        assert_eq!(duration(812_000.0), "812 µs");
        assert_eq!(duration(1_520_000.0), "1.52 ms");
        assert_eq!(duration(93_100_000.0), "93.10 ms");
        assert_eq!(duration(1_200_000_000.0), "1.20 s");
    }
}
