//! The arena's results for people (a text table on stdout) and for scripts (JSON).

use std::collections::BTreeMap;

use engine::GameInfo;

use arena::report::{ArenaReport, BotLabel, Setting, ShardRow};
use arena::stats::{MatchResult, Summary};

/// What the arena was: shown above the table and kept in the JSON.
pub struct Context<'a> {
    pub game: &'static GameInfo,
    pub ruleset: &'a str,
    pub options: &'a BTreeMap<String, String>,
    pub relaxed: bool,
    pub seed: i64,
    pub players: usize,
    pub per_group: usize,
    pub planned: usize,
    /// Each bot's spec and names (the table shows its name).
    pub labels: &'a [BotLabel],
    pub interrupted: bool,
    /// The slice of the plan played (`--shard K/N`), `None` for the whole arena.
    pub shard: Option<ShardRow>,
}

/// The longest bot name shown in the pairs table.
const NAME_WIDTH: usize = 32;

/// The results as text: a header line, the pairs, the bots by rating.
pub fn text(ctx: &Context, s: &Summary) -> String {
    let mut out = heading(ctx, s);
    out.push_str("pairs: the first bot's wins, draws and losses; score = (wins + draws/2) / matches, with its 95% Wilson interval\n");
    out.push_str(&pairs_table(ctx, s));
    out.push_str("\nbots, best rating first: win = first place alone, draw = shared first place; invalid = malformed or too much output;\nrating = Weng-Lin (OpenSkill) mu and sigma, updated match by match in match order\n");
    out.push_str(&bots_table(ctx, s));
    out
}

/// "arena: Ice and Fire (league-4), seed 7, 2 seats: 12 of 12 matches played".
fn heading(ctx: &Context, s: &Summary) -> String {
    let options: Vec<String> = ctx
        .options
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    format!(
        "arena: {} ({}{}{}), seed {}{}, {} seats: {} of {} matches played{}\n\n",
        ctx.game.name,
        ctx.ruleset,
        if options.is_empty() {
            String::new()
        } else {
            format!(", {}", options.join(", "))
        },
        if ctx.relaxed { ", relaxed" } else { "" },
        ctx.seed,
        match ctx.shard {
            Some(sh) => format!(
                ", shard {}/{} of {} matches",
                sh.index, sh.count, ctx.planned
            ),
            None => String::new(),
        },
        ctx.players,
        s.played,
        ctx.shard.map_or(ctx.planned, |sh| sh.planned),
        if ctx.interrupted {
            " (interrupted)"
        } else {
            ""
        },
    )
}

/// One row per pair: the first bot's wins, draws and losses, its score rate and interval.
fn pairs_table(ctx: &Context, s: &Summary) -> String {
    let rows: Vec<Vec<String>> = s
        .pairs
        .iter()
        .map(|p| {
            let (rate, interval) = match (p.score_rate(), p.interval()) {
                (Some(r), Some((lo, hi))) => (
                    format!("{:.1}%", r * 100.0),
                    format!("{:.1}-{:.1}%", lo * 100.0, hi * 100.0),
                ),
                _ => ("-".into(), "-".into()),
            };
            let (avg_a, avg_b) = match p.average_scores() {
                Some((a, b)) => (format!("{a:.2}"), format!("{b:.2}")),
                None => ("-".into(), "-".into()),
            };
            vec![
                label(ctx.labels, p.a),
                label(ctx.labels, p.b),
                p.matches.to_string(),
                p.wins.to_string(),
                p.draws.to_string(),
                p.losses.to_string(),
                rate,
                interval,
                avg_a,
                avg_b,
            ]
        })
        .collect();
    table(
        &[
            "bot",
            "vs bot",
            "matches",
            "wins",
            "draws",
            "losses",
            "score",
            "95% interval",
            "avg score",
            "vs avg score",
        ],
        &rows,
        2,
    )
}

/// One row per bot, best rating first.
fn bots_table(ctx: &Context, s: &Summary) -> String {
    let mut order: Vec<usize> = (0..s.bots.len()).collect();
    order.sort_by(|&a, &b| {
        s.bots[b]
            .rating
            .rating
            .total_cmp(&s.bots[a].rating.rating)
            .then(a.cmp(&b))
    });
    let rows: Vec<Vec<String>> = order
        .iter()
        .map(|&i| {
            let b = &s.bots[i];
            vec![
                format!("#{}", i + 1),
                ctx.labels[i].name.clone(),
                b.matches.to_string(),
                b.wins.to_string(),
                b.draws.to_string(),
                b.losses.to_string(),
                b.average_score().map_or("-".into(), |a| format!("{a:.2}")),
                b.faults.timeout.to_string(),
                b.faults.crash.to_string(),
                b.faults.invalid().to_string(),
                format!("{:.2}", b.rating.rating),
                format!("{:.2}", b.rating.uncertainty),
            ]
        })
        .collect();
    table(
        &[
            "#",
            "bot",
            "matches",
            "wins",
            "draws",
            "losses",
            "avg score",
            "timeouts",
            "crashes",
            "invalid",
            "rating",
            "sigma",
        ],
        &rows,
        2,
    )
}

/// `#N name`, cut to [`NAME_WIDTH`] characters.
fn label(labels: &[BotLabel], bot: usize) -> String {
    let full = format!("#{} {}", bot + 1, labels[bot].name);
    if full.chars().count() <= NAME_WIDTH {
        full
    } else {
        let cut: String = full.chars().take(NAME_WIDTH - 3).collect();
        format!("{cut}...")
    }
}

/// Columns two spaces apart; the first `left` columns are left-aligned, the rest right-aligned.
fn table(header: &[&str], rows: &[Vec<String>], left: usize) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let header: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    for row in std::iter::once(&header).chain(rows) {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(i, (cell, &w))| {
                if i < left {
                    format!("{cell:<w$}")
                } else {
                    format!("{cell:>w$}")
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

/// The results as JSON ([`ArenaReport`]): the setup, per bot, per pair, and every played match
/// in match order; with a final line break.
pub fn json(ctx: &Context, s: &Summary, results: &[&MatchResult]) -> String {
    let setting = Setting {
        game: ctx.game,
        ruleset: ctx.ruleset.to_string(),
        options: ctx.options.clone(),
        relaxed: ctx.relaxed,
        seed: ctx.seed,
        players: ctx.players,
        matches_per_group: ctx.per_group,
        planned: ctx.planned,
        interrupted: ctx.interrupted,
        shard: ctx.shard,
    };
    let mut text = ArenaReport::new(setting, ctx.labels, s, results).to_json();
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_align_and_long_names_are_cut() {
        let t = table(
            &["bot", "n"],
            &[
                vec!["a".into(), "100".into()],
                vec!["bbbb".into(), "7".into()],
            ],
            1,
        );
        assert_eq!(t, "bot     n\na     100\nbbbb    7\n");
        let labels = vec![BotLabel::of_spec(
            "python3 /a/very/long/path/to/some/bot.py --depth 9",
        )];
        let l = label(&labels, 0);
        assert_eq!(l.chars().count(), NAME_WIDTH);
        assert!(l.starts_with("#1 python3") && l.ends_with("..."));
    }
}
