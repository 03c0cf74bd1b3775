//! `Random`: seeded random play. Every order it writes is legal when written: moves within the
//! unit's step onto tiles that are not walls, attacks on enemies in reach, harvests of
//! resources in reach, builds and trainings it can afford on free tiles in reach.

use engine::JavaRandom;
use games::micro_rts::trains;

use super::board::Board;
use super::protocol::Reader;
use super::protocol::{output_line, Order, BARRACKS, CASTLE, ENEMY, WALL, WORKER};
use super::read_board;
use crate::{pick, Seeded};

/// Plays random legal orders, drawn from a `java.util.Random` seeded with the bot's seed.
pub type Random = Seeded<Reader, Board>;

impl Random {
    pub fn new(seed: i64) -> Self {
        Seeded::with(seed, read_board, play)
    }
}

/// One turn: one line of orders.
fn play(rng: &mut JavaRandom, mut board: Board) -> Vec<String> {
    vec![output_line(&orders(rng, &mut board))]
}

/// Each entity acts with probability 3/4: one of the orders it may give.
fn orders(rng: &mut JavaRandom, board: &mut Board) -> Vec<Order> {
    let mut orders = Vec::new();
    for e in board.mine() {
        if rng.next_int_bounded(4) == 0 {
            continue;
        }
        let from = (e.x, e.y);
        let stats = board.stats(e.kind);
        let free: Vec<(i32, i32)> = board
            .around(e.x, e.y, stats.reach)
            .into_iter()
            .filter(|&(x, y)| board.free(x, y))
            .collect();
        let mut options = Vec::new();
        match e.kind {
            CASTLE | BARRACKS => {
                let kinds = trains(e.kind);
                let kind = pick(rng, kinds).unwrap_or(WORKER);
                if board.affordable(kind) {
                    if let Some(to) = pick(rng, &free) {
                        options.push(Order::Train { from, to, kind });
                    }
                }
            }
            _ => {
                for (x, y) in board.around(e.x, e.y, stats.reach) {
                    match board.at(x, y) {
                        Some(t) if t.owner == ENEMY => {
                            options.push(Order::Attack { from, to: (x, y) });
                        }
                        Some(t) if e.kind == WORKER && t.owner == -1 && t.kind >= 2 => {
                            options.push(Order::Harvest { from, to: (x, y) });
                        }
                        _ => {}
                    }
                }
                let steps: Vec<(i32, i32)> = board
                    .around(e.x, e.y, stats.step)
                    .into_iter()
                    .filter(|&(x, y)| {
                        !board
                            .at(x, y)
                            .is_some_and(|t| t.owner == -1 && t.kind == WALL)
                    })
                    .collect();
                if let Some(to) = pick(rng, &steps) {
                    options.push(Order::Move { from, to });
                }
                if e.kind == WORKER && rng.next_int_bounded(8) == 0 {
                    let kind = if rng.next_int_bounded(6) == 0 {
                        CASTLE
                    } else {
                        BARRACKS
                    };
                    if board.affordable(kind) {
                        if let Some(to) = pick(rng, &free) {
                            options.push(Order::Build { from, to, kind });
                        }
                    }
                }
            }
        }
        if let Some(order) = pick(rng, &options) {
            if let Order::Build { to, kind, .. } | Order::Train { to, kind, .. } = order {
                board.pay(kind);
                board.claim(to.0, to.1);
            }
            orders.push(order);
        }
    }
    orders
}
