//! The viewer: the board, playback controls, the outcome, the events, statuses and faults, and
//! each bot's input and output of the turn shown.

use std::rc::Rc;

use engine::Frame;
use wasm_bindgen::JsCast;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::board::Board;
use super::charts::{self, Charts};
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
}

#[component(Viewer)]
pub fn viewer(props: &Props) -> Html {
    let record = &props.record.0;
    let cursor = props.cursor;
    let game = record.game;
    let last = record.frames.len().saturating_sub(1);
    let frame = record.frames.get(cursor.frame).cloned();
    // During a match, a frame shown before its picture has come (asked for, see
    // `AppState::pictures_wanted`) leaves the board on the last one drawn of the same match, for
    // a moment.
    let drawn = use_mut_ref(|| None::<(Option<engine::Setup>, Rc<Frame>)>);
    let board_frame = match &frame {
        Some(f) if !f.has_picture() => drawn
            .borrow()
            .as_ref()
            .filter(|(setup, _)| *setup == record.setup)
            .map(|(_, drawn)| drawn.clone())
            .or_else(|| frame.clone()),
        _ => {
            *drawn.borrow_mut() = frame.clone().map(|f| (record.setup.clone(), f));
            frame.clone()
        }
    };
    // The text view of the board (remembered in the browser).
    let text_shown = use_state(text_view::load_shown);
    // The match's numbers per step, for the charts and their sentences in the text view.
    let series = charts::use_series(record, props.charts);
    let on_text_view = {
        let text_shown = text_shown.clone();
        Callback::from(move |_: MouseEvent| {
            text_view::save_shown(!*text_shown);
            text_shown.set(!*text_shown);
        })
    };

    // Playback: on each animation frame the cursor advances by the frames due at this speed
    // (src/app/playback.rs), so the board is drawn at most once per screen refresh.
    {
        let dispatch = props.dispatch.clone();
        let every_ms = every_ms(props.speed);
        use_effect_with((cursor.playing, every_ms), move |&(playing, every_ms)| {
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

    let emit = |action: fn() -> Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action()))
    };
    let on_back = emit(|| Action::Step(-1));
    let on_forward = emit(|| Action::Step(1));
    let on_play = emit(|| Action::TogglePlay);
    let on_first = emit(|| Action::Seek(0));
    let on_last = emit(|| Action::Seek(usize::MAX));
    let on_next_fault = emit(|| Action::NextFault);
    let on_next_out = emit(|| Action::NextElimination);
    let on_switch = emit(|| Action::SwitchMatch);
    // The take-over panel is at the bottom of the viewer: this button brings it into sight.
    let on_take_over_open = Callback::from(|_: MouseEvent| {
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
    });
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
    let on_key = {
        let dispatch = props.dispatch.clone();
        let text_shown = text_shown.clone();
        Callback::from(move |e: KeyboardEvent| {
            // A focused board with controls of its own answers its keys itself.
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
    };
    // The same keys work before anything is focused (a page just opened, a click on the page's
    // background), and the arrows and the others also while a button outside the viewer has the
    // focus (Run, just pressed): not while typing, nor in a list, nor inside the viewer (its own
    // handler above has them).
    {
        let dispatch = props.dispatch.clone();
        use_effect_with((), move |_| {
            let document = web_sys::window().and_then(|w| w.document());
            let listener = document.map(|document| {
                gloo_events::EventListener::new(&document, "keydown", move |event| {
                    let Some(e) = event.dyn_ref::<KeyboardEvent>() else {
                        return;
                    };
                    if e.default_prevented() || e.ctrl_key() || e.meta_key() || e.alt_key() {
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
                })
            });
            move || drop(listener)
        });
    }

    // A replay file dropped on the viewer is opened.
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    let on_drop = {
        let dispatch = props.dispatch.clone();
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
    };

    let status_line = match &props.progress {
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
    };
    // A match that is over without an outcome ended early: its host's process died.
    let outcome = record
        .outcome
        .as_ref()
        .map(|o| describe::outcome(game, o, &record.names))
        .or_else(|| {
            (props.progress == Progress::Over).then(|| {
                "The match ended early, without a result: the process running its bots \
                 crashed (see the faults)."
                    .to_string()
            })
        });
    let faults: Vec<String> = record
        .faults
        .iter()
        .map(|f| describe::fault(game, f, &record.names, record.fault_turn_number(f)))
        .collect();
    // The panels beside the board follow it at most PANEL_UPDATES_PER_SECOND times a second
    // while playing (all of them when paused).
    let panel_index = if cursor.playing {
        let frames_per_second = 1000.0 / every_ms(props.speed);
        let every = (frames_per_second / PANEL_UPDATES_PER_SECOND)
            .floor()
            .max(1.0) as usize;
        cursor.frame - cursor.frame % every
    } else {
        cursor.frame
    };
    let panel_frame = record.frames.get(panel_index);
    let turn = panel_index
        .checked_sub(1)
        .and_then(|t| record.turns.get(t).cloned());
    let label = frame
        .as_ref()
        .map(|f| f.text().into_owned())
        .unwrap_or_default();

    html! {
        <section id="viewer" class={classes!("viewer", props.on_pick.is_some().then_some("picking"))}
            aria-label="Match viewer" tabindex="0" onkeydown={on_key}
            ondragover={on_drag_over} ondrop={on_drop}>
            <p id="match-status" class={classes!("match-status",
                matches!(props.progress, Progress::Failed(_)).then_some("warning"))}>
                { status_line }
                if record.relaxed { { " (relaxed time limits)" } }
            </p>
            if let Some(showing_original) = props.compare {
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
            } else if let Some(from) = &record.from {
                <p id="match-origin" class="match-origin">
                    { format!("This match took over another after its turn {}: the turns up to \
                       there are that match's.", record.turn_number(from.turns)) }
                </p>
            }
            // The result above the board: in sight while the match is watched.
            <div id="outcome" class="outcome" aria-live="polite">
                if let Some(text) = &outcome {
                    <p class="result">{ text }</p>
                }
                if outcome.is_some() || matches!(props.progress, Progress::Stopped) {
                    { for faults.iter().map(|f| html! { <p class="fault">{ f }</p> }) }
                }
            </div>
            <Board {game} frame={board_frame} {label} on_pick={props.on_pick.clone()}
                selected={props.selected} />
            { props.children.clone() }
            <div class="controls" role="toolbar" aria-label="Playback">
                <button type="button" id="first" title="First frame (Home)" onclick={on_first}>{ "|◀" }</button>
                <button type="button" id="step-back" title="Step back (←)" onclick={on_back}>{ "◀" }</button>
                <button type="button" id="play" title="Play or pause (space)" onclick={on_play}
                    aria-pressed={cursor.playing.to_string()}>
                    { if cursor.playing { "❚❚ Pause" } else { "▶ Play" } }
                </button>
                <button type="button" id="step-forward" title="Step forward (→)" onclick={on_forward}>{ "▶" }</button>
                <button type="button" id="last" title="Last frame (End)" onclick={on_last}>{ "▶|" }</button>
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
                <button type="button" id="next-fault" title="Next fault (f)" onclick={on_next_fault}
                    disabled={record.next_fault(cursor.frame).is_none()}>{ "next fault" }</button>
                <button type="button" id="next-elimination" title="Next elimination (e)"
                    onclick={on_next_out} disabled={record.next_elimination(cursor.frame).is_none()}>
                    { "next elimination" }
                </button>
                <button type="button" id="text-view-toggle" title="Text view of the board (t)"
                    onclick={on_text_view} aria-pressed={text_shown.to_string()}
                    aria-controls={text_shown.then_some("text-view")}>
                    { "Text view" }
                </button>
                if props.take_over.is_some() && record.setup.is_some() {
                    <button type="button" id="take-over-open" onclick={on_take_over_open}
                        title="Play on from the turn shown with other bots: the take-over panel below">
                        { "Take over…" }
                    </button>
                }
            </div>
            if props.charts {
                <Charts record={props.record.clone()} series={series.clone()} frame={cursor.frame}
                    dispatch={props.dispatch.clone()} />
            }
            if *text_shown {
                <TextView {game} names={record.names.clone()} frame={frame.clone()}
                    index={cursor.frame} last={record.last_turn_number()}
                    charts={charts::summaries(game, record, &series.0.borrow())}
                    announce={!(cursor.playing || (props.progress.is_live() && cursor.follow))} />
            }
            // The console: what each bot read, wrote and logged in the turn shown.
            <TurnDetails {game} names={record.names.clone()} {turn}
                number={record.turn_number(panel_index)}
                brief={cursor.playing || (props.progress.is_live() && cursor.follow)} />
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
                        { for faults.iter().map(|f| html! { <li>{ f }</li> }) }
                    </ul>
                </div>
            </div>
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
