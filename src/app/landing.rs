//! The first thing a visitor sees: the five games, each with a picture of its board (drawn by
//! its own painter from the start of a real match), one sentence, and one button that plays the
//! game's bots as the set-up holds them (the starter bot against the strongest built-in bot at
//! first), saying which.

use engine::Setup;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

use super::state::Action;
use crate::painters;

/// One sentence per game: what it is about (from the page's registry).
fn sentence(game: &str) -> &'static str {
    crate::registry::entry(game).map_or("", |g| g.sentence)
}

#[derive(Properties, PartialEq)]
pub struct Props {
    pub dispatch: Callback<Action>,
    /// Each game's Play button's words (`AppState::play_now_label`), in the order of
    /// `games::GAMES`.
    pub labels: Vec<String>,
}

#[component(Landing)]
pub fn landing(props: &Props) -> Html {
    html! {
        <section id="landing" class="landing" aria-label="The games">
            <h2>{ "Pick a game and press Play" }</h2>
            <p class="tagline">
                { "Write a bot in JavaScript, TypeScript or Python and watch it play a built-in \
                   bot or another bot of yours. Everything runs in this page." }
            </p>
            <p class="hint">
                { "Each game starts with a starter bot in the editor playing the strongest \
                   built-in bot. Then change the code and run it again." }
            </p>
            <ul class="cards">
                { for games::GAMES.iter().zip(&props.labels).map(|(entry, label)| html! {
                    <GameCard game={entry.info.id} label={label.clone()}
                        dispatch={props.dispatch.clone()} />
                }) }
            </ul>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct CardProps {
    game: &'static str,
    /// What its Play plays.
    label: String,
    dispatch: Callback<Action>,
}

/// The seed of the pictured board: any seed every game accepts.
const PICTURE_SEED: i64 = 1;

#[component(GameCard)]
fn game_card(props: &CardProps) -> Html {
    let canvas = use_node_ref();
    let game = props.game;
    let info = super::state::entry(game).info;
    {
        let canvas = canvas.clone();
        use_effect_with(game, move |&game| {
            let setup = Setup::new(super::state::entry(game).info, PICTURE_SEED);
            let frame = games::new_game(&setup).ok().map(|g| g.frame());
            if let Some(element) = canvas.cast::<HtmlCanvasElement>() {
                painters::paint(&element, game, frame.as_ref());
            }
        });
    }
    let onclick = {
        let dispatch = props.dispatch.clone();
        Callback::from(move |_: MouseEvent| dispatch.emit(Action::PlayNow(game)))
    };
    html! {
        <li class="card" data-game={game}>
            <canvas ref={canvas} class="card-board" role="img"
                aria-label={format!("The board of {} at the start of a match", info.name)} />
            <h3>{ info.name }</h3>
            <p>{ sentence(game) }</p>
            if let Some(why) = crate::registry::entry(game).and_then(|g| g.first_lesson) {
                <p class="first-lesson">{ why }</p>
            }
            <button type="button" class="primary play-now" {onclick}>
                { &props.label }
            </button>
        </li>
    }
}
