//! Tiles, the `.skyportmap` file format (rulebook: *The map*) and the maps we ship.
//!
//! A map file has a three-line header (`players N`, `size D`, `description "text"`, each a
//! keyword, white space and a value) and then an ASCII drawing of the hex rhombus. The drawing's
//! `/`, `\`, `_`, spaces and tabs are decoration: once they are removed, every line that is not
//! empty is one row of tiles with equal `j + k`, from the top tile down. Row `r` holds `r + 1`
//! tiles for `r < D` (`(j, k) = (r − i, i)`) and `2D − 1 − r` tiles below the middle
//! (`(D − 1 − i, r − D + 1 + i)`). The original skipped rows of the wrong length with a warning;
//! our parser refuses such a file with a message that names the line.

use std::fmt;

use super::hex::Pos;

/// The largest map side we accept (the original maps go up to 50).
pub const MAX_SIZE: usize = 64;

/// A tile type, with its letter on the wire and in map files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tile {
    Grass,
    Explosium,
    Rubidium,
    Scrap,
    Void,
    Spawn,
    Rock,
}

impl Tile {
    pub fn letter(self) -> char {
        match self {
            Tile::Grass => 'G',
            Tile::Explosium => 'E',
            Tile::Rubidium => 'R',
            Tile::Scrap => 'C',
            Tile::Void => 'V',
            Tile::Spawn => 'S',
            Tile::Rock => 'O',
        }
    }

    pub fn from_letter(c: char) -> Option<Tile> {
        Some(match c {
            'G' => Tile::Grass,
            'E' => Tile::Explosium,
            'R' => Tile::Rubidium,
            'C' => Tile::Scrap,
            'V' => Tile::Void,
            'S' => Tile::Spawn,
            'O' => Tile::Rock,
            _ => return None,
        })
    }

    /// The name the original's error messages use (`GRASS`, `ROCK`, ...).
    pub fn java_name(self) -> &'static str {
        match self {
            Tile::Grass => "GRASS",
            Tile::Explosium => "EXPLOSIUM",
            Tile::Rubidium => "RUBIDIUM",
            Tile::Scrap => "SCRAP",
            Tile::Void => "VOID",
            Tile::Spawn => "SPAWN",
            Tile::Rock => "ROCK",
        }
    }

    /// Whether a player may move onto it (grass and resource tiles).
    pub fn walkable(self) -> bool {
        matches!(
            self,
            Tile::Grass | Tile::Explosium | Tile::Rubidium | Tile::Scrap
        )
    }

    /// The resource mined on it.
    pub fn resource(self) -> Option<Resource> {
        match self {
            Tile::Rubidium => Some(Resource::Rubidium),
            Tile::Explosium => Some(Resource::Explosium),
            Tile::Scrap => Some(Resource::Scrap),
            _ => None,
        }
    }
}

/// The three resources, each upgrading one weapon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Resource {
    Rubidium,
    Explosium,
    Scrap,
}

impl Resource {
    pub const ALL: [Resource; 3] = [Resource::Rubidium, Resource::Explosium, Resource::Scrap];

    pub fn name(self) -> &'static str {
        match self {
            Resource::Rubidium => "rubidium",
            Resource::Explosium => "explosium",
            Resource::Scrap => "scrap",
        }
    }

    pub fn index(self) -> usize {
        match self {
            Resource::Rubidium => 0,
            Resource::Explosium => 1,
            Resource::Scrap => 2,
        }
    }
}

/// A map: a rhombus of `size × size` tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Map {
    /// The map's name (its file name without `.skyportmap`).
    pub name: String,
    pub description: String,
    /// The header's `players` line (informational: the spawn tiles count).
    pub header_players: usize,
    pub size: usize,
    /// Index `j * size + k`.
    pub tiles: Vec<Tile>,
}

/// Why a map file was refused: the line (1-based; 0 for the file as a whole) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MapError {
    pub line: usize,
    pub message: String,
}

impl fmt::Display for MapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "bad map file: {}", self.message)
        } else {
            write!(f, "bad map file, line {}: {}", self.line, self.message)
        }
    }
}

impl std::error::Error for MapError {}

fn err(line: usize, message: impl Into<String>) -> MapError {
    MapError {
        line,
        message: message.into(),
    }
}

/// The maps we ship: name and file text. Made for this project in the original format (the
/// originals carry no license); each is symmetric so that every spawn is as good as another.
pub const MAPS: &[(&str, &str)] = &[
    ("duel-2p", include_str!("maps/duel-2p.skyportmap")),
    ("triad-3p", include_str!("maps/triad-3p.skyportmap")),
    (
        "crossroads-4p",
        include_str!("maps/crossroads-4p.skyportmap"),
    ),
    (
        "archipelago-8p",
        include_str!("maps/archipelago-8p.skyportmap"),
    ),
];

impl Map {
    /// Parses a `.skyportmap` file.
    pub fn parse(name: &str, text: &str) -> Result<Map, MapError> {
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let header = Header::read(&mut lines)?;
        let size = header.size;
        let map = Map {
            name: name.to_string(),
            description: header.description,
            header_players: header.players,
            size,
            tiles: read_tiles(lines, size)?,
        };
        let spawns = map.spawns().len();
        if spawns < 2 {
            return Err(err(
                0,
                format!("{spawns} spawn tiles (S); a map needs at least 2"),
            ));
        }
        Ok(map)
    }

