//! The panel beside the board ([`Side`]): the game and its players, the clocks, whose turn
//! it is (lit while the game waits for this player), the connection when it is not up, the
//! ruleset's counters, then what the screen puts there (the setup tray or the turn's
//! actions), the lost pieces, the events, and resigning.

use eframe::egui::{RichText, Ui};
use trinchera_client::{Names, status};
use trinchera_proto::v1 as pb;

use super::command::Command;
use super::state::Game;
use super::{Surroundings, clocks};
use crate::action::Action;
use crate::i18n::{lang, tr};
use crate::palette;

/// The panel beside the board.
#[derive(Clone, Debug, Default)]
pub struct Side {
    /// Whether the resign confirmation is showing.
    confirm_resign: bool,
}

impl Side {
    /// The game moved on: a resignation half asked is dropped.
    pub fn moved_on(&mut self) {
        self.confirm_resign = false;
    }

    /// Draws the panel of `game`, with `middle` under the game's counters; what the panel
    /// and `middle` ask for.
    pub fn ui(
        &mut self,
        ui: &mut Ui,
        game: &Game,
        around: &Surroundings<'_>,
        middle: impl FnOnce(&mut Ui) -> Vec<Command>,
    ) -> Vec<Command> {
        let mut commands = Vec::new();
        let ruleset = &game.ruleset;
        let names = Names::new(ruleset);
        let lang = lang(ui);
        header(game, ui, &names);
        clocks::ui(game, ui);
        ui.add_space(6.0);
        let mut turn = RichText::new(status::turn(lang, &names, &game.view))
            .size(20.0)
            .strong();
        if game.my_turn() || game.setting_up() {
            // A cue without sound: the line lights up while the game waits for this player.
            turn = turn.color(palette::INK).background_color(palette::SELECTED);
        }
        ui.label(turn);
        if game.seat.is_none() {
            ui.label(
                RichText::new(lang.pick(
                    "You are watching as a spectator.",
                    "Miras la partida como espectador.",
                ))
                .weak(),
            );
        }
        let view = &game.view;
        let begun = matches!(view.phase(), pb::Phase::Playing | pb::Phase::Finished);
        ui.horizontal_wrapped(|ui| {
            let review = if view.phase() == pb::Phase::Finished {
                lang.pick("Replay this game", "Repetir esta partida")
            } else {
                lang.pick("Review the moves so far", "Repasar las jugadas")
            };
            if begun && ui.button(review).clicked() {
                commands.push(Command::App(Action::Replay(view.game_id.clone())));
            }
            if ui.button(lang.pick("Rules", "Reglas")).clicked() {
                commands.push(Command::App(Action::ToggleRules(ruleset.id.clone())));
            }
        });
        if !around.connection.is_up() {
            // The top bar's words, again where the player looks while playing.
            around.connection.notice(ui, lang, around.url);
        }
        crate::status::status(ui, &names, &game.view, game.events.dice());
        ui.separator();
        commands.extend(middle(ui));
        crate::status::captured(ui, &names, &game.view);
        if let Some(seat) = game.seat
            && names.hidden_setups()
            && !game.setting_up()
        {
            crate::board::legend(ui, seat);
        }
        ui.separator();
        game.events.ui(ui, &names, &game.view);
        ui.separator();
        commands.extend(self.resign(ui, game));
        commands
    }

    /// Resigning, with a confirmation.
    fn resign(&mut self, ui: &mut Ui, game: &Game) -> Option<Command> {
        let open = matches!(
            game.view.phase(),
            pb::Phase::Setup | pb::Phase::Playing | pb::Phase::Waiting
        );
        if game.token.is_none() || !open {
            return None;
        }
        let lang = lang(ui);
        if !self.confirm_resign {
            if ui.button(lang.pick("Resign…", "Abandonar…")).clicked() {
                self.confirm_resign = true;
            }
            return None;
        }
        ui.label(
            RichText::new(lang.pick(
                "Really resign? The other side wins.",
                "¿Seguro que abandonas? Gana el otro bando.",
            ))
            .color(palette::seat(0)),
        );
        let mut resign = None;
        ui.horizontal_wrapped(|ui| {
            if ui
                .button(lang.pick("Yes, resign", "Sí, abandonar"))
                .clicked()
            {
                self.confirm_resign = false;
                resign = Some(Command::Resign);
            }
            if ui
                .button(lang.pick("No, keep playing", "No, seguir jugando"))
                .clicked()
            {
                self.confirm_resign = false;
            }
        });
        resign
    }
}

/// The game's name, ruleset and id, and its players.
fn header(game: &Game, ui: &mut Ui, names: &Names<'_>) {
    let lang = lang(ui);
    let (view, ruleset) = (&game.view, &game.ruleset);
    let title = if view.name.is_empty() {
        &ruleset.name
    } else {
        &view.name
    };
    ui.heading(title);
    let (ruleset_name, id) = (&ruleset.name, &view.game_id);
    ui.label(
        RichText::new(tr!(
            lang,
            "{ruleset_name} · game {id}",
            "{ruleset_name} · partida {id}"
        ))
        .weak(),
    );
    ui.add_space(6.0);
    for seat in [0, 1] {
        let mut line = status::seat_line(lang, names, view, seat);
        if game.seat == Some(seat) {
            line.push_str(lang.pick(" — you", " — tú"));
        }
        if view.to_move == Some(seat) {
            line = format!("» {line} «");
        }
        ui.label(RichText::new(line).color(palette::seat(seat)).strong());
    }
}
