//! The viewer: the board, playback controls, the outcome, the events, statuses and faults, and
//! each bot's input and output of the turn shown.

use std::rc::Rc;

use engine::Frame;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::board::Board;
use super::charts::{self, Charts};
use super::fault_lines::{self, FaultText};
use super::playback::Playback;
use super::sharing::{open_replay_file, Sharing};
use super::state::{Action, Cursor, Progress, Record, PLAY_FRAME_MS, SPEEDS};
use super::text_view::{self, TextView};
use super::turn_details::TurnDetails;
use crate::{describe, painters};

/// While playing, the panels beside the board (statuses, events, the turn's streams) are
/// updated at most this many times a second: at 32× the board shows 128 frames a second, and
/// laying out the panels' text for each of them cost more than drawing the board (the largest
/// Crafting Quest 3 map played at 33–48 frames a second with them, 48–58 without, here).
const PANEL_UPDATES_PER_SECOND: f64 = 8.0;

/// Milliseconds between two frames at this speed (an index into [`SPEEDS`]).
fn every_ms(speed: usize) -> f64 {
    PLAY_FRAME_MS / SPEEDS[speed.min(SPEEDS.len() - 1)]
}

/// What a key does to the playback (space, arrows, Home, End, +, −, f, e), or o: the original
/// match instead of the one that took it over, and back.
fn key_action(key: &str) -> Option<Action> {
    Some(match key {
        " " => Action::TogglePlay,
        "ArrowLeft" => Action::Step(-1),
        "ArrowRight" => Action::Step(1),
        "Home" => Action::Seek(0),
        "End" => Action::Seek(usize::MAX),
        "+" | "=" => Action::ChangeSpeed(1),
        "-" => Action::ChangeSpeed(-1),
        "f" => Action::NextFault,
        "e" => Action::NextElimination,
        "o" => Action::SwitchMatch,
        "Escape" => Action::Present(false),
        _ => return None,
    })
}

/// The shown match, compared by identity (it only changes by being replaced).
#[derive(Clone)]
pub struct RecordRef(pub Rc<Record>);

impl PartialEq for RecordRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub record: RecordRef,
    pub progress: Progress,
    pub cursor: Cursor,
    /// An index into [`SPEEDS`].
    pub speed: usize,
    pub dispatch: Callback<Action>,
    /// A human turn: board clicks go here, and this cell is outlined (src/app/board.rs).
    #[prop_or_default]
    pub on_pick: Option<Callback<super::board::Pick>>,
    #[prop_or_default]
    pub selected: Option<(f64, f64)>,
    /// Shown under the board (the human-turn panel).
    #[prop_or_default]
    pub children: Html,
    /// A match taken over from a turn of another is shown, or that other: whether it is the
    /// original (`o` switches).
    #[prop_or_default]
    pub compare: Option<bool>,
    /// The take-over panel, shown after the sharing panel (none in the embed view).
    #[prop_or_default]
    pub take_over: Option<Html>,
    /// The charts under the timeline (the embed view has no room for them).
    #[prop_or(true)]
    pub charts: bool,
    /// The result is kept for the end of the playback (`AppState::hide_result`).
    #[prop_or_default]
    pub hide_result: bool,
    /// The presenter view is on (`AppState::presenting`); none: no such view (the embed view).
    #[prop_or_default]
    pub presenting: Option<bool>,
}

/// The frame the board draws: the cursor's, or, during a match, while the cursor's frame has no
/// picture yet (asked for, see `AppState::pictures_wanted`), the last one drawn of the same
/// match, for a moment.
#[hook]
fn use_board_frame(record: &Record, frame: Option<Rc<Frame>>) -> Option<Rc<Frame>> {
    let drawn = use_mut_ref(|| None::<(Option<engine::Setup>, Rc<Frame>)>);
    match &frame {
        Some(f) if !f.has_picture() => drawn
            .borrow()
            .as_ref()
            .filter(|(setup, _)| *setup == record.setup)
            .map(|(_, drawn)| drawn.clone())
            .or(frame),
        _ => {
            *drawn.borrow_mut() = frame.clone().map(|f| (record.setup.clone(), f));
            frame
        }
    }
}

