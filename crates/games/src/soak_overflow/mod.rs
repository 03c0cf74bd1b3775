//! # Soak Overflow
//!
//! A water fight on a small grid: two teams of agents move, shoot, throw splash bombs and take
//! cover; each turn the team controlling more tiles scores the difference. This is the
//! CodinGame Summer Challenge 2025 game, played with the rules of its referee: the full game
//! (league 5, Bronze and up, the default) and the four tutorial leagues before it (see
//! [Leagues](#leagues-rulesets)), whose details were read from the same referee's tutorial
//! set-up. This rulebook states every fact the module implements; the code cites its sections
//! by name, as in "rulebook: *Facts*" (a `##` heading, or a bold paragraph title within one).
//! Everything up to the leagues' section describes league 5.
//!
//! ## Facts
//!
//! | Item | Value |
//! |---|---|
//! | Grid | height 6–10, width twice the height; generated from the seed exactly as the original (see *Map generation*) |
//! | Tiles | 0 floor, 1 low cover, 2 high cover; covers cannot be entered |
//! | Players | 2: red (seat 0, column 0) and blue (seat 1, the mirror side) |
//! | Agents | 3–5 per player; ids 1..n for red and n+1..2n for blue; blue's agent k stands at the mirror of red's |
//! | Classes (spawn order) | gunner, sniper, bomber, assault, berserker |
//! | cooldown / range / power / bombs | gunner 1/4/16/1 · sniper 5/6/24/0 · bomber 2/2/8/3 · assault 2/4/16/2 · berserker 5/2/32/1 |
//! | Turns | 100, both players at once |
//! | Time | 1000 ms for the first turn, 50 ms afterwards; a timeout loses |
//!
//! The mirror of (x, y) is (w−1−x, h−1−y) when the map is point-symmetric, else (w−1−x, y);
//! the seed decides which.
//!
//! ## Rules
//!
//! **A turn.** Both players answer at once, one line per own agent. Each agent may have one
//! move, one combat action (SHOOT, THROW or HUNKER_DOWN) and one message. The turn then runs
//! in phases, each simultaneous for all agents: all moves, then hunkering, then shots, then
//! bombs, then soaked agents drop out, then territory and points. An action that cannot be done
//! (a shot on cooldown, out of range or at an unknown id, a throw too far, off the grid or
//! without bombs) is skipped and only reported; it never loses the game.
//!
//! **Moving.** `MOVE x y` takes the agent one tile along the referee's shortest path towards
//! (x, y). Covers block paths; agents do not (they only change which of several equally short
//! paths is taken). If (x, y) cannot be reached (a cover, or off the grid), the agent heads for
//! the reachable tile nearest to it. Then all moves happen together, except that a move is
//! cancelled when its tile holds an agent that is not moving, when two agents step onto the
//! same tile (both are cancelled), or when two agents swap places (both cancelled); and any
//! move onto the tile of an agent whose move was cancelled is cancelled too, repeatedly. Queues
//! that follow each other and rotations of three or more agents all move.
//!
//! **Shooting.** `SHOOT id` needs a cooldown of 0. At Manhattan distance up to the shooter's
//! optimal range it deals its full soaking power, up to twice that range half of it, beyond
//! that nothing (the shot fails and costs no cooldown). Any agent can be the target except the
//! shooter itself, teammates included. Cover: along each axis on which shooter and target are
//! more than one tile apart, the tile next to the target on the shooter's side protects the
//! target if it is a cover that does not touch the shooter (diagonally touching counts); low
//! cover halves the shot, high cover quarters it, and of two covers the better one counts. A
//! hunkered target takes 25 % of the power less on top (so hunkering behind high cover stops a
//! shot completely). The wetness dealt is power × range factor × (cover factor − 0.25 if
//! hunkered), rounded half up. After a shot the shooter's next input shows its class cooldown,
//! and it can shoot again when its input shows 0.
//!
//! **Splash bombs.** `THROW x y` needs a bomb and a target on the grid at Manhattan distance
//! at most 4 from the thrower (after it moved). Every agent on the target tile and the eight
//! tiles around it gets 30 wetness: allies and the thrower included, cover and hunkering
//! ignored.
//!
//! **Soaked.** An agent with wetness 100 or more is soaked: it no longer counts for territory
//! and leaves the grid before the next turn.
//!
//! **Territory and points.** Every tile, covers included, belongs to the player whose agents
//! are nearest to it, if all the nearest agents are that player's; an agent with wetness 50 or
//! more counts double distance. Each turn, the player controlling more tiles gains as many
//! points as it controls tiles more than the other.
//!
//! ## Protocol
//!
//! Before its first turn a player receives its id (0 or 1), the number of agents of both
//! teams, one line per agent `agentId player shootCooldown optimalRange soakingPower
//! splashBombs` (red's first, by id), the line `width height`, then one line per row y holding
//! `x y tileType` for x = 0..width−1, all on that line. Every turn it then receives the number
//! of agents on the grid, one line per agent `agentId x y cooldown splashBombs wetness` (red's
//! first, by id), and the number of its own agents.
//!
//! It answers exactly that many lines. Each line is `[agentId;]action[;action…]` with actions
//! `MOVE x y`, `SHOOT id`, `THROW x y`, `HUNKER_DOWN`, `WAIT` (the same as `HUNKER_DOWN`) and
//! `MESSAGE text` (shown over the agent in the viewer). Upper or lower case does not matter;
//! each action is trimmed; words are separated by single spaces; numbers are ASCII digits
//! that fit a 32-bit int (THROW's may be negative). A line whose first of several pieces is a
//! number names its agent; otherwise the k-th line is for the k-th own agent. A later action of
//! the same kind replaces an earlier one (SHOOT, THROW and HUNKER_DOWN share one slot), also
//! across lines; once an agent has a move, a combat action and a message, the rest of its line
//! is not read. An agent without a line does nothing (and is not hunkered). Lines written
//! beyond the turn's count are not lost: they are read as the next turn's first lines, as
//! from a pipe. A line of nothing but semicolons holds no action at all and is harmless.
//!
//! ```text
//! in:  0                  (my id)            out: 1;MOVE 5 6;MESSAGE go
//!      6                  (agents)                2;SHOOT 5
//!      1 0 1 4 16 1       (…6 agent lines)        MOVE 2 7;THROW 4 7
//!      20 10              (width height)
//!      0 0 0 1 0 0 … 19 0 0   (10 row lines)
//!      6                  (agents on the grid)
//!      1 0 6 0 1 0        (…6 agent lines)
//!      3                  (my agents)
//! ```
//!
//! **Loses at once:** a line naming an agent that is not one of the player's agents on the
//! grid, an unrecognised or empty action (`1;`, `1;;WAIT`, `MESSAGE ` without text, double
//! spaces, a number too big), and any line missing when the time is up. As in the original,
//! the player's other lines are still read and every action recognised still runs this turn;
//! then the game ends with the faulty player scoring −1. Crashes and too much output lose the
//! same way.
//!
//! ## End and scoring
//!
//! The game ends after a turn in which a player leads by **more than** 600 points, a team has
//! no agent left, or a player lost by a fault, and at the latest after turn 100. A player that
//! faulted, or that has no agent left while the other still has some, scores −1; otherwise
//! its score is its points. The higher score wins; equal scores draw (for example when both
//! teams are soaked in the same turn with equal points).
//!
//! ## Leagues (rulesets)
//!
//! | Ruleset | League | What it adds | Turns |
//! |---|---|---|---|
//! | `league-1` | Wood 4 | MOVE; no opponent | 20 |
//! | `league-2` | Wood 3 | SHOOT (MOVE does nothing); four enemies and the boss | 20 |
//! | `league-3` | Wood 2 | cover; MOVE and SHOOT together | 1 |
//! | `league-4` | Wood 1 | THROW (splash bombs) | 40 |
//! | `league-5` | Bronze and up (default) | HUNKER_DOWN, the five classes, generated maps, territory: the full game | 100 |
//!
//! Leagues 1–4 are the original's tutorials: a fixed scenario with an objective for red (seat
//! 0), played against a scripted opponent, the *boss* (seat 1; the built-in bot `boss`, which
//! the page and `botplay list` offer as these leagues' opponent). In all four there is no
//! territory (no tile is controlled, nobody scores points) and HUNKER_DOWN/WAIT does nothing;
//! an action a league switches off (MOVE in league 2, SHOOT in league 1, THROW before league 4)
//! is skipped and reported, never a fault. All agents are snipers with the numbers below and a
//! cooldown of 0 (they can shoot every turn).
//!
//! - **League 1 (Wood 4).** An empty 8 × 5 grid; red's agents 1 at (0,0) and 2 at (0,4), power
//!   24, range 6, no bombs. Nobody else: blue has no agents and is never asked. **Objective:**
//!   one agent on (6,1) and the other on (6,3) (either way round). The game ends as soon as
//!   they stand there (red scores 0, blue −1) or after turn 20 (red −1, blue 0).
//! - **League 2 (Wood 3).** An empty 8 × 5 grid; red's agents 1 at (3,2) and 2 at (4,2), power
//!   50. Blue's four agents, power 100, stand at (2,1), (2,3), (5,1) and (5,3) with wetness 90,
//!   80, 70 and 60; the seed shuffles which of the ids 3–6 stands where, and both inputs list
//!   blue's agents in that place order. **Objective:** every turn, both red agents shoot the
//!   wettest blue agent. **The boss:** on a turn when not every red agent shoots the wettest
//!   blue agent (the first listed on a tie), blue's agent k (in list order) shoots red's agent
//!   k mod n, so red is soaked at once. The game ends when a team has no agent left, or after
//!   turn 20; each side scores its agents left (so 2 to 0 when red wins).
//! - **League 3 (Wood 2).** A 13 × 5 grid; red's agents 1 at (0,2) and 2 at (12,2), power 50;
//!   blue's 3 at (4,1), 4 at (4,3), 5 at (8,1), 6 at (8,3), power 100. The seed draws the
//!   covers, in this order: beside each red agent a low and a high cover at (1,1)/(1,3) and
//!   (11,1)/(11,3) (which is which: a draw per side); blue's defence, low cover or nothing (a
//!   draw); in front of each blue pair, at (3,1)/(3,3) and (9,1)/(9,3), the defence on one tile
//!   and high cover on the other (a draw per side); then, each on a draw, high covers at (6,1)
//!   and (6,3), and low/high pairs at (4,2)/(8,2), (4,0)/(8,0), (4,4)/(8,4) (a second draw
//!   says which side is low). **Objective**, in the one turn: each red agent moves to the tile
//!   beside its high cover (its MOVE's next step must be that tile; a farther target counts if
//!   the path's first step is that tile) and shoots the blue agent behind the defence (the
//!   tile in front of it is not high cover). Checked as the referee checks it at the end: both
//!   agents moved there or already stand there, both shoot those agents. Red scores 0 and blue
//!   −1, or the other way round. **The boss:** unless red completes the objective this turn
//!   (judged before moving, on the path search with no agent in the way), blue's agents 3 and
//!   4 shoot agent 1 and agents 5 and 6 shoot agent 2.
//! - **League 4 (Wood 1).** A 15 × 12 or 17 × 12 grid (a draw) with four bunkers, 5 × 5 rings
//!   of high cover centred on (2,2), (2,9), (w−3,2) and (w−3,9). Red's two agents have wetness
//!   70, power 10 and range 1; the first (3 bombs) stands at (w/2, 6), the second (1 bomb) is
//!   shut in a bunker; a draw swaps their ids 1 and 2. Blue's agents (wetness 70, power 200,
//!   range 64) fill the bunkers' insides: four counts are drawn (5–7, 4–6, 7, 7–10) and
//!   shuffled; the bunker with the smallest count (the last on a tie) also holds red's second
//!   agent; each bunker's cells are visited in a shuffled order (x offsets outside, y offsets
//!   inside, each a shuffle of −2..2), the ring becomes cover and the inside cells take red's
//!   agent first, then blue's (ids from 3, at most 9 per bunker). **Objective:** soak every
//!   blue agent of the three bunkers without a red agent (a bomb on a bunker's centre wets its
//!   whole inside by 30: 70 + 30 = 100). It ends when that is done (red 0, blue −1), when a
//!   team has no agent left, or after turn 40 (red −1, blue 0). **The boss:** on a turn when red
//!   shoots, has lost an agent, or its first listed agent has no bomb left when the turn
//!   begins, two blue agents picked at random shoot agents 1 and 2 (hitting red's own agents
//!   with a bomb therefore loses too).
//!
//! **Faults in the tutorial leagues:** as in league 5, a timeout, a crash, too much output or
//! a malformed line loses: the seat is out, its recognised actions of the turn still run, the
//! game ends after the turn and the seat scores −1.
//!
//! ## Protocol per league
//!
//! Red's protocol is the same in every league, exactly as in league 5 (as in the original): the
//! initialisation block lists only the league's agents with their numbers, the map is the
//! league's grid, and red answers one line per own agent. Switched-off actions are still
//! recognised (they are skipped when the turn runs), so a line that is valid in league 5 is
//! valid everywhere.
//!
//! The opponent differs (this is ours: the original's boss is part of its referee, which reads
//! red's orders before deciding). In league 1 it is never asked. In leagues 2–4 it answers
//! **after** red, in a step of its own (the viewer shows a frame between the two), and its
//! turn input ends with red's orders: the number of red's agents on the grid, then one line per
//! red agent in list order, `agentId` followed by `;MOVE x y` if red told it to move and by
//! `;SHOOT id`, `;THROW x y` or `;HUNKER_DOWN` (also for `WAIT`) for its combat action, as the
//! referee read them (messages left out; an agent told nothing is its id alone):
//!
//! ```text
//! in (blue, league 2):  …turn block…  4   (my agents)   out: 5;SHOOT 1
//!                       2             (red's agents)        3;SHOOT 2
//!                       1;SHOOT 5                           4;SHOOT 1
//!                       2;MOVE 5 2;SHOOT 3                  6;SHOOT 2
//! ```
//!
//! ## Departures from the original
//!
//! - **The boss is a bot.** In the original it is part of the referee and its player never
//!   runs; here it is the built-in bot `boss`, which sees only protocol text: red's orders of
//!   the turn arrive at the end of its input (above), so it answers after red in leagues 2–4.
//!   Any bot (or a person's code) may take its seat instead.
//! - **League 4's executioners** are two blue agents picked by the `boss` bot's own seeded
//!   random choice, not by the referee's generator (a bot cannot see it): red's agents are
//!   soaked all the same (at least 200 × 0.25 on 70 wetness), only which blue agents fire, and
//!   so the wetness shown on the soaked agents, can differ.
//! - **Faults lose in every league.** The original's tutorial scoring ignores a fault (a
//!   disqualified red could even win league 2 on agents left); here a seat that faulted scores
//!   −1 in every league, as the statement's defeat conditions say.
//! - **League 1 accepts seed 0** (it draws nothing); leagues 2–5 refuse it as below.

