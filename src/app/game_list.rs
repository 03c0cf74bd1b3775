//! The games of the registry; one is picked.

use yew::prelude::*;

use super::state::Action;

#[derive(Properties, PartialEq)]
pub struct Props {
    pub selected: &'static str,
    pub dispatch: Callback<Action>,
}

#[component(GameList)]
pub fn game_list(props: &Props) -> Html {
    html! {
        <nav class="games" aria-label="Games">
            <h2>{ "Game" }</h2>
            <ul id="games">
                { for games::GAMES.iter().map(|entry| {
                    let info = entry.info;
                    let picked = info.id == props.selected;
                    let onclick = {
                        let dispatch = props.dispatch.clone();
                        let id = info.id;
                        Callback::from(move |_: MouseEvent| dispatch.emit(Action::PickGame(id)))
                    };
                    let seats = if info.min_seats == info.max_seats {
                        format!("{} bots", info.min_seats)
                    } else {
                        format!("{}–{} bots", info.min_seats, info.max_seats)
                    };
                    html! {
                        <li>
                            <button
                                type="button"
                                class={classes!("game-choice", picked.then_some("picked"))}
                                aria-pressed={picked.to_string()}
                                data-game={info.id}
                                {onclick}
                            >
                                <span class="game-name">{ info.name }</span>
                                <span class="game-facts">
                                    { format!("{seats} · {} ms per turn ({} ms the first)",
                                        info.turn_ms, info.first_turn_ms) }
                                </span>
                            </button>
                        </li>
                    }
                }) }
            </ul>
        </nav>
    }
}
