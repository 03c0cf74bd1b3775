//! # Skyport
//!
//! Robots fight on the floating ruins of an old star port: they move over a map of hexagons,
//! mine resources, upgrade their two weapons and shoot each other for points. This is the AI
//! competition of The Gathering 2013 ("SKYPORT REV 1"), played with its JSON protocol. The
//! competition's own rulebook (REV 1, in Norwegian) is the default ruleset; where it is silent,
//! the 2013 server's behaviour is followed. This rulebook states every fact the module
//! implements; the code cites its sections by name, as in "rulebook: *Facts*".
//!
//! ## Facts
//!
//! | Item | Value |
//! |---|---|
//! | Players | 2 to 8, one per spawn tile of the map; turn order and spawns from two seeded shuffles |
//! | Map | a rhombus of D × D hexagons (see *The map*); ours: `duel-2p` (D 13), `triad-3p` (16), `crossroads-4p` (21), `archipelago-8p` (30); 5–7 players use the 8-player map |
//! | Length | 50 rounds (option `rounds`, 1–1000): each player has one turn per round |
//! | Turn | up to three actions; 1000 ms (the first turn too) |
//! | Health | 100; no regeneration |
//! | Weapons | laser, mortar, droid; each robot picks two different ones; levels 1–3 |
//! | Upgrades | 4 resources to level 2, 5 more to level 3 (rubidium: laser, explosium: mortar, scrap: droid) |
//! | Resource tiles | 2 units each, then grass |
//! | Scoring | + damage dealt to others, + 20 per kill; − 80 when destroyed (`tg2013`: − 40); − 10 for a turn without a valid action; − 10 for ending a turn on the spawn tile |
//!
//! ## The map
//!
//! Tile `(j, k)`, with `0 ≤ j, k < D`: (0,0) is the top tile, J grows down-left and K
//! down-right, so (1,1) is straight below (0,0). The six neighbours of a tile are `up` (j−1,
//! k−1), `down` (j+1, k+1), `left-down` (j+1, k), `right-down` (j, k+1), `left-up` (j, k−1) and
//! `right-up` (j−1, k). The distance between two tiles is `max(|Δj|, |Δk|, |Δj − Δk|)`.
//!
//! Tiles: `G` grass; `E` explosium, `R` rubidium, `C` scrap (resource tiles, 2 units each; a
//! mined-out tile becomes grass) — robots may stand on these four; `V` void, `S` spawn, `O`
//! rock — robots may not. Only one robot stands on a tile, and a destroyed robot's wreck keeps
//! its tile until it respawns. A robot leaves its spawn tile and can never go back.
//!
//! Map files (`maps/*.skyportmap`) use the original format: the lines `players N`, `size D`
//! and `description "text"`, then a drawing of the hexagons; with `/ \ _`, spaces and tabs
//! removed, each line that is left is one row of tiles with equal `j + k`, top down, each row
//! from its largest `j` (see [`map`]). Our four maps are our own (the originals carry no
//! license), sized like the originals and symmetric: every spawn has the same surroundings
//! (the 2- and 4-player maps have the rhombus's mirror symmetries, the 3-player map is a
//! hexagon turned by 120°, and the 8 spawns of the 8-player map are two mirror-symmetric sets
//! of four with identical nests and equal distances to their nearest neighbours).
//!
//! ## A match
//!
//! 1. **Handshake.** Every robot answers `{"message":"connect","revision":1,"name":NAME}`. The
//!    revision must be 1; the name 3 to 16 characters of `a-z A-Z 0-9 - _ +`. An invalid
//!    handshake is answered with an error object and the robot may try again.
//! 2. **Loadout.** Every robot receives the turn-0 game state (the names and the map) and
//!    answers `{"message":"loadout","primary-weapon":W1,"secondary-weapon":W2}`, two different
//!    weapons of `laser`, `mortar`, `droid`, both at level 1. Then everyone gets
//!    `{"message":"endturn"}` and the first round begins.
//! 3. **Turns.** The robots play one at a time in the turn order, a round after another. At the
//!    start of a turn everyone receives the game state. The robot to move sends up to three
//!    action messages, which are carried out in order as they arrive. A valid shot ends the
//!    turn's effects: later actions of the turn are ignored. A robot may end its turn early
//!    with `{"message":"endturn"}`. After the turn everyone receives `{"message":"endturn"}`
//!    and then every valid action of the turn with `"from":NAME` added.
//! 4. **Penalties** after a turn: −10 if none of its actions was valid (a turn ended by a valid
//!    shot is never penalised this way; nothing at all, a disconnected robot and a timed-out
//!    turn count as no valid action); −10 if the robot ends its turn on its spawn tile.
//! 5. **Destruction.** A robot whose health reaches 0 is destroyed: −80 points (−40 in
//!    `tg2013`), and +20 for the robot that destroyed it. The wreck stays where it is. The
//!    destroyed robot misses its next turn entirely (no game state is sent for it); when its
//!    turn comes again it is back on its spawn tile with 100 health and its weapons, levels
//!    and resources, and plays normally — and must then leave the spawn tile (step 4).
//! 6. **The end.** After the last round everyone receives
//!    `{"message":"endactions","winner":NAME}` (`null` for a tie). The highest score wins;
//!    equal scores share a rank.
//!
//! ## Actions
//!
//! An action uses one of the turn's three slots, valid or not. Each slot has a bonus: 2 unused
//! actions in the first slot, 1 in the second, 0 in the third, whatever the earlier slots did.
//!
//! - **move** `{"message":"action","type":"move","direction":DIR}`: one tile, onto a free
//!   walkable tile.
//! - **mine** `{"type":"mine"}`: on a resource tile, +1 of its resource; the tile loses one.
//! - **upgrade** `{"type":"upgrade","weapon":W}`: a weapon of the loadout, from level 1 to 2 for
//!   4 of its resource or from 2 to 3 for 5; the resources are used up.
//! - **laser** `{"type":"laser","direction":DIR}`: a beam from the next tile outwards, up to the
//!   range; it stops before a rock or at the map's edge, flies over void and spawn tiles, and
//!   hits every robot on its way.
//! - **mortar** `{"type":"mortar","coordinates":"dj,dk"}`: a shell on the tile `(dj, dk)` away
//!   (relative to the shooter; spaces allowed), within the range (hex distance; `0,0` is the
//!   shooter itself). It flies over anything. On rock or void it does nothing (the shot still
//!   counts and ends the turn); elsewhere it hits the robot on the tile with its damage and the
//!   robots on the six neighbouring tiles with the area damage. A target out of range, off the
//!   map or not written as two integers is an invalid action (no error message).
//! - **droid** `{"type":"droid","sequence":[DIR,...]}`: a droid walks the steps, at most its
//!   range; it stops before a tile it cannot enter (off the map, void, rock, spawn; robots do
//!   not stop it) and explodes where it is: its damage on that tile, its area damage on the six
//!   neighbours. Without a step it explodes on the shooter. A longer sequence is cut to the
//!   range (with an error message, but the droid goes); an unknown direction makes the action
//!   invalid. The hyphenated names are the directions; the droid also takes the documentation's
//!   `rightUp`, `rightDown`, `leftUp`, `leftDown`.
//!
//! Damage to a robot is `round(d + 0.2 · bonus · d)` for the weapon's damage `d` (or its area
//! damage), rounded half up. Damage to a destroyed robot is ignored. Damage a robot does to
//! itself scores nothing (but it can destroy itself: the penalty applies). Damage counts in
//! full for points, even beyond the victim's remaining health.
//!
//! | weapon, level | range | damage | area damage |
//! |---|---|---|---|
//! | laser 1 / 2 / 3 | 5 / 6 / 7 tiles | 16 / 18 / 22 | — |
//! | mortar 1 / 2 / 3 | 2 / 3 / 4 | 20 / 20 / 25 | 2 (`tg2013`: 18) |
//! | droid 1 / 2 / 3 | 3 / 4 / 5 steps | 22 / 24 / 26 | 10 |
//!
//! **Spawn tiles.** A robot on a spawn tile may only move (REV 1; `tg2013` also allows upgrades);
//! shots from it are invalid. In REV 1, damage aimed at a robot standing on a spawn tile hits
//! the attacker instead, and a mortar shell on a spawn tile explodes as on grass. In `tg2013`
//! a robot on a spawn tile is simply unharmed and a shell on a spawn tile does nothing.
//!
//! ## Protocol
//!
//! One JSON object per line in each direction. The server writes:
//!
//! ```text
//! {"message":"info","ruleset":"rev1","rounds":50,"players":2,"timeout":1000,"map":"duel-2p"}
//! {"message":"connect","status":true}
//! {"message":"gamestate","turn":0,"players":[{"name":"bravo"},{"name":"alpha"}],"map":{...}}
//! {"message":"endturn"}
//! {"message":"gamestate","turn":1,"players":[P,...],"map":{"j-length":D,"k-length":D,"data":[["V","G",...],...]}}
//! {"message":"action","type":"move","direction":"down","from":"alpha"}
//! {"error":"Invalid move packet: Invalid move: ROCK tile is not accessible"}
//! {"message":"endactions","winner":"alpha"}
//! ```
//!
//! A player object is `{"name":..,"health":..,"score":..,"position":"j,k","primary-weapon":
//! {"name":"laser","level":1},"secondary-weapon":{...}}`; the receiver's own object also has
//! `"resources":{"rubidium":n,"explosium":n,"scrap":n}`. `players` lists the turn order from
//! the robot whose turn it is (at turn 0, from the last of the order, as the 2013 server did);
//! `data[j][k]` is the tile `(j, k)`; `turn` counts played turns from 1. The robot to move gets
//! the game state as its input, the others at the same time; so a robot knows its turn by
//! `players[0]` being itself — the one object with `resources`.
//!
//! Errors, with the original server's texts: for the handshake `Expected 'connect' handshake,
//! but got 'X' key`, `Wrong protocol revision: supporting 1, but got N`, `Username too short:
//! needs to be 3 characters or longer.`, `Username too long: needs to be 16 characters or
//! less.`, `Username contains invalid characters. May only contain a-z, A-Z, 0-9, -, _, +.`;
//! for the loadout `Expected 'loadout', but got 'X' key`, `Invalid primary weapon: 'X'` (or
//! secondary), `Invalid loadout: Can't have the same weapon twice.`; for any line `Invalid
//! packet received: ...` (not a JSON object) and `Invalid or incomplete packet: ...` (a missing
//! key); during a turn `Unexpected message, got 'X' but expected 'action'`, `Invalid action: X`,
//! `Invalid move packet: Invalid direction: 'X'`, `Invalid move packet: Invalid move: tile DIR
//! is not accessible (outside of map)`, `Invalid move packet: Invalid move: ROCK tile is not
//! accessible` (VOID, SPAWN), `Invalid move packet: Player NAME is already on this tile.`,
//! `Invalid shot: lacks a direction key`, `Invalid shot: unknown direction 'X'`, `Invalid shot:
//! lacks 'coordinates' key`, `Invalid shot: unknown direction in droid sequence`, `Got N
//! commands for the droid, but your droids level (L) only supports R steps.`, `Tried to mine
//! while not on a resource tile!`. As in 2013 these fail silently: an action without a type, a
//! shot from a spawn tile or with a weapon not in the loadout, a mortar target out of range (or,
//! ours, off the map or malformed), and every upgrade that cannot be done. Lines that are not
//! actions (errors, `endturn`, a repeated loadout) do not use a slot.
//!
//! **Faults.** No line is a fault: the original answered everything with an error object. A
//! turn that is still open at its time budget, a bot that crashes and a flood end the turn;
//! the game goes on, and the robot stays on the map (as a disconnected AI did in 2013). A bot
//! that misses the handshake plays as `playerN`; one that misses the loadout gets the laser
//! and the mortar.
//!
//! ## Rulesets
//!
//! | Ruleset | What it is |
//! |---|---|
//! | `rev1` (default) | the rulebook REV 1 of our seed: destroyed −80, mortar area damage 2, damage aimed at a robot on a spawn tile comes back to the attacker, a shell on a spawn tile explodes, only moves on a spawn tile |
//! | `tg2013` | the server of the competition (and the final documentation): destroyed −40, mortar area damage 18, robots on spawn tiles unharmed, a shell on a spawn tile does nothing, upgrades allowed on a spawn tile |
//!
//! ## Departures from the original
//!
//! - *Game length*: a fixed number of rounds (50) instead of the 2013 server's wall-clock
//!   game time; the end message `endactions` (the 2014 server's name; 2013 sent none).
//! - *Conversation*: the server speaks first with an `info` line (after the 2014 server's),
//!   because a bot on standard input is only ever answered; `botplay host` does not send it
//!   over TCP. Actions are carried out as they arrive rather than after the deadline, so errors
//!   come at once (an error of a turn's third action comes right after it, before `endturn`).
//!   The turn ends after three action messages or `{"message":"endturn"}` (our extension)
//!   instead of always at the deadline; a turn still open at its budget ends as in 2013 under
//!   `botplay host`, and is recorded as a timeout elsewhere (where the drivers then stop the
//!   bot, as in every game).
//! - *Positions* are written `"j,k"` (the documentation's form; the 2013 server wrote `"j, k"`)
//!   and read leniently everywhere.
//! - *Mortar targets* that are malformed or off the map are invalid actions (the 2013 server
//!   crashed on the first and clamped the second to the map's edge).
//! - *Own resources* are added to the receiver's own player object (others' stay hidden).
//! - *Names* need not be unique (as in 2013), but points and kills follow robots, not names
//!   (the 2013 server compared names, so same-named robots could not score on each other).
//! - *Maps* are our own; unused spawn tiles of a map made for more players stay spawn tiles.
//! - *Handshake and loadout* are asked of every bot at once, each with the turn budget; the
//!   2013 server waited for them without limit.
//! - *Map files* with a row of the wrong length are refused (the 2013 parser skipped the row).
//! - The frames show one picture per turn with every action's result in words.
//!
//! ## Version history
//!
//! 1. Initial version: REV 1 and `tg2013`, four maps.

