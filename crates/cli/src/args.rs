//! The command line, parsed by hand: a few subcommands with long flags.

use std::collections::BTreeMap;
use std::fmt;

pub const USAGE: &str = "\
botplay: run bot matches on the botplay engines

USAGE:
    botplay list [--bots]
    botplay play --game GAME [--seed N] [--league L] [--option KEY=VALUE]... [--map NAME] [--relaxed] --bot SPEC --bot SPEC [--bot SPEC ...] [--replay FILE]
    botplay arena --game GAME --bot SPEC --bot SPEC [--bot SPEC ...] --matches N [--jobs J] [--seed S] [--players P] [--replays DIR] [--json FILE] [--league L] [--option KEY=VALUE]... [--map NAME] [--relaxed]
    botplay replay FILE
    botplay link FILE [--base URL]
    botplay host --game skyport [--port P] [--players N] [--seed N] [--ruleset R] [--rounds N] [--map NAME] [--relaxed] [--replay FILE]
    botplay help

BOT SPEC:
    builtin:NAME    a built-in bot (see `botplay list --bots`)
    COMMAND         any command line (run through `sh -c`) that speaks the game's protocol on
                    stdin/stdout; stderr is captured into the replay. A lone `*.js` file runs
                    under Node with CodinGame's global readline() and print().

OPTIONS (play):
    --game GAME     a game id from `botplay list`
    --seed N        the match seed, a signed 64-bit integer (default: random, printed on stderr)
    --league L      the league (ruleset league-L) of games that have leagues
    --ruleset R     a ruleset by name (alternative to --league)
    --option K=V    a game option (repeatable), for example map=v2 or size=80 in Crafting Quest 3
    --map NAME      short for --option map=NAME (Crafting Quest 3: v1, v2, v3, generated)
    --relaxed       multiply the time budgets by 10
    --replay FILE   write the replay (JSON) to FILE; the web viewer opens it

OPTIONS (arena): many matches between the bots, a table of results and ratings
    --matches N     matches per pair of bots (per group of P bots with --players P); each
                    seed is played once in every seating (rotations of the group), so N is
                    best a multiple of P
    --players P     seats per match (default: the game's fewest); every group of P different
                    bots plays (give a bot twice to seat it twice)
    --jobs J        matches played at once (default: the machine's cores)
    --seed S        derives every match's seed (default: random, printed on stderr)
    --replays DIR   write every match's replay to DIR/match-NNNN.json
    --json FILE     write the results as JSON to FILE (`-`: to stdout instead of the table)
    --game, --league, --ruleset, --option, --map, --relaxed, --bot as for `play`
    Ctrl-C stops the matches in flight (their bots are killed) and prints what was played
    (exit status 130).

OPTIONS (link):
    --base URL      the address of the botplay page the link opens (default: the local
                    server of `cargo xtask serve`, http://127.0.0.1:8080/)
OPTIONS (host): plays a Skyport match with the original clients over TCP
    --port P        listen on 127.0.0.1:P (default 54321; 0 picks a free port, printed on stderr)
    --players N     wait for N clients (2 to 8, default 2); seats go by connection order
    --rounds N      rounds to play (default 50); --map NAME a shipped map (default: by players)
    --seed, --ruleset, --relaxed, --replay as for `play`

EXIT STATUS:
    0 the match ran (whoever won); 1 a bot or file could not be used; 2 bad usage or a refused replay
";

/// A parsed command line.
#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    List { bots: bool },
    Play(PlayArgs),
    Arena(ArenaArgs),
    Replay { file: String },
    Link { file: String, base: String },
    Host(HostArgs),
    Help,
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
    pub replay: Option<String>,
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

pub fn parse(args: &[String]) -> Result<Command, UsageError> {
    let Some((first, rest)) = args.split_first() else {
        return Ok(Command::Help);
    };
    match first.as_str() {
        "help" | "--help" | "-h" => Ok(Command::Help),
        "list" => match rest {
            [] => Ok(Command::List { bots: false }),
            [flag] if flag == "--bots" => Ok(Command::List { bots: true }),
            _ => Err(UsageError(format!(
                "`list` takes only --bots, not {}",
                rest.join(" ")
            ))),
        },
        "replay" => match rest {
            [file] if !file.starts_with("--") => Ok(Command::Replay { file: file.clone() }),
            _ => Err(UsageError("`replay` takes exactly one FILE".into())),
        },
        "play" => parse_play(rest).map(Command::Play),
        "arena" => parse_arena(rest).map(Command::Arena),
        "link" => parse_link(rest),
        "host" => parse_host(rest).map(Command::Host),
        other => Err(UsageError(format!("unknown command '{other}'"))),
    }
}

fn parse_play(args: &[String]) -> Result<PlayArgs, UsageError> {
    let mut play = PlayArgs::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| UsageError(format!("{name} needs a value")))
        };
        if match_flag(&mut play, flag, &mut value)? {
            continue;
        }
        match flag.as_str() {
            "--replay" => play.replay = Some(value("--replay")?),
            other => return Err(UsageError(format!("unknown option '{other}' for `play`"))),
        }
    }
    if play.game.is_empty() {
        return Err(UsageError("`play` needs --game GAME".into()));
    }
    Ok(play)
}

