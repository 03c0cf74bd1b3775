//! The results wall: the arena's standings and head-to-head matrix for a projector. It fills the
//! screen (full screen where the browser allows), in type of at least 24 px at 1280 × 720, in
//! pages of as many rows as fit (← and → turn them), updated live while the arena plays.
//!
//! A class's pseudonyms can be shown instead of the names (the exports keep the names), and
//! the ranks below the top N can be hidden: those bots are then listed by name, unranked, and the
//! matrix (which would tell their order) is not offered.
//!
//! The matrix's cells hold their win rate as text; their colours (ColorBrewer's purple–orange,
//! told apart by colour-blind viewers) say the same.

use std::rc::Rc;

use arena::stats::{self, MatchResult, Summary};
use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::arena_charts::{rate_class, win_rate};

/// "Show the top N only" choices (0: every rank).
const TOP_CHOICES: [usize; 5] = [0, 3, 5, 10, 20];
/// The height of a row and of everything above the rows, in CSS pixels (`.wall` in
/// `www/style.css`: 28 px type).
const ROW_PX: i32 = 46;
const CHROME_PX: i32 = 210;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    Standings,
    Matrix,
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// Each bot's name.
    pub names: Vec<String>,
    /// Each bot's pseudonym ("" for none).
    pub pseudonyms: Vec<String>,
    pub results: Rc<Vec<MatchResult>>,
    /// How far the arena is ("playing: 40 of 600 matches done").
    pub status: String,
    pub on_close: Callback<()>,
}

/// The names to show: pseudonyms where asked for and given.
pub fn shown_names(names: &[String], pseudonyms: &[String], use_pseudonyms: bool) -> Vec<String> {
    names
        .iter()
        .enumerate()
        .map(|(b, name)| match pseudonyms.get(b) {
            Some(p) if use_pseudonyms && !p.is_empty() => p.clone(),
            _ => name.clone(),
        })
        .collect()
}

/// The rows that fit a window `height` pixels high (at least three).
pub fn rows_per_page(height: i32) -> usize {
    ((height - CHROME_PX) / ROW_PX).max(3) as usize
}

/// The bots shown ranked (the top `top`, or all for 0) and those listed unranked, by name.
pub fn split_ranks(order: &[usize], names: &[String], top: usize) -> (Vec<usize>, Vec<usize>) {
    if top == 0 || top >= order.len() {
        return (order.to_vec(), Vec::new());
    }
    let mut rest = order[top..].to_vec();
    rest.sort_by(|&a, &b| names[a].to_lowercase().cmp(&names[b].to_lowercase()));
    (order[..top].to_vec(), rest)
}

fn window_height() -> i32 {
    web_sys::window()
        .and_then(|w| w.inner_height().ok())
        .and_then(|h| h.as_f64())
        .map_or(720, |h| h as i32)
}

fn request_full_screen(node: &NodeRef) {
    if let Some(element) = node.cast::<web_sys::Element>() {
        // Refused without a person's click just before, or in a frame: the wall still fills
        // the window.
        let _ = element.request_fullscreen();
    }
}

fn leave_full_screen() {
    if let Some(document) = web_sys::window().and_then(|w| w.document()) {
        if document.fullscreen_element().is_some() {
            document.exit_fullscreen();
        }
    }
}

fn standings(
    summary: &Summary,
    names: &[String],
    ranked: &[usize],
    page: std::ops::Range<usize>,
) -> Html {
    html! {
        <table id="wall-standings" class="wall-table">
            <thead><tr>
                <th>{ "#" }</th><th class="wall-name">{ "Bot" }</th><th>{ "Won" }</th>
                <th>{ "Drawn" }</th><th>{ "Lost" }</th><th>{ "Avg score" }</th>
                <th>{ "Rating" }</th><th>{ "Faults" }</th>
            </tr></thead>
            <tbody>
                { for ranked[page.clone()].iter().zip(page.clone()).map(|(&b, rank)| {
                    let s = &summary.bots[b];
                    let f = s.faults;
                    let faults = f.timeout + f.crash + f.invalid();
                    html! { <tr>
                        <td class="wall-rank">{ rank + 1 }</td>
                        <th scope="row" class="wall-name">{ &names[b] }</th>
                        <td>{ s.wins }</td><td>{ s.draws }</td><td>{ s.losses }</td>
                        <td>{ s.average_score().map_or("–".into(), |a| format!("{a:.1}")) }</td>
                        <td>{ format!("{:.1} ± {:.1}", s.rating.rating, s.rating.uncertainty) }</td>
                        <td>{ faults }</td>
                    </tr> }
                }) }
            </tbody>
        </table>
    }
}

