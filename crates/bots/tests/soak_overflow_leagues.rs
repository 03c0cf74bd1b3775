//! Soak Overflow's tutorial leagues through the real referee: the boss against scripted red
//! bots that complete or break each league's objective, the built-in bots as opponents there
//! (they read red's orders block), and the league's default opponent.

use bots::soak_overflow::protocol::{Combat, Init, Orders, Pos, Reader, TurnInput};
use bots::soak_overflow::{Boss, Random, Soaker, Wait};
use bots::Bot;
use engine::{Outcome, Referee, Setup};
use games::soak_overflow::league::run_and_gun_spots;

/// A red bot whose every turn is a function of what it read.
struct Scripted {
    reader: Reader,
    plan: fn(&Init, &TurnInput) -> Vec<String>,
}

impl Bot for Scripted {
    fn read(&mut self, input: &str) -> Vec<String> {
        match self.reader.feed(input) {
            Some(Ok(turn)) => (self.plan)(self.reader.init().expect("init"), &turn),
            _ => Vec::new(),
        }
    }
}

fn scripted(plan: fn(&Init, &TurnInput) -> Vec<String>) -> Box<dyn Bot> {
    Box::new(Scripted {
        reader: Reader::new(),
        plan,
    })
}

/// The turn's agents of a player, in input order: (id, position, bombs, wetness).
fn side(init: &Init, turn: &TurnInput, player: i32) -> Vec<(i32, Pos, i32, i32)> {
    turn.agents
        .iter()
        .filter(|a| init.owner(a.id) == Some(player))
        .map(|a| (a.id, a.pos, a.bombs, a.wetness))
        .collect()
}

/// Plays a whole match in a league; returns the referee.
fn play(league: u8, seed: i64, red: Box<dyn Bot>, blue: Box<dyn Bot>) -> Referee {
    let entry = games::entry("soak-overflow").expect("registered");
    let mut setup = Setup::new(entry.info, seed);
    setup.ruleset = format!("league-{league}");
    let game = (entry.new)(&setup).expect("a valid setup");
    let names = vec!["red".to_string(), "blue".to_string()];
    let mut referee = Referee::new(game, setup, names, false);
    bots::local::play(&mut referee, vec![red, blue]);
    referee
}

fn outcome(referee: &Referee) -> Outcome {
    referee.outcome().expect("the match ended")
}

/// Every line a seat wrote in the match.
fn written(referee: &Referee, seat: usize) -> Vec<String> {
    referee
        .turns()
        .iter()
        .flat_map(|t| t.seats.iter())
        .filter(|st| st.seat == seat)
        .flat_map(|st| st.lines.clone())
        .collect()
}

/// Makes a seeded bot.
type MakeBot = fn(i64) -> Box<dyn Bot>;

fn boss(seed: i64) -> Box<dyn Bot> {
    Box::new(Boss::new(seed))
}

// ---------------------------------------------------------------------------------------------
// Scripted red bots

fn league_1_solver(_: &Init, _: &TurnInput) -> Vec<String> {
    vec!["1;MOVE 6 1".into(), "2;MOVE 6 3".into()]
}

/// Both red agents shoot the wettest enemy (the first listed on a tie).
fn league_2_obeys(init: &Init, turn: &TurnInput) -> Vec<String> {
    let wettest = side(init, turn, 1).iter().map(|e| e.3).max();
    both_shoot_the_first_with(init, turn, wettest.unwrap_or(0))
}

/// Both red agents shoot the driest enemy.
fn league_2_disobeys(init: &Init, turn: &TurnInput) -> Vec<String> {
    let driest = side(init, turn, 1).iter().map(|e| e.3).min();
    both_shoot_the_first_with(init, turn, driest.unwrap_or(0))
}

