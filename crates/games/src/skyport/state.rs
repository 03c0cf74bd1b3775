//! The world of a match: tiles, players, and what each action does (rulebook: *A match*, *Actions*).

use std::sync::Arc;

use serde_json::{Map as JsonMap, Value};

use super::hex::{offset_length, Dir, Pos};
use super::map::{Map, Resource, Tile};
use super::protocol::{dir_list, not_found, quoted, shown, Weapon};

/// Health at the start and after a respawn.
pub const FULL_HEALTH: i32 = 100;
/// Points for a kill (besides the damage).
pub const KILL_BONUS: i64 = 20;
/// Penalty for a turn without a valid action, and for ending a turn on the spawn tile.
pub const TURN_PENALTY: i64 = 10;
/// Resources each resource tile holds.
pub const TILE_RESOURCES: u8 = 2;
/// Droid area damage (both rulesets).
pub const DROID_AOE: i32 = 10;

/// The numbers and rules that differ between the rulesets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Points a destroyed player loses.
    pub death_penalty: i64,
    /// Mortar area damage.
    pub mortar_aoe: i32,
    /// REV 1: damage aimed at a player on a spawn tile hits the attacker instead; tg2013: the
    /// player on the spawn tile is simply unharmed.
    pub spawn_reflects: bool,
    /// REV 1: on a spawn tile a player may only move off (no upgrade either).
    pub spawn_only_moves: bool,
    /// REV 1: a mortar shell on a spawn tile explodes as on grass; tg2013: it does nothing.
    pub shell_on_spawn_explodes: bool,
}

/// The rulebook (REV 1), the default ruleset.
pub const REV1: Params = Params {
    death_penalty: 80,
    mortar_aoe: 2,
    spawn_reflects: true,
    spawn_only_moves: true,
    shell_on_spawn_explodes: true,
};

/// The server used at The Gathering 2013.
pub const TG2013: Params = Params {
    death_penalty: 40,
    mortar_aoe: 18,
    spawn_reflects: false,
    spawn_only_moves: false,
    shell_on_spawn_explodes: false,
};

/// `(range, damage)` of a weapon at a level (1–3).
pub fn weapon_stats(weapon: Weapon, level: u8) -> (i32, i32) {
    let l = usize::from(level.clamp(1, 3)) - 1;
    match weapon {
        Weapon::Laser => [(5, 16), (6, 18), (7, 22)][l],
        Weapon::Mortar => [(2, 20), (3, 20), (4, 25)][l],
        Weapon::Droid => [(3, 22), (4, 24), (5, 26)][l],
    }
}

/// Resources an upgrade from `level` costs (4 to level 2, 5 to level 3).
pub fn upgrade_cost(level: u8) -> Option<u32> {
    match level {
        1 => Some(4),
        2 => Some(5),
        _ => None,
    }
}

/// The resource that upgrades a weapon.
pub fn upgrade_resource(weapon: Weapon) -> Resource {
    match weapon {
        Weapon::Laser => Resource::Rubidium,
        Weapon::Mortar => Resource::Explosium,
        Weapon::Droid => Resource::Scrap,
    }
}

/// Damage with the bonus for unused actions: `round(base + 0.2 · turns_left · base)`, half up.
pub fn with_bonus(base: i32, turns_left: i32) -> i32 {
    (2 * base * (5 + turns_left) + 5) / 10
}

/// One player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// The name from the handshake (a placeholder until then).
    pub name: String,
    pub connected: bool,
    pub has_loadout: bool,
    /// Primary and secondary weapon with their levels.
    pub weapons: [(Weapon, u8); 2],
    pub pos: Pos,
    pub spawn: Pos,
    pub health: i32,
    pub score: i64,
    /// Rubidium, explosium, scrap.
    pub resources: [u32; 3],
    /// Destroyed: skips its next turn.
    pub has_to_pass: bool,
    /// Destroyed: back to its spawn tile when its turn comes.
    pub needs_respawn: bool,
    pub kills: u32,
    pub deaths: u32,
    pub damage_dealt: i64,
}

