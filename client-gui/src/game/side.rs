//! The panel beside the board: the game and its players, the clocks, whose turn it is (lit
//! while the game waits for this player), the connection when it is not up, the ruleset's
//! counters, the setup tray or the turn's actions, the lost pieces, the events, and
//! resigning.

use eframe::egui::{RichText, Ui};
use trinchera_client::{Names, status};
use trinchera_proto::v1 as pb;

use super::{GameScreen, Surroundings, clocks, tray, turn};
use crate::action::Action;
use crate::backend::Request;
use crate::i18n::{lang, tr};
use crate::palette;

/// Draws the panel of `game`.
pub fn ui(game: &mut GameScreen, ui: &mut Ui, around: &Surroundings<'_>) -> Vec<Action> {
    let mut actions = Vec::new();
    let ruleset = game.ruleset.clone();
    let names = Names::new(&ruleset);
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
            actions.push(Action::Replay(view.game_id.clone()));
        }
        if ui.button(lang.pick("Rules", "Reglas")).clicked() {
            actions.push(Action::ToggleRules(ruleset.id.clone()));
        }
    });
    if !around.connection.is_up() {
        // The top bar's words, again where the player looks while playing.
        around.connection.notice(ui, lang, around.url);
    }
    crate::status::status(ui, &names, &game.view, game.events.dice());
    ui.separator();
    if game.setting_up() {
        tray::ui(game, ui, around.shelf, &mut actions);
    } else if game.my_turn() {
        turn::ui(game, ui, &names, &mut actions);
    }
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
    resign(game, ui, &mut actions);
    actions
}

/// The game's name, ruleset and id, and its players.
fn header(game: &GameScreen, ui: &mut Ui, names: &Names<'_>) {
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

/// Resigning, with a confirmation.
fn resign(game: &mut GameScreen, ui: &mut Ui, actions: &mut Vec<Action>) {
    let open = matches!(
        game.view.phase(),
        pb::Phase::Setup | pb::Phase::Playing | pb::Phase::Waiting
    );
    let (Some(token), true) = (game.token.clone(), open) else {
        return;
    };
    let lang = lang(ui);
    if !game.confirm_resign {
        if ui.button(lang.pick("Resign…", "Abandonar…")).clicked() {
            game.confirm_resign = true;
        }
        return;
    }
    ui.label(
        RichText::new(lang.pick(
            "Really resign? The other side wins.",
            "¿Seguro que abandonas? Gana el otro bando.",
        ))
        .color(palette::seat(0)),
    );
    ui.horizontal_wrapped(|ui| {
        if ui
            .button(lang.pick("Yes, resign", "Sí, abandonar"))
            .clicked()
        {
            game.confirm_resign = false;
            actions.push(Action::Send(Request::Resign {
                game: game.view.game_id.clone(),
                token,
            }));
        }
        if ui
            .button(lang.pick("No, keep playing", "No, seguir jugando"))
            .clicked()
        {
            game.confirm_resign = false;
        }
    });
}
