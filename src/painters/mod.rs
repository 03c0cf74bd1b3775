//! Painters: each turns one game's frame into a canvas drawing, and tells what stands on the
//! cell under a point of the canvas (`inspect`, for hovering and tapping). They only draw and
//! describe; the rules live in the engine. Each painter computes where its board sits on the
//! canvas in one place, used by both. A game's painter is found in the page's registry
//! (`crate::registry`); a frame without one, or whose view is not well formed, is drawn as its
//! text by the fallback painter.

/// [`Parsed`] for a view drawn and inspected by its module's `paint(ctx, view, w, h, ratio)` and
/// `inspect(view, w, h, ratio, x, y)`, for a board without controls of its own; square, or with
/// the width over height its module's `aspect(view)` gives.
macro_rules! board_without_controls {
    ($view:ty) => {
        board_without_controls!($view, |_: &$view| 1.0);
    };
    ($view:ty, $aspect:expr) => {
        impl super::Parsed for $view {
            fn aspect(&self) -> f64 {
                ($aspect)(self)
            }

            fn paint(
                &self,
                ctx: &CanvasRenderingContext2d,
                w: f64,
                h: f64,
                ratio: f64,
                _: Option<&mut dyn super::Controls>,
            ) -> bool {
                super::Drawn::drawn(paint(ctx, self, w, h, ratio))
            }

            fn inspect(
                &self,
                w: f64,
                h: f64,
                ratio: f64,
                x: f64,
                y: f64,
                _: Option<&dyn super::Controls>,
            ) -> Option<Inspection> {
                inspect(self, w, h, ratio, x, y)
            }
        }
    };
}

pub mod crafting_quest;
mod fallback;
mod grid;
mod grid_board;
pub mod ice_and_fire;
pub mod micro_rts;
pub mod skyport;
pub mod soak_overflow;

#[cfg(test)]
mod colour_vision;

use std::any::Any;

use engine::Frame;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// What stands on one cell of the board, for the cell-info panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Inspection {
    /// The cell's coordinates as the game's protocol names them: `(x, y)`, or `(j, k)` for
    /// Skyport.
    pub at: (i32, i32),
    /// The same in words: "cell (3,4)", "tile 3,4 (j,k)".
    pub cell: String,
    /// What is there, one plain line each: the terrain first, then what stands on it with its
    /// numbers, then what the last turn did there.
    pub lines: Vec<String>,
    /// The cell's outline on the canvas, in device pixels, corner by corner.
    pub outline: Vec<(f64, f64)>,
}

impl Inspection {
    /// A square cell `(x, y)` of a grid.
    fn square(grid: &grid::Grid, x: usize, y: usize, lines: Vec<String>) -> Inspection {
        Inspection {
            at: (x as i32, y as i32),
            cell: format!("cell ({x},{y})"),
            lines,
            outline: grid.outline(x, y),
        }
    }
}

/// A frame's view as a painter gets it: the game's own view type, handed over by a frame whose
/// scene is kept in the page ([`Frame::view`]: a replay, a link, a match once over), or the JSON
/// text of a frame that travelled from the match worker.
pub enum FrameView<'a> {
    /// The game's view type itself, to be downcast.
    Typed(Box<dyn Any>),
    /// The view as JSON text, to be read into the game's view type.
    Json(&'a str),
}

impl FrameView<'_> {
    /// The view as the game's view type `V`: taken as it is, or read from its JSON text straight
    /// into `V`; `None` if it is not a `V` or not `well_formed`.
    fn read<V: DeserializeOwned + 'static>(self, well_formed: fn(&V) -> bool) -> Option<V> {
        let view = match self {
            FrameView::Typed(view) => *view.downcast::<V>().ok()?,
            FrameView::Json(text) => serde_json::from_str(text).ok()?,
        };
        well_formed(&view).then_some(view)
    }
}

/// A game's painter, as the registry holds it: it reads a frame's view once, and says whether
/// its board has controls of its own.
pub trait Painter: Sync {
    /// The frame's view read once into the game's view type (painting and every inspection of
    /// that frame use it), if it is well formed.
    fn read(&self, view: FrameView<'_>) -> Option<Box<dyn Parsed>>;

    /// The state of the controls of one board on the page (Crafting Quest 3's fog of war, zoom
    /// and pan), kept by that board between frames; `None` for a board that is a picture only.
    fn controls(&self) -> Option<Box<dyn Controls>> {
        None
    }

    /// What the keyboard does on the board when it has the focus, for a board with controls.
    fn keys(&self) -> Option<&'static str> {
        None
    }