/// The level of `weapon` in a loadout of two weapons with their levels, if it is one of them.
pub fn loadout_level(weapons: &[(Weapon, u8); 2], weapon: Weapon) -> Option<u8> {
    weapons.iter().find(|(w, _)| *w == weapon).map(|(_, l)| *l)
}

impl Player {
    pub fn alive(&self) -> bool {
        self.health > 0
    }

    pub fn level(&self, weapon: Weapon) -> Option<u8> {
        loadout_level(&self.weapons, weapon)
    }
}

/// What the viewer draws of an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    Move {
        from: Pos,
        to: Pos,
    },
    Mine {
        at: Pos,
        resource: Resource,
    },
    Upgrade {
        weapon: Weapon,
        level: u8,
    },
    /// The beam runs from the shooter to `to`, the last tile it reached.
    Laser {
        from: Pos,
        to: Pos,
    },
    /// `exploded` is false when the shell fell on rock or void (or a spawn tile in tg2013).
    Mortar {
        from: Pos,
        target: Pos,
        exploded: bool,
    },
    /// The droid's tiles from the shooter's to where it exploded.
    Droid {
        path: Vec<Pos>,
    },
}

/// Damage one player took from an action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub victim: usize,
    pub by: usize,
    pub at: Pos,
    pub damage: i32,
    pub killed: bool,
    /// The damage was meant for a player on a spawn tile and came back (REV 1).
    pub reflected: bool,
}

/// What one action did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Performed {
    pub valid: bool,
    pub offensive: bool,
    /// Error objects' texts for the bot, as the original sends them.
    pub errors: Vec<String>,
    /// The action as broadcast to everyone when valid (without `"from"`).
    pub broadcast: Option<String>,
    /// In words for the viewer.
    pub event: String,
    pub effect: Option<Effect>,
    pub hits: Vec<Hit>,
}

impl Performed {
    fn invalid(event: String, error: Option<String>) -> Performed {
        Performed {
            event,
            errors: error.into_iter().collect(),
            ..Performed::default()
        }
    }
}

/// The tiles and players of a match.
#[derive(Clone, Debug)]
pub struct World {
    pub map: Arc<Map>,
    pub params: Params,
    /// The tiles now (resource tiles turn to grass).
    pub tiles: Vec<Tile>,
    /// Resources left per tile.
    pub amount: Vec<u8>,
    /// The player standing (or lying) on each tile.
    pub occupant: Vec<Option<usize>>,
    pub players: Vec<Player>,
    /// Bumped whenever a tile changes (the game caches the map's JSON).
    pub tiles_version: u32,
}

impl World {
    /// Players on their spawn tiles (given in seat order).
    pub fn new(map: Arc<Map>, params: Params, spawns: &[Pos]) -> World {
        let tiles = map.tiles.clone();
        let amount = tiles
            .iter()
            .map(|t| {
                if t.resource().is_some() {
                    TILE_RESOURCES
                } else {
                    0
                }
            })
            .collect();
        let mut occupant = vec![None; tiles.len()];
        let players = spawns
            .iter()
            .enumerate()
            .map(|(seat, &spawn)| {
                occupant[map.index(spawn)] = Some(seat);
                Player {
                    name: format!("player{}", seat + 1),
                    connected: false,
                    has_loadout: false,
                    weapons: [(Weapon::Laser, 1), (Weapon::Mortar, 1)],
                    pos: spawn,
                    spawn,
                    health: FULL_HEALTH,
                    score: 0,
                    resources: [0; 3],
                    has_to_pass: false,
                    needs_respawn: false,
                    kills: 0,
                    deaths: 0,
                    damage_dealt: 0,
                }
            })
            .collect();
        World {
            map,
            params,
            tiles,
            amount,
            occupant,
            players,
            tiles_version: 0,
        }
    }

    pub fn size(&self) -> usize {
        self.map.size
    }

    pub fn tile(&self, p: Pos) -> Option<Tile> {
        self.map.inside(p).then(|| self.tiles[self.map.index(p)])
    }

    pub fn occupant(&self, p: Pos) -> Option<usize> {
        if self.map.inside(p) {
            self.occupant[self.map.index(p)]
        } else {
            None
        }
    }

