//! The rules pages (`www/rules/<game>.html`, shown by the page's Rules dialog) against the
//! engine: every game has one with the same sections; the numbers marked `data-fact`, the tables
//! marked `data-check` and every protocol example are compared with what the engine says and
//! sends, so a rules change that the page does not follow fails here.
//!
//! `RULES_EXAMPLES=/tmp/examples.txt cargo test --test rules_pages protocol` writes every
//! example as the engine plays it into that file (HTML-escaped, ready to paste; cut long parts
//! by hand with `<span class="cut">…</span>`, see [`matches`]).

#![cfg(not(target_arch = "wasm32"))]

use botplay_web::app::rules::{page_url, play, sections, Exchange, Position, LEARNING_URL};

/// A file the page fetches, as `www/` holds it (`url` relative to the page).
fn site_file(url: &str) -> &'static str {
    let path = format!("{}/www/{url}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Box::leak(text.into_boxed_str())
}

/// The rules page of a game, as the page fetches it.
fn page(game: &str) -> Option<&'static str> {
    games::entry(game).map(|_| site_file(&page_url(game)))
}

/// Every rules page, by game id.
fn pages() -> impl Iterator<Item = (&'static str, &'static str)> {
    games::GAMES
        .iter()
        .map(|g| (g.info.id, site_file(&page_url(g.info.id))))
}

/// The sections every page has, in this order.
/// (Prefixed: the page around the dialog has ids of its own, such as the board's canvas.)
const SECTIONS: [&str; 8] = [
    "rules-goal",
    "rules-board",
    "rules-actions",
    "rules-turns",
    "rules-protocol",
    "rules-end",
    "rules-rulesets",
    "rules-changes",
];

// ---------------------------------------------------------------------------------------------
// A small reader for our own HTML: elements that do not nest in themselves, attributes in
// double quotes.

/// An element of a page: its attributes and the HTML inside it.
#[derive(Debug)]
struct Element<'a> {
    attributes: &'a str,
    inner: &'a str,
}

impl Element<'_> {
    fn attribute(&self, name: &str) -> Option<String> {
        let key = format!("{name}=\"");
        let mut rest = self.attributes;
        loop {
            let at = rest.find(&key)?;
            // A whole attribute name: preceded by a space.
            if at > 0 && rest.as_bytes()[at - 1].is_ascii_whitespace() {
                let value = &rest[at + key.len()..];
                let end = value.find('"')?;
                return Some(unescape(&value[..end]));
            }
            rest = &rest[at + key.len()..];
        }
    }

    fn has_class(&self, class: &str) -> bool {
        self.attribute("class")
            .is_some_and(|c| c.split_whitespace().any(|c| c == class))
    }
}

/// Every `<tag …>…</tag>` in `html`, in document order (not nested in one another).
fn elements<'a>(html: &'a str, tag: &str) -> Vec<Element<'a>> {
    let open = format!("<{tag}");
    let close = format!("</{tag}>");
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find(&open) {
        let after = &rest[at + open.len()..];
        // `<pre` but not `<prefix`.
        if !after.starts_with([' ', '>', '\n']) {
            rest = after;
            continue;
        }
        let Some(gt) = after.find('>') else { break };
        let attributes = &after[..gt];
        let body = &after[gt + 1..];
        let Some(end) = body.find(&close) else { break };
        out.push(Element {
            attributes,
            inner: &body[..end],
        });
        rest = &body[end + close.len()..];
    }
    out
}

