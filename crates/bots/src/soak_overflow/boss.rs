//! The boss: the scripted opponent of the tutorial leagues. In the original it is part of the
//! referee, which reads the player's orders of the turn before deciding; here it is a bot in
//! seat 2 that answers after red and finds red's orders at the end of its input (see
//! [`super::protocol`]). It recognises its league by the grid: 8 × 5 is league 2 (league 1
//! has no opponent and never asks it), 13 × 5 league 3, a height of 12 league 4. Anywhere else
//! (the full game, or playing red) it hunkers down like [`super::Wait`].
//!
//! - **League 2**: unless every red agent shoots the wettest blue agent (the first listed on a
//!   tie), every blue agent shoots a red agent, in turn (blue agent k shoots red agent
//!   k mod n, in list order).
//! - **League 3**: unless red completes the run and gun (both agents move so that their next
//!   steps, on the referee's path search with no agent in the way, are the tiles beside the
//!   high cover, or already stand there, and both shoot the enemies behind the weaker
//!   cover), blue agents 3 and 4 shoot agent 1 and blue agents 5 and 6 shoot agent 2.
//! - **League 4**: when red shoots, has lost an agent, or its first agent has no bomb left,
//!   two blue agents picked at random shoot agents 1 and 2. The original draws them from the
//!   referee's random generator; here from the bot's own seed, so which blue agents fire can
//!   differ (red's agents are soaked all the same).
//!
//! Blue agents with nothing to do write `WAIT`, which does nothing in these leagues.

use engine::JavaRandom;
use games::soak_overflow::league::run_and_gun_spots;
use games::soak_overflow::path::next_step;

use super::protocol::{agent_line, Action, Combat, Init, Orders, Pos, Reader, TurnInput};
use crate::lines::whole_turn;
use crate::Bot;

/// The tutorial boss.
#[derive(Clone, Debug)]
pub struct Boss {
    reader: Reader,
    rng: JavaRandom,
}

impl Boss {
    pub fn new(seed: i64) -> Self {
        Boss {
            reader: Reader::new(),
            rng: JavaRandom::new(seed),
        }
    }
}

/// An agent of the turn, as the boss needs it.
struct Seen {
    id: i32,
    bombs: i32,
    wetness: i32,
}

impl Bot for Boss {
    fn read(&mut self, input: &str) -> Vec<String> {
        let turn = match whole_turn(self.reader.feed(input)) {
            Ok(turn) => turn,
            Err(reply) => return reply,
        };
        let Some(init) = self.reader.init().cloned() else {
            return vec!["WAIT".to_string()];
        };
        let side = |player: i32| -> Vec<Seen> {
            turn.agents
                .iter()
                .filter(|a| init.owner(a.id) == Some(player))
                .map(|a| Seen {
                    id: a.id,
                    bombs: a.bombs,
                    wetness: a.wetness,
                })
                .collect()
        };
        let mine = side(init.my_id);
        let red = side(0);
        let shots = if init.gets_orders() {
            match (init.width, init.height) {
                (8, 5) => league_2(&mine, &red, &turn.orders),
                (13, 5) => league_3(&init, &turn, &mine, &turn.orders),
                (_, 12) => league_4(&mut self.rng, &mine, &red, &turn.orders),
                _ => Vec::new(),
            }
        } else {
            Vec::new()
        };
        let mut lines: Vec<String> = mine
            .iter()
            .map(
                |a| match shots.iter().find(|(shooter, _)| *shooter == a.id) {
                    Some((_, target)) => agent_line(a.id, &[Action::Shoot(*target)]),
                    None => agent_line(a.id, &[]),
                },
            )
            .collect();
        if lines.is_empty() && turn.my_agent_count > 0 {
            lines = vec!["WAIT".to_string(); turn.my_agent_count];
        }
        lines
    }
}

/// Red's combat order for an agent.
fn combat(orders: &[Orders], id: i32) -> Option<Combat> {
    orders.iter().find(|o| o.id == id).and_then(|o| o.combat)
}

/// League 2: (shooter, target) pairs.
fn league_2(mine: &[Seen], red: &[Seen], orders: &[Orders]) -> Vec<(i32, i32)> {
    // `Stream.max` keeps the first of equal elements.
    let Some(wettest) = mine
        .iter()
        .fold(None::<&Seen>, |best, a| match best {
            Some(b) if b.wetness >= a.wetness => Some(b),
            _ => Some(a),
        })
        .map(|a| a.id)
    else {
        return Vec::new();
    };
    let obeyed = red
        .iter()
        .all(|r| combat(orders, r.id) == Some(Combat::Shoot(wettest)));
    if obeyed || red.is_empty() {
        return Vec::new();
    }
    mine.iter()
        .enumerate()
        .map(|(k, a)| (a.id, red[k % red.len()].id))
        .collect()
}

/// League 3: the run and gun, judged as the referee judges it before the turn's moves.
fn league_3(init: &Init, turn: &TurnInput, mine: &[Seen], orders: &[Orders]) -> Vec<(i32, i32)> {
    let grid = init.grid();
    let (run, gun) = run_and_gun_spots(&grid);
    let free = vec![false; grid.cells()];
    let red: Vec<_> = turn
        .agents
        .iter()
        .filter(|a| init.owner(a.id) == Some(0))
        .collect();
    let position = |id: i32| turn.agents.iter().find(|a| a.id == id).map(|a| a.pos);
    let done = match red.as_slice() {
        [a, b, ..] => {
            let order = |id: i32| orders.iter().find(|o| o.id == id);
            match (order(a.id), order(b.id)) {
                (Some(oa), Some(ob)) => match (oa.to, ob.to) {
                    (Some(ta), Some(tb)) => {
                        let step_a = next_step(&grid, &free, a.pos, ta);
                        let step_b = next_step(&grid, &free, b.pos, tb);
                        let stepping = step_a == Some(run[0]) && step_b == Some(run[1]);
                        let standing = a.pos == run[0] && b.pos == run[1];
                        let aimed = |o: &Orders, at: Pos| match o.combat {
                            Some(Combat::Shoot(id)) => position(id) == Some(at),
                            _ => false,
                        };
                        (stepping || standing) && aimed(oa, gun[0]) && aimed(ob, gun[1])
                    }
                    _ => false,
                },
                _ => false,
            }
        }
        _ => false,
    };
    if done {
        return Vec::new();
    }
    mine.iter()
        .map(|a| (a.id, if a.id < 5 { 1 } else { 2 }))
        .collect()
}

/// League 4: two executioners when red breaks the rules of the puzzle.
fn league_4(
    rng: &mut JavaRandom,
    mine: &[Seen],
    red: &[Seen],
    orders: &[Orders],
) -> Vec<(i32, i32)> {
    let shoots = red
        .iter()
        .any(|r| matches!(combat(orders, r.id), Some(Combat::Shoot(_))));
    let no_bombs = red.first().is_none_or(|r| r.bombs == 0);
    let lost_one = red.len() != 2;
    if !(shoots || lost_one || no_bombs) {
        return Vec::new();
    }
    let mut ids: Vec<i32> = mine.iter().map(|a| a.id).collect();
    // `Collections.shuffle`.
    for i in (2..=ids.len()).rev() {
        let j = rng.next_int_bounded(i as i32) as usize;
        ids.swap(i - 1, j);
    }
    ids.into_iter()
        .take(2)
        .enumerate()
        .map(|(k, id)| (id, k as i32 + 1))
        .collect()
}
