#![no_main]
//! See `botplay_fuzz::share_link` (fuzz/src/lib.rs).

libfuzzer_sys::fuzz_target!(|data: &[u8]| botplay_fuzz::share_link(data));
