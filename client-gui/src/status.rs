//! What a game shows besides its board, in a game and in a replay alike: the ruleset's
//! public counters and the last die (tanques), and the pieces each side lost, in the
//! client library's sentences ([`trinchera_client::status`]).

use eframe::egui::{RichText, Ui};
use trinchera_client::Names;
use trinchera_client::status::{counters, lost};
use trinchera_proto::v1 as pb;

use crate::i18n::{lang, tr};
use crate::palette;

/// The ruleset's public counters, a line each, and the last die rolled.
pub fn status(ui: &mut Ui, names: &Names<'_>, view: &pb::GameView, dice: Option<&pb::DiceRoll>) {
    let lang = lang(ui);
    for line in counters(lang, names, view) {
        ui.label(line);
    }
    if let Some(dice) = dice {
        let (roll, column) = (dice.roll, dice.column);
        let then = if dice.attacker_wins {
            lang.pick("target destroyed", "objetivo destruido")
        } else {
            lang.pick("attack failed", "ataque fallido")
        };
        ui.label(
            RichText::new(tr!(
                lang,
                "Die: {roll} · column {column} · {then}",
                "Dado: {roll} · columna {column} · {then}"
            ))
            .strong(),
        );
    }
}

/// What each seat lost, in its colour.
pub fn captured(ui: &mut Ui, names: &Names<'_>, view: &pb::GameView) {
    let lang = lang(ui);
    for seat in [0, 1] {
        if let Some(line) = lost(lang, names, view, seat) {
            ui.label(RichText::new(line).color(palette::seat(seat)));
        }
    }
}
