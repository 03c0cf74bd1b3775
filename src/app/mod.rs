//! The page: pick a game, write a bot, run it against a built-in bot, watch the match.

mod arena_charts;
mod arena_panel;
mod arena_progress;
mod board;
mod bot_pane;
mod bot_record;
mod chart_canvas;
mod charts;
mod class_roster;
mod code_editor;
mod code_keeping;
mod disclosure;
pub mod embed;
mod fault_lines;
mod game_list;
mod help;
mod human_panel;
mod landing;
mod lazy_script;
mod match_form;
pub mod measure;
mod offline_status;
mod playback;
mod qr_code;
mod replay_store;
mod replay_zip;
mod results_wall;
pub mod rules;
mod sharing;
mod splitter;
pub mod state;
mod take_over;
mod text_view;
mod turn_details;
mod viewer;
mod wasm_file;

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use crate::isolation;
use crate::runner::Runner;
use crate::storage;
use game_list::GameList;
use landing::Landing;
use match_form::MatchForm;
use state::{Action, AppState};
use viewer::Viewer;

/// What the page says instead of running a link's bots whose last run here never ended.
pub const UNFINISHED_LINK: &str = "The last time this link was opened here, its match never \
ended: the tab may have crashed, frozen or been closed while its bots ran. Its bots were not run \
again. Press Run to run them anyway.";

/// Widest screen (CSS pixels) laid out in one column (`www/style.css`, the 900 px query).
const ONE_COLUMN_PX: f64 = 900.0;

/// Scrolls the viewer to the top of the screen if the page is in one column.
fn scroll_to_board_when_narrow() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let narrow = window
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w <= ONE_COLUMN_PX);
    if let (true, Some(viewer)) = (
        narrow,
        window
            .document()
            .and_then(|d| d.get_element_by_id("viewer")),
    ) {
        viewer.scroll_into_view();
    }
}

/// A share link in the address opens at start, and again whenever the fragment changes.
#[hook]
fn use_link_in_address(dispatcher: UseReducerDispatcher<AppState>) {
    use_effect_with((), move |_| {
        let open = move || {
            if let Some(action) = sharing::action_for_location() {
                dispatcher.dispatch(action);
            }
        };
        open();
        let listener = sharing::on_hash_change(open);
        move || drop(listener)
    });
}

/// Plays a match: the form's (Run) or one taking over the match shown. The match before it is
/// stopped (its workers go away with it); a seed the game replaced (seed 0: a random map) is
/// put into the form and said.
fn match_starter(
    state: &UseReducerHandle<AppState>,
    runner: &Rc<RefCell<Option<Runner>>>,
) -> Callback<crate::runner::MatchSpec> {
    let (state, runner) = (state.clone(), runner.clone());
    Callback::from(move |spec: crate::runner::MatchSpec| {
        // Compared as numbers: "007" and "+7" are seed 7, not a seed replaced.
        let typed = state.form.seed.trim().parse::<i64>().ok();
        let replaced_seed = spec.from.is_none() && typed != Some(spec.setup.seed);
        if let Some(old) = runner.borrow_mut().take() {
            old.stop();
        }
        let dispatcher = state.dispatcher();
        let news = Callback::from(move |news: crate::runner::MatchNews| {
            if matches!(
                news,
                crate::runner::MatchNews::Finished { .. } | crate::runner::MatchNews::Failed(_)
            ) {
                storage::auto_run_ended();
            }
            dispatcher.dispatch(Action::News(news))
        });
        match Runner::start(spec.clone(), news) {
            Ok(started) => {
                let dispatcher = state.dispatcher();
                started.on_human(Callback::from(move |ask| {
                    dispatcher.dispatch(Action::HumanAsked(ask))
                }));
                *runner.borrow_mut() = Some(started);
                let seed = spec.setup.seed;
                state.dispatch(Action::Started(spec));
                if replaced_seed {
                    state.dispatch(Action::SetSeed(seed.to_string()));
                    state.dispatch(Action::Notice(format!(
                        "Seed 0 means a random map in this game: this match uses seed {seed}."
                    )));
                }
            }
            Err(why) => state.dispatch(Action::Notice(why)),
        }
    })
}

/// Run: the form's match, or why it cannot be played.
fn form_runner(
    state: &UseReducerHandle<AppState>,
    start: &Callback<crate::runner::MatchSpec>,
) -> Callback<()> {
    let (state, start) = (state.clone(), start.clone());
    Callback::from(
        move |_: ()| match state.form.spec(state.isolated, state::random_seed) {
            Ok(spec) => start.emit(spec),
            Err(why) => state.dispatch(Action::Notice(why)),
        },
    )
}

/// Takes over the match shown with the seats as picked; the panel shows why not, beside its
/// button.
fn take_over_starter(
    state: &UseReducerHandle<AppState>,
    start: Callback<crate::runner::MatchSpec>,
) -> Callback<Vec<String>, Option<String>> {
    let state = state.clone();
    Callback::from(move |picks: Vec<String>| {
        match state.take_over_spec(state.cursor.frame, &picks) {
            Ok(spec) => {
                start.emit(spec);
                None
            }
            Err(why) => Some(why),
        }
    })
}

