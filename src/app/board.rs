//! The canvas the current frame is painted on, sized to its box and repainted on resize; and the
//! cell under the pointer (hovered with a mouse or pen, tapped on a touch screen), outlined on
//! the board and described in words in the `#cell-info` panel under it.
//!
//! The frame's view is read once per frame; a pointer move only asks the painter which cell is
//! under it and re-renders when what is shown changes. A mouse leaving the board clears the
//! panel; a tap keeps it, and the panel follows the frames (scrubbing, playback) at that spot.
//!
//! A game whose painter has controls (Crafting Quest 3's fog of war, zoom and pan) gets them
//! here, one per board and game: the board hands them its mouse and keys and paints again when
//! they change what it shows.

use std::cell::RefCell;
use std::rc::Rc;

use engine::Frame;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, KeyboardEvent, MouseEvent};
use yew::prelude::*;

use crate::painters::{self, Controls, Inspection, Parsed};

/// A click on the board: the cell's coordinates, and where (shares of the board's size).
pub type Pick = ((i32, i32), (f64, f64));

#[derive(Properties)]
pub struct Props {
    pub game: &'static str,
    pub frame: Option<Rc<Frame>>,
    /// Words for screen readers (the frame's text board).
    pub label: String,
    /// A click on a cell (a human turn): the cell's coordinates, and where it was clicked as a
    /// share of the board's width and height.
    #[prop_or_default]
    pub on_pick: Option<Callback<Pick>>,
    /// A selected cell to outline (a human turn), as such a share.
    #[prop_or_default]
    pub selected: Option<(f64, f64)>,
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        same_frame(&self.frame, &other.frame)
            && self.game == other.game
            && self.label == other.label
            && self.on_pick == other.on_pick
            && self.selected == other.selected
    }
}

