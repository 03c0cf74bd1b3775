//! Painters: each turns one game's frame into a canvas drawing. They only draw; the rules live in
//! the engine. A game without a painter of its own is drawn as its frame's text.

mod crafting_quest;
mod ice_and_fire;
mod micro_rts;
mod skyport;
mod soak_overflow;
mod text;

use engine::Frame;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The colours seats are drawn in: CSS colour and its name.
const SEAT_COLOURS: &[(&str, &str)] = &[
    ("#d8413a", "red"),
    ("#3b78d8", "blue"),
    ("#2f9e5a", "green"),
    ("#d88f1f", "orange"),
];

/// The CSS colour of a seat.
pub fn seat_colour(seat: usize) -> &'static str {
    SEAT_COLOURS[seat % SEAT_COLOURS.len()].0
}

/// What people call a seat in this game's viewer: "red", "blue", or "seat 3".
pub fn seat_name(game: &str, seat: usize) -> String {
    match game {
        "ice-and-fire" if seat < 2 => SEAT_COLOURS[seat].1.to_string(),
        "micro-rts" if seat < 2 => SEAT_COLOURS[seat].1.to_string(),
        "soak-overflow" if seat < 2 => SEAT_COLOURS[seat].1.to_string(),
        _ => format!("seat {}", seat + 1),
    }
}

/// Sizes the canvas to its box on the screen in device pixels (crisp on HiDPI), then draws the
/// frame (or clears the canvas when there is none).
pub fn paint(canvas: &HtmlCanvasElement, game: &str, frame: Option<&Frame>) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let ratio = window.device_pixel_ratio().max(1.0);
    let rect = canvas.get_bounding_client_rect();
    let width = (rect.width() * ratio).round().max(1.0) as u32;
    let height = (rect.height() * ratio).round().max(1.0) as u32;
    if canvas.width() != width {
        canvas.set_width(width);
    }
    if canvas.height() != height {
        canvas.set_height(height);
    }
    let Some(ctx) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
    else {
        return;
    };
    let (w, h) = (f64::from(width), f64::from(height));
    ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
    ctx.set_fill_style_str("#14161b");
    ctx.fill_rect(0.0, 0.0, w, h);
    let Some(frame) = frame else {
        return;
    };
    let drawn = match game {
        "ice-and-fire" => ice_and_fire::paint(&ctx, &frame.view, w, h, ratio),
        "micro-rts" => micro_rts::paint(&ctx, &frame.view, w, h, ratio),
        "soak-overflow" => soak_overflow::paint(&ctx, &frame.view, w, h, ratio),
        "skyport" => skyport::paint(&ctx, &frame.view, w, h, ratio),
        "crafting-quest" => crafting_quest::paint(&ctx, &frame.view, w, h, ratio),
        _ => false,
    };
    if !drawn {
        text::paint(&ctx, &frame.text, w, h, ratio);
    }
}
