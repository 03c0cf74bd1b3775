//! Crafting Quest 3: the square map (50–100 cells a side) with rock, buried resources, piles,
//! towers with their range, traps, homes and units, and the attacks of the last turn.
//!
//! The match viewer's board is interactive: it keeps this painter's controls
//! ([`BoardControls`]) between frames (a board without them, a landing card or a rules page's
//! board, shows the whole map):
//! - a toolbar drawn in the top-left corner chooses the view: **All** (a spectator sees
//!   everything) or one seat's **fog of war** (only what its units and towers see now is shown
//!   in full; the rest is dimmed terrain, without resources, piles or other seats' units,
//!   towers and traps; other seats' traps are never shown to a seat);
//! - **+** / **−** / **Fit** and the mouse wheel zoom (around the cursor), dragging pans;
//! - the same from the keyboard when the board has the focus ([`KEYS`]).
//!
//! The board hears the mouse and the keys and hands them to the controls
//! ([`super::Controls::input`]); it paints again when they say the view changed.

use std::any::Any;
use std::cell::RefCell;
use std::f64::consts::PI;

use games::crafting_quest::view::View;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

use super::grid::Grid;
use super::{ink_on, seat_colour, Controls, Input, Inspection};

const BACKGROUND: &str = "#14161b";
const GRASS: &str = "#36573a";
const ROCK: &str = "#6b625a";
const FOG_GRASS: &str = "#1f2a21";
const FOG_ROCK: &str = "#34302c";
const HOME: &str = "#f4f1e8";
const STRIKE: &str = "#ff4d3d";
const TOOLBAR: &str = "#23262d";
const TOOLBAR_ON: &str = "#e8e4d8";
/// Resource colours, in protocol order (wood, stone, leather, bronze, iron, titanium, gold),
/// then several types.
const RESOURCE_COLOURS: [&str; 8] = [
    "#a0622d", "#c4c4c4", "#d9a877", "#cd7f32", "#7b8ea6", "#7fd8ea", "#f0c040", "#f4f1e8",
];
const LETTERS: &[u8; 8] = b"wslbitg*";
/// The resource types, in protocol order (the letters above).
const RESOURCES: [&str; 7] = [
    "wood", "stone", "leather", "bronze", "iron", "titanium", "gold",
];
/// A unit's sight radius (its tower's is its range).
const SIGHT: i32 = 5;
/// The most zoom: cells this many times bigger than when the map fits.
const MAX_ZOOM: f64 = 12.0;
/// What the keyboard does on a focused board.
const KEYS: &str = "With the board focused: a shows everything, 1 to 4 a seat's fog of war, + and \
                    − zoom, the arrow keys pan, Home fits the map.";
/// The keys a focused board answers ([`key_action`]), as the viewer around it leaves them.
const TAKEN_KEYS: &str = "a A + = - − Home ArrowLeft ArrowRight ArrowUp ArrowDown 1 2 3 4";

/// Crafting Quest 3's painter (in the page's registry).
pub struct CraftingQuest;

impl super::Painter for CraftingQuest {
    fn read(&self, view: super::FrameView<'_>) -> Option<Box<dyn super::Parsed>> {
        Some(Box::new(view.read(well_formed)?))
    }

    fn controls(&self) -> Option<Box<dyn Controls>> {
        Some(Box::new(BoardControls::fit(0)))
    }

    fn keys(&self) -> Option<&'static str> {
        Some(KEYS)
    }

    fn takes_key(&self, key: &str) -> bool {
        TAKEN_KEYS.split(' ').any(|k| k == key)
    }
}

impl super::Parsed for View {
    fn paint(
        &self,
        ctx: &CanvasRenderingContext2d,
        w: f64,
        h: f64,
        ratio: f64,
        controls: Option<&mut dyn Controls>,
    ) -> bool {
        let board = controls.and_then(|c| c.as_any_mut().downcast_mut::<BoardControls>());
        paint(ctx, self, w, h, ratio, board);
        true
    }

    fn inspect(
        &self,
        w: f64,
        h: f64,
        ratio: f64,
        x: f64,
        y: f64,
        controls: Option<&dyn Controls>,
    ) -> Option<Inspection> {
        let board = controls.and_then(|c| c.as_any().downcast_ref::<BoardControls>());
        inspect(self, w, h, ratio, x, y, board)
    }
}

/// The controls of one board: what the person chose, and what was painted last.
struct BoardControls {
    /// Whose fog of war, the zoom and the map point at the canvas centre, as chosen.
    camera: Camera,
    /// The map side the centre belongs to (a new map recentres).
    size: usize,
    /// The number of seats of the view painted last (0 before the first).
    seats: usize,
    /// A drag in progress: the mouse position it started at and the centre then.
    drag: Option<(f64, f64, f64, f64)>,
    /// The toolbar's buttons as painted: (x, y, w, h, action).
    buttons: Vec<(f64, f64, f64, f64, Button)>,
    /// The size of a cell in device pixels as last painted.
    cell: f64,
    /// Whether the toolbar is drawn (only on a board with controls).
    toolbar: bool,
    /// The terrain as last drawn on this board.
    terrain: Option<Terrain>,
}

impl BoardControls {
    /// The whole map of this side, every seat's things shown.
    fn fit(size: usize) -> BoardControls {
        BoardControls {
            camera: Camera::fit(size),
            size,
            seats: 0,
            drag: None,
            buttons: Vec::new(),
            cell: 1.0,
            toolbar: true,
            terrain: None,
        }
    }

    /// The toolbar's button at the canvas point `(x, y)`, as last painted.
    fn button_at(&self, x: f64, y: f64) -> Option<Button> {
        self.buttons
            .iter()
            .find(|b| x >= b.0 && x <= b.0 + b.2 && y >= b.1 && y <= b.1 + b.3)
            .map(|b| b.4)
    }
}

