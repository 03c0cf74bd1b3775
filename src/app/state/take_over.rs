//! Taking over a match from a turn: who may play each seat from there (the bot recorded, the
//! editors' code, a built-in bot, a person), the match that does it, and the switch between the
//! original and the new match (`Compare`).

use std::rc::Rc;

use engine::SharedBot;

use super::form::{Form, LANGUAGES, SLOT_NAMES};
use super::record::{Progress, Record};
use crate::human::{self, HUMAN};
use crate::isolation;
use crate::match_host::TakeOver;
use crate::runner::{BotSource, MatchSpec, SeatSpec};

/// The choice "the bot that played the seat in the match shown".
pub const RECORDED: &str = "recorded";
/// The choices "the code of the form's editor `n`", by slot.
pub const EDITORS: [&str; 2] = ["editor-0", "editor-1"];
/// The prefix of a choice that names a built-in bot.
const BUILTIN: &str = "builtin:";

/// Who may play one seat from the turn taken over.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatChoices {
    /// The choices: value and words shown.
    pub options: Vec<(String, String)>,
    /// The value chosen at first.
    pub default: String,
}

/// The original match and the one that took it over, one of them shown.
#[derive(Clone, Debug)]
pub struct Compare {
    /// The match not shown, and where it is.
    pub other: Rc<Record>,
    pub other_progress: Progress,
    /// The original is the one shown.
    pub showing_original: bool,
}

/// The bot recorded in a seat as a seat of a new match, if the page can run it again (a local
/// program of the CLI cannot be).
fn recorded_seat(record: &Record, seat: usize) -> Option<SeatSpec> {
    let name = record.names.get(seat)?.clone();
    let source = match record.bots.get(seat)? {
        SharedBot::Builtin { name } => BotSource::Builtin(name.clone()),
        SharedBot::Code { language, code, .. } => BotSource::of_code(language, code.clone())?,
        SharedBot::Program { name } if name.ends_with(human::BY_HAND) => BotSource::Human,
        SharedBot::Program { .. } => return None,
    };
    Some(SeatSpec { name, source })
}

/// The language's name as the page shows it.
fn language_name(language: &str) -> &'static str {
    LANGUAGES
        .iter()
        .find(|(value, _)| *value == language)
        .map_or("JavaScript", |(_, name)| name)
}

/// Who may play each seat of `record` from a turn on. The person's own bot (the first editor)
/// takes over the first seat that was played by code, or the first seat; the others stay with
/// the bot recorded where the page can run it again.
pub fn choices(record: &Record, form: &Form) -> Vec<SeatChoices> {
    let game = record.game;
    let mine = (0..record.names.len())
        .find(|&seat| matches!(record.bots.get(seat), Some(SharedBot::Code { .. })))
        .unwrap_or(0);
    (0..record.names.len())
        .map(|seat| {
            let mut options = Vec::new();
            let recorded = recorded_seat(record, seat);
            if recorded.is_some() {
                options.push((
                    RECORDED.to_string(),
                    format!("as recorded: {}", record.names[seat]),
                ));
            }
            for (slot, bot) in form.bots.iter().enumerate() {
                // The second editor is shown only while the opponent is code.
                if slot == 0 || bot.is_code() {
                    options.push((
                        EDITORS[slot].to_string(),
                        format!(
                            "{} ({} editor)",
                            SLOT_NAMES[slot],
                            language_name(bot.language)
                        ),
                    ));
                }
            }
            for builtin in bots::builtins(game) {
                options.push((
                    format!("{BUILTIN}{}", builtin.name),
                    format!("built-in: {}", builtin.name),
                ));
            }
            if human::supports(game) {
                options.push((HUMAN.to_string(), "by hand".to_string()));
            }
            let default = if seat == mine || recorded.is_none() {
                EDITORS[0].to_string()
            } else {
                RECORDED.to_string()
            };
            SeatChoices { options, default }
        })
        .collect()
}

/// Why the match shown cannot be taken over at `frame`, if it cannot.
pub fn refusal(record: &Record, progress: &Progress, frame: usize) -> Option<String> {
    if record.setup.is_none() || record.frames.is_empty() {
        return Some("There is no match to take over yet.".into());
    }
    if progress.is_live() {
        return Some("A match can be taken over once it has ended.".into());
    }
    if frame >= record.turns.len() && record.outcome.is_some() {
        return Some("The match is over at this turn: go back to an earlier one.".into());
    }
    if frame > record.turns.len() {
        return Some("This turn was not recorded.".into());
    }
    None
}

