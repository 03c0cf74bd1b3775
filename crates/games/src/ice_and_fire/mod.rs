//! # A Code of Ice and Fire
//!
//! Two armies on a 12 × 12 island fight for territory; whoever takes the other's headquarters
//! (HQ) wins. This is the 2019 CodinGame contest game by Azkellas and Tehelka, played with the
//! rules of its referee's latest version (`develop`). This rulebook states every fact the module
//! implements; the code cites its sections by name, as in "rulebook: *Facts*" (a `##` heading, or a bold
//! paragraph title within one).
//!
//! ## Facts
//!
//! | Item | Value |
//! |---|---|
//! | Map | 12 × 12, generated from the seed exactly as the original (see *Map generation*); point-symmetric, connected |
//! | Players | 2: red (seat 0, HQ at (0,0), plays first), blue (seat 1, HQ at (11,11), also owns (11,10)) |
//! | Turns | players alternate; 100 turns each, 200 in all |
//! | Starting gold | 20 each |
//! | Income | +1 per owned active cell, +4 per own mine on an active cell, − upkeep of units on active cells |
//! | Units | level 1: cost 10, upkeep 1 · level 2: cost 20, upkeep 4 · level 3: cost 30, upkeep 20 |
//! | Buildings | MINE 15 gold (mine spots only) · TOWER 15 gold (never on a mine spot) · HQ (not buildable) |
//! | Building codes | HQ 0, MINE 1, TOWER 2 |
//! | Unit ids | one counter for both players, from 1, in training order |
//! | Time | 1000 ms for a player's first turn, 50 ms afterwards; a timeout loses |
//!
//! ## Rules
//!
//! **Territory.** A cell is void (`#`), neutral, or owned. An owned cell is *active* when a path
//! of the owner's cells (4-neighbours) joins it to the owner's HQ; otherwise it is inactive.
//! Inactive cells give no income; units on them cost no upkeep; buildings on them stay but do
//! nothing (an inactive mine earns nothing, an inactive tower guards no neighbour).
//!
//! **A player's turn.** At its start, for that player only: activity is recomputed, the
//! player's units standing on inactive cells die, both incomes are recomputed, and the income is
//! added to the player's gold. If the gold is then negative, it becomes 0 and *all* the
//! player's units die (the income it is told this turn still counts their upkeep, as in the
//! original). Then the player gets its input and answers one line of commands, which run one
//! by one in the order written. A command that is impossible is skipped; the others still run.
//! Cut-off units of the *other* player are only removed at the start of that player's turn:
//! until then they stand, block and can be killed.
//!
//! **Taking a cell.** A unit of level L of player P may enter (or be trained on) cell C unless:
//! C is an enemy cell guarded by a tower (a tower on C, or on an active 4-neighbour of the same
//! owner, with C active) and L < 3; or C holds an enemy tower (active or not) and L < 3; or C is
//! P's own cell with a unit or building on it; or C holds a unit and L is at most that unit's
//! level (except that units of the league's highest level kill anything — so in Wood 3, where
//! only level 1 exists, level 1 kills level 1). Entering kills the enemy unit and destroys the
//! enemy mine or tower there, and the cell becomes P's. Taking the enemy HQ's cell wins at once.
//!
//! **TRAIN level x y**: the cell must be P's active territory or 4-adjacent to it, the level
//! allowed by the league, the gold sufficient and the cell takeable at that level. The new unit
//! cannot move this turn. **BUILD MINE|TOWER x y**: on a free cell of P's active territory, with
//! 15 gold; mines only on mine spots, towers only elsewhere. **MOVE id x y**: a unit moves one
//! cell per turn towards (x,y). It takes, among its 4 neighbours that are strictly closer to the
//! target (by the static shortest-path distance over non-void cells, ignoring everything on the
//! board) and that it may enter, the closest one; ties go to the first in the order up, right,
//! down, left for red and down, left, up, right for blue. It never sidesteps: if no neighbour
//! qualifies, the MOVE is skipped. A MOVE to an adjacent cell it may not enter is skipped too.
//! After each MOVE or TRAIN, activity and incomes of both players are recomputed; after a BUILD,
//! the incomes.
//!
//! ## Protocol
//!
//! Before its first turn, a seat receives the number of mine spots and then one `x y` line per
//! spot, row by row. Every turn it then receives: its gold, its income, the opponent's gold and
//! income, 12 map rows of 12 characters (`#` void, `.` neutral, `O`/`o` own active/inactive,
//! `X`/`x` opponent's active/inactive), the number of buildings and one line each
//! `owner type x y` (owner 0 = you, 1 = opponent; own first, then HQ, MINE, TOWER, then x, then
//! y), the number of units and one line each `owner id level x y` (own first, then by id).
//!
//! It answers one line of commands separated by `;`: `MOVE id x y`, `TRAIN level x y`,
//! `BUILD MINE x y`, `BUILD TOWER x y`, `WAIT`, `MSG text` (shown in the viewer; a text of more
//! than 20 characters is cut to 17 and `...`). Each piece is trimmed; numbers are
//! ASCII digits separated by single spaces. Red's first exchange on a small map could read:
//!
//! ```text
//! in:  2            (mine spots)      out: TRAIN 1 1 0;TRAIN 1 0 1;MSG hello
//!      1 0
//!      10 11
//!      21           (gold)
//!      1            (income)
//!      20           (opponent gold)
//!      2            (opponent income)
//!      O..#......## (12 map rows)
//!      ...
//!      2            (buildings)
//!      0 0 0 0
//!      1 0 11 11
//!      0            (units)
//! ```
//!
//! A line that contains a piece the game does not recognise (an empty piece as in `A;;B` or
//! `;A`, an empty line, lower case, double spaces, a negative number, a number too big for a
//! 32-bit int, `MSG` without text) **loses the game at once**; nothing of that line runs. A
//! trailing `;` is fine (so is a trailing U+0085, U+2028 or U+2029 after a MOVE, TRAIN or BUILD,
//! which the original's regular expressions let through). Recognised commands that are impossible only cost the action: a
//! position off the map or on void, a level out of range, a MOVE of a unit that is not yours or
//! not alive when the line is read (so a unit trained earlier in the same line cannot move), and
//! everything that fails at execution.
//!
//! ## End and scoring
//!
//! The game ends when an HQ is captured (checked after every executed command; the rest of the
//! line does not run), when a player loses by a fault, or after blue's 100th turn. A player's
//! *military power* is its gold plus the training cost of its living units (10/20/30), cut-off
//! units included. A loser scores −1 and the winner its military power; at the turn limit both
//! score their military power and the higher wins (equal scores draw).
//!
//! **Faults.** A timeout, a crash, too much output, or an unrecognised command all mean the
//! same as in the original: that player is deactivated and loses, scoring −1.
//!
//! ## Leagues (rulesets)
//!
//! | Ruleset | Name | What it adds |
//! |---|---|---|
//! | `league-1` | Wood 3 | Level-1 units only, and they kill each other; TRAIN of another level is ignored; no buildings, no mine spots |
//! | `league-2` | Wood 2 | Levels 2 and 3; level 1 no longer kills level 1 |
//! | `league-3` | Wood 1 | Mine spots and BUILD MINE; BUILD TOWER is skipped |
//! | `league-4` | Bronze and up (default) | BUILD TOWER: all rules |
//!
//! A seed gives the same map in every league; the mine spots are drawn after the terrain.
//!
//! ## Departures from the original
//!
//! - None in the rules, protocol or map generation: where the contest's statement and its
//!   referee differ, the referee is followed, so that bots written for the original play the same.
//! - Frames are not emulated: the original shows one viewer frame per executed command; we show
//!   one frame per player turn, listing every command's result in words. Bots cannot tell.
//! - The game-summary texts are our own wording.
//!
//! ## Map generation
//!
//! The map comes from one `java.util.Random(seed)` stream, drawn exactly as the referee draws it,
//! so a CodinGame seed gives the CodinGame map. The generator works on columns (x outer, y inner):
//!
//! 1. Each cell is neutral if `nextFloat()` is above 0.45, else void.
//! 2. The four cells of the 2 × 2 corner at (0,0) are made neutral.
//! 3. From Wood 1 (league 3) on, (1,0) and (10,11) are mine spots (a flag beside the terrain).
//! 4. Three rounds of a cellular automaton, each computed from the previous round: a cell becomes
//!    neutral when at least 6 of the 9 cells of its 3 × 3 block (itself included, cells off the
//!    map counted as neutral) are neutral, else void.
//! 5. Every cell is inverted (void and neutral swap).
//! 6. The map is made point-symmetric by copying, for x from 0 to 11 and y from 0 to x in that
//!    order, cell (x, y) onto its reflection (11 − x, 11 − y).
//! 7. Both 3 × 3 corner blocks, around the two HQs, are made neutral.
//! 8. The neutral areas (4-connected, discovered column by column, each explored depth-first
//!    visiting left, right, up, down) are joined: each area picks one of its cells with
//!    `nextInt(size)`, and every pair of picked cells is joined by an L-shaped corridor: along
//!    the second cell's row between their columns, and along the first cell's column between
//!    their rows; each corridor cell is opened with its reflection.
//! 9. From Wood 1 on, mine spots are drawn: (a) at most max(6, 0.15 × neutral cells) computed in
//!    32-bit floats; (b) an even count between 6 and that maximum from `nextInt`; (c) half of it
//!    less the two spots of step 3 drawn as `x y` pairs with `nextInt(12)`, redrawn while the
//!    cell is void, already a spot, or an HQ cell or the cell beside it ((0,0), (0,1), (11,11),
//!    (11,10)); each spot with its reflection.
//! 10. The HQs go on (0,0) for red and (11,11) for blue; blue also owns (11,10).
//!
//! ## Conformance
//!
//! The tests pin the referee's own reference material: for the seed of its example launcher,
//! the whole map, the mine spots and red's first input in league 4; and a rule check for each of
//! the subtle points above (the tie order of a MOVE for each colour, level 1 against level 1 in
//! Wood 3 and later, a tower guarding its neighbours only while active).
//!
//! ## Version history
//!
//! 1. Initial version: the referee's `develop` rules, leagues 1–4.

