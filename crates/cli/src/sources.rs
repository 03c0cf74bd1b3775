//! Where a bot comes from: a `--bot` spec (a command, `builtin:NAME`, `pty:COMMAND`), a share
//! link's code bot (`--bot 'https://…#b1.…'` or the bare `b1.…`), or a class's bot
//! (`arena --class FILE`). Each becomes a [`Source`]: what to run (a spec for
//! [`crate::seats::SeatedBot::start`]) and what to call it (in tables, JSON and replays).
//!
//! Code is written to a folder of its own ([`CodeDir`], under the system's temporary folder),
//! removed when the command ends (or by [`remove_code_dirs`] when Ctrl-C ends `play`): a
//! JavaScript file runs as a `.js` file given to `--bot` does (Node with the `readline()`
//! preload), a TypeScript file as a `.ts` file does (the same, after Sucrase), a Python file
//! under `python3`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use arena::class::ClassBot;
use arena::report::BotLabel;
use engine::{ShareDoc, SharedBot};

/// A bot ready to be seated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// What [`crate::seats::SeatedBot::start`] runs.
    pub run: String,
    /// How it was given and what it is called.
    pub label: BotLabel,
}

impl Source {
    pub fn name(&self) -> &str {
        &self.label.name
    }
}

/// Folders of code this process wrote and has not removed yet.
static LIVE_DIRS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every folder of code still there (for a process about to exit on Ctrl-C).
pub fn remove_code_dirs() {
    let dirs = std::mem::take(&mut *LIVE_DIRS.lock().unwrap_or_else(|e| e.into_inner()));
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// A temporary folder for bots' code, made when the first file is written and removed with
/// everything in it when dropped.
#[derive(Default)]
pub struct CodeDir {
    dir: Option<PathBuf>,
    files: usize,
}

impl CodeDir {
    pub fn new() -> CodeDir {
        CodeDir::default()
    }

    /// The folder, made on first use (a name no other botplay process uses).
    fn dir(&mut self) -> Result<&Path, String> {
        static MADE: AtomicUsize = AtomicUsize::new(0);
        if self.dir.is_none() {
            let base = std::env::temp_dir();
            let dir = loop {
                let n = MADE.fetch_add(1, Ordering::SeqCst);
                let dir = base.join(format!("botplay-code-{}-{n}", std::process::id()));
                match std::fs::create_dir(&dir) {
                    Ok(()) => break dir,
                    Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => {}
                    Err(e) => {
                        return Err(format!(
                            "cannot make a folder for the bots' code in {}: {e}",
                            base.display()
                        ))
                    }
                }
            };
            LIVE_DIRS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(dir.clone());
            self.dir = Some(dir);
        }
        Ok(self.dir.as_deref().unwrap_or(Path::new("")))
    }

    /// Writes a bot's code and returns the spec that runs it. `name` is the bot's, for errors.
    fn write(&mut self, name: &str, language: &str, code: &str) -> Result<String, String> {
        if language == "wasm" {
            return self.write_wasm(name, code);
        }
        let ending = match language {
            "javascript" => "js",
            "typescript" => "ts",
            "python" => "py",
            other => {
                return Err(format!(
                    "bot '{name}' is written in '{other}': the CLI runs JavaScript, TypeScript \
                     and Python"
                ))
            }
        };
        self.files += 1;
        let number = self.files;
        let file = self.dir()?.join(format!("bot-{number}.{ending}"));
        std::fs::write(&file, code)
            .map_err(|e| format!("cannot write bot '{name}' to {}: {e}", file.display()))?;
        let path = file.display().to_string();
        Ok(match ending {
            // A lone `.js` file runs under Node with the readline() preload (`seats.rs`), a lone
            // `.ts` file too, after Sucrase (`typescript.rs`).
            "js" | "ts" if !path.contains(char::is_whitespace) => path,
            "ts" => crate::typescript::command_line(&path)?,
            "js" => format!(
                "node --require {} {}",
                quote(&crate::seats::node_preload()?.display().to_string()),
                quote(&path)
            ),
            _ => format!("python3 {}", quote(&path)),
        })
    }
}

impl Drop for CodeDir {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let _ = std::fs::remove_dir_all(&dir);
            LIVE_DIRS
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .retain(|d| d != &dir);
        }
    }
}

impl CodeDir {
    /// A WebAssembly bot of a class or link: its module in base64 (as a class file carries it),
    /// written as `bot-N.wasm`, whose path is the spec that runs it (`wasm_bot.rs`).
    fn write_wasm(&mut self, name: &str, code: &str) -> Result<String, String> {
        use base64::engine::{general_purpose, DecodePaddingMode, GeneralPurpose};
        use base64::Engine as _;
        let base64 = GeneralPurpose::new(
            &base64::alphabet::STANDARD,
            general_purpose::PAD.with_decode_padding_mode(DecodePaddingMode::Indifferent),
        );
        let text: String = code.chars().filter(|c| !c.is_whitespace()).collect();
        let bytes = base64.decode(text).map_err(|e| {
            format!("bot '{name}': its WebAssembly module is not valid base64: {e}")
        })?;
        self.files += 1;
        let number = self.files;
        let file = self.dir()?.join(format!("bot-{number}.wasm"));
        std::fs::write(&file, bytes)
            .map_err(|e| format!("cannot write bot '{name}' to {}: {e}", file.display()))?;
        Ok(file.display().to_string())
    }
}

