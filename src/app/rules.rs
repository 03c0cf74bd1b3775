//! The rules pages: each game's rules and protocol in our own words, shown in a dialog that the
//! "Rules" button beside the game list opens.
//!
//! The text of a page is ours and trusted: `www/rules/<game>.html`, semantic HTML without inline
//! style or script, which the build copies beside the page (`rules/<game>.html`) and the dialog
//! fetches the first time it opens for that game, with the section every page ends with
//! (`rules/learning.html`): nobody waits for the rules of five games before their first match,
//! and the service worker keeps them for offline use once the page has been idle a while
//! (`www/editor/sw.mjs`, `LATER`). Two conventions inside it:
//!
//! - `<div class="mini-board" data-seed="5" …></div>` becomes a live board: the engine builds the
//!   match, built-in bots play it to the turn asked for, and the game's own painter draws that
//!   frame (attributes: [`Position::from_attributes`]).
//! - `<figure class="exchange" data-seed="5" … data-seat="0">` holds a protocol example: its
//!   `<pre class="io-in">` is exactly what that seat was sent on that turn and its
//!   `<pre class="io-out">` / `<pre class="io-reply">` what it wrote and was answered
//!   (`tests/rules_pages.rs` replays the match and compares, so the examples cannot drift).
//!
//! Both are replayed with [`play`], which is pure and also runs natively in the tests.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use bots::local::{self, Flow};
use engine::{Frame, Referee, Setup};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement, HtmlElement};
use yew::prelude::*;

use crate::painters;

/// Where the page fetches the rules page of a game (`www/rules/<game>.html`), relative to the
/// page (and to `www/`).
pub fn page_url(game: &str) -> String {
    format!("rules/{game}.html")
}

/// Where the page fetches the section every rules page ends with: the charts, taking over a
/// match and embedding one, with screenshots (the build copies them beside the page).
pub const LEARNING_URL: &str = "rules/learning.html";

/// The sections of a page, from its `<h2 id="…">title</h2>` headings: (id, title).
pub fn sections(page: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find("<h2 id=\"") {
        rest = &rest[at + 8..];
        let Some(quote) = rest.find('"') else { break };
        let id = &rest[..quote];
        let Some(open) = rest.find('>') else { break };
        let Some(close) = rest.find("</h2>") else {
            break;
        };
        if open < close {
            out.push((id, rest[open + 1..close].trim()));
        }
        rest = &rest[close..];
    }
    out
}

/// A position of a match between built-in bots: the setup, the bots, and a turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Position {
    pub setup: Setup,
    /// A built-in bot's name per seat.
    pub bots: Vec<String>,
    /// The frame to show: 0 is the start, n the frame after the n-th turn.
    pub turn: usize,
}

impl Position {
    /// Reads a position from an element's attributes: `data-seed` (required), `data-ruleset`,
    /// `data-seats`, `data-options` (`key=value` pairs separated by spaces), `data-bots` (names
    /// separated by commas, one per seat; default `wait` for every seat) and `data-turn`
    /// (default 0).
    pub fn from_attributes(
        game: &str,
        attribute: impl Fn(&str) -> Option<String>,
    ) -> Result<Position, String> {
        let entry = games::entry(game).ok_or_else(|| format!("unknown game '{game}'"))?;
        let number = |name: &str| -> Result<Option<i64>, String> {
            attribute(name)
                .map(|v| {
                    v.trim()
                        .parse::<i64>()
                        .map_err(|_| format!("{name}='{v}' is not a number"))
                })
                .transpose()
        };
        let seed = number("data-seed")?.ok_or("a position needs data-seed")?;
        let mut setup = Setup::new(entry.info, seed);
        if let Some(ruleset) = attribute("data-ruleset") {
            setup.ruleset = ruleset;
        }
        if let Some(seats) = number("data-seats")? {
            setup.seats = usize::try_from(seats).map_err(|_| "data-seats is negative")?;
        }
        if let Some(options) = attribute("data-options") {
            let mut map = BTreeMap::new();
            for pair in options.split_whitespace() {
                let (key, value) = pair
                    .split_once('=')
                    .ok_or_else(|| format!("option '{pair}' is not key=value"))?;
                map.insert(key.to_string(), value.to_string());
            }
            setup.options = map;
        }
        let bots = match attribute("data-bots") {
            Some(list) => list.split(',').map(|b| b.trim().to_string()).collect(),
            None => vec!["wait".to_string(); setup.seats],
        };
        if bots.len() != setup.seats {
            return Err(format!("{} bots for {} seats", bots.len(), setup.seats));
        }
        let turn = number("data-turn")?.unwrap_or(0);
        let turn = usize::try_from(turn).map_err(|_| "data-turn is negative")?;
        Ok(Position { setup, bots, turn })
    }
}

