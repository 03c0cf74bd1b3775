//! The command line, declared with clap's derive API: per-command help (`botplay help play`,
//! `botplay play --help`), `--flag=value` and `--flag value`, negative numbers as values,
//! suggestions for a mistyped flag or command, shell completions.
//!
//! Values are taken as text by clap and checked here ([`Cli::into_command`]), so that every
//! message of the earlier hand-written parser stays as it was ("`arena` needs --matches N",
//! "--seed must be a signed 64-bit integer, not 'x'", ...). Clap's own errors (an unknown
//! option or command) are turned into the same one-line messages ([`UsageError::from_clap`]),
//! with clap's suggestion when it has one. Every usage error exits with status 2.

use std::collections::BTreeMap;
use std::fmt;

use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{Args, CommandFactory, Parser, Subcommand};
use clap_complete::Shell;

/// What `botplay help` shows below the commands.
const AFTER_HELP: &str = "\
BOT SPEC:
    builtin:NAME    a built-in bot (see `botplay list --bots`)
    pty:COMMAND     COMMAND on a pseudo-terminal: a program that never flushes its output
                    answers at once, unchanged (also `play --bot-pty`, `arena --bot-pty`)
    COMMAND         any command line (run through `sh -c`) that speaks the game's protocol on
                    stdin/stdout; stderr is captured into the replay. A lone `*.js` file runs
                    under Node with CodinGame's global readline() and print(); a lone `*.ts`
                    file too, once Sucrase (built in) has made it JavaScript.
    FILE.wasm [ARGS]
                    a WebAssembly program (wasm32-wasip1: C, C++, Rust, Go...) run in-process
                    under wasmtime with only stdin, stdout, stderr, clocks and random bytes
                    (no files, no network); its memory is capped (--wasm-memory, 768 MiB)
    LINK            a share link of the page (https://…#b1.… or just b1.…): the first code
                    bot it holds (JavaScript, TypeScript or Python), run as its language says,
                    named as the link names it

EXIT STATUS:
    0 the match ran (whoever won); 1 a bot or file could not be used; 2 bad usage or a refused
    replay; 130 an arena stopped by Ctrl-C

Run `botplay help COMMAND` (or `botplay COMMAND --help`) for a command's options.";

#[derive(Parser, Debug)]
#[command(
    name = "botplay",
    about = "botplay: run bot matches on the botplay engines",
    after_help = AFTER_HELP,
    version,
    allow_negative_numbers = true,
    args_override_self = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Sub>,
}

#[derive(Subcommand, Debug)]
enum Sub {
    /// The games: id, name, seats, version (tab-separated, below a header)
    List {
        /// ... and the built-in bots of each game
        #[arg(long)]
        bots: bool,
        /// Everything as JSON: id, name, seats, rulesets, leagues, version, built-in bots
        #[arg(long)]
        json: bool,
    },
    /// Plays one match between bots
    #[command(allow_negative_numbers = true, args_override_self = true)]
    Play(PlayCli),
    /// Many matches between bots: a table of results and ratings
    #[command(
        allow_negative_numbers = true,
        args_override_self = true,
        args_conflicts_with_subcommands = true,
        after_help = ARENA_AFTER_HELP
    )]
    Arena(ArenaCli),
    /// Re-runs a replay: outcome and final board
    Replay {
        /// A replay (JSON) written by `play --replay`, `arena --replays` or the page
        #[arg(value_name = "FILE")]
        file: String,
        /// Print instead, as CSV, the game's key numbers per step and seat, with each bot's
        /// time and budget for the turn that led there (and its fault, if any)
        #[arg(long)]
        stats: bool,
    },
    /// Prints a share link the page opens, with the match inside
    Link {
        #[arg(value_name = "FILE")]
        file: String,
        /// The address of the botplay page the link opens (default: the local server of
        /// `cargo xtask serve`)
        #[arg(long, value_name = "URL", default_value = DEFAULT_BASE)]
        base: String,
        /// Keep the disk paths in the bots' commands and debug logs (by default each is cut to
        /// its file name: a link goes to other people)
        #[arg(long)]
        keep_paths: bool,
    },
    /// Plays a Skyport match with the original clients over TCP on loopback
    #[command(allow_negative_numbers = true, args_override_self = true)]
    Host(HostCli),
    /// Prints shell completions: `botplay completions bash > ~/.local/share/bash-completion/completions/botplay`
    Completions {
        #[arg(value_name = "SHELL", value_parser = ["bash", "zsh", "fish"])]
        shell: String,
    },
}