fn parse_arena(args: &[String]) -> Result<ArenaArgs, UsageError> {
    let mut arena = ArenaArgs::default();
    let mut matches = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| UsageError(format!("{name} needs a value")))
        };
        if match_flag(&mut arena.play, flag, &mut value)? {
            continue;
        }
        let mut count = |name: &str, example: &str| {
            let v = value(name)?;
            v.parse::<usize>().ok().filter(|n| *n > 0).ok_or_else(|| {
                UsageError(format!(
                    "{name} must be a number such as {example}, not '{v}'"
                ))
            })
        };
        match flag.as_str() {
            "--matches" => matches = Some(count("--matches", "100")?),
            "--jobs" => arena.jobs = Some(count("--jobs", "2")?),
            "--players" => arena.players = Some(count("--players", "2")?),
            "--replays" => arena.replays = Some(value("--replays")?),
            "--json" => arena.json = Some(value("--json")?),
            "--replay" => {
                return Err(UsageError(
                    "`arena` writes one replay per match: use --replays DIR".into(),
                ))
            }
            other => return Err(UsageError(format!("unknown option '{other}' for `arena`"))),
        }
    }
    if arena.play.game.is_empty() {
        return Err(UsageError("`arena` needs --game GAME".into()));
    }
    if arena.play.bots.len() < 2 {
        return Err(UsageError(
            "`arena` needs at least two --bot SPEC (the same spec twice is fine)".into(),
        ));
    }
    arena.matches =
        matches.ok_or_else(|| UsageError("`arena` needs --matches N (per pair of bots)".into()))?;
    Ok(arena)
}

/// The flags `play` and `arena` share; `Ok(false)` when `flag` is not one of them.
fn match_flag(
    play: &mut PlayArgs,
    flag: &str,
    value: &mut dyn FnMut(&str) -> Result<String, UsageError>,
) -> Result<bool, UsageError> {
    match flag {
        "--game" => play.game = value("--game")?,
        "--seed" => {
            let v = value("--seed")?;
            let seed = v.parse().map_err(|_| {
                UsageError(format!("--seed must be a signed 64-bit integer, not '{v}'"))
            })?;
            play.seed = Some(seed);
        }
        "--league" => {
            let v = value("--league")?;
            let level: u32 = v.parse().map_err(|_| {
                UsageError(format!("--league must be a number such as 3, not '{v}'"))
            })?;
            set_ruleset(play, format!("league-{level}"))?;
        }
        "--ruleset" => {
            let v = value("--ruleset")?;
            set_ruleset(play, v)?;
        }
        "--option" => {
            let v = value("--option")?;
            let (key, val) = v
                .split_once('=')
                .filter(|(k, _)| !k.trim().is_empty())
                .ok_or_else(|| UsageError(format!("--option needs KEY=VALUE, not '{v}'")))?;
            set_option(play, key.trim(), val.trim())?;
        }
        "--map" => {
            let v = value("--map")?;
            set_option(play, "map", &v)?;
        }
        "--relaxed" => play.relaxed = true,
        "--bot" => play.bots.push(value("--bot")?),
        _ => return Ok(false),
    }
    Ok(true)
}

