//! microRTS by hand: click one of your entities, then a tile: a unit MOVEs towards it (as far as
//! its step allows), ATTACKs an enemy in reach, a worker HARVESTs a mine or forest in reach; a
//! castle TRAINs a worker on a free tile in reach; a barracks or a worker first takes the type
//! to TRAIN or BUILD from a button. Every order is checked against reach and step, since a bad
//! one eliminates the player. The turn is one line of orders joined by `;` (`WAIT` for none).

use bots::micro_rts::protocol::{
    EntityLine, Init, Reader, TurnInput, BARRACKS, CASTLE, ENEMY, FOREST, HEAVY, LIGHT, ME, MINE,
    RANGED, TYPE_NAMES, WALL, WORKER,
};

use super::{Button, Click, Order};

pub const HINT: &str = "Click one of your units or buildings, then a tile: units move towards \
    it, attack an enemy or harvest; buildings and workers train or build with the buttons.";

/// What the seat played by hand sees this turn, as read from its input.
#[derive(Clone, Debug, PartialEq)]
pub struct SeatView {
    init: Init,
    turn: TurnInput,
}

fn chebyshev(a: (i32, i32), b: (i32, i32)) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

fn name(kind: u8) -> &'static str {
    TYPE_NAMES.get(usize::from(kind)).copied().unwrap_or("?")
}

/// A button's key and the type it trains or builds.
const MADE: [(&str, u8); 5] = [
    ("light", LIGHT),
    ("heavy", HEAVY),
    ("ranged", RANGED),
    ("castle", CASTLE),
    ("barracks", BARRACKS),
];

impl SeatView {
    pub fn read(inputs: &[String]) -> Result<SeatView, String> {
        let mut reader = Reader::new();
        let turn = super::last_turn(inputs, |input| reader.feed(input))?;
        Ok(SeatView {
            init: reader.init(),
            turn,
        })
    }

    fn at(&self, at: (i32, i32)) -> Option<&EntityLine> {
        self.turn.entities.iter().find(|e| (e.x, e.y) == at)
    }

    fn mine(&self, at: (i32, i32)) -> Option<&EntityLine> {
        self.at(at).filter(|e| e.owner == ME)
    }

    fn reach(&self, kind: u8) -> i32 {
        self.init.types[usize::from(kind).min(5)].reach
    }

    fn step(&self, kind: u8) -> i32 {
        self.init.types[usize::from(kind).min(5)].step
    }

    fn on_map(&self, at: (i32, i32)) -> bool {
        (0..self.init.width).contains(&at.0) && (0..self.init.height).contains(&at.1)
    }

    /// A MOVE as far towards `at` as the unit's step allows (never beyond it, which eliminates).
    fn towards(&self, from: EntityLine, at: (i32, i32)) -> Click {
        let step = self.step(from.kind);
        if step <= 0 {
            return Click::Note(format!("A {} does not move.", name(from.kind)));
        }
        let to = (
            from.x + (at.0 - from.x).clamp(-step, step),
            from.y + (at.1 - from.y).clamp(-step, step),
        );
        Click::Order(Order::new(format!(
            "MOVE {} {} {} {}",
            from.x, from.y, to.0, to.1
        )))
    }

    fn describe(&self, e: &EntityLine) -> String {
        let what = match e.kind {
            CASTLE => "click a free tile near it to train a worker",
            BARRACKS => "choose a unit type, then click a free tile near it",
            WORKER => "click a tile to move, a mine or forest to harvest, an enemy to attack; or build with a button",
            _ => "click a tile to move, or an enemy to attack",
        };
        format!(
            "{} at ({},{}) selected (health {}): {what}.",
            name(e.kind),
            e.x,
            e.y,
            e.health
        )
    }
}

impl super::Play for SeatView {
    fn click(&self, sel: Option<(i32, i32)>, mode: Option<&str>, at: (i32, i32)) -> Click {
        if !self.on_map(at) {
            return Click::Note("That is off the map.".into());
        }
        let from = sel.and_then(|s| self.mine(s)).copied();
        if let Some(own) = self.mine(at) {
            if sel == Some(at) {
                return Click::Deselect;
            }
            if mode.is_none() || from.is_none() {
                return Click::Select(at, self.describe(own));
            }
        }
        let Some(from) = from else {
            return Click::Note("Select one of your units or buildings first.".into());
        };
        let src = (from.x, from.y);
        let order = |verb: &str, tail: &str| {
            let text = format!("{verb} {} {} {} {}{tail}", src.0, src.1, at.0, at.1);
            Click::Order(Order::new(text))
        };
        let target = self.at(at);
        let far = chebyshev(src, at);
        let reach = self.reach(from.kind);
        // Training and building: a free tile in reach.
        let made = match (from.kind, mode) {
            (CASTLE, _) => Some(("TRAIN", WORKER)),
            (BARRACKS, Some(key)) | (WORKER, Some(key)) => {
                MADE.iter().find(|(k, _)| *k == key).map(|&(_, kind)| {
                    (
                        if from.kind == WORKER {
                            "BUILD"
                        } else {
                            "TRAIN"
                        },
                        kind,
                    )
                })
            }
            (BARRACKS, None) => {
                return Click::Note("Choose what the barracks trains with a button first.".into())
            }
            _ => None,
        };
        if let Some((verb, kind)) = made {
            if target.is_some() {
                return Click::Note(format!("({},{}) is taken: pick a free tile.", at.0, at.1));
            }
            if far > reach {
                return Click::Note(format!(
                    "Too far: a {} reaches {reach} tile(s) around it.",
                    name(from.kind)
                ));
            }
            return order(verb, &format!(" {}", name(kind)));
        }
        match target {
            Some(t) if t.owner == ENEMY => {
                if far <= reach {
                    order("ATTACK", "")
                } else {
                    self.towards(from, at)
                }
            }
            Some(t) if t.owner != ME && (t.kind == MINE || t.kind == FOREST) => {
                if from.kind != WORKER {
                    Click::Note("Only workers harvest.".into())
                } else if far <= reach {
                    order("HARVEST", "")
                } else {
                    self.towards(from, at)
                }
            }
            Some(t) if t.owner != ME && t.kind == WALL && far <= self.step(from.kind) => {
                Click::Note("A wall: nothing goes there.".into())
            }
            _ => self.towards(from, at),
        }
    }

