//! TypeScript bots in the CLI (`src/typescript.rs`): a `.ts` file runs under Node after the
//! page's own transform (Sucrase, embedded): enums and parameter properties play; a crash names
//! the TypeScript line and column; a syntax error is a crash with its line; share links and
//! classes carry TypeScript; a missing Node is said plainly. Against the real binary and Node.

use crate::common::{assert_contains, botplay, folder, play_args, stderr, stdout};

use arena::class::{Class, ClassBot};
use arena::report::ArenaReport;
use engine::{Setup, ShareDoc, SharedBot};

/// Ice and Fire: every unit walks to the enemy HQ, a unit trained beside the HQ when there is
/// gold. An enum, a class with parameter properties, interfaces, generics, `as` and `!`.
const TYPED_BOT: &str = include_str!("../../../../tests/e2e/typescript/walker.ts");

/// Plays Ice and Fire (seed 5, relaxed) between `bots`, writing the replay; returns botplay's
/// output and the replay.
fn play(dir: &std::path::Path, bots: &[&str]) -> (std::process::Output, serde_json::Value) {
    let replay = dir.join("replay.json");
    let replay_arg = replay.display().to_string();
    let mut args = play_args("ice-and-fire", "5", bots);
    args.extend(["--relaxed", "--replay", &replay_arg]);
    let o = botplay(&args);
    let text = std::fs::read_to_string(&replay).unwrap_or_default();
    (o, serde_json::from_str(&text).unwrap_or_default())
}

/// Seat 1's debug log over the whole match.
fn seat_1_stderr(replay: &serde_json::Value) -> String {
    replay["turns"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|t| t["seats"].as_array().into_iter().flatten())
        .filter(|s| s["seat"] == 0)
        .filter_map(|s| s["stderr"].as_str())
        .collect()
}