/// The page `botplay link` points at when no `--base` is given.
pub const DEFAULT_BASE: &str = "http://127.0.0.1:8080/";

fn parse_link(args: &[String]) -> Result<Command, UsageError> {
    let mut file = None;
    let mut base = DEFAULT_BASE.to_string();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--base" => {
                base = it
                    .next()
                    .cloned()
                    .ok_or_else(|| UsageError("--base needs a value".into()))?
            }
            flag if flag.starts_with("--") => {
                return Err(UsageError(format!("unknown option '{flag}' for `link`")))
            }
            _ if file.is_some() => return Err(UsageError("`link` takes exactly one FILE".into())),
            _ => file = Some(arg.clone()),
        }
    }
    let file = file.ok_or_else(|| UsageError("`link` takes exactly one FILE".into()))?;
    Ok(Command::Link { file, base })
}

fn parse_host(args: &[String]) -> Result<HostArgs, UsageError> {
    let mut host = HostArgs {
        game: String::new(),
        port: 54321,
        players: 2,
        seed: None,
        ruleset: None,
        rounds: None,
        map: None,
        relaxed: false,
        replay: None,
    };
    let mut game = None;
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| UsageError(format!("{name} needs a value")))
        };
        match flag.as_str() {
            "--game" => game = Some(value("--game")?),
            "--port" => {
                let v = value("--port")?;
                host.port = v.parse().map_err(|_| {
                    UsageError(format!(
                        "--port must be a port number (0 to 65535), not '{v}'"
                    ))
                })?;
            }
            "--players" => {
                let v = value("--players")?;
                host.players =
                    v.parse()
                        .ok()
                        .filter(|n| (1..=64).contains(n))
                        .ok_or_else(|| {
                            UsageError(format!("--players must be a number such as 2, not '{v}'"))
                        })?;
            }
            "--seed" => {
                let v = value("--seed")?;
                let seed = v.parse().map_err(|_| {
                    UsageError(format!("--seed must be a signed 64-bit integer, not '{v}'"))
                })?;
                host.seed = Some(seed);
            }
            "--ruleset" => host.ruleset = Some(value("--ruleset")?),
            "--rounds" => {
                let v = value("--rounds")?;
                host.rounds = Some(v.parse().map_err(|_| {
                    UsageError(format!("--rounds must be a number such as 50, not '{v}'"))
                })?);
            }
            "--map" => host.map = Some(value("--map")?),
            "--relaxed" => host.relaxed = true,
            "--replay" => host.replay = Some(value("--replay")?),
            other => return Err(UsageError(format!("unknown option '{other}' for `host`"))),
        }
    }
    host.game = game.ok_or_else(|| UsageError("`host` needs --game skyport".into()))?;
    Ok(host)
}

fn set_option(play: &mut PlayArgs, key: &str, value: &str) -> Result<(), UsageError> {
    if play.options.contains_key(key) {
        return Err(UsageError(format!("option '{key}' given twice")));
    }
    play.options.insert(key.to_string(), value.to_string());
    Ok(())
}

