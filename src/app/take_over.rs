//! *Take over from here*: from the board shown, who plays each seat (the bot recorded, the
//! editors' code, a built-in bot, a person), then a new match that re-runs the turns so far as
//! recorded and goes on with them (`state::take_over`).

use std::rc::Rc;

use yew::prelude::*;

use super::state::take_over::SeatChoices;
use crate::describe;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub game: &'static str,
    pub names: Vec<String>,
    /// One per seat.
    pub choices: Rc<Vec<SeatChoices>>,
    /// The turn shown, as the viewer numbers it.
    pub turn: u32,
    /// Why the match cannot be taken over here, if it cannot.
    pub refusal: Option<String>,
    /// The choices made, one per seat; why the match cannot be played so, if it cannot.
    pub on_start: Callback<Vec<String>, Option<String>>,
}

#[component(TakeOver)]
pub fn take_over(props: &Props) -> Html {
    let defaults = || -> Vec<String> { props.choices.iter().map(|c| c.default.clone()).collect() };
    let picks = use_state(defaults);
    let error = use_state(|| None::<String>);
    // Another match, other seats: the choices start again from their defaults.
    {
        let (picks, error) = (picks.clone(), error.clone());
        let defaults = defaults();
        use_effect_with(props.choices.clone(), move |_| {
            picks.set(defaults);
            error.set(None);
        });
    }
    let on_pick = |seat: usize| {
        let (picks, error) = (picks.clone(), error.clone());
        Callback::from(move |e: Event| {
            error.set(None);
            let value = e
                .target_unchecked_into::<web_sys::HtmlSelectElement>()
                .value();
            let mut chosen = (*picks).clone();
            if let Some(pick) = chosen.get_mut(seat) {
                *pick = value;
            }
            picks.set(chosen);
        })
    };
    let on_start = {
        let (picks, error, on_start) = (picks.clone(), error.clone(), props.on_start.clone());
        Callback::from(move |_: MouseEvent| error.set(on_start.emit((*picks).clone())))
    };
    html! {
        <div id="take-over" class="panel take-over">
            <h3>{ "Take over from here" }</h3>
            <p class="note">
                { format!("Who plays each seat from the board shown (turn {}) on. The turns so far \
                   are re-run as recorded; each bot first reads, untimed, what its seat was sent \
                   in them, so it remembers what it would have seen.", props.turn) }
            </p>
            <div class="seats">
                { for props.choices.iter().enumerate().map(|(seat, choice)| {
                    let chosen = picks.get(seat).cloned().unwrap_or_default();
                    html! {
                        <label>
                            <span class={classes!("swatch", format!("seat-{seat}"))}></span>
                            { describe::seat_label(props.game, seat, &props.names) }
                            <select id={format!("take-over-seat-{seat}")} onchange={on_pick(seat)}>
                                { for choice.options.iter().map(|(value, words)| html! {
                                    <option value={value.clone()} selected={*value == chosen}>
                                        { words.clone() }
                                    </option>
                                }) }
                            </select>
                        </label>
                    }
                }) }
            </div>
            <div class="row">
                <button type="button" id="take-over-start" disabled={props.refusal.is_some()}
                    onclick={on_start}>
                    { "Play on from here" }
                </button>
                if let Some(why) = props.refusal.as_ref().or(error.as_ref()) {
                    <span id="take-over-refusal" class="note" role="status">{ why.clone() }</span>
                }
            </div>
        </div>
    }
}
