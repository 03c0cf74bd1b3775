//! The Arena panel's charts: each bot's rating (Weng-Lin μ) after each match played, a line per
//! bot (`arena::stats::rating_history`), and the pairwise win rates as a coloured matrix (a
//! table: its numbers are read as text, its colours say the same). Each has a sentence that sums
//! it up, as its accessible description.

use std::rc::Rc;

use arena::stats::{self, MatchResult, PairStats};
use gloo_timers::callback::Timeout;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::chart_canvas::{self, Line, Spec};

/// The bots' colours in the arena's charts (bots are not seats): Okabe and Ito's palette for
/// colour-blind viewers, which reads on the charts' dark background; `www/style.css` has the
/// same colours as `.arena-bot-N` swatches.
pub const BOT_COLOURS: [&str; 8] = [
    "#e69f00", "#56b4e9", "#009e73", "#f0e442", "#cc79a7", "#d55e00", "#ffffff", "#999999",
];

/// A bot's colour.
pub fn bot_colour(bot: usize) -> &'static str {
    BOT_COLOURS[bot % BOT_COLOURS.len()]
}

/// The dashes of a bot's line, for classes of more bots than colours: the first eight bots'
/// lines are solid, the next eight's dashed, then dotted, then long dashes; the legend's
/// swatches show the same (`.arena-dash-N` in `www/style.css`).
pub const BOT_DASHES: [Option<(f64, f64)>; 4] =
    [None, Some((8.0, 4.0)), Some((2.0, 3.0)), Some((14.0, 4.0))];

/// A bot's dash pattern, and its number (for the legend's class).
pub fn bot_dash(bot: usize) -> (usize, Option<(f64, f64)>) {
    let n = (bot / BOT_COLOURS.len()) % BOT_DASHES.len();
    (n, BOT_DASHES[n])
}

/// The first bot's share of the points against the second (wins, plus half the draws), read
/// from either side of the pair; `None` for a bot against itself or a pair that never met.
pub fn win_rate(pairs: &[PairStats], row: usize, col: usize) -> Option<f64> {
    if row == col {
        return None;
    }
    let (a, b) = (row.min(col), row.max(col));
    let rate = pairs.iter().find(|p| p.a == a && p.b == b)?.score_rate()?;
    Some(if row == a { rate } else { 1.0 - rate })
}

/// The colour class of a win rate: eleven steps from 0% to 100%.
pub fn rate_class(rate: f64) -> String {
    format!("wr-{}", (rate.clamp(0.0, 1.0) * 10.0).round() as u32)
}

/// "Ratings after 40 matches: rush 50.7, random 25.2, wait -2.1 (every bot started at 25.0)."
/// `history`: each bot's μ after each match, the start first.
pub fn rating_summary(names: &[String], history: &[Vec<f64>]) -> String {
    let Some(last) = history.last() else {
        return "No ratings yet.".to_string();
    };
    let mut order: Vec<usize> = (0..names.len().min(last.len())).collect();
    order.sort_by(|&a, &b| last[b].total_cmp(&last[a]));
    let list: Vec<String> = order
        .iter()
        .map(|&b| format!("{} {:.1}", names[b], last[b]))
        .collect();
    let start = stats::initial_rating().rating;
    let played = history.len() - 1;
    let s = if played == 1 { "" } else { "es" };
    format!(
        "Ratings after {played} match{s}: {} (every bot started at {start:.1}).",
        list.join(", ")
    )
}

/// "Win rates, row against column: rush 98% against random, 100% against wait; random 100%
/// against wait."
/// `order`: the bots, best first (each pair is said from its better bot's side).
pub fn matrix_summary(names: &[String], order: &[usize], pairs: &[PairStats]) -> String {
    let rows: Vec<String> = (0..order.len())
        .filter_map(|i| {
            let row = order[i];
            let against: Vec<String> = order[i + 1..]
                .iter()
                .filter_map(|&col| {
                    win_rate(pairs, row, col)
                        .map(|r| format!("{:.0}% against {}", 100.0 * r, names[col]))
                })
                .collect();
            (!against.is_empty()).then(|| format!("{} {}", names[row], against.join(", ")))
        })
        .collect();
    if rows.is_empty() {
        "Win rates: no pair has met yet.".to_string()
    } else {
        format!("Win rates, draws counting half: {}.", rows.join("; "))
    }
}

