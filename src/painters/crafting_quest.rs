//! Crafting Quest 3: the square map (50–100 cells a side) with rock, buried resources, piles,
//! towers with their range, traps, homes and units, and the attacks of the last turn.
//!
//! The canvas is interactive, with a little state kept here between frames:
//! - a toolbar drawn in the top-left corner chooses the view: **All** (a spectator sees
//!   everything) or one seat's **fog of war** (only what its units and towers see now is shown
//!   in full; the rest is dimmed terrain, without resources, piles or other seats' units,
//!   towers and traps; other seats' traps are never shown to a seat);
//! - **+** / **−** / **Fit** and the mouse wheel zoom (around the cursor), dragging pans.
//!
//! Listeners are attached once to the canvas element; they repaint the last view at once. They do
//! nothing when the canvas shows another game (its label is then another game's text board).

use std::cell::RefCell;
use std::f64::consts::PI;

use games::crafting_quest::view::View;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, MouseEvent};

use super::seat_colour;

const BACKGROUND: &str = "#14161b";
const GRASS: &str = "#36573a";
const ROCK: &str = "#6b625a";
const FOG_GRASS: &str = "#1f2a21";
const FOG_ROCK: &str = "#34302c";
const HOME: &str = "#f4f1e8";
const STRIKE: &str = "#ff4d3d";
const TOOLBAR: &str = "#23262d";
const TOOLBAR_ON: &str = "#e8e4d8";
/// Resource colours, in protocol order (wood, stone, leather, bronze, iron, titanium, gold),
/// then several types.
const RESOURCE_COLOURS: [&str; 8] = [
    "#a0622d", "#c4c4c4", "#d9a877", "#cd7f32", "#7b8ea6", "#7fd8ea", "#f0c040", "#f4f1e8",
];
const LETTERS: &[u8; 8] = b"wslbitg*";
/// A unit's sight radius (its tower's is its range).
const SIGHT: i32 = 5;
/// The most zoom: cells this many times bigger than when the map fits.
const MAX_ZOOM: f64 = 12.0;
/// The text board's legend, which marks a canvas showing this game.
const MARK: &str = "buried resources, * pile";

/// What the person chose and what was painted last.
struct Viewer {
    /// `None`: everything; `Some(seat)`: that seat's fog of war.
    seat: Option<usize>,
    zoom: f64,
    /// The map cell at the canvas centre.
    cx: f64,
    cy: f64,
    /// The map side the centre belongs to (a new map recentres).
    size: usize,
    last: Option<View>,
    /// A drag in progress: the mouse position it started at and the centre then.
    drag: Option<(f64, f64, f64, f64)>,
    /// The toolbar's buttons as painted: (x, y, w, h, action).
    buttons: Vec<(f64, f64, f64, f64, Button)>,
    /// The size of a cell in device pixels as last painted.
    cell: f64,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Button {
    All,
    Seat(usize),
    ZoomIn,
    ZoomOut,
    Fit,
}

thread_local! {
    static VIEWER: RefCell<Viewer> = const {
        RefCell::new(Viewer {
            seat: None,
            zoom: 1.0,
            cx: 0.0,
            cy: 0.0,
            size: 0,
            last: None,
            drag: None,
            buttons: Vec::new(),
            cell: 1.0,
        })
    };
}

/// Draws the view; false when the view is not a Crafting Quest 3 view.
pub fn paint(
    ctx: &CanvasRenderingContext2d,
    view: &serde_json::Value,
    w: f64,
    h: f64,
    ratio: f64,
) -> bool {
    let Ok(view) = serde_json::from_value::<View>(view.clone()) else {
        return false;
    };
    if view.size == 0 || view.ground.len() != view.size * view.size {
        return false;
    }
    if let Some(canvas) = ctx.canvas() {
        hook(&canvas);
    }
    VIEWER.with(|v| {
        let mut v = v.borrow_mut();
        if v.size != view.size {
            v.size = view.size;
            v.zoom = 1.0;
            v.cx = view.size as f64 / 2.0;
            v.cy = view.size as f64 / 2.0;
        }
        if v.seat.is_some_and(|s| s >= view.scores.len()) {
            v.seat = None;
        }
        draw(ctx, &mut v, &view, w, h, ratio);
        v.last = Some(view);
    });
    true
}

/// Repaints the last view (after a click, a wheel turn or a drag).
fn repaint(canvas: &HtmlCanvasElement) {
    let Some(ctx) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio().max(1.0));
    let (w, h) = (f64::from(canvas.width()), f64::from(canvas.height()));
    VIEWER.with(|v| {
        let mut v = v.borrow_mut();
        if let Some(view) = v.last.take() {
            ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
            ctx.set_fill_style_str(BACKGROUND);
            ctx.fill_rect(0.0, 0.0, w, h);
            draw(&ctx, &mut v, &view, w, h, ratio);
            v.last = Some(view);
        }
    });
}

