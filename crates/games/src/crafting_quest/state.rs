//! The world of a match: units, teams, buried resources, visible piles, towers and traps, and
//! every action of the original server (rulebook: *Rules*) with the bugs fixed that the rulebook's
//! *Departures from the original* lists.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::Arc;

use super::map::Map;
use super::protocol::Request;
use super::scenario::*;

/// One unit. Its id is `seat × 10 + i`, which is also its index in [`World::units`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub id: usize,
    pub seat: usize,
    pub x: i32,
    pub y: i32,
    pub energy: i32,
    /// The maximum energy; attacks lower it; at 0 or below the unit dies.
    pub life: i32,
    /// Own turns still to spend at 0 energy (a trap).
    pub frozen: u32,
    /// Equipped sword and armour levels (0: none). Equipped items stay in the cargo.
    pub sword: u8,
    pub armour: u8,
    /// Retaliation energy and threshold (rulebook: *Retaliation*); they persist until the unit changes them.
    pub retaliate: (i32, i32),
    /// Carried resources (gold is never carried: it goes to the team).
    pub res: [u32; 7],
    /// Carried swords and armour, per level.
    pub items: [[u32; 3]; 2],
    /// The last dig of this turn: the cell and the quantities found.
    pub dig: Option<(i32, i32, [u16; 7])>,
}

impl Unit {
    fn new(id: usize, seat: usize, (x, y): (i32, i32)) -> Unit {
        Unit {
            id,
            seat,
            x,
            y,
            energy: MAX_ENERGY,
            life: MAX_ENERGY,
            frozen: 0,
            sword: 0,
            armour: 0,
            retaliate: (0, 0),
            res: [0; 7],
            items: [[0; 3]; 2],
            dig: None,
        }
    }

    /// Rulebook, *Energy*: every resource weighs 1 (gold 0), swords 5/7/10, armour 10/15/20.
    pub fn weight(&self) -> i32 {
        let res: u32 = self.res[..GOLD].iter().sum();
        let mut w = res as i32;
        for (k, levels) in self.items.iter().enumerate() {
            for (l, n) in levels.iter().enumerate() {
                w = w.saturating_add(ITEM_WEIGHT[k][l].saturating_mul(*n as i32));
            }
        }
        w
    }

    pub fn move_cost(&self) -> i32 {
        MOVE_BASE.saturating_add(MOVE_PER_WEIGHT.saturating_mul(self.weight()))
    }
}

/// A team's purse, knowledge and statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Team {
    pub gold: i64,
    /// Per kind: the highest blueprint level known (all lower levels are known too).
    pub known: [u8; 4],
    pub kills: u32,
    pub retaliation_kills: u32,
    pub deaths: u32,
    pub towers_placed: u32,
    pub traps_placed: u32,
    pub traps_sprung: u32,
    pub sprees: u32,
    pub first_blood: bool,
    /// Resource units taken out of the ground (gold included).
    pub dug_up: u64,
    /// 5 × level per item crafted or placed.
    pub crafted: i64,
    pub home: (i32, i32),
}

impl Team {
    /// Rulebook, *Scoring*: kills × 10 × (1 + towers/20) × trap factor, rounded half up, + 150 per
    /// spree + 100 for first blood + 1 per 10 resource units dug up + crafting points.
    pub fn score(&self) -> i64 {
        let kills = i128::from(self.kills);
        let towers = i128::from(self.towers_placed);
        let (p, s) = (i128::from(self.traps_placed), i128::from(self.traps_sprung));
        let (mut num, mut den) = (kills * 10 * (20 + towers), 20i128);
        if p > 0 && s > 0 {
            num *= 3 * p + s;
            den *= 3 * p;
        }
        let kill_points = (2 * num + den) / (2 * den);
        kill_points as i64
            + 150 * i64::from(self.sprees)
            + if self.first_blood { 100 } else { 0 }
            + (self.dug_up / 10) as i64
            + self.crafted
    }
}

/// Dropped resources and items lying visible on a cell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pile {
    pub res: [u32; 7],
    pub items: [[u32; 3]; 2],
}

