//! An arena's results as one JSON document: the shape `botplay arena --json` writes, `botplay
//! arena merge` reads back, and the page exports and opens. One typed codec ([`ArenaReport`],
//! written and read with serde), so that every reader and writer agrees on it.
//!
//! The document holds the arena's set-up (game and its version, ruleset, options, budgets, seed,
//! seats, matches per group, the plan's size), one row per bot ([`BotRow`]: its name and numbers),
//! one per pair ([`PairRow`]) and one per played match in match order ([`MatchRow`]: every fault
//! and the replay's file name). Bots, seats and matches are numbered from 1. A shard's document
//! (`--shard K/N`) holds its matches only and says which slice it is ([`ShardRow`]).
//!
//! Fields are declared in alphabetical order: the JSON keeps the order of the files written
//! before this codec existed (a `serde_json::Value` map, sorted), byte for byte.
//!
//! Pure (no IO): the CLI and the page (wasm) share it.

use std::collections::BTreeMap;
use std::fmt;

use engine::{Fault, FaultKind, GameInfo};
use serde::{Deserialize, Serialize};

use crate::stats::{Faults, MatchResult, Summary};

/// The rating system the numbers of [`RatingRow`] are of.
pub const RATING_SYSTEM: &str = "weng-lin";

/// An arena's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ArenaReport {
    /// One per bot, in the arena's order.
    pub bots: Vec<BotRow>,
    /// The game's id.
    pub game: String,
    pub game_version: u32,
    /// Stopped (Ctrl-C, a Stop button) before every planned match was played.
    #[serde(default)]
    pub interrupted: bool,
    /// The played matches, in match order.
    pub matches: Vec<MatchRow>,
    pub matches_per_group: usize,
    #[serde(default)]
    pub options: BTreeMap<String, String>,
    /// Every pair of bots (first < second), played or not.
    pub pairs: Vec<PairRow>,
    /// The matches of the whole arena's plan (a shard's too).
    pub planned: usize,
    pub played: usize,
    /// Seats per match.
    pub players: usize,
    /// Budgets ×10.
    #[serde(default)]
    pub relaxed: bool,
    pub ruleset: String,
    /// The arena's seed, from which every match's seed derives.
    pub seed: i64,
    /// The slice of the plan played, for a shard.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<ShardRow>,
}

/// One bot over the whole arena.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BotRow {
    pub average_score: Option<f64>,
    /// Its number, from 1.
    pub bot: usize,
    pub draws: u32,
    pub faults: FaultCounts,
    pub losses: u32,
    pub matches: u32,
    /// The bot's name: a class's name for it, a share link's, or its spec. (Files written
    /// before names existed have none: [`ArenaReport::from_json`] gives them their spec.)
    #[serde(default)]
    pub name: String,
    /// The name shown to a class instead of [`BotRow::name`], when it has one.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub pseudonym: String,
    pub rating: RatingRow,
    /// How the bot was given: the `--bot` spec, or for a class's bot `builtin:NAME` or the
    /// language of its code.
    pub spec: String,
    pub wins: u32,
}

/// A bot's faults by kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultCounts {
    pub crash: u32,
    pub flood: u32,
    pub malformed: u32,
    pub timeout: u32,
}

/// A bot's rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingRow {
    pub mu: f64,
    pub sigma: f64,
    /// Always [`RATING_SYSTEM`].
    pub system: String,
}

/// Two bots head to head, from the first one's side.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PairRow {
    pub average_score: Option<f64>,
    /// The first bot's number, from 1.
    pub bot: usize,
    pub draws: u32,
    /// The 95% Wilson interval of the score rate.
    pub interval_95: Option<[f64; 2]>,
    pub losses: u32,
    pub matches: u32,
    /// (wins + draws / 2) / matches.
    pub score_rate: Option<f64>,
    /// The second bot's number, from 1.
    pub vs: usize,
    pub vs_average_score: Option<f64>,
    pub wins: u32,
}

/// One played match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchRow {
    /// The bot (its number, from 1) in each seat.
    pub bots: Vec<usize>,
    #[serde(default)]
    pub faults: Vec<FaultRow>,
    /// The match's number in the plan, from 1.
    #[serde(rename = "match")]
    pub number: usize,
    pub ranks: Vec<usize>,
    /// The replay's file name, when replays were written.
    #[serde(default)]
    pub replay: Option<String>,
    pub scores: Vec<i64>,
    pub seed: i64,
}

