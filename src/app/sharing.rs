//! Share links and replay files: making a link that carries the set-up, the bots and (by choice)
//! the whole match and the turn shown; opening the link in the page's address, now and whenever
//! the fragment changes (a link pasted into the address bar of an open page); the replay as a
//! file to download; and opening a replay file (also by dropping it on the viewer).

use engine::{Replay, ShareDoc};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, FileReader, HtmlInputElement};
use yew::prelude::*;

use super::state::Action;
use super::viewer::RecordRef;

/// What to do with the page's fragment: open its link, or say why it cannot be opened.
/// Nothing for an empty fragment.
pub fn action_for_location() -> Option<Action> {
    let hash = web_sys::window()?.location().hash().ok()?;
    let fragment = hash.trim_start_matches('#');
    if fragment.is_empty() {
        return None;
    }
    if fragment.starts_with(arena::class::LINK_PREFIX) {
        return Some(match super::class_roster::open_class_link(fragment) {
            Ok(game) => Action::PickGame(game),
            Err(why) => Action::Notice(format!("This class link cannot be opened: {why}.")),
        });
    }
    Some(match ShareDoc::decode(fragment) {
        Ok(doc) => Action::OpenLink(doc),
        Err(why) => Action::Notice(format!("This link cannot be opened: {why}.")),
    })
}

/// Calls `on_change` whenever the fragment changes, until the returned value is dropped.
pub fn on_hash_change(on_change: impl Fn() + 'static) -> Option<HashListener> {
    let window = web_sys::window()?;
    let closure = Closure::<dyn Fn()>::new(on_change);
    window
        .add_event_listener_with_callback("hashchange", closure.as_ref().unchecked_ref())
        .ok()?;
    Some(HashListener { closure })
}

/// A registered `hashchange` listener; removed when dropped.
pub struct HashListener {
    closure: Closure<dyn Fn()>,
}

impl Drop for HashListener {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(
                "hashchange",
                self.closure.as_ref().unchecked_ref(),
            );
        }
    }
}

/// Links longer than this are not offered: chat tools and some browsers cut them. The replay
/// file is offered instead.
pub const MAX_LINK_CHARS: usize = 32_000;

/// The page's address without its fragment, followed by a link's fragment.
pub fn link_to(doc: &ShareDoc) -> String {
    let here = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let base = here.split('#').next().unwrap_or_default();
    format!("{base}#{}", doc.encode())
}

/// The embed view's address (`embed.html`, beside the page) with a link's fragment.
pub fn embed_link_to(doc: &ShareDoc) -> String {
    let here = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    let base = web_sys::Url::new_with_base(super::embed::PAGE, &here)
        .map(|url| {
            url.set_hash("");
            url.set_search("");
            url.href()
        })
        .unwrap_or_else(|_| super::embed::PAGE.to_string());
    format!("{}#{}", base.trim_end_matches('#'), doc.encode())
}

/// The HTML that frames the embed view at `url` in another page (src/app/embed.rs): a
/// 640 × 400 frame without a border, which any size suits (the board scales to the frame).
pub fn iframe_code(url: &str, game_name: &str) -> String {
    let attribute = |text: &str| {
        text.replace('&', "&amp;")
            .replace('"', "&quot;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    format!(
        "<iframe src=\"{}\" width=\"640\" height=\"400\" style=\"border: 0\" \
         title=\"{}\" loading=\"lazy\"></iframe>",
        attribute(url),
        attribute(&format!("{game_name}: a match played back by botplay"))
    )
}

/// Reads a replay file and shows it, or says why it cannot be shown.
pub fn open_replay_file(file: File, dispatch: Callback<Action>) {
    let name = file.name();
    let Ok(reader) = FileReader::new() else {
        return;
    };
    let reader_in = reader.clone();
    let on_load = Closure::once_into_js(move || {
        let text = reader_in.result().ok().and_then(|r| r.as_string());
        let action = match text.map(|t| Replay::from_json(&t)) {
            Some(Ok(replay)) => Action::ShowReplay(replay, format!("the file {name}")),
            Some(Err(why)) => Action::Notice(format!("{name}: {why}")),
            None => Action::Notice(format!("{name} could not be read as text")),
        };
        dispatch.emit(action);
    });
    reader.set_onload(Some(on_load.unchecked_ref()));
    let _ = reader.read_as_text(&file);
}

/// Offers text of a media type as a file download.
pub fn download(name: &str, text: &str, media_type: &str) -> Option<()> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(media_type);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options).ok()?;
    download_blob(name, &blob)
}

