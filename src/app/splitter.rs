//! The handle between the bot pane and the match on a wide screen: dragged (or moved with the
//! arrow keys) it sets the bot pane's width, which the browser remembers; a double click goes back
//! to the default. The width is the `--bot-pane-width` property of the layout (`www/style.css`
//! keeps both panes usable whatever it says).

use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

/// Where the browser keeps the bot pane's width, in CSS pixels.
const KEY: &str = "botplay/bot-pane-width";
/// How far an arrow key moves the handle.
const STEP_PX: f64 = 40.0;
/// The narrowest either side may be made by hand (the style sheet has the same floors).
const MIN_PANE_PX: f64 = 320.0;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

fn saved_width() -> Option<f64> {
    storage()?
        .get_item(KEY)
        .ok()??
        .parse()
        .ok()
        .filter(|w: &f64| w.is_finite())
}

/// The layout (the handle's parent) and the bot pane (the handle's previous sibling).
fn panes(handle: &NodeRef) -> Option<(HtmlElement, HtmlElement)> {
    let handle = handle.cast::<HtmlElement>()?;
    let layout = handle.parent_element()?.dyn_into().ok()?;
    let pane = handle.previous_element_sibling()?.dyn_into().ok()?;
    Some((layout, pane))
}

/// The bot pane's width as a share of the layout, for the handle's `aria-valuenow`.
fn percent(layout: &HtmlElement, pane: &HtmlElement) -> u32 {
    let total = f64::from(layout.client_width()).max(1.0);
    (f64::from(pane.offset_width()) * 100.0 / total).round() as u32
}

/// Sets the bot pane's width (kept between the floors of both panes); returns the share.
fn set_width(layout: &HtmlElement, pane: &HtmlElement, width: Option<f64>) -> u32 {
    let style = layout.style();
    match width {
        Some(width) => {
            let most = f64::from(layout.client_width()) - MIN_PANE_PX;
            let width = width.min(most).max(MIN_PANE_PX).round();
            let _ = style.set_property("--bot-pane-width", &format!("{width}px"));
        }
        None => {
            let _ = style.remove_property("--bot-pane-width");
        }
    }
    percent(layout, pane)
}

fn save(width: Option<f64>) {
    if let Some(storage) = storage() {
        let _ = match width {
            Some(width) => storage.set_item(KEY, &width.round().to_string()),
            None => storage.remove_item(KEY),
        };
    }
}

#[component(Splitter)]
pub fn splitter() -> Html {
    let handle = use_node_ref();
    // While dragging: where the pointer grabbed the handle, from the bot pane's right edge.
    let dragging = use_mut_ref(|| None::<f64>);
    let share = use_state(|| 50u32);

    // The width remembered from an earlier visit.
    {
        let (handle, share) = (handle.clone(), share.clone());
        use_effect_with((), move |_| {
            if let Some((layout, pane)) = panes(&handle) {
                share.set(set_width(&layout, &pane, saved_width()));
            }
        });
    }

    let on_down = {
        let (handle, dragging) = (handle.clone(), dragging.clone());
        Callback::from(move |e: PointerEvent| {
            if let (Some(element), Some((_, pane))) = (handle.cast::<HtmlElement>(), panes(&handle))
            {
                let _ = element.set_pointer_capture(e.pointer_id());
                let right = pane.get_bounding_client_rect().right();
                *dragging.borrow_mut() = Some(f64::from(e.client_x()) - right);
                e.prevent_default();
            }
        })
    };
    let on_move = {
        let (handle, dragging, share) = (handle.clone(), dragging.clone(), share.clone());
        Callback::from(move |e: PointerEvent| {
            let Some(grab) = *dragging.borrow() else {
                return;
            };
            if let Some((layout, pane)) = panes(&handle) {
                let left = pane.get_bounding_client_rect().left();
                let width = f64::from(e.client_x()) - grab - left;
                share.set(set_width(&layout, &pane, Some(width)));
            }
        })
    };
    let on_up = {
        let (handle, dragging) = (handle.clone(), dragging.clone());
        Callback::from(move |_: PointerEvent| {
            if dragging.borrow_mut().take().is_some() {
                if let Some((_, pane)) = panes(&handle) {
                    save(Some(f64::from(pane.offset_width())));
                }
            }
        })
    };
    let on_key = {
        let (handle, share) = (handle.clone(), share.clone());
        Callback::from(move |e: KeyboardEvent| {
            let Some((layout, pane)) = panes(&handle) else {
                return;
            };
            let now = f64::from(pane.offset_width());
            let width = match e.key().as_str() {
                "ArrowLeft" => Some(now - STEP_PX),
                "ArrowRight" => Some(now + STEP_PX),
                "Home" => Some(MIN_PANE_PX),
                "End" => Some(f64::from(layout.client_width())),
                _ => return,
            };
            e.prevent_default();
            e.stop_propagation();
            share.set(set_width(&layout, &pane, width));
            save(Some(f64::from(pane.offset_width())));
        })
    };
    let on_reset = {
        let (handle, share) = (handle.clone(), share.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some((layout, pane)) = panes(&handle) {
                share.set(set_width(&layout, &pane, None));
                save(None);
            }
        })
    };

    html! {
        <div ref={handle} id="splitter" class="splitter" role="separator" tabindex="0"
            aria-orientation="vertical" aria-controls="bot-pane"
            aria-label="Width of the editor (drag, or arrow keys; double-click for the default)"
            title="Drag to resize the editor; double-click for the default width"
            aria-valuemin="0" aria-valuemax="100" aria-valuenow={share.to_string()}
            onpointerdown={on_down} onpointermove={on_move} onpointerup={on_up.clone()}
            onpointercancel={on_up} onkeydown={on_key} ondblclick={on_reset}>
        </div>
    }
}