    /// Whether the board, when it has the focus, answers `key` itself (then the viewer around
    /// it does not: no stepping or change of speed).
    fn takes_key(&self, _key: &str) -> bool {
        false
    }

    /// The sets of colours this painter draws side by side that must stay apart for colour-blind
    /// viewers, each with its name (checked by the tests of `colour_vision`). The seat colours
    /// ([`seat_colour`]) are checked once for every painter.
    fn palettes(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        Vec::new()
    }

    /// The colour a seat is drawn in on this board (the charts and legends use it too): the
    /// page's seat colours unless the game has more seats than they tell apart.
    fn seat_colour(&self, seat: usize) -> &'static str {
        seat_colour(seat)
    }
}

/// A frame's view read by its game's painter.
/// What a board's `paint` function gives back: nothing (it always draws) or whether it drew.
pub trait Drawn {
    fn drawn(self) -> bool;
}

impl Drawn for () {
    fn drawn(self) -> bool {
        true
    }
}

impl Drawn for bool {
    fn drawn(self) -> bool {
        self
    }
}

pub trait Parsed {
    /// The board's width over its height: the shape of the canvas that shows it (a square,
    /// unless the game's board is wider than high).
    fn aspect(&self) -> f64 {
        1.0
    }

    /// Draws the view on a `w × h` canvas (device pixels) cleared to the background, through the
    /// board's controls if it has any (`None`: the whole board, as a landing card or a rules
    /// page shows it). False when there is nothing to draw it in (then its text is drawn).
    fn paint(
        &self,
        ctx: &CanvasRenderingContext2d,
        w: f64,
        h: f64,
        ratio: f64,
        controls: Option<&mut dyn Controls>,
    ) -> bool;

    /// What stands on the cell under the canvas point `(x, y)` (device pixels) of a `w × h`
    /// canvas painted at this device pixel ratio through these controls; `None` off the board.
    fn inspect(
        &self,
        w: f64,
        h: f64,
        ratio: f64,
        x: f64,
        y: f64,
        controls: Option<&dyn Controls>,
    ) -> Option<Inspection>;
}

/// Something done on a board with controls, in the canvas's device pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Input<'a> {
    /// A key pressed while the board has the focus (without Ctrl, Meta or Alt).
    Key(&'a str),
    /// The main mouse button went down at this point.
    Press(f64, f64),
    /// The mouse moved to this point, its main button held (or not).
    Move(f64, f64, bool),
    /// The mouse button went up, or the mouse left the board.
    Release,
    /// The wheel turned (`deltaY`) with the mouse at this point.
    Wheel(f64, f64, f64),
}

/// The state of one board's controls, made by its painter ([`Painter::controls`]) and kept by
/// the board that shows it; its painter's [`Parsed`] views read it back.
pub trait Controls: Any {
    /// Does what the input asks on a `w × h` canvas at this ratio; true when what the canvas
    /// shows changed (the board then paints again and redoes its inspection). A key it answers
    /// is one [`Painter::takes_key`] names.
    fn input(&mut self, input: Input, w: f64, h: f64, ratio: f64) -> bool;

    fn as_any(&self) -> &dyn Any;

    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// The registry's painter of a game, if it has an entry.
pub fn painter(game: &str) -> Option<&'static dyn Painter> {
    crate::registry::entry(game).map(|g| g.painter)
}

/// The frame's view, if the game has a painter and the view is well formed: the game's own
/// view where the frame's scene is kept, its JSON text read otherwise.
pub fn read(game: &str, frame: &Frame) -> Option<Box<dyn Parsed>> {
    let painter = painter(game)?;
    match frame.view() {
        Some(typed) => painter.read(FrameView::Typed(typed)),
        None => painter.read(FrameView::Json(&frame.view_json())),
    }
}

