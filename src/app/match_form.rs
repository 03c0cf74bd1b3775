//! The match set-up: seed, league, map (where the game offers maps), the opponent, relaxed budgets, Run
//! and Stop. The person's own bot and its editor are in the bot pane (`bot_pane.rs`).

use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::code_editor::CodeEditor;
use super::code_keeping::{EarlierVersions, OtherTabNotice};

use super::state::{entry, Action, Form, Slot, LANGUAGES, PYTHON, TYPESCRIPT, WASM};
use super::wasm_file::{use_wasm_drop, WasmFile};

#[derive(Properties, PartialEq)]
pub struct Props {
    pub form: Form,
    pub running: bool,
    /// A replay (from a link or a file) is shown: Run plays it again with the bots.
    pub replayed: bool,
    pub notice: Option<String>,
    pub dispatch: Callback<Action>,
    /// A slot's code as typed: (slot, code).
    pub on_code: Callback<(usize, String)>,
    pub on_run: Callback<()>,
    pub on_stop: Callback<()>,
}

#[component(MatchForm)]
pub fn match_form(props: &Props) -> Html {
    let form = &props.form;
    let info = entry(form.game).info;
    let send = |make: fn(String) -> Action| {
        let dispatch = props.dispatch.clone();
        move |value: String| dispatch.emit(make(value))
    };
    let on_seed = {
        let send = send(Action::SetSeed);
        Callback::from(move |e: InputEvent| {
            send(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_ruleset = {
        let send = send(Action::SetRuleset);
        Callback::from(move |e: Event| send(e.target_unchecked_into::<HtmlSelectElement>().value()))
    };
    let maps = crate::registry::entry(form.game).map_or(&[][..], |g| g.maps);
    let on_map = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            // The first map is the default: the option is left out for it.
            let value = if maps.first().is_some_and(|&(default, _)| value == default) {
                String::new()
            } else {
                value
            };
            dispatch.emit(Action::SetOption("map".to_string(), value));
        })
    };
    let on_relaxed = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let checked = e.target_unchecked_into::<HtmlInputElement>().checked();
            dispatch.emit(Action::SetRelaxed(checked));
        })
    };
    let on_new_seed = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            dispatch.emit(Action::SetSeed(super::state::random_seed().to_string()))
        })
    };
    let on_run = props.on_run.reform(|_: MouseEvent| ());
    let on_stop = props.on_stop.reform(|_: MouseEvent| ());
    let ruleset = info.ruleset(&form.ruleset);

    html! {
        <form class="match-form" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <div class="row">
                <label for="seed">{ "Seed" }</label>
                <input id="seed" type="text" inputmode="numeric" value={form.seed.clone()}
                    oninput={on_seed} />
                <button type="button" id="new-seed" title="A new random seed" onclick={on_new_seed}>
                    { "New" }
                </button>
            </div>
            <div class="row">
                <label for="league">{ "League" }</label>
                <select id="league" onchange={on_ruleset}>
                    { for info.rulesets.iter().map(|r| html! {
                        <option value={r.id} selected={r.id == form.ruleset}>{ r.name }</option>
                    }) }
                </select>
            </div>
            if let Some(r) = ruleset {
                <p class="hint">{ r.summary }</p>
            }
            if let Some(&(default, _)) = maps.first() {
                <div class="row">
                    <label for="map">{ "Map" }</label>
                    <select id="map" onchange={on_map}>
                        { for maps.iter().map(|&(name, words)| html! {
                            <option value={name}
                                selected={form.options.get("map").map_or(default, String::as_str) == name}>
                                { words }
                            </option>
                        }) }
                    </select>
                </div>
            }
            <OpponentSeat form={form.clone()} dispatch={props.dispatch.clone()}
                on_code={props.on_code.clone()} />
            <div class="row check">
                <input id="relaxed" type="checkbox" checked={form.relaxed} onchange={on_relaxed} />
                <label for="relaxed">
                    { format!("Relaxed time limits (× {}: {} ms per turn instead of {})",
                        engine::referee::RELAXED_FACTOR,
                        info.turn_ms * engine::referee::RELAXED_FACTOR, info.turn_ms) }
                </label>
            </div>
            <div class="row buttons">
                <button type="button" id="run" class="primary" onclick={on_run}>
                    { if props.running { "Restart" } else if props.replayed { "Run again" } else { "Run" } }
                </button>
                <button type="button" id="stop" disabled={!props.running} onclick={on_stop}>
                    { "Stop" }
                </button>
            </div>
            <LessonMaker form={form.clone()} />
            if let Some(text) = &props.notice {
                <p id="notice" class="warning" role="alert">{ text }</p>
            }
        </form>
    }
}

