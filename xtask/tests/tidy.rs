//! Tidy: every reference in the repository points at something the repository contains.
//!
//! A clone has only what git tracks, so a comment, a test or a document that sends its reader
//! to a file elsewhere (notes beside the checkout, a design document that was never committed,
//! a numbered item of an outside rules file) leaves the next person with nothing to read. Each
//! game's module rulebook (`crates/games/src/<game>/mod.rs`) is the place for its facts.
//!
//! This test reads every tracked text file (`git ls-files`) and fails on:
//!
//! - a mention of the folder of notes kept beside the repository, outside it ([`OUTSIDE`]);
//! - a mention of a capitalised markdown document (`NAME.md`, as `README.md`) that the
//!   repository does not hold (the design notes and rulings kept outside it);
//! - "rules file" with an item number (`A.5`, `B.6 step 2`), or such an item number on its own
//!   (a capital A to C, a dot, one or two digits), or "appendix R": items of an outside file;
//! - (another test) a built-in bot that reaches for more of a game than its pure types and
//!   helpers: bots see only protocol text, so no file of `crates/bots/src` but the in-process
//!   driver (`local.rs`) names a game's constructor, registry, state or the referee;
//! - (another test) a citation of a game's rulebook, "rulebook: *Section*", in that game's files
//!   that names no heading or bold paragraph title of its rulebook;
//! - (another test) a function outside tests longer than 120 lines (read with `syn`: free
//!   functions and Yew components, methods, trait defaults, nested functions; code under
//!   `#[cfg(test)]`, `#[test]` functions and files in a `tests` folder aside): split it;
//! - a relative markdown link, or a path in backticks that looks like a repository path (a `/`,
//!   an ending such as `.rs`, `.md`, `.mjs`, `.js`, `.toml`, `.json`, `.html`, `.css`, and a
//!   first folder that the repository has), that names no tracked file or folder. A path is
//!   read from the file's folder and every folder above it up to the root (a crate's documents
//!   name their own paths), or as the tail of a tracked path (`app/rules.rs` in a sentence about
//!   `src/`).

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

/// The endings that make a backticked word a repository path.
const ENDINGS: &[&str] = &[
    ".rs", ".md", ".mjs", ".js", ".toml", ".json", ".html", ".css", ".py", ".txt",
];

/// This file, which names what it looks for.
const SELF: &str = "xtask/tests/tidy.rs";

/// Folders that builds and package managers make, never tracked: a path into them is fine.
const GENERATED: &[&str] = &[
    "target/",
    "dist/",
    "node_modules/",
    "fuzz/target/",
    "fuzz/corpus/",
];

/// Known references to what the repository does not hold, left for their owners to rewrite:
/// (file, the text on the line). Remove an entry once its line is gone.
const KNOWN: &[(&str, &str)] = &[];

/// The tracked files and every folder that holds one, as paths from the repository's root.
struct Tree {
    files: BTreeSet<String>,
    folders: BTreeSet<String>,
}

impl Tree {
    fn read(root: &Path) -> Tree {
        let out = Command::new("git")
            .args(["ls-files", "-z"])
            .current_dir(root)
            .output()
            .expect("git runs (the tidy test reads the tracked files)");
        assert!(out.status.success(), "git ls-files failed");
        let files: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
            .split('\0')
            .filter(|p| !p.is_empty())
            .map(str::to_string)
            .collect();
        let mut folders = BTreeSet::new();
        folders.insert(String::new());
        for file in &files {
            let mut at = file.as_str();
            while let Some(cut) = at.rfind('/') {
                at = &at[..cut];
                folders.insert(at.to_string());
            }
        }
        Tree { files, folders }
    }

    /// Whether some tracked folder, at any depth, is called `name`.
    fn has_folder_named(&self, name: &str) -> bool {
        name == "."
            || name == ".."
            || self
                .folders
                .iter()
                .any(|f| f == name || f.ends_with(&format!("/{name}")))
    }

    /// Whether `path` is the tail of a tracked file's or folder's path.
    fn has_tail(&self, path: &str) -> bool {
        let tail = format!("/{}", path.trim_end_matches('/'));
        self.files
            .iter()
            .chain(&self.folders)
            .any(|f| f.ends_with(&tail))
    }

    fn holds(&self, path: &str) -> bool {
        let path = path.trim_end_matches('/');
        self.files.contains(path) || self.folders.contains(path)
    }