use std::sync::{Arc, OnceLock};

use engine::{
    FaultKind, Frame, Game, GameEntry, GameInfo, JavaRandom, LineOutcome, Outcome, Rules, Ruleset,
    Setup, SetupError, TurnOrder,
};
use serde_json::{Map as JsonMap, Value};

mod hex;
pub mod map;
mod protocol;
mod state;
pub mod view;

#[cfg(test)]
mod tests;

pub use hex::{distance, Dir, Pos};
pub use map::{Map, MapError, Resource, Tile};
pub use protocol::{order_line, Action, Order, Weapon};
/// The pure helpers a bot may use too (the built-in bots do).
pub use state::{loadout_level, upgrade_resource, weapon_stats, with_bonus};
pub use view::View;

use protocol::{
    action_lines, error_line, not_found, order_object, parse_action_lines, parse_object, shown,
};
use state::{Effect, Hit, Params, World, REV1, TG2013, TURN_PENALTY};

/// The rounds of a match unless the `rounds` option says otherwise.
pub const DEFAULT_ROUNDS: u32 = 50;
/// The most rounds the `rounds` option allows.
pub const MAX_ROUNDS: u32 = 1000;
/// Actions per turn.
pub const ACTIONS_PER_TURN: u8 = 3;

/// The facts about the game.
pub static INFO: GameInfo = GameInfo {
    id: "skyport",
    name: "Skyport",
    version: 1,
    min_seats: 2,
    max_seats: 8,
    turn_order: TurnOrder::Alternating,
    first_turn_ms: 1000,
    turn_ms: 1000,
    rulesets: &[
        Ruleset {
            id: "rev1",
            name: "REV 1: the rulebook",
            summary: "the rulebook's numbers: a destroyed robot loses 80 points, mortar area \
                      damage 2; damage aimed at a robot on its spawn tile hits the attacker",
        },
        Ruleset {
            id: "tg2013",
            name: "The Gathering 2013",
            summary: "the competition server's numbers: a destroyed robot loses 40 points, \
                      mortar area damage 18; robots on spawn tiles are unharmed",
        },
    ],
    default_ruleset: "rev1",
};