impl Controls for BoardControls {
    fn input(&mut self, input: Input, w: f64, h: f64, ratio: f64) -> bool {
        let v = self;
        match input {
            Input::Key(key) => {
                let seats = v.seats;
                key_action(v, key, seats)
            }
            Input::Press(x, y) => {
                let button = v.button_at(x, y);
                match button {
                    Some(button) => v.camera.press(button, v.size),
                    None => v.drag = Some((x, y, v.camera.cx, v.camera.cy)),
                }
                button.is_some()
            }
            Input::Move(x, y, held) => {
                let Some((x0, y0, cx, cy)) = v.drag else {
                    return false;
                };
                if !held {
                    v.drag = None;
                    return false;
                }
                let cell = v.cell.max(0.1);
                v.camera.cx = cx - (x - x0) / cell;
                v.camera.cy = cy - (y - y0) / cell;
                true
            }
            Input::Release => {
                v.drag = None;
                false
            }
            Input::Wheel(x, y, dy) => {
                let factor = if dy < 0.0 { 1.25 } else { 0.8 };
                let zoom = (v.camera.zoom * factor).clamp(1.0, MAX_ZOOM);
                // Keep the map point under the cursor where it is.
                let (grid, _, _) = layout(v.size, w, h, ratio, v.camera);
                let (mx, my) = ((x - grid.left) / grid.cell, (y - grid.top) / grid.cell);
                let cell = cell_size(v.size, w, h, ratio, zoom);
                v.camera.cx = mx - (x - w / 2.0) / cell;
                v.camera.cy = my - (y - h / 2.0) / cell;
                v.camera.zoom = zoom;
                true
            }
        }
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Button {
    All,
    Seat(usize),
    ZoomIn,
    ZoomOut,
    Fit,
}

/// Whether the view is a well-formed Crafting Quest 3 view (one read from JSON may not be).
fn well_formed(view: &View) -> bool {
    view.size > 0 && view.size.checked_mul(view.size) == Some(view.ground.len())
}

/// What the person looks through: whose fog of war (`None`: everything), the zoom, and the
/// map point at the canvas centre.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Camera {
    seat: Option<usize>,
    zoom: f64,
    cx: f64,
    cy: f64,
}

impl Camera {
    /// Everything, the whole map fitted.
    fn fit(size: usize) -> Camera {
        Camera {
            seat: None,
            zoom: 1.0,
            cx: size as f64 / 2.0,
            cy: size as f64 / 2.0,
        }
    }

