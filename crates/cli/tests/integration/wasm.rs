//! WebAssembly (WASI) bots in the CLI (`--bot bot.wasm`, run in-process under wasmtime):
//!
//! - the project's own bots (`bots/wasi/`: C, C++, Rust; built by `cargo xtask wasi-bots`,
//!   which `cargo xtask test` runs before this) give the same transcript as WebAssembly and
//!   natively, each in a whole match against a built-in bot; the C++ contest bot plays the same
//!   match under Ice and Fire's own budgets, its first turn well within the 1000 ms;
//! - hostile modules (WAT, turned into WebAssembly here): a loop, memory grown to the limit, a
//!   trap, a refused import, an endless line, a flood of debug log, an early exit: each a fault
//!   of that bot with its reason, the other bot playing on;
//! - the arena and a class play WebAssembly bots too.

use crate::common::{
    assert_contains, botplay_within, stderr, stdout, temp, words_around, words_then,
};

use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

use engine::Replay;

/// `target/wasi-bots` (or `$BOTPLAY_WASI_BOTS`), where `cargo xtask wasi-bots` puts the bots.
fn wasi_bots() -> PathBuf {
    if let Some(dir) = std::env::var_os("BOTPLAY_WASI_BOTS") {
        return PathBuf::from(dir);
    }
    let target = match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"),
    };
    let dir = target.join("wasi-bots");
    // Not a skip: without the bots this test fails, and says how to build them.
    assert!(
        dir.join("bots.json").is_file(),
        "{} has no bots: run `cargo xtask wasi-bots` (which `cargo xtask test` runs before the \
         tests) to build the WebAssembly bots of bots/wasi/",
        dir.display()
    );
    dir
}

/// Plays `bot` against `opponent` and writes the replay: with the game's own budgets, or ten
/// times those (`relaxed`: a native program on a busy machine may miss a 50 ms turn, which would
/// make its transcript another one).
fn play(game: &str, bot: &str, opponent: &str, replay: &Path, relaxed: bool) -> Output {
    let replay = replay.display().to_string();
    let mut args = vec![
        "play", "--game", game, "--seed", "3", "--bot", bot, "--bot", opponent, "--replay", &replay,
    ];
    if relaxed {
        args.push("--relaxed");
    }
    let o = botplay_within(&args, Duration::from_secs(120));
    assert!(
        o.status.success(),
        "{game} {bot}: {}{}",
        stdout(&o),
        stderr(&o)
    );
    o
}

/// What seat 1 said each turn (its lines, the replies it got, its fault), and its whole debug
/// log.
fn transcript(replay: &Path) -> (Vec<String>, String) {
    let text = std::fs::read_to_string(replay).expect("the replay");
    let replay = Replay::from_json(&text).expect("a replay");
    let mut said = Vec::new();
    let mut log = String::new();
    for turn in &replay.turns {
        for s in turn.seats.iter().filter(|s| s.seat == 0) {
            said.push(format!(
                "turn {}: {:?} {:?} {:?}",
                s.turn, s.lines, s.replies, s.fault
            ));
            log.push_str(&s.stderr);
        }
    }
    (said, log)
}

/// The time of seat 1's first turn, in ms.
fn first_turn_ms(replay: &Path) -> f64 {
    let text = std::fs::read_to_string(replay).expect("the replay");
    let replay = Replay::from_json(&text).expect("a replay");
    replay
        .turns
        .iter()
        .flat_map(|t| &t.seats)
        .find(|s| s.seat == 0)
        .map(|s| s.time_ms)
        .expect("seat 1 played")
}

