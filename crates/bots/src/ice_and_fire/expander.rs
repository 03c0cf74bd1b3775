//! `Expander`: a simple, sensible strategy, greedy and deterministic.
//!
//! Each turn, on its own model of the board (so every command is checked against the state the
//! earlier ones leave behind):
//! 1. **Moves.** Units nearest the enemy HQ move first. Each unit takes the neighbouring step
//!    with the best value: what capturing the cell brings (a neutral cell, an enemy cell, the
//!    cells it cuts off from the enemy HQ, enemy units and buildings destroyed, the enemy HQ
//!    itself) plus where it ends up (close to cells it can still take, close to the enemy HQ,
//!    not next to an enemy unit that would kill it). Staying put is an option.
//! 2. **Spending**, one purchase at a time, the best first, while one is worth its price:
//!    - training on a cell it does not own, at the lowest level that can take it: level 1 to
//!      expand, level 2 or 3 only when the kill, the cut or the threat removed pays for the
//!      upkeep (and level 3 for towers only when rich). A training never leaves the income
//!      below 1 (below 5 for levels 2 and 3), so the bot never goes bankrupt. Enemy land and
//!      units within two steps of its HQ are the exception: taking them back is worth much
//!      more, and an income of 0 is then enough;
//!    - a mine on an owned, free mine spot away from the enemy, while there are turns left to
//!      repay it.
//!
//!    Capturing the enemy HQ (by a move or a training) beats everything else.
//!
//! The input does not say which league is played. The bot assumes units up to level 3, and
//! switches to "level 1 only, level 1 kills level 1" (the lowest league) if, on a map without
//! mine spots, its level-2 training was ignored and no unit above level 1 was ever seen.

use super::board::{
    neighbours, pos, Board, Cell, BUILDING_COST, CAPTURE_LEVEL, CELLS, COST, FAR, ME, OPPONENT,
    UPKEEP,
};
use super::protocol::{output_line, BuildingKind, Command, Reader};
use crate::Bot;

/// Capturing the enemy HQ wins the game: it beats every other consideration.
const WIN: i32 = 1_000_000;
/// The value of one active cell that I gain or the opponent loses.
const CELL: i32 = 6;
/// The value of owning a mine spot (a mine can be built there later).
const SPOT: i32 = 2;
/// The value of building a mine (compare: a level-1 expansion is worth about 10–25).
const MINE: i32 = 20;
/// The last turn (of 100) on which a mine still repays its 15 gold at +4 per turn.
const LAST_MINE_TURN: u32 = 96;
/// The value of removing a threat to my HQ (see `Plan::guards_hq`).
const GUARD: i32 = 40;
/// Above this much gold the bot counts as rich, and level 3 becomes cheaper in its eyes.
const RICH: i32 = 80;

/// The sensible built-in bot; see the module documentation for its strategy.
pub struct Expander {
    reader: Reader,
    /// My turn number, from 1.
    turn: u32,
    /// The highest unit level of the league played (3, or 1 in the lowest league), as guessed.
    max_level: u8,
    max_level_known: bool,
    /// The cell of my last turn's training above level 1, if any (for the league guess).
    last_high_training: Option<Cell>,
}

impl Expander {
    /// The strategy is deterministic; the seed is accepted like every built-in bot's.
    pub fn new(_seed: i64) -> Self {
        Expander {
            reader: Reader::new(),
            turn: 0,
            max_level: CAPTURE_LEVEL,
            max_level_known: false,
            last_high_training: None,
        }
    }

    fn play(&mut self, mut board: Board) -> String {
        self.turn += 1;
        self.guess_max_level(&board);
        board.max_level = self.max_level;
        let mut plan = Plan::new(board, self.turn);
        plan.move_units();
        plan.spend();
        self.last_high_training = plan.high_training;
        output_line(&plan.commands)
    }

    /// Mine spots exist from the third league on, and units above level 1 from the second. In the
    /// lowest league the referee skips a training above level 1: if my last one left its cell
    /// untaken and nobody ever had such a unit, the league is the lowest.
    fn guess_max_level(&mut self, board: &Board) {
        if self.max_level_known {
            return;
        }
        let high_unit = board
            .units_of(ME)
            .chain(board.units_of(OPPONENT))
            .any(|c| board.unit[c].is_some_and(|u| u.level > 1));
        if high_unit || board.spot.iter().any(|&s| s) {
            self.max_level = CAPTURE_LEVEL;
            self.max_level_known = true;
        } else if let Some(c) = self.last_high_training.take() {
            if board.owner[c] != Some(ME) {
                self.max_level = 1;
                self.max_level_known = true;
            }
        }
    }
}

impl Bot for Expander {
    fn read(&mut self, input: &str) -> Vec<String> {
        match super::read_board(&mut self.reader, input) {
            Ok(board) => vec![self.play(board)],
            Err(reply) => reply,
        }
    }
}

/// What taking a cell would bring.
struct Capture {
    /// In rough gold units; [`WIN`] for the enemy HQ.
    gain: i32,
    /// The change of my income (cells gained and reconnected, mines reconnected).
    income: i32,
}