/// What stands on the cell under the canvas point `(x, y)` (device pixels) of a `w × h` canvas
/// showing this frame on a board without controls; `None` off the board or for a game without a
/// painter. (It reads the view: [`read`] once and [`Parsed::inspect`] for many points.)
pub fn inspect(
    game: &str,
    frame: &Frame,
    w: f64,
    h: f64,
    ratio: f64,
    x: f64,
    y: f64,
) -> Option<Inspection> {
    read(game, frame)?.inspect(w, h, ratio, x, y, None)
}

/// The names of the first two seat colours: the seat names of the games of two seats.
pub const RED_BLUE: &[&str] = &["red", "blue"];

/// The colours seats are drawn in: CSS colour and its name. Every pair stays apart for
/// colour-blind viewers, as the tests of `colour_vision` check: red and blue, then Okabe and
/// Ito's reddish purple and a lilac (unlike any of Crafting Quest 3's resources). `www/style.css`
/// has the same colours (`--seat-N`).
const SEAT_COLOURS: &[(&str, &str)] = &[
    ("#d8413a", "red"),
    ("#3b78d8", "blue"),
    ("#aa3377", "purple"),
    ("#e0b5ff", "lilac"),
];

/// The CSS colour of a seat.
pub fn seat_colour(seat: usize) -> &'static str {
    SEAT_COLOURS[seat % SEAT_COLOURS.len()].0
}

/// What the keyboard does on this game's board when it has the focus, for a game whose board has
/// controls of its own (Crafting Quest 3's fog of war, zoom and pan); `None` for the others,
/// whose board is a picture only.
pub fn keys(game: &str) -> Option<&'static str> {
    painter(game)?.keys()
}

/// Whether this game's board, when it has the focus, answers `key` itself (then the viewer around
/// it does not: no stepping or change of speed).
pub fn board_takes_key(game: &str, key: &str) -> bool {
    painter(game).is_some_and(|p| p.takes_key(key))
}

/// The colour to write on a `#rrggbb` background: white or near-black, whichever contrasts more
/// (labels on seat colours, light and dark alike).
pub fn ink_on(background: &str) -> &'static str {
    const DARK: &str = "#14161b";
    let hex = background.strip_prefix('#').unwrap_or(background);
    let channel = |i: usize| {
        let c = hex
            .get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .map_or(0.0, |c| f64::from(c) / 255.0);
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    let luminance = 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
    // WCAG contrast ratios against white (luminance 1) and DARK (luminance about 0.008).
    let against_white = 1.05 / (luminance + 0.05);
    let against_dark = (luminance + 0.05) / 0.058;
    if against_white >= against_dark {
        "#ffffff"
    } else {
        DARK
    }
}

/// What people call a seat in this game's viewer: "red", "blue", or "seat 3".
pub fn seat_name(game: &str, seat: usize) -> String {
    crate::registry::entry(game)
        .and_then(|g| g.seat_names.get(seat))
        .map_or_else(|| format!("seat {}", seat + 1), |name| name.to_string())
}

/// Sizes the canvas to its box on the screen in device pixels (crisp on HiDPI), then draws the
/// frame (or clears the canvas when there is none), as a board without controls shows it.
pub fn paint(canvas: &HtmlCanvasElement, game: &str, frame: Option<&Frame>) {
    let parsed = frame.and_then(|f| read(game, f));
    paint_parsed(canvas, frame, parsed.as_deref(), None);
}

/// [`paint`] with the frame's view already read by [`read`] (`None`: drawn as its text), through
/// the board's controls if it has any.
pub fn paint_parsed(
    canvas: &HtmlCanvasElement,
    frame: Option<&Frame>,
    parsed: Option<&dyn Parsed>,
    controls: Option<&mut dyn Controls>,
) {
    let ratio = device_ratio();
    let rect = canvas.get_bounding_client_rect();
    let width = (rect.width() * ratio).round().max(1.0) as u32;
    let height = (rect.height() * ratio).round().max(1.0) as u32;
    let Some(ctx) = sized_context(canvas, width, height) else {
        return;
    };
    let (w, h) = (f64::from(width), f64::from(height));
    ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
    ctx.set_fill_style_str("#14161b");
    ctx.fill_rect(0.0, 0.0, w, h);
    let Some(frame) = frame else {
        return;
    };
    let drawn = parsed.is_some_and(|p| p.paint(&ctx, w, h, ratio, controls));
    if !drawn {
        fallback::paint(&ctx, &frame.text(), w, h, ratio);
    }
}