/// One of the project's bots, as WebAssembly and natively: the same lines every turn, no
/// fault, the same outcome, the same debug log. (A native program's debug log comes through a
/// pipe of its own and may reach the driver after the match's last line: the native log must
/// be the start of the WebAssembly one, which the bot writes in-process, all of it.)
fn same_transcript(game: &str, name: &str) -> (PathBuf, PathBuf) {
    let dir = wasi_bots();
    let wasm = dir.join(format!("{name}.wasm"));
    let native = dir.join("native").join(name);
    let (w, n) = (
        temp("wasm", &format!("{name}-wasm.json")),
        temp("wasm", &format!("{name}-native.json")),
    );
    let wo = play(
        game,
        &wasm.display().to_string(),
        "builtin:random",
        &w,
        true,
    );
    let no = play(
        game,
        &native.display().to_string(),
        "builtin:random",
        &n,
        true,
    );
    let (w_said, w_log) = transcript(&w);
    let (n_said, n_log) = transcript(&n);
    assert!(!w_said.is_empty(), "{name}: no turn played");
    for (i, (a, b)) in w_said.iter().zip(&n_said).enumerate() {
        assert_eq!(
            a, b,
            "{name}: turn record {i} differs (WebAssembly, then native)"
        );
    }
    assert_eq!(w_said.len(), n_said.len(), "{name}: not as many turns");
    assert!(
        !stdout(&wo).contains("fault seat 1"),
        "{name} faulted as WebAssembly:\n{}",
        stdout(&wo)
    );
    let outcome = |o: &Output, bot: &Path| {
        stdout(o)
            .lines()
            .filter(|l| l.starts_with("seat "))
            .map(|l| l.replace(&bot.display().to_string(), "BOT"))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        outcome(&wo, &wasm),
        outcome(&no, &native),
        "{name}: outcomes"
    );
    assert!(!w_log.is_empty(), "{name} writes a debug log");
    assert!(
        w_log.starts_with(&n_log),
        "{name}: the debug logs differ:\n--- WebAssembly\n{w_log}\n--- native\n{n_log}"
    );
    // The module was compiled before the match, and the CLI said how long it took.
    assert_contains(&stderr(&wo), " of WebAssembly) compiled in ");
    (w, n)
}

#[test]
fn the_cpp_contest_bot_plays_ice_and_fire_as_natively_and_its_first_turn_fits_the_budget() {
    let (relaxed, _) = same_transcript("ice-and-fire", "ice-and-fire-cpp");
    // With the original budgets (1000 ms for the first turn, 50 ms for the others), the very
    // same match, without a fault.
    let strict = temp("wasm", "ice-and-fire-cpp-strict.json");
    let wasm = wasi_bots().join("ice-and-fire-cpp.wasm");
    let o = play(
        "ice-and-fire",
        &wasm.display().to_string(),
        "builtin:random",
        &strict,
        false,
    );
    assert!(!stdout(&o).contains("fault seat 1"), "{}", stdout(&o));
    assert_eq!(transcript(&strict), transcript(&relaxed));
    // A C++ bot's first turn (iostreams, 1.1 MB of WebAssembly) takes a few milliseconds: a
    // fifth of the budget is room to spare on any machine.
    let first = first_turn_ms(&strict);
    assert!(first < 200.0, "the first turn took {first} ms");
}

#[test]
fn the_c_bots_play_soak_overflow_and_micro_rts_as_natively() {
    same_transcript("soak-overflow", "soak-overflow-c");
    same_transcript("micro-rts", "micro-rts-c");
}

#[test]
fn the_rust_bots_play_skyport_and_crafting_quests_whole_protocol_as_natively() {
    same_transcript("skyport", "skyport-rust");
    // Every request type, every field of every answer read (a field it does not know would
    // crash it), 70 rounds of conversations.
    same_transcript("crafting-quest", "crafting-quest-rust");
}

#[test]
fn arguments_reach_a_webassembly_bot_as_a_program() {
    // `--think N`: the C bot's extra work each turn, with its checksum in the debug log.
    let dir = wasi_bots();
    let (w, n) = (
        temp("wasm", "think-wasm.json"),
        temp("wasm", "think-native.json"),
    );
    let spec = |p: PathBuf| format!("{} --think 2", p.display());
    play(
        "soak-overflow",
        &spec(dir.join("soak-overflow-c.wasm")),
        "builtin:random",
        &w,
        true,
    );
    play(
        "soak-overflow",
        &spec(dir.join("native/soak-overflow-c")),
        "builtin:random",
        &n,
        true,
    );
    let (w_said, w_log) = transcript(&w);
    let (n_said, n_log) = transcript(&n);
    assert_eq!(w_said, n_said);
    assert_contains(&w_log, "thought 2 rounds, checksum ");
    assert!(w_log.starts_with(&n_log));
}

