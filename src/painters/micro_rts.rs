//! microRTS: the walled arena with gold mines and forests (with what is left in them), castles,
//! barracks and units in their owner's colour with health bars, and the last turn's actions.
//!
//! Walls are dark, floor tiles light. A gold mine is a gold nugget, a forest a green tree,
//! each with its remaining amount. A castle is a keep with merlons, a barracks a house; units
//! are discs with their letter (W worker, L light, H heavy, R ranged). Under every building and
//! unit a bar shows its health. The last turn's moves are faint trails in the owner's colour
//! ending in a dot, blocked moves a short dashed stub with a cross, attacks orange lines with a
//! burst on the target, harvests dotted lines in the resource's colour, and builds and
//! trainings dashed lines from the maker to the new entity.

use std::f64::consts::PI;

use games::micro_rts::view::{ActionKind, ActionView, EntityView, Kind, View, Xy};
use web_sys::CanvasRenderingContext2d;

use super::grid::Grid;
use super::grid_board::GridBoard;
use super::{polygon, seat_name, Inspection};

const WALL: &str = "#2a2d35";
const WALL_EDGE: &str = "#3a3e48";
const FLOOR: &str = "#e6e1d3";
const GRID: &str = "#14161b";
const GOLD: &str = "#f0c040";
const GOLD_DARK: &str = "#8a6a12";
const TREE: &str = "#3f9d4a";
const TREE_DARK: &str = "#1f5a27";
const ATTACK: &str = "#ff7a1a";
const HEALTH: &str = "#3cc84a";
const HEALTH_LOW: &str = "#e8432e";
const HEALTH_BACK: &str = "#1b1d22";
/// Per seat: body, dark outline.
pub(super) const SEATS: [(&str, &str); 2] = [("#e0554c", "#7c1c16"), ("#4d86dd", "#153b80")];

fn seat(owner: Option<usize>) -> (&'static str, &'static str) {
    SEATS[owner.unwrap_or(0).min(1)]
}

/// micro RTS's painter (in the page's registry).
pub struct MicroRts;

impl super::Painter for MicroRts {
    fn read(&self, view: super::FrameView<'_>) -> Option<Box<dyn super::Parsed>> {
        Some(Box::new(view.read(well_formed)?))
    }

    fn palettes(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        vec![
            ("microRTS units", SEATS.iter().map(|s| s.0).collect()),
            ("microRTS outlines", SEATS.iter().map(|s| s.1).collect()),
        ]
    }
}

board_without_controls!(View, aspect);

/// The map's width over its height (maps are 15 to 31 tiles wide, 15 to 17 high).
fn aspect(view: &View) -> f64 {
    f64::from(view.width.max(1)) / f64::from(view.height.max(1))
}

/// Whether the view is a well-formed microRTS view (one read from JSON may not be).
fn well_formed(view: &View) -> bool {
    view.width > 0
        && view.height > 0
        && view.walls.len() == view.height as usize
        && view
            .walls
            .iter()
            .all(|r| r.chars().count() == view.width as usize)
}

/// Where the arena sits on a `w × h` canvas: what painting and inspecting share.
fn layout(view: &View, w: f64, h: f64, ratio: f64) -> Grid {
    Grid::fit(
        view.width as usize,
        view.height as usize,
        w,
        h,
        (6.0 * ratio).round(),
        0.0,
    )
}

/// Draws the view.
pub fn paint(ctx: &CanvasRenderingContext2d, view: &View, w: f64, h: f64, ratio: f64) {
    let grid = layout(view, w, h, ratio);
    let board = Board::new(ctx, grid, ratio);

    ctx.set_fill_style_str(GRID);
    ctx.fill_rect(
        grid.left - 1.0,
        grid.top - 1.0,
        grid.cell * f64::from(view.width) + 2.0,
        grid.cell * f64::from(view.height) + 2.0,
    );
    for (y, row) in view.walls.iter().enumerate() {
        for (x, c) in row.chars().enumerate() {
            board.tile(x as f64, y as f64, c == '#');
        }
    }
    // Trails under the pieces, strikes over them.
    for a in &view.actions {
        if !matches!(a.kind, ActionKind::Attack) {
            board.action(a);
        }
    }
    for e in &view.entities {
        board.entity(e);
    }
    for a in view.actions.iter().filter(|a| a.kind == ActionKind::Attack) {
        board.action(a);
    }
}

