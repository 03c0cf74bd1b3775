//! The starter bots shown in the editor: one per game and language (files under `www/starter/`).

/// The starter bot of a game in a language (`javascript` or `python`).
pub fn code(game: &str, language: &str) -> &'static str {
    match language {
        "python" => python(game),
        _ => javascript(game),
    }
}

/// The JavaScript starter bot of a game, or a generic skeleton for a game without one.
pub fn javascript(game: &str) -> &'static str {
    match game {
        "ice-and-fire" => include_str!("../www/starter/ice-and-fire.js"),
        "micro-rts" => include_str!("../www/starter/micro-rts.js"),
        "soak-overflow" => include_str!("../www/starter/soak-overflow.js"),
        "skyport" => include_str!("../www/starter/skyport.js"),
        "crafting-quest" => include_str!("../www/starter/crafting-quest.js"),
        _ => include_str!("../www/starter/generic.js"),
    }
}

/// The Python starter bot of a game, or a generic skeleton for a game without one.
pub fn python(game: &str) -> &'static str {
    match game {
        "ice-and-fire" => include_str!("../www/starter/ice-and-fire.py"),
        "micro-rts" => include_str!("../www/starter/micro-rts.py"),
        "soak-overflow" => include_str!("../www/starter/soak-overflow.py"),
        "skyport" => include_str!("../www/starter/skyport.py"),
        "crafting-quest" => include_str!("../www/starter/crafting-quest.py"),
        _ => include_str!("../www/starter/generic.py"),
    }
}