fn same_frame(a: &Option<Rc<Frame>>, b: &Option<Rc<Frame>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Rc::ptr_eq(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// What the view is read for: the game and the frame (by identity; holding it keeps it alive, so
/// a new frame can never be mistaken for the one read).
struct FrameKey(&'static str, Option<Rc<Frame>>);

impl PartialEq for FrameKey {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0 && same_frame(&self.1, &other.1)
    }
}

/// Where the pointer is over the canvas, as a share of its width and height from its top-left
/// corner (so that a tapped spot stays on its cell when the board is resized).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Pointer {
    x: f64,
    y: f64,
    /// A touch (kept after the finger lifts), not a hovering mouse or pen.
    touch: bool,
}

/// The board's controls: those of the game it shows, and those of the games it showed before,
/// kept as the person left them (a painter's controls start again on another map size).
#[derive(Default)]
struct Kept {
    game: &'static str,
    now: Option<Box<dyn Controls>>,
    before: Vec<(&'static str, Box<dyn Controls>)>,
}

impl Kept {
    /// The board shows `game` now.
    fn show(&mut self, game: &'static str) {
        if self.game == game {
            return;
        }
        if let Some(now) = self.now.take() {
            self.before.push((self.game, now));
        }
        self.game = game;
        self.now = match self.before.iter().position(|(g, _)| *g == game) {
            Some(at) => Some(self.before.remove(at).1),
            None => painters::painter(game).and_then(|p| p.controls()),
        };
    }
}

type Held = Rc<RefCell<Kept>>;

/// What stands under the pointer on the canvas as painted now.
fn inspect(
    canvas: &HtmlCanvasElement,
    parsed: Option<&dyn Parsed>,
    controls: &Held,
    pointer: Option<Pointer>,
) -> Option<Inspection> {
    let (parsed, pointer) = (parsed?, pointer?);
    let (w, h) = (f64::from(canvas.width()), f64::from(canvas.height()));
    let controls = controls.borrow();
    parsed.inspect(
        w,
        h,
        painters::device_ratio(),
        pointer.x * w,
        pointer.y * h,
        controls.now.as_deref(),
    )
}

/// A mouse event's position on the canvas in device pixels.
fn device_point(canvas: &HtmlCanvasElement, e: &MouseEvent) -> (f64, f64) {
    let rect = canvas.get_bounding_client_rect();
    let sx = f64::from(canvas.width()) / rect.width().max(1.0);
    let sy = f64::from(canvas.height()) / rect.height().max(1.0);
    (
        (f64::from(e.client_x()) - rect.left()) * sx,
        (f64::from(e.client_y()) - rect.top()) * sy,
    )
}

/// The frame on the board and its view, for the controls' listeners.
type Shown = Rc<RefCell<(Option<Rc<Frame>>, Rc<Option<Box<dyn Parsed>>>)>>;

/// Hands the input to the board's controls; when what the board shows changed, paints it again
/// and re-renders (the cell under a still pointer may be another now).
fn control(
    canvas: &HtmlCanvasElement,
    controls: &Held,
    shown: &Shown,
    input: painters::Input,
    redraw: &UseForceUpdateHandle,
) -> bool {
    let (w, h) = (f64::from(canvas.width()), f64::from(canvas.height()));
    {
        let mut held = controls.borrow_mut();
        let Some(c) = held.now.as_deref_mut() else {
            return false;
        };
        if !c.input(input, w, h, painters::device_ratio()) {
            return false;
        }
        let (frame, parsed) = &*shown.borrow();
        painters::paint_parsed(canvas, frame.as_deref(), parsed.as_deref(), Some(c));
    }
    redraw.force_update();
    true
}

#[component(Board)]
pub fn board(props: &Props) -> Html {
    let refs = use_board_refs(props);
    let stack = use_board_aspect(props.game, &refs.parsed);
    use_resize_repaint(&refs);
    use_painter_controls(props.game, &refs);
    use_paint(props.game, props.frame.clone(), &refs);

    let inspection = refs.canvas.cast::<HtmlCanvasElement>().and_then(|c| {
        *refs.shown_for.borrow_mut() = (c.width(), c.height());
        inspect(
            &c,
            refs.parsed.as_deref(),
            &refs.controls,
            *refs.pointer.borrow(),
        )
    });
    *refs.shown.borrow_mut() = inspection.clone();
    // The selected cell of a human turn.
    let selected = refs.canvas.cast::<HtmlCanvasElement>().and_then(|c| {
        let (x, y) = props.selected?;
        let at = Pointer { x, y, touch: false };
        inspect(&c, refs.parsed.as_deref(), &refs.controls, Some(at)).map(|i| i.outline)
    });
    use_outline(&refs, inspection.as_ref(), selected);

    let on_click = props.on_pick.clone().map(|pick| refs.on_click(pick));
    let on_point = refs.on_point();
    let on_leave = refs.on_leave();
    // A board with controls of its own takes the focus and its keys.
    let keys = painters::keys(props.game);
    html! {
        <div class="board-box">
            <div class="board-stack" ref={stack}>
                <canvas id="board" ref={refs.canvas.clone()} role="img"
                    aria-label={props.label.clone()}
                    tabindex={keys.map(|_| "0")} aria-describedby={keys.map(|_| "board-keys")}
                    onpointermove={on_point.clone()} onpointerdown={on_point}
                    onpointerleave={on_leave} onclick={on_click}
                    class={classes!(props.on_pick.is_some().then_some("pickable"))} />
                <canvas class="board-outline" ref={refs.overlay.clone()} aria-hidden="true" />
            </div>
            if let Some(keys) = keys {
                <p id="board-keys" class="hint board-keys">{ keys }</p>
            }
            { cell_info(inspection.as_ref()) }
        </div>
    }
}

/// The `#cell-info` panel: what stands on the cell under the pointer, or how to ask.
fn cell_info(inspection: Option<&Inspection>) -> Html {
    html! {
        <div id="cell-info" class="cell-info" aria-live="polite">
            if let Some(i) = inspection {
                <p class="cell-name">{ &i.cell }</p>
                <ul>
                    { for i.lines.iter().map(|l| html! { <li>{ l }</li> }) }
                </ul>
            } else {
                <p class="hint">{ "Point at a cell of the board, or tap it, to see what stands there." }</p>
            }
        </div>
    }
}

/// What the board keeps between renders, shared by its effects and pointer handlers.
#[derive(Clone)]
struct BoardRefs {
    canvas: NodeRef,
    /// The canvas laid over the board for outlines.
    overlay: NodeRef,
    /// Counts window resizes so that the board is repainted at its new size.
    resizes: Rc<RefCell<u32>>,
    redraw: UseForceUpdateHandle,
    pointer: Rc<RefCell<Option<Pointer>>>,
    /// The inspection last rendered, to re-render only when it changes, and the canvas size
    /// (in device pixels) it was made for.
    shown: Rc<RefCell<Option<Inspection>>>,
    shown_for: Rc<RefCell<(u32, u32)>>,
    /// The frame's view, read once per frame.
    parsed: Rc<Option<Box<dyn Parsed>>>,
    controls: Held,
    /// The frame on the board and its view, for the controls' listeners.
    on_board: Shown,
}

/// The board's state hooks, the frame's view read, and the controls of the game shown.
#[hook]
fn use_board_refs(props: &Props) -> BoardRefs {
    let canvas = use_node_ref();
    let overlay = use_node_ref();
    let resizes = use_mut_ref(|| 0u32);
    let redraw = use_force_update();
    let pointer = use_mut_ref(|| None::<Pointer>);
    let shown = use_mut_ref(|| None::<Inspection>);
    let shown_for = use_mut_ref(|| (0u32, 0u32));
    let parsed = use_memo(FrameKey(props.game, props.frame.clone()), |key| {
        key.1.as_deref().and_then(|f| painters::read(key.0, f))
    });
    let controls: Held = use_mut_ref(Kept::default);
    controls.borrow_mut().show(props.game);
    let on_board: Shown = use_mut_ref(|| (None, Rc::new(None)));
    *on_board.borrow_mut() = (props.frame.clone(), parsed.clone());
    BoardRefs {
        canvas,
        overlay,
        resizes,
        redraw,
        pointer,
        shown,
        shown_for,
        parsed,
        controls,
        on_board,
    }
}

/// The canvas takes the shape of the board it shows (a frame still waiting for its picture
/// keeps the shape of the last one drawn of the same game): `--board-aspect` on the board's
/// box, which the style sheets size the canvas by (the page and the embed view alike); set
/// through the style object, as the page's policy refuses style attributes. Returns the box.
#[hook]
fn use_board_aspect(game: &'static str, parsed: &Rc<Option<Box<dyn Parsed>>>) -> NodeRef {
    let shape = use_mut_ref(|| (game, 1.0));
    let aspect = {
        let mut shape = shape.borrow_mut();
        if let Some(p) = parsed.as_deref() {
            *shape = (game, p.aspect());
        } else if shape.0 != game {
            *shape = (game, 1.0);
        }
        shape.1
    };
    let stack = use_node_ref();
    {
        let stack = stack.clone();
        use_effect_with(aspect.to_bits(), move |_| {
            if let Some(s) = stack.cast::<web_sys::HtmlElement>() {
                let _ = s
                    .style()
                    .set_property("--board-aspect", &format!("{aspect:.3}"));
            }
        });
    }
    stack
}

/// A window resize counts in `resizes` and re-renders, so that the board is painted again at
/// its new size.
#[hook]
fn use_resize_repaint(refs: &BoardRefs) {
    let resizes = refs.resizes.clone();
    let redraw = refs.redraw.clone();
    use_effect_with((), move |_| {
        let listener = Closure::<dyn Fn()>::new(move || {
            *resizes.borrow_mut() += 1;
            redraw.force_update();
        });
        let window = web_sys::window();
        if let Some(w) = &window {
            let _ = w.add_event_listener_with_callback("resize", listener.as_ref().unchecked_ref());
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

/// A painter's own controls (zoom, pan, fog of war): the mouse and the keys on the canvas, for
/// each game that has them.
#[hook]
fn use_painter_controls(game: &'static str, refs: &BoardRefs) {
    let canvas = refs.canvas.clone();
    let controls = refs.controls.clone();
    let on_board = refs.on_board.clone();
    let redraw = refs.redraw.clone();
    use_effect_with(game, move |_| {
        let element = canvas
            .cast::<HtmlCanvasElement>()
            .filter(|_| controls.borrow().now.is_some());
        let mut listeners: Vec<Listener> = Vec::new();
        if let Some(c) = &element {
            listeners = control_listeners(c, &controls, &on_board, &redraw);
            for (name, f) in &listeners {
                let _ = c.add_event_listener_with_callback(name, f.as_ref().unchecked_ref());
            }
        }
        move || {
            if let Some(c) = &element {
                for (name, f) in &listeners {
                    let _ = c.remove_event_listener_with_callback(name, f.as_ref().unchecked_ref());
                }
            }
            drop(listeners);
        }
    });
}

/// Paints the frame on the canvas for each new frame, resize or game; a canvas painted at a
/// new size re-renders so that the cell under the pointer is found again.
#[hook]
fn use_paint(game: &'static str, frame: Option<Rc<Frame>>, refs: &BoardRefs) {
    let key = (
        frame.as_ref().map(|f| Rc::as_ptr(f) as usize),
        *refs.resizes.borrow(),
        game,
    );
    let refs = refs.clone();
    use_effect_with(key, move |_| {
        if let Some(element) = refs.canvas.cast::<HtmlCanvasElement>() {
            painters::paint_parsed(
                &element,
                frame.as_deref(),
                refs.parsed.as_deref(),
                refs.controls.borrow_mut().now.as_deref_mut(),
            );
            // Painting resized the canvas: inspect again at the new size.
            let size = (element.width(), element.height());
            if refs.pointer.borrow().is_some() && size != *refs.shown_for.borrow() {
                refs.redraw.force_update();
            }
        }
    });
}

/// The outline of the inspected cell and of a human turn's selected cell, on the canvas laid
/// over the board (after the board is painted and sized).
#[hook]
fn use_outline(
    refs: &BoardRefs,
    inspection: Option<&Inspection>,
    selected: Option<Vec<(f64, f64)>>,
) {
    let canvas = refs.canvas.clone();
    let overlay = refs.overlay.clone();
    let corners = inspection.map(|i| i.outline.clone());
    use_effect_with(
        (corners, selected, *refs.resizes.borrow()),
        move |(corners, selected, _)| {
            if let (Some(board), Some(over)) = (
                canvas.cast::<HtmlCanvasElement>(),
                overlay.cast::<HtmlCanvasElement>(),
            ) {
                painters::outline(&over, &board, corners.as_deref());
                if let Some(selected) = selected {
                    painters::outline_selected(&over, selected);
                }
            }
        },
    );
}

impl BoardRefs {
    /// Where a pointer event is on the canvas, as a share of its size; `None` while the canvas
    /// is not laid out.
    fn pointer_at(&self, e: &MouseEvent, touch: bool) -> Option<(HtmlCanvasElement, Pointer)> {
        let c = self.canvas.cast::<HtmlCanvasElement>()?;
        let rect = c.get_bounding_client_rect();
        if rect.width() <= 0.0 || rect.height() <= 0.0 {
            return None;
        }
        let at = Pointer {
            x: (f64::from(e.client_x()) - rect.left()) / rect.width(),
            y: (f64::from(e.client_y()) - rect.top()) / rect.height(),
            touch,
        };
        Some((c, at))
    }

    /// A click on a cell (a human turn): the cell and where it was clicked, to `pick`.
    fn on_click(&self, pick: Callback<Pick>) -> Callback<MouseEvent> {
        let refs = self.clone();
        Callback::from(move |e: MouseEvent| {
            let Some((c, at)) = refs.pointer_at(&e, false) else {
                return;
            };
            if let Some(i) = inspect(&c, refs.parsed.as_deref(), &refs.controls, Some(at)) {
                pick.emit((i.at, (at.x, at.y)));
            }
        })
    }

    /// A pointer moving over the board or pressed on it: remembered, and a re-render when the
    /// cell under it shows something else.
    fn on_point(&self) -> Callback<PointerEvent> {
        let refs = self.clone();
        Callback::from(move |e: PointerEvent| {
            let touch = e.pointer_type() == "touch";
            let Some((c, at)) = refs.pointer_at(&e, touch) else {
                return;
            };
            *refs.pointer.borrow_mut() = Some(at);
            let now = inspect(&c, refs.parsed.as_deref(), &refs.controls, Some(at));
            if now != *refs.shown.borrow() {
                refs.redraw.force_update();
            }
        })
    }

    /// A mouse or pen leaving the board clears the panel; a finger lifting also "leaves", and
    /// a tapped cell stays shown.
    fn on_leave(&self) -> Callback<PointerEvent> {
        let (pointer, shown, redraw) = (
            self.pointer.clone(),
            self.shown.clone(),
            self.redraw.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() == "touch" {
                return;
            }
            let touched = pointer.borrow().is_some_and(|p| p.touch);
            if touched {
                return;
            }
            *pointer.borrow_mut() = None;
            if shown.borrow().is_some() {
                redraw.force_update();
            }
        })
    }
}

/// A listener on the canvas: the event's name and what it does.
type Listener = (&'static str, Closure<dyn FnMut(web_sys::Event)>);

/// The listeners that hand the canvas's mouse and keys to the board's controls: a press on the
/// canvas (not selecting text), a move (a drag), a release or the mouse leaving, the wheel (the
/// page does not scroll), and a key without Ctrl, Meta or Alt (a key the controls answer is
/// theirs alone: the viewer around the board does not hear it, `Painter::takes_key`).
fn control_listeners(
    canvas: &HtmlCanvasElement,
    controls: &Held,
    shown: &Shown,
    redraw: &UseForceUpdateHandle,
) -> Vec<Listener> {
    let listener =
        |on: fn(&web_sys::Event, &HtmlCanvasElement) -> Option<painters::Input<'static>>| {
            let (canvas, controls, shown, redraw) = (
                canvas.clone(),
                controls.clone(),
                shown.clone(),
                redraw.clone(),
            );
            Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
                if let Some(input) = on(&e, &canvas) {
                    control(&canvas, &controls, &shown, input, &redraw);
                }
            })
        };
    let press = listener(|e, canvas| {
        let e = e.dyn_ref::<MouseEvent>()?;
        e.prevent_default();
        let (x, y) = device_point(canvas, e);
        Some(painters::Input::Press(x, y))
    });
    let moving = listener(|e, canvas| {
        let e = e.dyn_ref::<MouseEvent>()?;
        let (x, y) = device_point(canvas, e);
        Some(painters::Input::Move(x, y, e.buttons() & 1 != 0))
    });
    let release = || listener(|_, _| Some(painters::Input::Release));
    let wheel = listener(|e, canvas| {
        let e = e.dyn_ref::<MouseEvent>()?;
        e.prevent_default();
        let dy = js_sys::Reflect::get(e, &JsValue::from_str("deltaY"))
            .ok()
            .and_then(|v| v.as_f64())
            .unwrap_or(0.0);
        let (x, y) = device_point(canvas, e);
        Some(painters::Input::Wheel(x, y, dy))
    });
    let key = {
        let (canvas, controls, shown, redraw) = (
            canvas.clone(),
            controls.clone(),
            shown.clone(),
            redraw.clone(),
        );
        Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                return;
            };
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let key = e.key();
            if control(
                &canvas,
                &controls,
                &shown,
                painters::Input::Key(&key),
                &redraw,
            ) {
                e.prevent_default();
                e.stop_propagation();
            }
        })
    };
    vec![
        ("keydown", key),
        ("mousedown", press),
        ("mousemove", moving),
        ("mouseup", release()),
        ("mouseleave", release()),
        ("wheel", wheel),
    ]
}