use std::sync::Arc;

use engine::{
    FaultKind, Frame, Game, GameEntry, GameInfo, JavaRandom, LineOutcome, Outcome, Rules, Ruleset,
    Setup, SetupError, TurnOrder,
};

mod events;
mod map;
mod protocol;
mod state;
pub mod view;

#[cfg(test)]
mod fast_path_tests;
#[cfg(test)]
mod tests;

use events::Event;
/// The 4-neighbours of a cell (pure geometry: the built-in bots use it too).
pub use map::neighbours;
use map::{xy, Map, CELLS};
use protocol::{input_text, parse_line, write_line};
pub use protocol::{BuildKind, Command};
/// Activity (rulebook: *Territory*), pure: the built-in bots' board takes it too.
pub use state::activate_connected;
use state::{name, Board, League, PLAYERS};
/// The facts of the rulebook the built-in bots plan with: costs, upkeep, income, the capture level.
pub use state::{BUILDING_COST, CAPTURE_LEVEL, MINE_INCOME, UNIT_COST, UNIT_UPKEEP};
pub use view::View;

use crate::text::quote;

/// Rulebook, *Facts*: 100 turns per player, alternating: 200 player turns.
const MAX_PLAYER_TURNS: u32 = 200;

/// The facts about the game.
pub static INFO: GameInfo = GameInfo {
    id: "ice-and-fire",
    name: "A Code of Ice and Fire",
    version: 1,
    min_seats: 2,
    max_seats: 2,
    turn_order: TurnOrder::Alternating,
    // The CodinGame SDK's defaults (rulebook: *Facts*, "Time").
    first_turn_ms: 1000,
    turn_ms: 50,
    rulesets: &[
        Ruleset {
            id: "league-1",
            name: "Wood 3",
            summary: "the basics: TRAIN level-1 units next to your territory and MOVE them to \
                      take cells and the enemy HQ; level 1 kills level 1; no buildings, no mine \
                      spots",
        },
        Ruleset {
            id: "league-2",
            name: "Wood 2",
            summary: "adds level-2 and level-3 units; level 1 no longer kills level 1",
        },
        Ruleset {
            id: "league-3",
            name: "Wood 1",
            summary: "adds mine spots and BUILD MINE (no towers yet)",
        },
        Ruleset {
            id: "league-4",
            name: "Bronze and up: all rules",
            summary: "adds BUILD TOWER: the full game",
        },
    ],
    default_ruleset: "league-4",
};