    /// What a toolbar button (or its key) does, on a map of `size` cells a side.
    fn press(&mut self, button: Button, size: usize) {
        match button {
            Button::All => self.seat = None,
            Button::Seat(s) => self.seat = Some(s),
            Button::ZoomIn => self.zoom = (self.zoom * 1.5).min(MAX_ZOOM),
            Button::ZoomOut => self.zoom = (self.zoom / 1.5).max(1.0),
            Button::Fit => {
                *self = Camera {
                    seat: self.seat,
                    ..Camera::fit(size)
                }
            }
        }
    }
}

/// The side of a cell in device pixels: at zoom 1 the map fits the canvas.
fn cell_size(size: usize, w: f64, h: f64, ratio: f64, zoom: f64) -> f64 {
    ((w.min(h) - 8.0 * ratio) / size.max(1) as f64).max(0.5) * zoom
}

/// Where the map sits on a `w × h` canvas for a camera at this zoom centred on its map point
/// `(cx, cy)`: the grid, and that centre moved so that some of the map stays on the canvas.
/// Painting, inspecting and zooming around the cursor all use it.
fn layout(size: usize, w: f64, h: f64, ratio: f64, camera: Camera) -> (Grid, f64, f64) {
    let Camera { zoom, cx, cy, .. } = camera;
    let n = size as f64;
    let cell = cell_size(size, w, h, ratio, zoom);
    let half_w = w / 2.0 / cell;
    let half_h = h / 2.0 / cell;
    let cx = cx.clamp(half_w.min(n / 2.0), (n - half_w).max(n / 2.0));
    let cy = cy.clamp(half_h.min(n / 2.0), (n - half_h).max(n / 2.0));
    let grid = Grid {
        cols: size,
        rows: size,
        cell,
        left: w / 2.0 - cx * cell,
        top: h / 2.0 - cy * cell,
    };
    (grid, cx, cy)
}

/// Draws the view: through a board's controls as the person set them up; without them (a landing
/// page card, a rules page's board) the whole map, without the toolbar.
fn paint(
    ctx: &CanvasRenderingContext2d,
    view: &View,
    w: f64,
    h: f64,
    ratio: f64,
    controls: Option<&mut BoardControls>,
) {
    let Some(v) = controls else {
        let mut whole = BoardControls::fit(view.size);
        whole.toolbar = false;
        return draw(ctx, &mut whole, view, w, h, ratio);
    };
    if v.size != view.size {
        v.size = view.size;
        v.camera.press(Button::Fit, view.size);
    }
    if v.camera.seat.is_some_and(|s| s >= view.scores.len()) {
        v.camera.seat = None;
    }
    draw(ctx, v, view, w, h, ratio);
    v.seats = view.scores.len();
}

/// What is on the cell under the canvas point `(px, py)`, as the canvas shows it now (the zoom,
/// pan and fog of war chosen on its controls, if any): nothing over the toolbar's buttons or off
/// the map.
fn inspect(
    view: &View,
    w: f64,
    h: f64,
    ratio: f64,
    px: f64,
    py: f64,
    controls: Option<&BoardControls>,
) -> Option<Inspection> {
    let camera = match controls {
        Some(v) => {
            if v.button_at(px, py).is_some() {
                return None;
            }
            if v.size == view.size {
                v.camera
            } else {
                Camera::fit(view.size)
            }
        }
        None => Camera::fit(view.size),
    };
    inspect_with(view, w, h, ratio, camera, px, py)
}

/// Whether `seat` sees cell `(x, y)` now: within sight of one of its units, or within range of
/// one of its towers (as [`visible`] marks them).
fn sees(view: &View, seat: usize, x: i32, y: i32) -> bool {
    let near = |cx: i32, cy: i32, r: i32| (cx - x).abs() <= r && (cy - y).abs() <= r;
    view.units
        .iter()
        .any(|u| u[0] == seat as i32 && near(u[2], u[3], SIGHT))
        || view
            .towers
            .iter()
            .any(|t| t[0] == seat as i32 && near(t[1], t[2], t[5]))
}

fn inspect_with(
    view: &View,
    w: f64,
    h: f64,
    ratio: f64,
    camera: Camera,
    px: f64,
    py: f64,
) -> Option<Inspection> {
    let (grid, _, _) = layout(view.size, w, h, ratio, camera);
    let (ux, uy) = grid.cell_at(px, py)?;
    let (x, y) = (ux as i32, uy as i32);
    let me = camera.seat.filter(|&s| s < view.scores.len());
    let seen = me.is_none_or(|s| sees(view, s, x, y));
    let ground = view.ground.as_bytes()[uy * view.size + ux];
    let mut lines = vec![if ground == b'#' { "rock" } else { "grass" }.to_string()];
    if let Some(s) = me.filter(|_| !seen) {
        lines.push(format!("out of seat {}'s sight now", s + 1));
    }
    if seen && ground != b'#' && ground != b'.' {
        match LETTERS.iter().position(|&l| l == ground) {
            Some(r) if r < RESOURCES.len() => lines.push(format!("buried: {}", RESOURCES[r])),
            _ => lines.push("buried: several types".to_string()),
        }
    }
    for (s, home) in view.homes.iter().enumerate() {
        if *home == [x, y] {
            lines.push(format!("home of seat {}", s + 1));
        }
    }
    for p in view.piles.iter().filter(|p| seen && [p[0], p[1]] == [x, y]) {
        lines.push(format!("a pile of {} items", p[2]));
    }
    for t in view
        .towers
        .iter()
        .filter(|t| seen && [t[1], t[2]] == [x, y])
    {
        lines.push(format!(
            "seat {}'s tower: level {}, strength {}, range {}",
            t[0] + 1,
            t[3],
            t[4],
            t[5]
        ));
    }
    for t in &view.traps {
        let mine = me.is_none_or(|s| s as i32 == t[0]);
        if seen && mine && [t[1], t[2]] == [x, y] {
            lines.push(format!("seat {}'s trap, level {}", t[0] + 1, t[3]));
        }
    }
    for u in view.units.iter().filter(|u| [u[2], u[3]] == [x, y]) {
        let own = me.is_some_and(|s| s as i32 == u[0]);
        if !(seen || own) {
            continue;
        }
        let mut line = format!(
            "seat {}'s unit {}: energy {}, life {}",
            u[0] + 1,
            u[1],
            u[4],
            u[5]
        );
        if u[6] > 0 {
            line.push_str(&format!(", sword {}", u[6]));
        }
        if u[7] > 0 {
            line.push_str(&format!(", armour {}", u[7]));
        }
        if u[8] > 0 {
            line.push_str(&format!(", carries {}", u[8]));
        }
        if u[9] > 0 {
            line.push_str(&format!(", frozen {} more turns", u[9]));
        }
        lines.push(line);
    }
    if seen {
        for s in &view.strikes {
            if [s[2], s[3]] == [x, y] {
                lines.push(format!(
                    "last turn: attacked by seat {} from ({},{})",
                    s[4] + 1,
                    s[0],
                    s[1]
                ));
            }
        }
    }
    Some(Inspection::square(&grid, ux, uy, lines))
}

/// Does what `key` asks on a focused board ([`KEYS`]) for a map with `seats` seats; `false` for a
/// key it leaves to the page.
fn key_action(v: &mut BoardControls, key: &str, seats: usize) -> bool {
    let (camera, size) = (&mut v.camera, v.size);
    let step = (size as f64 / camera.zoom / 8.0).max(1.0);
    match key {
        "a" | "A" => camera.press(Button::All, size),
        "+" | "=" => camera.press(Button::ZoomIn, size),
        "-" | "−" => camera.press(Button::ZoomOut, size),
        "Home" => camera.press(Button::Fit, size),
        "ArrowLeft" => camera.cx -= step,
        "ArrowRight" => camera.cx += step,
        "ArrowUp" => camera.cy -= step,
        "ArrowDown" => camera.cy += step,
        digit => match digit.parse::<usize>() {
            Ok(n) if (1..=seats).contains(&n) => camera.press(Button::Seat(n - 1), size),
            _ => return false,
        },
    }
    true
}

/// Where the terrain is drawn: the grid, the gap between cells, the cells on the canvas
/// (`x0, y0, x1, y1`, ends excluded) and the canvas size.
#[derive(Clone, Copy, Debug, PartialEq)]
struct TerrainLook {
    grid: Grid,
    gap: f64,
    cells: (usize, usize, usize, usize),
    w: f64,
    h: f64,
}

/// The terrain as last drawn, on a canvas of its own, for the board canvas it was drawn for:
/// the next frame redraws only the cells whose ground or fog changed there and copies the whole
/// terrain over in one call. (A 100 × 100 map has 10,000 cells: drawn one by one, each frame
/// took longer than a screen refresh.)
struct Terrain {
    target: HtmlCanvasElement,
    image: HtmlCanvasElement,
    look: TerrainLook,
    ground: Vec<u8>,
    seen: Vec<bool>,
}

/// Draws the ground and fog of every cell on the canvas (see [`Terrain`]), through the terrain
/// last drawn (`cache`). The picture is the same, pixel for pixel, as drawing every cell on the
/// board canvas itself.
fn draw_terrain(
    ctx: &CanvasRenderingContext2d,
    cache: &mut Option<Terrain>,
    look: &TerrainLook,
    ground: &[u8],
    seen: &[bool],
) {
    let Some(target) = ctx.canvas() else {
        return draw_cells(ctx, look, ground, seen, look.cells);
    };
    let reusable = cache
        .as_ref()
        .is_some_and(|t| t.target == target && t.look == *look && t.ground.len() == ground.len());
    if !reusable {
        *cache = Terrain::new(target, *look);
    }
    let Some(terrain) = cache.as_mut() else {
        // No canvas of its own: draw on the board.
        return draw_cells(ctx, look, ground, seen, look.cells);
    };
    terrain.update(look, ground, seen, !reusable);
    let _ = ctx.draw_image_with_html_canvas_element(&terrain.image, 0.0, 0.0);
}

impl Terrain {
    fn new(target: HtmlCanvasElement, look: TerrainLook) -> Option<Terrain> {
        let image: HtmlCanvasElement = web_sys::window()?
            .document()?
            .create_element("canvas")
            .ok()?
            .dyn_into()
            .ok()?;
        image.set_width(look.w as u32);
        image.set_height(look.h as u32);
        Some(Terrain {
            target,
            image,
            look,
            ground: Vec::new(),
            seen: Vec::new(),
        })
    }

