//! A small JSON reader for the referee's lines: numbers are integers (the protocol has no
//! others; a fraction or exponent makes the number unreadable), and any malformed input reads
//! as `None` — never a panic.
//!
//! It is a pull reader: the caller walks the line field by field and puts what it wants
//! straight into its own structs ([`super::protocol`]), so reading an answer (a unit and its
//! sight, about 1.5 KB, for every request a bot makes) builds no tree and allocates nothing.
//! Values the caller does not want are skipped, but checked all the same: a line is readable
//! only if all of it is well formed.

use std::borrow::Cow;

/// Deeper nesting than this is refused.
const MAX_DEPTH: u32 = 64;

/// A reader over one line.
pub struct Reader<'a> {
    s: &'a [u8],
    text: &'a str,
    i: usize,
    depth: u32,
}

/// What the next value is, by its first byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Object,
    Array,
    Str,
    /// A number, `true`, `false`, `null`, or something malformed.
    Other,
}

impl<'a> Reader<'a> {
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader {
            s: text.as_bytes(),
            text,
            i: 0,
            depth: 0,
        }
    }

    #[inline]
    fn ws(&mut self) {
        // The referee writes no white space: one test in the usual case.
        if self.s.get(self.i).is_some_and(|&b| b > b' ') {
            return;
        }
        while self.i < self.s.len() && matches!(self.s[self.i], b' ' | b'\t' | b'\n' | b'\r') {
            self.i += 1;
        }
    }

    /// The index of the first `"` or `\\` at or after `from` (the end of the text if none),
    /// looked for eight bytes at a time (keys and rows are short: cheaper than a call to
    /// `memchr`).
    #[inline]
    fn quote_or_backslash(&self, from: usize) -> usize {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGH: u64 = 0x8080_8080_8080_8080;
        // The high bit of each byte that is zero, and maybe of bytes after the first zero one:
        // the lowest bit set is exact.
        let zeros = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
        let mut i = from;
        while let Some(chunk) = self.s.get(i..).and_then(<[u8]>::first_chunk::<8>) {
            let v = u64::from_le_bytes(*chunk);
            let found = zeros(v ^ (ONES * u64::from(b'"'))) | zeros(v ^ (ONES * u64::from(b'\\')));
            if found != 0 {
                return i + (found.trailing_zeros() / 8) as usize;
            }
            i += 8;
        }
        while self.s.get(i).is_some_and(|&b| b != b'"' && b != b'\\') {
            i += 1;
        }
        i
    }

    /// Whether only white space is left.
    pub fn at_end(&mut self) -> bool {
        self.ws();
        self.i == self.s.len()
    }

    /// Where the reader is, to come back to with [`Reader::back_to`].
    pub fn mark(&self) -> (usize, u32) {
        (self.i, self.depth)
    }

    pub fn back_to(&mut self, mark: (usize, u32)) {
        (self.i, self.depth) = mark;
    }

    /// The byte `k` places ahead, if the line goes on that far.
    #[inline]
    pub fn byte_ahead(&self, k: usize) -> Option<u8> {
        self.s.get(self.i + k).copied()
    }

    /// Counts one more level of nesting, for an object or array opened by [`Reader::lit`]
    /// (`None` past the deepest allowed, as [`Reader::object`] and [`Reader::array`] refuse).
    /// [`Reader::closed`] counts it closed.
    pub fn opened(&mut self) -> Option<()> {
        self.depth += 1;
        (self.depth <= MAX_DEPTH).then_some(())
    }

    pub fn closed(&mut self) {
        self.depth -= 1;
    }

    /// Whether objects or arrays `levels` deep may start here (deeper is unreadable).
    pub fn may_nest(&self, levels: u32) -> bool {
        self.depth + levels <= MAX_DEPTH
    }

    /// Takes `text` if the line goes on with exactly these bytes here. With [`Reader::plain_int`]
    /// and [`Reader::plain_key`], for reading what the referee writes in the order it writes it,
    /// without looking up every key: a caller that finds something else goes back to its mark
    /// and reads the value field by field.
    ///
    /// (The length is a constant: the comparison is a few loads, not a call.)
    #[inline]
    pub fn lit<const N: usize>(&mut self, text: &[u8; N]) -> Option<()> {
        match self.s.get(self.i..self.i + N) {
            Some(here) if here == text => {
                self.i += N;
                Some(())
            }
            _ => None,
        }
    }

    /// An integer right here (no white space before it).
    ///
    /// (Inlined into its callers: a bot reads about 140 numbers an answer, mostly short ones
    /// that [`Reader::short_int`] takes.)
    #[inline(always)]
    pub fn plain_int(&mut self) -> Option<i64> {
        if let Some(n) = self.short_int() {
            return Some(n);
        }
        match self.s.get(self.i) {
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => None,
        }
    }

    /// The usual number, taken at a glance: one or two digits right here, followed by `,`, `}`
    /// or `]` (what [`Reader::number`] reads the same way). `None`, and nothing taken, for
    /// anything else.
    #[inline(always)]
    fn short_int(&mut self) -> Option<i64> {
        let s = self.s;
        let i = self.i;
        let digit = |k: usize| s.get(k).map(|b| b.wrapping_sub(b'0')).filter(|&d| d <= 9);
        let ends = |k: usize| matches!(s.get(k), Some(b',' | b'}' | b']'));
        let a = digit(i)?;
        if ends(i + 1) {
            self.i = i + 1;
            return Some(i64::from(a));
        }
        let b = digit(i + 1)?;
        if ends(i + 2) {
            self.i = i + 2;
            return Some(i64::from(a) * 10 + i64::from(b));
        }
        None
    }

    /// A string without escapes right here, borrowed.
    pub fn plain_str(&mut self) -> Option<&'a str> {
        self.key()
    }

    /// A key right here with its colon (no white space around them).
    #[inline]
    pub fn plain_key(&mut self) -> Option<&'a str> {
        let key = self.key()?;
        self.lit(b":")?;
        Some(key)
    }

    /// What the next value is.
    #[inline]
    pub fn peek(&mut self) -> Next {
        self.ws();
        match self.s.get(self.i) {
            Some(b'{') => Next::Object,
            Some(b'[') => Next::Array,
            Some(b'"') => Next::Str,
            _ => Next::Other,
        }
    }

    fn open(&mut self) -> Option<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return None;
        }
        self.i += 1;
        Some(())
    }

    /// Reads an object (the next value must be one): `field` is called with each key and must
    /// read its value.
    pub fn object(
        &mut self,
        mut field: impl FnMut(&mut Self, &'a str) -> Option<()>,
    ) -> Option<()> {
        self.members(b'{', b'}', |r| {
            r.ws();
            let key = r.key()?;
            r.ws();
            if r.s.get(r.i) != Some(&b':') {
                return None;
            }
            r.i += 1;
            field(r, key)
        })
    }

    /// Reads an array (the next value must be one): `item` is called for each item and must
    /// read it.
    pub fn array(&mut self, item: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.members(b'[', b']', item)
    }

    /// Reads a container that `open` opens and `close` closes (the next value must be one):
    /// `member` is called for each member, separated by commas, and must read it.
    #[inline]
    fn members(
        &mut self,
        open: u8,
        close: u8,
        mut member: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        self.ws();
        if self.s.get(self.i) != Some(&open) {
            return None;
        }
        self.open()?;
        self.ws();
        if self.s.get(self.i) == Some(&close) {
            self.i += 1;
        } else {
            loop {
                member(self)?;
                self.ws();
                match *self.s.get(self.i)? {
                    b',' => self.i += 1,
                    c if c == close => {
                        self.i += 1;
                        break;
                    }
                    _ => return None,
                }
            }
        }
        self.depth -= 1;
        Some(())
    }

    /// Reads any value; `Some(Some(n))` when it is an integer.
    #[inline]
    pub fn int(&mut self) -> Option<Option<i64>> {
        self.ws();
        if let Some(n) = self.short_int() {
            return Some(Some(n));
        }
        match self.s.get(self.i) {
            Some(b'-' | b'0'..=b'9') => self.number().map(Some),
            _ => self.skip().map(|()| None),
        }
    }

    /// Reads any value; `Some(Some(text))` when it is a string.
    #[inline]
    pub fn str(&mut self) -> Option<Option<Cow<'a, str>>> {
        match self.peek() {
            Next::Str => self.string().map(Some),
            _ => self.skip().map(|()| None),
        }
    }

    /// Reads a value and forgets it.
    pub fn skip(&mut self) -> Option<()> {
        self.ws();
        match *self.s.get(self.i)? {
            b'{' => self.object(|r, _| r.skip()),
            b'[' => self.array(Reader::skip),
            b'"' => self.string().map(drop),
            b't' => self.word("true"),
            b'f' => self.word("false"),
            b'n' => self.word("null"),
            _ => self.number().map(drop),
        }
    }

    fn word(&mut self, w: &str) -> Option<()> {
        if self.s[self.i..].starts_with(w.as_bytes()) {
            self.i += w.len();
            Some(())
        } else {
            None
        }
    }

    fn number(&mut self) -> Option<i64> {
        let s = self.s;
        let start = self.i;
        let negative = s.get(start) == Some(&b'-');
        let digits = start + usize::from(negative);
        let mut i = digits;
        // Most numbers fit: add up the digits as they come, and let `parse` judge the others.
        let mut n: i64 = 0;
        while let Some(&b) = s.get(i) {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            n = n.wrapping_mul(10).wrapping_add(i64::from(d));
            i += 1;
        }
        self.i = i;
        if i == digits || matches!(s.get(i), Some(b'.' | b'e' | b'E')) {
            return None;
        }
        if i - digits < 18 {
            return Some(if negative { -n } else { n });
        }
        self.text.get(start..i)?.parse().ok()
    }

    /// A key: a string without escapes, borrowed.
    #[inline]
    fn key(&mut self) -> Option<&'a str> {
        if self.s.get(self.i) != Some(&b'"') {
            return None;
        }
        let start = self.i + 1;
        let j = self.quote_or_backslash(start);
        if self.s.get(j) != Some(&b'"') {
            return None;
        }
        let key = self.text.get(start..j)?;
        self.i = j + 1;
        Some(key)
    }

    /// A string (the next byte is its opening quote): borrowed when it has no escapes.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        self.i += 1;
        let start = self.i;
        self.i = self.quote_or_backslash(start);
        if self.s.get(self.i) == Some(&b'"') {
            self.i += 1;
            return self.text.get(start..self.i - 1).map(Cow::Borrowed);
        }
        let mut out = String::from(self.text.get(start..self.i)?);
        loop {
            let start = self.i;
            while self.i < self.s.len() && self.s[self.i] != b'"' && self.s[self.i] != b'\\' {
                self.i += 1;
            }
            out.push_str(self.text.get(start..self.i)?);
            match *self.s.get(self.i)? {
                b'"' => {
                    self.i += 1;
                    return Some(Cow::Owned(out));
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

/// Whether a whole line is well-formed JSON (in this reader's sense).
#[cfg(test)]
fn readable(text: &str) -> bool {
    let mut r = Reader::new(text);
    r.skip().is_some() && r.at_end()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_the_referee_writes() {
        let line = r#" {"a":[1,-2,{"b":"x\"y\u00e9≥"}],"c":null,"d":true,"e":"plain"} "#;
        let mut r = Reader::new(line);
        let (mut ints, mut b, mut e, mut others) = (Vec::new(), None, None, 0);
        r.object(|r, key| match key {
            "a" => r.array(|r| match r.peek() {
                Next::Object => r.object(|r, key| {
                    assert_eq!(key, "b");
                    b = r.str()?.map(Cow::into_owned);
                    Some(())
                }),
                _ => r.int().map(|n| ints.push(n)),
            }),
            "e" => {
                e = r.str()?;
                Some(())
            }
            _ => {
                others += 1;
                r.int().map(|n| assert_eq!(n, None))
            }
        })
        .unwrap();
        assert!(r.at_end());
        assert_eq!(ints, [Some(1), Some(-2)]);
        assert_eq!(b.as_deref(), Some("x\"yé≥"));
        assert!(matches!(e, Some(Cow::Borrowed("plain"))), "{e:?}");
        assert_eq!(others, 2);
        for bad in [
            "",
            "{",
            "[1,]",
            "{\"a\"}",
            "1.5",
            "tru",
            "\"abc",
            "{} x",
            "[[[[",
            "-",
            "{\"a\":1,}",
            "{\"a\\\"\":1}",
            "\"\\q\"",
            "99999999999999999999",
        ] {
            assert!(!readable(bad), "{bad:?}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert!(!readable(&deep));
        let fine = "[".repeat(60) + &"]".repeat(60);
        assert!(readable(&fine));
        for n in [
            0,
            7,
            -7,
            123_456_789_012_345_678,
            i64::MAX,
            i64::MIN,
            -999_999_999_999_999_999,
        ] {
            assert_eq!(Reader::new(&n.to_string()).int(), Some(Some(n)));
        }
        assert_eq!(Reader::new("007").int(), Some(Some(7)));
    }

    /// A number taken at a glance is the number [`Reader::number`] reads, ending at the same
    /// place.
    #[test]
    fn short_numbers_read_as_numbers() {
        let mut glanced = 0;
        for text in [
            "7,", "07]", "12}", "99,", "0}", "00,", "-1,", "1.5,", "2e3,", "1E3}", "123,", "5", "",
            "a,", "4 ,", "45", "4x", "-", "1]", "12]3",
        ] {
            let (mut a, mut b) = (Reader::new(text), Reader::new(text));
            if let Some(n) = a.short_int() {
                glanced += 1;
                assert_eq!(Some(n), b.number(), "{text}");
                assert_eq!(a.i, b.i, "{text}");
            } else {
                assert_eq!(a.i, 0, "{text}");
            }
        }
        assert_eq!(glanced, 8);
    }

    /// Strings and keys are scanned eight bytes at a time: quotes and escapes are found at
    /// every offset, in long texts and short ones.
    #[test]
    fn strings_and_keys_of_every_length() {
        for before in 0..20 {
            for after in 0..12 {
                let (a, b) = ("a".repeat(before), "é".repeat(after));
                let line = format!("{{\"{a}\":\"{a}\\\"{b}\",\"{b}{a}\":\"{b}\"}}");
                let mut seen = Vec::new();
                Reader::new(&line)
                    .object(|r, key| {
                        seen.push((key.to_string(), r.str()?.unwrap_or_default().into_owned()));
                        Some(())
                    })
                    .unwrap_or_else(|| panic!("{line}"));
                assert_eq!(
                    seen,
                    [
                        (a.clone(), format!("{a}\"{b}")),
                        (format!("{b}{a}"), b.clone())
                    ],
                    "{line}"
                );
                let escaped_key = format!("{{\"{a}\\n{b}\":1}}");
                assert!(!readable(&escaped_key), "{escaped_key}");
                let unclosed = format!("\"{a}{b}");
                assert!(!readable(&unclosed), "{unclosed}");
            }
        }
    }
}
