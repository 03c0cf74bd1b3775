//! The bot pane: the person's own bot (who plays it and, for code, the editor), with a lesson's
//! instruction above it and the banner of a link's code. On a wide screen it is the page's main
//! pane, beside the match; `splitter.rs` sets its width.

use yew::prelude::*;

use super::code_keeping::LinkCodeBanner;
use super::match_form::SlotFields;
use super::state::{Action, Form};

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

#[component(BotPane)]
pub fn bot_pane(props: &Props) -> Html {
    let form = &props.form;
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
            <div class="seat">
                <h2 class="seat-title"><span class="swatch seat-0"></span>{ "Your bot" }</h2>
                <SlotFields game={form.game} scope={form.scope()} slot={0}
                    bot={form.bots[0].clone()} dispatch={props.dispatch.clone()}
                    on_code={props.on_code.clone()} />
            </div>
        </section>
    }
}