impl Pile {
    fn is_empty(&self) -> bool {
        self.res.iter().all(|&n| n == 0) && self.items.iter().flatten().all(|&n| n == 0)
    }

    pub fn total(&self) -> u32 {
        self.res.iter().sum::<u32>() + self.items.iter().flatten().sum::<u32>()
    }
}

/// A tower or a trap: at most one per cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Structure {
    Tower {
        seat: usize,
        level: u8,
        strength: i32,
        /// Placement order (towers drain in this order).
        serial: u32,
    },
    Trap {
        seat: usize,
        level: u8,
    },
}

/// The answer to one request: the result code, a text for people, and the unit to report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    pub code: Code,
    pub reason: String,
    pub unit: Option<usize>,
}

impl Answer {
    fn ok(unit: usize, reason: impl Into<String>) -> Answer {
        Answer {
            code: Code::NoError,
            reason: reason.into(),
            unit: Some(unit),
        }
    }
    fn err(code: Code, unit: Option<usize>, reason: impl Into<String>) -> Answer {
        Answer {
            code,
            reason: reason.into(),
            unit,
        }
    }
}

/// What happened during a turn, for the frame's events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub requests: u32,
    pub errors: u32,
    pub moves: u32,
    pub digs: u32,
    pub pickups: u32,
    pub picked: u64,
    pub dug_up: u64,
    pub drops: u32,
    pub crafts: u32,
    pub attacks: u32,
    /// Notable events in words (kills, crafts, towers, traps, research).
    pub events: Vec<String>,
    /// Attacks of the turn as `[x0, y0, x1, y1, seat]`, for the viewer.
    pub strikes: Vec<[i32; 5]>,
}

/// The state of a match apart from whose turn it is.
#[derive(Clone, Debug)]
pub struct World {
    pub map: Arc<Map>,
    pub seats: usize,
    pub buried: Vec<[u16; 7]>,
    pub piles: BTreeMap<usize, Pile>,
    pub structures: BTreeMap<usize, Structure>,
    pub units: Vec<Unit>,
    pub teams: Vec<Team>,
    /// Rulebook, *Scoring*: the last killer and the game-wide spree counter.
    pub spree: Option<(usize, u32)>,
    pub any_kill: bool,
    pub next_serial: u32,
    pub tally: Tally,
}

fn words_of(res: &[u32; 7]) -> String {
    let mut out = String::new();
    for (r, &n) in res.iter().enumerate() {
        if n > 0 {
            if !out.is_empty() {
                out.push_str(", ");
            }
            let _ = write!(out, "{} {n}", RESOURCES[r]);
        }
    }
    out
}

impl World {
    pub fn new(map: Arc<Map>, seats: usize) -> World {
        let seats = seats.clamp(1, 4);
        let mut units = Vec::with_capacity(seats * UNITS);
        let mut teams = Vec::with_capacity(seats);
        for seat in 0..seats {
            for i in 0..UNITS {
                let at = map.placements[seat]
                    .get(i)
                    .copied()
                    .unwrap_or(map.homes[seat]);
                units.push(Unit::new(seat * UNITS + i, seat, at));
            }
            teams.push(Team {
                gold: INITIAL_GOLD,
                known: [1; 4],
                home: map.homes[seat],
                ..Team::default()
            });
        }
        World {
            buried: map.buried.clone(),
            map,
            seats,
            piles: BTreeMap::new(),
            structures: BTreeMap::new(),
            units,
            teams,
            spree: None,
            any_kill: false,
            next_serial: 0,
            tally: Tally::default(),
        }
    }

    pub fn size(&self) -> usize {
        self.map.size
    }

    pub fn idx(&self, x: i32, y: i32) -> usize {
        self.map.idx(x, y)
    }

    pub fn tower_at(&self, c: usize) -> bool {
        matches!(self.structures.get(&c), Some(Structure::Tower { .. }))
    }

    /// The units of a seat.
    pub fn team_units(&self, seat: usize) -> &[Unit] {
        let start = (seat * UNITS).min(self.units.len());
        let end = ((seat + 1) * UNITS).min(self.units.len());
        &self.units[start..end]
    }