/// Both red agents shoot the first enemy listed with this wetness.
fn both_shoot_the_first_with(init: &Init, turn: &TurnInput, wetness: i32) -> Vec<String> {
    let enemies = side(init, turn, 1);
    let target = enemies.iter().find(|e| e.3 == wetness).map_or(0, |e| e.0);
    side(init, turn, 0)
        .iter()
        .map(|(id, ..)| format!("{id};SHOOT {target}"))
        .collect()
}

/// Steps behind the high cover and shoots the enemy behind the weaker cover.
fn league_3_solver(init: &Init, turn: &TurnInput) -> Vec<String> {
    let (run, gun) = run_and_gun_spots(&init.grid());
    let on = |p: Pos| turn.agents.iter().find(|a| a.pos == p).map_or(0, |a| a.id);
    vec![
        format!("1;MOVE {} {};SHOOT {}", run[0].x, run[0].y, on(gun[0])),
        format!("2;MOVE {} {};SHOOT {}", run[1].x, run[1].y, on(gun[1])),
    ]
}

/// The four bunker centres of a league-4 grid.
fn bunkers(init: &Init) -> [Pos; 4] {
    let w = init.width;
    [
        Pos::new(2, 2),
        Pos::new(2, 9),
        Pos::new(w - 3, 2),
        Pos::new(w - 3, 9),
    ]
}

/// The free agent walks 4 tiles from each bunker that holds only enemies and throws at its
/// centre; the trapped agent waits.
fn league_4_solver(init: &Init, turn: &TurnInput) -> Vec<String> {
    let red = side(init, turn, 0);
    let blue = side(init, turn, 1);
    let (free, trapped) = (red[0], red[1]);
    let target = bunkers(init)
        .into_iter()
        .find(|b| b.chebyshev(trapped.1) > 1 && blue.iter().any(|e| e.1.chebyshev(*b) <= 1));
    let Some(target) = target else {
        return vec![format!("{};WAIT", free.0), format!("{};WAIT", trapped.0)];
    };
    let stand = Pos::new(
        if target.x == 2 { 5 } else { init.width - 6 },
        if target.y == 2 { 3 } else { 8 },
    );
    let order = if free.1 == stand {
        format!("{};THROW {} {}", free.0, target.x, target.y)
    } else {
        format!("{};MOVE {} {}", free.0, stand.x, stand.y)
    };
    vec![order, format!("{};WAIT", trapped.0)]
}

/// Red shoots: the boss answers with its executioners.
fn league_4_shoots(init: &Init, turn: &TurnInput) -> Vec<String> {
    let blue = side(init, turn, 1);
    side(init, turn, 0)
        .iter()
        .map(|(id, ..)| format!("{id};SHOOT {}", blue[0].0))
        .collect()
}

/// Red wastes its three bombs on empty ground above its start.
fn league_4_wastes_bombs(init: &Init, turn: &TurnInput) -> Vec<String> {
    let red = side(init, turn, 0);
    vec![
        format!("{};THROW {} 2", red[0].0, init.width / 2),
        format!("{};WAIT", red[1].0),
    ]
}

fn waits(_: &Init, turn: &TurnInput) -> Vec<String> {
    vec!["WAIT".to_string(); turn.my_agent_count]
}

// ---------------------------------------------------------------------------------------------
// The boss in each league

#[test]
fn league_1_has_no_opponent_to_ask() {
    let referee = play(1, 5, scripted(league_1_solver), boss(1));
    assert_eq!(outcome(&referee).scores, [0, -1]);
    assert!(
        referee
            .turns()
            .iter()
            .all(|t| t.seats.iter().all(|s| s.seat == 0)),
        "the opponent is never asked"
    );
    let referee = play(1, 5, scripted(waits), boss(1));
    assert_eq!(outcome(&referee).scores, [-1, 0]);
    assert_eq!(referee.frames().last().expect("a frame").turn, 20);
}