    /// Brings the picture to this ground and fog: all of it when `fresh`, else only around the
    /// cells that changed.
    fn update(&mut self, look: &TerrainLook, ground: &[u8], seen: &[bool], fresh: bool) {
        let Some(ctx) = self
            .image
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        let size = look.grid.cols;
        let (x0, y0, x1, y1) = look.cells;
        let changed: Vec<(usize, usize)> = if fresh {
            Vec::new()
        } else {
            (y0..y1)
                .flat_map(|y| (x0..x1).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    let c = y * size + x;
                    self.ground[c] != ground[c] || self.seen[c] != seen[c]
                })
                .collect()
        };
        // Cells under 2 pixels: a resource mark reaches past its cell; draw everything.
        let many = changed.len() * 8 > (x1 - x0) * (y1 - y0) || look.grid.cell < 2.0;
        if fresh || many {
            ctx.set_fill_style_str(BACKGROUND);
            ctx.fill_rect(0.0, 0.0, look.w, look.h);
            draw_cells(&ctx, look, ground, seen, look.cells);
        } else {
            // Each changed cell's pixels, and the edge pixels it shares with its neighbours,
            // are cleared and drawn again in the board's order: exactly what a whole redraw
            // puts there.
            let grid = &look.grid;
            for &(x, y) in &changed {
                let (ox, oy) = grid.origin(x as f64, y as f64);
                let (bx0, by0) = ((ox - 1.0).floor().max(0.0), (oy - 1.0).floor().max(0.0));
                let bx1 = (ox + grid.cell + 1.0).ceil().min(look.w);
                let by1 = (oy + grid.cell + 1.0).ceil().min(look.h);
                let index =
                    |p: f64, start: f64| ((p - start) / grid.cell).floor().max(0.0) as usize;
                let cells = (
                    index(bx0, grid.left).max(x0),
                    index(by0, grid.top).max(y0),
                    (index(bx1, grid.left) + 1).min(x1),
                    (index(by1, grid.top) + 1).min(y1),
                );
                ctx.save();
                ctx.begin_path();
                ctx.rect(bx0, by0, bx1 - bx0, by1 - by0);
                ctx.clip();
                ctx.set_fill_style_str(BACKGROUND);
                ctx.fill_rect(bx0, by0, bx1 - bx0, by1 - by0);
                draw_cells(&ctx, look, ground, seen, cells);
                ctx.restore();
            }
        }
        self.ground.clear();
        self.ground.extend_from_slice(ground);
        self.seen.clear();
        self.seen.extend_from_slice(seen);
    }
}

/// Draws the cells `x0..x1 × y0..y1` of the terrain, row by row, setting each colour only when
/// it changes.
fn draw_cells(
    ctx: &CanvasRenderingContext2d,
    look: &TerrainLook,
    ground: &[u8],
    seen: &[bool],
    (x0, y0, x1, y1): (usize, usize, usize, usize),
) {
    let (grid, gap) = (&look.grid, look.gap);
    let (cell, size) = (grid.cell, grid.cols);
    let mut current = "";
    let mut fill = |colour: &'static str| {
        if colour != current {
            ctx.set_fill_style_str(colour);
            current = colour;
        }
    };
    for y in y0..y1 {
        for x in x0..x1 {
            let c = y * size + x;
            let rock = ground[c] == b'#';
            fill(match (rock, seen[c]) {
                (true, true) => ROCK,
                (true, false) => FOG_ROCK,
                (false, true) => GRASS,
                (false, false) => FOG_GRASS,
            });
            let (ox, oy) = grid.origin(x as f64, y as f64);
            ctx.fill_rect(ox, oy, cell - gap, cell - gap);
            if seen[c] && !rock && ground[c] != b'.' {
                if let Some(r) = LETTERS.iter().position(|&l| l == ground[c]) {
                    let s = (cell * 0.42).max(1.0);
                    fill(RESOURCE_COLOURS[r]);
                    ctx.fill_rect(
                        ox + (cell - gap - s) / 2.0,
                        oy + (cell - gap - s) / 2.0,
                        s,
                        s,
                    );
                }
            }
        }
    }
}

/// The board's context, remembering the colours and font it set last so that setting the same
/// again costs nothing: each setting sends its text into JavaScript, and a big map's piles and
/// units set the same few colours hundreds of times per frame. Everything else goes straight to
/// the context.
struct Pen<'a> {
    ctx: &'a CanvasRenderingContext2d,
    fill: RefCell<String>,
    stroke: RefCell<String>,
    font: RefCell<String>,
}

impl<'a> Pen<'a> {
    fn new(ctx: &'a CanvasRenderingContext2d) -> Pen<'a> {
        Pen {
            ctx,
            fill: RefCell::default(),
            stroke: RefCell::default(),
            font: RefCell::default(),
        }
    }

    fn set(last: &RefCell<String>, value: &str) -> bool {
        let mut last = last.borrow_mut();
        if *last == value {
            return false;
        }
        last.clear();
        last.push_str(value);
        true
    }

    fn set_fill_style_str(&self, colour: &str) {
        if Pen::set(&self.fill, colour) {
            self.ctx.set_fill_style_str(colour);
        }
    }

    fn set_stroke_style_str(&self, colour: &str) {
        if Pen::set(&self.stroke, colour) {
            self.ctx.set_stroke_style_str(colour);
        }
    }

    fn set_font(&self, font: &str) {
        if Pen::set(&self.font, font) {
            self.ctx.set_font(font);
        }
    }

    /// The context was drawn on without the pen: what it remembers may be wrong.
    fn forget(&self) {
        for last in [&self.fill, &self.stroke, &self.font] {
            last.borrow_mut().clear();
        }
    }
}

impl std::ops::Deref for Pen<'_> {
    type Target = CanvasRenderingContext2d;

    fn deref(&self) -> &CanvasRenderingContext2d {
        self.ctx
    }
}