/// Whether the canvas shows this game now.
fn ours(canvas: &HtmlCanvasElement) -> bool {
    canvas
        .get_attribute("aria-label")
        .is_some_and(|l| l.contains(MARK))
}

/// The mouse position in device pixels.
fn at(canvas: &HtmlCanvasElement, e: &MouseEvent) -> (f64, f64) {
    let rect = canvas.get_bounding_client_rect();
    let sx = f64::from(canvas.width()) / rect.width().max(1.0);
    let sy = f64::from(canvas.height()) / rect.height().max(1.0);
    (
        (f64::from(e.client_x()) - rect.left()) * sx,
        (f64::from(e.client_y()) - rect.top()) * sy,
    )
}

/// Attaches the listeners once per canvas element.
fn hook(canvas: &HtmlCanvasElement) {
    if canvas.get_attribute("data-cq-hooked").is_some() {
        return;
    }
    let _ = canvas.set_attribute("data-cq-hooked", "1");
    let down = {
        let canvas = canvas.clone();
        Closure::<dyn FnMut(MouseEvent)>::new(move |e: MouseEvent| {
            if !ours(&canvas) {
                return;
            }
            let (x, y) = at(&canvas, &e);
            let hit = VIEWER.with(|v| {
                let mut v = v.borrow_mut();
                let button = v
                    .buttons
                    .iter()
                    .find(|b| x >= b.0 && x <= b.0 + b.2 && y >= b.1 && y <= b.1 + b.3)
                    .map(|b| b.4);
                match button {
                    Some(Button::All) => v.seat = None,
                    Some(Button::Seat(s)) => v.seat = Some(s),
                    Some(Button::ZoomIn) => v.zoom = (v.zoom * 1.5).min(MAX_ZOOM),
                    Some(Button::ZoomOut) => v.zoom = (v.zoom / 1.5).max(1.0),
                    Some(Button::Fit) => {
                        v.zoom = 1.0;
                        v.cx = v.size as f64 / 2.0;
                        v.cy = v.size as f64 / 2.0;
                    }
                    None => v.drag = Some((x, y, v.cx, v.cy)),
                }
                button.is_some()
            });
            e.prevent_default();
            if hit {
                repaint(&canvas);
            }
        })
    };
    let moving = {
        let canvas = canvas.clone();
        Closure::<dyn FnMut(MouseEvent)>::new(move |e: MouseEvent| {
            if !ours(&canvas) {
                return;
            }
            let (x, y) = at(&canvas, &e);
            let dragged = VIEWER.with(|v| {
                let mut v = v.borrow_mut();
                let Some((x0, y0, cx, cy)) = v.drag else {
                    return false;
                };
                if e.buttons() & 1 == 0 {
                    v.drag = None;
                    return false;
                }
                let cell = v.cell.max(0.1);
                v.cx = cx - (x - x0) / cell;
                v.cy = cy - (y - y0) / cell;
                true
            });
            if dragged {
                repaint(&canvas);
            }
        })
    };
    let up = Closure::<dyn FnMut(MouseEvent)>::new(move |_: MouseEvent| {
        VIEWER.with(|v| v.borrow_mut().drag = None);
    });
    let wheel = {
        let canvas = canvas.clone();
        Closure::<dyn FnMut(MouseEvent)>::new(move |e: MouseEvent| {
            if !ours(&canvas) {
                return;
            }
            e.prevent_default();
            let dy = js_sys::Reflect::get(&e, &JsValue::from_str("deltaY"))
                .ok()
                .and_then(|v| v.as_f64())
                .unwrap_or(0.0);
            let (x, y) = at(&canvas, &e);
            let (w, h) = (f64::from(canvas.width()), f64::from(canvas.height()));
            VIEWER.with(|v| {
                let mut v = v.borrow_mut();
                let factor = if dy < 0.0 { 1.25 } else { 0.8 };
                let zoom = (v.zoom * factor).clamp(1.0, MAX_ZOOM);
                // Keep the cell under the cursor where it is.
                let cell = v.cell.max(0.1);
                let (mx, my) = (v.cx + (x - w / 2.0) / cell, v.cy + (y - h / 2.0) / cell);
                let new_cell = cell * zoom / v.zoom;
                v.cx = mx - (x - w / 2.0) / new_cell;
                v.cy = my - (y - h / 2.0) / new_cell;
                v.zoom = zoom;
            });
            repaint(&canvas);
        })
    };
    let target: &web_sys::EventTarget = canvas.as_ref();
    for (name, f) in [
        ("mousedown", &down),
        ("mousemove", &moving),
        ("mouseup", &up),
        ("mouseleave", &up),
        ("wheel", &wheel),
    ] {
        let _ = target.add_event_listener_with_callback(name, f.as_ref().unchecked_ref());
    }
    down.forget();
    moving.forget();
    up.forget();
    wheel.forget();
}

