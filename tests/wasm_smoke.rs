//! Smoke test of the wasm test pipeline: runs in headless Chromium through
//! `wasm-bindgen-test-runner` (`cargo xtask test wasm-test`).
#![cfg(target_arch = "wasm32")]

use engine::JavaRandom;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

/// `new java.util.Random(42)` gives the same first ints in the browser as in Java.
#[wasm_bindgen_test]
fn java_random_matches_java_in_the_browser() {
    let mut random = JavaRandom::new(42);
    assert_eq!(random.next_int(), -1_170_105_035);
    assert_eq!(random.next_int(), 234_785_527);
}
