//! The shared-memory channels of a match, all in `SharedArrayBuffer`s made by the match host
//! (`www/match-host.js`) and read or written here, in the match worker:
//!
//! - [`InputRing`]: a bot's input, written here, read by the bot's runtime
//!   (`www/js-bot-worker.js`) in `readline()`. A 16-byte `Int32` header (`WRITE`, `READ`,
//!   `PENDING`, `INTERRUPT`), then [`CAPACITY`] data bytes. The bytes are copied behind `WRITE`,
//!   then published with `Atomics.store` and the reader woken with `Atomics.notify`; the reader
//!   moves `READ` when it has taken them. Text that does not fit is kept here (`PENDING` = 1) and
//!   written when the reader asks for it. `INTERRUPT` asks the runtime to stop the bot's code at
//!   a deadline (Python's does).
//! - [`RecordReader`]: what a bot's runtime writes (its lines, debug log, end: [`Kind`]), and the
//!   host's commands (stop, a person's lines, a worker that failed). The same layout, written by
//!   the other side: records of a 16-byte head (kind byte, three zero bytes, the payload's length
//!   as a little-endian `u32`, a little-endian `f64` stamp) and the payload. A writer publishes
//!   whole records only, and waits while the ring has no room, as on a pipe.
//! - the doorbell: an `Int32Array` whose first cell every writer increments and notifies after
//!   each record, so that the match worker sleeps on one address for every channel; its second
//!   cell says which seats are computing now ([`Doorbell::set_running`]), for the host to report
//!   if the process dies.
//!
//! Nothing read from shared memory is trusted: a record with an unknown kind or an impossible
//! length is [`Read::Broken`], the fault of whoever wrote it.

use std::collections::VecDeque;

use js_sys::{Atomics, Int32Array, SharedArrayBuffer, Uint8Array};

const WRITE: u32 = 0;
const READ: u32 = 1;
const PENDING: u32 = 2;
/// Set by the match worker to ask the bot's runtime to stop its code where it is (Python's
/// runtime reads it as Pyodide's interrupt buffer), cleared by the runtime when it has seen it.
const INTERRUPT: u32 = 3;
/// The signal number Pyodide reads from its interrupt buffer as an interrupt (SIGINT).
const SIGINT: i32 = 2;
const HEADER_BYTES: u32 = 16;
/// The data bytes of each ring (a power of two, so that wrapping counters index it directly).
pub const CAPACITY: u32 = 1 << 20;
/// The bytes of a record's head.
const HEAD: u32 = 16;
/// The longest payload a record may carry: a line cut one byte beyond the referee's cap, or a
/// piece of debug log (the runtime cuts both).
pub const MAX_PAYLOAD: u32 = engine::referee::MAX_LINE_BYTES as u32 + 1024;

/// What a record says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// The bot's runtime is loaded and its code about to run.
    Ready = 1,
    /// A language runtime is loading (the text says which).
    Loading = 2,
    /// One output line, stamped when it was written.
    Line = 3,
    /// Debug-log text.
    Stderr = 4,
    /// The bot waits for input that did not fit its ring.
    NeedInput = 5,
    /// The bot's program ended (the text says how).
    Exit = 6,
    /// The runtime saw the bot write more than it may without reading.
    Flood = 7,
    /// (Messages, no shared memory) The bot's runtime got input: stamped when it got it, the text
    /// is when it began waiting for it (a decimal number on the same clock).
    Received = 8,
    /// Host: stop the match.
    Stop = 20,
    /// Host: the lines a person wrote for a seat (the seat in the stamp).
    Human = 21,
    /// Host: a bot's worker failed (the seat in the stamp; the text says why).
    WorkerError = 22,
    /// Host: the page looks at frames whose pictures it does not have (the first frame's index
    /// in the stamp, how many in the text).
    Pictures = 23,
}