/// A fault of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRow {
    pub kind: FaultKind,
    /// The seat, from 1.
    pub seat: usize,
    pub text: String,
    /// The turn in which it happened, from 1, as the page's viewer, `botplay replay --stats`
    /// and `botplay play` number it ([`Fault::turn_shown`]; a first turn's timeout is in turn 1).
    pub turn: u32,
}

/// `--shard K/N`: the slice `index` (from 1) of `count`, with the matches planned in it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardRow {
    pub count: usize,
    pub index: usize,
    pub planned: usize,
}

/// What an arena was, for [`ArenaReport::new`].
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    pub game: &'static GameInfo,
    pub ruleset: String,
    pub options: BTreeMap<String, String>,
    pub relaxed: bool,
    pub seed: i64,
    pub players: usize,
    pub matches_per_group: usize,
    pub planned: usize,
    pub interrupted: bool,
    pub shard: Option<ShardRow>,
}

/// A bot's names, for [`ArenaReport::new`]: how it was given and what it is called.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BotLabel {
    pub spec: String,
    pub name: String,
    pub pseudonym: String,
}

impl BotLabel {
    /// A bot given by a spec alone: named by it.
    pub fn of_spec(spec: &str) -> BotLabel {
        BotLabel {
            spec: spec.into(),
            name: spec.into(),
            pseudonym: String::new(),
        }
    }
}

/// Why a document is not an arena's results, or not one that can be counted again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportError {
    /// Not an arena's JSON at all.
    NotAReport(String),
    /// An arena's JSON whose contents do not fit together.
    Damaged(String),
}

impl fmt::Display for ReportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReportError::NotAReport(why) => write!(f, "not an arena's JSON ({why})"),
            ReportError::Damaged(why) => write!(f, "{why}"),
        }
    }
}

impl std::error::Error for ReportError {}

impl From<Faults> for FaultCounts {
    fn from(f: Faults) -> FaultCounts {
        FaultCounts {
            crash: f.crash,
            flood: f.flood,
            malformed: f.malformed,
            timeout: f.timeout,
        }
    }
}

impl ArenaReport {
    /// The report of an arena: its setting, its bots' names (one per bot of `summary`), the
    /// summary of its played matches and those matches (in any order: written in match order).
    pub fn new(
        setting: Setting,
        labels: &[BotLabel],
        summary: &Summary,
        results: &[&MatchResult],
    ) -> ArenaReport {
        let bots = summary
            .bots
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let label = labels.get(i).cloned().unwrap_or_default();
                BotRow {
                    average_score: b.average_score(),
                    bot: i + 1,
                    draws: b.draws,
                    faults: b.faults.into(),
                    losses: b.losses,
                    matches: b.matches,
                    name: label.name,
                    pseudonym: label.pseudonym,
                    rating: RatingRow {
                        mu: b.rating.rating,
                        sigma: b.rating.uncertainty,
                        system: RATING_SYSTEM.into(),
                    },
                    spec: label.spec,
                    wins: b.wins,
                }
            })
            .collect();
        let pairs = summary
            .pairs
            .iter()
            .map(|p| {
                let avg = p.average_scores();
                PairRow {
                    average_score: avg.map(|a| a.0),
                    bot: p.a + 1,
                    draws: p.draws,
                    interval_95: p.interval().map(|(lo, hi)| [lo, hi]),
                    losses: p.losses,
                    matches: p.matches,
                    score_rate: p.score_rate(),
                    vs: p.b + 1,
                    vs_average_score: avg.map(|a| a.1),
                    wins: p.wins,
                }
            })
            .collect();
        let mut ordered: Vec<&MatchResult> = results.to_vec();
        ordered.sort_by_key(|m| m.index);
        let matches = ordered.iter().map(|m| MatchRow::of(m)).collect();
        ArenaReport {
            bots,
            game: setting.game.id.into(),
            game_version: setting.game.version,
            interrupted: setting.interrupted,
            matches,
            matches_per_group: setting.matches_per_group,
            options: setting.options,
            pairs,
            planned: setting.planned,
            played: summary.played,
            players: setting.players,
            relaxed: setting.relaxed,
            ruleset: setting.ruleset,
            seed: setting.seed,
            shard: setting.shard,
        }
    }

    /// The JSON text (indented by two spaces, without a final line break).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads an arena's JSON. A bot without a name (a file from before names) is named by its
    /// spec. The matches are checked when counted ([`ArenaReport::results`]).
    pub fn from_json(text: &str) -> Result<ArenaReport, ReportError> {
        let mut report: ArenaReport =
            serde_json::from_str(text).map_err(|e| ReportError::NotAReport(e.to_string()))?;
        for bot in &mut report.bots {
            if bot.name.is_empty() {
                bot.name = bot.spec.clone();
            }
        }
        Ok(report)
    }

    /// Each bot's spec, name and pseudonym.
    pub fn labels(&self) -> Vec<BotLabel> {
        self.bots
            .iter()
            .map(|b| BotLabel {
                spec: b.spec.clone(),
                name: b.name.clone(),
                pseudonym: b.pseudonym.clone(),
            })
            .collect()
    }

    /// The played matches as the statistics count them, each checked against the arena's size
    /// (its bots, seats and plan): `Err` names the first match that does not fit.
    pub fn results(&self) -> Result<Vec<MatchResult>, ReportError> {
        self.matches
            .iter()
            .map(|m| m.result(self.bots.len(), self.planned))
            .collect()
    }
}

