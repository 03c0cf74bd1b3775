//! `botplay arena --class FILE` and share links as bots (`--bot 'https://…#b1.…'`), against
//! the real binary, Node and Python: names in the table, the JSON and the replays' files, the
//! JSON read back with the typed codec and merged, and the usage errors.

use crate::common::{
    assert_contains, botplay, fixture_text, folder, start_botplay, stderr, stdout, words_around,
    words_then,
};

use std::process::Output;

use arena::class::{Class, ClassBot};
use arena::report::ArenaReport;
use engine::{Setup, ShareDoc, SharedBot};

fn code(name: &str, language: &str, text: &str) -> ClassBot {
    ClassBot {
        name: name.into(),
        pseudonym: String::new(),
        bot: SharedBot::Code {
            name: "as the file said".into(),
            language: language.into(),
            code: text.into(),
        },
    }
}

fn setup(seed: i64) -> Setup {
    Setup {
        game: "ice-and-fire".into(),
        ruleset: "league-1".into(),
        seed,
        seats: 2,
        options: Default::default(),
    }
}

/// A class of four: a JavaScript bot, a Python bot (with a pseudonym), a Python bot that
/// crashes at once and a built-in bot, named as a teacher would; relaxed budgets (Node's and
/// Python's start on a busy machine).
fn class() -> Class {
    let mut class = Class::new("Year 10, group \"B\"", setup(5), 2);
    class.relaxed = true;
    class
        .bots
        .push(code("Ada (JS)", "javascript", &fixture_text("train.js")));
    let mut noor = code("Noor, the Python", "python", &fixture_text("wait.py"));
    noor.pseudonym = "Falcon".into();
    class.bots.push(noor);
    class
        .bots
        .push(code("Crashy", "python", "import sys\nsys.exit(3)\n"));
    class.bots.push(ClassBot {
        name: "gauntlet".into(),
        pseudonym: String::new(),
        bot: SharedBot::Builtin {
            name: "expander".into(),
        },
    });
    class
}

/// Runs `botplay` and returns its output and its process id.
fn botplay_pid(args: &[&str]) -> (Output, u32) {
    let child = start_botplay(args);
    let pid = child.id();
    (child.wait_with_output().expect("botplay ends"), pid)
}

/// The folders of code a botplay process left in the temporary folder.
fn code_left_by(pid: u32) -> Vec<String> {
    let prefix = format!("botplay-code-{pid}-");
    std::fs::read_dir(std::env::temp_dir())
        .expect("temp dir")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(&prefix))
        .collect()
}

