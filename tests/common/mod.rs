//! Shared by the product-level tests: golden transcripts of fixed matches between built-in bots.
//!
//! A transcript is plain text meant to be read in review: the setup, then per turn what each
//! seat was sent (first turns only, to keep files small) and wrote, the events in words, the
//! status of each seat, the board every 20 turns and at the end, a checksum of every text the
//! seats were sent, and the outcome.

use std::fmt::Write as _;

use engine::{Referee, Setup};

/// The golden matches: one per game (its default ruleset), plus Soak Overflow's league 2 against its
/// boss and Crafting Quest 3 on the official map `v1`. The bots, ruleset and seed are part of the file's header.
pub struct GoldenMatch {
    pub game: &'static str,
    /// The ruleset, if not the game's default.
    pub ruleset: Option<&'static str>,
    /// Game options (`key`, `value`), if any: written into the file's header.
    pub options: &'static [(&'static str, &'static str)],
    pub seed: i64,
    pub bots: [&'static str; 2],
    /// The committed transcript (embedded, so the same check runs natively and in wasm).
    pub expected: &'static str,
    pub path: &'static str,
}

pub const GOLDEN: &[GoldenMatch] = &[
    GoldenMatch {
        game: "ice-and-fire",
        ruleset: None,
        options: &[],
        seed: -7_095_413_993_656_790_854,
        bots: ["expander", "random"],
        expected: include_str!("../golden/ice-and-fire.txt"),
        path: "tests/golden/ice-and-fire.txt",
    },
    GoldenMatch {
        game: "micro-rts",
        ruleset: None,
        options: &[],
        seed: 20,
        bots: ["rush", "random"],
        expected: include_str!("../golden/micro-rts.txt"),
        path: "tests/golden/micro-rts.txt",
    },
    GoldenMatch {
        game: "soak-overflow",
        ruleset: None,
        options: &[],
        seed: 42,
        bots: ["soaker", "random"],
        expected: include_str!("../golden/soak-overflow.txt"),
        path: "tests/golden/soak-overflow.txt",
    },
    GoldenMatch {
        game: "soak-overflow",
        ruleset: Some("league-2"),
        options: &[],
        seed: 42,
        bots: ["soaker", "boss"],
        expected: include_str!("../golden/soak-overflow-league-2.txt"),
        path: "tests/golden/soak-overflow-league-2.txt",
    },
    GoldenMatch {
        game: "skyport",
        ruleset: None,
        options: &[],
        seed: 2013,
        bots: ["gunner", "random"],
        expected: include_str!("../golden/skyport.txt"),
        path: "tests/golden/skyport.txt",
    },
    GoldenMatch {
        game: "crafting-quest",
        ruleset: None,
        options: &[],
        seed: 2013,
        bots: ["crafter", "random"],
        expected: include_str!("../golden/crafting-quest.txt"),
        path: "tests/golden/crafting-quest.txt",
    },
    GoldenMatch {
        game: "crafting-quest",
        ruleset: None,
        options: &[("map", "v1")],
        seed: 2013,
        bots: ["crafter", "random"],
        expected: include_str!("../golden/crafting-quest-v1.txt"),
        path: "tests/golden/crafting-quest-v1.txt",
    },
];

/// Plays the golden match and writes its transcript.
pub fn transcript(golden: &GoldenMatch) -> String {
    let (referee, setup) = played(golden);
    write_transcript(&referee, &setup)
}

/// The golden match taken over in its middle by the same bots, played by the page's match
/// worker (its driver, with a clock of its own): the transcript of what it played, which must be
/// the golden one.
pub fn taken_over_transcript(golden: &GoldenMatch) -> String {
    use botplay_web::match_host::{driver, HostNews, HostStart, Player, TakeOver};

    let (original, setup) = played(golden);
    let replay = original.replay();
    let turns = replay.turns.len() / 2;
    let start = HostStart {
        setup: setup.clone(),
        names: original.names().to_vec(),
        players: golden
            .bots
            .iter()
            .map(|name| Player::Builtin {
                name: name.to_string(),
            })
            .collect(),
        relaxed: false,
        from: Some(TakeOver { replay, turns }),
    };
    let news = driver::play_builtins(start).expect("a match to take over");
    let records = news
        .into_iter()
        .filter_map(|news| match news {
            HostNews::Progress { turns, .. } => Some(turns),
            _ => None,
        })
        .flatten()
        .map(Into::into)
        .collect();
    let entry = games::entry(golden.game).expect("a registered game");
    let again = engine::Replay::new(
        entry.info,
        setup.clone(),
        original.names().to_vec(),
        false,
        records,
    );
    let referee = again.rerun(entry).expect("the match taken over re-runs");
    write_transcript(&referee, &setup)
}

/// The replay of the golden match.
pub fn replay(golden: &GoldenMatch) -> engine::Replay {
    played(golden).0.replay()
}

/// Plays the golden match: the referee at its end, and its set-up.
fn played(golden: &GoldenMatch) -> (Referee, Setup) {
    let entry = games::entry(golden.game).expect("a registered game");
    let mut setup = Setup::new(entry.info, golden.seed);
    if let Some(ruleset) = golden.ruleset {
        setup.ruleset = ruleset.to_string();
    }
    for (key, value) in golden.options {
        setup.options.insert(key.to_string(), value.to_string());
    }
    let game = (entry.new)(&setup).expect("a valid setup");
    let names = golden.bots.iter().map(|b| format!("builtin:{b}")).collect();
    let mut referee = Referee::new(game, setup.clone(), names, false);
    let bots = golden
        .bots
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            bots::builtin(golden.game, name, bots::bot_seed(golden.seed, seat))
                .expect("a built-in bot")
        })
        .collect();
    bots::local::play(&mut referee, bots);
    (referee, setup)
}