//! - **Seed 0 is refused** (a setup error) in leagues 2–5: Java seeds the original's
//!   generator from the operating system when given 0, so no map belongs to it. The CLI and the page pick a
//!   nonzero seed instead and show it.
//! - **No extra frame after a wipe-out.** The original shows one more frame (no input, nothing
//!   simulated) after a turn that leaves a team without agents, and ends there. Here the match
//!   ends with that turn; its frame shows the soaked agents marked as soaked. Scores and
//!   everything bots see are the same (in league 2, where the agents left are the score, the
//!   soaked ones do not count, as after the original's extra frame).
//! - An agent id written in non-ASCII decimal digits (which Java's `Integer.parseInt`
//!   accepts) is not recognised as an id: that line is read as actions and loses.
//! - The viewer and the game-summary texts are our own.
//!
//! Everything else follows the referee, including what differs from its statement: the map
//! rows in the initial input, `WAIT`, case-insensitive commands, friendly fire, the strict
//! 600-point lead, covers counting as territory, the exact cover rule and path ties.
//!
//! ## Map generation
//!
//! League 5's grid comes from a `SecureRandom("SHA1PRNG")` seeded with the match seed
//! (`engine::Sha1Prng`), drawn exactly as the referee draws it (Java 17's bounded `nextInt`):
//!
//! 1. The height is `nextInt(6, 11)`; the width twice that.
//! 2. The symmetry: `nextBoolean() || nextBoolean()` (the second drawn only when the first is
//!    false) makes the map point-symmetric, else mirrored left–right only.
//! 3. Covers: for each row but the outer ones and each column of the left half but its first and
//!    last, `nextInt(10)` gives high cover on 0, low cover on 1, floor else; the mirror tile gets
//!    the same.
//! 4. Spawns: a count from `nextInt(3, 6)`; the tiles of column 0 are shuffled (Java's
//!    `Collections.shuffle` with this generator); a count of 5 may drop to 4 and then one of 4 to
//!    3 on `nextBoolean()`; the first tiles of the shuffled column are the spawns.
//! 5. All cover tiles, row by row, are shuffled.
//! 6. While the floor is not one island (4-connected): the first cover in the shuffled list that
//!    touches two islands or more is removed with its mirror, and the islands it touched are
//!    merged into one list, *without* recomputing them (the referee's shortcut, kept because it
//!    can open more walls); when no cover touches two islands, the first one touching any floor is
//!    removed with its mirror and the islands are recomputed.
//! 7. The agents: red's on the spawns in class order (see *Facts*), blue's on their mirrors.
//!
//! ## Conformance
//!
//! The tests pin the referee's reference material for seed 42: the whole grid and the agents,
//! both seats' first inputs and the first turn; path vectors on that grid (to a cover, long
//! paths, unreachable targets, occupied tiles); and rule scenarios for range and cover,
//! cooldowns, friendly fire, move collisions, bombs, territory with wet agents, the 600-point
//! lead, wipe-outs and the parsing of lines.
//!
//! ## Version history
//!
//! 1. Initial version: the referee's league 5. The tutorial leagues 1–4 were added later as
//!    new rulesets; league 5 did not change, so the version did not either.

