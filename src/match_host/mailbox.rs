//! The channels of a match where the browser gives no `SharedArrayBuffer` (WebKitGTK as Debian
//! ships it, or a page that is not cross-origin isolated): everything travels in messages.
//!
//! The match worker no longer blocks: each message from a bot's runtime (one record, as a ring
//! would carry it: `[kind, text, stamp]`) or from the host (a command) is put into a
//! [`Mailbox`], and the driver takes one step ([`super::driver::Driver::step`]) after it, and
//! again at the next deadline, from a timer (each step once a [`RoundTrip`] says that nothing
//! posted before is still on its way). A bot's input goes out as a message too (to the
//! page's service worker, which answers the blocking `readline()` of the bot's runtime: a
//! synchronous request; see `www/coi-sw.js`).
//!
//! As with the rings, nothing received is trusted: a message that is not a record of a known
//! kind with a text of at most [`MAX_PAYLOAD`] bytes is [`Read::Broken`].
//!
//! Messages can be held up on their way. In WebKit every one of them (a runtime's records, the
//! input sent to the service worker, the runtime's request and its answer) passes through the
//! page's main thread, which the page's own work (drawing a batch of frames, a collection of its
//! garbage) keeps busy for 50 to 170 ms at times: a line written well within its budget then
//! reached the match worker after the budget and its grace, and the bot was timed out though it
//! had answered. So the driver steps only after a [`RoundTrip`]: a probe that the match worker
//! posts to itself along the same way and that comes back quickly enough, which shows that
//! whatever was posted before it has arrived.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use super::driver::{Records, GRACE_MS};
use super::rings::{Kind, Read, RuntimeRecord, MAX_PAYLOAD};

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
                    Some(kind) => Read::Record(RuntimeRecord {
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

/// How quickly a probe must come back for the driver to step: everything posted before the
/// probe has then arrived, and a step finds the lines written up to this long before it. Half of
/// [`GRACE_MS`]: a line written within its budget is read before its grace is over.
pub const QUICK_ROUND_TRIP_MS: f64 = GRACE_MS / 2.0;
/// How long the driver waits at most for a quick round trip before it steps all the same (the
/// page's channels stuck for longer than this are no longer a delay: the match must go on).
pub const MAX_HOLD_MS: f64 = 1_000.0;

/// (Messages) When the driver may step. Each event (a message received, a timer) asks for a step
/// ([`RoundTrip::wanted`]); the match worker then posts a probe to itself along the way the bots'
/// messages take (a `MessagePort` of its own) and steps when it comes back
/// ([`RoundTrip::returned`]) within [`QUICK_ROUND_TRIP_MS`]. A probe that took longer shows the
/// way was held up: what was posted meanwhile may still be on its way, so another probe follows.
/// The driver never steps later than [`MAX_HOLD_MS`] after the first probe.
///
/// This changes when the driver decides, never what: a line's time is still the one its runtime
/// stamped (within what the driver saw, `driver::settle`), so a bot gains nothing by it; a bot
/// that writes nothing is timed out as before, at most the hold later.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RoundTrip {
    /// When the probe on its way was posted.
    posted: Option<f64>,
    /// When the first probe of this wait was posted.
    since: Option<f64>,
}

impl RoundTrip {
    pub fn new() -> RoundTrip {
        RoundTrip::default()
    }

    /// A step is wanted at `now`: whether to post a probe (none is on its way already).
    pub fn wanted(&mut self, now: f64) -> bool {
        if self.posted.is_some() {
            return false;
        }
        self.posted = Some(now);
        self.since.get_or_insert(now);
        true
    }

    /// The probe came back at `now`: whether to step now; otherwise post another probe, which
    /// this counts as posted at `now`.
    pub fn returned(&mut self, now: f64) -> bool {
        let Some(posted) = self.posted.take() else {
            return false;
        };
        let since = self.since.unwrap_or(posted);
        // Held up, and not for too long yet (a clock that is not a number holds nothing).
        let held = now - posted > QUICK_ROUND_TRIP_MS && now - since < MAX_HOLD_MS;
        if held {
            self.posted = Some(now);
        } else {
            self.since = None;
        }
        !held
    }

    /// Whether a probe is on its way.
    pub fn waiting(&self) -> bool {
        self.posted.is_some()
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
            Read::Record(RuntimeRecord {
                kind: Kind::Line,
                stamp: 12.5,
                text: "MOVE 1 2".into()
            })
        );
        for _ in 0..4 {
            assert!(matches!(mailbox.read(), Read::Broken(_)));
        }
        assert!(
            matches!(mailbox.read(), Read::Record(RuntimeRecord { stamp, .. }) if stamp == 0.0)
        );
        assert_eq!(mailbox.read(), Read::Empty);
        assert!(mailbox.is_empty());
    }

    #[test]
    fn the_driver_steps_after_a_quick_round_trip() {
        let mut trip = RoundTrip::new();
        assert!(trip.wanted(100.0));
        // Events while the probe is on its way are served by its return.
        assert!(!trip.wanted(101.0));
        assert!(trip.waiting());
        assert!(trip.returned(102.0));
        assert!(!trip.waiting());
        // A probe back with nothing asked for it: no step.
        assert!(!trip.returned(103.0));
    }

    #[test]
    fn a_held_up_way_is_probed_again_until_it_is_quick() {
        let mut trip = RoundTrip::new();
        assert!(trip.wanted(0.0));
        // Held up 150 ms (the page's main thread was busy): what was posted meanwhile may still
        // be on its way.
        assert!(!trip.returned(150.0));
        assert!(trip.waiting());
        assert!(!trip.wanted(151.0));
        assert!(trip.returned(152.0));
        // The next wait starts afresh.
        assert!(trip.wanted(200.0));
        assert!(!trip.returned(200.0 + QUICK_ROUND_TRIP_MS + 1.0));
        assert!(trip.returned(260.0));
    }

    #[test]
    fn the_driver_steps_all_the_same_after_the_longest_hold() {
        let mut trip = RoundTrip::new();
        assert!(trip.wanted(0.0));
        let mut now = 0.0;
        let mut probes = 0;
        while !trip.returned(now + 200.0) {
            now += 200.0;
            probes += 1;
            assert!(probes < 10, "never stepped");
        }
        assert!(
            now + 200.0 >= MAX_HOLD_MS && now < MAX_HOLD_MS,
            "stepped at {now}"
        );
        assert!(trip.wanted(f64::NAN));
        assert!(
            trip.returned(5.0),
            "a clock that is not a number does not hold the match"
        );
    }
}