/// Draws the outline of an inspected cell on an overlay canvas laid over the board (sized to
/// the board's canvas), or clears it.
pub fn outline(
    overlay: &HtmlCanvasElement,
    board: &HtmlCanvasElement,
    cell: Option<&[(f64, f64)]>,
) {
    let (width, height) = (board.width(), board.height());
    let Some(ctx) = sized_context(overlay, width, height) else {
        return;
    };
    ctx.clear_rect(0.0, 0.0, f64::from(width), f64::from(height));
    let Some(corners) = cell.filter(|c| c.len() > 2) else {
        return;
    };
    banded_outline(&ctx, corners, "#ffe14d", 2.0);
}

/// Draws the outline of a selected cell (a human turn's unit) on the overlay [`outline`] drew
/// on, without clearing it: a thicker band in another colour than the hovered cell's.
pub fn outline_selected(overlay: &HtmlCanvasElement, corners: &[(f64, f64)]) {
    let Some(ctx) = context(overlay).filter(|_| corners.len() > 2) else {
        return;
    };
    banded_outline(&ctx, corners, "#4de1ff", 3.0);
}

/// Strokes the polygon of `corners` (at least three) in `colour`, `width` CSS pixels wide, over
/// a dark band twice as wide: visible on light and dark cells alike.
fn banded_outline(
    ctx: &CanvasRenderingContext2d,
    corners: &[(f64, f64)],
    colour: &str,
    width: f64,
) {
    let ratio = device_ratio();
    polygon(ctx, corners.iter().copied());
    ctx.set_line_join("round");
    ctx.set_stroke_style_str("#14161b");
    ctx.set_line_width(2.0 * width * ratio);
    ctx.stroke();
    ctx.set_stroke_style_str(colour);
    ctx.set_line_width(width * ratio);
    ctx.stroke();
}

/// Makes the closed polygon through `corners`, in order, the canvas's current path (to fill or
/// stroke).
fn polygon(ctx: &CanvasRenderingContext2d, corners: impl IntoIterator<Item = (f64, f64)>) {
    ctx.begin_path();
    for (i, (x, y)) in corners.into_iter().enumerate() {
        if i == 0 {
            ctx.move_to(x, y);
        } else {
            ctx.line_to(x, y);
        }
    }
    ctx.close_path();
}

/// The device pixel ratio the page paints with (at least 1).
pub fn device_ratio() -> f64 {
    web_sys::window().map_or(1.0, |w| w.device_pixel_ratio().max(1.0))
}

/// The canvas made `width × height` device pixels (left as it is when it already is: setting a
/// size clears the canvas), and its 2D context.
fn sized_context(
    canvas: &HtmlCanvasElement,
    width: u32,
    height: u32,
) -> Option<CanvasRenderingContext2d> {
    if canvas.width() != width {
        canvas.set_width(width);
    }
    if canvas.height() != height {
        canvas.set_height(height);
    }
    context(canvas)
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
}

#[cfg(test)]
mod tests {
    use engine::Setup;

    use super::*;

    fn first_frame(game: &str, seed: i64) -> Frame {
        let entry = games::entry(game).unwrap();
        games::new_game(&Setup::new(entry.info, seed))
            .unwrap()
            .frame()
    }

