//! Frames: what the viewer draws after each step, built only when something reads it.
//!
//! A game keeps, per step, a [`Scene`]: whatever it needs to write the step's events, the
//! seats' status lines, the board as text and the painter's view later (most games keep a copy
//! of their own state, which costs far less than writing all four). A frame is read through
//! [`Frame::events`], [`Frame::status`], [`Frame::text`] and [`Frame::view_json`]; a referee
//! that keeps a frame per step (the page, `botplay play`) so pays for the pictures someone looks
//! at, not for every step.
//!
//! Where its scene is kept, a frame hands its view to a painter as the game's own view type
//! ([`Frame::view`]), with no JSON in between. Frames travel (from the match worker to the page)
//! as JSON: with every part written out, or with only their numbers ([`Frame::numbers_only`]:
//! the turn, who is out, the key numbers) when nobody looks at their picture yet. A frame read
//! back from JSON holds those parts as they came ([`Frame`]'s `Deserialize`;
//! [`Frame::has_picture`] tells which), and the painters read the view's JSON text straight into
//! their game's view type.

use std::any::Any;
use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// What a game keeps of a step to draw it later. Each method writes its part when asked.
pub trait Scene: Send + Sync {
    /// The events of the step that led here, in plain words.
    fn events(&self) -> Vec<String>;
    /// Per seat: a short status ("gold 21, income 1", "out: timeout").
    fn status(&self) -> Vec<String>;
    /// The board as text (the CLI prints it; screen readers can read it).
    fn text(&self) -> String;
    /// The per-game picture for the painters: the game's own view type as JSON text.
    fn view_json(&self) -> String;
    /// The same picture as the game's own view type (the one `view_json` writes), for a painter
    /// where the scene is kept: it takes it as it is, with no JSON in between.
    fn view(&self) -> Box<dyn Any>;
    /// The game's key numbers per seat after the step: its score and what decides it.
    fn stats(&self) -> Vec<Stat>;
}

/// One of a game's key numbers after a step, per seat: the page's charts of a match and
/// `botplay replay --stats` read them. A game gives the same names, in the same order, after
/// every step. In JSON, a pair: `["gold",[21,7]]` (a frame carries a few of them per step).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(from = "(String, Vec<i64>)")]
pub struct Stat {
    /// Short, lower case, for a chart's legend and a CSV column: "gold", "territory" (the
    /// game's own text; owned once read back from JSON).
    pub name: Cow<'static, str>,
    /// Per seat.
    pub values: Vec<i64>,
}

impl From<(String, Vec<i64>)> for Stat {
    fn from((name, values): (String, Vec<i64>)) -> Stat {
        Stat {
            name: Cow::Owned(name),
            values,
        }
    }
}

impl Serialize for Stat {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (&self.name, &self.values).serialize(serializer)
    }
}

impl Stat {
    /// The stat `name` with one value per seat.
    pub fn new(name: &'static str, values: impl IntoIterator<Item = i64>) -> Stat {
        Stat {
            name: Cow::Borrowed(name),
            values: values.into_iter().collect(),
        }
    }
}

/// What the viewer draws after one step: a per-game picture plus the step's events in words.
#[derive(Clone)]
pub struct Frame {
    /// The game's own turn counter after this step.
    pub turn: u32,
    /// Per seat: whether it is out of the match (eliminated, or lost by a fault) after this
    /// step. The viewer jumps to the next frame where a seat goes out.
    pub out: SeatsOut,
    picture: Picture,
}

/// Per seat, whether it is out of the match: a slice of flags (through `Deref`) kept in the
/// frame itself, since a frame is made after every step. At most [`SeatsOut::MAX`] seats, more
/// than any game has (the conformance suite checks that a frame has one flag per seat). In JSON,
/// a list of booleans.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub struct SeatsOut {
    seats: u8,
    out: [bool; SeatsOut::MAX],
}

impl SeatsOut {
    pub const MAX: usize = 8;
}

impl Deref for SeatsOut {
    type Target = [bool];

    fn deref(&self) -> &[bool] {
        &self.out[..usize::from(self.seats)]
    }
}

/// The first [`SeatsOut::MAX`] flags.
impl FromIterator<bool> for SeatsOut {
    fn from_iter<I: IntoIterator<Item = bool>>(flags: I) -> SeatsOut {
        let mut made = SeatsOut::default();
        for (seat, out) in flags.into_iter().take(SeatsOut::MAX).enumerate() {
            made.out[seat] = out;
            made.seats = seat as u8 + 1;
        }
        made
    }
}

