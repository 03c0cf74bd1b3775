//! The channels of a match where the browser gives no `SharedArrayBuffer` (WebKitGTK as Debian
//! ships it, or a page that is not cross-origin isolated): everything travels in messages.
//!
//! The match worker no longer blocks: each message from a bot's runtime (one record, as a ring
//! would carry it: `[kind, text, stamp]`) or from the host (a command) is put into a
//! [`Mailbox`], and the driver takes one step ([`super::driver::Driver::step`]) after it, and
//! again at the next deadline, from a timer. A bot's input goes out as a message too (to the
//! page's service worker, which answers the blocking `readline()` of the bot's runtime: a
//! synchronous request; see `www/coi-sw.js`).
//!
//! As with the rings, nothing received is trusted: a message that is not a record of a known
//! kind with a text of at most [`MAX_PAYLOAD`] bytes is [`Read::Broken`].

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::driver::Records;
use super::rings::{Kind, Read, Record, MAX_PAYLOAD};

/// Records received and not yet read by the driver (one per bot, one for the host).
#[derive(Clone, Default)]
pub struct Mailbox(Rc<RefCell<VecDeque<Read>>>);

impl Mailbox {
    pub fn new() -> Mailbox {
        Mailbox::default()
    }

    /// A record as received: `kind` must be a known kind's number, `text` at most
    /// [`MAX_PAYLOAD`] bytes; anything else is kept as broken.
    pub fn receive(&self, kind: Option<f64>, text: Option<String>, stamp: Option<f64>) {
        let read = match (kind, text) {
            (Some(k), Some(text)) if k.fract() == 0.0 && (0.0..256.0).contains(&k) => {
                match Kind::of(k as u8) {
                    None => Read::Broken(format!("a message of an unknown kind ({k})")),
                    Some(_) if text.len() > MAX_PAYLOAD as usize => {
                        Read::Broken(format!("a message of {} bytes", text.len()))
                    }
                    Some(kind) => Read::Record(Record {
                        kind,
                        stamp: stamp.filter(|s| s.is_finite()).unwrap_or(0.0),
                        text,
                    }),
                }
            }
            _ => Read::Broken("a message that is not a record".into()),
        };
        self.0.borrow_mut().push_back(read);
    }

    /// How many records wait.
    pub fn len(&self) -> usize {
        self.0.borrow().len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }
}

impl Records for Mailbox {
    fn read(&mut self) -> Read {
        self.0.borrow_mut().pop_front().unwrap_or(Read::Empty)
    }

    /// A message posted before a read may not have arrived yet.
    fn sees_writes_at_once(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_records_of_a_bounded_size_are_taken() {
        let mut mailbox = Mailbox::new();
        mailbox.receive(Some(3.0), Some("MOVE 1 2".into()), Some(12.5));
        mailbox.receive(Some(99.0), Some(String::new()), None);
        mailbox.receive(Some(3.5), Some(String::new()), None);
        mailbox.receive(None, Some("x".into()), None);
        mailbox.receive(Some(4.0), Some("x".repeat(MAX_PAYLOAD as usize + 1)), None);
        mailbox.receive(Some(3.0), Some("late".into()), Some(f64::NAN));
        assert_eq!(mailbox.len(), 6);
        assert_eq!(
            mailbox.read(),
            Read::Record(Record {
                kind: Kind::Line,
                stamp: 12.5,
                text: "MOVE 1 2".into()
            })
        );
        for _ in 0..4 {
            assert!(matches!(mailbox.read(), Read::Broken(_)));
        }
        assert!(matches!(mailbox.read(), Read::Record(Record { stamp, .. }) if stamp == 0.0));
        assert_eq!(mailbox.read(), Read::Empty);
        assert!(mailbox.is_empty());
    }
}
