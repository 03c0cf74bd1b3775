//! `Soaker`: a simple, sensible strategy, greedy and deterministic.
//!
//! Each turn, on its own model of the board:
//! 1. **Moves.** Agents decide one after another. Each looks at staying and at its free
//!    neighbouring tiles (not covers, not occupied, not taken by a teammate's step) and takes
//!    the one with the best value: the territory the team would control with it there (the
//!    referee's rule, wetness doubling included), the best shot it could take from there,
//!    minus the wetness the enemies able to shoot could deal it there (so it takes cover and
//!    steps out of reach), minus how far it would still be from engaging the nearest enemy
//!    (so it advances). Wet agents weigh the danger more.
//! 2. **Combat**, from the tiles chosen:
//!    - a splash bomb where it hits at least two enemies, or finishes one, and none of my
//!      agents (standing or stepping) is within the splash;
//!    - otherwise a shot at the enemy where it does the most, preferring a shot that soaks
//!      the target and skipping enemies that are already soaked by the shots planned;
//!    - otherwise it hunkers down.

use super::board::{Board, Unit};
use super::protocol::{agent_line, Action, Pos, Reader};
use crate::Bot;

/// A soaked enemy is worth this much wetness on top of the damage.
const KILL: i32 = 60;
/// Weight of the wetness enemies could deal an agent on a tile.
const DANGER: f64 = 0.6;
/// Weight of one controlled tile (as a difference between the teams).
const TILE: f64 = 1.0;
/// Weight of one tile of distance beyond engaging range.
const APPROACH: f64 = 3.0;
/// A bomb is thrown when it is worth at least this much (two enemies hit).
const BOMB_VALUE: i32 = 60;

/// The sensible built-in bot; see the module documentation for its strategy.
pub struct Soaker {
    reader: Reader,
}

impl Soaker {
    /// The strategy is deterministic; the seed is accepted like every built-in bot's.
    pub fn new(_seed: i64) -> Self {
        Soaker {
            reader: Reader::new(),
        }
    }
}

/// What one agent will do.
struct Plan {
    unit: Unit,
    to: Pos,
}

/// The wetness the enemies that can shoot soon could deal an agent standing on `p`.
fn danger(board: &Board, p: Pos) -> i32 {
    board
        .enemies()
        .filter(|e| e.cooldown <= 1)
        .map(|e| board.shot(e.power, e.range, e.pos, p, false))
        .sum()
}

/// The value of the best shot from `p` (damage, plus the kill bonus).
fn best_shot(board: &Board, unit: &Unit, p: Pos) -> i32 {
    board
        .enemies()
        .map(|e| {
            let d = board.shot(unit.power, unit.range, p, e.pos, false);
            if d > 0 && e.wetness + d >= 100 {
                d + KILL
            } else {
                d
            }
        })
        .max()
        .unwrap_or(0)
}

impl Soaker {
    fn play(&mut self, board: &Board) -> Vec<String> {
        let plans = plan_moves(board);
        let mut assigned: Vec<(i32, i32)> = Vec::new();
        let mut lines = Vec::new();
        let mut bombed: Vec<Pos> = Vec::new();
        for plan in &plans {
            let mut actions = Vec::new();
            if plan.to != plan.unit.pos {
                actions.push(Action::Move(plan.to));
            }
            let combat = choose_throw(board, plan, &plans, &assigned, &bombed)
                .map(|(target, hits)| {
                    bombed.push(target);
                    for id in hits {
                        add(&mut assigned, id, 30);
                    }
                    Action::Throw(target)
                })
                .or_else(|| {
                    choose_shot(board, plan, &assigned).map(|(id, d)| {
                        add(&mut assigned, id, d);
                        Action::Shoot(id)
                    })
                })
                .unwrap_or(Action::HunkerDown);
            actions.push(combat);
            lines.push(agent_line(plan.unit.id, &actions));
        }
        if lines.is_empty() {
            lines.push("WAIT".to_string());
        }
        lines
    }
}

fn add(assigned: &mut Vec<(i32, i32)>, id: i32, d: i32) {
    match assigned.iter_mut().find(|(i, _)| *i == id) {
        Some((_, total)) => *total += d,
        None => assigned.push((id, d)),
    }
}

fn planned(assigned: &[(i32, i32)], id: i32) -> i32 {
    assigned
        .iter()
        .find(|(i, _)| *i == id)
        .map_or(0, |(_, d)| *d)
}