    /// Rulebook, *Energy* and *Towers*: at the start of a seat's turn: its units' energy is replenished (frozen units
    /// stay at 0 and count down), then opponent towers drain them. Dig results are cleared.
    pub fn start_turn(&mut self, seat: usize, events: &mut Vec<String>) {
        for u in self.units.iter_mut().filter(|u| u.seat == seat) {
            u.dig = None;
            if u.frozen > 0 {
                u.energy = 0;
                u.frozen -= 1;
            } else {
                u.energy = replenish(u.energy, u.life);
            }
        }
        let mut towers: Vec<(u32, usize)> = self
            .structures
            .iter()
            .filter_map(|(&c, s)| match s {
                Structure::Tower {
                    seat: owner,
                    serial,
                    ..
                } if *owner != seat => Some((*serial, c)),
                _ => None,
            })
            .collect();
        towers.sort_unstable();
        let size = self.size();
        for (_, c) in towers {
            let (tx, ty) = ((c % size) as i32, (c / size) as i32);
            for i in 0..self.units.len() {
                let Some(Structure::Tower {
                    seat: owner,
                    level,
                    strength,
                    ..
                }) = self.structures.get(&c).copied()
                else {
                    break;
                };
                let u = &self.units[i];
                if u.seat != seat {
                    continue;
                }
                let l = usize::from(level.clamp(1, 3)) - 1;
                let (dx, dy) = (u.x - tx, u.y - ty);
                if dx.abs() > TOWER_RANGE[l] || dy.abs() > TOWER_RANGE[l] {
                    continue;
                }
                let drain = (TOWER_DRAIN[l] / tower_distance(dx, dy)).min(strength);
                let unit = &mut self.units[i];
                unit.energy = (unit.energy - drain).max(0);
                let left = strength - drain;
                if left <= 0 {
                    self.structures.remove(&c);
                    events.push(format!(
                        "seat {}'s tower at ({tx},{ty}) is spent and removed",
                        owner + 1
                    ));
                } else if let Some(Structure::Tower { strength, .. }) = self.structures.get_mut(&c)
                {
                    *strength = left;
                }
            }
        }
    }

    /// The unit `id` if it belongs to `seat`.
    fn own(&self, seat: usize, id: i64) -> Result<usize, Answer> {
        usize::try_from(id)
            .ok()
            .filter(|&i| i < self.units.len() && self.units[i].seat == seat)
            .ok_or_else(|| {
                Answer::err(
                    Code::UnitIdError,
                    None,
                    format!("unit {id} is not one of yours"),
                )
            })
    }

    fn pile(&mut self, c: usize) -> &mut Pile {
        self.piles.entry(c).or_default()
    }

    fn tidy_pile(&mut self, c: usize) {
        if self.piles.get(&c).is_some_and(Pile::is_empty) {
            self.piles.remove(&c);
        }
    }

    /// Carries out one request of `seat` (not `End`/`State`, which the game handles).
    pub fn act(&mut self, seat: usize, request: &Request) -> Answer {
        self.tally.requests += 1;
        let answer = match self.act_inner(seat, request) {
            Ok(a) | Err(a) => a,
        };
        if answer.code != Code::NoError {
            self.tally.errors += 1;
        }
        answer
    }

