//! Share links: a match's setup, its bots (code or built-in names) and optionally its replay
//! and a turn to open at, in a URL fragment. Nothing goes to a server.
//!
//! A link's fragment is `b1.` followed by the base64url (no padding) of the deflated JSON of a
//! [`ShareDoc`]. The `b1` prefix names the link format, so a link from a newer botplay is
//! recognised and refused with a clear message before anything else is read. Decoding never
//! panics and never inflates beyond [`MAX_JSON_BYTES`].

use std::fmt;

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::game::Setup;
use crate::replay::Replay;

/// The link format this build writes and reads.
pub const LINK_FORMAT: u32 = 1;
/// The longest fragment accepted (browsers handle URLs of about 2 MB).
pub const MAX_LINK_CHARS: usize = 1_500_000;
/// The largest document a link may inflate to.
pub const MAX_JSON_BYTES: usize = 16 * 1024 * 1024;

/// A bot as a link carries it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum SharedBot {
    /// A built-in bot of the game.
    Builtin { name: String },
    /// Code written in the page.
    Code {
        name: String,
        language: String,
        code: String,
    },
    /// A local program (from a CLI match): only its name; its replay shows what it did.
    Program { name: String },
}

impl SharedBot {
    /// The bot a replay names: `builtin:NAME` is a built-in bot; any other name only names a
    /// bot (a local program, or code the replay does not carry).
    pub fn of_replay_name(name: &str) -> SharedBot {
        match name.strip_prefix("builtin:") {
            Some(builtin) => SharedBot::Builtin {
                name: builtin.to_string(),
            },
            None => SharedBot::Program {
                name: name.to_string(),
            },
        }
    }

    pub fn name(&self) -> &str {
        match self {
            SharedBot::Builtin { name }
            | SharedBot::Code { name, .. }
            | SharedBot::Program { name } => name,
        }
    }
}

/// What a share link carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShareDoc {
    pub setup: Setup,
    #[serde(default)]
    pub relaxed: bool,
    /// One per seat.
    pub bots: Vec<SharedBot>,
    /// The played match, to show it without running any bot.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<Replay>,
    /// The frame to open at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<usize>,
    /// A teacher's lesson: the set-up and bots are the students' starting point, with an
    /// instruction shown above the editor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lesson: Option<Lesson>,
}

/// A lesson a link hands out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lesson {
    pub title: String,
    /// The instruction, plain text (line breaks kept).
    pub text: String,
}

/// The longest lesson title and instruction a link carries, in characters.
pub const MAX_LESSON_TITLE: usize = 200;
pub const MAX_LESSON_TEXT: usize = 4_000;

impl Lesson {
    /// A lesson within the limits, or why not.
    pub fn new(title: &str, text: &str) -> Result<Lesson, String> {
        let (title, text) = (title.trim(), text.trim());
        if title.is_empty() {
            return Err("a lesson needs a title".into());
        }
        if title.chars().count() > MAX_LESSON_TITLE {
            return Err(format!(
                "a lesson title has at most {MAX_LESSON_TITLE} characters"
            ));
        }
        if text.chars().count() > MAX_LESSON_TEXT {
            return Err(format!(
                "a lesson's instruction has at most {MAX_LESSON_TEXT} characters"
            ));
        }
        Ok(Lesson {
            title: title.to_string(),
            text: text.to_string(),
        })
    }
}

/// Why a link cannot be opened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ShareError {
    /// The fragment is empty.
    Empty,
    /// The fragment is not a botplay link.
    NotALink,
    /// Made by a newer botplay.
    NewerFormat { found: u32 },
    /// Longer than a link may be.
    TooLarge,
    /// Cut short or altered.
    Damaged(String),
}

