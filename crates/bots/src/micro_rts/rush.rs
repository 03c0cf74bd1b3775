//! `Rush`: a simple economy and an early attack.
//!
//! Every turn, in this order: every unit with an enemy in reach attacks (the weakest it can
//! kill first, then fighters before buildings; workers hit units and castles only); the
//! soldiers walk one tile towards their goal: enemy units close to its buildings if there are
//! any, else the enemy castles, else any enemy; one worker builds a barracks once there is wood
//! for it; the other workers harvest what is short (wood until the barracks stands and while
//! wood is scarcer than gold, else gold) or walk to the nearest resource; the castle trains
//! workers up to a small crew, on the free tile nearest to a resource; every barracks trains a
//! heavy (or a light when gold is short) on the free tile nearest to the enemy.
//!
//! On a map without forests no soldier can ever be trained (they all cost wood): the rush
//! then turns into a worker rush. The castle trains workers with all its gold, two of them
//! keep harvesting gold, and the others march on the enemy like soldiers.
//!
//! All orders target tiles that are free and not claimed by another of its orders, so its
//! own orders never block each other.

use super::board::{distance, Board, DIRECTIONS, FAR};
use super::protocol::{
    output_line, EntityLine, Order, Reader, BARRACKS, CASTLE, FOREST, HEAVY, LIGHT, MINE, WORKER,
};
use super::read_board;
use crate::Bot;

/// Workers the castle keeps.
const CREW: usize = 5;
/// Harvesters kept home in a worker rush.
const RUSH_HARVESTERS: usize = 2;
/// Enemy units this close to one of its buildings are the fighters' first goal.
const THREAT_RANGE: i32 = 4;
/// Workers this close to such a threat fight it.
const DEFEND_RANGE: i32 = 3;
/// Castles this close to an enemy castle start a worker rush.
const CLOSE_CASTLES: i32 = 6;

/// Plays the rush (deterministic; the seed is not used).
#[derive(Clone, Debug, Default)]
pub struct Rush {
    reader: Reader,
}

impl Rush {
    pub fn new(_seed: i64) -> Self {
        Rush::default()
    }

    fn play(&mut self, board: &mut Board) -> Vec<Order> {
        let plan = Plan::survey(board);
        let mut turn = Turn::default();
        turn.attack(board, &plan);
        turn.advance(board, &plan);
        if !plan.has_barracks && board.affordable(BARRACKS) {
            turn.build_barracks(board, &plan);
        }
        turn.harvest(board, &plan);
        turn.train(board, &plan);
        turn.orders
    }
}

/// The tiles of the entities of `list` that `keep` keeps.
fn tiles(list: &[EntityLine], keep: impl Fn(&EntityLine) -> bool) -> Vec<(i32, i32)> {
    list.iter()
        .filter(|e| keep(e))
        .map(|e| (e.x, e.y))
        .collect()
}

/// What the turn's orders are decided on: the entities, the distance fields, whether this is a
/// worker rush, who fights and where to.
struct Plan {
    mine: Vec<EntityLine>,
    enemies: Vec<EntityLine>,
    workers: Vec<EntityLine>,
    has_barracks: bool,
    forests: bool,
    mines: bool,
    worker_rush: bool,
    /// The tiles of the units that fight this turn.
    fighters: Vec<(i32, i32)>,
    /// Distances to the fighters' goal, to any enemy, to any resource, to mines, to forests.
    goal: Vec<i32>,
    to_enemy: Vec<i32>,
    to_resource: Vec<i32>,
    to_mine: Vec<i32>,
    to_forest: Vec<i32>,
}

