//! Which matches an arena plays, in which order, on which seeds.
//!
//! Every group of `players` different bots (every pair, for two seats) plays `per_group`
//! matches. Matches come in rounds: a round is one seed, played once in each seating of the
//! group (the group rotated: for a pair, A–B then B–A), so seats are swapped on the same map.
//! Round `r` has the same seed for every group, derived from the arena's seed alone: all pairs
//! meet on the same maps. The order is round by round, then group by group, so an arena
//! stopped early has played every pair about as often.

/// One match of the plan.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Planned {
    /// Position in the plan, from 0 (shown from 1); ratings are updated in this order.
    pub index: usize,
    /// The bot (index into the arena's bots) in each seat.
    pub seats: Vec<usize>,
    pub seed: i64,
}

/// The most matches an arena plans.
pub const MAX_MATCHES: usize = 10_000_000;

/// Every group of `players` different bots out of `bots`, in lexicographic order.
pub fn groups(bots: usize, players: usize) -> Vec<Vec<usize>> {
    fn extend(
        start: usize,
        bots: usize,
        left: usize,
        group: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        if left == 0 {
            out.push(group.clone());
            return;
        }
        for b in start..bots {
            if bots - b < left {
                break;
            }
            group.push(b);
            extend(b + 1, bots, left - 1, group, out);
            group.pop();
        }
    }
    let mut out = Vec::new();
    if players > 0 && players <= bots {
        extend(0, bots, players, &mut Vec::new(), &mut out);
    }
    out
}

/// The number of matches of a plan, if it is at most [`MAX_MATCHES`].
pub fn count(bots: usize, players: usize, per_group: usize) -> Option<usize> {
    if bots < players {
        return Some(0);
    }
    // C(bots, players), computed so that every intermediate value is an exact integer.
    let mut c: usize = 1;
    for i in 0..players.min(bots) {
        c = c.checked_mul(bots - i)? / (i + 1);
    }
    c.checked_mul(per_group).filter(|n| *n <= MAX_MATCHES)
}

/// The whole plan, in match order.
pub fn plan(bots: usize, players: usize, per_group: usize, seed: i64) -> Vec<Planned> {
    let groups = groups(bots, players);
    let mut out = Vec::new();
    for round in 0..per_group.div_ceil(players) {
        let seed = round_seed(seed, round);
        for group in &groups {
            for turn in 0..players {
                if round * players + turn >= per_group {
                    break;
                }
                let seats = (0..players).map(|s| group[(s + turn) % players]).collect();
                out.push(Planned {
                    index: out.len(),
                    seats,
                    seed,
                });
            }
        }
    }
    out
}

/// The seed of round `round` of an arena with seed `seed`: SplitMix64 of the two, folded into
/// 1 ..= 2^31 - 1 (short, never 0, which some games refuse, and a valid CodinGame seed), so that
/// `botplay play --seed` with it replays any match of the arena.
pub fn round_seed(seed: i64, round: usize) -> i64 {
    let mut z = (seed as u64).wrapping_add((round as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    1 + (z % (i32::MAX as u64)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_and_groups_in_order() {
        assert_eq!(groups(3, 2), [[0, 1], [0, 2], [1, 2]]);
        assert_eq!(groups(4, 3), [[0, 1, 2], [0, 1, 3], [0, 2, 3], [1, 2, 3]]);
        assert_eq!(groups(2, 2), [[0, 1]]);
        assert!(groups(2, 3).is_empty());
        assert_eq!(count(3, 2, 10), Some(30));
        assert_eq!(count(8, 4, 1), Some(70));
        assert_eq!(count(60, 8, 1), None, "C(60, 8) x 1 is over the cap");
        assert_eq!(count(2, 2, usize::MAX), None);
        assert_eq!(count(1, 2, 10), Some(0), "one bot makes no pair");
        assert_eq!(count(0, 2, 10), Some(0));
        assert_eq!(plan(1, 2, 10, 7).len(), 0, "as the plan says");
    }

    #[test]
    fn seats_are_swapped_on_the_same_seed_round_by_round() {
        let p = plan(3, 2, 4, 42);
        assert_eq!(p.len(), 12);
        let seats: Vec<Vec<usize>> = p.iter().map(|m| m.seats.clone()).collect();
        // Every pair in both seatings, round after round.
        let round = [[0, 1], [1, 0], [0, 2], [2, 0], [1, 2], [2, 1]];
        assert_eq!(seats, [round, round].concat());
        assert!(p.iter().enumerate().all(|(i, m)| m.index == i));
        let (r0, r1) = (round_seed(42, 0), round_seed(42, 1));
        assert_ne!(r0, r1);
        assert!(p[..6].iter().all(|m| m.seed == r0));
        assert!(p[6..].iter().all(|m| m.seed == r1));
    }

    #[test]
    fn more_players_rotate_every_seat_and_odd_counts_stop_early() {
        let p = plan(3, 3, 4, 1);
        let seats: Vec<Vec<usize>> = p.iter().map(|m| m.seats.clone()).collect();
        assert_eq!(seats, [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 1, 2]]);
        assert_eq!(p[3].seed, round_seed(1, 1));
        // An odd count: the last round is played in the first seating only.
        assert_eq!(plan(2, 2, 3, 1).len(), 3);
    }

    #[test]
    fn seeds_are_fixed_positive_and_spread() {
        // Pinned: a change here changes every arena's matches.
        let pinned: Vec<i64> = (0..3).map(|r| round_seed(1, r)).collect();
        assert_eq!(pinned, PINNED);
        let mut seen = std::collections::BTreeSet::new();
        for seed in [-5, 0, 1, i64::MAX, i64::MIN] {
            for r in 0..1000 {
                let s = round_seed(seed, r);
                assert!((1..=i64::from(i32::MAX)).contains(&s));
                seen.insert(s);
            }
        }
        assert!(seen.len() > 4990, "{} distinct seeds", seen.len());
    }

    const PINNED: [i64; 3] = [722_909_341, 1_667_631_021, 1_817_811_776];
}
