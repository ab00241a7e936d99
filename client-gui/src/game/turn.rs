//! The player's turn beside the board ([`Turn`]): what is picked so far, on the board or
//! here, and what may follow it (a chain's "Stop here", a tank's facings, maneuver letters,
//! an attack's attackers, advance and casualty), huffs, "End phase", a move typed in
//! notation, and every legal move.

use eframe::egui::{self, Key, RichText, Ui};
use trinchera_client::ruleset_texts::RulesetTexts;
use trinchera_client::{Names, words};
use trinchera_proto::v1 as pb;

use super::command::Command;
use super::state::Game;
use crate::failure::Failure;
use crate::i18n::{Lang, lang, tr};
use crate::moves::{self, Pending};
use crate::palette;

/// A move typed in notation, for keyboard players.
#[derive(Clone, Debug, Default)]
struct Typed {
    /// The text in the box.
    text: String,
    /// Whether the action on its way is the typed one (a refusal is shown beside it).
    in_flight: bool,
    /// The server's refusal of the last typed move.
    refusal: Option<Failure>,
}

/// The player's turn: what is picked of the next action, and the move typed.
#[derive(Clone, Debug, Default)]
pub struct Turn {
    /// What is picked of the next action.
    pending: Pending,
    /// A piece of the player's that was clicked and has no move now (said beside the board).
    stuck: Option<pb::Cell>,
    /// The move typed in notation.
    typed: Typed,
}

impl Turn {
    /// The game moved on: what was picked is forgotten, the move typed kept.
    pub fn moved_on(&mut self) {
        self.pending = Pending::Nothing;
        self.stuck = None;
    }

    /// What is picked of the next action (the board lights it up).
    pub fn pending(&self) -> &Pending {
        &self.pending
    }

    /// What a click on `cell` of the board picks of `game`'s next action, or the move it
    /// completes; a piece of the player's clicked that has no move is said beside the
    /// board.
    pub fn click(&mut self, cell: pb::Cell, game: &Game) -> Option<pb::Move> {
        self.stuck = None;
        if !game.my_turn() || game.in_flight {
            return None;
        }
        let picked = self.pending.selected();
        let action = self.pending.click(cell, &game.view.legal_moves);
        let own = game
            .view
            .pieces
            .iter()
            .any(|p| p.cell == Some(cell) && Some(p.owner) == game.seat);
        if action.is_none() && self.pending == Pending::Nothing && picked != Some(cell) && own {
            self.stuck = Some(cell);
        }
        action
    }

    /// The move typed is on its way: its last refusal is forgotten.
    pub fn typed_sent(&mut self) {
        self.typed.in_flight = true;
        self.typed.refusal = None;
    }

    /// An action of the player's was accepted: the move typed, if it was that one, is done.
    pub fn accepted(&mut self) {
        if std::mem::take(&mut self.typed.in_flight) {
            self.typed.text.clear();
            self.typed.refusal = None;
        }
    }

    /// A request failed: `true` if it was the move typed, whose refusal then stays beside
    /// the box.
    pub fn failed(&mut self, failure: &Failure) -> bool {
        if std::mem::take(&mut self.typed.in_flight) {
            self.typed.refusal = Some(failure.clone());
            return true;
        }
        false
    }

    /// The server is gone: the move typed is not on its way any more.
    pub fn lost_server(&mut self) {
        self.typed.in_flight = false;
    }