/// The registry entry.
pub const ENTRY: GameEntry = GameEntry::of::<Skyport>();

/// Where a match is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Phase {
    /// Every seat is asked for its handshake.
    Connect,
    /// Every seat is sent the turn-0 game state and asked for its loadout.
    Loadout,
    /// One seat's turn at a time.
    Play,
    Over,
}

/// The turn being played.
#[derive(Clone, Debug, Default)]
struct TurnState {
    /// Action messages heard.
    actions: u8,
    valid: u8,
    /// A valid shot ended the turn's effects (later actions are ignored).
    shot: bool,
    /// The valid actions, to broadcast (without their closing `"from"` part).
    broadcasts: Vec<String>,
}

/// The shipped maps, parsed once.
fn shipped_maps() -> &'static [Arc<Map>] {
    static MAPS: OnceLock<Vec<Arc<Map>>> = OnceLock::new();
    MAPS.get_or_init(|| {
        map::MAPS
            .iter()
            .filter_map(|(name, text)| Map::parse(name, text).ok().map(Arc::new))
            .collect()
    })
}

/// A match of Skyport in progress.
#[derive(Clone, Debug)]
pub struct Skyport {
    ruleset: &'static str,
    world: World,
    phase: Phase,
    rounds: u32,
    /// The seats in turn order.
    ring: Vec<usize>,
    /// The ring slot being played: round `slot / seats`, seat `ring[slot % seats]`.
    slot: u32,
    /// The seat whose turn it is (in play).
    active: usize,
    /// The number of the current (or last) game state's turn: counts played turns from 1.
    turn: u32,
    /// Turns played to their end.
    completed: u32,
    /// Setup phases: which seats have answered.
    answered: Vec<bool>,
    cur: TurnState,
    /// The map's `data` array as JSON, and the tiles version it was made from.
    map_json: Arc<str>,
    map_version: u32,
    /// The active seat's game state, made when its turn began.
    input_text: String,
    notices: Vec<(usize, String)>,
    events: Vec<String>,
    effects: Vec<(usize, Effect)>,
    hits: Vec<Hit>,
    last_events: Arc<[String]>,
    last_effects: Vec<(usize, Effect)>,
    last_hits: Vec<Hit>,
    last_player: Option<usize>,
    outcome: Option<Outcome>,
}