/// Step 1: each agent's tile for this turn.
fn plan_moves(board: &Board) -> Vec<Plan> {
    let enemy_distances: Vec<Vec<i32>> = board.enemies().map(|e| board.distances(e.pos)).collect();
    let occupied: Vec<Pos> = board.units.iter().map(|u| u.pos).collect();
    let mut plans: Vec<Plan> = Vec::new();
    let mine: Vec<Unit> = board.mine().copied().collect();
    for (k, unit) in mine.iter().enumerate() {
        let mut options = vec![unit.pos];
        options.extend(board.neighbours(unit.pos).filter(|&n| {
            board.walkable(n) && !occupied.contains(&n) && plans.iter().all(|p| p.to != n)
        }));
        let mut best: Option<(f64, Pos)> = None;
        for &p in &options {
            // Teammates: where they go (already planned) or stand (not yet).
            let mut agents: Vec<(Pos, bool, i32)> =
                plans.iter().map(|q| (q.to, true, q.unit.wetness)).collect();
            agents.extend(mine[k + 1..].iter().map(|u| (u.pos, true, u.wetness)));
            agents.push((p, true, unit.wetness));
            agents.extend(board.enemies().map(|e| (e.pos, false, e.wetness)));
            let (me, them) = board.territory(&agents);
            let territory = f64::from(me - them) * TILE;
            let shot = if unit.cooldown <= 1 {
                f64::from(best_shot(board, unit, p))
            } else {
                0.3 * f64::from(best_shot(board, unit, p))
            };
            let caution = DANGER * (1.0 + f64::from(unit.wetness) / 50.0);
            let threat = f64::from(danger(board, p)) * caution;
            let engage = if unit.range > 0 { unit.range } else { 2 };
            let nearest = enemy_distances
                .iter()
                .map(|d| d[board.index(p)])
                .min()
                .unwrap_or(0);
            let approach = f64::from((nearest.saturating_sub(engage)).max(0)) * APPROACH;
            let value = territory + shot - threat - approach;
            if best.is_none_or(|(v, _)| value > v) {
                best = Some((value, p));
            }
        }
        let to = best.map_or(unit.pos, |(_, p)| p);
        plans.push(Plan { unit: *unit, to });
    }
    plans
}

/// Step 2a: a bomb worth throwing from the plan's tile: its target and the enemies it hits.
fn choose_throw(
    board: &Board,
    plan: &Plan,
    plans: &[Plan],
    assigned: &[(i32, i32)],
    bombed: &[Pos],
) -> Option<(Pos, Vec<i32>)> {
    if plan.unit.bombs <= 0 {
        return None;
    }
    let mut best: Option<(i32, Pos, Vec<i32>)> = None;
    for i in 0..board.cells() {
        let t = board.pos(i);
        if t.manhattan(plan.to) > 4 || bombed.contains(&t) {
            continue;
        }
        let friendly = plans
            .iter()
            .any(|q| q.to.chebyshev(t) <= 1 || q.unit.pos.chebyshev(t) <= 1);
        if friendly {
            continue;
        }
        let mut value = 0;
        let mut hits = Vec::new();
        for e in board.enemies() {
            let wet = e.wetness + planned(assigned, e.id);
            if e.pos.chebyshev(t) <= 1 && wet < 100 {
                value += 30;
                if wet + 30 >= 100 {
                    value += KILL;
                }
                hits.push(e.id);
            }
        }
        if value >= BOMB_VALUE && best.as_ref().is_none_or(|(v, _, _)| value > *v) {
            best = Some((value, t, hits));
        }
    }
    best.map(|(_, t, hits)| (t, hits))
}

/// Step 2b: the best shot from the plan's tile: the target and the wetness it deals.
fn choose_shot(board: &Board, plan: &Plan, assigned: &[(i32, i32)]) -> Option<(i32, i32)> {
    if plan.unit.cooldown > 0 {
        return None;
    }
    let mut best: Option<(i32, i32, i32)> = None;
    for e in board.enemies() {
        let wet = e.wetness + planned(assigned, e.id);
        if wet >= 100 {
            continue;
        }
        let d = board.shot(plan.unit.power, plan.unit.range, plan.to, e.pos, false);
        if d <= 0 {
            continue;
        }
        let value = d + if wet + d >= 100 { KILL } else { wet / 10 };
        if best.is_none_or(|(v, _, _)| value > v) {
            best = Some((value, e.id, d));
        }
    }
    best.map(|(_, id, d)| (id, d))
}

impl Bot for Soaker {
    fn read(&mut self, input: &str) -> Vec<String> {
        match super::read_board(&mut self.reader, input) {
            Ok(board) => self.play(&board),
            Err(reply) => reply,
        }
    }
}