/// One seat's part of one turn: what it was sent, and each line it wrote with the game's
/// immediate answer, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Exchange {
    /// The referee's turn (0 for the first turn of the match).
    pub turn: usize,
    pub seat: usize,
    pub input: String,
    pub talk: Vec<(String, Option<String>)>,
}

/// A match played to a position: every frame so far, every exchange, and every broadcast
/// (text for seats that are not being asked: turn, seat, text).
pub struct Played {
    pub frames: Vec<Frame>,
    pub exchanges: Vec<Exchange>,
    pub notices: Vec<(usize, usize, String)>,
}

/// Plays the position's match with its built-in bots (through `bots::local`, as tests and
/// benchmarks do) until the frame of its turn exists (or the match ends), recording each line's
/// answer.
pub fn play(position: &Position) -> Result<Played, String> {
    let setup = &position.setup;
    let game = games::new_game(setup).map_err(|e| e.to_string())?;
    let mut seats = Vec::new();
    for (seat, name) in position.bots.iter().enumerate() {
        let bot = bots::builtin(&setup.game, name, bots::bot_seed(setup.seed, seat))
            .ok_or_else(|| format!("{} has no built-in bot '{name}'", setup.game))?;
        seats.push(bot);
    }
    let mut referee = Referee::new(game, setup.clone(), position.bots.clone(), false);
    let mut exchanges: Vec<Exchange> = Vec::new();
    let mut notices = Vec::new();
    let mut turn = 0;
    local::watch(&mut referee, seats, |referee, event| {
        match event {
            local::Event::Turn { turn: next } => {
                if referee.frames().len() > position.turn {
                    return Flow::Stop;
                }
                turn = next;
            }
            local::Event::Ask { turn, seat, input } => exchanges.push(Exchange {
                turn,
                seat,
                input: input.to_string(),
                talk: Vec::new(),
            }),
            local::Event::Line { line, reply, .. } => {
                if let Some(exchange) = exchanges.last_mut() {
                    exchange
                        .talk
                        .push((line.to_string(), reply.map(str::to_string)));
                }
            }
            local::Event::Notice { seat, text } => notices.push((turn, seat, text.to_string())),
        }
        Flow::Go
    });
    Ok(Played {
        frames: referee.frames().to_vec(),
        exchanges,
        notices,
    })
}

/// A live board drawn in a page: its canvas and the frame it shows.
struct Drawn {
    canvas: HtmlCanvasElement,
    frame: Rc<Frame>,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The game whose rules the button opens.
    pub game: &'static str,
}

/// The "Rules" button and the dialog it opens.
#[component(Rules)]
pub fn rules(props: &Props) -> Html {
    let open = use_state(|| false);
    let dialog = use_node_ref();
    let body = use_node_ref();
    let button = use_node_ref();
    let game = props.game;
    let name = games::entry(game).map_or(game, |e| e.info.name);
    let text = use_rules_text(*open, game);
    use_open_dialog(*open, &dialog, &body);
    use_live_boards(*open && matches!(text, Text::Shown(_)), game, &body);

    let on_open = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(true))
    };
    let on_close_button = {
        let dialog = dialog.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(element) = dialog.cast::<Element>() {
                call(&element, "close");
            }
        })
    };
    // The dialog closed (close button, Escape): back to the button that opened it.
    let on_closed = {
        let open = open.clone();
        let button = button.clone();
        Callback::from(move |_: Event| {
            open.set(false);
            if let Some(b) = button.cast::<HtmlElement>() {
                let _ = b.focus();
            }
        })
    };

    html! {
        <>
            <button
                id="rules-link"
                type="button"
                class="rules-link"
                ref={button}
                aria-haspopup="dialog"
                onclick={on_open}
            >
                { format!("Rules of {name}") }
            </button>
            <dialog id="rules" class="rules" ref={dialog} aria-labelledby="rules-title" onclose={on_closed}>
                <header class="rules-head">
                    <h2 id="rules-title">{ format!("{name}: the rules") }</h2>
                    <button type="button" id="rules-close" class="rules-close" onclick={on_close_button}>
                        { "Close" }
                    </button>
                </header>
                <div class="rules-scroll" ref={body.clone()} data-game={game} aria-busy={(*open && text == Text::Waiting).then_some("true")}>
                    if *open { { dialog_body(&text, &body) } }
                </div>
            </dialog>
        </>
    }
}

