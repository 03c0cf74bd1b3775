//! The decoder against the reader it replaced: a JSON tree, then the fields looked up in it.
//! Every line of a few matches, and the same lines bent (white space, other orders, unknown
//! names, wrong types, repeated keys, cut short), read both ways, give the same message; one
//! decoder reads them all, so its reused buffers are checked too.

use engine::{FaultKind, Heard, Setup};

use super::*;
use crate::Bot;

/// The reader as it was.
#[allow(clippy::all)]
mod before {
    use super::super::*;

    /// A JSON value borrowing its text.
    #[derive(Clone, Debug, PartialEq)]
    pub enum Json<'a> {
        Null,
        Bool(bool),
        Int(i64),
        Str(String),
        Arr(Vec<Json<'a>>),
        Obj(Vec<(&'a str, Json<'a>)>),
    }

    impl<'a> Json<'a> {
        /// Reads a whole line.
        pub fn parse(text: &'a str) -> Option<Json<'a>> {
            let mut p = Parser {
                s: text.as_bytes(),
                text,
                i: 0,
                depth: 0,
            };
            let v = p.value()?;
            p.ws();
            (p.i == p.s.len()).then_some(v)
        }

        /// A field of an object.
        pub fn get(&self, key: &str) -> Option<&Json<'a>> {
            match self {
                Json::Obj(fields) => fields.iter().rev().find(|(k, _)| *k == key).map(|(_, v)| v),
                _ => None,
            }
        }

        pub fn int(&self) -> Option<i64> {
            match self {
                Json::Int(n) => Some(*n),
                _ => None,
            }
        }

        pub fn str(&self) -> Option<&str> {
            match self {
                Json::Str(s) => Some(s),
                _ => None,
            }
        }

        /// The items of an array (none for anything else).
        pub fn items(&self) -> &[Json<'a>] {
            match self {
                Json::Arr(items) => items,
                _ => &[],
            }
        }

        /// The fields of an object (none for anything else).
        pub fn fields(&self) -> &[(&'a str, Json<'a>)] {
            match self {
                Json::Obj(fields) => fields,
                _ => &[],
            }
        }

        /// An integer field, 0 when missing; clamped to `i32`.
        pub fn i32(&self, key: &str) -> i32 {
            self.get(key)
                .and_then(Json::int)
                .unwrap_or(0)
                .clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32
        }
    }

    /// Deeper nesting than this is refused.
    const MAX_DEPTH: u32 = 64;

