//! `Random`: seeded random play. Every command it writes is well formed, and nearly all are legal:
//! it picks among the moves, trainings and buildings its board model allows. (It does not know
//! the league, so a training above level 1 or a building may be skipped by the referee.)

use engine::JavaRandom;

use super::board::{neighbours, pos, Board, Cell, CELLS, ME};
use super::protocol::{output_line, BuildingKind, Command, Reader};
use crate::{pick, Seeded};

/// Plays random legal actions, drawn from a `java.util.Random` seeded with the bot's seed.
pub type Random = Seeded<Reader, Board>;

impl Random {
    pub fn new(seed: i64) -> Self {
        Seeded::with(seed, super::read_board, play)
    }
}

/// One turn: move most units, try a few trainings, sometimes build.
fn play(rng: &mut JavaRandom, mut board: Board) -> Vec<String> {
    let mut commands = Vec::new();
    move_units(rng, &mut board, &mut commands);
    let trainings = rng.next_int_bounded(4);
    for _ in 0..trainings {
        train_one(rng, &mut board, &mut commands);
    }
    if chance(rng, 3) {
        build_one(rng, &mut board, &mut commands, BuildingKind::Mine);
    }
    if chance(rng, 20) {
        build_one(rng, &mut board, &mut commands, BuildingKind::Tower);
    }
    vec![output_line(&commands)]
}

/// Each unit moves with probability 3/4 to a random neighbour it may enter.
fn move_units(rng: &mut JavaRandom, board: &mut Board, commands: &mut Vec<Command>) {
    let units: Vec<Cell> = board.units_of(ME).collect();
    for from in units {
        if chance(rng, 4) {
            continue;
        }
        let options: Vec<Cell> = neighbours(from)
            .filter(|&n| board.can_move(from, n))
            .collect();
        let Some(to) = pick(rng, &options) else {
            continue;
        };
        let id = board.unit[from].map_or(0, |u| u.id);
        if board.move_unit(from, to) {
            commands.push(Command::Move { id, to: pos(to) });
        }
    }
}

/// Trains one unit on a random cell: level 1 mostly, sometimes 2 or 3.
fn train_one(rng: &mut JavaRandom, board: &mut Board, commands: &mut Vec<Command>) {
    let level = match rng.next_int_bounded(10) {
        0 => 3,
        1 | 2 => 2,
        _ => 1,
    };
    let options: Vec<Cell> = (0..CELLS).filter(|&c| board.can_train(level, c)).collect();
    if let Some(at) = pick(rng, &options) {
        if board.train(level, at) {
            commands.push(Command::Train { level, at: pos(at) });
        }
    }
}

/// Builds a mine or a tower on a random own free cell that allows it.
fn build_one(
    rng: &mut JavaRandom,
    board: &mut Board,
    commands: &mut Vec<Command>,
    kind: BuildingKind,
) {
    let options: Vec<Cell> = (0..CELLS).filter(|&c| board.can_build(kind, c)).collect();
    if let Some(at) = pick(rng, &options) {
        if board.build(kind, at) {
            let at = pos(at);
            commands.push(match kind {
                BuildingKind::Tower => Command::BuildTower(at),
                _ => Command::BuildMine(at),
            });
        }
    }
}

/// True with probability 1/n.
fn chance(rng: &mut JavaRandom, n: i32) -> bool {
    rng.next_int_bounded(n) == 0
}
