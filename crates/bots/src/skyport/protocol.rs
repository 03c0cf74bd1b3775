//! What the bots read and write: the server's messages as typed values, the board, hex geometry,
//! and the action lines (the `games` crate's `skyport` module rulebook, "Protocol").

// The server's messages are read into serde_json's tree: the bots crate's one tree JSON reader
// (it replaced a small one of Skyport's own, which took 13% more instructions to read the same
// messages: docs/performance.md). The hot reader, Crafting Quest 3's decoder, builds no tree at
// all (`crafting_quest::json`) and is checked against serde_json by its tests.
use serde_json::Value;

// The geometry and the weapons are the game's own (pure types and helpers of the `games` crate,
// the same ones the referee uses); what only a bot needs is below.
pub use games::skyport::{
    distance, loadout_level, upgrade_resource, weapon_stats, with_bonus, Dir, Pos, Weapon,
};

/// A position as the server writes it: `"j,k"` or `"j, k"`.
pub fn parse_pos(s: &str) -> Option<Pos> {
    let (a, b) = s.split_once(',')?;
    Some(Pos::new(a.trim().parse().ok()?, b.trim().parse().ok()?))
}

/// `obj[key]` as a string.
fn str_of<'v>(v: &'v Value, key: &str) -> Option<&'v str> {
    v.get(key)?.as_str()
}

/// `obj[key]` as an integer (written as one, or as a float with no fraction).
fn int_of(v: &Value, key: &str) -> Option<i64> {
    let n = v.get(key)?;
    n.as_i64().or_else(|| {
        let f = n.as_f64()?;
        (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
    })
}

/// The six neighbours of a tile in the order of [`Dir::ALL`] (the order the bots search in).
pub fn neighbours(p: Pos) -> [Pos; 6] {
    Dir::ALL.map(|d| p.step(d))
}

/// The index (0 rubidium, 1 explosium, 2 scrap) of the resource that upgrades a weapon.
pub fn upgrade_index(weapon: Weapon) -> usize {
    upgrade_resource(weapon).index()
}

/// One action, as a bot writes it: the game's own order, written by the game's own
/// [`order_line`].
pub use games::skyport::{order_line, Order as Act};

/// The line that ends a turn early.
pub const ENDTURN: &str = r#"{"message":"endturn"}"#;

/// The handshake line.
pub fn connect_line(name: &str) -> String {
    format!(
        r#"{{"message":"connect","revision":1,"name":{}}}"#,
        Value::from(name)
    )
}

/// The loadout line.
pub fn loadout_line(primary: Weapon, secondary: Weapon) -> String {
    format!(
        r#"{{"message":"loadout","primary-weapon":"{}","secondary-weapon":"{}"}}"#,
        primary.name(),
        secondary.name()
    )
}

/// The lines of a turn: the actions (at most three), then `endturn` when there are fewer.
pub fn turn_lines(acts: &[Act]) -> Vec<String> {
    let mut lines: Vec<String> = acts.iter().take(3).map(order_line).collect();
    if lines.len() < 3 {
        lines.push(ENDTURN.to_string());
    }
    lines
}

/// The map: `size × size` tile letters, index `j * size + k`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub size: usize,
    pub tiles: Vec<u8>,
}

impl Board {
    fn from_json(map: &Value) -> Option<Board> {
        let rows = map.get("data")?.as_array()?;
        let size = rows.len();
        let mut tiles = Vec::with_capacity(size * size);
        for row in rows {
            let row = row.as_array()?;
            if row.len() != size {
                return None;
            }
            for t in row {
                tiles.push(*t.as_str()?.as_bytes().first()?);
            }
        }
        Some(Board { size, tiles })
    }

    pub fn inside(&self, p: Pos) -> bool {
        p.j >= 0 && p.k >= 0 && (p.j as usize) < self.size && (p.k as usize) < self.size
    }

    /// The tile letter (`b'V'` off the map).
    pub fn at(&self, p: Pos) -> u8 {
        if self.inside(p) {
            self.tiles[p.j as usize * self.size + p.k as usize]
        } else {
            b'V'
        }
    }

    pub fn set(&mut self, p: Pos, tile: u8) {
        if self.inside(p) {
            let i = p.j as usize * self.size + p.k as usize;
            self.tiles[i] = tile;
        }
    }

    /// Grass or a resource tile.
    pub fn walkable(&self, p: Pos) -> bool {
        matches!(self.at(p), b'G' | b'E' | b'R' | b'C')
    }

    /// The resource on a tile: 0 rubidium, 1 explosium, 2 scrap.
    pub fn resource(&self, p: Pos) -> Option<usize> {
        match self.at(p) {
            b'R' => Some(0),
            b'E' => Some(1),
            b'C' => Some(2),
            _ => None,
        }
    }

    pub fn count(&self, tile: u8) -> usize {
        self.tiles.iter().filter(|&&t| t == tile).count()
    }