#[derive(Properties, PartialEq)]
pub(super) struct SlotProps {
    pub game: &'static str,
    /// Where the slot's code is saved (`Form::scope`).
    pub scope: String,
    pub slot: usize,
    pub bot: Slot,
    pub dispatch: Callback<Action>,
    pub on_code: Callback<(usize, String)>,
}

#[derive(Properties, PartialEq)]
struct OpponentProps {
    form: Form,
    dispatch: Callback<Action>,
    on_code: Callback<(usize, String)>,
}

/// The opponent's seat: who plays it, its code (a `.wasm` file dropped on it makes it a
/// WebAssembly bot) and, in games for more than two, how many play.
#[component(OpponentSeat)]
fn opponent_seat(props: &OpponentProps) -> Html {
    let form = &props.form;
    let info = entry(form.game).info;
    let seat = use_node_ref();
    use_wasm_drop(&seat, 1, form.scope(), &props.dispatch);
    let on_seats = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            if let Ok(seats) = value.parse() {
                dispatch.emit(Action::SetSeats(seats));
            }
        })
    };
    html! {
        <div class="seat" ref={seat}>
            <h3 class="seat-title"><span class="swatch seat-1"></span>{ "Opponent" }</h3>
            <SlotFields game={form.game} scope={form.scope()} slot={1} bot={form.bots[1].clone()}
                dispatch={props.dispatch.clone()} on_code={props.on_code.clone()} />
            if info.max_seats > info.min_seats {
                <div class="row">
                    <label for="players">{ "Players" }</label>
                    <select id="players" onchange={on_seats}>
                        { for (info.min_seats..=info.max_seats).map(|n| html! {
                            <option value={n.to_string()} selected={n == form.seats}>
                                { if n == 2 { "2: you and the opponent".to_string() }
                                  else { format!("{n}: you and {} copies of the opponent", n - 1) } }
                            </option>
                        }) }
                    </select>
                </div>
            }
        </div>
    }
}

