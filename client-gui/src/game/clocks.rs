//! The clocks of a timed game, one per seat, the running one counting down, and the setup
//! or first-move limit while one runs. The window repaints when the text shown would
//! change and not before, so a running clock costs one frame a second (ten under ten
//! seconds, when tenths show) and an idle window stays idle.

use std::time::Duration;

use eframe::egui::{RichText, Ui};
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

use super::GameScreen;
use crate::i18n::{lang, tr};
use crate::palette;

/// How long until the face of a clock with `ms` left, counting down, shows other digits
/// ([`words::clock_face`]: tenths under ten seconds, seconds under a day, hours above).
pub fn until_change(ms: u64) -> Duration {
    let unit = match ms {
        0..10_000 => 100,
        10_000..86_400_000 => 1000,
        _ => 3_600_000,
    };
    Duration::from_millis(ms % unit + 1)
}

/// Draws the clocks of `game`, if it has any.
pub fn ui(game: &GameScreen, ui: &mut Ui) {
    let (Some(clock), Some(left)) = (&game.view.clock, game.clocks()) else {
        return;
    };
    let names = Names::new(&game.ruleset);
    let lang = lang(ui);
    let (control, low_ms) = words::time_control(lang, clock.control.as_ref());
    ui.label(RichText::new(tr!(lang, "Clock: {control}", "Reloj: {control}")).weak());
    let flagging = clock.lapse() == pb::Lapse::TimeForfeit;
    let mut counting = None;
    ui.horizontal_wrapped(|ui| {
        for (seat, &ms) in (0..).zip(&left) {
            let running = flagging && clock.running == Some(seat);
            let face = format!("{} {}", names.seat(seat), words::clock_face(ms));
            let mut text = RichText::new(face)
                .monospace()
                .size(18.0)
                .color(palette::seat(seat));
            if running {
                counting = Some(ms);
                text = text.strong().background_color(palette::CLOCK_RUNNING);
            }
            ui.label(text);
            if running && game.seat == Some(seat) && ms < low_ms {
                ui.label(
                    RichText::new(lang.pick("Low time!", "¡Poco tiempo!"))
                        .color(palette::LAST_MOVE)
                        .strong(),
                );
            }
        }
    });
    if let Some((lapse, ms)) = game.deadline() {
        counting = Some(ms);
        let left = words::clock_face(ms);
        let text = match lapse {
            pb::Lapse::RandomSetup => tr!(
                lang,
                "Setups due in {left}, or made at random",
                "Colocación en {left}, si no, al azar"
            ),
            _ => tr!(
                lang,
                "First move due in {left}, or the game is called off",
                "Primera jugada en {left}, si no, se anula la partida"
            ),
        };
        ui.label(RichText::new(text).color(palette::LAST_MOVE));
    }
    if let Some(ms) = counting {
        ui.ctx().request_repaint_after(until_change(ms));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_next_repaint_comes_when_the_face_changes() {
        for ms in [
            9_741,
            581_250,
            3_723_000,
            2 * 86_400_000 + 3 * 3_600_000 + 5,
        ] {
            let face = words::clock_face(ms);
            let wait = u64::try_from(until_change(ms).as_millis()).expect("short");
            assert_eq!(words::clock_face(ms - wait + 1), face, "{ms}: too early");
            assert_ne!(words::clock_face(ms - wait), face, "{ms}: too late");
        }
        assert_eq!(until_change(10_500), Duration::from_millis(501));
    }
}
