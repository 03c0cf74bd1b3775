//! A class in the Arena panel: the named bots of a teacher's class (students' code from their
//! share links and bot files, built-in "gauntlet" bots come from the arena's own list), kept in
//! the browser as it is built, saved and opened as a class file, and handed out as a class link
//! (`#c1.…`). The arena seats them beside the person's own bots (`arena_panel`).
//!
//! The class is stored per game (`botplay/<game>/class`) on every change; another tab's change
//! (the `storage` event) and a class link opened in this tab (the `botplay-class` event) are
//! read back at once.

use arena::class::{Class, ClassBot};
use engine::share::SharedBot;
use engine::Setup;
use gloo_events::EventListener;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, FileReader, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::sharing::{download, MAX_LINK_CHARS};

/// The event a class link fires once it has stored its class.
pub const CLASS_EVENT: &str = "botplay-class";

/// The storage key of a game's class.
pub fn class_key(game: &str) -> String {
    format!("botplay/{game}/class")
}

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The class stored for a game, if any (a damaged one reads as none).
pub fn load_class(game: &str) -> Option<Class> {
    let text = local_storage()?.get_item(&class_key(game)).ok()??;
    Class::from_json(&text).ok()
}

/// Stores a game's class (quietly nothing without storage).
pub fn save_class(class: &Class) {
    if let Some(storage) = local_storage() {
        let _ = storage.set_item(&class_key(&class.setup.game), &class.to_json());
    }
}

/// Opens a class link: stores its class for its game, tells the Arena panel, opens it. The game
/// to show, or why the link cannot be opened.
pub fn open_class_link(fragment: &str) -> Result<&'static str, String> {
    let class = Class::from_link(fragment).map_err(|e| e.to_string())?;
    let game = games::entry(&class.setup.game)
        .ok_or_else(|| format!("there is no game '{}' here", class.setup.game))?
        .info
        .id;
    save_class(&class);
    if let Some(window) = web_sys::window() {
        if let Ok(event) = web_sys::CustomEvent::new(CLASS_EVENT) {
            let _ = window.dispatch_event(&event);
        }
        if let Some(panel) = window.document().and_then(|d| d.get_element_by_id("arena")) {
            let _ = panel.set_attribute("open", "");
        }
    }
    Ok(game)
}

/// An empty class for the form's game and set-up.
pub fn empty_class(setup: Setup) -> Class {
    Class::new("My class", setup, 2)
}

/// What a bot is, in a few words (its language, or "built-in").
fn kind(bot: &ClassBot) -> String {
    match &bot.bot {
        SharedBot::Code { language, .. } => language.clone(),
        SharedBot::Builtin { name } => format!("built-in {name}"),
        SharedBot::Program { .. } => "program".into(),
    }
}

/// What the class plays, in a few words: its league, seed, matches per pair and budgets (the
/// last arena Run with its bots sets them).
fn setting_text(class: &Class) -> String {
    let s = &class.setup;
    let options: String = s
        .options
        .iter()
        .map(|(k, v)| format!(", {k} {v}"))
        .collect();
    let per = if s.seats == 2 { "pair" } else { "group" };
    format!(
        "It plays {}{options}, seed {}, {} matches per {per}, {} budgets (as its last arena was \
         run; a class file or link plays the same).",
        s.ruleset,
        s.seed,
        class.matches_per_group,
        if class.relaxed { "relaxed" } else { "strict" }
    )
}

/// The endings of the bot files a class takes (`arena::class::LANGUAGES`), for the file chooser.
fn bot_file_endings() -> String {
    let endings: Vec<String> = arena::class::LANGUAGES
        .iter()
        .map(|(_, ending)| format!(".{ending}"))
        .collect();
    endings.join(",")
}

