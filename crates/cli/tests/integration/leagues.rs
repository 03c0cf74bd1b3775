//! Leagues on the command line: Soak Overflow's tutorial leagues played by local programs
//! against the built-in boss, chosen with `--league` or `--ruleset`.
use crate::common::{
    assert_contains, botplay, seat_lines, stdout, temp, words, words_around, words_then,
};

use std::path::PathBuf;

/// A Python bot written to a temporary file; returns the command line that runs it. Matches
/// with Python bots run relaxed: a loaded machine can take a second to start Python.
fn python_bot(name: &str, code: &str) -> String {
    let path: PathBuf = temp("leagues", name);
    std::fs::write(&path, code).expect("write the bot");
    format!("python3 {}", path.display())
}

/// Reads the initialisation block; returns my id and each agent's owner.
const READ_INIT: &str = "\
my_id = int(input())
owner = {}
for _ in range(int(input())):
    agent_id, player = map(int, input().split()[:2])
    owner[agent_id] = player
width, height = map(int, input().split())
for _ in range(height):
    input()
";

/// League 1: walk to (6,1) and (6,3).
fn walker() -> String {
    python_bot(
        "walker.py",
        &format!(
            "{READ_INIT}\
while True:
    for _ in range(int(input())):
        input()
    input()
    print('1;MOVE 6 1')
    print('2;MOVE 6 3', flush=True)
"
        ),
    )
}

/// League 2: both agents shoot the wettest enemy.
fn sharpshooter() -> String {
    python_bot(
        "sharpshooter.py",
        &format!(
            "{READ_INIT}\
while True:
    agents = [list(map(int, input().split())) for _ in range(int(input()))]
    input()
    enemies = [a for a in agents if owner[a[0]] != my_id]
    target = max(enemies, key=lambda a: a[5])[0]
    for a in agents:
        if owner[a[0]] == my_id:
            print(f'{{a[0]}};SHOOT {{target}}')
    print(end='', flush=True)
"
        ),
    )
}

/// `seat N NAME score S rank R` lines as (name, score, rank).
fn seats(out: &str) -> Vec<(String, i64, usize)> {
    seat_lines(out)
        .into_iter()
        .map(|(_, name, score, rank)| (name, score, rank))
        .collect()
}

#[test]
fn league_1_is_played_against_the_boss_which_is_never_asked() {
    let walker = walker();
    let o = botplay(&words_around(
        "play --game soak-overflow --league 1 --seed 3 --relaxed --bot",
        &walker,
        "--bot builtin:boss",
    ));
    assert!(o.status.success(), "{o:?}");
    let out = format!("{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        seats(&out),
        [(walker.clone(), 0, 1), ("builtin:boss".to_string(), -1, 2)],
        "{out}"
    );
    assert!(!out.contains("fault"), "{out}");
}

#[test]
fn league_2_a_program_that_shoots_the_wettest_beats_the_boss() {
    let shooter = sharpshooter();
    let replay = temp("leagues", "league-2.json");
    let replay = replay.display().to_string();
    let o = botplay(&words_then(
        "play --game soak-overflow --ruleset league-2 --seed 11 --relaxed --bot",
        &[&shooter, "--bot", "builtin:boss", "--replay", &replay],
    ));
    assert!(o.status.success(), "{o:?}");
    let out = format!("{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        seats(&out),
        [(shooter, 2, 1), ("builtin:boss".to_string(), 0, 2)],
        "{out}"
    );
    let again = botplay(&["replay", &replay]);
    assert!(again.status.success(), "{again:?}");
    let _ = std::fs::remove_file(&replay);
}

#[test]
fn every_tutorial_league_plays_built_in_bots_to_the_end() {
    for league in ["2", "3", "4"] {
        let o = botplay(&words_around(
            "play --game soak-overflow --league",
            league,
            "--seed 5 --bot builtin:random --bot builtin:boss",
        ));
        assert!(o.status.success(), "league {league}: {o:?}");
        assert_eq!(seats(&stdout(&o)).len(), 2, "league {league}");
    }
    let o = botplay(&words(
        "play --game soak-overflow --league 6 --bot builtin:random --bot builtin:boss",
    ));
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

#[test]
fn the_boss_is_listed_with_its_leagues() {
    let out = stdout(&botplay(&["list", "--bots"]));
    let line = out
        .lines()
        .find(|l| l.contains("builtin:boss"))
        .unwrap_or_else(|| panic!("no boss in {out}"));
    assert_contains(line, "tutorial leagues");
}