    /// Whether `target`, read from `folder` or any folder above it (the root last), is tracked.
    fn resolves(&self, folder: &str, target: &str) -> bool {
        if GENERATED.iter().any(|g| target.starts_with(g)) {
            return true;
        }
        let mut base = Some(folder);
        while let Some(at) = base {
            if let Some(path) = join(at, target) {
                if self.holds(&path) || GENERATED.iter().any(|g| path.starts_with(g)) {
                    return true;
                }
            }
            base = if at.is_empty() {
                None
            } else {
                Some(at.rfind('/').map_or("", |cut| &at[..cut]))
            };
        }
        !target.starts_with("./") && !target.starts_with("../") && self.has_tail(target)
    }
}

/// `folder/target` with `.` and `..` worked out; `None` if it climbs out of the repository.
fn join(folder: &str, target: &str) -> Option<String> {
    let mut parts: Vec<&str> = folder.split('/').filter(|p| !p.is_empty()).collect();
    for part in target.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// Whether `word` looks like a path of this repository: relative, no placeholders, a `/`, a
/// known ending, and a first folder the repository has (not a program's output such as
/// `DIR/match-0001.json`).
fn looks_like_a_path(tree: &Tree, word: &str) -> bool {
    !word.is_empty()
        && tree.has_folder_named(word.split('/').next().unwrap_or(""))
        && word.contains('/')
        && !word.starts_with('/')
        && !word.starts_with('~')
        && !word.contains("://")
        && !word.contains("::")
        && !word
            .chars()
            .any(|c| c.is_whitespace() || "*<>{}[]()$…|,;:'\"=%?".contains(c))
        && ENDINGS.iter().any(|e| word.ends_with(e))
}

/// Where a line names an item of an outside rules file: "rules file" then, within a few
/// characters, an item number such as `A.5`.
fn rules_file_item(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("rules file") {
        let after = &line[from + at + "rules file".len()..];
        let near: Vec<char> = after.chars().take(12).collect();
        if near
            .windows(3)
            .any(|w| w[0].is_ascii_uppercase() && w[1] == '.' && w[2].is_ascii_digit())
        {
            return true;
        }
        from += at + 1;
    }
    false
}

/// Where a line names a numbered item of an outside rules file on its own: `A.5`, `C.11`, or
/// "appendix R".
fn outside_item(line: &str) -> bool {
    let chars: Vec<char> = line.chars().collect();
    let item = (0..chars.len()).any(|i| {
        let before = i.checked_sub(1).map(|j| chars[j]);
        let digits = chars
            .get(i + 2..)
            .unwrap_or_default()
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let after = chars.get(i + 2 + digits);
        ('A'..='C').contains(&chars[i])
            && chars.get(i + 1) == Some(&'.')
            && (1..=2).contains(&digits)
            && before.is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'))
            && after.is_none_or(|c| !(c.is_alphanumeric() || *c == '.' || *c == '_'))
    });
    item || line.to_ascii_lowercase().contains("appendix r")
}

/// The capitalised markdown documents a line names: `README.md`, `SECURITY.md` (a name of capital
/// letters, digits and `_`, then `.md`), wherever they stand on the line.
fn capitalised_documents(line: &str) -> Vec<&str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '.'))
        .filter(|word| {
            word.strip_suffix(".md").is_some_and(|name| {
                name.starts_with(|c: char| c.is_ascii_uppercase())
                    && name
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
            })
        })
        .collect()
}

/// The name of the folder of notes kept beside the repository (never part of a clone), as a
/// path begins with it. Spelled in two pieces so that this file does not name it itself.
const OUTSIDE: &str = concat!("sha", "red/");