/// The match that takes over `record` after its frame `frame`: the turns before it re-run as
/// recorded, then the seats played as `picks` says (one choice per seat).
pub fn spec(
    record: &Record,
    form: &Form,
    frame: usize,
    picks: &[String],
    isolated: bool,
) -> Result<MatchSpec, String> {
    let setup = record
        .setup
        .clone()
        .ok_or("There is no match to take over yet.")?;
    if picks.len() != record.names.len() {
        return Err(format!(
            "Choose a bot for each of the {} seats.",
            record.names.len()
        ));
    }
    let mut seats = Vec::new();
    for (seat, pick) in picks.iter().enumerate() {
        let spec = if pick == RECORDED {
            recorded_seat(record, seat).ok_or_else(|| {
                format!(
                    "The bot of seat {} cannot be run again here: choose another.",
                    seat + 1
                )
            })?
        } else if let Some(slot) = EDITORS.iter().position(|e| e == pick) {
            let bot = &form.bots[slot];
            SeatSpec {
                name: SLOT_NAMES[slot].to_string(),
                source: bot.source(),
            }
        } else if pick == HUMAN && human::supports(record.game) {
            SeatSpec {
                name: human::NAMES[seat.min(1)].to_string(),
                source: BotSource::Human,
            }
        } else if let Some(name) = pick
            .strip_prefix(BUILTIN)
            .filter(|name| bots::builtin(record.game, name, 0).is_some())
        {
            SeatSpec {
                name: name.to_string(),
                source: BotSource::Builtin(name.to_string()),
            }
        } else {
            return Err(format!("There is no bot '{pick}' for seat {}.", seat + 1));
        };
        seats.push(spec);
    }
    let code = |s: &SeatSpec| s.source.is_code();
    if seats.iter().any(code) && !isolated {
        return Err(isolation::NOT_ISOLATED.to_string());
    }
    let replay = record
        .replay()
        .ok_or("There is no match to take over yet.")?;
    Ok(MatchSpec {
        setup,
        seats,
        relaxed: record.relaxed,
        from: Some(Rc::new(TakeOver {
            replay,
            turns: frame,
        })),
    })
}

#[cfg(test)]
mod tests {
    use super::super::env::Memory;
    use super::super::news;
    use super::super::{Action, AppState};
    use super::*;
    use crate::runner::MatchNews;
    use engine::{Referee, Setup};

    /// A page showing a recorded match of Ice and Fire: the person's JavaScript bot (seat 1)
    /// against the built-in `expander`.
    fn showing_a_match(env: &mut Memory) -> AppState {
        let entry = games::entry("ice-and-fire").expect("Ice and Fire");
        let setup = Setup::new(entry.info, 7);
        let mut referee = Referee::new(
            (entry.new)(&setup).expect("a game"),
            setup.clone(),
            vec!["your bot".into(), "expander".into()],
            false,
        );
        let bots = (0..2)
            .map(|seat| {
                bots::builtin("ice-and-fire", "expander", bots::bot_seed(7, seat)).expect("a bot")
            })
            .collect();
        bots::local::play(&mut referee, bots);
        let mut state = AppState::opening(env, true);
        state.apply(Action::PickGame("ice-and-fire"), env);
        let spec = MatchSpec {
            setup,
            seats: vec![
                SeatSpec {
                    name: "your bot".into(),
                    source: BotSource::JavaScript("// the old bot".into()),
                },
                SeatSpec {
                    name: "expander".into(),
                    source: BotSource::Builtin("expander".into()),
                },
            ],
            relaxed: false,
            from: None,
        };
        state.apply(Action::Started(spec), env);
        state.apply(
            Action::News(MatchNews::Progress {
                frames: referee.frames().to_vec(),
                turns: referee.turns().to_vec(),
            }),
            env,
        );
        assert!(state.progress.is_live());
        state.apply(news::over(&referee), env);
        state
    }

    #[test]
    fn each_seat_may_be_taken_by_its_recorded_bot_an_editor_a_built_in_bot_or_a_person() {
        let mut env = Memory::default();
        let state = showing_a_match(&mut env);
        let seats = choices(&state.record, &state.form);
        assert_eq!(seats.len(), 2);
        // The person's code takes over its own seat; the opponent stays.
        assert_eq!(seats[0].default, EDITORS[0]);
        assert_eq!(seats[1].default, RECORDED);
        let values: Vec<&str> = seats[1].options.iter().map(|(v, _)| v.as_str()).collect();
        assert_eq!(values[..2], [RECORDED, EDITORS[0]]);
        assert!(values.contains(&"builtin:wait") && values.contains(&HUMAN));
        // The second editor is offered only while the opponent is code.
        assert!(!values.contains(&EDITORS[1]));
        assert_eq!(seats[0].options[0].1, "as recorded: your bot");
    }

