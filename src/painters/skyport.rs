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
    "#d8413a", "#3b78d8", "#2f9e5a", "#d88f1f", "#9b59d0", "#1fb5b5", "#d85fa8", "#c8c040",
];

fn seat(s: usize) -> &'static str {
    SEATS[s % SEATS.len()]
}

/// Draws the view; false when it is not a Skyport view.
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
    let d = view.size;
    if d == 0 || view.tiles.len() != d * d {
        return false;
    }
    let tiles = view.tiles.as_bytes();
    let margin = 8.0 * ratio;
    // The robots' panel: a column on the left of a wide canvas, rows on top of a narrow one.
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
    let panel = if wide {
        (w * 0.26).clamp(150.0 * ratio, 240.0 * ratio)
    } else {
        margin + line * (1.8 + 4.2 * rows as f64)
    };
    let (bx, by, bw, bh) = if wide {
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
        return false;
    }
    let s = (bw / (hi.0 - lo.0 + 4.0))
        .min(bh / (hi.1 - lo.1 + 3.5))
        .max(2.0);
    let ox = bx + (bw - (hi.0 - lo.0) * s) / 2.0 - lo.0 * s;
    let oy = by + (bh - (hi.1 - lo.1) * s) / 2.0 - lo.1 * s;
    ctx.save();
    ctx.begin_path();
    ctx.rect(bx, by, bw, bh);
    ctx.clip();
    let board = Board {
        ctx,
        s,
        ox,
        oy,
        ratio,
    };

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
    draw_panel(ctx, &view, columns, line, w, ratio);
    true
}

/// A tile's centre in units of the hexagon radius.
fn unit(j: f64, k: f64) -> (f64, f64) {
    (1.5 * (k - j), 0.866_025_4 * (j + k))
}

struct Board<'a> {
    ctx: &'a CanvasRenderingContext2d,
    s: f64,
    ox: f64,
    oy: f64,
    ratio: f64,
}

impl Board<'_> {
    fn centre(&self, at: [i32; 2]) -> (f64, f64) {
        let (x, y) = unit(f64::from(at[0]), f64::from(at[1]));
        (self.ox + x * self.s, self.oy + y * self.s)
    }

    fn hexagon(&self, x: f64, y: f64, r: f64) {
        self.ctx.begin_path();
        for i in 0..6 {
            let a = f64::from(i) * PI / 3.0;
            let (px, py) = (x + r * a.cos(), y + r * a.sin());
            if i == 0 {
                self.ctx.move_to(px, py);
            } else {
                self.ctx.line_to(px, py);
            }
        }
        self.ctx.close_path();
    }

    fn tile(&self, j: usize, k: usize, letter: u8) {
        let (fill, edge) = match letter {
            b'V' => return,
            b'O' => (ROCK, ROCK_EDGE),
            b'S' => (SPAWN, "#8f8a7a"),
            _ => (GRASS, GRASS_EDGE),
        };
        let (x, y) = self.centre([j as i32, k as i32]);
        self.hexagon(x, y, self.s * 0.97);
        self.ctx.set_fill_style_str(fill);
        self.ctx.fill();
        self.ctx.set_stroke_style_str(edge);
        self.ctx.set_line_width(self.ratio.max(self.s * 0.05));
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
                    y + self.s * 0.1,
                    self.s * 0.5,
                    self.s * 0.34,
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
        let r = self.s * 0.38;
        self.ctx.begin_path();
        self.ctx.move_to(x, y - r);
        self.ctx.line_to(x + r * 0.75, y);
        self.ctx.line_to(x, y + r);
        self.ctx.line_to(x - r * 0.75, y);
        self.ctx.close_path();
        self.ctx.set_fill_style_str(gem);
        self.ctx.fill();
        self.ctx.set_stroke_style_str("#1d1f24");
        self.ctx.set_line_width(self.ratio.max(self.s * 0.04));
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
        let _ = self.ctx.arc(x, y, self.s * 2.45, 0.0, 2.0 * PI);
        self.ctx.set_fill_style_str(colour);
        self.ctx.fill();
        self.ctx.set_global_alpha(1.0);
        self.ctx.begin_path();
        let _ = self.ctx.arc(x, y, self.s * 0.8, 0.0, 2.0 * PI);
        self.ctx.set_stroke_style_str(colour);
        self.ctx.set_line_width((self.s * 0.14).max(self.ratio));
        self.ctx.stroke();
    }

    fn action(&self, a: &ActionView) {
        let s = self.s;
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
        let s = self.s;
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
        self.ctx.set_fill_style_str("#ffffff");
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
fn draw_panel(
    ctx: &CanvasRenderingContext2d,
    view: &View,
    columns: usize,
    line: f64,
    w: f64,
    ratio: f64,
) {
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
    let width = if columns == 1 {
        (w * 0.26).clamp(150.0 * ratio, 240.0 * ratio)
    } else {
        (w - 2.0 * pad) / columns as f64
    };
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
