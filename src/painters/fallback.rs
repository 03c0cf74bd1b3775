//! The fallback painter: the frame's text board in a monospace font, scaled to fit.

use web_sys::CanvasRenderingContext2d;

pub fn paint(ctx: &CanvasRenderingContext2d, text: &str, w: f64, h: f64, ratio: f64) {
    let lines: Vec<&str> = text.lines().collect();
    let columns = lines
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(1)
        .max(1);
    let rows = lines.len().max(1);
    let margin = 8.0 * ratio;
    let size = ((w - 2.0 * margin) / (columns as f64 * 0.62))
        .min((h - 2.0 * margin) / (rows as f64 * 1.25))
        .max(4.0);
    ctx.set_fill_style_str("#e8e4d8");
    ctx.set_font(&format!("{size:.0}px ui-monospace, monospace"));
    ctx.set_text_baseline("top");
    ctx.set_text_align("left");
    for (i, line) in lines.iter().enumerate() {
        let _ = ctx.fill_text(line, margin, margin + i as f64 * size * 1.25);
    }
}