use std::sync::{Arc, OnceLock};

use engine::{
    FaultKind, Frame, Game, GameEntry, GameInfo, JavaRandom, LineOutcome, Outcome, Rules, Ruleset,
    Setup, SetupError, TurnOrder,
};

pub mod league;
pub mod map;
pub mod path;
mod protocol;
mod state;
mod territory;
pub mod view;

#[cfg(test)]
mod fast_path_tests;
#[cfg(test)]
mod league_tests;
#[cfg(test)]
mod tests;

use league::{League, Objective};
use map::Grid;
use protocol::{agents_lines, apply, input_bytes, orders_text, parse_lines, InitAgent, Reading};
pub use protocol::{Command, Order};
/// The rules of a shot (rulebook, *Shooting*), pure: the bots plan with them too.
pub use state::{cover_multiplier, range_multiplier, shot_damage};
use state::{name, plural, refill, Agent, Board, Slots, TurnLog, PLAYERS};
pub use view::View;

/// Rulebook, *Facts*: the turn limit of the full game (the tutorial leagues have their own, see
/// [`League::max_turns`]).
pub const MAX_TURNS: u32 = 100;
/// Rulebook, *End and scoring*: a lead of more than this wins.
pub const MAX_LEAD: i64 = 600;

/// The facts about the game.
pub static INFO: GameInfo = GameInfo {
    id: "soak-overflow",
    name: "Soak Overflow",
    version: 1,
    min_seats: 2,
    max_seats: 2,
    turn_order: TurnOrder::Simultaneous,
    first_turn_ms: 1000,
    turn_ms: 50,
    rulesets: &[
        Ruleset {
            id: "league-1",
            name: "Wood 4: MOVE (tutorial)",
            summary: "MOVE only, on an empty 8 × 5 grid and with no opponent: get one of your \
                      two agents to (6,1) and the other to (6,3) within 20 turns",
        },
        Ruleset {
            id: "league-2",
            name: "Wood 3: SHOOT (tutorial)",
            summary: "adds SHOOT and four enemies, but no moving: every turn both your agents \
                      must shoot the wettest enemy, or the boss soaks them; 20 turns",
        },
        Ruleset {
            id: "league-3",
            name: "Wood 2: cover (tutorial)",
            summary: "adds low and high cover, and MOVE with SHOOT in one line: in a single turn, \
                      step both agents behind the high cover and shoot the enemy behind the \
                      weaker cover",
        },
        Ruleset {
            id: "league-4",
            name: "Wood 1: splash bombs (tutorial)",
            summary: "adds THROW: splash bombs soak a 3 × 3 area through any cover; wipe out the \
                      three enemy bunkers with your 3 bombs in 40 turns, without shooting or \
                      hitting your own agents",
        },
        Ruleset {
            id: "league-5",
            name: "Bronze and up: the full game",
            summary: "adds HUNKER_DOWN, the five agent classes, random maps and territory points: \
                      the whole game against any opponent",
        },
    ],
    default_ruleset: "league-5",
};