/// Reads each file and hands it on with its name: as text, or, for a WebAssembly module
/// (`.wasm`), as the module in base64 (how a class file carries it); or why it cannot be read.
fn read_files(files: Vec<File>, on_read: Callback<(String, Result<String, String>)>) {
    for file in files {
        let name = file.name();
        if name.to_ascii_lowercase().ends_with(".wasm") {
            let on_read = on_read.clone();
            let read = Callback::from(move |module| on_read.emit((name.clone(), module)));
            super::wasm_file::read_module(file, read);
            continue;
        }
        let Ok(reader) = FileReader::new() else {
            continue;
        };
        let reader_in = reader.clone();
        let on_read = on_read.clone();
        let on_load = Closure::once_into_js(move || {
            let text = reader_in.result().ok().and_then(|r| r.as_string());
            let text = text.ok_or_else(|| format!("{name} could not be read as text"));
            on_read.emit((name, text));
        });
        reader.set_onload(Some(on_load.unchecked_ref()));
        let _ = reader.read_as_text(&file);
    }
}

fn files_of(input: &HtmlInputElement) -> Vec<File> {
    let files = input.files();
    let list: Vec<File> = (0..files.as_ref().map_or(0, |f| f.length()))
        .filter_map(|i| files.as_ref()?.get(i))
        .collect();
    input.set_value("");
    list
}

/// Adds the bots of the share links pasted into `links_text`.
fn add_links(
    class: &Class,
    change: &Callback<Class>,
    error: &UseStateHandle<Option<String>>,
    links_text: &NodeRef,
) -> Callback<MouseEvent> {
    let (class, change, error, links_text) = (
        class.clone(),
        change.clone(),
        error.clone(),
        links_text.clone(),
    );
    Callback::from(move |_: MouseEvent| {
        let Some(area) = links_text.cast::<HtmlTextAreaElement>() else {
            return;
        };
        let mut class = class.clone();
        let mut problems = Vec::new();
        let text = area.value();
        for (n, word) in text.split_whitespace().enumerate() {
            match ClassBot::from_link(word).and_then(|bot| class.add(bot)) {
                Ok(()) => {}
                Err(why) => problems.push(format!("link {}: {why}", n + 1)),
            }
        }
        area.set_value("");
        error.set((!problems.is_empty()).then(|| problems.join("; ")));
        change.emit(class);
    })
}

/// Adds a bot per chosen file.
fn add_files(
    class: &Class,
    change: &Callback<Class>,
    error: &UseStateHandle<Option<String>>,
) -> Callback<Event> {
    let (class, change, error) = (class.clone(), change.clone(), error.clone());
    Callback::from(move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        let files = files_of(&input);
        // Each file is read on its own; each adds to the class as it is stored then.
        let (change, error, game) = (change.clone(), error.clone(), class.setup.game.clone());
        let fallback = class.clone();
        read_files(
            files,
            Callback::from(move |(name, text): (String, Result<String, String>)| {
                let mut class = load_class(&game).unwrap_or_else(|| fallback.clone());
                let added = text
                    .and_then(|code| ClassBot::from_file(&name, &code).map_err(|e| e.to_string()))
                    .and_then(|bot| class.add(bot).map_err(|e| e.to_string()));
                match added {
                    Ok(()) => change.emit(class),
                    Err(why) => error.set(Some(why)),
                }
            }),
        );
    })
}

/// Offers the class file to download.
fn save_file(class: &Class) -> Callback<MouseEvent> {
    let class = class.clone();
    Callback::from(move |_: MouseEvent| {
        let stem: String = class
            .name
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '-' })
            .collect();
        let name = format!(
            "botplay-class-{}-{}.json",
            class.setup.game,
            stem.trim_matches('-')
        );
        download(&name, &class.to_json(), "application/json");
    })
}