impl fmt::Debug for SeatsOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Serialize for SeatsOut {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self[..].serialize(serializer)
    }
}

#[derive(Clone)]
enum Picture {
    /// Kept by the game that played the step; each part is written when read.
    Kept(Arc<dyn Scene>),
    /// Read back from JSON: every part as it came.
    Written(Arc<Written>),
    /// The key numbers alone: the picture (events, status, text, view) stayed where the scene
    /// is kept, to be asked for when someone looks at it.
    Numbers(Arc<[Stat]>),
}

/// A frame as JSON: every part written out. The view travels as JSON text inside the JSON (a
/// string), so that whoever reads it parses it once, into the game's own view type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Written {
    turn: u32,
    events: Vec<String>,
    status: Vec<String>,
    #[serde(default)]
    out: Vec<bool>,
    text: String,
    view: String,
    #[serde(default)]
    stats: Vec<Stat>,
}

/// A frame as JSON with its numbers only: a [`Written`] without the picture's four parts.
#[derive(Serialize)]
struct NumbersOnly<'a> {
    turn: u32,
    out: &'a [bool],
    stats: &'a [Stat],
}

/// Either form of a frame's JSON, as read: the picture's parts come together or not at all.
#[derive(Deserialize)]
struct Wire {
    turn: u32,
    events: Option<Vec<String>>,
    status: Option<Vec<String>>,
    #[serde(default)]
    out: Vec<bool>,
    text: Option<String>,
    view: Option<String>,
    #[serde(default)]
    stats: Vec<Stat>,
}

impl Frame {
    /// The frame of a step: its turn counter, who is out (per seat), and what the game kept to
    /// draw it.
    pub fn new(turn: u32, out: impl IntoIterator<Item = bool>, scene: Arc<dyn Scene>) -> Frame {
        Frame {
            turn,
            out: out.into_iter().collect(),
            picture: Picture::Kept(scene),
        }
    }

    /// The events of the step that led here, in plain words.
    pub fn events(&self) -> Cow<'_, [String]> {
        match &self.picture {
            Picture::Kept(scene) => Cow::Owned(scene.events()),
            Picture::Written(w) => Cow::Borrowed(&w.events),
            Picture::Numbers(_) => Cow::Borrowed(&[]),
        }
    }

    /// Per seat: a short status ("gold 21, income 1", "out: timeout").
    pub fn status(&self) -> Cow<'_, [String]> {
        match &self.picture {
            Picture::Kept(scene) => Cow::Owned(scene.status()),
            Picture::Written(w) => Cow::Borrowed(&w.status),
            Picture::Numbers(_) => Cow::Borrowed(&[]),
        }
    }

    /// The board as text (the CLI prints it; screen readers can read it).
    pub fn text(&self) -> Cow<'_, str> {
        match &self.picture {
            Picture::Kept(scene) => Cow::Owned(scene.text()),
            Picture::Written(w) => Cow::Borrowed(&w.text),
            Picture::Numbers(_) => Cow::Borrowed(""),
        }
    }

    /// The per-game picture for the painters, as JSON text of the game's own view type.
    pub fn view_json(&self) -> Cow<'_, str> {
        match &self.picture {
            Picture::Kept(scene) => Cow::Owned(scene.view_json()),
            Picture::Written(w) => Cow::Borrowed(&w.view),
            Picture::Numbers(_) => Cow::Borrowed(""),
        }
    }

    /// The per-game picture as the game's own view type (the type [`Frame::view_json`] writes),
    /// for a frame whose scene is kept here; `None` for a frame read back from JSON (its view is
    /// [`Frame::view_json`]) or without its picture.
    pub fn view(&self) -> Option<Box<dyn Any>> {
        match &self.picture {
            Picture::Kept(scene) => Some(scene.view()),
            Picture::Written(_) | Picture::Numbers(_) => None,
        }
    }

    /// The game's key numbers per seat after this step.
    pub fn stats(&self) -> Cow<'_, [Stat]> {
        match &self.picture {
            Picture::Kept(scene) => Cow::Owned(scene.stats()),
            Picture::Written(w) => Cow::Borrowed(&w.stats),
            Picture::Numbers(stats) => Cow::Borrowed(stats),
        }
    }

    /// Whether the frame can be drawn: its events, status, text and view are here (kept or
    /// written). A frame that travelled with its numbers only has none of them (they read empty)
    /// until its picture is asked for where its scene is kept.
    pub fn has_picture(&self) -> bool {
        !matches!(self.picture, Picture::Numbers(_))
    }

    /// The frame without its picture: the turn, who is out and the key numbers (written now).
    /// This is what travels of a frame nobody looks at yet.
    pub fn numbers_only(&self) -> Frame {
        Frame {
            turn: self.turn,
            out: self.out,
            picture: Picture::Numbers(self.stats().into_owned().into()),
        }
    }

    /// Every part written out, as it travels (`None`: the frame has no picture).
    fn written(&self) -> Option<Cow<'_, Written>> {
        Some(match &self.picture {
            Picture::Kept(scene) => Cow::Owned(Written {
                turn: self.turn,
                events: scene.events(),
                status: scene.status(),
                out: self.out.to_vec(),
                text: scene.text(),
                view: scene.view_json(),
                stats: scene.stats(),
            }),
            Picture::Written(w) => Cow::Borrowed(w),
            Picture::Numbers(_) => return None,
        })
    }

    /// A frame with these parts and no stats, as if read back from JSON (tests, and games
    /// that write every part at once).
    pub fn written_out(
        turn: u32,
        events: Vec<String>,
        status: Vec<String>,
        out: Vec<bool>,
        text: String,
        view: String,
    ) -> Frame {
        Frame {
            turn,
            out: out.iter().copied().collect(),
            picture: Picture::Written(Arc::new(Written {
                turn,
                events,
                status,
                out,
                text,
                view,
                stats: Vec::new(),
            })),
        }
    }
}