impl MatchRow {
    /// The row of a played match.
    pub fn of(m: &MatchResult) -> MatchRow {
        MatchRow {
            bots: m.seats.iter().map(|b| b + 1).collect(),
            faults: m
                .faults
                .iter()
                .map(|f| FaultRow {
                    kind: f.kind,
                    seat: f.seat + 1,
                    text: f.text.clone(),
                    turn: f.turn_shown(),
                })
                .collect(),
            number: m.index + 1,
            ranks: m.ranks.clone(),
            replay: m.replay.clone(),
            scores: m.scores.clone(),
            seed: m.seed,
        }
    }

    /// The match as the statistics count it, checked: a match of a plan of `planned` matches
    /// between `bots` bots, as many bots, scores and ranks as seats, faults of its seats.
    pub fn result(&self, bots: usize, planned: usize) -> Result<MatchResult, ReportError> {
        let broken = |what: &str| ReportError::Damaged(format!("match {}: {what}", self.number));
        let index = self
            .number
            .checked_sub(1)
            .filter(|&i| i < planned)
            .ok_or_else(|| broken("not a match of the plan"))?;
        let seats: Vec<usize> = self
            .bots
            .iter()
            .map(|&b| b.checked_sub(1).filter(|&b| b < bots))
            .collect::<Option<_>>()
            .ok_or_else(|| broken("a bot that is not in the arena"))?;
        if self.ranks.contains(&0) {
            return Err(broken("a rank that is not a number from 1"));
        }
        if seats.is_empty() || self.scores.len() != seats.len() || self.ranks.len() != seats.len() {
            return Err(broken("as many bots, scores and ranks as seats are needed"));
        }
        let faults = self
            .faults
            .iter()
            .map(|f| {
                let seat = f.seat.checked_sub(1).filter(|&s| s < seats.len())?;
                Some(Fault {
                    seat,
                    // Back to the game's count of turns done. (A turn 0 is read as the first
                    // turn: files written before turns were counted from 1 said 0 for it.)
                    turn: f.turn.saturating_sub(1),
                    kind: f.kind,
                    text: f.text.clone(),
                })
            })
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| broken("a fault of a seat the match does not have"))?;
        Ok(MatchResult {
            index,
            seed: self.seed,
            seats,
            scores: self.scores.clone(),
            ranks: self.ranks.clone(),
            faults,
            replay: self.replay.clone(),
        })
    }
}

/// The longest part of a replay's file name that one bot's name takes, in bytes, for a match of
/// `seats` seats (the whole name stays well within the 255 bytes file systems allow).
fn name_budget(seats: usize) -> usize {
    (120 / seats.max(1)).clamp(8, 32)
}

/// A name made safe for a file name: letters and digits kept, `-` and `_` kept, anything else a
/// `-` (never two in a row, none at either end), cut to `max_bytes` (on a character's boundary);
/// `bot` when nothing is left.
pub fn file_safe(name: &str, max_bytes: usize) -> String {
    let mut out = String::new();
    for c in name.chars() {
        let c = if c.is_alphanumeric() || c == '_' || c == '-' {
            c
        } else {
            '-'
        };
        if c == '-' && (out.is_empty() || out.ends_with('-')) {
            continue;
        }
        if out.len() + c.len_utf8() > max_bytes {
            break;
        }
        out.push(c);
    }
    let out = out.trim_end_matches('-');
    if out.is_empty() {
        "bot".into()
    } else {
        out.into()
    }
}

