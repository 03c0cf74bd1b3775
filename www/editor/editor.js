// The bot editor: CodeMirror 6 with JavaScript and Python modes, bundled at build time by
// esbuild (build.mjs; no CDN). The app calls `botplayEditor.create(host, doc, language,
// onChange)` and gets a handle with getDoc/setDoc/setLanguage/focus/destroy. `onChange` hears
// only what the person types, not the text the app puts in with `setDoc`.
//
// Indentation is the language's, as its starter bots are written (4 spaces in Python, 2 in
// JavaScript), unless the code itself is indented otherwise: then the editor follows the code
// (a Python bot indented with 2 spaces or tabs keeps working when a line is added). Tab and
// Shift-Tab indent and unindent the selected lines by that unit.
//
// The editor lives in a shadow root: there CodeMirror styles itself with constructed style
// sheets instead of <style> tags, so the page keeps its strict `style-src 'self'` policy.

import { basicSetup } from "codemirror";
import { EditorView, keymap } from "@codemirror/view";
import { Compartment, EditorState } from "@codemirror/state";
import { indentWithTab } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { javascript } from "@codemirror/lang-javascript";
import { python } from "@codemirror/lang-python";
import { oneDark } from "@codemirror/theme-one-dark";

const languages = { javascript: () => javascript(), python: () => python() };
// Each language's indent unit, as the starters (www/starter/) are written, and what ends a line
// that opens a block (the next line is one unit deeper).
const INDENT = { javascript: { unit: "  ", opens: /[{[(]$/ }, python: { unit: "    ", opens: /:$/ } };

/**
 * The indent unit `text` is written with: the most common step from a line that opens a block
 * to the deeper line after it (a tab when that line is indented with one), or the language's
 * own when no block says.
 */
function detectIndent(text, language) {
  const { unit, opens } = INDENT[language] ?? INDENT.javascript;
  const counts = new Map();
  let before = null;
  for (const raw of text.split("\n")) {
    if (!/\S/.test(raw)) continue;
    const indent = raw.match(/^[ \t]*/)[0];
    const comment = language === "python" ? /(^|\s+)#.*$/ : /(^|\s+)\/\/.*$/;
    const code = raw.replace(comment, "");
    if (!/\S/.test(code)) continue;
    if (before !== null && indent.length > before.length && indent.startsWith(before)) {
      const step = indent.slice(before.length);
      const key = /^\t+$/.test(step) ? "\t" : /^ +$/.test(step) && step.length <= 8 ? step : null;
      if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    before = opens.test(code.trimEnd()) ? indent : null;
  }
  let best = unit;
  let most = 0;
  for (const [step, n] of counts) {
    if (n > most || (n === most && step === unit)) [best, most] = [step, n];
  }
  return best;
}

const indentFor = (text, language) => indentUnit.of(detectIndent(text, language in INDENT ? language : "javascript"));
const instances = new Map();

// One Dark colours, with the editor filling its resizable box.
const sizing = EditorView.theme({
  "&": { height: "100%", fontSize: "13px" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: "1.45" },
});

function create(host, doc, language, onChange) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  root.replaceChildren();
  const mount = document.createElement("div");
  mount.className = "editor-mount";
  root.appendChild(mount);
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(":host{display:block} .editor-mount{height:100%}");
  root.adoptedStyleSheets = [sheet];
  const mode = new Compartment();
  const indent = new Compartment();
  let current = language in languages ? language : "javascript";
  let settingDoc = false;
  // The unit follows the code when all of it is replaced (set by the app, or pasted whole).
  const followCode = EditorState.transactionExtender.of((tr) => {
    if (!tr.docChanged || !(settingDoc || tr.isUserEvent("input.paste"))) return null;
    const unit = detectIndent(tr.newDoc.toString(), current);
    return unit === tr.startState.facet(indentUnit) ? null : { effects: indent.reconfigure(indentUnit.of(unit)) };
  });
  const view = new EditorView({
    parent: mount,
    root,
    state: EditorState.create({
      doc,
      extensions: [
        basicSetup,
        keymap.of([indentWithTab]),
        mode.of(languages[current]()),
        indent.of(indentFor(doc, current)),
        followCode,
        oneDark,
        sizing,
        // Tab indents (indentWithTab); Escape then Tab leaves the editor, as the page says under it.
        EditorView.contentAttributes.of({
          "aria-label": "bot code (Tab indents; Escape, then Tab, leaves the editor)",
          spellcheck: "false",
          autocapitalize: "off",
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged && !settingDoc) onChange(u.state.doc.toString());
        }),
      ],
    }),
  });
  const handle = {
    getDoc: () => view.state.doc.toString(),
    setDoc(text) {
      if (text !== view.state.doc.toString()) {
        settingDoc = true;
        try {
          view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
        } finally {
          settingDoc = false;
        }
      }
    },
    // Replaces everything as if the person pasted it (heard by onChange; tests use it).
    paste(text) {
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: text },
        userEvent: "input.paste",
      });
    },
    setLanguage(name) {
      current = name in languages ? name : "javascript";
      view.dispatch({
        effects: [mode.reconfigure(languages[current]()), indent.reconfigure(indentFor(view.state.doc.toString(), current))],
      });
    },
    // The indent unit in use (tests read it).
    indentUnit: () => view.state.facet(indentUnit),
    focus: () => view.focus(),
    destroy() {
      view.destroy();
      if (instances.get(host.id) === handle) instances.delete(host.id);
    },
  };
  if (host.id) instances.set(host.id, handle);
  return handle;
}

// `botplayEditor.get("bot-code")` finds an editor by its host's id (tests use it).
globalThis.botplayEditor = { create, get: (id) => instances.get(id) };