    /// Draws what the player may do now in `game` besides clicking the board; what is to
    /// be played.
    pub fn ui(&mut self, ui: &mut Ui, game: &Game) -> Vec<Command> {
        let names = &Names::new(&game.ruleset);
        let mut commands = Vec::new();
        let legal = game.view.legal_moves.as_slice();
        let mut play: Option<pb::Move> = None;
        let lang = lang(ui);
        ui.label(RichText::new(lang.pick("Your move", "Tu jugada")).strong());
        match &self.pending {
            Pending::Nothing => {
                if let Some(cell) = self.stuck {
                    // Said where the player looks after a click that lit nothing up.
                    let cell = names.label(Some(&cell));
                    ui.label(
                        RichText::new(tr!(
                            lang,
                            "No moves for the piece on {cell}.",
                            "La pieza de {cell} no tiene jugadas."
                        ))
                        .color(palette::LAST_MOVE)
                        .strong(),
                    );
                }
                ui.label(hint(lang, game.view.status.as_ref()));
            }
            Pending::Piece { from, path } => {
                let from = names.label(Some(from));
                let mut text = tr!(lang, "Selected {from}", "Elegida {from}");
                for landing in path {
                    text.push_str(&format!(" × {}", names.label(Some(landing))));
                }
                ui.label(text);
                if let Some(stop) = self.pending.stop_here(legal)
                    && ui.button(lang.pick("Stop here", "Parar aquí")).clicked()
                {
                    play = Some(stop);
                }
            }
            Pending::Enter { cell } => {
                let cell = names.label(Some(cell));
                ui.label(tr!(
                    lang,
                    "Enter a tank on {cell} facing:",
                    "Meter un tanque en {cell} mirando al:"
                ));
                ui.horizontal_wrapped(|ui| {
                    for (action, facing) in self.pending.entry_facings(legal) {
                        if ui.button(words::facing_name(lang, facing)).clicked() {
                            play = Some(action);
                        }
                    }
                });
            }
            Pending::Maneuver { from, actions } => {
                let from = names.label(Some(from));
                let steps = if actions.is_empty() {
                    lang.pick("(none yet)", "(ninguna aún)").to_owned()
                } else {
                    moves::letters(actions)
                };
                ui.label(tr!(
                    lang,
                    "Maneuver the tank on {from}: {steps}",
                    "Maniobra del tanque de {from}: {steps}"
                ));
                play = play.or_else(|| self.maneuver(ui, legal));
            }
            Pending::Attack {
                target, attackers, ..
            } => {
                let attackers: Vec<String> =
                    attackers.iter().map(|c| names.label(Some(c))).collect();
                let target = names.label(Some(target));
                let with = if attackers.is_empty() {
                    lang.pick("nobody yet", "nadie aún").to_owned()
                } else {
                    attackers.join(", ")
                };
                ui.label(tr!(
                    lang,
                    "Attack {target} with {with} (click tanks to add or remove them)",
                    "Atacar {target} con {with} (pulsa tanques para sumarlos o quitarlos)"
                ));
                attack_options(&mut self.pending, ui, names);
                if let Some(action) = self.pending.attack(legal)
                    && ui.button(lang.pick("Attack", "Atacar")).clicked()
                {
                    play = Some(action);
                }
            }
        }
        for (action, officer) in moves::huffs(legal) {
            let officer = names.label(Some(&officer));
            if ui
                .button(tr!(
                    lang,
                    "Huff the officer on {officer}",
                    "Soplar al oficial de {officer}"
                ))
                .clicked()
            {
                play = Some(action);
            }
        }
        if let Some(action) = moves::end_phase(legal)
            && ui.button(lang.pick("End phase", "Terminar fase")).clicked()
        {
            play = Some(action);
        }
        if self.pending != Pending::Nothing
            && (ui.button(lang.pick("Cancel", "Cancelar")).clicked()
                || ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Escape)))
        {
            self.pending = Pending::Nothing;
        }
        commands.extend(self.notation_box(ui, game));
        let count = legal.len();
        egui::CollapsingHeader::new(tr!(
            lang,
            "All legal moves ({count})",
            "Todas las jugadas legales ({count})"
        ))
        .id_salt("all moves")
        .show(ui, |ui| {
            ui.horizontal_wrapped(|ui| {
                for legal_move in legal {
                    if ui.small_button(&legal_move.notation).clicked() {
                        play = legal_move.r#move.clone();
                    }
                }
            });
        });
        commands.extend(play.map(Command::Play));
        commands
    }

    /// The letters a maneuver may take next (buttons or F, L, R) and its confirmation (a
    /// button or Enter); the maneuver once confirmed.
    fn maneuver(&mut self, ui: &mut Ui, legal: &[pb::LegalMove]) -> Option<pb::Move> {
        let lang = lang(ui);
        let (next, complete) = self.pending.maneuver_options(legal)?;
        let mut pushed = None;
        ui.horizontal_wrapped(|ui| {
            for (step, text, key) in [
                (
                    pb::TankAction::Forward,
                    lang.pick("Forward (F)", "Avanzar (F)"),
                    Key::F,
                ),
                (
                    pb::TankAction::TurnLeft,
                    lang.pick("Left (L)", "Izquierda (L)"),
                    Key::L,
                ),
                (
                    pb::TankAction::TurnRight,
                    lang.pick("Right (R)", "Derecha (R)"),
                    Key::R,
                ),
            ] {
                let allowed = next.contains(&step);
                let pressed = allowed && ui.input(|i| i.key_pressed(key));
                if ui.add_enabled(allowed, egui::Button::new(text)).clicked() || pressed {
                    pushed = Some(step);
                }
            }
        });
        if let Some(step) = pushed {
            self.pending.push_maneuver(step, legal);
        }
        let confirm = ui.input(|i| i.key_pressed(Key::Enter));
        let action = complete?;
        (ui.button(lang.pick("Confirm maneuver", "Confirmar maniobra"))
            .clicked()
            || confirm)
            .then_some(action)
    }

    /// A move typed in notation for `game`, the move to play when it is sent; the server's
    /// refusal shown in the window's language, with the server's own words.
    fn notation_box(&mut self, ui: &mut Ui, game: &Game) -> Option<Command> {
        let lang = lang(ui);
        let help = RulesetTexts::new(lang, &game.ruleset).notation().to_owned();
        let mut send = false;
        ui.horizontal_wrapped(|ui| {
            let label = ui.label(lang.pick("Type a move", "Escribe una jugada"));
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut self.typed.text)
                        .id_salt("notation")
                        .hint_text("a4-a5")
                        .desired_width(150.0),
                )
                .labelled_by(label.id)
                .on_hover_text(&help);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
            let ready = !self.typed.text.trim().is_empty() && !game.in_flight;
            if (ui
                .add_enabled(ready, egui::Button::new(lang.pick("Play", "Jugar")))
                .clicked()
                || enter)
                && ready
            {
                send = true;
            }
        });
        let play = send
            .then(|| trinchera_client::notation::typed(self.typed.text.trim()))
            .filter(|notation| !notation.is_empty())
            .map(Command::PlayTyped);
        // The refusal of the last one goes as this one is sent.
        if play.is_none()
            && let Some(refusal) = &self.typed.refusal
        {
            let refusal = refusal.words(lang);
            ui.label(
                RichText::new(tr!(lang, "Refused: {refusal}", "Rechazada: {refusal}"))
                    .color(palette::seat(0)),
            );
        }
        play
    }
}