#[derive(Properties)]
pub struct Props {
    pub names: Vec<String>,
    pub results: Rc<Vec<MatchResult>>,
}

impl PartialEq for Props {
    fn eq(&self, other: &Self) -> bool {
        self.names == other.names && self.results.len() == other.results.len()
    }
}

/// How often the rating chart is drawn at most while an arena plays, in ms: each drawing asks
/// the page's layout for the chart's size and draws every bot's whole line.
const REDRAW_EVERY_MS: f64 = 1_000.0;

/// Draws each bot's rating after each match (`history`, one row per match played and one
/// before the first) on the chart's canvas.
fn paint_ratings(canvas: &NodeRef, history: &[Vec<f64>], bots: usize) {
    let Some(canvas) = canvas.cast::<HtmlCanvasElement>() else {
        return;
    };
    let (lo, hi) = history
        .iter()
        .flatten()
        .fold((f64::MAX, f64::MIN), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let pad = ((hi - lo) * 0.08).max(1.0);
    let matches = history.len().saturating_sub(1).max(1) as f64;
    let x_label = |x: &f64| {
        if x.fract() == 0.0 {
            format!("{x:.0}")
        } else {
            String::new()
        }
    };
    let y_label = |y: &f64| format!("{y:.0}");
    let lines = (0..bots)
        .map(|b| Line {
            colour: chart_canvas::colour(bot_colour(b)),
            dash: bot_dash(b).1,
            shape: None,
            points: history
                .iter()
                .enumerate()
                .filter_map(|(k, r)| Some((k as f64, *r.get(b)?)))
                .collect(),
        })
        .collect();
    let plot = chart_canvas::paint(
        &canvas,
        Spec {
            x: 0.0..matches,
            y: (lo - pad)..(hi + pad),
            x_label: &x_label,
            y_label: &y_label,
            lines,
            rule: None,
            marks: Vec::new(),
            scale: 1.0,
        },
    );
    if plot.is_some() {
        let _ = canvas.set_attribute("data-matches", &(history.len() - 1).to_string());
    }
}

#[component(ArenaCharts)]
pub fn arena_charts(props: &Props) -> Html {
    let canvas = use_node_ref();
    let refs: Vec<&MatchResult> = props.results.iter().collect();
    let bots = props.names.len();
    let history: Vec<Vec<f64>> = stats::rating_history(bots, &refs)
        .iter()
        .map(|ratings| ratings.iter().map(|r| r.rating).collect())
        .collect();
    let summary = stats::summarize(bots, &refs);
    let redraws = chart_canvas::use_redraws();
    let last_drawn = use_mut_ref(|| f64::NEG_INFINITY);
    let pending = use_mut_ref(|| None::<Timeout>);
    {
        let canvas = canvas.clone();
        let history = history.clone();
        let key = (props.results.len(), props.names.clone(), redraws.count());
        use_effect_with(key, move |_| {
            // A class plays several matches a second: its chart is drawn at most once in
            // REDRAW_EVERY_MS, the last time with every match.
            let wait = *last_drawn.borrow() + REDRAW_EVERY_MS - crate::runner::now_ms();
            let draw = move || {
                *last_drawn.borrow_mut() = crate::runner::now_ms();
                paint_ratings(&canvas, &history, bots);
            };
            if wait <= 0.0 {
                pending.borrow_mut().take();
                draw();
            } else {
                *pending.borrow_mut() = Some(Timeout::new(wait.ceil() as u32, draw));
            }
        });
    }
    if props.results.is_empty() {
        return html! {};
    }
    let names = &props.names;
    let mut order: Vec<usize> = (0..bots).collect();
    order.sort_by(|&a, &b| {
        summary.bots[b]
            .rating
            .rating
            .total_cmp(&summary.bots[a].rating.rating)
    });
    html! {
        <div class="arena-charts">
            <figure class="chart" id="arena-rating-figure">
                <figcaption class="chart-title">{ "Rating (Weng-Lin μ) after each match played" }</figcaption>
                <div class="chart-box">
                    <canvas id="arena-rating-chart" class="chart-canvas arena-rating-canvas" ref={canvas}
                        role="img" aria-label="Chart: each bot's rating after each match"
                        aria-describedby="arena-rating-summary"></canvas>
                </div>
                <ul class="chart-legend" aria-label="Legend">
                    { for (0..bots).map(|b| html! {
                        <li><span class={classes!("swatch", format!("arena-bot-{}", b % BOT_COLOURS.len()),
                            format!("arena-dash-{}", bot_dash(b).0))}></span>
                            { &names[b] }</li>
                    }) }
                </ul>
                <p id="arena-rating-summary" class="chart-summary">{ rating_summary(names, &history) }</p>
            </figure>
            <figure class="chart" id="arena-matrix-figure">
                <figcaption class="chart-title">{ "Win rate of the row's bot against the column's (draws count half)" }</figcaption>
                <div class="matrix-scroll">
                    <table id="arena-matrix" class="arena-matrix" aria-describedby="arena-matrix-summary">
                        <thead><tr>
                            <td></td>
                            { for order.iter().map(|&c| html! { <th scope="col">{ &names[c] }</th> }) }
                        </tr></thead>
                        <tbody>
                            { for order.iter().map(|&r| html! { <tr>
                                <th scope="row">{ &names[r] }</th>
                                { for order.iter().map(|&c| match win_rate(&summary.pairs, r, c) {
                                    Some(rate) => html! {
                                        <td class={classes!("wr", rate_class(rate))}>{ format!("{:.0}%", 100.0 * rate) }</td>
                                    },
                                    None => html! { <td class="wr-none">{ if r == c { "—" } else { "·" } }</td> },
                                }) }
                            </tr> }) }
                        </tbody>
                    </table>
                </div>
                <p id="arena-matrix-summary" class="chart-summary">{ matrix_summary(names, &order, &summary.pairs) }</p>
            </figure>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(index: usize, seats: [usize; 2], ranks: [usize; 2]) -> MatchResult {
        MatchResult {
            index,
            seed: 1,
            seats: seats.to_vec(),
            scores: vec![0, 0],
            ranks: ranks.to_vec(),
            faults: Vec::new(),
            replay: None,
        }
    }

    fn names() -> Vec<String> {
        ["rush", "random", "wait"].map(String::from).to_vec()
    }

    #[test]
    fn win_rates_read_from_either_side_and_colour_in_eleven_steps() {
        let played = [
            result(0, [0, 1], [1, 2]),
            result(1, [1, 0], [2, 1]),
            result(2, [0, 1], [1, 1]),
            result(3, [1, 0], [1, 2]),
        ];
        let refs: Vec<&MatchResult> = played.iter().collect();
        let s = stats::summarize(3, &refs);
        // rush: 2 wins, 1 draw, 1 loss against random.
        assert_eq!(win_rate(&s.pairs, 0, 1), Some(0.625));
        assert_eq!(win_rate(&s.pairs, 1, 0), Some(0.375));
        assert_eq!(win_rate(&s.pairs, 0, 0), None);
        assert_eq!(win_rate(&s.pairs, 0, 2), None, "never met");
        assert_eq!(rate_class(0.625), "wr-6");
        assert_eq!(rate_class(0.0), "wr-0");
        assert_eq!(rate_class(1.0), "wr-10");
        assert_eq!(rate_class(1.7), "wr-10");
        assert_eq!(
            matrix_summary(&names(), &[0, 1, 2], &s.pairs),
            "Win rates, draws counting half: rush 62% against random."
        );
        assert_eq!(
            matrix_summary(&names(), &[1, 0, 2], &s.pairs),
            "Win rates, draws counting half: random 38% against rush."
        );
        assert_eq!(
            matrix_summary(&names(), &[0, 1, 2], &stats::summarize(3, &[]).pairs),
            "Win rates: no pair has met yet."
        );
    }

    #[test]
    fn the_rating_sentence_lists_the_bots_best_first() {
        let played = [result(0, [0, 2], [1, 2]), result(1, [2, 1], [2, 1])];
        let refs: Vec<&MatchResult> = played.iter().collect();
        let mus = |k: usize| -> Vec<Vec<f64>> {
            stats::rating_history(3, &refs[..k])
                .iter()
                .map(|r| r.iter().map(|x| x.rating).collect())
                .collect()
        };
        let history = mus(2);
        let text = rating_summary(&names(), &history);
        // rush beat a new bot (+2.64); random beat wait after wait's loss, so gained less.
        assert_eq!(
            text,
            "Ratings after 2 matches: rush 27.6, random 27.4, wait 20.1 (every bot started at 25.0)."
        );
        assert!(rating_summary(&names(), &mus(1)).starts_with("Ratings after 1 match: rush"));
        assert_eq!(rating_summary(&names(), &[]), "No ratings yet.");
    }
}
