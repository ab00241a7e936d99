//! The clocks of a timed game, one per seat, the running one counting down, and the setup
//! or first-move limit while one runs, in the client library's terms
//! ([`trinchera_client::clock`]). The window repaints when the text shown would change and
//! not before, so a running clock costs one frame a second and an idle window stays idle.
//! Only the player's own clock, in its last ten seconds, shows fifths of a second (five
//! frames a second): every frame is the whole window again, which a software renderer
//! paints at a cost (a clock counting tenths took 40% of a core under Mesa's).

use std::time::Duration;

use eframe::egui::{self, RichText, Ui};
use trinchera_client::{Names, clock, words};

use super::state::Game;
use crate::i18n::{lang, tr};
use crate::palette;

/// How often the player's own clock changes its face in its last ten seconds, in ms.
const OWN_STEP_MS: u64 = 200;

/// Draws the clocks of `game`, if it has any: every clock on one line (the next if they do
/// not fit, never broken), the warning of the player's own under them.
pub fn ui(game: &Game, ui: &mut Ui) {
    let (Some(clock), Some(left)) = (&game.view.clock, game.clocks()) else {
        return;
    };
    let names = Names::new(&game.ruleset);
    let lang = lang(ui);
    let (control, _) = words::time_control(lang, clock.control.as_ref());
    ui.label(RichText::new(tr!(lang, "Clock: {control}", "Reloj: {control}")).weak());
    let ticking = clock::ticking(clock);
    let mut next_change = None;
    ui.horizontal_wrapped(|ui| {
        for (seat, &ms) in (0..).zip(&left) {
            let (face, change) = face(ms, game.seat == Some(seat));
            let mut text = RichText::new(format!("{} {face}", names.seat(seat)))
                .monospace()
                .size(18.0)
                .color(palette::seat(seat));
            if ticking == Some(seat) {
                next_change = Some(change);
                text = text.strong().background_color(palette::CLOCK_RUNNING);
            }
            ui.add(egui::Label::new(text).extend());
        }
    });
    if let Some(seat) = game.seat
        && clock::is_low(clock, &left, seat)
    {
        ui.label(
            RichText::new(clock::low_warning(lang))
                .color(palette::LAST_MOVE)
                .strong(),
        );
    }
    if let Some((lapse, ms)) = game.deadline() {
        next_change = Some(clock::until_change(ms));
        let text = clock::deadline_sentence(lang, lapse, ms);
        ui.label(RichText::new(text).color(palette::LAST_MOVE));
    }
    if let Some(after) = next_change {
        ui.ctx().request_repaint_after(after);
    }
}

/// The face of a clock showing `ms`, and how long until it changes: the client library's
/// face ([`clock::clock_face`]), whose tenths under ten seconds are kept for the player's
/// `own` clock, a fifth of a second at a time, and cut from any other.
fn face(ms: u64, own: bool) -> (String, Duration) {
    if ms >= 10_000 {
        return (clock::clock_face(ms), clock::until_change(ms));
    }
    if own {
        let step = ms % OWN_STEP_MS;
        return (
            clock::clock_face(ms - step),
            Duration::from_millis(step + 1),
        );
    }
    let face = clock::clock_face(ms);
    let seconds = face
        .split_once('.')
        .map_or(face.as_str(), |(seconds, _)| seconds);
    (seconds.to_owned(), Duration::from_millis(ms % 1000 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_own_clock_shows_fifths_under_ten_seconds() {
        assert_eq!(
            face(7_890, true),
            ("0:07.8".into(), Duration::from_millis(91))
        );
        assert_eq!(
            face(7_790, true),
            ("0:07.6".into(), Duration::from_millis(191))
        );
        assert_eq!(
            face(7_890, false),
            ("0:07".into(), Duration::from_millis(891))
        );
        assert_eq!(
            face(61_500, true),
            ("1:01".into(), Duration::from_millis(501))
        );
        assert_eq!(face(61_500, false), face(61_500, true));
    }
}