fn set_ruleset(play: &mut PlayArgs, ruleset: String) -> Result<(), UsageError> {
    if play.ruleset.is_some() {
        return Err(UsageError(
            "give --league or --ruleset once, not both".into(),
        ));
    }
    play.ruleset = Some(ruleset);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn play_with_every_flag() {
        let cmd = parse(&args(
            "play --game ice-and-fire --seed -7 --league 3 --relaxed --bot builtin:wait --bot ./me --replay r.json",
        ));
        assert_eq!(
            cmd,
            Ok(Command::Play(PlayArgs {
                game: "ice-and-fire".into(),
                seed: Some(-7),
                ruleset: Some("league-3".into()),
                options: BTreeMap::new(),
                relaxed: true,
                bots: vec!["builtin:wait".into(), "./me".into()],
                replay: Some("r.json".into()),
            }))
        );
    }

    #[test]
    fn bad_command_lines_are_explained() {
        for (line, needle) in [
            ("play --bot x", "needs --game"),
            ("play --game g --seed abc", "signed 64-bit"),
            ("play --game g --seed", "needs a value"),
            ("play --game g --speed 3", "unknown option '--speed'"),
            ("play --game g --league x", "--league must be a number"),
            ("play --game g --league 1 --ruleset b", "not both"),
            ("fly", "unknown command 'fly'"),
            ("replay", "exactly one FILE"),
            ("list --all", "only --bots"),
            ("link", "exactly one FILE"),
            ("link a b", "exactly one FILE"),
            ("link a --base", "--base needs a value"),
            ("link a --short", "unknown option '--short'"),
        ] {
            let err = parse(&args(line)).expect_err(line);
            assert!(err.0.contains(needle), "{line}: {}", err.0);
        }
    }

    #[test]
    fn link_has_a_default_base() {
        assert_eq!(
            parse(&args("link m.json")),
            Ok(Command::Link {
                file: "m.json".into(),
                base: DEFAULT_BASE.into()
            })
        );
        assert_eq!(
            parse(&args("link --base https://x.org/play/ m.json")),
            Ok(Command::Link {
                file: "m.json".into(),
                base: "https://x.org/play/".into()
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
        for (line, needle) in [
            ("host", "needs --game"),
            ("host --game skyport --port 70000", "--port must be"),
            ("host --game skyport --players x", "--players must be"),
            (
                "host --game skyport --fast",
                "unknown option '--fast' for `host`",
            ),
        ] {
            let err = parse(&args(line)).expect_err(line);
            assert!(err.0.contains(needle), "{line}: {}", err.0);
        }
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
        for (line, needle) in [
            ("play --game g --option", "needs a value"),
            ("play --game g --option map", "KEY=VALUE"),
            ("play --game g --option =v1", "KEY=VALUE"),
            ("play --game g --map", "needs a value"),
            ("play --game g --map v1 --option map=v2", "given twice"),
            (
                "play --game g --option size=60 --option size=70",
                "given twice",
            ),
        ] {
            let err = parse(&args(line)).expect_err(line);
            assert!(err.0.contains(needle), "{line}: {}", err.0);
        }
        assert!(USAGE.contains("--option K=V") && USAGE.contains("--map NAME"));
    }

    #[test]
    fn arena_takes_the_play_flags_and_its_own() {
        let cmd = parse(&args(
            "arena --game skyport --seed 3 --ruleset tg2013 --map triad-3p --relaxed --bot builtin:gunner --bot a --bot b --matches 30 --players 3 --jobs 4 --replays out --json r.json",
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
                a.json.as_deref()
            ),
            (30, Some(3), Some(4), Some("out"), Some("r.json"))
        );
        for (line, needle) in [
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
                "--jobs needs a value",
            ),
            (
                "arena --game g --bot a --bot b --matches 2 --replay x",
                "--replays DIR",
            ),
            (
                "arena --game g --bot a --bot b --matches 2 --speed 2",
                "unknown option '--speed' for `arena`",
            ),
        ] {
            let err = parse(&args(line)).expect_err(line);
            assert!(err.0.contains(needle), "{line}: {}", err.0);
        }
        assert!(USAGE.contains("botplay arena --game GAME"));
    }

    #[test]
    fn no_arguments_means_help() {
        assert_eq!(parse(&[]), Ok(Command::Help));
    }
}