/// Offers a blob as a file download.
pub fn download_blob(name: &str, blob: &web_sys::Blob) -> Option<()> {
    let url = web_sys::Url::create_object_url_with_blob(blob).ok()?;
    let document = web_sys::window()?.document()?;
    let a: web_sys::HtmlAnchorElement = document.create_element("a").ok()?.dyn_into().ok()?;
    a.set_href(&url);
    a.set_download(name);
    a.click();
    let _ = web_sys::Url::revoke_object_url(&url);
    Some(())
}

/// The bots with the first code bot (the person's) named `name`, when a name is given.
fn named_first_code_bot(
    bots: &[engine::share::SharedBot],
    name: &str,
) -> Vec<engine::share::SharedBot> {
    let mut bots = bots.to_vec();
    if name.is_empty() {
        return bots;
    }
    if let Some(engine::share::SharedBot::Code { name: old, .. }) = bots
        .iter_mut()
        .find(|b| matches!(b, engine::share::SharedBot::Code { .. }))
    {
        *old = name.chars().take(arena::class::MAX_NAME_CHARS).collect();
    }
    bots
}

/// A game's name for people (its id when unknown).
fn engine_name(game: &'static str) -> &'static str {
    games::entry(game).map_or(game, |g| g.info.name)
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub record: RecordRef,
    /// The frame shown, and the number of its turn (as the viewer shows it).
    pub frame: usize,
    pub turn: u32,
    /// Whether the match is still being played (its replay is not complete yet).
    pub live: bool,
    pub dispatch: Callback<Action>,
}

/// The share link of the match shown (copied when the browser allows it), or why it is too
/// long ("too long: …"). With `with_match` it carries the whole match, opening at `turn`; the
/// person's bot is named `bot_name` when one is given.
fn share_link(record: &RecordRef, with_match: bool, turn: Option<usize>, bot_name: &str) -> String {
    let record = &record.0;
    let Some(setup) = record.setup.clone() else {
        return String::new();
    };
    let doc = ShareDoc {
        setup,
        relaxed: record.relaxed,
        bots: named_first_code_bot(&record.bots, bot_name),
        replay: if with_match { record.replay() } else { None },
        turn: turn.filter(|_| with_match),
        lesson: None,
    };
    let url = link_to(&doc);
    if url.len() > MAX_LINK_CHARS {
        // Without the match, only the bots' code is left to make the link shorter.
        let wasm = record
            .bots
            .iter()
            .any(|b| matches!(b, engine::SharedBot::Code { language, .. } if language == "wasm"));
        let instead = if wasm {
            "A WebAssembly bot travels as its .wasm file or in a class file, not in a link: \
             share the .wasm file (or add it to a class), and download the replay to share \
             the match."
        } else if with_match {
            "Share the link without the match, or download the replay and share the file."
        } else {
            "The bots' code alone is too long for a link: download the replay and share \
             the file."
        };
        return format!(
            "too long: a link of this match would have {} characters (at most \
             {MAX_LINK_CHARS} travel safely through chat tools and browsers). {instead}",
            url.len()
        );
    }
    if let Some(window) = web_sys::window() {
        // Best effort: the link is also shown to copy by hand.
        let _ = window.navigator().clipboard().write_text(&url);
    }
    url
}

/// The embed code of the match shown, opening at `turn` (copied when the browser allows it),
/// or why it is too long ("too long: …"); nothing before the match is over.
fn embed_code(record: &RecordRef, turn: Option<usize>) -> Option<String> {
    let record = &record.0;
    let (Some(setup), Some(replay)) = (record.setup.clone(), record.replay()) else {
        return None;
    };
    let doc = ShareDoc {
        setup,
        relaxed: record.relaxed,
        bots: record.bots.clone(),
        replay: Some(replay),
        turn,
        lesson: None,
    };
    let url = embed_link_to(&doc);
    if url.len() > MAX_LINK_CHARS {
        return Some(format!(
            "too long: the embed code of this match would carry an address of {} \
             characters (at most {MAX_LINK_CHARS} travel safely). Download the replay \
             and share the file instead.",
            url.len()
        ));
    }
    let code = iframe_code(&url, engine_name(record.game));
    if let Some(window) = web_sys::window() {
        // Best effort: the code is also shown to copy by hand.
        let _ = window.navigator().clipboard().write_text(&code);
    }
    Some(code)
}

/// A replay's file name: its game, its bots' names and its seed, as
/// `botplay-soak-overflow_Ada_vs_soaker_seed-7.json` (two matches of the same seed between other
/// bots do not overwrite each other).
fn replay_file_name(replay: &Replay) -> String {
    let bots: Vec<String> = replay
        .bots
        .iter()
        .map(|name| arena::report::file_safe(name.trim_start_matches("builtin:"), 32))
        .collect();
    format!(
        "botplay-{}_{}_seed-{}.json",
        replay.setup.game,
        bots.join("_vs_"),
        replay.setup.seed
    )
}

/// What a share link holds, for the person who made it.
fn link_holds(with_match: bool) -> String {
    if with_match {
        "It holds the set-up, the bots' code and the whole match, watched without running the \
         bots; nothing is sent anywhere."
            .to_string()
    } else {
        "It holds the set-up and the bots' code, not the match: the page that opens it plays the \
         match again; nothing is sent anywhere."
            .to_string()
    }
}

/// Offers the match's replay as a file.
fn download_replay(record: &RecordRef) -> Callback<MouseEvent> {
    let record = record.clone();
    Callback::from(move |_: MouseEvent| {
        if let Some(replay) = record.0.replay() {
            download(
                &replay_file_name(&replay),
                &replay.to_json(),
                "application/json",
            );
        }
    })
}

/// Opens the replay file chosen.
fn open_replay(dispatch: &Callback<Action>) -> Callback<Event> {
    let dispatch = dispatch.clone();
    Callback::from(move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            open_replay_file(file, dispatch.clone());
        }
        input.set_value("");
    })
}