/// Where a line mentions the [`OUTSIDE`] folder (not as the end of a longer name).
fn mentions_outside(line: &str) -> bool {
    line.match_indices(OUTSIDE).any(|(at, _)| {
        line[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.'))
    })
}

/// The targets of the markdown links of a line: `[text](target)`.
fn link_targets(line: &str) -> Vec<&str> {
    let mut targets = Vec::new();
    let mut from = 0;
    while let Some(at) = line[from..].find("](") {
        let start = from + at + 2;
        let Some(len) = line[start..].find(')') else {
            break;
        };
        targets.push(&line[start..start + len]);
        from = start + len;
    }
    targets
}

/// Every problem of one file's text, as `path:line: what`.
fn problems(tree: &Tree, path: &str, text: &str) -> Vec<String> {
    let folder = path.rfind('/').map_or("", |cut| &path[..cut]);
    let mut found = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut say = |what: String| found.push(format!("{path}:{}: {what}", n + 1));
        if mentions_outside(line) {
            say(format!(
                "names the `{OUTSIDE}` folder outside the repository"
            ));
        }
        for doc in capitalised_documents(line) {
            let known = KNOWN.contains(&(path, doc));
            if !tree.holds(doc) && !tree.has_tail(doc) && !known {
                say(format!("names {doc}, which the repository does not hold"));
            }
        }
        if rules_file_item(line) {
            say("names an item of an outside rules file".into());
        } else if outside_item(line) && !KNOWN.contains(&(path, "appendix R")) {
            say("names a numbered item of an outside rules file".into());
        }
        for target in link_targets(line) {
            let target = target.split(['#', '?', ' ']).next().unwrap_or("");
            let pathlike = !target.contains("://")
                && !target.starts_with("mailto:")
                && !target.contains("::")
                && (target.contains('/') || ENDINGS.iter().any(|e| target.ends_with(e)));
            if pathlike && !target.starts_with('/') && !tree.resolves(folder, target) {
                say(format!("links to {target}, which is not in the repository"));
            }
        }
        for (i, word) in line.split('`').enumerate() {
            if i % 2 == 1 && looks_like_a_path(tree, word) && !tree.resolves(folder, word) {
                say(format!("names `{word}`, which is not in the repository"));
            }
        }
    }
    found
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask sits in the repository's root")
}

#[test]
fn every_reference_points_inside_the_repository() {
    let root = root();
    let tree = Tree::read(root);
    let mut found = Vec::new();
    let mut read = 0;
    for path in &tree.files {
        if path == SELF {
            continue; // it names what it looks for
        }
        let Ok(bytes) = std::fs::read(root.join(path)) else {
            continue; // deleted in the working tree, not yet in the index
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue; // not text
        };
        read += 1;
        found.extend(problems(&tree, path, &text));
    }
    assert!(read > 100, "only {read} text files were read");
    assert!(
        found.is_empty(),
        "{} reference(s) to what the repository does not contain (each game's facts belong in \
         its module rulebook, crates/games/src/<game>/mod.rs):\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_checks_catch_what_they_are_for() {
    // A bot's test module may build a game; the bot's own code may not.
    let bots = "crates/bots/src/crafting_quest";
    assert!(only_for_tests(
        root(),
        &format!("{bots}/protocol/decoder_tests.rs")
    ));
    assert!(!only_for_tests(root(), &format!("{bots}/crafter.rs")));
    let tree = Tree {
        files: [
            "README.md",
            "crates/games/src/lib.rs",
            "docs/a.md",
            "src/app/rules.rs",
        ]
        .map(String::from)
        .into(),
        folders: [
            "",
            "crates",
            "crates/games",
            "crates/games/src",
            "docs",
            "src",
            "src/app",
        ]
        .map(String::from)
        .into(),
    };
    let outside_notes = format!("// see {OUTSIDE}notes/a-game.md");
    let outside_folder = format!("see `../{OUTSIDE}b/001`");
    let bad = [
        outside_notes.as_str(),
        outside_folder.as_str(),
        "as PLAN.md says",
        "(RULINGS.md)",
        "/// rules file A.5: parsing",
        "/// A.2: the map is 12 × 12.",
        "(C.6 step 5)",
        "the test vectors of appendix R",
        "the rules file's B.11 map",
        "[the notes](notes/todo.md)",
        "[up](../../elsewhere.md)",
        "`crates/games/src/gone.rs`",
        "`src/nothing/here.js`",
    ];
    for line in bad {
        assert_eq!(
            problems(&tree, "docs/a.md", line).len(),
            1,
            "not caught: {line}"
        );
    }
    let good = [
        "wasm-bindgen-shared/ and not_shared/",
        "the rules file says nothing numbered",
        "[README](../README.md) and [lib](../crates/games/src/lib.rs)",
        "[Leagues](#leagues) [docs](https://example.org/a/b.md) [x](crate::a::b)",
        "`crates/games/src/lib.rs` `crates/games/src/<game>/mod.rs` `app/rules.rs` `games/src/lib.rs`",
        "`DIR/match-0001.json` `new/estimates.json`: a program's output, not the repository's",
        "`/tmp/x.rs` `https://x.org/a.js` `a.rs` `target/debug/x.json`",
        "version 0.1.2, A.b, B.123, XA.5, v.C.1, the letter C. 5 apples",
        "see README.md and notes.md, or docs/a.md",
    ];
    for line in good {
        assert_eq!(
            problems(&tree, "docs/a.md", line),
            Vec::<String>::new(),
            "a false alarm: {line}"
        );
    }
}

/// The section names of a rulebook: its `#` headings and its bold paragraph titles.
fn rulebook_sections(module: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for line in module.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim_start();
        if doc.starts_with('#') {
            names.insert(doc.trim_start_matches('#').trim().to_string());
        }
        for (i, bold) in doc.split("**").enumerate() {
            if i % 2 == 1 {
                names.insert(bold.trim_end_matches('.').trim().to_string());
            }
        }
    }
    names
}

