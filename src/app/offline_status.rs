//! One line saying whether the page works offline: `www/boot.js` registers the service worker
//! that keeps a copy of the site (`www/coi-sw.js`), asks it what it holds, and publishes the
//! answer as `window.botplayOffline` (`{state, python}`) with a `botplay-offline` event at each
//! change; this line shows it.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// What `www/boot.js` published.
#[derive(Clone, Debug, Default, PartialEq)]
struct Status {
    /// "unsupported", "saving", "ready", "offline" or "failed"; empty before any answer.
    state: String,
    /// Pyodide is cached too.
    python: bool,
}

fn read() -> Status {
    let Some(window) = web_sys::window() else {
        return Status::default();
    };
    let status = js_sys::Reflect::get(&window, &JsValue::from_str("botplayOffline"))
        .unwrap_or(JsValue::UNDEFINED);
    if !status.is_object() {
        return Status::default();
    }
    let field = |name: &str| js_sys::Reflect::get(&status, &JsValue::from_str(name)).ok();
    Status {
        state: field("state")
            .and_then(|v| v.as_string())
            .unwrap_or_default(),
        python: field("python").and_then(|v| v.as_bool()).unwrap_or(false),
    }
}

/// The words for a status.
fn text(status: &Status) -> &'static str {
    match (status.state.as_str(), status.python) {
        ("ready", true) => "Ready to work offline, Python bots included.",
        ("ready", false) => {
            "Ready to work offline (Python bots too, once one has run while online)."
        }
        ("offline", true) => "Offline: working from this browser's copy, Python bots included.",
        ("offline", false) => {
            "Offline: working from this browser's copy (Python bots need to have run once online)."
        }
        ("saving", _) => "Saving a copy of botplay in this browser for offline use…",
        ("failed", _) => "This browser could not keep a copy of botplay: it needs the network.",
        ("unsupported", _) => "This browser cannot keep botplay for offline use here.",
        _ => "",
    }
}

#[component(OfflineStatus)]
pub fn offline_status() -> Html {
    let status = use_state(read);
    {
        let status = status.clone();
        use_effect_with((), move |_| {
            // Published before this component was shown, or since.
            status.set(read());
            let listener = Closure::<dyn Fn()>::new(move || status.set(read()));
            let window = web_sys::window();
            if let Some(w) = &window {
                let _ = w.add_event_listener_with_callback(
                    "botplay-offline",
                    listener.as_ref().unchecked_ref(),
                );
            }
            move || {
                if let Some(w) = &window {
                    let _ = w.remove_event_listener_with_callback(
                        "botplay-offline",
                        listener.as_ref().unchecked_ref(),
                    );
                }
                drop(listener);
            }
        });
    }
    html! {
        <p id="offline-status" class="offline-status" role="status" data-state={status.state.clone()}>
            { text(&status) }
        </p>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_state_has_words_and_unknown_ones_none() {
        for state in ["ready", "offline", "saving", "failed", "unsupported"] {
            for python in [false, true] {
                let words = text(&Status {
                    state: state.into(),
                    python,
                });
                assert!(!words.is_empty(), "{state}");
            }
        }
        assert_eq!(text(&Status::default()), "");
        let ready = |python| {
            text(&Status {
                state: "ready".into(),
                python,
            })
        };
        assert!(ready(false).starts_with("Ready to work offline"));
        assert_ne!(ready(false), ready(true));
    }
}