/// Who plays a bot slot (code in a language, or a built-in bot) and, for code, its editor.
#[component(SlotFields)]
pub(super) fn slot_fields(props: &SlotProps) -> Html {
    let SlotProps {
        game, slot, bot, ..
    } = props;
    let slot = *slot;
    // Slot 0 keeps the ids it always had (tests, labels and links know them).
    let (select_id, editor_id) = if slot == 0 {
        ("player", "bot-code")
    } else {
        ("opponent", "bot-code-2")
    };
    let on_player = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |e: Event| {
            let value = e.target_unchecked_into::<HtmlSelectElement>().value();
            dispatch.emit(Action::SetPlayer(slot, value));
        })
    };
    let on_code = props.on_code.reform(move |code: String| (slot, code));
    let builtin = bots::builtins(game).find(|b| b.name == bot.player);
    let code_label = |name: &str| {
        if slot == 0 {
            format!("this {name} code")
        } else {
            format!("a second bot: {name} code")
        }
    };
    html! {
        <>
            <div class="row">
                <label for={select_id}>{ "Played by" }</label>
                <select id={select_id} onchange={on_player}>
                    { for LANGUAGES.iter().map(|&(value, name)| html! {
                        <option value={value} selected={bot.player == value}>
                            { code_label(name) }
                        </option>
                    }) }
                    if crate::human::supports(game) {
                        <option value={crate::human::HUMAN} selected={bot.player == crate::human::HUMAN}>
                            { if slot == 0 { "you, by hand (click on the board)" }
                              else { "a second person, by hand (hot seat)" } }
                        </option>
                    }
                    { for bots::builtins(game).map(|b| html! {
                        <option value={b.name} selected={b.name == bot.player}>
                            { if slot == 0 { format!("built-in bot: {}", b.name) }
                              else { b.name.to_string() } }
                        </option>
                    }) }
                </select>
            </div>
            if let Some(b) = builtin {
                <p class="hint">{ b.summary }</p>
            }
            if bot.is_code() && bot.language == WASM {
                <WasmFile id={if slot == 0 { "wasm-file" } else { "wasm-file-2" }}
                    code={bot.code.clone()} on_change={on_code.clone()} />
            } else if bot.is_code() {
                <OtherTabNotice scope={props.scope.clone()} {slot} bot={bot.clone()}
                    dispatch={props.dispatch.clone()} />
                <CodeEditor id={editor_id} value={bot.code.clone()} language={bot.language}
                    on_change={on_code} />
                <p class="hint">
                    { if bot.language == PYTHON {
                        "input() reads a line; print() writes your answer; \
                         print(..., file=sys.stderr) writes to the debug log. \
                         Python loads once per match (not counted against your bot). \
                         Saved in this browser as you type."
                    } else if bot.language == TYPESCRIPT {
                        "readline() reads a line; console.log() writes your answer; \
                         console.error() writes to the debug log. The types are removed before \
                         it runs (by Sucrase; nothing checks them). Saved in this browser as you \
                         type."
                    } else {
                        "readline() reads a line; console.log() writes your answer; \
                         console.error() writes to the debug log. Saved in this browser as you type."
                    } }
                </p>
                <EarlierVersions scope={props.scope.clone()} {slot} bot={bot.clone()}
                    dispatch={props.dispatch.clone()}
                    starter={crate::starter::code(game, bot.language).to_string()} />
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct LessonProps {
    form: Form,
}

/// For teachers: a link that opens botplay in this set-up (game, league, seed, players, the
/// editors' code as the starting point, the opponent) with an instruction above the editor.
#[component(LessonMaker)]
fn lesson_maker(props: &LessonProps) -> Html {
    let title = use_state(String::new);
    let text = use_state(String::new);
    let made = use_state(|| Err::<String, String>(String::new()));
    let on_make = {
        let (form, title, text, made) = (
            props.form.clone(),
            title.clone(),
            text.clone(),
            made.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let link = engine::Lesson::new(&title, &text).and_then(|lesson| {
                let spec = form.spec(true, super::state::random_seed)?;
                let doc = engine::ShareDoc {
                    setup: spec.setup,
                    relaxed: spec.relaxed,
                    bots: spec.seats.iter().map(|s| s.shared()).collect(),
                    replay: None,
                    turn: None,
                    lesson: Some(lesson),
                };
                Ok(super::sharing::link_to(&doc))
            });
            if let (Ok(url), Some(window)) = (&link, web_sys::window()) {
                // Best effort: the link is also shown to copy by hand.
                let _ = window.navigator().clipboard().write_text(url);
            }
            made.set(link);
        })
    };
    let on_title = {
        let title = title.clone();
        Callback::from(move |e: InputEvent| {
            title.set(e.target_unchecked_into::<HtmlInputElement>().value())
        })
    };
    let on_text = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            text.set(
                e.target_unchecked_into::<web_sys::HtmlTextAreaElement>()
                    .value(),
            )
        })
    };
    html! {
        <details id="lesson-maker" class="lesson-maker">
            <summary>{ "Make a lesson link (for teachers)" }</summary>
            <p class="hint">
                { "The link opens botplay in this set-up: this game, league, seed and players, the \
                   code in the editors as the students' starting point, this opponent, and your \
                   instruction above the editor. Each student's work is saved in their own browser." }
            </p>
            <label for="lesson-title">{ "Title" }</label>
            <input id="lesson-title" type="text" maxlength={engine::share::MAX_LESSON_TITLE.to_string()}
                value={(*title).clone()} oninput={on_title} />
            <label for="lesson-text">{ "Instruction" }</label>
            <textarea id="lesson-text" rows="4" maxlength={engine::share::MAX_LESSON_TEXT.to_string()}
                value={(*text).clone()} oninput={on_text} />
            <div class="row">
                <button type="button" id="make-lesson" onclick={on_make}>{ "Make the lesson link" }</button>
            </div>
            { match &*made {
                Ok(url) => html! {
                    <>
                        <input id="lesson-link" type="text" readonly=true value={url.clone()}
                            aria-label="Lesson link (copied)" />
                        <p class="hint">{ format!("{} characters; copied if the browser allowed it.", url.len()) }</p>
                    </>
                },
                Err(why) if !why.is_empty() => html! {
                    <p id="lesson-error" class="warning" role="alert">{ format!("No link: {why}.") }</p>
                },
                Err(_) => html! {},
            } }
        </details>
    }
}
