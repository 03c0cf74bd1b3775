#![no_main]
//! See `botplay_fuzz::replay` (fuzz/src/lib.rs).

libfuzzer_sys::fuzz_target!(|data: &[u8]| botplay_fuzz::replay(data));