// --- hostile modules --------------------------------------------------------------------------

/// A WAT bot: `body` is its `_start`, with `$read` (one read of standard input, its bytes
/// count) and `$write` (fd, pointer, length) at hand; "WAIT\n" is at 100, "a debug line\n" at
/// 200, 1000 'x's at 2000 (then a newline).
fn wat_bot(name: &str, imports: &str, body: &str) -> String {
    let text = format!(
        r#"(module
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  {imports}
  (memory (export "memory") 1)
  (data (i32.const 100) "WAIT\n")
  (data (i32.const 200) "a debug line\n")
  (data (i32.const 2000) "{x}\n")
  (func $read (result i32)
    (i32.store (i32.const 0) (i32.const 4096))
    (i32.store (i32.const 4) (i32.const 60000))
    (drop (call $fd_read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 16)))
    (i32.load (i32.const 16)))
  (func $write (param $fd i32) (param $at i32) (param $n i32)
    (i32.store (i32.const 32) (local.get $at))
    (i32.store (i32.const 36) (local.get $n))
    (drop (call $fd_write (local.get $fd) (i32.const 32) (i32.const 1) (i32.const 48))))
  (func $wait_forever
    (loop $turns
      (drop (call $read))
      (call $write (i32.const 1) (i32.const 100) (i32.const 5))
      (br $turns)))
  (func $divide (param $n i32) (result i32)
    (i32.div_s (i32.const 1) (local.get $n)))
  (func (export "_start") {body}))"#,
        x = "x".repeat(1000)
    );
    let bytes = wat::parse_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let path = temp("wasm", &format!("{name}.wasm"));
    std::fs::write(&path, bytes).expect("the module");
    path.display().to_string()
}

/// Plays a hostile bot against the built-in expander in Ice and Fire: seat 1's first fault
/// (`kind: text`) and the output.
fn hostile(bot: &str, extra: &[&str]) -> (String, String) {
    let mut args = words_then("play --game ice-and-fire --seed 3 --bot", &[bot, "--bot"]);
    args.push("builtin:expander");
    args.extend(extra);
    let started = Instant::now();
    let o = botplay_within(&args, Duration::from_secs(60));
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    let fault = out
        .lines()
        .find_map(|l| l.strip_prefix("fault seat 1 turn "))
        .and_then(|rest| rest.split_once(' '))
        .map(|(_, what)| what.to_string())
        .unwrap_or_default();
    assert!(
        !out.contains("fault seat 2"),
        "{bot}: the other bot plays on:\n{out}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{bot}: took {:?}",
        started.elapsed()
    );
    (fault, out)
}

#[test]
fn a_well_behaved_wat_bot_plays_a_whole_match() {
    let bot = wat_bot("waiter", "", "(call $wait_forever)");
    let (fault, out) = hostile(&bot, &[]);
    assert_eq!(fault, "", "{out}");
}

/// Grows the memory until refused: 16 MiB at a time, then page by page (quick, so that it is
/// done well within the first turn's budget on a busy machine).
const GROW: &str = "(loop $big (br_if $big (i32.ne (memory.grow (i32.const 256)) (i32.const -1))))
     (loop $page (br_if $page (i32.ne (memory.grow (i32.const 1)) (i32.const -1))))";

