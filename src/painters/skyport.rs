//! Skyport: the hex board with its tiles, the robots (seat colour, health bar, destroyed ones
//! crossed out) and what the last turn did — steps, laser beams, mortar blasts and droid paths,
//! with the damage dealt — plus a panel listing each robot's health, score, weapons and levels.
//!
//! Tiles are flat-topped hexagons: `(j, k)` has its centre at `(1.5·s·(k − j), 0.866·s·(j + k))`
//! for a hexagon of radius `s`, so (0,0) is at the top, J runs down-left and K down-right. Void
//! tiles are not drawn, and the view is cropped to the tiles that are.

use std::f64::consts::PI;

use games::skyport::view::{ActionView, View};
use web_sys::CanvasRenderingContext2d;

use super::{ink_on, polygon, Inspection};

const GRASS: &str = "#55704a";
const GRASS_EDGE: &str = "#3f5537";
const ROCK: &str = "#77726b";
const ROCK_EDGE: &str = "#4a4641";
const SPAWN: &str = "#cfc8b2";
const RUBIDIUM: &str = "#d8457a";
const EXPLOSIUM: &str = "#f0a030";
const SCRAP: &str = "#9fb3c2";
const TEXT: &str = "#e8e4d8";
const DIM: &str = "#9a968c";
const LASER: &str = "#ff5a5a";
const BLAST: &str = "#ffcf40";

/// Seat colours: the page's first four, then four more.
const SEATS: [&str; 8] = [
    "#d8413a", "#3b78d8", "#aa3377", "#e0b5ff", "#f0e442", "#d88f1f", "#1fb5b5", "#f4f1e8",
];

fn seat(s: usize) -> &'static str {
    SEATS[s % SEATS.len()]
}

/// Skyport's painter (in the page's registry).
pub struct Skyport;

impl super::Painter for Skyport {
    fn read(&self, view: super::FrameView<'_>) -> Option<Box<dyn super::Parsed>> {
        Some(Box::new(view.read(well_formed)?))
    }

    fn palettes(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        vec![("Skyport players", SEATS.to_vec())]
    }

    /// Up to eight ships: eight colours of their own.
    fn seat_colour(&self, s: usize) -> &'static str {
        seat(s)
    }
}

board_without_controls!(View);

/// Whether the view is a well-formed Skyport view (one read from JSON may not be).
fn well_formed(view: &View) -> bool {
    view.size > 0 && view.size.checked_mul(view.size) == Some(view.tiles.len())
}

/// Where everything sits on the canvas: the robots' panel (a column on the left of a wide
/// canvas, rows on top of a narrow one) and the hex board beside it. Painting and inspecting
/// share it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    /// Whether the robots' panel is drawn (not on a small wide canvas, such as the landing
    /// page's card, where it would leave the board a corner; the page lists the robots anyway).
    panel: bool,
    /// The panel's columns of robots, its line height and the width of one column.
    columns: usize,
    line: f64,
    column_width: f64,
    /// The board's box (anything beyond is clipped): x, y, width, height.
    clip: (f64, f64, f64, f64),
    /// The hexagons' radius and where tile (0,0)'s centre is.
    s: f64,
    ox: f64,
    oy: f64,
}

/// A wide canvas narrower than this (CSS pixels) shows the board without the robots' panel.
const SMALL_WIDE_CANVAS: f64 = 480.0;