/// Two frames are equal when everything they show is: the same parts, written out (or, for
/// frames without their picture, the same numbers).
impl PartialEq for Frame {
    fn eq(&self, other: &Frame) -> bool {
        self.turn == other.turn
            && self.out == other.out
            && match (self.written(), other.written()) {
                (Some(a), Some(b)) => a == b,
                (None, None) => self.stats() == other.stats(),
                _ => false,
            }
    }
}

impl fmt::Debug for Frame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Frame");
        d.field("turn", &self.turn).field("out", &self.out);
        if let Some(w) = self.written() {
            d.field("events", &w.events)
                .field("status", &w.status)
                .field("text", &w.text)
                .field("view", &w.view);
        }
        d.field("stats", &self.stats()).finish()
    }
}

impl Serialize for Frame {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match &self.picture {
            Picture::Numbers(stats) => NumbersOnly {
                turn: self.turn,
                out: &self.out,
                stats,
            }
            .serialize(serializer),
            _ => self.written().serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Frame {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Frame, D::Error> {
        let wire = Wire::deserialize(deserializer)?;
        if wire.out.len() > SeatsOut::MAX {
            return Err(serde::de::Error::custom(format!(
                "a frame of {} seats (at most {})",
                wire.out.len(),
                SeatsOut::MAX
            )));
        }
        let picture = match (wire.events, wire.status, wire.text, wire.view) {
            (Some(events), Some(status), Some(text), Some(view)) => {
                Picture::Written(Arc::new(Written {
                    turn: wire.turn,
                    events,
                    status,
                    out: wire.out.clone(),
                    text,
                    view,
                    stats: wire.stats,
                }))
            }
            (None, None, None, None) => Picture::Numbers(wire.stats.into()),
            _ => return Err(serde::de::Error::custom(
                "a frame with part of its picture (events, status, text and view come together)",
            )),
        };
        Ok(Frame {
            turn: wire.turn,
            out: wire.out.iter().copied().collect(),
            picture,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use super::*;

    /// A scene that counts how often it is asked for its text.
    struct Counting(AtomicUsize);

    impl Scene for Counting {
        fn events(&self) -> Vec<String> {
            vec!["a move".into()]
        }
        fn status(&self) -> Vec<String> {
            vec!["one".into(), "two".into()]
        }
        fn text(&self) -> String {
            self.0.fetch_add(1, Ordering::Relaxed);
            "..\n..\n".into()
        }
        fn view_json(&self) -> String {
            r#"{"cells":[1,2]}"#.into()
        }
        fn view(&self) -> Box<dyn Any> {
            Box::new(vec![1, 2])
        }
        fn stats(&self) -> Vec<Stat> {
            vec![Stat::new("gold", [5, 7])]
        }
    }

    #[test]
    fn a_kept_frame_writes_its_parts_only_when_read() {
        let scene = Arc::new(Counting(AtomicUsize::new(0)));
        let frame = Frame::new(3, vec![false, true], scene.clone());
        assert_eq!(scene.0.load(Ordering::Relaxed), 0);
        assert_eq!(frame.text(), "..\n..\n");
        assert_eq!(scene.0.load(Ordering::Relaxed), 1);
    }

    #[test]
    fn a_frame_read_back_from_json_is_the_same_frame() {
        let frame = Frame::new(
            3,
            vec![false, true],
            Arc::new(Counting(AtomicUsize::new(0))),
        );
        let json = serde_json::to_string(&frame).expect("JSON");
        assert_eq!(
            json,
            r#"{"turn":3,"events":["a move"],"status":["one","two"],"out":[false,true],"text":"..\n..\n","view":"{\"cells\":[1,2]}","stats":[["gold",[5,7]]]}"#
        );
        let back: Frame = serde_json::from_str(&json).expect("a frame");
        assert_eq!(back, frame);
        assert_eq!(back.view_json(), r#"{"cells":[1,2]}"#);
        // The kept frame hands over its typed view; the one read back has its JSON text only.
        let typed = frame.view().expect("a kept scene's view");
        assert_eq!(typed.downcast_ref::<Vec<i32>>(), Some(&vec![1, 2]));
        assert!(back.view().is_none() && frame.numbers_only().view().is_none());
        assert_eq!(back.events().as_ref(), ["a move"]);
        assert_eq!(back.status().len(), 2);
        assert_eq!(back.stats().as_ref(), [Stat::new("gold", [5, 7])]);
    }

    #[test]
    fn who_is_out_is_a_list_of_flags_of_at_most_eight_seats() {
        let out: SeatsOut = [false, true, false].into_iter().collect();
        assert_eq!(out.len(), 3);
        assert_eq!(&out[..], [false, true, false]);
        assert_eq!(format!("{out:?}"), "[false, true, false]");
        assert_eq!(
            serde_json::to_string(&out).expect("JSON"),
            "[false,true,false]"
        );
        assert_eq!(SeatsOut::default().len(), 0);
        assert_eq!(
            std::iter::repeat_n(true, 20).collect::<SeatsOut>().len(),
            SeatsOut::MAX
        );
        let nine =
            r#"{"turn":1,"out":[false,false,false,false,false,false,false,false,true],"stats":[]}"#;
        let refused = serde_json::from_str::<Frame>(nine).expect_err("refused");
        assert!(
            refused.to_string().contains("a frame of 9 seats"),
            "{refused}"
        );
        let eight =
            r#"{"turn":1,"out":[false,false,false,false,false,false,false,true],"stats":[]}"#;
        let frame: Frame = serde_json::from_str(eight).expect("a frame");
        assert_eq!(frame.out.iter().filter(|&&o| o).count(), 1);
        assert_eq!(serde_json::to_string(&frame).expect("JSON"), eight);
    }

    #[test]
    fn a_frame_travels_without_its_picture_and_its_scene_is_not_asked_for_it() {
        let scene = Arc::new(Counting(AtomicUsize::new(0)));
        let frame = Frame::new(3, vec![false, true], scene.clone());
        let light = frame.numbers_only();
        assert!(frame.has_picture() && !light.has_picture());
        let json = serde_json::to_string(&light).expect("JSON");
        assert_eq!(
            json,
            r#"{"turn":3,"out":[false,true],"stats":[["gold",[5,7]]]}"#
        );
        assert_eq!(scene.0.load(Ordering::Relaxed), 0, "no text was written");
        let back: Frame = serde_json::from_str(&json).expect("a frame");
        assert_eq!(back, light);
        assert_ne!(
            back, frame,
            "a frame without its picture is not the frame drawn"
        );
        assert!(!back.has_picture());
        assert_eq!((back.turn, &back.out[..]), (3, [false, true].as_slice()));
        assert_eq!(back.stats().as_ref(), [Stat::new("gold", [5, 7])]);
        assert!(back.text().is_empty() && back.view_json().is_empty() && back.events().is_empty());
    }

    #[test]
    fn a_frame_with_half_a_picture_is_refused() {
        let error = serde_json::from_str::<Frame>(r#"{"turn":1,"text":"..","out":[]}"#)
            .expect_err("refused");
        assert!(error.to_string().contains("come together"), "{error}");
    }
}
