//! The page's side of a JavaScript bot's input: a byte ring in a `SharedArrayBuffer`.
//!
//! The layout and the rules are described at the top of `www/js-bot-worker.js`, which reads the
//! ring. In short: a 16-byte `Int32` header (`WRITE`, `READ`, `PENDING`), then [`CAPACITY`] data
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
        self.unsent.extend(text.as_bytes());
        self.flush();
    }

    /// Writes as much unsent text as the ring has room for.
    pub fn flush(&mut self) {
        let load = |i| Atomics::load(&self.header, i).unwrap_or(0) as u32;
        let write = load(WRITE);
        let read = load(READ);
        let free = CAPACITY - write.wrapping_sub(read).min(CAPACITY);
        let count = free.min(self.unsent.len() as u32);
        let mut at = write;
        let mut left = count as usize;
        while left > 0 {
            let offset = at & (CAPACITY - 1);
            let run = left.min((CAPACITY - offset) as usize);
            let bytes: Vec<u8> = self.unsent.drain(..run).collect();
            self.data
                .subarray(offset, offset + run as u32)
                .copy_from(&bytes);
            at = at.wrapping_add(run as u32);
            left -= run;
        }
        let pending = i32::from(!self.unsent.is_empty());
        let _ = Atomics::store(&self.header, PENDING, pending);
        if count > 0 {
            let _ = Atomics::store(&self.header, WRITE, at as i32);
            let _ = Atomics::notify(&self.header, WRITE);
        }
    }
}