/// The layout on a `w × h` canvas; `None` when there is no room or no tile to show.
fn layout(view: &View, w: f64, h: f64, ratio: f64) -> Option<Layout> {
    let d = view.size;
    let tiles = view.tiles.as_bytes();
    let margin = 8.0 * ratio;
    let wide = w >= 1.25 * h;
    let columns = if wide {
        1
    } else {
        view.players.len().clamp(1, 4)
    };
    let rows = view.players.len().div_ceil(columns).max(1);
    let line = if wide {
        (h / (rows as f64 * 4.4 + 2.0)).clamp(9.0 * ratio, 15.0 * ratio)
    } else {
        (h * 0.04).clamp(9.0 * ratio, 14.0 * ratio)
    };
    let shown = !(wide && w < SMALL_WIDE_CANVAS * ratio);
    let panel = if !shown {
        0.0
    } else if wide {
        (w * 0.26).clamp(150.0 * ratio, 240.0 * ratio)
    } else {
        margin + line * (1.8 + 4.2 * rows as f64)
    };
    let (bx, by, bw, bh) = if wide || !shown {
        (
            panel + margin,
            margin,
            w - panel - 2.0 * margin,
            h - 2.0 * margin,
        )
    } else {
        (
            margin,
            panel + margin,
            w - 2.0 * margin,
            h - panel - 2.0 * margin,
        )
    };
    // Fit the tiles robots can stand on (and one more around), in units of s:
    // x = 1.5 (k − j), y = 0.866 (j + k). Anything beyond is clipped.
    let mut lo = (f64::MAX, f64::MAX);
    let mut hi = (f64::MIN, f64::MIN);
    for j in 0..d {
        for k in 0..d {
            if matches!(tiles[j * d + k], b'G' | b'E' | b'R' | b'C' | b'S') {
                let (x, y) = unit(j as f64, k as f64);
                lo = (lo.0.min(x), lo.1.min(y));
                hi = (hi.0.max(x), hi.1.max(y));
            }
        }
    }
    if lo.0 > hi.0 || bw <= 0.0 || bh <= 0.0 {
        return None;
    }
    let s = (bw / (hi.0 - lo.0 + 4.0))
        .min(bh / (hi.1 - lo.1 + 3.5))
        .max(2.0);
    let pad = 8.0 * ratio;
    Some(Layout {
        panel: shown,
        columns,
        line,
        column_width: if wide {
            panel
        } else {
            (w - 2.0 * pad) / columns as f64
        },
        clip: (bx, by, bw, bh),
        s,
        ox: bx + (bw - (hi.0 - lo.0) * s) / 2.0 - lo.0 * s,
        oy: by + (bh - (hi.1 - lo.1) * s) / 2.0 - lo.1 * s,
    })
}

impl Layout {
    /// The centre of tile `[j, k]`.
    fn centre(&self, at: [i32; 2]) -> (f64, f64) {
        let (x, y) = unit(f64::from(at[0]), f64::from(at[1]));
        (self.ox + x * self.s, self.oy + y * self.s)
    }

    /// The tile whose hexagon holds the canvas point, if the point is inside the board's box:
    /// the nearest centre (hexagons tile the plane, so the nearest centre is the one whose
    /// hexagon it is), found among the four lattice points around the point.
    fn tile_at(&self, px: f64, py: f64) -> Option<[i32; 2]> {
        let (bx, by, bw, bh) = self.clip;
        if px < bx || py < by || px > bx + bw || py > by + bh {
            return None;
        }
        let (ux, uy) = ((px - self.ox) / self.s, (py - self.oy) / self.s);
        // x = 1.5 (k − j) and y = 0.866 (j + k), solved for j and k.
        let (a, b) = (ux / 1.5, uy / SIN_60);
        let (j, k) = (((b - a) / 2.0).floor(), ((b + a) / 2.0).floor());
        let mut best = None;
        let mut nearest = f64::MAX;
        for (dj, dk) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            let (cx, cy) = unit(j + dj, k + dk);
            let d = (cx - ux).powi(2) + (cy - uy).powi(2);
            if d < nearest {
                nearest = d;
                best = Some([(j + dj) as i32, (k + dk) as i32]);
            }
        }
        best
    }

    /// The hexagon of tile `at`, corner by corner, of radius `r` hexagon radii.
    fn hexagon(&self, at: [i32; 2], r: f64) -> Vec<(f64, f64)> {
        let (x, y) = self.centre(at);
        hexagon_corners(x, y, r * self.s).collect()
    }
}

/// The corners of the hexagon of radius `r` (in pixels) round `(x, y)`.
fn hexagon_corners(x: f64, y: f64, r: f64) -> impl Iterator<Item = (f64, f64)> {
    (0..6).map(move |i| {
        let a = f64::from(i) * PI / 3.0;
        (x + r * a.cos(), y + r * a.sin())
    })
}

