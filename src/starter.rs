//! The starter bots shown in the editor: one per game, in JavaScript (files under `www/starter/`).

/// The JavaScript starter bot of a game, or a generic skeleton for a game without one.
pub fn javascript(game: &str) -> &'static str {
    match game {
        "ice-and-fire" => include_str!("../www/starter/ice-and-fire.js"),
        "crafting-quest" => include_str!("../www/starter/crafting-quest.js"),
        _ => include_str!("../www/starter/generic.js"),
    }
}
