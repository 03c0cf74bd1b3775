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

    /// The current path filled with `fill` and drawn round with `stroke`, `width` wide.
    pub fn fill_and_stroke(&self, fill: &str, stroke: &str, width: f64) {
        self.ctx.set_fill_style_str(fill);
        self.ctx.fill();
        self.ctx.set_stroke_style_str(stroke);
        self.ctx.set_line_width(width);
        self.ctx.stroke();
    }
}
