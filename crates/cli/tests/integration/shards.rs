//! Arenas beyond one machine: `--shard K/N` plays the K-th slice of the plan, and
//! `arena merge` sums the slices into the table and JSON of the one-machine run, byte for byte.

use crate::common::{assert_contains, botplay, folder, stderr, stdout, words, words_then};

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Three deterministic built-in bots (relaxed budgets: the same table on a busy machine).
const ARENA: &str = "arena --game ice-and-fire --bot builtin:expander --bot builtin:random \
                     --bot builtin:wait --matches 4 --seed 21 --relaxed --jobs=2";

fn arena(extra: &[&str]) -> Output {
    botplay(&words_then(ARENA, extra))
}

fn matches_of(path: &PathBuf) -> Vec<u64> {
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("part")).expect("JSON");
    json["matches"]
        .as_array()
        .expect("matches")
        .iter()
        .map(|m| m["match"].as_u64().expect("number"))
        .collect()
}

#[test]
fn four_shards_merged_equal_the_single_run_byte_for_byte() {
    let dir = folder("shards", "four");
    let whole = dir.join("whole.json");
    let single = arena(&["--json", &whole.display().to_string()]);
    assert!(single.status.success(), "{}", stderr(&single));
    assert!(stdout(&single).contains("12 of 12 matches played"));

    let mut parts = Vec::new();
    let mut seen = Vec::new();
    for k in 1..=4 {
        let part = dir.join(format!("part-{k}.json"));
        let shard = format!("{k}/4");
        let o = arena(&["--shard", &shard, "--json", &part.display().to_string()]);
        assert!(o.status.success(), "{shard}: {}", stderr(&o));
        assert_contains(&stdout(&o), &format!("shard {k}/4 of 12 matches"));
        // The K-th slice: every 4th match from the K-th.
        let played = matches_of(&part);
        assert_eq!(
            played,
            (1..=12)
                .filter(|m| (m - 1) % 4 == k - 1)
                .collect::<Vec<_>>()
        );
        seen.extend(played);
        parts.push(part.display().to_string());
    }
    seen.sort_unstable();
    assert_eq!(seen, (1..=12).collect::<Vec<_>>(), "every match once");

    // In any order, as a shell glob may give them.
    parts.reverse();
    let merged = dir.join("merged.json");
    let mut args = vec!["arena", "merge"];
    args.extend(parts.iter().map(String::as_str));
    let merged_path = merged.display().to_string();
    args.extend(["--json", &merged_path]);
    let o = botplay(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&single), "the same table and ratings");
    assert_eq!(
        std::fs::read(&merged).expect("merged"),
        std::fs::read(&whole).expect("whole"),
        "the same JSON, byte for byte"
    );
    // `--json -`: the JSON on stdout.
    let mut args = vec!["arena", "merge"];
    args.extend(parts.iter().map(String::as_str));
    args.extend(["--json", "-"]);
    let o = botplay(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o).as_bytes(),
        std::fs::read(&whole).expect("whole").as_slice()
    );
}

#[test]
fn a_merge_of_the_wrong_parts_is_refused_with_exit_2() {
    let dir = folder("shards", "wrong");
    let path = |name: &str| dir.join(name).display().to_string();
    for k in 1..=2 {
        let o = arena(&[
            "--shard",
            &format!("{k}/2"),
            "--json",
            &path(&format!("p{k}.json")),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let mut other = words(ARENA);
    assert_eq!(other[12], "21", "the seed");
    other[12] = "22";
    other.extend(["--shard", "2/2", "--json"]);
    let other_path = path("other.json");
    other.push(&other_path);
    assert!(botplay(&other).status.success());
    let whole = path("whole.json");
    assert!(arena(&["--json", &whole]).status.success());
    std::fs::write(path("garbage.json"), "{ not json").expect("write");
    let tampered = std::fs::read_to_string(path("p2.json"))
        .expect("p2")
        .replacen("\"bots\": [\n        2", "\"bots\": [\n        9", 1);
    std::fs::write(path("tampered.json"), tampered).expect("write");

    for (parts, needle) in [
        (vec!["p1.json"], "missing shards: 2/2"),
        (vec!["p1.json", "p1.json", "p2.json"], "shard 1/2 is also"),
        (vec!["p1.json", "other.json"], "its seed differs"),
        (vec!["p1.json", "whole.json"], "not a shard's JSON"),
        (vec!["p1.json", "garbage.json"], "not an arena's JSON"),
        (vec!["p1.json", "missing.json"], "cannot read"),
        (
            vec!["p1.json", "tampered.json"],
            "a bot that is not in the arena",
        ),
    ] {
        let files: Vec<String> = parts.iter().map(|p| path(p)).collect();
        let mut args = vec!["arena", "merge"];
        args.extend(files.iter().map(String::as_str));
        let o = botplay(&args);
        assert_eq!(o.status.code(), Some(2), "{parts:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{parts:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{parts:?}");
    }
}

#[test]
fn gnu_parallel_runs_the_shards_end_to_end() {
    // GNU parallel from Debian (`cargo xtask setup` installs it); the recipe of docs/cli.md.
    let version = Command::new("parallel")
        .arg("--version")
        .output()
        .expect("GNU parallel (Debian package parallel; `cargo xtask setup` installs it)");
    assert!(
        stdout(&version).starts_with("GNU parallel"),
        "`parallel` is not GNU parallel (moreutils'?): run `cargo xtask setup`"
    );
    let dir = folder("shards", "parallel");
    let whole = dir.join("whole.json");
    assert!(arena(&["--json", &whole.display().to_string()])
        .status
        .success());
    let command = format!(
        "{} {} --shard {{}}/3 --json {}/part-{{}}.json",
        env!("CARGO_BIN_EXE_botplay"),
        ARENA,
        dir.display()
    );
    let o = Command::new("parallel")
        .args([
            "--will-cite",
            "--halt",
            "now,fail=1",
            &command,
            ":::",
            "1",
            "2",
            "3",
        ])
        .output()
        .expect("parallel runs");
    assert!(o.status.success(), "{}", stderr(&o));
    let parts: Vec<String> = (1..=3)
        .map(|k| dir.join(format!("part-{k}.json")).display().to_string())
        .collect();
    let merged = dir.join("merged.json").display().to_string();
    let mut args = vec!["arena", "merge"];
    args.extend(parts.iter().map(String::as_str));
    args.extend(["--json", &merged]);
    let o = botplay(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(&merged).expect("merged"),
        std::fs::read(&whole).expect("whole")
    );
}