fn unescape(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The text of some HTML without its tags.
fn plain(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    unescape(&out)
}

// ---------------------------------------------------------------------------------------------
// Examples with cuts.

/// A piece of an example's pattern.
#[derive(Debug, PartialEq)]
enum Piece {
    Text(String),
    /// Whole lines left out; the count when the cut says "N more lines".
    Lines(Option<usize>),
    /// Characters left out inside a line.
    Chars,
}

/// An example as written in a `<pre>`: text, and `<span class="cut">…</span>` where the page
/// leaves something out. A cut alone on its line stands for whole lines ("… 3 more lines …"
/// says how many); a cut inside a line for some characters of that line.
fn pattern(inner: &str) -> Vec<Piece> {
    const CUT: &str = "<span class=\"cut\">";
    let mut pieces = Vec::new();
    let mut rest = inner;
    while let Some(at) = rest.find(CUT) {
        let before = &rest[..at];
        let after = &rest[at + CUT.len()..];
        let end = after.find("</span>").expect("a cut span is closed");
        let words = plain(&after[..end]);
        let mut next = &after[end + "</span>".len()..];
        let whole_line = (before.is_empty() || before.ends_with('\n'))
            && (next.is_empty() || next.starts_with('\n'));
        if !before.is_empty() {
            pieces.push(Piece::Text(unescape(before)));
        }
        if whole_line {
            let count = words
                .split_whitespace()
                .zip(words.split_whitespace().skip(1))
                .find(|(_, w)| w.starts_with("more"))
                .and_then(|(n, _)| n.replace(',', "").parse().ok());
            pieces.push(Piece::Lines(count));
            next = next.strip_prefix('\n').unwrap_or(next);
        } else {
            pieces.push(Piece::Chars);
        }
        rest = next;
    }
    if !rest.is_empty() {
        pieces.push(Piece::Text(unescape(rest)));
    }
    pieces
}

/// Whether `actual` is what the pattern shows: its texts in order, from the first character to
/// the last, with the cuts standing for what lies between.
fn matches(pieces: &[Piece], actual: &str) -> Result<(), String> {
    let mut at = 0;
    let mut cut: Option<&Piece> = None;
    for (i, piece) in pieces.iter().enumerate() {
        match piece {
            Piece::Text(text) => {
                let found = match cut {
                    None => actual[at..].starts_with(text.as_str()).then_some(at),
                    Some(_) if i == pieces.len() - 1 => actual
                        .ends_with(text.as_str())
                        .then(|| actual.len() - text.len())
                        .filter(|&s| s >= at),
                    Some(_) => actual[at..].find(text.as_str()).map(|s| s + at),
                };
                let Some(start) = found else {
                    return Err(format!(
                        "the example shows {text:?}, but the engine has {:?} there",
                        actual[at..]
                            .chars()
                            .take(text.len() + 40)
                            .collect::<String>()
                    ));
                };
                let skipped = &actual[at..start];
                match cut {
                    Some(Piece::Lines(count)) => {
                        if !skipped.is_empty() && !skipped.ends_with('\n') {
                            return Err(format!("a line cut ends inside a line: {skipped:?}"));
                        }
                        let lines = skipped.matches('\n').count();
                        if count.is_some_and(|n| n != lines) {
                            return Err(format!(
                                "a cut says {} more lines, but leaves out {lines}",
                                count.unwrap_or(0)
                            ));
                        }
                    }
                    Some(Piece::Chars) if skipped.contains('\n') => {
                        return Err(format!(
                            "a cut inside a line leaves out a line break: {skipped:?}"
                        ));
                    }
                    _ => {}
                }
                at = start + text.len();
                cut = None;
            }
            other => cut = Some(other),
        }
    }
    match cut {
        None if at == actual.len() => Ok(()),
        None => Err(format!(
            "the engine has more after the example: {:?}",
            &actual[at..].chars().take(80).collect::<String>()
        )),
        Some(Piece::Lines(count)) => {
            let lines = actual[at..].lines().count();
            if count.is_some_and(|n| n != lines) {
                return Err(format!(
                    "the last cut says {count:?} lines, but leaves out {lines}"
                ));
            }
            Ok(())
        }
        Some(_) => Ok(()),
    }
}

/// What a seat wrote and was answered in one turn, as the page shows it: runs of written lines
/// (`io-out`), each immediate answer (`io-reply`), then the broadcasts the seat got after its
/// turn (`io-notice`), all without their final line breaks.
fn chunks(exchange: &Exchange, notices: &[String]) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    for (line, reply) in &exchange.talk {
        match out.last_mut() {
            Some(("io-out", text)) => {
                text.push('\n');
                text.push_str(line);
            }
            _ => out.push(("io-out", line.clone())),
        }
        if let Some(reply) = reply {
            out.push(("io-reply", reply.trim_end_matches('\n').to_string()));
        }
    }
    for notice in notices {
        out.push(("io-notice", notice.trim_end_matches('\n').to_string()));
    }
    out
}

