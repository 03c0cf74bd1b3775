//! Line charts drawn with plotters (the match's charts under the timeline, the arena's ratings):
//! what a chart holds ([`Spec`]), how it is drawn on any plotters backend ([`draw`]), and the
//! page's canvas as a backend ([`paint`]), sized to its box in device pixels.
//!
//! Plotters' own text measuring in the browser sets a `style` attribute on a temporary element,
//! which the page's policy (`style-src 'self'`) refuses; the canvas backend here measures text
//! with the canvas itself instead.

use std::ops::Range;

use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The charts' background: the board's, so that the seats' light colours (Skyport's lilac and
/// white players) show as they do on the board.
pub const BACKGROUND: RGBColor = RGBColor(0x14, 0x16, 0x1b);
const INK: RGBColor = RGBColor(0xe8, 0xe4, 0xd8);
const AXIS: RGBColor = RGBColor(0x8a, 0x8f, 0x99);
const GRID: RGBColor = RGBColor(0x2f, 0x33, 0x3d);
/// The current step's marker.
pub const MARKER: RGBColor = RGBColor(0xff, 0xff, 0xff);

/// One line of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub colour: RGBColor,
    pub points: Vec<(f64, f64)>,
    /// Dashes and gaps in pixels (at scale 1), for lines told apart by more than their colour;
    /// solid when `None`.
    pub dash: Option<(f64, f64)>,
    /// A mark drawn on the line every few points (its seat's shape, as on the legend), so that
    /// lines of colours alike to some eyes are told apart; none when `None`.
    pub shape: Option<Shape>,
}

/// The shapes that tell lines apart without their colour, one per seat in turn; the legend's
/// swatches have the same (`.swatch.shape-N` in `www/style.css`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Circle,
    Square,
    Triangle,
    Diamond,
    Cross,
    Plus,
    Bar,
    Hourglass,
}

pub const SHAPES: [Shape; 8] = [
    Shape::Circle,
    Shape::Square,
    Shape::Triangle,
    Shape::Diamond,
    Shape::Cross,
    Shape::Plus,
    Shape::Bar,
    Shape::Hourglass,
];

/// The most marks drawn along one line.
const MARKS_PER_LINE: usize = 10;

/// Which of a line's `points` carry its mark: about [`MARKS_PER_LINE`], spread evenly and
/// shifted by `line` so that lines that lie on one another still show every mark.
pub fn marked_points(points: usize, line: usize) -> impl Iterator<Item = usize> {
    let every = points.div_ceil(MARKS_PER_LINE).max(1);
    let start = (line * every.div_ceil(SHAPES.len())) % every;
    (start..points).step_by(every)
}

/// Draws `shape` at `at`, `size` pixels from its centre to its edge.
fn draw_shape<DB: DrawingBackend>(
    chart: &mut ChartContext<DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    shape: Shape,
    at: (f64, f64),
    size: i32,
    style: ShapeStyle,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let s = size;
    let polygon = |points: Vec<(i32, i32)>| EmptyElement::at(at) + Polygon::new(points, style);
    match shape {
        Shape::Circle => chart.draw_series(std::iter::once(Circle::new(at, s, style))),
        Shape::Square => chart.draw_series(std::iter::once(
            EmptyElement::at(at) + Rectangle::new([(-s, -s), (s, s)], style),
        )),
        Shape::Triangle => chart.draw_series(std::iter::once(polygon(vec![
            (0, -s - 1),
            (s + 1, s),
            (-s - 1, s),
        ]))),
        Shape::Diamond => chart.draw_series(std::iter::once(polygon(vec![
            (0, -s - 1),
            (s + 1, 0),
            (0, s + 1),
            (-s - 1, 0),
        ]))),
        Shape::Cross => chart.draw_series(std::iter::once(Cross::new(at, s, style))),
        Shape::Plus => chart.draw_series(std::iter::once(
            EmptyElement::at(at)
                + Rectangle::new([(-s, -1), (s, 1)], style)
                + Rectangle::new([(-1, -s), (1, s)], style),
        )),
        Shape::Bar => chart.draw_series(std::iter::once(
            EmptyElement::at(at) + Rectangle::new([(-s - 1, -2), (s + 1, 2)], style),
        )),
        Shape::Hourglass => chart.draw_series(std::iter::once(polygon(vec![
            (-s, -s),
            (s, -s),
            (-s, s),
            (s, s),
        ]))),
    }?;
    Ok(())
}