    struct Parser<'a> {
        s: &'a [u8],
        text: &'a str,
        i: usize,
        depth: u32,
    }

    impl<'a> Parser<'a> {
        fn ws(&mut self) {
            while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
                self.i += 1;
            }
        }

        fn eat(&mut self, b: u8) -> Option<()> {
            self.ws();
            (self.s.get(self.i) == Some(&b)).then(|| self.i += 1)
        }

        fn value(&mut self) -> Option<Json<'a>> {
            self.ws();
            match *self.s.get(self.i)? {
                b'{' => {
                    self.depth += 1;
                    if self.depth > MAX_DEPTH {
                        return None;
                    }
                    self.i += 1;
                    let mut fields = Vec::new();
                    self.ws();
                    if self.s.get(self.i) == Some(&b'}') {
                        self.i += 1;
                    } else {
                        loop {
                            self.ws();
                            let key = self.key()?;
                            self.eat(b':')?;
                            let v = self.value()?;
                            fields.push((key, v));
                            self.ws();
                            match *self.s.get(self.i)? {
                                b',' => self.i += 1,
                                b'}' => {
                                    self.i += 1;
                                    break;
                                }
                                _ => return None,
                            }
                        }
                    }
                    self.depth -= 1;
                    Some(Json::Obj(fields))
                }
                b'[' => {
                    self.depth += 1;
                    if self.depth > MAX_DEPTH {
                        return None;
                    }
                    self.i += 1;
                    let mut items = Vec::new();
                    self.ws();
                    if self.s.get(self.i) == Some(&b']') {
                        self.i += 1;
                    } else {
                        loop {
                            items.push(self.value()?);
                            self.ws();
                            match *self.s.get(self.i)? {
                                b',' => self.i += 1,
                                b']' => {
                                    self.i += 1;
                                    break;
                                }
                                _ => return None,
                            }
                        }
                    }
                    self.depth -= 1;
                    Some(Json::Arr(items))
                }
                b'"' => self.string().map(Json::Str),
                b't' => self.word("true", Json::Bool(true)),
                b'f' => self.word("false", Json::Bool(false)),
                b'n' => self.word("null", Json::Null),
                _ => self.number(),
            }
        }

        fn word(&mut self, w: &str, v: Json<'a>) -> Option<Json<'a>> {
            if self.s[self.i..].starts_with(w.as_bytes()) {
                self.i += w.len();
                Some(v)
            } else {
                None
            }
        }

        fn number(&mut self) -> Option<Json<'a>> {
            let start = self.i;
            if self.s.get(self.i) == Some(&b'-') {
                self.i += 1;
            }
            let digits = self.i;
            while self.i < self.s.len() && self.s[self.i].is_ascii_digit() {
                self.i += 1;
            }
            if self.i == digits || matches!(self.s.get(self.i), Some(b'.' | b'e' | b'E')) {
                return None;
            }
            self.text.get(start..self.i)?.parse().ok().map(Json::Int)
        }

        /// A key: a string without escapes, borrowed.
        fn key(&mut self) -> Option<&'a str> {
            if self.s.get(self.i) != Some(&b'"') {
                return None;
            }
            let start = self.i + 1;
            let mut j = start;
            while j < self.s.len() && self.s[j] != b'"' {
                if self.s[j] == b'\\' {
                    return None;
                }
                j += 1;
            }
            let key = self.text.get(start..j)?;
            self.i = j + 1;
            Some(key)
        }

        fn string(&mut self) -> Option<String> {
            self.i += 1;
            let mut out = String::new();
            loop {
                let start = self.i;
                while self.i < self.s.len() && self.s[self.i] != b'"' && self.s[self.i] != b'\\' {
                    self.i += 1;
                }
                out.push_str(self.text.get(start..self.i)?);
                match *self.s.get(self.i)? {
                    b'"' => {
                        self.i += 1;
                        return Some(out);
                    }
                    _ => {
                        let e = *self.s.get(self.i + 1)?;
                        self.i += 2;
                        match e {
                            b'"' => out.push('"'),
                            b'\\' => out.push('\\'),
                            b'/' => out.push('/'),
                            b'n' => out.push('\n'),
                            b't' => out.push('\t'),
                            b'r' => out.push('\r'),
                            b'b' => out.push('\u{8}'),
                            b'f' => out.push('\u{c}'),
                            b'u' => {
                                let hex = self.text.get(self.i..self.i + 4)?;
                                let code = u32::from_str_radix(hex, 16).ok()?;
                                self.i += 4;
                                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                            }
                            _ => return None,
                        }
                    }
                }
            }
        }
    }

    fn resources(v: Option<&Json>) -> [u32; 7] {
        let mut out = [0; 7];
        for (name, q) in v.map(Json::fields).unwrap_or_default() {
            if let Some(r) = RESOURCES.iter().position(|n| n == name) {
                out[r] = q.int().unwrap_or(0).clamp(0, i64::from(u32::MAX)) as u32;
            }
        }
        out
    }

    fn kind_index(name: &str) -> Option<usize> {
        KINDS.iter().position(|k| *k == name)
    }

    fn index(v: &Json, key: &str) -> usize {
        v.get(key)
            .and_then(Json::int)
            .unwrap_or(0)
            .clamp(0, 1 << 20) as usize
    }

    fn list<'v, 'a>(v: &'v Json<'a>, key: &str) -> &'v [Json<'a>] {
        v.get(key).map(Json::items).unwrap_or_default()
    }

    fn sight(v: &Json) -> Sight {
        Sight {
            x: v.i32("x"),
            y: v.i32("y"),
            rows: list(v, "rows")
                .iter()
                .map(|r| r.str().unwrap_or("").as_bytes().to_vec())
                .collect(),
            mixed: list(v, "mixed")
                .iter()
                .map(|m| {
                    let types = list(m, "types")
                        .iter()
                        .filter_map(|t| RESOURCES.iter().position(|n| Some(*n) == t.str()))
                        .collect();
                    (m.i32("x"), m.i32("y"), types)
                })
                .collect(),
            piles: list(v, "piles")
                .iter()
                .map(|p| PileInfo {
                    x: p.i32("x"),
                    y: p.i32("y"),
                    res: resources(p.get("resources")),
                    objects: list(p, "objects")
                        .iter()
                        .filter_map(|o| {
                            let k = kind_index(o.get("kind")?.str()?)?;
                            Some((k, o.i32("level"), o.i32("count").max(0) as u32))
                        })
                        .collect(),
                })
                .collect(),
            towers: list(v, "towers")
                .iter()
                .map(|t| (t.i32("x"), t.i32("y"), index(t, "player")))
                .collect(),
            traps: list(v, "traps")
                .iter()
                .map(|t| (t.i32("x"), t.i32("y")))
                .collect(),
            units: list(v, "units")
                .iter()
                .map(|u| Seen {
                    player: index(u, "player"),
                    id: index(u, "id"),
                    x: u.i32("x"),
                    y: u.i32("y"),
                    energy: u.i32("energy"),
                    life: u.i32("life"),
                    sword: u.i32("sword"),
                    armour: u.i32("armour"),
                })
                .collect(),
        }
    }

    fn unit(v: &Json) -> UnitInfo {
        let mut items = [[0u32; 3]; 2];
        for o in list(v, "objects") {
            if let Some(k) = o.get("kind").and_then(Json::str).and_then(kind_index) {
                let l = o.i32("level");
                if (1..=3).contains(&l) {
                    items[k][l as usize - 1] += o.i32("count").max(0) as u32;
                }
            }
        }
        let dig = v
            .get("dig")
            .filter(|d| matches!(d, Json::Obj(_)))
            .map(|d| (d.i32("x"), d.i32("y"), resources(d.get("resources"))));
        let retaliate = v
            .get("retaliate")
            .map_or((0, 0), |r| (r.i32("energy"), r.i32("threshold")));
        UnitInfo {
            id: index(v, "id"),
            x: v.i32("x"),
            y: v.i32("y"),
            energy: v.i32("energy"),
            life: v.i32("life"),
            frozen: v.i32("frozen"),
            sword: v.i32("sword"),
            armour: v.i32("armour"),
            retaliate,
            res: resources(v.get("resources")),
            items,
            weight: v.i32("weight"),
            move_cost: v.i32("move_cost"),
            dig,
            sight: v.get("sight").map(sight).unwrap_or_default(),
        }
    }

    fn blueprints(v: &Json) -> [i32; 4] {
        let b = v.get("blueprints");
        let get = |k: &str| {
            b.and_then(|b| b.get(k))
                .and_then(Json::int)
                .map_or(1, |n| n as i32)
        };
        [get("sword"), get("armour"), get("tower"), get("trap")]
    }

    /// Reads one line from the referee.
    pub fn read(line: &str) -> Message {
        let Some(v) = Json::parse(line.trim()) else {
            return Message::Unknown;
        };
        let text = |key: &str| v.get(key).and_then(Json::str).unwrap_or("").to_string();
        let num = |key: &str| v.get(key).and_then(Json::int).unwrap_or(0);
        match v.get("type").and_then(Json::str) {
            Some(kind @ ("turn" | "state")) => {
                let home = list(&v, "home");
                let at = |i: usize| home.get(i).and_then(Json::int).unwrap_or(0) as i32;
                Message::State {
                    turn: kind == "turn",
                    state: Box::new(State {
                        round: num("round").clamp(0, 1 << 20) as u32,
                        rounds: num("rounds").clamp(0, 1 << 20) as u32,
                        player: index(&v, "player"),
                        players: index(&v, "players"),
                        size: index(&v, "size").min(1000),
                        home: (at(0), at(1)),
                        gold: num("gold"),
                        blueprints: blueprints(&v),
                        units: list(&v, "units").iter().map(unit).collect(),
                        tower_sights: list(&v, "towers")
                            .iter()
                            .filter_map(|t| t.get("sight").map(sight))
                            .collect(),
                    }),
                }
            }
            Some("result") => Message::Answer(Box::new(Answer {
                result: text("result"),
                reason: text("reason"),
                gold: num("gold"),
                blueprints: blueprints(&v),
                unit: v
                    .get("unit")
                    .filter(|u| matches!(u, Json::Obj(_)))
                    .map(unit),
            })),
            _ => Message::Unknown,
        }
    }
}