/// The example of a figure, played by the engine: the exchange, and the broadcasts its seat
/// got during that turn.
fn exchange_of(game: &str, figure: &Element) -> Result<(Exchange, Vec<String>), String> {
    let turn: usize = figure
        .attribute("data-turn")
        .ok_or("an example needs data-turn")?
        .parse()
        .map_err(|_| "data-turn is not a number")?;
    let seat: usize = figure
        .attribute("data-seat")
        .ok_or("an example needs data-seat")?
        .parse()
        .map_err(|_| "data-seat is not a number")?;
    let mut position = Position::from_attributes(game, |name| figure.attribute(name))?;
    position.turn = turn + 1;
    let played = play(&position)?;
    let notices = played
        .notices
        .iter()
        .filter(|(t, s, _)| *t == turn && *s == seat)
        .map(|(_, _, text)| text.clone())
        .collect();
    let exchange = played
        .exchanges
        .into_iter()
        .find(|e| e.turn == turn && e.seat == seat)
        .ok_or_else(|| format!("seat {seat} is not asked on turn {turn}"))?;
    Ok((exchange, notices))
}

/// The blocks of an example after its input: `<pre class="io-…">` and at most one
/// `<p class="talk-cut">` that stands for blocks left out ("… 12 more requests …" says how
/// many lines the bot wrote in them).
#[derive(Debug)]
enum Block<'a> {
    Pre(Element<'a>),
    Cut(String),
}

fn blocks(figure: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let mut rest = figure;
    loop {
        let pre = rest.find("<pre ");
        let cut = rest.find("<p class=\"talk-cut\">");
        match (pre, cut) {
            (Some(p), c) if c.is_none_or(|c| p < c) => {
                let element = elements(&rest[p..], "pre").into_iter().next();
                let Some(element) = element else { break };
                let end = p + rest[p..].find("</pre>").unwrap_or(0) + "</pre>".len();
                if !element.has_class("io-in") {
                    out.push(Block::Pre(element));
                }
                rest = &rest[end..];
            }
            (_, Some(c)) => {
                let body = &rest[c..];
                let end = body.find("</p>").unwrap_or(body.len());
                out.push(Block::Cut(plain(&body[..end])));
                rest = &body[end..];
            }
            _ => break,
        }
    }
    out
}