/// Something that happened at a step, drawn on the time axis in its seat's colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mark {
    pub x: f64,
    pub colour: RGBColor,
    /// A fault (a triangle) or a seat going out (a cross).
    pub fault: bool,
}

/// A chart: its ranges, labels, lines, a horizontal rule (a bot's budget) and marks.
pub struct Spec<'a> {
    pub x: Range<f64>,
    pub y: Range<f64>,
    pub x_label: &'a dyn Fn(&f64) -> String,
    pub y_label: &'a dyn Fn(&f64) -> String,
    pub lines: Vec<Line>,
    /// A dashed horizontal line at this height, with its label at its right end.
    pub rule: Option<(f64, String)>,
    pub marks: Vec<Mark>,
    /// Device pixels per CSS pixel: sizes below are in CSS pixels.
    pub scale: f64,
}

/// Where a drawn chart's plotting area is, in the canvas's pixels, and the values at its edges:
/// what a click needs to find its step and the marker needs to find its place. `pixels_x` is
/// the first value's column and the last's, `pixels_y` the lowest value's row (at the bottom)
/// and the highest's.
#[derive(Clone, Debug, PartialEq)]
pub struct Plot {
    pub pixels_x: (i32, i32),
    pub pixels_y: (i32, i32),
    pub x: Range<f64>,
    pub y: Range<f64>,
}

impl Plot {
    /// The x value under a pixel column of the canvas (outside the plotting area: the value at
    /// the nearer edge).
    pub fn x_at(&self, pixel: f64) -> f64 {
        let (start, end) = (f64::from(self.pixels_x.0), f64::from(self.pixels_x.1));
        if end <= start {
            return self.x.start;
        }
        let share = ((pixel - start) / (end - start)).clamp(0.0, 1.0);
        self.x.start + share * (self.x.end - self.x.start)
    }

    /// The pixel column of an x value.
    #[cfg(test)]
    pub fn pixel_of(&self, x: f64) -> f64 {
        let span = self.x.end - self.x.start;
        let share = if span > 0.0 {
            (x - self.x.start) / span
        } else {
            0.0
        };
        f64::from(self.pixels_x.0) + share * f64::from(self.pixels_x.1 - self.pixels_x.0)
    }

    fn coord(&self) -> Cartesian2d<RangedCoordf64, RangedCoordf64> {
        Cartesian2d::new(
            self.x.clone(),
            self.y.clone(),
            (
                self.pixels_x.0..self.pixels_x.1,
                self.pixels_y.0..self.pixels_y.1,
            ),
        )
    }
}

/// Asks for a component's charts to be drawn again at their new size: at each resize of the
/// window (kept up by the hook) and whenever [`Redraws::again`] is called (a chart unfolded).
#[derive(Clone)]
pub struct Redraws {
    count: std::rc::Rc<std::cell::RefCell<u32>>,
    redraw: yew::functional::UseForceUpdateHandle,
}

impl Redraws {
    /// How many times the charts were asked to be drawn again: a key for the effect that draws.
    pub fn count(&self) -> u32 {
        *self.count.borrow()
    }

    /// The charts are drawn again at the next render, which comes at once.
    pub fn again(&self) {
        *self.count.borrow_mut() += 1;
        self.redraw.force_update();
    }
}

