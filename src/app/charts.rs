//! Charts of the match under the timeline: one of the game's key numbers per seat and step
//! (`engine::Stat`, picked from the game's list), and each bot's thinking time per turn as a
//! share of its budget, with faults and eliminations marked on the time axis. A click or tap on
//! a chart shows that step; a marker on each chart follows the step shown. Each chart has a
//! sentence that sums it up (its accessible description; the text view lists them all).
//!
//! The numbers are gathered step by step as frames arrive ([`Series`]), so that a long match
//! does not ask every frame again at each progress report.

use std::cell::RefCell;
use std::rc::Rc;

use engine::stats::{Gathered, SeatTime, StepStats};
use engine::{FaultKind, Frame, GameInfo, TurnRecord};
use plotters::style::RGBColor;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::chart_canvas::{self, Line, Mark, Plot, Spec};
use super::state::{entry, Action, Record};
use super::viewer::RecordRef;
use crate::{describe, painters, registry};

/// The seats' colours in charts: the board's.
pub fn seat_colour(game: &str, seat: usize) -> &'static str {
    match registry::entry(game) {
        Some(shown) => shown.painter.seat_colour(seat),
        None => painters::seat_colour(seat),
    }
}

/// A match's numbers per step, gathered as its frames arrive.
#[derive(Debug, Default)]
pub struct Series {
    /// The match they belong to: its first frame (another first frame is another match).
    first: usize,
    /// Counts the matches seen, so that charts know when to start again.
    pub generation: usize,
    /// The steps so far, with the budgets as the referee gives them (`engine::stats`).
    pub gathered: Gathered,
}

impl Series {
    /// Brings the numbers up to date with the match's frames and turns (frame `i + 1` follows
    /// turn `i`): adds the new steps, or starts again for another match.
    pub fn follow(
        &mut self,
        info: &GameInfo,
        relaxed: bool,
        frames: &[Rc<Frame>],
        turns: &[Rc<TurnRecord>],
    ) {
        let first = frames.first().map_or(0, |f| Rc::as_ptr(f) as usize);
        if first != self.first || frames.len() < self.gathered.steps.len() {
            self.first = first;
            self.generation += 1;
            self.gathered = Gathered::default();
        }
        let ready = frames.len().min(turns.len() + 1);
        let done = self.gathered.steps.len();
        for (i, frame) in frames.iter().enumerate().take(ready).skip(done) {
            let turn = i.checked_sub(1).map(|t| turns[t].as_ref());
            self.gathered.push(info, relaxed, frame, turn);
        }
    }

    /// The names of the game's key numbers.
    pub fn stat_names(&self) -> Vec<String> {
        self.gathered
            .steps
            .first()
            .map(|s| s.stats.iter().map(|st| st.name.to_string()).collect())
            .unwrap_or_default()
    }

    fn seats(&self) -> usize {
        self.gathered.steps.first().map_or(0, |s| s.out.len())
    }
}

/// The match's numbers as the charts' properties: equal while no step was added.
#[derive(Clone)]
pub struct SeriesRef(pub Rc<RefCell<Series>>, usize, usize);

impl PartialEq for SeriesRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) && self.1 == other.1 && self.2 == other.2
    }
}

/// The numbers of the match shown, kept up to date with it (none are gathered unless `charted`).
#[hook]
pub fn use_series(record: &Rc<Record>, charted: bool) -> SeriesRef {
    let cell = use_mut_ref(Series::default);
    let (len, generation) = {
        let mut series = cell.borrow_mut();
        if charted && !record.game.is_empty() {
            series.follow(
                entry(record.game).info,
                record.relaxed,
                &record.frames,
                &record.turns,
            );
        }
        (series.gathered.steps.len(), series.generation)
    };
    SeriesRef(cell, len, generation)
}

/// What happened to a seat at a step, marked on the time axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatEvent {
    pub step: usize,
    pub seat: usize,
    /// A fault of this kind, or (`None`) the seat went out.
    pub fault: Option<FaultKind>,
}

/// The faults and the eliminations (a seat's `out` turning true), in step order.
pub fn events(steps: &[StepStats]) -> Vec<SeatEvent> {
    let mut out = Vec::new();
    for (i, step) in steps.iter().enumerate() {
        for (seat, time) in step.seats.iter().enumerate() {
            if let Some(kind) = time.and_then(|t| t.fault) {
                out.push(SeatEvent {
                    step: i,
                    seat,
                    fault: Some(kind),
                });
            }
        }
        let before = i.checked_sub(1).map(|b| &steps[b].out);
        for (seat, &gone) in step.out.iter().enumerate() {
            let was = before.and_then(|b| b.get(seat)).copied().unwrap_or(false);
            if gone && !was && i > 0 {
                out.push(SeatEvent {
                    step: i,
                    seat,
                    fault: None,
                });
            }
        }
    }
    out
}

