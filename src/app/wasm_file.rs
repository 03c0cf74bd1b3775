//! A WebAssembly bot in a slot: the person chooses or drops a `.wasm` file (a program compiled to
//! `wasm32-wasip1`) instead of typing code. The module is kept as the slot's code in base64, as
//! share links, class files and replays carry it (`engine::SharedBot::Code` with language
//! `wasm`); `www/wasm-bot-worker.js` runs it.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{File, FileReader, HtmlInputElement};
use yew::prelude::*;

use super::state::{Action, WASM};
use crate::storage;

/// The largest module a slot takes, in bytes (a class file carries it in base64).
pub const MAX_WASM_BYTES: usize = 16 * 1024 * 1024;
/// The first bytes of a WebAssembly module: `\0asm`, version 1.
const MAGIC: [u8; 8] = [0, 0x61, 0x73, 0x6d, 1, 0, 0, 0];

/// One command per language that builds a bot this page plays.
pub const BUILD_COMMANDS: [(&str, &str); 4] = [
    ("C", "clang --target=wasm32-wasi -O2 -o bot.wasm bot.c"),
    (
        "C++",
        "clang++ --target=wasm32-wasi -O2 -fno-exceptions -o bot.wasm bot.cpp",
    ),
    (
        "Rust",
        "cargo build --release --target wasm32-wasip1 (then target/wasm32-wasip1/release/<name>.wasm)",
    ),
    ("Go", "GOOS=wasip1 GOARCH=wasm go build -o bot.wasm"),
];

/// The module's bytes as the slot keeps them (standard base64), or why they are not a bot.
pub fn encode_module(name: &str, bytes: &[u8]) -> Result<String, String> {
    if bytes.len() > MAX_WASM_BYTES {
        return Err(format!(
            "{name} has {} bytes; a WebAssembly bot has at most {} MB",
            bytes.len(),
            MAX_WASM_BYTES / (1024 * 1024)
        ));
    }
    if !bytes.starts_with(&MAGIC) {
        return Err(format!(
            "{name} is not a WebAssembly module (a .wasm file starts with \\0asm, version 1)"
        ));
    }
    Ok(base64(bytes))
}

/// Standard base64 with padding (what `atob` in the bot's worker reads).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = (u32::from(chunk[0]) << 16)
            | (u32::from(*chunk.get(1).unwrap_or(&0)) << 8)
            | u32::from(*chunk.get(2).unwrap_or(&0));
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> shift) as usize & 63]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// How many bytes a module kept in base64 has.
pub fn module_bytes(code: &str) -> usize {
    let padding = code.bytes().rev().take_while(|&b| b == b'=').count();
    (code.len() / 4 * 3).saturating_sub(padding)
}

/// Reads a chosen or dropped file and hands on its module in base64, or why it cannot be one.
pub fn read_module(file: File, on_read: Callback<Result<String, String>>) {
    let name = file.name();
    if file.size() > MAX_WASM_BYTES as f64 {
        on_read.emit(encode_module(&name, &vec![0; MAX_WASM_BYTES + 1]));
        return;
    }
    let Ok(reader) = FileReader::new() else {
        return;
    };
    let reader_in = reader.clone();
    let on_load = Closure::once_into_js(move || {
        let read = match reader_in.result() {
            Ok(buffer) => encode_module(&name, &js_sys::Uint8Array::new(&buffer).to_vec()),
            Err(_) => Err(format!("{name} could not be read")),
        };
        on_read.emit(read);
    });
    reader.set_onload(Some(on_load.unchecked_ref()));
    let _ = reader.read_as_array_buffer(&file);
}