/// One turn being planned: the board as my commands so far leave it, and those commands.
struct Plan {
    board: Board,
    commands: Vec<Command>,
    turn: u32,
    /// Walking distances (terrain only) to the enemy HQ and to mine.
    to_enemy_hq: [u8; CELLS],
    to_my_hq: [u8; CELLS],
    /// Where a unit above level 1 was trained this turn.
    high_training: Option<Cell>,
}

impl Plan {
    fn new(board: Board, turn: u32) -> Self {
        let to_enemy_hq = board.distances(board.hq[OPPONENT]);
        let to_my_hq = board.distances(board.hq[ME]);
        Plan {
            board,
            commands: Vec::new(),
            turn,
            to_enemy_hq,
            to_my_hq,
            high_training: None,
        }
    }

    // ----- moves -----

    /// Moves every unit that can, front units first so that they make room for the others.
    fn move_units(&mut self) {
        let mut movers: Vec<Cell> = self.board.units_of(ME).collect();
        movers.sort_by_key(|&c| self.to_enemy_hq[c]);
        for from in movers {
            if self.board.won() {
                return;
            }
            if let Some(to) = self.best_step(from) {
                let id = self.board.unit[from].map_or(0, |u| u.id);
                if self.board.move_unit(from, to) {
                    self.commands.push(Command::Move { id, to: pos(to) });
                }
            }
        }
    }

    /// The neighbour a unit should step to, or `None` to stay.
    fn best_step(&self, from: Cell) -> Option<Cell> {
        let unit = self.board.unit[from].filter(|u| u.can_move)?;
        let frontier = self.frontier(unit.level);
        let mut best = (self.place_value(from, &frontier, unit.level), None);
        for to in neighbours(from).filter(|&n| self.board.can_move(from, n)) {
            let value = self.capture(to).gain + self.place_value(to, &frontier, unit.level);
            if value > best.0 {
                best = (value, Some(to));
            }
        }
        best.1
    }

    /// How good a cell is to stand on: near cells still to take, near the enemy HQ, and safe.
    fn place_value(&self, c: Cell, frontier: &[u8; CELLS], level: u8) -> i32 {
        -(4 * i32::from(frontier[c]) + i32::from(self.to_enemy_hq[c])) - self.danger(c, level)
    }

    /// Distance from each cell to the nearest cell, not mine, that a unit of this level may take.
    fn frontier(&self, level: u8) -> [u8; CELLS] {
        let b = &self.board;
        b.distances((0..CELLS).filter(|&c| b.owner[c] != Some(ME) && b.capturable(c, ME, level)))
    }

    /// What a unit of mine at this level risks on this cell: its price, if an adjacent enemy unit
    /// could kill it on the opponent's next turn.
    fn danger(&self, c: Cell, level: u8) -> i32 {
        let b = &self.board;
        let killer = |n: Cell| {
            b.unit[n]
                .is_some_and(|u| u.owner == OPPONENT && (u.level > level || u.level == b.max_level))
        };
        if neighbours(c).any(killer) {
            COST[level as usize]
        } else {
            0
        }
    }

    // ----- captures -----

    /// What taking a cell (by a move or a training) would bring me.
    fn capture(&self, c: Cell) -> Capture {
        let b = &self.board;
        if b.hq[OPPONENT] == Some(c) {
            return Capture {
                gain: WIN,
                income: 0,
            };
        }
        if b.owner[c] == Some(ME) {
            return Capture { gain: 0, income: 0 };
        }
        let spot = if b.spot[c] { SPOT } else { 0 };
        // Fast path: a neutral cell that reconnects none of my cells brings just itself.
        if b.owner[c].is_none() && !neighbours(c).any(|n| b.owner[n] == Some(ME) && !b.active[n]) {
            return Capture {
                gain: CELL + spot,
                income: 1,
            };
        }
        let mut after = b.clone();
        after.capture(c, ME);
        after.refresh();
        let cells = (after.active_count(ME) - b.active_count(ME))
            + (b.active_count(OPPONENT) - after.active_count(OPPONENT));
        let mut gain = CELL * cells + spot;
        // Enemy units and buildings on the cell are destroyed; those cut off from their HQ die
        // (units) or stop working (buildings) at the start of the opponent's turn.
        for e in 0..CELLS {
            let cut = b.owner[e] == Some(OPPONENT) && b.active[e] && !after.active[e];
            if e != c && !cut {
                continue;
            }
            if let Some(u) = b.unit[e].filter(|u| u.owner == OPPONENT) {
                gain += COST[u.level as usize] + self.threat(e);
            }
            if let Some(building) = b.building[e].filter(|x| x.owner == OPPONENT) {
                gain += match (building.kind, e == c) {
                    (BuildingKind::Hq, _) => 0,
                    (BuildingKind::Mine, true) => BUILDING_COST + 8,
                    (BuildingKind::Mine, false) => 8,
                    (BuildingKind::Tower, true) => BUILDING_COST + 10,
                    (BuildingKind::Tower, false) => 5,
                };
            }
        }
        if self.guards_hq(c) {
            gain += GUARD;
        }
        Capture {
            gain,
            income: after.income[ME] - b.income[ME],
        }
    }