/// [`Redraws`] of the calling component, with its window resize listener.
#[yew::hook]
pub fn use_redraws() -> Redraws {
    let redraws = Redraws {
        count: yew::use_mut_ref(|| 0u32),
        redraw: yew::functional::use_force_update(),
    };
    {
        let redraws = redraws.clone();
        yew::use_effect_with((), move |_| {
            let listener = web_sys::window()
                .map(|w| gloo_events::EventListener::new(&w, "resize", move |_| redraws.again()));
            move || drop(listener)
        });
    }
    redraws
}

/// "#d8413a" as a plotters colour (grey when it is not one).
pub fn colour(hex: &str) -> RGBColor {
    let channel = |i: usize| {
        hex.get(i..i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0x99)
    };
    if hex.len() == 7 && hex.starts_with('#') {
        RGBColor(channel(1), channel(3), channel(5))
    } else {
        RGBColor(0x99, 0x99, 0x99)
    }
}

fn px(css: f64, scale: f64) -> u32 {
    (css * scale).round().max(1.0) as u32
}

/// Draws a chart on a drawing area and says where its plotting area ended up.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    spec: &Spec,
) -> Result<Plot, DrawingAreaErrorKind<DB::ErrorType>> {
    let k = spec.scale;
    root.fill(&BACKGROUND)?;
    let font = ("sans-serif", f64::from(px(11.0, k)))
        .into_font()
        .color(&INK);
    let mut chart = ChartBuilder::on(root)
        .margin_top(px(8.0, k))
        .margin_right(px(10.0, k))
        .margin_left(px(4.0, k))
        .x_label_area_size(px(20.0, k))
        .y_label_area_size(px(40.0, k))
        .build_cartesian_2d(spec.x.clone(), spec.y.clone())?;
    chart
        .configure_mesh()
        .x_labels(6)
        .y_labels(4)
        .x_label_formatter(spec.x_label)
        .y_label_formatter(spec.y_label)
        .label_style(font.clone())
        .axis_style(AXIS.stroke_width(px(1.0, k)))
        .bold_line_style(GRID.stroke_width(px(1.0, k)))
        .light_line_style(TRANSPARENT)
        .set_all_tick_mark_size(px(3.0, k))
        .draw()?;
    let (top, bottom) = (spec.y.end, spec.y.start);
    for mark in &spec.marks {
        let faint = mark.colour.mix(0.55).stroke_width(px(1.0, k));
        chart.draw_series(std::iter::once(PathElement::new(
            vec![(mark.x, bottom), (mark.x, top)],
            faint,
        )))?;
    }
    if let Some((y, label)) = &spec.rule {
        let style = INK.mix(0.8).stroke_width(px(1.0, k));
        chart.draw_series(DashedLineSeries::new(
            vec![(spec.x.start, *y), (spec.x.end, *y)],
            px(5.0, k),
            px(4.0, k),
            style,
        ))?;
        let anchored = font.pos(Pos::new(HPos::Right, VPos::Bottom));
        chart.draw_series(std::iter::once(Text::new(
            label.clone(),
            (spec.x.end, *y),
            anchored,
        )))?;
    }
    // Each line is drawn thinner than the one before it (4 px down to 2 px), so that a seat whose
    // numbers are another's all match long still shows as a border around it.
    let last = spec.lines.len().saturating_sub(1).max(1) as f64;
    for (i, line) in spec.lines.iter().enumerate() {
        let width = 2.0 + 2.0 * (last - i as f64).max(0.0) / last;
        let style = line.colour.stroke_width(px(width, k));
        if line.points.len() == 1 {
            chart.draw_series(
                line.points
                    .iter()
                    .map(|&p| Circle::new(p, px(2.5, k), line.colour.filled())),
            )?;
        } else if let Some((dash, gap)) = line.dash {
            chart.draw_series(DashedLineSeries::new(
                line.points.iter().copied(),
                px(dash, k),
                px(gap, k),
                style,
            ))?;
        } else {
            chart.draw_series(LineSeries::new(line.points.iter().copied(), style))?;
        }
        if let Some(shape) = line.shape {
            let size = px(3.5, k) as i32;
            for at in marked_points(line.points.len(), i) {
                draw_shape(
                    &mut chart,
                    shape,
                    line.points[at],
                    size,
                    line.colour.filled(),
                )?;
            }
        }
    }
    // The marks sit on the time axis, above the lines.
    for mark in &spec.marks {
        let size = px(5.0, k);
        let style = mark.colour.filled().stroke_width(px(2.0, k));
        if mark.fault {
            chart.draw_series(std::iter::once(TriangleMarker::new(
                (mark.x, bottom),
                size,
                style,
            )))?;
        } else {
            chart.draw_series(std::iter::once(Cross::new((mark.x, bottom), size, style)))?;
        }
    }
    // As plotters maps values in the chart (`ChartBuilder::build_cartesian_2d`): the last pixel
    // is the range's end, and y grows upwards.
    let (x, y) = chart.plotting_area().get_pixel_range();
    let pixels_x = (x.start, x.end - 1);
    let pixels_y = (y.end - 1, y.start);
    Ok(Plot {
        pixels_x,
        pixels_y,
        x: spec.x.clone(),
        y: spec.y.clone(),
    })
}

