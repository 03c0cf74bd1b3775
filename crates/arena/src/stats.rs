//! The arena's numbers: results per pair with Wilson score intervals, per bot with faults, and
//! ratings.
//!
//! Ratings are Weng-Lin ("A Bayesian Approximation Method for Online Ranking", Weng and Lin,
//! JMLR 2011; the rating known as OpenSkill), a Bayesian rating of the TrueSkill family that
//! ranks any number of players, from the `skillratings` crate. Every bot starts at μ = 25,
//! σ = 25/3 (β = 25/6). The ratings are updated one match at a time in match order (the
//! plan's index), never in the order matches finish, so the same results give the same
//! ratings however many jobs played them.

use engine::{Fault, FaultKind};
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// z for a two-sided 95% interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval of a proportion: `successes` out of `n`, at `z`. `successes` may
/// be fractional (draws count half). An empty sample gives the whole of [0, 1].
pub fn wilson(successes: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let p = successes / n;
    let z2 = z * z;
    let denominator = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denominator;
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One played match, as the arena keeps it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchResult {
    /// The match's place in the plan.
    pub index: usize,
    pub seed: i64,
    /// The bot in each seat.
    pub seats: Vec<usize>,
    pub scores: Vec<i64>,
    pub ranks: Vec<usize>,
    pub faults: Vec<Fault>,
    /// The replay's file name, when replays are written.
    pub replay: Option<String>,
}

/// Faults of one bot by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Faults {
    pub timeout: u32,
    pub crash: u32,
    pub malformed: u32,
    pub flood: u32,
}

impl Faults {
    fn add(&mut self, kind: FaultKind) {
        match kind {
            FaultKind::Timeout => self.timeout += 1,
            FaultKind::Crash => self.crash += 1,
            FaultKind::Malformed => self.malformed += 1,
            FaultKind::Flood => self.flood += 1,
        }
    }

    /// Output the referee did not accept: malformed lines and floods.
    pub fn invalid(&self) -> u32 {
        self.malformed + self.flood
    }
}

/// One bot over the whole arena. A win is a first place alone, a draw a shared first place.
#[derive(Clone, Debug, PartialEq)]
pub struct BotStats {
    pub matches: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score_sum: i64,
    pub faults: Faults,
    pub rating: WengLinRating,
}

impl BotStats {
    pub fn average_score(&self) -> Option<f64> {
        (self.matches > 0).then(|| self.score_sum as f64 / f64::from(self.matches))
    }
}

/// Two bots head to head, from `a`'s side: a win is a better rank than `b` in a match both
/// played (with two seats, simply a won match).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairStats {
    pub a: usize,
    pub b: usize,
    pub matches: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    pub score_sum_a: i64,
    pub score_sum_b: i64,
}

impl PairStats {
    /// `a`'s share of the points: wins plus half the draws, over the matches.
    pub fn score_rate(&self) -> Option<f64> {
        (self.matches > 0)
            .then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(self.matches))
    }

    /// The 95% Wilson interval of [`PairStats::score_rate`].
    pub fn interval(&self) -> Option<(f64, f64)> {
        (self.matches > 0).then(|| {
            wilson(
                f64::from(self.wins) + f64::from(self.draws) / 2.0,
                f64::from(self.matches),
                Z95,
            )
        })
    }

    pub fn average_scores(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.matches);
        (self.matches > 0).then(|| (self.score_sum_a as f64 / n, self.score_sum_b as f64 / n))
    }
}

/// Everything the table and the JSON show.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    pub bots: Vec<BotStats>,
    /// Every pair `a < b`, in order, played or not.
    pub pairs: Vec<PairStats>,
    pub played: usize,
}

/// The rating every bot starts from.
pub fn initial_rating() -> WengLinRating {
    WengLinRating::new()
}

/// Updates the ratings of the bots of one match: each seat is a team of one, ranked by the
/// match's ranks (equal ranks are a draw between them).
pub fn rate(ratings: &mut [WengLinRating], seats: &[usize], ranks: &[usize]) {
    let teams: Vec<[WengLinRating; 1]> = seats.iter().map(|&b| [ratings[b]]).collect();
    let input: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(ranks)
        .map(|(team, &rank)| (&team[..], MultiTeamOutcome::new(rank)))
        .collect();
    let rated = weng_lin_multi_team(&input, &WengLinConfig::new());
    for (&bot, team) in seats.iter().zip(rated) {
        if let Some(r) = team.first() {
            ratings[bot] = *r;
        }
    }
}