/// What to do first, before anything is picked, in a game of `status`.
fn hint(lang: Lang, status: Option<&pb::game_view::Status>) -> &'static str {
    let tanks = match status {
        Some(pb::game_view::Status::Tanks(tanks)) => tanks.phase(),
        _ => {
            return lang.pick(
                "Click one of your pieces to see where it may go.",
                "Pulsa una de tus piezas para ver adónde puede ir.",
            );
        }
    };
    if tanks == pb::TankPhase::Movement {
        lang.pick(
            "Click a tank to maneuver it or an entry hex to bring one in; \"End phase\" moves \
             on to your attacks.",
            "Pulsa un tanque para maniobrarlo o un hexágono de entrada para meter uno; \
             «Terminar fase» pasa a tus ataques.",
        )
    } else {
        lang.pick(
            "Click an enemy tank in front of your cannons to attack it; \"End phase\" when you \
             are done attacking.",
            "Pulsa un tanque enemigo delante de tus cañones para atacarlo; «Terminar fase» \
             cuando acabes de atacar.",
        )
    }
}

/// Advance and casualty of the attack being put together.
fn attack_options(pending: &mut Pending, ui: &mut Ui, names: &Names<'_>) {
    let Pending::Attack {
        attackers,
        advance,
        casualty,
        ..
    } = pending
    else {
        return;
    };
    let lang = lang(ui);
    let label = |cell: &Option<pb::Cell>, none: &str| {
        cell.as_ref()
            .map_or_else(|| none.to_owned(), |c| names.label(Some(c)))
    };
    for (choice, id, caption, none) in [
        (
            advance,
            "advance",
            lang.pick("If it succeeds, advance:", "Si triunfa, avanza:"),
            lang.pick("nobody", "nadie"),
        ),
        (
            casualty,
            "casualty",
            lang.pick("If it fails, lose:", "Si falla, se pierde:"),
            lang.pick("the first attacker", "el primer atacante"),
        ),
    ] {
        ui.horizontal_wrapped(|ui| {
            let caption = ui.label(caption);
            egui::ComboBox::from_id_salt(id)
                .selected_text(label(choice, none))
                .show_ui(ui, |ui| {
                    ui.selectable_value(choice, None, none);
                    for cell in attackers.iter() {
                        ui.selectable_value(choice, Some(*cell), names.label(Some(cell)));
                    }
                })
                .response
                .labelled_by(caption.id);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_hint_follows_the_tanques_phase() {
        let tanks = |phase: pb::TankPhase| {
            pb::game_view::Status::Tanks(pb::TanksStatus {
                phase: phase as i32,
                ..Default::default()
            })
        };
        let movement = tanks(pb::TankPhase::Movement);
        assert!(hint(Lang::En, Some(&movement)).starts_with("Click a tank to maneuver it"));
        for phase in [pb::TankPhase::Attack, pb::TankPhase::Final] {
            let attack = tanks(phase);
            assert!(hint(Lang::En, Some(&attack)).starts_with("Click an enemy tank"));
            assert!(hint(Lang::Es, Some(&attack)).starts_with("Pulsa un tanque enemigo"));
        }
        assert!(hint(Lang::En, None).starts_with("Click one of your pieces"));
    }
}
