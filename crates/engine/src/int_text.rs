//! Writing protocol text fast: games write every seat's input every turn, often hundreds of
//! numbers, and `format!` costs an allocation and the formatting machinery for each.

/// Appends the decimal form of `v`, exactly as `Display` writes it.
#[inline(always)]
pub fn push_int(out: &mut String, v: impl Into<i64>) {
    let v: i64 = v.into();
    // Nearly every number of a protocol (coordinates, ids, levels, counts) is below 1000:
    // written digit by digit, without the general loop.
    let digit = |d: i64| char::from(b'0' + d as u8);
    match v {
        0..=9 => out.push(digit(v)),
        10..=99 => {
            out.push(digit(v / 10));
            out.push(digit(v % 10));
        }
        100..=999 => {
            out.push(digit(v / 100));
            out.push(digit(v / 10 % 10));
            out.push(digit(v % 10));
        }
        _ => push_any_int(out, v),
    }
}

/// [`push_int`] for the rarer numbers: negative, or of four digits or more.
#[cold]
fn push_any_int(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    let mut n = v.unsigned_abs();
    let mut digits = [0u8; 20];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[start..] {
        out.push(char::from(d));
    }
}

/// Writes `v` as `Display` does at the start of `buf` (11 bytes hold any `i32`); returns the
/// bytes written. For games that write their input as bytes. Its digit loop is `push_any_int`'s
/// on 32 bits, on purpose: in the page's wasm a 64-bit division by 10 is a real division per
/// digit, a 32-bit one a multiplication.
pub fn write_int(buf: &mut [u8], v: i32) -> usize {
    let mut digits = [0u8; 10];
    let mut start = digits.len();
    let mut n = v.unsigned_abs();
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    let sign = usize::from(v < 0);
    buf[0] = b'-';
    let digits = &digits[start..];
    buf[sign..sign + digits.len()].copy_from_slice(digits);
    sign + digits.len()
}

/// Appends the numbers separated by single spaces, then a newline: one protocol line.
#[inline]
pub fn push_ints_line<T: Into<i64> + Copy>(out: &mut String, values: &[T]) {
    for (i, &v) in values.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_int(out, v);
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_read_as_display_writes_them() {
        for v in [
            0,
            1,
            -1,
            9,
            10,
            -10,
            99,
            100,
            12_345,
            -987_654_321,
            i64::from(i32::MAX),
            i64::from(i32::MIN),
            i64::MAX,
            i64::MIN,
        ] {
            let mut out = String::from("x");
            push_int(&mut out, v);
            assert_eq!(out, format!("x{v}"));
        }
        for v in -2_000..2_000i32 {
            let mut out = String::new();
            push_int(&mut out, v);
            assert_eq!(out, v.to_string());
        }
        let mut out = String::new();
        push_int(&mut out, 7u8);
        push_int(&mut out, u32::MAX);
        assert_eq!(out, format!("7{}", u32::MAX));
    }

    #[test]
    fn integers_written_into_bytes_as_display_writes_them() {
        let edges = [0, 7, -7, 1_000, -1_000, 12_345, i32::MAX, i32::MIN];
        for v in (-2_000..2_000).chain(edges) {
            let mut buf = [0u8; 11];
            let n = write_int(&mut buf, v);
            assert_eq!(&buf[..n], v.to_string().as_bytes());
        }
    }

    #[test]
    fn lines_of_integers() {
        let mut out = String::new();
        push_ints_line(&mut out, &[3, -1, 0, 42]);
        push_ints_line::<i32>(&mut out, &[]);
        push_ints_line(&mut out, &[7u8]);
        assert_eq!(out, "3 -1 0 42\n\n7\n");
    }
}