const ARENA_AFTER_HELP: &str = "\
Ctrl-C stops the matches in flight (their bots are killed) and prints what was played (exit
status 130).

Beyond one machine: run each slice with `--shard K/N --json part-K.json` (the same command
line on every machine but K), then `botplay arena merge part-*.json` prints the table of the
whole arena and `--json FILE` writes its JSON, as one machine would have.";

/// The flags `play` and `arena` share.
#[derive(Args, Debug, Default)]
struct MatchFlags {
    /// A game id from `botplay list`
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// The match seed, a signed 64-bit integer (default: random, printed on stderr); in an
    /// arena, it derives every match's seed
    #[arg(long, value_name = "N")]
    seed: Option<String>,
    /// The league (ruleset league-L) of games that have leagues
    #[arg(long, value_name = "L")]
    league: Option<String>,
    /// A ruleset by name (alternative to --league)
    #[arg(long, value_name = "R")]
    ruleset: Option<String>,
    /// A game option (repeatable), for example map=v2 or size=80 in Crafting Quest 3
    #[arg(long = "option", value_name = "KEY=VALUE")]
    options: Vec<String>,
    /// Short for --option map=NAME (Crafting Quest 3: v1, v2, v3, generated)
    #[arg(long, value_name = "NAME")]
    map: Option<String>,
    /// Multiply the time budgets by 10
    #[arg(long)]
    relaxed: bool,
    /// A bot: builtin:NAME, pty:COMMAND, FILE.wasm, COMMAND or a share LINK (one per seat; see
    /// `botplay help`)
    #[arg(long = "bot", value_name = "SPEC", allow_hyphen_values = true)]
    bots: Vec<String>,
    /// Run every local program on a pseudo-terminal (for programs that never flush stdout)
    #[arg(long)]
    bot_pty: bool,
    /// The memory each WebAssembly bot (`*.wasm`) may grow to, in MiB (default 768)
    #[arg(long, value_name = "MB")]
    wasm_memory: Option<String>,
}

#[derive(Args, Debug)]
struct PlayCli {
    #[command(flatten)]
    flags: MatchFlags,
    /// Write the replay (JSON) to FILE; the web viewer opens it
    #[arg(long, value_name = "FILE")]
    replay: Option<String>,
    /// Take over a recorded match (a replay FILE) from --turn N: its setup, its turns before N
    /// re-run as recorded, then the --bot bots play; each first reads, untimed, what its seat
    /// was sent in those turns (its answers then are not used)
    #[arg(long, value_name = "FILE", requires = "turn")]
    from: Option<String>,
    /// With --from: the turn the bots play from, as the viewer numbers it
    #[arg(long, value_name = "N", requires = "from")]
    turn: Option<u32>,
}

#[derive(Args, Debug)]
struct ArenaCli {
    #[command(subcommand)]
    merge: Option<ArenaSub>,
    #[command(flatten)]
    flags: MatchFlags,
    /// Play a class file (or a class link): its game and set-up, seed, budgets, matches per
    /// pair and bots, each named by its class name (instead of --game, --bot, --seed, --matches
    /// and the other flags of the set-up)
    #[arg(long, value_name = "FILE")]
    class: Option<String>,
    /// Matches per pair of bots (per group of P bots with --players P); each seed is played
    /// once in every seating (rotations of the group), so N is best a multiple of P
    #[arg(long, value_name = "N")]
    matches: Option<String>,
    /// Seats per match (default: the game's fewest); every group of P different bots plays
    #[arg(long, value_name = "P")]
    players: Option<String>,
    /// Matches played at once (default: the machine's cores)
    #[arg(long, value_name = "J")]
    jobs: Option<String>,
    /// Write every match's replay to DIR/match-NNNN_BOT_vs_BOT_seed-S.json
    #[arg(long, value_name = "DIR")]
    replays: Option<String>,
    /// Write the results as JSON to FILE (`-`: to stdout instead of the table)
    #[arg(long, value_name = "FILE")]
    json: Option<String>,
    /// Play only the K-th of N slices of the arena's plan (every N-th match from the K-th);
    /// `botplay arena merge` sums the slices' JSON
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// (refused: an arena writes one replay per match, with --replays DIR)
    #[arg(long, hide = true)]
    replay: Option<String>,
}

#[derive(Subcommand, Debug)]
enum ArenaSub {
    /// Sums the JSON of an arena's shards (`--shard K/N --json part-K.json`) into the table,
    /// ratings and JSON of the whole arena
    Merge {
        /// Every shard's JSON, in any order
        #[arg(value_name = "PART", required = true)]
        parts: Vec<String>,
        /// Write the merged results as JSON to FILE (`-`: to stdout instead of the table)
        #[arg(long, value_name = "FILE")]
        json: Option<String>,
    },
}