fn matrix(
    summary: &Summary,
    names: &[String],
    order: &[usize],
    page: std::ops::Range<usize>,
) -> Html {
    html! {
        <table id="wall-matrix" class="wall-table wall-matrix arena-matrix">
            <caption>{ "Win rate of the row against the column (by rank; draws count half)" }</caption>
            <thead><tr>
                <td></td>
                { for (1..=order.len()).map(|rank| html! { <th scope="col">{ rank }</th> }) }
            </tr></thead>
            <tbody>
                { for order[page.clone()].iter().zip(page.clone()).map(|(&r, rank)| html! { <tr>
                    <th scope="row" class="wall-name">{ format!("{}. {}", rank + 1, names[r]) }</th>
                    { for order.iter().map(|&c| match win_rate(&summary.pairs, r, c) {
                        Some(rate) => html! {
                            <td class={classes!("wr", rate_class(rate))}>{ format!("{:.0}", 100.0 * rate) }</td>
                        },
                        None => html! { <td class="wr-none">{ if r == c { "—" } else { "·" } }</td> },
                    }) }
                </tr> }) }
            </tbody>
        </table>
    }
}

/// The wall's controls: names or pseudonyms, how many ranks, which view, which page.
struct Controls {
    use_pseudonyms: UseStateHandle<bool>,
    top: UseStateHandle<usize>,
    view: UseStateHandle<View>,
    page: UseStateHandle<usize>,
}

fn control_bar(c: &Controls, has_pseudonyms: bool, pages: usize, on_close: Callback<()>) -> Html {
    let on_names = {
        let (use_pseudonyms, page) = (c.use_pseudonyms.clone(), c.page.clone());
        Callback::from(move |_: MouseEvent| {
            use_pseudonyms.set(!*use_pseudonyms);
            page.set(0);
        })
    };
    let on_top = {
        let (top, page) = (c.top.clone(), c.page.clone());
        Callback::from(move |e: Event| {
            let select = e.target_unchecked_into::<web_sys::HtmlSelectElement>();
            top.set(select.value().parse().unwrap_or(0));
            page.set(0);
        })
    };
    let show = |v: View| {
        let (view, page) = (c.view.clone(), c.page.clone());
        Callback::from(move |_: MouseEvent| {
            view.set(v);
            page.set(0);
        })
    };
    let turn = |by: isize| {
        let page = c.page.clone();
        Callback::from(move |_: MouseEvent| {
            page.set((*page as isize + by).clamp(0, pages as isize - 1) as usize)
        })
    };
    let matrix_off = *c.top != 0;
    html! {
        <div class="wall-controls">
            <button type="button" id="wall-standings-view" aria-pressed={(*c.view == View::Standings).to_string()}
                onclick={show(View::Standings)}>{ "Standings" }</button>
            <button type="button" id="wall-matrix-view" aria-pressed={(*c.view == View::Matrix).to_string()}
                onclick={show(View::Matrix)} disabled={matrix_off}
                title={if matrix_off { "The matrix would tell every rank: show every rank to see it" } else { "" }}>
                { "Head to head" }</button>
            if has_pseudonyms {
                <button type="button" id="wall-names" aria-pressed={(*c.use_pseudonyms).to_string()}
                    onclick={on_names}>
                    { if *c.use_pseudonyms { "Showing pseudonyms" } else { "Showing names" } }
                </button>
            }
            <label>{ "Ranks " }
                <select id="wall-top" onchange={on_top}>
                    { for TOP_CHOICES.iter().map(|&n| html! {
                        <option value={n.to_string()} selected={n == *c.top}>
                            { if n == 0 { "all".to_string() } else { format!("top {n}") } }
                        </option>
                    }) }
                </select>
            </label>
            if pages > 1 {
                <button type="button" id="wall-previous" onclick={turn(-1)} disabled={*c.page == 0}
                    aria-label="previous page">{ "◀" }</button>
                <span id="wall-page">{ format!("page {} of {pages}", *c.page + 1) }</span>
                <button type="button" id="wall-next" onclick={turn(1)} disabled={*c.page + 1 >= pages}
                    aria-label="next page">{ "▶" }</button>
            }
            <button type="button" id="wall-close" onclick={Callback::from(move |_: MouseEvent| on_close.emit(()))}>
                { "Close (Esc)" }
            </button>
        </div>
    }
}

