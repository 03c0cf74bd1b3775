//! A Code of Ice and Fire by hand: click one of your units, then a cell to MOVE it there; click
//! any other cell for TRAIN and BUILD buttons. The turn is one line of commands joined by `;`
//! (`WAIT` for none), as the original.

use bots::ice_and_fire::protocol::{BuildingKind, Pos, Reader, TurnInput, SIZE};

use super::{Button, Click, Order};

pub const HINT: &str = "Click one of your units (O cells hold yours), then a cell to move it \
    towards; or click a cell to train a unit or build there.";

/// What the seat played by hand sees this turn, as read from its input.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    turn: TurnInput,
    spots: Vec<Pos>,
}

fn pos(at: (i32, i32)) -> Option<Pos> {
    let ok = |v: i32| (0..SIZE as i32).contains(&v);
    (ok(at.0) && ok(at.1)).then(|| Pos::new(at.0 as usize, at.1 as usize))
}

impl SeatView {
    pub fn read(inputs: &[String]) -> Result<SeatView, String> {
        let mut reader = Reader::new();
        let turn = super::last_turn(inputs, |input| reader.feed(input))?;
        Ok(SeatView {
            turn,
            spots: reader.spots().to_vec(),
        })
    }

    /// Your unit on a cell: (id, level).
    fn unit(&self, at: (i32, i32)) -> Option<(u32, u8)> {
        let p = pos(at)?;
        self.turn
            .units
            .iter()
            .find(|u| u.owner == 0 && u.pos == p)
            .map(|u| (u.id, u.level))
    }
}

impl super::Play for SeatView {
    fn click(&self, sel: Option<(i32, i32)>, _mode: Option<&str>, at: (i32, i32)) -> Click {
        let Some(p) = pos(at) else {
            return Click::Note("That is off the map.".into());
        };
        if let Some((id, level)) = self.unit(at) {
            if sel == Some(at) {
                return Click::Deselect;
            }
            return Click::Select(
                at,
                format!("Unit {id} (level {level}) selected: click a cell to move it towards."),
            );
        }
        if self.turn.at(p) == b'#' {
            return Click::Note(format!("({},{}) is void: nothing goes there.", p.x, p.y));
        }
        if let Some((id, _)) = sel.and_then(|s| self.unit(s)) {
            return Click::Order(Order::new(format!("MOVE {id} {} {}", p.x, p.y)));
        }
        Click::Select(
            at,
            format!(
                "Cell ({},{}) selected: train a unit or build there with the buttons.",
                p.x, p.y
            ),
        )
    }

    fn buttons(&self, sel: (i32, i32)) -> Vec<Button> {
        if self.unit(sel).is_some() || pos(sel).is_none() {
            return Vec::new();
        }
        let p = pos(sel).expect("checked");
        let mut buttons: Vec<Button> = [("train1", 1, 10), ("train2", 2, 20), ("train3", 3, 30)]
            .into_iter()
            .map(|(key, level, cost)| Button {
                key,
                label: format!("Train level {level} ({cost} gold)"),
            })
            .collect();
        let built = self.turn.buildings.iter().any(|b| b.pos == p);
        if !built {
            if self.spots.contains(&p) {
                buttons.push(Button {
                    key: "mine",
                    label: "Build mine (15 gold)".into(),
                });
            } else {
                buttons.push(Button {
                    key: "tower",
                    label: "Build tower (15 gold)".into(),
                });
            }
        }
        buttons
    }

    fn press(&self, sel: (i32, i32), key: &str) -> Click {
        let Some(p) = pos(sel) else {
            return Click::Note("Select a cell first.".into());
        };
        let text = match key {
            "train1" | "train2" | "train3" => format!("TRAIN {} {} {}", &key[5..], p.x, p.y),
            "mine" => format!("BUILD MINE {} {}", p.x, p.y),
            "tower" => format!("BUILD TOWER {} {}", p.x, p.y),
            _ => return Click::Note(format!("No such action: {key}.")),
        };
        Click::Order(Order::new(text))
    }

    fn hint(&self) -> &'static str {
        HINT
    }

    fn status(&self) -> String {
        let mine = self.turn.units.iter().filter(|u| u.owner == 0).count();
        let hq = self
            .turn
            .buildings
            .iter()
            .find(|b| b.owner == 0 && b.kind == BuildingKind::Hq)
            .map(|b| format!(", HQ at ({},{})", b.pos.x, b.pos.y))
            .unwrap_or_default();
        format!(
            "Gold {} (income {}); {mine} unit(s){hq}; opponent gold {}.",
            self.turn.gold, self.turn.income, self.turn.opponent_gold
        )
    }
}

/// Reads the seat's inputs (the registry's reader for this game).
pub fn read(inputs: &[String]) -> Result<super::HandSeat, String> {
    SeatView::read(inputs).map(super::HandSeat::new)
}

#[cfg(test)]
mod tests {
    use super::super::{testing, Desk, HandSeat as AnySeat};

    fn desk() -> Desk {
        let input = testing::inputs("ice-and-fire", "", 1, 0);
        Desk::new(AnySeat::read("ice-and-fire", &[input]).expect("reads"))
    }

    #[test]
    fn train_then_wait_and_join() {
        let mut desk = desk();
        assert_eq!(desk.lines(), vec!["WAIT"]);
        // Red's HQ is at (0,0); (1,0) is next to it.
        desk.click((1, 0));
        assert_eq!(desk.selected, Some((1, 0)));
        let keys: Vec<_> = desk.buttons().iter().map(|b| b.key).collect();
        assert!(keys.contains(&"train1"), "{keys:?}");
        desk.press("train1");
        desk.click((0, 1));
        desk.press("train2");
        assert_eq!(desk.lines(), vec!["TRAIN 1 1 0;TRAIN 2 0 1"]);
        assert!(testing::accepted("ice-and-fire", 1, 0, &desk.lines()));
        desk.undo();
        assert_eq!(desk.lines(), vec!["TRAIN 1 1 0"]);
        desk.clear();
        assert_eq!(desk.lines(), vec!["WAIT"]);
    }

    #[test]
    fn a_unit_moves_where_clicked() {
        // A later turn's input: the first one, with one unit of red's (id 1) at (1,0).
        let first = testing::inputs("ice-and-fire", "", 1, 0);
        // Build the later input by hand from the first: one own unit at (1,0), id 1.
        let units_at = first.lines().count() - 1;
        let mut lines: Vec<&str> = first.lines().collect();
        assert_eq!(lines[units_at], "0");
        lines[units_at] = "1";
        let mut text = lines.join("\n");
        text.push_str("\n0 1 1 1 0\n");
        let mut desk = Desk::new(AnySeat::read("ice-and-fire", &[text]).expect("reads"));
        desk.click((1, 0));
        assert_eq!(desk.selected, Some((1, 0)));
        assert!(desk.buttons().is_empty());
        desk.click((5, 5));
        assert_eq!(desk.lines(), vec!["MOVE 1 5 5"]);
        // Clicking the unit again deselects it.
        desk.click((1, 0));
        assert_eq!(desk.selected, None);
    }
}
