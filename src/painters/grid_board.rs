//! A square-grid board on a canvas, as the square-grid painters draw it (Ice and Fire, microRTS,
//! Soak Overflow): the canvas, where the cells are ([`Grid`]) and the device pixel ratio, with
//! what the three draw alike. Each painter adds its own drawing to its own instance,
//! `GridBoard<'_, ItsPainter>`: the painter's type keeps one game's methods apart from another's.

use std::marker::PhantomData;

use web_sys::CanvasRenderingContext2d;

use super::grid::Grid;

/// A board being painted: `G` is the painter whose drawing methods it has.
pub struct GridBoard<'a, G> {
    pub ctx: &'a CanvasRenderingContext2d,
    pub grid: Grid,
    /// Device pixels per CSS pixel (a line is at least one device pixel).
    pub ratio: f64,
    painter: PhantomData<G>,
}

impl<'a, G> GridBoard<'a, G> {
    pub fn new(ctx: &'a CanvasRenderingContext2d, grid: Grid, ratio: f64) -> GridBoard<'a, G> {
        GridBoard {
            ctx,
            grid,
            ratio,
            painter: PhantomData,
        }
    }

    /// The top-left corner of cell `(x, y)`.
    pub fn origin(&self, x: f64, y: f64) -> (f64, f64) {
        self.grid.origin(x, y)
    }

    /// The centre of cell `(x, y)`.
    pub fn centre(&self, x: f64, y: f64) -> (f64, f64) {
        self.grid.centre(x, y)
    }

    /// A cell's side.
    pub fn cell(&self) -> f64 {
        self.grid.cell
    }

    /// A line `1 / per` of a cell wide, in whole device pixels, at least one.
    pub fn line_width_per(&self, per: f64) -> f64 {
        (self.cell() / per).max(self.ratio).round()
    }

    /// Cell `(x, y)` filled with `fill`, a device pixel's gap left at its top and left (the
    /// grid's lines).
    pub fn square(&self, x: f64, y: f64, fill: &str) {
        let gap = self.ratio.round().max(1.0);
        let (ox, oy) = self.origin(x, y);
        self.ctx.set_fill_style_str(fill);
        self.ctx
            .fill_rect(ox + gap, oy + gap, self.cell() - gap, self.cell() - gap);
    }

    /// `text` centred on `(cx, cy)` in `colour`, in bold type `size` device pixels high.
    pub fn text(&self, text: &str, cx: f64, cy: f64, size: f64, colour: &str) {
        self.ctx.set_fill_style_str(colour);
        self.ctx
            .set_font(&format!("bold {size:.0}px system-ui, sans-serif"));
        self.ctx.set_text_align("center");
        self.ctx.set_text_baseline("middle");
        let _ = self.ctx.fill_text(text, cx, cy);
    }

    /// A keep, as the current path: a square `2 r` wide round `cx`, from `top` to `bottom`, with
    /// three merlons on top.
    pub fn keep(&self, cx: f64, r: f64, top: f64, bottom: f64) {
        let (l, t, b) = (cx - r, top, bottom);
        let step = 2.0 * r / 5.0;
        self.ctx.begin_path();
        self.ctx.move_to(l, b);
        self.ctx.line_to(l, t);
        for k in 0..5 {
            let xk = l + f64::from(k) * step;
            let yk = if k % 2 == 0 { t } else { t + step * 0.8 };
            self.ctx.line_to(xk, yk);
            self.ctx.line_to(xk + step, yk);
        }
        self.ctx.line_to(cx + r, b);
        self.ctx.close_path();
    }

    /// The current path filled with `fill` and drawn round with `stroke`, `width` wide.
    pub fn fill_and_stroke(&self, fill: &str, stroke: &str, width: f64) {
        self.ctx.set_fill_style_str(fill);
        self.ctx.fill();
        self.ctx.set_stroke_style_str(stroke);
        self.ctx.set_line_width(width);
        self.ctx.stroke();
    }
}