/// The registry entry.
pub const ENTRY: GameEntry = GameEntry::of::<IceAndFire>();

/// A match of A Code of Ice and Fire in progress.
#[derive(Clone, Debug)]
pub struct IceAndFire {
    board: Board,
    /// The seat whose turn it is (its `initTurn` has run).
    player: usize,
    /// Completed player turns.
    turns_done: u32,
    /// The current player's line has been heard.
    answered: bool,
    /// The commands of the current player's line that passed the parse-time checks.
    pending: Vec<Command>,
    /// Per seat: the text of its last `MSG`, reset at the start of its turn.
    messages: [Option<String>; PLAYERS],
    /// The seat that lost and why.
    lost: Option<(usize, String)>,
    /// The seat whose HQ was captured.
    hq_captured: Option<usize>,
    outcome: Option<Outcome>,
    /// Events since the last step.
    events: Vec<Event>,
    /// Events of the last step (shown by the frame), written out when it is read.
    last_events: Arc<[Event]>,
    /// The seat whose turn the last step was.
    last_player: Option<usize>,
}

impl IceAndFire {
    fn league(setup: &Setup) -> League {
        match setup.ruleset.as_str() {
            "league-1" => League(1),
            "league-2" => League(2),
            "league-3" => League(3),
            _ => League(4),
        }
    }