#[derive(Args, Debug)]
struct HostCli {
    /// The game (only skyport)
    #[arg(long, value_name = "GAME")]
    game: Option<String>,
    /// Listen on 127.0.0.1:P (0 picks a free port, printed on stderr)
    #[arg(long, value_name = "P", default_value = "54321")]
    port: String,
    /// Wait for N clients (2 to 8); seats go by connection order
    #[arg(long, value_name = "N", default_value = "2")]
    players: String,
    /// The match seed, a signed 64-bit integer (default: random, printed on stderr)
    #[arg(long, value_name = "N")]
    seed: Option<String>,
    /// A ruleset by name
    #[arg(long, value_name = "R")]
    ruleset: Option<String>,
    /// Rounds to play (default 50)
    #[arg(long, value_name = "N")]
    rounds: Option<String>,
    /// A shipped map (default: by players)
    #[arg(long, value_name = "NAME")]
    map: Option<String>,
    /// Multiply the time budgets by 10
    #[arg(long)]
    relaxed: bool,
    /// Write the replay (JSON) to FILE
    #[arg(long, value_name = "FILE")]
    replay: Option<String>,
}

/// A parsed command line.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    List {
        bots: bool,
        json: bool,
    },
    Play(PlayArgs),
    Arena(ArenaArgs),
    /// `botplay arena merge PART... [--json FILE]`
    Merge {
        parts: Vec<String>,
        json: Option<String>,
    },
    Replay {
        file: String,
        stats: bool,
    },
    Link {
        file: String,
        base: String,
        keep_paths: bool,
    },
    Host(HostArgs),
    Completions(Shell),
    /// Text clap prints as it is, with exit status 0: help or the version.
    Print(String),
}

#[derive(Debug, Default, PartialEq, Eq)]
pub struct PlayArgs {
    pub game: String,
    pub seed: Option<i64>,
    pub ruleset: Option<String>,
    /// Game options, `key = value`, checked by the game.
    pub options: BTreeMap<String, String>,
    pub relaxed: bool,
    pub bots: Vec<String>,
    /// Every local program on a pseudo-terminal.
    pub bot_pty: bool,
    /// `--wasm-memory MB`: the memory limit of WebAssembly bots.
    pub wasm_memory: Option<u64>,
    pub replay: Option<String>,
    /// `--from FILE --turn N`: take over the recorded match from its turn N.
    pub from: Option<(String, u32)>,
}

/// `botplay arena`: many matches between bots.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ArenaArgs {
    /// The game, its ruleset and options, relaxed budgets, the bots (never a replay).
    pub play: PlayArgs,
    /// Matches per group of bots.
    pub matches: usize,
    pub players: Option<usize>,
    pub jobs: Option<usize>,
    pub replays: Option<String>,
    pub json: Option<String>,
    /// `--shard K/N`: the slice K (from 1) of N.
    pub shard: Option<(usize, usize)>,
    /// `--class FILE`: the set-up, bots and matches are the class's (`play` is then empty).
    pub class: Option<String>,
}

/// `botplay host`: a Skyport match over TCP on loopback.
#[derive(Debug, PartialEq, Eq)]
pub struct HostArgs {
    pub game: String,
    pub port: u16,
    pub players: usize,
    pub seed: Option<i64>,
    pub ruleset: Option<String>,
    pub rounds: Option<u32>,
    pub map: Option<String>,
    pub relaxed: bool,
    pub replay: Option<String>,
}

/// A command line that cannot be understood.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}\n\nRun `botplay help` for usage.", self.0)
    }
}