/// Draws the current step's marker on a drawing area laid over a drawn chart: a vertical line
/// at `x` and a dot on each line there (`points`: the lines' values at `x`, in their colours).
pub fn draw_marker<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    plot: &Plot,
    x: f64,
    points: &[(f64, RGBColor)],
    scale: f64,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    root.fill(&TRANSPARENT)?;
    let area = root.apply_coord_spec(plot.coord());
    area.draw(&PathElement::new(
        vec![(x, plot.y.start), (x, plot.y.end)],
        MARKER.stroke_width(px(2.0, scale)),
    ))?;
    for &(y, colour) in points {
        let y = y.clamp(plot.y.start, plot.y.end);
        area.draw(&Circle::new((x, y), px(4.0, scale), MARKER.filled()))?;
        area.draw(&Circle::new((x, y), px(2.5, scale), colour.filled()))?;
    }
    Ok(())
}

/// The page's canvas as a plotters backend, measuring text with the canvas (see the module's
/// documentation).
struct Canvas {
    inner: CanvasBackend,
    context: CanvasRenderingContext2d,
}

impl DrawingBackend for Canvas {
    type ErrorType = <CanvasBackend as DrawingBackend>::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(
        &mut self,
    ) -> Result<(), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        self.inner.present()
    }
    fn draw_pixel(
        &mut self,
        point: plotters_backend::BackendCoord,
        colour: plotters_backend::BackendColor,
    ) -> Result<(), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_pixel(point, colour)
    }
    fn draw_line<S: plotters_backend::BackendStyle>(
        &mut self,
        from: plotters_backend::BackendCoord,
        to: plotters_backend::BackendCoord,
        style: &S,
    ) -> Result<(), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: plotters_backend::BackendStyle>(
        &mut self,
        upper_left: plotters_backend::BackendCoord,
        bottom_right: plotters_backend::BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<
        S: plotters_backend::BackendStyle,
        I: IntoIterator<Item = plotters_backend::BackendCoord>,
    >(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: plotters_backend::BackendStyle>(
        &mut self,
        center: plotters_backend::BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<
        S: plotters_backend::BackendStyle,
        I: IntoIterator<Item = plotters_backend::BackendCoord>,
    >(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<S: plotters_backend::BackendTextStyle>(
        &mut self,
        text: &str,
        style: &S,
        pos: plotters_backend::BackendCoord,
    ) -> Result<(), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        self.inner.draw_text(text, style, pos)
    }
    fn estimate_text_size<S: plotters_backend::BackendTextStyle>(
        &self,
        text: &str,
        style: &S,
    ) -> Result<(u32, u32), plotters_backend::DrawingErrorKind<Self::ErrorType>> {
        // The font as the canvas backend sets it to draw.
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        ));
        let width = self.context.measure_text(text).map_or(0.0, |m| m.width());
        Ok((width.ceil().max(0.0) as u32, style.size().ceil() as u32))
    }
}

