//! The bot editor: CodeMirror 6 (`www/editor/editor.js`, bundled at build time) mounted in a
//! shadow root. If the editor script is missing, a plain text area takes its place, so code can
//! always be typed and is never lost.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// A CodeMirror editor created by `botplayEditor.create`.
    type EditorHandle;
    #[wasm_bindgen(method, js_name = getDoc)]
    fn get_doc(this: &EditorHandle) -> String;
    #[wasm_bindgen(method, js_name = setDoc)]
    fn set_doc(this: &EditorHandle, text: &str);
    #[wasm_bindgen(method, js_name = setLanguage)]
    fn set_language(this: &EditorHandle, language: &str);
    #[wasm_bindgen(method, js_name = setWrap)]
    fn set_wrap(this: &EditorHandle, on: bool);
    #[wasm_bindgen(method)]
    fn destroy(this: &EditorHandle);
}

/// Where "Wrap long lines" is remembered (one choice for every editor).
const WRAP_KEY: &str = "botplay/wrap-lines";
/// Below this window width long lines wrap unless the person chose otherwise: about 55 columns
/// of code show at 1366 px, and a starter's comments are longer.
const WRAP_BELOW_PX: f64 = 1600.0;

fn local_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// Whether long lines wrap: the person's choice, or by the window's width.
fn load_wrap() -> bool {
    match local_storage().and_then(|s| s.get_item(WRAP_KEY).ok().flatten()) {
        Some(choice) => choice == "1",
        None => web_sys::window()
            .and_then(|w| w.inner_width().ok())
            .and_then(|w| w.as_f64())
            .is_some_and(|w| w < WRAP_BELOW_PX),
    }
}

fn save_wrap(on: bool) {
    if let Some(s) = local_storage() {
        let _ = s.set_item(WRAP_KEY, if on { "1" } else { "0" });
    }
}

/// `botplayEditor.create(host, doc, language, onChange)`, if the editor script has loaded.
fn create_editor(
    host: &HtmlElement,
    doc: &str,
    language: &str,
    on_change: &js_sys::Function,
) -> Option<EditorHandle> {
    let api = js_sys::Reflect::get(&js_sys::global(), &"botplayEditor".into()).ok()?;
    let create: js_sys::Function = js_sys::Reflect::get(&api, &"create".into())
        .ok()?
        .dyn_into()
        .ok()?;
    let args = js_sys::Array::of4(host, &doc.into(), &language.into(), on_change);
    create
        .apply(&api, &args)
        .ok()
        .map(|h| h.unchecked_into::<EditorHandle>())
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The element id (tests and labels find the editor by it).
    pub id: AttrValue,
    /// The code; when it changes from outside (another game, a reset), the editor shows it.
    pub value: String,
    /// `javascript`, `typescript` or `python`.
    pub language: &'static str,
    /// Every change the person makes.
    pub on_change: Callback<String>,
}

struct Mounted {
    handle: EditorHandle,
    _on_change: Closure<dyn Fn(String)>,
}

#[component(CodeEditor)]
pub fn code_editor(props: &Props) -> Html {
    let host = use_node_ref();
    let mounted: Rc<RefCell<Option<Mounted>>> = use_mut_ref(|| None);
    let fallback = use_state(|| false);
    let wrap = use_state(load_wrap);
    // The newest callback, read by the editor's change listener (created once).
    let on_change = use_mut_ref(|| props.on_change.clone());
    *on_change.borrow_mut() = props.on_change.clone();

    {
        let (host, mounted, fallback) = (host.clone(), mounted.clone(), fallback.clone());
        let (value, language) = (props.value.clone(), props.language);
        use_effect_with((), move |_| {
            if let Some(element) = host.cast::<HtmlElement>() {
                let listener = Closure::<dyn Fn(String)>::new(move |text: String| {
                    let callback = on_change.borrow().clone();
                    callback.emit(text);
                });
                match create_editor(
                    &element,
                    &value,
                    language,
                    listener.as_ref().unchecked_ref(),
                ) {
                    Some(handle) => {
                        *mounted.borrow_mut() = Some(Mounted {
                            handle,
                            _on_change: listener,
                        })
                    }
                    None => fallback.set(true),
                }
            }
            move || {
                if let Some(m) = mounted.borrow_mut().take() {
                    m.handle.destroy();
                }
            }
        });
    }
    {
        let mounted = mounted.clone();
        use_effect_with(props.value.clone(), move |value| {
            if let Some(m) = mounted.borrow().as_ref() {
                if m.handle.get_doc() != *value {
                    m.handle.set_doc(value);
                }
            }
        });
    }
    {
        let mounted = mounted.clone();
        use_effect_with(props.language, move |language| {
            if let Some(m) = mounted.borrow().as_ref() {
                m.handle.set_language(language);
            }
        });
    }
    {
        let mounted = mounted.clone();
        use_effect_with(*wrap, move |&on| {
            if let Some(m) = mounted.borrow().as_ref() {
                m.handle.set_wrap(on);
            }
        });
    }
    let on_wrap = {
        let wrap = wrap.clone();
        Callback::from(move |_: Event| {
            save_wrap(!*wrap);
            wrap.set(!*wrap);
        })
    };

    if *fallback {
        let on_input = props
            .on_change
            .reform(|e: InputEvent| e.target_unchecked_into::<HtmlTextAreaElement>().value());
        return html! {
            <textarea id={props.id.clone()} class="code-fallback" spellcheck="false"
                autocapitalize="off" autocomplete="off" rows="22"
                value={props.value.clone()} oninput={on_input} />
        };
    }
    html! {
        <>
            <div id={props.id.clone()} class="code-editor" ref={host}></div>
            <p class="hint editor-keys">
                { "Tab indents (or takes the completion offered); press Esc, then Tab, to leave the editor. " }
                <label class="check editor-wrap">
                    <input type="checkbox" class="wrap-lines" checked={*wrap} onchange={on_wrap} />
                    { " Wrap long lines" }
                </label>
            </p>
        </>
    }
}