#[component(Sharing)]
pub fn sharing(props: &Props) -> Html {
    let with_match = use_state(|| true);
    let at_turn = use_state(|| false);
    let link = use_state(String::new);
    // The name the link gives the person's bot (a class shows it): kept for the next links.
    let bot_name = use_state(String::new);
    // A link belongs to the match it was made from: another match clears it.
    {
        let link = link.clone();
        use_effect_with(props.record.clone(), move |_| link.set(String::new()));
    }
    let record = &props.record.0;
    let ready = record.setup.is_some() && !props.live;

    // What the link made holds, in words (said under it).
    let holds = use_state(String::new);
    let on_make = {
        let (record, link, holds) = (props.record.clone(), link.clone(), holds.clone());
        let (with_match, at_turn, frame) = (*with_match, *at_turn, props.frame);
        let bot_name = bot_name.trim().to_string();
        Callback::from(move |_: MouseEvent| {
            holds.set(link_holds(with_match));
            link.set(share_link(
                &record,
                with_match,
                at_turn.then_some(frame),
                &bot_name,
            ))
        })
    };
    // The embed code: the same match (and turn, when chosen) in the embed view's address.
    let embed = use_state(String::new);
    {
        let embed = embed.clone();
        use_effect_with(props.record.clone(), move |_| embed.set(String::new()));
    }
    let on_embed = {
        let (record, embed) = (props.record.clone(), embed.clone());
        let (at_turn, frame) = (*at_turn, props.frame);
        Callback::from(move |_: MouseEvent| {
            if let Some(code) = embed_code(&record, at_turn.then_some(frame)) {
                embed.set(code);
            }
        })
    };
    let on_download = download_replay(&props.record);
    let on_open = open_replay(&props.dispatch);
    let toggle = |state: &UseStateHandle<bool>| {
        let state = state.clone();
        Callback::from(move |e: Event| {
            state.set(e.target_unchecked_into::<HtmlInputElement>().checked())
        })
    };

    html! {
        <div id="sharing" class="panel sharing">
            <h3>{ "Share" }</h3>
            <label class="check">
                <input type="checkbox" id="share-match" checked={*with_match}
                    onchange={toggle(&with_match)} />
                { " with the match (watched without running the bots)" }
            </label>
            <label class="check">
                <input type="checkbox" id="share-turn" checked={*at_turn}
                    disabled={!*with_match} onchange={toggle(&at_turn)} />
                { format!(" opening at turn {}", props.turn) }
            </label>
            <div class="row">
                <label for="share-bot-name">{ "Your bot's name" }</label>
                <input id="share-bot-name" type="text" value={(*bot_name).clone()}
                    maxlength={arena::class::MAX_NAME_CHARS.to_string()}
                    placeholder="the name a class table shows"
                    oninput={let bot_name = bot_name.clone(); Callback::from(move |e: InputEvent|
                        bot_name.set(e.target_unchecked_into::<HtmlInputElement>().value()))} />
            </div>
            <div class="row">
                <button type="button" id="make-link" disabled={!ready} onclick={on_make}>
                    { "Make a share link" }
                </button>
                <button type="button" id="copy-embed" disabled={!ready} onclick={on_embed}
                    title="HTML that shows this match in another page (a course, a blog post)">
                    { "Copy embed code" }
                </button>
                <button type="button" id="download-replay" disabled={!ready} onclick={on_download}>
                    { "Download the replay" }
                </button>
                <label class="button" for="open-replay">{ "Open a replay…" }</label>
                <input type="file" id="open-replay" class="visually-hidden"
                    accept=".json,application/json" onchange={on_open} />
            </div>
            if link.starts_with("too long") {
                <p id="share-too-long" class="warning" role="alert">{ format!("This link is {}", *link) }</p>
            } else if !link.is_empty() {
                <input id="share-link" type="text" readonly=true value={(*link).clone()}
                    aria-label="Share link (copied)" />
                <super::qr_code::QrCode text={(*link).clone()} id="share" />
                <p id="share-holds" class="hint">{ format!("{} characters; copied if the browser \
                    allowed it. {}", link.len(), *holds) }</p>
            }
            if embed.starts_with("too long") {
                <p id="embed-too-long" class="warning" role="alert">{ format!("This embed code is {}", *embed) }</p>
            } else if !embed.is_empty() {
                <textarea id="embed-code" readonly=true rows="3" value={(*embed).clone()}
                    aria-label="Embed code (copied)" />
                <p class="hint">{ "Copied if the browser allowed it. Paste it into another \
                    page's HTML: the board, the timeline and the controls of this match, which \
                    that page can also drive (botplay's guide, Embedding a match)." }</p>
            }
            <p class="hint">{ "Or drop a replay file (from this page or from botplay play --replay) on the board." }</p>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::iframe_code;

    #[test]
    fn the_embed_code_is_one_frame_with_its_address_escaped() {
        let code = iframe_code("https://x.org/a?b=1&c=\"2\"#b1.QQ", "Ice and Fire");
        assert_eq!(
            code,
            "<iframe src=\"https://x.org/a?b=1&amp;c=&quot;2&quot;#b1.QQ\" width=\"640\" \
             height=\"400\" style=\"border: 0\" title=\"Ice and Fire: a match played back by \
             botplay\" loading=\"lazy\"></iframe>"
        );
    }
}