/// The `*Section*` names a line cites after "rulebook" (as `rulebook: *A*, *B*` or
/// `Rulebook, *A* and *B*: …`).
fn cited_sections(line: &str) -> Vec<&str> {
    let Some(at) = line.to_ascii_lowercase().find("rulebook") else {
        return Vec::new();
    };
    let mut cited = Vec::new();
    let rest = &line[at..];
    let mut parts = rest.split('*');
    parts.next();
    while let (Some(name), Some(between)) = (parts.next(), parts.next()) {
        cited.push(name);
        // Citations are joined by ", ", " and ", " / "; anything else ends them.
        let joined = matches!(between.trim(), "," | "and" | "/" | "" | ", and");
        if !joined {
            break;
        }
    }
    cited
}

#[test]
fn rulebook_citations_name_sections_of_the_rulebook() {
    let root = root();
    let tree = Tree::read(root);
    let mut found = Vec::new();
    let games = root.join("crates/games/src");
    for path in &tree.files {
        let Some(rest) = path.strip_prefix("crates/games/src/") else {
            continue;
        };
        let Some((game, _)) = rest.split_once('/') else {
            continue;
        };
        let Ok(module) = std::fs::read_to_string(games.join(game).join("mod.rs")) else {
            continue;
        };
        let sections = rulebook_sections(&module);
        let text = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            for name in cited_sections(line) {
                if !sections.iter().any(|s| s == name || s.starts_with(name)) {
                    found.push(format!("{path}:{}: cites *{name}*", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "rulebook citations that name no section of the game's rulebook (a `##` heading or a \
         bold paragraph title of its mod.rs):\n{}",
        found.join("\n")
    );
}

#[test]
fn citations_are_read_as_written() {
    assert_eq!(
        cited_sections("/// Rulebook, *Facts*: the map is 12 × 12."),
        ["Facts"]
    );
    assert_eq!(
        cited_sections("(rulebook: *Rules*, *End and scoring*) and *other* words"),
        ["Rules", "End and scoring"]
    );
    assert_eq!(
        cited_sections("/// Rulebook, *Energy* and *Towers*: at the start"),
        ["Energy", "Towers"]
    );
    assert!(cited_sections("no citation *here*").is_empty());
    let sections = rulebook_sections("//! ## Map generation\n//! **A turn.** Both\n");
    assert!(sections.contains("Map generation") && sections.contains("A turn"));
}

/// What a built-in bot may not name: a way to build or hold a game (its registry, constructor,
/// state, typed layer) or the referee. Bots may use a game's pure types and helpers.
const NOT_FOR_BOTS: &[&str] = &[
    "new_game",
    "GAMES",
    "GameEntry",
    "ENTRY",
    "Referee",
    "dyn Game",
    "engine::Game",
    "Rules",
    "Setup",
    "games::entry",
];

/// Whether `code` names `word` as a whole word.
fn names_word(code: &str, word: &str) -> bool {
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        let part = |c: char| c.is_alphanumeric() || c == '_';
        !before.is_some_and(part) && !after.is_some_and(part)
    })
}

/// Whether the module file `path` is compiled for tests only: its parent module declares it
/// under `#[cfg(test)]` (a bot's tests may build a game to write the protocol text it reads).
fn only_for_tests(root: &Path, path: &str) -> bool {
    let file = Path::new(path);
    let (Some(stem), Some(dir)) = (file.file_stem(), file.parent()) else {
        return false;
    };
    let declaration = format!("#[cfg(test)]\nmod {};", stem.to_string_lossy());
    let parents = [dir.with_extension("rs"), dir.join("mod.rs")];
    parents.iter().any(|parent| {
        std::fs::read_to_string(root.join(parent)).is_ok_and(|text| text.contains(&declaration))
    })
}

#[test]
fn bots_use_only_a_games_pure_types_and_helpers() {
    let root = root();
    let tree = Tree::read(root);
    let mut found = Vec::new();
    for path in &tree.files {
        if !path.starts_with("crates/bots/src/")
            || !path.ends_with(".rs")
            || path == "crates/bots/src/local.rs"
            || only_for_tests(root, path)
        {
            continue;
        }
        let text = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for word in NOT_FOR_BOTS {
                if names_word(code, word) {
                    found.push(format!("{path}:{}: names {word}", n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "built-in bots see only protocol text and may use a game's pure types and helpers, \
         never a game itself or the referee:\n{}",
        found.join("\n")
    );
    assert!(names_word("let g = games::new_game(&s);", "new_game"));
    assert!(!names_word("fn new_game_like()", "new_game"));
}

// Long functions ---------------------------------------------------------------------------------

/// The most lines a function outside tests may span, from `fn` to its closing brace.
const LONGEST_FUNCTION: usize = 120;

/// Where Rust code lives; every `.rs` file under these folders is read (tests aside).
const CODE_FOLDERS: &[&str] = &["crates", "src", "xtask", "bots", "fuzz"];

/// Folders never read: builds, packages, fuzz inputs, and tests (which may be long).
fn skipped_folder(name: &str) -> bool {
    name.starts_with('.')
        || ["target", "node_modules", "corpus", "artifacts", "tests"].contains(&name)
}

/// Every `.rs` file under `folder` (a path from the repository's root), skipped folders aside.
fn rust_files(root: &Path, folder: &str, into: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let path = format!("{folder}/{name}");
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        if kind.is_dir() && !skipped_folder(&name) {
            rust_files(root, &path, into);
        } else if kind.is_file() && name.ends_with(".rs") {
            into.push(path);
        }
    }
}

/// Whether a `cfg` predicate holds only when testing: `test`, or `all(…)` with `test` in it.
fn only_when_testing(meta: &syn::Meta) -> bool {
    use syn::punctuated::Punctuated;
    match meta {
        syn::Meta::Path(path) => path.is_ident("test"),
        syn::Meta::List(list) if list.path.is_ident("all") => list
            .parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
            .is_ok_and(|parts| parts.iter().any(only_when_testing)),
        _ => false,
    }
}

/// Whether attributes mark test code: `#[cfg(test)]` (or `cfg(all(test, …))`) or a test
/// function (`#[test]`, `#[wasm_bindgen_test]`, `#[tokio::test]`).
fn marks_test_code(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        let path = attr.path();
        if path.is_ident("cfg") {
            return attr
                .parse_args::<syn::Meta>()
                .is_ok_and(|meta| only_when_testing(&meta));
        }
        path.segments
            .last()
            .is_some_and(|last| last.ident == "test" || last.ident == "wasm_bindgen_test")
    })
}

/// The attributes of an item, where its kind has them.
fn item_attrs(item: &syn::Item) -> &[syn::Attribute] {
    use syn::Item;
    match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::ForeignMod(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::TraitAlias(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => &[],
    }
}

/// Walks a file's syntax tree and notes every function over [`LONGEST_FUNCTION`] lines that is
/// not test code: free functions (Yew's `#[function_component]`s among them), methods in impls
/// and traits, and functions nested in other functions.
struct LongFunctions {
    /// The names around the function being read: a type, a trait, an outer function.
    inside: Vec<String>,
    /// (qualified name, lines) of each function found too long.
    found: Vec<(String, usize)>,
}

impl LongFunctions {
    fn read(source: &str) -> Result<Vec<(String, usize)>, syn::Error> {
        let file = syn::parse_file(source)?;
        let mut walker = LongFunctions {
            inside: Vec::new(),
            found: Vec::new(),
        };
        syn::visit::Visit::visit_file(&mut walker, &file);
        Ok(walker.found)
    }

    /// Measures the function `sig { body }` and then reads its body under its name.
    fn function(&mut self, sig: &syn::Signature, body: &syn::Block) {
        use syn::spanned::Spanned;
        let first = sig.span().start().line;
        let last = body.brace_token.span.close().end().line;
        let lines = last + 1 - first;
        let name = sig.ident.to_string();
        if lines > LONGEST_FUNCTION {
            let mut qualified = self.inside.clone();
            qualified.push(name.clone());
            self.found.push((qualified.join("::"), lines));
        }
        self.inside.push(name);
        syn::visit::Visit::visit_block(self, body);
        self.inside.pop();
    }
}

impl<'ast> syn::visit::Visit<'ast> for LongFunctions {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !marks_test_code(item_attrs(item)) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        self.function(&f.sig, &f.block);
    }

    fn visit_item_impl(&mut self, block: &'ast syn::ItemImpl) {
        self.inside.push(type_name(&block.self_ty));
        syn::visit::visit_item_impl(self, block);
        self.inside.pop();
    }

    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.inside.push(t.ident.to_string());
        syn::visit::visit_item_trait(self, t);
        self.inside.pop();
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if !marks_test_code(&f.attrs) {
            self.function(&f.sig, &f.block);
        }
    }

    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let (Some(body), false) = (&f.default, marks_test_code(&f.attrs)) {
            self.function(&f.sig, body);
        }
    }
}

/// The name of an impl's type (`Board` for `impl<'a> Board<'a>`), or `impl` for another kind.
fn type_name(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(path) => path
            .path
            .segments
            .last()
            .map_or_else(|| "impl".to_string(), |last| last.ident.to_string()),
        _ => "impl".to_string(),
    }
}

