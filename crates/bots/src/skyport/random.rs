//! The `random` bot: two random weapons, then one to three random actions a turn — mostly
//! steps onto free tiles, sometimes mining, upgrading or a shot in a random direction.

use engine::JavaRandom;

use super::protocol::{weapon_stats, Act, Board, Dir, Ruleset, State, Weapon};
use super::{Client, Strategy};
use crate::pick;

/// The strategy of [`Random`].
pub struct RandomStrategy {
    rng: JavaRandom,
    weapons: [Weapon; 2],
}

/// The `random` bot.
pub type Random = Client<RandomStrategy>;

impl Random {
    pub fn new(seed: i64) -> Random {
        Client::with(RandomStrategy {
            rng: JavaRandom::new(seed),
            weapons: [Weapon::Laser, Weapon::Mortar],
        })
    }
}

impl Strategy for RandomStrategy {
    fn name(&self) -> &str {
        "random"
    }

    fn loadout(&mut self, _: &Board, _: usize, _: Ruleset) -> (Weapon, Weapon) {
        let a = self.rng.next_int_bounded(3) as usize;
        let b = (a + 1 + self.rng.next_int_bounded(2) as usize) % 3;
        self.weapons = [Weapon::ALL[a], Weapon::ALL[b]];
        (self.weapons[0], self.weapons[1])
    }

    fn turn(&mut self, state: &State, _: Ruleset) -> Vec<Act> {
        let Some(me) = state.players.first() else {
            return Vec::new();
        };
        let mut pos = me.pos;
        let taken: Vec<_> = state.players.iter().skip(1).map(|p| p.pos).collect();
        let mut acts = Vec::new();
        let count = 1 + self.rng.next_int_bounded(3);
        for _ in 0..count {
            let roll = self.rng.next_int_bounded(10);
            let act = if roll < 6 {
                let free: Vec<Dir> = Dir::ALL
                    .into_iter()
                    .filter(|&d| state.board.walkable(pos.step(d)) && !taken.contains(&pos.step(d)))
                    .collect();
                match pick(&mut self.rng, &free) {
                    Some(d) => {
                        pos = pos.step(d);
                        Act::Move(d)
                    }
                    None => continue,
                }
            } else if roll == 6 {
                if state.board.resource(pos).is_some() {
                    Act::Mine
                } else {
                    continue;
                }
            } else if roll == 7 {
                let weapons = self.weapons;
                Act::Upgrade(pick(&mut self.rng, &weapons).unwrap_or(Weapon::Laser))
            } else {
                let weapons = self.weapons;
                let weapon = pick(&mut self.rng, &weapons).unwrap_or(Weapon::Laser);
                let level = me.level(weapon).unwrap_or(1);
                let (range, _) = weapon_stats(weapon, level);
                match weapon {
                    Weapon::Laser => Act::Laser(pick(&mut self.rng, &Dir::ALL).unwrap_or(Dir::Up)),
                    Weapon::Mortar => {
                        let dj = self.rng.next_int_bounded(2 * range + 1) - range;
                        let dk = self.rng.next_int_bounded(2 * range + 1) - range;
                        Act::Mortar(dj, dk)
                    }
                    Weapon::Droid => {
                        let steps = 1 + self.rng.next_int_bounded(range);
                        let seq = (0..steps)
                            .map(|_| pick(&mut self.rng, &Dir::ALL).unwrap_or(Dir::Up))
                            .collect();
                        Act::Droid(seq)
                    }
                }
            };
            let shot = matches!(act, Act::Laser(_) | Act::Mortar(..) | Act::Droid(_));
            acts.push(act);
            if shot {
                break;
            }
        }
        acts
    }
}
