//! Human play: a person plays a seat by clicking on the board, and learns the protocol from the
//! lines each click produces.
//!
//! Like a bot, the person sees only protocol text: everything here works from the input text
//! the seat received (read with the built-in bots' own readers from `crates/bots`), never from
//! the engine's state. The board only says which cell was clicked. A [`Desk`] holds one turn: the
//! seat's view read from its inputs, what is selected, the orders given so far, and the protocol
//! lines they make. Each game says what a click or a button means ([`Play`], implemented in
//! [`ice_and_fire`], [`soak_overflow`], [`micro_rts`]); the page's registry (`crate::registry`)
//! holds each game's reader. Pure and natively tested.

use std::fmt;
use std::rc::Rc;

pub mod ice_and_fire;
pub mod micro_rts;
pub mod soak_overflow;

/// The slot's player value that means "a person, by hand".
pub const HUMAN: &str = "human";
/// The names a human seat has in replays, by form slot. A name ending in [`BY_HAND`] marks a
/// human seat in a replay or link.
pub const NAMES: [&str; 2] = ["you (by hand)", "player 2 (by hand)"];
pub const BY_HAND: &str = "(by hand)";

/// Whether a person can play this game by hand: its registry entry has a human seat.
pub fn supports(game: &str) -> bool {
    reader(game).is_some()
}

/// Reads every input a human seat received so far, in order, into its view (the last turn's):
/// one per game a person can play by hand, in the page's registry.
pub type Reader = fn(&[String]) -> Result<HandSeat, String>;

/// The reader of a game's human seat, if a person can play it by hand.
fn reader(game: &str) -> Option<Reader> {
    crate::registry::entry(game).and_then(|g| g.human)
}

/// One order given this turn: its protocol text, and whom it is for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Order {
    /// The unit or agent it is for (the game's id, or 0).
    pub who: i32,
    /// A slot of that unit's orders (Soak Overflow: 1 move, 2 combat): a new order replaces the
    /// one in its slot. 0: orders add up.
    pub slot: u8,
    /// The command as the protocol writes it: `MOVE 3 4 5`.
    pub text: String,
}

impl Order {
    fn new(text: String) -> Order {
        Order {
            who: 0,
            slot: 0,
            text,
        }
    }
}

/// An action offered for the selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Button {
    /// Passed back to [`Desk::press`].
    pub key: &'static str,
    pub label: String,
}

/// What a click or a button does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Click {
    /// Select this cell (a unit of the person's, or a cell to act on), with a note.
    Select((i32, i32), String),
    Deselect,
    /// Add (or replace) an order.
    Order(Order),
    /// Wait for a target cell for this button's action.
    Mode(&'static str, String),
    /// Nothing happens; say why.
    Note(String),
}

/// What a game's human seat makes of the person's clicks, from the view it read from its
/// input text.
pub trait Play: fmt::Debug {
    /// The person clicked the cell `at` with `sel` selected and a button's action `mode`
    /// waiting for its target.
    fn click(&self, sel: Option<(i32, i32)>, mode: Option<&str>, at: (i32, i32)) -> Click;

    /// The actions offered for the selected cell.
    fn buttons(&self, sel: (i32, i32)) -> Vec<Button>;

    /// The person pressed the button `key` with `sel` selected.
    fn press(&self, sel: (i32, i32), key: &str) -> Click;

    /// The protocol lines the orders make (by default one line, the orders joined by `;`, or
    /// `WAIT`).
    fn lines(&self, orders: &[Order]) -> Vec<String> {
        joined(orders)
    }

    /// What to do, in a sentence.
    fn hint(&self) -> &'static str;

    /// A line about the seat's resources, from its input.
    fn status(&self) -> String;
}

/// A seat played by hand: its game's view of it ([`Play`]), read from its input text.
#[derive(Clone, Debug)]
pub struct HandSeat(Rc<dyn Play>);

/// The same view (as read once).
impl PartialEq for HandSeat {
    fn eq(&self, other: &HandSeat) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl HandSeat {
    /// A game's view as a seat.
    pub fn new(play: impl Play + 'static) -> HandSeat {
        HandSeat(Rc::new(play))
    }

    /// Reads every input the seat received so far, in order; the view is the last turn's.
    pub fn read(game: &str, inputs: &[String]) -> Result<HandSeat, String> {
        match reader(game) {
            Some(read) => read(inputs),
            None => Err(format!("'{game}' cannot be played by hand")),
        }
    }

    fn click(&self, sel: Option<(i32, i32)>, mode: Option<&str>, at: (i32, i32)) -> Click {
        self.0.click(sel, mode, at)
    }

    fn buttons(&self, sel: (i32, i32)) -> Vec<Button> {
        self.0.buttons(sel)
    }

    fn press(&self, sel: (i32, i32), key: &str) -> Click {
        self.0.press(sel, key)
    }

    fn lines(&self, orders: &[Order]) -> Vec<String> {
        self.0.lines(orders)
    }

    /// What to do, in a sentence.
    pub fn hint(&self) -> &'static str {
        self.0.hint()
    }