#[test]
fn every_kind_of_hostile_webassembly_bot_is_a_fault_with_its_reason() {
    let out_of_memory = format!("{GROW} (unreachable)");
    let cases = [
        (
            "loops",
            "(drop (call $read)) (loop $forever (br $forever))",
            "timeout: no complete answer within 1000 ms",
        ),
        (
            "traps",
            "(drop (call $read)) (drop (call $divide (i32.const 0)))",
            "crash: the WebAssembly program trapped: integer divide by zero in function divide",
        ),
        (
            "exits",
            "(drop (call $read)) (call $proc_exit (i32.const 3))",
            "crash: the bot's program ended (exit status 3)",
        ),
        (
            "returns",
            "(drop (call $read))",
            "crash: the bot's program ended (exit status 0)",
        ),
        (
            "endless-line",
            "(drop (call $read)) (loop $more
               (call $write (i32.const 1) (i32.const 2000) (i32.const 1000)) (br $more))",
            "too much output: a line longer than 65536 bytes",
        ),
        (
            "debug-flood",
            "(drop (call $read)) (loop $more
               (call $write (i32.const 2) (i32.const 2000) (i32.const 1001)) (br $more))",
            "too much output: more than 1 MiB of debug log written without reading its input",
        ),
        (
            "out-of-memory",
            // Grows until refused, then aborts as a C program whose malloc failed.
            out_of_memory.as_str(),
            "crash: the WebAssembly program trapped: wasm `unreachable` instruction executed \
             (its memory had grown to 768 MiB and could not grow past the 768 MiB a bot may \
             use",
        ),
    ];
    for (name, body, reason) in cases {
        let bot = wat_bot(name, "", body);
        let (fault, out) = hostile(&bot, &[]);
        assert!(
            fault.starts_with(reason),
            "{name}: expected a fault `{reason}`, got `{fault}`:\n{out}"
        );
        // The broken bot loses; the other wins.
        assert!(out.contains("score -1 rank 2"), "{name}:\n{out}");
    }
}

#[test]
fn memory_grows_exactly_to_the_limit_and_the_bot_sees_the_refusal() {
    // Grows until refused, checks it has exactly the limit (768 MiB, 12288 pages of 64 KiB;
    // or --wasm-memory), then plays on: a refusal is an allocation failure, not a fault.
    for (pages, extra) in [(12288, vec![]), (1024, vec!["--wasm-memory", "64"])] {
        let body = format!(
            "{GROW}
             (if (i32.ne (memory.size) (i32.const {pages})) (then (unreachable)))
             (call $wait_forever)"
        );
        let bot = wat_bot(&format!("grows-{pages}"), "", &body);
        let (fault, out) = hostile(&bot, &extra);
        assert_eq!(fault, "", "{pages} pages:\n{out}");
    }
}

#[test]
fn a_module_that_needs_more_than_the_limit_at_its_start_is_refused_before_the_match() {
    let bot = wat_bot("big", "", "(call $wait_forever)");
    let o = botplay_within(
        &words_around(
            "play --game ice-and-fire --bot",
            &bot,
            "--bot builtin:wait --wasm-memory 64",
        ),
        Duration::from_secs(30),
    );
    // 1 page fits 64 MiB: this one plays.
    assert!(o.status.success(), "{}", stderr(&o));
    let text = r#"(module (memory (export "memory") 2000) (func (export "_start")))"#;
    let path = temp("wasm", "starts-big.wasm");
    std::fs::write(&path, wat::parse_str(text).expect("wat")).expect("module");
    let o = botplay_within(
        &words_around(
            "play --game ice-and-fire --bot",
            &path.display().to_string(),
            "--bot builtin:wait --wasm-memory 64",
        ),
        Duration::from_secs(30),
    );
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_contains(
        &stderr(&o),
        "needs 125 MiB of memory to start, more than its limit of 64 MiB",
    );
    assert!(!stdout(&o).contains("seat 1"), "no match was played");
}

#[test]
fn imports_beyond_wasi_are_refused_before_the_match_naming_them() {
    let bot = wat_bot(
        "imports",
        r#"(import "env" "socket" (func $socket (param i32) (result i32)))
           (import "wasi_snapshot_preview1" "sock_open" (func $sock_open))"#,
        "(call $wait_forever)",
    );
    let o = botplay_within(
        &words_around("play --game ice-and-fire --bot", &bot, "--bot builtin:wait"),
        Duration::from_secs(30),
    );
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_contains(&err, "imports env.socket (a function), wasi_snapshot_preview1.sock_open (a function), which botplay does not give a WebAssembly bot");
    assert!(!stdout(&o).contains("seat 1"), "no match was played");
    // The arena refuses it before its first match too.
    let o = botplay_within(
        &words_around(
            "arena --game ice-and-fire --bot",
            &bot,
            "--bot builtin:wait --matches 2",
        ),
        Duration::from_secs(30),
    );
    assert_eq!(o.status.code(), Some(2));
    assert_contains(&stderr(&o), "env.socket");
}

