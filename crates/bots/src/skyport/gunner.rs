//! The `gunner` bot. It picks its two weapons by the map's resources and the ruleset, then each
//! turn tries every plan of up to three actions (steps, mining, upgrades, and a shot with any
//! weapon at any target) on its own copy of the board, simulating the shots exactly, and plays
//! the plan worth most: damage dealt and kills, minus damage to itself, plus what mining and
//! upgrades are worth, plus where it ends the turn (in reach of a target next turn, at its
//! preferred range, out of the enemies' easy reach, never on its spawn tile).

use super::protocol::{
    distance, neighbours, upgrade_index, weapon_stats, with_bonus, Act, Board, Dir, Pos, Ruleset,
    State, Weapon,
};
use super::{Client, Strategy};

/// The strategy of [`Gunner`].
pub struct GunnerStrategy {
    /// Resource tiles this bot has mined once (one unit left as far as it knows).
    mined: Vec<Pos>,
}

/// The `gunner` bot.
pub type Gunner = Client<GunnerStrategy>;

impl Gunner {
    /// The seed is not used: the gunner is deterministic.
    pub fn new(_seed: i64) -> Gunner {
        Client::with(GunnerStrategy { mined: Vec::new() })
    }
}

/// A player as the simulation sees it (index 0 is the gunner).
#[derive(Clone, Debug)]
struct Body {
    pos: Pos,
    health: i32,
    weapons: [(Weapon, u8); 2],
}

/// What a shot does.
#[derive(Clone, Copy, Debug, Default)]
struct Tally {
    dealt: i32,
    kills: u32,
    self_damage: i32,
    self_killed: bool,
}

/// A plan being built.
#[derive(Clone, Debug)]
struct Node {
    pos: Pos,
    resources: [u32; 3],
    weapons: [(Weapon, u8); 2],
    /// Tiles mined during this plan.
    mined: Vec<Pos>,
    valid: u32,
    value: f64,
    acts: Vec<Act>,
}

struct Planner<'a> {
    board: &'a Board,
    rules: Ruleset,
    bodies: Vec<Body>,
    /// Tiles the gunner mined in earlier turns.
    mined_before: &'a [Pos],
    best: (f64, Vec<Act>),
}

/// Upgrade cost from a level.
fn cost(level: u8) -> Option<u32> {
    match level {
        1 => Some(4),
        2 => Some(5),
        _ => None,
    }
}

