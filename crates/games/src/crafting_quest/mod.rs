//! # Crafting Quest 3
//!
//! Two to four teams of ten units dig up resources on a square map, craft swords, armour,
//! towers and traps, and fight. This is the game of the AI-MAS Winter Olympics 2013 (UPB AI-MAS
//! lab, `asorici/cq3`, LGPL-3.0), played by the original server's rules with the bugs listed
//! under *Departures from the original* fixed. This rulebook states every fact and ruling the
//! game follows; the code cites its sections by name, as in "rulebook: *Facts*" (a `##` heading, or a
//! bold paragraph title within one).
//!
//! ## Facts
//!
//! | Item | Value |
//! |---|---|
//! | Players | 2–4, 10 units each; unit ids `seat × 10 + i` (seat 0 has units 0–9) |
//! | Map | square, 50–100 cells a side; Grass (walkable) or Rock; option `map`: `generated` (default), `v1`, `v2`, `v3` |
//! | Rounds | `v1` 80, `v2` 100, `v3` 120, generated maps side + 20 (option `rounds` overrides) |
//! | Turns | seats play one after another in seat order; a round is one turn of every seat |
//! | Energy | 200 at most ("life"); `e' = round(0.6·e + 0.4·life)` once per round per unit, at the start of its owner's turn |
//! | Gold | 200 per team at the start; picked-up gold goes to the team purse |
//! | Time | 1000 ms per turn, the first one too; at most 1000 requests per turn |
//!
//! ## Rules
//!
//! **Map.** Coordinates are `(x, y)`: x the column, y the row, `(0, 0)` top left. Units move to
//! any of the 8 neighbouring cells, never onto Rock or a tower; several units may share a cell.
//! Every unit sees the cells within 5 in both directions (an 11 × 11 square, through
//! everything); a tower sees as far as its range. Resources lie *buried* (their types are
//! visible in sight, their quantities only by digging) or in *visible piles* (dropped, or left
//! by dead units).
//!
//! **Energy.** Actions cost energy (below); an action the unit cannot pay fails with
//! `NoEnergyError` and changes nothing. At the start of its owner's turn each unit's energy
//! becomes `round(0.6·energy + 0.4·life)` (from 0: 80, 128, 157, 174, …). Attacks lower *life*
//! (the maximum energy); energy never exceeds life.
//!
//! | Action | Cost | Effect |
//! |---|---|---|
//! | move | 20 + 10 × carried weight | one step; every resource weighs 1 (gold 0), swords 5/7/10, armour 10/15/20 (equipped ones too) |
//! | attack | E (chosen, 1 ≤ E ≤ energy) | on an enemy unit in the same or a neighbouring cell: damage `round(E × (1 + 0.25·sword) × (1 − 0.25·armour))` |
//! | prepare | 0 | sets the unit's retaliation energy R and threshold T; they stay until changed |
//! | dig | 10 | tells the exact buried quantities of the unit's cell (kept until the turn ends) |
//! | pickup | 5 | takes resources (visible piles first, then buried) and dropped objects |
//! | drop | 0 | puts resources and objects on the cell as a visible pile |
//! | craft | 0 | a sword or an armour from a known blueprint and carried resources |
//! | equip | 0 | a carried sword or armour |
//! | placeTower | 75 | builds a tower on the unit's cell |
//! | placeTrap | 40 | hides a trap on the unit's cell |
//! | research | 50 and gold | the team learns the next level of a blueprint |
//! | view, state | 0 | report the unit and its sight (the original's `Nothing`), or the whole player state (`RequestState`) |
//!
//! **Retaliation.** When a unit is attacked and survives, it hits back at once if its R ≥ 1,
//! its energy ≥ T and its energy ≥ R: damage `round(R × (1 + its sword) × (1 − attacker's
//! armour))`, and it spends R.
//!
//! **Death.** A unit whose life falls to 0 or below dies: its killer's team scores a kill (a
//! kill by retaliation counts for the defender), it drops everything it carried (equipment
//! included) on its cell as a visible pile and respawns at once at its team's home with 200/200,
//! no equipment, no cargo, unfrozen. Its retaliation settings stay.
//!
//! **Pickup.** For each resource type asked: if the cell holds at least that many (visible and
//! buried together), the unit takes them, from the visible pile first; otherwise that type is
//! skipped and the answer says so. The pickup costs 5 either way. Digging first is not needed.
//! Gold goes to the team purse. Dropped objects are taken up to the count available.
//!
//! **Blueprints.** All level-1 blueprints are known at the start; `research` names a known
//! level L < 3 and teaches L + 1 for 50 energy and gold: sword and armour 200 (1→2) and 300
//! (2→3), tower 100 and 200, trap 50 and 100.
//!
//! | Object | Level 1 | Level 2 | Level 3 |
//! |---|---|---|---|
//! | sword (+25/50/75 % damage) | iron 10, stone 4, wood 4 | iron 20, stone 10, wood 10 | titanium 40, stone 20, wood 20 |
//! | armour (−25/50/75 % damage taken) | leather 20, stone 4, wood 4 | bronze 20, stone 10, wood 10 | iron 20, stone 20, wood 20, titanium 40 |
//! | tower (strength / range / drain) | iron 30, stone 30, wood 30 (312 / 5 / 125) | 40 each (375 / 6 / 150) | 50 each (437 / 7 / 175) |
//! | trap (freezes for level + 1 turns) | bronze 10, leather 10, wood 10 | iron 20, leather 20, wood 10 | iron 20, stone 20, wood 20 |
//!
//! **Towers.** A tower blocks its cell (units already there may leave). At the start of each
//! opponent's turn, after its energy is replenished, every tower drains each of that opponent's
//! units within its range (a Chebyshev box): `⌊drain / d⌋` energy with `d = round(Euclidean
//! distance)`, at least 1, never more than the tower's remaining strength. The unit loses that
//! much (not below 0) and the tower loses the full amount; a tower at strength 0 is removed.
//! Towers drain in the order they were placed, units in id order.
//!
//! **Traps.** A trap is seen only by its owner. Any unit moving into its cell (the owner's own
//! units too) springs it: the unit's energy becomes 0 and it stays at 0 for its owner's next
//! level + 1 turns; the trap is removed. A trap sprung by an opponent counts for its owner.
//!
//! **Turn.** At the start of a seat's turn its units are replenished and drained, their dig
//! results are cleared, and the bot gets the player state. It then sends requests, each
//! answered at once, and ends with the end line. A cell holds at most one tower or trap.
//!
//! ## Scoring
//!
//! - Kills: 10 points each, multiplied as the original server did: × (1 + placed towers / 20)
//!   and, when the team placed traps and at least one caught an enemy, × (3 × placed + sprung)
//!   / (3 × placed); rounded half up. Plus 150 per killing spree (a game-wide counter:
//!   a kill by the last killer adds one, by anyone else resets it; at 5 it scores a spree
//!   and resets, so the first spree is the 6th kill in a row) and 100 for first blood.
//! - Pickups: 1 point per 10 resource units taken out of the ground (buried only, gold
//!   included), counted over the whole match.
//! - Crafting: 5 × level per sword, armour, tower or trap made.
//!
//! The highest score wins; equal scores share a rank.
//!
//! ## Protocol
//!
//! Every message is one line of JSON. At the start of its turn a bot receives its player state:
//!
//! ```text
//! {"type":"turn","round":1,"rounds":70,"player":0,"players":2,"size":50,"home":[5,5],
//!  "gold":200,"actions_left":1000,"blueprints":{"sword":1,"armour":1,"tower":1,"trap":1},
//!  "score":0,"kills":0,"deaths":0,"towers":[],"traps":[],"units":[UNIT, …]}
//! ```
//!
//! (shown on several lines here; it is one line). `blueprints` gives the highest known level of
//! each kind; `towers` are the team's towers, each `{"x","y","level","strength","sight":SIGHT}`;
//! `traps` the team's traps `{"x","y","level"}`. A UNIT is:
//!
//! ```text
//! {"id":0,"x":3,"y":3,"energy":200,"life":200,"frozen":0,"sword":0,"armour":0,
//!  "retaliate":{"energy":0,"threshold":0},"resources":{"iron":10},
//!  "objects":[{"kind":"sword","level":1,"count":1}],"weight":15,"move_cost":170,
//!  "dig":{"x":3,"y":3,"resources":{"gold":60}},"sight":SIGHT}
//! ```
//!
//! `sword`/`armour` are the equipped levels (0: none), `frozen` the own turns still to spend at
//! 0 energy, `dig` the last dig of this turn (or `null`). A SIGHT is the square around the unit,
//! cut at the map's edges:
//!
//! ```text
//! {"x":0,"y":0,"rows":[".........","...gg....", …],
//!  "mixed":[{"x":7,"y":5,"types":["leather","iron"]}],
//!  "piles":[{"x":4,"y":2,"resources":{"stone":3},"objects":[]}],
//!  "towers":[{"x":8,"y":1,"player":1,"level":1,"strength":312}],
//!  "traps":[{"x":2,"y":6,"level":1}],
//!  "units":[{"player":1,"id":13,"x":6,"y":4,"energy":120,"life":200,"sword":1,"armour":0}]}
//! ```
//!
//! `x`/`y` are the top-left cell of `rows`; each row has one character per cell: `#` rock, `.`
//! grass with nothing buried, the letter of the buried type (`w`ood, `s`tone, `l`eather,
//! `b`ronze, `i`ron, `t`itanium, `g`old), or `*` when several types are buried there (listed
//! in `mixed`). `traps` lists only your own traps; `units` lists every unit in sight, yours too.
//!
//! Then the bot sends requests, one per line, and each is answered at once:
//!
//! ```text
//! {"unit":0,"type":"move","to":[4,4]}
//! {"unit":0,"type":"attack","target":{"player":1,"unit":13},"energy":120}
//! {"unit":0,"type":"prepare","energy":40,"threshold":60}
//! {"unit":0,"type":"dig"}
//! {"unit":0,"type":"pickup","resources":{"iron":10,"gold":5},"objects":[{"kind":"sword","level":1,"count":1}]}
//! {"unit":0,"type":"drop","resources":{"stone":4}}
//! {"unit":0,"type":"craft","blueprint":{"kind":"sword","level":1}}
//! {"unit":0,"type":"equip","item":{"kind":"sword","level":1}}
//! {"unit":0,"type":"placeTower","level":1}
//! {"unit":0,"type":"placeTrap","level":1}
//! {"unit":0,"type":"research","blueprint":{"kind":"trap","level":1}}
//! {"unit":0,"type":"view"}
//! {"type":"state"}
//! {"type":"end"}
//! ```
//!
//! (`research` names the blueprint the team knows, level L, and learns L + 1; `count` and
//! `threshold` may be left out: 1 and 0.) The answer to a request is one line:
//!
//! ```text
//! {"type":"result","result":"NoError","reason":"buried here: gold 60","actions_left":999,
//!  "gold":200,"blueprints":{"sword":1,"armour":1,"tower":1,"trap":1},"unit":UNIT}
//! ```
//!
//! with the original's result codes: `NoError`, `UnitIdError` (not your unit), `UnknownActionError`
//! (not JSON, no or unknown `type`), `OperandError` (a missing or ill-formed field, amounts
//! below 1), `MoveError` (not a neighbouring cell, or off the map), `TerrainError` (rock),
//! `ObstacleError` (a tower), `NoEnergyError`, `BuildError` (the cell already has a tower or a
//! trap), `CraftingError` (resources missing), `NoCreditError` (gold), `EquipmentMissingError`,
//! `BlueprintError` (no such blueprint), `MissingBlueprintError` (not researched yet),
//! `NoUpgradeError` (already the highest level), `PlayerIdError`, `ProximityError` (not next to
//! the target), `FriendlyFireError`. `unit` is the acting unit after the request (`null` when
//! the request named no unit of yours); `reason` says what happened in words (a pickup lists
//! what it took and what it skipped). `{"type":"state"}` is answered with the player state
//! (`"type":"state"`, `"result":"NoError"`). `{"type":"end"}` ends the turn and is not answered.
//!
//! **Limits.** Every request line counts, answered errors included. After the answer to the
//! 1000th request (`"actions_left":0`) the turn is over: the next line the bot writes, whatever
//! it is, is taken as the end of the turn and is not carried out. A bot that does not end its
//! turn within 1000 ms times out.
//!
//! ## Faults
//!
//! Malformed requests are never faults: they are answered with an error code and count as a
//! request. A timeout, a crash or too much output (the referee's limits) puts the seat out:
//! its bot is stopped, its units stay on the map (they can still be attacked and still
//! retaliate) and its turns are skipped; its score stays. When every seat is out the match ends.
//!
//! ## Maps
//!
//! `v1` (60 × 60), `v2` (80 × 80) and `v3` (100 × 100) are the three official maps of the 2013
//! tournament, complete: terrain, every buried resource with its quantity, the four start
//! positions (the homes, where dead units also respawn) and the rounds of each map's tournament
//! settings. They were converted from the original's map files and tournament settings in
//! `asorici/cq3` (LGPL-3.0); the files, their format, the licence texts and the attribution are
//! in `maps/`, and `Map::official` (`map.rs`) reads them, checking every count the file states. The
//! seed does not change an official map. Seats 1–4 take the original's players 1–4.
//!
//! | Map | Rock | Cells with resources | Wood | Stone | Leather | Bronze | Iron | Titanium | Gold | Rounds | Homes, seats 1–4 |
//! |---|---|---|---|---|---|---|---|---|---|---|---|
//! | `v1` | 154 | 800 | 2360 | 5640 | 5440 | 2720 | 3200 | 1560 | 6760 | 80 | (5,5) (54,54) (54,1) (5,58) |
//! | `v2` | 960 | 1184 | 5160 | 6120 | 4680 | 4320 | 4080 | 3040 | 8800 | 100 | (5,5) (74,74) (74,1) (5,78) |
//! | `v3` | 348 | 1768 | 24040 | 19360 | 19360 | 12480 | 24960 | 5760 | 3360 | 120 | (40,46) (59,53) (59,42) (40,57) |
//!
//! The figures per type are sums of the buried quantities. Resources lie in patches of one type:
//! 20–70 per cell on `v1`, 20–40 on `v2`, 10–130 on `v3`, where 96 cells hold two types (bronze
//! and iron, 130 each in the richest). Symmetry:
//!
//! - `v2` and `v3` are mirrored in both axes (x → side − 1 − x and y → side − 1 − y), terrain and
//!   resources: every home sees the same ground. On `v3` the homes are near the centre.
//! - `v1`'s terrain is mirrored left–right only, and so are its resources but for the wood strip
//!   in rows 0–1 (x 27–34, one cell right of the middle; the strip in rows 58–59, x 26–33, is
//!   centred): 8 cells differ from their mirror.
//! - `v1`'s top and bottom halves differ, in terrain (76 and 78 rock cells, laid out
//!   differently) and in resources. The top half (rows 0–29; seats 1 and 3) holds wood 1120,
//!   stone 4080, leather 2720, bronze 1040, iron 640, titanium 320, gold 3220 on 378 cells; the
//!   bottom half (seats 2 and 4) wood 1240, stone 1560, leather 2720, bronze 1680, iron 2560,
//!   titanium 1240, gold 3540 on 422 cells. In a match of two, seat 1 starts at the top left and
//!   seat 2 at the bottom right, so the two do not find the same resources.
//! - Two cells of `v1`, (22,27) and (37,27), hold 60 stone each under rock: they are in the map
//!   as the original has them and no unit can reach them.
//!
//! Units start as in the original (`GameGenerator.setupPlayerState`): each on the first free
//! grass cell of a 10 × 10 box near its home, scanned row by row from (x − 2, y − 2) to
//! (x + 7, y + 7) for a home in the left half, and backwards from (x + 2, y + 2) to
//! (x − 7, y − 7) in the right half. The maps' files list these cells, and the tests check them
//! against the rule; on all three maps they are a row of ten: on `v1` seat 1's units (ids 0–9)
//! stand on (3,3)…(12,3), seat 2's on (56,56)…(47,56), seat 3's on (56,3)…(47,3) and seat 4's
//! on (3,56)…(12,56).
//!
//! Generated maps (the default; option `size`, 50–100, default 50) are mirrored in both axes:
//! the four homes are the corners `(5, 5)`, `(size − 6, size − 6)`, `(size − 6, 5)`,
//! `(5, size − 6)` (seats 1–4; two players take opposite corners) and each sees the same
//! terrain and resources (three players use three of the four corners). Seat 1's units start
//! where the original's rule puts them for its home, the others' on the mirrored cells. About 3–10 % of the cells are rock walls, every grass cell is
//! reachable, and about 13–20 % of the grass holds buried resources in patches of one type
//! (10–130 per cell); every type is found in every quadrant.
//!
//! ## Departures from the original
//!
//! - Transport: a JSON line protocol instead of Java remote calls; requests map
//!   one to one onto the original operators and results use the original codes.
//! - Time: a turn is a conversation of at most 1000 requests within 1000 ms, instead of a
//!   wall-clock slot during which the server accepts calls; the bot ends its turn with
//!   `{"type":"end"}`. Running out of time is a fault (the bot is stopped, see Faults); in the
//!   original the slot simply ended.
//! - Energy is replenished once per round per unit, at the start of its owner's turn (the
//!   original replenished every unit at the start of every player's slot).
//! - Bugs fixed: research costs the intended gold (it was free) and 50 energy
//!   (the competition's rulebook says "gold and energy" and names no number: 50 is ours); retaliation settings
//!   persist per unit (any request wiped them); destroyed towers are removed from the map
//!   (they blocked their cell forever); attack energy must be at least 1 (negative energy
//!   healed).
//! - Scoring follows the competition's rulebook: kills ×10 with the original multipliers,
//!   sprees and first blood on the same scale, plus pickups and crafting (the original scored
//!   kills only).
//! - Traps are hidden from opponents (the original sent them to everyone).
//! - Moving onto the unit's own cell is refused with `MoveError` (the original accepted it and
//!   charged the move).
//! - Pickup and drop take resources and objects in one request (the original had one operator
//!   for each); a drop of gold is refused (gold is the team's).
//! - Towers drain in placement order and units in id order (the original's order was its lists'
//!   order).
//! - Generated maps are our own design within the rulebook's bounds (the original shipped its
//!   three maps only).
//! - A seat that faults is out for the rest of the match (the driver stops its bot).
//!
//! ## Version history
//!
//! 1. Initial version.
//! 2. The official maps `v1`–`v3` carry their original buried resources and the units' original
//!    starting cells (version 1 laid the resources out from the seed). Generated maps play as
//!    in version 1; replays of version 1 are refused.

