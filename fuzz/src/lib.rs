//! The bodies of botplay's fuzz targets (`fuzz_targets/*.rs` call these).
//!
//! * [`bot_lines`]: a real match through the engine's text layer and referee, for any game of
//!   [`games::GAMES`], any ruleset, seat count, seed and a few options, all picked by the input
//!   bytes. Each seat is played by a built-in bot whose lines the input may replace by arbitrary
//!   bytes, mutate (a number swapped for an extreme one, a word dropped, a line cut short), or
//!   interleave with timeouts, crashes and debug-log text. At the end the match's replay must
//!   read back and re-run to the very same frames, faults and outcome.
//! * [`replay`]: any text given to the replay reader; a replay that reads is re-run, and the
//!   re-run's own replay must re-run to the same match.
//! * [`share_link`]: any text given to the share-link decoder, or any bytes deflated and
//!   base64-encoded behind the `b1.` prefix (so that the JSON inside is reached); a document
//!   that decodes must encode and decode to itself, and its replay is re-run.
//!
//! A panic anywhere (index out of bounds, an overflow with debug assertions, a failed check
//! below) is a crash libFuzzer reports.

use std::collections::{BTreeMap, VecDeque};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use engine::referee::STOPPED;
use engine::{GameEntry, Referee, Replay, Setup, ShareDoc, Verdict};
use libfuzzer_sys::arbitrary::Unstructured;

/// Referee turns played at most per input (keeps each run fast; the longest games have
/// hundreds of turns).
const MAX_TURNS: usize = 400;
/// Lines handed over at most in one seat's turn (beyond the referee's own cap, to reach it).
const MAX_LINES_IN_TURN: usize = engine::referee::MAX_LINES_PER_TURN + 2;

/// Numbers that break careless arithmetic.
const EXTREME_NUMBERS: &[&str] = &[
    "-1",
    "0",
    "-0",
    "1",
    "2",
    "7",
    "12",
    "99",
    "255",
    "256",
    "65535",
    "65536",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "-9223372036854775808",
    "18446744073709551616",
    "99999999999999999999999",
    "1e9",
    "1.5",
    "NaN",
    "+3",
    "0x10",
    "",
];

/// Option sets worth reaching per game (besides none and arbitrary ones).
fn option_sets(game: &str) -> &'static [&'static [(&'static str, &'static str)]] {
    match game {
        "skyport" => &[
            &[("rounds", "3")],
            &[("map", "duel-2p")],
            &[("map", "triad-3p"), ("rounds", "5")],
            &[("map", "crossroads-4p"), ("rounds", "4")],
            &[("map", "archipelago-8p"), ("rounds", "2")],
            &[("rounds", "0")],
            &[("rounds", "1001")],
        ],
        "crafting-quest" => &[
            &[("rounds", "3")],
            &[("map", "v1"), ("rounds", "4")],
            &[("map", "v2"), ("rounds", "4")],
            &[("map", "v3"), ("rounds", "4")],
            &[("size", "50"), ("rounds", "5")],
            &[("size", "100"), ("rounds", "2")],
            &[("map", "v1"), ("size", "60")],
            &[("size", "49")],
            &[("rounds", "0")],
        ],
        _ => &[&[("map", "x")]],
    }
}

/// A setup picked by the input: game, ruleset, seats, seed, options, relaxed.
fn setup_from(u: &mut Unstructured) -> Option<(&'static GameEntry, Setup, bool)> {
    let entry = u.choose(games::GAMES).ok()?;
    let info = entry.info;
    let ruleset = u.choose(info.rulesets).ok()?.id.to_string();
    let seats = u
        .int_in_range(info.min_seats.saturating_sub(1)..=info.max_seats + 1)
        .ok()?;
    let seed = match u.int_in_range(0u8..=3).ok()? {
        0 => i64::from(u.int_in_range(0u8..=31).ok()?),
        1 => u.arbitrary::<i64>().ok()?,
        2 => *u.choose(&[i64::MIN, i64::MAX, -1, 0, 1]).ok()?,
        _ => i64::from(u.arbitrary::<i32>().ok()?),
    };
    let mut options = BTreeMap::new();
    match u.int_in_range(0u8..=7).ok()? {
        0..=3 => {}
        4..=6 => {
            for (key, value) in *u.choose(option_sets(info.id)).ok()? {
                options.insert(key.to_string(), value.to_string());
            }
        }
        _ => {
            let key = fuzz_word(u);
            let value = fuzz_word(u);
            options.insert(key, value);
        }
    }
    // Long matches are cut short by MAX_TURNS anyway; fewer rounds reach their end.
    if info.id == "crafting-quest" && !options.contains_key("rounds") && u.arbitrary().ok()? {
        options.insert("rounds".into(), u.int_in_range(1u8..=20).ok()?.to_string());
    }
    let relaxed = u.arbitrary().ok()?;
    let setup = Setup {
        game: info.id.to_string(),
        ruleset,
        seed,
        seats,
        options,
    };
    Some((entry, setup, relaxed))
}

