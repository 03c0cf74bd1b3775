// TypeScript bots: Sucrase's `typescript` transform (MIT, by Alan Pierce), which removes the
// types and turns `enum`s and constructor parameter properties into JavaScript, keeping every
// line where it was (a fault's "line N" is the TypeScript line). No type checking, as a contest's
// judge does none either. Bundled by build.mjs twice: into target/editor/typescript.js, which the
// page fetches only when a TypeScript bot plays and sends to that bot's worker
// (www/js-bot-worker.js runs the transform there, before the bot starts), and into
// crates/cli/vendor/typescript.js, which the CLI embeds and runs under Node
// (crates/cli/src/typescript.rs).
import { transform } from "sucrase";

/**
 * The JavaScript of a TypeScript bot. With `file` (the name the code runs under), also its
 * source map, token by token: `{code, map}`; without, the code alone. A syntax error throws a
 * SyntaxError whose `loc` is `{line, column}` (both from 1) and whose message ends "(line:column)".
 */
globalThis.botplayTypeScript = (code, file) => {
  const options = { transforms: ["typescript"], disableESTransforms: true };
  if (!file) return transform(code, options).code;
  const result = transform(code, { ...options, filePath: file, sourceMapOptions: { compiledFilename: file } });
  return { code: result.code, map: result.sourceMap };
};
