//! The Skyport built-in bots: reading hand-written server lines, their choices in small
//! positions, well-formed output, and matches against the real referee (`games::skyport`).

mod common;

use bots::skyport::protocol::{order_line, Act, Dir, Message, Pos, Ruleset, Weapon};
use bots::skyport::{Gunner, Random, Wait};
use bots::Bot;
use engine::{Fault, Outcome};

// ---------------------------------------------------------------------------------------------
// Hand-written server lines
// ---------------------------------------------------------------------------------------------

const INFO_REV1: &str =
    "{\"message\":\"info\",\"ruleset\":\"rev1\",\"rounds\":50,\"players\":2,\"timeout\":1000,\"map\":\"x\"}\n";
const INFO_TG: &str =
    "{\"message\":\"info\",\"ruleset\":\"tg2013\",\"rounds\":50,\"players\":2,\"timeout\":1000,\"map\":\"x\"}\n";

/// `"map":{...}` from rows (`rows[j]` holds `k = 0..D`).
fn map_json(rows: &[&str]) -> String {
    let data: Vec<String> = rows
        .iter()
        .map(|r| {
            let tiles: Vec<String> = r.chars().map(|c| format!("\"{c}\"")).collect();
            format!("[{}]", tiles.join(","))
        })
        .collect();
    format!(
        "\"map\":{{\"j-length\":{n},\"k-length\":{n},\"data\":[{}]}}",
        data.join(","),
        n = rows.len()
    )
}

/// A player object: name, health, position, weapons with levels, and resources if it is "me".
fn player(
    name: &str,
    health: i32,
    pos: (i32, i32),
    w: [(&str, u8); 2],
    res: Option<[u32; 3]>,
) -> String {
    let mut o = format!(
        "{{\"name\":\"{name}\",\"health\":{health},\"score\":0,\"position\":\"{},{}\",\
         \"primary-weapon\":{{\"name\":\"{}\",\"level\":{}}},\"secondary-weapon\":{{\"name\":\"{}\",\"level\":{}}}",
        pos.0, pos.1, w[0].0, w[0].1, w[1].0, w[1].1
    );
    if let Some([r, e, c]) = res {
        o.push_str(&format!(
            ",\"resources\":{{\"rubidium\":{r},\"explosium\":{e},\"scrap\":{c}}}"
        ));
    }
    o.push('}');
    o
}

/// What the gunner, ready in rev1, answers on turn `turn` of the open map, standing at `pos`
/// with `weapons` (full health, no resources) against a laser-and-droid foe at `foe`.
fn gunner_answers(
    turn: u32,
    pos: (i32, i32),
    weapons: [(&str, u8); 2],
    foe: (i32, i32),
) -> Vec<String> {
    let mut bot = ready_gunner(INFO_REV1);
    let me = player("gunner", 100, pos, weapons, Some([0; 3]));
    let foe = player("x", 100, foe, [("laser", 1), ("droid", 1)], None);
    acts(&bot.read(&state(turn, &[me, foe], &OPEN)))
}

fn state(turn: u32, players: &[String], rows: &[&str]) -> String {
    format!(
        "{{\"message\":\"gamestate\",\"turn\":{turn},\"players\":[{}],{}}}\n",
        players.join(","),
        map_json(rows)
    )
}

const OPEN: [&str; 7] = [
    "SGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGS",
];

/// The gunner after its handshake and loadout, in a ruleset.
fn ready_gunner(info: &str) -> Gunner {
    let mut bot = Gunner::new(0);
    let hello = bot.read(info);
    assert_eq!(
        hello,
        ["{\"message\":\"connect\",\"revision\":1,\"name\":\"gunner\"}"]
    );
    assert!(bot
        .read("{\"message\":\"connect\",\"status\":true}\n")
        .is_empty());
    let start = format!(
        "{{\"message\":\"gamestate\",\"turn\":0,\"players\":[{{\"name\":\"gunner\"}},{{\"name\":\"x\"}}],{}}}\n",
        map_json(&OPEN)
    );
    let loadout = bot.read(&start);
    assert_eq!(loadout.len(), 1);
    assert!(
        loadout[0].starts_with("{\"message\":\"loadout\""),
        "{loadout:?}"
    );
    bot
}

fn acts(lines: &[String]) -> Vec<String> {
    lines.to_vec()
}