/// Per cell: seen now by the chosen seat (every cell for the spectator).
fn visible(view: &View, seat: Option<usize>) -> Vec<bool> {
    let n = view.size as i32;
    let Some(seat) = seat else {
        return vec![true; view.ground.len()];
    };
    let mut seen = vec![false; view.ground.len()];
    let mut mark = |x: i32, y: i32, r: i32| {
        for yy in (y - r).max(0)..=(y + r).min(n - 1) {
            for xx in (x - r).max(0)..=(x + r).min(n - 1) {
                seen[(yy * n + xx) as usize] = true;
            }
        }
    };
    for u in view.units.iter().filter(|u| u[0] == seat as i32) {
        mark(u[2], u[3], SIGHT);
    }
    for t in view.towers.iter().filter(|t| t[0] == seat as i32) {
        mark(t[1], t[2], t[5]);
    }
    seen
}

fn draw(
    ctx: &CanvasRenderingContext2d,
    v: &mut BoardControls,
    view: &View,
    w: f64,
    h: f64,
    ratio: f64,
) {
    let pen = Pen::new(ctx);
    let (grid, cx, cy) = layout(view.size, w, h, ratio, v.camera);
    (v.camera.cx, v.camera.cy, v.cell) = (cx, cy, grid.cell);
    let (cell, left, top) = (grid.cell, grid.left, grid.top);
    let size = view.size;
    // The cells on the canvas.
    let x0 = ((-left / cell).floor().max(0.0)) as usize;
    let y0 = ((-top / cell).floor().max(0.0)) as usize;
    let x1 = (((w - left) / cell).ceil() as usize).min(size);
    let y1 = (((h - top) / cell).ceil() as usize).min(size);
    let gap = if cell >= 6.0 {
        ratio.round().max(1.0)
    } else {
        0.0
    };
    let terrain = TerrainLook {
        grid,
        gap,
        cells: (x0, y0, x1, y1),
        w,
        h,
    };
    let scene = Scene {
        pen: &pen,
        grid,
        line: (cell / 12.0).max(ratio).min(3.0 * ratio),
        seen: visible(view, v.camera.seat),
        size,
        seat: v.camera.seat,
    };
    draw_terrain(
        &pen,
        &mut v.terrain,
        &terrain,
        view.ground.as_bytes(),
        &scene.seen,
    );
    pen.forget();
    scene.homes(view);
    scene.piles(view);
    scene.towers(view);
    scene.traps(view);
    scene.units(view);
    if cell >= 18.0 {
        scene.unit_bars(view);
    }
    scene.strikes(view);
    if v.toolbar {
        toolbar(&pen, v, view, w, ratio);
    }
}

/// What the board's pieces are drawn with: the pen, the grid, the line width, and what the
/// chosen seat sees (every cell for the spectator).
struct Scene<'a> {
    pen: &'a Pen<'a>,
    grid: Grid,
    line: f64,
    /// Per cell: seen now by the chosen seat.
    seen: Vec<bool>,
    size: usize,
    /// The chosen seat, or `None` for the spectator.
    seat: Option<usize>,
}

