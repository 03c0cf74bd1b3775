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
//! Messages appear in a bubble above their agent. League 1's goal tiles are ringed in gold with a
//! dark edge and a dark dot at their centre (the ring shows around an agent standing there).

use std::f64::consts::PI;

use games::soak_overflow::view::{AgentView, View, Xy};
use web_sys::CanvasRenderingContext2d;

use super::grid::Grid;
use super::grid_board::GridBoard;
use super::{seat_name, Inspection};

const BACKGROUND: &str = "#14161b";
pub(super) const FLOOR: &str = "#e9e5d9";
const WATER: &str = "#3fa9f5";
const WATER_DARK: &str = "#1c6fb0";
/// League 1's goal tiles: a gold ring on a dark edge, which reads on the floor and on both
/// territory shades.
const GOAL: &str = "#f0c040";
const GOAL_EDGE: &str = "#222633";
/// Per seat: territory shade, agent fill, agent outline.
pub(super) const SEATS: [(&str, &str, &str); 2] = [
    ("#dbab9f", "#d8413a", "#7e1b16"),
    ("#c3d6f3", "#3b78d8", "#163f86"),
];

/// An agent's disc radius, in cells.
const RADIUS: f64 = 0.33;

fn seat(owner: usize) -> (&'static str, &'static str, &'static str) {
    SEATS[owner.min(1)]
}

/// Soak Overflow's painter (in the page's registry).
pub struct SoakOverflow;

impl super::Painter for SoakOverflow {
    fn read(&self, view: super::FrameView<'_>) -> Option<Box<dyn super::Parsed>> {
        Some(Box::new(view.read(well_formed)?))
    }

    fn palettes(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        let mut tiles: Vec<&str> = SEATS.iter().map(|s| s.0).collect();
        tiles.push(FLOOR);
        vec![
            ("Soak Overflow tiles", tiles),
            ("Soak Overflow agents", SEATS.iter().map(|s| s.1).collect()),
            (
                "Soak Overflow outlines",
                SEATS.iter().map(|s| s.2).collect(),
            ),
        ]
    }
}

board_without_controls!(View, aspect);

/// The grid's width over its height with the room above it for messages (about three quarters
/// of a row): the shape that fits it.
fn aspect(view: &View) -> f64 {
    f64::from(view.width.max(1)) / (f64::from(view.height.max(1)) + 0.75)
}

/// Whether the view is a well-formed Soak Overflow view (one read from JSON may not be).
fn well_formed(view: &View) -> bool {
    let cells = usize::try_from(view.width)
        .ok()
        .zip(usize::try_from(view.height).ok())
        .and_then(|(w, h)| w.checked_mul(h));
    let inside = |p: &Xy| (0..view.width).contains(&p.x) && (0..view.height).contains(&p.y);
    cells.is_some_and(|n| n > 0 && view.tiles.len() == n && view.control.len() == n)
        && view.goals.iter().all(inside)
}

/// Where the grid sits on a `w × h` canvas, with room above for the top row's messages: what
/// painting and inspecting share.
fn layout(view: &View, w: f64, h: f64, ratio: f64) -> Grid {
    Grid::fit(
        view.width as usize,
        view.height as usize,
        w,
        h,
        (6.0 * ratio).round(),
        (18.0 * ratio).round(),
    )
}