/// A short word of arbitrary bytes (lossy UTF-8), without line breaks.
fn fuzz_word(u: &mut Unstructured) -> String {
    let len = u.int_in_range(0usize..=12).unwrap_or(0);
    let bytes = u.bytes(len).unwrap_or(&[]);
    String::from_utf8_lossy(bytes).replace(['\n', '\r'], " ")
}

/// A line of arbitrary bytes: up to the next newline of the input, or a given length.
fn fuzz_line(u: &mut Unstructured) -> String {
    let rest = u.peek_bytes(u.len()).unwrap_or(&[]);
    let take = rest
        .iter()
        .position(|&b| b == b'\n')
        .unwrap_or(rest.len())
        .min(4096);
    let bytes = u.bytes(take).unwrap_or(&[]).to_vec();
    let _ = u.bytes(1); // the newline itself
    let mut line = String::from_utf8_lossy(&bytes).into_owned();
    // A long line now and then, to reach the referee's byte cap.
    if u.ratio(1u8, 64).unwrap_or(false) {
        let times = engine::referee::MAX_LINE_BYTES / line.len().max(1) + 1;
        line = line.repeat(times);
    }
    line
}

/// A bot line changed a little: the near misses that reach deep into a parser.
fn mutate(u: &mut Unstructured, line: &str) -> String {
    let words: Vec<&str> = line.split(' ').collect();
    let at = u.choose_index(words.len()).unwrap_or(0);
    let mut out: Vec<String> = words.iter().map(|w| w.to_string()).collect();
    match u.int_in_range(0u8..=9).unwrap_or(0) {
        0..=2 => {
            // Replace the n-th number (digits, possibly signed) by an extreme one.
            let spans = number_spans(line);
            if let Ok(&(start, end)) = u.choose(&spans) {
                let by = u.choose(EXTREME_NUMBERS).copied().unwrap_or("0");
                return format!("{}{by}{}", &line[..start], &line[end..]);
            }
            out[at] = u.choose(EXTREME_NUMBERS).copied().unwrap_or("0").into();
        }
        3 => out[at] = fuzz_word(u),
        4 => {
            out.remove(at);
        }
        5 => out.insert(at, out[at].clone()),
        6 => out.insert(at, fuzz_word(u)),
        7 => {
            let mut cut = u.int_in_range(0..=line.len()).unwrap_or(0);
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            return line[..cut].to_string();
        }
        8 => return line.to_lowercase(),
        _ => {
            // Swap two characters (JSON protocols: a quote or brace moves).
            let chars: Vec<char> = line.chars().collect();
            if chars.len() >= 2 {
                let mut chars = chars;
                let i = u.choose_index(chars.len()).unwrap_or(0);
                let j = u.choose_index(chars.len()).unwrap_or(0);
                chars.swap(i, j);
                return chars.into_iter().collect();
            }
        }
    }
    out.join(" ")
}

/// Byte ranges of the numbers in a line (an optional minus sign and digits).
fn number_spans(line: &str) -> Vec<(usize, usize)> {
    let bytes = line.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() {
            let start = if i > 0 && bytes[i - 1] == b'-' {
                i - 1
            } else {
                i
            };
            let mut end = i;
            while end < bytes.len() && bytes[end].is_ascii_digit() {
                end += 1;
            }
            spans.push((start, end));
            i = end;
        } else {
            i += 1;
        }
    }
    spans
}

/// One seat: its built-in bot and the lines it wrote that the referee has not taken yet.
struct Seat {
    bot: Box<dyn bots::Bot>,
    unread: VecDeque<String>,
}

