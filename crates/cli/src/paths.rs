//! Disk paths out of a share link: `botplay link` makes a link of a replay the CLI wrote, whose
//! bots are commands (`python3 /home/ada/bots/student.py`) and whose debug logs hold tracebacks
//! (`File "/home/ada/bots/student.py", line 3`). A link goes to other people, so by default each
//! absolute path (or one under `~`) in the bots' names, debug logs and fault messages is cut to
//! its file name; `--keep-paths` keeps them.

use engine::Replay;

/// Whether a path may start after this character (not inside a word, a number or a URL).
fn starts_path(before: Option<char>) -> bool {
    match before {
        None => true,
        Some(c) => c.is_whitespace() || matches!(c, '"' | '\'' | '(' | '[' | '=' | ',' | '`'),
    }
}

/// Whether a path goes on through this character.
fn in_path(c: char) -> bool {
    !(c.is_whitespace() || matches!(c, '"' | '\'' | ')' | ']' | ',' | '`' | ':'))
}

/// `text` with every absolute path of two parts or more (`/a/b`, `~/a`) cut to its last part;
/// and how many were cut.
pub fn shorten(text: &str) -> (String, usize) {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut cut = 0;
    let mut i = 0;
    while i < chars.len() {
        let before = i.checked_sub(1).map(|j| chars[j]);
        let rooted = chars[i] == '/' || (chars[i] == '~' && chars.get(i + 1) == Some(&'/'));
        if rooted && starts_path(before) {
            let end = (i..chars.len())
                .find(|&j| !in_path(chars[j]))
                .unwrap_or(chars.len());
            let path: String = chars[i..end].iter().collect();
            let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
            let name = parts.last().copied().unwrap_or_default();
            if parts.len() >= 2 || (chars[i] == '~' && !name.is_empty() && name != "~") {
                out.push_str(name);
                cut += 1;
                i = end;
                continue;
            }
        }
        out.push(chars[i]);
        i += 1;
    }
    (out, cut)
}

/// The replay with the paths in its bots' names, debug logs and faults cut to file names; and
/// how many were cut.
pub fn shorten_replay(mut replay: Replay) -> (Replay, usize) {
    let mut total = 0;
    let mut cut = |text: &mut String| {
        let (short, n) = shorten(text);
        if n > 0 {
            *text = short;
            total += n;
        }
    };
    for name in &mut replay.bots {
        cut(name);
    }
    for turn in &mut replay.turns {
        for seat in &mut turn.seats {
            cut(&mut seat.stderr);
            if let Some(fault) = &mut seat.fault {
                cut(&mut fault.text);
            }
        }
    }
    (replay, total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absolute_paths_are_cut_to_their_file_names() {
        let (text, n) =
            shorten("Traceback:\n  File \"/home/ada/bots/student.py\", line 3, in <module>\n");
        assert_eq!(
            text,
            "Traceback:\n  File \"student.py\", line 3, in <module>\n"
        );
        assert_eq!(n, 1);
        assert_eq!(
            shorten("python3 /home/ada/bots/student.py --fast"),
            ("python3 student.py --fast".into(), 1)
        );
        assert_eq!(
            shorten("node ~/bots/a.js and (at /srv/x/y.js:4:2)"),
            ("node a.js and (at y.js:4:2)".into(), 2)
        );
    }

    #[test]
    fn what_is_not_a_path_is_left_alone() {
        for text in [
            "ratio 10/2 and 3/4/5",
            "see https://example.org/a/b",
            "a lone / and /tmp",
            "MOVE 1 2;SHOOT 3",
            "",
            "~ alone and ~/",
        ] {
            assert_eq!(shorten(text), (text.to_string(), 0), "{text}");
        }
    }
}