    /// The map as a `.skyportmap` file: the header and a drawing of hexagons.
    pub fn to_file(&self) -> String {
        let d = self.size;
        let width = 4 * d + 2;
        let mut grid = vec![vec![' '; width]; 2 * d + 1];
        for j in 0..d {
            for k in 0..d {
                let (r, c) = (j + k, 2 * (k + d) - 2 * j);
                grid[r][c] = '_';
                grid[r + 1][c - 1] = '/';
                grid[r + 1][c] = self.tiles[j * d + k].letter();
                grid[r + 1][c + 1] = '\\';
                grid[r + 2][c - 1] = '\\';
                grid[r + 2][c] = '_';
                grid[r + 2][c + 1] = '/';
            }
        }
        let mut out = format!(
            "players {}\nsize {d}\ndescription \"{}\"\n",
            self.header_players, self.description
        );
        for line in grid {
            let line: String = line.into_iter().collect();
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }

    pub fn inside(&self, p: Pos) -> bool {
        p.j >= 0 && p.k >= 0 && (p.j as usize) < self.size && (p.k as usize) < self.size
    }

    /// The tile at a position; `None` off the map.
    pub fn tile(&self, p: Pos) -> Option<Tile> {
        self.inside(p)
            .then(|| self.tiles[p.j as usize * self.size + p.k as usize])
    }

    pub fn index(&self, p: Pos) -> usize {
        p.j as usize * self.size + p.k as usize
    }

    pub fn pos(&self, index: usize) -> Pos {
        Pos::new((index / self.size) as i32, (index % self.size) as i32)
    }

    /// Every spawn tile, by J then K.
    pub fn spawns(&self) -> Vec<Pos> {
        (0..self.tiles.len())
            .filter(|&i| self.tiles[i] == Tile::Spawn)
            .map(|i| self.pos(i))
            .collect()
    }
}

/// A value quoted in a message: at most 40 characters.
/// A map file's header: its first three lines that are not blank.
struct Header {
    players: usize,
    size: usize,
    description: String,
}

impl Header {
    /// Reads the header from `lines` (numbered from 1), leaving them at the first tile row.
    fn read<'a>(lines: &mut impl Iterator<Item = (usize, &'a str)>) -> Result<Header, MapError> {
        let mut players = None;
        let mut size = None;
        let mut description = None;
        let mut header = 0;
        for (no, line) in lines {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let (key, value) = match line.split_once(|c: char| c.is_whitespace()) {
                Some((k, v)) => (k, v.trim()),
                None => (line, ""),
            };
            match key {
                "players" | "size" => {
                    let n: usize = value.parse().map_err(|_| {
                        err(
                            no,
                            format!("'{key}' needs a whole number, not '{}'", shorten(value)),
                        )
                    })?;
                    let slot = if key == "players" {
                        &mut players
                    } else {
                        &mut size
                    };
                    if slot.replace(n).is_some() {
                        return Err(err(no, format!("'{key}' is given twice")));
                    }
                }
                "description" => {
                    let v = value
                        .strip_prefix('"')
                        .and_then(|v| v.strip_suffix('"'))
                        .unwrap_or(value);
                    if description.replace(v.to_string()).is_some() {
                        return Err(err(no, "'description' is given twice"));
                    }
                }
                _ => {
                    return Err(err(
                        no,
                        format!(
                        "expected a header line 'players N', 'size D' or 'description \"text\"', \
                             not '{}'",
                        shorten(line)
                    ),
                    ))
                }
            }
            header += 1;
            if header == 3 {
                break;
            }
        }
        let (Some(players), Some(size)) = (players, size) else {
            let missing = if size.is_none() { "size" } else { "players" };
            return Err(err(0, format!("the header has no '{missing}' line")));
        };
        if !(2..=MAX_SIZE).contains(&size) {
            return Err(err(
                0,
                format!("size {size} is out of range (2 to {MAX_SIZE})"),
            ));
        }
        Ok(Header {
            players,
            size,
            description: description.unwrap_or_default(),
        })
    }
}

/// Reads the `2 * size - 1` rows of tiles that follow the header into the map's grid (each
/// row a diagonal of the hexagon; the slashes and underscores that draw it are ignored).
fn read_tiles<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
    size: usize,
) -> Result<Vec<Tile>, MapError> {
    let rows = 2 * size - 1;
    let mut tiles = vec![Tile::Void; size * size];
    let mut row = 0;
    for (no, line) in lines {
        let cells: Vec<char> = line
            .chars()
            .filter(|c| !matches!(c, '/' | '\\' | '_' | ' ' | '\t' | '\r'))
            .collect();
        if cells.is_empty() {
            continue;
        }
        if row >= rows {
            return Err(err(
                no,
                format!("more than the {rows} rows of tiles a map of size {size} has"),
            ));
        }
        let want = if row < size { row + 1 } else { rows - row };
        if cells.len() != want {
            return Err(err(
                no,
                format!(
                    "row {} has {} tiles; a map of size {size} needs {want} there",
                    row + 1,
                    cells.len()
                ),
            ));
        }
        for (i, c) in cells.into_iter().enumerate() {
            let tile = Tile::from_letter(c).ok_or_else(|| {
                err(
                    no,
                    format!("unknown tile '{c}' (the tiles are G E R C V S O)"),
                )
            })?;
            let (j, k) = if row < size {
                (row - i, i)
            } else {
                (size - 1 - i, row - size + 1 + i)
            };
            tiles[j * size + k] = tile;
        }
        row += 1;
    }
    if row < rows {
        return Err(err(
            0,
            format!("{row} rows of tiles; a map of size {size} needs {rows}"),
        ));
    }
    Ok(tiles)
}

fn shorten(s: &str) -> String {
    let mut cut: String = s.chars().take(40).collect();
    if cut.len() < s.len() {
        cut.push('…');
    }
    cut
}
