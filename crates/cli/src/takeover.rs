//! `botplay play --from REPLAY --turn N`: a recorded match taken over from one of its turns.
//! The turns before N are re-run as recorded while each new bot reads, untimed, what its seat
//! was sent then ([`driver::Table::catch_up`]); from N on the bots play for real, with the
//! game's budgets. The new replay names the original and the turn (`Replay::from`).

use engine::{Origin, Referee, Replay};

use crate::driver;
use crate::Failure;

/// The match `replay` taken over from its turn `turn` by `bots` (one per seat: what runs each,
/// and its name).
pub fn referee(
    replay: &Replay,
    path: &str,
    turn: u32,
    (bots, names): (&[String], &[String]),
    relaxed: bool,
    pty: bool,
) -> Result<(driver::Table, Referee, Origin), Failure> {
    let entry = games::entry(&replay.setup.game).ok_or_else(|| {
        Failure::usage(format!(
            "{path}: this replay is of an unknown game '{}'",
            replay.setup.game
        ))
    })?;
    if bots.len() != replay.setup.seats {
        return Err(Failure::usage(format!(
            "{path}: this match has {} seats: give one --bot per seat",
            replay.setup.seats
        )));
    }
    let turns = replay.record_of_turn(turn).ok_or_else(|| {
        let last = replay
            .turns
            .last()
            .and_then(|t| t.seats.iter().map(|s| s.turn).max())
            .unwrap_or(0);
        Failure::usage(format!(
            "{path}: the match has no turn {turn} (its turns go from 0 to {last})"
        ))
    })?;
    let mut referee = replay
        .start(entry, names.to_vec(), relaxed)
        .map_err(|e| Failure::usage(format!("{path}: {e}")))?;
    let mut table = driver::Table::start(bots, entry.info.id, replay.setup.seed, pty)
        .map_err(Failure::usage)?;
    table
        .catch_up(&mut referee, replay, turns)
        .map_err(|e| Failure::runtime(format!("{path}: {e}")))?;
    referee.check_time_from_now();
    let origin = Origin {
        replay: replay.digest(),
        turns,
        turn,
    };
    Ok((table, referee, origin))
}
