//! A link's QR code, for a class: *QR code* beside a link the page makes shows it full screen,
//! black on white, as large as the screen allows, so that phones at the back of a room can read
//! it from a projector. Drawn in the page by qrcode-generator (`www/editor/qr.js`, fetched the
//! first time a QR code is asked for; it works offline once cached).

use gloo_events::EventListener;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// Draws `text` on `canvas` at most `size` pixels square; the modules a side, or why not.
async fn draw(text: String, canvas: HtmlCanvasElement, size: u32) -> Result<u32, String> {
    let draw = super::lazy_script::function("qr.js", "botplayQr", "the QR code maker").await?;
    let args = js_sys::Array::of3(&JsValue::from_str(&text), &canvas, &JsValue::from(size));
    let modules = draw
        .apply(&JsValue::NULL, &args)
        .map_err(|e| format!("the QR code could not be drawn: {e:?}"))?
        .as_f64()
        .unwrap_or(0.0) as u32;
    if modules == 0 {
        return Err(format!(
            "this link is too long for a QR code ({} characters; a QR code holds about 2,900): \
             hand out the link itself",
            text.len()
        ));
    }
    Ok(modules)
}

/// The side of the largest square the window holds, less a margin for the close button.
fn screen_size() -> u32 {
    let window = web_sys::window();
    let side = |v: Option<JsValue>| v.and_then(|v| v.as_f64()).unwrap_or(600.0);
    let width = side(window.as_ref().and_then(|w| w.inner_width().ok()));
    let height = side(window.as_ref().and_then(|w| w.inner_height().ok()));
    (width.min(height) - 90.0).max(200.0) as u32
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub text: String,
    /// Names the button and the overlay for tests and people ("share", "class").
    pub id: AttrValue,
}

#[component(QrCode)]
pub fn qr_code(props: &Props) -> Html {
    let open = use_state(|| false);
    let problem = use_state(|| None::<String>);
    let canvas = use_node_ref();
    {
        let (canvas, problem, text) = (canvas.clone(), problem.clone(), props.text.clone());
        use_effect_with((*open, props.text.clone()), move |(open, _)| {
            if let (true, Some(canvas)) = (*open, canvas.cast::<HtmlCanvasElement>()) {
                wasm_bindgen_futures::spawn_local(async move {
                    match draw(text, canvas.clone(), screen_size()).await {
                        Ok(modules) => {
                            let _ = canvas.set_attribute("data-modules", &modules.to_string());
                            problem.set(None);
                        }
                        Err(why) => problem.set(Some(why)),
                    }
                });
            }
        });
    }
    // Esc closes it.
    {
        let open = open.clone();
        use_effect_with(*open, move |&shown| {
            let listener = shown
                .then(|| web_sys::window().and_then(|w| w.document()))
                .flatten()
                .map(|document| {
                    EventListener::new(&document, "keydown", move |e| {
                        if e.dyn_ref::<web_sys::KeyboardEvent>()
                            .is_some_and(|k| k.key() == "Escape")
                        {
                            open.set(false);
                        }
                    })
                });
            move || drop(listener)
        });
    }
    let toggle = |to: bool| {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(to))
    };
    html! {
        <>
            <button type="button" id={format!("{}-qr", props.id)} class="qr-button"
                onclick={toggle(true)} title="Show this link as a QR code, full screen, for phones">
                { "QR code" }
            </button>
            if *open {
                <div id={format!("{}-qr-view", props.id)} class="qr-overlay" role="dialog"
                    aria-modal="true" aria-label="The link as a QR code">
                    <button type="button" class="qr-close" onclick={toggle(false)}>{ "Close (Esc)" }</button>
                    if let Some(why) = &*problem {
                        <p class="warning" role="alert">{ why }</p>
                    }
                    <canvas ref={canvas} class="qr-canvas" role="img"
                        aria-label="QR code of the link" />
                </div>
            }
        </>
    }
}
