//! A bot's standard input as the driver hands it over, for a local program (its writer thread
//! writes the pipe) and a WebAssembly bot (its `fd_read` reads the channel) alike: handing text
//! over never blocks the driver, and the text waiting unread is bounded.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

/// Input the CLI holds for a bot that does not read it; beyond this it is dropped (the bot is
/// not reading anyway), so a bot that never reads costs neither memory nor a blocked driver.
const MAX_PENDING_INPUT: usize = 16 * 1024 * 1024;

/// The driver's end of a bot's input.
pub struct BotInput {
    /// `None` once closed, or once the reading end is gone.
    sender: Option<Sender<String>>,
    /// Bytes sent and not read yet: the reading end lowers it as it takes them.
    pending: Arc<AtomicUsize>,
}

impl BotInput {
    /// A new input, with its reading end: the texts, and the count of bytes handed over and not
    /// read yet, which the reader lowers by what it takes.
    pub fn new() -> (BotInput, Receiver<String>, Arc<AtomicUsize>) {
        let (sender, texts) = channel();
        let pending = Arc::new(AtomicUsize::new(0));
        let input = BotInput {
            sender: Some(sender),
            pending: Arc::clone(&pending),
        };
        (input, texts, pending)
    }

    /// Hands text over; never blocks. Dropped past [`MAX_PENDING_INPUT`] unread, and once the
    /// reading end is gone (the bot closed its input: it will show up as a crash or a timeout).
    pub fn deliver(&mut self, text: &str) {
        if self.pending.load(Ordering::Relaxed) + text.len() > MAX_PENDING_INPUT {
            return;
        }
        if let Some(sender) = &self.sender {
            self.pending.fetch_add(text.len(), Ordering::Relaxed);
            if sender.send(text.to_string()).is_err() {
                self.sender = None;
            }
        }
    }

    /// Closes the input: the reading end sees its end once it has read what was handed over.
    pub fn close(&mut self) {
        self.sender = None;
    }
}