/// The registry entry.
pub const ENTRY: GameEntry = GameEntry::of::<SoakOverflow>();

/// A match of Soak Overflow in progress.
#[derive(Clone, Debug)]
pub struct SoakOverflow {
    board: Board,
    /// What red must achieve (the tutorial leagues).
    objective: Arc<Objective>,
    /// Leagues 2–4: red's orders of this turn are in and the opponent is being asked.
    red_ready: bool,
    /// The agents as the initialisation block lists them.
    initial: Arc<Vec<InitAgent>>,
    turns_done: u32,
    /// Per seat: why it lost by a fault.
    lost: [Option<String>; PLAYERS],
    /// Per seat: its lines of this turn, read so far.
    heard: [Reading; PLAYERS],
    /// Per seat: its turn is complete (all its lines, or a fault).
    complete: [bool; PLAYERS],
    outcome: Option<Outcome>,
    /// Events since the last step.
    events: Vec<String>,
    /// The last step's events in words, but for its resolution's: those that came before
    /// it (faults) and after it (the end of the match). A frame writes the resolution's own
    /// events from `last_log` only when it is read ([`SoakOverflow::last_events`]).
    last_events: LastEvents,
    /// What the last step's resolution did.
    last_log: TurnLog,
    /// The agents soaked in the last step (they have left the board).
    last_soaked: Arc<Vec<Agent>>,
    /// The messages given this turn, by agent id (an agent's orders leave them out).
    told: Vec<(i32, String)>,
    /// The messages of the last step, by agent id.
    last_messages: Arc<Vec<(i32, String)>>,
    /// Every agent's label ("agent 3 (red bomber)") by id, for the events.
    labels: Arc<[(i32, String)]>,
    /// The agents' lines of this turn's input ([`agents_lines`]), the same for every seat:
    /// written for the first seat asked, copied for the other. What they list (the agents on
    /// the grid, their places, cooldowns, bombs and wetness) changes only when a turn is
    /// resolved, in [`Game::step`], which empties this (as every step does).
    agents_input: OnceLock<Vec<u8>>,
}

/// The words of a step's events, apart from its resolution's (most steps have none: a copy of
/// an empty list costs nothing).
#[derive(Clone, Debug, Default)]
struct LastEvents {
    /// Whether the step resolved a turn (its events include the resolution's).
    resolved: bool,
    before: Vec<String>,
    after: Vec<String>,
}