impl Planner<'_> {
    fn occupied(&self, p: Pos) -> bool {
        // Bodies of the destroyed block their tiles too.
        self.bodies.iter().skip(1).any(|b| b.pos == p)
    }

    /// Resources left on a tile as far as the gunner knows.
    fn left(&self, node: &Node, p: Pos) -> u32 {
        if self.board.resource(p).is_none() {
            return 0;
        }
        let before = self.mined_before.iter().filter(|&&q| q == p).count() as u32;
        let now = node.mined.iter().filter(|&&q| q == p).count() as u32;
        2u32.saturating_sub(before + now)
    }

    /// Damage aimed at a tile (the gunner standing at `me`), with the spawn rule.
    fn hit(&self, health: &mut [i32], me: Pos, at: Pos, damage: i32, t: &mut Tally) {
        let victim = if at == me {
            0
        } else {
            match (1..self.bodies.len()).find(|&i| self.bodies[i].pos == at) {
                Some(i) => i,
                None => return,
            }
        };
        let victim = if self.board.at(at) == b'S' {
            if self.rules.spawn_reflects {
                0
            } else {
                return;
            }
        } else {
            victim
        };
        if health[victim] <= 0 {
            return;
        }
        health[victim] -= damage;
        if victim == 0 {
            t.self_damage += damage;
        } else {
            t.dealt += damage;
        }
        if health[victim] <= 0 {
            if victim == 0 {
                t.self_killed = true;
            } else {
                t.kills += 1;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn blast(&self, health: &mut [i32], me: Pos, at: Pos, direct: i32, aoe: i32, t: &mut Tally) {
        self.hit(health, me, at, direct, t);
        for n in neighbours(at) {
            if self.board.inside(n) {
                self.hit(health, me, n, aoe, t);
            }
        }
    }

    /// Simulates a shot fired from `from` in slot `slot`.
    fn shoot(&self, from: Pos, act: &Act, level: u8, slot: usize) -> Tally {
        let turns_left = 2 - slot as i32;
        let mut health: Vec<i32> = self.bodies.iter().map(|b| b.health).collect();
        let mut t = Tally::default();
        match act {
            Act::Laser(dir) => {
                let (range, base) = weapon_stats(Weapon::Laser, level);
                let damage = with_bonus(base, turns_left);
                let mut at = from;
                for _ in 0..range {
                    let next = at.step(*dir);
                    if !self.board.inside(next) || self.board.at(next) == b'O' {
                        break;
                    }
                    at = next;
                    self.hit(&mut health, from, at, damage, &mut t);
                }
            }
            Act::Mortar(dj, dk) => {
                let (_, base) = weapon_stats(Weapon::Mortar, level);
                let target = Pos::new(from.j + dj, from.k + dk);
                let explodes = match self.board.at(target) {
                    b'O' | b'V' => false,
                    b'S' => self.rules.shell_on_spawn_explodes,
                    _ => true,
                };
                if explodes {
                    let direct = with_bonus(base, turns_left);
                    let aoe = with_bonus(self.rules.mortar_aoe, turns_left);
                    self.blast(&mut health, from, target, direct, aoe, &mut t);
                }
            }
            Act::Droid(seq) => {
                let (range, base) = weapon_stats(Weapon::Droid, level);
                let mut at = from;
                for &d in seq.iter().take(range as usize) {
                    let next = at.step(d);
                    if !matches!(self.board.at(next), b'G' | b'E' | b'R' | b'C') {
                        break;
                    }
                    at = next;
                }
                let direct = with_bonus(base, turns_left);
                let aoe = with_bonus(10, turns_left);
                self.blast(&mut health, from, at, direct, aoe, &mut t);
            }
            _ => {}
        }
        t
    }

    fn shot_value(&self, t: &Tally) -> f64 {
        let kill = 20.0 + self.rules.death_penalty as f64 * 0.5;
        let mut v = f64::from(t.dealt) + f64::from(t.kills) * kill - f64::from(t.self_damage) * 1.2;
        if t.self_killed {
            v -= self.rules.death_penalty as f64 + 30.0;
        }
        v
    }

    /// Whether a straight line from `a` to `b` exists within `range` with no rock before `b`.
    fn laser_line(&self, a: Pos, b: Pos, range: i32) -> bool {
        let (dj, dk) = (b.j - a.j, b.k - a.k);
        let dir = match (dj.signum(), dk.signum()) {
            (0, 1) => Dir::RightDown,
            (0, -1) => Dir::LeftUp,
            (1, 0) => Dir::LeftDown,
            (-1, 0) => Dir::RightUp,
            (1, 1) if dj == dk => Dir::Down,
            (-1, -1) if dj == dk => Dir::Up,
            _ => return false,
        };
        let n = distance(a, b);
        if n == 0 || n > range {
            return false;
        }
        let mut p = a;
        for _ in 0..n {
            p = p.step(dir);
            if self.board.at(p) == b'O' {
                return false;
            }
        }
        true
    }

    /// Whether `weapons` fired from `from` could reach `to` next turn without moving.
    fn can_hit(&self, weapons: &[(Weapon, u8); 2], from: Pos, to: Pos) -> bool {
        weapons.iter().any(|&(w, level)| {
            let (range, _) = weapon_stats(w, level);
            let d = distance(from, to);
            match w {
                Weapon::Laser => self.laser_line(from, to, range),
                Weapon::Mortar => d >= 1 && d <= range,
                Weapon::Droid => d >= 2 && d <= range + 1,
            }
        })
    }

    /// The preferred distance to a target for a loadout.
    fn preferred(weapons: &[(Weapon, u8); 2]) -> i32 {
        let mut best = 2;
        for &(w, level) in weapons {
            let (range, _) = weapon_stats(w, level);
            best = best.max(match w {
                Weapon::Laser => range - 1,
                Weapon::Mortar => range,
                Weapon::Droid => range,
            });
        }
        best
    }

    /// Where the gunner ends its turn.
    fn place_value(&self, node: &Node) -> f64 {
        let p = node.pos;
        let mut v = 0.0;
        if self.board.at(p) == b'S' {
            v -= 10.0;
        }
        let enemies: Vec<&Body> = self
            .bodies
            .iter()
            .skip(1)
            .filter(|b| b.health > 0)
            .collect();
        if enemies.is_empty() {
            return v;
        }
        let mut opportunity = false;
        let mut nearest = i32::MAX;
        for e in &enemies {
            let d = distance(p, e.pos);
            nearest = nearest.min(d);
            if self.can_hit(&e.weapons, e.pos, p) {
                v -= 4.0;
            }
            if d <= 1 {
                v -= 3.0;
            }
            if self.board.at(e.pos) != b'S' && self.can_hit(&node.weapons, p, e.pos) {
                opportunity = true;
            }
        }
        if opportunity {
            v += 10.0;
        }
        let gap = nearest - Self::preferred(&node.weapons);
        v - 1.5 * f64::from(gap.max(0))
    }

    /// What a unit of a resource is worth to this loadout.
    fn mine_value(node: &Node, resource: usize) -> f64 {
        for &(w, level) in &node.weapons {
            if upgrade_index(w) == resource {
                return match cost(level) {
                    Some(c) if node.resources[resource] < c + 5 => 5.0,
                    Some(_) => 1.5,
                    None => 0.5,
                };
            }
        }
        0.5
    }

    fn consider(&mut self, value: f64, acts: &[Act]) {
        if value > self.best.0 + 1e-9 {
            self.best = (value, acts.to_vec());
        }
    }

    /// Every shot from the node's position in its next slot.
    fn shots(&mut self, node: &Node) {
        let slot = node.acts.len();
        if slot >= 3 || self.board.at(node.pos) == b'S' {
            return;
        }
        let place = self.place_value(node);
        for &(w, level) in &node.weapons {
            let (range, _) = weapon_stats(w, level);
            let near = self
                .bodies
                .iter()
                .skip(1)
                .any(|b| b.health > 0 && distance(b.pos, node.pos) <= range + 1);
            if !near {
                continue;
            }
            let mut candidates = Vec::new();
            match w {
                Weapon::Laser => candidates.extend(Dir::ALL.map(Act::Laser)),
                Weapon::Mortar => {
                    for dj in -range..=range {
                        for dk in -range..=range {
                            let t = Pos::new(node.pos.j + dj, node.pos.k + dk);
                            if distance(node.pos, t) <= range
                                && self.board.inside(t)
                                && !matches!(self.board.at(t), b'O' | b'V')
                            {
                                candidates.push(Act::Mortar(dj, dk));
                            }
                        }
                    }
                }
                Weapon::Droid => {
                    for path in self.droid_paths(node.pos, range) {
                        candidates.push(Act::Droid(path));
                    }
                }
            }
            for act in candidates {
                let t = self.shoot(node.pos, &act, level, slot);
                if t.dealt == 0 && t.self_damage == 0 {
                    continue;
                }
                let value = node.value + self.shot_value(&t) + place;
                let mut acts = node.acts.clone();
                acts.push(act);
                self.consider(value, &acts);
            }
        }
    }

    /// One shortest droid path to every tile it can reach in `range` steps.
    fn droid_paths(&self, from: Pos, range: i32) -> Vec<Vec<Dir>> {
        let mut seen = vec![(from, Vec::new())];
        let mut i = 0;
        while i < seen.len() {
            let (p, path) = seen[i].clone();
            i += 1;
            if path.len() as i32 >= range {
                continue;
            }
            for d in Dir::ALL {
                let n = p.step(d);
                if matches!(self.board.at(n), b'G' | b'E' | b'R' | b'C')
                    && !seen.iter().any(|(q, _)| *q == n)
                {
                    let mut next = path.clone();
                    next.push(d);
                    seen.push((n, next));
                }
            }
        }
        seen.into_iter().skip(1).map(|(_, path)| path).collect()
    }

    fn search(&mut self, node: Node) {
        // Stop here.
        let mut stop = node.value + self.place_value(&node);
        if node.valid == 0 {
            stop -= 10.0;
        }
        self.consider(stop, &node.acts);
        self.shots(&node);
        if node.acts.len() >= 3 {
            return;
        }
        let on_spawn = self.board.at(node.pos) == b'S';
        for d in Dir::ALL {
            let to = node.pos.step(d);
            if self.board.walkable(to) && !self.occupied(to) {
                let mut next = node.clone();
                next.pos = to;
                next.valid += 1;
                next.acts.push(Act::Move(d));
                self.search(next);
            }
        }
        if let Some(r) = self.board.resource(node.pos) {
            if self.left(&node, node.pos) > 0 {
                let mut next = node.clone();
                next.value += Self::mine_value(&node, r);
                next.resources[r] += 1;
                next.mined.push(node.pos);
                next.valid += 1;
                next.acts.push(Act::Mine);
                self.search(next);
            }
        }
        if on_spawn && self.rules.spawn_only_moves {
            return;
        }
        for i in 0..2 {
            let (w, level) = node.weapons[i];
            if let Some(c) = cost(level) {
                if node.resources[upgrade_index(w)] >= c {
                    let mut next = node.clone();
                    next.resources[upgrade_index(w)] -= c;
                    next.weapons[i].1 = level + 1;
                    next.value += 20.0;
                    next.valid += 1;
                    next.acts.push(Act::Upgrade(w));
                    self.search(next);
                }
            }
        }
    }
}

impl Strategy for GunnerStrategy {
    fn name(&self) -> &str {
        "gunner"
    }

    fn loadout(&mut self, board: &Board, players: usize, rules: Ruleset) -> (Weapon, Weapon) {
        let n = players.max(1) as f64;
        let per = |tile: u8| board.count(tile) as f64 / n;
        let mut scores = [
            (3.0 + 0.3 * per(b'R'), Weapon::Laser),
            (2.6 + 0.3 * per(b'C'), Weapon::Droid),
            (
                2.3 + 0.3 * per(b'E') + if rules.mortar_aoe >= 10 { 1.0 } else { 0.0 },
                Weapon::Mortar,
            ),
        ];
        scores.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        (scores[0].1, scores[1].1)
    }

    fn turn(&mut self, state: &State, rules: Ruleset) -> Vec<Act> {
        let Some(me) = state.players.first() else {
            return Vec::new();
        };
        let bodies: Vec<Body> = state
            .players
            .iter()
            .map(|p| Body {
                pos: p.pos,
                health: p.health,
                weapons: p.weapons,
            })
            .collect();
        // Forget tiles that are no longer resource tiles.
        self.mined.retain(|&p| state.board.resource(p).is_some());
        let mut planner = Planner {
            board: &state.board,
            rules,
            bodies,
            mined_before: &self.mined,
            best: (f64::NEG_INFINITY, Vec::new()),
        };
        planner.search(Node {
            pos: me.pos,
            resources: me.resources.unwrap_or([0; 3]),
            weapons: me.weapons,
            mined: Vec::new(),
            valid: 0,
            value: 0.0,
            acts: Vec::new(),
        });
        let plan = planner.best.1;
        // Remember what it mines.
        let mut pos = me.pos;
        for act in &plan {
            match act {
                Act::Move(d) => pos = pos.step(*d),
                Act::Mine => self.mined.push(pos),
                _ => {}
            }
        }
        plan
    }
}