impl Scene<'_> {
    /// Whether the cell is on the map and seen.
    fn shown(&self, x: i32, y: i32) -> bool {
        x >= 0
            && y >= 0
            && (x as usize) < self.size
            && (y as usize) < self.size
            && self.seen[y as usize * self.size + x as usize]
    }

    fn centre(&self, x: i32, y: i32) -> (f64, f64) {
        self.grid.centre(f64::from(x), f64::from(y))
    }

    /// Whether a unit of `seat` on `(x, y)` is drawn: the chosen seat's own units always,
    /// others where the chosen seat sees.
    fn unit_shown(&self, seat: i32, x: i32, y: i32) -> bool {
        self.seat.is_none_or(|me| me as i32 == seat) || self.shown(x, y)
    }

    /// Every home: a square in its seat's colour, and an inner one for the spectator's and
    /// the chosen seat's own.
    fn homes(&self, view: &View) {
        let (ctx, cell, line) = (self.pen, self.grid.cell, self.line);
        for (s, home) in view.homes.iter().enumerate() {
            let (hx, hy) = self.centre(home[0], home[1]);
            let r = cell * 0.55;
            ctx.set_stroke_style_str(seat_colour(s));
            ctx.set_line_width(line * 1.5);
            ctx.stroke_rect(hx - r, hy - r, 2.0 * r, 2.0 * r);
            if self.seat.is_none_or(|me| me == s) {
                ctx.set_stroke_style_str(HOME);
                ctx.set_line_width(line * 0.6);
                ctx.stroke_rect(hx - r * 0.7, hy - r * 0.7, 1.4 * r, 1.4 * r);
            }
        }
    }

    /// Piles: a small stack in the cell's corner.
    fn piles(&self, view: &View) {
        let (ctx, cell, line) = (self.pen, self.grid.cell, self.line);
        for p in &view.piles {
            if !self.shown(p[0], p[1]) {
                continue;
            }
            let (px, py) = self.centre(p[0], p[1]);
            let s = (cell * 0.28).max(1.5);
            ctx.set_fill_style_str("#f4e3a1");
            ctx.fill_rect(px + cell * 0.12, py + cell * 0.12, s, s);
            ctx.set_stroke_style_str("#5b4a1c");
            ctx.set_line_width(line * 0.5);
            ctx.stroke_rect(px + cell * 0.12, py + cell * 0.12, s, s);
        }
    }

    /// Towers: their range, then a triangle.
    fn towers(&self, view: &View) {
        let (ctx, cell, line) = (self.pen, self.grid.cell, self.line);
        for t in &view.towers {
            let (seat, x, y, range) = (t[0], t[1], t[2], t[5]);
            if !self.shown(x, y) {
                continue;
            }
            let colour = seat_colour(seat as usize);
            let (tx, ty) = self.centre(x, y);
            ctx.set_global_alpha(0.35);
            ctx.set_stroke_style_str(colour);
            ctx.set_line_width(line);
            let r = (f64::from(range) + 0.5) * cell;
            ctx.stroke_rect(tx - r, ty - r, 2.0 * r, 2.0 * r);
            ctx.set_global_alpha(1.0);
            let r = cell * 0.45;
            ctx.begin_path();
            ctx.move_to(tx, ty - r);
            ctx.line_to(tx + r * 0.9, ty + r * 0.8);
            ctx.line_to(tx - r * 0.9, ty + r * 0.8);
            ctx.close_path();
            ctx.set_fill_style_str(colour);
            ctx.fill();
            ctx.set_stroke_style_str("#ffffff");
            ctx.stroke();
        }
    }

    /// Traps: an X, only for the spectator and their owner.
    fn traps(&self, view: &View) {
        let (ctx, cell, line) = (self.pen, self.grid.cell, self.line);
        for t in &view.traps {
            let (seat, x, y) = (t[0] as usize, t[1], t[2]);
            if self.seat.is_some_and(|me| me != seat) || !self.shown(x, y) {
                continue;
            }
            let (tx, ty) = self.centre(x, y);
            let r = cell * 0.3;
            ctx.set_stroke_style_str(seat_colour(seat));
            ctx.set_line_width(line * 1.5);
            ctx.begin_path();
            ctx.move_to(tx - r, ty - r);
            ctx.line_to(tx + r, ty + r);
            ctx.move_to(tx + r, ty - r);
            ctx.line_to(tx - r, ty + r);
            ctx.stroke();
        }
    }

    /// Units: one disc per cell and seat, with the count when several share it.
    fn units(&self, view: &View) {
        let (ctx, cell, line) = (self.pen, self.grid.cell, self.line);
        let mut drawn: Vec<(i32, i32, i32, usize)> = Vec::new();
        for u in &view.units {
            let (seat, x, y) = (u[0], u[2], u[3]);
            if !self.unit_shown(seat, x, y) {
                continue;
            }
            match drawn.iter_mut().find(|d| (d.0, d.1, d.2) == (seat, x, y)) {
                Some(d) => d.3 += 1,
                None => drawn.push((seat, x, y, 1)),
            }
        }
        for &(seat, x, y, count) in &drawn {
            let (ux, uy) = self.centre(x, y);
            let r = (cell * 0.36).max(1.5);
            ctx.begin_path();
            let _ = ctx.arc(ux, uy, r, 0.0, 2.0 * PI);
            ctx.set_fill_style_str(seat_colour(seat as usize));
            ctx.fill();
            if cell >= 8.0 {
                ctx.set_stroke_style_str("#ffffff");
                ctx.set_line_width(line * 0.7);
                ctx.stroke();
            }
            if count > 1 && cell >= 14.0 {
                ctx.set_fill_style_str(ink_on(seat_colour(seat as usize)));
                ctx.set_font(&format!("bold {:.0}px system-ui, sans-serif", cell * 0.42));
                ctx.set_text_align("center");
                ctx.set_text_baseline("middle");
                let _ = ctx.fill_text(&count.to_string(), ux, uy + cell * 0.02);
            }
        }
    }

    /// Energy bars (energy in green from the left, life lost in red from the right) and
    /// equipment marks, for cells big enough.
    fn unit_bars(&self, view: &View) {
        let (ctx, cell) = (self.pen, self.grid.cell);
        for u in &view.units {
            let (seat, x, y, energy, life, sword, armour) =
                (u[0], u[2], u[3], u[4], u[5], u[6], u[7]);
            if !self.unit_shown(seat, x, y) {
                continue;
            }
            let (ux, uy) = self.centre(x, y);
            let bw = cell * 0.8;
            ctx.set_fill_style_str("#000000");
            ctx.fill_rect(ux - bw / 2.0, uy - cell * 0.48, bw, cell * 0.08);
            ctx.set_fill_style_str("#7fe07f");
            let share = f64::from(energy.max(0)) / 200.0;
            ctx.fill_rect(
                ux - bw / 2.0,
                uy - cell * 0.48,
                bw * share.min(1.0),
                cell * 0.08,
            );
            ctx.set_fill_style_str("#e05050");
            let lost = f64::from((200 - life).max(0)) / 200.0;
            ctx.fill_rect(
                ux + bw / 2.0 - bw * lost.min(1.0),
                uy - cell * 0.48,
                bw * lost.min(1.0),
                cell * 0.08,
            );
            if sword > 0 || armour > 0 {
                ctx.set_fill_style_str("#ffffff");
                ctx.set_font(&format!("{:.0}px system-ui, sans-serif", cell * 0.22));
                ctx.set_text_align("center");
                ctx.set_text_baseline("alphabetic");
                let _ = ctx.fill_text(&equipment_mark(sword, armour), ux, uy + cell * 0.48);
            }
        }
    }

    /// The attacks of the last turn: a line from striker to target, where either is seen.
    fn strikes(&self, view: &View) {
        let ctx = self.pen;
        ctx.set_stroke_style_str(STRIKE);
        ctx.set_line_width(self.line * 1.5);
        for s in &view.strikes {
            if !(self.shown(s[0], s[1]) || self.shown(s[2], s[3])) {
                continue;
            }
            let (ax, ay) = self.centre(s[0], s[1]);
            let (bx, by) = self.centre(s[2], s[3]);
            ctx.begin_path();
            ctx.move_to(ax, ay);
            ctx.line_to(bx, by);
            ctx.stroke();
        }
    }
}

/// A unit's equipment as written under it: `S2A1` for a sword of level 2 and armour of 1.
fn equipment_mark(sword: i32, armour: i32) -> String {
    let mut mark = String::new();
    if sword > 0 {
        mark.push_str(&format!("S{sword}"));
    }
    if armour > 0 {
        mark.push_str(&format!("A{armour}"));
    }
    mark
}