/// The 2013 server's name rule: 3 to 16 characters from `a-z A-Z 0-9 - _ +`.
pub fn check_name(name: &str) -> Result<(), &'static str> {
    let len = name.encode_utf16().count();
    if len < 3 {
        return Err("Username too short: needs to be 3 characters or longer.");
    }
    if len > 16 {
        return Err("Username too long: needs to be 16 characters or less.");
    }
    if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '+'))
    {
        return Err(
            "Username contains invalid characters. May only contain a-z, A-Z, 0-9, -, _, +.",
        );
    }
    Ok(())
}

impl Skyport {
    fn params(ruleset: &str) -> Params {
        if ruleset == "tg2013" {
            TG2013
        } else {
            REV1
        }
    }

    /// A match on a map: seat `i` starts on `spawns[i]`; `ring` is the turn order.
    fn build(
        map: Arc<Map>,
        ruleset: &'static str,
        rounds: u32,
        spawns: &[Pos],
        ring: Vec<usize>,
    ) -> Skyport {
        let seats = spawns.len();
        let world = World::new(map, Self::params(ruleset), spawns);
        let mut game = Skyport {
            ruleset,
            world,
            phase: Phase::Connect,
            rounds,
            ring,
            slot: 0,
            active: 0,
            turn: 0,
            completed: 0,
            answered: vec![false; seats],
            cur: TurnState::default(),
            map_json: Arc::from(""),
            map_version: 0,
            input_text: String::new(),
            notices: Vec::new(),
            events: Vec::new(),
            effects: Vec::new(),
            hits: Vec::new(),
            last_events: Arc::new([]),
            last_effects: Vec::new(),
            last_hits: Vec::new(),
            last_player: None,
            outcome: None,
        };
        game.refresh_map_json();
        game
    }

    fn seats(&self) -> usize {
        self.world.players.len()
    }

    /// The round being played, 1-based.
    fn round(&self) -> u32 {
        let n = self.seats().max(1) as u32;
        (self.slot / n + 1).min(self.rounds)
    }

    fn name(&self, seat: usize) -> &str {
        &self.world.players[seat].name
    }

    fn notice_all(&mut self, text: &str) {
        for seat in 0..self.seats() {
            self.notices.push((seat, text.to_string()));
        }
    }

    fn refresh_map_json(&mut self) {
        if self.map_version == self.world.tiles_version && !self.map_json.is_empty() {
            return;
        }
        let d = self.world.size();
        let mut s = String::with_capacity(d * d * 4 + 2 * d + 2);
        s.push('[');
        for j in 0..d {
            if j > 0 {
                s.push(',');
            }
            s.push('[');
            for k in 0..d {
                if k > 0 {
                    s.push(',');
                }
                s.push('"');
                s.push(self.world.tiles[j * d + k].letter());
                s.push('"');
            }
            s.push(']');
        }
        s.push(']');
        self.map_json = Arc::from(s);
        self.map_version = self.world.tiles_version;
    }

    /// `"map":{...}`.
    fn map_object(&self) -> String {
        let d = self.world.size();
        format!(
            r#""map":{{"j-length":{d},"k-length":{d},"data":{}}}"#,
            self.map_json
        )
    }

    /// The first thing a seat is sent (our extension, after the 2014 server's `info`).
    fn info_line(&self) -> String {
        format!(
            "{{\"message\":\"info\",\"ruleset\":\"{}\",\"rounds\":{},\"players\":{},\"timeout\":{},\"map\":{}}}\n",
            self.ruleset,
            self.rounds,
            self.seats(),
            INFO.turn_ms,
            protocol::quoted(&self.world.map.name)
        )
    }

    /// The turn-0 game state: names only, the ring starting with the last mover (as in 2013).
    fn gamestate0(&self) -> String {
        let n = self.seats();
        let names: Vec<String> = (0..n)
            .map(|i| {
                let seat = self.ring[(i + n - 1) % n];
                format!("{{\"name\":{}}}", protocol::quoted(self.name(seat)))
            })
            .collect();
        format!(
            "{{\"message\":\"gamestate\",\"turn\":0,\"players\":[{}],{}}}\n",
            names.join(","),
            self.map_object()
        )
    }

