//! # Crafting Quest 3
//!
//! (rulebook: see the end of this file's docs; written below)

use std::sync::Arc;

use engine::{
    FaultKind, Frame, Game, GameEntry, GameInfo, Heard, JavaRandom, Outcome, Rules, Ruleset, Setup,
    SetupError, TurnOrder,
};

mod map;
mod protocol;
mod rules;
mod state;
pub mod view;

#[cfg(test)]
mod tests;

use map::{Map, DEFAULT_SIZE, MAX_SIZE, MIN_SIZE};
pub use protocol::{parse_request, write_request, Request};
use protocol::{write_answer, write_state, Clock};
pub use rules::{Code, Kind};
use rules::{MAX_ACTIONS, RESOURCES};
use state::{Answer, World};

/// The facts about the game.
pub static INFO: GameInfo = GameInfo {
    id: "crafting-quest",
    name: "Crafting Quest 3",
    version: 1,
    min_seats: 2,
    max_seats: 4,
    turn_order: TurnOrder::Alternating,
    // B.2: a player's slot is 1000 ms, the first one too.
    first_turn_ms: 1000,
    turn_ms: 1000,
    rulesets: &[Ruleset {
        id: "standard",
        name: "AI-MAS Winter Olympics 2013",
        summary: "the official scenario, with the original server's bugs fixed (DECISIONS.md)",
    }],
    default_ruleset: "standard",
};

/// The registry entry.
pub const ENTRY: GameEntry = GameEntry {
    info: &INFO,
    new: engine::rules::boxed::<CraftingQuest>,
};

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
    last_events: Vec<String>,
    last_strikes: Vec<[i32; 5]>,
    last_player: Option<usize>,
}

impl CraftingQuest {
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
            last_events: Vec::new(),
            last_strikes: Vec::new(),
            last_player: None,
        };
        game.world.start_turn(0, &mut game.events);
        game.last_events = std::mem::take(&mut game.events);
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
            line.push_str(&format!(
                ", {} refused",
                t.errors
            ));
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

    /// A random, mostly legal request for one of the seat's units, tried on `scratch` so that
    /// the next request sees its effect.
    fn random_request(scratch: &World, seat: usize, rng: &mut JavaRandom) -> Request {
        let units = scratch.team_units(seat);
        let u = &units[rng.next_int_bounded(units.len().max(1) as i32) as usize];
        let unit = u.id as i64;
        let size = scratch.size() as i32;
        let c = scratch.idx(u.x, u.y);
        let roll = rng.next_int_bounded(100);
        match roll {
            0..=29 => {
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
                    unit,
                    x: x.into(),
                    y: y.into(),
                }
            }
            30..=41 => Request::Dig { unit },
            42..=54 => {
                let pile = scratch.piles.get(&c);
                let here: Vec<usize> = (0..RESOURCES.len())
                    .filter(|&r| {
                        scratch.buried[c][r] > 0 || pile.is_some_and(|p| p.res[r] > 0)
                    })
                    .collect();
                let r = if here.is_empty() {
                    rng.next_int_bounded(RESOURCES.len() as i32) as usize
                } else {
                    here[rng.next_int_bounded(here.len() as i32) as usize]
                };
                let all = i64::from(scratch.buried[c][r])
                    + i64::from(pile.map_or(0, |p| p.res[r]));
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
                    unit,
                    resources,
                    objects,
                }
            }
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
            72..=79 => {
                let near: Vec<&state::Unit> = scratch
                    .units
                    .iter()
                    .filter(|v| {
                        v.seat != seat && (v.x - u.x).abs() <= 1 && (v.y - u.y).abs() <= 1
                    })
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
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn turn(&self) -> u32 {
        self.slots
    }

    fn to_move(&self) -> Vec<usize> {
        self.to_move_seat().into_iter().collect()
    }

    fn input(&self, seat: usize) -> String {
        self.state_line(seat)
    }

    fn hear(&mut self, seat: usize, line: &str) -> Heard {
        if self.outcome.is_some() || seat != self.player || self.actions >= MAX_ACTIONS {
            return Heard::Done;
        }
        let request = match parse_request(line) {
            Ok(Request::End) => return Heard::Done,
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
                let left = MAX_ACTIONS - self.actions;
                return Heard::Reply(write_answer(&self.world, seat, &answer, left) + "\n");
            }
        };
        self.actions += 1;
        if request == Request::State {
            self.world.tally.requests += 1;
            return Heard::Reply(write_state(&self.world, seat, &self.clock(), "state") + "\n");
        }
        let answer = self.world.act(seat, &request);
        let left = MAX_ACTIONS - self.actions;
        Heard::Reply(write_answer(&self.world, seat, &answer, left) + "\n")
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
                self.last_events = std::mem::take(&mut self.events);
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
        self.last_events = std::mem::take(&mut self.events);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn frame(&self) -> Frame {
        Frame {
            turn: self.slots,
            events: self.last_events.clone(),
            status: view::status(self),
            text: view::text(self),
            view: serde_json::to_value(view::view(self)).unwrap_or_default(),
        }
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
    let name = setup
        .options
        .get("map")
        .map_or("generated", String::as_str);
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
            Map::official(name, setup.seed)
                .ok_or_else(|| bad("map", name, "the map file cannot be read"))?
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
}
