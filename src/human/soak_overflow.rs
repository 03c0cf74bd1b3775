//! Soak Overflow by hand: click one of your agents, then a tile to MOVE there or an enemy agent
//! to SHOOT it; *Throw a splash bomb* and then a tile to THROW there; *Hunker down*. The turn is
//! one line per agent of yours, `id;MOVE x y;SHOOT id` (`id;WAIT` for an agent without orders).

use bots::soak_overflow::protocol::{AgentLine, Init, Pos, Reader, TurnInput};

use super::{Button, Click, Order};

pub const HINT: &str = "Click one of your agents, then a tile to move it there or an enemy \
    agent to shoot it; the buttons throw a splash bomb or hunker down.";

/// An agent's order slots: a move and a combat action (a new one replaces the old).
const MOVE: u8 = 1;
const COMBAT: u8 = 2;

/// What the seat played by hand sees this turn, as read from its input.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    init: Init,
    turn: TurnInput,
}

impl SeatView {
    pub fn read(inputs: &[String]) -> Result<SeatView, String> {
        let mut reader = Reader::new();
        let turn = super::last_turn(inputs, |input| reader.feed(input))?;
        let init = reader.init().cloned().ok_or("no initialisation block")?;
        Ok(SeatView { init, turn })
    }

    /// The agent on a tile: (id, whether it is yours).
    fn agent(&self, at: (i32, i32)) -> Option<(i32, bool)> {
        let p = Pos::new(at.0, at.1);
        self.turn
            .agents
            .iter()
            .find(|a| a.pos == p)
            .map(|a| (a.id, self.init.owner(a.id) == Some(self.init.my_id)))
    }

    /// The agents of player `player` (`init.my_id`: yours), in the input's order.
    fn agents_of(&self, player: i32) -> impl Iterator<Item = &AgentLine> {
        self.turn
            .agents
            .iter()
            .filter(move |a| self.init.owner(a.id) == Some(player))
    }

    fn on_grid(&self, at: (i32, i32)) -> bool {
        (0..self.init.width).contains(&at.0) && (0..self.init.height).contains(&at.1)
    }
}

impl super::Play for SeatView {
    fn click(&self, sel: Option<(i32, i32)>, mode: Option<&str>, at: (i32, i32)) -> Click {
        if !self.on_grid(at) {
            return Click::Note("That is off the grid.".into());
        }
        let mine = sel.and_then(|s| self.agent(s)).filter(|&(_, own)| own);
        if let (Some((id, _)), Some("throw")) = (mine, mode) {
            return Click::Order(Order {
                who: id,
                slot: COMBAT,
                text: format!("THROW {} {}", at.0, at.1),
            });
        }
        match self.agent(at) {
            Some((id, true)) if sel == Some(at) => {
                let _ = id;
                Click::Deselect
            }
            Some((id, true)) => Click::Select(
                at,
                format!(
                    "Agent {id} selected: click a tile to move, an enemy to shoot, or use the buttons."
                ),
            ),
            Some((enemy, false)) => match mine {
                Some((id, _)) => Click::Order(Order {
                    who: id,
                    slot: COMBAT,
                    text: format!("SHOOT {enemy}"),
                }),
                None => Click::Note(format!(
                    "Agent {enemy} is your opponent's: select one of yours first."
                )),
            },
            // A cover tile is a legal target as in a bot's `MOVE`: the agent walks towards it
            // and stops beside it (the referee's path search; cover cannot be entered).
            None => match mine {
                Some((id, _)) => Click::Order(Order {
                    who: id,
                    slot: MOVE,
                    text: format!("MOVE {} {}", at.0, at.1),
                }),
                None => Click::Note("Select one of your agents first.".into()),
            },
        }
    }

    fn buttons(&self, sel: (i32, i32)) -> Vec<Button> {
        let Some((id, true)) = self.agent(sel) else {
            return Vec::new();
        };
        let mut buttons = Vec::new();
        let bombs = self
            .turn
            .agents
            .iter()
            .find(|a| a.id == id)
            .map_or(0, |a| a.bombs);
        if bombs > 0 {
            buttons.push(Button {
                key: "throw",
                label: format!("Throw a splash bomb ({bombs} left)…"),
            });
        }
        buttons.push(Button {
            key: "hunker",
            label: "Hunker down".into(),
        });
        buttons
    }

    fn press(&self, sel: (i32, i32), key: &str) -> Click {
        let Some((id, true)) = self.agent(sel) else {
            return Click::Note("Select one of your agents first.".into());
        };
        match key {
            "throw" => Click::Mode(
                "throw",
                format!("Click the tile agent {id} throws its bomb at (at most 4 tiles away)."),
            ),
            "hunker" => Click::Order(Order {
                who: id,
                slot: COMBAT,
                text: "HUNKER_DOWN".into(),
            }),
            _ => Click::Note(format!("No such action: {key}.")),
        }
    }

