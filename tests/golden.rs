//! Golden transcripts: a fixed match per game must play out byte for byte as committed.
//! The same check runs natively and, in headless Chromium, compiled to wasm: wasm parity.
//! Regenerate on purpose with `UPDATE_GOLDEN=1 cargo test -p botplay-web --test golden` and
//! review the diff.

mod common;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn transcripts_match_the_committed_files() {
    for golden in common::GOLDEN {
        let actual = common::transcript(golden);
        #[cfg(not(target_arch = "wasm32"))]
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(golden.path);
            std::fs::write(&path, &actual).expect("write the golden file");
            continue;
        }
        if actual != golden.expected {
            let line = actual
                .lines()
                .zip(golden.expected.lines())
                .position(|(a, e)| a != e)
                .map_or(
                    actual.lines().count().min(golden.expected.lines().count()),
                    |i| i,
                );
            panic!(
                "{}: the transcript differs from {} at line {}:\n  expected: {:?}\n  actual:   {:?}\n(if the change is intended: UPDATE_GOLDEN=1 cargo test -p botplay-web --test golden)",
                golden.game,
                golden.path,
                line + 1,
                golden.expected.lines().nth(line),
                actual.lines().nth(line)
            );
        }
    }
}

/// Each golden match taken over in its middle by the same bots, by the page's match worker: the
/// very same match (the earlier turns re-run from the record while the bots read them, the rest
/// played by them again).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_golden_match_taken_over_by_the_same_bots_is_the_same_match() {
    for golden in common::GOLDEN {
        let actual = common::taken_over_transcript(golden);
        let differs = actual
            .lines()
            .zip(golden.expected.lines())
            .position(|(a, e)| a != e);
        assert!(
            differs.is_none() && actual.lines().count() == golden.expected.lines().count(),
            "{}: taken over, the match differs from {} at line {:?}",
            golden.game,
            golden.path,
            differs.map(|i| i + 1)
        );
    }
}

/// Each golden match re-run for its frames alone (as the page draws a match it played) draws
/// the same frames and ends the same; a game whose answers cost much to write (Crafting Quest 3)
/// leaves them unwritten then.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
#[cfg_attr(not(target_arch = "wasm32"), test)]
fn a_golden_match_re_run_for_its_frames_alone_draws_the_same_frames() {
    for golden in common::GOLDEN {
        let replay = common::replay(golden);
        let entry = games::entry(golden.game).expect("a registered game");
        let full = replay.rerun(entry).expect("a re-run");
        let drawn = replay.rerun_for_frames(entry).expect("a re-run for frames");
        assert_eq!(drawn.frames(), full.frames(), "{}: the frames", golden.game);
        assert_eq!(drawn.outcome(), full.outcome(), "{}", golden.game);
        let replies = |referee: &engine::Referee| -> usize {
            let seats = referee.turns().iter().flat_map(|t| &t.seats);
            seats.flat_map(|s| &s.replies).map(String::len).sum()
        };
        if golden.game == "crafting-quest" {
            assert!(
                replies(&full) > 0,
                "its answers are written in a full re-run"
            );
            assert_eq!(replies(&drawn), 0, "its answers are left unwritten");
        }
    }
}