    /// The game state of the current turn as every seat receives it (indexed by seat): the ring
    /// from the active player, and the recipient's own resources in its own player object.
    fn gamestates(&self) -> Vec<String> {
        let n = self.seats();
        let start = self
            .ring
            .iter()
            .position(|&s| s == self.active)
            .unwrap_or(0);
        // Each player object once, without its closing brace.
        let objects: Vec<(usize, String)> = (0..n)
            .map(|i| {
                let s = self.ring[(start + i) % n];
                let p = &self.world.players[s];
                let w = |i: usize| {
                    format!(
                        "{{\"name\":\"{}\",\"level\":{}}}",
                        p.weapons[i].0, p.weapons[i].1
                    )
                };
                let o = format!(
                    "{{\"name\":{},\"health\":{},\"score\":{},\"position\":\"{}\",\"primary-weapon\":{},\"secondary-weapon\":{}",
                    protocol::quoted(&p.name),
                    p.health,
                    p.score,
                    p.pos,
                    w(0),
                    w(1)
                );
                (s, o)
            })
            .collect();
        let head = format!(
            "{{\"message\":\"gamestate\",\"turn\":{},\"players\":[",
            self.turn
        );
        let tail = format!("],{}}}\n", self.map_object());
        (0..n)
            .map(|seat| {
                let mut text = String::with_capacity(head.len() + tail.len() + 200 * n);
                text.push_str(&head);
                for (i, (s, o)) in objects.iter().enumerate() {
                    if i > 0 {
                        text.push(',');
                    }
                    text.push_str(o);
                    if *s == seat {
                        let [r, e, c] = self.world.players[seat].resources;
                        text.push_str(&format!(
                            ",\"resources\":{{\"rubidium\":{r},\"explosium\":{e},\"scrap\":{c}}}"
                        ));
                    }
                    text.push('}');
                }
                text.push_str(&tail);
                text
            })
            .collect()
    }

    /// Starts the turn of the ring slot `self.slot` or later: destroyed players miss their
    /// next turn, then respawn. Ends the match after the last round.
    fn begin_turn_at_slot(&mut self) {
        let n = self.seats() as u32;
        loop {
            if self.slot >= self.rounds * n {
                self.end_match();
                return;
            }
            let seat = self.ring[(self.slot % n) as usize];
            let p = &mut self.world.players[seat];
            if p.has_to_pass {
                p.has_to_pass = false;
                let name = p.name.clone();
                self.events
                    .push(format!("{name} is destroyed and misses this turn"));
                self.slot += 1;
                continue;
            }
            if p.needs_respawn {
                self.world.respawn(seat);
                let p = &self.world.players[seat];
                self.events.push(format!(
                    "{} respawns on its spawn tile {} with {} hp",
                    p.name, p.pos, p.health
                ));
            }
            self.active = seat;
            self.turn += 1;
            self.cur = TurnState::default();
            self.refresh_map_json();
            for (other, text) in self.gamestates().into_iter().enumerate() {
                if other == seat {
                    self.input_text = text;
                } else {
                    self.notices.push((other, text));
                }
            }
            return;
        }
    }

    /// The end of the current turn: penalties, then `endturn` and the valid actions to all.
    fn finish_turn(&mut self) {
        let seat = self.active;
        let name = self.name(seat).to_string();
        if !self.cur.shot && self.cur.valid == 0 {
            self.world.players[seat].score -= TURN_PENALTY;
            self.events
                .push(format!("{name} made no valid action: −{TURN_PENALTY}"));
        }
        let p = &self.world.players[seat];
        if p.pos == p.spawn && self.world.tile(p.pos) == Some(Tile::Spawn) {
            self.world.players[seat].score -= TURN_PENALTY;
            self.events.push(format!(
                "{name} ends its turn on its spawn tile: −{TURN_PENALTY}"
            ));
        }
        self.notice_all(&format!("{}\n", protocol::ENDTURN));
        let from = format!(",\"from\":{}}}\n", protocol::quoted(&name));
        for b in std::mem::take(&mut self.cur.broadcasts) {
            self.notice_all(&format!("{b}{from}"));
        }
        self.completed += 1;
        self.last_player = Some(seat);
        self.slot += 1;
    }

    fn end_match(&mut self) {
        self.phase = Phase::Over;
        let scores: Vec<i64> = self.world.players.iter().map(|p| p.score).collect();
        let outcome = Outcome::from_scores(scores.clone(), "");
        let winner = outcome.winner();
        let list: Vec<String> = self
            .world
            .players
            .iter()
            .map(|p| format!("{} {}", p.name, p.score))
            .collect();
        let reason = format!("{} rounds played: {}", self.rounds, list.join(", "));
        self.events.push(match winner {
            Some(w) => format!("the match is over: {} wins ({reason})", self.name(w)),
            None => format!("the match is over: a tie ({reason})"),
        });
        let winner_json = match winner {
            Some(w) => protocol::quoted(self.name(w)),
            None => "null".to_string(),
        };
        self.notice_all(&format!(
            "{{\"message\":\"endactions\",\"winner\":{winner_json}}}\n"
        ));
        self.outcome = Some(Outcome::from_scores(scores, reason));
    }

    /// A reply of error objects (nothing when there are none).
    fn errors_reply(errors: &[String]) -> String {
        errors.iter().map(|e| error_line(e)).collect()
    }