/// Opens a class file of this game.
fn open_file(
    class: &Class,
    change: &Callback<Class>,
    error: &UseStateHandle<Option<String>>,
) -> Callback<Event> {
    let (change, error, game) = (change.clone(), error.clone(), class.setup.game.clone());
    Callback::from(move |e: Event| {
        let input = e.target_unchecked_into::<HtmlInputElement>();
        let (change, error, game) = (change.clone(), error.clone(), game.clone());
        read_files(
            files_of(&input),
            Callback::from(move |(name, text): (String, Result<String, String>)| {
                let opened =
                    text.and_then(|t| Class::from_json(&t).map_err(|e| format!("{name}: {e}")));
                match opened {
                    Ok(class) if class.setup.game == game => {
                        error.set(None);
                        change.emit(class);
                    }
                    Ok(class) => error.set(Some(format!(
                        "{name} is a class of {}: pick that game first",
                        class.setup.game
                    ))),
                    Err(why) => error.set(Some(why)),
                }
            }),
        );
    })
}

/// Makes the class link, or says it is too long for one.
fn make_link(
    class: &Class,
    link: &UseStateHandle<String>,
    error: &UseStateHandle<Option<String>>,
) -> Callback<MouseEvent> {
    let (class, link, error) = (class.clone(), link.clone(), error.clone());
    Callback::from(move |_: MouseEvent| {
        let here = web_sys::window()
            .and_then(|w| w.location().href().ok())
            .unwrap_or_default();
        let url = format!(
            "{}#{}",
            here.split('#').next().unwrap_or_default(),
            class.to_link()
        );
        if url.len() > MAX_LINK_CHARS {
            link.set(String::new());
            error.set(Some(format!(
                "The class is too long for a link ({} characters; at most {MAX_LINK_CHARS}): \
                 save the class file and hand that out instead.",
                url.len()
            )));
        } else {
            error.set(None);
            link.set(url);
        }
    })
}

/// A name or pseudonym as typed, trimmed and cut to the longest a class keeps.
fn trimmed_name(text: &str) -> String {
    text.trim()
        .chars()
        .take(arena::class::MAX_NAME_CHARS)
        .collect()
}

/// A callback that changes a copy of the class as `apply` says and hands it to `change`.
fn edit<E: 'static>(
    class: &Class,
    change: &Callback<Class>,
    apply: impl Fn(&mut Class, E) + 'static,
) -> Callback<E> {
    let (class, change) = (class.clone(), change.clone());
    Callback::from(move |e: E| {
        let mut class = class.clone();
        apply(&mut class, e);
        change.emit(class);
    })
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub class: Class,
    pub on_change: Callback<Class>,
}