impl Plan {
    fn survey(board: &Board) -> Plan {
        let mine = board.mine();
        let enemies = board.enemies();
        let resources = board.resources();
        let workers: Vec<EntityLine> = mine.iter().filter(|u| u.kind == WORKER).copied().collect();
        let has_barracks = mine.iter().any(|u| u.kind == BARRACKS);
        let forests = resources.iter().any(|r| r.kind == FOREST);
        let mines = resources.iter().any(|r| r.kind == MINE);
        let soldier_wood = board.stats(LIGHT).wood.min(board.stats(HEAVY).wood);
        let soldiers_possible = forests
            || (has_barracks && board.wood >= soldier_wood)
            || board.wood >= board.stats(BARRACKS).wood + soldier_wood;
        let buildings = tiles(&mine, |u| u.kind == CASTLE || u.kind == BARRACKS);
        let my_castles = tiles(&mine, |u| u.kind == CASTLE);
        let castles = tiles(&enemies, |e| e.kind == CASTLE);
        let close_castles = my_castles
            .iter()
            .any(|&c| castles.iter().any(|&e| distance(c, e) <= CLOSE_CASTLES));
        let worker_rush = !soldiers_possible || close_castles;
        let threats = tiles(&enemies, |e| {
            e.kind >= WORKER
                && buildings
                    .iter()
                    .any(|&b| distance(b, (e.x, e.y)) <= THREAT_RANGE)
        });
        let harvesters = if worker_rush && mines {
            rush_harvesters(board, &workers)
        } else {
            Vec::new()
        };
        // Who fights: soldiers; in a worker rush the workers but the harvesters; workers close
        // to a threat.
        let fighters = tiles(&mine, |u| {
            u.kind >= LIGHT
                || (u.kind == WORKER
                    && ((worker_rush && !harvesters.contains(&(u.x, u.y)))
                        || threats
                            .iter()
                            .any(|&t| distance(t, (u.x, u.y)) <= DEFEND_RANGE)))
        });
        let to_enemy = board.field(&tiles(&enemies, |_| true));
        // The fighters' goal: threats to its buildings, else the enemy castles, else anything.
        let goal = if !threats.is_empty() {
            board.field(&threats)
        } else if !castles.is_empty() {
            board.field(&castles)
        } else {
            to_enemy.clone()
        };
        Plan {
            workers,
            has_barracks,
            forests,
            mines,
            worker_rush,
            fighters,
            goal,
            to_enemy,
            to_resource: board.field(&tiles(&resources, |_| true)),
            to_mine: board.field(&tiles(&resources, |e| e.kind == MINE)),
            to_forest: board.field(&tiles(&resources, |e| e.kind == FOREST)),
            mine,
            enemies,
        }
    }
}

/// The workers kept harvesting in a worker rush: the first ones, those next to a mine first.
fn rush_harvesters(board: &Board, workers: &[EntityLine]) -> Vec<(i32, i32)> {
    let mut by_mine: Vec<&EntityLine> = workers.iter().collect();
    by_mine.sort_by_key(|w| !next_to(board, w, MINE));
    by_mine
        .iter()
        .take(RUSH_HARVESTERS)
        .map(|w| (w.x, w.y))
        .collect()
}

/// The orders given so far, and the tiles of the units that have one.
#[derive(Default)]
struct Turn {
    orders: Vec<Order>,
    busy: Vec<(i32, i32)>,
}

impl Turn {
    /// First, attacks: the weakest it can kill, fighters before buildings. Harvesting workers
    /// defend themselves and hit castles, but leave barracks alone.
    fn attack(&mut self, board: &Board, plan: &Plan) {
        for u in plan.mine.iter().filter(|u| board.stats(u.kind).attack > 0) {
            let stats = board.stats(u.kind);
            let fighter = plan.fighters.contains(&(u.x, u.y));
            let target = plan
                .enemies
                .iter()
                .filter(|t| distance((u.x, u.y), (t.x, t.y)) <= stats.reach)
                .filter(|t| fighter || t.kind != BARRACKS)
                .min_by_key(|t| {
                    let killable = t.health <= stats.attack;
                    let dangerous = t.kind >= WORKER;
                    (!killable, !dangerous, t.health)
                });
            if let Some(t) = target {
                self.orders.push(Order::Attack {
                    from: (u.x, u.y),
                    to: (t.x, t.y),
                });
                self.busy.push((u.x, u.y));
            }
        }
    }

    /// Second, the fighters that did not attack step towards their goal (or any enemy).
    fn advance(&mut self, board: &mut Board, plan: &Plan) {
        for &from in &plan.fighters {
            if self.busy.contains(&from) {
                continue;
            }
            let to = step_down(board, &plan.goal, from)
                .or_else(|| step_down(board, &plan.to_enemy, from));
            if let Some(to) = to {
                board.claim(to.0, to.1);
                self.orders.push(Order::Move { from, to });
                self.busy.push(from);
            }
        }
    }

    /// Third, a free worker builds a barracks beside it: not next to a resource if possible (keep
    /// them reachable), near the enemy.
    fn build_barracks(&mut self, board: &mut Board, plan: &Plan) {
        let site = plan
            .workers
            .iter()
            .filter(|w| !self.busy.contains(&(w.x, w.y)))
            .flat_map(|w| {
                board
                    .around(w.x, w.y, 1)
                    .into_iter()
                    .filter(|&(x, y)| board.free(x, y))
                    .map(move |to| (*w, to))
            })
            .min_by_key(|&(_, to)| {
                let near_resource = board.value(&plan.to_resource, to.0, to.1) <= 1;
                (near_resource, board.value(&plan.to_enemy, to.0, to.1))
            });
        if let Some((w, to)) = site {
            board.pay(BARRACKS);
            board.claim(to.0, to.1);
            self.orders.push(Order::Build {
                from: (w.x, w.y),
                to,
                kind: BARRACKS,
            });
            self.busy.push((w.x, w.y));
        }
    }

