//! A Code of Ice and Fire: the 12 × 12 board with territory, mine spots, buildings and units.
//!
//! Void cells are dark, neutral land light, owned land in the seat's colour (paler when the cell
//! is cut off from its HQ). Mine spots are small gold diamonds; a mine is a gold hexagon, a tower
//! a triangle, an HQ a square with a crenellated top, all outlined in their owner's colour; units
//! are circles with their level. Drawing is in device pixels so that cell edges stay crisp.

use std::f64::consts::PI;

use games::ice_and_fire::view::{Kind, View};
use web_sys::CanvasRenderingContext2d;

const VOID: &str = "#23262d";
const NEUTRAL: &str = "#e9e5d9";
const GRID: &str = "#14161b";
const GOLD: &str = "#f0c040";
const GOLD_DARK: &str = "#8a6a12";
/// Per seat: active territory, inactive territory, pieces.
const SEATS: [(&str, &str, &str); 2] = [
    ("#e0554c", "#f1b9b4", "#8e1f19"),
    ("#4d86dd", "#b9cff2", "#17418e"),
];

fn seat(owner: usize) -> (&'static str, &'static str, &'static str) {
    SEATS[owner.min(1)]
}

/// Draws the view; false when the view is not an Ice and Fire view.
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
    let cells = view.width * view.height;
    if cells == 0
        || [
            view.void.len(),
            view.owner.len(),
            view.active.len(),
            view.protected.len(),
        ]
        .iter()
        .any(|&n| n != cells)
    {
        return false;
    }
    let cols = view.width as f64;
    let rows = view.height as f64;
    let margin = (6.0 * ratio).round();
    let cell = ((w - 2.0 * margin) / cols)
        .min((h - 2.0 * margin) / rows)
        .floor()
        .max(4.0);
    let left = ((w - cell * cols) / 2.0).floor();
    let top = ((h - cell * rows) / 2.0).floor();
    let board = Board {
        ctx,
        cell,
        left,
        top,
        ratio,
    };

    ctx.set_fill_style_str(GRID);
    ctx.fill_rect(left - 1.0, top - 1.0, cell * cols + 2.0, cell * rows + 2.0);
    for i in 0..cells {
        let (x, y) = ((i % view.width) as f64, (i / view.width) as f64);
        let owner = view.owner[i];
        let fill = match owner {
            _ if view.void[i] => VOID,
            None => NEUTRAL,
            Some(o) if view.active[i] => seat(o).0,
            Some(o) => seat(o).1,
        };
        board.square(x, y, fill);
        if view.protected[i] {
            board.protected_mark(x, y, owner.map_or(GRID, |o| seat(o).2));
        }
    }
    for spot in &view.mine_spots {
        let taken = view
            .buildings
            .iter()
            .any(|b| b.x == spot.x && b.y == spot.y);
        if !taken {
            board.mine_spot(spot.x as f64, spot.y as f64);
        }
    }
    for b in &view.buildings {
        let (x, y) = (b.x as f64, b.y as f64);
        match b.kind {
            Kind::Hq => board.hq(x, y, b.owner),
            Kind::Mine => board.mine(x, y, b.owner),
            Kind::Tower => board.tower(x, y, b.owner),
        }
    }
    for u in &view.units {
        board.unit(u.x as f64, u.y as f64, u.owner, u.level);
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

    fn centre(&self, x: f64, y: f64) -> (f64, f64) {
        let (ox, oy) = self.origin(x, y);
        (ox + self.cell / 2.0, oy + self.cell / 2.0)
    }

    fn line_width(&self) -> f64 {
        (self.cell / 22.0).max(self.ratio).round()
    }

    fn square(&self, x: f64, y: f64, fill: &str) {
        let gap = (self.ratio).round().max(1.0);
        let (ox, oy) = self.origin(x, y);
        self.ctx.set_fill_style_str(fill);
        self.ctx
            .fill_rect(ox + gap, oy + gap, self.cell - gap, self.cell - gap);
    }

    /// A thin inner frame: the cell is guarded by a tower.
    fn protected_mark(&self, x: f64, y: f64, colour: &str) {
        let (ox, oy) = self.origin(x, y);
        let inset = self.cell * 0.12;
        self.ctx.set_stroke_style_str(colour);
        self.ctx.set_line_width(self.line_width());
        self.ctx.set_global_alpha(0.45);
        self.ctx.stroke_rect(
            ox + inset,
            oy + inset,
            self.cell - 2.0 * inset,
            self.cell - 2.0 * inset,
        );
        self.ctx.set_global_alpha(1.0);
    }

    fn outline(&self, fill: &str, stroke: &str) {
        self.ctx.set_fill_style_str(fill);
        self.ctx.fill();
        self.ctx.set_stroke_style_str(stroke);
        self.ctx.set_line_width(self.line_width());
        self.ctx.stroke();
    }

    fn mine_spot(&self, x: f64, y: f64) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell * 0.16;
        self.ctx.begin_path();
        self.ctx.move_to(cx, cy - r);
        self.ctx.line_to(cx + r, cy);
        self.ctx.line_to(cx, cy + r);
        self.ctx.line_to(cx - r, cy);
        self.ctx.close_path();
        self.outline(GOLD, GOLD_DARK);
    }

    fn mine(&self, x: f64, y: f64, owner: usize) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell * 0.34;
        self.ctx.begin_path();
        for k in 0..6 {
            let a = PI / 6.0 + f64::from(k) * PI / 3.0;
            let (px, py) = (cx + r * a.cos(), cy + r * a.sin());
            if k == 0 {
                self.ctx.move_to(px, py);
            } else {
                self.ctx.line_to(px, py);
            }
        }
        self.ctx.close_path();
        self.outline(GOLD, seat(owner).2);
    }

    fn tower(&self, x: f64, y: f64, owner: usize) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell * 0.36;
        self.ctx.begin_path();
        self.ctx.move_to(cx, cy - r);
        self.ctx.line_to(cx + r * 0.8, cy + r * 0.8);
        self.ctx.line_to(cx - r * 0.8, cy + r * 0.8);
        self.ctx.close_path();
        self.outline(seat(owner).2, "#ffffff");
    }

    /// A keep: a square with three merlons on top.
    fn hq(&self, x: f64, y: f64, owner: usize) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell * 0.36;
        let (l, t, b) = (cx - r, cy - r, cy + r);
        let step = 2.0 * r / 5.0;
        self.ctx.begin_path();
        self.ctx.move_to(l, b);
        self.ctx.line_to(l, t);
        for k in 0..5 {
            let xk = l + f64::from(k) * step;
            let high = k % 2 == 0;
            let yk = if high { t } else { t + step * 0.8 };
            self.ctx.line_to(xk, yk);
            self.ctx.line_to(xk + step, yk);
        }
        self.ctx.line_to(cx + r, b);
        self.ctx.close_path();
        self.outline(seat(owner).2, "#ffffff");
        self.ctx.set_fill_style_str("#ffffff");
        self.ctx.set_font(&format!(
            "bold {:.0}px system-ui, sans-serif",
            self.cell * 0.3
        ));
        self.ctx.set_text_align("center");
        self.ctx.set_text_baseline("middle");
        let _ = self.ctx.fill_text("HQ", cx, cy + r * 0.25);
    }

    fn unit(&self, x: f64, y: f64, owner: usize, level: u8) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell * (0.26 + 0.04 * f64::from(level.min(3)));
        self.ctx.begin_path();
        let _ = self.ctx.arc(cx, cy, r, 0.0, 2.0 * PI);
        self.outline(seat(owner).2, "#ffffff");
        self.ctx.set_fill_style_str("#ffffff");
        self.ctx.set_font(&format!(
            "bold {:.0}px system-ui, sans-serif",
            self.cell * 0.4
        ));
        self.ctx.set_text_align("center");
        self.ctx.set_text_baseline("middle");
        let _ = self
            .ctx
            .fill_text(&level.to_string(), cx, cy + self.cell * 0.02);
    }
}