#[test]
fn messages_are_read() {
    match Message::parse(&state(
        3,
        &[player(
            "a",
            90,
            (1, 2),
            [("laser", 2), ("droid", 1)],
            Some([1, 2, 3]),
        )],
        &OPEN,
    )) {
        Some(Message::State(s)) => {
            assert_eq!(s.turn, 3);
            assert!(s.my_turn());
            let p = &s.players[0];
            assert_eq!(
                (p.health, p.pos, p.resources),
                (90, Pos::new(1, 2), Some([1, 2, 3]))
            );
            assert_eq!(p.weapons, [(Weapon::Laser, 2), (Weapon::Droid, 1)]);
            assert_eq!(s.board.size, 7);
            assert_eq!(s.board.at(Pos::new(6, 6)), b'S');
        }
        other => panic!("{other:?}"),
    }
    // The 2013 server's "j, k" positions are read too.
    let p =
        player("a", 90, (1, 2), [("laser", 2), ("droid", 1)], None).replace("\"1,2\"", "\"1, 2\"");
    match Message::parse(&state(3, &[p], &OPEN)) {
        Some(Message::State(s)) => {
            assert_eq!(s.players[0].pos, Pos::new(1, 2));
            assert!(!s.my_turn());
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        Message::parse("{\"error\":\"x\"}"),
        Some(Message::Error("x".into()))
    );
    assert_eq!(
        Message::parse("{\"message\":\"endturn\"}"),
        Some(Message::EndTurn)
    );
    assert_eq!(
        Message::parse("{\"message\":\"endactions\",\"winner\":null}"),
        Some(Message::End)
    );
    assert_eq!(Message::parse("not json"), None);
    assert_eq!(
        order_line(&Act::Mortar(-1, 2)),
        "{\"message\":\"action\",\"type\":\"mortar\",\"coordinates\":\"-1,2\"}"
    );
    assert_eq!(
        order_line(&Act::Droid(vec![Dir::LeftUp, Dir::Down])),
        "{\"message\":\"action\",\"type\":\"droid\",\"sequence\":[\"left-up\",\"down\"]}"
    );
}

#[test]
fn the_conversation_of_every_bot() {
    let bots: Vec<Box<dyn Bot>> = vec![
        Box::new(Wait::new()),
        Box::new(Random::new(4)),
        Box::new(Gunner::new(4)),
    ];
    for mut bot in bots {
        let hello = bot.read(INFO_REV1);
        assert_eq!(hello.len(), 1);
        assert!(hello[0].starts_with("{\"message\":\"connect\",\"revision\":1,\"name\":\""));
        let start = format!(
            "{{\"message\":\"gamestate\",\"turn\":0,\"players\":[{{\"name\":\"a\"}},{{\"name\":\"b\"}}],{}}}\n",
            map_json(&OPEN)
        );
        let loadout = bot.read(&start);
        assert_eq!(loadout.len(), 1, "{loadout:?}");
        // The bot plays "a" (with its resources), the other one "b".
        let a = player(
            "a",
            100,
            (0, 0),
            [("laser", 1), ("mortar", 1)],
            Some([0; 3]),
        );
        let b = player("b", 100, (6, 6), [("laser", 1), ("mortar", 1)], None);
        // Someone else's turn: nothing; endturn, broadcasts, errors: nothing.
        let theirs = state(1, &[b.clone(), a.clone()], &OPEN);
        assert!(bot.read(&theirs).is_empty());
        assert!(bot.read("{\"message\":\"endturn\"}\n{\"message\":\"action\",\"type\":\"mine\",\"from\":\"b\"}\n{\"error\":\"oops\"}\n").is_empty());
        // Its own turn: at most three actions, then endturn when fewer.
        let mine = state(2, &[a, b], &OPEN);
        let lines = bot.read(&mine);
        assert!(!lines.is_empty() && lines.len() <= 3 + 1, "{lines:?}");
        let actions = lines.iter().filter(|l| l.contains("\"action\"")).count();
        assert!(actions <= 3);
        if actions < 3 {
            assert_eq!(lines.last().unwrap(), "{\"message\":\"endturn\"}");
        }
        assert!(bot
            .read("{\"message\":\"endactions\",\"winner\":\"a\"}\n")
            .is_empty());
    }
}

#[test]
fn the_gunner_shoots_first_with_the_full_bonus() {
    // In line down-right at distance 3, laser and droid: the droid straight at it in the first
    // slot (31 beats the laser's 22).
    let lines = gunner_answers(5, (2, 2), [("laser", 1), ("droid", 1)], (2, 5));
    let droid = order_line(&Act::Droid(vec![Dir::RightDown; 3]));
    assert_eq!(lines, [droid, "{\"message\":\"endturn\"}".to_string()]);
    // With the laser and the mortar, out of mortar range: the laser at once.
    let lines = gunner_answers(5, (2, 2), [("laser", 1), ("mortar", 1)], (2, 6));
    assert_eq!(
        lines[0],
        order_line(&Act::Laser(Dir::RightDown)),
        "{lines:?}"
    );
}

#[test]
fn the_gunner_does_not_shoot_at_a_robot_on_its_spawn() {
    // The foe stands on its spawn 6,6 in line: in REV 1 the damage would come back.
    let lines = gunner_answers(5, (3, 3), [("laser", 1), ("droid", 1)], (6, 6));
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("laser\",\"direction\"") || l.contains("droid\",\"sequence")),
        "{lines:?}"
    );
}

