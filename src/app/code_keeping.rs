//! Nothing typed is lost: the banner over a link's code (the person's own code is kept until
//! they choose), the notice when another tab changes the code this tab shows, and each editor's
//! earlier versions (`storage::history`), any of which can be put back.

use wasm_bindgen::prelude::*;
use yew::prelude::*;

use super::state::{Action, Form, Slot};
use crate::storage;

#[derive(Properties, PartialEq)]
pub struct LinkProps {
    pub form: Form,
    pub dispatch: Callback<Action>,
}

/// Over a link's code that differs from the person's own: says so, and lets them take it as
/// theirs (after confirming) or go back to their own.
#[component(LinkCodeBanner)]
pub fn link_code_banner(props: &LinkProps) -> Html {
    // The link whose replacement the person is confirming.
    let confirming = use_state(|| None::<String>);
    let Some(link) = &props.form.link else {
        return html! {};
    };
    let asking = confirming.as_deref() == Some(link.id.as_str());
    let ask = {
        let (confirming, id) = (confirming.clone(), link.id.clone());
        Callback::from(move |_: MouseEvent| confirming.set(Some(id.clone())))
    };
    let cancel = {
        let confirming = confirming.clone();
        Callback::from(move |_: MouseEvent| confirming.set(None))
    };
    let send = |action: fn() -> Action| {
        let (dispatch, confirming) = (props.dispatch.clone(), confirming.clone());
        Callback::from(move |_: MouseEvent| {
            confirming.set(None);
            dispatch.emit(action());
        })
    };
    html! {
        <section id="link-code" class="link-code" aria-label="Code from the link">
            <p><strong>{ "This is the code from the link. Your own code is kept." }</strong></p>
            <p class="hint">
                { "Changes you make to the link's code are kept apart, with the link. Run plays \
                   the code shown." }
            </p>
            if asking {
                <p id="link-code-question" role="alert">
                    { "Replace your saved code with the link's code (as shown)? Your code goes \
                       under Earlier versions, from where it can be put back." }
                </p>
                <div class="row">
                    <button type="button" id="confirm-link-code" onclick={send(|| Action::UseLinkCode)}>
                        { "Yes, make it my code" }
                    </button>
                    <button type="button" id="cancel-link-code" onclick={cancel}>{ "Cancel" }</button>
                </div>
            } else {
                <div class="row">
                    <button type="button" id="use-link-code" onclick={ask}>
                        { "Use the link's code as mine" }
                    </button>
                    <button type="button" id="back-to-my-code" onclick={send(|| Action::BackToMyCode)}>
                        { "Back to my code" }
                    </button>
                </div>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
pub struct SlotProps {
    /// Where the slot's code is saved (`Form::scope`).
    pub scope: String,
    pub slot: usize,
    pub bot: Slot,
    pub dispatch: Callback<Action>,
    /// The code "Start again" puts back (the game's starter bot); none: no such button.
    #[prop_or_default]
    pub starter: String,
}

/// Listens to `storage` events (another tab of this browser wrote local storage) until dropped.
struct StorageListener(Closure<dyn Fn(web_sys::Event)>);

impl StorageListener {
    fn new(on_event: impl Fn(String, Option<String>) + 'static) -> Option<StorageListener> {
        let closure = Closure::<dyn Fn(web_sys::Event)>::new(move |event: web_sys::Event| {
            let field = |name: &str| {
                js_sys::Reflect::get(&event, &name.into())
                    .ok()
                    .and_then(|v| v.as_string())
            };
            if let Some(key) = field("key") {
                on_event(key, field("newValue"));
            }
        });
        web_sys::window()?
            .add_event_listener_with_callback("storage", closure.as_ref().unchecked_ref())
            .ok()?;
        Some(StorageListener(closure))
    }
}

impl Drop for StorageListener {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window
                .remove_event_listener_with_callback("storage", self.0.as_ref().unchecked_ref());
        }
    }
}

/// Shown when another tab changed the code this slot's editor shows: load theirs or keep this
/// one; the version replaced either way goes into the history.
#[component(OtherTabNotice)]
pub fn other_tab_notice(props: &SlotProps) -> Html {
    let key = storage::code_key(&props.scope, props.slot, props.bot.language);
    // The key this editor shows and its code, read by the listener (created once).
    let shown = use_mut_ref(|| (String::new(), String::new()));
    *shown.borrow_mut() = (key.clone(), props.bot.code.clone());
    // The key another tab changed to something else than this tab shows.
    let changed = use_state(|| None::<String>);
    {
        let (shown, changed) = (shown.clone(), changed.clone());
        use_effect_with((), move |_| {
            let listener = StorageListener::new(move |key, code| {
                let (ours, our_code) = shown.borrow().clone();
                if key != ours {
                    return;
                }
                match code {
                    Some(code) if code != our_code => changed.set(Some(key)),
                    Some(code) => {
                        storage::seen(&key, &code);
                        changed.set(None);
                    }
                    None => {}
                }
            });
            move || drop(listener)
        });
    }
    let theirs = storage::peek(&key);
    let differs = theirs.as_ref().is_some_and(|t| *t != props.bot.code);
    if changed.as_deref() != Some(key.as_str()) || !differs {
        return html! {};
    }
    let on_load = {
        let (changed, dispatch, shown) = (changed.clone(), props.dispatch.clone(), shown.clone());
        let (scope, slot, language) = (props.scope.clone(), props.slot, props.bot.language);
        Callback::from(move |_: MouseEvent| {
            let (key, ours) = shown.borrow().clone();
            if let Some(theirs) = storage::peek(&key) {
                storage::keep_version(&scope, slot, language, &ours);
                storage::seen(&key, &theirs);
                dispatch.emit(Action::SetCode(slot, theirs));
            }
            changed.set(None);
        })
    };
    let on_keep = {
        let (changed, shown) = (changed.clone(), shown.clone());
        let (scope, slot, language) = (props.scope.clone(), props.slot, props.bot.language);
        Callback::from(move |_: MouseEvent| {
            // The other tab's code, written since this tab last looked, goes into the history.
            storage::save_code(&scope, slot, language, &shown.borrow().1);
            changed.set(None);
        })
    };
    let id = |name: &str| format!("{name}-{}", props.slot + 1);
    html! {
        <div id={id("other-tab")} class="other-tab warning" role="alert">
            <p>
                { "This bot was changed in another tab. Both versions are kept: the one you \
                   replace goes under Earlier versions." }
            </p>
            <div class="row">
                <button type="button" id={id("load-other-tab")} onclick={on_load}>
                    { "Load the other tab's code" }
                </button>
                <button type="button" id={id("keep-this-tab")} onclick={on_keep}>
                    { "Keep this tab's code" }
                </button>
            </div>
        </div>
    }
}

/// The versions of this slot's code that something replaced, newest first; any can be put back
/// (the code shown then joins them).
#[component(EarlierVersions)]
pub fn earlier_versions(props: &SlotProps) -> Html {
    let (open, on_toggle) = super::disclosure::use_open();
    // Read only while open: the list changes as the person types elsewhere.
    let versions = if open {
        storage::history(&props.scope, props.slot, props.bot.language)
    } else {
        Vec::new()
    };
    let put_back = |code: String| {
        let dispatch = props.dispatch.clone();
        let (scope, slot, language) = (props.scope.clone(), props.slot, props.bot.language);
        let shown = props.bot.code.clone();
        Callback::from(move |_: MouseEvent| {
            storage::replace_code(&scope, slot, language, &shown, &code);
            dispatch.emit(Action::SetCode(slot, code.clone()));
        })
    };
    let id = format!("earlier-versions-{}", props.slot + 1);
    // The starter bot back in the editor; the code it replaces goes under Earlier versions.
    let at_start = props.bot.code == props.starter;
    let on_start_again = put_back(props.starter.clone());
    html! {
        <>
        if !props.starter.is_empty() {
            <button type="button" id={format!("start-again-{}", props.slot + 1)} class="start-again"
                onclick={on_start_again} disabled={at_start}
                title="The code shown goes under Earlier versions, from where it can be put back">
                { "Start again from the starter bot" }
            </button>
        }
        <details {id} class="earlier-versions" ontoggle={on_toggle}>
            <summary>{ "Earlier versions of this code" }</summary>
            if open {
                if versions.is_empty() {
                    <p class="hint">
                        { "None yet. When this code is replaced by another tab's, a link's or \
                           an earlier version, the replaced code is kept here (the last ten)." }
                    </p>
                } else {
                    <ol class="versions">
                        { for versions.into_iter().map(|v| {
                            let when = js_sys::Date::new(&JsValue::from_f64(v.at))
                                .to_locale_string("default", &JsValue::UNDEFINED);
                            let lines = v.code.lines().count();
                            html! {
                                <li class="version">
                                    <span class="when">{ String::from(when) }</span>
                                    <span class="hint">{ format!("{lines} lines") }</span>
                                    <button type="button" class="put-back" onclick={put_back(v.code.clone())}>
                                        { "Put back" }
                                    </button>
                                    <code class="first-change">{ first_change(&v.code, &props.bot.code) }</code>
                                    <details class="version-code">
                                        <summary>{ "the whole code" }</summary>
                                        <pre>{ v.code }</pre>
                                    </details>
                                </li>
                            }
                        }) }
                    </ol>
                }
            }
        </details>
        </>
    }
}

/// Where a version first differs from the code shown: "line 12: its text".
fn first_change(version: &str, shown: &str) -> String {
    let mut theirs = version.lines();
    let mut ours = shown.lines();
    let mut line = 1;
    loop {
        match (theirs.next(), ours.next()) {
            (Some(a), Some(b)) if a == b => line += 1,
            (Some(a), _) => {
                let text: String = a.trim().chars().take(60).collect();
                return format!("line {line}: {text}");
            }
            (None, Some(_)) => return format!("ends before line {line}"),
            (None, None) => return "the same as the code shown".to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::first_change;

    #[test]
    fn a_version_is_told_by_its_first_change() {
        assert_eq!(first_change("a\nb\n  c d\n", "a\nb\nx\n"), "line 3: c d");
        assert_eq!(first_change("a\n", "a\nb\n"), "ends before line 2");
        assert_eq!(first_change("a\nb", "a"), "line 2: b");
        assert_eq!(first_change("a", "a"), "the same as the code shown");
    }
}
