//! A bot's input: a byte ring in a `SharedArrayBuffer`, written by the page ([`InputRing`]) and
//! read by the bot's worker (JavaScript and Python bots: `www/js-bot-worker.js`; built-in bots:
//! [`RingReader`] in `src/bin/bot_worker.rs`). Handing input over this way costs a copy and an
//! `Atomics.notify`, where a `postMessage` costs a structured clone and a task on each side.
//!
//! The layout and the rules are described at the top of `www/js-bot-worker.js`. In short: a 16-byte `Int32` header (`WRITE`, `READ`, `PENDING`), then [`CAPACITY`] data
//! bytes. The page copies bytes behind `WRITE`, then publishes them with `Atomics.store` and wakes
//! the worker with `Atomics.notify`; the worker moves `READ` when it has taken them. Text that does
//! not fit is kept here (`PENDING` = 1) and written when the worker asks for it.

use std::collections::VecDeque;

use js_sys::{Atomics, Int32Array, SharedArrayBuffer, Uint8Array};

const WRITE: u32 = 0;
const READ: u32 = 1;
const PENDING: u32 = 2;
const HEADER_BYTES: u32 = 16;
/// The data bytes of the ring (a power of two, so that wrapping counters index it directly).
pub const CAPACITY: u32 = 1 << 20;

pub struct InputRing {
    buffer: SharedArrayBuffer,
    header: Int32Array,
    data: Uint8Array,
    unsent: VecDeque<u8>,
}

impl InputRing {
    /// A new, empty ring. Fails when the page is not cross-origin isolated.
    pub fn new() -> Result<InputRing, String> {
        if !crate::isolation::cross_origin_isolated() {
            return Err(crate::isolation::NOT_ISOLATED.to_string());
        }
        let buffer = SharedArrayBuffer::new(HEADER_BYTES + CAPACITY);
        let header = Int32Array::new_with_byte_offset_and_length(&buffer, 0, HEADER_BYTES / 4);
        let data = Uint8Array::new_with_byte_offset_and_length(&buffer, HEADER_BYTES, CAPACITY);
        Ok(InputRing {
            buffer,
            header,
            data,
            unsent: VecDeque::new(),
        })
    }

    /// The shared buffer, for the worker.
    pub fn buffer(&self) -> &SharedArrayBuffer {
        &self.buffer
    }

    /// Appends text behind everything sent before and wakes the reader.
    pub fn push(&mut self, text: &str) {
        let bytes = text.as_bytes();
        if !self.unsent.is_empty() {
            self.unsent.extend(bytes);
            return self.flush();
        }
        // Nothing waits: copy straight from the text, keeping what does not fit.
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

    /// Where the next byte goes, and how many bytes fit.
    fn room(&self) -> (u32, u32) {
        let write = load(&self.header, WRITE);
        let read = load(&self.header, READ);
        (write, CAPACITY - write.wrapping_sub(read).min(CAPACITY))
    }

    /// Copies bytes into the ring from `at` on (wrapping), without publishing them.
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

    /// Says whether text waits here, and publishes the bytes up to `write` (waking the reader).
    fn publish(&self, write: u32, wrote: bool) {
        let pending = i32::from(!self.unsent.is_empty());
        let _ = Atomics::store(&self.header, PENDING, pending);
        if wrote {
            let _ = Atomics::store(&self.header, WRITE, write as i32);
            let _ = Atomics::notify(&self.header, WRITE);
        }
    }
}

fn load(header: &Int32Array, index: u32) -> u32 {
    Atomics::load(header, index).unwrap_or(0) as u32
}

/// The worker's side of the ring, for bots written in Rust (the built-in bots' worker).
pub struct RingReader {
    header: Int32Array,
    data: Uint8Array,
    /// Bytes taken from the ring after the last complete line.
    partial: Vec<u8>,
}

impl RingReader {
    /// Reads the ring the page made ([`InputRing::buffer`]).
    pub fn new(buffer: &SharedArrayBuffer) -> RingReader {
        RingReader {
            header: Int32Array::new_with_byte_offset_and_length(buffer, 0, HEADER_BYTES / 4),
            data: Uint8Array::new_with_byte_offset_and_length(buffer, HEADER_BYTES, CAPACITY),
            partial: Vec::new(),
        }
    }

    /// Blocks (`Atomics.wait`: only a worker may) until complete lines are there, and returns
    /// every complete line there is, each with its `\n`. `need_input` is called when the ring is
    /// empty while the page holds text that did not fit (the page then writes it).
    pub fn read_lines(&mut self, need_input: &dyn Fn()) -> String {
        loop {
            let write = load(&self.header, WRITE);
            let read = load(&self.header, READ);
            if write != read {
                self.take(read, write);
                if let Some(end) = self.partial.iter().rposition(|&b| b == b'\n') {
                    let rest = self.partial.split_off(end + 1);
                    let lines = std::mem::replace(&mut self.partial, rest);
                    return String::from_utf8(lines)
                        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
                }
                continue;
            }
            if load(&self.header, PENDING) == 1 {
                need_input();
            }
            let _ = Atomics::wait(&self.header, WRITE, write as i32);
        }
    }

    /// Moves the bytes from `read` to `write` out of the ring.
    fn take(&mut self, mut read: u32, write: u32) {
        while read != write {
            let offset = read & (CAPACITY - 1);
            let run = write.wrapping_sub(read).min(CAPACITY - offset);
            let start = self.partial.len();
            self.partial.resize(start + run as usize, 0);
            self.data
                .subarray(offset, offset + run)
                .copy_to(&mut self.partial[start..]);
            read = read.wrapping_add(run);
        }
        let _ = Atomics::store(&self.header, READ, write as i32);
    }
}