    fn on_spawn(&self, seat: usize) -> bool {
        self.tile(self.players[seat].pos) == Some(Tile::Spawn)
    }

    /// Moves a player (the caller checked the target).
    pub(crate) fn place(&mut self, seat: usize, to: Pos) {
        let from = self.players[seat].pos;
        let (a, b) = (self.map.index(from), self.map.index(to));
        if self.occupant[a] == Some(seat) {
            self.occupant[a] = None;
        }
        self.occupant[b] = Some(seat);
        self.players[seat].pos = to;
    }

    /// A destroyed player comes back on its spawn tile with full health.
    pub fn respawn(&mut self, seat: usize) {
        let spawn = self.players[seat].spawn;
        self.place(seat, spawn);
        let p = &mut self.players[seat];
        p.health = FULL_HEALTH;
        p.needs_respawn = false;
    }

    /// Damage dealt to a player (rulebook: *A match*): points for the dealer unless it hurt itself, and the
    /// kill bonus and death penalty when health reaches 0. Damage to the destroyed is ignored.
    fn damage_player(&mut self, victim: usize, damage: i32, dealer: usize, hit: &mut Hit) {
        if !self.players[victim].alive() {
            return;
        }
        hit.damage = damage;
        self.players[victim].health -= damage;
        if victim != dealer {
            self.players[dealer].score += i64::from(damage);
            self.players[dealer].damage_dealt += i64::from(damage);
        }
        if self.players[victim].health <= 0 {
            hit.killed = true;
            if victim != dealer {
                self.players[dealer].score += KILL_BONUS;
                self.players[dealer].kills += 1;
            }
            let penalty = self.params.death_penalty;
            let v = &mut self.players[victim];
            v.score -= penalty;
            v.health = 0;
            v.deaths += 1;
            v.has_to_pass = true;
            v.needs_respawn = true;
        }
    }

    /// Damage aimed at a tile: whoever stands there takes it (a player on a spawn tile is
    /// protected, or the damage comes back to the dealer in REV 1).
    fn damage_tile(&mut self, at: Pos, damage: i32, dealer: usize, hits: &mut Vec<Hit>) {
        let Some(victim) = self.occupant(at) else {
            return;
        };
        let on_spawn = self.tile(at) == Some(Tile::Spawn);
        let (victim, reflected) = match (on_spawn, self.params.spawn_reflects) {
            (false, _) => (victim, false),
            (true, true) => (dealer, true),
            (true, false) => return,
        };
        let mut hit = Hit {
            victim,
            by: dealer,
            at,
            damage: 0,
            killed: false,
            reflected,
        };
        self.damage_player(victim, damage, dealer, &mut hit);
        if hit.damage > 0 {
            hits.push(hit);
        }
    }

    /// A blast: direct damage on a tile and area damage on its six neighbours.
    fn explode(&mut self, at: Pos, direct: i32, aoe: i32, dealer: usize, hits: &mut Vec<Hit>) {
        self.damage_tile(at, direct, dealer, hits);
        for n in at.around() {
            if self.map.inside(n) {
                self.damage_tile(n, aoe, dealer, hits);
            }
        }
    }

    /// Performs one action object of the seat's turn, `turns_left` being its slot's bonus.
    pub fn perform(
        &mut self,
        seat: usize,
        action: &JsonMap<String, Value>,
        turns_left: i32,
    ) -> Performed {
        let name = self.players[seat].name.clone();
        let Some(kind) = action.get("type") else {
            return Performed::invalid(format!("{name}: an action without a type"), None);
        };
        let kind = shown(kind);
        let mut done = match kind.as_str() {
            "move" => self.do_move(seat, action),
            "laser" => self.do_laser(seat, action, turns_left),
            "mortar" => self.do_mortar(seat, action, turns_left),
            "droid" => self.do_droid(seat, action, turns_left),
            "mine" => self.do_mine(seat),
            "upgrade" => self.do_upgrade(seat, action),
            _ => Performed::invalid(
                format!("{name}: unknown action type '{kind}'"),
                Some(format!("Invalid action: {kind}")),
            ),
        };
        if !done.valid && !done.event.starts_with(&name) {
            done.event = format!("{name}: {}", done.event);
        }
        done
    }