/// Draws the view; false when there is nothing to draw it in.
pub fn paint(ctx: &CanvasRenderingContext2d, view: &View, w: f64, h: f64, ratio: f64) -> bool {
    let Some(layout) = layout(view, w, h, ratio) else {
        return false;
    };
    let d = view.size;
    let tiles = view.tiles.as_bytes();
    let s = layout.s;
    let (bx, by, bw, bh) = layout.clip;
    ctx.save();
    ctx.begin_path();
    ctx.rect(bx, by, bw, bh);
    ctx.clip();
    let board = Board { ctx, layout, ratio };

    for j in 0..d {
        for k in 0..d {
            board.tile(j, k, tiles[j * d + k]);
        }
    }
    // Spawn tiles ringed in their robot's colour.
    for (i, p) in view.players.iter().enumerate() {
        let (x, y) = board.centre(p.spawn);
        ctx.set_stroke_style_str(seat(i));
        ctx.set_line_width((s * 0.12).max(ratio));
        ctx.begin_path();
        let _ = ctx.arc(x, y, s * 0.55, 0.0, 2.0 * PI);
        ctx.stroke();
    }
    for a in &view.actions {
        board.action(a);
    }
    for (i, p) in view.players.iter().enumerate() {
        board.robot(i, p.position, p.health, view.to_move == Some(i));
    }
    for hit in &view.hits {
        let (x, y) = board.centre(hit.at);
        ctx.set_font(&format!(
            "bold {:.0}px system-ui, sans-serif",
            (s * 0.62).max(9.0 * ratio)
        ));
        ctx.set_text_align("center");
        ctx.set_text_baseline("middle");
        ctx.set_line_width((s * 0.12).max(ratio));
        ctx.set_stroke_style_str("#14161b");
        let text = if hit.killed {
            format!("−{} ✕", hit.damage)
        } else {
            format!("−{}", hit.damage)
        };
        let _ = ctx.stroke_text(&text, x + s * 0.55, y - s * 0.75);
        ctx.set_fill_style_str(if hit.reflected { "#ffd0d0" } else { "#ff6b6b" });
        let _ = ctx.fill_text(&text, x + s * 0.55, y - s * 0.75);
    }
    ctx.restore();
    if layout.panel {
        draw_panel(ctx, view, &layout, ratio);
    }
    true
}

/// A tile letter in words.
fn tile_word(letter: u8) -> Option<&'static str> {
    Some(match letter {
        b'G' => "grass",
        b'E' => "explosium deposit",
        b'R' => "rubidium deposit",
        b'C' => "scrap deposit",
        b'S' => "spawn tile",
        b'O' => "rock: no robot can stand here",
        _ => return None,
    })
}

