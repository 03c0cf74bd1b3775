//! Text the games whose protocol is lines of words share (Ice and Fire, microRTS, Soak
//! Overflow), and their built-in bots with them.

use std::fmt::Display;

/// How much of a piece a fault message quotes.
const QUOTE_CHARS: usize = 40;

/// A piece of what a bot wrote, quoted for a fault message: at most [`QUOTE_CHARS`]
/// characters, escaped, so that a long or odd line cannot flood the message.
pub fn quote(piece: &str) -> String {
    let mut cut: String = piece.chars().take(QUOTE_CHARS).collect();
    if cut.len() < piece.len() {
        cut.push('…');
    }
    format!("{cut:?}")
}

/// Commands as one line: joined by `;` (no spaces), or `WAIT` when there are none (an empty
/// line would be an empty command, which loses).
pub fn joined_or_wait<T: Display>(commands: &[T]) -> String {
    if commands.is_empty() {
        return "WAIT".to_string();
    }
    commands
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(";")
}
