//! Registry-wide checks: every game of `games::GAMES` is complete wherever a person meets it (a
//! golden transcript, built-in bots, and an entry in the page's registry, `src/registry.rs`, with
//! a painter that reads its frames, starters in JavaScript, TypeScript and Python and a landing
//! sentence; its rules page: `tests/rules_pages.rs`), and no registry names a game
//! `games::GAMES` lacks; natively, the places off the registries too (its conformance suite,
//! browser test file, benchmark workload and fuzz option sets).

use botplay_web::painters::FrameView;

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
                assert_eq!(game.frame().status().len(), seats);
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

product_test! {
    /// The three registries (`games::GAMES`, `bots::BUILTINS`, the page's `registry::GAMES`)
    /// name the same games.
    fn the_page_has_an_entry_for_every_game_and_for_no_other() {
        let ids: Vec<&str> = botplay_web::registry::GAMES.iter().map(|g| g.id).collect();
        let games: Vec<&str> = games::GAMES.iter().map(|e| e.info.id).collect();
        for id in &games {
            assert!(
                botplay_web::registry::entry(id).is_some(),
                "{id} has no entry in src/registry.rs"
            );
        }
        for id in &ids {
            assert!(games::entry(id).is_some(), "src/registry.rs names '{id}', which games::GAMES lacks");
        }
        assert_eq!(ids, games, "src/registry.rs lists the games once each, in the order of games::GAMES");
        assert!(botplay_web::registry::entry("no-such-game").is_none());
        for bot in bots::BUILTINS {
            assert!(
                games::entry(bot.game).is_some(),
                "bots::BUILTINS has '{}' for '{}', which games::GAMES lacks",
                bot.name,
                bot.game
            );
        }
    }
}

product_test! {
    fn every_game_has_a_painter_that_reads_its_frames() {
        for game in botplay_web::registry::GAMES {
            let info = games::entry(game.id).expect("a game of games::GAMES").info;
            for seats in info.min_seats..=info.max_seats {
                let mut setup = engine::Setup::new(info, 1);
                setup.seats = seats;
                let frame = games::new_game(&setup).expect("the default setup builds").frame();
                let typed = frame.view().expect("a kept frame hands over its view");
                for view in [FrameView::Typed(typed), FrameView::Json(&frame.view_json())] {
                    assert!(
                        game.painter.read(view).is_some(),
                        "{} ({seats} seats): its painter does not read the first frame",
                        game.id
                    );
                }
                // What is not the game's view is refused, typed or as text.
                assert!(game.painter.read(FrameView::Typed(Box::new(7_u8))).is_none());
                assert!(game.painter.read(FrameView::Json("{}")).is_none());
            }
            // A board with controls says what its keys do, and a board without takes none.
            let controls = game.painter.controls().is_some();
            assert_eq!(game.painter.keys().is_some(), controls, "{}", game.id);
            if !controls {
                assert!(!game.painter.takes_key("ArrowLeft"), "{}", game.id);
            }
        }
    }
}

product_test! {
    fn every_game_has_starters_and_a_landing_sentence() {
        use botplay_web::starter;
        for game in botplay_web::registry::GAMES {
            let id = game.id;
            for (language, code, generic) in [
                ("javascript", game.javascript, starter::javascript("no-such-game")),
                ("typescript", game.typescript, starter::typescript("no-such-game")),
                ("python", game.python, starter::python("no-such-game")),
            ] {
                assert!(!code.trim().is_empty(), "{id}: an empty {language} starter");
                assert_ne!(code, generic, "{id}: the generic {language} starter");
                assert_eq!(starter::code(id, language), code, "{id} {language}");
                let others = botplay_web::registry::GAMES.iter().filter(|g| g.id != id);
                for other in others {
                    assert_ne!(code, other.javascript, "{id}: {}'s JavaScript starter", other.id);
                    assert_ne!(code, other.python, "{id}: {}'s Python starter", other.id);
                    assert_ne!(code, other.typescript, "{id}: {}'s TypeScript starter", other.id);
                }
            }
            assert!(
                game.sentence.len() > 20 && game.sentence.ends_with('.'),
                "{id}: its landing sentence '{}'",
                game.sentence
            );
        }
    }
}

product_test! {
    /// Every map the match form offers builds a game (the first, the default, without the
    /// option), and two maps never share a value.
    fn every_map_the_form_offers_builds() {
        for game in botplay_web::registry::GAMES {
            let info = games::entry(game.id).expect("a game").info;
            for (i, &(map, words)) in game.maps.iter().enumerate() {
                assert!(!words.is_empty(), "{}: map {map} has no words", game.id);
                assert!(game.maps[..i].iter().all(|&(m, _)| m != map), "{}: {map} twice", game.id);
                let mut setup = engine::Setup::new(info, 1);
                if i > 0 {
                    setup.options.insert("map".into(), map.into());
                }
                if let Err(e) = games::new_game(&setup) {
                    panic!("{}: the form's map {map} does not build: {e}", game.id);
                }
            }
        }
    }
}

