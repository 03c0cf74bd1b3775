//! What the viewer draws: the [`View`] a frame carries (the web painter deserialises it), the
//! board as text, and the per-seat status lines.

use engine::Stat;
use serde::{Deserialize, Serialize};

use super::map::{idx, xy, CELLS, HEIGHT, WIDTH};
use super::state::{name, plural, BuildingKind, PLAYERS};
use super::IceAndFire;

/// Rulebook, *Protocol* (`MSG text`): a message longer than this is shown cut.
const MESSAGE_MAX_CHARS: usize = 20;
/// Rulebook, *Protocol*: a cut message keeps this many characters, then "...".
const MESSAGE_KEPT_CHARS: usize = 17;

/// The picture of an Ice and Fire match after a step. Coordinates are `(x, y)`, x to the
/// right, y down, (0,0) top left; seats are 0 = red, 1 = blue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Always 12.
    pub width: usize,
    /// Always 12.
    pub height: usize,
    /// Completed player turns (0 at the start, 200 at the turn limit).
    pub turn: u32,
    /// The league, 1–4.
    pub league: u8,
    /// Per cell, row by row (index `y * width + x`): not playable (`#`).
    pub void: Vec<bool>,
    /// Per cell: the owning seat; `None` for neutral and void cells.
    pub owner: Vec<Option<usize>>,
    /// Per cell: owned and connected to its owner's HQ (neutral cells are reported active).
    pub active: Vec<bool>,
    /// Per cell: owned, active and guarded by a tower of its owner, so only level 3 may enter.
    pub protected: Vec<bool>,
    /// The mine spots, row by row (empty below league 3).
    pub mine_spots: Vec<Xy>,
    /// Every building: the two HQs, mines, towers.
    pub buildings: Vec<BuildingView>,
    /// Every living unit, in id order.
    pub units: Vec<UnitView>,
    /// Per seat: red, then blue.
    pub players: Vec<PlayerView>,
    /// The seat whose turn led to this frame (`None` for the first frame).
    pub played: Option<usize>,
    /// The seat to play next (`None` once the match is over).
    pub to_move: Option<usize>,
    /// The seat whose HQ was captured, if the match ended that way.
    pub hq_captured: Option<usize>,
    /// The winner once the match is over (`None` while playing and for a draw).
    pub winner: Option<usize>,
    /// Whether the match is over.
    pub over: bool,
}

/// A position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Xy {
    pub x: usize,
    pub y: usize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Hq,
    Mine,
    Tower,
}

/// One building.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildingView {
    pub owner: usize,
    /// `"hq"`, `"mine"` or `"tower"`.
    pub kind: Kind,
    pub x: usize,
    pub y: usize,
}

/// One unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitView {
    pub owner: usize,
    pub id: i32,
    /// 1–3.
    pub level: u8,
    pub x: usize,
    pub y: usize,
}

/// One seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// `"red"` or `"blue"`.
    pub name: String,
    pub gold: i32,
    /// The income as last computed: after a bankruptcy, the stale value the seat was told,
    /// as in the original, until the next action or turn start recomputes it.
    pub income: i32,
    /// Gold plus the training cost of its living units (the score at the turn limit).
    pub military_power: i64,
    /// The seat's message of its last turn, cut as the original viewer cuts it.
    pub message: Option<String>,
    /// Why the seat lost, if it did.
    pub lost: Option<String>,
    /// The final score, once the match is over.
    pub score: Option<i64>,
}

/// A `MSG` text as the viewer shows it: more than 20 characters are cut to 17 plus "...".
pub fn shown_message(text: &str) -> String {
    if text.chars().count() > MESSAGE_MAX_CHARS {
        let kept: String = text.chars().take(MESSAGE_KEPT_CHARS).collect();
        format!("{kept}...")
    } else {
        text.to_string()
    }
}

