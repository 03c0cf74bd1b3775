//! An arena's progress, kept in the browser after every match it plays, so that an arena stopped
//! by its Stop button, a reload or a closed tab goes on from where it stopped: its setting, its
//! bots (with their code) and the results of the matches played, as `botplay arena --json`
//! writes them (`arena::report`). Stored per game under `botplay/<game>/arena`; removed once
//! every planned match is played. The replays, tens of MB for a class, are kept apart, in
//! IndexedDB (`replay_store`).

use arena::report::{ArenaReport, BotLabel, Setting};
use arena::stats::{self, MatchResult};
use engine::share::SharedBot;
use serde::{Deserialize, Serialize};

/// What the stored progress says it is.
const KIND: &str = "botplay-arena-progress";

/// An arena to go on with.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress {
    pub setting: Setting,
    pub labels: Vec<BotLabel>,
    /// Each bot, as a share link carries it.
    pub bots: Vec<SharedBot>,
    /// The matches played.
    pub results: Vec<MatchResult>,
}

#[derive(Serialize, Deserialize)]
struct Stored {
    kind: String,
    /// The results, as `botplay arena --json` writes them.
    report: String,
    bots: Vec<SharedBot>,
}

fn key(game: &str) -> String {
    format!("botplay/{game}/arena")
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

impl Progress {
    /// The stored text of this progress.
    pub fn to_text(&self) -> String {
        let refs: Vec<&MatchResult> = self.results.iter().collect();
        let summary = stats::summarize(self.labels.len(), &refs);
        let mut setting = self.setting.clone();
        setting.interrupted = true;
        let report = ArenaReport::new(setting, &self.labels, &summary, &refs);
        let stored = Stored {
            kind: KIND.into(),
            report: report.to_json(),
            bots: self.bots.clone(),
        };
        serde_json::to_string(&stored).unwrap_or_default()
    }

    /// Reads stored progress; `None` for anything else or anything that does not fit together.
    pub fn from_text(text: &str) -> Option<Progress> {
        let stored: Stored = serde_json::from_str(text).ok()?;
        if stored.kind != KIND {
            return None;
        }
        let report = ArenaReport::from_json(&stored.report).ok()?;
        let results = report.results().ok()?;
        let labels = report.labels();
        if stored.bots.len() != labels.len() {
            return None;
        }
        let game = games::entry(&report.game)?.info;
        let setting = Setting {
            game,
            ruleset: report.ruleset,
            options: report.options,
            relaxed: report.relaxed,
            seed: report.seed,
            players: report.players,
            matches_per_group: report.matches_per_group,
            planned: report.planned,
            interrupted: true,
            shard: None,
        };
        Some(Progress {
            setting,
            labels,
            bots: stored.bots,
            results,
        })
    }

    /// Keeps it; `false` when the browser would not (no storage, or full).
    pub fn save(&self) -> bool {
        storage()
            .and_then(|s| s.set_item(&key(self.setting.game.id), &self.to_text()).ok())
            .is_some()
    }
}

/// The progress kept for a game's arena, if any.
pub fn load(game: &str) -> Option<Progress> {
    Progress::from_text(&storage()?.get_item(&key(game)).ok()??)
}

/// Forgets a game's arena (it is over, or another one starts).
pub fn clear(game: &str) {
    if let Some(s) = storage() {
        let _ = s.remove_item(&key(game));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn progress() -> Progress {
        let game = games::entry("ice-and-fire").expect("Ice and Fire").info;
        let setting = Setting {
            game,
            ruleset: "league-4".into(),
            options: Default::default(),
            relaxed: false,
            seed: 11,
            players: 2,
            matches_per_group: 2,
            planned: 4,
            interrupted: false,
            shard: None,
        };
        let labels = vec![
            BotLabel {
                spec: "javascript".into(),
                name: "Ada, \"A\"".into(),
                pseudonym: "Amber Otter".into(),
            },
            BotLabel::of_spec("builtin:wait"),
        ];
        let bots = vec![
            SharedBot::Code {
                name: "Ada, \"A\"".into(),
                language: "javascript".into(),
                code: "print('WAIT')".into(),
            },
            SharedBot::Builtin {
                name: "wait".into(),
            },
        ];
        let results = vec![MatchResult {
            index: 2,
            seed: 99,
            seats: vec![1, 0],
            scores: vec![0, 1],
            ranks: vec![2, 1],
            faults: Vec::new(),
            replay: None,
        }];
        Progress {
            setting,
            labels,
            bots,
            results,
        }
    }

    #[test]
    fn progress_reads_back_as_written_and_interrupted() {
        let p = progress();
        let back = Progress::from_text(&p.to_text()).expect("it reads back");
        assert_eq!(back.labels, p.labels);
        assert_eq!(back.bots, p.bots);
        assert_eq!(back.results, p.results);
        assert!(back.setting.interrupted);
        assert_eq!(back.setting.seed, 11);
        assert_eq!(back.setting.planned, 4);
    }

    #[test]
    fn anything_else_is_no_progress() {
        assert_eq!(Progress::from_text("{}"), None);
        assert_eq!(Progress::from_text("not json"), None);
        let text = progress().to_text().replace(KIND, "botplay-class");
        assert_eq!(Progress::from_text(&text), None);
        let mut fewer = progress();
        fewer.bots.pop();
        assert_eq!(Progress::from_text(&fewer.to_text()), None);
    }
}