#[test]
fn league_2_the_boss_waits_while_red_obeys() {
    for seed in 1..20 {
        let referee = play(2, seed, scripted(league_2_obeys), boss(seed));
        assert_eq!(outcome(&referee).scores, [2, 0], "seed {seed}");
        assert!(referee.faults().is_empty());
        let blue = written(&referee, 1);
        assert_eq!(
            blue.len(),
            4 + 3 + 2 + 1,
            "one line per blue agent and turn"
        );
        assert!(blue.iter().all(|l| l.ends_with(";WAIT")), "{blue:?}");
    }
}

#[test]
fn league_2_the_boss_soaks_red_when_it_shoots_another_enemy() {
    let referee = play(2, 3, scripted(league_2_disobeys), boss(3));
    let o = outcome(&referee);
    assert_eq!(o.winner(), Some(1), "{o:?}");
    assert_eq!(o.scores, [0, 3], "the driest enemy went down with red");
    assert_eq!(referee.frames().last().expect("a frame").turn, 1);
    let blue = written(&referee, 1);
    let shots: Vec<&str> = blue.iter().map(|l| &l[l.find(';').unwrap()..]).collect();
    assert_eq!(shots, [";SHOOT 1", ";SHOOT 2", ";SHOOT 1", ";SHOOT 2"]);
}

#[test]
fn league_3_the_boss_fires_only_when_red_misses_the_run_and_gun() {
    for seed in 1..30 {
        let won = play(3, seed, scripted(league_3_solver), boss(seed));
        assert_eq!(outcome(&won).scores, [0, -1], "seed {seed}");
        assert!(written(&won, 1).iter().all(|l| l.ends_with(";WAIT")));
        let lost = play(3, seed, scripted(waits), boss(seed));
        assert_eq!(outcome(&lost).scores, [-1, 0], "seed {seed}");
        assert_eq!(
            written(&lost, 1),
            ["3;SHOOT 1", "4;SHOOT 1", "5;SHOOT 2", "6;SHOOT 2"],
            "seed {seed}"
        );
    }
}

#[test]
fn league_4_the_bunkers_fall_to_three_bombs_and_the_boss_stays_quiet() {
    for seed in 1..30 {
        let referee = play(4, seed, scripted(league_4_solver), boss(seed));
        let o = outcome(&referee);
        assert_eq!(o.scores, [0, -1], "seed {seed}: {o:?}");
        assert!(written(&referee, 1).iter().all(|l| l.ends_with(";WAIT")));
    }
}

#[test]
fn league_4_shooting_or_running_out_of_bombs_calls_the_executioners() {
    let referee = play(4, 7, scripted(league_4_shoots), boss(7));
    assert_eq!(outcome(&referee).scores, [-1, 0]);
    assert_eq!(
        referee.frames().last().expect("a frame").turn,
        1,
        "red is soaked at once"
    );
    let shots: Vec<String> = written(&referee, 1)
        .into_iter()
        .filter(|l| l.contains("SHOOT"))
        .collect();
    // Two random blue agents, one at each red agent (lines come in blue's list order).
    let mut targets: Vec<&str> = shots.iter().map(|l| &l[l.find(';').unwrap()..]).collect();
    targets.sort_unstable();
    assert_eq!(targets, [";SHOOT 1", ";SHOOT 2"], "{shots:?}");

    let referee = play(4, 7, scripted(league_4_wastes_bombs), boss(7));
    assert_eq!(outcome(&referee).scores, [-1, 0]);
    // Three throws, then the first agent has no bomb left when turn 4 begins.
    assert_eq!(referee.frames().last().expect("a frame").turn, 4);

    let referee = play(4, 7, scripted(waits), boss(7));
    assert_eq!(outcome(&referee).scores, [-1, 0]);
    assert_eq!(referee.frames().last().expect("a frame").turn, 40);
    assert!(written(&referee, 1).iter().all(|l| l.ends_with(";WAIT")));
}