    pub fn positions(&self) -> impl Iterator<Item = Pos> + '_ {
        (0..self.tiles.len()).map(|i| Pos::new((i / self.size) as i32, (i % self.size) as i32))
    }
}

/// A player as a game state shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    pub name: String,
    pub health: i32,
    pub score: i64,
    pub pos: Pos,
    pub weapons: [(Weapon, u8); 2],
    /// Only in the receiver's own player object (our server's extension).
    pub resources: Option<[u32; 3]>,
}

impl Player {
    fn from_json(p: &Value) -> Option<Player> {
        let weapon = |key| {
            let w = p.get(key)?;
            Some((
                Weapon::parse(str_of(w, "name")?)?,
                u8::try_from(int_of(w, "level")?).ok()?,
            ))
        };
        let resources = p.get("resources").and_then(|r| {
            let n = |key| int_of(r, key).and_then(|v| u32::try_from(v).ok());
            Some([n("rubidium")?, n("explosium")?, n("scrap")?])
        });
        Some(Player {
            name: str_of(p, "name")?.to_string(),
            health: i32::try_from(int_of(p, "health")?).ok()?,
            score: int_of(p, "score")?,
            pos: parse_pos(str_of(p, "position")?)?,
            weapons: [weapon("primary-weapon")?, weapon("secondary-weapon")?],
            resources,
        })
    }

    pub fn alive(&self) -> bool {
        self.health > 0
    }

    pub fn level(&self, weapon: Weapon) -> Option<u8> {
        loadout_level(&self.weapons, weapon)
    }
}

/// A game state of a turn (`turn >= 1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub turn: i64,
    /// The ring from the player whose turn it is.
    pub players: Vec<Player>,
    pub board: Board,
}

impl State {
    /// Whether the receiver is the player to move (its object, first, carries its resources).
    pub fn my_turn(&self) -> bool {
        self.players.first().is_some_and(|p| p.resources.is_some())
    }
}

/// The rules that differ between the two rulesets, from the `info` message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ruleset {
    pub mortar_aoe: i32,
    pub death_penalty: i64,
    /// REV 1: damage aimed at a player on a spawn tile comes back to the attacker.
    pub spawn_reflects: bool,
    /// REV 1: a mortar shell on a spawn tile explodes.
    pub shell_on_spawn_explodes: bool,
    /// REV 1: on a spawn tile only moves are valid.
    pub spawn_only_moves: bool,
}

impl Ruleset {
    pub const REV1: Ruleset = Ruleset {
        mortar_aoe: 2,
        death_penalty: 80,
        spawn_reflects: true,
        shell_on_spawn_explodes: true,
        spawn_only_moves: true,
    };
    pub const TG2013: Ruleset = Ruleset {
        mortar_aoe: 18,
        death_penalty: 40,
        spawn_reflects: false,
        shell_on_spawn_explodes: false,
        spawn_only_moves: false,
    };

    pub fn by_id(id: &str) -> Ruleset {
        if id == "tg2013" {
            Ruleset::TG2013
        } else {
            Ruleset::REV1
        }
    }
}

/// A message from the server.
#[derive(Clone, Debug, PartialEq)]
pub enum Message {
    /// Our server's first line: the ruleset, the rounds, the players, the map.
    Info {
        ruleset: String,
    },
    Connected,
    /// The turn-0 game state: the names and the map.
    Start {
        names: Vec<String>,
        board: Board,
    },
    State(State),
    EndTurn,
    Error(String),
    End,
    /// An action broadcast or anything else a bot may ignore.
    Other,
}

impl Message {
    /// Reads one line; `None` when it is not JSON or not a message this reader knows well enough.
    pub fn parse(line: &str) -> Option<Message> {
        let v: Value = serde_json::from_str(line).ok()?;
        if let Some(e) = str_of(&v, "error") {
            return Some(Message::Error(e.to_string()));
        }
        Some(match str_of(&v, "message")? {
            "info" => Message::Info {
                ruleset: str_of(&v, "ruleset").unwrap_or("rev1").to_string(),
            },
            "connect" => Message::Connected,
            "gamestate" => {
                let turn = int_of(&v, "turn")?;
                let board = Board::from_json(v.get("map")?)?;
                let players = v.get("players")?.as_array()?;
                if turn == 0 {
                    let names = players
                        .iter()
                        .filter_map(|p| str_of(p, "name").map(str::to_string))
                        .collect();
                    Message::Start { names, board }
                } else {
                    let players = players
                        .iter()
                        .map(Player::from_json)
                        .collect::<Option<Vec<_>>>()?;
                    Message::State(State {
                        turn,
                        players,
                        board,
                    })
                }
            }
            "endturn" => Message::EndTurn,
            "endactions" => Message::End,
            _ => Message::Other,
        })
    }
}