/// The step under a value of the charts' x axis (which counts steps): the nearest one.
pub fn step_at(x: f64, steps: usize) -> usize {
    let last = steps.saturating_sub(1);
    if x.is_nan() || x <= 0.0 {
        0
    } else {
        (x.round() as usize).min(last)
    }
}

/// A thinking time as a share of its budget, in percent.
pub fn share(time: &SeatTime) -> f64 {
    if time.budget_ms == 0 {
        0.0
    } else {
        100.0 * time.time_ms / f64::from(time.budget_ms)
    }
}

/// A share of a budget in words: "70%", "0.2%" (a tenth of a percent below 1%).
fn percent_words(percent: f64) -> String {
    if percent < 1.0 {
        format!("{percent:.1}%")
    } else {
        format!("{percent:.0}%")
    }
}

/// "gold at turn 40: red (expander) 42, highest 60 at turn 31; blue (starter) 18, highest 25
/// at turn 12." `label` names a seat, `turn` numbers a step as the viewer does.
pub fn stat_summary(
    steps: &[StepStats],
    stat: usize,
    label: &dyn Fn(usize) -> String,
    turn: &dyn Fn(usize) -> u32,
) -> String {
    let Some(last) = steps.last() else {
        return "No turns yet.".to_string();
    };
    let Some(name) = last.stats.get(stat).map(|s| s.name.to_string()) else {
        return "No numbers for this game.".to_string();
    };
    let value = |step: &StepStats, seat: usize| {
        step.stats
            .get(stat)
            .and_then(|s| s.values.get(seat))
            .copied()
    };
    let seats: Vec<String> = (0..last.out.len())
        .map(|seat| {
            let now = value(last, seat).unwrap_or(0);
            // The first step where the seat had its highest value.
            let best = steps
                .iter()
                .enumerate()
                .filter_map(|(i, s)| value(s, seat).map(|v| (i, v)))
                .fold(None, |best: Option<(usize, i64)>, (i, v)| match best {
                    Some((_, b)) if b >= v => best,
                    _ => Some((i, v)),
                });
            match best {
                Some((i, v)) if v > now => {
                    format!("{} {now}, highest {v} at turn {}", label(seat), turn(i))
                }
                _ => format!("{} {now}, its highest", label(seat)),
            }
        })
        .collect();
    format!(
        "{name} at turn {}: {}.",
        turn(steps.len() - 1),
        seats.join("; ")
    )
}

/// "Time per turn: red (expander) at most 0.05 ms (0% of its 50 ms budget, turn 3); blue
/// (starter) at most 151 ms (302% of its 50 ms budget, turn 40), a timeout at turn 40, out at
/// turn 40."
pub fn time_summary(
    steps: &[StepStats],
    label: &dyn Fn(usize) -> String,
    turn: &dyn Fn(usize) -> u32,
) -> String {
    let seats = steps.first().map_or(0, |s| s.out.len());
    if steps.len() < 2 {
        return "Time per turn: no turns yet.".to_string();
    }
    let happened = events(steps);
    let parts: Vec<String> = (0..seats)
        .map(|seat| {
            let worst = steps
                .iter()
                .enumerate()
                .filter_map(|(i, s)| s.seats.get(seat).copied().flatten().map(|t| (i, t)))
                .fold(
                    None,
                    |worst: Option<(usize, SeatTime)>, (i, t)| match worst {
                        Some((_, w)) if share(&w) >= share(&t) => worst,
                        _ => Some((i, t)),
                    },
                );
            let mut text = match worst {
                Some((i, t)) => format!(
                    "{} at most {} ({} of its {} ms budget, turn {})",
                    label(seat),
                    describe::millis(t.time_ms),
                    percent_words(share(&t)),
                    t.budget_ms,
                    turn(i)
                ),
                None => format!("{} not asked yet", label(seat)),
            };
            for e in happened.iter().filter(|e| e.seat == seat) {
                match e.fault {
                    Some(kind) => text.push_str(&format!(", a {kind} at turn {}", turn(e.step))),
                    None => text.push_str(&format!(", out at turn {}", turn(e.step))),
                }
            }
            text
        })
        .collect();
    format!("Time per turn: {}.", parts.join("; "))
}