/// What is on the tile under the canvas point `(px, py)`: the tile, whose spawn it is, the
/// robot there with its health, score, weapons and resources, and the last turn's hits, mining
/// and shells there. Void tiles (not drawn) and points off the board give nothing.
pub fn inspect(view: &View, w: f64, h: f64, ratio: f64, px: f64, py: f64) -> Option<Inspection> {
    let layout = layout(view, w, h, ratio)?;
    let at = layout.tile_at(px, py)?;
    let d = view.size as i32;
    let [j, k] = at;
    if j < 0 || k < 0 || j >= d || k >= d {
        return None;
    }
    let word = tile_word(view.tiles.as_bytes()[(j * d + k) as usize])?;
    let robot = |i: usize| format!("robot {} ({})", i + 1, view.players[i].name);
    let mut lines = vec![word.to_string()];
    for (i, p) in view.players.iter().enumerate() {
        if p.spawn == at {
            lines.push(format!("spawn of {}", robot(i)));
        }
    }
    for (i, p) in view
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.position == at)
    {
        let state = if p.health > 0 {
            format!("health {}", p.health)
        } else if p.waiting {
            "destroyed, respawns after missing a turn".to_string()
        } else {
            "destroyed".to_string()
        };
        let next = if view.to_move == Some(i) {
            ", moves next"
        } else {
            ""
        };
        lines.push(format!("{}: {state}, score {}{next}", robot(i), p.score));
        if !p.weapons.is_empty() {
            let kit: Vec<String> = p.weapons.iter().map(|(w, l)| format!("{w} {l}")).collect();
            lines.push(format!("weapons: {}", kit.join(", ")));
        }
        let [r, e, c] = p.resources;
        lines.push(format!(
            "rubidium {r}, explosium {e}, scrap {c}; kills {}, deaths {}",
            p.kills, p.deaths
        ));
    }
    for hit in view.hits.iter().filter(|hit| hit.at == at) {
        let how = if hit.killed { ", destroyed" } else { "" };
        let back = if hit.reflected { " (reflected)" } else { "" };
        lines.push(format!(
            "last turn: robot {} took −{} from robot {}{back}{how}",
            hit.seat + 1,
            hit.damage,
            hit.by + 1
        ));
    }
    for a in &view.actions {
        let line = match a {
            ActionView::Mine {
                seat,
                at: mined,
                resource,
            } if *mined == at => format!("robot {} mined {resource} here", seat + 1),
            ActionView::Mortar {
                seat,
                target,
                exploded,
                ..
            } if *target == at => {
                let what = if *exploded {
                    "exploded"
                } else {
                    "fell without exploding"
                };
                format!("robot {}'s mortar shell {what} here", seat + 1)
            }
            ActionView::Droid { seat, path } if path.last() == Some(&at) => {
                format!("robot {}'s droid exploded here", seat + 1)
            }
            _ => continue,
        };
        lines.push(format!("last turn: {line}"));
    }
    Some(Inspection {
        at: (j, k),
        cell: format!("tile {j},{k} (j,k)"),
        lines,
        outline: layout.hexagon(at, 1.0),
    })
}

/// sin 60°: a hexagon's half height, in radii.
const SIN_60: f64 = 0.866_025_4;

/// A tile's centre in units of the hexagon radius.
fn unit(j: f64, k: f64) -> (f64, f64) {
    (1.5 * (k - j), SIN_60 * (j + k))
}

struct Board<'a> {
    ctx: &'a CanvasRenderingContext2d,
    layout: Layout,
    ratio: f64,
}