/// Every bot's rating after each played match, in match order (whatever order the results come
/// in): entry 0 is every bot's starting rating, entry `k` the ratings after the first `k` matches
/// played; a bot that did not play a match keeps its rating there. The last entry is the ratings
/// [`summarize`] gives. The page draws it as one line per bot.
pub fn rating_history(bots: usize, results: &[&MatchResult]) -> Vec<Vec<WengLinRating>> {
    let mut ordered: Vec<&MatchResult> = results.to_vec();
    ordered.sort_by_key(|m| m.index);
    let mut ratings = vec![initial_rating(); bots];
    let mut history = Vec::with_capacity(ordered.len() + 1);
    history.push(ratings.clone());
    for m in ordered {
        rate(&mut ratings, &m.seats, &m.ranks);
        history.push(ratings.clone());
    }
    history
}

/// Sums up the played matches, in match order whatever order they come in.
pub fn summarize(bots: usize, results: &[&MatchResult]) -> Summary {
    let mut ordered: Vec<&MatchResult> = results.to_vec();
    ordered.sort_by_key(|m| m.index);
    let mut ratings = vec![initial_rating(); bots];
    let mut stats: Vec<BotStats> = (0..bots)
        .map(|_| BotStats {
            matches: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score_sum: 0,
            faults: Faults::default(),
            rating: initial_rating(),
        })
        .collect();
    let mut pairs: Vec<PairStats> = (0..bots)
        .flat_map(|a| (a + 1..bots).map(move |b| (a, b)))
        .map(|(a, b)| PairStats {
            a,
            b,
            matches: 0,
            wins: 0,
            draws: 0,
            losses: 0,
            score_sum_a: 0,
            score_sum_b: 0,
        })
        .collect();
    for m in &ordered {
        let firsts = m.ranks.iter().filter(|&&r| r == 1).count();
        for (seat, &bot) in m.seats.iter().enumerate() {
            let s = &mut stats[bot];
            s.matches += 1;
            s.score_sum += m.scores[seat];
            match (m.ranks[seat], firsts) {
                (1, 1) => s.wins += 1,
                (1, _) => s.draws += 1,
                _ => s.losses += 1,
            }
        }
        for fault in &m.faults {
            if let Some(&bot) = m.seats.get(fault.seat) {
                stats[bot].faults.add(fault.kind);
            }
        }
        for (sa, &a) in m.seats.iter().enumerate() {
            for (sb, &b) in m.seats.iter().enumerate() {
                if a >= b {
                    continue;
                }
                let Some(p) = pairs.iter_mut().find(|p| p.a == a && p.b == b) else {
                    continue;
                };
                p.matches += 1;
                p.score_sum_a += m.scores[sa];
                p.score_sum_b += m.scores[sb];
                match m.ranks[sa].cmp(&m.ranks[sb]) {
                    std::cmp::Ordering::Less => p.wins += 1,
                    std::cmp::Ordering::Equal => p.draws += 1,
                    std::cmp::Ordering::Greater => p.losses += 1,
                }
            }
        }
        rate(&mut ratings, &m.seats, &m.ranks);
    }
    for (s, r) in stats.iter_mut().zip(ratings) {
        s.rating = r;
    }
    Summary {
        bots: stats,
        pairs,
        played: ordered.len(),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn wilson_matches_newcombe_1998() {
        // Newcombe, "Two-sided confidence intervals for the single proportion: comparison of
        // seven methods", Statistics in Medicine 17 (1998), table II, method 3 (score method
        // without continuity correction), to the 4 decimals printed there.
        for (k, n, lo, hi) in [
            (81.0, 263.0, 0.2553, 0.3662),
            (15.0, 148.0, 0.0624, 0.1605),
            (0.0, 20.0, 0.0, 0.1611),
            (1.0, 29.0, 0.0061, 0.1718),
        ] {
            let (l, h) = wilson(k, n, Z95);
            assert!(close(l, lo, 5e-5) && close(h, hi, 5e-5), "{k}/{n}: {l} {h}");
        }
        // Symmetry, all wins, and no data.
        let (l, h) = wilson(148.0 - 15.0, 148.0, Z95);
        assert!(close(l, 1.0 - 0.1605, 5e-5) && close(h, 1.0 - 0.0624, 5e-5));
        assert_eq!(wilson(20.0, 20.0, Z95).1, 1.0);
        assert!(wilson(20.0, 20.0, Z95).0 > 0.83);
        assert_eq!(wilson(0.0, 0.0, Z95), (0.0, 1.0));
        // Half points: 5 wins and 2 draws of 10 is 6 of 10.
        assert_eq!(wilson(6.0, 10.0, Z95), wilson(5.0 + 2.0 / 2.0, 10.0, Z95));
    }

    #[test]
    fn a_two_seat_update_matches_the_crates_documented_example() {
        // skillratings' doc example for `weng_lin`: (42.0, 1.3) beats a new player
        // → (42.03, 1.30) and (23.91, 8.03). Our seats-as-teams-of-one path gives the same.
        let mut r = vec![
            WengLinRating {
                rating: 42.0,
                uncertainty: 1.3,
            },
            WengLinRating::new(),
        ];
        rate(&mut r, &[0, 1], &[1, 2]);
        let hundredths: Vec<f64> = r
            .iter()
            .flat_map(|x| [(x.rating * 100.0).round(), (x.uncertainty * 100.0).round()])
            .collect();
        assert_eq!(hundredths, [4203.0, 130.0, 2391.0, 803.0]);
    }

    /// Algorithm 1 of Weng and Lin (2011), Bradley-Terry full pairing, written out for two
    /// players of one member each.
    fn by_hand(mu: [f64; 2], sigma: [f64; 2], score0: f64) -> [(f64, f64); 2] {
        let beta: f64 = 25.0 / 6.0;
        let c = (sigma[0].powi(2) + sigma[1].powi(2) + 2.0 * beta * beta).sqrt();
        let e = [(mu[0] / c).exp(), (mu[1] / c).exp()];
        let p = [e[0] / (e[0] + e[1]), e[1] / (e[0] + e[1])];
        let s = [score0, 1.0 - score0];
        let mut out = [(0.0, 0.0); 2];
        for i in 0..2 {
            let var = sigma[i].powi(2);
            let omega = var / c * (s[i] - p[i]);
            let gamma = sigma[i] / c;
            let delta = gamma * var / (c * c) * p[i] * (1.0 - p[i]);
            out[i] = (mu[i] + omega, (var * (1.0 - delta).max(1e-6)).sqrt());
        }
        out
    }

    #[test]
    fn updates_match_the_paper_by_hand_for_wins_losses_and_draws() {
        for (ranks, score0) in [([1, 2], 1.0), ([2, 1], 0.0), ([1, 1], 0.5)] {
            let mut r = vec![
                WengLinRating::new(),
                WengLinRating {
                    rating: 30.0,
                    uncertainty: 5.0,
                },
            ];
            let want = by_hand([25.0, 30.0], [25.0 / 3.0, 5.0], score0);
            rate(&mut r, &[0, 1], &ranks);
            for (got, want) in r.iter().zip(want) {
                assert!(
                    close(got.rating, want.0, 1e-9),
                    "{ranks:?} {got:?} {want:?}"
                );
                assert!(
                    close(got.uncertainty, want.1, 1e-9),
                    "{ranks:?} {got:?} {want:?}"
                );
            }
        }
        // Two new players: the winner gains exactly what the loser drops (25 ± 2.6352).
        let mut r = vec![WengLinRating::new(); 2];
        rate(&mut r, &[1, 0], &[1, 2]);
        assert!(
            close(r[1].rating, 27.6352, 1e-4) && close(r[0].rating, 22.3648, 1e-4),
            "{r:?}"
        );
    }

    /// A fault of a seat in a turn.
    pub(crate) fn fault(seat: usize, turn: u32, kind: FaultKind, text: &str) -> Fault {
        Fault {
            seat,
            turn,
            kind,
            text: text.into(),
        }
    }

    /// A two-seat match of the tests: `scores` by seat, ranked as the game would rank them.
    pub(crate) fn result(index: usize, seats: [usize; 2], scores: [i64; 2]) -> MatchResult {
        let outcome = engine::Outcome::from_scores(scores.to_vec(), "");
        MatchResult {
            index,
            seed: 1,
            seats: seats.to_vec(),
            scores: scores.to_vec(),
            ranks: outcome.ranks,
            faults: Vec::new(),
            replay: None,
        }
    }

    #[test]
    fn tallies_pairs_bots_and_faults_and_rates_in_match_order() {
        let mut played = vec![
            result(0, [0, 1], [10, 0]),
            result(1, [1, 0], [3, 3]),
            result(2, [0, 2], [1, 5]),
            result(3, [2, 0], [0, 7]),
            result(4, [1, 2], [2, 1]),
        ];
        played[2]
            .faults
            .push(fault(0, 4, FaultKind::Timeout, "late"));
        played[4]
            .faults
            .push(fault(1, 1, FaultKind::Malformed, "?"));
        let refs: Vec<&MatchResult> = played.iter().collect();
        let s = summarize(3, &refs);
        assert_eq!(s.played, 5);
        let b0 = &s.bots[0];
        assert_eq!(
            (b0.matches, b0.wins, b0.draws, b0.losses, b0.score_sum),
            (4, 2, 1, 1, 21)
        );
        assert_eq!(b0.faults.timeout, 1);
        assert_eq!(s.bots[2].faults.invalid(), 1);
        assert_eq!(b0.average_score(), Some(5.25));
        let p01 = &s.pairs[0];
        assert_eq!(
            (p01.a, p01.b, p01.matches, p01.wins, p01.draws, p01.losses),
            (0, 1, 2, 1, 1, 0)
        );
        assert_eq!(p01.score_rate(), Some(0.75));
        assert_eq!(p01.average_scores(), Some((6.5, 1.5)));
        let p12 = &s.pairs[2];
        assert_eq!((p12.a, p12.b, p12.wins, p12.losses), (1, 2, 1, 0));

        // The same results arriving in another order give the same summary, ratings included.
        let reversed: Vec<&MatchResult> = played.iter().rev().collect();
        assert_eq!(summarize(3, &reversed), s);
        // ... while playing them in another order would not (the ratings are order-dependent,
        // which is why the order is fixed).
        let mut r = vec![initial_rating(); 3];
        for m in played.iter().rev() {
            rate(&mut r, &m.seats, &m.ranks);
        }
        assert_ne!(r[0], s.bots[0].rating);
        let mut r = vec![initial_rating(); 3];
        for m in &played {
            rate(&mut r, &m.seats, &m.ranks);
        }
        assert_eq!(r[0], s.bots[0].rating);
        assert!(s.bots[0].rating.rating > s.bots[2].rating.rating);
    }

    #[test]
    fn rating_history_starts_new_follows_match_order_and_ends_at_the_summary() {
        let played = [
            result(2, [0, 2], [1, 5]),
            result(0, [0, 1], [10, 0]),
            result(1, [1, 0], [3, 3]),
        ];
        let refs: Vec<&MatchResult> = played.iter().collect();
        let history = rating_history(3, &refs);
        assert_eq!(history.len(), 4, "the start, then one entry per match");
        assert_eq!(history[0], vec![initial_rating(); 3]);
        // Match 0 (bot 0 beats bot 1) comes first although it arrived second; bot 2 sat out.
        assert!(history[1][0].rating > 25.0 && history[1][1].rating < 25.0);
        assert_eq!(history[1][2], initial_rating());
        // Match 2 (bot 2 beats bot 0) is the last step; bot 1 keeps its rating there.
        assert_eq!(history[3][1], history[2][1]);
        assert!(history[3][2].rating > 25.0 && history[3][0].rating < history[2][0].rating);
        let summary = summarize(3, &refs);
        let last: Vec<WengLinRating> = summary.bots.iter().map(|b| b.rating).collect();
        assert_eq!(history[3], last);
        assert_eq!(rating_history(2, &[]), vec![vec![initial_rating(); 2]]);
    }

    #[test]
    fn multi_seat_matches_count_first_places_and_head_to_heads() {
        let m = MatchResult {
            index: 0,
            seed: 1,
            seats: vec![2, 0, 1],
            scores: vec![5, 5, 1],
            ranks: vec![1, 1, 3],
            faults: Vec::new(),
            replay: None,
        };
        let s = summarize(3, &[&m]);
        assert_eq!(
            (s.bots[0].wins, s.bots[0].draws, s.bots[0].losses),
            (0, 1, 0)
        );
        assert_eq!(
            (s.bots[1].wins, s.bots[1].draws, s.bots[1].losses),
            (0, 0, 1)
        );
        // 0 vs 1: 0 ranked better; 0 vs 2: a draw; 1 vs 2: 1 worse.
        let wdl: Vec<(u32, u32, u32)> = s
            .pairs
            .iter()
            .map(|p| (p.wins, p.draws, p.losses))
            .collect();
        assert_eq!(wdl, [(1, 0, 0), (0, 1, 0), (0, 0, 1)]);
        assert_eq!(s.pairs[1].average_scores(), Some((5.0, 5.0)));
        assert!(s.bots[0].rating.rating > 25.0 && s.bots[1].rating.rating < 25.0);
        assert!(close(
            s.bots[0].rating.rating,
            s.bots[2].rating.rating,
            1e-12
        ));
    }
}
