//! One bot's record in the arena: each of its matches with its result against whom, its faults
//! (turn and reason), a button that opens the match in the viewer (ready to be taken over from
//! any turn: the page knows every bot's code), the match's share link to hand to the student,
//! and its replay file.

use std::rc::Rc;

use arena::stats::MatchResult;
use engine::share::SharedBot;
use engine::{Replay, ShareDoc};
use yew::prelude::*;

use super::replay_store::{with_replay, ReplayAt};
use super::sharing::{download, link_to, MAX_LINK_CHARS};
use super::state::Action;

/// A match of the arena, with its replay when it was played in this browser (in the page's
/// memory, or kept in the browser before a reload).
#[derive(Clone, Debug, PartialEq)]
pub struct RecordedMatch {
    pub result: MatchResult,
    pub replay: Option<ReplayAt>,
}

/// How one match went for `bot`: "won against Noor 12 : 8" (the bot's score first; against
/// every other seat in games of more seats).
pub fn outcome_text(bot: usize, result: &MatchResult, names: &[String]) -> String {
    let Some(seat) = result.seats.iter().position(|&b| b == bot) else {
        return String::new();
    };
    let rank = result.ranks[seat];
    let tied = result
        .ranks
        .iter()
        .enumerate()
        .any(|(s, &r)| s != seat && r == rank);
    // Ranks count from 1 (engine::Outcome).
    let word = if rank == 1 && !tied {
        "won"
    } else if result.ranks.iter().all(|&r| r == rank) {
        "drew"
    } else if rank == 1 {
        "shared first"
    } else {
        "lost"
    };
    let others: Vec<String> = result
        .seats
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat)
        .map(|(_, &b)| names[b].clone())
        .collect();
    let mut scores = vec![result.scores[seat].to_string()];
    scores.extend(
        (0..result.scores.len())
            .filter(|&s| s != seat)
            .map(|s| result.scores[s].to_string()),
    );
    format!(
        "{word} against {} {}",
        others.join(" and "),
        scores.join(" : ")
    )
}

/// The faults of a match, each with its bot's name, turn and reason.
pub fn fault_texts(result: &MatchResult, names: &[String]) -> Vec<String> {
    result
        .faults
        .iter()
        .map(|f| {
            let name = result.seats.get(f.seat).map_or("?", |&b| names[b].as_str());
            format!("{name}: {} at turn {}: {}", f.kind, f.turn_shown(), f.text)
        })
        .collect()
}

/// The share link of a played match (its set-up, every seat's bot and the whole replay), or
/// why there is none.
fn match_link(replay: &Replay, bots: &[SharedBot], seats: &[usize]) -> Result<String, String> {
    let seat_bots: Option<Vec<SharedBot>> = seats.iter().map(|&b| bots.get(b).cloned()).collect();
    let seat_bots = seat_bots.ok_or("the bots of this match are not known here")?;
    let mut doc = ShareDoc::of_replay(replay.clone());
    doc.bots = seat_bots;
    let link = link_to(&doc);
    if link.len() > MAX_LINK_CHARS {
        return Err(format!(
            "too long for a link ({} characters): hand out the replay file",
            link.len()
        ));
    }
    Ok(link)
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub bot: usize,
    pub names: Vec<String>,
    /// Each bot as a share link carries it (empty for an arena opened from its JSON).
    pub bots: Rc<Vec<SharedBot>>,
    pub matches: Rc<Vec<RecordedMatch>>,
    pub dispatch: Callback<Action>,
    pub on_close: Callback<()>,
}

