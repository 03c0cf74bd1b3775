// The bot editor: CodeMirror 6 with JavaScript, TypeScript and Python modes, bundled at build
// time by esbuild (build.mjs; no CDN). The app calls `botplayEditor.create(host, doc, language,
// onChange)` and gets a handle with getDoc/setDoc/setLanguage/focus/destroy. `onChange` hears
// only what the person types, not the text the app puts in with `setDoc`.
//
// Indentation is the language's, as its starter bots are written (4 spaces in Python, 2 in
// JavaScript and TypeScript), unless the code itself is indented otherwise: then the editor
// follows the code (a Python bot indented with 2 spaces or tabs keeps working when a line is
// added). Tab and Shift-Tab indent and unindent the selected lines by that unit.
//
// Completion never takes Enter from a person typing: the list opens with nothing chosen, only
// names that start with what was typed (a keyword typed in full offers no other name), Tab
// takes the first (or the one chosen with the arrows), and Enter takes one only once chosen.
//
// Long lines wrap when `setWrap(true)` (the app's "Wrap long lines", on by default on narrow
// screens). `markLine(n)` marks a line a fault points at (a red line and a gutter sign) until the
// code changes; `goToLine(n)` puts the cursor there and shows it.
//
// The editor lives in a shadow root: there CodeMirror styles itself with constructed style
// sheets instead of <style> tags, so the page keeps its strict `style-src 'self'` policy.

import { basicSetup } from "codemirror";
import { Decoration, EditorView, GutterMarker, gutterLineClass, keymap } from "@codemirror/view";
import { Compartment, EditorState, Prec, RangeSet, StateEffect, StateField } from "@codemirror/state";
import { acceptCompletion, autocompletion, completionStatus, moveCompletionSelection, selectedCompletionIndex } from "@codemirror/autocomplete";
import { indentWithTab } from "@codemirror/commands";
import { delimitedIndent, foldInside, foldNodeProp, indentNodeProp, indentUnit, LanguageSupport, LRLanguage, syntaxTree } from "@codemirror/language";
import { javascript } from "@codemirror/lang-javascript";
import { oneDark } from "@codemirror/theme-one-dark";
import { IterMode, NodeWeakMap } from "@lezer/common";
import { completeFromList, ifNotIn, snippetCompletion } from "@codemirror/autocomplete";
import { ContextTracker, ExternalTokenizer, LRParser } from "@lezer/lr";
import { styleTags, tags } from "@lezer/highlight";

// Python's mode (its grammar, 19 KB gzipped) is a script of its own, editor-python.js, fetched
// the first time an editor shows Python: a first visit in JavaScript does not wait for it. It
// takes these parts from this bundle, so that both share one CodeMirror (build.mjs bundles it
// with these packages mapped to this object, and fails when it needs a part not listed here).
globalThis.botplayEditorParts = {
  "@codemirror/language": { syntaxTree, LRLanguage, indentNodeProp, delimitedIndent, foldNodeProp, foldInside, LanguageSupport },
  "@lezer/common": { NodeWeakMap, IterMode },
  "@codemirror/autocomplete": { snippetCompletion, ifNotIn, completeFromList },
  "@lezer/lr": { ExternalTokenizer, ContextTracker, LRParser },
  "@lezer/highlight": { styleTags, tags },
};
const PYTHON_SCRIPT = new URL("editor-python.js", document.currentScript?.src ?? document.baseURI).href;
/** Python's mode once editor-python.js has defined it (`botplayPythonMode`), else nothing: the
 * script is added to the page (once at a time), and every editor showing Python takes the mode
 * when it comes. */
function pythonMode() {
  if (globalThis.botplayPythonMode) return globalThis.botplayPythonMode();
  if (!document.querySelector(`script[src="${PYTHON_SCRIPT}"]`)) {
    const script = document.createElement("script");
    script.src = PYTHON_SCRIPT;
    script.onload = () => {
      for (const handle of live) handle.languageArrived("python");
    };
    // Not fetched (offline before the service worker kept it): the editor shows Python as plain
    // text, and the script's tag goes, so that the next editor to show Python tries again.
    script.onerror = () => script.remove();
    document.head.appendChild(script);
  }
  return [];
}