fn write_transcript(referee: &Referee, setup: &Setup) -> String {
    let mut out = String::new();
    let info = games::entry(&setup.game).expect("registered").info;
    let _ = writeln!(
        out,
        "# golden transcript: {} v{} ruleset {} seed {}",
        info.id, info.version, setup.ruleset, setup.seed
    );
    if !setup.options.is_empty() {
        let options: Vec<String> = setup
            .options
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let _ = writeln!(out, "# options: {}", options.join(" "));
    }
    let _ = writeln!(out, "# bots: {}", referee.names().join(" vs "));
    let _ = writeln!(
        out,
        "# regenerate: UPDATE_GOLDEN=1 cargo test -p botplay-web --test golden"
    );
    let frames = referee.frames();
    let _ = writeln!(out, "\n== start\n{}", frames[0].text().trim_end());
    for (i, turn) in referee.turns().iter().enumerate() {
        let frame = &frames[i + 1];
        let _ = writeln!(out, "\n== record {} (turn {})", i + 1, frame.turn);
        for st in &turn.seats {
            if i < 2 {
                let _ = writeln!(out, "seat {} was sent:", st.seat + 1);
                for line in st.input.lines() {
                    let _ = writeln!(out, "  < {line}");
                }
            }
            for line in &st.lines {
                let _ = writeln!(out, "seat {} wrote: {line}", st.seat + 1);
            }
            if let Some(f) = &st.fault {
                let _ = writeln!(out, "{f}");
            }
        }
        for event in frame.events().iter() {
            let _ = writeln!(out, "- {event}");
        }
        let _ = writeln!(out, "status: {}", frame.status().join(" | "));
        if (i + 1) % 20 == 0 || i + 1 == referee.turns().len() {
            let _ = writeln!(out, "{}", frame.text().trim_end());
        }
    }
    // Replay → share link → replay: the same replay back, and a link whose bytes the transcript
    // pins (so native and wasm must encode identically).
    let replay = referee.replay();
    let link = engine::ShareDoc::of_replay(replay.clone()).encode();
    let back = engine::ShareDoc::decode(&link).expect("the link decodes");
    assert_eq!(
        back.replay.map(|r| r.to_json()),
        Some(replay.to_json()),
        "replay → link → replay"
    );
    let _ = writeln!(
        out,
        "\n== share link with the replay: {} characters, checksum {:016x}",
        link.len(),
        engine::fnv1a(link.as_bytes())
    );
    // Every text the seats were sent (inputs and the game's answers), pinned as a whole: the
    // transcript prints the inputs of the first two records only.
    let mut sent = String::new();
    for turn in referee.turns() {
        for st in &turn.seats {
            let _ = writeln!(sent, "{} {}", st.seat, st.turn);
            sent.push_str(&st.input);
            for reply in &st.replies {
                sent.push_str(reply);
            }
        }
    }
    let _ = writeln!(
        out,
        "\n== every text the seats were sent: {} bytes, checksum {:016x}",
        sent.len(),
        engine::fnv1a(sent.as_bytes())
    );
    match referee.outcome() {
        Some(o) => {
            let _ = writeln!(
                out,
                "\n== outcome: scores {:?} ranks {:?} ({})",
                o.scores, o.ranks, o.reason
            );
        }
        None => out.push_str("\n== no outcome\n"),
    }
    out
}
