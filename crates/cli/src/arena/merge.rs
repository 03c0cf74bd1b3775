//! `botplay arena merge PART...`: the JSON of an arena's shards (`--shard K/N --json FILE`)
//! summed into the table and JSON of the whole arena.
//!
//! Each shard's JSON ([`arena::report::ArenaReport`], read with the same codec that wrote it)
//! keeps every match it played (seed, bots by seat, scores, ranks, faults, replay name) and the
//! arena's setup. The merge checks that the parts are the N shards of one
//! arena (the same game and version, ruleset, options, budgets, seed, bots and plan, each shard
//! once, each match in its own shard), then sums the matches in match order with the same code
//! as one machine ([`arena::stats::summarize`]): the table, ratings and JSON are those of the
//! one-machine run, byte for byte.

use std::collections::BTreeMap;

use super::report::{self, Context};
use super::ArenaError;
use arena::report::{ArenaReport, ShardRow};
use arena::stats::{self, MatchResult};

/// One shard's file, read.
struct Part {
    path: String,
    report: ArenaReport,
    shard: ShardRow,
}

fn bad(path: &str, why: impl std::fmt::Display) -> ArenaError {
    ArenaError::Usage(format!("{path}: {why}"))
}

fn read_part(path: &str) -> Result<Part, ArenaError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ArenaError::Usage(format!("cannot read {path}: {e}")))?;
    let report = ArenaReport::from_json(&text).map_err(|e| bad(path, e))?;
    let shard = report.shard.ok_or_else(|| {
        bad(
            path,
            "not a shard's JSON (written by `botplay arena --shard K/N --json FILE`)",
        )
    })?;
    if shard.index == 0 || shard.index > shard.count {
        return Err(bad(
            path,
            format!("shard {}/{} is not a shard", shard.index, shard.count),
        ));
    }
    Ok(Part {
        path: path.to_string(),
        report,
        shard,
    })
}

/// The first field of the arena's set-up in which two parts differ, if any.
fn differs(a: &ArenaReport, b: &ArenaReport) -> Option<&'static str> {
    [
        ("game", a.game == b.game),
        ("game_version", a.game_version == b.game_version),
        ("ruleset", a.ruleset == b.ruleset),
        ("options", a.options == b.options),
        ("relaxed", a.relaxed == b.relaxed),
        ("seed", a.seed == b.seed),
        ("players", a.players == b.players),
        (
            "matches_per_group",
            a.matches_per_group == b.matches_per_group,
        ),
        ("planned", a.planned == b.planned),
    ]
    .into_iter()
    .find(|(_, same)| !same)
    .map(|(key, _)| key)
}

/// Checks that the parts are the N shards of one arena, each once; the number of shards.
fn check_shards(parts: &[Part]) -> Result<usize, ArenaError> {
    let first = parts
        .first()
        .ok_or_else(|| ArenaError::Usage("`arena merge` needs the shards' JSON files".into()))?;
    let count = first.shard.count;
    let labels = first.report.labels();
    let mut seen: BTreeMap<usize, &str> = BTreeMap::new();
    for part in parts {
        let other_arena = |what: &str| {
            bad(
                &part.path,
                format!("not a shard of the same arena as {} ({what})", first.path),
            )
        };
        if let Some(key) = differs(&part.report, &first.report) {
            return Err(other_arena(&format!("its {key} differs")));
        }
        if part.report.labels() != labels {
            return Err(other_arena("its bots differ"));
        }
        if part.shard.count != count {
            return Err(bad(
                &part.path,
                format!(
                    "shard {}/{} of an arena cut in {count} shards elsewhere",
                    part.shard.index, part.shard.count
                ),
            ));
        }
        if let Some(other) = seen.insert(part.shard.index, &part.path) {
            return Err(bad(
                &part.path,
                format!("shard {}/{count} is also {other}", part.shard.index),
            ));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(ArenaError::Usage(format!(
            "missing shards: {} (give every shard's JSON)",
            missing.join(", ")
        )));
    }
    Ok(count)
}

/// The game the arena was played in, refused when unknown or of another version.
fn game_of(first: &Part) -> Result<&'static engine::GameInfo, ArenaError> {
    let head = &first.report;
    let entry = games::entry(&head.game).ok_or_else(|| {
        bad(
            &first.path,
            format!("an arena of an unknown game '{}'", head.game),
        )
    })?;
    let info = entry.info;
    if head.game_version != info.version {
        return Err(bad(
            &first.path,
            format!(
                "played with version {} of {}, this botplay has version {}",
                head.game_version, info.id, info.version
            ),
        ));
    }
    Ok(info)
}

/// Every shard's matches in match order (each in its own shard, none twice), and whether any
/// shard was cut short.
fn all_results(parts: &[Part], count: usize) -> Result<(Vec<MatchResult>, bool), ArenaError> {
    let mut results: Vec<MatchResult> = Vec::new();
    let mut interrupted = false;
    for part in parts {
        interrupted |= part.report.interrupted;
        for result in part.report.results().map_err(|e| bad(&part.path, e))? {
            if result.index % count != part.shard.index - 1 {
                return Err(bad(
                    &part.path,
                    format!(
                        "match {} is not in shard {}/{count}",
                        result.index + 1,
                        part.shard.index
                    ),
                ));
            }
            results.push(result);
        }
    }
    results.sort_by_key(|m| m.index);
    if let Some(w) = results.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(ArenaError::Usage(format!(
            "match {} is given twice",
            w[0].index + 1
        )));
    }
    Ok((results, interrupted))
}

/// Merges the shards' JSON: prints the table (or the JSON with `--json -`) and writes the JSON.
pub fn merge(paths: &[String], json_out: Option<&str>) -> Result<(), ArenaError> {
    let parts = paths
        .iter()
        .map(|p| read_part(p))
        .collect::<Result<Vec<_>, _>>()?;
    let count = check_shards(&parts)?;
    let first = &parts[0];
    let info = game_of(first)?;
    let (results, interrupted) = all_results(&parts, count)?;
    let head = &first.report;
    let labels = head.labels();
    let played: Vec<&MatchResult> = results.iter().collect();
    let summary = stats::summarize(labels.len(), &played);
    let ctx = Context {
        game: info,
        ruleset: &head.ruleset,
        options: &head.options,
        relaxed: head.relaxed,
        seed: head.seed,
        players: head.players,
        per_group: head.matches_per_group,
        planned: head.planned,
        labels: &labels,
        interrupted,
        shard: None,
    };
    eprintln!(
        "botplay: {} shards of an arena of {} merged: {} of {} matches played",
        parts.len(),
        info.name,
        summary.played,
        head.planned
    );
    let to_stdout = json_out == Some("-");
    if !to_stdout {
        print!("{}", report::text(&ctx, &summary));
    }
    if let Some(path) = json_out {
        let text = report::json(&ctx, &summary, &played);
        if to_stdout {
            print!("{text}");
        } else {
            std::fs::write(path, text).map_err(|e| {
                ArenaError::Runtime(format!("cannot write the results to {path}: {e}"))
            })?;
        }
    }
    Ok(())
}