/// Whether the module file `path` is test code: under a `tests` folder, or declared by its
/// parent under `#[cfg(test)]`.
fn test_file(root: &Path, path: &str) -> bool {
    path.split('/').any(|part| part == "tests") || only_for_tests(root, path)
}

#[test]
fn no_function_is_longer_than_it_can_be_read() {
    let root = root();
    let mut files = Vec::new();
    for folder in CODE_FOLDERS {
        rust_files(root, folder, &mut files);
    }
    files.sort();
    assert!(
        files.len() > 100,
        "only {} Rust files were found",
        files.len()
    );
    let mut found = Vec::new();
    for path in files.iter().filter(|path| !test_file(root, path)) {
        let source = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        match LongFunctions::read(&source) {
            Ok(long) => found.extend(
                long.into_iter()
                    .map(|(name, lines)| format!("{path}: fn {name} is {lines} lines")),
            ),
            Err(error) => {
                let at = error.span().start();
                found.push(format!("{path}:{}: not read as Rust: {error}", at.line));
            }
        }
    }
    assert!(
        found.is_empty(),
        "{} function(s) outside tests over {LONGEST_FUNCTION} lines: split it into functions \
         (or child components) with one job each, named after it:\n{}",
        found.len(),
        found.join("\n")
    );
}