/// Per cell: seen now by the chosen seat (every cell for the spectator).
fn visible(view: &View, seat: Option<usize>) -> Vec<bool> {
    let n = view.size as i32;
    let Some(seat) = seat else {
        return vec![true; view.ground.len()];
    };
    let mut seen = vec![false; view.ground.len()];
    let mut mark = |x: i32, y: i32, r: i32| {
        for yy in (y - r).max(0)..=(y + r).min(n - 1) {
            for xx in (x - r).max(0)..=(x + r).min(n - 1) {
                seen[(yy * n + xx) as usize] = true;
            }
        }
    };
    for u in view.units.iter().filter(|u| u[0] == seat as i32) {
        mark(u[2], u[3], SIGHT);
    }
    for t in view.towers.iter().filter(|t| t[0] == seat as i32) {
        mark(t[1], t[2], t[5]);
    }
    seen
}

fn draw(ctx: &CanvasRenderingContext2d, v: &mut Viewer, view: &View, w: f64, h: f64, ratio: f64) {
    let n = view.size as f64;
    let fit = ((w.min(h) - 8.0 * ratio) / n).max(0.5);
    let cell = fit * v.zoom;
    // Keep some of the map on the canvas.
    let half_w = w / 2.0 / cell;
    let half_h = h / 2.0 / cell;
    v.cx = v.cx.clamp(half_w.min(n / 2.0), (n - half_w).max(n / 2.0));
    v.cy = v.cy.clamp(half_h.min(n / 2.0), (n - half_h).max(n / 2.0));
    v.cell = cell;
    let left = w / 2.0 - v.cx * cell;
    let top = h / 2.0 - v.cy * cell;
    let seen = visible(view, v.seat);
    let size = view.size;
    let shown = |x: i32, y: i32| -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < size
            && (y as usize) < size
            && seen[y as usize * size + x as usize]
    };
    // The cells on the canvas.
    let x0 = ((-left / cell).floor().max(0.0)) as usize;
    let y0 = ((-top / cell).floor().max(0.0)) as usize;
    let x1 = (((w - left) / cell).ceil() as usize).min(size);
    let y1 = (((h - top) / cell).ceil() as usize).min(size);
    let gap = if cell >= 6.0 {
        ratio.round().max(1.0)
    } else {
        0.0
    };
    let ground = view.ground.as_bytes();
    for y in y0..y1 {
        for x in x0..x1 {
            let c = y * size + x;
            let rock = ground[c] == b'#';
            let fill = match (rock, seen[c]) {
                (true, true) => ROCK,
                (true, false) => FOG_ROCK,
                (false, true) => GRASS,
                (false, false) => FOG_GRASS,
            };
            ctx.set_fill_style_str(fill);
            ctx.fill_rect(
                left + x as f64 * cell,
                top + y as f64 * cell,
                cell - gap,
                cell - gap,
            );
            if seen[c] && !rock && ground[c] != b'.' {
                if let Some(r) = LETTERS.iter().position(|&l| l == ground[c]) {
                    let s = (cell * 0.42).max(1.0);
                    ctx.set_fill_style_str(RESOURCE_COLOURS[r]);
                    ctx.fill_rect(
                        left + x as f64 * cell + (cell - gap - s) / 2.0,
                        top + y as f64 * cell + (cell - gap - s) / 2.0,
                        s,
                        s,
                    );
                }
            }
        }
    }
    let centre = |x: i32, y: i32| {
        (
            left + (f64::from(x) + 0.5) * cell,
            top + (f64::from(y) + 0.5) * cell,
        )
    };
    let line = (cell / 12.0).max(ratio).min(3.0 * ratio);
    // Homes.
    for (s, home) in view.homes.iter().enumerate() {
        let (hx, hy) = centre(home[0], home[1]);
        let r = cell * 0.55;
        ctx.set_stroke_style_str(seat_colour(s));
        ctx.set_line_width(line * 1.5);
        ctx.stroke_rect(hx - r, hy - r, 2.0 * r, 2.0 * r);
        if v.seat.is_none_or(|me| me == s) {
            ctx.set_stroke_style_str(HOME);
            ctx.set_line_width(line * 0.6);
            ctx.stroke_rect(hx - r * 0.7, hy - r * 0.7, 1.4 * r, 1.4 * r);
        }
    }
    // Piles: a small stack in the cell's corner.
    for p in &view.piles {
        if !shown(p[0], p[1]) {
            continue;
        }
        let (px, py) = centre(p[0], p[1]);
        let s = (cell * 0.28).max(1.5);
        ctx.set_fill_style_str("#f4e3a1");
        ctx.fill_rect(px + cell * 0.12, py + cell * 0.12, s, s);
        ctx.set_stroke_style_str("#5b4a1c");
        ctx.set_line_width(line * 0.5);
        ctx.stroke_rect(px + cell * 0.12, py + cell * 0.12, s, s);
    }
    // Towers: their range, then a triangle.
    for t in &view.towers {
        let (seat, x, y, range) = (t[0], t[1], t[2], t[5]);
        if !shown(x, y) {
            continue;
        }
        let colour = seat_colour(seat as usize);
        let (tx, ty) = centre(x, y);
        ctx.set_global_alpha(0.35);
        ctx.set_stroke_style_str(colour);
        ctx.set_line_width(line);
        let r = (f64::from(range) + 0.5) * cell;
        ctx.stroke_rect(tx - r, ty - r, 2.0 * r, 2.0 * r);
        ctx.set_global_alpha(1.0);
        let r = cell * 0.45;
        ctx.begin_path();
        ctx.move_to(tx, ty - r);
        ctx.line_to(tx + r * 0.9, ty + r * 0.8);
        ctx.line_to(tx - r * 0.9, ty + r * 0.8);
        ctx.close_path();
        ctx.set_fill_style_str(colour);
        ctx.fill();
        ctx.set_stroke_style_str("#ffffff");
        ctx.stroke();
    }
    // Traps: an X, only for the spectator and their owner.
    for t in &view.traps {
        let (seat, x, y) = (t[0] as usize, t[1], t[2]);
        if v.seat.is_some_and(|me| me != seat) || !shown(x, y) {
            continue;
        }
        let (tx, ty) = centre(x, y);
        let r = cell * 0.3;
        ctx.set_stroke_style_str(seat_colour(seat));
        ctx.set_line_width(line * 1.5);
        ctx.begin_path();
        ctx.move_to(tx - r, ty - r);
        ctx.line_to(tx + r, ty + r);
        ctx.move_to(tx + r, ty - r);
        ctx.line_to(tx - r, ty + r);
        ctx.stroke();
    }
    // Units: one disc per cell and seat, with the count when several share it.
    let mut drawn: Vec<(i32, i32, i32, usize)> = Vec::new();
    for u in &view.units {
        let (seat, x, y) = (u[0], u[2], u[3]);
        if v.seat.is_some_and(|me| me as i32 != seat) && !shown(x, y) {
            continue;
        }
        match drawn.iter_mut().find(|d| (d.0, d.1, d.2) == (seat, x, y)) {
            Some(d) => d.3 += 1,
            None => drawn.push((seat, x, y, 1)),
        }
    }
    for &(seat, x, y, count) in &drawn {
        let (ux, uy) = centre(x, y);
        let r = (cell * 0.36).max(1.5);
        ctx.begin_path();
        let _ = ctx.arc(ux, uy, r, 0.0, 2.0 * PI);
        ctx.set_fill_style_str(seat_colour(seat as usize));
        ctx.fill();
        if cell >= 8.0 {
            ctx.set_stroke_style_str("#ffffff");
            ctx.set_line_width(line * 0.7);
            ctx.stroke();
        }
        if count > 1 && cell >= 14.0 {
            ctx.set_fill_style_str("#ffffff");
            ctx.set_font(&format!("bold {:.0}px system-ui, sans-serif", cell * 0.42));
            ctx.set_text_align("center");
            ctx.set_text_baseline("middle");
            let _ = ctx.fill_text(&count.to_string(), ux, uy + cell * 0.02);
        }
    }
    // Energy bars and equipment marks when zoomed in.
    if cell >= 18.0 {
        for u in &view.units {
            let (seat, x, y, energy, life, sword, armour) =
                (u[0], u[2], u[3], u[4], u[5], u[6], u[7]);
            if v.seat.is_some_and(|me| me as i32 != seat) && !shown(x, y) {
                continue;
            }
            let (ux, uy) = centre(x, y);
            let bw = cell * 0.8;
            ctx.set_fill_style_str("#000000");
            ctx.fill_rect(ux - bw / 2.0, uy - cell * 0.48, bw, cell * 0.08);
            ctx.set_fill_style_str("#7fe07f");
            let share = f64::from(energy.max(0)) / 200.0;
            ctx.fill_rect(
                ux - bw / 2.0,
                uy - cell * 0.48,
                bw * share.min(1.0),
                cell * 0.08,
            );
            ctx.set_fill_style_str("#e05050");
            let lost = f64::from((200 - life).max(0)) / 200.0;
            ctx.fill_rect(
                ux + bw / 2.0 - bw * lost.min(1.0),
                uy - cell * 0.48,
                bw * lost.min(1.0),
                cell * 0.08,
            );
            if sword > 0 || armour > 0 {
                ctx.set_fill_style_str("#ffffff");
                ctx.set_font(&format!("{:.0}px system-ui, sans-serif", cell * 0.22));
                ctx.set_text_align("center");
                ctx.set_text_baseline("alphabetic");
                let mark = format!(
                    "{}{}",
                    if sword > 0 {
                        format!("S{sword}")
                    } else {
                        String::new()
                    },
                    if armour > 0 {
                        format!("A{armour}")
                    } else {
                        String::new()
                    }
                );
                let _ = ctx.fill_text(&mark, ux, uy + cell * 0.48);
            }
        }
    }
    // The attacks of the last turn.
    ctx.set_stroke_style_str(STRIKE);
    ctx.set_line_width(line * 1.5);
    for s in &view.strikes {
        if !(shown(s[0], s[1]) || shown(s[2], s[3])) {
            continue;
        }
        let (ax, ay) = centre(s[0], s[1]);
        let (bx, by) = centre(s[2], s[3]);
        ctx.begin_path();
        ctx.move_to(ax, ay);
        ctx.line_to(bx, by);
        ctx.stroke();
    }
    toolbar(ctx, v, view, w, ratio);
}

