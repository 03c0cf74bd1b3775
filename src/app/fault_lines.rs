//! A fault that names a line of the bot's code ("Error: oops (line 83, column 5)", a Python
//! exception "at line 3") points into the editor that holds that code: its "line 83" is a link
//! that puts the editor's cursor there, and the line is marked in the editor (a red line and a
//! gutter sign) until the code changes (`markLine` in `www/editor/editor.js`).

use yew::prelude::*;

use super::state::SLOT_NAMES;

/// The editors' element ids, by slot (`match_form.rs` and `bot_pane.rs` mount them).
const EDITORS: [&str; 2] = ["bot-code", "bot-code-2"];

/// A piece of a fault's text: words, or a line number to link.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Text(String),
    Line(u32),
}

/// The text cut into words and "line N" mentions.
pub fn pieces(text: &str) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    let push_text = |out: &mut Vec<Piece>, text: &str| match out.last_mut() {
        Some(Piece::Text(before)) => before.push_str(text),
        _ => out.push(Piece::Text(text.to_string())),
    };
    let mut rest = text;
    while let Some(at) = rest.find("line ") {
        let after = &rest[at + "line ".len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let number = after[..digits].parse::<u32>().ok().filter(|&n| n > 0);
        let word_start = at == 0 || !rest[..at].ends_with(|c: char| c.is_alphanumeric());
        match number {
            Some(n) if word_start => {
                if at > 0 {
                    push_text(&mut out, &rest[..at]);
                }
                out.push(Piece::Line(n));
                rest = &after[digits..];
            }
            _ => {
                let end = at + "line ".len();
                push_text(&mut out, &rest[..end]);
                rest = &rest[end..];
            }
        }
    }
    if !rest.is_empty() {
        push_text(&mut out, rest);
    }
    out
}

/// The first line a fault's text names.
pub fn first_line(text: &str) -> Option<u32> {
    pieces(text).into_iter().find_map(|p| match p {
        Piece::Line(n) => Some(n),
        Piece::Text(_) => None,
    })
}

/// The editor that holds the code of the bot named `name` (the person's bots), if any.
pub fn editor_of(name: &str) -> Option<&'static str> {
    SLOT_NAMES
        .iter()
        .position(|&slot| slot == name)
        .map(|slot| EDITORS[slot])
}

/// Calls `method(line)` on the editor `id` (`botplayEditor.get(id)`), if it is there.
fn call_editor(id: &str, method: &str, line: u32) {
    let global = js_sys::global();
    let Ok(api) = js_sys::Reflect::get(&global, &"botplayEditor".into()) else {
        return;
    };
    let Ok(get) = js_sys::Reflect::get(&api, &"get".into()) else {
        return;
    };
    let get: js_sys::Function = wasm_bindgen::JsCast::unchecked_into(get);
    let Ok(handle) = get.call1(&api, &id.into()) else {
        return;
    };
    if let Ok(f) = js_sys::Reflect::get(&handle, &method.into()) {
        if let Some(f) = wasm_bindgen::JsCast::dyn_ref::<js_sys::Function>(&f) {
            let _ = f.call1(&handle, &line.into());
        }
    }
}

/// Marks `line` in the editor `id` until its code changes.
pub fn mark(id: &str, line: u32) {
    call_editor(id, "markLine", line);
}

/// Puts the editor's cursor on `line` and shows it.
pub fn go_to(id: &str, line: u32) {
    call_editor(id, "markLine", line);
    call_editor(id, "goToLine", line);
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub text: String,
    /// The editor holding the faulty bot's code, when it is the person's.
    pub editor: Option<&'static str>,
}

/// A fault's text, its line numbers links into the editor when the bot is in one.
#[component(FaultText)]
pub fn fault_text(props: &Props) -> Html {
    let Some(editor) = props.editor else {
        return html! { { props.text.clone() } };
    };
    html! {
        { for pieces(&props.text).into_iter().map(|piece| match piece {
            Piece::Text(text) => html! { { text } },
            Piece::Line(n) => html! {
                <button type="button" class="fault-line" data-line={n.to_string()}
                    title="Show this line in the editor"
                    onclick={Callback::from(move |_: MouseEvent| go_to(editor, n))}>
                    { format!("line {n}") }
                </button>
            },
        }) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_mentions_are_found_in_a_fault_s_words() {
        assert_eq!(
            pieces("Error: oops (line 83, column 19)"),
            vec![
                Piece::Text("Error: oops (".into()),
                Piece::Line(83),
                Piece::Text(", column 19)".into()),
            ]
        );
        assert_eq!(first_line("ZeroDivisionError at line 3"), Some(3));
        assert_eq!(
            first_line("the bot wrote 2 lines and the game waited"),
            None
        );
        assert_eq!(first_line("a line longer than 65536 bytes"), None);
        assert_eq!(first_line("outline 4 and line 0"), None);
        assert_eq!(
            pieces("no line here"),
            vec![Piece::Text("no line here".into())]
        );
    }

    #[test]
    fn only_the_person_s_bots_have_an_editor() {
        assert_eq!(editor_of("your bot"), Some("bot-code"));
        assert_eq!(editor_of("your second bot"), Some("bot-code-2"));
        assert_eq!(editor_of("soaker"), None);
    }
}