/// A rules page as the dialog has it.
#[derive(Clone, PartialEq)]
enum Text {
    /// Being fetched.
    Waiting,
    /// The page and the section every page ends with.
    Shown(Rc<str>),
    /// Why it could not be fetched (offline before the page kept it, say).
    Failed(String),
}

/// What the open dialog shows: the contents and the page, or where it stands.
fn dialog_body(text: &Text, body: &NodeRef) -> Html {
    match text {
        Text::Shown(text) => html! {
            <>
                <nav class="rules-contents" aria-label="Sections">
                    <ul>{ contents(text, body) }</ul>
                </nav>
                <div class="rules-text">
                    { Html::from_html_unchecked(AttrValue::from(text.to_string())) }
                </div>
            </>
        },
        Text::Waiting => html! { <p class="rules-text">{ "Loading the rules…" }</p> },
        Text::Failed(why) => html! {
            <p class="rules-text warning" role="alert">
                { format!("The rules could not be loaded ({why}). Close this and open it again \
                           when the page is back online.") }
            </p>
        },
    }
}

/// The rules page of `game` while the dialog is `open`: fetched the first time it opens for
/// that game (with the learning section), kept for the page's life; a failure is tried again
/// at the next opening.
#[hook]
fn use_rules_text(open: bool, game: &'static str) -> Text {
    let kept: Rc<RefCell<BTreeMap<&'static str, Text>>> = use_mut_ref(BTreeMap::new);
    let update = use_force_update();
    {
        let kept = kept.clone();
        use_effect_with((open, game), move |&(open, game)| {
            let known = matches!(
                kept.borrow().get(game),
                Some(Text::Shown(_) | Text::Waiting)
            );
            if open && !known {
                kept.borrow_mut().insert(game, Text::Waiting);
                update.force_update();
                wasm_bindgen_futures::spawn_local(async move {
                    let text = match fetch_page(game).await {
                        Ok(text) => Text::Shown(text.into()),
                        Err(why) => Text::Failed(why),
                    };
                    kept.borrow_mut().insert(game, text);
                    update.force_update();
                });
            }
        });
    }
    let text = kept.borrow().get(game).cloned();
    text.unwrap_or(Text::Waiting)
}

/// A game's rules page followed by the learning section.
async fn fetch_page(game: &str) -> Result<String, String> {
    let page = crate::runner::files::fetch_text(&page_url(game)).await?;
    let learning = crate::runner::files::fetch_text(LEARNING_URL).await?;
    Ok(format!("{page}\n{learning}"))
}

/// Opening: shows the dialog as a modal (Escape closes it), scrolled to its top.
#[hook]
fn use_open_dialog(open: bool, dialog: &NodeRef, body: &NodeRef) {
    let dialog = dialog.clone();
    let body = body.clone();
    use_effect_with(open, move |open| {
        if *open {
            if let Some(element) = dialog.cast::<Element>() {
                call(&element, "showModal");
            }
            if let Some(body) = body.cast::<Element>() {
                body.set_scroll_top(0);
            }
        }
    });
}

/// While the page is `shown`: draws its live boards, and repaints them when the window changes
/// size. Once closed: forgets them.
#[hook]
fn use_live_boards(shown: bool, game: &'static str, body: &NodeRef) {
    let drawn: Rc<RefCell<Vec<Drawn>>> = use_mut_ref(Vec::new);
    let body = body.clone();
    use_effect_with((shown, game), move |(shown, game)| {
        let mut listener = None;
        if *shown {
            if let Some(body) = body.cast::<Element>() {
                draw_boards(&body, game, &drawn);
            }
            listener = Some(repaint_on_resize(game, &drawn));
        }
        move || {
            if let Some(repaint) = listener {
                if let Some(w) = web_sys::window() {
                    let _ = w.remove_event_listener_with_callback(
                        "resize",
                        repaint.as_ref().unchecked_ref(),
                    );
                }
            }
            drawn.borrow_mut().clear();
        }
    });
}