    fn do_move(&mut self, seat: usize, action: &JsonMap<String, Value>) -> Performed {
        let bad = |why: String| {
            Performed::invalid(
                format!("move refused: {why}"),
                Some(format!("Invalid move packet: {why}")),
            )
        };
        let Some(value) = action.get("direction") else {
            return bad(not_found("direction"));
        };
        let text = shown(value);
        let Some(dir) = Dir::parse(&text) else {
            return bad(format!("Invalid direction: '{text}'"));
        };
        let from = self.players[seat].pos;
        let to = from.step(dir);
        match self.tile(to) {
            None => {
                return bad(format!(
                    "Invalid move: tile {dir} is not accessible (outside of map)"
                ))
            }
            Some(t) if !t.walkable() => {
                return bad(format!(
                    "Invalid move: {} tile is not accessible",
                    t.java_name()
                ))
            }
            Some(_) => {}
        }
        if let Some(other) = self.occupant(to) {
            let who = self.players[other].name.clone();
            return bad(format!("Player {who} is already on this tile."));
        }
        self.place(seat, to);
        Performed {
            valid: true,
            broadcast: Some(format!(
                r#"{{"message":"action","type":"move","direction":"{dir}""#
            )),
            event: format!("{} moves {dir} to {to}", self.players[seat].name),
            effect: Some(Effect::Move { from, to }),
            ..Performed::default()
        }
    }

    /// The level of a weapon the seat may fire now, or why not (silent, as the original).
    fn ready(&self, seat: usize, weapon: Weapon) -> Result<u8, String> {
        if self.on_spawn(seat) {
            return Err(format!("cannot fire the {weapon} from a spawn tile"));
        }
        self.players[seat]
            .level(weapon)
            .ok_or_else(|| format!("has no {weapon} (not in its loadout)"))
    }

