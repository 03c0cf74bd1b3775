//! What each bot received, wrote, logged and how long it took in the turn that led to a frame.

use std::rc::Rc;

use engine::TurnRecord;
use yew::prelude::*;

use crate::describe;

#[derive(Properties)]
pub struct Props {
    pub game: &'static str,
    pub names: Vec<String>,
    /// The turn that led to the frame shown (none for the first frame).
    pub turn: Option<Rc<TurnRecord>>,
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        let same = match (&self.turn, &other.turn) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same && self.game == other.game && self.names == other.names
    }
}

#[component(TurnDetails)]
pub fn turn_details(props: &Props) -> Html {
    let Some(turn) = &props.turn else {
        return html! {
            <section id="turn-details" class="turn-details">
                <h3>{ "This turn's input and output" }</h3>
                <p class="hint">{ "The start of the match: no bot has played yet." }</p>
            </section>
        };
    };
    html! {
        <section id="turn-details" class="turn-details">
            <h3>{ "This turn's input and output" }</h3>
            { for turn.seats.iter().map(|st| {
                let label = describe::seat_label(props.game, st.seat, &props.names);
                let mut stdin = st.input.clone();
                for reply in &st.replies {
                    stdin.push_str(reply);
                }
                let stdout = st.lines.join("\n");
                html! {
                    <article class={classes!("seat-turn", format!("seat-{}", st.seat))}
                        data-seat={st.seat.to_string()}>
                        <h4>
                            <span class={classes!("swatch", format!("seat-{}", st.seat))}></span>
                            { format!("{label} · game turn {} · {}", st.turn, describe::millis(st.time_ms)) }
                        </h4>
                        if let Some(f) = &st.fault {
                            <p class="fault">{ format!("{}: {}", f.kind, f.text) }</p>
                        }
                        <div class="streams">
                            <div>
                                <h5>{ "stdin" }</h5>
                                <pre class="stdin">{ stdin }</pre>
                            </div>
                            <div>
                                <h5>{ "stdout" }</h5>
                                <pre class="stdout">{ if stdout.is_empty() { "(nothing)".to_string() } else { stdout } }</pre>
                            </div>
                            <div>
                                <h5>{ "stderr" }</h5>
                                <pre class="stderr">{ if st.stderr.is_empty() { "(nothing)".to_string() } else { st.stderr.clone() } }</pre>
                            </div>
                        </div>
                    </article>
                }
            }) }
        </section>
    }
}