#[test]
fn what_wasi_does_not_give_answers_an_error_the_bot_can_read() {
    // No files (no directory is open: fd_prestat_get on fd 3 is EBADF; path_open is ENOSYS),
    // no seeking on standard input (ESPIPE), no sockets (ENOSYS); the bot reads those answers
    // and plays on.
    let imports = r#"
      (import "wasi_snapshot_preview1" "path_open"
        (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
      (import "wasi_snapshot_preview1" "fd_prestat_get" (func $prestat (param i32 i32) (result i32)))
      (import "wasi_snapshot_preview1" "fd_seek" (func $seek (param i32 i64 i32 i32) (result i32)))
      (import "wasi_snapshot_preview1" "sock_send" (func $send (param i32 i32 i32 i32 i32) (result i32)))
      (import "wasi_snapshot_preview1" "args_sizes_get" (func $args (param i32 i32) (result i32)))"#;
    let body = "
      (if (i32.ne (call $path_open (i32.const 3) (i32.const 0) (i32.const 100) (i32.const 4)
                    (i32.const 0) (i64.const 0) (i64.const 0) (i32.const 0) (i32.const 64))
                  (i32.const 52)) (then (unreachable)))
      (if (i32.ne (call $prestat (i32.const 3) (i32.const 64)) (i32.const 8)) (then (unreachable)))
      (if (i32.ne (call $seek (i32.const 0) (i64.const 0) (i32.const 0) (i32.const 64))
                  (i32.const 70)) (then (unreachable)))
      (if (i32.ne (call $send (i32.const 1) (i32.const 0) (i32.const 0) (i32.const 0) (i32.const 64))
                  (i32.const 52)) (then (unreachable)))
      ;; argv: `bot` and the spec's two arguments
      (drop (call $args (i32.const 64) (i32.const 68)))
      (if (i32.ne (i32.load (i32.const 64)) (i32.const 3)) (then (unreachable)))
      (call $wait_forever)";
    let bot = wat_bot("asks", imports, body);
    let (fault, out) = hostile(&format!("{bot} --one two"), &[]);
    assert_eq!(fault, "", "{out}");
}

// --- the arena and classes --------------------------------------------------------------------

#[test]
fn the_arena_and_a_class_play_webassembly_bots() {
    let dir = wasi_bots();
    let wasm = dir.join("soak-overflow-c.wasm");
    let o = botplay_within(
        &words_around(
            "arena --game soak-overflow --seed 4 --bot",
            &wasm.display().to_string(),
            "--bot builtin:random --matches 2 --jobs 2 --relaxed",
        ),
        Duration::from_secs(120),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_contains(&stdout(&o), "2 of 2 matches played");
    // Compiled once for the whole arena.
    assert_eq!(
        stderr(&o).matches("compiled in").count(),
        1,
        "{}",
        stderr(&o)
    );
    assert!(!stdout(&o).contains("fault"), "{}", stdout(&o));

    // A class carries the module in base64 (language `wasm`, as the page writes it).
    use base64::Engine as _;
    let module = std::fs::read(&wasm).expect("the bot");
    let entry = games::entry("soak-overflow").expect("the game");
    let mut setup = engine::Setup::new(entry.info, 4);
    setup.seats = 2;
    let mut class = arena::class::Class::new("WebAssembly", setup, 1);
    // Budgets ×10: a busy machine is no fault of the bot's.
    class.relaxed = true;
    class.bots.push(
        arena::class::ClassBot::from_file(
            "c-bot.wasm",
            &base64::engine::general_purpose::STANDARD.encode(module),
        )
        .expect("a wasm bot"),
    );
    class.bots.push(arena::class::ClassBot {
        name: "gauntlet".into(),
        pseudonym: String::new(),
        bot: engine::SharedBot::Builtin {
            name: "random".into(),
        },
    });
    let file = temp("wasm", "class.json");
    std::fs::write(&file, class.to_json()).expect("class file");
    let o = botplay_within(
        &["arena", "--class", &file.display().to_string()],
        Duration::from_secs(120),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_contains(&stdout(&o), "c-bot");
    assert!(!stdout(&o).contains("fault"), "{}", stdout(&o));
}
