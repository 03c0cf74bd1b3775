//! Where a square board sits on the canvas: the one layout painting and inspecting share.
//!
//! Everything here is plain arithmetic in device pixels (no canvas), so that it is tested
//! natively.

/// A board of `cols × rows` square cells of side `cell`, its top-left corner at
/// `(left, top)`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Grid {
    pub cols: usize,
    pub rows: usize,
    pub cell: f64,
    pub left: f64,
    pub top: f64,
}

impl Grid {
    /// The largest whole-pixel cells that fit in `w × h` less `margin` on every side and
    /// `top_room` more above, centred (and at least `top_room` below the top margin). Cells
    /// are never smaller than 4 pixels.
    pub fn fit(cols: usize, rows: usize, w: f64, h: f64, margin: f64, top_room: f64) -> Grid {
        let (c, r) = (cols.max(1) as f64, rows.max(1) as f64);
        let cell = ((w - 2.0 * margin) / c)
            .min((h - 2.0 * margin - top_room) / r)
            .floor()
            .max(4.0);
        let left = ((w - cell * c) / 2.0).floor();
        let centred = ((h - cell * r) / 2.0).floor();
        let top = if top_room > 0.0 {
            centred.max(margin + top_room)
        } else {
            centred
        };
        Grid {
            cols,
            rows,
            cell,
            left,
            top,
        }
    }

    /// The top-left corner of cell `(x, y)`.
    pub fn origin(&self, x: f64, y: f64) -> (f64, f64) {
        (self.left + x * self.cell, self.top + y * self.cell)
    }

    /// The centre of cell `(x, y)`.
    pub fn centre(&self, x: f64, y: f64) -> (f64, f64) {
        let (ox, oy) = self.origin(x, y);
        (ox + self.cell / 2.0, oy + self.cell / 2.0)
    }

    /// The cell under a canvas point, if the point is on the board.
    pub fn cell_at(&self, px: f64, py: f64) -> Option<(usize, usize)> {
        if self.cell <= 0.0 {
            return None;
        }
        let fx = ((px - self.left) / self.cell).floor();
        let fy = ((py - self.top) / self.cell).floor();
        if fx < 0.0 || fy < 0.0 || fx >= self.cols as f64 || fy >= self.rows as f64 {
            return None;
        }
        Some((fx as usize, fy as usize))
    }

    /// The square of cell `(x, y)`, corner by corner.
    pub fn outline(&self, x: usize, y: usize) -> Vec<(f64, f64)> {
        let (ox, oy) = self.origin(x as f64, y as f64);
        let c = self.cell;
        vec![(ox, oy), (ox + c, oy), (ox + c, oy + c), (ox, oy + c)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fits_centres_and_finds_cells() {
        let g = Grid::fit(12, 12, 600.0, 600.0, 6.0, 0.0);
        assert_eq!(g.cell, 49.0);
        assert_eq!((g.left, g.top), (6.0, 6.0));
        assert_eq!(g.cell_at(6.0, 6.0), Some((0, 0)));
        assert_eq!(g.cell_at(6.0 + 49.0 * 3.5, 6.0 + 49.0 * 7.5), Some((3, 7)));
        assert_eq!(g.cell_at(5.9, 100.0), None);
        assert_eq!(g.cell_at(100.0, 6.0 + 49.0 * 12.0), None);
        let (cx, cy) = g.centre(11.0, 0.0);
        assert_eq!(g.cell_at(cx, cy), Some((11, 0)));
    }

    #[test]
    fn room_above_pushes_the_board_down() {
        let g = Grid::fit(10, 5, 400.0, 240.0, 6.0, 18.0);
        assert!(g.top >= 24.0);
        assert!(g.top + g.cell * 5.0 <= 240.0);
        assert_eq!(g.outline(0, 0)[2], (g.left + g.cell, g.top + g.cell));
    }
}
