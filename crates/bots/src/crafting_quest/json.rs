//! A small JSON reader for the referee's lines: values borrow the line, numbers are integers
//! (the protocol has no others; a fraction or exponent makes the number unreadable), and any
//! malformed input reads as `None` — never a panic.

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

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn reads_what_the_referee_writes() {
        let v = Json::parse(r#" {"a":[1,-2,{"b":"x\"y\u00e9≥"}],"c":null,"d":true} "#).unwrap();
        assert_eq!(v.get("a").unwrap().items()[1], Json::Int(-2));
        let b = v.get("a").unwrap().items()[2].get("b").unwrap().str();
        assert_eq!(b, Some("x\"yé≥"));
        assert_eq!(v.get("c"), Some(&Json::Null));
        assert_eq!(v.i32("missing"), 0);
        for bad in [
            "", "{", "[1,]", "{\"a\"}", "1.5", "tru", "\"abc", "{} x", "[[[[", "-",
        ] {
            assert_eq!(Json::parse(bad), None, "{bad:?}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert_eq!(Json::parse(&deep), None);
    }
}