impl fmt::Display for ShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShareError::Empty => write!(f, "the link carries no match"),
            ShareError::NotALink => write!(f, "this is not a botplay match link"),
            ShareError::NewerFormat { found } => write!(
                f,
                "this link was made by a newer botplay (link format {found}; this one reads {LINK_FORMAT}); open it with the newer version"
            ),
            ShareError::TooLarge => write!(f, "this link is too large to open"),
            ShareError::Damaged(why) => {
                write!(f, "this link is damaged (perhaps cut short when copied): {why}")
            }
        }
    }
}

impl std::error::Error for ShareError {}

/// A link's fragment: `prefix` (a letter naming what the link carries and the format's
/// number, such as `b1`), a dot, and the base64url (no padding) of the deflated `json`.
pub fn pack(prefix: &str, json: &[u8]) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(json, 9);
    format!("{prefix}.{}", URL_SAFE_NO_PAD.encode(packed))
}

/// The JSON a link made by [`pack`] with this `prefix` carries (of at most [`MAX_JSON_BYTES`]);
/// `link` is a fragment (with or without `#`) or a whole URL. A prefix of the same letter and a
/// higher number is a newer format; anything else is not such a link.
pub fn unpack(prefix: &str, link: &str) -> Result<Vec<u8>, ShareError> {
    let fragment = link.rsplit_once('#').map_or(link, |(_, f)| f).trim();
    if fragment.is_empty() {
        return Err(ShareError::Empty);
    }
    if fragment.len() > MAX_LINK_CHARS {
        return Err(ShareError::TooLarge);
    }
    let split = |p: &str| -> Option<(char, u32)> {
        let letter = p.chars().next()?;
        Some((letter, p[letter.len_utf8()..].parse().ok()?))
    };
    let (letter, known) = split(prefix).ok_or(ShareError::NotALink)?;
    let (found_prefix, data) = fragment.split_once('.').ok_or(ShareError::NotALink)?;
    let (found_letter, found) = split(found_prefix).ok_or(ShareError::NotALink)?;
    if found_letter != letter || found == 0 {
        return Err(ShareError::NotALink);
    }
    if found > known {
        return Err(ShareError::NewerFormat { found });
    }
    let packed = URL_SAFE_NO_PAD
        .decode(data)
        .map_err(|e| ShareError::Damaged(format!("not base64url ({e})")))?;
    miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_JSON_BYTES).map_err(|e| match e
        .status
    {
        miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ShareError::TooLarge,
        _ => ShareError::Damaged("the compressed data is incomplete".into()),
    })
}

impl ShareDoc {
    /// The document of a replay: its setup, its bots by name, the whole match.
    pub fn of_replay(replay: Replay) -> ShareDoc {
        let bots = replay
            .bots
            .iter()
            .map(|name| SharedBot::of_replay_name(name))
            .collect();
        ShareDoc {
            setup: replay.setup.clone(),
            relaxed: replay.relaxed,
            bots,
            replay: Some(replay),
            turn: None,
            lesson: None,
        }
    }

    /// The URL fragment (without `#`).
    pub fn encode(&self) -> String {
        let json = serde_json::to_vec(self).unwrap_or_default();
        pack(&format!("b{LINK_FORMAT}"), &json)
    }