impl Board<'_> {
    fn centre(&self, at: [i32; 2]) -> (f64, f64) {
        self.layout.centre(at)
    }

    fn s(&self) -> f64 {
        self.layout.s
    }

    fn hexagon(&self, x: f64, y: f64, r: f64) {
        polygon(self.ctx, hexagon_corners(x, y, r));
    }

    fn tile(&self, j: usize, k: usize, letter: u8) {
        let (fill, edge) = match letter {
            b'V' => return,
            b'O' => (ROCK, ROCK_EDGE),
            b'S' => (SPAWN, "#8f8a7a"),
            _ => (GRASS, GRASS_EDGE),
        };
        let (x, y) = self.centre([j as i32, k as i32]);
        self.hexagon(x, y, self.s() * 0.97);
        self.ctx.set_fill_style_str(fill);
        self.ctx.fill();
        self.ctx.set_stroke_style_str(edge);
        self.ctx.set_line_width(self.ratio.max(self.s() * 0.05));
        self.ctx.stroke();
        let gem = match letter {
            b'R' => RUBIDIUM,
            b'E' => EXPLOSIUM,
            b'C' => SCRAP,
            b'O' => {
                // A boulder.
                self.ctx.begin_path();
                let _ = self.ctx.ellipse(
                    x,
                    y + self.s() * 0.1,
                    self.s() * 0.5,
                    self.s() * 0.34,
                    0.0,
                    0.0,
                    2.0 * PI,
                );
                self.ctx.set_fill_style_str("#5d5853");
                self.ctx.fill();
                return;
            }
            _ => return,
        };
        let r = self.s() * 0.38;
        self.ctx.begin_path();
        self.ctx.move_to(x, y - r);
        self.ctx.line_to(x + r * 0.75, y);
        self.ctx.line_to(x, y + r);
        self.ctx.line_to(x - r * 0.75, y);
        self.ctx.close_path();
        self.ctx.set_fill_style_str(gem);
        self.ctx.fill();
        self.ctx.set_stroke_style_str("#1d1f24");
        self.ctx.set_line_width(self.ratio.max(self.s() * 0.04));
        self.ctx.stroke();
    }

    fn line(&self, from: (f64, f64), to: (f64, f64), colour: &str, width: f64) {
        self.ctx.begin_path();
        self.ctx.move_to(from.0, from.1);
        self.ctx.line_to(to.0, to.1);
        self.ctx.set_stroke_style_str(colour);
        self.ctx.set_line_width(width);
        self.ctx.stroke();
    }

    fn blast(&self, at: [i32; 2], colour: &str) {
        let (x, y) = self.centre(at);
        // The tile and its six neighbours.
        self.ctx.set_global_alpha(0.28);
        self.ctx.begin_path();
        let _ = self.ctx.arc(x, y, self.s() * 2.45, 0.0, 2.0 * PI);
        self.ctx.set_fill_style_str(colour);
        self.ctx.fill();
        self.ctx.set_global_alpha(1.0);
        self.ctx.begin_path();
        let _ = self.ctx.arc(x, y, self.s() * 0.8, 0.0, 2.0 * PI);
        self.ctx.set_stroke_style_str(colour);
        self.ctx.set_line_width((self.s() * 0.14).max(self.ratio));
        self.ctx.stroke();
    }

    fn action(&self, a: &ActionView) {
        let s = self.s();
        match a {
            ActionView::Move {
                seat: who,
                from,
                to,
            } => {
                self.ctx.set_global_alpha(0.8);
                self.line(
                    self.centre(*from),
                    self.centre(*to),
                    seat(*who),
                    (s * 0.16).max(self.ratio),
                );
                self.ctx.set_global_alpha(1.0);
            }
            ActionView::Laser { from, to, .. } => {
                let (a, b) = (self.centre(*from), self.centre(*to));
                self.ctx.set_global_alpha(0.35);
                self.line(a, b, LASER, s * 0.5);
                self.ctx.set_global_alpha(1.0);
                self.line(a, b, "#ffe0e0", (s * 0.12).max(self.ratio));
            }
            ActionView::Mortar {
                from,
                target,
                exploded,
                ..
            } => {
                let (a, b) = (self.centre(*from), self.centre(*target));
                // The shell's arc.
                self.ctx.begin_path();
                self.ctx.move_to(a.0, a.1);
                let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0 - s * 1.6);
                self.ctx.quadratic_curve_to(mx, my, b.0, b.1);
                self.ctx.set_stroke_style_str(BLAST);
                self.ctx.set_line_width((s * 0.1).max(self.ratio));
                let _ = self.ctx.set_line_dash(&js_dash(s * 0.3));
                self.ctx.stroke();
                let _ = self.ctx.set_line_dash(&js_dash(0.0));
                if *exploded {
                    self.blast(*target, BLAST);
                } else {
                    self.line(
                        (b.0 - s * 0.3, b.1 - s * 0.3),
                        (b.0 + s * 0.3, b.1 + s * 0.3),
                        DIM,
                        s * 0.12,
                    );
                    self.line(
                        (b.0 - s * 0.3, b.1 + s * 0.3),
                        (b.0 + s * 0.3, b.1 - s * 0.3),
                        DIM,
                        s * 0.12,
                    );
                }
            }
            ActionView::Droid { seat: who, path } => {
                if let (Some(first), Some(last)) = (path.first(), path.last()) {
                    self.ctx.begin_path();
                    let (x, y) = self.centre(*first);
                    self.ctx.move_to(x, y);
                    for p in path.iter().skip(1) {
                        let (x, y) = self.centre(*p);
                        self.ctx.line_to(x, y);
                    }
                    self.ctx.set_stroke_style_str(seat(*who));
                    self.ctx.set_line_width((s * 0.18).max(self.ratio));
                    let _ = self.ctx.set_line_dash(&js_dash(s * 0.25));
                    self.ctx.stroke();
                    let _ = self.ctx.set_line_dash(&js_dash(0.0));
                    self.blast(*last, "#ff8a3d");
                }
            }
            ActionView::Mine { at, .. } => {
                let (x, y) = self.centre(*at);
                self.ctx.begin_path();
                let _ = self.ctx.arc(x, y, s * 0.75, 0.0, 2.0 * PI);
                self.ctx.set_stroke_style_str("#ffffff");
                self.ctx.set_line_width(self.ratio.max(s * 0.06));
                self.ctx.stroke();
            }
            ActionView::Upgrade { .. } => {}
        }
    }

    fn robot(&self, who: usize, at: [i32; 2], health: i32, to_move: bool) {
        let (x, y) = self.centre(at);
        let s = self.s();
        let r = s * 0.5;
        self.ctx.begin_path();
        let _ = self.ctx.arc(x, y, r, 0.0, 2.0 * PI);
        self.ctx
            .set_fill_style_str(if health > 0 { seat(who) } else { "#3a3a3a" });
        self.ctx.fill();
        self.ctx
            .set_stroke_style_str(if to_move { "#ffffff" } else { "#101010" });
        self.ctx
            .set_line_width((s * if to_move { 0.16 } else { 0.08 }).max(self.ratio));
        self.ctx.stroke();
        self.ctx.set_fill_style_str(if health > 0 {
            ink_on(seat(who))
        } else {
            "#ffffff"
        });
        self.ctx.set_font(&format!(
            "bold {:.0}px system-ui, sans-serif",
            (s * 0.6).max(8.0 * self.ratio)
        ));
        self.ctx.set_text_align("center");
        self.ctx.set_text_baseline("middle");
        let _ = self.ctx.fill_text(&(who + 1).to_string(), x, y + s * 0.03);
        if health <= 0 {
            self.line((x - r, y - r), (x + r, y + r), seat(who), s * 0.14);
            self.line((x - r, y + r), (x + r, y - r), seat(who), s * 0.14);
            return;
        }
        // The health bar.
        let (bw, bh) = (s * 1.2, (s * 0.16).max(2.0 * self.ratio));
        let (left, top) = (x - bw / 2.0, y - r - bh - s * 0.12);
        self.ctx.set_fill_style_str("#1a1a1a");
        self.ctx.fill_rect(left, top, bw, bh);
        let share = f64::from(health.clamp(0, 100)) / 100.0;
        self.ctx.set_fill_style_str(if share > 0.5 {
            "#5bd15b"
        } else if share > 0.25 {
            "#e8c23a"
        } else {
            "#e54b4b"
        });
        self.ctx.fill_rect(left, top, bw * share, bh);
    }
}

