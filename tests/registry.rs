//! Registry-wide checks: every game is complete wherever a person meets it.

// Only the list of golden matches is used here; the transcript writer serves `golden.rs`.
#[allow(dead_code)]
mod common;

#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

macro_rules! product_test {
    ($(#[$m:meta])* fn $name:ident() $body:block) => {
        $(#[$m])*
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        fn $name() $body
    };
}

product_test! {
    fn every_game_has_a_golden_transcript() {
        for entry in games::GAMES {
            assert!(
                common::GOLDEN.iter().any(|g| g.game == entry.info.id),
                "{} has no golden transcript in tests/common/mod.rs",
                entry.info.id
            );
        }
    }
}

product_test! {
    fn ids_are_unique_and_lookups_work() {
        for (i, entry) in games::GAMES.iter().enumerate() {
            assert!(games::GAMES[..i].iter().all(|e| e.info.id != entry.info.id));
            assert_eq!(games::entry(entry.info.id).map(|e| e.info.id), Some(entry.info.id));
            assert!(entry.info.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
        }
        assert!(games::entry("no-such-game").is_none());
    }
}

product_test! {
    fn every_game_has_sane_facts_and_its_default_setup_builds() {
        for entry in games::GAMES {
            let info = entry.info;
            assert!(info.min_seats >= 1 && info.min_seats <= info.max_seats, "{}", info.id);
            assert!(info.turn_ms > 0 && info.first_turn_ms >= info.turn_ms, "{}", info.id);
            assert!(info.ruleset(info.default_ruleset).is_some(), "{}", info.id);
            for seats in info.min_seats..=info.max_seats {
                let mut setup = engine::Setup::new(info, 1);
                setup.seats = seats;
                let game = games::new_game(&setup).expect("the default setup builds");
                assert_eq!(game.info().id, info.id);
                assert_eq!(game.frame().status.len(), seats);
            }
        }
    }
}

product_test! {
    fn every_game_has_two_builtin_opponents_and_a_wait_bot() {
        for entry in games::GAMES {
            let names: Vec<&str> = bots::builtins(entry.info.id).map(|b| b.name).collect();
            assert!(names.len() >= 3, "{}: {names:?}", entry.info.id);
            assert!(names.contains(&"wait"), "{}: {names:?}", entry.info.id);
            for name in names {
                assert!(bots::builtin(entry.info.id, name, 1).is_some());
            }
        }
    }
}
