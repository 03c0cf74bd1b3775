//! The botplay page.

fn main() {
    console_error_panic_hook::set_once();
    yew::Renderer::<botplay_web::app::App>::new().render();
}
