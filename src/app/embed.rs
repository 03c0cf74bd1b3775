//! The embed view: one match's board, timeline and playback controls, alone in a page that any
//! other site may frame (`embed.html`, written beside `index.html` after each build by
//! `www/embed/page.mjs`). The match travels in the fragment exactly as in a share link
//! (`engine::ShareDoc`, with its replay). The view only plays the record back (the engine re-runs
//! it, as for a link opened in the page): it starts no bot and no worker, so it needs neither
//! cross-origin isolation nor the bots' sandbox, and it is the viewer of the page itself
//! (`Viewer`), without the panels an embed has no room for (`www/embed/style.css` hides them).
//!
//! The frame talks with the page around it through `postMessage` (docs/guide.md, *Embedding a
//! match*): it tells `botplay:ready`, `botplay:turn` and `botplay:ended` (and `botplay:error` when its
//! link cannot be shown); it obeys `botplay:set-turn`, `botplay:play` and `botplay:pause`, and
//! ignores every other message.

use std::rc::Rc;

use engine::ShareDoc;
use serde_json::{json, Value};
use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use super::state::{Action, AppState, Record};
use super::viewer::{RecordRef, Viewer};

/// The embed view's page, beside the playground's `index.html`.
pub const PAGE: &str = "embed.html";

/// The attribute of `<html>` that makes a page the embed view (`data-view="embed"`).
const VIEW_ATTRIBUTE: &str = "data-view";

/// Whether this page is the embed view rather than the playground.
pub fn requested() -> bool {
    web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
        .and_then(|html| html.get_attribute(VIEW_ATTRIBUTE))
        .is_some_and(|view| view == "embed")
}

/// A command from the page around the frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// Show this turn (the number the viewer shows); playback stops.
    SetTurn(u32),
    Play,
    Pause,
}

impl Command {
    /// The command a message carries, or `None` for anything else: another library's message,
    /// a misspelt type, a turn that is not a whole number from 0. Never fails otherwise.
    pub fn parse(data: &Value) -> Option<Command> {
        let kind = data.get("type")?.as_str()?;
        match kind {
            "botplay:play" => Some(Command::Play),
            "botplay:pause" => Some(Command::Pause),
            "botplay:set-turn" => {
                let turn = data.get("turn")?.as_u64()?;
                // A turn beyond the last shows the last: so does one beyond what u32 holds.
                Some(Command::SetTurn(u32::try_from(turn).unwrap_or(u32::MAX)))
            }
            _ => None,
        }
    }
}

/// The first frame that shows turn `turn` (the number the viewer shows), or the last frame
/// when the match has no such turn. Turn numbers never go down from one frame to the next,
/// and several frames may show the same number (Skyport's frames before its first turn).
pub fn frame_of_turn(record: &Record, turn: u32) -> usize {
    first_frame_showing(record.frames.len(), |f| record.turn_number(f), turn)
}

/// [`frame_of_turn`] among `frames` frames numbered by `turn_number`.
fn first_frame_showing(frames: usize, turn_number: impl Fn(usize) -> u32, turn: u32) -> usize {
    (0..frames)
        .find(|&frame| turn_number(frame) >= turn)
        .unwrap_or(frames.saturating_sub(1))
}

/// `botplay:ready`: the match is shown (again after the fragment changed: the view opens anew).
fn ready_note(record: &Record) -> Value {
    json!({
        "type": "botplay:ready",
        "game": record.game,
        "players": record.names,
        "turns": record.last_turn_number(),
        "frames": record.frames.len(),
    })
}

/// `botplay:turn`: the turn shown changed, or playback started or stopped.
fn turn_note(record: &Record, frame: usize, playing: bool) -> Value {
    json!({
        "type": "botplay:turn",
        "turn": record.turn_number(frame),
        "frame": frame,
        "playing": playing,
    })
}

/// `botplay:ended`: the last frame came into view.
fn ended_note(record: &Record, frame: usize) -> Value {
    json!({
        "type": "botplay:ended",
        "turn": record.turn_number(frame),
        "frame": frame,
    })
}

/// `botplay:error`: the link cannot be shown; the text is what the frame says.
fn error_note(message: &str) -> Value {
    json!({ "type": "botplay:error", "message": message })
}

/// Sends a note to the page around the frame (none when the view is not in a frame). Any page
/// may frame the view and hear it: the notes say only what the frame's own address holds.
fn tell_parent(note: &Value) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if js_sys::Object::is(&parent, &window) {
        return;
    }
    if let Ok(value) = js_sys::JSON::parse(&note.to_string()) {
        let _ = parent.post_message(&value, "*");
    }
}

