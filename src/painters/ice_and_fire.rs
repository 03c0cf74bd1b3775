//! A Code of Ice and Fire: the 12 × 12 board with territory, mine spots, buildings and units.
//!
//! Void cells are dark, neutral land light, owned land in the seat's colour (paler when the cell
//! is cut off from its HQ). Mine spots are small gold diamonds; a mine is a gold hexagon, a tower
//! a triangle, an HQ a square with a crenellated top, all outlined in their owner's colour; units
//! are circles with their level. Drawing is in device pixels so that cell edges stay crisp.

use std::f64::consts::PI;

use games::ice_and_fire::view::{Kind, View};
use web_sys::CanvasRenderingContext2d;

use super::grid::Grid;
use super::grid_board::GridBoard;
use super::{polygon, seat_name, Inspection};

const VOID: &str = "#23262d";
pub(super) const NEUTRAL: &str = "#e9e5d9";
const GRID: &str = "#14161b";
const GOLD: &str = "#f0c040";
const GOLD_DARK: &str = "#8a6a12";
/// Per seat: active territory, inactive territory, pieces.
pub(super) const SEATS: [(&str, &str, &str); 2] = [
    ("#e0554c", "#e1a89f", "#8e1f19"),
    ("#4d86dd", "#b9cff2", "#17418e"),
];

fn seat(owner: usize) -> (&'static str, &'static str, &'static str) {
    SEATS[owner.min(1)]
}

/// A Code of Ice and Fire's painter (in the page's registry).
pub struct IceAndFire;

impl super::Painter for IceAndFire {
    fn read(&self, view: super::FrameView<'_>) -> Option<Box<dyn super::Parsed>> {
        Some(Box::new(view.read(well_formed)?))
    }

    fn palettes(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        // Active and inactive territory of both seats, and free cells; then the pieces.
        let mut cells: Vec<&str> = SEATS.iter().flat_map(|s| [s.0, s.1]).collect();
        cells.push(NEUTRAL);
        vec![
            ("Ice and Fire cells", cells),
            ("Ice and Fire pieces", SEATS.iter().map(|s| s.2).collect()),
        ]
    }
}

board_without_controls!(View);

/// Whether the view is a well-formed Ice and Fire view (one read from JSON may not be).
fn well_formed(view: &View) -> bool {
    let lists = [
        view.void.len(),
        view.owner.len(),
        view.active.len(),
        view.protected.len(),
    ];
    match view.width.checked_mul(view.height) {
        Some(cells) => cells > 0 && lists.iter().all(|&n| n == cells),
        None => false,
    }
}

/// Where the board sits on a `w × h` canvas: what painting and inspecting share.
fn layout(view: &View, w: f64, h: f64, ratio: f64) -> Grid {
    Grid::fit(view.width, view.height, w, h, (6.0 * ratio).round(), 0.0)
}

/// Draws the view.
pub fn paint(ctx: &CanvasRenderingContext2d, view: &View, w: f64, h: f64, ratio: f64) {
    let grid = layout(view, w, h, ratio);
    let board = Board::new(ctx, grid, ratio);
    let (cell, left, top) = (grid.cell, grid.left, grid.top);
    let cells = view.width * view.height;

    ctx.set_fill_style_str(GRID);
    ctx.fill_rect(
        left - 1.0,
        top - 1.0,
        cell * view.width as f64 + 2.0,
        cell * view.height as f64 + 2.0,
    );
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
}

/// What stands on the cell under the canvas point `(px, py)`: land, building, unit.
pub fn inspect(view: &View, w: f64, h: f64, ratio: f64, px: f64, py: f64) -> Option<Inspection> {
    let grid = layout(view, w, h, ratio);
    let (x, y) = grid.cell_at(px, py)?;
    let i = y * view.width + x;
    let name = |o: usize| seat_name("ice-and-fire", o);
    let mut lines = Vec::new();
    match view.owner[i] {
        _ if view.void[i] => lines.push("void: not playable".to_string()),
        None => lines.push("neutral land".to_string()),
        Some(o) if view.active[i] => lines.push(format!("{} territory", name(o))),
        Some(o) => lines.push(format!(
            "{} territory, inactive (cut off from its HQ)",
            name(o)
        )),
    }
    if view.protected[i] {
        lines.push("guarded by a tower: only a level-3 unit may enter".to_string());
    }
    let building = view.buildings.iter().find(|b| (b.x, b.y) == (x, y));
    if building.is_none() && view.mine_spots.iter().any(|s| (s.x, s.y) == (x, y)) {
        lines.push("mine spot".to_string());
    }
    if let Some(b) = building {
        let what = match b.kind {
            Kind::Hq => "HQ",
            Kind::Mine => "mine",
            Kind::Tower => "tower",
        };
        lines.push(format!("{} {what}", name(b.owner)));
    }
    for u in view.units.iter().filter(|u| (u.x, u.y) == (x, y)) {
        lines.push(format!(
            "{} unit {}, level {}",
            name(u.owner),
            u.id,
            u.level
        ));
    }
    Some(Inspection::square(&grid, x, y, lines))
}

/// The board being painted, with this game's drawing.
type Board<'a> = GridBoard<'a, IceAndFire>;