#[test]
fn a_class_file_plays_every_pair_and_names_each_bot_by_its_class_name() {
    let dir = folder("class", "class");
    let file = dir.join("class.json");
    std::fs::write(&file, class().to_json()).expect("class file");
    let replays = dir.join("replays");
    let json = dir.join("out.json");
    let (o, pid) = botplay_pid(&[
        "arena",
        "--class",
        &file.display().to_string(),
        "--jobs",
        "2",
        "--replays",
        &replays.display().to_string(),
        "--json",
        &json.display().to_string(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        code_left_by(pid),
        Vec::<String>::new(),
        "the code is removed"
    );
    let table = stdout(&o);
    assert_contains(
        &table,
        "(league-1, relaxed), seed 5, 2 seats: 12 of 12 matches played",
    );
    assert_contains(&table, "#1 Ada (JS)          #2 Noor, the Python");
    assert!(stderr(&o).contains("for the class 'Year 10, group \"B\"' (4 bots)"));
    // The bots' rows, by name: the crashing bot crashes in each of its matches, no one else
    // (timeouts are not looked at: on a busy machine a bot may miss its 500 ms).
    let row = |name: &str| -> Vec<String> {
        table
            .lines()
            .skip_while(|l| !l.starts_with("#   bot"))
            .find(|l| l[4..].starts_with(name))
            .unwrap_or_else(|| panic!("{name} in {table}"))[4 + name.len()..]
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    // matches wins draws losses avg | timeouts crashes invalid | rating sigma
    assert_eq!(row("Crashy")[..7], ["6", "0", "0", "6", "-1.00", "0", "6"]);
    for name in ["Ada (JS)", "Noor, the Python", "gauntlet"] {
        assert_eq!(row(name)[6..8], ["0", "0"], "{name}: {table}");
    }
    assert_eq!(
        row("gauntlet")[..2],
        ["6", "6"],
        "the built-in bot wins all"
    );
    // Both code bots ran: each beat the crashing bot twice.
    for name in ["Ada (JS)", "Noor, the Python"] {
        assert!(row(name)[1].parse::<u32>().expect("wins") >= 2, "{table}");
    }

    // The JSON, read with the typed codec.
    let text = std::fs::read_to_string(&json).expect("json");
    let report = ArenaReport::from_json(&text).expect("an arena's JSON");
    let names: Vec<&str> = report.bots.iter().map(|b| b.name.as_str()).collect();
    assert_eq!(
        names,
        ["Ada (JS)", "Noor, the Python", "Crashy", "gauntlet"]
    );
    let specs: Vec<&str> = report.bots.iter().map(|b| b.spec.as_str()).collect();
    assert_eq!(
        specs,
        ["javascript", "python", "python", "builtin:expander"]
    );
    assert_eq!(report.bots[1].pseudonym, "Falcon");
    assert_eq!(report.bots[2].faults.crash, 6);
    assert_eq!(
        (report.seed, report.matches_per_group, report.relaxed),
        (5, 2, true)
    );
    assert_eq!((report.played, report.matches.len()), (12, 12));
    assert!(report.results().is_ok());
    let v: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(v["bots"][1]["pseudonym"], "Falcon");
    assert!(v["bots"][0].get("pseudonym").is_none());

    // Every replay has a file of its own, named by its number, its bots and its seed, and
    // records the bots' class names.
    let mut files: Vec<String> = std::fs::read_dir(&replays)
        .expect("replays")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files.len(), 12, "{files:?}");
    let seed = report.matches[0].seed;
    assert_eq!(
        files[0],
        format!("match-0001_Ada-JS_vs_Noor-the-Python_seed-{seed}.json")
    );
    assert_eq!(
        files[11],
        format!("match-0012_gauntlet_vs_Crashy_seed-{seed}.json")
    );
    for m in &report.matches {
        let name = m.replay.as_deref().expect("a replay");
        assert!(files.iter().any(|f| f == name), "{name}");
        let replay = engine::Replay::from_json(
            &std::fs::read_to_string(replays.join(name)).expect("replay"),
        )
        .expect("a replay");
        let want: Vec<&str> = m.bots.iter().map(|&b| names[b - 1]).collect();
        assert_eq!(replay.bots, want, "{name}");
    }
    let r = botplay(&["replay", &replays.join(&files[2]).display().to_string()]);
    assert!(r.status.success(), "{}", stderr(&r));
    assert_contains(&stdout(&r), "seat 2 Crashy score -1 rank 2");
}

#[test]
fn a_class_in_shards_merges_into_the_whole_class_byte_for_byte() {
    let dir = folder("class", "shards");
    // Built-in bots only: a code bot's timeout on a busy machine would make the two runs differ.
    let mut small = class();
    small.bots.drain(..3);
    small.bots.push(ClassBot {
        name: "Randy".into(),
        pseudonym: String::new(),
        bot: SharedBot::Builtin {
            name: "random".into(),
        },
    });
    small.bots.push(ClassBot {
        name: "wait, a built-in".into(),
        pseudonym: "Owl".into(),
        bot: SharedBot::Builtin {
            name: "wait".into(),
        },
    });
    let file = dir.join("small.json");
    std::fs::write(&file, small.to_json()).expect("class");
    let file = file.display().to_string();
    let path = |name: &str| dir.join(name).display().to_string();
    let whole = botplay(&["arena", "--class", &file, "--json", &path("whole.json")]);
    assert!(whole.status.success(), "{}", stderr(&whole));
    for k in 1..=2 {
        let o = botplay(&[
            "arena",
            "--class",
            &file,
            "--shard",
            &format!("{k}/2"),
            "--json",
            &path(&format!("part-{k}.json")),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let merged = botplay(&[
        "arena",
        "merge",
        &path("part-2.json"),
        &path("part-1.json"),
        "--json",
        &path("merged.json"),
    ]);
    assert!(merged.status.success(), "{}", stderr(&merged));
    assert_eq!(stdout(&merged), stdout(&whole));
    let read = |name: &str| std::fs::read_to_string(path(name)).expect("json");
    assert_eq!(read("merged.json"), read("whole.json"));
    // The class's link plays the same class.
    let url = format!("https://example.org/botplay/#{}", small.to_link());
    let o = botplay(&["arena", "--class", &url, "--json", "-"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o), read("whole.json"));
    // The codec reads what the CLI wrote, names and pseudonyms included, and writes it back.
    let report = ArenaReport::from_json(&read("merged.json")).expect("readable");
    assert_eq!(report.bots[0].name, "gauntlet");
    assert_eq!(report.bots[2].name, "wait, a built-in");
    assert_eq!(report.bots[2].pseudonym, "Owl");
    let part = ArenaReport::from_json(&read("part-1.json")).expect("readable");
    assert_eq!(part.shard.map(|s| (s.index, s.count)), Some((1, 2)));
    // Parts of another class (the same bots under other names) are refused.
    let mut renamed = small.clone();
    renamed.bots[0].name = "Someone else".into();
    let other = dir.join("renamed.json");
    std::fs::write(&other, renamed.to_json()).expect("class");
    let o = botplay(&[
        "arena",
        "--class",
        &other.display().to_string(),
        "--shard",
        "2/2",
        "--json",
        &path("other-2.json"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = botplay(&[
        "arena",
        "merge",
        &path("part-1.json"),
        &path("other-2.json"),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_contains(&stderr(&o), "its bots differ");
}

fn link(bots: Vec<SharedBot>) -> String {
    ShareDoc {
        setup: Setup {
            seats: bots.len(),
            ..setup(3)
        },
        relaxed: false,
        bots,
        replay: None,
        turn: None,
        lesson: None,
    }
    .encode()
}

#[test]
fn a_share_link_is_a_bot_named_as_the_link_names_it() {
    let fragment = link(vec![
        SharedBot::Builtin {
            name: "wait".into(),
        },
        SharedBot::Code {
            name: "Sam's bot".into(),
            language: "python".into(),
            code: fixture_text("wait.py"),
        },
    ]);
    let url = format!("https://example.org/botplay/#{fragment}");
    let (o, pid) = botplay_pid(&words_around(
        "arena --game ice-and-fire --league 1 --relaxed --seed 4 --matches 2 --bot",
        &url,
        "--bot builtin:expander --json -",
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(code_left_by(pid), Vec::<String>::new());
    let report = ArenaReport::from_json(&stdout(&o)).expect("JSON");
    assert_eq!(report.bots[0].name, "Sam's bot");
    assert_eq!(report.bots[0].spec, url);
    // It ran (a timeout is possible on a busy machine, a crash or a malformed line is not).
    let faults = report.bots[0].faults;
    assert_eq!((faults.crash, faults.malformed, faults.flood), (0, 0, 0));
    assert_eq!(report.bots[1].name, "builtin:expander");

    // `play` too, with the bare fragment; a JavaScript link runs under Node.
    let js = link(vec![
        SharedBot::Code {
            name: "Jo".into(),
            language: "javascript".into(),
            code: fixture_text("train.js"),
        },
        SharedBot::Builtin {
            name: "wait".into(),
        },
    ]);
    let o = botplay(&words_then(
        "play --game ice-and-fire --league 1 --relaxed --seed 4 --bot",
        &[&fragment, "--bot", &js],
    ));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_contains(&out, "seat 1 Sam's bot score");
    assert_contains(&out, "seat 2 Jo score");
    assert!(
        !out.contains(" crash:") && !out.contains(" malformed:"),
        "{out}"
    );

    // Links without a code bot, class links and damaged links are refused.
    let builtins = link(vec![
        SharedBot::Builtin {
            name: "wait".into(),
        },
        SharedBot::Builtin {
            name: "wait".into(),
        },
    ]);
    let class_link = format!("https://example.org/#{}", class().to_link());
    for (bot, needle) in [
        (builtins.as_str(), "holds no code bot"),
        (class_link.as_str(), "a class link"),
        ("b1.AAAA", "--bot b1.AAAA"),
        ("b9.AAAA", "newer"),
    ] {
        let o = botplay(&words_around(
            "arena --game ice-and-fire --matches 2 --bot",
            bot,
            "--bot builtin:wait",
        ));
        assert_eq!(o.status.code(), Some(2), "{bot}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{bot}: {}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
}

#[test]
fn class_command_lines_and_files_are_checked_with_clear_messages() {
    let dir = folder("class", "usage");
    let good = dir.join("class.json");
    std::fs::write(&good, class().to_json()).expect("class");
    let good = good.display().to_string();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    };
    let mut cobol = class();
    cobol.bots[0] = code("Grace", "cobol", "DISPLAY 'WAIT'.");
    let cobol = write("cobol.json", &cobol.to_json());
    let mut lonely = class();
    lonely.bots.truncate(1);
    let lonely = write("lonely.json", &lonely.to_json());
    let mut unknown = class();
    unknown.setup.game = "chess".into();
    let unknown = write("chess.json", &unknown.to_json());
    let mut nobody = class();
    nobody.bots[3].bot = SharedBot::Builtin {
        name: "nobody".into(),
    };
    let nobody = write("nobody.json", &nobody.to_json());
    let replay = write("replay.json", r#"{"format": 1, "setup": {}}"#);
    let missing = dir.join("missing.json").display().to_string();
    for (args, needle) in [
        (
            vec!["--class", &good, "--game", "ice-and-fire"],
            "--class takes the game, its set-up, the seed, the bots and the matches from the class: drop --game",
        ),
        (
            vec!["--class", &good, "--bot", "a", "--matches", "2", "--seed", "1"],
            "drop --bot, --seed, --matches",
        ),
        (vec!["--class", &good, "--relaxed"], "drop --relaxed"),
        (vec!["--class", &good, "--players", "2"], "drop --players"),
        (vec!["--class", &good, "--jobs", "0"], "--jobs must be a number"),
        (
            vec!["--class", &good, "--shard", "1/2"],
            "--shard needs --json FILE",
        ),
        (vec!["--class", &missing], "cannot read"),
        (vec!["--class", &replay], "not a botplay class"),
        (vec!["--class", &cobol], "bot 'Grace' is written in 'cobol'"),
        (vec!["--class", &lonely], "needs at least 2 bots, and the class has 1"),
        (vec!["--class", &unknown], "unknown game 'chess'"),
        (vec!["--class", &nobody], "no built-in bot 'nobody'"),
        (vec!["--class"], "a value is required for '--class <FILE>'"),
    ] {
        let mut all = vec!["arena"];
        all.extend(&args);
        let (o, pid) = botplay_pid(&all);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?}");
        assert_eq!(code_left_by(pid), Vec::<String>::new(), "{args:?}");
    }
}