/// What the page around the frame sent, if it is a command from that page.
fn command_of(event: &web_sys::MessageEvent) -> Option<Command> {
    let window = web_sys::window()?;
    let parent = window.parent().ok()??;
    // Only the framing page commands the view (not another frame or window that got a handle).
    let source: JsValue = event.source()?.into();
    if !js_sys::Object::is(&source, &parent) {
        return None;
    }
    let data = event.data();
    if !data.is_object() {
        return None;
    }
    // Through JSON: whatever the page sent (cycles and BigInts make stringify fail) is read
    // as plain data or ignored.
    let text = js_sys::JSON::stringify(&data).ok()?.as_string()?;
    Command::parse(&serde_json::from_str(&text).ok()?)
}

/// The problem with an embed address that has no match to show, in words.
fn doc_of_fragment(fragment: &str) -> Result<ShareDoc, String> {
    if fragment.is_empty() {
        return Err(
            "This embed's address holds no match: copy the embed code again from \
             botplay's Share panel (Copy embed code)."
                .to_string(),
        );
    }
    let doc = ShareDoc::decode(fragment)
        .map_err(|why| format!("This embedded match cannot be shown: {why}."))?;
    if doc.replay.is_none() {
        return Err(
            "This link carries no recorded match, and an embedded match is only \
                    watched, never played: copy the embed code from botplay's Share panel \
                    (Copy embed code), which puts the match in it."
                .to_string(),
        );
    }
    Ok(doc)
}

/// The fragment of the view's address, without its `#`.
fn fragment() -> String {
    web_sys::window()
        .and_then(|w| w.location().hash().ok())
        .map(|hash| hash.trim_start_matches('#').to_string())
        .unwrap_or_default()
}

/// Opens the match in the address, or says (to the person and the framing page) why there is
/// none. Another fragment (the framing page changed the frame's address) opens the view again
/// from the start, so that nothing of the previous match, or of its problem, stays.
#[hook]
fn use_address_match(state: &UseReducerHandle<AppState>, problem: &UseStateHandle<Option<String>>) {
    let dispatcher = state.dispatcher();
    let problem = problem.clone();
    use_effect_with((), move |_| {
        match doc_of_fragment(&fragment()) {
            Ok(ShareDoc {
                replay: Some(replay),
                turn,
                ..
            }) => {
                dispatcher.dispatch(Action::ShowReplay(replay, "a link".to_string()));
                if let Some(frame) = turn {
                    dispatcher.dispatch(Action::Seek(frame));
                }
            }
            Ok(_) => {}
            Err(why) => {
                tell_parent(&error_note(&why));
                problem.set(Some(why));
            }
        }
        let listener = super::sharing::on_hash_change(|| {
            if let Some(window) = web_sys::window() {
                let _ = window.location().reload();
            }
        });
        move || drop(listener)
    });
}

/// Commands from the page around the frame, applied to what is shown at that moment.
#[hook]
fn use_framing_commands(state: &UseReducerHandle<AppState>) {
    let latest = use_mut_ref(|| (Rc::new(Record::default()), false));
    *latest.borrow_mut() = (state.record.clone(), state.cursor.playing);
    let dispatcher = state.dispatcher();
    use_effect_with((), move |_| {
        let listener = web_sys::window().map(|window| {
            gloo_events::EventListener::new(&window, "message", move |event| {
                let Some(command) = event
                    .dyn_ref::<web_sys::MessageEvent>()
                    .and_then(command_of)
                else {
                    return;
                };
                let (record, playing) = latest.borrow().clone();
                // No match shown yet (the page's opening start is not one).
                if record.setup.is_none() {
                    return;
                }
                match command {
                    Command::SetTurn(turn) => {
                        dispatcher.dispatch(Action::Seek(frame_of_turn(&record, turn)))
                    }
                    Command::Play if !playing => dispatcher.dispatch(Action::TogglePlay),
                    Command::Pause if playing => dispatcher.dispatch(Action::TogglePlay),
                    Command::Play | Command::Pause => {}
                }
            })
        });
        move || drop(listener)
    });
}

/// What the frame tells: ready once a match is shown, then the turn at every change, and the
/// end when the last frame comes into view.
#[hook]
fn use_notes_to_framing_page(state: &UseReducerHandle<AppState>) {
    let record = state.record.clone();
    let (frame, playing) = (state.cursor.frame, state.cursor.playing);
    let last = record.frames.len().saturating_sub(1);
    {
        let record = record.clone();
        use_effect_with(RecordRef(record.clone()), move |_| {
            if record.setup.is_some() {
                tell_parent(&ready_note(&record));
            }
        });
    }
    // The match and frame last told: `ended` is told when the end comes into view, not again
    // when playback merely stops there.
    let told = use_mut_ref(|| None::<(usize, usize)>);
    use_effect_with(
        (RecordRef(record.clone()), frame, playing),
        move |(_, frame, playing)| {
            if record.setup.is_none() {
                return;
            }
            tell_parent(&turn_note(&record, *frame, *playing));
            let now = (Rc::as_ptr(&record) as usize, *frame);
            let before = told.borrow_mut().replace(now);
            if *frame == last && before != Some(now) {
                tell_parent(&ended_note(&record, *frame));
            }
        },
    );
}