/// Playback: on each animation frame the cursor advances by the frames due at this speed
/// (src/app/playback.rs), so the board is drawn at most once per screen refresh.
#[hook]
fn use_playback(dispatch: &Callback<Action>, playing: bool, speed: usize) {
    let dispatch = dispatch.clone();
    use_effect_with((playing, every_ms(speed)), move |&(playing, every_ms)| {
        let playback = playing.then(|| {
            Playback::start(every_ms, move |due| {
                for _ in 0..due {
                    dispatch.emit(Action::Tick);
                }
            })
        });
        move || drop(playback)
    });
}

/// The playback keys work before anything is focused (a page just opened, a click on the page's
/// background), and the arrows and the others also while a button outside the viewer has the
/// focus (Run, just pressed): not while typing, nor in a list, nor inside the viewer (its own
/// handler has them). Esc is heard there only in the presenter view (elsewhere it closes
/// dialogs).
#[hook]
fn use_document_keys(dispatch: &Callback<Action>, presenting: bool) {
    let dispatch = dispatch.clone();
    let presenting_now = use_mut_ref(|| presenting);
    *presenting_now.borrow_mut() = presenting;
    use_effect_with((), move |_| {
        let document = web_sys::window().and_then(|w| w.document());
        let listener = document.map(|document| {
            let options = gloo_events::EventListenerOptions::enable_prevent_default();
            gloo_events::EventListener::new_with_options(
                &document,
                "keydown",
                options,
                move |event| {
                    let Some(e) = event.dyn_ref::<KeyboardEvent>() else {
                        return;
                    };
                    if e.default_prevented() || e.ctrl_key() || e.meta_key() || e.alt_key() {
                        return;
                    }
                    if e.key() == "Escape" && !*presenting_now.borrow() {
                        return;
                    }
                    let target = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
                    let free = match &target {
                        None => true,
                        Some(el) => {
                            let tag = el.tag_name();
                            let in_viewer = el.closest("#viewer").ok().flatten().is_some();
                            tag == "BODY"
                                || tag == "HTML"
                                || (tag == "BUTTON" && !in_viewer && e.key() != " ")
                        }
                    };
                    if !free {
                        return;
                    }
                    if let Some(action) = key_action(&e.key()) {
                        e.prevent_default();
                        dispatch.emit(action);
                    }
                },
            )
        });
        move || drop(listener)
    });
}

/// The viewer's own keys: playback, `t` for the text view; a focused board with controls of its
/// own answers its keys itself.
fn viewer_keys(
    game: &'static str,
    dispatch: &Callback<Action>,
    text_shown: &UseStateHandle<bool>,
) -> Callback<KeyboardEvent> {
    let (dispatch, text_shown) = (dispatch.clone(), text_shown.clone());
    Callback::from(move |e: KeyboardEvent| {
        let on_board = e
            .target_dyn_into::<web_sys::Element>()
            .is_some_and(|el| el.id() == "board");
        if on_board && painters::board_takes_key(game, &e.key()) {
            return;
        }
        if e.key() == "t" {
            e.prevent_default();
            text_view::save_shown(!*text_shown);
            return text_shown.set(!*text_shown);
        }
        if let Some(action) = key_action(&e.key()) {
            e.prevent_default();
            dispatch.emit(action);
        }
    })
}

/// A replay file dropped on the viewer is opened.
fn on_drop_replay(dispatch: &Callback<Action>) -> Callback<DragEvent> {
    let dispatch = dispatch.clone();
    Callback::from(move |e: DragEvent| {
        e.prevent_default();
        if let Some(file) = e
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0))
        {
            open_replay_file(file, dispatch.clone());
        }
    })
}

fn status_line(progress: &Progress) -> String {
    match progress {
        Progress::Idle => "No match yet: press Run.".to_string(),
        Progress::Replayed(source) => format!(
            "A replay from {source}: the engine re-ran it, no bot was run. Run plays it again."
        ),
        Progress::Starting => "Starting the bots…".to_string(),
        Progress::Loading(text) => format!("Starting the bots: {text}"),
        Progress::Running => "Playing…".to_string(),
        Progress::Over => "The match is over.".to_string(),
        Progress::Stopped => "Stopped.".to_string(),
        Progress::Failed(why) => format!("The match could not be played: {why}"),
    }
}