    /// An enemy unit near my HQ is a threat; removing it is worth more the nearer it is.
    fn threat(&self, e: Cell) -> i32 {
        (5 - i32::from(self.to_my_hq[e])).max(0) * 8
    }

    /// Whether taking this cell defends my HQ against a capture on the opponent's next turns:
    /// the cell is enemy land or holds an enemy unit at most two steps from my HQ. (From land
    /// two steps away, the opponent can train onto the cell between, then onto my HQ.)
    fn guards_hq(&self, c: Cell) -> bool {
        self.board.owner[c] == Some(OPPONENT) && self.to_my_hq[c] <= 2
    }

    // ----- spending -----

    /// Buys the best training or mine, again and again, while one is worth its price.
    fn spend(&mut self) {
        while !self.board.won() {
            let training = self.best_training();
            let mine = self.best_mine();
            let done = match (training, mine) {
                (Some((score, ..)), Some((mine_score, at))) if mine_score >= score => {
                    self.build_mine(at)
                }
                (Some((_, level, at)), _) => self.train(level, at),
                (None, Some((_, at))) => self.build_mine(at),
                (None, None) => false,
            };
            if !done {
                return;
            }
        }
    }

    /// The best training: (score, level, cell), if one is worth its price.
    fn best_training(&self) -> Option<(i32, u8, Cell)> {
        let b = &self.board;
        let mut best: Option<(i32, u8, Cell)> = None;
        for c in (0..CELLS).filter(|&c| b.owner[c] != Some(ME) && b.playable(c, ME)) {
            // The lowest level that can take the cell; a higher one would only cost more.
            let Some(level) = (1..=b.max_level).find(|&l| b.capturable(c, ME, l)) else {
                continue;
            };
            if b.gold[ME] < COST[level as usize] {
                continue;
            }
            let capture = self.capture(c);
            if capture.gain >= WIN {
                return Some((WIN, level, c));
            }
            if !self.affordable_upkeep(level, capture.income, self.guards_hq(c)) {
                continue;
            }
            let score = capture.gain + self.training_bonus(c)
                - self.level_penalty(level)
                - self.danger(c, level);
            if score > 0 && best.is_none_or(|(s, ..)| score > s) {
                best = Some((score, level, c));
            }
        }
        best
    }

    /// Whether my income stays positive after the unit's upkeep, so that I never go bankrupt.
    /// Level-1 units pay for themselves (each stands on a cell worth 1), so cutting my land
    /// cannot make my income negative; units above level 1 need a margin, except to save my HQ.
    fn affordable_upkeep(&self, level: u8, income_change: i32, saves_hq: bool) -> bool {
        let income = self.board.income[ME] + income_change - UPKEEP[level as usize];
        let margin = match level {
            _ if saves_hq => 0,
            1 => 1,
            _ => 5,
        };
        income >= margin
    }

    /// Level 2 and 3 units cost much upkeep; the capture must pay for it.
    fn level_penalty(&self, level: u8) -> i32 {
        match level {
            1 => 0,
            2 => 14,
            _ if self.board.gold[ME] >= RICH => 20,
            _ => 40,
        }
    }

    /// Prefer cells with room to expand and cells towards the enemy HQ.
    fn training_bonus(&self, c: Cell) -> i32 {
        let b = &self.board;
        let room = neighbours(c)
            .filter(|&n| !b.void[n] && b.owner[n].is_none())
            .count() as i32;
        let ahead = (22 - i32::from(self.to_enemy_hq[c].min(FAR - 1))).max(0) / 2;
        2 * room + ahead
    }

    /// The best mine to build, if any: on an owned free spot not next to enemy land.
    fn best_mine(&self) -> Option<(i32, Cell)> {
        if self.turn > LAST_MINE_TURN {
            return None;
        }
        let b = &self.board;
        (0..CELLS)
            .filter(|&c| b.can_build(BuildingKind::Mine, c))
            .filter(|&c| !neighbours(c).any(|n| b.owner[n] == Some(OPPONENT)))
            .map(|c| (MINE - i32::from(self.to_my_hq[c].min(10)) / 2, c))
            .max_by_key(|&(score, c)| (score, std::cmp::Reverse(c)))
    }

    /// Trains and records the command; false if the board refuses (then nothing was done).
    fn train(&mut self, level: u8, at: Cell) -> bool {
        let done = self.board.train(level, at);
        if done {
            self.commands.push(Command::Train { level, at: pos(at) });
            if level > 1 {
                self.high_training = Some(at);
            }
        }
        done
    }

    /// Builds a mine and records the command; false if the board refuses.
    fn build_mine(&mut self, at: Cell) -> bool {
        let done = self.board.build(BuildingKind::Mine, at);
        if done {
            self.commands.push(Command::BuildMine(pos(at)));
        }
        done
    }
}