    fn from_board(board: Board) -> IceAndFire {
        let mut game = IceAndFire::at_turn_of(board, 0);
        game.start_turn();
        game.last_events = std::mem::take(&mut game.events).into();
        game
    }

    /// A match at `seat`'s turn in a given position, after `seat` player turns, before its turn
    /// start has run.
    fn at_turn_of(board: Board, seat: usize) -> IceAndFire {
        IceAndFire {
            board,
            player: seat,
            turns_done: seat as u32,
            answered: false,
            pending: Vec::new(),
            messages: [None, None],
            lost: None,
            hq_captured: None,
            outcome: None,
            events: Vec::new(),
            last_events: Arc::new([]),
            last_player: None,
        }
    }

    /// The start of the current player's turn (rulebook: *A player's turn*), plus the referee's message reset.
    fn start_turn(&mut self) {
        self.answered = false;
        self.pending.clear();
        self.messages[self.player] = None;
        self.board.init_turn(self.player, &mut self.events);
    }

    /// The seat loses now (rulebook: *End and scoring*): −1 for it, military power for the other.
    fn lose(&mut self, seat: usize, why: &str, event: String) {
        if self.outcome.is_some() {
            return;
        }
        self.events.push(Event::Text(event));
        self.pending.clear();
        self.lost = Some((seat, why.to_string()));
        let other = 1 - seat;
        let mut scores = vec![0; PLAYERS];
        scores[seat] = -1;
        scores[other] = self.board.military_power(other);
        let reason = format!("{} loses: {why}", name(seat));
        self.outcome = Some(Outcome::from_scores(scores, reason));
    }

    /// Rulebook, *End and scoring*: after blue's 100th turn, both score their military power.
    fn end_at_turn_limit(&mut self) {
        let scores: Vec<i64> = (0..PLAYERS).map(|s| self.board.military_power(s)).collect();
        let reason = format!(
            "turn limit: military power red {}, blue {}",
            scores[0], scores[1]
        );
        self.events.push(Event::Text(reason.clone()));
        self.outcome = Some(Outcome::from_scores(scores, reason));
    }