#[component(BotRecord)]
pub fn bot_record(props: &Props) -> Html {
    // The match whose link is shown, with the link or why there is none.
    let link = use_state(|| None::<(usize, Result<String, String>)>);
    let names = &props.names;
    let mut mine: Vec<&RecordedMatch> = props
        .matches
        .iter()
        .filter(|m| m.result.seats.contains(&props.bot))
        .collect();
    mine.sort_by_key(|m| m.result.index);
    let name = names.get(props.bot).cloned().unwrap_or_default();
    let row = |m: &RecordedMatch| {
        let r = &m.result;
        let number = r.index + 1;
        // A replay kept in the browser is read first; one that cannot be read says why in the
        // match's link line.
        let failed = {
            let link = link.clone();
            move |why: String| link.set(Some((number, Err(why))))
        };
        let watch = m.replay.clone().map(|at| {
            let (dispatch, bots) = (props.dispatch.clone(), props.bots.clone());
            let (seats, failed) = (r.seats.clone(), failed.clone());
            Callback::from(move |_: MouseEvent| {
                let known: Option<Vec<SharedBot>> =
                    seats.iter().map(|&b| bots.get(b).cloned()).collect();
                let (dispatch, failed) = (dispatch.clone(), failed.clone());
                with_replay(&at, move |read| match read {
                    Ok(replay) => dispatch.emit(Action::ShowPlayed(
                        (*replay).clone(),
                        known,
                        format!("arena match {number}"),
                    )),
                    Err(why) => failed(why),
                })
            })
        });
        let on_link = m.replay.clone().map(|at| {
            let (link, bots, seats) = (link.clone(), props.bots.clone(), r.seats.clone());
            Callback::from(move |_: MouseEvent| {
                let (link, bots, seats) = (link.clone(), bots.clone(), seats.clone());
                with_replay(&at, move |read| {
                    let made = read.and_then(|replay| match_link(&replay, &bots, &seats));
                    link.set(Some((number, made)))
                })
            })
        });
        let on_file = m.replay.clone().map(|at| {
            let names: Vec<String> = r.seats.iter().map(|&b| names[b].clone()).collect();
            let (seed, failed) = (r.seed, failed.clone());
            Callback::from(move |_: MouseEvent| {
                let (names, failed) = (names.clone(), failed.clone());
                with_replay(&at, move |read| match read {
                    Ok(replay) => {
                        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                        let file = arena::report::replay_file_name(number, 4, &refs, seed);
                        download(&file, &replay.to_json(), "application/json");
                    }
                    Err(why) => failed(why),
                })
            })
        });
        let shown_link = link.as_ref().filter(|(n, _)| *n == number);
        html! {
            <li class="record-match" value={number.to_string()}>
                { format!("seed {}: {}", r.seed, outcome_text(props.bot, r, names)) }
                <span class="record-buttons">
                    if let Some(onclick) = watch {
                        <button type="button" class="record-watch" {onclick}>{ "watch and take over" }</button>
                    }
                    if let Some(onclick) = on_link {
                        <button type="button" class="record-link-button" {onclick}>{ "share link" }</button>
                    }
                    if let Some(onclick) = on_file {
                        <button type="button" class="record-file" {onclick}>{ "replay file" }</button>
                    }
                </span>
                { for fault_texts(r, names).into_iter().map(|f| html! {
                    <div class="record-fault">{ f }</div>
                }) }
                if let Some((_, found)) = shown_link {
                    { match found {
                        Ok(url) => html! {
                            <input type="text" class="record-link" readonly=true value={url.clone()}
                                aria-label={format!("share link of match {number}")} />
                        },
                        Err(why) => html! { <p class="warning">{ why }</p> },
                    } }
                }
            </li>
        }
    };
    let on_close = props.on_close.clone();
    html! {
        <section id="bot-record" class="bot-record" aria-label={format!("{name}'s matches")}>
            <h3>
                { format!("{name}'s matches ({})", mine.len()) }
                <button type="button" id="bot-record-close"
                    onclick={Callback::from(move |_: MouseEvent| on_close.emit(()))}>{ "close" }</button>
            </h3>
            if mine.is_empty() {
                <p class="hint">{ "No match played yet." }</p>
            }
            <ol class="record-matches">
                { for mine.iter().map(|m| row(m)) }
            </ol>
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine::{Fault, FaultKind};

    fn names() -> Vec<String> {
        ["Ada", "Noor", "Lena"].map(String::from).to_vec()
    }

    fn result(seats: Vec<usize>, scores: Vec<i64>, ranks: Vec<usize>) -> MatchResult {
        MatchResult {
            index: 0,
            seed: 9,
            seats,
            scores,
            ranks,
            faults: Vec::new(),
            replay: None,
        }
    }

    #[test]
    fn a_result_is_told_from_the_bot_s_side() {
        let r = result(vec![1, 0], vec![8, 12], vec![2, 1]);
        assert_eq!(outcome_text(0, &r, &names()), "won against Noor 12 : 8");
        assert_eq!(outcome_text(1, &r, &names()), "lost against Ada 8 : 12");
        let drawn = result(vec![0, 2], vec![5, 5], vec![1, 1]);
        assert_eq!(outcome_text(2, &drawn, &names()), "drew against Ada 5 : 5");
        let three = result(vec![0, 1, 2], vec![3, 3, 1], vec![1, 1, 3]);
        assert_eq!(
            outcome_text(1, &three, &names()),
            "shared first against Ada and Lena 3 : 3 : 1"
        );
        assert_eq!(outcome_text(2, &r, &names()), "", "not in the match");
    }

    #[test]
    fn faults_name_their_bot_turn_and_reason() {
        let mut r = result(vec![2, 0], vec![0, 1], vec![2, 1]);
        // Eleven turns done: the crash is in turn 12, as the viewer numbers it.
        r.faults.push(Fault {
            seat: 0,
            turn: 11,
            kind: FaultKind::Crash,
            text: "TypeError at line 4".into(),
        });
        let texts = fault_texts(&r, &names());
        assert_eq!(texts.len(), 1);
        assert!(texts[0].starts_with("Lena: "), "{}", texts[0]);
        assert!(
            texts[0].ends_with("at turn 12: TypeError at line 4"),
            "{}",
            texts[0]
        );
    }
}
