//! The starter bots shown in the editor: one per game and language (files under `www/starter/`,
//! held by the page's registry, `crate::registry`).

/// The starter bot of a game in a language (`javascript`, `typescript`, `python` or `wasm`), or a
/// generic skeleton for a game without an entry in the registry.
pub fn code(game: &str, language: &str) -> &'static str {
    match language {
        "python" => python(game),
        "typescript" => typescript(game),
        // A WebAssembly bot is a file the person chooses: none at first.
        "wasm" => "",
        _ => javascript(game),
    }
}

/// The JavaScript starter bot of a game, or a generic skeleton for a game without one.
pub fn javascript(game: &str) -> &'static str {
    crate::registry::entry(game).map_or(include_str!("../www/starter/generic.js"), |g| g.javascript)
}

/// The TypeScript starter bot of a game (its JavaScript starter, typed), or a generic skeleton
/// for a game without one.
pub fn typescript(game: &str) -> &'static str {
    crate::registry::entry(game).map_or(include_str!("../www/starter/generic.ts"), |g| g.typescript)
}

/// The Python starter bot of a game, or a generic skeleton for a game without one.
pub fn python(game: &str) -> &'static str {
    crate::registry::entry(game).map_or(include_str!("../www/starter/generic.py"), |g| g.python)
}