    /// The checks made when a line is read (rulebook: *Protocol*): a command failing them is ignored (logged), not a fault.
    fn accept(&mut self, seat: usize, command: Command) {
        let skip = |why: String| format!("{}: {command} skipped: {why}", name(seat));
        let board = &self.board;
        let event = match &command {
            Command::Wait => None,
            Command::Msg(text) => {
                self.events.push(Event::Text(format!(
                    "{} says {:?}",
                    name(seat),
                    view::shown_message(text)
                )));
                self.messages[seat] = Some(text.clone());
                return;
            }
            Command::Move { id, x, y } => {
                if !board.inside(*x, *y) {
                    Some(skip(format!("({x},{y}) is out of bounds")))
                } else {
                    match board.unit_by_id(*id) {
                        None => Some(skip(format!("no living unit has id {id}"))),
                        Some(u) if u.owner != seat => {
                            Some(skip(format!("unit {id} is {}'s", name(u.owner))))
                        }
                        Some(_) => None,
                    }
                }
            }
            Command::Train { level, x, y } => {
                let max = i32::from(board.league.max_level());
                if !board.inside(*x, *y) {
                    Some(skip(format!("({x},{y}) is out of bounds")))
                } else if board.league.0 == 1 && *level != 1 {
                    Some(skip("only level-1 units in this league".to_string()))
                } else if *level <= 0 || *level > max {
                    Some(skip(format!("invalid level {level}")))
                } else {
                    None
                }
            }
            Command::Build { x, y, .. } => {
                (!board.inside(*x, *y)).then(|| skip(format!("({x},{y}) is out of bounds")))
            }
        };
        match event {
            Some(e) => self.events.push(Event::Text(e)),
            None if command != Command::Wait => self.pending.push(command),
            None => {}
        }
    }

    /// Runs the current player's commands in order (rulebook: *A player's turn*); stops at an HQ capture.
    ///
    /// The referee recomputes both incomes after each successful action, but no action reads
    /// them (they count only at a turn's start), so they are computed once, after the last
    /// action: the same values, for a fraction of the work. When every action failed they are
    /// left alone, as the referee leaves them (after a bankruptcy they are stale on purpose).
    fn execute(&mut self, seat: usize) {
        // The list is given back empty (nothing adds to it meanwhile), keeping its room.
        let mut commands = std::mem::take(&mut self.pending);
        if self.run_commands(seat, &commands) {
            self.board.compute_incomes();
        }
        commands.clear();
        self.pending = commands;
    }

    /// [`IceAndFire::execute`]'s commands, each without the incomes; whether one succeeded.
    fn run_commands(&mut self, seat: usize, commands: &[Command]) -> bool {
        let mut acted = false;
        for (i, command) in commands.iter().enumerate() {
            let Some(result) = run_leaving_incomes(&mut self.board, seat, command) else {
                continue;
            };
            match result {
                Ok(text) => {
                    acted = true;
                    self.events.push(text);
                }
                Err(why) => {
                    let text = format!("{}: {command} skipped: {why}", name(seat));
                    self.events.push(Event::Text(text));
                    continue;
                }
            }
            if let Some(loser) = self.board.hq_lost() {
                let rest = commands.len() - i - 1;
                if rest > 0 {
                    self.events.push(Event::Text(format!(
                        "the game is over: {} {} not run",
                        state::plural(rest, "more command"),
                        if rest == 1 { "is" } else { "are" }
                    )));
                }
                self.hq_captured = Some(loser);
                let event = format!("{}'s HQ is captured: {} wins", name(loser), name(1 - loser));
                self.lose(loser, "HQ captured", event);
                return acted;
            }
        }
        acted
    }