/// Every chart's sentence: one per key number, then the time (for the text view).
pub fn summaries(game: &str, record: &Record, series: &Series) -> Vec<String> {
    let label = |seat: usize| describe::seat_label(game, seat, &record.names);
    let turn = |step: usize| record.turn_number(step);
    let mut out: Vec<String> = (0..series.stat_names().len())
        .map(|stat| stat_summary(&series.gathered.steps, stat, &label, &turn))
        .collect();
    if !series.gathered.steps.is_empty() {
        out.push(time_summary(&series.gathered.steps, &label, &turn));
    }
    out
}

/// A number on a y axis: whole when the axis spans more than a few units.
fn axis_number(v: f64, span: f64) -> String {
    if span >= 5.0 || v.fract() == 0.0 {
        let rounded = v.round();
        if rounded.abs() >= 10_000.0 {
            format!("{:.0}k", rounded / 1000.0)
        } else {
            format!("{rounded:.0}")
        }
    } else {
        format!("{v:.1}")
    }
}

/// The x axis: steps from the first to the last (at least one step wide).
fn x_range(steps: usize) -> std::ops::Range<f64> {
    0.0..(steps.saturating_sub(1).max(1) as f64)
}

/// The y axis of a key number: from 0 (or below, for negative values) to a little above its
/// highest value.
pub fn stat_range(steps: &[StepStats], stat: usize) -> std::ops::Range<f64> {
    let values = steps
        .iter()
        .filter_map(|s| s.stats.get(stat))
        .flat_map(|s| s.values.iter().copied());
    let (lo, hi) = values.fold((0i64, 0i64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let (lo, hi) = (lo as f64, hi as f64);
    let hi = if hi - lo < 1.0 { lo + 1.0 } else { hi };
    lo..hi + (hi - lo) * 0.06
}

/// The time chart's lowest share of the budget, in percent: quicker turns are drawn there.
const FLOOR_PERCENT: f64 = 0.1;

/// The time chart's height of a share of the budget (in percent): its logarithm, so that a bot
/// that takes 0.5% of its budget and one near it are both seen, each with its trend, under the
/// budget's line (shares below [`FLOOR_PERCENT`] at the floor).
pub fn time_y(percent: f64) -> f64 {
    percent.max(FLOOR_PERCENT).log10()
}

/// The time chart's label of a height: "0.1%", "1%", "10%", "100%" (only decades are labelled).
fn time_label(y: f64) -> String {
    if (y - y.round()).abs() > 1e-6 {
        return String::new();
    }
    let percent = 10f64.powf(y.round());
    if percent < 1.0 {
        format!("{percent:.1}%")
    } else {
        format!("{percent:.0}%")
    }
}

/// The y axis of the time chart ([`time_y`]): from the floor to a little above the budget, or
/// to the slowest turn (at most 250%: the turns of a bot that overran further are drawn at the
/// top).
pub fn time_range(steps: &[StepStats]) -> std::ops::Range<f64> {
    let worst = steps
        .iter()
        .flat_map(|s| s.seats.iter().flatten())
        .map(share)
        .fold(0.0, f64::max);
    time_y(FLOOR_PERCENT)..time_y((worst * 1.15).clamp(130.0, 250.0))
}

/// A line per seat in its colour: `value` of each step where it has one.
fn seat_lines(
    game: &str,
    steps: &[StepStats],
    value: impl Fn(&StepStats, usize) -> Option<f64>,
) -> Vec<Line> {
    let seats = steps.first().map_or(0, |s| s.out.len());
    (0..seats)
        .map(|seat| Line {
            colour: chart_canvas::colour(seat_colour(game, seat)),
            points: steps
                .iter()
                .enumerate()
                .filter_map(|(i, s)| Some((i as f64, value(s, seat)?)))
                .collect(),
            dash: None,
            shape: Some(chart_canvas::SHAPES[seat % chart_canvas::SHAPES.len()]),
        })
        .collect()
}

fn stat_lines(game: &str, steps: &[StepStats], stat: usize) -> Vec<Line> {
    seat_lines(game, steps, |s, seat| {
        Some(*s.stats.get(stat)?.values.get(seat)? as f64)
    })
}

fn time_lines(game: &str, steps: &[StepStats], top: f64) -> Vec<Line> {
    seat_lines(game, steps, |s, seat| {
        let t = s.seats.get(seat).copied().flatten()?;
        Some(time_y(share(&t)).min(top))
    })
}

fn marks(game: &str, steps: &[StepStats]) -> Vec<Mark> {
    events(steps)
        .iter()
        .map(|e| Mark {
            x: e.step as f64,
            colour: chart_canvas::colour(seat_colour(game, e.seat)),
            fault: e.fault.is_some(),
        })
        .collect()
}

/// The time chart: each seat's share of its budget per step, the budget's line, the marks.
fn time_spec<'a>(game: &str, steps: &[StepStats], x_label: &'a dyn Fn(&f64) -> String) -> Spec<'a> {
    let y = time_range(steps);
    let top = y.end;
    Spec {
        x: x_range(steps.len()),
        y,
        x_label,
        y_label: &|v: &f64| time_label(*v),
        lines: time_lines(game, steps, top),
        rule: Some((time_y(100.0), "budget".to_string())),
        marks: marks(game, steps),
        scale: 1.0,
    }
}

