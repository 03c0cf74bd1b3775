//! The Crafting Quest 3 built-in bots: reading the referee's lines, well-formed requests, sensible
//! choices on hand-written states, and matches against the real referee
//! (`games::crafting_quest`).

mod common;

use bots::crafting_quest::protocol::{read, Message};
use bots::crafting_quest::{Crafter, Wait};
use bots::Bot;
use engine::{Fault, Outcome, Referee, Setup};
use games::crafting_quest::{parse_request, Request};

/// A built-in Crafting Quest bot by name, seeded.
fn bot(name: &str, seed: i64) -> Box<dyn Bot> {
    common::builtin("crafting-quest", name, seed)
}

fn setup(seed: i64, seats: usize, options: &[(&str, &str)]) -> Setup {
    let mut setup = common::setup("crafting-quest", seed);
    setup.seats = seats;
    for (k, v) in options {
        setup.options.insert(k.to_string(), v.to_string());
    }
    setup
}

/// Plays one match; returns the outcome, the faults and the referee.
fn play(
    seed: i64,
    options: &[(&str, &str)],
    bots: Vec<Box<dyn Bot>>,
) -> (Outcome, Vec<Fault>, Referee) {
    let referee = common::play_out(setup(seed, bots.len(), options), bots);
    let (outcome, faults) = common::result(&referee);
    (outcome, faults, referee)
}

/// The hero's tally against the villain, seats alternated by seed.
fn series(seeds: std::ops::Range<i64>, bots: (&str, &str)) -> common::Tally {
    series_on(&[], seeds, bots)
}

/// As [`series`], with game options.
fn series_on(
    options: &[(&str, &str)],
    seeds: std::ops::Range<i64>,
    bots: (&str, &str),
) -> common::Tally {
    common::series(
        "crafting-quest",
        seeds,
        &format!("{options:?}"),
        bots,
        |seed, bots| {
            let (outcome, faults, _) = play(seed, options, bots);
            (outcome, faults)
        },
    )
}