/// The word for an entity kind, as the protocol's unit types are named.
fn kind_word(kind: Kind) -> &'static str {
    match kind {
        Kind::Mine => "gold mine",
        Kind::Forest => "forest",
        Kind::Castle => "castle",
        Kind::Barracks => "barracks",
        Kind::Worker => "worker",
        Kind::Light => "light",
        Kind::Heavy => "heavy",
        Kind::Ranged => "ranged",
    }
}

/// What stands on the tile under the canvas point `(px, py)`: wall or floor, the entity with
/// its health (or what a mine or forest has left), and what it did in the last turn.
pub fn inspect(view: &View, w: f64, h: f64, ratio: f64, px: f64, py: f64) -> Option<Inspection> {
    let grid = layout(view, w, h, ratio);
    let (ux, uy) = grid.cell_at(px, py)?;
    let (x, y) = (ux as i32, uy as i32);
    let here = Xy { x, y };
    let name = |o: Option<usize>| o.map_or("nobody".to_string(), |o| seat_name("micro-rts", o));
    let wall = view.walls[uy].chars().nth(ux) == Some('#');
    let mut lines = vec![if wall { "wall" } else { "floor" }.to_string()];
    for e in view.entities.iter().filter(|e| (e.x, e.y) == (x, y)) {
        lines.push(match e.kind {
            Kind::Mine => format!("gold mine: {} gold left", e.health),
            Kind::Forest => format!("forest: {} wood left", e.health),
            kind => format!(
                "{} {}: health {} / {}",
                name(e.owner),
                kind_word(kind),
                e.health,
                e.max_health
            ),
        });
    }
    let at = |p: Xy| format!("({},{})", p.x, p.y);
    for a in &view.actions {
        let line = match a.kind {
            ActionKind::Move if a.to == here => format!("moved here from {}", at(a.from)),
            ActionKind::Blocked if a.from == here => {
                format!("its move to {} was blocked", at(a.to))
            }
            ActionKind::Attack if a.from == here => {
                format!("attacked {} for {} damage", at(a.to), a.amount)
            }
            ActionKind::Attack if a.to == here => {
                format!("hit for {} damage from {}", a.amount, at(a.from))
            }
            ActionKind::Harvest if a.from == here => format!("harvested {}", at(a.to)),
            ActionKind::Build | ActionKind::Train if a.to == here => {
                let what = a.what.map_or("something", kind_word);
                format!("{} {what} made by {}", name(a.seat), at(a.from))
            }
            _ => continue,
        };
        lines.push(format!("last turn: {line}"));
    }
    Some(Inspection::square(&grid, ux, uy, lines))
}

/// The board being painted, with this game's drawing.
type Board<'a> = GridBoard<'a, MicroRts>;