    /// A line about the seat's resources, from its input.
    pub fn status(&self) -> String {
        self.0.status()
    }
}

/// The last complete turn in a seat's `inputs`, each fed in order to its game's reader (`feed`
/// gives a turn once one is complete), or the first error.
fn last_turn<T>(
    inputs: &[String],
    mut feed: impl FnMut(&str) -> Option<Result<T, String>>,
) -> Result<T, String> {
    let mut turn = None;
    for input in inputs {
        if let Some(read) = feed(input) {
            turn = Some(read?);
        }
    }
    turn.ok_or_else(|| "no complete turn in the input yet".to_string())
}

/// The orders of a one-line game joined by `;`, or `WAIT`.
fn joined(orders: &[Order]) -> Vec<String> {
    if orders.is_empty() {
        return vec!["WAIT".to_string()];
    }
    let texts: Vec<&str> = orders.iter().map(|o| o.text.as_str()).collect();
    vec![texts.join(";")]
}

/// One human turn: the seat's view, the selection and the orders so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Desk {
    pub seat: HandSeat,
    /// The selected cell.
    pub selected: Option<(i32, i32)>,
    /// A button's action waiting for its target cell.
    pub mode: Option<&'static str>,
    pub orders: Vec<Order>,
    /// What the last click did, or what to do next.
    pub note: String,
}

impl Desk {
    pub fn new(seat: HandSeat) -> Desk {
        let note = seat.hint().to_string();
        Desk {
            seat,
            selected: None,
            mode: None,
            orders: Vec::new(),
            note,
        }
    }

    /// The person clicked the cell `at` (protocol coordinates).
    pub fn click(&mut self, at: (i32, i32)) {
        let click = self.seat.click(self.selected, self.mode, at);
        self.apply(click);
    }

    /// The person pressed one of [`Desk::buttons`].
    pub fn press(&mut self, key: &str) {
        if let Some(sel) = self.selected {
            let click = self.seat.press(sel, key);
            self.apply(click);
        }
    }

    /// The actions offered for the selection.
    pub fn buttons(&self) -> Vec<Button> {
        self.selected
            .map(|sel| self.seat.buttons(sel))
            .unwrap_or_default()
    }

    fn apply(&mut self, click: Click) {
        match click {
            Click::Select(at, note) => {
                self.selected = Some(at);
                self.mode = None;
                self.note = note;
            }
            Click::Deselect => {
                self.selected = None;
                self.mode = None;
                self.note = self.seat.hint().to_string();
            }
            Click::Order(order) => {
                if order.slot != 0 {
                    self.orders
                        .retain(|o| (o.who, o.slot) != (order.who, order.slot));
                }
                self.note = format!("Added {}.", order.text);
                self.orders.push(order);
                self.mode = None;
            }
            Click::Mode(key, note) => {
                self.mode = Some(key);
                self.note = note;
            }
            Click::Note(note) => self.note = note,
        }
    }

    /// Takes back the last order.
    pub fn undo(&mut self) {
        if let Some(order) = self.orders.pop() {
            self.note = format!("Took back {}.", order.text);
        }
    }

    /// Takes back every order and the selection.
    pub fn clear(&mut self) {
        self.orders.clear();
        self.selected = None;
        self.mode = None;
        self.note = self.seat.hint().to_string();
    }

    /// The protocol lines the orders make: what End turn sends.
    pub fn lines(&self) -> Vec<String> {
        self.seat.lines(&self.orders)
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use engine::{Referee, Setup};

    /// The input the referee sends `seat` in the first turn of a match of `game` on `seed`
    /// (ruleset "": the game's default).
    pub fn inputs(game: &str, ruleset: &str, seed: i64, seat: usize) -> String {
        let entry = games::entry(game).expect("game");
        let mut setup = Setup::new(entry.info, seed);
        if !ruleset.is_empty() {
            setup.ruleset = ruleset.to_string();
        }
        let game = games::new_game(&setup).expect("setup");
        let mut referee = Referee::new(game, setup, vec!["a".into(), "b".into()], false);
        let asks = referee.begin_turn();
        asks.into_iter()
            .find(|a| a.seat == seat)
            .map(|a| a.input)
            .expect("seat asked in the first turn")
    }

    /// Whether the referee takes `lines` from `seat` in the first turn without a fault.
    pub fn accepted(game: &str, seed: i64, seat: usize, lines: &[String]) -> bool {
        let entry = games::entry(game).expect("game");
        let setup = Setup::new(entry.info, seed);
        let game = games::new_game(&setup).expect("setup");
        let mut referee = Referee::new(game, setup, vec!["a".into(), "b".into()], false);
        referee.begin_turn();
        lines.iter().all(|line| {
            !matches!(
                referee.line(seat, line, 0.0),
                engine::Verdict::Fault(_) | engine::Verdict::NotAsked
            )
        }) && !referee.waiting_for().contains(&seat)
    }
}