/// A real match, with the input deciding every seat's lines; see the crate documentation.
pub fn bot_lines(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Some((entry, setup, relaxed)) = setup_from(&mut u) else {
        return;
    };
    let game = match (entry.new)(&setup) {
        Ok(game) => game,
        Err(why) => {
            assert!(!why.to_string().is_empty());
            return;
        }
    };
    let builtins: Vec<&bots::BuiltinInfo> = bots::builtins(entry.info.id).collect();
    assert!(
        !builtins.is_empty(),
        "{} has no built-in bot",
        entry.info.id
    );
    let mut seats = Vec::new();
    let mut names = Vec::new();
    for seat in 0..setup.seats {
        let info = u.choose(&builtins).copied().unwrap_or(builtins[0]);
        let bot = bots::builtin(entry.info.id, info.name, bots::bot_seed(setup.seed, seat))
            .expect("a listed built-in bot");
        names.push(format!("builtin:{}", info.name));
        seats.push(Seat {
            bot,
            unread: VecDeque::new(),
        });
    }
    let mut referee = Referee::new(game, setup, names, relaxed);
    deliver_notices(&mut referee, &mut seats);
    let mut turns = 0;
    // The match goes on while the input lasts (so that its length decides how deep it goes).
    while !referee.is_over() && turns < MAX_TURNS && !u.is_empty() {
        turns += 1;
        let asks = referee.begin_turn();
        // The referee plays the turns of retired bots through itself, possibly to the end.
        if asks.is_empty() {
            assert!(
                referee.is_over(),
                "the game asks no bot to play, yet it is not over"
            );
            break;
        }
        deliver_notices(&mut referee, &mut seats);
        for ask in asks {
            answer(&mut referee, &mut seats, ask.seat, &ask.input, &mut u);
            deliver_notices(&mut referee, &mut seats);
        }
        assert!(!referee.turn_open(), "every asked seat answered");
    }
    check_match(entry, &referee);
}

/// Broadcasts, as every driver delivers them: what a bot writes in answer waits as its lines.
fn deliver_notices(referee: &mut Referee, seats: &mut [Seat]) {
    for (seat, text) in referee.take_notices() {
        if !referee.is_retired(seat) {
            let s = &mut seats[seat];
            let lines = s.bot.read(&text);
            s.unread.extend(lines);
        }
    }
}

/// One seat's turn: the input decides, line after line, what the seat does.
fn answer(
    referee: &mut Referee,
    seats: &mut [Seat],
    index: usize,
    input: &str,
    u: &mut Unstructured,
) {
    // A stopped bot is never asked: the referee ends its turns itself.
    assert!(!referee.is_retired(index), "seat {index} was stopped, yet asked");
    let seat = &mut seats[index];
    let lines = seat.bot.read(input);
    seat.unread.extend(lines);
    let budget = f64::from(referee.budget_ms(index));
    for _ in 0..MAX_LINES_IN_TURN {
        if !referee.waiting_for().contains(&index) {
            return;
        }
        let elapsed = match u.int_in_range(0u8..=15).unwrap_or(0) {
            0 => budget + 1.0,
            1 => f64::from(u.arbitrary::<u32>().unwrap_or(0)) / 7.0,
            _ => 1.0,
        };
        let line = match u.int_in_range(0u8..=15).unwrap_or(0) {
            0..=8 => seat.unread.pop_front(),
            9 | 10 => Some(fuzz_line(u)),
            11 | 12 => seat.unread.pop_front().map(|line| mutate(u, &line)),
            13 => {
                let fault = referee.timeout(index, budget + 1.0);
                assert!(fault.is_some(), "a timeout while asked is a fault");
                referee.retire(index, STOPPED);
                return;
            }
            14 => {
                let why = fuzz_word(u);
                assert!(referee.crash(index, &why, 2.0).is_some());
                referee.retire(index, STOPPED);
                return;
            }
            _ => {
                let text = fuzz_line(u);
                referee.stderr(index, &text);
                continue;
            }
        };
        let Some(line) = line else {
            // A bot that writes nothing more runs out of time, as a process waiting for input.
            assert!(referee.timeout(index, budget + 1.0).is_some());
            referee.retire(index, STOPPED);
            return;
        };
        match referee.line(index, &line, elapsed) {
            Verdict::Reply(text) => {
                let lines = seat.bot.read(&text);
                seat.unread.extend(lines);
            }
            Verdict::More | Verdict::Done => {}
            Verdict::Fault(fault) => {
                assert_eq!(fault.seat, index);
                assert!(!fault.text.is_empty(), "a fault says why");
                if !matches!(fault.kind, engine::FaultKind::Malformed) {
                    referee.retire(index, STOPPED);
                }
            }
            Verdict::NotAsked => panic!("seat {index} is asked but its line was not taken"),
        }
    }
    if referee.waiting_for().contains(&index) {
        // The referee's line cap must have ended the turn long before this.
        panic!("seat {index} wrote {MAX_LINES_IN_TURN} lines and its turn is still open");
    }
}