impl Board<'_> {
    fn line_width(&self) -> f64 {
        self.line_width_per(24.0)
    }

    fn tile(&self, x: f64, y: f64, wall: bool) {
        let gap = self.ratio.round().max(1.0);
        let (ox, oy) = self.origin(x, y);
        self.ctx.set_fill_style_str(if wall { WALL } else { FLOOR });
        self.ctx
            .fill_rect(ox + gap, oy + gap, self.cell() - gap, self.cell() - gap);
        if wall {
            self.ctx.set_fill_style_str(WALL_EDGE);
            self.ctx.fill_rect(
                ox + gap,
                oy + gap,
                self.cell() - gap,
                (self.cell() * 0.12).max(1.0),
            );
        }
    }

    fn outline(&self, fill: &str, stroke: &str) {
        self.fill_and_stroke(fill, stroke, self.line_width());
    }

    /// [`GridBoard::text`], never smaller than 6 pixels.
    fn label(&self, text: &str, cx: f64, cy: f64, size: f64, colour: &str) {
        self.text(text, cx, cy, size.max(6.0), colour);
    }

    fn entity(&self, e: &EntityView) {
        let (x, y) = (f64::from(e.x), f64::from(e.y));
        match e.kind {
            Kind::Mine => self.mine(x, y, e.health),
            Kind::Forest => self.forest(x, y, e.health),
            Kind::Castle => self.castle(x, y, e.owner),
            Kind::Barracks => self.barracks(x, y, e.owner),
            Kind::Worker => self.unit(x, y, e.owner, "W", 0.26),
            Kind::Light => self.unit(x, y, e.owner, "L", 0.30),
            Kind::Heavy => self.unit(x, y, e.owner, "H", 0.36),
            Kind::Ranged => self.unit(x, y, e.owner, "R", 0.30),
        }
        if e.owner.is_some() {
            self.health_bar(x, y, e.health, e.max_health);
        }
    }

    fn mine(&self, x: f64, y: f64, left: i32) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell() * 0.42;
        self.ctx.begin_path();
        self.ctx.move_to(cx - r, cy + r * 0.55);
        self.ctx.line_to(cx - r * 0.55, cy - r * 0.45);
        self.ctx.line_to(cx + r * 0.2, cy - r * 0.7);
        self.ctx.line_to(cx + r, cy - r * 0.05);
        self.ctx.line_to(cx + r * 0.7, cy + r * 0.55);
        self.ctx.close_path();
        self.outline(GOLD, GOLD_DARK);
        self.label(
            &left.to_string(),
            cx,
            cy + r * 0.05,
            self.cell() * 0.36,
            "#3d2e05",
        );
    }

    fn forest(&self, x: f64, y: f64, left: i32) {
        let (cx, cy) = self.centre(x, y);
        let r = self.cell() * 0.4;
        self.ctx.begin_path();
        self.ctx.move_to(cx, cy - r);
        self.ctx.line_to(cx + r * 0.85, cy + r * 0.6);
        self.ctx.line_to(cx - r * 0.85, cy + r * 0.6);
        self.ctx.close_path();
        self.outline(TREE, TREE_DARK);
        self.ctx.set_fill_style_str(TREE_DARK);
        self.ctx
            .fill_rect(cx - r * 0.12, cy + r * 0.6, r * 0.24, r * 0.32);
        self.label(
            &left.to_string(),
            cx,
            cy + r * 0.2,
            self.cell() * 0.34,
            "#ffffff",
        );
    }

    /// A keep: a square with three merlons on top.
    fn castle(&self, x: f64, y: f64, owner: Option<usize>) {
        let (body, dark) = seat(owner);
        let (cx, cy) = self.centre(x, y);
        let r = self.cell() * 0.38;
        self.keep(cx, r, cy - r * 0.95, cy + r * 0.7);
        self.outline(body, dark);
        self.label("C", cx, cy + r * 0.05, self.cell() * 0.36, "#ffffff");
    }

    /// A house: a square with a roof.
    fn barracks(&self, x: f64, y: f64, owner: Option<usize>) {
        let (body, dark) = seat(owner);
        let (cx, cy) = self.centre(x, y);
        let r = self.cell() * 0.36;
        self.ctx.begin_path();
        self.ctx.move_to(cx - r, cy + r * 0.7);
        self.ctx.line_to(cx - r, cy - r * 0.2);
        self.ctx.line_to(cx, cy - r);
        self.ctx.line_to(cx + r, cy - r * 0.2);
        self.ctx.line_to(cx + r, cy + r * 0.7);
        self.ctx.close_path();
        self.outline(body, dark);
        self.label("B", cx, cy + r * 0.15, self.cell() * 0.34, "#ffffff");
    }

    fn unit(&self, x: f64, y: f64, owner: Option<usize>, letter: &str, size: f64) {
        let (body, dark) = seat(owner);
        let (cx, cy) = self.centre(x, y);
        let r = self.cell() * size;
        self.ctx.begin_path();
        let _ = self.ctx.arc(cx, cy - self.cell() * 0.04, r, 0.0, 2.0 * PI);
        self.outline(body, dark);
        self.label(
            letter,
            cx,
            cy - self.cell() * 0.02,
            self.cell() * (0.2 + size * 0.5),
            "#ffffff",
        );
    }

    fn health_bar(&self, x: f64, y: f64, health: i32, max: i32) {
        if max <= 0 {
            return;
        }
        let (ox, oy) = self.origin(x, y);
        let width = self.cell() * 0.76;
        let height = (self.cell() * 0.09).max(2.0 * self.ratio).round();
        let (bx, by) = (ox + self.cell() * 0.12, oy + self.cell() * 0.86);
        let share = (f64::from(health) / f64::from(max)).clamp(0.0, 1.0);
        self.ctx.set_fill_style_str(HEALTH_BACK);
        self.ctx
            .fill_rect(bx - 1.0, by - 1.0, width + 2.0, height + 2.0);
        self.ctx
            .set_fill_style_str(if share > 0.4 { HEALTH } else { HEALTH_LOW });
        self.ctx.fill_rect(bx, by, width * share, height);
    }

    fn action(&self, a: &ActionView) {
        let (fx, fy) = self.centre(f64::from(a.from.x), f64::from(a.from.y));
        let (tx, ty) = self.centre(f64::from(a.to.x), f64::from(a.to.y));
        let (body, _) = seat(a.seat);
        let lw = self.line_width();
        let ctx = self.ctx;
        ctx.save();
        ctx.set_line_cap("round");
        match a.kind {
            ActionKind::Move => {
                ctx.set_global_alpha(0.55);
                ctx.set_stroke_style_str(body);
                ctx.set_line_width(lw * 3.0);
                line(ctx, fx, fy, tx, ty);
                ctx.set_global_alpha(0.8);
                ctx.set_fill_style_str(body);
                ctx.begin_path();
                let _ = ctx.arc(fx, fy, self.cell() * 0.08, 0.0, 2.0 * PI);
                ctx.fill();
            }
            ActionKind::Blocked => {
                // A short stub towards where it wanted to go, with a cross.
                let (mx, my) = (fx + (tx - fx) * 0.45, fy + (ty - fy) * 0.45);
                ctx.set_global_alpha(0.8);
                ctx.set_stroke_style_str(body);
                ctx.set_line_width(lw * 1.5);
                let _ = ctx.set_line_dash(&dash(&[lw * 2.0, lw * 2.0]));
                line(ctx, fx, fy, mx, my);
                let _ = ctx.set_line_dash(&dash(&[]));
                let c = self.cell() * 0.08;
                line(ctx, mx - c, my - c, mx + c, my + c);
                line(ctx, mx - c, my + c, mx + c, my - c);
            }
            ActionKind::Attack => {
                ctx.set_stroke_style_str(ATTACK);
                ctx.set_line_width(lw * 3.0);
                line(ctx, fx, fy, tx, ty);
                // A burst on the target.
                ctx.set_fill_style_str(ATTACK);
                let spikes = 8;
                let corner = |k: i32| {
                    let r = if k % 2 == 0 {
                        self.cell() * 0.32
                    } else {
                        self.cell() * 0.14
                    };
                    let ang = f64::from(k) * PI / f64::from(spikes);
                    (tx + r * ang.cos(), ty + r * ang.sin())
                };
                polygon(ctx, (0..spikes * 2).map(corner));
                ctx.set_global_alpha(0.9);
                ctx.fill();
                ctx.set_global_alpha(1.0);
                ctx.set_stroke_style_str("#ffffff");
                ctx.set_line_width(lw);
                ctx.stroke();
                self.label(&a.amount.to_string(), tx, ty, self.cell() * 0.28, "#ffffff");
            }
            ActionKind::Harvest => {
                let forest = a.what == Some(Kind::Forest);
                ctx.set_stroke_style_str(if forest { TREE_DARK } else { GOLD_DARK });
                ctx.set_line_width(lw * 2.0);
                let _ = ctx.set_line_dash(&dash(&[lw, lw * 2.5]));
                line(ctx, fx, fy, tx, ty);
            }
            ActionKind::Build | ActionKind::Train => {
                ctx.set_global_alpha(0.8);
                ctx.set_stroke_style_str(body);
                ctx.set_line_width(lw * 1.5);
                let _ = ctx.set_line_dash(&dash(&[lw * 3.0, lw * 2.0]));
                line(ctx, fx, fy, tx, ty);
            }
        }
        ctx.restore();
    }
}