#[test]
fn the_gunner_upgrades_and_mines() {
    let mut bot = ready_gunner(INFO_TG);
    let rows = [
        "SGGGGGG", "GRGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGS",
    ];
    // Nobody in reach; standing on rubidium with 4 rubidium and a level-1 laser.
    let me = player(
        "gunner",
        100,
        (1, 1),
        [("laser", 1), ("droid", 1)],
        Some([4, 0, 0]),
    );
    let foe = player("x", 100, (6, 6), [("laser", 1), ("droid", 1)], None);
    let lines = acts(&bot.read(&state(5, &[me, foe], &rows)));
    assert!(
        lines.contains(
            &"{\"message\":\"action\",\"type\":\"upgrade\",\"weapon\":\"laser\"}".to_string()
        ),
        "{lines:?}"
    );
    assert!(
        lines.contains(&"{\"message\":\"action\",\"type\":\"mine\"}".to_string()),
        "{lines:?}"
    );
}

#[test]
fn the_gunner_leaves_its_spawn_and_closes_in() {
    let lines = gunner_answers(1, (0, 0), [("laser", 1), ("droid", 1)], (6, 6));
    assert!(lines[0].contains("\"move\""), "{lines:?}");
    assert_eq!(lines.len(), 3, "{lines:?}");
}

#[test]
fn the_gunner_chooses_weapons_for_the_map_and_ruleset() {
    let mut bot = Gunner::new(0);
    bot.read(INFO_TG);
    let rows = [
        "SEEEEEE", "EEEEEEE", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGG", "GGGGGGS",
    ];
    let start = format!(
        "{{\"message\":\"gamestate\",\"turn\":0,\"players\":[{{\"name\":\"a\"}},{{\"name\":\"b\"}}],{}}}\n",
        map_json(&rows)
    );
    let loadout = bot.read(&start);
    assert!(
        loadout[0].contains("\"primary-weapon\":\"mortar\""),
        "{loadout:?}"
    );
    let mut bot = Gunner::new(0);
    bot.read(INFO_REV1);
    let start = start.replace('E', "C");
    let loadout = bot.read(&start);
    assert_eq!(
        loadout[0],
        "{\"message\":\"loadout\",\"primary-weapon\":\"droid\",\"secondary-weapon\":\"laser\"}"
    );
    let _ = Ruleset::by_id("rev1");
}

// ---------------------------------------------------------------------------------------------
// Matches against the real referee
// ---------------------------------------------------------------------------------------------

/// Plays one match; returns the outcome and the faults.
fn play(seed: i64, seats: usize, ruleset: &str, bots: Vec<Box<dyn Bot>>) -> (Outcome, Vec<Fault>) {
    let mut setup = common::setup("skyport", seed);
    setup.ruleset = ruleset.to_string();
    setup.seats = seats;
    common::result(&common::play_out(setup, bots))
}

/// A built-in Skyport bot by name, seeded.
fn bot(name: &str, seed: i64) -> Box<dyn Bot> {
    common::builtin("skyport", name, seed)
}

/// The bot `hero` against `villain` in two-player matches, seats alternated by seed: the hero's
/// tally.
fn series(seeds: std::ops::Range<i64>, ruleset: &str, bots: (&str, &str)) -> common::Tally {
    common::series("skyport", seeds, ruleset, bots, |seed, bots| {
        play(seed, 2, ruleset, bots)
    })
}

#[test]
fn gunner_beats_random_nine_times_in_ten() {
    series(0..100, "rev1", ("gunner", "random")).assert_won_at_least(90, "gunner vs random");
}

#[test]
fn gunner_wins_in_tg2013_and_against_wait() {
    series(0..20, "tg2013", ("gunner", "random"))
        .assert_won_at_least(18, "tg2013: gunner vs random");
    series(0..10, "rev1", ("gunner", "wait")).assert_won_at_least(10, "gunner vs wait");
}

#[test]
fn gunner_wins_most_free_for_alls() {
    let mut wins = 0;
    for seed in 0..10 {
        let seats = 3 + (seed as usize % 2);
        let hero = seed as usize % seats;
        let bots = (0..seats)
            .map(|s| {
                if s == hero {
                    bot("gunner", seed)
                } else {
                    bot("random", seed * 10 + s as i64)
                }
            })
            .collect();
        let (outcome, faults) = play(seed, seats, "rev1", bots);
        assert!(faults.is_empty(), "seed {seed}: {faults:?}");
        wins += usize::from(outcome.winner() == Some(hero));
    }
    assert!(wins >= 9, "only {wins} wins of 10");
}

#[test]
fn no_bot_ever_faults_with_any_number_of_players() {
    let names = ["wait", "random", "gunner"];
    for ruleset in ["rev1", "tg2013"] {
        for seats in 2..=8 {
            let seed = seats as i64 * 31;
            let bots = (0..seats)
                .map(|s| {
                    let name = names[(s + seats) % names.len()];
                    bots::builtin("skyport", name, seed + s as i64).expect("registered")
                })
                .collect();
            let (_, faults) = play(seed, seats, ruleset, bots);
            assert!(faults.is_empty(), "{ruleset} {seats} seats: {faults:?}");
        }
    }
}

#[test]
fn matches_are_deterministic() {
    let run = || {
        play(
            42,
            3,
            "rev1",
            vec![bot("gunner", 5), bot("random", 6), bot("gunner", 7)],
        )
        .0
    };
    assert_eq!(run(), run());
}