/// What every driver and viewer does with a match: frames, outcome, and the replay, which must
/// read back and re-run to the same match.
fn check_match(entry: &GameEntry, referee: &Referee) {
    for frame in referee.frames() {
        assert!(serde_json::to_string(frame).is_ok());
    }
    if let Some(outcome) = referee.outcome() {
        assert_eq!(outcome.scores.len(), referee.setup().seats);
        assert_eq!(outcome.ranks.len(), referee.setup().seats);
    }
    let replay = referee.replay();
    let json = replay.to_json();
    let back = Replay::from_json(&json)
        .unwrap_or_else(|e| panic!("a replay botplay wrote does not read back: {e}"));
    let rerun = back
        .rerun(entry)
        .unwrap_or_else(|e| panic!("a replay botplay wrote does not re-run: {e}"));
    same_match(referee, &rerun);
    assert_eq!(
        rerun.replay().to_json(),
        json,
        "the re-run's replay differs from the replay it re-ran"
    );
}

/// Two referees played the same match: same frames, faults and outcome.
fn same_match(a: &Referee, b: &Referee) {
    assert_eq!(a.frames().len(), b.frames().len(), "number of frames");
    for (i, (fa, fb)) in a.frames().iter().zip(b.frames()).enumerate() {
        assert_eq!(
            serde_json::to_string(fa).ok(),
            serde_json::to_string(fb).ok(),
            "frame {i}"
        );
    }
    assert_eq!(a.faults(), b.faults(), "faults");
    assert_eq!(a.outcome(), b.outcome(), "outcome");
}

/// Any text given to the replay reader; see the crate documentation.
pub fn replay(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let replay = match Replay::from_json(text) {
        Ok(replay) => replay,
        Err(why) => {
            assert!(!why.to_string().is_empty());
            return;
        }
    };
    rerun_replay(&replay);
}

/// Re-runs a replay that read, as the page and `botplay replay` do; a re-run that succeeds must
/// give a replay that re-runs to the same match.
fn rerun_replay(replay: &Replay) {
    let Some(entry) = games::entry(&replay.setup.game) else {
        return;
    };
    let referee = match replay.rerun(entry) {
        Ok(referee) => referee,
        Err(why) => {
            assert!(!why.to_string().is_empty());
            return;
        }
    };
    for frame in referee.frames() {
        assert!(serde_json::to_string(frame).is_ok());
    }
    let _ = referee.outcome();
    let json = referee.replay().to_json();
    let again = Replay::from_json(&json)
        .unwrap_or_else(|e| panic!("the re-run's replay does not read back: {e}"))
        .rerun(entry)
        .unwrap_or_else(|e| panic!("the re-run's replay does not re-run: {e}"));
    same_match(&referee, &again);
}

/// Any link text, or any bytes packed as a link; see the crate documentation.
pub fn share_link(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let link = match mode % 4 {
        // Bytes packed as the decoder unpacks them, to reach the document inside.
        0 | 1 => format!(
            "b1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(rest, 1))
        ),
        2 => format!(
            "https://example.org/botplay/#{}",
            String::from_utf8_lossy(rest)
        ),
        _ => String::from_utf8_lossy(rest).into_owned(),
    };
    let doc = match ShareDoc::decode(&link) {
        Ok(doc) => doc,
        Err(why) => {
            assert!(!why.to_string().is_empty());
            return;
        }
    };
    // A document that opened can be shared again, and reads back as itself from then on.
    let once = ShareDoc::decode(&doc.encode())
        .unwrap_or_else(|e| panic!("a link botplay made does not open: {e}"));
    let twice = ShareDoc::decode(&once.encode())
        .unwrap_or_else(|e| panic!("a link botplay made does not open: {e}"));
    assert_eq!(once, twice, "a link changes each time it is shared");
    if let Some(replay) = &doc.replay {
        rerun_replay(replay);
    }
}