    /// A random mostly legal line for the current player (see [`Rules::random_action`]).
    fn random_commands(&self, seat: usize, rng: &mut JavaRandom) -> Vec<Command> {
        const MESSAGES: [&str; 4] = [
            "hi",
            "go go go",
            "for the north",
            "winter is coming, slowly but surely",
        ];
        let board = &self.board;
        let at = |c: usize| {
            let (x, y) = xy(c);
            (x as i32, y as i32)
        };
        let land: Vec<usize> = (0..CELLS).filter(|&c| !board.map.void[c]).collect();
        let pick = |rng: &mut JavaRandom, cells: &[usize]| -> Option<usize> {
            (!cells.is_empty()).then(|| cells[rng.next_int_bounded(cells.len() as i32) as usize])
        };
        let enemy_hq = board.hq_cell(1 - seat);
        let mut out = Vec::new();
        for u in board.units.iter().filter(|u| u.owner == seat) {
            if rng.next_int_bounded(5) == 0 {
                continue;
            }
            let target = match rng.next_int_bounded(3) {
                0 => enemy_hq,
                1 => pick(rng, &land).unwrap_or(enemy_hq),
                _ => {
                    let near: Vec<usize> = neighbours(u.cell)
                        .into_iter()
                        .flatten()
                        .filter(|&n| !board.map.void[n])
                        .collect();
                    pick(rng, &near).unwrap_or(enemy_hq)
                }
            };
            let (x, y) = at(target);
            out.push(Command::Move { id: u.id, x, y });
        }
        let playable: Vec<usize> = land
            .iter()
            .copied()
            .filter(|&c| board.playable(c, seat))
            .collect();
        let mut gold = board.gold[seat];
        for _ in 0..rng.next_int_bounded(3) / 2 + rng.next_int_bounded(2) {
            let Some(c) = pick(rng, &playable) else {
                break;
            };
            let level = if board.league.max_level() == 1 {
                1
            } else {
                match rng.next_int_bounded(10) {
                    0 => 3,
                    1 | 2 => 2,
                    _ => 1,
                }
            };
            let cost = UNIT_COST[level];
            if gold >= cost {
                gold -= cost;
                let (x, y) = at(c);
                out.push(Command::Train {
                    level: level as i32,
                    x,
                    y,
                });
            }
        }
        if rng.next_int_bounded(4) == 0 && gold >= BUILDING_COST {
            let free: Vec<usize> = land
                .iter()
                .copied()
                .filter(|&c| {
                    board.owner[c] == Some(seat)
                        && board.active[c]
                        && board.unit_at(c).is_none()
                        && board.building_at(c).is_none()
                })
                .collect();
            if let Some(c) = pick(rng, &free) {
                let kind = if board.map.spot[c] {
                    BuildKind::Mine
                } else {
                    BuildKind::Tower
                };
                let (x, y) = at(c);
                out.push(Command::Build { kind, x, y });
            }
        }
        if rng.next_int_bounded(20) == 0 {
            // Recognised but mostly impossible: exercises the skip paths.
            let (x, y) = at(pick(rng, &land).unwrap_or(enemy_hq));
            out.push(match rng.next_int_bounded(3) {
                0 => Command::Move {
                    id: rng.next_int_bounded(board.next_id.max(1)) + 1,
                    x,
                    y,
                },
                1 => Command::Train {
                    level: rng.next_int_bounded(5),
                    x,
                    y,
                },
                _ => Command::Build {
                    kind: BuildKind::Mine,
                    x,
                    y,
                },
            });
        }
        if rng.next_int_bounded(8) == 0 {
            let text = MESSAGES[rng.next_int_bounded(MESSAGES.len() as i32) as usize];
            out.push(Command::Msg(text.to_string()));
        }
        if out.is_empty() || rng.next_int_bounded(16) == 0 {
            out.push(Command::Wait);
        }
        out
    }
}

/// Runs one command on the board as the step does, without the incomes
/// ([`IceAndFire::execute`]); `None` for a command that does nothing there (`WAIT`, `MSG`).
#[inline]
fn run_leaving_incomes(board: &mut Board, seat: usize, command: &Command) -> Option<state::Done> {
    Some(match *command {
        Command::Move { id, x, y } => board.move_leaving_incomes(seat, id, x, y),
        Command::Train { level, x, y } => board.train_leaving_incomes(seat, level, x, y),
        Command::Build { kind, x, y } => board.build_leaving_incomes(seat, kind.building(), x, y),
        Command::Wait | Command::Msg(_) => return None,
    })
}

impl Game for IceAndFire {
    fn turn(&self) -> u32 {
        self.turns_done
    }

    fn to_move(&self) -> Vec<usize> {
        if self.outcome.is_some() {
            Vec::new()
        } else {
            vec![self.player]
        }
    }

