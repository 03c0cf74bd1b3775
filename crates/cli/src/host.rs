//! `botplay host`: a Skyport match with the original clients over TCP on loopback.
//!
//! The host listens on `127.0.0.1:PORT`, takes the first N connections as seats 1..N (in the
//! order they connect), and drives the same [`Referee`] as `botplay play` with those sockets:
//! one JSON message per line each way, the game's own texts. What differs from a pipe is what
//! the 2013 server did on its socket, so that bots written for it connect unchanged:
//!
//! - The `info` line our server sends first is not sent over TCP (the 2013 server had none; a
//!   client reads the handshake's answer as the first line).
//! - Just before a player's game state goes out, the lines it sent since its last turn are
//!   dropped, as the 2013 server cleared the player's queue (actions sent out of turn, or after
//!   its last turn ended, are lost).
//! - A turn ends at its time budget like the original's deadline: the host then hands the
//!   referee `{"message":"endturn"}` on the bot's behalf (it is recorded in the replay as the
//!   bot's line), so a bot that sends fewer than three actions is not a timeout.
//! - A client that disconnects stays in the match: its turns are recorded as crashes and cost
//!   it the game's penalties, as a disconnected AI did in 2013 (the referee makes those crashes:
//!   [`Referee::retire`]).

use std::net::TcpListener;
use std::sync::Arc;
use std::time::Duration;

use engine::{Referee, Setup};

use crate::args::HostArgs;
use crate::driver::Table;
use crate::inbox::Inbox;

/// How long a write to a client may block before the client counts as gone.
const WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// Why hosting failed: bad usage (exit 2) or at run time (exit 1).
pub enum HostError {
    Usage(String),
    Runtime(String),
}

/// Plays a hosted match to its end and prints the result as `botplay play` does.
pub fn run(a: HostArgs, seed: i64) -> Result<(), HostError> {
    let entry = games::entry(&a.game)
        .ok_or_else(|| HostError::Usage(format!("unknown game '{}'", a.game)))?;
    if entry.info.id != "skyport" {
        return Err(HostError::Usage(format!(
            "`host` plays Skyport, whose original clients spoke TCP; '{}' has no TCP protocol",
            a.game
        )));
    }
    let mut setup = Setup::new(entry.info, seed);
    setup.seats = a.players;
    if let Some(r) = &a.ruleset {
        setup.ruleset = r.clone();
    }
    if let Some(r) = a.rounds {
        setup.options.insert("rounds".into(), r.to_string());
    }
    if let Some(m) = &a.map {
        setup.options.insert("map".into(), m.clone());
    }
    let game = (entry.new)(&setup).map_err(|e| HostError::Usage(e.to_string()))?;
    let listener = TcpListener::bind(("127.0.0.1", a.port))
        .map_err(|e| HostError::Runtime(format!("cannot listen on 127.0.0.1:{}: {e}", a.port)))?;
    let address = listener
        .local_addr()
        .map_err(|e| HostError::Runtime(e.to_string()))?;
    eprintln!(
        "botplay: {} ({}), seed {seed}{}: waiting for {} players on {address}",
        entry.info.name,
        setup.ruleset,
        if a.relaxed { ", relaxed budgets" } else { "" },
        a.players
    );
    let mut streams = Vec::new();
    let mut names = Vec::new();
    while streams.len() < a.players {
        let (stream, peer) = listener
            .accept()
            .map_err(|e| HostError::Runtime(format!("cannot accept a connection: {e}")))?;
        eprintln!(
            "botplay: player {} connected from {peer}",
            streams.len() + 1
        );
        let _ = stream.set_nodelay(true);
        let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
        streams.push(stream);
        names.push(format!("tcp:{peer}"));
    }
    drop(listener);
    let mut referee = Referee::new(game, setup, names, a.relaxed);
    let inbox = Arc::new(Inbox::new(a.players));
    let mut table = Table::hosted(streams, inbox).map_err(HostError::Runtime)?;
    table.play(&mut referee);
    print_result(&referee);
    if let Some(path) = a.replay {
        std::fs::write(&path, referee.replay().to_json())
            .map_err(|e| HostError::Runtime(format!("cannot write the replay to {path}: {e}")))?;
        eprintln!("botplay: replay written to {path}");
    }
    Ok(())
}

/// `seat N NAME score S rank R` per seat (NAME as the client connected), then the faults.
fn print_result(referee: &Referee) {
    let view: Option<serde_json::Value> = referee
        .frames()
        .last()
        .and_then(|f| serde_json::from_str(&f.view_json()).ok());
    let name = |seat: usize| -> String {
        view.as_ref()
            .and_then(|v| v["players"][seat]["name"].as_str())
            .map(str::to_string)
            .unwrap_or_else(|| referee.names()[seat].clone())
    };
    if let Some(outcome) = referee.outcome() {
        for seat in 0..referee.names().len() {
            say!(
                "seat {} {} score {} rank {}",
                seat + 1,
                name(seat),
                outcome.scores[seat],
                outcome.ranks[seat]
            );
        }
        eprintln!("botplay: {}", outcome.reason);
    }
    for fault in referee.faults() {
        say!("{fault}");
    }
}
