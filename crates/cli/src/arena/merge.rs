//! `botplay arena merge PART...`: the JSON of an arena's shards (`--shard K/N --json FILE`)
//! summed into the table and JSON of the whole arena.
//!
//! Each shard's JSON keeps every match it played (seed, bots by seat, scores, ranks, faults,
//! replay name) and the arena's setup. The merge checks that the parts are the N shards of one
//! arena (the same game and version, ruleset, options, budgets, seed, bots and plan, each shard
//! once, each match in its own shard), then sums the matches in match order with the same code
//! as one machine ([`arena::stats::summarize`]): the table, ratings and JSON are those of the
//! one-machine run, byte for byte.

use std::collections::BTreeMap;

use engine::{Fault, FaultKind};
use serde_json::Value;

use super::report::{self, Context};
use super::ArenaError;
use arena::stats::{self, MatchResult};

/// One shard's file, read.
struct Part {
    path: String,
    json: Value,
    index: usize,
    count: usize,
}

/// The fields that make two shards parts of the same arena.
const SAME: [&str; 9] = [
    "game",
    "game_version",
    "ruleset",
    "options",
    "relaxed",
    "seed",
    "players",
    "matches_per_group",
    "planned",
];

fn bad(path: &str, why: impl std::fmt::Display) -> ArenaError {
    ArenaError::Usage(format!("{path}: {why}"))
}

fn read_part(path: &str) -> Result<Part, ArenaError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| ArenaError::Usage(format!("cannot read {path}: {e}")))?;
    let json: Value =
        serde_json::from_str(&text).map_err(|e| bad(path, format!("not an arena's JSON ({e})")))?;
    let shard = json.get("shard").ok_or_else(|| {
        bad(
            path,
            "not a shard's JSON (written by `botplay arena --shard K/N --json FILE`)",
        )
    })?;
    let number = |key: &str| {
        shard
            .get(key)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| bad(path, format!("its shard has no {key}")))
    };
    let (index, count) = (number("index")?, number("count")?);
    if index == 0 || index > count {
        return Err(bad(path, format!("shard {index}/{count} is not a shard")));
    }
    Ok(Part {
        path: path.to_string(),
        json,
        index,
        count,
    })
}

fn specs(part: &Part) -> Result<Vec<String>, ArenaError> {
    part.json
        .get("bots")
        .and_then(Value::as_array)
        .ok_or_else(|| bad(&part.path, "no bots"))?
        .iter()
        .map(|b| {
            b.get("spec")
                .and_then(Value::as_str)
                .map(String::from)
                .ok_or_else(|| bad(&part.path, "a bot without a spec"))
        })
        .collect()
}

/// A whole number from 1 (JSON numbers bots, seats and matches from 1) as an index from 0.
fn from_1(v: &Value) -> Option<usize> {
    usize::try_from(v.as_u64()?).ok()?.checked_sub(1)
}

/// One match of a part, checked against the arena's size.
fn match_result(
    m: &Value,
    bots: usize,
    planned: usize,
    path: &str,
) -> Result<MatchResult, ArenaError> {
    let number = m.get("match").map_or("?".to_string(), |v| v.to_string());
    let broken = |what: &str| bad(path, format!("match {number}: {what}"));
    let index = m
        .get("match")
        .and_then(from_1)
        .filter(|&i| i < planned)
        .ok_or_else(|| broken("not a match of the plan"))?;
    let seed = m
        .get("seed")
        .and_then(Value::as_i64)
        .ok_or_else(|| broken("no seed"))?;
    let list = |key: &str| {
        m.get(key)
            .and_then(Value::as_array)
            .ok_or_else(|| broken(&format!("no {key}")))
    };
    let seats: Vec<usize> = list("bots")?
        .iter()
        .map(|b| from_1(b).filter(|&b| b < bots))
        .collect::<Option<_>>()
        .ok_or_else(|| broken("a bot that is not in the arena"))?;
    let scores: Vec<i64> = list("scores")?
        .iter()
        .map(Value::as_i64)
        .collect::<Option<_>>()
        .ok_or_else(|| broken("a score that is not a number"))?;
    let ranks: Vec<usize> = list("ranks")?
        .iter()
        .map(|r| usize::try_from(r.as_u64()?).ok().filter(|&r| r >= 1))
        .collect::<Option<_>>()
        .ok_or_else(|| broken("a rank that is not a number from 1"))?;
    if seats.is_empty() || scores.len() != seats.len() || ranks.len() != seats.len() {
        return Err(broken("as many bots, scores and ranks as seats are needed"));
    }
    let faults = list("faults")?
        .iter()
        .map(|f| {
            let seat = f
                .get("seat")
                .and_then(from_1)
                .filter(|&s| s < seats.len())?;
            let turn = u32::try_from(f.get("turn")?.as_u64()?).ok()?;
            let kind: FaultKind = serde_json::from_value(f.get("kind")?.clone()).ok()?;
            let text = f.get("text")?.as_str()?.to_string();
            Some(Fault {
                seat,
                turn,
                kind,
                text,
            })
        })
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| broken("a fault without seat, turn, kind or text"))?;
    let replay = match m.get("replay") {
        None | Some(Value::Null) => None,
        Some(Value::String(name)) => Some(name.clone()),
        Some(_) => return Err(broken("a replay name that is not text")),
    };
    Ok(MatchResult {
        index,
        seed,
        seats,
        scores,
        ranks,
        faults,
        replay,
    })
}