impl SoakOverflow {
    fn from_board(board: Board, objective: Objective) -> SoakOverflow {
        let initial = board
            .agents
            .iter()
            .map(|a| InitAgent {
                id: a.id,
                owner: a.owner,
                shoot_cooldown: a.shoot_cooldown,
                optimal_range: a.optimal_range,
                soaking_power: a.soaking_power,
                bombs: a.bombs,
            })
            .collect();
        SoakOverflow {
            objective: Arc::new(objective),
            red_ready: false,
            initial: Arc::new(initial),
            turns_done: 0,
            lost: [None, None],
            heard: Default::default(),
            complete: [false; PLAYERS],
            outcome: None,
            labels: board.agents.iter().map(|a| (a.id, a.label())).collect(),
            board,
            events: Vec::new(),
            last_events: LastEvents::default(),
            last_log: TurnLog::default(),
            last_soaked: Arc::default(),
            told: Vec::new(),
            last_messages: Arc::default(),
            agents_input: OnceLock::new(),
        }
    }

    /// The events of the last step, in words.
    fn last_events(&self) -> Vec<String> {
        let mut out = self.last_events.before.clone();
        if self.last_events.resolved {
            self.log_events(&self.last_log, &mut out);
        }
        out.extend(self.last_events.after.iter().cloned());
        out
    }

    /// The step's events so far become the last step's (`resolved`: a turn was resolved).
    fn close_events(&mut self, resolved: bool, before: Vec<String>) {
        self.last_events = LastEvents {
            resolved,
            before,
            after: std::mem::take(&mut self.events),
        };
    }

    /// The league played.
    pub fn league(&self) -> League {
        self.board.league
    }

    /// Whether the seat is asked now (see [`Game::to_move`]).
    fn asks(&self, seat: usize) -> bool {
        if self.outcome.is_some() || seat >= PLAYERS {
            return false;
        }
        let league = self.board.league;
        if league.one_player() {
            seat == 0
        } else if league.opponent_follows() {
            seat == usize::from(self.red_ready)
        } else {
            true
        }
    }

    /// The ids of a seat's agents on the grid, in list order.
    fn own_ids(&self, seat: usize) -> Vec<i32> {
        self.board.live(seat).map(|a| a.id).collect()
    }

    /// The seat is deactivated (it will score −1 when the game ends after this turn).
    fn deactivate(&mut self, seat: usize, why: String) {
        if self.lost[seat].is_none() {
            self.events.push(format!("{} loses: {why}", name(seat)));
            self.lost[seat] = Some(why);
        }
    }

    /// The seat's lines are all in: parse them and give the orders to its agents. What the
    /// lines give each agent replaces, slot by slot, what it was told before (nothing: its
    /// orders are cleared when a turn starts), as putting the commands in one by one would.
    fn take_orders(&mut self, seat: usize) -> Option<String> {
        let heard = &mut self.heard[seat];
        for (id, given) in heard.own.iter().zip(&mut heard.slots) {
            give(&mut self.board.agents, &mut self.told, *id, given);
        }
        heard.error.take()
    }

    /// Rulebook, *End and scoring* (the referee's `onEnd`): ends the game if it is over. `occupied` marks the tiles that
    /// held an agent when the turn's moves began (league 3's objective check uses them).
    fn check_end(&mut self, occupied: &[bool]) {
        if self.board.league.is_tutorial() {
            self.check_tutorial_end(occupied);
            return;
        }
        let points = self.board.points;
        let live = [self.board.live_count(0), self.board.live_count(1)];
        let faulted = [self.lost[0].is_some(), self.lost[1].is_some()];
        let lead = points[0] > points[1] + MAX_LEAD || points[1] > points[0] + MAX_LEAD;
        let wiped = live.contains(&0);
        let limit = self.turns_done >= MAX_TURNS;
        if !(lead || wiped || faulted.contains(&true) || limit) {
            return;
        }
        let both_wiped = live == [0, 0];
        let scores: Vec<i64> = (0..PLAYERS)
            .map(|s| {
                if faulted[s] || (live[s] == 0 && !both_wiped) {
                    -1
                } else {
                    points[s]
                }
            })
            .collect();
        let reason = if faulted == [true, true] {
            "both players lost by a fault".to_string()
        } else if let Some(s) = faulted.iter().position(|&f| f) {
            format!(
                "{} loses: {}",
                name(s),
                self.lost[s].clone().unwrap_or_default()
            )
        } else if both_wiped {
            format!(
                "both teams are soaked: red {}, blue {}",
                plural(points[0].max(0) as usize, "point"),
                plural(points[1].max(0) as usize, "point")
            )
        } else if wiped {
            let s = if live[0] == 0 { 0 } else { 1 };
            format!("{} has no agent left: {} wins", name(s), name(1 - s))
        } else if lead {
            let s = if points[0] > points[1] { 0 } else { 1 };
            format!(
                "{} leads by more than {MAX_LEAD} points ({} to {})",
                name(s),
                points[s],
                points[1 - s]
            )
        } else {
            format!(
                "turn limit: red {}, blue {}",
                plural(points[0].max(0) as usize, "point"),
                plural(points[1].max(0) as usize, "point")
            )
        };
        self.events.push(format!("game over: {reason}"));
        self.outcome = Some(Outcome::from_scores(scores, reason));
    }

    /// Whether red has achieved the objective of its tutorial league now (league 2's is judged
    /// by who is left, so never here).
    fn objective_done(&self, occupied: &[bool]) -> bool {
        let board = &self.board;
        let red: Vec<&Agent> = board.agents.iter().filter(|a| a.owner == 0).collect();
        match self.objective.as_ref() {
            Objective::None | Objective::Wettest => false,
            Objective::Reach(spots) => league::reached(spots, &red),
            Objective::RunAndGun { run, gun } => {
                league::run_and_gun(&board.grid, occupied, run, gun, &red, &board.agents)
            }
            Objective::Bunkers { hitlist } => hitlist.iter().all(|id| {
                // A soaked agent has left the board.
                board.agent(*id).is_none_or(|a| a.wetness >= state::SOAKED)
            }),
        }
    }