    #[test]
    fn a_match_taken_over_records_where_it_came_from_and_switches_with_the_original() {
        let mut env = Memory::default();
        let mut state = showing_a_match(&mut env);
        let original = state.record.clone();
        let frame = 9;
        let picks = vec![EDITORS[0].to_string(), RECORDED.to_string()];
        let spec = state.take_over_spec(frame, &picks).expect("a match");
        let from = spec.from.clone().expect("taken over");
        assert_eq!(from.turns, frame);
        assert_eq!(from.replay.turns.len(), original.turns.len());
        assert_eq!(
            spec.seats[0].source,
            BotSource::JavaScript(state.form.bots[0].code.clone())
        );
        assert_eq!(spec.seats[1].source, BotSource::Builtin("expander".into()));
        state.apply(Action::Started(spec), &mut env);
        // It is watched from the turn taken over.
        assert_eq!((state.cursor.frame, state.cursor.playing), (frame, true));
        let origin = state.record.from.clone().expect("an origin");
        assert_eq!(
            (origin.turns, &origin.replay),
            (frame, &from.replay.digest())
        );
        assert_eq!(origin.turn, original.turns[frame].seats[0].turn);
        // Its replay says so too.
        assert_eq!(state.record.replay().and_then(|r| r.from), Some(origin));
        // Not while it plays.
        assert!(state.take_over_spec(3, &picks).is_err());
        state.apply(Action::SwitchMatch, &mut env);
        assert!(state.compare.as_ref().is_some_and(|c| !c.showing_original));
        // The new match: its earlier turns are the original's.
        let frames: Vec<_> = original.frames[..=frame]
            .iter()
            .map(|f| (**f).clone())
            .collect();
        state.apply(
            Action::News(MatchNews::Progress {
                frames,
                turns: original.turns[..frame]
                    .iter()
                    .map(|t| (**t).clone())
                    .collect(),
            }),
            &mut env,
        );
        state.apply(news::stopped(), &mut env);
        state.apply(Action::Seek(4), &mut env);
        state.apply(Action::SwitchMatch, &mut env);
        assert!(Rc::ptr_eq(&state.record, &original));
        assert_eq!(state.cursor.frame, 4, "the same turn");
        assert!(state.compare.as_ref().is_some_and(|c| c.showing_original));
        assert_eq!(state.progress, Progress::Over);
        state.apply(Action::SwitchMatch, &mut env);
        assert_eq!(state.progress, Progress::Stopped);
        assert!(state.record.from.is_some());
        // A stopped match can go on from its last frame; a finished one cannot.
        assert!(state.take_over_spec(frame, &picks).is_ok());
        state.apply(Action::SwitchMatch, &mut env);
        let last = state.record.frames.len() - 1;
        let why = state.take_over_spec(last, &picks).expect_err("over");
        assert!(why.contains("over"), "{why}");
        // A choice that names nothing is refused with its words.
        let why = state
            .take_over_spec(2, &["builtin:nobody".into(), RECORDED.into()])
            .expect_err("no such bot");
        assert!(why.contains("no bot 'builtin:nobody'"), "{why}");
    }

    /// The original of a match taken over loses its match worker with the runner that the new
    /// match replaces: shown again, it gets its pictures from a re-run here. The match taken
    /// over, once over, asks its own match worker, even while the original is shown.
    #[test]
    fn the_original_of_a_match_taken_over_is_drawn_whole_when_shown_again() {
        let mut env = Memory::default();
        let mut state = showing_a_match(&mut env);
        // As the match worker sent it: the last frame alone with its picture.
        let full: Vec<Rc<engine::Frame>> = state.record.frames.clone();
        {
            let record = Rc::make_mut(&mut state.record);
            let last = record.frames.len() - 1;
            for frame in &mut record.frames[..last] {
                *frame = Rc::new(frame.numbers_only());
            }
            record.worker_keeps = true;
        }
        state.apply(Action::Seek(2), &mut env);
        assert_eq!(state.pictures_wanted(), Some(2..18));
        let picks = vec![EDITORS[0].to_string(), RECORDED.to_string()];
        let spec = state.take_over_spec(9, &picks).expect("a match");
        state.apply(Action::Started(spec), &mut env);
        let original = &state.compare.as_ref().expect("the original").other;
        assert!(!original.worker_keeps, "its match worker is gone");
        assert!(
            !original.frames[2].has_picture(),
            "nothing is re-run while it is not shown"
        );

        // The new match: its first frames, the last with its picture; stopped.
        let mut frames: Vec<engine::Frame> = full[..=9].iter().map(|f| f.numbers_only()).collect();
        frames[9] = (*full[9]).clone();
        let turns = state.compare.as_ref().expect("the original").other.turns[..9]
            .iter()
            .map(|t| (**t).clone())
            .collect();
        state.apply(
            Action::News(MatchNews::Progress { frames, turns }),
            &mut env,
        );
        state.apply(news::stopped(), &mut env);
        assert!(state.record.worker_keeps);
        state.apply(Action::Seek(1), &mut env);
        assert_eq!(
            state.pictures_wanted(),
            Some(1..9),
            "asked of its own worker"
        );

        state.apply(Action::SwitchMatch, &mut env);
        assert!(state.compare.as_ref().is_some_and(|c| c.showing_original));
        assert_eq!(state.record.frames.len(), full.len());
        for (shown, kept) in state.record.frames.iter().zip(&full) {
            assert_eq!(**shown, **kept, "the original is whole again");
        }
        assert_eq!(state.pictures_wanted(), None);
        // The pictures asked for the new match come now: they go to it, not to the original.
        state.apply(
            Action::News(MatchNews::Pictures {
                first: 1,
                frames: full[1..3].iter().map(|f| (**f).clone()).collect(),
            }),
            &mut env,
        );
        let taken_over = &state.compare.as_ref().expect("the new match").other;
        assert!(taken_over.frames[1].has_picture() && taken_over.frames[2].has_picture());
        assert!(!taken_over.frames[3].has_picture());
    }
}