/// Merges the shards' JSON: prints the table (or the JSON with `--json -`) and writes the JSON.
pub fn merge(paths: &[String], json_out: Option<&str>) -> Result<(), ArenaError> {
    let parts = paths
        .iter()
        .map(|p| read_part(p))
        .collect::<Result<Vec<_>, _>>()?;
    let first = parts
        .first()
        .ok_or_else(|| ArenaError::Usage("`arena merge` needs the shards' JSON files".into()))?;
    let count = first.count;
    let bot_specs = specs(first)?;
    let mut seen: BTreeMap<usize, &str> = BTreeMap::new();
    for part in &parts {
        for key in SAME {
            if part.json.get(key) != first.json.get(key) {
                return Err(bad(
                    &part.path,
                    format!(
                        "not a shard of the same arena as {} (its {key} differs)",
                        first.path
                    ),
                ));
            }
        }
        if specs(part)? != bot_specs {
            return Err(bad(
                &part.path,
                format!(
                    "not a shard of the same arena as {} (its bots differ)",
                    first.path
                ),
            ));
        }
        if part.count != count {
            return Err(bad(
                &part.path,
                format!(
                    "shard {}/{} of an arena cut in {count} shards elsewhere",
                    part.index, part.count
                ),
            ));
        }
        if let Some(other) = seen.insert(part.index, &part.path) {
            return Err(bad(
                &part.path,
                format!("shard {}/{count} is also {other}", part.index),
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

    let field = |key: &str| first.json.get(key).cloned().unwrap_or(Value::Null);
    let game_id = field("game").as_str().unwrap_or_default().to_string();
    let entry = games::entry(&game_id).ok_or_else(|| {
        bad(
            &first.path,
            format!("an arena of an unknown game '{game_id}'"),
        )
    })?;
    let info = entry.info;
    if field("game_version").as_u64() != Some(u64::from(info.version)) {
        return Err(bad(
            &first.path,
            format!(
                "played with version {} of {}, this botplay has version {}",
                field("game_version"),
                info.id,
                info.version
            ),
        ));
    }
    let whole = |key: &str| {
        field(key)
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| bad(&first.path, format!("no {key}")))
    };
    let planned = whole("planned")?;
    let players = whole("players")?;
    let per_group = whole("matches_per_group")?;
    let seed = field("seed")
        .as_i64()
        .ok_or_else(|| bad(&first.path, "no seed"))?;
    let ruleset = field("ruleset")
        .as_str()
        .ok_or_else(|| bad(&first.path, "no ruleset"))?
        .to_string();
    let options: BTreeMap<String, String> = serde_json::from_value(field("options"))
        .map_err(|_| bad(&first.path, "options that are not text"))?;
    let relaxed = field("relaxed").as_bool().unwrap_or(false);

    let mut results: Vec<MatchResult> = Vec::new();
    let mut interrupted = false;
    for part in &parts {
        interrupted |= part.json.get("interrupted") == Some(&Value::Bool(true));
        let matches = part
            .json
            .get("matches")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(&part.path, "no matches"))?;
        for m in matches {
            let result = match_result(m, bot_specs.len(), planned, &part.path)?;
            if result.index % count != part.index - 1 {
                return Err(bad(
                    &part.path,
                    format!(
                        "match {} is not in shard {}/{count}",
                        result.index + 1,
                        part.index
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

    let played: Vec<&MatchResult> = results.iter().collect();
    let summary = stats::summarize(bot_specs.len(), &played);
    let ctx = Context {
        game: info,
        ruleset: &ruleset,
        options: &options,
        relaxed,
        seed,
        players,
        per_group,
        planned,
        specs: &bot_specs,
        interrupted,
        shard: None,
    };
    eprintln!(
        "botplay: {} shards of an arena of {} merged: {} of {planned} matches played",
        parts.len(),
        info.name,
        summary.played
    );
    let to_stdout = json_out == Some("-");
    if !to_stdout {
        print!("{}", report::text(&ctx, &summary));
    }
    if let Some(path) = json_out {
        let text = format!("{:#}\n", report::json(&ctx, &summary, &played));
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