    /// Reads a URL fragment (with or without `#`), or a whole URL.
    pub fn decode(link: &str) -> Result<ShareDoc, ShareError> {
        let json = unpack(&format!("b{LINK_FORMAT}"), link)?;
        let doc: ShareDoc = serde_json::from_slice(&json)
            .map_err(|e| ShareError::Damaged(format!("unreadable contents ({e})")))?;
        if let Some(lesson) = &doc.lesson {
            if Lesson::new(&lesson.title, &lesson.text).as_ref() != Ok(lesson) {
                return Err(ShareError::Damaged(
                    "the lesson's title or instruction is empty, untrimmed or too long".into(),
                ));
            }
        }
        if doc.bots.len() != doc.setup.seats {
            return Err(ShareError::Damaged(format!(
                "{} bots for {} seats",
                doc.bots.len(),
                doc.setup.seats
            )));
        }
        Ok(doc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> ShareDoc {
        ShareDoc {
            setup: Setup {
                game: "ice-and-fire".into(),
                ruleset: "league-4".into(),
                seed: -7,
                seats: 2,
                options: Default::default(),
            },
            relaxed: true,
            bots: vec![
                SharedBot::Code {
                    name: "your bot".into(),
                    language: "python".into(),
                    code: "print('WAIT')\n# é ü 漢字\n".repeat(20),
                },
                SharedBot::Builtin {
                    name: "expander".into(),
                },
            ],
            replay: None,
            turn: Some(12),
            lesson: None,
        }
    }

    #[test]
    fn links_round_trip_and_compress() {
        let d = doc();
        let link = d.encode();
        assert!(link.starts_with("b1."));
        assert!(link.len() < 400, "compressed: {} chars", link.len());
        assert!(link[3..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'));
        assert_eq!(ShareDoc::decode(&link), Ok(d.clone()));
        assert_eq!(ShareDoc::decode(&format!("#{link}")), Ok(d.clone()));
        assert_eq!(
            ShareDoc::decode(&format!("https://example.org/botplay/#{link}")),
            Ok(d)
        );
    }

    #[test]
    fn bad_links_get_clear_errors() {
        let link = doc().encode();
        assert_eq!(ShareDoc::decode(""), Err(ShareError::Empty));
        assert_eq!(ShareDoc::decode("#"), Err(ShareError::Empty));
        assert_eq!(ShareDoc::decode("#hello"), Err(ShareError::NotALink));
        assert_eq!(ShareDoc::decode("x1.abc"), Err(ShareError::NotALink));
        assert_eq!(
            ShareDoc::decode(&link.replacen("b1.", "b7.", 1)),
            Err(ShareError::NewerFormat { found: 7 })
        );
        assert!(matches!(
            ShareDoc::decode(&link[..link.len() / 2]),
            Err(ShareError::Damaged(_))
        ));
        assert!(matches!(
            ShareDoc::decode("b1.!!!"),
            Err(ShareError::Damaged(_))
        ));
        assert_eq!(
            ShareDoc::decode(&"b1.".repeat(MAX_LINK_CHARS)),
            Err(ShareError::TooLarge)
        );
        let text = ShareError::NewerFormat { found: 7 }.to_string();
        assert!(text.contains("newer botplay"), "{text}");
    }

    #[test]
    fn a_small_link_cannot_inflate_without_bound() {
        let bomb = vec![b' '; MAX_JSON_BYTES + 1];
        let link = format!(
            "b1.{}",
            URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&bomb, 9))
        );
        assert!(link.len() < 100_000);
        assert_eq!(ShareDoc::decode(&link), Err(ShareError::TooLarge));
    }

    #[test]
    fn documents_with_the_wrong_number_of_bots_are_damaged() {
        let mut d = doc();
        d.bots.pop();
        assert!(matches!(
            ShareDoc::decode(&d.encode()),
            Err(ShareError::Damaged(_))
        ));
    }

    #[test]
    fn a_lesson_travels_with_the_link_and_is_checked() {
        let mut d = doc();
        d.lesson = Some(Lesson::new(" Lesson 1 ", "Train a unit.\nThen move it.").unwrap());
        let back = ShareDoc::decode(&d.encode()).unwrap();
        assert_eq!(back, d);
        assert_eq!(back.lesson.unwrap().title, "Lesson 1");
        assert!(Lesson::new("  ", "x").is_err());
        assert!(Lesson::new("t", &"x".repeat(MAX_LESSON_TEXT + 1)).is_err());
        // A hand-made link with an oversized lesson is refused as damaged.
        d.lesson = Some(Lesson {
            title: "t".repeat(MAX_LESSON_TITLE + 1),
            text: String::new(),
        });
        assert!(matches!(
            ShareDoc::decode(&d.encode()),
            Err(ShareError::Damaged(_))
        ));
    }
}