/// `text` quoted for `sh`.
pub(crate) fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// Whether a spec is a link (a whole URL with a fragment, or a bare fragment such as `b1.…` or
/// `c1.…`) rather than a command: one word, its fragment a letter, digits and a dot.
pub fn is_link(spec: &str) -> bool {
    let spec = spec.trim();
    if spec.is_empty() || spec.contains(char::is_whitespace) {
        return false;
    }
    let fragment = match spec.split_once('#') {
        Some((base, fragment)) if base.contains("://") || base.is_empty() => fragment,
        Some(_) => return false,
        None => spec,
    };
    let mut chars = fragment.chars();
    matches!(chars.next(), Some('b' | 'c')) && {
        let rest: String = chars.collect();
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        digits > 0 && rest[digits..].starts_with('.')
    }
}

/// The bot of a `--bot` spec: a command or built-in bot named by its spec, or a share link's
/// first code bot named as the link names it.
pub fn of_spec(spec: &str, code: &mut CodeDir) -> Result<Source, String> {
    if !is_link(spec) {
        return Ok(Source {
            run: spec.to_string(),
            label: BotLabel::of_spec(spec),
        });
    }
    let fragment = spec.trim().rsplit('#').next().unwrap_or_default();
    if fragment.starts_with('c') {
        return Err(format!(
            "--bot {}: a class link, not a match's share link: play a class with \
             `botplay arena --class FILE`",
            short(spec)
        ));
    }
    let doc = ShareDoc::decode(spec).map_err(|e| format!("--bot {}: {e}", short(spec)))?;
    let Some(SharedBot::Code {
        name,
        language,
        code: text,
    }) = doc
        .bots
        .into_iter()
        .find(|b| matches!(b, SharedBot::Code { .. }))
    else {
        return Err(format!(
            "--bot {}: the link holds no code bot (only built-in bots or programs)",
            short(spec)
        ));
    };
    let name = if name.trim().is_empty() {
        "link bot".to_string()
    } else {
        name
    };
    let run = code.write(&name, &language, &text)?;
    Ok(Source {
        run,
        label: BotLabel {
            spec: spec.to_string(),
            name,
            pseudonym: String::new(),
        },
    })
}

/// A class's bot: its code written out, or its built-in bot; named by its class name.
pub fn of_class_bot(bot: &ClassBot, code: &mut CodeDir) -> Result<Source, String> {
    let (run, spec) = match &bot.bot {
        SharedBot::Builtin { name } => (format!("builtin:{name}"), format!("builtin:{name}")),
        SharedBot::Code {
            language,
            code: text,
            ..
        } => (code.write(&bot.name, language, text)?, language.clone()),
        SharedBot::Program { name } => {
            return Err(format!(
                "bot '{}' is a local program ('{name}'), which a class cannot carry",
                bot.name
            ))
        }
    };
    Ok(Source {
        run,
        label: BotLabel {
            spec,
            name: bot.name.clone(),
            pseudonym: bot.pseudonym.clone(),
        },
    })
}

/// A long link cut for a message.
fn short(spec: &str) -> String {
    let spec = spec.trim();
    if spec.chars().count() <= 40 {
        spec.to_string()
    } else {
        let cut: String = spec.chars().take(37).collect();
        format!("{cut}...")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_told_from_commands() {
        for link in [
            "b1.eJx",
            "https://example.org/botplay/#b1.eJx",
            "http://127.0.0.1:8080/#c1.abc",
            "#b12.x",
        ] {
            assert!(is_link(link), "{link}");
        }
        for command in [
            "python3 bot.py",
            "./b1.sh",
            "b1",
            "bx.1",
            "builtin:wait",
            "echo '#b1.x'",
            "a#b1.x",
            "",
        ] {
            assert!(!is_link(command), "{command}");
        }
    }

    #[test]
    fn code_is_written_to_a_folder_that_goes_away() {
        let mut dir = CodeDir::new();
        let js = dir.write("a", "javascript", "print(1)").expect("js");
        let py = dir.write("b", "python", "print(1)").expect("py");
        let ts = dir
            .write("c", "typescript", "let n: number = 1;")
            .expect("ts");
        assert!(ts.ends_with("bot-3.ts") && Path::new(&ts).is_file(), "{ts}");
        assert!(js.ends_with("bot-1.js") && Path::new(&js).is_file(), "{js}");
        assert!(
            py.starts_with("python3 '") && py.ends_with("bot-2.py'"),
            "{py}"
        );
        let err = dir.write("Ada", "cobol", "").unwrap_err();
        assert!(err.contains("'cobol'") && err.contains("Ada"), "{err}");
        let folder = dir.dir.clone().expect("made");
        assert!(LIVE_DIRS.lock().expect("lock").contains(&folder));
        drop(dir);
        assert!(!folder.exists());
        assert!(!LIVE_DIRS.lock().expect("lock").contains(&folder));
        assert_eq!(quote("it's"), r"'it'\''s'");
    }
}
