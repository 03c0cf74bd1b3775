//! Texts for people about a match: who a seat is, how it ended, what went wrong.

use engine::{Fault, Outcome};

use crate::painters;

/// "red (your bot)": the seat's colour in the viewer and the bot's name.
pub fn seat_label(game: &str, seat: usize, names: &[String]) -> String {
    let colour = painters::seat_name(game, seat);
    match names.get(seat) {
        Some(name) => format!("{colour} ({name})"),
        None => colour,
    }
}

/// "red (your bot) wins: score 42 to -1 (HQ captured)", or a draw, or a score list for more seats.
pub fn outcome(game: &str, outcome: &Outcome, names: &[String]) -> String {
    let reason = if outcome.reason.is_empty() {
        String::new()
    } else {
        format!(" ({})", outcome.reason)
    };
    let scores = &outcome.scores;
    if scores.len() == 2 {
        return match outcome.winner() {
            Some(w) => format!(
                "{} wins: score {} to {}{reason}",
                seat_label(game, w, names),
                scores[w],
                scores[1 - w]
            ),
            None => format!("draw: score {} to {}{reason}", scores[0], scores[1]),
        };
    }
    let list: Vec<String> = scores
        .iter()
        .enumerate()
        .map(|(s, score)| format!("{} {score}", seat_label(game, s, names)))
        .collect();
    match outcome.winner() {
        Some(w) => format!(
            "{} wins: {}{reason}",
            seat_label(game, w, names),
            list.join(", ")
        ),
        None => format!("draw: {}{reason}", list.join(", ")),
    }
}

/// "blue (expander): timeout — no complete answer within 50 ms (turn 12)", with the turn
/// numbered as the viewer numbers it (`Record::fault_turn_number`).
pub fn fault(game: &str, fault: &Fault, names: &[String], turn: u32) -> String {
    format!(
        "{}: {} — {} (turn {turn})",
        seat_label(game, fault.seat, names),
        fault.kind,
        fault.text,
    )
}

/// "0.42 ms", "12 ms".
pub fn millis(ms: f64) -> String {
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{ms:.0} ms")
    }
}
