//! The clocks of a timed game, one per seat, the running one counting down, and the setup
//! or first-move limit while one runs, in the client library's terms
//! ([`trinchera_client::clock`]). The window repaints when the text shown would change and
//! not before, so a running clock costs one frame a second (ten under ten seconds, when
//! tenths show) and an idle window stays idle.

use eframe::egui::{RichText, Ui};
use trinchera_client::{Names, clock, words};

use super::GameScreen;
use crate::i18n::{lang, tr};
use crate::palette;

/// Draws the clocks of `game`, if it has any.
pub fn ui(game: &GameScreen, ui: &mut Ui) {
    let (Some(clock), Some(left)) = (&game.view.clock, game.clocks()) else {
        return;
    };
    let names = Names::new(&game.ruleset);
    let lang = lang(ui);
    let (control, _) = words::time_control(lang, clock.control.as_ref());
    ui.label(RichText::new(tr!(lang, "Clock: {control}", "Reloj: {control}")).weak());
    let ticking = clock::ticking(clock);
    let mut counting = None;
    ui.horizontal_wrapped(|ui| {
        for (seat, &ms) in (0..).zip(&left) {
            let face = format!("{} {}", names.seat(seat), clock::clock_face(ms));
            let mut text = RichText::new(face)
                .monospace()
                .size(18.0)
                .color(palette::seat(seat));
            if ticking == Some(seat) {
                counting = Some(ms);
                text = text.strong().background_color(palette::CLOCK_RUNNING);
            }
            ui.label(text);
            if game.seat == Some(seat) && clock::is_low(clock, &left, seat) {
                ui.label(
                    RichText::new(clock::low_warning(lang))
                        .color(palette::LAST_MOVE)
                        .strong(),
                );
            }
        }
    });
    if let Some((lapse, ms)) = game.deadline() {
        counting = Some(ms);
        let text = clock::deadline_sentence(lang, lapse, ms);
        ui.label(RichText::new(text).color(palette::LAST_MOVE));
    }
    if let Some(ms) = counting {
        ui.ctx().request_repaint_after(clock::until_change(ms));
    }
}