/// The file name of a match's replay: its number (from 1, `width` digits at least), its bots'
/// names in seat order and its seed, as `match-0007_Ada_vs_builtin-soaker_seed-12345.json`.
/// Match numbers differ within an arena, so no two of its replays share a name.
pub fn replay_file_name(number: usize, width: usize, names: &[&str], seed: i64) -> String {
    let budget = name_budget(names.len());
    let bots: Vec<String> = names.iter().map(|n| file_safe(n, budget)).collect();
    format!(
        "match-{number:0width$}_{}_seed-{seed}.json",
        bots.join("_vs_")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::summarize;
    use crate::stats::tests::fault;

    /// A two-seat match of the tests with its own seed and replay file.
    fn result(index: usize, seats: [usize; 2], scores: [i64; 2]) -> MatchResult {
        MatchResult {
            seed: 40 + index as i64,
            replay: Some(format!("match-{index}.json")),
            ..crate::stats::tests::result(index, seats, scores)
        }
    }

    const GAME: GameInfo = GameInfo {
        id: "test-game",
        name: "Test",
        version: 3,
        min_seats: 2,
        max_seats: 2,
        turn_order: engine::game::TurnOrder::Alternating,
        first_turn_ms: 1000,
        turn_ms: 100,
        default_ruleset: "default",
        rulesets: &[],
    };

    fn report() -> ArenaReport {
        let mut played = [
            result(2, [0, 2], [1, 5]),
            result(0, [0, 1], [10, 0]),
            result(1, [1, 0], [3, 3]),
        ];
        played[0]
            .faults
            .push(fault(1, 4, FaultKind::Timeout, "late, \"very\""));
        let refs: Vec<&MatchResult> = played.iter().collect();
        let summary = summarize(3, &refs);
        let labels = vec![
            BotLabel::of_spec("python3 a.py"),
            BotLabel {
                spec: "javascript".into(),
                name: "Ada, L.".into(),
                pseudonym: "Falcon".into(),
            },
            BotLabel::of_spec("builtin:wait"),
        ];
        let mut options = BTreeMap::new();
        options.insert("map".into(), "v2".into());
        let setting = Setting {
            game: &GAME,
            ruleset: "league-2".into(),
            options,
            relaxed: true,
            seed: -9,
            players: 2,
            matches_per_group: 2,
            planned: 6,
            interrupted: false,
            shard: Some(ShardRow {
                count: 2,
                index: 1,
                planned: 3,
            }),
        };
        ArenaReport::new(setting, &labels, &summary, &refs)
    }

    #[test]
    fn a_report_round_trips_and_its_matches_count_again_to_the_same_numbers() {
        let report = report();
        assert_eq!(report.played, 3);
        let numbers: Vec<usize> = report.matches.iter().map(|m| m.number).collect();
        assert_eq!(numbers, [1, 2, 3], "in match order");
        let text = report.to_json();
        let back = ArenaReport::from_json(&text).expect("readable");
        // serde_json reads some floats one unit in the last place off (without its
        // `float_roundtrip` feature): what is counted is read exactly, and counted again.
        assert_eq!(back.matches, report.matches);
        assert_eq!(back.labels(), report.labels());
        assert_eq!((back.planned, back.shard), (report.planned, report.shard));
        for (b, r) in back.bots.iter().zip(&report.bots) {
            assert!((b.rating.mu - r.rating.mu).abs() < 1e-12);
        }
        let results = back.results().expect("countable");
        assert_eq!(
            results[2].faults[0].turn, 4,
            "read back as the game's count of turns done"
        );
        let refs: Vec<&MatchResult> = results.iter().collect();
        let again = ArenaReport::new(
            Setting {
                game: &GAME,
                ruleset: back.ruleset.clone(),
                options: back.options.clone(),
                relaxed: back.relaxed,
                seed: back.seed,
                players: back.players,
                matches_per_group: back.matches_per_group,
                planned: back.planned,
                interrupted: back.interrupted,
                shard: back.shard,
            },
            &back.labels(),
            &summarize(3, &refs),
            &refs,
        );
        assert_eq!(again.to_json(), text);
    }

    #[test]
    fn the_json_keeps_the_fields_and_their_order_of_earlier_files() {
        let v: serde_json::Value = serde_json::from_str(&report().to_json()).expect("JSON");
        let keys = |v: &serde_json::Value| -> Vec<String> {
            v.as_object()
                .expect("object")
                .keys()
                .cloned()
                .collect::<Vec<_>>()
        };
        assert_eq!(
            keys(&v),
            [
                "bots",
                "game",
                "game_version",
                "interrupted",
                "matches",
                "matches_per_group",
                "options",
                "pairs",
                "planned",
                "played",
                "players",
                "relaxed",
                "ruleset",
                "seed",
                "shard"
            ]
        );
        assert_eq!(v["bots"][1]["name"], "Ada, L.");
        assert_eq!(v["bots"][1]["pseudonym"], "Falcon");
        assert!(v["bots"][0].get("pseudonym").is_none(), "only when given");
        assert_eq!(v["bots"][0]["name"], "python3 a.py");
        assert_eq!(v["bots"][0]["rating"]["system"], "weng-lin");
        assert_eq!(v["bots"][2]["faults"]["timeout"], 1);
        assert_eq!(v["matches"][0]["match"], 1);
        assert_eq!(v["matches"][2]["faults"][0]["seat"], 2);
        assert_eq!(v["matches"][2]["faults"][0]["kind"], "timeout");
        assert_eq!(
            v["matches"][2]["faults"][0]["turn"], 5,
            "a fault after four turns done is in turn 5, as the viewer says"
        );
        assert_eq!(
            v["pairs"][0]["interval_95"].as_array().map(Vec::len),
            Some(2)
        );
        assert_eq!(v["shard"]["planned"], 3);
        // The text is what a `serde_json::Value` (keys sorted) pretty-printed, as before.
        let value = serde_json::to_value(report()).expect("a value");
        assert_eq!(format!("{value:#}"), report().to_json());
    }

    #[test]
    fn files_written_before_names_are_named_by_their_specs() {
        let mut v: serde_json::Value = serde_json::from_str(&report().to_json()).expect("JSON");
        for bot in v["bots"].as_array_mut().expect("bots") {
            let bot = bot.as_object_mut().expect("bot");
            bot.remove("name");
            bot.remove("pseudonym");
        }
        v.as_object_mut().expect("report").remove("shard");
        let old = ArenaReport::from_json(&v.to_string()).expect("readable");
        let names: Vec<String> = old.bots.iter().map(|b| b.name.clone()).collect();
        assert_eq!(names, ["python3 a.py", "javascript", "builtin:wait"]);
        assert_eq!(old.shard, None);
    }

    #[test]
    fn other_documents_and_damaged_matches_are_refused_clearly() {
        for text in ["{ not json", "[1, 2]", r#"{"format": 1, "setup": {}}"#] {
            let e = ArenaReport::from_json(text).unwrap_err();
            assert!(matches!(e, ReportError::NotAReport(_)), "{text}: {e}");
            assert!(e.to_string().starts_with("not an arena's JSON"), "{e}");
        }
        let damaged = |change: fn(&mut MatchRow), needle: &str| {
            let mut r = report();
            change(&mut r.matches[1]);
            let e = r.results().unwrap_err();
            assert!(e.to_string().contains(needle), "{e}");
            assert!(e.to_string().starts_with("match "), "{e}");
        };
        damaged(|m| m.bots[0] = 9, "a bot that is not in the arena");
        damaged(|m| m.bots[0] = 0, "a bot that is not in the arena");
        damaged(|m| m.number = 7, "not a match of the plan");
        damaged(|m| m.number = 0, "not a match of the plan");
        damaged(|m| m.ranks = vec![1], "as many bots, scores and ranks");
        damaged(|m| m.ranks[1] = 0, "a rank that is not a number from 1");
        damaged(
            |m| {
                m.faults.push(FaultRow {
                    kind: FaultKind::Crash,
                    seat: 3,
                    text: String::new(),
                    turn: 1,
                })
            },
            "a fault of a seat",
        );
    }

    #[test]
    fn replay_file_names_carry_number_names_and_seed_safely() {
        assert_eq!(
            replay_file_name(7, 4, &["Ada, L.", "builtin:soaker"], 12345),
            "match-0007_Ada-L_vs_builtin-soaker_seed-12345.json"
        );
        assert_eq!(
            replay_file_name(12345, 4, &["../../etc/passwd", "a/b\\c"], -3),
            "match-12345_etc-passwd_vs_a-b-c_seed--3.json"
        );
        assert_eq!(file_safe("  ", 10), "bot");
        assert_eq!(file_safe("Zoë_Ünal-漢字", 64), "Zoë_Ünal-漢字");
        assert_eq!(
            file_safe("python3 /home/me/bots/bot.py --depth 9", 16),
            "python3-home-me"
        );
        let long = "x".repeat(300);
        let eight: Vec<&str> = vec![long.as_str(); 8];
        let name = replay_file_name(1, 7, &eight, i64::MIN);
        assert!(name.len() < 255, "{} bytes", name.len());
        let cut = file_safe(&"漢".repeat(50), 10);
        assert_eq!(cut, "漢漢漢", "cut on a character's boundary");
        assert!(!file_safe("a.b", 8).contains('.'));
    }
}