fn js_dash(len: f64) -> wasm_bindgen::JsValue {
    let a = js_sys::Array::new();
    if len > 0.0 {
        a.push(&len.into());
        a.push(&(len * 0.8).into());
    }
    a.into()
}

/// The robots: colour, name, health, score, weapons with levels, resources; one block per
/// robot, in `columns` columns.
fn draw_panel(ctx: &CanvasRenderingContext2d, view: &View, layout: &Layout, ratio: f64) {
    let (columns, line, width) = (layout.columns, layout.line, layout.column_width);
    let pad = 8.0 * ratio;
    ctx.set_text_align("left");
    ctx.set_text_baseline("top");
    ctx.set_font(&format!("bold {:.0}px system-ui, sans-serif", line));
    ctx.set_fill_style_str(TEXT);
    let title = match view.phase.as_str() {
        "connect" => "handshake".to_string(),
        "loadout" => "choosing weapons".to_string(),
        _ => format!(
            "round {} / {} · turn {}",
            view.round, view.rounds, view.turn
        ),
    };
    let _ = ctx.fill_text(&title, pad, pad);
    for (i, p) in view.players.iter().enumerate() {
        let x = pad + (i % columns) as f64 * width;
        let y = pad + line * 1.8 + (i / columns) as f64 * line * 4.2;
        ctx.set_fill_style_str(seat(i));
        ctx.fill_rect(x, y + line * 0.15, line * 0.8, line * 0.8);
        ctx.set_font(&format!("bold {:.0}px system-ui, sans-serif", line));
        ctx.set_fill_style_str(if view.to_move == Some(i) {
            "#ffffff"
        } else {
            TEXT
        });
        let name: String = p.name.chars().take(16).collect();
        let _ = ctx.fill_text(&format!("{} {name}", i + 1), x + line * 1.2, y);
        ctx.set_font(&format!("{:.0}px system-ui, sans-serif", line * 0.86));
        ctx.set_fill_style_str(DIM);
        let state = if p.health > 0 {
            format!("{} hp · score {}", p.health, p.score)
        } else {
            format!("destroyed · score {}", p.score)
        };
        let _ = ctx.fill_text(&state, x + line * 1.2, y + line * 1.05);
        let weapons: Vec<String> = p.weapons.iter().map(|(w, l)| format!("{w} {l}")).collect();
        let [r, e, c] = p.resources;
        let stock = format!("rubidium {r} · explosium {e} · scrap {c}");
        let kit = if weapons.is_empty() {
            "no weapons yet".to_string()
        } else {
            weapons.join(" · ")
        };
        let _ = ctx.fill_text(&kit, x + line * 1.2, y + line * 2.0);
        let stock = if columns == 1 {
            stock
        } else {
            format!("R{r} E{e} C{c}")
        };
        let _ = ctx.fill_text(&stock, x + line * 1.2, y + line * 2.95);
    }
}