/// Esc closes the wall; ← → (and Page Up, Page Down) turn its pages.
#[hook]
fn use_wall_keys(page: &UseStateHandle<usize>, pages: usize, on_close: &Callback<()>) {
    let (page, on_close) = (page.clone(), on_close.clone());
    use_effect_with((*page, pages), move |_| {
        let document = web_sys::window().and_then(|w| w.document());
        let listener = document.map(|document| {
            EventListener::new(&document, "keydown", move |e| {
                let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                    return;
                };
                let by = match e.key().as_str() {
                    "Escape" => return on_close.emit(()),
                    "ArrowRight" | "PageDown" => 1,
                    "ArrowLeft" | "PageUp" => -1,
                    _ => return,
                };
                e.prevent_default();
                page.set((*page as isize + by).clamp(0, pages as isize - 1) as usize);
            })
        });
        move || drop(listener)
    });
}

#[component(ResultsWall)]
pub fn results_wall(props: &Props) -> Html {
    let root = use_node_ref();
    let has_pseudonyms = props.pseudonyms.iter().any(|p| !p.is_empty());
    let controls = Controls {
        use_pseudonyms: use_state(|| has_pseudonyms),
        top: use_state(|| 0usize),
        view: use_state(|| View::Standings),
        page: use_state(|| 0usize),
    };
    let height = use_state(window_height);
    {
        let (root, height) = (root.clone(), height.clone());
        use_effect_with((), move |_| {
            request_full_screen(&root);
            let resize = web_sys::window().map(|window| {
                EventListener::new(&window, "resize", move |_| height.set(window_height()))
            });
            move || {
                drop(resize);
                leave_full_screen();
            }
        });
    }
    let names = shown_names(&props.names, &props.pseudonyms, *controls.use_pseudonyms);
    let refs: Vec<&MatchResult> = props.results.iter().collect();
    let summary = stats::summarize(names.len(), &refs);
    let order = arena::csv_tables::ranking(&summary);
    let (ranked, unranked) = split_ranks(&order, &names, *controls.top);
    let view = if unranked.is_empty() {
        *controls.view
    } else {
        View::Standings
    };
    let per_page = rows_per_page(*height).saturating_sub(if unranked.is_empty() { 0 } else { 2 });
    let rows = ranked.len().max(1);
    let pages = rows.div_ceil(per_page).max(1);
    let at = (*controls.page).min(pages - 1);
    let page = at * per_page..((at + 1) * per_page).min(ranked.len());
    use_wall_keys(&controls.page, pages, &props.on_close);

    html! {
        <div id="results-wall" class="wall" ref={root} role="dialog" aria-modal="true"
            aria-label="Results wall">
            <div class="wall-head">
                <h2>{ if view == View::Standings { "Standings" } else { "Head to head" } }</h2>
                <p id="wall-status">{ &props.status }</p>
            </div>
            { control_bar(&controls, has_pseudonyms, pages, props.on_close.clone()) }
            if view == View::Standings {
                { standings(&summary, &names, &ranked, page) }
            } else {
                { matrix(&summary, &names, &order, page) }
            }
            if !unranked.is_empty() && at + 1 == pages {
                <p id="wall-unranked" class="wall-unranked">
                    { format!("Also playing: {}", unranked.iter().map(|&b| names[b].as_str())
                        .collect::<Vec<_>>().join(", ")) }
                </p>
            }
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        ["Zoe", "ada", "Bea", "Cy"].map(String::from).to_vec()
    }

    #[test]
    fn pseudonyms_replace_names_only_when_asked_and_given() {
        let pseudonyms = vec!["Amber Otter".to_string(), String::new()];
        let shown = shown_names(&names(), &pseudonyms, true);
        assert_eq!(shown, ["Amber Otter", "ada", "Bea", "Cy"]);
        assert_eq!(shown_names(&names(), &pseudonyms, false), names());
    }

    #[test]
    fn ranks_below_the_top_are_listed_by_name_unranked() {
        let order = [2, 0, 3, 1];
        assert_eq!(split_ranks(&order, &names(), 0), (order.to_vec(), vec![]));
        assert_eq!(split_ranks(&order, &names(), 4), (order.to_vec(), vec![]));
        assert_eq!(split_ranks(&order, &names(), 1), (vec![2], vec![1, 3, 0]));
    }

    #[test]
    fn a_projector_at_720_pixels_shows_eleven_rows_a_page() {
        assert_eq!(rows_per_page(720), 11);
        assert_eq!(rows_per_page(100), 3);
    }
}