/// Compares an example's blocks with what the engine wrote and answered.
fn compare_talk(blocks: &[Block], expected: &[(&'static str, String)]) -> Result<(), String> {
    let cuts: Vec<usize> = (0..blocks.len())
        .filter(|&i| matches!(blocks[i], Block::Cut(_)))
        .collect();
    if cuts.len() > 1 {
        return Err("more than one talk-cut".to_string());
    }
    let (before, after, words) = match cuts.first() {
        Some(&k) => {
            let Block::Cut(words) = &blocks[k] else {
                unreachable!()
            };
            (&blocks[..k], &blocks[k + 1..], Some(words.as_str()))
        }
        None => (blocks, &blocks[..0], None),
    };
    let shown = before.len() + after.len();
    if words.is_none() && shown != expected.len() || shown > expected.len() {
        return Err(format!(
            "the example shows {shown} output blocks, the engine has {}",
            expected.len()
        ));
    }
    let pairs = before
        .iter()
        .zip(&expected[..before.len()])
        .chain(after.iter().zip(&expected[expected.len() - after.len()..]));
    for (block, (class, text)) in pairs {
        let Block::Pre(pre) = block else {
            unreachable!()
        };
        if !pre.has_class(class) {
            return Err(format!(
                "expected an {class} block, found {:?}",
                pre.attributes
            ));
        }
        matches(&pattern(pre.inner), text).map_err(|why| format!("an {class} block: {why}"))?;
    }
    if let Some(words) = words {
        let skipped = &expected[before.len()..expected.len() - after.len()];
        let lines: usize = skipped
            .iter()
            .filter(|(class, _)| *class == "io-out")
            .map(|(_, text)| text.lines().count())
            .sum();
        let said = words
            .split_whitespace()
            .zip(words.split_whitespace().skip(1))
            .find(|(_, w)| w.starts_with("more"))
            .and_then(|(n, _)| n.parse::<usize>().ok());
        if said != Some(lines) {
            return Err(format!(
                "a talk-cut says {words:?}, but leaves out {lines} lines"
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------

#[test]
fn every_game_has_a_rules_page_with_every_section() {
    for entry in games::GAMES {
        let id = entry.info.id;
        let text = page(id).unwrap_or_else(|| panic!("{id} has no rules page"));
        let found: Vec<&str> = sections(text).iter().map(|(id, _)| *id).collect();
        assert_eq!(found, SECTIONS, "{id}: the sections of www/rules/{id}.html");
        for (section, title) in sections(text) {
            assert!(!title.is_empty(), "{id}: section {section} has no title");
        }
    }
    // Every file of www/rules/ but the learning section is the page of a game.
    let folder = format!("{}/www/rules", env!("CARGO_MANIFEST_DIR"));
    for file in std::fs::read_dir(&folder).expect("www/rules") {
        let name = file.expect("www/rules").file_name();
        let name = name.to_string_lossy();
        let id = name.strip_suffix(".html").unwrap_or(&name);
        assert!(
            format!("rules/{name}") == LEARNING_URL || games::entry(id).is_some(),
            "www/rules/{name}: a rules page for an unknown game '{id}'"
        );
    }
}

/// What opens every section, right after its heading: one plain sentence for a 15-year-old.
const IN_SHORT: &str = "<p class=\"in-short\"><strong>In short:</strong> ";

/// The most words an "In short" may have (about thirty: one sentence or two short ones).
const IN_SHORT_WORDS: usize = 35;

/// Whether every `<h2>` of `page` is followed by its "In short" paragraph, and nothing else is
/// one: the first complaint if not.
fn in_short_complaint(page: &str) -> Option<String> {
    let mut headings = 0;
    for (at, _) in page.match_indices("<h2") {
        headings += 1;
        let rest = &page[at..];
        let title = rest.find("</h2>").map_or(rest, |end| &rest[..end + 5]);
        let after = rest[title.len()..].trim_start();
        if !after.starts_with(IN_SHORT) {
            return Some(format!("{title} is not followed by {IN_SHORT}…</p>"));
        }
        let Some(end) = after.find("</p>") else {
            return Some(format!("{title}: its In short is not closed"));
        };
        let words = plain(&after[IN_SHORT.len()..end]);
        let count = words.split_whitespace().count();
        if !(5..=IN_SHORT_WORDS).contains(&count) {
            return Some(format!("{title}: its In short has {count} words: {words}"));
        }
    }
    let found = page.matches("class=\"in-short\"").count();
    (found != headings).then(|| format!("{found} In short paragraphs for {headings} sections"))
}

#[test]
fn every_section_opens_with_an_in_short() {
    for (id, text) in pages().chain([("learning", site_file(LEARNING_URL))]) {
        if let Some(why) = in_short_complaint(text) {
            panic!("www/rules/{id}.html: {why}");
        }
    }
    // The check itself: a section without one, or with a long one, is found.
    let good = format!(
        "<h2 id=\"rules-goal\">Goal</h2>\n{IN_SHORT}Soak them all, and win the match.</p>\n"
    );
    assert_eq!(in_short_complaint(&good), None);
    let missing = format!("{good}<h2 id=\"rules-board\">The board</h2>\n<p>A grid.</p>");
    assert!(in_short_complaint(&missing).is_some_and(|w| w.contains("The board")));
    let long = format!(
        "<h2 id=\"rules-goal\">Goal</h2>\n{IN_SHORT}{}</p>",
        "word ".repeat(IN_SHORT_WORDS + 1)
    );
    assert!(in_short_complaint(&long).is_some_and(|w| w.contains("words")));
}

#[test]
fn pages_keep_to_the_content_security_policy() {
    for (id, text) in pages() {
        let lower = text.to_lowercase();
        for banned in [
            "<script",
            "<style",
            " style=",
            "javascript:",
            "<img",
            "<iframe",
            " href=",
        ] {
            assert!(
                !lower.contains(banned),
                "{id}: the page contains '{banned}'"
            );
        }
        // No event handler attributes (onclick=…).
        for (i, _) in lower.match_indices(" on") {
            let word: String = lower[i + 1..]
                .chars()
                .take_while(|c| c.is_ascii_alphabetic())
                .collect();
            assert!(
                !lower[i + 1 + word.len()..].starts_with('='),
                "{id}: the page has an event handler attribute '{word}'"
            );
        }
        // Ids are prefixed: the page around the dialog has ids of its own (`board`, `games`…).
        for (i, _) in text.match_indices(" id=\"") {
            let id = &text[i + 5..];
            assert!(
                id.starts_with("rules-"),
                "{id}: an id without the rules- prefix"
            );
        }
        // The text is a fragment: its headings start at h2 (the dialog's title is the h1 of it).
        assert!(!lower.contains("<h1"), "{id}: an h1 in a fragment");
        // Every example and board is well formed: as many openings as closings.
        for tag in [
            "pre", "figure", "table", "section", "div", "p", "ul", "ol", "li",
        ] {
            let opened = text.matches(&format!("<{tag}>")).count()
                + text.matches(&format!("<{tag} ")).count();
            let closed = text.matches(&format!("</{tag}>")).count();
            assert_eq!(
                opened, closed,
                "{id}: <{tag}> opened {opened} times, closed {closed}"
            );
        }
    }
}

#[test]
fn facts_match_the_engine() {
    for entry in games::GAMES {
        let info = entry.info;
        let id = info.id;
        let text = page(id).expect("a page");
        let mut checked = Vec::new();
        let mut rulesets = Vec::new();
        for tag in ["span", "code", "td", "strong"] {
            for element in elements(text, tag) {
                let Some(fact) = element.attribute("data-fact") else {
                    continue;
                };
                let shown = plain(element.inner);
                let expected = match fact.as_str() {
                    "first-turn-ms" => info.first_turn_ms.to_string(),
                    "turn-ms" => info.turn_ms.to_string(),
                    "seats" if info.min_seats == info.max_seats => info.min_seats.to_string(),
                    "seats" => format!("{}–{}", info.min_seats, info.max_seats),
                    "default-ruleset" => info.default_ruleset.to_string(),
                    "ruleset" => {
                        assert!(info.ruleset(&shown).is_some(), "{id}: no ruleset '{shown}'");
                        rulesets.push(shown.clone());
                        shown.clone()
                    }
                    "relaxed-factor" => engine::referee::RELAXED_FACTOR.to_string(),
                    other => game_fact(id, other)
                        .unwrap_or_else(|| panic!("{id}: unknown data-fact '{other}'")),
                };
                assert_eq!(shown, expected, "{id}: data-fact '{fact}'");
                checked.push(fact);
            }
        }
        for fact in ["first-turn-ms", "turn-ms", "seats", "default-ruleset"] {
            assert!(
                checked.iter().any(|f| f == fact),
                "{id}: no data-fact '{fact}' on the page"
            );
        }
        for ruleset in info.rulesets {
            assert!(
                rulesets.iter().any(|r| r == ruleset.id),
                "{id}: ruleset '{}' is not on the page",
                ruleset.id
            );
        }
    }
}

/// The first input a seat gets in the default setup of a game, seed `seed`.
fn first_input(game: &str, seed: i64, seat: usize) -> String {
    let entry = games::entry(game).expect("a game");
    let setup = engine::Setup::new(entry.info, seed);
    let position = Position {
        bots: vec!["wait".to_string(); setup.seats],
        setup,
        turn: 2,
    };
    play(&position)
        .expect("plays")
        .exchanges
        .into_iter()
        .find(|e| e.seat == seat)
        .map(|e| e.input)
        .expect("the seat is asked")
}

/// A game's own facts, read from what the engine publishes or sends its bots.
fn game_fact(game: &str, fact: &str) -> Option<String> {
    let json = |text: &str| -> serde_json::Value {
        serde_json::from_str(text.lines().next().unwrap_or("")).expect("a JSON line")
    };
    Some(match (game, fact) {
        ("ice-and-fire", "start-gold") => {
            // Red's first input: its gold and income, then the opponent's gold before income.
            let input = first_input(game, 1, 0);
            let spots: usize = input.lines().next()?.parse().ok()?;
            input.lines().nth(1 + spots + 2)?.to_string()
        }
        ("ice-and-fire", "map-size") => {
            let input = first_input(game, 1, 0);
            let row = input.lines().find(|l| l.contains('#') || l.contains('.'))?;
            format!("{} × {}", row.len(), row.len())
        }
        ("soak-overflow", "max-turns") => games::soak_overflow::MAX_TURNS.to_string(),
        ("soak-overflow", "max-lead") => games::soak_overflow::MAX_LEAD.to_string(),
        ("micro-rts", "max-turns") => games::micro_rts::MAX_TURNS.to_string(),
        ("micro-rts", "start-gold") => {
            let input = first_input(game, 1, 0);
            input.lines().nth(7)?.split(' ').nth(1)?.to_string()
        }
        ("skyport", "rounds") => games::skyport::DEFAULT_ROUNDS.to_string(),
        ("skyport", "health") => {
            // The first game state of a turn (after the handshake and the loadout).
            let entry = games::entry(game)?;
            let position = Position {
                setup: engine::Setup::new(entry.info, 1),
                bots: vec!["wait".to_string(); 2],
                turn: 3,
            };
            let played = play(&position).ok()?;
            let state = played.exchanges.iter().find(|e| e.turn == 2)?;
            json(&state.input)["players"][0]["health"].to_string()
        }
        ("skyport", "max-rounds") => games::skyport::MAX_ROUNDS.to_string(),
        ("skyport", "actions") => games::skyport::ACTIONS_PER_TURN.to_string(),
        ("crafting-quest", "units") => {
            let state = json(&first_input(game, 1, 0));
            state["units"].as_array()?.len().to_string()
        }
        ("crafting-quest", "life") => {
            let state = json(&first_input(game, 1, 0));
            state["units"][0]["life"].to_string()
        }
        ("crafting-quest", "rounds") => json(&first_input(game, 1, 0))["rounds"].to_string(),
        ("crafting-quest", "size") => json(&first_input(game, 1, 0))["size"].to_string(),
        ("crafting-quest", "gold") => json(&first_input(game, 1, 0))["gold"].to_string(),
        ("crafting-quest", "requests") => {
            json(&first_input(game, 1, 0))["actions_left"].to_string()
        }
        ("crafting-quest", "move-base") => {
            let state = json(&first_input(game, 1, 0));
            state["units"][0]["move_cost"].to_string()
        }
        _ => return None,
    })
}

/// The rows of a table: the text of each `<td>` (header rows, with `<th>` only, are skipped).
fn rows(table: &str) -> Vec<Vec<String>> {
    elements(table, "tr")
        .iter()
        .map(|row| {
            elements(row.inner, "td")
                .iter()
                .map(|c| plain(c.inner))
                .collect::<Vec<_>>()
        })
        .filter(|cells| !cells.is_empty())
        .collect()
}

/// The rows of `id`'s `what` table, each beside the line of the engine's input it shows: as many
/// rows as lines.
fn beside_lines<'r, 'l>(
    id: &str,
    what: &str,
    rows: &'r [Vec<String>],
    lines: Vec<&'l str>,
) -> impl Iterator<Item = (&'r Vec<String>, &'l str)> {
    assert_eq!(
        rows.len(),
        lines.len(),
        "{id}: the {what} table has {} rows",
        rows.len()
    );
    rows.iter().zip(lines)
}

#[test]
fn unit_tables_match_what_the_engine_sends() {
    let mut seen = 0;
    for (id, text) in pages() {
        for table in elements(text, "table") {
            let Some(check) = table.attribute("data-check") else {
                continue;
            };
            seen += 1;
            let rows = rows(table.inner);
            match (id, check.as_str()) {
                // microRTS sends every type's numbers before the first turn, in the table's
                // column order: type, max HP, reach, attack, step, gold, wood.
                ("micro-rts", "types") => {
                    let input = first_input(id, 1, 0);
                    let sent: Vec<&str> = input.lines().skip(1).take(6).collect();
                    for (row, line) in beside_lines(id, "type", &rows, sent) {
                        let shown: Vec<&str> = [0, 2, 3, 4, 5, 6, 7]
                            .iter()
                            .map(|&i| row.get(i).map_or("", String::as_str))
                            .collect();
                        assert_eq!(shown.join(" "), line, "{id}: type row {row:?}");
                    }
                }
                // Soak Overflow sends each agent's class numbers; with five agents a side, red's
                // agents come in class order: gunner, sniper, bomber, assault, berserker.
                ("soak-overflow", "classes") => {
                    let input = (1..200)
                        .map(|seed| first_input(id, seed, 0))
                        .find(|i| i.lines().nth(1) == Some("10"))
                        .expect("a seed with five agents a side");
                    let red: Vec<&str> = input.lines().skip(2).take(5).collect();
                    for (row, line) in beside_lines(id, "class", &rows, red) {
                        let numbers: Vec<&str> = line.split(' ').skip(2).collect();
                        let shown: Vec<&str> = row[1..5].iter().map(String::as_str).collect();
                        assert_eq!(shown, numbers, "{id}: class row {row:?}");
                    }
                }
                (id, other) => panic!("{id}: unknown data-check '{other}'"),
            }
        }
    }
    assert_eq!(
        seen, 2,
        "the microRTS type table and the Soak Overflow class table"
    );
}

#[test]
fn protocol_examples_are_exactly_what_the_engine_sends_and_answers() {
    let print = std::env::var("RULES_EXAMPLES").ok();
    let mut printed = String::new();
    let mut failures = Vec::new();
    for entry in games::GAMES {
        let id = entry.info.id;
        let text = page(id).expect("a page");
        let figures: Vec<Element> = elements(text, "figure")
            .into_iter()
            .filter(|f| f.has_class("exchange"))
            .collect();
        if figures.is_empty() {
            failures.push(format!("{id}: the page has no protocol example"));
        }
        for figure in figures {
            let (exchange, notices) = match exchange_of(id, &figure) {
                Ok(found) => found,
                Err(why) => panic!("{id}: example {:?}: {why}", figure.attributes),
            };
            let expected = chunks(&exchange, &notices);
            if print.is_some() {
                let input = escape(exchange.input.trim_end_matches('\n'));
                printed.push_str(&format!("=== {id} {}\n", figure.attributes.trim()));
                printed.push_str(&format!("--- io-in\n{input}\n"));
                for (class, text) in &expected {
                    printed.push_str(&format!("--- {class}\n{}\n", escape(text)));
                }
            }
            let inputs: Vec<Element> = elements(figure.inner, "pre")
                .into_iter()
                .filter(|p| p.has_class("io-in"))
                .collect();
            assert_eq!(inputs.len(), 1, "{id}: an example has one io-in");
            let input = exchange.input.trim_end_matches('\n');
            if let Err(why) = matches(&pattern(inputs[0].inner), input) {
                failures.push(format!("{id}: the input of {:?}: {why}", figure.attributes));
            }
            if let Err(why) = compare_talk(&blocks(figure.inner), &expected) {
                failures.push(format!("{id}: {:?}: {why}", figure.attributes));
            }
        }
    }
    if let Some(path) = print {
        std::fs::write(&path, printed).expect("the examples file can be written");
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

#[test]
fn request_formats_are_requests_the_engine_reads() {
    // Crafting Quest 3's page lists one request of each kind: every one must be read as is.
    let text = page("crafting-quest").expect("a page");
    let formats: Vec<Element> = elements(text, "pre")
        .into_iter()
        .filter(|p| p.has_class("format"))
        .collect();
    assert_eq!(
        formats.len(),
        1,
        "crafting-quest: one list of request formats"
    );
    let lines: Vec<String> = unescape(formats[0].inner)
        .lines()
        .map(String::from)
        .collect();
    assert!(
        lines.len() >= 14,
        "crafting-quest: {} request formats",
        lines.len()
    );
    for line in lines {
        if let Err((code, why)) = games::crafting_quest::parse_request(&line) {
            panic!("crafting-quest: {line} is refused: {} {why}", code.name());
        }
    }
}

#[test]
fn every_mini_board_is_a_position_the_engine_plays() {
    for (id, text) in pages() {
        let mut boards = 0;
        for div in elements(text, "div")
            .into_iter()
            .filter(|d| d.has_class("mini-board"))
        {
            boards += 1;
            let position = Position::from_attributes(id, |name| div.attribute(name))
                .unwrap_or_else(|why| panic!("{id}: mini-board {:?}: {why}", div.attributes));
            let played = play(&position).expect("the position plays");
            assert!(
                played.frames.len() > position.turn,
                "{id}: mini-board {:?}: the match ends before turn {}",
                div.attributes,
                position.turn
            );
            assert!(
                div.inner.trim().is_empty(),
                "{id}: a mini-board placeholder has content"
            );
        }
        assert!(boards > 0, "{id}: no live board");
    }
}

#[test]
fn cuts_match_only_what_they_say() {
    let p = pattern("a\n<span class=\"cut\">… 2 more lines …</span>\nd");
    assert_eq!(
        p,
        vec![
            Piece::Text("a\n".into()),
            Piece::Lines(Some(2)),
            Piece::Text("d".into())
        ]
    );
    assert!(matches(&p, "a\nb\nc\nd").is_ok());
    assert!(matches(&p, "a\nb\nd").is_err());
    let p = pattern("{\"a\":<span class=\"cut\">…</span>}");
    assert!(matches(&p, "{\"a\":[1,2,3]}").is_ok());
    assert!(matches(&p, "{\"a\":[1,\n2]}").is_err());
    assert!(matches(&pattern("x &lt; y"), "x < y").is_ok());
    assert!(matches(&pattern("x"), "x y").is_err());
}
