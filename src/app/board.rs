//! The canvas the current frame is painted on, sized to its box and repainted on resize.

use std::rc::Rc;

use engine::Frame;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use crate::painters;

#[derive(Properties)]
pub struct Props {
    pub game: &'static str,
    pub frame: Option<Rc<Frame>>,
    /// Words for screen readers (the frame's text board).
    pub label: String,
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        let same_frame = match (&self.frame, &other.frame) {
            (Some(a), Some(b)) => Rc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        };
        same_frame && self.game == other.game && self.label == other.label
    }
}

#[component(Board)]
pub fn board(props: &Props) -> Html {
    let canvas = use_node_ref();
    // Counts window resizes so that the board is repainted at its new size.
    let resizes = use_mut_ref(|| 0u32);
    let redraw = use_force_update();

    {
        let resizes = resizes.clone();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn Fn()>::new(move || {
                *resizes.borrow_mut() += 1;
                redraw.force_update();
            });
            let window = web_sys::window();
            if let Some(w) = &window {
                let _ =
                    w.add_event_listener_with_callback("resize", listener.as_ref().unchecked_ref());
            }
            move || {
                if let Some(w) = &window {
                    let _ = w.remove_event_listener_with_callback(
                        "resize",
                        listener.as_ref().unchecked_ref(),
                    );
                }
                drop(listener);
            }
        });
    }

    {
        let canvas = canvas.clone();
        let frame = props.frame.clone();
        let game = props.game;
        let key = (
            frame.as_ref().map(|f| Rc::as_ptr(f) as usize),
            *resizes.borrow(),
            game,
        );
        use_effect_with(key, move |_| {
            if let Some(element) = canvas.cast::<HtmlCanvasElement>() {
                painters::paint(&element, game, frame.as_deref());
            }
        });
    }

    html! {
        <div class="board-box">
            <canvas id="board" ref={canvas} role="img" aria-label={props.label.clone()} />
        </div>
    }
}