fn line(ctx: &CanvasRenderingContext2d, x0: f64, y0: f64, x1: f64, y1: f64) {
    ctx.begin_path();
    ctx.move_to(x0, y0);
    ctx.line_to(x1, y1);
    ctx.stroke();
}

fn dash(parts: &[f64]) -> wasm_bindgen::JsValue {
    let array = js_sys::Array::new();
    for p in parts {
        array.push(&wasm_bindgen::JsValue::from_f64(*p));
    }
    array.into()
}

#[cfg(test)]
mod tests {
    use games::micro_rts::view::PlayerView;

    use super::*;

    fn entity(
        x: i32,
        y: i32,
        owner: Option<usize>,
        kind: Kind,
        health: i32,
        max: i32,
    ) -> EntityView {
        EntityView {
            x,
            y,
            owner,
            kind,
            health,
            max_health: max,
        }
    }

    fn player(name: &str) -> PlayerView {
        PlayerView {
            name: name.to_string(),
            gold: 5,
            wood: 0,
            materials: 20,
            units: 1,
            buildings: 1,
            lost: None,
            score: None,
        }
    }

    /// An 8 × 8 arena: red's castle at (1,1) and a worker at (2,1) that just moved there from
    /// (2,2); blue's castle at (6,6), its light unit at (5,5) hit by nothing; a wall at (3,3);
    /// a gold mine at (0,7), a forest at (7,0).
    fn view() -> View {
        let mut walls = vec!["........".to_string(); 8];
        walls[3] = "...#....".to_string();
        View {
            width: 8,
            height: 8,
            turn: 4,
            max_turns: 200,
            walls,
            entities: vec![
                entity(1, 1, Some(0), Kind::Castle, 18, 20),
                entity(2, 1, Some(0), Kind::Worker, 1, 1),
                entity(6, 6, Some(1), Kind::Castle, 20, 20),
                entity(5, 5, Some(1), Kind::Light, 3, 4),
                entity(0, 7, None, Kind::Mine, 20, 20),
                entity(7, 0, None, Kind::Forest, 15, 15),
            ],
            actions: vec![
                ActionView {
                    kind: ActionKind::Move,
                    seat: Some(0),
                    from: Xy { x: 2, y: 2 },
                    to: Xy { x: 2, y: 1 },
                    amount: 0,
                    what: Some(Kind::Worker),
                },
                ActionView {
                    kind: ActionKind::Attack,
                    seat: Some(1),
                    from: Xy { x: 5, y: 5 },
                    to: Xy { x: 4, y: 4 },
                    amount: 2,
                    what: None,
                },
            ],
            players: vec![player("red"), player("blue")],
            winner: None,
            over: false,
        }
    }

