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
    /// That turn's number as the viewer shows it (`Record::turn_number` of the frame).
    #[prop_or_default]
    pub number: u32,
    /// The viewer is moving through frames (playing, or following a live match): long texts
    /// show their first lines only. Laying out tens of kilobytes of text on every frame (a big
    /// Crafting Quest 3 map's input) would keep the page from drawing at the screen's pace.
    #[prop_or_default]
    pub brief: bool,
}

/// What a long text shows while the viewer moves through frames.
const BRIEF_LINES: usize = 12;
const BRIEF_BYTES: usize = 1024;

/// `text`, or its first lines and how many more there are when it is long and `brief`.
fn head(text: &str, brief: bool) -> (&str, usize) {
    if !brief || (text.len() <= BRIEF_BYTES && text.lines().count() <= BRIEF_LINES) {
        return (text, 0);
    }
    let mut end = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        if n == BRIEF_LINES || end + line.len() > BRIEF_BYTES {
            break;
        }
        end += line.len();
    }
    if end == 0 {
        // One long first line: its first bytes.
        end = (0..=BRIEF_BYTES)
            .rev()
            .find(|&i| text.is_char_boundary(i))
            .unwrap_or(0);
    }
    let shown = &text[..end];
    (shown, text[end..].lines().count())
}

/// A stream under its name, in a `pre` of the name's class, cut short when it is long and
/// `brief`, with a button that copies the whole text.
/// Whether a stream holds a Python traceback: its lines are not wrapped (they scroll), so that
/// the `~~~^^^` under a line still points at the part of it that failed.
fn holds_traceback(text: &str) -> bool {
    text.contains("Traceback (most recent call last):")
}

fn stream(name: &'static str, text: &str, brief: bool) -> Html {
    let (shown, more) = head(text, brief);
    let on_copy = {
        let text = text.to_string();
        Callback::from(move |_: MouseEvent| {
            if let Some(window) = web_sys::window() {
                // Best effort: the text can also be selected and copied by hand.
                let _ = window.navigator().clipboard().write_text(&text);
            }
        })
    };
    html! {
        <div class={classes!("stream", format!("stream-{name}"))}>
            <h5>
                { name }
                <button type="button" class="copy" title={format!("Copy this turn's {name}")}
                    onclick={on_copy}>{ "copy" }</button>
            </h5>
            <pre class={classes!(name, holds_traceback(text).then_some("traceback"))}>{ shown }</pre>
            if more > 0 {
                <p class="hint">{ format!("… {more} more lines, shown when paused") }</p>
            }
        </div>
    }
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        let same = match (&self.turn, &other.turn) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same && self.game == other.game
            && self.names == other.names
            && self.brief == other.brief
            && self.number == other.number
    }
}

#[component(TurnDetails)]
pub fn turn_details(props: &Props) -> Html {
    let Some(turn) = &props.turn else {
        return html! {
            <section id="turn-details" class="turn-details">
                <h3>{ "Console: this turn's input, output and debug log" }</h3>
                <p class="hint">{ "The start of the match: no bot has played yet." }</p>
            </section>
        };
    };
    html! {
        <section id="turn-details" class="turn-details">
            <h3>{ "Console: this turn's input, output and debug log" }</h3>
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
                            { format!("{label} · turn {} · {}", props.number, describe::millis(st.time_ms)) }
                        </h4>
                        if let Some(f) = &st.fault {
                            <p class="fault">{ format!("{}: {}", f.kind, f.text) }</p>
                        }
                        <div class="streams">
                            { stream("stdin", &stdin, props.brief) }
                            { stream("stdout", if stdout.is_empty() { "(nothing)" } else { &stdout }, props.brief) }
                            { stream("stderr", if st.stderr.is_empty() { "(nothing)" } else { &st.stderr }, props.brief) }
                        </div>
                    </article>
                }
            }) }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_texts_are_cut_at_a_line_only_when_brief() {
        let long: String = (0..100).map(|i| format!("line {i}\n")).collect();
        assert_eq!(head(&long, false), (long.as_str(), 0));
        let (shown, more) = head(&long, true);
        assert_eq!(shown.lines().count(), BRIEF_LINES);
        assert!(shown.ends_with("line 11\n"));
        assert_eq!(more, 88);
        assert_eq!(head("a\nb\n", true), ("a\nb\n", 0));
        let wide = "é".repeat(BRIEF_BYTES);
        let (shown, more) = head(&wide, true);
        assert!(shown.len() <= BRIEF_BYTES && !shown.is_empty());
        assert_eq!(more, 1);
    }
}