/// The view and zoom buttons in the top-left corner.
fn toolbar(ctx: &CanvasRenderingContext2d, v: &mut Viewer, view: &View, w: f64, ratio: f64) {
    let size = (22.0 * ratio).min(w / 10.0);
    let pad = 4.0 * ratio;
    let mut items: Vec<(String, Button, Option<&str>)> = vec![("All".into(), Button::All, None)];
    for s in 0..view.scores.len() {
        items.push((format!("{}", s + 1), Button::Seat(s), Some(seat_colour(s))));
    }
    items.push(("−".into(), Button::ZoomOut, None));
    items.push(("+".into(), Button::ZoomIn, None));
    items.push(("Fit".into(), Button::Fit, None));
    v.buttons.clear();
    let mut x = pad;
    let y = pad;
    ctx.set_font(&format!("bold {:.0}px system-ui, sans-serif", size * 0.55));
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for (label, button, colour) in items {
        let bw = if label.chars().count() > 1 {
            size * 1.6
        } else {
            size
        };
        let on = match button {
            Button::All => v.seat.is_none(),
            Button::Seat(s) => v.seat == Some(s),
            _ => false,
        };
        ctx.set_global_alpha(0.92);
        ctx.set_fill_style_str(if on {
            TOOLBAR_ON
        } else {
            colour.unwrap_or(TOOLBAR)
        });
        ctx.fill_rect(x, y, bw, size);
        ctx.set_global_alpha(1.0);
        ctx.set_stroke_style_str(if on { "#ffffff" } else { "#8a8f99" });
        ctx.set_line_width(ratio);
        ctx.stroke_rect(x, y, bw, size);
        ctx.set_fill_style_str(if on { BACKGROUND } else { "#ffffff" });
        let _ = ctx.fill_text(&label, x + bw / 2.0, y + size / 2.0 + ratio);
        v.buttons.push((x, y, bw, size, button));
        x += bw + pad / 2.0;
    }
    // Where we are: round, zoom and the view, on a dark backdrop.
    ctx.set_font(&format!("{:.0}px system-ui, sans-serif", size * 0.5));
    ctx.set_text_align("left");
    let seen = match v.seat {
        None => "everything".to_string(),
        Some(s) => format!("seat {}'s fog of war", s + 1),
    };
    let text = format!(
        "round {}/{} · {:.1}× · {seen}",
        view.round, view.rounds, v.zoom
    );
    // (An estimate: the canvas text metrics are not among the web-sys features built.)
    let tw = text.chars().count() as f64 * size * 0.27;
    ctx.set_global_alpha(0.75);
    ctx.set_fill_style_str(BACKGROUND);
    ctx.fill_rect(x, y, tw + 2.0 * pad, size);
    ctx.set_global_alpha(1.0);
    ctx.set_fill_style_str("#e8e4d8");
    let _ = ctx.fill_text(&text, x + pad, y + size / 2.0 + ratio);
}