use std::sync::Arc;

use engine::{
    FaultKind, Frame, Game, GameEntry, GameInfo, JavaRandom, LineOutcome, Outcome, Rules, Ruleset,
    Setup, SetupError, TurnOrder,
};

mod map;
mod protocol;
pub mod scenario;
mod state;
pub mod view;

#[cfg(test)]
mod tests;

use map::{Map, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
pub use protocol::{parse_request, write_request, Request};
use protocol::{write_answer, write_state, Clock};
pub use scenario::{Code, Kind};
use scenario::{MAX_ACTIONS, RESOURCES};
use state::{Answer, World};

/// The facts about the game.
pub static INFO: GameInfo = GameInfo {
    id: "crafting-quest",
    name: "Crafting Quest 3",
    version: 2,
    min_seats: 2,
    max_seats: 4,
    turn_order: TurnOrder::Alternating,
    // A player's slot is 1000 ms, the first one too (rulebook: *Facts*).
    first_turn_ms: 1000,
    turn_ms: 1000,
    rulesets: &[Ruleset {
        id: "standard",
        name: "AI-MAS Winter Olympics 2013",
        summary: "the official scenario, with the original server's bugs fixed (see the rules)",
    }],
    default_ruleset: "standard",
};

/// The maps the option `map` names, each with a few words (the page's map choice); the first
/// is the default.
pub const MAPS: [(&str, &str); 4] = [
    ("generated", "generated from the seed"),
    ("v1", "v1, official: 60 × 60, 80 rounds"),
    ("v2", "v2, official: 80 × 80, 100 rounds"),
    ("v3", "v3, official: 100 × 100, 120 rounds"),
];

/// The registry entry.
pub const ENTRY: GameEntry = GameEntry::of::<CraftingQuest>();

/// A match of Crafting Quest 3 in progress.
#[derive(Clone, Debug)]
pub struct CraftingQuest {
    world: World,
    rounds: u32,
    /// The round being played, 1-based (`rounds + 1` once over).
    round: u32,
    /// The seat whose turn it is.
    player: usize,
    /// Completed player slots (played or skipped).
    slots: u32,
    /// Request lines heard in the current turn.
    actions: u32,
    /// Per seat: out of the match after a fault; its slots are skipped.
    out: Vec<bool>,
    outcome: Option<Outcome>,
    events: Vec<String>,
    last_events: Arc<[String]>,
    last_strikes: Vec<[i32; 5]>,
    last_player: Option<usize>,
    /// Nobody reads the answers to requests (a re-run that only draws): they are left empty.
    replies_unread: bool,
}

impl CraftingQuest {
    /// The answer `write` writes, as a reply line (left empty when nobody reads replies).
    fn reply(&self, write: impl FnOnce() -> String) -> LineOutcome {
        if self.replies_unread {
            return LineOutcome::Reply(String::new());
        }
        LineOutcome::Reply(write() + "\n")
    }

    fn from_world(world: World, rounds: u32) -> CraftingQuest {
        let seats = world.seats;
        let mut game = CraftingQuest {
            world,
            rounds,
            round: 1,
            player: 0,
            slots: 0,
            actions: 0,
            out: vec![false; seats],
            outcome: None,
            events: Vec::new(),
            last_events: Arc::new([]),
            last_strikes: Vec::new(),
            last_player: None,
            replies_unread: false,
        };
        game.world.start_turn(0, &mut game.events);
        game.last_events = std::mem::take(&mut game.events).into();
        game
    }

    /// The seat to play, if the match is not over.
    pub fn to_move_seat(&self) -> Option<usize> {
        self.outcome.is_none().then_some(self.player)
    }

    fn clock(&self) -> Clock {
        Clock {
            round: self.round.min(self.rounds),
            rounds: self.rounds,
            actions_left: MAX_ACTIONS.saturating_sub(self.actions),
        }
    }

    /// The player state of `seat` as the line sent at the start of its turn.
    pub fn state_line(&self, seat: usize) -> String {
        if seat >= self.world.seats {
            return String::new();
        }
        let mut text = write_state(&self.world, seat, &self.clock(), "turn");
        text.push('\n');
        text
    }

    /// The turn's requests in one line for the frame's events.
    fn summarise(&mut self, seat: usize) {
        let t = std::mem::take(&mut self.world.tally);
        self.events.extend(t.events);
        let mut parts = Vec::new();
        let mut add = |n: u32, what: &str| {
            if n > 0 {
                parts.push(format!("{n} {what}{}", if n == 1 { "" } else { "s" }));
            }
        };
        add(t.moves, "move");
        add(t.digs, "dig");
        add(t.pickups, "pickup");
        add(t.drops, "drop");
        add(t.crafts, "craft");
        add(t.attacks, "attack");
        let mut line = format!(
            "seat {}: {} request{}",
            seat + 1,
            t.requests,
            if t.requests == 1 { "" } else { "s" }
        );
        if !parts.is_empty() {
            line.push_str(&format!(" ({})", parts.join(", ")));
        }
        if t.picked > 0 {
            line.push_str(&format!(
                ", {} resources picked up ({} from the ground)",
                t.picked, t.dug_up
            ));
        }
        if t.errors > 0 {
            line.push_str(&format!(", {} refused", t.errors));
        }
        self.events.push(line);
        self.last_strikes = t.strikes;
    }

    fn finish(&mut self, reason: String) {
        let scores: Vec<i64> = self.world.teams.iter().map(|t| t.score()).collect();
        self.events.push(reason.clone());
        self.outcome = Some(Outcome::from_scores(scores, reason));
    }

    /// Ends the current slot and starts the next seat's, skipping seats that are out.
    fn advance(&mut self) {
        loop {
            self.slots += 1;
            self.player += 1;
            if self.player >= self.world.seats {
                self.player = 0;
                self.round += 1;
            }
            if self.round > self.rounds {
                self.finish(format!("{} rounds played", self.rounds));
                return;
            }
            if self.out.iter().all(|&o| o) {
                self.finish("every bot is out".to_string());
                return;
            }
            self.actions = 0;
            self.world.start_turn(self.player, &mut self.events);
            if !self.out[self.player] {
                return;
            }
        }
    }

    /// A move of `u` to a random grass cell beside it (or east, off the map, if none).
    fn random_step(scratch: &World, u: &state::Unit, rng: &mut JavaRandom) -> Request {
        let mut options = Vec::new();
        for dy in -1..=1 {
            for dx in -1..=1 {
                let (x, y) = (u.x + dx, u.y + dy);
                if (dx, dy) != (0, 0) && scratch.map.grass(x, y) {
                    options.push((x, y));
                }
            }
        }
        let (x, y) = if options.is_empty() {
            (u.x + 1, u.y)
        } else {
            options[rng.next_int_bounded(options.len() as i32) as usize]
        };
        Request::Move {
            unit: u.id as i64,
            x: x.into(),
            y: y.into(),
        }
    }

    /// A pickup by `u` of one resource found on its cell (buried or in a pile): all of it or a
    /// random amount, with a sword when the pile holds objects.
    fn random_pickup(scratch: &World, u: &state::Unit, rng: &mut JavaRandom) -> Request {
        let c = scratch.idx(u.x, u.y);
        let pile = scratch.piles.get(&c);
        let here: Vec<usize> = (0..RESOURCES.len())
            .filter(|&r| scratch.buried[c][r] > 0 || pile.is_some_and(|p| p.res[r] > 0))
            .collect();
        let r = if here.is_empty() {
            rng.next_int_bounded(RESOURCES.len() as i32) as usize
        } else {
            here[rng.next_int_bounded(here.len() as i32) as usize]
        };
        let all = i64::from(scratch.buried[c][r]) + i64::from(pile.map_or(0, |p| p.res[r]));
        let q = if rng.next_int_bounded(2) == 0 && all > 0 {
            all
        } else {
            1 + i64::from(rng.next_int_bounded(40))
        };
        let mut resources = [None; 7];
        resources[r] = Some(q);
        let mut objects = Vec::new();
        if pile.is_some_and(|p| p.items.iter().flatten().any(|&n| n > 0)) {
            objects.push((Kind::Sword, 1, 1));
        }
        Request::Pickup {
            unit: u.id as i64,
            resources,
            objects,
        }
    }

    /// An attack by `u` on the first other seat's unit beside it, or a view when there is none
    /// (or `u` has no energy).
    fn random_attack(
        scratch: &World,
        seat: usize,
        u: &state::Unit,
        rng: &mut JavaRandom,
    ) -> Request {
        let unit = u.id as i64;
        let near: Vec<&state::Unit> = scratch
            .units
            .iter()
            .filter(|v| v.seat != seat && (v.x - u.x).abs() <= 1 && (v.y - u.y).abs() <= 1)
            .collect();
        match near.first() {
            Some(v) if u.energy > 0 => Request::Attack {
                unit,
                player: v.seat as i64,
                target: v.id as i64,
                energy: 1 + i64::from(rng.next_int_bounded(u.energy.max(1))),
            },
            _ => Request::View { unit },
        }
    }

    /// A random, mostly legal request for one of the seat's units, tried on `scratch` so that
    /// the next request sees its effect.
    fn random_request(scratch: &World, seat: usize, rng: &mut JavaRandom) -> Request {
        let units = scratch.team_units(seat);
        let u = &units[rng.next_int_bounded(units.len().max(1) as i32) as usize];
        let unit = u.id as i64;
        let size = scratch.size() as i32;
        let roll = rng.next_int_bounded(100);
        match roll {
            0..=29 => Self::random_step(scratch, u, rng),
            30..=41 => Request::Dig { unit },
            42..=54 => Self::random_pickup(scratch, u, rng),
            55..=61 => {
                let r = rng.next_int_bounded(6) as usize;
                let mut resources = [None; 7];
                resources[r] = Some(1 + i64::from(rng.next_int_bounded(30)));
                Request::Drop {
                    unit,
                    resources,
                    objects: Vec::new(),
                }
            }
            62..=67 => Request::Craft {
                unit,
                kind: [Kind::Sword, Kind::Armour][rng.next_int_bounded(2) as usize],
                level: 1 + i64::from(rng.next_int_bounded(8) / 6),
            },
            68..=71 => Request::Equip {
                unit,
                kind: [Kind::Sword, Kind::Armour][rng.next_int_bounded(2) as usize],
                level: 1,
            },
            72..=79 => Self::random_attack(scratch, seat, u, rng),
            80..=84 => Request::Prepare {
                unit,
                energy: i64::from(rng.next_int_bounded(80)),
                threshold: i64::from(rng.next_int_bounded(120)),
            },
            85..=86 => Request::PlaceTrap { unit, level: 1 },
            87 => Request::PlaceTower { unit, level: 1 },
            88..=89 => Request::Research {
                unit,
                kind: Kind::ALL[rng.next_int_bounded(4) as usize],
                level: 1 + i64::from(rng.next_int_bounded(2)),
            },
            90..=92 => Request::View { unit },
            93 => Request::State,
            94 => Request::Move {
                unit,
                x: i64::from(rng.next_int_bounded(size)),
                y: i64::from(rng.next_int_bounded(size)),
            },
            95 => Request::Attack {
                unit,
                player: seat as i64,
                target: unit,
                energy: 10,
            },
            96 => Request::Dig {
                unit: i64::from(rng.next_int_bounded(60)) - 10,
            },
            97 => Request::Craft {
                unit,
                kind: Kind::Tower,
                level: 1,
            },
            _ => Request::Pickup {
                unit,
                resources: [Some(0), None, None, None, None, None, None],
                objects: Vec::new(),
            },
        }
    }
}

impl Game for CraftingQuest {
    fn turn(&self) -> u32 {
        self.slots
    }

    fn to_move(&self) -> Vec<usize> {
        self.to_move_seat().into_iter().collect()
    }

    fn input(&self, seat: usize) -> String {
        self.state_line(seat)
    }

    fn hear(&mut self, seat: usize, line: &str) -> LineOutcome {
        if self.outcome.is_some() || seat != self.player || self.actions >= MAX_ACTIONS {
            return LineOutcome::Done;
        }
        let request = match parse_request(line) {
            Ok(Request::End) => return LineOutcome::Done,
            Ok(r) => r,
            Err((code, reason)) => {
                self.actions += 1;
                self.world.tally.requests += 1;
                self.world.tally.errors += 1;
                let answer = Answer {
                    code,
                    reason,
                    unit: None,
                };
                return self.reply(|| {
                    let left = MAX_ACTIONS - self.actions;
                    write_answer(&self.world, seat, &answer, left)
                });
            }
        };
        self.actions += 1;
        if request == Request::State {
            self.world.tally.requests += 1;
            return self.reply(|| write_state(&self.world, seat, &self.clock(), "state"));
        }
        let answer = self.world.act(seat, &request);
        self.reply(|| {
            let left = MAX_ACTIONS - self.actions;
            write_answer(&self.world, seat, &answer, left)
        })
    }

    fn replies_unread(&mut self) {
        self.replies_unread = true;
    }

    fn fault(&mut self, seat: usize, kind: FaultKind) {
        if self.outcome.is_some() || seat >= self.out.len() || self.out[seat] {
            return;
        }
        self.out[seat] = true;
        self.events.push(format!(
            "seat {} is out ({kind}): its units stay and play no more",
            seat + 1
        ));
    }

    fn step(&mut self) {
        if self.outcome.is_some() {
            if !self.events.is_empty() {
                self.last_events = std::mem::take(&mut self.events).into();
            }
            return;
        }
        let seat = self.player;
        self.summarise(seat);
        for u in self.world.units.iter_mut().filter(|u| u.seat == seat) {
            u.dig = None;
        }
        self.last_player = Some(seat);
        self.advance();
        self.last_events = std::mem::take(&mut self.events).into();
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn frame(&self) -> Frame {
        Frame::new(
            self.slots,
            self.out.iter().copied(),
            Arc::new(view::Picture::of(self)),
        )
    }
}

/// Reads the setup options: the map, its size and the number of rounds.
fn map_of(setup: &Setup) -> Result<(Map, u32), SetupError> {
    let bad = |key: &str, value: &str, why: &str| SetupError::BadOption {
        key: key.to_string(),
        value: value.to_string(),
        why: why.to_string(),
    };
    for key in setup.options.keys() {
        if !["map", "size", "rounds"].contains(&key.as_str()) {
            return Err(SetupError::UnknownOption(key.clone()));
        }
    }
    let name = setup.options.get("map").map_or("generated", String::as_str);
    let size = match setup.options.get("size") {
        None => None,
        Some(v) => Some(
            v.parse::<usize>()
                .ok()
                .filter(|n| (MIN_SIZE..=MAX_SIZE).contains(n))
                .ok_or_else(|| bad("size", v, "a side from 50 to 100 is needed"))?,
        ),
    };
    let map = match name {
        "generated" | "gen" => Map::generate(size.unwrap_or(DEFAULT_SIZE), setup.seed),
        "v1" | "v2" | "v3" => {
            if let Some(v) = setup.options.get("size") {
                return Err(bad("size", v, "the official maps have their own size"));
            }
            Map::official(name).ok_or_else(|| bad("map", name, "the map file cannot be read"))?
        }
        other => return Err(bad("map", other, "known maps: v1, v2, v3, generated")),
    };
    let rounds = match setup.options.get("rounds") {
        None => map.rounds,
        Some(v) => v
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=1000).contains(n))
            .ok_or_else(|| bad("rounds", v, "from 1 to 1000"))?,
    };
    Ok((map, rounds))
}

