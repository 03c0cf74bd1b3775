//! The text view of the board, for screen readers and for anyone who prefers words: the frame
//! shown as text, which every game writes (`engine::Frame`): the turn and its events in a live
//! region (a screen reader reads them out at each step), the seats' statuses as a table, and the
//! board as the game's own text picture with its legend. The viewer's "Text view" button shows
//! it; the choice is remembered in the browser.

use std::rc::Rc;

use engine::Frame;
use yew::prelude::*;

use crate::describe;

/// The most events read out at a step (a Crafting Quest 3 round can have hundreds); the rest are
/// counted, and all of them are listed under Events beside the board.
pub const SPOKEN_EVENTS: usize = 20;

/// Where the choice is kept (local storage).
const KEY: &str = "botplay/text-view";

/// Whether the person chose the text view (remembered in local storage).
pub fn load_shown() -> bool {
    storage()
        .and_then(|s| s.get_item(KEY).ok().flatten())
        .is_some_and(|v| v == "on")
}

/// Remembers whether the text view is shown (quietly does nothing without storage).
pub fn save_shown(shown: bool) {
    if let Some(s) = storage() {
        let _ = s.set_item(KEY, if shown { "on" } else { "off" });
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

#[derive(Properties)]
pub struct Props {
    pub game: &'static str,
    pub names: Vec<String>,
    pub frame: Option<Rc<Frame>>,
    /// The frame's index, and the number of the last turn (`Record::last_turn_number`).
    pub index: usize,
    pub last: u32,
    /// Read changes out (off while playing or following a live match, where a screen reader
    /// would be flooded).
    pub announce: bool,
    /// The charts' sentences, one per chart (src/app/charts.rs).
    #[prop_or_default]
    pub charts: Vec<String>,
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        let same = match (&self.frame, &other.frame) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same && self.game == other.game
            && self.names == other.names
            && self.index == other.index
            && self.last == other.last
            && self.announce == other.announce
            && self.charts == other.charts
    }
}

/// "Turn 5 of 40." or "The start of the match (turn 0 of 40).": the turn numbered as the
/// viewer numbers it (the game's own count, `Frame::turn`); a frame before the first turn that
/// is not the start (Skyport's handshake and choice of weapons) is "setting up".
pub fn turn_line(frame: Option<&Frame>, index: usize, last: u32) -> String {
    match frame {
        None => "No match yet.".to_string(),
        Some(_) if index == 0 => format!("The start of the match (turn 0 of {last})."),
        Some(f) if f.turn == 0 => format!("Setting up, before turn 1 (of {last})."),
        Some(f) => format!("Turn {} of {last}.", f.turn),
    }
}

/// "… and 3 more events (all of them under Events)."
pub fn more_events(n: usize) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("… and {n} more event{s} (all of them under Events).")
}

#[component(TextView)]
pub fn text_view(props: &Props) -> Html {
    let frame = props.frame.as_deref();
    let events: Vec<String> = frame.map(|f| f.events().into_owned()).unwrap_or_default();
    let after = match frame {
        Some(f) if f.turn > 0 => format!("after turn {}", f.turn),
        _ => "at the start".to_string(),
    };
    html! {
        <section id="text-view" class="text-view" aria-label="Text view of the match">
            <div id="text-turn" class="text-turn"
                aria-live={if props.announce { "polite" } else { "off" }} aria-atomic="true">
                <p id="text-turn-label" class="text-turn-label">
                    { turn_line(frame, props.index, props.last) }
                </p>
                <ul id="text-events" class="text-events" aria-label="This turn's events">
                    if frame.is_some() && events.is_empty() {
                        <li>{ "No event this turn." }</li>
                    }
                    { for events.iter().take(SPOKEN_EVENTS).map(|e| html! { <li>{ e }</li> }) }
                    if events.len() > SPOKEN_EVENTS {
                        <li>{ more_events(events.len() - SPOKEN_EVENTS) }</li>
                    }
                </ul>
            </div>
            if let Some(frame) = frame {
                <table id="text-state" class="text-state">
                    <caption>{ format!("The bots {after}") }</caption>
                    <thead>
                        <tr>
                            <th scope="col">{ "Seat" }</th>
                            <th scope="col">{ "Status" }</th>
                        </tr>
                    </thead>
                    <tbody>
                        { for props.names.iter().enumerate().map(|(seat, _)| html! {
                            <tr>
                                <th scope="row">{ describe::seat_label(props.game, seat, &props.names) }</th>
                                <td>{ frame.status().get(seat).cloned().unwrap_or_default() }</td>
                            </tr>
                        }) }
                    </tbody>
                </table>
                <figure class="text-board-figure">
                    <figcaption id="text-board-caption">
                        { format!("The board {after}, as text: one line per row, the legend below it.") }
                    </figcaption>
                    // Focusable, so that a keyboard can scroll a board wider than the screen.
                    <pre id="text-board" class="text-board" tabindex="0"
                        aria-labelledby="text-board-caption">{ frame.text().into_owned() }</pre>
                </figure>
            }
            if !props.charts.is_empty() {
                <ul id="text-charts" class="text-charts" aria-label="The charts of the match, in words">
                    { for props.charts.iter().map(|c| html! { <li>{ c }</li> }) }
                </ul>
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(turn: u32) -> Frame {
        Frame::written_out(
            turn,
            vec!["red trains a unit".into()],
            vec!["gold 10".into(), "gold 12".into()],
            vec![false, false],
            "O.\n.X\n".into(),
            "null".into(),
        )
    }

    #[test]
    fn long_turns_are_counted_not_read_out() {
        assert_eq!(
            more_events(1),
            "… and 1 more event (all of them under Events)."
        );
        assert_eq!(
            more_events(7),
            "… and 7 more events (all of them under Events)."
        );
    }

    #[test]
    fn the_turn_line_counts_from_the_start() {
        assert_eq!(turn_line(None, 0, 0), "No match yet.");
        assert_eq!(
            turn_line(Some(&frame(0)), 0, 12),
            "The start of the match (turn 0 of 12)."
        );
        assert_eq!(turn_line(Some(&frame(5)), 5, 12), "Turn 5 of 12.");
        // Skyport's frames before its first turn.
        assert_eq!(
            turn_line(Some(&frame(0)), 2, 12),
            "Setting up, before turn 1 (of 12)."
        );
    }
}
