//! `botplay host`: a Skyport match with clients written as for the 2013 server, over TCP on
//! loopback — they connect, send the handshake without waiting, answer the turn-0 game state
//! with a loadout, and act when a game state names them first.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::process::Child;
use std::sync::mpsc::{channel, Receiver};
use std::thread;
use std::time::Duration;

use serde_json::Value;

use crate::common::{assert_contains, botplay, start_botplay, temp, words_then};

/// Starts the host; returns it, its stderr lines and the port it listens on.
fn start_host(extra: &[&str]) -> (Child, Receiver<String>, u16) {
    let mut child = start_botplay(&[&["host", "--game", "skyport", "--port", "0"], extra].concat());
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let port = loop {
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .expect("the host says where it listens");
        if let Some((_, addr)) = line.split_once("waiting for ") {
            let port = addr.rsplit(':').next().expect("an address");
            break port.trim().parse().expect("a port");
        }
    };
    (child, rx, port)
}

/// Waits for a stderr line containing `needle`.
fn expect_line(rx: &Receiver<String>, needle: &str) {
    loop {
        let line = rx
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| panic!("no line with {needle:?}"));
        if line.contains(needle) {
            return;
        }
    }
}

/// A client as a 2013 bot: the name, and how many actions it sends per turn (fewer than
/// three: it waits for the server's deadline, as the original allowed).
fn client(port: u16, name: &'static str, actions: usize) -> thread::JoinHandle<Vec<Value>> {
    let stream = TcpStream::connect(("127.0.0.1", port)).expect("connects");
    thread::spawn(move || {
        let mut out = stream.try_clone().expect("a clone");
        let mut send = |v: Value| {
            let _ = writeln!(out, "{v}");
        };
        send(serde_json::json!({"message": "connect", "revision": 1, "name": name}));
        let mut seen = Vec::new();
        for line in BufReader::new(stream).lines().map_while(Result::ok) {
            let v: Value = serde_json::from_str(&line).expect("the server writes JSON");
            if v["message"] == "gamestate" && v["turn"] == 0 {
                send(serde_json::json!({
                    "message": "loadout", "primary-weapon": "laser", "secondary-weapon": "mortar"
                }));
            } else if v["message"] == "gamestate" && v["players"][0]["name"] == name {
                // Step off the spawn towards the middle, then wander, then mine.
                let dirs = [
                    "down",
                    "left-down",
                    "right-down",
                    "up",
                    "left-up",
                    "right-up",
                ];
                let turn = v["turn"].as_u64().unwrap_or(0) as usize;
                for i in 0..actions {
                    let dir = dirs[(turn + i) % dirs.len()];
                    let action = if i == 2 {
                        serde_json::json!({"message": "action", "type": "mine"})
                    } else {
                        serde_json::json!({"message": "action", "type": "move", "direction": dir})
                    };
                    send(action);
                }
            }
            seen.push(v);
        }
        seen
    })
}

#[test]
fn original_clients_play_a_hosted_match() {
    let replay = temp("host", "replay.json");
    let replay_arg = replay.display().to_string();
    let (child, rx, port) = start_host(&words_then(
        "--players 2 --seed 7 --rounds 3 --replay",
        &[&replay_arg],
    ));
    let alpha = client(port, "alpha", 3);
    expect_line(&rx, "player 1 connected");
    let bravo = client(port, "bravo", 1);
    let out = child.wait_with_output().expect("the host ends");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "no faults expected: {stdout}");
    assert!(lines[0].starts_with("seat 1 alpha score "), "{stdout}");
    assert!(lines[1].starts_with("seat 2 bravo score "), "{stdout}");
    for (handle, name) in [(alpha, "alpha"), (bravo, "bravo")] {
        let seen = handle.join().expect("the client ran");
        // The handshake's answer comes first: no `info` line over TCP.
        assert_eq!(
            seen[0],
            serde_json::json!({"message": "connect", "status": true}),
            "{name}"
        );
        assert_eq!(seen[1]["turn"], 0, "{name}");
        assert_eq!(
            seen[1]["players"].as_array().map(Vec::len),
            Some(2),
            "{name}"
        );
        let states = seen.iter().filter(|v| v["message"] == "gamestate").count();
        assert_eq!(states, 1 + 6, "{name}: turn 0 and six turns");
        let endturns = seen.iter().filter(|v| v["message"] == "endturn").count();
        assert_eq!(
            endturns,
            1 + 6,
            "{name}: after the loadouts and after each turn"
        );
        let moves = seen
            .iter()
            .filter(|v| v["message"] == "action" && v["from"] == "bravo")
            .count();
        assert!(moves >= 1, "{name} saw no valid action of bravo");
        assert_eq!(seen.last().unwrap()["message"], "endactions", "{name}");
    }
    // Bravo's turns ended at their budget: the host wrote its endturn, recorded in the replay,
    // and the replay plays back to the same result.
    let text = std::fs::read_to_string(&replay).expect("the replay");
    let doc: Value = serde_json::from_str(&text).expect("JSON");
    let bravo_turns: Vec<&Value> = doc["turns"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["seats"].as_array().unwrap())
        .filter(|s| s["seat"] == 1 && s["turn"].as_u64() > Some(0))
        .collect();
    assert_eq!(bravo_turns.len(), 3);
    for t in bravo_turns {
        let written: Vec<&str> = t["lines"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(written.last(), Some(&"{\"message\":\"endturn\"}"), "{t}");
        assert_eq!(written.len(), 2, "{t}");
    }
    let again = botplay(&["replay", &replay_arg]);
    let again = String::from_utf8_lossy(&again.stdout).into_owned();
    let scores = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| l.starts_with("seat ") && l.contains(" rank "))
            .map(|l| l.rsplit_once(" score ").unwrap().1.to_string())
            .collect()
    };
    assert_eq!(scores(&again), scores(&stdout), "{again}");
    let _ = std::fs::remove_file(&replay);
}

#[test]
fn a_client_that_disconnects_stays_in_the_match() {
    let (child, rx, port) = start_host(&["--players", "2", "--seed", "3", "--rounds", "2"]);
    let alpha = client(port, "alpha", 3);
    expect_line(&rx, "player 1 connected");
    // Bravo connects and leaves at once.
    drop(TcpStream::connect(("127.0.0.1", port)).expect("connects"));
    let out = child.wait_with_output().expect("the host ends");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    assert_contains(&stdout, "seat 1 alpha score ");
    assert_contains(&stdout, "crash: the client disconnected");
    let seen = alpha.join().expect("the client ran");
    assert_eq!(seen.last().unwrap()["message"], "endactions");
}

#[test]
fn only_skyport_is_hosted() {
    let out = botplay(&["host", "--game", "ice-and-fire"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("has no TCP protocol"));
    let out = botplay(&["host", "--game", "skyport", "--players", "9", "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 to 8 bots, not 9"));
}