    /// On a 400 × 400 canvas at ratio 1 the tiles are 48 pixels from (8, 8).
    fn at(x: f64, y: f64) -> Option<Inspection> {
        let (px, py) = (8.0 + 48.0 * x + 24.0, 8.0 + 48.0 * y + 24.0);
        inspect(&view(), 400.0, 400.0, 1.0, px, py)
    }

    #[test]
    fn a_tile_centre_shows_what_stands_there() {
        let castle = at(1.0, 1.0).unwrap();
        assert_eq!(castle.at, (1, 1));
        assert_eq!(castle.cell, "cell (1,1)");
        assert_eq!(castle.lines, ["floor", "red castle: health 18 / 20"]);
        assert_eq!(
            at(2.0, 1.0).unwrap().lines,
            [
                "floor",
                "red worker: health 1 / 1",
                "last turn: moved here from (2,2)"
            ]
        );
        assert_eq!(
            at(5.0, 5.0).unwrap().lines,
            [
                "floor",
                "blue light: health 3 / 4",
                "last turn: attacked (4,4) for 2 damage"
            ]
        );
        assert_eq!(
            at(4.0, 4.0).unwrap().lines,
            ["floor", "last turn: hit for 2 damage from (5,5)"]
        );
        assert_eq!(at(3.0, 3.0).unwrap().lines, ["wall"]);
        assert_eq!(
            at(0.0, 7.0).unwrap().lines,
            ["floor", "gold mine: 20 gold left"]
        );
        assert_eq!(
            at(7.0, 0.0).unwrap().lines,
            ["floor", "forest: 15 wood left"]
        );
        assert_eq!(
            at(6.0, 6.0).unwrap().outline,
            [
                (296.0, 296.0),
                (344.0, 296.0),
                (344.0, 344.0),
                (296.0, 344.0)
            ]
        );
    }

    #[test]
    fn the_margin_shows_nothing() {
        let v = view();
        assert_eq!(inspect(&v, 400.0, 400.0, 1.0, 4.0, 200.0), None);
        assert_eq!(inspect(&v, 400.0, 400.0, 1.0, 200.0, 393.0), None);
    }
}