/// The result in words; a match over without an outcome ended early (its host's process died).
fn outcome_line(record: &Record, progress: &Progress) -> Option<String> {
    record
        .outcome
        .as_ref()
        .map(|o| describe::outcome(record.game, o, &record.names))
        .or_else(|| {
            (*progress == Progress::Over).then(|| {
                "The match ended early, without a result: the process running its bots \
                 crashed (see the faults)."
                    .to_string()
            })
        })
}

/// Each fault in words, with the editor holding the faulty bot's code when it is the person's
/// (its line numbers then point into it).
fn faults_of(record: &Record) -> Vec<(String, Option<&'static str>)> {
    record
        .faults
        .iter()
        .map(|f| {
            let text = describe::fault(record.game, f, &record.names, record.fault_turn_number(f));
            let code = matches!(
                record.bots.get(f.seat),
                Some(engine::SharedBot::Code { .. })
            );
            let editor = record
                .names
                .get(f.seat)
                .filter(|_| code)
                .and_then(|name| fault_lines::editor_of(name));
            (text, editor)
        })
        .collect()
}

/// The line of the editor's code a fault points at is marked there until the code changes.
#[hook]
fn use_fault_marks(faults: &[(String, Option<&'static str>)]) {
    let marks: Vec<(&'static str, u32)> = faults
        .iter()
        .filter_map(|(text, editor)| Some(((*editor)?, fault_lines::first_line(text)?)))
        .collect();
    use_effect_with(marks, |marks| {
        for &(editor, line) in marks {
            fault_lines::mark(editor, line);
        }
    });
}

fn fault_item(fault: &(String, Option<&'static str>)) -> Html {
    html! { <FaultText text={fault.0.clone()} editor={fault.1} /> }
}

/// Where a match shown comes from, when it took over another: the switch between the two.
fn origin(props: &Props, record: &Record) -> Html {
    if let Some(showing_original) = props.compare {
        let dispatch = props.dispatch.clone();
        let on_switch = Callback::from(move |_: MouseEvent| dispatch.emit(Action::SwitchMatch));
        html! {
            <p id="match-origin" class="match-origin">
                { origin_line(showing_original, record) }
                { " " }
                <button type="button" id="switch-match" onclick={on_switch}
                    aria-pressed={showing_original.to_string()}
                    disabled={props.progress.is_live()}
                    title="The original match or the one that took it over, at the same turn (o)">
                    { if showing_original { "Show the new match (o)" } else { "Show the original (o)" } }
                </button>
            </p>
        }
    } else if let Some(from) = &record.from {
        html! {
            <p id="match-origin" class="match-origin">
                { format!("This match took over another after its turn {}: the turns up to \
                   there are that match's.", record.turn_number(from.turns)) }
            </p>
        }
    } else {
        html! {}
    }
}

/// The take-over panel is at the bottom of the viewer: its button brings it into sight.
fn show_take_over(_: MouseEvent) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(first) = document.get_element_by_id("take-over-seat-0") {
        if let Some(select) = first.dyn_ref::<web_sys::HtmlElement>() {
            let _ = select.focus();
        }
    }
    // The whole panel in sight, its heading first (focusing scrolled only to the choice).
    if let Some(panel) = document.get_element_by_id("take-over") {
        panel.scroll_into_view();
    }
}

/// The playback toolbar.
fn controls(props: &Props, record: &Record, text_shown: &UseStateHandle<bool>) -> Html {
    let cursor = props.cursor;
    let emit = |action: fn() -> Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action()))
    };
    let on_speed = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let value = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            if let Ok(index) = value.parse() {
                dispatch.emit(Action::SetSpeed(index));
            }
        })
    };
    let on_scrub = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let value = e.target_unchecked_into::<HtmlInputElement>().value();
            if let Ok(frame) = value.parse() {
                dispatch.emit(Action::Seek(frame));
            }
        })
    };
    let on_text_view = {
        let text_shown = text_shown.clone();
        Callback::from(move |_: MouseEvent| {
            text_view::save_shown(!*text_shown);
            text_shown.set(!*text_shown);
        })
    };
    let last = record.frames.len().saturating_sub(1);
    html! {
        <div class="controls" role="toolbar" aria-label="Playback">
            <button type="button" id="first" title="First frame (Home)" onclick={emit(|| Action::Seek(0))}>{ "|◀" }</button>
            <button type="button" id="step-back" title="Step back (←)" onclick={emit(|| Action::Step(-1))}>{ "◀" }</button>
            <button type="button" id="play" title="Play or pause (space)" onclick={emit(|| Action::TogglePlay)}
                aria-pressed={cursor.playing.to_string()}>
                { if cursor.playing { "❚❚ Pause" } else { "▶ Play" } }
            </button>
            <button type="button" id="step-forward" title="Step forward (→)" onclick={emit(|| Action::Step(1))}>{ "▶" }</button>
            <button type="button" id="last" title="Last frame (End)" onclick={emit(|| Action::Seek(usize::MAX))}>{ "▶|" }</button>
            <input id="scrub" type="range" min="0" max={last.to_string()}
                value={cursor.frame.to_string()} oninput={on_scrub} aria-label="Turn" />
            <span id="turn-label" class="turn-label">
                { format!("turn {} / {}", record.turn_number(cursor.frame), record.last_turn_number()) }
            </span>
            <select id="speed" title="Playback speed (+ and −)" aria-label="Playback speed"
                onchange={on_speed}>
                { for SPEEDS.iter().enumerate().map(|(i, s)| html! {
                    <option value={i.to_string()} selected={i == props.speed}>
                        { format!("{s}×") }
                    </option>
                }) }
            </select>
            <button type="button" id="next-fault" title="Next fault (f)" onclick={emit(|| Action::NextFault)}
                disabled={record.next_fault(cursor.frame).is_none()}>{ "next fault" }</button>
            <button type="button" id="next-elimination" title="Next elimination (e)"
                onclick={emit(|| Action::NextElimination)}
                disabled={record.next_elimination(cursor.frame).is_none()}>
                { "next elimination" }
            </button>
            <button type="button" id="text-view-toggle" title="Text view of the board (t)"
                onclick={on_text_view} aria-pressed={text_shown.to_string()}
                aria-controls={text_shown.then_some("text-view")}>
                { "Text view" }
            </button>
            if let Some(on) = props.presenting {
                <button type="button" id="present" aria-pressed={on.to_string()}
                    onclick={props.dispatch.reform(move |_: MouseEvent| Action::Present(!on))}
                    title="The board and the console side by side in large type, for a projector (Esc leaves)">
                    { if on { "Leave presenter view (Esc)" } else { "Present" } }
                </button>
            }
            if props.take_over.is_some() && record.setup.is_some() {
                <button type="button" id="take-over-open" onclick={Callback::from(show_take_over)}
                    title="Play on from the turn shown with other bots: the take-over panel below">
                    { "Take over…" }
                </button>
            }
        </div>
    }
}