impl Rules for CraftingQuest {
    /// The requests of one turn, in order; the end-of-turn line follows them.
    type Action = Vec<Request>;

    const INFO: &'static GameInfo = &INFO;

    fn create(setup: &Setup) -> Result<Self, SetupError> {
        setup.check(&INFO)?;
        let (map, rounds) = map_of(setup)?;
        let world = World::new(Arc::new(map), setup.seats);
        Ok(Self::from_world(world, rounds))
    }

    fn random_action(&self, seat: usize, rng: &mut JavaRandom) -> Vec<Request> {
        if self.outcome.is_some() || seat != self.player {
            return Vec::new();
        }
        let mut scratch = self.world.clone();
        let n = rng.next_int_bounded(13);
        let mut out = Vec::new();
        for _ in 0..n {
            let request = Self::random_request(&scratch, seat, rng);
            let _ = scratch.act(seat, &request);
            out.push(request);
        }
        out
    }

    fn write_action(&self, _seat: usize, action: &Vec<Request>) -> Vec<String> {
        action
            .iter()
            .chain(std::iter::once(&Request::End))
            .map(write_request)
            .collect()
    }

    fn parse_action(&self, _seat: usize, lines: &[String]) -> Result<Vec<Request>, String> {
        let Some((last, requests)) = lines.split_last() else {
            return Err("no lines".to_string());
        };
        if parse_request(last) != Ok(Request::End) {
            return Err(format!("the last line must end the turn: {last}"));
        }
        requests
            .iter()
            .map(|line| match parse_request(line) {
                Ok(Request::End) => Err("an end line before the last".to_string()),
                Ok(r) => Ok(r),
                Err((code, why)) => Err(format!("{}: {why}", code.name())),
            })
            .collect()
    }

    fn apply(&mut self, seat: usize, action: &Vec<Request>) -> Result<(), String> {
        // `hear` for each request line, without writing the answers; the end line follows.
        for request in action {
            if self.outcome.is_some() || seat != self.player || self.actions >= MAX_ACTIONS {
                return Ok(());
            }
            if *request == Request::End {
                return Ok(());
            }
            self.actions += 1;
            if *request == Request::State {
                self.world.tally.requests += 1;
            } else {
                let _ = self.world.act(seat, request);
            }
        }
        Ok(())
    }
}