impl Kind {
    /// The kind a record's first byte names, if any.
    pub fn of(byte: u8) -> Option<Kind> {
        use Kind::*;
        [
            Ready,
            Loading,
            Line,
            Stderr,
            NeedInput,
            Exit,
            Flood,
            Received,
            Stop,
            Human,
            WorkerError,
            Pictures,
        ]
        .into_iter()
        .find(|k| *k as u8 == byte)
    }
}

/// One record of a bot's runtime (or of the host, on the control channel): its kind, the
/// runtime's stamp, and its text.
#[derive(Clone, Debug, PartialEq)]
pub struct RuntimeRecord {
    pub kind: Kind,
    pub stamp: f64,
    pub text: String,
}

/// What reading a ring gave.
#[derive(Clone, Debug, PartialEq)]
pub enum Read {
    Record(RuntimeRecord),
    /// Nothing complete is waiting.
    Empty,
    /// The ring holds something no runtime of ours writes.
    Broken(String),
}

fn load(header: &Int32Array, index: u32) -> u32 {
    Atomics::load(header, index).unwrap_or(0) as u32
}

fn views(buffer: &SharedArrayBuffer) -> (Int32Array, Uint8Array) {
    (
        Int32Array::new_with_byte_offset_and_length(buffer, 0, HEADER_BYTES / 4),
        Uint8Array::new_with_byte_offset_and_length(buffer, HEADER_BYTES, CAPACITY),
    )
}

/// A ring's size in bytes, for whoever makes its buffer.
pub const RING_BYTES: u32 = HEADER_BYTES + CAPACITY;

/// The writing side of a bot's input.
pub struct InputRing {
    header: Int32Array,
    data: Uint8Array,
    unsent: VecDeque<u8>,
}

impl InputRing {
    pub fn new(buffer: &SharedArrayBuffer) -> InputRing {
        let (header, data) = views(buffer);
        InputRing {
            header,
            data,
            unsent: VecDeque::new(),
        }
    }

    /// Appends text behind everything sent before and wakes the reader.
    pub fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if !self.unsent.is_empty() {
            self.unsent.extend(bytes);
            return self.flush();
        }
        let (write, free) = self.room();
        let count = free.min(bytes.len() as u32) as usize;
        self.copy_in(write, &bytes[..count]);
        self.unsent.extend(&bytes[count..]);
        self.publish(write.wrapping_add(count as u32), count > 0);
    }

    /// Writes as much unsent text as the ring has room for.
    pub fn flush(&mut self) {
        let (write, free) = self.room();
        let count = free.min(self.unsent.len() as u32) as usize;
        let bytes: Vec<u8> = self.unsent.drain(..count).collect();
        self.copy_in(write, &bytes);
        self.publish(write.wrapping_add(count as u32), count > 0);
    }

    /// Where the next byte goes, and how many bytes fit (the reader's counter is not trusted).
    fn room(&self) -> (u32, u32) {
        let write = load(&self.header, WRITE);
        let read = load(&self.header, READ);
        (write, CAPACITY - write.wrapping_sub(read).min(CAPACITY))
    }

    fn copy_in(&self, mut at: u32, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let offset = at & (CAPACITY - 1);
            let run = bytes.len().min((CAPACITY - offset) as usize);
            self.data
                .subarray(offset, offset + run as u32)
                .copy_from(&bytes[..run]);
            at = at.wrapping_add(run as u32);
            bytes = &bytes[run..];
        }
    }

    fn publish(&self, write: u32, wrote: bool) {
        let pending = i32::from(!self.unsent.is_empty());
        let _ = Atomics::store(&self.header, PENDING, pending);
        if wrote {
            let _ = Atomics::store(&self.header, WRITE, write as i32);
            let _ = Atomics::notify(&self.header, WRITE);
        }
    }
}

/// The reading side of a ring of records.
pub struct RecordReader {
    header: Int32Array,
    data: Uint8Array,
}

impl super::driver::Records for RecordReader {
    fn read(&mut self) -> Read {
        RecordReader::read(self)
    }