/// A `.wasm` file dropped anywhere on a bot's seat (its editor included, which would otherwise
/// paste the file's bytes as text) makes `slot` a WebAssembly bot of that module: heard before
/// the editor hears it (the capture phase).
#[hook]
pub fn use_wasm_drop(seat: &NodeRef, slot: usize, scope: String, dispatch: &Callback<Action>) {
    let scope_now = use_mut_ref(String::new);
    *scope_now.borrow_mut() = scope;
    let (seat, dispatch) = (seat.clone(), dispatch.clone());
    use_effect_with((), move |_| {
        let listener = seat.get().map(|node| {
            let options = gloo_events::EventListenerOptions {
                phase: gloo_events::EventListenerPhase::Capture,
                passive: false,
            };
            gloo_events::EventListener::new_with_options(&node, "drop", options, move |event| {
                let Some(e) = event.dyn_ref::<DragEvent>() else {
                    return;
                };
                let file = e
                    .data_transfer()
                    .and_then(|d| d.files())
                    .and_then(|f| f.get(0));
                let Some(file) = file.filter(|f| f.name().to_ascii_lowercase().ends_with(".wasm"))
                else {
                    return;
                };
                e.prevent_default();
                e.stop_propagation();
                let (scope, dispatch) = (scope_now.clone(), dispatch.clone());
                let read = Callback::from(move |module: Result<String, String>| match module {
                    Ok(code) => {
                        storage::save_code(&scope.borrow(), slot, WASM, &code);
                        dispatch.emit(Action::SetPlayer(slot, WASM.to_string()));
                        dispatch.emit(Action::SetCode(slot, code));
                    }
                    Err(why) => dispatch.emit(Action::Notice(why)),
                });
                read_module(file, read);
            })
        });
        move || drop(listener)
    });
}

#[derive(Properties, PartialEq)]
pub struct Props {
    /// The file input's id.
    pub id: AttrValue,
    /// The module in base64 (empty: none chosen yet).
    pub code: String,
    pub on_change: Callback<String>,
}

/// The slot's module: what it is, a file chooser and a place to drop one, how to build one.
#[component(WasmFile)]
pub fn wasm_file(props: &Props) -> Html {
    let error = use_state(|| None::<String>);
    let on_read = {
        let (error, on_change) = (error.clone(), props.on_change.clone());
        Callback::from(move |read: Result<String, String>| match read {
            Ok(code) => {
                error.set(None);
                on_change.emit(code);
            }
            Err(why) => error.set(Some(why)),
        })
    };
    let on_choose = {
        let on_read = on_read.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            if let Some(file) = input.files().and_then(|f| f.get(0)) {
                read_module(file, on_read.clone());
            }
            input.set_value("");
        })
    };
    let on_drop = Callback::from(move |e: DragEvent| {
        e.prevent_default();
        let file = e
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|f| f.get(0));
        if let Some(file) = file {
            read_module(file, on_read.clone());
        }
    });
    let status = if props.code.is_empty() {
        "No WebAssembly module yet: choose or drop a .wasm file.".to_string()
    } else {
        let bytes = module_bytes(&props.code);
        format!("A WebAssembly module of {} KB plays.", bytes.div_ceil(1024))
    };
    html! {
        <div class="wasm-file" ondragover={Callback::from(|e: DragEvent| e.prevent_default())}
            ondrop={on_drop}>
            <p class="wasm-status" aria-live="polite">{ status }</p>
            <label for={props.id.clone()}>{ "Choose a .wasm file: " }</label>
            <input type="file" id={props.id.clone()} accept=".wasm,application/wasm"
                onchange={on_choose} />
            if let Some(why) = &*error {
                <p class="warning" role="alert">{ why }</p>
            }
            <p class="hint">
                { "A program compiled to wasm32-wasip1 reads its input on stdin and writes its \
                   answer on stdout, its debug log on stderr, as on CodinGame. Build it with one \
                   command:" }
            </p>
            <ul class="hint build-commands">
                { for BUILD_COMMANDS.iter().map(|(language, command)| html! {
                    <li>{ format!("{language}: ") }<code>{ *command }</code></li>
                }) }
            </ul>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_module_is_kept_in_standard_base64_and_its_size_is_read_back() {
        let mut module = MAGIC.to_vec();
        module.extend([0xff, 0xfe, 0x3e]);
        let code = encode_module("bot.wasm", &module).expect("a module");
        assert_eq!(code, "AGFzbQEAAAD//j4=");
        assert_eq!(module_bytes(&code), module.len());
        for extra in 0..3 {
            let bytes = [MAGIC.to_vec(), vec![7; extra]].concat();
            let code = encode_module("b.wasm", &bytes).expect("a module");
            assert_eq!(code.len() % 4, 0);
            assert_eq!(module_bytes(&code), bytes.len());
        }
    }

    #[test]
    fn files_that_are_not_modules_or_too_large_are_refused_with_their_name() {
        let text = encode_module("bot.c", b"int main() {}").unwrap_err();
        assert!(
            text.starts_with("bot.c is not a WebAssembly module"),
            "{text}"
        );
        let big = [MAGIC.to_vec(), vec![0; MAX_WASM_BYTES]].concat();
        let text = encode_module("big.wasm", &big).unwrap_err();
        assert!(text.contains("at most 16 MB"), "{text}");
    }
}
