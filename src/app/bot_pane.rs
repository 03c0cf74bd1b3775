//! The bot pane: the person's own bot (who plays it and, for code, the editor), with a lesson's
//! instruction above it and the banner of a link's code. On a wide screen it is the page's main
//! pane, beside the match; `splitter.rs` sets its width.

use yew::prelude::*;

use super::code_keeping::LinkCodeBanner;
use super::match_form::SlotFields;
use super::state::{Action, Form, Slot};
use super::wasm_file::use_wasm_drop;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub form: Form,
    pub dispatch: Callback<Action>,
    /// A slot's code as typed: (slot, code).
    pub on_code: Callback<(usize, String)>,
    /// Shown above the bot, under a lesson's instruction (the first-visit help).
    #[prop_or_default]
    pub children: Html,
}

/// What the first seat's heading says: "Your bot" for code of the person's, else who plays it
/// (a link may put a built-in bot there, and its code in the second seat).
fn title(slot: &Slot) -> String {
    if slot.is_code() {
        "Your bot".to_string()
    } else if slot.player == crate::human::HUMAN {
        "You, by hand".to_string()
    } else {
        format!("First seat: the built-in bot {}", slot.player)
    }
}

#[component(BotPane)]
pub fn bot_pane(props: &Props) -> Html {
    let form = &props.form;
    let seat = use_node_ref();
    use_wasm_drop(&seat, 0, form.scope(), &props.dispatch);
    let on_leave = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::LeaveLesson))
    };
    html! {
        <section id="bot-pane" class="bot-pane" aria-label="Your bot">
            if let Some(lesson) = &form.lesson {
                <section id="lesson" class="lesson" aria-label="Lesson">
                    <h3>{ &lesson.title }</h3>
                    if !lesson.text.is_empty() {
                        <p class="lesson-text">{ &lesson.text }</p>
                    }
                    <p class="hint">{ "Your code for this lesson is saved apart from your other bots." }</p>
                    <button type="button" id="leave-lesson" onclick={on_leave}>{ "Leave the lesson" }</button>
                </section>
            }
            { props.children.clone() }
            <LinkCodeBanner form={form.clone()} dispatch={props.dispatch.clone()} />
            <div class="seat" ref={seat}>
                <h2 class="seat-title"><span class="swatch seat-0"></span>{ title(&form.bots[0]) }</h2>
                <SlotFields game={form.game} scope={form.scope()} slot={0}
                    bot={form.bots[0].clone()} dispatch={props.dispatch.clone()}
                    on_code={props.on_code.clone()} />
            </div>
        </section>
    }
}