/// The panels beside the board: each bot's status, the events and the faults.
fn panels(
    record: &Record,
    panel_frame: Option<&Rc<Frame>>,
    faults: &[(String, Option<&'static str>)],
) -> Html {
    let game = record.game;
    html! {
        <div class="panels">
            <div class="panel">
                <h3>{ "Bots" }</h3>
                <ul id="statuses" class="statuses">
                    { for record.names.iter().enumerate().map(|(seat, _)| {
                        let status = panel_frame
                            .and_then(|f| f.status().get(seat).cloned())
                            .unwrap_or_default();
                        html! {
                            <li>
                                <span class={classes!("swatch", format!("seat-{seat}"))}></span>
                                <strong>{ describe::seat_label(game, seat, &record.names) }</strong>
                                { " " }{ status }
                            </li>
                        }
                    }) }
                </ul>
            </div>
            <div class="panel">
                <h3>{ "Events" }</h3>
                <ul id="events" class="events">
                    { for panel_frame.iter().flat_map(|f| f.events().into_owned()).map(|e| html! { <li>{ e }</li> }) }
                </ul>
            </div>
            <div class="panel">
                <h3>{ "Faults" }</h3>
                <ul id="faults" class="faults">
                    { for faults.iter().map(|f| html! { <li>{ fault_item(f) }</li> }) }
                </ul>
            </div>
        </div>
    }
}

/// The frame the panels beside the board show: while playing, they follow the board at most
/// PANEL_UPDATES_PER_SECOND times a second (all of them when paused).
fn panel_index(cursor: Cursor, speed: usize) -> usize {
    if cursor.playing {
        let frames_per_second = 1000.0 / every_ms(speed);
        let every = (frames_per_second / PANEL_UPDATES_PER_SECOND)
            .floor()
            .max(1.0) as usize;
        cursor.frame - cursor.frame % every
    } else {
        cursor.frame
    }
}

#[component(Viewer)]
pub fn viewer(props: &Props) -> Html {
    let record = &props.record.0;
    let cursor = props.cursor;
    let game = record.game;
    let frame = record.frames.get(cursor.frame).cloned();
    let board_frame = use_board_frame(record, frame.clone());
    // The text view of the board (remembered in the browser).
    let text_shown = use_state(text_view::load_shown);
    // The match's numbers per step, for the charts and their sentences in the text view.
    let series = charts::use_series(record, props.charts);
    use_playback(&props.dispatch, cursor.playing, props.speed);
    use_document_keys(&props.dispatch, props.presenting == Some(true));
    let faults = faults_of(record);
    use_fault_marks(&faults);
    let outcome = outcome_line(record, &props.progress);
    let panel_index = panel_index(cursor, props.speed);
    let turn = panel_index
        .checked_sub(1)
        .and_then(|t| record.turns.get(t).cloned());
    let label = frame
        .as_ref()
        .map(|f| f.text().into_owned())
        .unwrap_or_default();
    let quiet = cursor.playing || (props.progress.is_live() && cursor.follow);

    html! {
        <section id="viewer" class={classes!("viewer", props.on_pick.is_some().then_some("picking"))}
            aria-label="Match viewer" tabindex="0"
            onkeydown={viewer_keys(game, &props.dispatch, &text_shown)}
            ondragover={Callback::from(|e: DragEvent| e.prevent_default())}
            ondrop={on_drop_replay(&props.dispatch)}>
            <p id="match-status" class={classes!("match-status",
                matches!(props.progress, Progress::Failed(_)).then_some("warning"))}>
                { status_line(&props.progress) }
                if record.relaxed { { " (relaxed time limits)" } }
            </p>
            { origin(props, record) }
            // The result above the board: in sight while the match is watched.
            <div id="outcome" class="outcome" aria-live="polite">
                if let (Some(_), true) = (&outcome, props.hide_result) {
                    <p class="result result-hidden">
                        { "The result comes at the end of the playback. " }
                        <button type="button" id="reveal-result"
                            onclick={props.dispatch.reform(|_: MouseEvent| Action::RevealResult)}>
                            { "Show it now" }
                        </button>
                    </p>
                } else if let Some(text) = &outcome {
                    <p class="result">{ text }</p>
                }
                if (outcome.is_some() && !props.hide_result) || matches!(props.progress, Progress::Stopped) {
                    { for faults.iter().map(|f| html! { <p class="fault">{ fault_item(f) }</p> }) }
                }
            </div>
            <Board {game} frame={board_frame} {label} on_pick={props.on_pick.clone()}
                selected={props.selected} />
            { props.children.clone() }
            { controls(props, record, &text_shown) }
            if props.charts && record.setup.is_some() {
                <Charts record={props.record.clone()} series={series.clone()} frame={cursor.frame}
                    dispatch={props.dispatch.clone()} />
            }
            if *text_shown {
                // Before a match (the board shows the game's start) the text view says so.
                <TextView {game} names={record.names.clone()}
                    frame={record.setup.as_ref().and(frame.clone())}
                    index={cursor.frame} last={record.last_turn_number()}
                    charts={charts::summaries(game, record, &series.0.borrow())}
                    announce={!quiet} />
            }
            // The console: what each bot read, wrote and logged in the turn shown.
            <TurnDetails {game} names={record.names.clone()} {turn}
                number={record.turn_number(panel_index)} brief={quiet} />
            { panels(record, record.frames.get(panel_index), &faults) }
            <Sharing record={props.record.clone()} frame={cursor.frame}
                turn={record.turn_number(cursor.frame)}
                live={props.progress.is_live()} dispatch={props.dispatch.clone()} />
            if let (Some(panel), true) = (&props.take_over, record.setup.is_some()) {
                { panel.clone() }
            }
        </section>
    }
}

/// Which of the two matches is shown, and where they part.
fn origin_line(showing_original: bool, record: &Record) -> String {
    if showing_original {
        "The original match.".to_string()
    } else {
        let turn = record
            .from
            .as_ref()
            .map_or(0, |from| record.turn_number(from.turns));
        format!("Taken over after turn {turn}: the turns up to there are the original's.")
    }
}
