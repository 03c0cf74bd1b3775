//! The first-visit help: a short panel above the editor saying what a bot is, how its input and
//! output work, and where the rules, the debug log and sharing are. It shows until dismissed,
//! and the header's Help button brings it back.

use yew::prelude::*;

/// Where the browser remembers that the help was dismissed.
const KEY: &str = "botplay/help-dismissed";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Whether the help shows when the page opens: until it is dismissed once.
pub fn shown_at_start() -> bool {
    storage().is_none_or(|s| s.get_item(KEY).ok().flatten().is_none())
}

fn remember_dismissed(dismissed: bool) {
    if let Some(storage) = storage() {
        let _ = if dismissed {
            storage.set_item(KEY, "yes")
        } else {
            storage.remove_item(KEY)
        };
    }
}

#[derive(Properties, PartialEq)]
pub struct ButtonProps {
    pub open: UseStateHandle<bool>,
}

/// The header's Help button: shows the help again (or hides it).
#[component(HelpButton)]
pub fn help_button(props: &ButtonProps) -> Html {
    let onclick = {
        let open = props.open.clone();
        Callback::from(move |_: MouseEvent| {
            remember_dismissed(*open);
            open.set(!*open);
        })
    };
    html! {
        <button type="button" id="help-toggle" class="help-toggle" {onclick}
            aria-expanded={props.open.to_string()} aria-controls="help">
            { "Help" }
        </button>
    }
}

#[derive(Properties, PartialEq)]
pub struct PanelProps {
    pub open: UseStateHandle<bool>,
}

/// The help itself, when open.
#[component(HelpPanel)]
pub fn help_panel(props: &PanelProps) -> Html {
    if !*props.open {
        return html! {};
    }
    let on_close = {
        let open = props.open.clone();
        Callback::from(move |_: MouseEvent| {
            remember_dismissed(true);
            open.set(false);
        })
    };
    html! {
        <section id="help" class="help" aria-label="How botplay works">
            <h2>{ "How it works" }</h2>
            <ul>
                <li>
                    <strong>{ "A bot is a program that plays one seat of the game." }</strong>
                    { " The editor holds yours, already playing: change it and press Run." }
                </li>
                <li>
                    { "Each turn the game writes what your bot sees to its input, line by line; \
                       your bot reads the lines (" }
                    <code>{ "readline()" }</code>{ " in JavaScript or TypeScript, " }
                    <code>{ "input()" }</code>
                    { " in Python) and writes its orders as one line (" }
                    <code>{ "console.log" }</code>{ ", " }<code>{ "print" }</code>
                    { ") within the turn's time budget. Late or wrong answers lose the match." }
                </li>
                <li>
                    { "A compiled bot plays too (C, C++, Rust, Go…): build it for WebAssembly \
                       with one command, such as " }
                    <code>{ "clang --target=wasm32-wasi -O2 -o bot.wasm bot.c" }</code>
                    { ", choose " }<strong>{ "WebAssembly (.wasm)" }</strong>
                    { " under Played by and pick or drop the file. It reads its input on stdin \
                       and writes its orders on stdout, as on CodinGame." }
                </li>
                <li>
                    { "The " }<strong>{ "Rules" }</strong>
                    { " button at the top explains the game and every line of its input and output." }
                </li>
                <li>
                    { "Under the board, each turn's input, output and " }<strong>{ "debug log" }</strong>
                    { " (" }<code>{ "console.error" }</code>{ ", " }
                    <code>{ "print(..., file=sys.stderr)" }</code>
                    { ") are shown for every bot: step through the turns with ◀ ▶ or the arrow keys." }
                </li>
                <li>
                    { "Also under the board: " }<strong>{ "Share" }</strong>
                    { " makes a link to the match and your code, or a replay file. Your code is \
                       saved in this browser as you type." }
                </li>
            </ul>
            <button type="button" id="help-close" onclick={on_close}>{ "Got it" }</button>
        </section>
    }
}
