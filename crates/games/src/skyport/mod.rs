//! # Skyport
//!
//! (The rulebook is written at the end of this work; see the sections below.)

use std::sync::{Arc, OnceLock};

use engine::{
    FaultKind, Frame, Game, GameEntry, GameInfo, Heard, JavaRandom, Outcome, Rules, Ruleset, Setup,
    SetupError, TurnOrder,
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
pub use protocol::{Action, Order, Weapon};
pub use view::View;

use protocol::{action_lines, error_line, not_found, parse_action_lines, parse_object, shown};
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
pub const ENTRY: GameEntry = GameEntry {
    info: &INFO,
    new: engine::rules::boxed::<Skyport>,
};

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
    last_events: Vec<String>,
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
            last_events: Vec::new(),
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

    fn hear_connect(&mut self, seat: usize, line: &str) -> Heard {
        let obj = match parse_object(line) {
            Ok(o) => o,
            Err(e) => return Heard::Reply(error_line(&format!("Invalid packet received: {e}"))),
        };
        let bad = |text: String| Heard::Reply(error_line(&text));
        let incomplete =
            |key: &str| bad(format!("Invalid or incomplete packet: {}", not_found(key)));
        let Some(message) = obj.get("message") else {
            return incomplete("message");
        };
        if message.as_str() != Some("connect") {
            return bad(format!(
                "Expected 'connect' handshake, but got '{}' key",
                shown(message)
            ));
        }
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
        Heard::Done
    }

    fn hear_loadout(&mut self, seat: usize, line: &str) -> Heard {
        let obj = match parse_object(line) {
            Ok(o) => o,
            Err(e) => return Heard::Reply(error_line(&format!("Invalid packet received: {e}"))),
        };
        let bad = |text: String| Heard::Reply(error_line(&text));
        let incomplete =
            |key: &str| bad(format!("Invalid or incomplete packet: {}", not_found(key)));
        let Some(message) = obj.get("message") else {
            return incomplete("message");
        };
        if message.as_str() != Some("loadout") {
            return bad(format!(
                "Expected 'loadout', but got '{}' key",
                shown(message)
            ));
        }
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
        let p = &mut self.world.players[seat];
        p.weapons = [(weapons[0], 1), (weapons[1], 1)];
        p.has_loadout = true;
        self.answered[seat] = true;
        let name = p.name.clone();
        self.events.push(format!(
            "{name} chooses the {} and the {}",
            weapons[0], weapons[1]
        ));
        Heard::Done
    }

    fn hear_play(&mut self, seat: usize, line: &str) -> Heard {
        let obj = match parse_object(line) {
            Ok(o) => o,
            Err(e) => return Heard::Reply(error_line(&format!("Invalid packet received: {e}"))),
        };
        let Some(message) = obj.get("message") else {
            return Heard::Reply(error_line("Invalid or incomplete packet"));
        };
        match message.as_str() {
            Some("endturn") => {
                let name = self.name(seat).to_string();
                let n = self.cur.actions;
                self.events.push(format!(
                    "{name} ends its turn after {n} action{}",
                    if n == 1 { "" } else { "s" }
                ));
                Heard::Done
            }
            Some("action") => self.hear_action(seat, &obj),
            _ => Heard::Reply(error_line(&format!(
                "Unexpected message, got '{}' but expected 'action'",
                shown(message)
            ))),
        }
    }

    fn hear_action(&mut self, seat: usize, obj: &JsonMap<String, Value>) -> Heard {
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
            Heard::Done
        } else if errors.is_empty() {
            Heard::More
        } else {
            Heard::Reply(Self::errors_reply(&errors))
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

impl Game for Skyport {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

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

    fn hear(&mut self, seat: usize, line: &str) -> Heard {
        if seat >= self.seats() {
            return Heard::Done;
        }
        match self.phase {
            Phase::Connect if !self.answered[seat] => self.hear_connect(seat, line),
            Phase::Loadout if !self.answered[seat] => self.hear_loadout(seat, line),
            Phase::Play if seat == self.active => self.hear_play(seat, line),
            _ => Heard::Done,
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
        self.last_events = std::mem::take(&mut self.events);
        self.last_effects = std::mem::take(&mut self.effects);
        self.last_hits = std::mem::take(&mut self.hits);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn frame(&self) -> Frame {
        Frame {
            turn: self.completed,
            events: self.last_events.clone(),
            status: view::status(self),
            text: view::text(self),
            view: serde_json::to_value(view::view(self)).unwrap_or_default(),
        }
    }

    fn take_notices(&mut self) -> Vec<(usize, String)> {
        std::mem::take(&mut self.notices)
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
            None => {
                let name = map::default_map_name(seats).unwrap_or("archipelago-8p");
                maps.iter()
                    .find(|m| m.name == name)
                    .cloned()
                    .ok_or_else(|| SetupError::BadOption {
                        key: "map".into(),
                        value: name.to_string(),
                        why: "the shipped map does not parse".into(),
                    })?
            }
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
}