/// The dots of the marker at a step: each seat's value there, in its colour.
fn stat_dots(game: &str, steps: &[StepStats], stat: usize, step: usize) -> Vec<(f64, RGBColor)> {
    let Some(s) = steps.get(step).and_then(|s| s.stats.get(stat)) else {
        return Vec::new();
    };
    s.values
        .iter()
        .enumerate()
        .map(|(seat, &v)| (v as f64, chart_canvas::colour(seat_colour(game, seat))))
        .collect()
}

fn time_dots(game: &str, steps: &[StepStats], step: usize, top: f64) -> Vec<(f64, RGBColor)> {
    let Some(s) = steps.get(step) else {
        return Vec::new();
    };
    s.seats
        .iter()
        .enumerate()
        .filter_map(|(seat, t)| {
            t.map(|t| {
                (
                    time_y(share(&t)).min(top),
                    chart_canvas::colour(seat_colour(game, seat)),
                )
            })
        })
        .collect()
}

/// "1000 ms the first turn, 50 ms after" (or one budget when both are the same).
fn budget_words(info: &GameInfo, relaxed: bool) -> String {
    let (first, later) = (
        info.budget_ms(true, relaxed),
        info.budget_ms(false, relaxed),
    );
    if first == later {
        format!("{later} ms a turn")
    } else {
        format!("{first} ms the first turn, {later} ms after")
    }
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub record: RecordRef,
    pub series: SeriesRef,
    /// The frame shown.
    pub frame: usize,
    pub dispatch: Callback<Action>,
}

/// The two charts' canvases and where their plots are (for clicks and the marker).
#[derive(Default)]
struct Drawn {
    stat: Option<Plot>,
    time: Option<Plot>,
    /// Counts drawings, so that the marker is drawn again after each.
    count: u32,
}

fn set_plot_attributes(canvas: &HtmlCanvasElement, plot: &Plot) {
    // For the browser tests: where the steps are on the canvas.
    let _ = canvas.set_attribute("data-left", &plot.pixels_x.0.to_string());
    let _ = canvas.set_attribute("data-right", &plot.pixels_x.1.to_string());
    let _ = canvas.set_attribute("data-last", &plot.x.end.to_string());
}

/// The charts' canvases: the two plots and, over each, the marker of the step shown.
#[derive(Clone, Default, PartialEq)]
struct Canvases {
    stat: NodeRef,
    stat_overlay: NodeRef,
    time: NodeRef,
    time_overlay: NodeRef,
}

/// Draws both charts again when the match's numbers, the number picked or the size change.
#[hook]
fn use_chart_drawing(
    props: &Props,
    stat: usize,
    redraws: u32,
    canvases: &Canvases,
    drawn: &Rc<RefCell<Drawn>>,
) {
    let (stat_canvas, time_canvas) = (canvases.stat.clone(), canvases.time.clone());
    let (drawn, record) = (drawn.clone(), props.record.0.clone());
    let series = props.series.0.clone();
    let game = record.game;
    use_effect_with((props.series.clone(), stat, redraws), move |_| {
        let series = series.borrow();
        let steps = &series.gathered.steps;
        let turn = |x: &f64| {
            if x.fract() == 0.0 && *x >= 0.0 {
                record.turn_number(*x as usize).to_string()
            } else {
                String::new()
            }
        };
        let mut d = drawn.borrow_mut();
        d.count += 1;
        if let Some(canvas) = stat_canvas.cast::<HtmlCanvasElement>() {
            let y = stat_range(steps, stat);
            let span = y.end - y.start;
            let y_label = move |v: &f64| axis_number(*v, span);
            d.stat = chart_canvas::paint(
                &canvas,
                Spec {
                    x: x_range(steps.len()),
                    y,
                    x_label: &turn,
                    y_label: &y_label,
                    lines: stat_lines(game, steps, stat),
                    rule: None,
                    marks: marks(game, steps),
                    scale: 1.0,
                },
            );
            if let Some(plot) = &d.stat {
                set_plot_attributes(&canvas, plot);
            }
        }
        if let Some(canvas) = time_canvas.cast::<HtmlCanvasElement>() {
            d.time = chart_canvas::paint(&canvas, time_spec(game, steps, &turn));
            if let Some(plot) = &d.time {
                set_plot_attributes(&canvas, plot);
            }
        }
    });
}