#[cfg(test)]
mod tests {
    use games::skyport::view::{HitView, PlayerView};

    use super::*;

    fn player(name: &str, at: [i32; 2]) -> PlayerView {
        PlayerView {
            name: name.to_string(),
            position: at,
            spawn: at,
            health: 100,
            score: 0,
            waiting: false,
            weapons: Vec::new(),
            resources: [0, 0, 0],
            kills: 0,
            deaths: 0,
            order: 0,
        }
    }

    /// A 5 × 5 map (tile `j,k` is letter `j * 5 + k`): void at 0,0, rubidium at 1,3, rock at
    /// 3,1, spawns at 2,2 and 4,4. Robot 1 ("alpha", laser 2 and mortar 1) stands on its spawn
    /// 2,2 and was hit by robot 2's laser for 18; robot 2 ("beta") moved off its spawn to 3,4.
    fn view() -> View {
        let mut tiles = *b"VGGGGGGGRGGGSGGGOGGGGGGGS";
        tiles[3 * 5 + 1] = b'O';
        let mut alpha = player("alpha", [2, 2]);
        alpha.health = 82;
        alpha.score = 3;
        alpha.weapons = vec![("laser".to_string(), 2), ("mortar".to_string(), 1)];
        alpha.resources = [1, 0, 2];
        let mut beta = player("beta", [3, 4]);
        beta.spawn = [4, 4];
        View {
            size: 5,
            map: "test".to_string(),
            tiles: String::from_utf8(tiles.to_vec()).unwrap(),
            phase: "play".to_string(),
            turn: 5,
            round: 3,
            rounds: 40,
            played: Some(1),
            to_move: Some(0),
            players: vec![alpha, beta],
            actions: vec![ActionView::Mine {
                seat: 1,
                at: [3, 4],
                resource: "rubidium".to_string(),
            }],
            hits: vec![HitView {
                seat: 0,
                by: 1,
                at: [2, 2],
                damage: 18,
                killed: false,
                reflected: false,
            }],
            winner: None,
            over: false,
        }
    }

    /// A wide canvas: the robots' panel on the left, the board on the right.
    const W: f64 = 800.0;
    const H: f64 = 500.0;

    fn centre(at: [i32; 2]) -> (f64, f64) {
        layout(&view(), W, H, 1.0).unwrap().centre(at)
    }

