//! Soak Overflow: the grid with covers and territory, the agents with their wetness, cooldown
//! and bombs, and this turn's moves, shots, splash bombs and messages.
//!
//! Floor tiles are shaded in the colour of the team controlling them (pale) or left neutral;
//! covers are raised blocks, a low one with one step, a high one taller and darker. An agent is
//! a disc in its team's colour with its id; the water filling it from the bottom is its
//! wetness, a small bar under it too. Dots above it are its splash bombs, a small clock badge
//! its cooldown, a white shield ring means hunkered down. A soaked agent is drawn faded and
//! crossed. Shots are lines from shooter to target with the wetness dealt; splash bombs a
//! blue 3 × 3 square with an arc from the thrower; moves a thin trail (red tick if blocked).
//! Messages appear in a bubble above their agent.

use std::f64::consts::PI;

use games::soak_overflow::view::{AgentView, View};
use web_sys::CanvasRenderingContext2d;

const BACKGROUND: &str = "#14161b";
const FLOOR: &str = "#e9e5d9";
const WATER: &str = "#3fa9f5";
const WATER_DARK: &str = "#1c6fb0";
/// Per seat: territory shade, agent fill, agent outline.
const SEATS: [(&str, &str, &str); 2] = [
    ("#f3c6c2", "#d8413a", "#7e1b16"),
    ("#c3d6f3", "#3b78d8", "#163f86"),
];

/// An agent's disc radius, in cells.
const RADIUS: f64 = 0.33;

fn seat(owner: usize) -> (&'static str, &'static str, &'static str) {
    SEATS[owner.min(1)]
}

/// Draws the view; false when the view is not a Soak Overflow view.
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
    if view.width <= 0 || view.height <= 0 {
        return false;
    }
    let cells = (view.width * view.height) as usize;
    if view.tiles.len() != cells || view.control.len() != cells {
        return false;
    }
    let cols = f64::from(view.width);
    let rows = f64::from(view.height);
    let margin = (6.0 * ratio).round();
    // Room above the grid for the messages of the top row.
    let top_room = (18.0 * ratio).round();
    let cell = ((w - 2.0 * margin) / cols)
        .min((h - 2.0 * margin - top_room) / rows)
        .floor()
        .max(4.0);
    let left = ((w - cell * cols) / 2.0).floor();
    let top = (((h - cell * rows) / 2.0).floor()).max(margin + top_room);
    let b = Board {
        ctx,
        cell,
        left,
        top,
        ratio,
    };

    ctx.set_fill_style_str(BACKGROUND);
    ctx.fill_rect(left - 1.0, top - 1.0, cell * cols + 2.0, cell * rows + 2.0);
    for i in 0..cells {
        let x = (i % view.width as usize) as f64;
        let y = (i / view.width as usize) as f64;
        let shade = match view.control[i] {
            Some(o) => seat(o).0,
            None => FLOOR,
        };
        b.square(x, y, shade);
        match view.tiles[i] {
            1 => b.cover(x, y, false),
            2 => b.cover(x, y, true),
            _ => {}
        }
    }
    let find = |id: i32| view.agents.iter().find(|a| a.id == id);
    for m in &view.moves {
        b.trail(m.from.x, m.from.y, m.to.x, m.to.y, m.done);
    }
    for t in &view.throws {
        b.splash(t.target.x, t.target.y, view.width, view.height);
    }
    for a in &view.agents {
        b.agent(a);
    }
    for t in &view.throws {
        let colour = find(t.thrower).map_or(WATER_DARK, |a| seat(a.owner).2);
        b.lob(t.from.x, t.from.y, t.target.x, t.target.y, colour);
    }
    for s in &view.shots {
        let colour = find(s.shooter).map_or(WATER_DARK, |a| seat(a.owner).1);
        b.shot(s.from.x, s.from.y, s.to.x, s.to.y, colour, s.damage);
    }
    for a in &view.agents {
        if let Some(text) = &a.message {
            b.bubble(a.x, a.y, text, w);
        }
    }
    true
}

struct Board<'a> {
    ctx: &'a CanvasRenderingContext2d,
    cell: f64,
    left: f64,
    top: f64,
    ratio: f64,
}