/// Listens to the window's resizes and paints the page's live boards again at each; the
/// listener is returned, for the caller to remove.
fn repaint_on_resize(game: &'static str, drawn: &Rc<RefCell<Vec<Drawn>>>) -> Closure<dyn Fn()> {
    let drawn = drawn.clone();
    let repaint = Closure::<dyn Fn()>::new(move || {
        for d in drawn.borrow().iter() {
            painters::paint(&d.canvas, game, Some(&d.frame));
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.add_event_listener_with_callback("resize", repaint.as_ref().unchecked_ref());
    }
    repaint
}

/// The page's table of contents: a button per section that scrolls the dialog's `body` to
/// its heading.
fn contents(text: &str, body: &NodeRef) -> Html {
    sections(text)
        .into_iter()
        .map(|(id, title)| {
            let body = body.clone();
            let id = id.to_string();
            let onclick = Callback::from(move |_: MouseEvent| {
                if let Some(heading) = body
                    .cast::<Element>()
                    .and_then(|b| b.query_selector(&format!("h2[id='{id}']")).ok().flatten())
                {
                    heading.scroll_into_view();
                }
            });
            html! { <li><button type="button" class="link" {onclick}>{ title.to_string() }</button></li> }
        })
        .collect::<Html>()
}

/// Calls a method without arguments on an element (`showModal`, `close` of a `<dialog>`).
fn call(element: &Element, method: &str) {
    if let Ok(f) = js_sys::Reflect::get(element, &JsValue::from_str(method)) {
        if let Some(f) = f.dyn_ref::<js_sys::Function>() {
            let _ = f.call0(element);
        }
    }
}

/// Turns every mini-board placeholder inside `root` into a canvas drawn by the game's painter.
fn draw_boards(root: &Element, game: &'static str, drawn: &Rc<RefCell<Vec<Drawn>>>) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    while let Ok(Some(slot)) = root.query_selector(".mini-board:not([data-drawn])") {
        let _ = slot.set_attribute("data-drawn", "");
        let position = Position::from_attributes(game, |name| slot.get_attribute(name));
        let frame = position.and_then(|p| {
            let played = play(&p)?;
            let frame = played
                .frames
                .get(p.turn)
                .or(played.frames.last())
                .cloned()
                .ok_or("no frame")?;
            Ok((p, frame))
        });
        let (position, frame) = match frame {
            Ok(found) => found,
            Err(why) => {
                slot.set_text_content(Some(&format!("This board cannot be drawn: {why}.")));
                continue;
            }
        };
        let Ok(canvas) = document.create_element("canvas") else {
            continue;
        };
        let Ok(canvas) = canvas.dyn_into::<HtmlCanvasElement>() else {
            continue;
        };
        let _ = canvas.set_attribute("role", "img");
        let _ = canvas.set_attribute("aria-label", &describe(&position, &frame));
        let _ = slot.append_child(&canvas);
        if let Ok(note) = document.create_element("p") {
            note.set_class_name("mini-board-note");
            note.set_text_content(Some(&note_text(&position, &frame)));
            let _ = slot.append_child(&note);
        }
        painters::paint(&canvas, game, Some(&frame));
        drawn.borrow_mut().push(Drawn {
            canvas,
            frame: Rc::new(frame),
        });
    }
}

/// The line under a live board: which match and turn it shows.
fn note_text(position: &Position, frame: &Frame) -> String {
    let setup = &position.setup;
    let mut parts = vec![format!("seed {}", setup.seed)];
    if let Some(info) = games::entry(&setup.game).map(|e| e.info) {
        if info.min_seats != info.max_seats {
            parts.push(format!("{} players", setup.seats));
        }
        if let Some(ruleset) = info
            .ruleset(&setup.ruleset)
            .filter(|_| info.rulesets.len() > 1)
        {
            parts.push(ruleset.name.to_string());
        }
    }
    for (key, value) in &setup.options {
        parts.push(format!("{key} {value}"));
    }
    if position.turn == 0 {
        parts.push("the start".to_string());
    } else {
        parts.push(format!(
            "turn {} ({} against {})",
            frame.turn,
            position.bots.first().map_or("", String::as_str),
            position.bots[1..].join(", ")
        ));
    }
    format!("Drawn live by the engine: {}.", parts.join(", "))
}

/// Words for screen readers: the note and the frame's text board.
fn describe(position: &Position, frame: &Frame) -> String {
    format!("{}\n{}", note_text(position, frame), frame.text())
}