    /// The end of a tutorial league (the referee's `isGameOver` with the tutorial's checks,
    /// then its scoring): the objective (leagues 1 and 4), a team without agents (leagues
    /// 2–4), a fault, or the league's turn limit. Red scores 0 if it achieved the objective and
    /// the opponent −1, or the other way round; in league 2 each side scores its agents left.
    /// A seat that faulted scores −1.
    fn check_tutorial_end(&mut self, occupied: &[bool]) {
        let league = self.board.league;
        let live = [self.board.live_count(0), self.board.live_count(1)];
        let faulted = [self.lost[0].is_some(), self.lost[1].is_some()];
        let limit = self.turns_done >= league.max_turns();
        let wiped = !league.one_player() && live.contains(&0);
        let done = self.objective_done(occupied);
        let early = match self.objective.as_ref() {
            Objective::Reach(_) => done,
            Objective::Bunkers { .. } => done || wiped,
            _ => wiped,
        };
        if !(early || limit || faulted.contains(&true)) {
            return;
        }
        let mut scores: Vec<i64> = if matches!(self.objective.as_ref(), Objective::Wettest) {
            // The agents each side still lists: the soaked ones have left only if the game
            // ended on a wipe-out (the original's extra frame removes them first).
            let clean_wipe = wiped && !limit && !faulted.contains(&true);
            (0..PLAYERS)
                .map(|s| {
                    let n = if clean_wipe {
                        live[s]
                    } else {
                        self.board.agents.iter().filter(|a| a.owner == s).count()
                    };
                    n as i64
                })
                .collect()
        } else if done {
            vec![0, -1]
        } else {
            vec![-1, 0]
        };
        for s in 0..PLAYERS {
            if faulted[s] {
                scores[s] = -1;
            }
        }
        let reason = if let Some(s) = faulted.iter().position(|&f| f) {
            if faulted == [true, true] {
                "both players lost by a fault".to_string()
            } else {
                format!(
                    "{} loses: {}",
                    name(s),
                    self.lost[s].clone().unwrap_or_default()
                )
            }
        } else {
            self.tutorial_reason(done, live, wiped, &scores)
        };
        self.events.push(format!("game over: {reason}"));
        self.outcome = Some(Outcome::from_scores(scores, reason));
    }

    /// Why a tutorial league ended, when nobody faulted.
    fn tutorial_reason(
        &self,
        done: bool,
        live: [usize; PLAYERS],
        wiped: bool,
        scores: &[i64],
    ) -> String {
        let turns = self.board.league.max_turns();
        match self.objective.as_ref() {
            Objective::Reach([a, b]) if done => {
                format!("objective complete: red's agents stand on {a} and {b}")
            }
            Objective::Reach([a, b]) => format!(
                "objective failed: red's agents did not reach {a} and {b} in {}",
                plural(turns as usize, "turn")
            ),
            Objective::RunAndGun { .. } if done => "objective complete: both agents stepped \
                 behind the high cover and shot the enemy behind the weaker cover"
                .to_string(),
            Objective::RunAndGun { run, gun } => format!(
                "objective failed: red's agents had to step to {} and {} and shoot the agents \
                 on {} and {}",
                run[0], run[1], gun[0], gun[1]
            ),
            Objective::Bunkers { hitlist } if done => format!(
                "objective complete: all {} enemies of the three bunkers without a red agent \
                 are soaked",
                hitlist.len()
            ),
            Objective::Bunkers { .. } if wiped => {
                "objective failed: red has no agent left".to_string()
            }
            Objective::Bunkers { .. } => format!(
                "objective failed: the three enemy bunkers are not all soaked after {}",
                plural(turns as usize, "turn")
            ),
            _ if live == [0, 0] => "both teams are soaked".to_string(),
            _ if wiped => {
                let s = if live[0] == 0 { 0 } else { 1 };
                format!(
                    "{} has no agent left: {} wins with {}",
                    name(s),
                    name(1 - s),
                    plural(live[1 - s], "agent")
                )
            }
            _ => format!(
                "turn limit: red {}, blue {}",
                plural(scores[0].max(0) as usize, "agent"),
                plural(scores[1].max(0) as usize, "agent")
            ),
        }
    }