#[test]
fn a_ts_file_with_enums_and_parameter_properties_plays() {
    let dir = folder("typescript", "typed");
    let bot = dir.join("typed.ts");
    std::fs::write(&bot, TYPED_BOT).expect("bot");
    let (o, replay) = play(&dir, &[&bot.display().to_string(), "builtin:wait"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}\n{}", stderr(&o));
    assert!(!out.contains("fault seat 1"), "{out}");
    assert_contains(&out, "typed.ts score");
    assert_contains(&out, "rank 1");
    assert!(seat_1_stderr(&replay).starts_with("Me: "), "{replay}");
}

/// Plays the TypeScript bot `source`, written to `name.ts` in a scratch folder of its own,
/// against `wait`: it must crash on its first turn. Returns its debug log and its path.
fn first_turn_crash(name: &str, source: &str) -> (String, String) {
    let dir = folder("typescript", name);
    let bot = dir.join(format!("{name}.ts")).display().to_string();
    std::fs::write(&bot, source).expect("bot");
    let (o, replay) = play(&dir, &[&bot, "builtin:wait"]);
    assert_contains(&stdout(&o), "fault seat 1 turn 1 crash");
    (seat_1_stderr(&replay), bot)
}

#[test]
fn a_crash_names_the_typescript_line_and_column() {
    // Line 9 calls the method of line 5, which throws at its column 60 (the types before it on
    // that line are gone from the JavaScript that runs: the source map puts them back).
    let (log, file) = first_turn_crash(
        "crash",
        "declare function readline(): string;\n\
         enum Dir { Up, Down = 5 }\n\
         class Unit {\n  \
           constructor(public readonly id: number, private x: number) {}\n  \
           boom(d: Dir): never { const o: any = undefined; return o.value; }\n\
         }\n\
         const n: number = parseInt(readline());\n\
         const u: Unit = new Unit(n, 4);\n\
         u.boom(Dir.Down);\n",
    );
    assert_contains(&log, "TypeError: Cannot read properties of undefined");
    assert_contains(&log, &format!("at Unit.boom ({file}:5:60)"));
    assert_contains(&log, &format!("({file}:9:3)"));
}

#[test]
fn a_syntax_error_is_a_crash_with_its_line() {
    let (log, file) = first_turn_crash(
        "syntax",
        "declare function readline(): string;\nlet a: number = 1;\nlet b: = 2;\n",
    );
    assert_contains(&log, &format!("{file}:3:8\n"));
    assert_contains(&log, "SyntaxError: Unexpected token (line 3, column 8)");
}

#[test]
fn share_links_and_classes_carry_typescript() {
    let setup = Setup {
        game: "ice-and-fire".into(),
        ruleset: "league-1".into(),
        seed: 5,
        seats: 2,
        options: Default::default(),
    };
    let typed = SharedBot::Code {
        name: "Grace".into(),
        language: "typescript".into(),
        code: TYPED_BOT.into(),
    };
    // A share link's TypeScript bot plays, named as the link names it.
    let link = ShareDoc {
        setup: setup.clone(),
        relaxed: true,
        bots: vec![
            typed.clone(),
            SharedBot::Builtin {
                name: "wait".into(),
            },
        ],
        replay: None,
        turn: None,
        lesson: None,
    }
    .encode();
    let round = ShareDoc::decode(&link).expect("the link");
    assert_eq!(round.bots[0], typed);
    let dir = folder("typescript", "link");
    let url = format!("https://example.org/botplay/#{link}");
    let (o, replay) = play(&dir, &[&url, "builtin:wait"]);
    let out = stdout(&o);
    assert!(
        o.status.success() && !out.contains("fault seat 1"),
        "{out}\n{}",
        stderr(&o)
    );
    assert_contains(&out, "seat 1 Grace score");
    assert_contains(&out, "rank 1");
    assert_eq!(replay["bots"][0], "Grace");

    // A class with a TypeScript file (as the page adds one) plays in the arena, its language
    // in the JSON; the class file and class link keep it.
    let mut class = Class::new("TypeScript", setup, 1);
    class.relaxed = true;
    class
        .add(ClassBot::from_file("Grace.ts", TYPED_BOT).expect("a .ts file"))
        .expect("room");
    class
        .add(ClassBot {
            name: "waiter".into(),
            pseudonym: String::new(),
            bot: SharedBot::Builtin {
                name: "wait".into(),
            },
        })
        .expect("room");
    let file = dir.join("class.json");
    std::fs::write(&file, class.to_json()).expect("class file");
    assert_eq!(
        Class::from_json(&class.to_json()).expect("read back"),
        class
    );
    let json = dir.join("arena.json");
    let o = botplay(&[
        "arena",
        "--class",
        &file.display().to_string(),
        "--json",
        &json.display().to_string(),
    ]);
    assert!(o.status.success(), "{}\n{}", stdout(&o), stderr(&o));
    let report = ArenaReport::from_json(&std::fs::read_to_string(&json).expect("json"))
        .expect("an arena's JSON");
    assert_eq!(report.bots[0].name, "Grace");
    assert_eq!(report.bots[0].spec, "typescript");
    assert_eq!(report.bots[0].faults.crash, 0, "{}", stdout(&o));
    assert!(report.played >= 1 && report.played == report.matches.len());
}

#[test]
fn a_missing_node_is_said_plainly() {
    let dir = folder("typescript", "no-node");
    let bot = dir.join("bot.ts");
    std::fs::write(&bot, "console.log('WAIT');\n").expect("bot");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_botplay"))
        .args(["play", "--game", "ice-and-fire", "--seed", "5"])
        .args(["--bot", &bot.display().to_string(), "--bot", "builtin:wait"])
        .env("PATH", dir.join("nothing here"))
        .output()
        .expect("botplay runs");
    assert!(!o.status.success());
    let said = stderr(&o);
    assert_contains(
        &said,
        "TypeScript bots run under Node.js, and `node` was not found",
    );
}

#[test]
fn the_starters_first_turn_in_typescript_and_in_javascript() {
    // What TypeScript adds to a bot's start in the CLI (Node loading Sucrase and transforming
    // the bot, inside the first turn's budget): printed, and well inside 1 s.
    let starters = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../www/starter");
    let dir = folder("typescript", "first-turn");
    let first_turn = |file: &str| -> f64 {
        let path = starters.join(file).display().to_string();
        let mut best = f64::INFINITY;
        for _ in 0..3 {
            let (o, replay) = play(&dir, &[&path, "builtin:wait"]);
            assert!(o.status.success(), "{}", stderr(&o));
            best = best.min(
                replay["turns"][0]["seats"][0]["time_ms"]
                    .as_f64()
                    .expect("time"),
            );
        }
        best
    };
    let js = first_turn("ice-and-fire.js");
    let ts = first_turn("ice-and-fire.ts");
    println!("Ice and Fire starter's first turn (best of 3, Node's start included): JavaScript {js:.0} ms, TypeScript {ts:.0} ms");
    assert!(
        ts < 1000.0,
        "the TypeScript starter's first turn took {ts} ms"
    );
}