    fn act_inner(&mut self, seat: usize, request: &Request) -> Result<Answer, Answer> {
        match *request {
            Request::Move { unit, x, y } => self.move_unit(seat, unit, x, y),
            Request::Attack {
                unit,
                player,
                target,
                energy,
            } => self.attack(seat, unit, player, target, energy),
            Request::Prepare {
                unit,
                energy,
                threshold,
            } => {
                let i = self.own(seat, unit)?;
                let (Ok(r), Ok(t)) = (i32::try_from(energy), i32::try_from(threshold)) else {
                    return Err(Answer::err(
                        Code::OperandError,
                        Some(i),
                        "numbers too large",
                    ));
                };
                if r < 0 || t < 0 {
                    return Err(Answer::err(
                        Code::OperandError,
                        Some(i),
                        "energy and threshold must be at least 0",
                    ));
                }
                self.units[i].retaliate = (r, t);
                Ok(Answer::ok(
                    i,
                    format!("retaliate with {r} while energy ≥ {t}"),
                ))
            }
            Request::Dig { unit } => {
                let i = self.own(seat, unit)?;
                let u = &self.units[i];
                if u.energy < DIG_COST {
                    return Err(no_energy(i, DIG_COST, u.energy));
                }
                let c = self.idx(u.x, u.y);
                let found = self.buried[c];
                let u = &mut self.units[i];
                u.energy -= DIG_COST;
                u.dig = Some((u.x, u.y, found));
                self.tally.digs += 1;
                let words = words_of(&found.map(u32::from));
                Ok(Answer::ok(
                    i,
                    if words.is_empty() {
                        "nothing buried here".to_string()
                    } else {
                        format!("buried here: {words}")
                    },
                ))
            }
            Request::Pickup {
                unit,
                ref resources,
                ref objects,
            } => self.pickup(seat, unit, resources, objects),
            Request::Drop {
                unit,
                ref resources,
                ref objects,
            } => self.drop_things(seat, unit, resources, objects),
            Request::Craft { unit, kind, level } => self.craft(seat, unit, kind, level),
            Request::Equip { unit, kind, level } => {
                let i = self.own(seat, unit)?;
                if !kind.carried() {
                    return Err(Answer::err(
                        Code::OperandError,
                        Some(i),
                        "only swords and armour are equipped",
                    ));
                }
                let l = level_of(level).ok_or_else(|| {
                    Answer::err(Code::OperandError, Some(i), "levels are 1, 2 and 3")
                })?;
                let u = &mut self.units[i];
                if u.items[kind.index()][usize::from(l) - 1] == 0 {
                    return Err(Answer::err(
                        Code::EquipmentMissingError,
                        Some(i),
                        format!("unit {} carries no level-{l} {}", u.id, kind.name()),
                    ));
                }
                if kind == Kind::Sword {
                    u.sword = l;
                } else {
                    u.armour = l;
                }
                Ok(Answer::ok(i, format!("level-{l} {} equipped", kind.name())))
            }
            Request::PlaceTower { unit, level } => self.place(seat, unit, Kind::Tower, level),
            Request::PlaceTrap { unit, level } => self.place(seat, unit, Kind::Trap, level),
            Request::Research { unit, kind, level } => self.research(seat, unit, kind, level),
            Request::View { unit } => {
                let i = self.own(seat, unit)?;
                Ok(Answer::ok(i, ""))
            }
            Request::State | Request::End => Ok(Answer::err(Code::NoError, None, "")),
        }
    }

    fn move_unit(&mut self, seat: usize, unit: i64, x: i64, y: i64) -> Result<Answer, Answer> {
        let i = self.own(seat, unit)?;
        let u = &self.units[i];
        // The bot's numbers can be anything (i64::MIN included): compare without arithmetic
        // that could overflow.
        let (ux, uy) = (i64::from(u.x), i64::from(u.y));
        if x.abs_diff(ux) > 1 || y.abs_diff(uy) > 1 || (x == ux && y == uy) {
            return Err(Answer::err(
                Code::MoveError,
                Some(i),
                "a move goes to one of the 8 neighbouring cells",
            ));
        }
        let (x, y) = (x as i32, y as i32);
        if !self.map.inside(x, y) {
            return Err(Answer::err(Code::MoveError, Some(i), "outside the map"));
        }
        let c = self.idx(x, y);
        if self.map.rock[c] {
            return Err(Answer::err(Code::TerrainError, Some(i), "rock"));
        }
        if self.tower_at(c) {
            return Err(Answer::err(
                Code::ObstacleError,
                Some(i),
                "a tower stands there",
            ));
        }
        let cost = u.move_cost();
        if u.energy < cost {
            return Err(no_energy(i, cost, u.energy));
        }
        let u = &mut self.units[i];
        u.energy -= cost;
        u.x = x;
        u.y = y;
        self.tally.moves += 1;
        if let Some(&Structure::Trap { seat: owner, level }) = self.structures.get(&c) {
            self.structures.remove(&c);
            let u = &mut self.units[i];
            u.energy = 0;
            u.frozen = u32::from(level) + 1;
            if owner != seat {
                self.teams[owner].traps_sprung += 1;
            }
            let text = format!(
                "unit {} walks into seat {}'s level-{level} trap at ({x},{y}): frozen for {} turns",
                u.id,
                owner + 1,
                u.frozen
            );
            self.tally.events.push(text.clone());
            return Ok(Answer::ok(i, text));
        }
        Ok(Answer::ok(i, ""))
    }