    fn at(tile: [i32; 2]) -> Option<Inspection> {
        let (x, y) = centre(tile);
        inspect(&view(), W, H, 1.0, x, y)
    }

    #[test]
    fn a_tile_centre_shows_what_stands_there() {
        let robot = at([2, 2]).unwrap();
        assert_eq!(robot.at, (2, 2));
        assert_eq!(robot.cell, "tile 2,2 (j,k)");
        assert_eq!(
            robot.lines,
            [
                "spawn tile",
                "spawn of robot 1 (alpha)",
                "robot 1 (alpha): health 82, score 3, moves next",
                "weapons: laser 2, mortar 1",
                "rubidium 1, explosium 0, scrap 2; kills 0, deaths 0",
                "last turn: robot 1 took −18 from robot 2",
            ]
        );
        assert_eq!(
            at([3, 4]).unwrap().lines,
            [
                "grass",
                "robot 2 (beta): health 100, score 0",
                "rubidium 0, explosium 0, scrap 0; kills 0, deaths 0",
                "last turn: robot 2 mined rubidium here",
            ]
        );
        assert_eq!(
            at([4, 4]).unwrap().lines,
            ["spawn tile", "spawn of robot 2 (beta)"]
        );
        assert_eq!(at([1, 3]).unwrap().lines, ["rubidium deposit"]);
        assert_eq!(at([3, 1]).unwrap().lines, ["rock: no robot can stand here"]);
        // The outline is the tile's hexagon, one radius around its centre.
        let hex = at([1, 3]).unwrap().outline;
        let (cx, cy) = centre([1, 3]);
        let s = layout(&view(), W, H, 1.0).unwrap().s;
        assert_eq!(hex.len(), 6);
        assert!(hex
            .iter()
            .all(|(x, y)| ((x - cx).hypot(y - cy) - s).abs() < 1e-9));
    }

    #[test]
    fn a_point_belongs_to_the_hexagon_around_it() {
        let v = view();
        let from = centre([2, 2]);
        for (dj, dk) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)] {
            let next = [2 + dj, 2 + dk];
            let to = centre(next);
            let towards = |t: f64| (from.0 + t * (to.0 - from.0), from.1 + t * (to.1 - from.1));
            let (x, y) = towards(0.45);
            assert_eq!(inspect(&v, W, H, 1.0, x, y).map(|i| i.at), Some((2, 2)));
            let (x, y) = towards(0.55);
            assert_eq!(
                inspect(&v, W, H, 1.0, x, y).map(|i| i.at),
                Some((next[0], next[1]))
            );
        }
    }

    #[test]
    fn the_panel_void_and_margin_show_nothing() {
        let v = view();
        // The robots' panel.
        assert_eq!(inspect(&v, W, H, 1.0, 60.0, 60.0), None);
        // The void tile 0,0, and beyond the map's edge past 0,4.
        let (x, y) = centre([0, 0]);
        assert_eq!(inspect(&v, W, H, 1.0, x, y), None);
        let (x, y) = centre([-1, 4]);
        assert_eq!(inspect(&v, W, H, 1.0, x, y), None);
        // The canvas's bottom-right corner.
        assert_eq!(inspect(&v, W, H, 1.0, W - 2.0, H - 2.0), None);
    }

    #[test]
    fn a_small_wide_canvas_gives_the_whole_of_it_to_the_board() {
        let v = view();
        let big = layout(&v, W, H, 1.0).unwrap();
        assert!(big.panel && big.clip.0 > 150.0);
        // A landing page card: the board alone, in the whole canvas but its margins.
        let card = layout(&v, 370.0, 240.0, 1.0).unwrap();
        assert!(!card.panel);
        assert_eq!(card.clip, (8.0, 8.0, 354.0, 224.0));
        // The same card on a screen of two device pixels per CSS pixel.
        assert!(!layout(&v, 740.0, 480.0, 2.0).unwrap().panel);
        // A square canvas (a phone's board) keeps its panel, on top.
        assert!(layout(&v, 320.0, 320.0, 1.0).unwrap().panel);
    }
}