#[component(Embed)]
pub fn embed() -> Html {
    let state = use_reducer(AppState::new);
    // Why the address cannot be shown, in words.
    let problem = use_state(|| None::<String>);
    let dispatch = {
        let state = state.clone();
        Callback::from(move |action: Action| state.dispatch(action))
    };
    use_address_match(&state, &problem);
    // The engine could not re-run the link's match (another game version, an unknown game).
    let refused = state
        .record
        .frames
        .is_empty()
        .then(|| state.notice.clone())
        .flatten()
        .map(|why| format!("This embedded match cannot be shown: {why}"));
    use_effect_with(refused.clone(), |refused| {
        if let Some(why) = refused {
            tell_parent(&error_note(why));
        }
    });
    use_framing_commands(&state);
    use_notes_to_framing_page(&state);

    if let Some(why) = problem.as_ref().or(refused.as_ref()) {
        return html! {
            <main class="embed">
                <p id="embed-problem" class="embed-problem warning" role="alert">{ why }</p>
            </main>
        };
    }
    let record = state.record.clone();
    let frame = state.cursor.frame;
    let last = record.frames.len().saturating_sub(1);
    // The whole match in the playground, in a new tab.
    let open_href = format!("./#{}", fragment());
    let game_name = games::entry(record.game).map_or("", |g| g.info.name);
    html! {
        <main class={classes!("embed", (frame == last && record.setup.is_some()).then_some("at-end"))}
            aria-label={format!("{game_name}: a match played back")}>
            <Viewer record={RecordRef(record.clone())} progress={state.progress.clone()}
                cursor={state.cursor} speed={state.speed} {dispatch} charts={false} />
            <a class="embed-open" href={open_href} target="_blank" rel="noopener"
                title="Open this match in botplay (a new tab)">{ "botplay ↗" }</a>
        </main>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_and_everything_else_is_ignored() {
        let parse = |text: &str| Command::parse(&serde_json::from_str(text).expect("JSON"));
        assert_eq!(parse(r#"{"type":"botplay:play"}"#), Some(Command::Play));
        assert_eq!(
            parse(r#"{"type":"botplay:pause","x":1}"#),
            Some(Command::Pause)
        );
        assert_eq!(
            parse(r#"{"type":"botplay:set-turn","turn":12}"#),
            Some(Command::SetTurn(12))
        );
        assert_eq!(
            parse(r#"{"type":"botplay:set-turn","turn":1e12}"#),
            None,
            "a float is not a turn, even a whole one written so"
        );
        assert_eq!(
            parse(r#"{"type":"botplay:set-turn","turn":99999999999}"#),
            Some(Command::SetTurn(u32::MAX))
        );
        for ignored in [
            "null",
            "3",
            r#""botplay:play""#,
            "[]",
            "{}",
            r#"{"type":"play"}"#,
            r#"{"type":"botplay:PLAY"}"#,
            r#"{"type":7}"#,
            r#"{"type":"botplay:set-turn"}"#,
            r#"{"type":"botplay:set-turn","turn":-1}"#,
            r#"{"type":"botplay:set-turn","turn":2.5}"#,
            r#"{"type":"botplay:set-turn","turn":"3"}"#,
            r#"{"type":"botplay:set-turn","turn":null}"#,
        ] {
            assert_eq!(parse(ignored), None, "{ignored}");
        }
    }

    #[test]
    fn a_turn_is_the_first_frame_that_shows_it() {
        // Skyport-like: two frames before turn 1.
        let turns = [0, 0, 1, 2, 3];
        let at = |turn| first_frame_showing(turns.len(), |f| turns[f], turn);
        assert_eq!(at(0), 0);
        assert_eq!(at(1), 2);
        assert_eq!(at(3), 4);
        assert_eq!(at(4), 4, "beyond the last turn: the last frame");
        assert_eq!(at(u32::MAX), 4);
        assert_eq!(first_frame_showing(0, |_| 0, 5), 0);
    }

    #[test]
    fn an_address_without_a_recorded_match_is_explained() {
        let empty = doc_of_fragment("").expect_err("empty");
        assert!(empty.contains("address holds no match"), "{empty}");
        let damaged = doc_of_fragment("b1.AAAA").expect_err("damaged");
        assert!(
            damaged.starts_with("This embedded match cannot be shown: "),
            "{damaged}"
        );
        let setup = engine::Setup::new(games::ice_and_fire::ENTRY.info, 3);
        let doc = ShareDoc {
            setup,
            relaxed: false,
            bots: vec![
                engine::SharedBot::Builtin {
                    name: "wait".into(),
                },
                engine::SharedBot::Builtin {
                    name: "wait".into(),
                },
            ],
            replay: None,
            turn: None,
            lesson: None,
        };
        let without = doc_of_fragment(&doc.encode()).expect_err("no replay");
        assert!(without.contains("carries no recorded match"), "{without}");
    }
}