/// Every line the game wrote in a match of these bots (inputs and answers).
fn lines_of(seed: i64, bots: &[&str], options: &[(&str, &str)], turns: usize) -> Vec<String> {
    let entry = games::entry("crafting-quest").expect("registered");
    let mut setup = Setup::new(entry.info, seed);
    setup.seats = bots.len();
    for (k, v) in options {
        setup.options.insert(k.to_string(), v.to_string());
    }
    let mut game = games::new_game(&setup).expect("a valid setup");
    let mut players: Vec<Box<dyn Bot>> = bots
        .iter()
        .enumerate()
        .map(|(s, b)| crate::builtin("crafting-quest", b, crate::bot_seed(seed, s)).expect("a bot"))
        .collect();
    let mut out = Vec::new();
    for _ in 0..turns {
        if game.outcome().is_some() {
            break;
        }
        for seat in game.to_move() {
            let input = game.input(seat);
            let mut unread: std::collections::VecDeque<String> = players[seat].read(&input).into();
            out.push(input);
            loop {
                let Some(line) = unread.pop_front() else {
                    game.fault(seat, FaultKind::Timeout);
                    break;
                };
                match game.hear(seat, &line) {
                    Heard::Reply(text) => {
                        unread.extend(players[seat].read(&text));
                        out.push(text);
                    }
                    Heard::More => {}
                    _ => break,
                }
            }
        }
        game.step();
    }
    out
}