    fn attack(
        &mut self,
        seat: usize,
        unit: i64,
        player: i64,
        target: i64,
        energy: i64,
    ) -> Result<Answer, Answer> {
        let i = self.own(seat, unit)?;
        let Ok(e) = i32::try_from(energy) else {
            return Err(Answer::err(Code::OperandError, Some(i), "energy too large"));
        };
        if e < 1 {
            return Err(Answer::err(
                Code::OperandError,
                Some(i),
                "attack energy must be at least 1",
            ));
        }
        if self.units[i].energy < e {
            return Err(no_energy(i, e, self.units[i].energy));
        }
        let p = usize::try_from(player)
            .ok()
            .filter(|&p| p < self.seats)
            .ok_or_else(|| {
                Answer::err(Code::PlayerIdError, Some(i), format!("no player {player}"))
            })?;
        let t = usize::try_from(target)
            .ok()
            .filter(|&t| t < self.units.len() && self.units[t].seat == p)
            .ok_or_else(|| {
                Answer::err(
                    Code::UnitIdError,
                    Some(i),
                    format!("player {player} has no unit {target}"),
                )
            })?;
        if p == seat {
            return Err(Answer::err(
                Code::FriendlyFireError,
                Some(i),
                "that unit is yours",
            ));
        }
        let (ax, ay, a_sword, a_armour) = {
            let a = &self.units[i];
            (a.x, a.y, a.sword, a.armour)
        };
        let (dx, dy, d_armour) = {
            let d = &self.units[t];
            (d.x, d.y, d.armour)
        };
        if (ax - dx).abs() > 1 || (ay - dy).abs() > 1 {
            return Err(Answer::err(
                Code::ProximityError,
                Some(i),
                format!("unit {t} is not next to unit {i}"),
            ));
        }
        let hit = damage(e, a_sword, d_armour);
        self.tally.attacks += 1;
        self.tally.strikes.push([ax, ay, dx, dy, seat as i32]);
        self.units[i].energy -= e;
        let d = &mut self.units[t];
        d.life -= hit;
        d.energy = d.energy.min(d.life.max(0));
        if d.life <= 0 {
            let text = format!("unit {i} kills seat {}'s unit {t} ({hit} damage)", p + 1);
            self.tally.events.push(text.clone());
            self.kill(seat, t, false);
            return Ok(Answer::ok(i, text));
        }
        let mut reason = format!("unit {t} takes {hit} damage, life {} left", d.life);
        let (r, threshold) = d.retaliate;
        if r >= 1 && d.energy >= threshold && d.energy >= r {
            let back = damage(r, d.sword, a_armour);
            d.energy -= r;
            let a = &mut self.units[i];
            a.life -= back;
            a.energy = a.energy.min(a.life.max(0));
            let _ = write!(reason, "; it retaliates for {back}");
            if a.life <= 0 {
                let text = format!(
                    "seat {}'s unit {t} kills unit {i} by retaliation ({back} damage)",
                    p + 1
                );
                self.tally.events.push(text);
                self.kill(p, i, true);
                reason.push_str("; unit dies and respawns at home");
            }
        }
        Ok(Answer::ok(i, reason))
    }