/// The view of a match now.
pub(super) fn view(game: &IceAndFire) -> View {
    let board = &game.board;
    let at = |c: usize| xy(c);
    let buildings = board
        .buildings
        .iter()
        .map(|b| {
            let (x, y) = at(b.cell);
            let kind = match b.kind {
                BuildingKind::Hq => Kind::Hq,
                BuildingKind::Mine => Kind::Mine,
                BuildingKind::Tower => Kind::Tower,
            };
            BuildingView {
                owner: b.owner,
                kind,
                x,
                y,
            }
        })
        .collect();
    let units = board
        .units
        .iter()
        .map(|u| {
            let (x, y) = at(u.cell);
            UnitView {
                owner: u.owner,
                id: u.id,
                level: u.level,
                x,
                y,
            }
        })
        .collect();
    let outcome = game.outcome.as_ref();
    let players = (0..PLAYERS)
        .map(|seat| PlayerView {
            name: name(seat).to_string(),
            gold: board.gold[seat],
            income: board.income[seat],
            military_power: board.military_power(seat),
            message: game.messages[seat].as_deref().map(shown_message),
            lost: game
                .lost
                .as_ref()
                .filter(|(s, _)| *s == seat)
                .map(|(_, why)| why.clone()),
            score: outcome.and_then(|o| o.scores.get(seat).copied()),
        })
        .collect();
    View {
        width: WIDTH,
        height: HEIGHT,
        turn: game.turns_done,
        league: board.league.0,
        void: board.map.void.to_vec(),
        owner: board.owner.to_vec(),
        active: board.active.to_vec(),
        protected: (0..CELLS)
            .map(|c| board.owner[c].is_some() && board.active[c] && board.protected(c))
            .collect(),
        mine_spots: board
            .map
            .spots()
            .into_iter()
            .map(|c| {
                let (x, y) = at(c);
                Xy { x, y }
            })
            .collect(),
        buildings,
        units,
        players,
        played: game.last_player,
        to_move: if outcome.is_some() {
            None
        } else {
            Some(game.player)
        },
        hq_captured: game.hq_captured,
        winner: outcome.and_then(|o| o.winner()),
        over: outcome.is_some(),
    }
}

/// The board as text: two characters per cell (territory, then what stands on it), with
/// coordinates and a legend line.
pub(super) fn text(game: &IceAndFire) -> String {
    let board = &game.board;
    let mut out = String::from("   ");
    for x in 0..WIDTH {
        out.push_str(&format!("{x:<2}"));
    }
    out.push('\n');
    for y in 0..HEIGHT {
        out.push_str(&format!("{y:>2} "));
        for x in 0..WIDTH {
            let c = idx(x, y);
            let land = match (board.map.void[c], board.owner[c], board.active[c]) {
                (true, _, _) => '#',
                (false, None, _) => '.',
                (false, Some(0), true) => 'O',
                (false, Some(0), false) => 'o',
                (false, Some(_), true) => 'X',
                (false, Some(_), false) => 'x',
            };
            let on = if let Some(u) = board.unit_at(c) {
                char::from(b'0' + u.level.min(9))
            } else if let Some(b) = board.building_at(c) {
                match b.kind {
                    BuildingKind::Hq => 'H',
                    BuildingKind::Mine => 'M',
                    BuildingKind::Tower => 'T',
                }
            } else if board.map.spot[c] {
                '$'
            } else {
                ' '
            };
            out.push(land);
            out.push(on);
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    out.push_str(
        "O/o red cell active/inactive, X/x blue, . neutral, # void; \
         then 1-3 unit level, H HQ, M mine, T tower, $ free mine spot\n",
    );
    out
}

/// One status line per seat: "gold 21 · income 1 · 3 units", or why it lost.
/// The key numbers per seat: gold and income, units, territory (active cells owned) and military
/// power (the sum of its units' levels, which is what their cost and upkeep grow with).
pub(super) fn stats(game: &IceAndFire) -> Vec<Stat> {
    let board = &game.board;
    let per_seat = |f: &dyn Fn(usize) -> i64| (0..PLAYERS).map(f).collect::<Vec<i64>>();
    let units = |s: usize| board.units.iter().filter(move |u| u.owner == s);
    // Active cells per seat, in one pass over the map.
    let mut territory = [0i64; PLAYERS];
    for (owner, &active) in board.owner.iter().zip(&board.active) {
        if let (Some(s), true) = (owner, active) {
            territory[*s] += 1;
        }
    }
    vec![
        Stat::new("gold", per_seat(&|s| i64::from(board.gold[s]))),
        Stat::new("income", per_seat(&|s| i64::from(board.income[s]))),
        Stat::new("units", per_seat(&|s| units(s).count() as i64)),
        Stat::new("territory", territory),
        Stat::new(
            "military power",
            per_seat(&|s| units(s).map(|u| i64::from(u.level)).sum()),
        ),
    ]
}

pub(super) fn status(game: &IceAndFire) -> Vec<String> {
    let board = &game.board;
    (0..PLAYERS)
        .map(|seat| {
            if let Some((_, why)) = game.lost.as_ref().filter(|(s, _)| *s == seat) {
                return format!("lost: {why}");
            }
            let units = board.units.iter().filter(|u| u.owner == seat).count();
            let mut line = format!(
                "gold {} · income {} · {}",
                board.gold[seat],
                board.income[seat],
                plural(units, "unit")
            );
            if let Some(score) = game.outcome.as_ref().and_then(|o| o.scores.get(seat)) {
                line.push_str(&format!(" · score {score}"));
            }
            line
        })
        .collect()
}
