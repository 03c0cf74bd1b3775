//! The human-turn panel (`#human-turn`): whose turn it is and what to do, the actions offered
//! for the selection, the protocol lines the clicks made so far (`#human-lines`), Undo, Clear,
//! End turn, and the input the seat received. The clicks themselves land on the board
//! (src/app/board.rs) and the rules of each game are in `src/human`.

use yew::prelude::*;

use super::state::{Action, HumanTurn};
use crate::painters;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub game: &'static str,
    pub turn: HumanTurn,
    /// Seat names (the replay's).
    pub names: Vec<String>,
    pub dispatch: Callback<Action>,
    /// End turn: the seat and its lines.
    pub on_end: Callback<(usize, Vec<String>)>,
}

/// Scrolls the viewer to the top of the screen unless the board's top and the End turn button
/// are both on the screen already.
fn bring_board_and_end_into_sight() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Some(document) = window.document() else {
        return;
    };
    let height = window
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let (Some(board), Some(end), Some(viewer)) = (
        document.get_element_by_id("board"),
        document.get_element_by_id("human-end-turn"),
        document.get_element_by_id("viewer"),
    ) else {
        return;
    };
    let in_sight = board.get_bounding_client_rect().top() >= 0.0
        && end.get_bounding_client_rect().bottom() <= height;
    if !in_sight {
        viewer.scroll_into_view();
    }
}

#[component(HumanPanel)]
pub fn human_panel(props: &Props) -> Html {
    let turn = &props.turn;
    let seat = turn.seat;
    let name = props.names.get(seat).cloned().unwrap_or_default();
    let colour = painters::seat_name(props.game, seat);
    let send = |action: fn() -> Action| {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(action()))
    };
    let lines = turn.desk.as_ref().map(|d| d.lines()).unwrap_or_default();
    let on_end = {
        let on_end = props.on_end.clone();
        let lines = lines.clone();
        Callback::from(move |_: MouseEvent| on_end.emit((seat, lines.clone())))
    };
    // Each turn, the board and End turn are brought into sight together when either is out of
    // it (the board is made small enough for both to fit: www/style.css), so that a person does
    // not scroll between turns.
    use_effect_with((seat, turn.input.clone()), |_| {
        bring_board_and_end_into_sight()
    });
    // Keys pressed in the panel are its own (space on a button must not play the match).
    let keep_keys = Callback::from(|e: KeyboardEvent| e.stop_propagation());
    html! {
        <section id="human-turn" class="human-turn" aria-label="Your turn" onkeydown={keep_keys}>
            <h3>
                <span class={classes!("swatch", format!("seat-{seat}"))}></span>
                { format!("Your turn: {name}, seat {} ({colour}). No time limit.", seat + 1) }
            </h3>
            { match &turn.desk {
                Ok(desk) => html! {
                    <>
                        <p id="human-status" class="hint">{ desk.seat.status() }</p>
                        <p id="human-note" aria-live="polite">{ &desk.note }</p>
                        <div id="human-actions" class="row buttons">
                            { for desk.buttons().into_iter().map(|b| {
                                let dispatch = props.dispatch.clone();
                                let key = b.key;
                                let pressed = desk.mode == Some(key);
                                html! {
                                    <button type="button" class="human-action" data-key={key}
                                        aria-pressed={pressed.to_string()}
                                        onclick={Callback::from(move |_: MouseEvent|
                                            dispatch.emit(Action::HumanPress(key)))}>
                                        { b.label }
                                    </button>
                                }
                            }) }
                        </div>
                    </>
                },
                Err(why) => html! {
                    <p class="warning">{ format!("The input could not be read ({why}): End turn sends nothing.") }</p>
                },
            } }
            <p class="human-lines-title">{ "What your clicks write to the referee this turn:" }</p>
            <ol id="human-lines" class="human-lines">
                { for lines.iter().map(|l| html! { <li><code>{ l }</code></li> }) }
            </ol>
            <div class="row buttons">
                <button type="button" id="human-undo" onclick={send(|| Action::HumanUndo)}>{ "Undo last" }</button>
                <button type="button" id="human-clear" onclick={send(|| Action::HumanClear)}>{ "Clear" }</button>
                <button type="button" id="human-end-turn" class="primary" onclick={on_end}>{ "End turn" }</button>
            </div>
            <details id="human-input" class="human-input">
                <summary>{ "The input your seat received this turn (its stdin)" }</summary>
                <pre>{ &turn.input }</pre>
            </details>
        </section>
    }
}