/// The marker follows the step shown (drawn on the overlays: the charts stay as drawn).
#[hook]
fn use_chart_marker(props: &Props, stat: usize, canvases: &Canvases, drawn: &Rc<RefCell<Drawn>>) {
    let canvases = canvases.clone();
    let (drawn, series) = (drawn.clone(), props.series.0.clone());
    let game = props.record.0.game;
    let count = drawn.borrow().count;
    use_effect_with((props.frame, count, stat), move |&(frame, _, stat)| {
        let series = series.borrow();
        let steps = &series.gathered.steps;
        let d = drawn.borrow();
        let step = frame.min(steps.len().saturating_sub(1));
        let charts = [
            (&canvases.stat_overlay, &canvases.stat, &d.stat, true),
            (&canvases.time_overlay, &canvases.time, &d.time, false),
        ];
        for (overlay, canvas, plot, is_stat) in charts {
            let (Some(overlay), Some(canvas), Some(plot)) = (
                overlay.cast::<HtmlCanvasElement>(),
                canvas.cast::<HtmlCanvasElement>(),
                plot,
            ) else {
                continue;
            };
            let dots = if is_stat {
                stat_dots(game, steps, stat, step)
            } else {
                time_dots(game, steps, step, plot.y.end)
            };
            chart_canvas::paint_marker(
                &overlay,
                &canvas,
                (!steps.is_empty()).then_some((plot, step as f64, &dots[..])),
            );
        }
    });
}

/// A click on a chart shows the turn under it.
fn seek_on_click(
    props: &Props,
    canvas: &NodeRef,
    drawn: &Rc<RefCell<Drawn>>,
    which: fn(&Drawn) -> Option<&Plot>,
) -> Callback<MouseEvent> {
    let (canvas, drawn) = (canvas.clone(), drawn.clone());
    let (series, dispatch) = (props.series.0.clone(), props.dispatch.clone());
    Callback::from(move |e: MouseEvent| {
        let Some(c) = canvas.cast::<HtmlCanvasElement>() else {
            return;
        };
        let d = drawn.borrow();
        let Some(plot) = which(&d) else {
            return;
        };
        let x = plot.x_at(chart_canvas::click_pixel(&c, f64::from(e.client_x())));
        let steps = series.borrow().gathered.steps.len();
        if steps > 0 {
            dispatch.emit(Action::Seek(step_at(x, steps)));
        }
    })
}

/// The buttons that pick the number charted (kept by name in `picked`).
fn stat_picker(names: &[String], stat: usize, picked: &UseStateHandle<String>) -> Html {
    html! {
        <div class="chart-picker" role="group" aria-label="The number charted">
            { for names.iter().enumerate().map(|(i, name)| {
                let (picked, chosen) = (picked.clone(), name.clone());
                html! {
                    <button type="button" class="chart-stat" aria-pressed={(i == stat).to_string()}
                        onclick={Callback::from(move |_: MouseEvent| picked.set(chosen.clone()))}>
                        { name }
                    </button>
                }
            }) }
        </div>
    }
}

/// Each seat's colour and marker shape, and the fault and elimination marks.
fn legend(seats: usize, label: &dyn Fn(usize) -> String) -> Html {
    html! {
        <ul class="chart-legend" aria-label="Legend">
            { for (0..seats).map(|seat| html! {
                <li>
                    <span class={classes!("swatch", format!("chart-seat-{}", seat % 8),
                        format!("shape-{}", seat % chart_canvas::SHAPES.len()))}></span>
                    { label(seat) }
                </li>
            }) }
            <li>{ "▲ a fault" }</li>
            <li>{ "✕ out of the match" }</li>
        </ul>
    }
}