    /// The events of a resolved turn, in words. Read from the match after the step: agents keep
    /// their label for the whole match, and the territory does not change until the next step.
    fn log_events(&self, log: &TurnLog, out: &mut Vec<String>) {
        let board = &self.board;
        let label = |id: i32| {
            self.labels
                .iter()
                .find(|(i, _)| *i == id)
                .map_or_else(|| format!("agent {id}"), |(_, l)| l.clone())
        };
        for (id, text) in self.last_messages.iter() {
            out.push(format!("{} says {text:?}", label(*id)));
        }
        for m in &log.moves {
            out.push(if m.done {
                format!("{} moves {} → {}", label(m.id), m.from, m.to)
            } else {
                format!("{} is blocked moving {} → {}", label(m.id), m.from, m.to)
            });
        }
        for id in &log.hunkered {
            out.push(format!("{} hunkers down", label(*id)));
        }
        for s in &log.shots {
            let mut how = Vec::new();
            if s.range < 1.0 {
                how.push("beyond optimal range");
            }
            if s.cover == 0.5 {
                how.push("low cover");
            } else if s.cover < 0.5 {
                how.push("high cover");
            }
            // Hunkering lasts from the resolution to the start of the next turn.
            if log.hunkered.contains(&s.target) {
                how.push("hunkered");
            }
            let how = if how.is_empty() {
                String::new()
            } else {
                format!(" ({})", how.join(", "))
            };
            out.push(format!(
                "{} shoots {}: {} wetness{how}",
                label(s.shooter),
                label(s.target),
                s.damage
            ));
        }
        for t in &log.throws {
            let hit = if t.hit.is_empty() {
                "nobody".to_string()
            } else {
                t.hit
                    .iter()
                    .map(|&id| label(id))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            out.push(format!(
                "{} throws a splash bomb at {}: +30 wetness to {hit}",
                label(t.thrower),
                t.target
            ));
        }
        out.extend(log.failures.iter().cloned());
        for id in &log.soaked {
            out.push(format!("{} is soaked", label(*id)));
        }
        if !board.league.has_territory() {
            return;
        }
        let tiles = board.tiles();
        let gain = match (0..PLAYERS).find(|&s| log.gained[s] > 0) {
            Some(s) => format!(": {} +{}", name(s), plural(log.gained[s] as usize, "point")),
            None => String::new(),
        };
        out.push(format!(
            "territory: red {}, blue {}{gain}",
            plural(tiles[0], "tile"),
            plural(tiles[1], "tile")
        ));
    }

    /// A random line per own agent, mostly legal (see [`Rules::random_action`]).
    fn random_orders(&self, seat: usize, rng: &mut JavaRandom) -> Vec<Order> {
        const MESSAGES: [&str; 4] = ["splash!", "hi", "cover me", "you will be soaked, friend"];
        let grid = &self.board.grid;
        let ids: Vec<i32> = self.board.agents.iter().map(|a| a.id).collect();
        let mut out = Vec::new();
        for a in self.board.live(seat) {
            let mut commands = Vec::new();
            if rng.next_int_bounded(4) != 0 {
                let (x, y) = if rng.next_int_bounded(12) == 0 {
                    // Off the grid or anywhere: exercises the nearest-tile rule.
                    (rng.next_int_bounded(40), rng.next_int_bounded(20))
                } else {
                    (
                        (a.at.x + rng.next_int_bounded(7) - 3).clamp(0, grid.width - 1),
                        (a.at.y + rng.next_int_bounded(7) - 3).clamp(0, grid.height - 1),
                    )
                };
                commands.push(Command::Move { x, y });
            }
            match rng.next_int_bounded(6) {
                0 | 1 => {
                    let id = ids[rng.next_int_bounded(ids.len() as i32) as usize];
                    commands.push(Command::Shoot { id });
                }
                2 => commands.push(Command::Throw {
                    x: a.at.x + rng.next_int_bounded(11) - 5,
                    y: a.at.y + rng.next_int_bounded(11) - 5,
                }),
                3 => commands.push(Command::HunkerDown),
                4 => commands.push(Command::Wait),
                _ => {}
            }
            if rng.next_int_bounded(10) == 0 {
                let text = MESSAGES[rng.next_int_bounded(MESSAGES.len() as i32) as usize];
                commands.push(Command::Message(text.to_string()));
            }
            if commands.is_empty() {
                commands.push(Command::Wait);
            }
            // Shuffle the pieces: their order does not matter.
            let n = commands.len() as i32;
            if n > 1 {
                let i = rng.next_int_bounded(n) as usize;
                commands.swap(0, i);
            }
            // Lines are in agent order, so the id may be left out.
            let agent = (rng.next_int_bounded(2) == 0).then_some(a.id);
            out.push(Order { agent, commands });
        }
        out
    }
}

impl Game for SoakOverflow {
    fn turn(&self) -> u32 {
        self.turns_done
    }

    fn to_move(&self) -> Vec<usize> {
        (0..PLAYERS).filter(|&s| self.asks(s)).collect()
    }

    fn input(&self, seat: usize) -> String {
        if seat >= PLAYERS {
            return String::new();
        }
        let first = self.turns_done == 0;
        let agents = self.agents_input.get_or_init(|| agents_lines(&self.board));
        let bytes = input_bytes(&self.board, &self.initial, seat, first, agents);
        // Only ASCII was written.
        let mut text = String::from_utf8(bytes).unwrap_or_default();
        if seat == 1 && self.board.league.opponent_follows() {
            text.push_str(&orders_text(&self.board, 0));
        }
        text
    }

    fn hear(&mut self, seat: usize, line: &str) -> LineOutcome {
        if !self.asks(seat) || self.complete[seat] {
            return LineOutcome::Done;
        }
        // Read at once (nothing is kept of the line); the orders are given when all are in.
        let own = self.board.live(seat).map(|a| a.id);
        let heard = &mut self.heard[seat];
        heard.read(line, own);
        // One line per own agent on the grid (`own` lists them).
        if heard.lines < heard.own.len() {
            return LineOutcome::More;
        }
        self.complete[seat] = true;
        match self.take_orders(seat) {
            None => LineOutcome::Done,
            Some(why) => {
                self.deactivate(seat, why.clone());
                LineOutcome::Fault(format!("{why}: {} loses", name(seat)))
            }
        }
    }

    fn fault(&mut self, seat: usize, kind: FaultKind) {
        if seat >= PLAYERS || self.outcome.is_some() {
            return;
        }
        if !self.complete[seat] {
            // The lines written so far are not read (the original reads none of them).
            self.heard[seat].lines = 0;
            self.complete[seat] = true;
        }
        let why = match kind {
            FaultKind::Timeout => {
                let n = self.board.live_count(seat);
                format!("did not give its {} in time", plural(n, "line"))
            }
            other => other.to_string(),
        };
        self.deactivate(seat, why);
    }

