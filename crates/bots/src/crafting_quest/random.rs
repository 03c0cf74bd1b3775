//! `Random`: seeded random play. At the start of each turn it writes a batch of random requests
//! (moves to neighbouring cells it can see, digs, pickups of what lies under a unit, drops,
//! crafts, equips, attacks on neighbouring enemies, retaliation settings) and the end line.
//! Every line is well formed; many are refused by the rules, which is fine.

use engine::JavaRandom;

use super::protocol::{read, write, Message, State, UnitInfo, LETTERS};
use crate::Bot;

pub struct Random {
    rng: JavaRandom,
}

impl Random {
    pub fn new(seed: i64) -> Self {
        Random {
            rng: JavaRandom::new(seed),
        }
    }

    fn below(&mut self, n: i32) -> i32 {
        self.rng.next_int_bounded(n.max(1))
    }

    fn play(&mut self, state: &State) -> Vec<String> {
        let mut out = Vec::new();
        let n = self.below(14);
        for _ in 0..n {
            if state.units.is_empty() {
                break;
            }
            let u = &state.units[self.below(state.units.len() as i32) as usize];
            if let Some(line) = self.request(state, u) {
                out.push(line);
            }
        }
        out.push(write::end());
        out
    }

    fn request(&mut self, state: &State, u: &UnitInfo) -> Option<String> {
        let here = u.sight.at(u.x, u.y).unwrap_or(b'.');
        match self.below(100) {
            0..=34 => {
                let (dx, dy) = (self.below(3) - 1, self.below(3) - 1);
                let (x, y) = (u.x + dx, u.y + dy);
                let free = u.sight.at(x, y).is_some_and(|b| b != b'#')
                    && !u.sight.towers.iter().any(|t| (t.0, t.1) == (x, y));
                (free && (dx, dy) != (0, 0)).then(|| write::moving(u.id, x, y))
            }
            35..=49 => Some(write::dig(u.id)),
            50..=69 => {
                let r = LETTERS.iter().position(|&l| l == here).or_else(|| {
                    u.sight
                        .mixed
                        .iter()
                        .find(|m| (m.0, m.1) == (u.x, u.y))
                        .and_then(|m| m.2.first().copied())
                })?;
                let mut res = [0u32; 7];
                res[r] = match u.dig {
                    Some((dx, dy, q)) if (dx, dy) == (u.x, u.y) && q[r] > 0 => q[r],
                    _ => 1 + self.below(50) as u32,
                };
                Some(write::pickup(u.id, &res))
            }
            70..=74 => {
                let r = self.below(6) as usize;
                (u.res[r] > 0).then(|| {
                    let mut res = [0u32; 7];
                    res[r] = 1 + self.below(u.res[r] as i32) as u32;
                    write::drop(u.id, &res)
                })
            }
            75..=79 => Some(write::craft(u.id, self.below(2) as usize, 1)),
            80..=82 => {
                let k = self.below(2) as usize;
                (u.items[k][0] > 0).then(|| write::equip(u.id, k, 1))
            }
            83..=92 => {
                let enemy = u.sight.units.iter().find(|s| {
                    s.player != state.player && (s.x - u.x).abs() <= 1 && (s.y - u.y).abs() <= 1
                })?;
                (u.energy > 0).then(|| {
                    let e = 1 + self.below(u.energy);
                    write::attack(u.id, enemy.player, enemy.id, e)
                })
            }
            93..=97 => {
                let (e, t) = (self.below(60), self.below(100));
                Some(write::prepare(u.id, e, t))
            }
            _ => Some(format!(r#"{{"unit":{},"type":"view"}}"#, u.id)),
        }
    }
}

impl Bot for Random {
    fn read(&mut self, input: &str) -> Vec<String> {
        let mut out = Vec::new();
        for line in input.lines() {
            if let Message::State { turn: true, state } = read(line) {
                out.extend(self.play(&state));
            }
        }
        out
    }
}