impl Board<'_> {
    fn origin(&self, x: f64, y: f64) -> (f64, f64) {
        (self.left + x * self.cell, self.top + y * self.cell)
    }

    fn centre(&self, x: i32, y: i32) -> (f64, f64) {
        let (ox, oy) = self.origin(f64::from(x), f64::from(y));
        (ox + self.cell / 2.0, oy + self.cell / 2.0)
    }

    fn line_width(&self) -> f64 {
        (self.cell / 22.0).max(self.ratio).round()
    }

    fn font(&self, size: f64, bold: bool) {
        let weight = if bold { "bold " } else { "" };
        self.ctx.set_font(&format!(
            "{weight}{:.0}px system-ui, sans-serif",
            size.max(6.0)
        ));
    }

    fn square(&self, x: f64, y: f64, fill: &str) {
        let gap = self.ratio.round().max(1.0);
        let (ox, oy) = self.origin(x, y);
        self.ctx.set_fill_style_str(fill);
        self.ctx
            .fill_rect(ox + gap, oy + gap, self.cell - gap, self.cell - gap);
    }

    /// A raised block: a low cover is a short wall in the lower half of its tile, a high cover
    /// a tall, darker block filling it.
    fn cover(&self, x: f64, y: f64, high: bool) {
        let (ox, oy) = self.origin(x, y);
        let c = self.cell;
        let inset = c * 0.1;
        let (face, lid, from) = if high {
            ("#3f434c", "#8a909b", 0.1)
        } else {
            ("#8d887c", "#c4bfb2", 0.5)
        };
        let top = oy + c * from;
        let lid_h = c * 0.16;
        self.ctx.set_fill_style_str(face);
        self.ctx
            .fill_rect(ox + inset, top, c - 2.0 * inset, oy + c - inset - top);
        self.ctx.set_fill_style_str(lid);
        self.ctx.fill_rect(ox + inset, top, c - 2.0 * inset, lid_h);
    }

    fn trail(&self, fx: i32, fy: i32, tx: i32, ty: i32, done: bool) {
        let (ax, ay) = self.centre(fx, fy);
        let (bx, by) = self.centre(tx, ty);
        self.ctx.set_global_alpha(0.55);
        self.ctx
            .set_stroke_style_str(if done { "#5b6070" } else { "#c0392b" });
        self.ctx.set_line_width(self.line_width() * 2.0);
        self.ctx.begin_path();
        self.ctx.move_to(ax, ay);
        if done {
            self.ctx.line_to(bx, by);
        } else {
            // Half way, then a bar across: the move was blocked.
            let (mx, my) = ((ax + bx) / 2.0, (ay + by) / 2.0);
            self.ctx.line_to(mx, my);
            let (dx, dy) = ((by - ay) * 0.2, (ax - bx) * 0.2);
            self.ctx.move_to(mx - dx, my - dy);
            self.ctx.line_to(mx + dx, my + dy);
        }
        self.ctx.stroke();
        self.ctx.set_global_alpha(1.0);
    }

    /// The 3 × 3 a bomb wets, cut at the grid's edges.
    fn splash(&self, x: i32, y: i32, width: i32, height: i32) {
        let (x0, y0) = ((x - 1).max(0), (y - 1).max(0));
        let (x1, y1) = ((x + 2).min(width), (y + 2).min(height));
        if x0 >= x1 || y0 >= y1 {
            return;
        }
        let (ox, oy) = self.origin(f64::from(x0), f64::from(y0));
        let (sw, sh) = (
            self.cell * f64::from(x1 - x0),
            self.cell * f64::from(y1 - y0),
        );
        self.ctx.set_global_alpha(0.35);
        self.ctx.set_fill_style_str(WATER);
        self.ctx.fill_rect(ox, oy, sw, sh);
        self.ctx.set_global_alpha(0.9);
        self.ctx.set_stroke_style_str(WATER_DARK);
        self.ctx.set_line_width(self.line_width());
        self.ctx.stroke_rect(ox, oy, sw, sh);
        self.ctx.set_global_alpha(1.0);
        let (cx, cy) = self.centre(x, y);
        self.ctx.begin_path();
        let _ = self.ctx.arc(cx, cy, self.cell * 0.18, 0.0, 2.0 * PI);
        self.ctx.set_fill_style_str(WATER_DARK);
        self.ctx.fill();
    }

    /// The bomb's flight: an arc from the thrower to the target.
    fn lob(&self, fx: i32, fy: i32, tx: i32, ty: i32, colour: &str) {
        let (ax, ay) = self.centre(fx, fy);
        let (bx, by) = self.centre(tx, ty);
        // Bend the flight sideways from the straight line, upwards when it can.
        let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt().max(1.0);
        let (mut nx, mut ny) = ((ay - by) / len, (bx - ax) / len);
        if ny > 0.0 || (ny == 0.0 && nx > 0.0) {
            (nx, ny) = (-nx, -ny);
        }
        let lift = self.cell * 0.4 + len * 0.25;
        let (qx, qy) = ((ax + bx) / 2.0 + nx * lift, (ay + by) / 2.0 + ny * lift);
        self.ctx.set_stroke_style_str(colour);
        self.ctx.set_line_width(self.line_width() * 1.5);
        self.ctx.begin_path();
        self.ctx.move_to(ax, ay);
        self.ctx.quadratic_curve_to(qx, qy, bx, by);
        self.ctx.stroke();
    }

    fn shot(&self, fx: i32, fy: i32, tx: i32, ty: i32, colour: &str, damage: i32) {
        let (cx0, cy0) = self.centre(fx, fy);
        let (cx1, cy1) = self.centre(tx, ty);
        // From disc edge to disc edge, so that the ids stay readable.
        let len = ((cx1 - cx0).powi(2) + (cy1 - cy0).powi(2)).sqrt().max(1.0);
        let cut = (self.cell * RADIUS).min(len / 2.0);
        let (ux, uy) = ((cx1 - cx0) / len, (cy1 - cy0) / len);
        let (ax, ay) = (cx0 + ux * cut, cy0 + uy * cut);
        let (bx, by) = (cx1 - ux * cut, cy1 - uy * cut);
        self.ctx.set_stroke_style_str("#ffffff");
        self.ctx.set_line_width(self.line_width() * 3.5);
        self.ctx.begin_path();
        self.ctx.move_to(ax, ay);
        self.ctx.line_to(bx, by);
        self.ctx.stroke();
        self.ctx.set_stroke_style_str(colour);
        self.ctx.set_line_width(self.line_width() * 2.0);
        self.ctx.begin_path();
        self.ctx.move_to(ax, ay);
        self.ctx.line_to(bx, by);
        self.ctx.stroke();
        // The wetness dealt, beside the target.
        self.ctx.begin_path();
        let _ = self.ctx.arc(bx, by, self.line_width() * 2.5, 0.0, 2.0 * PI);
        self.ctx.set_fill_style_str(colour);
        self.ctx.fill();
        let text = format!("+{damage}");
        let size = self.cell * 0.4;
        self.font(size, true);
        self.ctx.set_text_align("center");
        self.ctx.set_text_baseline("middle");
        let (px, py) = (cx1 + self.cell * 0.42, cy1 - self.cell * 0.4);
        self.ctx.set_line_width(self.line_width() * 2.5);
        self.ctx.set_stroke_style_str("#ffffff");
        let _ = self.ctx.stroke_text(&text, px, py);
        self.ctx.set_fill_style_str(WATER_DARK);
        let _ = self.ctx.fill_text(&text, px, py);
    }

    fn agent(&self, a: &AgentView) {
        let (cx, cy) = self.centre(a.x, a.y);
        let r = self.cell * RADIUS;
        let (_, fill, outline) = seat(a.owner);
        if a.soaked {
            self.ctx.set_global_alpha(0.45);
        }
        // The body, then the water filling it from the bottom.
        self.ctx.begin_path();
        let _ = self.ctx.arc(cx, cy, r, 0.0, 2.0 * PI);
        self.ctx.set_fill_style_str(fill);
        self.ctx.fill();
        let wet = f64::from(a.wetness.clamp(0, 100)) / 100.0;
        if wet > 0.0 {
            self.ctx.save();
            self.ctx.begin_path();
            let _ = self.ctx.arc(cx, cy, r, 0.0, 2.0 * PI);
            self.ctx.clip();
            self.ctx.set_global_alpha(if a.soaked { 0.4 } else { 0.75 });
            self.ctx.set_fill_style_str(WATER);
            let level = cy + r - 2.0 * r * wet;
            self.ctx.fill_rect(cx - r, level, 2.0 * r, cy + r - level);
            self.ctx.restore();
            if a.soaked {
                self.ctx.set_global_alpha(0.45);
            }
        }
        self.ctx.begin_path();
        let _ = self.ctx.arc(cx, cy, r, 0.0, 2.0 * PI);
        self.ctx.set_stroke_style_str(outline);
        self.ctx.set_line_width(self.line_width() * 1.5);
        self.ctx.stroke();
        if a.hunkered {
            self.ctx.begin_path();
            let _ = self
                .ctx
                .arc(cx, cy, r + self.line_width() * 2.0, 0.0, 2.0 * PI);
            self.ctx.set_stroke_style_str("#ffffff");
            self.ctx.set_line_width(self.line_width() * 2.0);
            self.ctx.stroke();
        }
        // The id.
        self.font(self.cell * 0.36, true);
        self.ctx.set_text_align("center");
        self.ctx.set_text_baseline("middle");
        self.ctx.set_fill_style_str("#ffffff");
        let _ = self
            .ctx
            .fill_text(&a.id.to_string(), cx, cy + self.cell * 0.02);
        // The wetness bar under the disc.
        let (ox, oy) = self.origin(f64::from(a.x), f64::from(a.y));
        let bar_w = self.cell * 0.8;
        let bar_h = (self.cell * 0.11).max(self.ratio * 3.0);
        let bx = ox + (self.cell - bar_w) / 2.0;
        let by = oy + self.cell - bar_h - self.cell * 0.02;
        self.ctx.set_fill_style_str("#222633");
        self.ctx
            .fill_rect(bx - 1.0, by - 1.0, bar_w + 2.0, bar_h + 2.0);
        self.ctx.set_fill_style_str("#ffffff");
        self.ctx.fill_rect(bx, by, bar_w, bar_h);
        self.ctx
            .set_fill_style_str(if a.wetness >= 50 { WATER_DARK } else { WATER });
        self.ctx.fill_rect(bx, by, bar_w * wet, bar_h);
        // Splash bombs: dots at the top left.
        let dot = self.cell * 0.06;
        for k in 0..a.bombs.clamp(0, 5) {
            self.ctx.begin_path();
            let _ = self.ctx.arc(
                ox + self.cell * 0.1 + f64::from(k) * dot * 2.6,
                oy + self.cell * 0.1,
                dot,
                0.0,
                2.0 * PI,
            );
            self.ctx.set_fill_style_str("#222633");
            self.ctx.fill();
        }
        // Cooldown: a small badge at the top right.
        if a.cooldown > 0 {
            let size = self.cell * 0.24;
            let (px, py) = (ox + self.cell * 0.86, oy + self.cell * 0.14);
            self.ctx.begin_path();
            let _ = self.ctx.arc(px, py, size * 0.62, 0.0, 2.0 * PI);
            self.ctx.set_fill_style_str("#f0c040");
            self.ctx.fill();
            self.font(size, true);
            self.ctx.set_fill_style_str("#222633");
            let _ = self.ctx.fill_text(&a.cooldown.to_string(), px, py);
        }
        if a.soaked {
            self.ctx.set_global_alpha(1.0);
            self.ctx.set_stroke_style_str(WATER_DARK);
            self.ctx.set_line_width(self.line_width() * 2.0);
            self.ctx.begin_path();
            self.ctx.move_to(cx - r, cy - r);
            self.ctx.line_to(cx + r, cy + r);
            self.ctx.move_to(cx + r, cy - r);
            self.ctx.line_to(cx - r, cy + r);
            self.ctx.stroke();
        }
        self.ctx.set_global_alpha(1.0);
    }

    /// A message bubble above the agent, kept inside the canvas.
    fn bubble(&self, x: i32, y: i32, text: &str, canvas_w: f64) {
        let shown: String = if text.chars().count() > 24 {
            let mut t: String = text.chars().take(23).collect();
            t.push('…');
            t
        } else {
            text.to_string()
        };
        let size = (self.cell * 0.3).max(10.0 * self.ratio);
        self.font(size, false);
        // An estimate (measuring text needs a web-sys feature the page does not enable).
        let width = size * 0.56 * shown.chars().count() as f64;
        let pad = size * 0.35;
        let (cx, _) = self.centre(x, y);
        let (_, oy) = self.origin(f64::from(x), f64::from(y));
        let bw = width + 2.0 * pad;
        let bh = size + 2.0 * pad * 0.6;
        let bx = (cx - bw / 2.0).clamp(2.0, (canvas_w - bw - 2.0).max(2.0));
        let by = (oy - bh * 0.55).max(2.0);
        self.ctx.set_global_alpha(0.92);
        self.ctx.set_fill_style_str("#ffffff");
        self.ctx.fill_rect(bx, by, bw, bh);
        self.ctx.set_global_alpha(1.0);
        self.ctx.set_stroke_style_str("#222633");
        self.ctx.set_line_width(self.ratio.max(1.0));
        self.ctx.stroke_rect(bx, by, bw, bh);
        self.ctx.set_fill_style_str("#222633");
        self.ctx.set_text_align("left");
        self.ctx.set_text_baseline("middle");
        let _ = self.ctx.fill_text(&shown, bx + pad, by + bh / 2.0);
    }
}