#[test]
fn the_boss_only_hunkers_in_the_full_game() {
    for seed in 1..6 {
        let referee = play(5, seed, Box::new(Random::new(seed)), boss(seed));
        assert!(referee.faults().is_empty(), "seed {seed}");
        assert!(written(&referee, 1).iter().all(|l| l.ends_with(";WAIT")));
    }
}

// ---------------------------------------------------------------------------------------------
// Other opponents in the tutorial leagues, and the default opponent

#[test]
fn every_built_in_bot_can_be_the_opponent_of_a_tutorial_league() {
    let makers: [(&str, MakeBot); 3] = [
        ("wait", |_| Box::new(Wait::new())),
        ("random", |s| Box::new(Random::new(s))),
        ("soaker", |s| Box::new(Soaker::new(s))),
    ];
    for league in 2..=4 {
        for (name, make) in makers {
            for seed in 1..6 {
                let referee = play(league, seed, Box::new(Random::new(seed + 99)), make(seed));
                let blue_faults: Vec<_> = referee.faults().iter().filter(|f| f.seat == 1).collect();
                assert!(
                    blue_faults.is_empty(),
                    "league {league}, {name}, seed {seed}: {blue_faults:?}"
                );
            }
        }
    }
}

#[test]
fn the_opponents_reader_takes_reds_orders() {
    let text = "\
1
3
1 0 0 6 50 0
3 1 0 6 100 0
4 1 0 6 100 0
8 5
0 0 0 1 0 0 2 0 0 3 0 0 4 0 0 5 0 0 6 0 0 7 0 0
0 1 0 1 1 0 2 1 0 3 1 0 4 1 0 5 1 0 6 1 0 7 1 0
0 2 0 1 2 0 2 2 0 3 2 0 4 2 0 5 2 0 6 2 0 7 2 0
0 3 0 1 3 0 2 3 0 3 3 0 4 3 0 5 3 0 6 3 0 7 3 0
0 4 0 1 4 0 2 4 0 3 4 0 4 4 0 5 4 0 6 4 0 7 4 0
3
1 3 2 0 0 0
4 2 1 0 0 90
3 2 3 0 0 80
2
1
1;MOVE 0 0;SHOOT 4
";
    let mut reader = Reader::new();
    let turn = reader.feed(text).expect("whole").expect("valid");
    assert!(reader.init().expect("init").gets_orders());
    assert_eq!(turn.my_agent_count, 2);
    assert_eq!(
        turn.orders,
        [Orders {
            id: 1,
            to: Some(Pos::new(0, 0)),
            combat: Some(Combat::Shoot(4)),
        }]
    );
    // The next turn: no init block, an agent told nothing.
    let next = reader
        .feed("3\n1 3 2 0 0 0\n4 2 1 0 0 90\n3 2 3 0 0 80\n2\n1\n1\n")
        .expect("whole")
        .expect("valid");
    assert_eq!(
        next.orders,
        [Orders {
            id: 1,
            to: None,
            combat: None
        }]
    );
    // Red's own reader expects no orders block, and neither does the full game's opponent.
    let red = text.replacen("1\n3\n", "0\n3\n", 1);
    let mut reader = Reader::new();
    assert!(reader
        .feed(&red)
        .expect("whole")
        .expect("valid")
        .orders
        .is_empty());
}

#[test]
fn each_league_has_its_default_opponent() {
    for league in 1..=4 {
        let b = bots::default_opponent("soak-overflow", &format!("league-{league}"));
        assert_eq!(b.map(|b| b.name), Some("boss"), "league {league}");
    }
    let full = bots::default_opponent("soak-overflow", "league-5").map(|b| b.name);
    assert_eq!(full, Some("soaker"));
    for league in 1..=4 {
        let b = bots::default_opponent("ice-and-fire", &format!("league-{league}"));
        assert_eq!(b.map(|b| b.name), Some("expander"));
    }
    assert!(bots::default_opponent("no-such-game", "league-1").is_none());
}
