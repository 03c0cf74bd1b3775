//! TypeScript bots: a `.ts` file runs under Node as a `.js` file does (the same `readline()`
//! preload, `seats.rs`), once Sucrase's `typescript` transform has made it JavaScript: the page's
//! own transform (`www/editor/typescript.js`), bundled with Sucrase by `www/editor/build.mjs`
//! into `vendor/typescript.js` and embedded here, so that the CLI needs no npm packages where it
//! runs. (Node's own type stripping is another transform: it refuses `enum`s and parameter
//! properties, which Sucrase turns into JavaScript.)
//!
//! The transform keeps every line where it was, and its source map (token by token) goes with
//! the code to Node, run with `--enable-source-maps`: a crash's stack trace names the `.ts`
//! file, its line and its column. A syntax error ends the bot before it reads anything, with
//! `file:line:column` and the error on its standard error.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::seats::node_preload;

/// Sucrase and the page's transform around it (`globalThis.botplayTypeScript`).
const SUCRASE: &str = include_str!("../vendor/typescript.js");

/// Runs the TypeScript file named by its first argument, after [`SUCRASE`].
const RUNNER: &str = r#"
;(() => {
  const fs = require("fs");
  const path = require("path");
  const Module = require("module");
  const transform = globalThis.botplayTypeScript;
  delete globalThis.botplayTypeScript;
  const file = path.resolve(process.argv[2]);
  let compiled;
  try {
    compiled = transform(fs.readFileSync(file, "utf8"), file);
  } catch (error) {
    // (Sucrase puts "Error transforming FILE: " before its message when it knows the file.)
    const message = String(error && error.message || error).replace(`Error transforming ${file}: `, "");
    const place = / \((\d+):(\d+)\)$/.exec(message);
    const what = place ? message.slice(0, place.index) : message;
    const where = place ? ` (line ${place[1]}, column ${place[2]})` : "";
    process.stderr.write(`${file}${place ? `:${place[1]}:${place[2]}` : ""}\n`);
    process.stderr.write(`SyntaxError: ${what}${where}\n`);
    process.exit(1);
  }
  const map = Buffer.from(JSON.stringify(compiled.map)).toString("base64");
  const code = `${compiled.code}\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${map}\n`;
  // The bot runs as the main module of its own file, as `node bot.js` runs a JavaScript bot.
  const bot = new Module(file, null);
  bot.filename = file;
  bot.paths = Module._nodeModulePaths(path.dirname(file));
  process.argv.splice(1, 1);
  process.mainModule = bot;
  require.main = bot;
  // As CommonJS, said outright: a newer Node would otherwise strip the types of a `.ts` file
  // itself (already done here), or take its syntax for a module's.
  bot._compile(code, file, "commonjs");
})();
"#;

/// Whether a spec is a TypeScript file to run: one word, ending in `.ts`, an existing file.
pub fn is_file(spec: &str) -> bool {
    let spec = spec.trim();
    spec.ends_with(".ts") && !spec.contains(char::is_whitespace) && Path::new(spec).is_file()
}

/// The runner's file (Sucrase and [`RUNNER`]), written once per process as the preload is.
fn runner() -> Result<PathBuf, String> {
    static RUNNER_FILE: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    RUNNER_FILE
        .get_or_init(|| crate::seats::script_file("typescript", &[SUCRASE, RUNNER]))
        .clone()
}

/// Node's arguments that run the TypeScript file `path`.
fn node_args(path: &str) -> Result<Vec<String>, String> {
    Ok(vec![
        "--enable-source-maps".into(),
        "--require".into(),
        node_preload()?.display().to_string(),
        runner()?.display().to_string(),
        path.into(),
    ])
}

/// The command that runs the TypeScript file `path`.
pub fn command(path: &str) -> Result<Command, String> {
    let mut command = Command::new("node");
    command.args(node_args(path.trim())?);
    Ok(command)
}

/// The same, as a command line for `sh` (a file whose path has spaces).
pub fn command_line(path: &str) -> Result<String, String> {
    let args: Vec<String> = node_args(path)?
        .iter()
        .map(|a| crate::sources::quote(a))
        .collect();
    Ok(format!("node {}", args.join(" ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_transform_is_the_pinned_sucrase() {
        // build.mjs writes vendor/typescript.js from node_modules: the version it names must be
        // the one package.json pins (run `node www/editor/build.mjs` after changing it).
        let package = include_str!("../../../package.json");
        let pinned = package
            .lines()
            .find_map(|l| l.trim().strip_prefix("\"sucrase\": \""))
            .and_then(|rest| rest.split('"').next())
            .expect("package.json pins sucrase");
        assert!(
            SUCRASE.contains(&format!("//   sucrase {pinned} (MIT)")),
            "vendor/typescript.js is not Sucrase {pinned}: run `node www/editor/build.mjs`"
        );
        assert!(SUCRASE.contains("globalThis.botplayTypeScript"));
        let licences = include_str!("../vendor/typescript.LICENSES.txt");
        assert!(licences.contains(&format!("sucrase {pinned} (MIT)")));
    }

    #[test]
    fn a_spaced_path_is_quoted() {
        let line = command_line("/tmp/my bots/bot.ts").expect("a command");
        assert!(
            line.starts_with("node '--enable-source-maps' '--require' "),
            "{line}"
        );
        assert!(line.ends_with(" '/tmp/my bots/bot.ts'"), "{line}");
    }
}