/// The canvas sized to its box on the screen in device pixels (crisp on HiDPI), as a plotters
/// drawing area, with the device pixels per CSS pixel.
fn area(canvas: &HtmlCanvasElement) -> Option<(DrawingArea<Canvas, Shift>, f64)> {
    let ratio = crate::painters::device_ratio();
    let rect = canvas.get_bounding_client_rect();
    let width = (rect.width() * ratio).round().max(1.0) as u32;
    let height = (rect.height() * ratio).round().max(1.0) as u32;
    Some((sized(canvas, width, height)?, ratio))
}

/// The canvas at this size in device pixels, as a plotters drawing area.
fn sized(
    canvas: &HtmlCanvasElement,
    width: u32,
    height: u32,
) -> Option<DrawingArea<Canvas, Shift>> {
    if canvas.width() != width {
        canvas.set_width(width);
    }
    if canvas.height() != height {
        canvas.set_height(height);
    }
    let context: CanvasRenderingContext2d = canvas.get_context("2d").ok()??.dyn_into().ok()?;
    let inner = CanvasBackend::with_canvas_object(canvas.clone())?;
    Some(Canvas { inner, context }.into_drawing_area())
}

/// Draws a chart on the page's canvas (its `scale` set to the screen's); `None` when the canvas
/// cannot be drawn on.
pub fn paint(canvas: &HtmlCanvasElement, mut spec: Spec) -> Option<Plot> {
    let (root, ratio) = area(canvas)?;
    spec.scale = ratio;
    let plot = draw(&root, &spec).ok()?;
    root.present().ok()?;
    Some(plot)
}

/// The marker of a step on a drawn chart: the chart, the step's x, and the lines' values there in
/// their colours.
pub type Marker<'a> = (&'a Plot, f64, &'a [(f64, RGBColor)]);

/// Draws the current step's marker on the overlay canvas laid over a chart's canvas (`None`:
/// clears it). The overlay takes the chart's size without asking the layout, so that following
/// playback costs no layout at each step.
pub fn paint_marker(
    overlay: &HtmlCanvasElement,
    chart: &HtmlCanvasElement,
    marker: Option<Marker>,
) {
    let Some(root) = sized(overlay, chart.width(), chart.height()) else {
        return;
    };
    if let Some(context) = overlay
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<CanvasRenderingContext2d>().ok())
    {
        context.clear_rect(
            0.0,
            0.0,
            f64::from(overlay.width()),
            f64::from(overlay.height()),
        );
    }
    if let Some((plot, x, points)) = marker {
        let _ = draw_marker(&root, plot, x, points, crate::painters::device_ratio());
    }
}

/// The canvas pixel column under a click, from the event's position on the page.
pub fn click_pixel(canvas: &HtmlCanvasElement, client_x: f64) -> f64 {
    let rect = canvas.get_bounding_client_rect();
    if rect.width() <= 0.0 {
        return 0.0;
    }
    (client_x - rect.left()) * f64::from(canvas.width()) / rect.width()
}

#[cfg(test)]
pub mod tests {
    use std::cell::RefCell;
    use std::rc::Rc;

    use super::*;
    use plotters_backend::{
        BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingErrorKind,
    };

    /// A line drawn: from, to, colour and width.
    pub type Drawn = (BackendCoord, BackendCoord, (u8, u8, u8), u32);

    /// What a [`Recorder`] was asked to draw: lines with their colour and width, and texts.
    #[derive(Default)]
    pub struct Log {
        pub lines: Vec<Drawn>,
        pub texts: Vec<String>,
    }

    impl Log {
        /// Whether a line of this colour was drawn.
        pub fn has_colour(&self, c: RGBColor) -> bool {
            self.lines.iter().any(|l| l.2 == (c.0, c.1, c.2))
        }
    }