/// The first turn's input of seat 0 in a fresh match.
fn first_input(seed: i64) -> String {
    let game = games::new_game(&setup(seed, 2, &[])).expect("valid");
    engine::Game::input(game.as_ref(), 0)
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

#[test]
fn reads_the_player_state_and_answers() {
    let input = first_input(7);
    let Message::State { turn, state } = read(input.trim_end()) else {
        panic!("not a state: {input}");
    };
    assert!(turn);
    assert_eq!((state.round, state.rounds, state.size), (1, 70, 50));
    assert_eq!((state.player, state.players, state.home), (0, 2, (5, 5)));
    assert_eq!((state.gold, state.blueprints), (200, [1, 1, 1, 1]));
    assert_eq!(state.units.len(), 10);
    let u = &state.units[0];
    assert_eq!(
        (u.id, u.x, u.y, u.energy, u.life, u.move_cost),
        (0, 3, 3, 200, 200, 20)
    );
    assert_eq!((u.sight.x, u.sight.y, u.sight.rows.len()), (0, 0, 9));
    assert!(u.sight.at(3, 3).is_some_and(|b| b".wslbitg*".contains(&b)));
    assert_eq!(u.sight.at(20, 20), None, "out of sight");
    assert!(u.sight.units.iter().any(|s| s.id == 5 && s.player == 0));
    assert!(!u.sight.units.iter().any(|s| s.id == 6), "6 cells away");
    let answer = r#"{"type":"result","result":"NoError","reason":"buried here: gold 60","actions_left":999,"gold":250,"blueprints":{"sword":2,"armour":1,"tower":1,"trap":1},"unit":{"id":0,"x":3,"y":3,"energy":190,"life":200,"frozen":0,"sword":1,"armour":0,"retaliate":{"energy":40,"threshold":40},"resources":{"iron":10},"objects":[{"kind":"sword","level":1,"count":1}],"weight":15,"move_cost":170,"dig":{"x":3,"y":3,"resources":{"gold":60}},"sight":{"x":0,"y":0,"rows":["..."],"mixed":[],"piles":[],"towers":[],"traps":[],"units":[]}}}"#;
    let Message::Answer(a) = read(answer) else {
        panic!("not an answer")
    };
    assert_eq!(
        (a.result.as_str(), a.gold, a.blueprints[0]),
        ("NoError", 250, 2)
    );
    let u = a.unit.expect("a unit");
    assert_eq!(
        (u.energy, u.sword, u.retaliate, u.weight),
        (190, 1, (40, 40), 15)
    );
    assert_eq!(u.res[4], 10);
    assert_eq!(u.items[0][0], 1);
    assert_eq!(u.dig, Some((3, 3, [0, 0, 0, 0, 0, 0, 60])));
    assert_eq!(read("not json"), Message::Unknown);
    assert_eq!(read(r#"{"type":"something"}"#), Message::Unknown);
}

#[test]
fn every_bot_writes_well_formed_requests() {
    let input = first_input(3);
    let bots: Vec<Box<dyn Bot>> = vec![bot("crafter", 1), bot("random", 2), bot("wait", 3)];
    for mut bot in bots {
        let lines = bot.read(&input);
        assert!(!lines.is_empty());
        for line in lines {
            assert!(parse_request(&line).is_ok(), "{line}");
        }
    }
    // Unreadable input is never answered with garbage.
    for mut bot in [bot("crafter", 1), bot("random", 2), bot("wait", 3)] {
        assert!(bot.read("garbage\n").is_empty());
    }
}

#[test]
fn the_wait_bot_ends_every_turn() {
    let mut bot = Wait;
    assert_eq!(
        bot.read(&first_input(1)),
        vec![r#"{"type":"end"}"#.to_string()]
    );
}

/// A hand-written state: my unit 0 at (5,5), retaliation set, an enemy with `life` at (6,5).
fn duel(energy: i32, life: i32, armour: i32) -> String {
    let sight = format!(
        r#"{{"x":0,"y":0,"rows":["...........","...........","...........","...........","...........","...........","...........","...........","...........","...........","..........."],"mixed":[],"piles":[],"towers":[],"traps":[],"units":[{{"player":0,"id":0,"x":5,"y":5,"energy":{energy},"life":200,"sword":0,"armour":0}},{{"player":1,"id":13,"x":6,"y":5,"energy":50,"life":{life},"sword":0,"armour":{armour}}}]}}"#
    );
    format!(
        r#"{{"type":"turn","round":3,"rounds":70,"player":0,"players":2,"size":50,"home":[5,5],"gold":200,"actions_left":1000,"blueprints":{{"sword":1,"armour":1,"tower":1,"trap":1}},"score":0,"kills":0,"deaths":0,"towers":[],"traps":[],"units":[{{"id":0,"x":5,"y":5,"energy":{energy},"life":200,"frozen":0,"sword":0,"armour":0,"retaliate":{{"energy":40,"threshold":40}},"resources":{{}},"objects":[],"weight":0,"move_cost":20,"dig":null,"sight":{sight}}}]}}
"#
    )
}

#[test]
fn the_crafter_kills_what_it_can_finish_and_leaves_the_rest() {
    let mut bot = Crafter::new(0);
    let out = bot.read(&duel(200, 90, 0));
    assert_eq!(
        out,
        vec![r#"{"unit":0,"type":"attack","target":{"player":1,"unit":13},"energy":90}"#]
    );
    // Armour 2 halves the damage: 179 energy deal 89.5, rounded up to 90.
    let mut bot = Crafter::new(0);
    let out = bot.read(&duel(200, 90, 2));
    assert!(out[0].contains(r#""energy":179"#), "{out:?}");
    // Too strong: no attack.
    let mut bot = Crafter::new(0);
    let out = bot.read(&duel(100, 150, 0));
    assert!(!out[0].contains("attack"), "{out:?}");
}

// ---------------------------------------------------------------------------------------------
// Matches against the real referee
// ---------------------------------------------------------------------------------------------

/// The crafter beats random in at least 90 % of 50 seeded matches: at least 23 of each half
/// (46 of 50), the halves in two tests so that they run side by side.
#[test]
fn crafter_beats_random_nine_times_in_ten_seeds_0_to_24() {
    series(0..25, ("crafter", "random")).assert_won_at_least(23, "crafter vs random, seeds 0-24");
}

#[test]
fn crafter_beats_random_nine_times_in_ten_seeds_25_to_49() {
    series(25..50, ("crafter", "random")).assert_won_at_least(23, "crafter vs random, seeds 25-49");
}

/// On each official map, with its own rounds (80, 100, 120), the crafter beats random in at
/// least 90 % of 50 seeded matches (seats alternated): at least 23 of each half, the halves in
/// two tests so that they run side by side.
fn crafter_beats_random_on(map: &str, seeds: std::ops::Range<i64>) {
    let label = format!("crafter vs random on {map}, seeds {seeds:?}");
    series_on(&[("map", map)], seeds, ("crafter", "random")).assert_won_at_least(23, &label);
}

#[test]
fn crafter_beats_random_on_v1_seeds_0_to_24() {
    crafter_beats_random_on("v1", 0..25);
}

#[test]
fn crafter_beats_random_on_v1_seeds_25_to_49() {
    crafter_beats_random_on("v1", 25..50);
}

#[test]
fn crafter_beats_random_on_v2_seeds_0_to_24() {
    crafter_beats_random_on("v2", 0..25);
}

#[test]
fn crafter_beats_random_on_v2_seeds_25_to_49() {
    crafter_beats_random_on("v2", 25..50);
}

#[test]
fn crafter_beats_random_on_v3_seeds_0_to_24() {
    crafter_beats_random_on("v3", 0..25);
}

#[test]
fn crafter_beats_random_on_v3_seeds_25_to_49() {
    crafter_beats_random_on("v3", 25..50);
}

#[test]
fn crafter_beats_wait() {
    series(100..104, ("crafter", "wait")).assert_won_at_least(4, "crafter vs wait");
}

#[test]
fn the_crafter_digs_crafts_equips_and_never_writes_a_refused_shape() {
    let (outcome, faults, referee) = play(3, &[], vec![bot("crafter", 1), bot("random", 2)]);
    assert!(faults.is_empty(), "{faults:?}");
    let events: Vec<String> = referee
        .frames()
        .iter()
        .flat_map(|f| f.events().into_owned())
        .collect();
    assert!(
        events.iter().any(|e| e.contains("crafts a level-1")),
        "no craft"
    );
    let mut equipped = false;
    for turn in referee.turns() {
        for st in turn.seats.iter().filter(|s| s.seat == 0) {
            for (line, reply) in st.lines.iter().zip(&st.replies) {
                let request = parse_request(line).unwrap_or_else(|e| panic!("{line}: {e:?}"));
                assert_ne!(request, Request::End, "the end line is not answered");
                for bad in ["UnknownActionError", "OperandError", "UnitIdError"] {
                    assert!(!reply.contains(bad), "{line} -> {reply}");
                }
                equipped |= reply.contains("sword equipped");
            }
        }
    }
    assert!(equipped, "no sword equipped");
    assert!(outcome.scores[0] > 500, "{:?}", outcome.scores);
}

#[test]
fn no_bot_faults_with_two_to_four_players_on_every_map() {
    let names = ["wait", "random", "crafter"];
    let maps = ["generated", "v1", "v2", "v3"];
    for seed in 0..9i64 {
        let seats = 2 + (seed as usize % 3);
        let map = maps[seed as usize % 4];
        let bots: Vec<Box<dyn Bot>> = (0..seats)
            .map(|s| {
                let name = names[(seed as usize + s) % 3];
                bots::builtin("crafting-quest", name, seed + s as i64).expect("registered")
            })
            .collect();
        let (outcome, faults, _) = play(seed, &[("map", map), ("rounds", "12")], bots);
        assert!(faults.is_empty(), "seed {seed} {map}: {faults:?}");
        assert_eq!(outcome.scores.len(), seats);
    }
}

#[test]
fn matches_are_deterministic() {
    let run = || {
        play(
            42,
            &[("rounds", "25")],
            vec![bot("crafter", 5), bot("random", 6)],
        )
        .0
    };
    assert_eq!(run(), run());
}