    /// One line per agent of yours, in the input's order.
    fn lines(&self, orders: &[Order]) -> Vec<String> {
        self.agents_of(self.init.my_id)
            .map(|a| {
                let mut pieces: Vec<&Order> = orders.iter().filter(|o| o.who == a.id).collect();
                pieces.sort_by_key(|o| o.slot);
                if pieces.is_empty() {
                    format!("{};WAIT", a.id)
                } else {
                    let texts: Vec<&str> = pieces.iter().map(|o| o.text.as_str()).collect();
                    format!("{};{}", a.id, texts.join(";"))
                }
            })
            .collect()
    }

    fn hint(&self) -> &'static str {
        HINT
    }

    fn status(&self) -> String {
        let mine: Vec<String> = self
            .agents_of(self.init.my_id)
            .map(|a| format!("{} at ({},{}) wet {}", a.id, a.pos.x, a.pos.y, a.wetness))
            .collect();
        format!("Your agents: {}.", mine.join("; "))
    }
}

/// Reads the seat's inputs (the registry's reader for this game).
pub fn read(inputs: &[String]) -> Result<super::HandSeat, String> {
    SeatView::read(inputs).map(super::HandSeat::new)
}

#[cfg(test)]
mod tests {
    use super::super::{testing, Desk, HandSeat as AnySeat};

    #[test]
    fn move_shoot_throw_and_one_line_per_agent() {
        let input = testing::inputs("soak-overflow", "", 7, 0);
        let seat = AnySeat::read("soak-overflow", std::slice::from_ref(&input)).expect("reads");
        let s = &super::SeatView::read(std::slice::from_ref(&input)).expect("reads");
        let mine: Vec<_> = s.agents_of(0).copied().collect();
        let theirs: Vec<_> = s.agents_of(1).copied().collect();
        let mut desk = Desk::new(seat.clone());
        let waits: Vec<String> = mine.iter().map(|a| format!("{};WAIT", a.id)).collect();
        assert_eq!(desk.lines(), waits);
        assert_eq!(desk.lines().len(), s.turn.my_agent_count);

        let a = mine[0];
        desk.click((a.pos.x, a.pos.y));
        assert_eq!(desk.selected, Some((a.pos.x, a.pos.y)));
        // A floor tile next to the agent.
        let floor = [(1, 0), (-1, 0), (0, 1), (0, -1)]
            .into_iter()
            .map(|(dx, dy)| (a.pos.x + dx, a.pos.y + dy))
            .find(|&(x, y)| {
                s.on_grid((x, y))
                    && s.init.tile(super::Pos::new(x, y)) == 0
                    && s.agent((x, y)).is_none()
            })
            .expect("a free floor tile");
        desk.click(floor);
        let enemy = theirs[0];
        desk.click((enemy.pos.x, enemy.pos.y));
        let first = &desk.lines()[0];
        assert_eq!(
            first,
            &format!("{};MOVE {} {};SHOOT {}", a.id, floor.0, floor.1, enemy.id)
        );
        // A throw replaces the shot; a hunker replaces the throw.
        desk.press("throw");
        desk.click((5, 5));
        assert_eq!(
            desk.lines()[0],
            format!("{};MOVE {} {};THROW 5 5", a.id, floor.0, floor.1)
        );
        desk.press("hunker");
        assert_eq!(
            desk.lines()[0],
            format!("{};MOVE {} {};HUNKER_DOWN", a.id, floor.0, floor.1)
        );
        assert_eq!(desk.lines()[1..], waits[1..]);
        assert!(testing::accepted("soak-overflow", 7, 0, &desk.lines()));
        // The lines are what the game accepts.
        let mut replay_lines = desk.lines();
        replay_lines.truncate(s.turn.my_agent_count);
        assert_eq!(replay_lines.len(), s.turn.my_agent_count);
    }

    #[test]
    fn a_cover_tile_is_a_move_target_as_in_a_bots_move() {
        // Seed 7's map has cover; any cover tile will do.
        let input = testing::inputs("soak-overflow", "", 7, 0);
        let seat = AnySeat::read("soak-overflow", std::slice::from_ref(&input)).expect("reads");
        let s = &super::SeatView::read(std::slice::from_ref(&input)).expect("reads");
        let cover = (0..s.init.height)
            .flat_map(|y| (0..s.init.width).map(move |x| (x, y)))
            .find(|&(x, y)| s.init.tile(super::Pos::new(x, y)) != 0)
            .expect("a cover tile");
        let a = *s.agents_of(0).next().expect("an agent of mine");
        let mut desk = Desk::new(seat.clone());
        desk.click((a.pos.x, a.pos.y));
        desk.click(cover);
        assert_eq!(
            desk.lines()[0],
            format!("{};MOVE {} {}", a.id, cover.0, cover.1)
        );
        assert!(testing::accepted("soak-overflow", 7, 0, &desk.lines()));
    }
}