#[test]
fn the_long_function_check_catches_what_it_is_for() {
    let body = |lines: usize| "    step();\n".repeat(lines - 2);
    let source = format!(
        "fn short() {{\n{short}}}\n\
         pub fn long() {{\n{long}}}\n\
         #[function_component]\nfn Page() -> Html {{\n{long}}}\n\
         impl<'a> Board<'a> {{ fn draw(&self) {{\n{long}}} }}\n\
         trait Bot {{ fn play(&self) {{\n{long}}} fn name(&self); }}\n\
         fn outer() {{ fn inner() {{\n{long}}} }}\n\
         #[test]\nfn a_test() {{\n{long}}}\n\
         #[cfg(test)]\nmod tests {{ fn helper() {{\n{long}}} }}\n\
         #[cfg(all(test, feature = \"x\"))]\nfn helper() {{\n{long}}}\n\
         #[cfg(not(test))]\nfn shipped() {{\n{long}}}\n",
        short = body(LONGEST_FUNCTION),
        long = body(LONGEST_FUNCTION + 1),
    );
    let found = LongFunctions::read(&source).expect("the example is Rust");
    let long = LONGEST_FUNCTION + 1;
    let names: Vec<(&str, usize)> = found.iter().map(|(n, l)| (n.as_str(), *l)).collect();
    assert_eq!(
        names,
        [
            ("long", long),
            ("Page", long),
            ("Board::draw", long),
            ("Bot::play", long),
            ("outer", long),
            ("outer::inner", long),
            ("shipped", long),
        ]
    );
    assert!(test_file(root(), "crates/cli/tests/common/mod.rs"));
    assert!(!test_file(root(), "crates/cli/src/main.rs"));
}