    /// A backend that keeps what was drawn in a log its caller shares.
    pub struct Recorder {
        size: (u32, u32),
        log: Rc<RefCell<Log>>,
    }

    impl Recorder {
        pub fn new(width: u32, height: u32) -> (Recorder, Rc<RefCell<Log>>) {
            let log = Rc::new(RefCell::new(Log::default()));
            (
                Recorder {
                    size: (width, height),
                    log: log.clone(),
                },
                log,
            )
        }
    }

    #[derive(Debug)]
    pub struct Never;
    impl std::fmt::Display for Never {
        fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("never")
        }
    }
    impl std::error::Error for Never {}

    impl DrawingBackend for Recorder {
        type ErrorType = Never;
        fn get_size(&self) -> (u32, u32) {
            self.size
        }
        fn ensure_prepared(&mut self) -> Result<(), DrawingErrorKind<Never>> {
            Ok(())
        }
        fn present(&mut self) -> Result<(), DrawingErrorKind<Never>> {
            Ok(())
        }
        fn draw_pixel(
            &mut self,
            _: BackendCoord,
            _: BackendColor,
        ) -> Result<(), DrawingErrorKind<Never>> {
            Ok(())
        }
        fn draw_line<S: BackendStyle>(
            &mut self,
            from: BackendCoord,
            to: BackendCoord,
            style: &S,
        ) -> Result<(), DrawingErrorKind<Never>> {
            self.log
                .borrow_mut()
                .lines
                .push((from, to, style.color().rgb, style.stroke_width()));
            Ok(())
        }
        fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
            &mut self,
            path: I,
            style: &S,
        ) -> Result<(), DrawingErrorKind<Never>> {
            let points: Vec<BackendCoord> = path.into_iter().collect();
            for pair in points.windows(2) {
                self.draw_line(pair[0], pair[1], style)?;
            }
            Ok(())
        }
        fn draw_text<S: BackendTextStyle>(
            &mut self,
            text: &str,
            _: &S,
            _: BackendCoord,
        ) -> Result<(), DrawingErrorKind<Never>> {
            self.log.borrow_mut().texts.push(text.to_string());
            Ok(())
        }
        fn estimate_text_size<S: BackendTextStyle>(
            &self,
            text: &str,
            style: &S,
        ) -> Result<(u32, u32), DrawingErrorKind<Never>> {
            Ok((
                (text.len() as f64 * style.size() * 0.6) as u32,
                style.size() as u32,
            ))
        }
    }

    fn spec<'a>(label: &'a dyn Fn(&f64) -> String) -> Spec<'a> {
        Spec {
            x: 0.0..10.0,
            y: 0.0..100.0,
            x_label: label,
            y_label: label,
            lines: vec![
                Line {
                    colour: colour("#d8413a"),
                    points: (0..=10).map(|i| (f64::from(i), f64::from(i * 5))).collect(),
                    dash: None,
                    shape: Some(Shape::Triangle),
                },
                Line {
                    colour: colour("#3b78d8"),
                    points: vec![(0.0, 10.0), (10.0, 90.0)],
                    dash: Some((6.0, 3.0)),
                    shape: None,
                },
            ],
            rule: Some((80.0, "budget".into())),
            marks: vec![Mark {
                x: 7.0,
                colour: colour("#aa3377"),
                fault: true,
            }],
            scale: 1.0,
        }
    }

    #[test]
    fn a_line_carries_about_ten_marks_spread_and_shifted_from_the_line_before() {
        let first: Vec<usize> = marked_points(200, 0).collect();
        assert_eq!(first.len(), 10);
        assert_eq!(first[..3], [0, 20, 40]);
        let second: Vec<usize> = marked_points(200, 1).collect();
        assert_eq!(
            second[0], 3,
            "shifted: lines on one another show both marks"
        );
        assert!(second.iter().all(|&i| i < 200));
        assert_eq!(
            marked_points(3, 5).count(),
            3,
            "a short line marks every point"
        );
        assert_eq!(marked_points(0, 0).count(), 0);
    }

    #[test]
    fn a_chart_maps_clicks_back_to_values_within_its_plotting_area() {
        let label = |v: &f64| format!("{v:.0}");
        let (backend, _) = Recorder::new(390, 160);
        let plot = draw(&backend.into_drawing_area(), &spec(&label)).unwrap();
        // The plotting area is inside the canvas, right of the y labels, above the x labels.
        assert!(plot.pixels_x.0 >= 40 && plot.pixels_x.1 <= 390, "{plot:?}");
        assert!(plot.pixels_y.1 >= 8 && plot.pixels_y.0 <= 140, "{plot:?}");
        // A value maps to its pixel and back; clicks beyond the edges give the edges.
        for x in [0.0, 3.0, 7.0, 10.0] {
            assert!((plot.x_at(plot.pixel_of(x)) - x).abs() < 1e-9);
        }
        assert_eq!(plot.x_at(-50.0), 0.0);
        assert_eq!(plot.x_at(10_000.0), 10.0);
        // Twice the device pixels: the same chart at twice the size.
        let (backend, _) = Recorder::new(780, 320);
        let mut big = spec(&label);
        big.scale = 2.0;
        let doubled = draw(&backend.into_drawing_area(), &big).unwrap();
        assert!((doubled.pixels_x.0 - 2 * plot.pixels_x.0).abs() <= 2);
    }

    #[test]
    fn lines_come_in_their_colours_with_the_rule_its_label_and_the_marks() {
        let label = |v: &f64| format!("v{v:.0}");
        let (backend, log) = Recorder::new(600, 200);
        draw(&backend.into_drawing_area(), &spec(&label)).unwrap();
        let log = log.borrow();
        for c in ["#d8413a", "#3b78d8", "#aa3377"] {
            assert!(log.has_colour(colour(c)), "{c}");
        }
        assert!(log.texts.iter().any(|t| t == "budget"), "{:?}", log.texts);
        assert!(log.texts.iter().any(|t| t == "v10"), "{:?}", log.texts);
        // Each line thinner than the one before: a seat's line under another's still shows.
        let width = |c: &str| {
            let c = colour(c);
            log.lines
                .iter()
                .filter(|l| l.2 == (c.0, c.1, c.2))
                .map(|l| l.3)
                .max()
        };
        assert_eq!((width("#d8413a"), width("#3b78d8")), (Some(4), Some(2)));
        // The marker: a white line through the plot at x.
        let (backend, log) = Recorder::new(600, 200);
        let plot = Plot {
            pixels_x: (50, 550),
            pixels_y: (180, 10),
            x: 0.0..10.0,
            y: 0.0..1.0,
        };
        let red = colour("#d8413a");
        draw_marker(&backend.into_drawing_area(), &plot, 5.0, &[(1.0, red)], 1.0).unwrap();
        let log = log.borrow();
        let marker = log
            .lines
            .iter()
            .find(|l| l.2 == (255, 255, 255))
            .expect("the marker");
        // A 2-pixel line, drawn around its column.
        assert!((298..=302).contains(&marker.0 .0) && (298..=302).contains(&marker.1 .0));
        // The dot of the highest value is at the top.
        let dot: Vec<i32> = log
            .lines
            .iter()
            .filter(|l| l.2 == (red.0, red.1, red.2))
            .flat_map(|l| [l.0 .1, l.1 .1])
            .collect();
        assert!(
            !dot.is_empty() && dot.iter().all(|y| (4..=16).contains(y)),
            "{dot:?}"
        );
    }

    #[test]
    fn hex_colours_are_read_and_anything_else_is_grey() {
        assert_eq!(colour("#d8413a"), RGBColor(0xd8, 0x41, 0x3a));
        assert_eq!(colour("red"), RGBColor(0x99, 0x99, 0x99));
        assert_eq!(colour("#zz0000"), RGBColor(0x99, 0, 0));
    }
}