/// The same line bent in ways the referee never writes but a reader must take.
fn bent(line: &str, i: usize) -> String {
    let line = line.trim_end();
    match i % 9 {
        0 => line.replace(",\"", ", \"").replace(":", " : "),
        1 => line.replace("{\"player\":", "{\"player\":\"x\",\"player\":"),
        2 => line.replace("\"life\":", "\"life\":null,\"lives\":"),
        3 => line[..line.len() * (i % 7 + 1) / 8].to_string(),
        4 => line.replace("\"sword\"", "\"swordfish\""),
        5 => line.replace("\"resources\":{", "\"resources\":{\"mithril\":3,"),
        6 => line
            .replace("{\"x\":", "{\"y\":-1,\"x\":")
            .replace("\"rows\":[", "\"rows\":[7,"),
        7 => line.replace(
            "\"objects\":[]",
            "\"objects\":[{\"kind\":\"armour\",\"level\":2,\"count\":3}]",
        ),
        _ => line
            .replace("\"energy\":", "\"energy\":[1],\"energy\":")
            .replace("\"unit\":{", "\"unit\":null,\"unit\":{"),
    }
}

#[test]
fn the_decoder_reads_what_the_tree_reader_read() {
    let mut lines = lines_of(3, &["crafter", "random"], &[], 30);
    lines.extend(lines_of(
        4,
        &["crafter", "crafter", "random"],
        &[("map", "v1")],
        12,
    ));
    let bent_lines: Vec<String> = lines
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 5 == 0)
        .map(|(i, l)| bent(l, i / 5))
        .collect();
    assert!(lines.len() > 500, "{} lines", lines.len());
    // The answer to a state request is the player state under another type.
    let states: Vec<String> = lines
        .iter()
        .filter(|l| l.starts_with("{\"type\":\"turn\""))
        .step_by(7)
        .map(|l| l.replacen("\"turn\"", "\"state\",\"result\":\"NoError\"", 1))
        .collect();
    lines.extend(states);
    let mut decoder = Decoder::default();
    let mut kinds = [0; 4];
    for line in lines.iter().chain(&bent_lines).chain(&lines[..50]) {
        let now = match decoder.read(line) {
            Kind::Turn => Message::State {
                turn: true,
                state: Box::new(decoder.state.clone()),
            },
            Kind::State => Message::State {
                turn: false,
                state: Box::new(decoder.state.clone()),
            },
            Kind::Answer => Message::Answer(Box::new(decoder.answer.clone())),
            Kind::Unknown => Message::Unknown,
        };
        kinds[match now {
            Message::State { turn: true, .. } => 0,
            Message::State { .. } => 1,
            Message::Answer(_) => 2,
            Message::Unknown => 3,
        }] += 1;
        assert_eq!(now, before::read(line), "{line}");
        assert_eq!(read(line), now, "{line}");
    }
    // Each kind of message was met, unreadable ones too.
    assert!(kinds.iter().all(|&n| n > 0), "{kinds:?}");
}