impl UsageError {
    /// Clap's error as one line in the words of the earlier parser, with clap's suggestion.
    fn from_clap(e: &clap::Error, args: &[String]) -> UsageError {
        let context = |kind| match e.get(kind) {
            Some(ContextValue::String(s)) => Some(s.clone()),
            Some(ContextValue::Strings(v)) => v.first().cloned(),
            _ => None,
        };
        // Clap lists its suggestions from the least to the most likely.
        let hint = |kind| match e.get(kind) {
            Some(ContextValue::String(s)) => format!(" (did you mean '{s}'?)"),
            Some(ContextValue::Strings(v)) if !v.is_empty() => {
                let names: Vec<String> = v.iter().rev().map(|s| format!("'{s}'")).collect();
                format!(" (did you mean {}?)", names.join(" or "))
            }
            _ => String::new(),
        };
        match e.kind() {
            ErrorKind::UnknownArgument => {
                let arg = context(ContextKind::InvalidArg).unwrap_or_default();
                let arg = arg.split('=').next().unwrap_or_default();
                let scope = subcommand_of(args)
                    .map(|s| format!(" for `{s}`"))
                    .unwrap_or_default();
                let what = if arg.starts_with('-') {
                    "unknown option"
                } else {
                    "unexpected argument"
                };
                UsageError(format!(
                    "{what} '{arg}'{scope}{}",
                    hint(ContextKind::SuggestedArg)
                ))
            }
            ErrorKind::InvalidSubcommand => {
                let name = context(ContextKind::InvalidSubcommand).unwrap_or_default();
                UsageError(format!(
                    "unknown command '{name}'{}",
                    hint(ContextKind::SuggestedSubcommand)
                ))
            }
            ErrorKind::MissingRequiredArgument => {
                let missing = match e.get(ContextKind::InvalidArg) {
                    Some(ContextValue::Strings(v)) => v.join(", "),
                    _ => String::new(),
                };
                let scope = subcommand_of(args)
                    .map(|s| format!(" for `{s}`"))
                    .unwrap_or_default();
                UsageError(format!("missing the required {missing}{scope}"))
            }
            _ => {
                // Clap's own words, without its "error: " and its advice (ours follows).
                let text = e.render().to_string();
                let first = text.lines().next().unwrap_or_default();
                let first = first.strip_prefix("error: ").unwrap_or(first);
                UsageError(first.to_string())
            }
        }
    }
}

/// The subcommand a command line names (`play`, `arena merge`), if any.
fn subcommand_of(args: &[String]) -> Option<String> {
    let first = args.first().filter(|a| !a.starts_with('-'))?;
    if first == "arena" && args.get(1).is_some_and(|a| a == "merge") {
        return Some("arena merge".into());
    }
    Some(first.clone())
}

/// The clap command, for help and completions.
pub fn command() -> clap::Command {
    Cli::command()
}

/// Parses the arguments after the program's name.
pub fn parse(args: &[String]) -> Result<Command, UsageError> {
    if args.is_empty() {
        return Ok(Command::Print(command().render_long_help().to_string()));
    }
    let argv = std::iter::once("botplay".to_string()).chain(args.iter().cloned());
    match Cli::try_parse_from(argv) {
        Ok(cli) => cli.into_command(),
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            Ok(Command::Print(e.render().to_string()))
        }
        Err(e) => Err(UsageError::from_clap(&e, args)),
    }
}

impl Cli {
    fn into_command(self) -> Result<Command, UsageError> {
        let Some(sub) = self.command else {
            return Ok(Command::Print(command().render_long_help().to_string()));
        };
        Ok(match sub {
            Sub::List { bots, json } => Command::List { bots, json },
            Sub::Play(p) => Command::Play(play_args(p)?),
            Sub::Arena(a) => arena_command(a)?,
            Sub::Replay { file, stats } => Command::Replay { file, stats },
            Sub::Link {
                file,
                base,
                keep_paths,
            } => Command::Link {
                file,
                base,
                keep_paths,
            },
            Sub::Host(h) => Command::Host(host_args(h)?),
            Sub::Completions { shell } => Command::Completions(match shell.as_str() {
                "bash" => Shell::Bash,
                "zsh" => Shell::Zsh,
                "fish" => Shell::Fish,
                other => return Err(UsageError(format!("no completions for '{other}'"))),
            }),
        })
    }
}

fn play_args(p: PlayCli) -> Result<PlayArgs, UsageError> {
    let mut play = match_flags(p.flags)?;
    if let (Some(file), Some(turn)) = (p.from, p.turn) {
        let setup_given = !play.game.is_empty()
            || play.seed.is_some()
            || play.ruleset.is_some()
            || !play.options.is_empty();
        if setup_given {
            return Err(UsageError(
                "--from takes the game and its setup from the replay: give only --turn and the bots"
                    .into(),
            ));
        }
        play.from = Some((file, turn));
    } else if play.game.is_empty() {
        return Err(UsageError("`play` needs --game GAME".into()));
    }
    play.replay = p.replay;
    Ok(play)
}

