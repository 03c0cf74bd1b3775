//! The input written as bytes, its agents' lines written once a turn for both seats, against
//! the plain writers (`push_init`, `push_turn`) on random play in every league (ARCHITECTURE.md,
//! "fast paths").

use engine::{Game, JavaRandom, Rules};

use super::protocol::{orders_text, push_init, push_turn};
use super::*;

/// A seat's input the plain way.
fn plain_input(game: &SoakOverflow, seat: usize) -> String {
    let mut text = String::new();
    if game.turns_done == 0 {
        push_init(&mut text, &game.board, &game.initial, seat);
    }
    push_turn(&mut text, &game.board, seat);
    if seat == 1 && game.board.league.opponent_follows() {
        text.push_str(&orders_text(&game.board, 0));
    }
    text
}

#[test]
fn inputs_on_random_play_are_the_plain_ones() {
    for league in 1..=5 {
        for seed in 1..=6 {
            let mut setup = engine::Setup::new(&INFO, seed * 7 + 1);
            setup.ruleset = format!("league-{league}");
            let mut game = SoakOverflow::create(&setup).expect("valid setup");
            let mut rng = JavaRandom::new(seed);
            while game.outcome.is_none() {
                let seats = game.to_move();
                // Both seats, each twice, in both orders: the agents' lines are shared.
                for &seat in seats.iter().chain(seats.iter().rev()) {
                    assert_eq!(game.input(seat), plain_input(&game, seat));
                }
                for seat in seats {
                    let action = game.random_action(seat, &mut rng);
                    for line in game.write_action(seat, &action) {
                        game.hear(seat, &line);
                    }
                    assert_eq!(game.input(seat), plain_input(&game, seat));
                }
                game.step();
            }
        }
    }
}

/// The step without a search, where the way is straight, against the search itself: every pair
/// of tiles in a row or a column (and some off the grid) on generated grids, with agents
/// scattered.
#[test]
fn straight_steps_are_the_searched_ones() {
    use super::map::Coord;
    use super::path::{next_step, searched_step};
    let mut rng = JavaRandom::new(5);
    for seed in 1..=40 {
        let grid = super::map::Grid::generate(seed);
        let occupied: Vec<bool> = (0..grid.cells())
            .map(|_| rng.next_int_bounded(6) == 0)
            .collect();
        for y in -1..=grid.height {
            for x in -1..=grid.width {
                let from = Coord::new(x, y);
                let line = (-1..=grid.width.max(grid.height))
                    .flat_map(|k| [Coord::new(k, y), Coord::new(x, k)]);
                for to in line {
                    assert_eq!(
                        next_step(&grid, &occupied, from, to),
                        searched_step(&grid, &occupied, from, to),
                        "seed {seed}: {from} to {to}"
                    );
                }
            }
        }
    }
}