    /// Whether `(x, y)` is inside or on the convex polygon `corners`.
    fn inside(corners: &[(f64, f64)], x: f64, y: f64) -> bool {
        let mut side = 0.0;
        for (i, &(ax, ay)) in corners.iter().enumerate() {
            let (bx, by) = corners[(i + 1) % corners.len()];
            let cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax);
            if cross.abs() < 1e-6 {
                continue;
            }
            if side == 0.0 {
                side = cross.signum();
            } else if cross.signum() != side {
                return false;
            }
        }
        true
    }

    /// A real first frame of every game: the view is read, and every point of a fine sweep over
    /// the canvas is either off the board or inside the outline of the cell it names. The
    /// game's typed view (the frame's scene is kept here) and its JSON text, as a frame from the
    /// match worker brings it, show the same cell at every point.
    #[test]
    fn every_game_is_inspected_where_its_cells_are_drawn() {
        for entry in games::GAMES {
            let game = entry.info.id;
            let frame = first_frame(game, 7);
            assert!(
                frame.view().is_some(),
                "{game}: a kept frame hands over its view"
            );
            let parsed = read(game, &frame).unwrap_or_else(|| panic!("{game}: view not read"));
            let from_json = painter(game)
                .and_then(|p| p.read(FrameView::Json(&frame.view_json())))
                .unwrap_or_else(|| panic!("{game}: view's JSON not read"));
            for (w, h) in [(640.0, 640.0), (900.0, 500.0)] {
                let mut on_board = 0;
                for i in 0..90 {
                    for j in 0..80 {
                        let (x, y) = (f64::from(i) * w / 90.0 + 1.5, f64::from(j) * h / 80.0 + 1.5);
                        let found = parsed.inspect(w, h, 1.0, x, y, None);
                        assert_eq!(
                            found,
                            from_json.inspect(w, h, 1.0, x, y, None),
                            "{game} {w}×{h}: ({x}, {y}) typed and from JSON"
                        );
                        let Some(found) = found else {
                            continue;
                        };
                        on_board += 1;
                        assert!(
                            inside(&found.outline, x, y),
                            "{game} {w}×{h}: ({x}, {y}) is not inside {} {:?}",
                            found.cell,
                            found.outline
                        );
                        assert!(
                            !found.lines.is_empty(),
                            "{game}: {} says nothing",
                            found.cell
                        );
                    }
                }
                assert!(
                    on_board > 90 * 80 / 5,
                    "{game} {w}×{h}: only {on_board} points on the board"
                );
            }
        }
    }

    /// The canvas takes the board's shape: square boards stay square, Soak Overflow's grid (twice
    /// as wide as high) and microRTS's maps (15 to 31 wide, 15 to 17 high) get wider canvases.
    #[test]
    fn a_board_has_the_shape_of_its_grid() {
        for entry in games::GAMES {
            let game = entry.info.id;
            let aspect = read(game, &first_frame(game, 7)).map(|p| p.aspect());
            let aspect = aspect.unwrap_or_else(|| panic!("{game}: view not read"));
            match game {
                "soak-overflow" => assert!((1.6..2.0).contains(&aspect), "{game}: {aspect}"),
                "micro-rts" => assert!((1.0..2.1).contains(&aspect), "{game}: {aspect}"),
                _ => assert_eq!(aspect, 1.0, "{game}"),
            }
        }
    }

    #[test]
    fn the_two_seat_names_are_the_first_two_colours() {
        let names: Vec<&str> = SEAT_COLOURS[..2].iter().map(|c| c.1).collect();
        assert_eq!(RED_BLUE, names);
    }

    #[test]
    fn labels_are_written_in_the_ink_that_contrasts_more() {
        assert_eq!(ink_on("#000000"), "#ffffff");
        assert_eq!(ink_on("#3b78d8"), "#ffffff");
        assert_eq!(ink_on("#aa3377"), "#ffffff");
        assert_eq!(ink_on("#f0e442"), "#14161b");
        assert_eq!(ink_on("#f4f1e8"), "#14161b");
        assert_eq!(ink_on("#e0b5ff"), "#14161b");
    }

    /// Through the public entry point: Ice and Fire's two HQs stand in opposite corners.
    #[test]
    fn ice_and_fire_hqs_are_found_in_the_corners() {
        let frame = first_frame("ice-and-fire", 3);
        let hq = |x: f64, y: f64| {
            // 600 × 600 at ratio 1: 49-pixel cells from (6, 6).
            let (px, py) = (6.0 + 49.0 * x + 24.5, 6.0 + 49.0 * y + 24.5);
            let found = inspect("ice-and-fire", &frame, 600.0, 600.0, 1.0, px, py).unwrap();
            found.lines.iter().any(|l| l.ends_with(" HQ"))
        };
        assert!(hq(0.0, 0.0) && hq(11.0, 11.0));
        assert!(!hq(5.0, 6.0));
        assert_eq!(
            inspect("ice-and-fire", &frame, 600.0, 600.0, 1.0, 2.0, 2.0),
            None
        );
        assert_eq!(
            inspect("no-such-game", &frame, 600.0, 600.0, 1.0, 300.0, 300.0),
            None
        );
    }
}