    fn step(&mut self) {
        self.agents_input = OnceLock::new();
        if self.outcome.is_some() {
            if !self.events.is_empty() {
                self.close_events(false, Vec::new());
            }
            return;
        }
        if self.board.league.opponent_follows() && !self.red_ready {
            // Red's orders are in; the opponent answers next, told them. Nothing moves yet.
            self.red_ready = true;
            self.last_log.clear();
            self.last_soaked = Arc::default();
            self.last_messages = Arc::default();
            self.events
                .push("red has given its orders: blue answers, told them".to_string());
            self.close_events(false, Vec::new());
            return;
        }
        self.red_ready = false;
        let occupied = if matches!(self.objective.as_ref(), Objective::RunAndGun { .. }) {
            let grid = &self.board.grid;
            let mut occupied = vec![false; grid.cells()];
            for a in &self.board.agents {
                if grid.inside(a.at) {
                    occupied[grid.index(a.at)] = true;
                }
            }
            occupied
        } else {
            Vec::new()
        };
        // The messages in the order of the agent list.
        let mut told = std::mem::take(&mut self.told);
        told.sort_by_key(|(id, _)| self.board.agents.iter().position(|a| a.id == *id));
        refill(&mut self.last_messages, told.into_iter());
        // The last turn's log is emptied and reused (a frame keeps a copy of its own).
        self.board.resolve(&mut self.last_log);
        self.turns_done += 1;
        // The events so far (faults) come before the resolution's, the end's after them.
        let before = std::mem::take(&mut self.events);
        self.check_end(&occupied);
        refill(
            &mut self.last_soaked,
            self.board.agents.iter().filter(|a| a.dying).cloned(),
        );
        self.board.start_turn();
        // Emptied, keeping their room for the next turn's lines.
        self.heard.iter_mut().for_each(Reading::clear);
        self.complete = [false; PLAYERS];
        self.close_events(true, before);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// A copy of the match is the frame's scene (without what the seats' lines gave this turn,
    /// which a frame never shows): the step's parts are written when read.
    fn frame(&self) -> Frame {
        let copy = SoakOverflow {
            board: self.board.clone(),
            objective: Arc::clone(&self.objective),
            red_ready: self.red_ready,
            initial: Arc::clone(&self.initial),
            turns_done: self.turns_done,
            lost: self.lost.clone(),
            heard: Default::default(),
            complete: self.complete,
            outcome: self.outcome.clone(),
            events: Vec::new(),
            last_events: self.last_events.clone(),
            last_log: self.last_log.clone(),
            last_soaked: Arc::clone(&self.last_soaked),
            told: Vec::new(),
            last_messages: Arc::clone(&self.last_messages),
            labels: Arc::clone(&self.labels),
            agents_input: OnceLock::new(),
        };
        Frame::new(
            self.turns_done,
            self.lost.iter().map(Option::is_some),
            Arc::new(copy),
        )
    }
}

/// Gives agent `id` what lines told it, slot by slot over what it was told before (its message
/// into `told`, which the match keeps apart from the agents).
fn give(agents: &mut [Agent], told: &mut Vec<(i32, String)>, id: i32, given: &mut Slots) {
    let Some(agent) = agents.iter_mut().find(|a| a.id == id) else {
        return;
    };
    let orders = &mut agent.orders;
    orders.to = given.to.or(orders.to);
    orders.combat = given.combat.or(orders.combat);
    if let Some(message) = given.message.take() {
        match told.iter_mut().find(|(who, _)| *who == id) {
            Some(slot) => slot.1 = message,
            None => told.push((id, message)),
        }
    }
}

// What a frame of this game writes when read, from the copy of the match it keeps.
scene_of_a_copy!(SoakOverflow, last_events);

impl Rules for SoakOverflow {
    /// One order per line written, in order.
    type Action = Vec<Order>;

    const INFO: &'static GameInfo = &INFO;

    fn create(setup: &Setup) -> Result<Self, SetupError> {
        setup.check_without_options(&INFO)?;
        let league = League::of_ruleset(&setup.ruleset);
        if setup.seed == 0 && league.uses_seed() {
            return Err(SetupError::BadOption {
                key: "seed".into(),
                value: "0".into(),
                why: "Soak Overflow maps need a nonzero seed (the original draws a random map \
                      for seed 0); pick another seed"
                    .into(),
            });
        }
        Ok(match league::scenario(league, setup.seed) {
            Some(s) => Self::from_board(
                Board::with_agents(Arc::new(s.grid), s.agents, league),
                s.objective,
            ),
            None => Self::from_board(
                Board::new(Arc::new(Grid::generate(setup.seed))),
                Objective::None,
            ),
        })
    }

    fn random_action(&self, seat: usize, rng: &mut JavaRandom) -> Vec<Order> {
        if self.outcome.is_some() || seat >= PLAYERS {
            return Vec::new();
        }
        self.random_orders(seat, rng)
    }

    fn write_action(&self, _seat: usize, action: &Vec<Order>) -> Vec<String> {
        action.iter().map(ToString::to_string).collect()
    }

    fn parse_action(&self, seat: usize, lines: &[String]) -> Result<Vec<Order>, String> {
        if seat >= PLAYERS {
            return Err(format!("no seat {seat}"));
        }
        let parsed = parse_lines(lines, &self.own_ids(seat));
        match parsed.error {
            Some(why) => Err(why),
            None => Ok(parsed.orders.into_iter().map(|(_, o)| o).collect()),
        }
    }

    fn apply(&mut self, seat: usize, action: &Vec<Order>) -> Result<(), String> {
        if !self.asks(seat) || self.complete[seat] {
            return Ok(());
        }
        let live = self.board.live_count(seat);
        if action.len() < live || self.heard[seat].lines > 0 {
            // Short of one line per agent (or after lines already heard): `hear` waits for the
            // rest, as it does for text.
            for line in self.write_action(seat, action) {
                if let LineOutcome::Fault(why) = self.hear(seat, &line) {
                    return Err(why);
                }
            }
            return Ok(());
        }
        // `hear` and `take_orders`, with the lines already parsed: line k is for agent k unless
        // it names one; lines past the last agent's are not read.
        self.complete[seat] = true;
        let own = self.own_ids(seat);
        let mut error = None;
        for (k, order) in action.iter().take(live).enumerate() {
            let Some(id) = order.agent.or_else(|| own.get(k).copied()) else {
                error.get_or_insert_with(|| format!("line {} names no agent", k + 1));
                continue;
            };
            if !own.contains(&id) {
                error.get_or_insert_with(|| {
                    format!("agent {id} is not one of your agents on the grid")
                });
                continue;
            }
            let mut given = Slots::default();
            for command in &order.commands {
                apply(&mut given, command);
            }
            give(&mut self.board.agents, &mut self.told, id, &mut given);
        }
        match error {
            None => Ok(()),
            Some(why) => {
                self.deactivate(seat, why.clone());
                Err(format!("{why}: {} loses", name(seat)))
            }
        }
    }
}
