//! The fast paths against their plain references (ARCHITECTURE.md, "fast paths"), on random
//! play and random text: the input as bytes against `init_text` / `turn_text`, the line reader
//! against `plain_parse_line`, the cell indexes and the binary search of units against scans,
//! and activity kept up to date action by action against `Board::compute_activity`.

use engine::{Game, JavaRandom, Rules};

use super::protocol::{
    init_text, parse_line, parse_piece, plain_parse_line, quick_piece, turn_text, write_number,
};
use super::*;

fn new_game(league: u8, seed: i64) -> IceAndFire {
    let mut setup = engine::Setup::new(&INFO, seed);
    setup.ruleset = format!("league-{league}");
    IceAndFire::create(&setup).expect("valid setup")
}

/// Runs the line's checked commands one by one on a copy of the board, as the step runs them,
/// checking activity and the indexes after each.
fn check_actions(game: &IceAndFire, seat: usize) {
    let mut board = game.board.clone();
    for command in &game.pending {
        if run_leaving_incomes(&mut board, seat, command).is_none() {
            continue;
        }
        let mut again = board.clone();
        again.compute_activity();
        assert_eq!(again.active, board.active, "after {command}");
        assert!(board.indexes_agree(), "after {command}");
        if board.hq_lost().is_some() {
            break;
        }
    }
}

#[test]
fn random_play_keeps_the_fast_paths_on_their_plain_references() {
    for league in 1..=4 {
        for seed in 1..=8 {
            let mut game = new_game(league, seed * 31 + i64::from(league));
            let mut rng = JavaRandom::new(seed);
            while game.outcome.is_none() {
                let seat = game.player;
                let mut plain = String::new();
                if game.turns_done == seat as u32 {
                    plain.push_str(&init_text(&game.board));
                }
                plain.push_str(&turn_text(&game.board, seat));
                assert_eq!(game.input(seat), plain);
                let line = game.write_action(seat, &game.random_action(seat, &mut rng))[0].clone();
                assert_eq!(parse_line(&line), plain_parse_line(&line), "{line:?}");
                game.hear(seat, &line);
                check_actions(&game, seat);
                game.step();
                let mut again = game.board.clone();
                again.compute_activity();
                assert_eq!(again.active, game.board.active);
                assert!(game.board.indexes_agree());
            }
        }
    }
}

#[test]
fn the_line_reader_reads_random_text_as_the_plain_one() {
    const PARTS: [&str; 26] = [
        "MOVE",
        "TRAIN",
        "BUILD",
        "MINE",
        "TOWER",
        "WAIT",
        "MSG",
        " ",
        " ",
        " ",
        "  ",
        "0",
        "7",
        "12",
        "0000000001",
        "999999999",
        "1000000000",
        "2147483648",
        ";",
        ";",
        "\t",
        "\u{85}",
        "\u{2028}",
        "é",
        "-1",
        "\n",
    ];
    let mut rng = JavaRandom::new(38);
    for _ in 0..200_000 {
        let mut line = String::new();
        for _ in 0..rng.next_int_bounded(12) {
            line.push_str(PARTS[rng.next_int_bounded(PARTS.len() as i32) as usize]);
        }
        assert_eq!(parse_line(&line), plain_parse_line(&line), "{line:?}");
        if let Some(command) = quick_piece(&line) {
            assert_eq!(Some(command), parse_piece(&line), "{line:?}");
        }
    }
}

#[test]
fn numbers_are_written_as_display_writes_them() {
    let extremes = [i32::MIN, i32::MIN + 1, i32::MAX, -1_000_000, 1_000_000_000];
    for v in (-3000..=3000).chain(extremes) {
        let mut buf = [0u8; 16];
        let n = write_number(&mut buf, v);
        assert_eq!(std::str::from_utf8(&buf[..n]), Ok(v.to_string().as_str()));
    }
}
