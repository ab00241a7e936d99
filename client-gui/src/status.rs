//! What a game shows besides its board, in a game and in a replay alike: the ruleset's
//! public counters (turns without a battle, castles, tanques' round and the last die) and
//! the pieces each side lost.

use eframe::egui::{RichText, Ui};
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

use crate::i18n::{lang, tr};
use crate::palette;

/// The ruleset's public state: turn limits, castles, huffable officers, tanques' round.
pub fn status(ui: &mut Ui, names: &Names<'_>, view: &pb::GameView, dice: Option<&pb::DiceRoll>) {
    let lang = lang(ui);
    match &view.status {
        Some(pb::game_view::Status::Stratego(s)) => {
            let (quiet, limit) = (s.turns_without_battle, s.turn_limit);
            ui.label(tr!(
                lang,
                "{quiet} of {limit} turns without a battle",
                "{quiet} de {limit} turnos sin combate"
            ));
            for castle in &s.castles {
                let (at, turns) = (names.label(castle.cell.as_ref()), castle.turns);
                ui.label(tr!(
                    lang,
                    "Castle {at}: {turns} of 3 turns",
                    "Castillo {at}: {turns} de 3 turnos"
                ));
            }
        }
        Some(pb::game_view::Status::Asalto(s)) => {
            let (quiet, limit) = (s.turns_without_progress, s.turn_limit);
            ui.label(tr!(
                lang,
                "{quiet} of {limit} turns without progress",
                "{quiet} de {limit} turnos sin progreso"
            ));
        }
        Some(pb::game_view::Status::Tanks(s)) => {
            let (round, phase, left) = (
                s.round,
                words::tank_phase(lang, s.phase()),
                s.maneuvers_left,
            );
            ui.label(
                RichText::new(tr!(
                    lang,
                    "Round {round} · {phase} · {left} maneuver(s) left",
                    "Ronda {round} · {phase} · quedan {left} maniobra(s)"
                ))
                .strong(),
            );
            ui.horizontal_wrapped(|ui| {
                ui.label(lang.pick("Urban hexes held:", "Hexágonos urbanos en poder:"));
                for seat in [0, 1] {
                    let count = s.control.iter().filter(|c| c.seat == Some(seat)).count();
                    ui.label(
                        RichText::new(format!("{} {count}", names.seat(seat)))
                            .color(palette::seat(seat)),
                    );
                }
            });
            ui.horizontal_wrapped(|ui| {
                ui.label(lang.pick("In reserve:", "En reserva:"));
                for seat in [0, 1] {
                    let count = view
                        .pieces
                        .iter()
                        .filter(|p| p.owner == seat && p.cell.is_none())
                        .count();
                    ui.label(
                        RichText::new(format!("{} {count}", names.seat(seat)))
                            .color(palette::seat(seat)),
                    );
                }
            });
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
        None => {}
    }
}

/// Pieces out of play per seat.
pub fn captured(ui: &mut Ui, names: &Names<'_>, view: &pb::GameView) {
    let lang = lang(ui);
    for seat in [0, 1] {
        let lost: Vec<String> = view
            .captured
            .iter()
            .filter(|p| p.owner == seat)
            .map(|p| names.kind_name(&p.kind))
            .collect();
        if !lost.is_empty() {
            let (seat_name, lost) = (names.seat(seat), lost.join(", "));
            ui.label(
                RichText::new(tr!(
                    lang,
                    "{seat_name} lost: {lost}",
                    "{seat_name} perdió: {lost}"
                ))
                .color(palette::seat(seat)),
            );
        }
    }
}