    fn buttons(&self, sel: (i32, i32)) -> Vec<Button> {
        let Some(own) = self.mine(sel) else {
            return Vec::new();
        };
        let keys: &[&'static str] = match own.kind {
            BARRACKS => &["light", "heavy", "ranged"],
            WORKER => &["castle", "barracks"],
            _ => &[],
        };
        let verb = if own.kind == WORKER { "Build" } else { "Train" };
        keys.iter()
            .filter_map(|&key| MADE.iter().find(|(k, _)| *k == key))
            .map(|&(key, kind)| {
                let t = &self.init.types[usize::from(kind)];
                Button {
                    key,
                    label: format!(
                        "{verb} {} ({} gold, {} wood)…",
                        name(kind).to_lowercase(),
                        t.gold,
                        t.wood
                    ),
                }
            })
            .collect()
    }

    fn press(&self, _sel: (i32, i32), key: &str) -> Click {
        match MADE.iter().find(|(k, _)| *k == key) {
            Some(&(key, kind)) => Click::Mode(
                key,
                format!(
                    "Click a free tile in reach for the {}.",
                    name(kind).to_lowercase()
                ),
            ),
            None => Click::Note(format!("No such action: {key}.")),
        }
    }

    fn hint(&self) -> &'static str {
        HINT
    }

    fn status(&self) -> String {
        let units = self.turn.entities.iter().filter(|e| e.owner == ME).count();
        format!(
            "Gold {}, wood {}; {units} entities of yours; enemy gold {}, wood {}.",
            self.turn.gold, self.turn.wood, self.turn.enemy_gold, self.turn.enemy_wood
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
    use super::*;

    /// The seat's castle.
    fn castle(s: &SeatView) -> EntityLine {
        *s.turn
            .entities
            .iter()
            .find(|e| e.owner == ME && e.kind == CASTLE)
            .expect("a castle")
    }

    #[test]
    fn castle_trains_workers_move_and_harvest() {
        let input = testing::inputs("micro-rts", "", 42, 0);
        let seat = AnySeat::read("micro-rts", std::slice::from_ref(&input)).expect("reads");
        let s = &SeatView::read(&[input]).expect("reads");
        let castle = castle(s);
        let mut desk = Desk::new(seat.clone());
        assert_eq!(desk.lines(), vec!["WAIT"]);
        desk.click((castle.x, castle.y));
        assert_eq!(desk.selected, Some((castle.x, castle.y)));
        // A free tile next to the castle.
        let free = (-1..=1)
            .flat_map(|dx| (-1..=1).map(move |dy| (dx, dy)))
            .map(|(dx, dy)| (castle.x + dx, castle.y + dy))
            .find(|&p| s.on_map(p) && s.at(p).is_none())
            .expect("a free tile");
        desk.click(free);
        let train = format!(
            "TRAIN {} {} {} {} WORKER",
            castle.x, castle.y, free.0, free.1
        );
        assert_eq!(desk.lines(), vec![train.clone()]);
        assert!(testing::accepted("micro-rts", 42, 0, &desk.lines()));
        // Too far: no order (it would eliminate the player).
        desk.click((castle.x + 10, castle.y));
        assert_eq!(desk.lines(), vec![train]);
        assert!(desk.note.starts_with("Too far"), "{}", desk.note);
    }

    #[test]
    fn a_worker_moves_one_step_towards_a_far_tile() {
        let mut s = SeatView::read(&[testing::inputs("micro-rts", "", 42, 0)]).expect("reads");
        let castle = castle(&s);
        // A worker of ours one tile left of the castle (as after a TRAIN).
        let worker = EntityLine {
            x: castle.x - 1,
            y: castle.y,
            owner: ME,
            kind: WORKER,
            health: 1,
        };
        s.turn
            .entities
            .retain(|e| (e.x, e.y) != (worker.x, worker.y));
        s.turn.entities.push(worker);
        let mut desk = Desk::new(AnySeat::new(s.clone()));
        desk.click((worker.x, worker.y));
        let keys: Vec<_> = desk.buttons().iter().map(|b| b.key).collect();
        assert_eq!(keys, vec!["castle", "barracks"]);
        desk.click((worker.x - 5, worker.y + 3));
        assert_eq!(
            desk.lines(),
            vec![format!(
                "MOVE {} {} {} {}",
                worker.x,
                worker.y,
                worker.x - 1,
                worker.y + 1
            )]
        );
        // Build a barracks next to it.
        desk.press("barracks");
        let free = (worker.x, worker.y + 1);
        if s.at(free).is_none() {
            desk.click(free);
            assert_eq!(
                desk.lines()[0].split(';').nth(1),
                Some(
                    format!(
                        "BUILD {} {} {} {} BARRACKS",
                        worker.x, worker.y, free.0, free.1
                    )
                    .as_str()
                )
            );
        }
    }
}