    fn input(&self, seat: usize) -> String {
        if seat >= PLAYERS {
            return String::new();
        }
        // Rulebook, *Protocol*: the init block goes with the seat's first turn (red's is turn 0, blue's turn 1).
        input_text(&self.board, seat, self.turns_done == seat as u32)
    }

    fn hear(&mut self, seat: usize, line: &str) -> LineOutcome {
        if self.outcome.is_some() || seat != self.player || self.answered {
            return LineOutcome::Done;
        }
        self.answered = true;
        match parse_line(line) {
            Ok(commands) => {
                for command in commands {
                    self.accept(seat, command);
                }
                LineOutcome::Done
            }
            Err(bad) => {
                for command in bad.before {
                    if let Command::Msg(text) = command {
                        self.messages[seat] = Some(text);
                    }
                }
                let why = format!("unrecognised command {}", quote(&bad.piece));
                let event = format!("{} loses: {why}", name(seat));
                self.lose(seat, &why, event);
                LineOutcome::Fault(format!("{why}: {} loses", name(seat)))
            }
        }
    }

    fn fault(&mut self, seat: usize, kind: FaultKind) {
        if seat >= PLAYERS || self.outcome.is_some() {
            return;
        }
        let why = kind.to_string();
        let event = format!("{} loses: {why}", name(seat));
        self.lose(seat, &why, event);
    }

    fn step(&mut self) {
        if self.outcome.is_some() {
            if !self.events.is_empty() {
                self.last_events = std::mem::take(&mut self.events).into();
                self.last_player = Some(self.player);
            }
            return;
        }
        let seat = self.player;
        self.execute(seat);
        self.turns_done += 1;
        self.last_player = Some(seat);
        if self.outcome.is_none() {
            if self.turns_done >= MAX_PLAYER_TURNS {
                self.end_at_turn_limit();
            } else {
                self.player = 1 - seat;
                self.start_turn();
            }
        }
        // Moved out, the list keeping its room for the next step's events.
        self.last_events = self.events.drain(..).collect();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// A copy of the match is the frame's scene: the step's parts are written when read.
    fn frame(&self) -> Frame {
        let out = (0..PLAYERS).map(|seat| self.lost.as_ref().is_some_and(|(s, _)| *s == seat));
        Frame::new(self.turns_done, out, Arc::new(self.clone()))
    }
}

// What a frame of this game writes when read, from the copy of the match it keeps.
scene_of_a_copy!(IceAndFire, last_events);

impl IceAndFire {
    /// The events of the last step, in words.
    fn last_events(&self) -> Vec<String> {
        self.last_events.iter().map(ToString::to_string).collect()
    }
}

impl Rules for IceAndFire {
    /// The commands of one line, in order, as written (before any check against the board).
    type Action = Vec<Command>;

    const INFO: &'static GameInfo = &INFO;

    fn create(setup: &Setup) -> Result<Self, SetupError> {
        setup.check_without_options(&INFO)?;
        let league = Self::league(setup);
        let map = Map::generate(setup.seed, league.has_mines());
        Ok(Self::from_board(Board::new(Arc::new(map), league)))
    }

    fn random_action(&self, seat: usize, rng: &mut JavaRandom) -> Vec<Command> {
        if self.outcome.is_some() || seat != self.player {
            return vec![Command::Wait];
        }
        self.random_commands(seat, rng)
    }

    fn write_action(&self, _seat: usize, action: &Vec<Command>) -> Vec<String> {
        vec![write_line(action)]
    }

    fn parse_action(&self, _seat: usize, lines: &[String]) -> Result<Vec<Command>, String> {
        parse_line(engine::rules::one_line(lines)?)
            .map_err(|bad| format!("unrecognised command {}", quote(&bad.piece)))
    }

    fn apply(&mut self, seat: usize, action: &Vec<Command>) -> Result<(), String> {
        if action.is_empty() {
            // Written, it is an empty line: a fault, as `hear` decides.
            return match self.hear(seat, "") {
                LineOutcome::Fault(why) => Err(why),
                _ => Ok(()),
            };
        }
        if self.outcome.is_some() || seat != self.player || self.answered {
            return Ok(());
        }
        self.answered = true;
        for command in action {
            self.accept(seat, command.clone());
        }
        Ok(())
    }
}