impl Board<'_> {
    fn line_width(&self) -> f64 {
        self.line_width_per(22.0)
    }

    /// A thin inner frame: the cell is guarded by a tower.
    fn protected_mark(&self, x: f64, y: f64, colour: &str) {
        let (ox, oy) = self.origin(x, y);
        let inset = self.cell() * 0.12;
        self.ctx.set_stroke_style_str(colour);
        self.ctx.set_line_width(self.line_width());
        self.ctx.set_global_alpha(0.45);
        self.ctx.stroke_rect(
            ox + inset,
            oy + inset,
            self.cell() - 2.0 * inset,
            self.cell() - 2.0 * inset,
        );
        self.ctx.set_global_alpha(1.0);
    }

    fn outline(&self, fill: &str, stroke: &str) {
        self.fill_and_stroke(fill, stroke, self.line_width());
    }

    fn mine_spot(&self, x: f64, y: f64) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell() * 0.16;
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
        let r = self.cell() * 0.34;
        let corner = |k: i32| {
            let a = PI / 6.0 + f64::from(k) * PI / 3.0;
            (cx + r * a.cos(), cy + r * a.sin())
        };
        polygon(self.ctx, (0..6).map(corner));
        self.outline(GOLD, seat(owner).2);
    }

    fn tower(&self, x: f64, y: f64, owner: usize) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell() * 0.36;
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
        let r = self.cell() * 0.36;
        self.keep(cx, r, cy - r, cy + r);
        self.outline(seat(owner).2, "#ffffff");
        self.text("HQ", cx, cy + r * 0.25, self.cell() * 0.3, "#ffffff");
    }

    fn unit(&self, x: f64, y: f64, owner: usize, level: u8) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell() * (0.26 + 0.04 * f64::from(level.min(3)));
        self.ctx.begin_path();
        let _ = self.ctx.arc(cx, cy, r, 0.0, 2.0 * PI);
        self.outline(seat(owner).2, "#ffffff");
        let (text, size) = (level.to_string(), self.cell() * 0.4);
        self.text(&text, cx, cy + self.cell() * 0.02, size, "#ffffff");
    }
}

#[cfg(test)]
mod tests {
    use games::ice_and_fire::view::{BuildingView, PlayerView, UnitView, Xy};

    use super::*;

    fn player(name: &str) -> PlayerView {
        PlayerView {
            name: name.to_string(),
            gold: 10,
            income: 1,
            military_power: 10,
            message: None,
            lost: None,
            score: None,
        }
    }

    /// Red holds (0,0)–(2,0) with its HQ at (0,0) and a level-2 unit at (1,0) (guarded); (2,0)
    /// is cut off; blue's HQ is at (11,11); (5,5) is void; (4,4) a free mine spot.
    fn view() -> View {
        let cells = 144;
        let mut owner = vec![None; cells];
        let mut active = vec![true; cells];
        let mut void = vec![false; cells];
        let mut protected = vec![false; cells];
        owner[0] = Some(0);
        owner[1] = Some(0);
        owner[2] = Some(0);
        owner[143] = Some(1);
        active[2] = false;
        void[5 * 12 + 5] = true;
        protected[1] = true;
        View {
            width: 12,
            height: 12,
            turn: 3,
            league: 3,
            void,
            owner,
            active,
            protected,
            mine_spots: vec![Xy { x: 4, y: 4 }],
            buildings: vec![
                BuildingView {
                    owner: 0,
                    kind: Kind::Hq,
                    x: 0,
                    y: 0,
                },
                BuildingView {
                    owner: 1,
                    kind: Kind::Hq,
                    x: 11,
                    y: 11,
                },
            ],
            units: vec![UnitView {
                owner: 0,
                id: 7,
                level: 2,
                x: 1,
                y: 0,
            }],
            players: vec![player("red"), player("blue")],
            played: Some(0),
            to_move: Some(1),
            hq_captured: None,
            winner: None,
            over: false,
        }
    }

    /// On a 600 × 600 canvas at ratio 1 the cells are 49 pixels from (6, 6): a cell's centre.
    fn centre(x: f64, y: f64) -> (f64, f64) {
        (6.0 + 49.0 * x + 24.5, 6.0 + 49.0 * y + 24.5)
    }

    fn at(x: f64, y: f64) -> Option<Inspection> {
        let (px, py) = centre(x, y);
        inspect(&view(), 600.0, 600.0, 1.0, px, py)
    }

    #[test]
    fn a_cell_centre_shows_what_stands_there() {
        let hq = at(0.0, 0.0).unwrap();
        assert_eq!(hq.at, (0, 0));
        assert_eq!(hq.cell, "cell (0,0)");
        assert_eq!(hq.lines, ["red territory", "red HQ"]);
        let unit = at(1.0, 0.0).unwrap();
        assert_eq!(
            unit.lines,
            [
                "red territory",
                "guarded by a tower: only a level-3 unit may enter",
                "red unit 7, level 2",
            ]
        );
        assert_eq!(
            unit.outline,
            [(55.0, 6.0), (104.0, 6.0), (104.0, 55.0), (55.0, 55.0)]
        );
        assert_eq!(
            at(2.0, 0.0).unwrap().lines,
            ["red territory, inactive (cut off from its HQ)"]
        );
        assert_eq!(at(11.0, 11.0).unwrap().lines, ["blue territory", "blue HQ"]);
        assert_eq!(at(5.0, 5.0).unwrap().lines, ["void: not playable"]);
        assert_eq!(at(4.0, 4.0).unwrap().lines, ["neutral land", "mine spot"]);
        assert_eq!(at(3.0, 9.0).unwrap().at, (3, 9));
    }

    #[test]
    fn the_margin_shows_nothing() {
        let v = view();
        assert_eq!(inspect(&v, 600.0, 600.0, 1.0, 3.0, 300.0), None);
        assert_eq!(inspect(&v, 600.0, 600.0, 1.0, 300.0, 596.0), None);
        // A wide canvas: the board is centred, with empty room left and right.
        assert_eq!(inspect(&v, 1000.0, 600.0, 1.0, 150.0, 300.0), None);
        assert_eq!(
            inspect(&v, 1000.0, 600.0, 1.0, 206.0 + 24.5, 6.0 + 24.5).map(|i| i.at),
            Some((0, 0))
        );
    }
}
