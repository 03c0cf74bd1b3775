//! The botplay page, and the module its match worker runs too.

fn main() {
    console_error_panic_hook::set_once();
    // The match worker instantiates this same module, then calls `botplayMatchWorker`
    // (src/match_worker.rs): there is no page to start there.
    if web_sys::window().is_none() {
        return;
    }
    // `?measure` in the address opens the measure harness instead (src/app/measure.rs).
    if botplay_web::app::measure::requested() {
        yew::Renderer::<botplay_web::app::measure::Measure>::new().render();
    } else if botplay_web::app::embed::requested() {
        // embed.html: one match for other sites to frame (src/app/embed.rs).
        yew::Renderer::<botplay_web::app::embed::Embed>::new().render();
    } else {
        yew::Renderer::<botplay_web::app::App>::new().render();
    }
}
