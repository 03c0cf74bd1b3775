// Python's mode for the bot editor (editor.js fetches this script the first time an editor
// shows Python). Bundled by build.mjs with CodeMirror's shared packages taken from editor.js
// (`botplayEditorParts`), so that the mode belongs to the editor's one CodeMirror.
import { python } from "@codemirror/lang-python";

globalThis.botplayPythonMode = python;