/// The view and zoom buttons in the top-left corner.
fn toolbar(ctx: &CanvasRenderingContext2d, v: &mut BoardControls, view: &View, w: f64, ratio: f64) {
    let size = (22.0 * ratio).min(w / 10.0);
    let pad = 4.0 * ratio;
    let mut items: Vec<(String, Button, Option<&str>)> = vec![("All".into(), Button::All, None)];
    for s in 0..view.scores.len() {
        items.push((format!("{}", s + 1), Button::Seat(s), Some(seat_colour(s))));
    }
    items.push(("−".into(), Button::ZoomOut, None));
    items.push(("+".into(), Button::ZoomIn, None));
    items.push(("Fit".into(), Button::Fit, None));
    v.buttons.clear();
    let mut x = pad;
    let y = pad;
    ctx.set_font(&format!("bold {:.0}px system-ui, sans-serif", size * 0.55));
    ctx.set_text_align("center");
    ctx.set_text_baseline("middle");
    for (label, button, colour) in items {
        let bw = if label.chars().count() > 1 {
            size * 1.6
        } else {
            size
        };
        let on = match button {
            Button::All => v.camera.seat.is_none(),
            Button::Seat(s) => v.camera.seat == Some(s),
            _ => false,
        };
        ctx.set_global_alpha(0.92);
        ctx.set_fill_style_str(if on {
            TOOLBAR_ON
        } else {
            colour.unwrap_or(TOOLBAR)
        });
        ctx.fill_rect(x, y, bw, size);
        ctx.set_global_alpha(1.0);
        ctx.set_stroke_style_str(if on { "#ffffff" } else { "#8a8f99" });
        ctx.set_line_width(ratio);
        ctx.stroke_rect(x, y, bw, size);
        ctx.set_fill_style_str(match (on, colour) {
            (true, _) => BACKGROUND,
            (false, Some(c)) => ink_on(c),
            (false, None) => "#ffffff",
        });
        let _ = ctx.fill_text(&label, x + bw / 2.0, y + size / 2.0 + ratio);
        v.buttons.push((x, y, bw, size, button));
        x += bw + pad / 2.0;
    }
    // Where we are: round, zoom and the view, on a dark backdrop.
    ctx.set_font(&format!("{:.0}px system-ui, sans-serif", size * 0.5));
    ctx.set_text_align("left");
    let seen = match v.camera.seat {
        None => "everything".to_string(),
        Some(s) => format!("seat {}'s fog of war", s + 1),
    };
    let text = format!(
        "round {}/{} · {:.1}× · {seen}",
        view.round, view.rounds, v.camera.zoom
    );
    // (An estimate: the canvas text metrics are not among the web-sys features built.)
    let tw = text.chars().count() as f64 * size * 0.27;
    ctx.set_global_alpha(0.75);
    ctx.set_fill_style_str(BACKGROUND);
    ctx.fill_rect(x, y, tw + 2.0 * pad, size);
    ctx.set_global_alpha(1.0);
    ctx.set_fill_style_str("#e8e4d8");
    let _ = ctx.fill_text(&text, x + pad, y + size / 2.0 + ratio);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 20 × 20 map: rock at (0,19) and (7,0), wood buried at (3,3), several types at (4,4);
    /// seat 1's home and unit 0 (sword 1, carrying 5) at (1,1); seat 2's home at (18,18), its
    /// unit 1 at (10,10) having struck (11,10), its level-2 tower at (12,12), its trap at
    /// (15,2); a pile of 12 items at (5,5).
    fn view() -> View {
        let mut ground = vec![b'.'; 400];
        ground[19 * 20] = b'#';
        ground[7] = b'#';
        ground[3 * 20 + 3] = b'w';
        ground[4 * 20 + 4] = b'*';
        View {
            size: 20,
            map: "generated".to_string(),
            round: 4,
            rounds: 70,
            ground: String::from_utf8(ground).unwrap(),
            homes: vec![[1, 1], [18, 18]],
            units: vec![
                [0, 0, 1, 1, 200, 200, 1, 0, 5, 0],
                [1, 1, 10, 10, 120, 150, 0, 2, 0, 3],
            ],
            piles: vec![[5, 5, 12]],
            towers: vec![[1, 12, 12, 2, 150, 6]],
            traps: vec![[1, 15, 2, 1]],
            strikes: vec![[10, 10, 11, 10, 1]],
            scores: vec![0, 0],
            out: vec![false, false],
            played: Some(0),
            to_move: Some(1),
            over: false,
        }
    }

    /// On a 400 × 400 canvas at ratio 1 and zoom 1 the map fits with 4 pixels around it:
    /// 19.6-pixel cells from (4, 4).
    fn at(seat: Option<usize>, x: f64, y: f64) -> Vec<String> {
        let camera = Camera {
            seat,
            ..Camera::fit(20)
        };
        let (px, py) = (4.0 + 19.6 * (x + 0.5), 4.0 + 19.6 * (y + 0.5));
        inspect_with(&view(), 400.0, 400.0, 1.0, camera, px, py)
            .unwrap()
            .lines
    }

    #[test]
    fn a_cell_centre_shows_what_stands_there() {
        assert_eq!(
            at(None, 1.0, 1.0),
            [
                "grass",
                "home of seat 1",
                "seat 1's unit 0: energy 200, life 200, sword 1, carries 5"
            ]
        );
        assert_eq!(
            at(None, 10.0, 10.0),
            [
                "grass",
                "seat 2's unit 1: energy 120, life 150, armour 2, frozen 3 more turns"
            ]
        );
        assert_eq!(at(None, 3.0, 3.0), ["grass", "buried: wood"]);
        assert_eq!(at(None, 4.0, 4.0), ["grass", "buried: several types"]);
        assert_eq!(at(None, 7.0, 0.0), ["rock"]);
        assert_eq!(at(None, 5.0, 5.0), ["grass", "a pile of 12 items"]);
        assert_eq!(
            at(None, 12.0, 12.0),
            ["grass", "seat 2's tower: level 2, strength 150, range 6"]
        );
        assert_eq!(at(None, 15.0, 2.0), ["grass", "seat 2's trap, level 1"]);
        assert_eq!(
            at(None, 11.0, 10.0),
            ["grass", "last turn: attacked by seat 2 from (10,10)"]
        );
        let i = inspect_with(
            &view(),
            400.0,
            400.0,
            1.0,
            Camera::fit(20),
            4.0 + 19.6 * 18.5,
            4.0 + 19.6 * 0.5,
        )
        .unwrap();
        assert_eq!((i.at, i.cell.as_str()), ((18, 0), "cell (18,0)"));
    }

    #[test]
    fn a_seat_sees_only_what_its_fog_of_war_shows() {
        let me = Some(0);
        assert_eq!(at(me, 3.0, 3.0), ["grass", "buried: wood"]);
        assert_eq!(at(me, 15.0, 2.0), ["grass", "out of seat 1's sight now"]);
        assert_eq!(at(me, 10.0, 10.0), ["grass", "out of seat 1's sight now"]);
        assert_eq!(at(me, 12.0, 12.0), ["grass", "out of seat 1's sight now"]);
        assert_eq!(
            at(me, 18.0, 18.0),
            ["grass", "out of seat 1's sight now", "home of seat 2"]
        );
        // Seat 2 sees around its unit and its tower; its own trap at (15,2) is out of sight.
        assert_eq!(at(Some(1), 12.0, 12.0).len(), 2);
        assert_eq!(
            at(Some(1), 15.0, 2.0),
            ["grass", "out of seat 2's sight now"]
        );
        // The cell-by-cell answer agrees with the map the painter dims.
        for seat in [0, 1] {
            let seen = visible(&view(), Some(seat));
            for y in 0..20 {
                for x in 0..20 {
                    assert_eq!(sees(&view(), seat, x, y), seen[(y * 20 + x) as usize]);
                }
            }
        }
    }

    #[test]
    fn zoom_and_pan_move_the_cells() {
        // Zoom 2 centred on (5, 5): the centre moves to keep the map on the canvas, so the
        // map's corner is at the canvas's corner, with 39.2-pixel cells.
        let camera = Camera {
            seat: None,
            zoom: 2.0,
            cx: 5.0,
            cy: 5.0,
        };
        let found = |px: f64, py: f64| {
            inspect_with(&view(), 400.0, 400.0, 1.0, camera, px, py).map(|i| i.at)
        };
        assert_eq!(found(58.8, 58.8), Some((1, 1)));
        assert_eq!(found(390.0, 20.0), Some((9, 0)));
        assert_eq!(found(20.0, 399.0), Some((0, 10)));
    }

    #[test]
    fn the_margin_and_the_toolbar_show_nothing() {
        let camera = Camera::fit(20);
        let v = view();
        assert_eq!(
            inspect_with(&v, 400.0, 400.0, 1.0, camera, 2.0, 200.0),
            None
        );
        assert_eq!(
            inspect_with(&v, 400.0, 400.0, 1.0, camera, 200.0, 398.0),
            None
        );
        // A wide canvas: the map is centred, with room left and right.
        assert_eq!(
            inspect_with(&v, 800.0, 400.0, 1.0, camera, 150.0, 200.0),
            None
        );
        let mut viewer = BoardControls::fit(20);
        viewer.buttons = vec![(4.0, 4.0, 35.0, 22.0, Button::All)];
        let viewer = Some(&viewer);
        assert_eq!(inspect(&v, 400.0, 400.0, 1.0, 20.0, 15.0, viewer), None);
        assert_eq!(
            inspect(&v, 400.0, 400.0, 1.0, 20.0, 40.0, viewer).map(|i| i.at),
            Some((0, 1))
        );
    }

    #[test]
    fn the_mouse_presses_buttons_drags_and_zooms() {
        let mut v = BoardControls::fit(20);
        v.buttons = vec![
            (4.0, 4.0, 35.0, 22.0, Button::All),
            (41.0, 4.0, 22.0, 22.0, Button::Seat(1)),
            (65.0, 4.0, 22.0, 22.0, Button::ZoomIn),
        ];
        v.cell = 19.6;
        // A button changes the view; the map only starts a drag.
        assert!(v.input(Input::Press(50.0, 10.0), 400.0, 400.0, 1.0));
        assert_eq!(v.camera.seat, Some(1));
        assert!(v.input(Input::Press(70.0, 10.0), 400.0, 400.0, 1.0));
        assert_eq!(v.camera.zoom, 1.5);
        assert!(!v.input(Input::Press(200.0, 200.0), 400.0, 400.0, 1.0));
        assert!(v.input(Input::Move(180.4, 200.0, true), 400.0, 400.0, 1.0));
        assert_eq!((v.camera.cx, v.camera.cy), (11.0, 10.0));
        // Released (or moved without the button held): no more drag.
        assert!(!v.input(Input::Release, 400.0, 400.0, 1.0));
        assert!(!v.input(Input::Move(100.0, 100.0, true), 400.0, 400.0, 1.0));
        assert!(!v.input(Input::Press(200.0, 200.0), 400.0, 400.0, 1.0));
        assert!(!v.input(Input::Move(100.0, 100.0, false), 400.0, 400.0, 1.0));
        assert_eq!((v.camera.cx, v.camera.cy), (11.0, 10.0));
        // The wheel zooms in and out, no further than the whole map.
        assert!(v.input(Input::Wheel(200.0, 200.0, -100.0), 400.0, 400.0, 1.0));
        assert_eq!(v.camera.zoom, 1.5 * 1.25);
        for _ in 0..5 {
            v.input(Input::Wheel(200.0, 200.0, 100.0), 400.0, 400.0, 1.0);
        }
        assert_eq!(v.camera.zoom, 1.0);
    }

    #[test]
    fn the_keyboard_does_what_the_toolbar_does() {
        let mut v = BoardControls::fit(20);
        assert!(key_action(&mut v, "2", 2));
        assert_eq!(v.camera.seat, Some(1));
        // No third seat on this map; other keys are the page's.
        assert!(!key_action(&mut v, "3", 2));
        assert!(!key_action(&mut v, "f", 2));
        assert!(!key_action(&mut v, " ", 2));
        assert_eq!(v.camera.seat, Some(1));
        assert!(key_action(&mut v, "a", 2));
        assert_eq!(v.camera.seat, None);
        assert!(key_action(&mut v, "+", 2));
        assert_eq!(v.camera.zoom, 1.5);
        assert!(key_action(&mut v, "ArrowRight", 2) && key_action(&mut v, "ArrowUp", 2));
        assert!(v.camera.cx > 10.0 && v.camera.cy < 10.0);
        assert!(key_action(&mut v, "-", 2) && key_action(&mut v, "-", 2));
        assert_eq!(v.camera.zoom, 1.0);
        assert!(key_action(&mut v, "Home", 2));
        assert_eq!((v.camera.zoom, v.camera.cx, v.camera.cy), (1.0, 10.0, 10.0));
        // The viewer leaves to the board exactly the keys it answers (on a map of 4 seats).
        for key in "a A 1 4 + = - − Home ArrowLeft ArrowDown f e t End 5 0".split(' ') {
            assert_eq!(
                key_action(&mut v, key, 4),
                super::super::Painter::takes_key(&CraftingQuest, key),
                "{key}"
            );
        }
    }
}
