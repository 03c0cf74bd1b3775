#![no_main]
//! See `botplay_fuzz::bot_lines` (fuzz/src/lib.rs).

libfuzzer_sys::fuzz_target!(|data: &[u8]| botplay_fuzz::bot_lines(data));