    /// Fourth, the other workers harvest, split between wood and gold; or walk to a resource.
    fn harvest(&mut self, board: &mut Board, plan: &Plan) {
        let idle: Vec<EntityLine> = (plan.workers.iter())
            .filter(|w| !self.busy.contains(&(w.x, w.y)))
            .copied()
            .collect();
        let wood_workers = if !plan.forests {
            0
        } else if !plan.mines {
            idle.len()
        } else if !plan.has_barracks && board.wood < board.stats(BARRACKS).wood {
            idle.len().div_ceil(2).max(2)
        } else {
            idle.len() / 2
        };
        for (w, role) in harvest_roles(board, &idle, wood_workers) {
            let near: Vec<EntityLine> = board
                .around(w.x, w.y, board.stats(WORKER).reach)
                .into_iter()
                .filter_map(|(x, y)| board.at(x, y))
                .filter(|t| t.owner == -1 && (t.kind == MINE || t.kind == FOREST))
                .collect();
            let from = (w.x, w.y);
            if let Some(t) = near.iter().find(|t| t.kind == role) {
                self.orders.push(Order::Harvest {
                    from,
                    to: (t.x, t.y),
                });
                continue;
            }
            let field = if role == FOREST {
                &plan.to_forest
            } else {
                &plan.to_mine
            };
            let step =
                step_down(board, field, from).or_else(|| step_down(board, &plan.to_resource, from));
            if let Some(to) = step {
                board.claim(to.0, to.1);
                self.orders.push(Order::Move { from, to });
            } else if let Some(t) = near.first() {
                self.orders.push(Order::Harvest {
                    from,
                    to: (t.x, t.y),
                });
            }
        }
    }

    /// Last, the castle trains workers (up to its crew, or all it can in a worker rush), on the
    /// free tile nearest to a resource (or the enemy); every barracks trains a heavy, or a
    /// light when gold is short, on the free tile nearest to the enemy.
    fn train(&mut self, board: &mut Board, plan: &Plan) {
        let mut crew = plan.workers.len();
        for b in &plan.mine {
            let (kind, field) = match b.kind {
                CASTLE if plan.worker_rush => (WORKER, &plan.to_enemy),
                CASTLE if crew < CREW => (WORKER, &plan.to_resource),
                BARRACKS => {
                    let kind = if board.affordable(HEAVY) {
                        HEAVY
                    } else {
                        LIGHT
                    };
                    (kind, &plan.to_enemy)
                }
                _ => continue,
            };
            if !board.affordable(kind) {
                continue;
            }
            let spot = board
                .around(b.x, b.y, board.stats(b.kind).reach)
                .into_iter()
                .filter(|&(x, y)| board.free(x, y) && board.value(field, x, y) < FAR)
                .min_by_key(|&(x, y)| board.value(field, x, y));
            if let Some(to) = spot {
                board.pay(kind);
                board.claim(to.0, to.1);
                self.orders.push(Order::Train {
                    from: (b.x, b.y),
                    to,
                    kind,
                });
                if kind == WORKER {
                    crew += 1;
                }
            }
        }
    }
}

/// Each idle worker's resource: up to `wood_workers` log (those already next to a forest
/// first, then those not next to a mine), the others mine gold.
fn harvest_roles(board: &Board, idle: &[EntityLine], wood_workers: usize) -> Vec<(EntityLine, u8)> {
    let mut wood = 0;
    let mut roles: Vec<(EntityLine, u8)> = Vec::new();
    for w in idle {
        if wood < wood_workers && next_to(board, w, FOREST) {
            roles.push((*w, FOREST));
            wood += 1;
        }
    }
    for w in idle {
        if roles.iter().any(|(r, _)| r == w) {
            continue;
        }
        let role = if wood < wood_workers && !next_to(board, w, MINE) {
            wood += 1;
            FOREST
        } else {
            MINE
        };
        roles.push((*w, role));
    }
    roles
}

/// Whether a worker has a resource of this kind within reach.
fn next_to(board: &Board, w: &EntityLine, kind: u8) -> bool {
    board
        .around(w.x, w.y, board.stats(WORKER).reach)
        .into_iter()
        .filter_map(|(x, y)| board.at(x, y))
        .any(|t| t.owner == -1 && t.kind == kind)
}

/// The free neighbour of `from` closest to the field's sources, if it is closer than `from`.
fn step_down(board: &Board, field: &[i32], from: (i32, i32)) -> Option<(i32, i32)> {
    let here = board.value(field, from.0, from.1);
    DIRECTIONS
        .iter()
        .map(|&(dx, dy)| (from.0 + dx, from.1 + dy))
        .filter(|&(x, y)| board.free(x, y))
        .map(|(x, y)| (board.value(field, x, y), (x, y)))
        .filter(|&(d, _)| d < here)
        .min_by_key(|&(d, _)| d)
        .map(|(_, to)| to)
}

impl Bot for Rush {
    fn read(&mut self, input: &str) -> Vec<String> {
        match read_board(&mut self.reader, input) {
            Err(reply) => reply,
            Ok(mut board) => vec![output_line(&self.play(&mut board))],
        }
    }
}