#[component(Charts)]
pub fn charts(props: &Props) -> Html {
    let record = &props.record.0;
    let game = record.game;
    let series = props.series.0.clone();
    let names = series.borrow().stat_names();
    // The number picked, by name: kept from match to match while the game has it (gold in Ice
    // and Fire and in microRTS), else the game's first.
    let picked = use_state(String::new);
    let stat = names.iter().position(|n| *n == *picked).unwrap_or(0);
    let canvases = use_memo((), |_| Canvases::default());
    let drawn = use_mut_ref(Drawn::default);
    // Window resizes and unfoldings: the charts are drawn again at their new size (folded, they
    // have no size to draw at).
    let redraws = chart_canvas::use_redraws();
    let on_toggle = {
        let redraws = redraws.clone();
        Callback::from(move |_: Event| redraws.again())
    };
    use_chart_drawing(props, stat, redraws.count(), &canvases, &drawn);
    use_chart_marker(props, stat, &canvases, &drawn);
    let on_stat_click = seek_on_click(props, &canvases.stat, &drawn, |d| d.stat.as_ref());
    let on_time_click = seek_on_click(props, &canvases.time, &drawn, |d| d.time.as_ref());

    // The sentences change with the match, not with the step shown: made once per change of
    // the match, not at each step of playback.
    let texts = {
        let (record, series) = (record.clone(), series.clone());
        use_memo((props.series.clone(), stat), move |_| {
            let s = series.borrow();
            let label = |seat: usize| describe::seat_label(record.game, seat, &record.names);
            let turn = |step: usize| record.turn_number(step);
            (
                stat_summary(&s.gathered.steps, stat, &label, &turn),
                time_summary(&s.gathered.steps, &label, &turn),
            )
        })
    };
    let s = series.borrow();
    if s.gathered.steps.is_empty() {
        return html! {};
    }
    let label = |seat: usize| describe::seat_label(game, seat, &record.names);
    let (stat_text, time_text) = (texts.0.clone(), texts.1.clone());
    let stat_name = names.get(stat).cloned().unwrap_or_default();
    let step = props.frame.min(s.gathered.steps.len() - 1);
    let budgets = budget_words(entry(game).info, record.relaxed);
    html! {
        <details id="charts" class="charts" open=true ontoggle={on_toggle}>
            <summary>{ "Charts of the match" }</summary>
            { stat_picker(&names, stat, &picked) }
            <figure class="chart" id="chart-stat-figure" data-step={step.to_string()}>
                <figcaption class="chart-title">{ format!("{stat_name} per turn") }</figcaption>
                <div class="chart-box">
                    <canvas id="chart-stat" class="chart-canvas" ref={canvases.stat.clone()} role="img"
                        aria-label={format!("Chart: {stat_name} per turn; click a turn to show it")}
                        aria-describedby="chart-stat-summary" onclick={on_stat_click}></canvas>
                    <canvas class="chart-overlay" ref={canvases.stat_overlay.clone()} aria-hidden="true"></canvas>
                </div>
                <p id="chart-stat-summary" class="chart-summary">{ stat_text }</p>
            </figure>
            <figure class="chart" id="chart-time-figure" data-step={step.to_string()}>
                <figcaption class="chart-title">
                    { format!("Time per turn against the budget, as a share of it on a log scale ({budgets})") }
                </figcaption>
                <div class="chart-box">
                    <canvas id="chart-time" class="chart-canvas" ref={canvases.time.clone()} role="img"
                        aria-label="Chart: each bot's time per turn against its budget; click a turn to show it"
                        aria-describedby="chart-time-summary" onclick={on_time_click}></canvas>
                    <canvas class="chart-overlay" ref={canvases.time_overlay.clone()} aria-hidden="true"></canvas>
                </div>
                <p id="chart-time-summary" class="chart-summary">{ time_text }</p>
            </figure>
            { legend(s.seats(), &label) }
        </details>
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use engine::{Fault, Scene, SeatTurn, Stat, TurnOrder};

    const INFO: GameInfo = GameInfo {
        id: "test",
        name: "Test",
        version: 1,
        min_seats: 2,
        max_seats: 2,
        turn_order: TurnOrder::Simultaneous,
        first_turn_ms: 1000,
        turn_ms: 50,
        rulesets: &[],
        default_ruleset: "",
    };

    struct Gold([i64; 2]);

    impl Scene for Gold {
        fn events(&self) -> Vec<String> {
            Vec::new()
        }
        fn status(&self) -> Vec<String> {
            Vec::new()
        }
        fn text(&self) -> String {
            String::new()
        }
        fn view_json(&self) -> String {
            "null".into()
        }
        fn view(&self) -> Box<dyn std::any::Any> {
            Box::new(())
        }
        fn stats(&self) -> Vec<Stat> {
            vec![Stat::new("gold", self.0), Stat::new("units", [1, 2])]
        }
    }

    fn turn(times: &[(usize, f64, Option<FaultKind>)]) -> Rc<TurnRecord> {
        Rc::new(TurnRecord {
            seats: times
                .iter()
                .map(|&(seat, ms, fault)| {
                    let mut st = SeatTurn::new(seat, 0, String::new());
                    st.time_ms = ms;
                    st.fault = fault.map(|kind| Fault {
                        seat,
                        turn: 1,
                        kind,
                        text: String::new(),
                    });
                    st
                })
                .collect(),
        })
    }

    fn frame(turn: u32, gold: [i64; 2], out: [bool; 2]) -> Rc<Frame> {
        Rc::new(Frame::new(turn, out.to_vec(), Arc::new(Gold(gold))))
    }

    /// A match of four steps: red's gold peaks at turn 2; blue times out in turn 3 and is out.
    fn a_match() -> (Vec<Rc<Frame>>, Vec<Rc<TurnRecord>>) {
        let frames = vec![
            frame(0, [5, 5], [false, false]),
            frame(1, [10, 6], [false, false]),
            frame(2, [60, 7], [false, false]),
            frame(3, [42, 18], [false, true]),
        ];
        let turns = vec![
            turn(&[(0, 700.0, None), (1, 3.0, None)]),
            turn(&[(0, 10.0, None), (1, 25.0, None)]),
            turn(&[(0, 5.0, None), (1, 151.0, Some(FaultKind::Timeout))]),
        ];
        (frames, turns)
    }

    fn label(seat: usize) -> String {
        ["red (expander)", "blue (starter)"][seat].to_string()
    }

    fn number(step: usize) -> u32 {
        step as u32
    }

    #[test]
    fn steps_follow_the_frames_as_they_come_and_start_again_for_another_match() {
        let (frames, turns) = a_match();
        let mut series = Series::default();
        // Frames arrive in batches; a frame whose turn is not heard yet waits.
        series.follow(&INFO, false, &frames[..2], &turns[..1]);
        assert_eq!(series.gathered.steps.len(), 2);
        series.follow(&INFO, false, &frames[..3], &turns[..1]);
        assert_eq!(series.gathered.steps.len(), 2);
        series.follow(&INFO, false, &frames, &turns);
        assert_eq!(series.gathered.steps.len(), 4);
        let first = series.generation;
        assert_eq!(series.gathered.steps[1].seats[0].unwrap().budget_ms, 1000);
        assert_eq!(series.gathered.steps[2].seats[0].unwrap().budget_ms, 50);
        assert_eq!(series.gathered.steps[3].stats[0].values, vec![42, 18]);
        assert_eq!(series.stat_names(), vec!["gold", "units"]);
        // The same match again: nothing changes. Another match (relaxed): numbers anew, with
        // budgets ten times longer.
        series.follow(&INFO, false, &frames, &turns);
        assert_eq!((series.gathered.steps.len(), series.generation), (4, first));
        let (other, turns) = a_match();
        series.follow(&INFO, true, &other[..2], &turns[..1]);
        assert_eq!(series.gathered.steps.len(), 2);
        assert_eq!(series.generation, first + 1);
        assert_eq!(series.gathered.steps[1].seats[0].unwrap().budget_ms, 10_000);
    }

    #[test]
    fn faults_and_eliminations_are_found_at_their_steps() {
        let (frames, turns) = a_match();
        let mut series = Series::default();
        series.follow(&INFO, false, &frames, &turns);
        assert_eq!(
            events(&series.gathered.steps),
            vec![
                SeatEvent {
                    step: 3,
                    seat: 1,
                    fault: Some(FaultKind::Timeout)
                },
                SeatEvent {
                    step: 3,
                    seat: 1,
                    fault: None
                },
            ]
        );
    }

    #[test]
    fn summaries_say_where_each_seat_ends_its_best_and_its_slowest_turn() {
        let (frames, turns) = a_match();
        let mut series = Series::default();
        series.follow(&INFO, false, &frames, &turns);
        assert_eq!(
            stat_summary(&series.gathered.steps, 0, &label, &number),
            "gold at turn 3: red (expander) 42, highest 60 at turn 2; \
             blue (starter) 18, its highest."
        );
        assert_eq!(
            stat_summary(&series.gathered.steps, 1, &label, &number),
            "units at turn 3: red (expander) 1, its highest; blue (starter) 2, its highest."
        );
        assert_eq!(
            time_summary(&series.gathered.steps, &label, &number),
            "Time per turn: red (expander) at most 700 ms (70% of its 1000 ms budget, turn 1); \
             blue (starter) at most 151 ms (302% of its 50 ms budget, turn 3), a timeout at \
             turn 3, out at turn 3."
        );
        assert_eq!(stat_summary(&[], 0, &label, &number), "No turns yet.");
        assert_eq!(
            [0.196, 0.0, 1.0, 70.4].map(percent_words),
            ["0.2%", "0.0%", "1%", "70%"]
        );
        assert_eq!(
            time_summary(&series.gathered.steps[..1], &label, &number),
            "Time per turn: no turns yet."
        );
    }

    #[test]
    fn the_time_chart_labels_decades_and_draws_the_budgets_line() {
        let (frames, turns) = a_match();
        let mut series = Series::default();
        series.follow(&INFO, false, &frames, &turns);
        let (backend, log) = super::super::chart_canvas::tests::Recorder::new(390, 170);
        let turn = |x: &f64| format!("t{x}");
        let root = plotters::prelude::IntoDrawingArea::into_drawing_area(backend);
        let plot = chart_canvas::draw(
            &root,
            &time_spec("ice-and-fire", &series.gathered.steps, &turn),
        )
        .unwrap();
        let log = log.borrow();
        for label in ["0.1%", "1%", "10%", "100%", "budget"] {
            assert!(
                log.texts.iter().any(|t| t == label),
                "{label}: {:?}",
                log.texts
            );
        }
        // The budget's line: dashed, in the labels' ink, at the height of 100%.
        let height = |y: f64| {
            let share = (y - plot.y.start) / (plot.y.end - plot.y.start);
            f64::from(plot.pixels_y.0) + share * f64::from(plot.pixels_y.1 - plot.pixels_y.0)
        };
        let at = height(2.0).round() as i32;
        assert!(
            log.lines
                .iter()
                .any(|l| l.0 .1 == l.1 .1 && (l.0 .1 - at).abs() <= 1 && l.2 == (0xe8, 0xe4, 0xd8)),
            "no budget line at row {at}"
        );
        // Red and blue lines.
        assert!(log.has_colour(chart_canvas::colour("#d8413a")));
        assert!(log.has_colour(chart_canvas::colour("#3b78d8")));
    }

    #[test]
    fn a_click_finds_the_nearest_step_and_stays_within_the_match() {
        assert_eq!(step_at(0.0, 10), 0);
        assert_eq!(step_at(3.4, 10), 3);
        assert_eq!(step_at(3.6, 10), 4);
        assert_eq!(step_at(-2.0, 10), 0);
        assert_eq!(step_at(42.0, 10), 9);
        assert_eq!(step_at(f64::NAN, 10), 0);
        assert_eq!(step_at(5.0, 0), 0);
        // Through a drawn chart: the pixel of each step is clicked back to it.
        let plot = Plot {
            pixels_x: (40, 380),
            pixels_y: (140, 8),
            x: x_range(200),
            y: 0.0..1.0,
        };
        for step in [0, 1, 57, 198, 199] {
            let pixel = plot.pixel_of(step as f64);
            assert_eq!(step_at(plot.x_at(pixel), 200), step);
            assert_eq!(step_at(plot.x_at(pixel + 0.4), 200), step);
        }
    }

    #[test]
    fn axes_hold_every_value_and_the_budget() {
        let (frames, turns) = a_match();
        let mut series = Series::default();
        series.follow(&INFO, false, &frames, &turns);
        let gold = stat_range(&series.gathered.steps, 0);
        assert_eq!(gold.start, 0.0);
        assert!(gold.end > 60.0 && gold.end < 70.0, "{gold:?}");
        // The time axis: 0.1% to 250% (the 302% turn), on a log scale.
        let time = time_range(&series.gathered.steps);
        assert_eq!(time, -1.0..250f64.log10());
        // Quick bots only: the budget's line is still in sight.
        assert_eq!(time_range(&series.gathered.steps[..2]).end, 130f64.log10());
        // The overrun is drawn at the top; a quick turn at the floor; 70% where it is.
        let lines = time_lines("ice-and-fire", &series.gathered.steps, time.end);
        assert_eq!(lines[1].points.last(), Some(&(3.0, time.end)));
        assert_eq!(time_y(0.0), -1.0);
        assert!((lines[0].points[0].1 - 70f64.log10()).abs() < 1e-12);
        assert_eq!(
            [-1.0, 0.0, 1.0, 2.0, 0.5].map(time_label),
            ["0.1%", "1%", "10%", "100%", ""]
        );
        assert_eq!(x_range(1), 0.0..1.0);
        assert_eq!(axis_number(1234.4, 2000.0), "1234");
        assert_eq!(axis_number(0.5, 1.0), "0.5");
        assert_eq!(axis_number(25_000.0, 30_000.0), "25k");
        let words = budget_words(&INFO, false);
        assert_eq!(words, "1000 ms the first turn, 50 ms after");
        assert_eq!(
            budget_words(&INFO, true),
            "10000 ms the first turn, 500 ms after"
        );
    }
}
