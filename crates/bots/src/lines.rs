//! Reading the referee's text a whole turn at a time, for the bots of the games whose input is
//! lines of numbers and words (Ice and Fire, Micro RTS, Soak Overflow).
//!
//! Text may arrive in any pieces: a turn at once, line by line, or a turn glued to the next
//! one's first lines. [`Lines`] keeps what has arrived (trimmed, blank lines dropped) until a
//! bot's parser can read a whole turn from it with a [`Cursor`]; what the turn did not use is
//! kept for the next one.

/// What a bot makes of a reader's answer to new text (each game's `Reader::feed`): the turn
/// once a whole one has arrived, else the reply to give without playing: nothing while the
/// turn is incomplete, one `WAIT` for unreadable input (a bot must never write a malformed line).
pub(crate) fn whole_turn<T, E>(fed: Option<Result<T, E>>) -> Result<T, Vec<String>> {
    match fed {
        None => Err(Vec::new()),
        Some(Err(_)) => Err(vec!["WAIT".to_string()]),
        Some(Ok(turn)) => Ok(turn),
    }
}

/// Why the lines read so far are not (yet) a turn.
#[derive(Debug)]
pub(crate) enum Short {
    /// The text ends before the turn does: wait for more.
    More,
    /// The text cannot be a turn.
    Bad(String),
}

pub(crate) type Parsed<T> = Result<T, Short>;

/// Walks the lines that have arrived.
pub(crate) struct Cursor<'a> {
    lines: &'a [&'a str],
    at: usize,
}

impl<'a> Cursor<'a> {
    /// The next line.
    pub(crate) fn line(&mut self) -> Parsed<&'a str> {
        let line = self.lines.get(self.at).ok_or(Short::More)?;
        self.at += 1;
        Ok(line)
    }

    /// The line `ahead` lines from here, if it has arrived.
    pub(crate) fn peek(&self, ahead: usize) -> Option<&'a str> {
        self.lines.get(self.at + ahead).copied()
    }

    /// A line of exactly `N` whitespace-separated integers.
    pub(crate) fn ints<const N: usize>(&mut self) -> Parsed<[i64; N]> {
        let line = self.line()?;
        let mut out = [0; N];
        let mut words = line.split_whitespace();
        for slot in &mut out {
            let word = words.next().ok_or_else(|| not_ints(line, N))?;
            *slot = word.parse().map_err(|_| not_ints(line, N))?;
        }
        match words.next() {
            None => Ok(out),
            Some(_) => Err(not_ints(line, N)),
        }
    }

    /// A line of exactly `n` whitespace-separated integers, `n` known only at run time.
    pub(crate) fn int_vec(&mut self, n: usize) -> Parsed<Vec<i64>> {
        let line = self.line()?;
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.len() != n {
            return Err(not_ints(line, n));
        }
        words
            .iter()
            .map(|w| w.parse::<i64>().map_err(|_| not_ints(line, n)))
            .collect()
    }

    /// A line of one integer.
    pub(crate) fn int(&mut self) -> Parsed<i64> {
        Ok(self.ints::<1>()?[0])
    }

    /// A count line, bounded so that a corrupt input cannot make the bot wait forever for lines.
    pub(crate) fn count(&mut self, max: i64) -> Parsed<usize> {
        let n = self.int()?;
        if (0..=max).contains(&n) {
            Ok(n as usize)
        } else {
            Err(Short::Bad(format!("count {n} out of range")))
        }
    }
}

fn not_ints(line: &str, n: usize) -> Short {
    Short::Bad(format!("expected {n} integer(s), got '{line}'"))
}

/// The lines that have arrived and no turn has used yet.
#[derive(Clone, Debug, Default)]
pub(crate) struct Lines {
    pending: Vec<String>,
}

impl Lines {
    /// Takes more text and tries `parse` on everything that has arrived. `None` while the turn
    /// is incomplete (the text is kept); the turn once complete (the lines it used are
    /// dropped, the rest kept); or an error, after which the text is forgotten.
    pub(crate) fn feed<T>(
        &mut self,
        text: &str,
        parse: impl FnOnce(&mut Cursor<'_>) -> Parsed<T>,
    ) -> Option<Result<T, String>> {
        let pending = std::mem::take(&mut self.pending);
        let lines: Vec<&str> = pending
            .iter()
            .map(String::as_str)
            .chain(text.lines().map(str::trim).filter(|l| !l.is_empty()))
            .collect();
        let mut cur = Cursor {
            lines: &lines,
            at: 0,
        };
        let parsed = parse(&mut cur);
        let keep_from = match parsed {
            Err(Short::More) => 0,
            Err(Short::Bad(_)) => lines.len(),
            Ok(_) => cur.at,
        };
        self.pending = lines[keep_from..].iter().map(|l| l.to_string()).collect();
        match parsed {
            Err(Short::More) => None,
            Err(Short::Bad(why)) => Some(Err(why)),
            Ok(turn) => Some(Ok(turn)),
        }
    }

    /// [`Lines::feed`] for a game whose first turn opens with an initialisation block: `parse`
    /// reads a turn, given the block read before if there was one, and returns with it the
    /// block it read itself, if it did; that block is kept in `init` for the turns after.
    pub(crate) fn feed_after_init<I, T>(
        &mut self,
        text: &str,
        init: &mut Option<I>,
        parse: impl FnOnce(&mut Cursor<'_>, Option<&I>) -> Parsed<(Option<I>, T)>,
    ) -> Option<Result<T, String>> {
        let fed = self.feed(text, |cur| parse(cur, init.as_ref()))?;
        Some(fed.map(|(read, turn)| {
            if read.is_some() {
                *init = read;
            }
            turn
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn two_numbers(cur: &mut Cursor<'_>) -> Parsed<(i64, i64)> {
        let a = cur.int()?;
        let [b] = cur.ints::<1>()?;
        Ok((a, b))
    }

    #[test]
    fn a_turn_in_pieces_and_glued_to_the_next() {
        let mut lines = Lines::default();
        assert!(lines.feed(" 1 \n\n", two_numbers).is_none());
        assert_eq!(lines.feed("2\n3\n", two_numbers).unwrap().unwrap(), (1, 2));
        assert_eq!(lines.feed("4\n", two_numbers).unwrap().unwrap(), (3, 4));
        assert!(lines.feed("x\n", two_numbers).unwrap().is_err());
        assert!(
            lines.feed("5\n", two_numbers).is_none(),
            "the bad text is forgotten"
        );
    }

    #[test]
    fn lines_of_integers() {
        let text = ["1 2", "1 2 3", "a b", "4 5 6"];
        let mut cur = Cursor {
            lines: &text,
            at: 0,
        };
        assert_eq!(cur.ints::<2>().unwrap(), [1, 2]);
        assert!(matches!(cur.ints::<2>(), Err(Short::Bad(_))));
        assert!(matches!(cur.int_vec(2), Err(Short::Bad(_))));
        assert_eq!(cur.peek(0), Some("4 5 6"));
        assert_eq!(cur.int_vec(3).unwrap(), [4, 5, 6]);
        assert!(matches!(cur.count(3), Err(Short::More)));
    }
}