product_test! {
    fn seat_names_and_human_seats_fit_their_games() {
        for game in botplay_web::registry::GAMES {
            let info = games::entry(game.id).expect("a game of games::GAMES").info;
            assert!(game.seat_names.len() <= info.max_seats, "{}", game.id);
            for (seat, name) in game.seat_names.iter().enumerate() {
                assert_eq!(botplay_web::painters::seat_name(game.id, seat), *name);
            }
            assert_eq!(
                botplay_web::painters::seat_name(game.id, info.max_seats),
                format!("seat {}", info.max_seats + 1)
            );
            assert_eq!(botplay_web::human::supports(game.id), game.human.is_some());
            if game.human.is_some() {
                // A person plays the first seat of a two-seat match.
                assert!(info.min_seats <= 2 && 2 <= info.max_seats, "{}", game.id);
            }
        }
        assert!(!botplay_web::human::supports("no-such-game"));
    }
}

/// The places off the registries that a new game also needs, read from the repository's files
/// (natively: the wasm run has no files), so that a game missing one fails here, by name.
#[cfg(not(target_arch = "wasm32"))]
mod off_the_registries {
    use std::path::{Path, PathBuf};

    fn repo(path: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
    }

    fn read(path: &str) -> String {
        std::fs::read_to_string(repo(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
    }

    /// The game's module in `crates/games/src` (its id with `_` for `-`).
    fn module(id: &str) -> String {
        format!("crates/games/src/{}", id.replace('-', "_"))
    }

    #[test]
    fn every_game_runs_the_conformance_suite() {
        for entry in games::GAMES {
            let id = entry.info.id;
            let dir = repo(&module(id));
            let calls = std::fs::read_dir(&dir)
                .unwrap_or_else(|e| panic!("{id}: no module {}: {e}", dir.display()))
                .filter_map(|f| std::fs::read_to_string(f.ok()?.path()).ok())
                .filter(|text| text.contains("engine::conformance_tests!("))
                .count();
            assert!(
                calls > 0,
                "{id} does not run the conformance suite: add `engine::conformance_tests!` to \
                 its tests in {}",
                module(id)
            );
        }
    }

    #[test]
    fn every_game_has_a_browser_test_file_and_no_other_game_has_one() {
        let ids: Vec<&str> = games::GAMES.iter().map(|e| e.info.id).collect();
        for id in &ids {
            let file = format!("tests/e2e/games/{id}.mjs");
            assert!(
                repo(&file).is_file(),
                "{id} has no browser test file: write {file} (see another game's)"
            );
        }
        for file in std::fs::read_dir(repo("tests/e2e/games")).expect("tests/e2e/games") {
            let name = file
                .expect("an entry")
                .file_name()
                .into_string()
                .expect("a name");
            if let Some(id) = name.strip_suffix(".mjs") {
                assert!(ids.contains(&id), "tests/e2e/games/{name} is no game's");
            }
        }
    }

    #[test]
    fn every_game_has_a_bench_workload_and_its_length() {
        let bench = read("crates/bench/src/lib.rs");
        for entry in games::GAMES {
            let id = entry.info.id;
            assert!(
                bench.contains(&format!("Workload::new(\"{id}\",")),
                "{id} has no benchmark workload in crates/bench/src/lib.rs (`workloads`)"
            );
            assert!(
                bench.contains(&format!("(\"{id}\", ")),
                "{id} has no length in crates/bench/src/lib.rs (`WORKLOAD_TURNS`)"
            );
        }
    }

    /// A game takes options when one of the option keys the games use is known to it (its
    /// setup is not refused as an unknown option): the fuzz target must then pick its option
    /// sets on purpose, not only the default ones.
    #[test]
    fn every_game_with_options_has_fuzz_option_sets() {
        let fuzz = read("fuzz/src/lib.rs");
        for entry in games::GAMES {
            let id = entry.info.id;
            let takes_options = ["map", "rounds", "size", "league"].iter().any(|key| {
                let mut setup = engine::Setup::new(entry.info, 1);
                setup.options.insert(key.to_string(), "1".into());
                !matches!(
                    games::new_game(&setup),
                    Err(engine::SetupError::UnknownOption(_))
                )
            });
            if takes_options {
                assert!(
                    fuzz.contains(&format!("\"{id}\" =>")),
                    "{id} takes options but fuzz/src/lib.rs (`option_sets`) picks none of its own"
                );
            }
        }
    }
}
