//! Java's string and number semantics, for the games whose original referees are Java programs
//! and read a bot's line with `String.trim`, `String.split`, `Integer.parseInt` and round with
//! `Math.round`. A game parses exactly as its original does only if these behave as Java's do,
//! odd corners included; they live here once, and each game's rulebook says which it uses.

/// Java's `String.trim()`: strips every character up to U+0020 at both ends (control
/// characters included, other Unicode spaces not).
pub fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

/// Java's `s.split(String.valueOf(sep))`: without any separator the whole string is the one
/// piece (even when empty); otherwise trailing empty pieces are dropped (all of them, so `";"`
/// gives no piece at all). Leading and inner empty pieces stay.
pub fn split(s: &str, sep: char) -> Vec<&str> {
    let mut pieces: Vec<&str> = s.split(sep).collect();
    if pieces.len() > 1 {
        while pieces.last() == Some(&"") {
            pieces.pop();
        }
    }
    pieces
}

/// Java's `Integer.parseInt` on ASCII text: an optional sign, then ASCII digits, within `int`.
pub fn parse_ascii_int(s: &str) -> Option<i32> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A regular expression's `\d+` that fits an `int`: ASCII digits only, at least one.
pub fn digits(s: &str) -> Option<i32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A regular expression's `-?\d+` that fits an `int`.
pub fn signed_digits(s: &str) -> Option<i32> {
    let unsigned = s.strip_prefix('-').unwrap_or(s);
    if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// The first code point of every run of ten decimal digits (Unicode category Nd) in the Basic
/// Multilingual Plane, as Java 17's `Character.digit(char, 10)` knows them. Java parses UTF-16
/// units, so digits outside the BMP (surrogate pairs) are not digits to it.
const DIGIT_ZEROS: [u32; 37] = [
    0x0030, 0x0660, 0x06F0, 0x07C0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6,
    0x0D66, 0x0DE6, 0x0E50, 0x0ED0, 0x0F20, 0x1040, 0x1090, 0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80,
    0x1A90, 0x1B50, 0x1BB0, 0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50, 0xABF0,
    0xFF10,
];

/// Java's `Character.digit(c, 10)`: the value of a decimal digit of any script in the BMP.
fn digit(c: char) -> Option<i64> {
    let c = u32::from(c);
    DIGIT_ZEROS
        .iter()
        .find(|&&zero| (zero..zero + 10).contains(&c))
        .map(|&zero| i64::from(c - zero))
}

/// Java's `Integer.valueOf(s)` (and `parseInt`) in full: an optional `+` or `-`, then at least
/// one decimal digit of any script in the BMP, the value within a 32-bit int. `None` is Java's
/// `NumberFormatException`.
pub fn value_of_int(s: &str) -> Option<i32> {
    let (negative, digits) = match s.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    if digits.is_empty() {
        return None;
    }
    let mut value: i64 = 0;
    for c in digits.chars() {
        value = value * 10 + digit(c)?;
        if value > i64::from(i32::MAX) + 1 {
            return None;
        }
    }
    let value = if negative { -value } else { value };
    i32::try_from(value).ok()
}

/// Java's `Math.round` of a double that is not huge: `floor(x + 0.5)`.
pub fn round(x: f64) -> i32 {
    (x + 0.5).floor() as i32
}