const languages = {
  javascript: () => javascript(),
  typescript: () => javascript({ typescript: true }),
  python: pythonMode,
};
// Each language's indent unit, as the starters (www/starter/) are written, and what ends a line
// that opens a block (the next line is one unit deeper).
const INDENT = {
  javascript: { unit: "  ", opens: /[{[(]$/ },
  typescript: { unit: "  ", opens: /[{[(]$/ },
  python: { unit: "    ", opens: /:$/ },
};

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

/** Tab with the completion list open: the option chosen, or the first. */
function acceptWithTab(view) {
  if (completionStatus(view.state) !== "active") return false;
  if (selectedCompletionIndex(view.state) === null) moveCompletionSelection(true)(view);
  return acceptCompletion(view);
}

const completion = [
  // No delay before Tab takes a completion: a quick typist presses it right after the last key.
  autocompletion({ selectOnOpen: false, filterStrict: true, interactionDelay: 0 }),
  Prec.highest(keymap.of([{ key: "Tab", run: acceptWithTab }])),
];

// The line a fault points at: a line decoration and a gutter class, gone at the first change.
const markFault = StateEffect.define();
const faultMarker = new (class extends GutterMarker {
  elementClass = "cm-fault-gutter";
})();
const faultLine = StateField.define({
  create: () => null,
  update(line, tr) {
    for (const e of tr.effects) if (e.is(markFault)) return e.value;
    return tr.docChanged ? null : line;
  },
  provide: (field) => [
    EditorView.decorations.from(field, (line) => (line === null ? Decoration.none : Decoration.set([Decoration.line({ class: "cm-fault-line" }).range(line)]))),
    gutterLineClass.from(field, (line) => (line === null ? RangeSet.empty : RangeSet.of([faultMarker.range(line)]))),
  ],
});
const faultTheme = EditorView.theme({
  ".cm-fault-line": { backgroundColor: "rgba(224, 82, 82, 0.28)", boxShadow: "inset 3px 0 #e05252" },
  ".cm-gutterElement.cm-fault-gutter": { backgroundColor: "#e05252", color: "#fff" },
});

const indentFor = (text, language) => indentUnit.of(detectIndent(text, language in INDENT ? language : "javascript"));
const instances = new Map();
// Every editor not yet destroyed.
const live = new Set();

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
  const wrap = new Compartment();
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
        completion,
        basicSetup,
        keymap.of([indentWithTab]),
        wrap.of([]),
        faultLine,
        faultTheme,
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
    // A language's mode has been fetched: taken if this editor shows that language.
    languageArrived(name) {
      if (name === current) view.dispatch({ effects: mode.reconfigure(languages[current]()) });
    },
    // Whether the language shown has its mode (tests wait for Python's).
    hasMode: () => current !== "python" || Boolean(globalThis.botplayPythonMode),
    setWrap(on) {
      view.dispatch({ effects: wrap.reconfigure(on ? EditorView.lineWrapping : []) });
    },
    // Marks line `n` (from 1) as the one a fault points at, until the code changes.
    markLine(n) {
      if (n < 1 || n > view.state.doc.lines) return;
      view.dispatch({ effects: markFault.of(view.state.doc.line(n).from) });
    },
    // The marked line's number, or 0 (tests read it).
    markedLine: () => {
      const at = view.state.field(faultLine);
      return at === null ? 0 : view.state.doc.lineAt(at).number;
    },
    goToLine(n) {
      if (n < 1 || n > view.state.doc.lines) return;
      const line = view.state.doc.line(n);
      view.dispatch({ selection: { anchor: line.from }, effects: EditorView.scrollIntoView(line.from, { y: "center" }) });
      view.focus();
    },
    // The indent unit in use (tests read it).
    indentUnit: () => view.state.facet(indentUnit),
    focus: () => view.focus(),
    destroy() {
      view.destroy();
      live.delete(handle);
      if (instances.get(host.id) === handle) instances.delete(host.id);
    },
  };
  live.add(handle);
  if (host.id) instances.set(host.id, handle);
  return handle;
}

// `botplayEditor.get("bot-code")` finds an editor by its host's id (tests use it).
globalThis.botplayEditor = { create, get: (id) => instances.get(id) };