    /// Rulebook, *Death*: the killer's team scores; the victim drops everything and respawns at home.
    fn kill(&mut self, killer: usize, victim: usize, retaliation: bool) {
        let team = &mut self.teams[killer];
        team.kills += 1;
        if retaliation {
            team.retaliation_kills += 1;
        }
        if !self.any_kill {
            self.any_kill = true;
            team.first_blood = true;
            self.tally
                .events
                .push(format!("first blood: seat {}", killer + 1));
        }
        self.spree = match self.spree {
            Some((last, count)) if last == killer => {
                if count + 1 >= SPREE {
                    team.sprees += 1;
                    self.tally
                        .events
                        .push(format!("killing spree: seat {}", killer + 1));
                    Some((killer, 0))
                } else {
                    Some((killer, count + 1))
                }
            }
            _ => Some((killer, 0)),
        };
        let v = self.units[victim].clone();
        self.teams[v.seat].deaths += 1;
        if v.res.iter().any(|&n| n > 0) || v.items.iter().flatten().any(|&n| n > 0) {
            let c = self.idx(v.x, v.y);
            let pile = self.pile(c);
            for r in 0..7 {
                pile.res[r] += v.res[r];
            }
            for k in 0..2 {
                for l in 0..3 {
                    pile.items[k][l] += v.items[k][l];
                }
            }
        }
        let home = self.teams[v.seat].home;
        let mut fresh = Unit::new(v.id, v.seat, home);
        fresh.retaliate = v.retaliate;
        self.units[victim] = fresh;
    }

    fn pickup(
        &mut self,
        seat: usize,
        unit: i64,
        resources: &[Option<i64>; 7],
        objects: &[(Kind, i64, i64)],
    ) -> Result<Answer, Answer> {
        let i = self.own(seat, unit)?;
        check_amounts(i, resources, objects)?;
        let u = &self.units[i];
        if u.energy < PICKUP_COST {
            return Err(no_energy(i, PICKUP_COST, u.energy));
        }
        let c = self.idx(u.x, u.y);
        self.units[i].energy -= PICKUP_COST;
        self.tally.pickups += 1;
        let mut warnings = Vec::new();
        let mut took = [0u32; 7];
        for (r, q) in resources.iter().enumerate() {
            let Some(q) = *q else { continue };
            let visible = self.piles.get(&c).map_or(0, |p| p.res[r]);
            let buried = u32::from(self.buried[c][r]);
            let Ok(q) = u32::try_from(q) else {
                warnings.push(format!("{} skipped: not that many here", RESOURCES[r]));
                continue;
            };
            if q > visible + buried {
                warnings.push(format!(
                    "{} skipped: {q} asked, {} here",
                    RESOURCES[r],
                    visible + buried
                ));
                continue;
            }
            let from_pile = q.min(visible);
            let from_ground = q - from_pile;
            if from_pile > 0 {
                self.pile(c).res[r] -= from_pile;
            }
            self.buried[c][r] -= from_ground as u16;
            let team = &mut self.teams[seat];
            team.dug_up += u64::from(from_ground);
            self.tally.dug_up += u64::from(from_ground);
            self.tally.picked += u64::from(q);
            if r == GOLD {
                team.gold += i64::from(q);
            } else {
                self.units[i].res[r] += q;
            }
            took[r] = q;
        }
        for &(kind, level, count) in objects {
            let Some(l) = level_of(level).filter(|_| kind.carried()) else {
                warnings.push(format!("no level-{level} {} here", kind.name()));
                continue;
            };
            let (k, l) = (kind.index(), usize::from(l) - 1);
            let here = self.piles.get(&c).map_or(0, |p| p.items[k][l]);
            let n = here.min(u32::try_from(count).unwrap_or(u32::MAX));
            if n == 0 {
                warnings.push(format!("no level-{} {} here", l + 1, kind.name()));
                continue;
            }
            self.pile(c).items[k][l] -= n;
            self.units[i].items[k][l] += n;
        }
        self.tidy_pile(c);
        let mut reason = words_of(&took);
        for w in warnings {
            if !reason.is_empty() {
                reason.push_str("; ");
            }
            reason.push_str(&w);
        }
        Ok(Answer::ok(i, reason))
    }

