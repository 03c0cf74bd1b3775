//! The arena's tables as CSV, for a spreadsheet: the standings (one row per bot, in rank order)
//! and the pairs (one row per pair that met). Written with the `csv` crate, which quotes as RFC
//! 4180 asks (a field holding a comma, a quote or a line break is quoted, its quotes doubled).

use crate::stats::Summary;

/// The bots' ranks: by rating (μ), best first; ties keep the bots' order.
pub fn ranking(summary: &Summary) -> Vec<usize> {
    let mut order: Vec<usize> = (0..summary.bots.len()).collect();
    order.sort_by(|&a, &b| {
        let (ra, rb) = (&summary.bots[a].rating, &summary.bots[b].rating);
        rb.rating.total_cmp(&ra.rating)
    });
    order
}

fn number(x: Option<f64>, decimals: usize) -> String {
    x.map_or(String::new(), |x| format!("{x:.decimals$}"))
}

/// A table as CSV: the `header` line, then one line per row.
fn table<const N: usize>(header: [&str; N], rows: impl Iterator<Item = [String; N]>) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record(header);
    for row in rows {
        let _ = w.write_record(row);
    }
    let bytes = w.into_inner().unwrap_or_default();
    String::from_utf8(bytes).unwrap_or_default()
}

/// The standings: rank, name, matches, wins, draws, losses, average score, rating (μ and σ) and
/// faults by kind. `names` are the names to show, one per bot.
pub fn standings(names: &[String], summary: &Summary) -> String {
    let header = [
        "rank",
        "bot",
        "matches",
        "wins",
        "draws",
        "losses",
        "average score",
        "rating",
        "rating sigma",
        "timeouts",
        "crashes",
        "malformed",
        "floods",
    ];
    let rows = ranking(summary).into_iter().enumerate().map(|(rank, b)| {
        let s = &summary.bots[b];
        let name = names.get(b).map_or("", String::as_str);
        [
            (rank + 1).to_string(),
            name.to_string(),
            s.matches.to_string(),
            s.wins.to_string(),
            s.draws.to_string(),
            s.losses.to_string(),
            number(s.average_score(), 2),
            format!("{:.2}", s.rating.rating),
            format!("{:.2}", s.rating.uncertainty),
            s.faults.timeout.to_string(),
            s.faults.crash.to_string(),
            s.faults.malformed.to_string(),
            s.faults.flood.to_string(),
        ]
    });
    table(header, rows)
}

/// The pairs that met: each from its first bot's side (wins, draws, losses, score rate with its
/// 95% interval, average scores).
pub fn pairs(names: &[String], summary: &Summary) -> String {
    let header = [
        "bot",
        "opponent",
        "matches",
        "wins",
        "draws",
        "losses",
        "score rate",
        "interval low",
        "interval high",
        "average score",
        "opponent's average score",
    ];
    let name = |i: usize| names.get(i).map_or(String::new(), Clone::clone);
    let rows = summary.pairs.iter().filter(|p| p.matches > 0).map(|p| {
        let averages = p.average_scores();
        let interval = p.interval();
        [
            name(p.a),
            name(p.b),
            p.matches.to_string(),
            p.wins.to_string(),
            p.draws.to_string(),
            p.losses.to_string(),
            number(p.score_rate(), 3),
            number(interval.map(|i| i.0), 3),
            number(interval.map(|i| i.1), 3),
            number(averages.map(|a| a.0), 2),
            number(averages.map(|a| a.1), 2),
        ]
    });
    table(header, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::tests::result;
    use crate::stats::{summarize, MatchResult};

    #[test]
    fn names_with_commas_quotes_and_line_breaks_are_quoted_as_rfc_4180_says() {
        let names = vec![
            "Smith, Ada".to_string(),
            "the \"best\" bot".to_string(),
            "two\nlines".to_string(),
        ];
        let results = [
            result(0, [0, 1], [3, 1]),
            result(1, [1, 0], [2, 2]),
            result(2, [0, 2], [5, 0]),
        ];
        let refs: Vec<&MatchResult> = results.iter().collect();
        let summary = summarize(3, &refs);
        let table = standings(&names, &summary);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            "rank,bot,matches,wins,draws,losses,average score,rating,rating sigma,timeouts,crashes,malformed,floods"
        );
        assert!(
            lines[1].starts_with("1,\"Smith, Ada\",3,2,1,0,3.33,"),
            "{table}"
        );
        assert!(table.contains("\"the \"\"best\"\" bot\""), "{table}");
        assert!(table.contains("\"two\nlines\""), "{table}");
        // A spreadsheet (any RFC 4180 reader) reads the names back as they were.
        let mut reader = csv::Reader::from_reader(table.as_bytes());
        let read: Vec<String> = reader
            .records()
            .map(|r| r.expect("a record")[1].to_string())
            .collect();
        let mut expected = names.clone();
        expected.sort();
        let mut sorted = read.clone();
        sorted.sort();
        assert_eq!(sorted, expected);
        let pairs = pairs(&names, &summary);
        let rows: Vec<csv::StringRecord> = csv::Reader::from_reader(pairs.as_bytes())
            .records()
            .map(|r| r.expect("a record"))
            .collect();
        assert_eq!(rows.len(), 2, "the pairs that met: {pairs}");
        assert_eq!(&rows[0][0], "Smith, Ada");
        assert_eq!(&rows[0][1], "the \"best\" bot");
        assert_eq!(
            (&rows[0][2], &rows[0][3], &rows[0][4], &rows[0][5]),
            ("2", "1", "1", "0")
        );
        assert_eq!(&rows[0][6], "0.750");
    }
}