#[component(ClassRoster)]
pub fn class_roster(props: &Props) -> Html {
    let error = use_state(|| None::<String>);
    let link = use_state(String::new);
    let links_text = use_node_ref();
    let class = &props.class;

    // Every change is kept before it is shown.
    let change = {
        let (on_change, link) = (props.on_change.clone(), link.clone());
        Callback::from(move |class: Class| {
            save_class(&class);
            link.set(String::new());
            on_change.emit(class);
        })
    };
    let value = |e: &Event| e.target_unchecked_into::<HtmlInputElement>().value();
    let on_name = edit(class, &change, |c, e: InputEvent| {
        c.name = e.target_unchecked_into::<HtmlInputElement>().value()
    });
    let rename = |index: usize| {
        edit(class, &change, move |c, e: Event| {
            let name = trimmed_name(&value(&e));
            if let (Some(bot), false) = (c.bots.get_mut(index), name.is_empty()) {
                bot.name = name;
            }
        })
    };
    let set_pseudonym = |index: usize| {
        edit(class, &change, move |c, e: Event| {
            if let Some(bot) = c.bots.get_mut(index) {
                bot.pseudonym = trimmed_name(&value(&e));
            }
        })
    };
    let on_pseudonyms = edit(class, &change, |c, _: MouseEvent| c.give_pseudonyms());
    let remove = |index: usize| {
        edit(class, &change, move |c, _: MouseEvent| {
            if index < c.bots.len() {
                c.bots.remove(index);
            }
        })
    };
    let on_add_links = add_links(class, &change, &error, &links_text);
    let on_files = add_files(class, &change, &error);
    let on_save = save_file(class);
    let on_open = open_file(class, &change, &error);
    let on_link = make_link(class, &link, &error);

    html! {
        <fieldset id="class" class="arena-class">
            <legend>{ "Class" }</legend>
            <p class="hint">
                { "A class is a tournament of named bots: paste your students' share links \
                   (each student names their bot beside Make a share link), or add their bot \
                   files. It is kept in this browser as you build it." }
            </p>
            <div class="row">
                <label for="class-name">{ "Class name" }</label>
                <input id="class-name" type="text" value={class.name.clone()} oninput={on_name}
                    maxlength={arena::class::MAX_NAME_CHARS.to_string()} />
            </div>
            <p id="class-setting" class="hint">{ setting_text(class) }</p>
            <ol id="class-bots">
                { for class.bots.iter().enumerate().map(|(i, bot)| html! {
                    <li class="class-bot">
                        <input type="text" class="class-bot-name" value={bot.name.clone()}
                            aria-label={format!("name of bot {}", i + 1)} onchange={rename(i)} />
                        <input type="text" class="class-bot-pseudonym" value={bot.pseudonym.clone()}
                            placeholder="pseudonym" onchange={set_pseudonym(i)}
                            aria-label={format!("pseudonym of bot {}, shown on the results wall", i + 1)} />
                        <span class="class-bot-kind">{ format!(" {} ", kind(bot)) }</span>
                        <button type="button" class="class-bot-remove" onclick={remove(i)}
                            aria-label={format!("remove {}", bot.name)}>{ "remove" }</button>
                    </li>
                }) }
            </ol>
            <label for="class-links">{ "Share links (one or many)" }</label>
            <textarea id="class-links" ref={links_text} rows="3"
                placeholder="https://…#b1.…" />
            <div class="row buttons">
                <button type="button" id="class-add-links" onclick={on_add_links}>{ "Add the links' bots" }</button>
                <label class="file-button">{ "Add bot files " }
                    <input type="file" id="class-files" multiple=true accept={bot_file_endings()}
                        onchange={on_files} />
                </label>
            </div>
            <div class="row buttons">
                <button type="button" id="class-save" onclick={on_save}>{ "Save the class file" }</button>
                <label class="file-button">{ "Open a class file " }
                    <input type="file" id="class-open" accept=".json,application/json"
                        onchange={on_open} />
                </label>
                <button type="button" id="class-make-link" onclick={on_link}>{ "Make a class link" }</button>
                <button type="button" id="class-pseudonyms" onclick={on_pseudonyms}
                    title="The results wall can show these instead of the names; the exports keep the names">
                    { "Give every bot a pseudonym" }
                </button>
            </div>
            if !link.is_empty() {
                <input id="class-link" type="text" readonly=true value={(*link).clone()} />
                <super::qr_code::QrCode text={(*link).clone()} id="class" />
            }
            if let Some(text) = &*error {
                <p id="class-error" class="warning" role="alert">{ text }</p>
            }
        </fieldset>
    }
}

/// Calls `on_change` when another tab or a class link changes the stored class of `game`, until
/// the returned listeners are dropped.
pub fn watch_class(game: &'static str, on_change: Callback<Class>) -> Vec<EventListener> {
    let Some(window) = web_sys::window() else {
        return Vec::new();
    };
    let key = class_key(game);
    let from_tab = {
        let on_change = on_change.clone();
        EventListener::new(&window, "storage", move |e| {
            let Some(e) = e.dyn_ref::<web_sys::StorageEvent>() else {
                return;
            };
            if e.key().as_deref() == Some(key.as_str()) {
                if let Some(class) = load_class(game) {
                    on_change.emit(class);
                }
            }
        })
    };
    let from_link = EventListener::new(&window, CLASS_EVENT, move |_| {
        if let Some(class) = load_class(game) {
            on_change.emit(class);
        }
    });
    vec![from_tab, from_link]
}