    fn drop_things(
        &mut self,
        seat: usize,
        unit: i64,
        resources: &[Option<i64>; 7],
        objects: &[(Kind, i64, i64)],
    ) -> Result<Answer, Answer> {
        let i = self.own(seat, unit)?;
        check_amounts(i, resources, objects)?;
        let c = self.idx(self.units[i].x, self.units[i].y);
        self.tally.drops += 1;
        let mut warnings = Vec::new();
        for (r, q) in resources.iter().enumerate() {
            let Some(q) = *q else { continue };
            if r == GOLD {
                warnings.push("gold belongs to the team purse".to_string());
                continue;
            }
            let n = self.units[i].res[r].min(u32::try_from(q).unwrap_or(u32::MAX));
            if n == 0 {
                warnings.push(format!("no {} carried", RESOURCES[r]));
                continue;
            }
            self.units[i].res[r] -= n;
            self.pile(c).res[r] += n;
        }
        for &(kind, level, count) in objects {
            let Some(l) = level_of(level).filter(|_| kind.carried()) else {
                warnings.push(format!("no level-{level} {} carried", kind.name()));
                continue;
            };
            let (k, li) = (kind.index(), usize::from(l) - 1);
            let u = &mut self.units[i];
            let n = u.items[k][li].min(u32::try_from(count).unwrap_or(u32::MAX));
            if n == 0 {
                warnings.push(format!("no level-{l} {} carried", kind.name()));
                continue;
            }
            u.items[k][li] -= n;
            if u.items[k][li] == 0 {
                if kind == Kind::Sword && u.sword == l {
                    u.sword = 0;
                }
                if kind == Kind::Armour && u.armour == l {
                    u.armour = 0;
                }
            }
            self.pile(c).items[k][li] += n;
        }
        self.tidy_pile(c);
        Ok(Answer::ok(i, warnings.join("; ")))
    }

    /// The missing part of a recipe, in words (empty when the unit carries it all).
    fn missing(&self, i: usize, kind: Kind, level: u8) -> String {
        let recipe = &RECIPES[kind.index()][usize::from(level) - 1];
        let mut short = [0u32; 7];
        for r in 0..7 {
            short[r] = recipe[r].saturating_sub(self.units[i].res[r]);
        }
        words_of(&short)
    }

    fn take_recipe(&mut self, i: usize, kind: Kind, level: u8) {
        let recipe = &RECIPES[kind.index()][usize::from(level) - 1];
        for (have, need) in self.units[i].res.iter_mut().zip(recipe) {
            *have -= need;
        }
    }

    /// Checks a blueprint is real and known: `Ok(level)`.
    fn blueprint(&self, seat: usize, i: usize, kind: Kind, level: i64) -> Result<u8, Answer> {
        let l = level_of(level).ok_or_else(|| {
            Answer::err(
                Code::BlueprintError,
                Some(i),
                format!("there is no level-{level} {} blueprint", kind.name()),
            )
        })?;
        if self.teams[seat].known[kind.index()] < l {
            return Err(Answer::err(
                Code::MissingBlueprintError,
                Some(i),
                format!("the level-{l} {} blueprint is not researched", kind.name()),
            ));
        }
        Ok(l)
    }

    fn craft(&mut self, seat: usize, unit: i64, kind: Kind, level: i64) -> Result<Answer, Answer> {
        let i = self.own(seat, unit)?;
        if !kind.carried() {
            return Err(Answer::err(
                Code::BlueprintError,
                Some(i),
                "towers and traps are placed with placeTower and placeTrap",
            ));
        }
        let l = self.blueprint(seat, i, kind, level)?;
        let missing = self.missing(i, kind, l);
        if !missing.is_empty() {
            return Err(Answer::err(
                Code::CraftingError,
                Some(i),
                format!("missing {missing}"),
            ));
        }
        self.take_recipe(i, kind, l);
        self.units[i].items[kind.index()][usize::from(l) - 1] += 1;
        self.teams[seat].crafted += 5 * i64::from(l);
        self.tally.crafts += 1;
        let text = format!("unit {i} crafts a level-{l} {}", kind.name());
        self.tally.events.push(text.clone());
        Ok(Answer::ok(i, text))
    }