/// Leaving the page normally (a reload, another address, closing the tab) is not a crash: the
/// note of a link's unfinished run goes. A crashed or frozen tab never gets here.
#[hook]
fn use_leaving_is_not_a_crash() {
    use_effect_with((), |_| {
        use wasm_bindgen::JsCast;
        let on_leave = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(storage::auto_run_ended);
        let listener: &js_sys::Function = on_leave.as_ref().unchecked_ref();
        let window = web_sys::window();
        if let Some(window) = &window {
            let _ = window.add_event_listener_with_callback("pagehide", listener);
        }
        move || {
            if let Some(window) = &window {
                let listener: &js_sys::Function = on_leave.as_ref().unchecked_ref();
                let _ = window.remove_event_listener_with_callback("pagehide", listener);
            }
        }
    });
}

/// A link without its match: run it as soon as the form holds it, unless the last time this
/// link was opened here its match never ended (it crashed or froze the tab): then ask first.
#[hook]
fn use_auto_run(state: &AppState, on_run: &Callback<()>, dispatch: &Callback<Action>) {
    let (on_run, dispatch) = (on_run.clone(), dispatch.clone());
    let link = state.auto_run_link.clone();
    use_effect_with(state.run_requested, move |requested| {
        if !*requested {
            return;
        }
        if let Some(link) = &link {
            if storage::auto_run_unfinished(link) {
                storage::auto_run_ended();
                return dispatch.emit(Action::Notice(UNFINISHED_LINK.into()));
            }
            storage::auto_run_began(link);
        }
        on_run.emit(());
    });
}

/// On a narrow screen (one column), a match that starts or a replay that opens brings the board
/// into sight: it comes first in the column then (www/style.css).
#[hook]
fn use_board_in_sight(progress: &state::Progress) {
    let arriving = matches!(
        progress,
        state::Progress::Starting | state::Progress::Replayed(_)
    );
    use_effect_with(arriving, |&arriving| {
        if arriving {
            scroll_to_board_when_narrow();
        }
    });
}

/// A Python bot chosen and no match playing: a Python worker is made ready for the next Run.
#[hook]
fn use_python_ready(state: &AppState) {
    let wanted = state.form.plays_python() && !state.progress.is_live();
    use_effect_with(wanted, |&wanted| {
        if wanted {
            crate::python_ready::prepare();
        }
    });
}

/// During a match the match worker sends each frame's picture only for the newest frame: the
/// pictures of the frames shown (and of the next few, for playback) are asked for here, during
/// the match and after it. Where no match worker is there to answer, the page keeps them itself.
#[hook]
fn use_pictures_wanted(
    state: &AppState,
    runner: &Rc<RefCell<Option<Runner>>>,
    dispatch: &Callback<Action>,
) {
    let (runner, dispatch) = (runner.clone(), dispatch.clone());
    let wanted = (state.pictures_wanted(), state.progress.is_live());
    use_effect_with(wanted, move |(wanted, _)| {
        let Some(frames) = wanted else {
            return;
        };
        let asked = runner
            .borrow()
            .as_ref()
            .is_some_and(|current| current.pictures(frames.clone()));
        if !asked {
            dispatch.emit(Action::News(crate::runner::MatchNews::PicturesGone));
        }
    });
}

/// The presenter view starts at the top of the page: the result line, then the board.
#[hook]
fn use_presenter_at_top(presenting: bool) {
    use_effect_with(presenting, |&on| {
        if let (true, Some(window)) = (on, web_sys::window()) {
            window.scroll_to_with_x_and_y(0.0, 0.0);
        }
    });
}

/// A lesson opened folds the first-visit help, so that its instruction and editor are in sight
/// (the header's Help button brings the help back).
#[hook]
fn use_help_folds_for_lessons(help_open: &UseStateHandle<bool>, lesson: Option<String>) {
    let help_open = help_open.clone();
    use_effect_with(lesson, move |lesson| {
        if lesson.is_some() {
            help_open.set(false);
        }
    });
}

fn page_header(
    state: &AppState,
    dispatch: &Callback<Action>,
    help_open: &UseStateHandle<bool>,
) -> Html {
    // The presenter view shows the match alone.
    if state.presenting {
        return html! {};
    }
    html! {
        <>
            <header class="page-header">
                <h1>{ "botplay" }</h1>
                <GameList selected={state.form.game} dispatch={dispatch.clone()} />
                <rules::Rules game={state.form.game} />
                <help::HelpButton open={help_open.clone()} />
            </header>
            if !state.isolated {
                <p id="isolation-warning" class="warning" role="alert">
                    { isolation::NOT_ISOLATED.to_string() }
                </p>
            }
            // The gallery greets a visitor; a lesson link opens on the lesson instead (the
            // gallery's Play would leave it, and would push its instruction out of sight).
            if state.progress == state::Progress::Idle && state.form.lesson.is_none() {
                <Landing dispatch={dispatch.clone()} labels={games::GAMES.iter()
                    .map(|g| state.play_now_label(g.info.id, &state::Browser)).collect::<Vec<_>>()} />
            }
        </>
    }
}