    fn hear_connect(&mut self, seat: usize, line: &str) -> LineOutcome {
        let obj = match handshake_packet(line, "connect", "'connect' handshake") {
            Ok(o) => o,
            Err(reply) => return reply,
        };
        let Some(revision) = obj.get("revision") else {
            return incomplete("revision");
        };
        let Some(revision) = java_int(revision) else {
            return bad(
                "Invalid or incomplete packet: JSONObject[\"revision\"] is not a number."
                    .to_string(),
            );
        };
        if revision != 1 {
            return bad(format!(
                "Wrong protocol revision: supporting 1, but got {revision}"
            ));
        }
        let Some(name) = obj.get("name") else {
            return incomplete("name");
        };
        let name = shown(name);
        if let Err(why) = check_name(&name) {
            return bad(why.to_string());
        }
        self.connect(seat, name);
        LineOutcome::Done
    }

    /// A handshake that passed every check.
    fn connect(&mut self, seat: usize, name: String) {
        let p = &mut self.world.players[seat];
        p.name = name.clone();
        p.connected = true;
        self.answered[seat] = true;
        self.events
            .push(format!("seat {} connects as {name}", seat + 1));
        self.notices.push((
            seat,
            "{\"message\":\"connect\",\"status\":true}\n".to_string(),
        ));
    }

    fn hear_loadout(&mut self, seat: usize, line: &str) -> LineOutcome {
        let obj = match handshake_packet(line, "loadout", "'loadout'") {
            Ok(o) => o,
            Err(reply) => return reply,
        };
        let mut weapons = Vec::new();
        for (key, which) in [
            ("primary-weapon", "primary"),
            ("secondary-weapon", "secondary"),
        ] {
            let Some(v) = obj.get(key) else {
                return incomplete(key);
            };
            let text = shown(v);
            let Some(w) = Weapon::parse(&text) else {
                return bad(format!("Invalid {which} weapon: '{text}'"));
            };
            weapons.push(w);
        }
        if weapons[0] == weapons[1] {
            return bad("Invalid loadout: Can't have the same weapon twice.".to_string());
        }
        self.load(seat, weapons[0], weapons[1]);
        LineOutcome::Done
    }

    /// A loadout of two different weapons.
    fn load(&mut self, seat: usize, primary: Weapon, secondary: Weapon) {
        let p = &mut self.world.players[seat];
        p.weapons = [(primary, 1), (secondary, 1)];
        p.has_loadout = true;
        self.answered[seat] = true;
        let name = p.name.clone();
        self.events
            .push(format!("{name} chooses the {primary} and the {secondary}"));
    }

    fn hear_play(&mut self, seat: usize, line: &str) -> LineOutcome {
        let obj = match parse_object(line) {
            Ok(o) => o,
            Err(e) => {
                return LineOutcome::Reply(error_line(&format!("Invalid packet received: {e}")))
            }
        };
        let Some(message) = obj.get("message") else {
            return LineOutcome::Reply(error_line("Invalid or incomplete packet"));
        };
        match message.as_str() {
            Some("endturn") => {
                self.end_turn_early(seat);
                LineOutcome::Done
            }
            Some("action") => self.hear_action(seat, &obj),
            _ => LineOutcome::Reply(error_line(&format!(
                "Unexpected message, got '{}' but expected 'action'",
                shown(message)
            ))),
        }
    }

    /// `{"message":"endturn"}`: the turn ends before its third action.
    fn end_turn_early(&mut self, seat: usize) {
        let name = self.name(seat).to_string();
        let n = self.cur.actions;
        self.events.push(format!(
            "{name} ends its turn after {n} action{}",
            if n == 1 { "" } else { "s" }
        ));
    }

    fn hear_action(&mut self, seat: usize, obj: &JsonMap<String, Value>) -> LineOutcome {
        let slot = self.cur.actions;
        self.cur.actions += 1;
        let mut errors = Vec::new();
        if self.cur.shot {
            let name = self.name(seat).to_string();
            self.events.push(format!(
                "{name}: action {} ignored (the shot ended the turn)",
                slot + 1
            ));
        } else {
            let turns_left = i32::from(ACTIONS_PER_TURN - 1 - slot.min(ACTIONS_PER_TURN - 1));
            let done = self.world.perform(seat, obj, turns_left);
            if done.valid {
                self.cur.valid += 1;
                self.cur.shot |= done.offensive;
                if let Some(b) = done.broadcast {
                    self.cur.broadcasts.push(b);
                }
            }
            if let Some(e) = done.effect {
                self.effects.push((seat, e));
            }
            self.hits.extend(done.hits);
            self.events.push(done.event);
            errors = done.errors;
            self.refresh_map_json();
        }
        if self.cur.actions >= ACTIONS_PER_TURN {
            // The turn is complete: errors of its last action go out as notices.
            for e in errors {
                self.notices.push((seat, error_line(&e)));
            }
            LineOutcome::Done
        } else if errors.is_empty() {
            LineOutcome::More
        } else {
            LineOutcome::Reply(Self::errors_reply(&errors))
        }
    }

    /// A random mostly legal answer for the current turn (see [`Rules::random_action`]).
    fn random_orders(&self, seat: usize, rng: &mut JavaRandom) -> Vec<Order> {
        let world = &self.world;
        let me = &world.players[seat];
        let mut pos = me.pos;
        let mut orders = Vec::new();
        let count = rng.next_int_bounded(4);
        for _ in 0..count {
            let pick = |rng: &mut JavaRandom| Dir::ALL[rng.next_int_bounded(6) as usize];
            let order = match rng.next_int_bounded(10) {
                0..=3 => {
                    // Prefer a step onto a free walkable tile.
                    let free: Vec<Dir> = Dir::ALL
                        .into_iter()
                        .filter(|&d| {
                            let to = pos.step(d);
                            world.tile(to).is_some_and(Tile::walkable)
                                && world.occupant(to).is_none()
                        })
                        .collect();
                    let d = if free.is_empty() || rng.next_int_bounded(8) == 0 {
                        pick(rng)
                    } else {
                        free[rng.next_int_bounded(free.len() as i32) as usize]
                    };
                    if world.tile(pos.step(d)).is_some_and(Tile::walkable) {
                        pos = pos.step(d);
                    }
                    Order::Move(d)
                }
                4 => Order::Mine,
                5 => Order::Upgrade(Weapon::ALL[rng.next_int_bounded(3) as usize]),
                6 => Order::Laser(pick(rng)),
                7 => Order::Mortar(rng.next_int_bounded(9) - 4, rng.next_int_bounded(9) - 4),
                _ => {
                    let len = rng.next_int_bounded(7);
                    Order::Droid((0..len).map(|_| pick(rng)).collect())
                }
            };
            orders.push(order);
        }
        orders
    }
}