    fn place(&mut self, seat: usize, unit: i64, kind: Kind, level: i64) -> Result<Answer, Answer> {
        let i = self.own(seat, unit)?;
        let l = self.blueprint(seat, i, kind, level)?;
        let (x, y) = (self.units[i].x, self.units[i].y);
        let c = self.idx(x, y);
        if self.structures.contains_key(&c) {
            return Err(Answer::err(
                Code::BuildError,
                Some(i),
                "this cell already holds a tower or a trap",
            ));
        }
        let missing = self.missing(i, kind, l);
        if !missing.is_empty() {
            return Err(Answer::err(
                Code::CraftingError,
                Some(i),
                format!("missing {missing}"),
            ));
        }
        let cost = if kind == Kind::Tower {
            TOWER_COST
        } else {
            TRAP_COST
        };
        if self.units[i].energy < cost {
            return Err(no_energy(i, cost, self.units[i].energy));
        }
        self.take_recipe(i, kind, l);
        self.units[i].energy -= cost;
        let team = &mut self.teams[seat];
        team.crafted += 5 * i64::from(l);
        let structure = if kind == Kind::Tower {
            team.towers_placed += 1;
            self.next_serial += 1;
            Structure::Tower {
                seat,
                level: l,
                strength: TOWER_STRENGTH[usize::from(l) - 1],
                serial: self.next_serial,
            }
        } else {
            team.traps_placed += 1;
            Structure::Trap { seat, level: l }
        };
        self.structures.insert(c, structure);
        self.tally.crafts += 1;
        let text = format!("unit {i} places a level-{l} {} at ({x},{y})", kind.name());
        if kind == Kind::Tower {
            self.tally.events.push(text.clone());
        } else {
            // Traps are secret: the event names only the seat.
            self.tally
                .events
                .push(format!("seat {} places a trap", seat + 1));
        }
        Ok(Answer::ok(i, text))
    }

    fn research(
        &mut self,
        seat: usize,
        unit: i64,
        kind: Kind,
        level: i64,
    ) -> Result<Answer, Answer> {
        let i = self.own(seat, unit)?;
        let l = self.blueprint(seat, i, kind, level)?;
        if l >= 3 || self.teams[seat].known[kind.index()] > l {
            return Err(Answer::err(
                Code::NoUpgradeError,
                Some(i),
                format!(
                    "the level-{} {} blueprint is already the highest known",
                    self.teams[seat].known[kind.index()],
                    kind.name()
                ),
            ));
        }
        let cost = RESEARCH_GOLD[kind.index()][usize::from(l) - 1];
        if self.teams[seat].gold < cost {
            return Err(Answer::err(
                Code::NoCreditError,
                Some(i),
                format!("{cost} gold needed, {} in the purse", self.teams[seat].gold),
            ));
        }
        if self.units[i].energy < RESEARCH_ENERGY {
            return Err(no_energy(i, RESEARCH_ENERGY, self.units[i].energy));
        }
        self.units[i].energy -= RESEARCH_ENERGY;
        let team = &mut self.teams[seat];
        team.gold -= cost;
        team.known[kind.index()] = l + 1;
        let text = format!(
            "seat {} researches the level-{} {}",
            seat + 1,
            l + 1,
            kind.name()
        );
        self.tally.events.push(text.clone());
        Ok(Answer::ok(i, text))
    }
}

fn no_energy(i: usize, need: i32, have: i32) -> Answer {
    Answer::err(
        Code::NoEnergyError,
        Some(i),
        format!("{need} energy needed, {have} left"),
    )
}

/// A level 1–3.
pub fn level_of(level: i64) -> Option<u8> {
    (1..=3).contains(&level).then_some(level as u8)
}

/// Pickup and drop amounts must be at least 1, and something must be asked.
fn check_amounts(
    i: usize,
    resources: &[Option<i64>; 7],
    objects: &[(Kind, i64, i64)],
) -> Result<(), Answer> {
    if resources.iter().all(Option::is_none) && objects.is_empty() {
        return Err(Answer::err(Code::OperandError, Some(i), "nothing asked"));
    }
    if resources.iter().flatten().any(|&q| q < 1) || objects.iter().any(|o| o.2 < 1) {
        return Err(Answer::err(
            Code::OperandError,
            Some(i),
            "quantities must be at least 1",
        ));
    }
    Ok(())
}
