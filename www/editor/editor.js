// The bot editor: CodeMirror 6 with JavaScript and Python modes, bundled at build time by
// esbuild (build.mjs; no CDN). The app calls `botplayEditor.create(host, doc, language,
// onChange)` and gets a handle with getDoc/setDoc/setLanguage/focus/destroy. `onChange` hears
// only what the person types, not the text the app puts in with `setDoc`.
//
// The editor lives in a shadow root: there CodeMirror styles itself with constructed style
// sheets instead of <style> tags, so the page keeps its strict `style-src 'self'` policy.

import { basicSetup } from "codemirror";
import { EditorView, keymap } from "@codemirror/view";
import { Compartment, EditorState } from "@codemirror/state";
import { indentWithTab } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { python } from "@codemirror/lang-python";
import { oneDark } from "@codemirror/theme-one-dark";

const languages = { javascript: () => javascript(), python: () => python() };
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
  let settingDoc = false;
  const view = new EditorView({
    parent: mount,
    root,
    state: EditorState.create({
      doc,
      extensions: [
        basicSetup,
        keymap.of([indentWithTab]),
        mode.of((languages[language] ?? languages.javascript)()),
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
      view.dispatch({ effects: mode.reconfigure((languages[name] ?? languages.javascript)()) });
    },
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
