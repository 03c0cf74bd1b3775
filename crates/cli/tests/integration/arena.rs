//! `botplay arena` as scripts and people meet it: the table, its JSON, replays, bad flags,
//! and Ctrl-C, against the real binary.
use crate::common::{
    alive, assert_contains, botplay, fixture, folder, start_botplay, stderr, stdout, words,
    words_then,
};

use std::io::Read;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use serde_json::Value;

fn arena(args: &[&str]) -> Output {
    let mut all = vec!["arena"];
    all.extend(args);
    botplay(&all)
}

fn json_of(o: &Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

const THREE: &str = "--bot builtin:expander --bot builtin:random --bot builtin:wait";

#[test]
fn the_same_bots_and_seed_give_the_same_table_whatever_the_jobs() {
    let run = |jobs: &str, seed: &str| {
        let mut args = words_then(
            "--game ice-and-fire --matches 6 --relaxed --seed",
            &[seed, "--jobs", jobs],
        );
        args.extend(words(THREE));
        let o = arena(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        o
    };
    let one = run("1", "11");
    let three = run("3", "11");
    assert_eq!(stdout(&one), stdout(&three));
    let table = stdout(&one);
    assert_contains(&table, "seed 11, 2 seats: 18 of 18 matches played");
    assert_contains(&table, "#1 builtin:expander  #2 builtin:random");
    // The strongest bot is rated first.
    let bots: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.starts_with("#   bot"))
        .skip(1)
        .collect();
    assert!(bots[0].starts_with("#1  builtin:expander"), "{table}");

    // The JSON too, to the byte; and another seed plays other maps.
    let json = |jobs: &str, seed: &str| {
        let mut args = words_then(
            "--game ice-and-fire --matches 6 --relaxed --seed",
            &[seed, "--jobs", jobs, "--json", "-"],
        );
        args.extend(words(THREE));
        let o = arena(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let (a, b) = (json("2", "11"), json("3", "11"));
    assert_eq!(a, b);
    let other = json("2", "12");
    assert_ne!(a, other);
    let v: Value = serde_json::from_str(&a).expect("json");
    assert_eq!(v["played"], 18);
    assert_eq!(v["planned"], 18);
    assert_eq!(v["interrupted"], false);
    assert_eq!(v["matches"].as_array().map(Vec::len), Some(18));
    // Seats swapped on the same seed, pair after pair.
    let m = &v["matches"];
    assert_eq!(m[0]["bots"], serde_json::json!([1, 2]));
    assert_eq!(m[1]["bots"], serde_json::json!([2, 1]));
    assert_eq!(m[2]["bots"], serde_json::json!([1, 3]));
    assert_eq!(m[0]["seed"], m[1]["seed"]);
    assert_eq!(m[0]["seed"], m[5]["seed"]);
    assert_ne!(m[0]["seed"], m[6]["seed"]);
    let pair = &v["pairs"][0];
    assert_eq!(
        (pair["bot"].clone(), pair["vs"].clone()),
        (1.into(), 2.into())
    );
    assert_eq!(pair["matches"], 6);
    let wins = pair["wins"].as_u64().unwrap_or(0);
    let rate = pair["score_rate"].as_f64().unwrap_or(-1.0);
    assert!(
        (rate - (wins as f64 + pair["draws"].as_f64().unwrap_or(0.0) / 2.0) / 6.0).abs() < 1e-12
    );
    let lo = pair["interval_95"][0].as_f64().unwrap_or(2.0);
    let hi = pair["interval_95"][1].as_f64().unwrap_or(-1.0);
    assert!(lo <= rate && rate <= hi, "{pair}");
    assert_eq!(v["bots"][0]["rating"]["system"], "weng-lin");
}

#[test]
fn replays_are_written_and_botplay_replay_accepts_them() {
    let dir = folder("arena", "replays");
    let replays = dir.join("r");
    let replays_arg = replays.display().to_string();
    let json_path = dir.join("out.json");
    let json_arg = json_path.display().to_string();
    let o = arena(&words_then("--game soak-overflow --bot builtin:soaker --bot builtin:random --matches 3 --seed 5 --replays", &[&replays_arg, "--json", &json_arg]));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_contains(&stdout(&o), "3 of 3 matches played");
    // The rate at the end, for comparing with the engine's own (cargo xtask bench).
    let rate = stderr(&o)
        .lines()
        .find_map(|l| {
            l.strip_prefix("botplay: 3 matches played in ")?
                .split(" (")
                .nth(1)?
                .strip_suffix(" matches per second)")?
                .parse::<f64>()
                .ok()
        })
        .unwrap_or_else(|| panic!("no rate in: {}", stderr(&o)));
    assert!(rate > 0.0, "{rate}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json_path).expect("json file"))
        .expect("json");
    let mut files: Vec<String> = std::fs::read_dir(&replays)
        .expect("replays")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    // Numbered, with the bots' names in seat order and the seed.
    let seed = v["matches"][0]["seed"].as_i64().expect("seed");
    assert_eq!(
        files,
        [
            format!("match-0001_builtin-soaker_vs_builtin-random_seed-{seed}.json"),
            format!("match-0002_builtin-random_vs_builtin-soaker_seed-{seed}.json"),
            format!(
                "match-0003_builtin-soaker_vs_builtin-random_seed-{}.json",
                v["matches"][2]["seed"]
            ),
        ]
    );
    for m in v["matches"].as_array().expect("matches") {
        let name = m["replay"].as_str().expect("replay name");
        let r = botplay(&["replay", &replays.join(name).display().to_string()]);
        assert!(r.status.success(), "{name}: {}", stderr(&r));
        let out = stdout(&r);
        // The replay re-runs to the scores the arena counted, seat by seat.
        let bots = m["bots"].as_array().expect("bots");
        for (seat, bot) in bots.iter().enumerate() {
            let spec = v["bots"][bot.as_u64().expect("n") as usize - 1]["spec"]
                .as_str()
                .expect("spec");
            let line = format!(
                "seat {} {spec} score {} rank {}",
                seat + 1,
                m["scores"][seat],
                m["ranks"][seat]
            );
            assert!(out.contains(&line), "{line} not in\n{out}");
        }
    }
}

#[test]
fn faults_are_counted_per_bot() {
    let o = arena(&words_then(
        "--game ice-and-fire --matches 2 --seed 3 --json - --bot builtin:wait --bot",
        &[
            "echo oops >&2; exit 3",
            "--bot",
            "while read l; do echo hello; done",
        ],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_of(&o);
    let faults = |bot: usize, kind: &str| v["bots"][bot]["faults"][kind].as_u64();
    // Both fault in their two matches against `wait`; against each other, the first to move
    // faults and loses, and the other is never asked: 3 each.
    assert_eq!(faults(0, "crash"), Some(0));
    assert_eq!(faults(1, "crash"), Some(3), "{}", v["bots"][1]);
    assert_eq!(faults(2, "malformed"), Some(3), "{}", v["bots"][2]);
    assert_eq!(faults(1, "malformed"), Some(0));
    assert_eq!(v["bots"][0]["wins"], 4);
    // The totals are the matches' faults, seat by seat.
    let mut counted = [[0u64; 2]; 3];
    for m in v["matches"].as_array().expect("matches") {
        for f in m["faults"].as_array().expect("faults") {
            let seat = f["seat"].as_u64().expect("seat") as usize - 1;
            let bot = m["bots"][seat].as_u64().expect("bot") as usize - 1;
            let kind = usize::from(f["kind"] == "malformed");
            counted[bot][kind] += 1;
        }
    }
    assert_eq!(counted, [[0, 0], [3, 0], [0, 3]]);
    // The text table shows them too.
    let o = arena(&words_then(
        "--game ice-and-fire --matches 2 --seed 3 --bot builtin:wait --bot",
        &["exit 3"],
    ));
    let table = stdout(&o);
    let row = table
        .lines()
        .find(|l| l.starts_with("#2  exit 3"))
        .unwrap_or_else(|| panic!("{table}"));
    let cells: Vec<&str> = row.split_whitespace().collect();
    // #2 exit 3 | matches wins draws losses avg | timeouts crashes invalid | rating sigma
    assert_eq!(&cells[3..6], ["2", "0", "0"], "{row}");
    assert_eq!(&cells[8..11], ["0", "2", "0"], "{row}");
}

#[test]
fn more_seats_play_every_group_in_every_rotation() {
    let o = arena(&words("--game skyport --players 3 --matches 3 --seed 2 --json - --bot builtin:gunner --bot builtin:random --bot builtin:wait --bot builtin:random"));
    assert!(o.status.success(), "{}", stderr(&o));
    let v = json_of(&o);
    // C(4, 3) = 4 groups of 3 bots, 3 matches each: one seed, three rotations.
    assert_eq!(v["played"], 12);
    let m = &v["matches"];
    assert_eq!(m[0]["bots"], serde_json::json!([1, 2, 3]));
    assert_eq!(m[1]["bots"], serde_json::json!([2, 3, 1]));
    assert_eq!(m[2]["bots"], serde_json::json!([3, 1, 2]));
    assert_eq!(m[3]["bots"], serde_json::json!([1, 2, 4]));
    assert_eq!(v["pairs"].as_array().map(Vec::len), Some(6));
    // Each pair meets in the two groups holding both: 6 matches.
    assert!(v["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .all(|p| p["matches"] == 6));
    assert!(v["bots"]
        .as_array()
        .expect("bots")
        .iter()
        .all(|b| b["matches"] == 9));
}

#[test]
fn bad_command_lines_exit_2_with_a_message() {
    for (args, needle) in [
        (
            words("--game ice-and-fire --bot builtin:wait --matches 4"),
            "at least two --bot",
        ),
        (
            words("--game ice-and-fire --bot builtin:wait --bot builtin:wait"),
            "needs --matches",
        ),
        (
            words("--game ice-and-fire --bot a --bot b --matches 0"),
            "--matches must be a number",
        ),
        (
            words("--game ice-and-fire --bot a --bot b --matches 4 --jobs x"),
            "--jobs must be a number",
        ),
        (
            words("--game ice-and-fire --bot a --bot b --matches 4 --fast"),
            "unknown option '--fast' for `arena`",
        ),
        (
            words("--game ice-and-fire --bot a --bot b --matches 4 --replay x"),
            "use --replays DIR",
        ),
        (
            words("--game chess --bot a --bot b --matches 4"),
            "unknown game 'chess'",
        ),
        (
            words("--game ice-and-fire --bot a --bot b --matches 4 --players 3"),
            "--players must be from 2 to 2",
        ),
        (
            words("--game skyport --bot a --bot b --matches 4 --players 3"),
            "needs at least 3 --bot",
        ),
        (
            words("--game ice-and-fire --bot builtin:nobody --bot b --matches 4"),
            "no built-in bot 'nobody'",
        ),
        (
            words("--game ice-and-fire --bot a --bot b --matches 4 --league 9"),
            "league-9",
        ),
        (
            vec!["--bot", "a", "--bot", "b", "--matches", "4"],
            "needs --game",
        ),
    ] {
        let o = arena(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}: no table: {}", stdout(&o));
    }
    // A replay folder that cannot be made is a runtime failure (1).
    let dir = folder("arena", "blocked");
    let file = dir.join("file");
    std::fs::write(&file, "x").expect("file");
    let o = arena(&words_then(
        "--game ice-and-fire --bot builtin:wait --bot builtin:wait --matches 2 --replays",
        &[&file.join("sub").display().to_string()],
    ));
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_contains(&stderr(&o), "cannot create the replay folder");
}

/// A child process that a failing test does not leave running.
struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The processes whose command line mentions `needle`.
fn processes_with(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        if let Ok(cmdline) = std::fs::read(entry.path().join("cmdline")) {
            let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
            if cmdline.contains(needle) {
                found.push(format!("{name}: {cmdline}"));
            }
        }
    }
    found
}

fn wait_for(what: &str, limit: Duration, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < limit, "waited {limit:?} for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_kills_the_bots_in_flight_and_prints_what_was_played() {
    let dir = folder("arena", "ctrl-c");
    let marker = dir.display().to_string();
    let replays = dir.join("replays");
    // Run through `sh -c` as any bot: the shell stays between botplay and the Python process,
    // which must be stopped too.
    let slow = format!("python3 {} {marker}", fixture("slow.py"));
    let mut child = KillOnDrop(start_botplay(&[
        "arena",
        "--game",
        "ice-and-fire",
        "--relaxed",
        "--matches",
        "40",
        "--jobs",
        "2",
        "--seed",
        "3",
        "--bot",
        "builtin:expander",
        "--bot",
        &slow,
        "--replays",
        &replays.display().to_string(),
    ]));
    let child = &mut child.0;
    // Some matches are played; then the bot turns slow and is caught thinking.
    wait_for("a first match", Duration::from_secs(120), || {
        std::fs::read_dir(&replays).is_ok_and(|mut d| d.next().is_some())
    });
    std::fs::write(dir.join("go-slow"), "").expect("go-slow");
    let sleeping = || -> Vec<u32> {
        std::fs::read_dir(&dir)
            .map(|d| {
                d.flatten()
                    .filter_map(|e| {
                        e.file_name()
                            .to_string_lossy()
                            .strip_prefix("sleeping-")?
                            .parse()
                            .ok()
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    wait_for("a slow bot", Duration::from_secs(60), || {
        !sleeping().is_empty()
    });
    let pids = sleeping();
    assert!(alive(pids[0]), "the slow bot is running");

    let interrupted = Instant::now();
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(kill.success());
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        // Well within the slow bot's 10 s budget: it was stopped, not timed out.
        assert!(
            interrupted.elapsed() < Duration::from_secs(6),
            "botplay did not stop"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut out = String::new();
    let mut err = String::new();
    child
        .stdout
        .take()
        .expect("stdout")
        .read_to_string(&mut out)
        .expect("read");
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read");
    assert_eq!(status.code(), Some(130), "{err}");
    assert_contains(&err, "interrupted");
    // A partial table of the finished matches.
    let header = out.lines().next().unwrap_or_default();
    let played: usize = header
        .split("seats: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        header.ends_with("of 40 matches played (interrupted)"),
        "{out}"
    );
    assert!((1..40).contains(&played), "{out}");
    assert_contains(&out, "#1 builtin:expander");
    // No bot is left behind.
    std::thread::sleep(Duration::from_millis(300));
    for pid in pids {
        assert!(!alive(pid), "bot {pid} still runs");
    }
    assert_eq!(processes_with(&marker), Vec::<String>::new());
}