/// Draws the view.
pub fn paint(ctx: &CanvasRenderingContext2d, view: &View, w: f64, h: f64, ratio: f64) {
    let grid = layout(view, w, h, ratio);
    let b = Board::new(ctx, grid, ratio);
    let cells = (view.width * view.height) as usize;

    ctx.set_fill_style_str(BACKGROUND);
    ctx.fill_rect(
        grid.left - 1.0,
        grid.top - 1.0,
        grid.cell * f64::from(view.width) + 2.0,
        grid.cell * f64::from(view.height) + 2.0,
    );
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
    for g in &view.goals {
        b.goal(g.x, g.y);
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
}

/// What stands on the tile under the canvas point `(px, py)`: floor or cover, who controls it,
/// the agent there with its numbers, and the shots, bombs and moves of the turn that touch it.
pub fn inspect(view: &View, w: f64, h: f64, ratio: f64, px: f64, py: f64) -> Option<Inspection> {
    let grid = layout(view, w, h, ratio);
    let (ux, uy) = grid.cell_at(px, py)?;
    let (x, y) = (ux as i32, uy as i32);
    let i = uy * view.width as usize + ux;
    let name = |o: usize| seat_name("soak-overflow", o);
    let at = |p: Xy| format!("({},{})", p.x, p.y);
    let mut lines = vec![match view.tiles[i] {
        1 => "low cover".to_string(),
        2 => "high cover".to_string(),
        _ => "floor".to_string(),
    }];
    lines.push(match view.control[i] {
        Some(o) => format!("controlled by {}", name(o)),
        None => "controlled by nobody".to_string(),
    });
    if view.goals.contains(&Xy { x, y }) {
        lines.push("goal tile: one of red's two agents must stand here".to_string());
    }
    for a in view.agents.iter().filter(|a| (a.x, a.y) == (x, y)) {
        lines.push(format!(
            "{} agent {} ({}): wetness {}",
            name(a.owner),
            a.id,
            a.class,
            a.wetness
        ));
        lines.push(format!(
            "cooldown {} (reload time {}), optimal range {}, soaking power {}, splash bombs {}",
            a.cooldown, a.shoot_cooldown, a.optimal_range, a.soaking_power, a.bombs
        ));
        if a.hunkered {
            lines.push("hunkered down this turn".to_string());
        }
        if a.soaked {
            lines.push("soaked: leaves the grid".to_string());
        }
        if let Some(m) = &a.message {
            lines.push(format!("says “{m}”"));
        }
    }
    let here = Xy { x, y };
    for s in &view.shots {
        if s.to == here {
            lines.push(format!(
                "shot by agent {} from {}: +{} wetness",
                s.shooter,
                at(s.from),
                s.damage
            ));
        }
        if s.from == here {
            lines.push(format!(
                "shot agent {} at {}: +{} wetness",
                s.target,
                at(s.to),
                s.damage
            ));
        }
    }
    for t in &view.throws {
        if (t.target.x - x).abs() <= 1 && (t.target.y - y).abs() <= 1 {
            lines.push(format!(
                "splashed by agent {}'s bomb landing at {}",
                t.thrower,
                at(t.target)
            ));
        }
    }
    for m in &view.moves {
        if m.done && m.to == here {
            lines.push(format!("agent {} moved here from {}", m.id, at(m.from)));
        } else if !m.done && m.from == here {
            lines.push(format!(
                "agent {}'s move to {} was cancelled by a collision",
                m.id,
                at(m.to)
            ));
        }
    }
    Some(Inspection::square(&grid, ux, uy, lines))
}

/// The board being painted, with this game's drawing.
type Board<'a> = GridBoard<'a, SoakOverflow>;

impl Board<'_> {
    /// The centre of cell `(x, y)`, in whole cells.
    fn centre_of(&self, x: i32, y: i32) -> (f64, f64) {
        self.centre(f64::from(x), f64::from(y))
    }

    fn line_width(&self) -> f64 {
        self.line_width_per(22.0)
    }

    fn font(&self, size: f64, bold: bool) {
        let weight = if bold { "bold " } else { "" };
        self.ctx.set_font(&format!(
            "{weight}{:.0}px system-ui, sans-serif",
            size.max(6.0)
        ));
    }

    /// A raised block: a low cover is a short wall in the lower half of its tile, a high cover
    /// a tall, darker block filling it.
    fn cover(&self, x: f64, y: f64, high: bool) {
        let (ox, oy) = self.origin(x, y);
        let c = self.cell();
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

    /// A goal tile (league 1): a gold ring on a dark edge, wider than an agent's disc so that it
    /// still shows around an agent standing there, and a dark dot at its centre.
    fn goal(&self, x: i32, y: i32) {
        let (cx, cy) = self.centre_of(x, y);
        let lw = self.line_width();
        self.ctx.begin_path();
        let _ = self.ctx.arc(cx, cy, self.cell() * 0.38, 0.0, 2.0 * PI);
        self.ctx.set_stroke_style_str(GOAL_EDGE);
        self.ctx.set_line_width(lw * 4.0);
        self.ctx.stroke();
        self.ctx.set_stroke_style_str(GOAL);
        self.ctx.set_line_width(lw * 2.2);
        self.ctx.stroke();
        self.ctx.begin_path();
        let _ = self.ctx.arc(cx, cy, self.cell() * 0.09, 0.0, 2.0 * PI);
        self.ctx.set_fill_style_str(GOAL_EDGE);
        self.ctx.fill();
    }

    fn trail(&self, fx: i32, fy: i32, tx: i32, ty: i32, done: bool) {
        let (ax, ay) = self.centre_of(fx, fy);
        let (bx, by) = self.centre_of(tx, ty);
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
            self.cell() * f64::from(x1 - x0),
            self.cell() * f64::from(y1 - y0),
        );
        self.ctx.set_global_alpha(0.35);
        self.ctx.set_fill_style_str(WATER);
        self.ctx.fill_rect(ox, oy, sw, sh);
        self.ctx.set_global_alpha(0.9);
        self.ctx.set_stroke_style_str(WATER_DARK);
        self.ctx.set_line_width(self.line_width());
        self.ctx.stroke_rect(ox, oy, sw, sh);
        self.ctx.set_global_alpha(1.0);
        let (cx, cy) = self.centre_of(x, y);
        self.ctx.begin_path();
        let _ = self.ctx.arc(cx, cy, self.cell() * 0.18, 0.0, 2.0 * PI);
        self.ctx.set_fill_style_str(WATER_DARK);
        self.ctx.fill();
    }

    /// The bomb's flight: an arc from the thrower to the target.
    fn lob(&self, fx: i32, fy: i32, tx: i32, ty: i32, colour: &str) {
        let (ax, ay) = self.centre_of(fx, fy);
        let (bx, by) = self.centre_of(tx, ty);
        // Bend the flight sideways from the straight line, upwards when it can.
        let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt().max(1.0);
        let (mut nx, mut ny) = ((ay - by) / len, (bx - ax) / len);
        if ny > 0.0 || (ny == 0.0 && nx > 0.0) {
            (nx, ny) = (-nx, -ny);
        }
        let lift = self.cell() * 0.4 + len * 0.25;
        let (qx, qy) = ((ax + bx) / 2.0 + nx * lift, (ay + by) / 2.0 + ny * lift);
        self.ctx.set_stroke_style_str(colour);
        self.ctx.set_line_width(self.line_width() * 1.5);
        self.ctx.begin_path();
        self.ctx.move_to(ax, ay);
        self.ctx.quadratic_curve_to(qx, qy, bx, by);
        self.ctx.stroke();
    }

    fn shot(&self, fx: i32, fy: i32, tx: i32, ty: i32, colour: &str, damage: i32) {
        let (cx0, cy0) = self.centre_of(fx, fy);
        let (cx1, cy1) = self.centre_of(tx, ty);
        // From disc edge to disc edge, so that the ids stay readable.
        let len = ((cx1 - cx0).powi(2) + (cy1 - cy0).powi(2)).sqrt().max(1.0);
        let cut = (self.cell() * RADIUS).min(len / 2.0);
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
        let size = self.cell() * 0.4;
        self.font(size, true);
        self.ctx.set_text_align("center");
        self.ctx.set_text_baseline("middle");
        let (px, py) = (cx1 + self.cell() * 0.42, cy1 - self.cell() * 0.4);
        self.ctx.set_line_width(self.line_width() * 2.5);
        self.ctx.set_stroke_style_str("#ffffff");
        let _ = self.ctx.stroke_text(&text, px, py);
        self.ctx.set_fill_style_str(WATER_DARK);
        let _ = self.ctx.fill_text(&text, px, py);
    }

    fn agent(&self, a: &AgentView) {
        let (cx, cy) = self.centre_of(a.x, a.y);
        let r = self.cell() * RADIUS;
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
        let (id, size) = (a.id.to_string(), (self.cell() * 0.36).max(6.0));
        self.text(&id, cx, cy + self.cell() * 0.02, size, "#ffffff");
        // The wetness bar under the disc.
        let (ox, oy) = self.origin(f64::from(a.x), f64::from(a.y));
        let bar_w = self.cell() * 0.8;
        let bar_h = (self.cell() * 0.11).max(self.ratio * 3.0);
        let bx = ox + (self.cell() - bar_w) / 2.0;
        let by = oy + self.cell() - bar_h - self.cell() * 0.02;
        self.ctx.set_fill_style_str("#222633");
        self.ctx
            .fill_rect(bx - 1.0, by - 1.0, bar_w + 2.0, bar_h + 2.0);
        self.ctx.set_fill_style_str("#ffffff");
        self.ctx.fill_rect(bx, by, bar_w, bar_h);
        self.ctx
            .set_fill_style_str(if a.wetness >= 50 { WATER_DARK } else { WATER });
        self.ctx.fill_rect(bx, by, bar_w * wet, bar_h);
        // Splash bombs: dots at the top left.
        let dot = self.cell() * 0.06;
        for k in 0..a.bombs.clamp(0, 5) {
            self.ctx.begin_path();
            let _ = self.ctx.arc(
                ox + self.cell() * 0.1 + f64::from(k) * dot * 2.6,
                oy + self.cell() * 0.1,
                dot,
                0.0,
                2.0 * PI,
            );
            self.ctx.set_fill_style_str("#222633");
            self.ctx.fill();
        }
        // Cooldown: a small badge at the top right.
        if a.cooldown > 0 {
            let size = self.cell() * 0.24;
            let (px, py) = (ox + self.cell() * 0.86, oy + self.cell() * 0.14);
            self.ctx.begin_path();
            let _ = self.ctx.arc(px, py, size * 0.62, 0.0, 2.0 * PI);
            self.ctx.set_fill_style_str("#f0c040");
            self.ctx.fill();
            self.text(&a.cooldown.to_string(), px, py, size.max(6.0), "#222633");
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
        let size = (self.cell() * 0.3).max(10.0 * self.ratio);
        self.font(size, false);
        // An estimate (measuring text needs a web-sys feature the page does not enable).
        let width = size * 0.56 * shown.chars().count() as f64;
        let pad = size * 0.35;
        let (cx, _) = self.centre_of(x, y);
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

#[cfg(test)]
mod tests {
    use games::soak_overflow::view::{PlayerView, ShotView, ThrowView};

    use super::*;

    fn agent(id: i32, owner: usize, x: i32, y: i32, wetness: i32) -> AgentView {
        AgentView {
            id,
            owner,
            class: "gunner".to_string(),
            x,
            y,
            wetness,
            cooldown: 1,
            shoot_cooldown: 1,
            optimal_range: 4,
            soaking_power: 16,
            bombs: 1,
            hunkered: false,
            soaked: false,
            message: None,
        }
    }

    fn player(name: &str) -> PlayerView {
        PlayerView {
            name: name.to_string(),
            points: 0,
            tiles: 0,
            gained: 0,
            agents: 1,
            lost: None,
            score: None,
        }
    }

    /// A 10 × 5 grid: red's agent 1 at (1,2) shot blue's agent 2 at (6,2) this turn; a low
    /// cover at (3,2), a high one at (4,0); red controls the left half; agent 2 hunkered and
    /// says "hi"; a bomb from agent 1 landed at (8,4).
    fn view() -> View {
        let mut tiles = vec![0u8; 50];
        tiles[2 * 10 + 3] = 1;
        tiles[4] = 2;
        let control = (0..50)
            .map(|i| if i % 10 < 5 { Some(0) } else { None })
            .collect();
        let mut blue = agent(2, 1, 6, 2, 36);
        blue.class = "sniper".to_string();
        blue.hunkered = true;
        blue.message = Some("hi".to_string());
        View {
            width: 10,
            height: 5,
            turn: 2,
            max_turns: 100,
            tiles,
            control,
            agents: vec![agent(1, 0, 1, 2, 0), blue],
            moves: Vec::new(),
            shots: vec![ShotView {
                shooter: 1,
                target: 2,
                from: Xy { x: 1, y: 2 },
                to: Xy { x: 6, y: 2 },
                damage: 12,
            }],
            throws: vec![ThrowView {
                thrower: 1,
                from: Xy { x: 1, y: 2 },
                target: Xy { x: 8, y: 4 },
                hit: Vec::new(),
            }],
            players: vec![player("red"), player("blue")],
            over: false,
            winner: None,
            goals: Vec::new(),
        }
    }

    /// On a 500 × 300 canvas at ratio 1: a 6-pixel margin and 18 pixels of room above give
    /// 48-pixel tiles, the grid from (10, 30).
    fn at(x: f64, y: f64) -> Option<Inspection> {
        let (px, py) = (10.0 + 48.0 * x + 24.0, 30.0 + 48.0 * y + 24.0);
        inspect(&view(), 500.0, 300.0, 1.0, px, py)
    }

    #[test]
    fn a_tile_centre_shows_what_stands_there() {
        let red = at(1.0, 2.0).unwrap();
        assert_eq!(red.at, (1, 2));
        assert_eq!(red.cell, "cell (1,2)");
        assert_eq!(
            red.lines,
            [
                "floor",
                "controlled by red",
                "red agent 1 (gunner): wetness 0",
                "cooldown 1 (reload time 1), optimal range 4, soaking power 16, splash bombs 1",
                "shot agent 2 at (6,2): +12 wetness",
            ]
        );
        let blue = at(6.0, 2.0).unwrap();
        assert_eq!(
            blue.lines[..3],
            [
                "floor",
                "controlled by nobody",
                "blue agent 2 (sniper): wetness 36"
            ]
        );
        assert_eq!(
            blue.lines[4..],
            [
                "hunkered down this turn",
                "says “hi”",
                "shot by agent 1 from (1,2): +12 wetness"
            ]
        );
        assert_eq!(
            at(3.0, 2.0).unwrap().lines,
            ["low cover", "controlled by red"]
        );
        assert_eq!(
            at(4.0, 0.0).unwrap().lines,
            ["high cover", "controlled by red"]
        );
        assert_eq!(
            at(9.0, 3.0).unwrap().lines,
            [
                "floor",
                "controlled by nobody",
                "splashed by agent 1's bomb landing at (8,4)"
            ]
        );
        assert_eq!(
            at(0.0, 0.0).unwrap().outline,
            [(10.0, 30.0), (58.0, 30.0), (58.0, 78.0), (10.0, 78.0)]
        );
    }

    #[test]
    fn league_1_goal_tiles_say_so_and_must_lie_on_the_grid() {
        let mut v = view();
        v.goals = vec![Xy { x: 6, y: 1 }, Xy { x: 6, y: 3 }];
        let centre = |x: f64, y: f64| (10.0 + 48.0 * x + 24.0, 30.0 + 48.0 * y + 24.0);
        let (px, py) = centre(6.0, 1.0);
        let goal = inspect(&v, 500.0, 300.0, 1.0, px, py).unwrap();
        assert_eq!(
            goal.lines,
            [
                "floor",
                "controlled by nobody",
                "goal tile: one of red's two agents must stand here"
            ]
        );
        let (px, py) = centre(6.0, 2.0);
        let beside = inspect(&v, 500.0, 300.0, 1.0, px, py).unwrap();
        assert!(!beside.lines.iter().any(|l| l.contains("goal")));
        assert!(well_formed(&v));
        v.goals.push(Xy { x: 10, y: 0 });
        assert!(!well_formed(&v), "a goal off the grid");
    }

    #[test]
    fn the_margin_and_the_room_above_show_nothing() {
        let v = view();
        assert_eq!(inspect(&v, 500.0, 300.0, 1.0, 250.0, 20.0), None);
        assert_eq!(inspect(&v, 500.0, 300.0, 1.0, 5.0, 100.0), None);
        assert_eq!(inspect(&v, 500.0, 300.0, 1.0, 250.0, 275.0), None);
    }
}