/// org.json's `getInt`: a number (truncated) or a string holding an integer.
fn java_int(v: &Value) -> Option<i64> {
    match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().map(|f| f as i64)),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A packet of the connect or loadout phase read: its object when it parses and its `message`
/// is `expected`, else the 2013 server's error reply (`waited_for` names what it expected).
fn handshake_packet(
    line: &str,
    expected: &str,
    waited_for: &str,
) -> Result<JsonMap<String, Value>, LineOutcome> {
    let obj = parse_object(line).map_err(|e| bad(format!("Invalid packet received: {e}")))?;
    let Some(message) = obj.get("message") else {
        return Err(incomplete("message"));
    };
    if message.as_str() != Some(expected) {
        return Err(bad(format!(
            "Expected {waited_for}, but got '{}' key",
            shown(message)
        )));
    }
    Ok(obj)
}

/// The error reply for a packet of the connect or loadout phase.
fn bad(text: String) -> LineOutcome {
    LineOutcome::Reply(error_line(&text))
}

/// The error reply for a packet that lacks `key`.
fn incomplete(key: &str) -> LineOutcome {
    bad(format!("Invalid or incomplete packet: {}", not_found(key)))
}

impl Game for Skyport {
    fn turn(&self) -> u32 {
        self.turn
    }

    fn to_move(&self) -> Vec<usize> {
        match self.phase {
            Phase::Connect | Phase::Loadout => (0..self.seats()).collect(),
            Phase::Play => vec![self.active],
            Phase::Over => Vec::new(),
        }
    }

    fn input(&self, seat: usize) -> String {
        if seat >= self.seats() {
            return String::new();
        }
        match self.phase {
            Phase::Connect => self.info_line(),
            Phase::Loadout => self.gamestate0(),
            Phase::Play if seat == self.active => self.input_text.clone(),
            Phase::Play => self.gamestates().swap_remove(seat),
            Phase::Over => String::new(),
        }
    }

    fn hear(&mut self, seat: usize, line: &str) -> LineOutcome {
        if seat >= self.seats() {
            return LineOutcome::Done;
        }
        match self.phase {
            Phase::Connect if !self.answered[seat] => self.hear_connect(seat, line),
            Phase::Loadout if !self.answered[seat] => self.hear_loadout(seat, line),
            Phase::Play if seat == self.active => self.hear_play(seat, line),
            _ => LineOutcome::Done,
        }
    }

    fn fault(&mut self, seat: usize, kind: FaultKind) {
        if seat >= self.seats() {
            return;
        }
        match self.phase {
            Phase::Connect if !self.answered[seat] => {
                self.answered[seat] = true;
                let name = self.name(seat).to_string();
                self.events.push(format!(
                    "seat {} did not connect ({kind}): it plays as {name}",
                    seat + 1
                ));
            }
            Phase::Loadout if !self.answered[seat] => {
                self.answered[seat] = true;
                let name = self.name(seat).to_string();
                self.events.push(format!(
                    "{name} sent no loadout ({kind}): it gets the laser and the mortar"
                ));
            }
            Phase::Play if seat == self.active => {
                let name = self.name(seat).to_string();
                self.events.push(format!("{name}'s turn ends: {kind}"));
            }
            _ => {}
        }
    }

    fn step(&mut self) {
        match self.phase {
            Phase::Connect => {
                self.answered = vec![false; self.seats()];
                self.phase = Phase::Loadout;
            }
            Phase::Loadout => {
                for p in &mut self.world.players {
                    p.has_loadout = true;
                }
                self.answered = vec![false; self.seats()];
                self.phase = Phase::Play;
                self.notice_all(&format!("{}\n", protocol::ENDTURN));
                self.begin_turn_at_slot();
            }
            Phase::Play => {
                self.finish_turn();
                self.begin_turn_at_slot();
            }
            Phase::Over => {}
        }
        self.last_events = std::mem::take(&mut self.events).into();
        self.last_effects = std::mem::take(&mut self.effects);
        self.last_hits = std::mem::take(&mut self.hits);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    /// A copy of the match is the frame's scene (without the turn being played: its input text,
    /// what was heard and what it did so far, which a frame never shows): the step's parts are
    /// written when read.
    fn frame(&self) -> Frame {
        let copy = Skyport {
            ruleset: self.ruleset,
            world: self.world.clone(),
            phase: self.phase,
            rounds: self.rounds,
            ring: self.ring.clone(),
            slot: self.slot,
            active: self.active,
            turn: self.turn,
            completed: self.completed,
            answered: Vec::new(),
            cur: TurnState::default(),
            map_json: Arc::clone(&self.map_json),
            map_version: self.map_version,
            input_text: String::new(),
            notices: Vec::new(),
            events: Vec::new(),
            effects: Vec::new(),
            hits: Vec::new(),
            last_events: Arc::clone(&self.last_events),
            last_effects: self.last_effects.clone(),
            last_hits: self.last_hits.clone(),
            last_player: self.last_player,
            outcome: self.outcome.clone(),
        };
        // A destroyed ship respawns and a silent player stays seated: nobody is ever out.
        Frame::new(
            self.completed,
            self.world.players.iter().map(|_| false),
            Arc::new(copy),
        )
    }

    fn take_notices(&mut self) -> Vec<(usize, String)> {
        std::mem::take(&mut self.notices)
    }
}

// What a frame of this game writes when read, from the copy of the match it keeps.
scene_of_a_copy!(Skyport, last_events);

impl Skyport {
    /// The events of the last step, in words.
    fn last_events(&self) -> Vec<String> {
        self.last_events.to_vec()
    }
}

impl Rules for Skyport {
    type Action = Action;