    /// A record is published (its `WRITE` stored) before its writer goes on: a read that finds
    /// nothing was made before anything read later was written.
    fn sees_writes_at_once(&self) -> bool {
        true
    }
}

impl super::driver::Input for InputRing {
    fn push(&mut self, text: &str) {
        InputRing::push(self, text)
    }

    fn flush(&mut self) {
        InputRing::flush(self)
    }

    /// A reader asleep in `readline()` sleeps on `WRITE`: waking it tells whether it was there
    /// (it finds nothing new and sleeps again).
    fn waiting(&mut self) -> Option<bool> {
        Some(Atomics::notify(&self.header, WRITE).is_ok_and(|woken| woken > 0))
    }

    fn interrupt(&mut self) {
        let _ = Atomics::store(&self.header, INTERRUPT, SIGINT);
    }
}

impl RecordReader {
    pub fn new(buffer: &SharedArrayBuffer) -> RecordReader {
        let (header, data) = views(buffer);
        RecordReader { header, data }
    }

    /// The next whole record, if one is there.
    pub fn read(&mut self) -> Read {
        let write = load(&self.header, WRITE);
        let read = load(&self.header, READ);
        let waiting = write.wrapping_sub(read);
        if waiting == 0 {
            return Read::Empty;
        }
        if !(HEAD..=CAPACITY).contains(&waiting) {
            return Read::Broken(format!(
                "its output channel says {waiting} bytes are waiting"
            ));
        }
        let mut head = [0u8; HEAD as usize];
        self.copy_out(read, &mut head);
        let Some(kind) = Kind::of(head[0]) else {
            return Read::Broken(format!("a message of an unknown kind ({})", head[0]));
        };
        let length = u32::from_le_bytes([head[4], head[5], head[6], head[7]]);
        if length > MAX_PAYLOAD || HEAD + length > waiting {
            return Read::Broken(format!("a message of {length} bytes"));
        }
        let mut stamp = [0u8; 8];
        stamp.copy_from_slice(&head[8..16]);
        let mut payload = vec![0u8; length as usize];
        self.copy_out(read.wrapping_add(HEAD), &mut payload);
        let _ = Atomics::store(&self.header, READ, read.wrapping_add(HEAD + length) as i32);
        let _ = Atomics::notify(&self.header, READ);
        Read::Record(RuntimeRecord {
            kind,
            stamp: f64::from_le_bytes(stamp),
            text: String::from_utf8(payload)
                .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
        })
    }

    fn copy_out(&self, mut at: u32, mut into: &mut [u8]) {
        while !into.is_empty() {
            let offset = at & (CAPACITY - 1);
            let run = into.len().min((CAPACITY - offset) as usize);
            let (now, rest) = into.split_at_mut(run);
            self.data.subarray(offset, offset + run as u32).copy_to(now);
            at = at.wrapping_add(run as u32);
            into = rest;
        }
    }
}

/// The cell every writer rings, and the cell that says which seats compute now.
pub struct Doorbell {
    cells: Int32Array,
}

const RING: u32 = 0;
const RUNNING: u32 = 1;
/// The doorbell buffer's size in bytes.
pub const DOORBELL_BYTES: u32 = 16;

impl Doorbell {
    pub fn new(buffer: &SharedArrayBuffer) -> Doorbell {
        Doorbell {
            cells: Int32Array::new_with_byte_offset_and_length(buffer, 0, DOORBELL_BYTES / 4),
        }
    }

    /// How many times it was rung so far.
    pub fn rung(&self) -> i32 {
        Atomics::load(&self.cells, RING).unwrap_or(0)
    }

    /// Sleeps until it is rung after `seen`, or for `millis` at most.
    pub fn wait(&self, seen: i32, millis: f64) {
        let _ = Atomics::wait_with_timeout(&self.cells, RING, seen, millis.max(0.0));
    }

    /// Which seats are computing now (a bit per seat), for the host to say if the process dies.
    pub fn set_running(&self, seats: u32) {
        let _ = Atomics::store(&self.cells, RUNNING, seats as i32);
    }
}
