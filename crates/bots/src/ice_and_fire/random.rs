//! `Random`: seeded random play. Every command it writes is well formed, and nearly all are legal:
//! it picks among the moves, trainings and buildings its board model allows. (It does not know
//! the league, so a training above level 1 or a building may be skipped by the referee.)

use engine::JavaRandom;

use super::board::{neighbours, pos, Board, Cell, CELLS, ME};
use super::protocol::{output_line, BuildingKind, Command, Reader};
use crate::{pick, Bot};

/// Plays random legal actions, drawn from a `java.util.Random` seeded with the bot's seed.
pub struct Random {
    reader: Reader,
    rng: JavaRandom,
}

impl Random {
    pub fn new(seed: i64) -> Self {
        Random {
            reader: Reader::new(),
            rng: JavaRandom::new(seed),
        }
    }

    /// One turn: move most units, try a few trainings, sometimes build.
    fn play(&mut self, mut board: Board) -> Vec<Command> {
        let mut commands = Vec::new();
        self.move_units(&mut board, &mut commands);
        let trainings = self.rng.next_int_bounded(4);
        for _ in 0..trainings {
            self.train_one(&mut board, &mut commands);
        }
        if self.chance(3) {
            self.build_one(&mut board, &mut commands, BuildingKind::Mine);
        }
        if self.chance(20) {
            self.build_one(&mut board, &mut commands, BuildingKind::Tower);
        }
        commands
    }

    /// Each unit moves with probability 3/4 to a random neighbour it may enter.
    fn move_units(&mut self, board: &mut Board, commands: &mut Vec<Command>) {
        let units: Vec<Cell> = board.units_of(ME).collect();
        for from in units {
            if self.chance(4) {
                continue;
            }
            let options: Vec<Cell> = neighbours(from)
                .filter(|&n| board.can_move(from, n))
                .collect();
            let Some(to) = pick(&mut self.rng, &options) else {
                continue;
            };
            let id = board.unit[from].map_or(0, |u| u.id);
            if board.move_unit(from, to) {
                commands.push(Command::Move { id, to: pos(to) });
            }
        }
    }

    /// Trains one unit on a random cell: level 1 mostly, sometimes 2 or 3.
    fn train_one(&mut self, board: &mut Board, commands: &mut Vec<Command>) {
        let level = match self.rng.next_int_bounded(10) {
            0 => 3,
            1 | 2 => 2,
            _ => 1,
        };
        let options: Vec<Cell> = (0..CELLS).filter(|&c| board.can_train(level, c)).collect();
        if let Some(at) = pick(&mut self.rng, &options) {
            if board.train(level, at) {
                commands.push(Command::Train { level, at: pos(at) });
            }
        }
    }

    /// Builds a mine or a tower on a random own free cell that allows it.
    fn build_one(&mut self, board: &mut Board, commands: &mut Vec<Command>, kind: BuildingKind) {
        let options: Vec<Cell> = (0..CELLS).filter(|&c| board.can_build(kind, c)).collect();
        if let Some(at) = pick(&mut self.rng, &options) {
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
    fn chance(&mut self, n: i32) -> bool {
        self.rng.next_int_bounded(n) == 0
    }
}

impl Bot for Random {
    fn read(&mut self, input: &str) -> Vec<String> {
        match super::read_board(&mut self.reader, input) {
            Ok(board) => vec![output_line(&self.play(board))],
            Err(reply) => reply,
        }
    }
}