    const INFO: &'static GameInfo = &INFO;

    fn create(setup: &Setup) -> Result<Self, SetupError> {
        setup.check(&INFO)?;
        let mut rounds = DEFAULT_ROUNDS;
        let mut map_name = None;
        for (key, value) in &setup.options {
            match key.as_str() {
                "rounds" => {
                    rounds = value
                        .trim()
                        .parse()
                        .ok()
                        .filter(|r| (1..=MAX_ROUNDS).contains(r))
                        .ok_or_else(|| SetupError::BadOption {
                            key: key.clone(),
                            value: value.clone(),
                            why: format!("a number of rounds from 1 to {MAX_ROUNDS}"),
                        })?;
                }
                "map" => map_name = Some(value.trim().to_string()),
                _ => return Err(SetupError::UnknownOption(key.clone())),
            }
        }
        let seats = setup.seats;
        let maps = shipped_maps();
        let map = match &map_name {
            Some(name) => {
                let known: Vec<&str> = maps.iter().map(|m| m.name.as_str()).collect();
                let m =
                    maps.iter()
                        .find(|m| &m.name == name)
                        .ok_or_else(|| SetupError::BadOption {
                            key: "map".into(),
                            value: name.clone(),
                            why: format!("no such map (known: {})", known.join(", ")),
                        })?;
                if m.spawns().len() < seats {
                    return Err(SetupError::BadOption {
                        key: "map".into(),
                        value: name.clone(),
                        why: format!(
                            "it has {} spawn tiles, not enough for {seats} players",
                            m.spawns().len()
                        ),
                    });
                }
                Arc::clone(m)
            }
            // The map made for that many players, or the smallest with more spawns (unused
            // spawn tiles stay on the map as obstacles).
            None => maps
                .iter()
                .filter(|m| m.spawns().len() >= seats)
                .min_by_key(|m| m.spawns().len())
                .cloned()
                .ok_or(SetupError::BadSeatCount {
                    found: seats,
                    min: INFO.min_seats,
                    max: INFO.max_seats,
                })?,
        };
        // Two seeded shuffles: the spawn tiles (seats take them in order) and the turn order.
        let mut spawns = map.spawns();
        JavaRandom::new(setup.seed).shuffle(&mut spawns);
        spawns.truncate(seats);
        let mut ring: Vec<usize> = (0..seats).collect();
        JavaRandom::new(setup.seed ^ 0x0005_ca1e_7075).shuffle(&mut ring);
        let ruleset = INFO
            .ruleset(&setup.ruleset)
            .map_or(INFO.default_ruleset, |r| r.id);
        Ok(Skyport::build(map, ruleset, rounds, &spawns, ring))
    }

    fn random_action(&self, seat: usize, rng: &mut JavaRandom) -> Action {
        match self.phase {
            Phase::Connect => {
                const NAMES: [&str; 6] =
                    ["alpha", "bravo", "charlie", "delta", "echo-7", "fox_trot+"];
                let base = NAMES[rng.next_int_bounded(NAMES.len() as i32) as usize];
                Action::Connect(format!("{base}{}", seat + 1))
            }
            Phase::Loadout => {
                let a = rng.next_int_bounded(3) as usize;
                let b = (a + 1 + rng.next_int_bounded(2) as usize) % 3;
                Action::Loadout(Weapon::ALL[a], Weapon::ALL[b])
            }
            Phase::Play if seat == self.active => Action::Turn(self.random_orders(seat, rng)),
            _ => Action::Turn(Vec::new()),
        }
    }

    fn write_action(&self, _seat: usize, action: &Action) -> Vec<String> {
        action_lines(action)
    }

    fn parse_action(&self, _seat: usize, lines: &[String]) -> Result<Action, String> {
        parse_action_lines(lines)
    }

    fn apply(&mut self, seat: usize, action: &Action) -> Result<(), String> {
        if seat >= self.seats() {
            return Ok(());
        }
        match (self.phase, action) {
            (Phase::Connect, Action::Connect(name)) if !self.answered[seat] => {
                // A refused name is answered with an error and the turn goes on, as in `hear`.
                if check_name(name).is_ok() {
                    self.connect(seat, name.clone());
                }
            }
            (Phase::Loadout, Action::Loadout(a, b)) if !self.answered[seat] => {
                if a != b {
                    self.load(seat, *a, *b);
                }
            }
            (Phase::Play, Action::Turn(orders)) if seat == self.active => {
                // The rules read an action as its JSON object: the parsed form of its line.
                for order in orders.iter().take(usize::from(ACTIONS_PER_TURN)) {
                    if self.hear_action(seat, &order_object(order)) == LineOutcome::Done {
                        return Ok(());
                    }
                }
                self.end_turn_early(seat);
            }
            // An action of another phase: its lines are answered with errors, as `hear` does.
            _ => {
                for line in action_lines(action) {
                    if self.hear(seat, &line) == LineOutcome::Done {
                        break;
                    }
                }
            }
        }
        Ok(())
    }
}