fn arena_command(a: ArenaCli) -> Result<Command, UsageError> {
    if let Some(ArenaSub::Merge { parts, json }) = a.merge {
        return Ok(Command::Merge { parts, json });
    }
    if a.replay.is_some() {
        return Err(UsageError(
            "`arena` writes one replay per match: use --replays DIR".into(),
        ));
    }
    if a.class.is_some() {
        return class_command(a);
    }
    let play = match_flags(a.flags)?;
    let count = |name: &str, example: &str, v: Option<String>| {
        v.map(|v| {
            v.parse::<usize>().ok().filter(|n| *n > 0).ok_or_else(|| {
                UsageError(format!(
                    "{name} must be a number such as {example}, not '{v}'"
                ))
            })
        })
        .transpose()
    };
    let matches = count("--matches", "100", a.matches)?;
    let jobs = count("--jobs", "2", a.jobs)?;
    let players = count("--players", "2", a.players)?;
    let shard = a.shard.map(|s| parse_shard(&s)).transpose()?;
    if play.game.is_empty() {
        return Err(UsageError("`arena` needs --game GAME".into()));
    }
    if play.bots.len() < 2 {
        return Err(UsageError(
            "`arena` needs at least two --bot SPEC (the same spec twice is fine)".into(),
        ));
    }
    let matches =
        matches.ok_or_else(|| UsageError("`arena` needs --matches N (per pair of bots)".into()))?;
    if shard.is_some() && a.json.is_none() {
        return Err(UsageError(
            "--shard needs --json FILE: `botplay arena merge` sums the shards' JSON".into(),
        ));
    }
    Ok(Command::Arena(ArenaArgs {
        play,
        matches,
        players,
        jobs,
        replays: a.replays,
        json: a.json,
        shard,
        class: None,
    }))
}

/// `arena --class FILE`: the class gives the set-up, the bots and the matches; only how the arena
/// runs (`--jobs`, `--shard`) and what it writes (`--json`, `--replays`) may be added.
fn class_command(a: ArenaCli) -> Result<Command, UsageError> {
    let f = &a.flags;
    let given: Vec<&str> = [
        ("--game", f.game.is_some()),
        ("--bot", !f.bots.is_empty()),
        ("--seed", f.seed.is_some()),
        ("--league", f.league.is_some()),
        ("--ruleset", f.ruleset.is_some()),
        ("--option", !f.options.is_empty()),
        ("--map", f.map.is_some()),
        ("--relaxed", f.relaxed),
        ("--bot-pty", f.bot_pty),
        ("--matches", a.matches.is_some()),
        ("--players", a.players.is_some()),
    ]
    .into_iter()
    .filter_map(|(flag, on)| on.then_some(flag))
    .collect();
    if !given.is_empty() {
        return Err(UsageError(format!(
            "--class takes the game, its set-up, the seed, the bots and the matches from the \
             class: drop {} (--jobs, --json, --replays and --shard may be given)",
            given.join(", ")
        )));
    }
    let jobs =
        a.jobs
            .map(|v| {
                v.parse::<usize>().ok().filter(|n| *n > 0).ok_or_else(|| {
                    UsageError(format!("--jobs must be a number such as 2, not '{v}'"))
                })
            })
            .transpose()?;
    let shard = a.shard.map(|s| parse_shard(&s)).transpose()?;
    if shard.is_some() && a.json.is_none() {
        return Err(UsageError(
            "--shard needs --json FILE: `botplay arena merge` sums the shards' JSON".into(),
        ));
    }
    Ok(Command::Arena(ArenaArgs {
        play: PlayArgs {
            wasm_memory: wasm_memory(f.wasm_memory.as_deref())?,
            ..PlayArgs::default()
        },
        matches: 0,
        players: None,
        jobs,
        replays: a.replays,
        json: a.json,
        shard,
        class: a.class,
    }))
}

