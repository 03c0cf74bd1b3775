//! `Random`: seeded random play. Every line it writes is well formed and every action legal
//! where the bot can tell: an agent steps to a random free neighbouring tile (or stays), then
//! shoots a random enemy in range, throws a bomb at a random tile within reach, or hunkers.
//! (A move cancelled by a collision can still put a shot or throw out of reach; the referee
//! then skips it.)

use engine::JavaRandom;

use super::board::Board;
use super::protocol::{agent_line, Action, Pos, Reader};
use crate::{pick, Seeded};

const MESSAGES: [&str; 4] = ["splash!", "over here", "wheee", "cover me"];

/// Plays random legal actions, drawn from a `java.util.Random` seeded with the bot's seed.
pub type Random = Seeded<Reader, Board>;

impl Random {
    pub fn new(seed: i64) -> Self {
        Seeded::with(seed, super::read_board, play)
    }
}

/// One turn: a line for each own agent (`WAIT` without any).
fn play(rng: &mut JavaRandom, board: Board) -> Vec<String> {
    let occupied: Vec<Pos> = board.units.iter().map(|u| u.pos).collect();
    let mut taken: Vec<Pos> = Vec::new();
    let mut lines = Vec::new();
    for unit in board.mine() {
        let mut actions = Vec::new();
        let mut at = unit.pos;
        if rng.next_int_bounded(4) != 0 {
            let steps: Vec<Pos> = board
                .neighbours(unit.pos)
                .filter(|&n| board.walkable(n) && !occupied.contains(&n) && !taken.contains(&n))
                .collect();
            if let Some(step) = pick(rng, &steps) {
                at = step;
                taken.push(step);
                actions.push(Action::Move(step));
            }
        }
        let targets: Vec<i32> = board
            .enemies()
            .filter(|e| e.pos.manhattan(at) <= 2 * unit.range)
            .map(|e| e.id)
            .collect();
        let throws: Vec<Pos> = (0..board.cells())
            .map(|i| board.pos(i))
            .filter(|p| p.manhattan(at) <= 4)
            .collect();
        match rng.next_int_bounded(4) {
            0 | 1 if unit.cooldown == 0 && !targets.is_empty() => {
                if let Some(id) = pick(rng, &targets) {
                    actions.push(Action::Shoot(id));
                }
            }
            2 if unit.bombs > 0 => {
                if let Some(p) = pick(rng, &throws) {
                    actions.push(Action::Throw(p));
                }
            }
            3 => actions.push(Action::HunkerDown),
            _ => {}
        }
        if rng.next_int_bounded(12) == 0 {
            let text = MESSAGES[rng.next_int_bounded(MESSAGES.len() as i32) as usize];
            actions.push(Action::Message(text.to_string()));
        }
        lines.push(agent_line(unit.id, &actions));
    }
    if lines.is_empty() {
        lines.push("WAIT".to_string());
    }
    lines
}