fn page_footer() -> Html {
    html! {
        <footer class="page-footer">
            if let Some(note) = isolation::match_process_note(crate::runner::last_isolation()) {
                <p id="isolation-note" class="note">{ note }</p>
            }
            <offline_status::OfflineStatus />
        </footer>
    }
}

#[component(App)]
pub fn app() -> Html {
    let state = use_reducer(AppState::new);
    // The match being played; replacing or dropping it stops it.
    let runner: Rc<RefCell<Option<Runner>>> = use_mut_ref(|| None);
    let dispatch = {
        let state = state.clone();
        Callback::from(move |action: Action| state.dispatch(action))
    };
    use_link_in_address(state.dispatcher());
    let on_code = {
        let state = state.clone();
        Callback::from(move |(slot, code): (usize, String)| {
            let language = state.form.bots[slot].language;
            storage::save_code(&state.form.scope(), slot, language, &code);
            state.dispatch(Action::SetCode(slot, code));
        })
    };
    let start = match_starter(&state, &runner);
    let on_run = form_runner(&state, &start);
    let on_take_over = take_over_starter(&state, start);
    use_leaving_is_not_a_crash();
    use_auto_run(&state, &on_run, &dispatch);
    use_board_in_sight(&state.progress);
    use_pictures_wanted(&state, &runner, &dispatch);
    use_python_ready(&state);
    use_presenter_at_top(state.presenting);
    let help_open = use_state(help::shown_at_start);
    use_help_folds_for_lessons(&help_open, state.form.lesson.as_ref().map(|l| l.id.clone()));
    // A human turn: board clicks and End turn.
    let on_pick = dispatch.reform(|(cell, at)| Action::HumanClick(cell, at));
    let on_human_end = {
        let (dispatch, runner) = (dispatch.clone(), runner.clone());
        Callback::from(move |(seat, lines): (usize, Vec<String>)| {
            dispatch.emit(Action::HumanSent);
            if let Some(current) = runner.borrow().as_ref() {
                current.human_lines(seat, &lines);
            }
        })
    };
    let on_stop = {
        let runner = runner.clone();
        Callback::from(move |_: ()| {
            if let Some(current) = runner.borrow().as_ref() {
                current.stop();
            }
        })
    };
    let human = state.human.first().cloned();
    let watching = state.progress != state::Progress::Idle;
    // The person's seat played by hand or by a built-in bot: the bot pane has no editor.
    let editing = state.form.bots[0].is_code();

    html! {
        <>
            { page_header(&state, &dispatch, &help_open) }
            // The bot pane and the match side by side on a wide screen (the handle between them
            // sets the width; a pane without an editor stays narrow); on a narrow one, in one
            // column, the board comes first once a match is shown (www/style.css).
            <main class={classes!("layout", watching.then_some("watching"),
                (!editing).then_some("no-editor"), state.presenting.then_some("presenting"))}>
                <bot_pane::BotPane form={state.form.clone()} dispatch={dispatch.clone()}
                    on_code={on_code.clone()}>
                    <help::HelpPanel open={help_open} />
                </bot_pane::BotPane>
                <splitter::Splitter />
                <div class="match-pane">
                    <section class="setup" aria-label="Match set-up">
                        <MatchForm
                            form={state.form.clone()}
                            running={state.progress.is_live()}
                            replayed={matches!(state.progress, state::Progress::Replayed(_))}
                            notice={state.notice.clone()}
                            dispatch={dispatch.clone()}
                            {on_code}
                            {on_run}
                            {on_stop}
                        />
                    </section>
                    <Viewer
                        record={viewer::RecordRef(state.record.clone())}
                        progress={state.progress.clone()}
                        cursor={state.cursor}
                        speed={state.speed}
                        dispatch={dispatch.clone()}
                        on_pick={human.as_ref().map(|_| on_pick)}
                        selected={human.as_ref().and_then(|h| h.selected_at)}
                        compare={state.compare.as_ref().map(|c| c.showing_original)}
                        hide_result={state.hide_result}
                        presenting={Some(state.presenting)}
                        take_over={html! {
                            <take_over::TakeOver game={state.record.game}
                                names={state.record.names.clone()}
                                choices={Rc::new(state::take_over::choices(&state.record, &state.form))}
                                turn={state.record.turn_number(state.cursor.frame)}
                                refusal={state::take_over::refusal(&state.record, &state.progress, state.cursor.frame)}
                                on_start={on_take_over} />
                        }}
                    >
                        if let Some(turn) = human {
                            <human_panel::HumanPanel game={state.record.game} {turn}
                                names={state.record.names.clone()} dispatch={dispatch.clone()}
                                on_end={on_human_end} />
                        }
                    </Viewer>
                </div>
            </main>
            if !state.presenting {
                <arena_panel::ArenaPanel form={state.form.clone()} isolated={state.isolated}
                    {dispatch} />
            }
            { page_footer() }
        </>
    }
}