/// `K/N` with 1 ≤ K ≤ N.
fn parse_shard(text: &str) -> Result<(usize, usize), UsageError> {
    let bad = || {
        UsageError(format!(
            "--shard must be K/N with 1 <= K <= N, such as 2/4, not '{text}'"
        ))
    };
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let k: usize = k.trim().parse().map_err(|_| bad())?;
    let n: usize = n.trim().parse().map_err(|_| bad())?;
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// `--wasm-memory MB`: from 1 MiB to 4 GiB (a 32-bit WebAssembly memory's most).
fn wasm_memory(v: Option<&str>) -> Result<Option<u64>, UsageError> {
    v.map(|v| {
        v.parse::<u64>()
            .ok()
            .filter(|mb| (1..=4096).contains(mb))
            .ok_or_else(|| {
                UsageError(format!(
                    "--wasm-memory must be a number of MiB from 1 to 4096, such as 768, not '{v}'"
                ))
            })
    })
    .transpose()
}

fn seed(v: &str) -> Result<i64, UsageError> {
    v.parse()
        .map_err(|_| UsageError(format!("--seed must be a signed 64-bit integer, not '{v}'")))
}

/// The flags `play` and `arena` share, checked.
fn match_flags(f: MatchFlags) -> Result<PlayArgs, UsageError> {
    let mut play = PlayArgs {
        game: f.game.unwrap_or_default(),
        seed: f.seed.as_deref().map(seed).transpose()?,
        relaxed: f.relaxed,
        bots: f.bots,
        bot_pty: f.bot_pty,
        wasm_memory: wasm_memory(f.wasm_memory.as_deref())?,
        ..PlayArgs::default()
    };
    play.ruleset = match (f.league, f.ruleset) {
        (Some(_), Some(_)) => {
            return Err(UsageError(
                "give --league or --ruleset once, not both".into(),
            ))
        }
        (Some(v), None) => {
            let level: u32 = v.parse().map_err(|_| {
                UsageError(format!("--league must be a number such as 3, not '{v}'"))
            })?;
            Some(format!("league-{level}"))
        }
        (None, ruleset) => ruleset,
    };
    for v in f.options {
        let (key, val) = v
            .split_once('=')
            .filter(|(k, _)| !k.trim().is_empty())
            .ok_or_else(|| UsageError(format!("--option needs KEY=VALUE, not '{v}'")))?;
        set_option(&mut play, key.trim(), val.trim())?;
    }
    if let Some(map) = f.map {
        set_option(&mut play, "map", &map)?;
    }
    Ok(play)
}

/// The page `botplay link` points at when no `--base` is given.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

fn host_args(h: HostCli) -> Result<HostArgs, UsageError> {
    let port = h.port.parse().map_err(|_| {
        UsageError(format!(
            "--port must be a port number (0 to 65535), not '{}'",
            h.port
        ))
    })?;
    let players = h
        .players
        .parse()
        .ok()
        .filter(|n| (1..=64).contains(n))
        .ok_or_else(|| {
            UsageError(format!(
                "--players must be a number such as 2, not '{}'",
                h.players
            ))
        })?;
    let rounds = h
        .rounds
        .map(|v| {
            v.parse()
                .map_err(|_| UsageError(format!("--rounds must be a number such as 50, not '{v}'")))
        })
        .transpose()?;
    let seed = h.seed.as_deref().map(seed).transpose()?;
    let game = h
        .game
        .ok_or_else(|| UsageError("`host` needs --game skyport".into()))?;
    Ok(HostArgs {
        game,
        port,
        players,
        seed,
        ruleset: h.ruleset,
        rounds,
        map: h.map,
        relaxed: h.relaxed,
        replay: h.replay,
    })
}

fn set_option(play: &mut PlayArgs, key: &str, value: &str) -> Result<(), UsageError> {
    if play.options.contains_key(key) {
        return Err(UsageError(format!("option '{key}' given twice")));
    }
    play.options.insert(key.to_string(), value.to_string());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    /// Each command line is refused, with a message that holds its needle.
    fn assert_refused(cases: &[(&str, &str)]) {
        for (line, needle) in cases {
            let err = parse(&args(line)).expect_err(line);
            assert!(err.0.contains(needle), "{line}: {}", err.0);
        }
    }

    #[test]
    fn the_clap_command_is_well_formed() {
        command().debug_assert();
    }

    #[test]
    fn play_with_every_flag() {
        let want = Command::Play(PlayArgs {
            game: "ice-and-fire".into(),
            seed: Some(-7),
            ruleset: Some("league-3".into()),
            options: BTreeMap::new(),
            relaxed: true,
            bots: vec!["builtin:wait".into(), "./me".into()],
            bot_pty: false,
            wasm_memory: Some(64),
            replay: Some("r.json".into()),
            from: None,
        });
        let cmd = parse(&args(
            "play --game ice-and-fire --seed -7 --league 3 --relaxed --bot builtin:wait --bot ./me --replay r.json --wasm-memory 64",
        ));
        assert_eq!(cmd, Ok(want));
        for bad in ["0", "4097", "lots"] {
            let Err(e) = parse(&args(&format!(
                "play --game ice-and-fire --wasm-memory {bad}"
            ))) else {
                panic!("--wasm-memory {bad} taken")
            };
            assert!(
                e.0.contains("--wasm-memory must be a number of MiB from 1 to 4096"),
                "{e}"
            );
        }
        // Taking over a recorded match: no --game, the setup is the replay's.
        let Ok(Command::Play(p)) = parse(&args(
            "play --from old.json --turn 80 --bot ./fixed --bot builtin:wait",
        )) else {
            panic!("parse --from")
        };
        assert_eq!(p.from, Some(("old.json".into(), 80)));
        assert!(p.game.is_empty());
        // --flag=value, and a negative number after `=`.
        let Ok(Command::Play(p)) = parse(&args(
            "play --game=ice-and-fire --seed=-7 --league=3 --bot=builtin:wait --bot ./me",
        )) else {
            panic!("parse")
        };
        assert_eq!((p.game.as_str(), p.seed), ("ice-and-fire", Some(-7)));
        assert_eq!(p.ruleset.as_deref(), Some("league-3"));
    }

    #[test]
    fn bad_command_lines_are_explained() {
        assert_refused(&[
            ("play --bot x", "needs --game"),
            ("play --game g --seed abc", "signed 64-bit"),
            (
                "play --game g --seed",
                "a value is required for '--seed <N>'",
            ),
            (
                "play --game g --speed 3",
                "unknown option '--speed' for `play`",
            ),
            ("play --game g --sed 3", "(did you mean '--seed'?)"),
            ("play --game g --league x", "--league must be a number"),
            ("play --game g --league 1 --ruleset b", "not both"),
            ("fly", "unknown command 'fly'"),
            ("paly", "unknown command 'paly' (did you mean 'play'"),
            ("replay", "required"),
            ("list --all", "unknown option '--all' for `list`"),
            ("link", "required"),
            ("link a b", "unexpected argument 'b'"),
            ("link a --base", "a value is required for '--base <URL>'"),
            ("link a --short", "unknown option '--short' for `link`"),
            ("completions tcsh", "invalid value 'tcsh'"),
            ("arena merge", "required"),
            (
                "play --from r.json --bot a",
                "missing the required --turn <N> for `play`",
            ),
            (
                "play --turn 3 --bot a",
                "missing the required --from <FILE> for `play`",
            ),
        ]);
    }

    #[test]
    fn help_is_printed_not_an_error() {
        for line in ["help", "help play", "play --help", "arena -h", "--help", ""] {
            match parse(&args(line)) {
                Ok(Command::Print(text)) => assert!(text.contains("Usage"), "{line}: {text}"),
                other => panic!("{line}: {other:?}"),
            }
        }
        let Ok(Command::Print(play)) = parse(&args("help play")) else {
            panic!("help play")
        };
        assert!(play.contains("--replay <FILE>") && play.contains("--option <KEY=VALUE>"));
        let Ok(Command::Print(arena)) = parse(&args("arena --help")) else {
            panic!("arena --help")
        };
        assert!(arena.contains("--shard <K/N>") && arena.contains("merge"));
        assert!(!arena.contains("--replay <"), "the refused flag is hidden");
    }

    #[test]
    fn link_has_a_default_base() {
        assert_eq!(
            parse(&args("link m.json")),
            Ok(Command::Link {
                file: "m.json".into(),
                base: DEFAULT_BASE.into(),
                keep_paths: false,
            })
        );
        assert_eq!(
            parse(&args("link --base https://x.org/play/ m.json")),
            Ok(Command::Link {
                file: "m.json".into(),
                base: "https://x.org/play/".into(),
                keep_paths: false,
            })
        );
    }

    #[test]
    fn host_with_every_flag_and_defaults() {
        let cmd = parse(&args(
            "host --game skyport --port 0 --players 3 --seed 9 --ruleset tg2013 --rounds 4 --map triad-3p --relaxed --replay r.json",
        ));
        assert_eq!(
            cmd,
            Ok(Command::Host(HostArgs {
                game: "skyport".into(),
                port: 0,
                players: 3,
                seed: Some(9),
                ruleset: Some("tg2013".into()),
                rounds: Some(4),
                map: Some("triad-3p".into()),
                relaxed: true,
                replay: Some("r.json".into()),
            }))
        );
        match parse(&args("host --game skyport")) {
            Ok(Command::Host(h)) => assert_eq!((h.port, h.players, h.seed), (54321, 2, None)),
            other => panic!("{other:?}"),
        }
        assert_refused(&[
            ("host", "needs --game"),
            ("host --game skyport --port 70000", "--port must be"),
            ("host --game skyport --players x", "--players must be"),
            (
                "host --game skyport --fast",
                "unknown option '--fast' for `host`",
            ),
        ]);
    }

    #[test]
    fn options_and_the_map_shorthand() {
        let cmd = parse(&args(
            "play --game crafting-quest --seed 4 --map v2 --option rounds=30 --option size=80 --bot a --bot b",
        ));
        let Ok(Command::Play(play)) = cmd else {
            panic!("{cmd:?}");
        };
        let want: BTreeMap<String, String> = [("map", "v2"), ("rounds", "30"), ("size", "80")]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert_eq!(play.options, want);
        assert_eq!(play.bots, ["a", "b"]);
        // A value may itself hold '='.
        let Ok(Command::Play(play)) = parse(&args("play --game g --option note=a=b")) else {
            panic!("parse");
        };
        assert_eq!(play.options["note"], "a=b");
        assert_refused(&[
            ("play --game g --option", "a value is required"),
            ("play --game g --option map", "KEY=VALUE"),
            ("play --game g --option =v1", "KEY=VALUE"),
            ("play --game g --map", "a value is required"),
            ("play --game g --map v1 --option map=v2", "given twice"),
            (
                "play --game g --option size=60 --option size=70",
                "given twice",
            ),
        ]);
    }

    #[test]
    fn arena_takes_the_play_flags_and_its_own() {
        let cmd = parse(&args(
            "arena --game skyport --seed 3 --ruleset tg2013 --map triad-3p --relaxed --bot builtin:gunner --bot a --bot b --matches 30 --players 3 --jobs 4 --replays out --json r.json --shard 2/3",
        ));
        let Ok(Command::Arena(a)) = cmd else {
            panic!("{cmd:?}");
        };
        assert_eq!(
            (
                a.play.game.as_str(),
                a.play.seed,
                a.play.ruleset.as_deref(),
                a.play.relaxed
            ),
            ("skyport", Some(3), Some("tg2013"), true)
        );
        assert_eq!(a.play.options["map"], "triad-3p");
        assert_eq!(a.play.bots, ["builtin:gunner", "a", "b"]);
        assert_eq!(
            (
                a.matches,
                a.players,
                a.jobs,
                a.replays.as_deref(),
                a.json.as_deref(),
                a.shard
            ),
            (
                30,
                Some(3),
                Some(4),
                Some("out"),
                Some("r.json"),
                Some((2, 3))
            )
        );
        assert_eq!(
            parse(&args("arena merge a.json b.json --json all.json")),
            Ok(Command::Merge {
                parts: vec!["a.json".into(), "b.json".into()],
                json: Some("all.json".into())
            })
        );
        assert_refused(&[
            ("arena --bot a --bot b --matches 2", "`arena` needs --game"),
            ("arena --game g --bot a --matches 2", "at least two --bot"),
            ("arena --game g --bot a --bot b", "needs --matches"),
            (
                "arena --game g --bot a --bot b --matches -1",
                "--matches must be a number",
            ),
            (
                "arena --game g --bot a --bot b --matches 2 --players 0",
                "--players must be",
            ),
            (
                "arena --game g --bot a --bot b --matches 2 --jobs",
                "a value is required for '--jobs <J>'",
            ),
            (
                "arena --game g --bot a --bot b --matches 2 --replay x",
                "--replays DIR",
            ),
            (
                "arena --game g --bot a --bot b --matches 2 --speed 2",
                "unknown option '--speed' for `arena`",
            ),
            (
                "arena --game g --bot a --bot b --matches 2 --shard 0/4 --json x",
                "--shard must be K/N",
            ),
            (
                "arena --game g --bot a --bot b --matches 2 --shard 5/4 --json x",
                "--shard must be K/N",
            ),
            (
                "arena --game g --bot a --bot b --matches 2 --shard 1/4",
                "--shard needs --json FILE",
            ),
        ]);
    }

    #[test]
    fn a_class_takes_the_place_of_the_set_up_flags() {
        let cmd = parse(&args(
            "arena --class c.json --jobs 2 --json r.json --shard 1/2 --replays out",
        ));
        let Ok(Command::Arena(a)) = cmd else {
            panic!("{cmd:?}");
        };
        assert_eq!(a.class.as_deref(), Some("c.json"));
        assert_eq!(
            (a.jobs, a.json.as_deref(), a.shard, a.replays.as_deref()),
            (Some(2), Some("r.json"), Some((1, 2)), Some("out"))
        );
        assert_eq!(a.play, PlayArgs::default());
        assert_refused(&[
            ("arena --class c.json --game g", "drop --game"),
            (
                "arena --class c.json --bot a --option k=v --map m --league 2",
                "drop --bot, --league, --option, --map",
            ),
            ("arena --class c.json --bot-pty", "drop --bot-pty"),
            ("arena --class c.json --shard 1/2", "--shard needs --json"),
        ]);
    }

    #[test]
    fn completions_for_three_shells() {
        for (name, shell) in [
            ("bash", Shell::Bash),
            ("zsh", Shell::Zsh),
            ("fish", Shell::Fish),
        ] {
            assert_eq!(
                parse(&args(&format!("completions {name}"))),
                Ok(Command::Completions(shell))
            );
        }
    }
}