    /// How every shot starts: the shooter's level of `weapon` (which it must have and may fire
    /// now), and the action's `key` as `read` reads it; else why the action is invalid, as
    /// [`Performed::invalid`] takes it, with the 2013 server's error for a missing key (the
    /// mortar's names its key, the others a direction).
    fn aim<'a, T>(
        &self,
        seat: usize,
        weapon: Weapon,
        (action, key): (&'a JsonMap<String, Value>, &str),
        read: impl FnOnce(&'a Value) -> Option<T>,
    ) -> Result<(u8, T), (String, Option<String>)> {
        let level = self.ready(seat, weapon).map_err(|why| (why, None))?;
        let Some(value) = action.get(key).and_then(read) else {
            let e = match weapon {
                Weapon::Mortar => "Invalid shot: lacks 'coordinates' key",
                _ => "Invalid shot: lacks a direction key",
            };
            return Err((e.to_string(), Some(e.to_string())));
        };
        Ok((level, value))
    }

    fn do_laser(
        &mut self,
        seat: usize,
        action: &JsonMap<String, Value>,
        turns_left: i32,
    ) -> Performed {
        let aimed = self.aim(seat, Weapon::Laser, (action, "direction"), Some);
        let (level, value) = match aimed {
            Ok(aimed) => aimed,
            Err((event, error)) => return Performed::invalid(event, error),
        };
        let text = shown(value);
        let Some(dir) = Dir::parse(&text) else {
            let e = format!("Invalid shot: unknown direction '{text}'");
            return Performed::invalid(e.clone(), Some(e));
        };
        let (range, base) = weapon_stats(Weapon::Laser, level);
        let damage = with_bonus(base, turns_left);
        let from = self.players[seat].pos;
        let mut at = from;
        let mut hits = Vec::new();
        for _ in 0..range {
            let next = at.step(dir);
            match self.tile(next) {
                None | Some(Tile::Rock) => break,
                Some(_) => {}
            }
            at = next;
            self.damage_tile(at, damage, seat, &mut hits);
        }
        let name = &self.players[seat].name;
        let event = format!(
            "{name} fires the laser {dir} (level {level}, {damage} damage){}",
            self.hits_text(&hits)
        );
        Performed {
            valid: true,
            offensive: true,
            broadcast: Some(format!(
                r#"{{"message":"action","type":"laser","direction":"{dir}""#
            )),
            event,
            effect: Some(Effect::Laser { from, to: at }),
            hits,
            ..Performed::default()
        }
    }

    fn do_mortar(
        &mut self,
        seat: usize,
        action: &JsonMap<String, Value>,
        turns_left: i32,
    ) -> Performed {
        let aimed = self.aim(seat, Weapon::Mortar, (action, "coordinates"), Some);
        let (level, value) = match aimed {
            Ok(aimed) => aimed,
            Err((event, error)) => return Performed::invalid(event, error),
        };
        let text = shown(value);
        let Some((dj, dk)) = value.as_str().and_then(super::protocol::parse_coordinates) else {
            return Performed::invalid(
                format!("mortar coordinates {} are not \"j,k\"", quoted(&text)),
                None,
            );
        };
        let (range, base) = weapon_stats(Weapon::Mortar, level);
        if offset_length(dj, dk) > range {
            return Performed::invalid(
                format!("mortar target {dj},{dk} is out of range ({range})"),
                None,
            );
        }
        let from = self.players[seat].pos;
        let target = from.offset(dj, dk);
        let Some(tile) = self.tile(target) else {
            return Performed::invalid(format!("mortar target {target} is off the map"), None);
        };
        let exploded = match tile {
            Tile::Rock | Tile::Void => false,
            Tile::Spawn => self.params.shell_on_spawn_explodes,
            _ => true,
        };
        let mut hits = Vec::new();
        let direct = with_bonus(base, turns_left);
        let aoe = with_bonus(self.params.mortar_aoe, turns_left);
        if exploded {
            self.explode(target, direct, aoe, seat, &mut hits);
        }
        let name = &self.players[seat].name;
        let event = if exploded {
            format!(
                "{name} fires the mortar at {target} (level {level}, {direct}/{aoe} damage){}",
                self.hits_text(&hits)
            )
        } else {
            format!(
                "{name} fires the mortar at {target}: the shell falls on {} and does nothing",
                tile.java_name().to_lowercase()
            )
        };
        Performed {
            valid: true,
            offensive: true,
            broadcast: Some(format!(
                r#"{{"message":"action","type":"mortar","coordinates":"{dj},{dk}""#
            )),
            event,
            effect: Some(Effect::Mortar {
                from,
                target,
                exploded,
            }),
            hits,
            ..Performed::default()
        }
    }

    fn do_droid(
        &mut self,
        seat: usize,
        action: &JsonMap<String, Value>,
        turns_left: i32,
    ) -> Performed {
        let aimed = self.aim(seat, Weapon::Droid, (action, "sequence"), Value::as_array);
        let (level, list) = match aimed {
            Ok(aimed) => aimed,
            Err((event, error)) => return Performed::invalid(event, error),
        };
        let (range, base) = weapon_stats(Weapon::Droid, level);
        let mut errors = Vec::new();
        if list.len() > range as usize {
            errors.push(format!(
                "Got {} commands for the droid, but your droids level ({level}) only supports {range} steps.",
                list.len()
            ));
        }
        let Some(seq) = list
            .iter()
            .map(|v| v.as_str().and_then(Dir::parse_lenient))
            .collect::<Option<Vec<Dir>>>()
        else {
            let e = "Invalid shot: unknown direction in droid sequence".to_string();
            errors.push(e.clone());
            return Performed {
                errors,
                event: e,
                ..Performed::default()
            };
        };
        let from = self.players[seat].pos;
        let mut path = vec![from];
        let mut taken = Vec::new();
        let mut at = from;
        for &dir in seq.iter().take(range as usize) {
            let next = at.step(dir);
            match self.tile(next) {
                None | Some(Tile::Spawn | Tile::Rock | Tile::Void) => break,
                Some(_) => {}
            }
            at = next;
            path.push(at);
            taken.push(dir);
        }
        let mut hits = Vec::new();
        let direct = with_bonus(base, turns_left);
        let aoe = with_bonus(DROID_AOE, turns_left);
        self.explode(at, direct, aoe, seat, &mut hits);
        let name = &self.players[seat].name;
        let steps = match taken.len() {
            0 => "without moving".to_string(),
            1 => "1 step".to_string(),
            n => format!("{n} steps"),
        };
        let event = format!(
            "{name} sends a droid {steps} to {at} (level {level}, {direct}/{aoe} damage){}",
            self.hits_text(&hits)
        );
        Performed {
            valid: true,
            offensive: true,
            errors,
            broadcast: Some(format!(
                r#"{{"message":"action","type":"droid","sequence":{}"#,
                dir_list(&taken)
            )),
            event,
            effect: Some(Effect::Droid { path }),
            hits,
        }
    }

    fn do_mine(&mut self, seat: usize) -> Performed {
        let at = self.players[seat].pos;
        let i = self.map.index(at);
        let Some(resource) = self.tiles[i].resource() else {
            return Performed::invalid(
                "mine refused: not on a resource tile".to_string(),
                Some("Tried to mine while not on a resource tile!".to_string()),
            );
        };
        self.amount[i] = self.amount[i].saturating_sub(1);
        if self.amount[i] == 0 {
            self.tiles[i] = Tile::Grass;
            self.tiles_version = self.tiles_version.wrapping_add(1);
        }
        let p = &mut self.players[seat];
        p.resources[resource.index()] += 1;
        Performed {
            valid: true,
            broadcast: Some(r#"{"message":"action","type":"mine""#.to_string()),
            event: format!(
                "{} mines {} at {at} (has {})",
                p.name,
                resource.name(),
                p.resources[resource.index()]
            ),
            effect: Some(Effect::Mine { at, resource }),
            ..Performed::default()
        }
    }

    fn do_upgrade(&mut self, seat: usize, action: &JsonMap<String, Value>) -> Performed {
        let silent = |why: String| Performed::invalid(format!("upgrade refused: {why}"), None);
        let Some(value) = action.get("weapon") else {
            return silent("no weapon named".to_string());
        };
        let text = shown(value);
        if self.params.spawn_only_moves && self.on_spawn(seat) {
            return silent("on a spawn tile a player may only move".to_string());
        }
        let p = &self.players[seat];
        let Some(slot) = p.weapons.iter().position(|(w, _)| w.name() == text) else {
            return silent(format!("'{text}' is not in its loadout"));
        };
        let (weapon, level) = p.weapons[slot];
        let Some(cost) = upgrade_cost(level) else {
            return silent(format!("the {weapon} is already at level 3"));
        };
        let resource = upgrade_resource(weapon);
        let have = p.resources[resource.index()];
        if have < cost {
            return silent(format!(
                "the {weapon} needs {cost} {}, it has {have}",
                resource.name()
            ));
        }
        let p = &mut self.players[seat];
        p.resources[resource.index()] -= cost;
        p.weapons[slot].1 = level + 1;
        Performed {
            valid: true,
            broadcast: Some(format!(
                r#"{{"message":"action","type":"upgrade","weapon":"{weapon}""#
            )),
            event: format!("{} upgrades the {weapon} to level {}", p.name, level + 1),
            effect: Some(Effect::Upgrade {
                weapon,
                level: level + 1,
            }),
            ..Performed::default()
        }
    }

    /// ": bravo −22 (78 hp), charlie −2 (destroyed)" or ": no one is hit".
    fn hits_text(&self, hits: &[Hit]) -> String {
        if hits.is_empty() {
            return ": no one is hit".to_string();
        }
        let parts: Vec<String> = hits
            .iter()
            .map(|h| {
                let v = &self.players[h.victim];
                let state = if h.killed {
                    "destroyed".to_string()
                } else {
                    format!("{} hp", v.health)
                };
                let back = if h.reflected {
                    " (came back from a spawn tile)"
                } else {
                    ""
                };
                format!("{} −{} ({state}){back}", v.name, h.damage)
            })
            .collect();
        format!(": {}", parts.join(", "))
    }
}
