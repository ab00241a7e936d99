//! The panel beside the board: the game and its players, the clocks, whose turn it is (lit
//! while the game waits for this player), the connection when it is not up, the ruleset's
//! counters, the setup tray or the turn's actions, the lost pieces, the events, and
//! resigning.

use eframe::egui::{RichText, Ui};
use trinchera_client::{Names, ruleset_texts, words};
use trinchera_proto::v1 as pb;

use super::{GameScreen, Surroundings, clocks, tray, turn};
use crate::action::Action;
use crate::backend::Request;
use crate::i18n::{Lang, lang, tr};
use crate::{palette, status};

/// Draws the panel of `game`.
pub fn ui(game: &mut GameScreen, ui: &mut Ui, around: &Surroundings<'_>) -> Vec<Action> {
    let mut actions = Vec::new();
    let ruleset = game.ruleset.clone();
    let names = Names::new(&ruleset);
    let lang = lang(ui);
    header(game, ui, &names);
    clocks::ui(game, ui);
    ui.add_space(6.0);
    let mut turn = RichText::new(turn_line(lang, game, &names))
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
    status::status(ui, &names, &game.view, game.events.dice());
    ui.separator();
    if game.setting_up() {
        tray::ui(game, ui, around.shelf, &mut actions);
    } else if game.my_turn() {
        turn::ui(game, ui, &names, &mut actions);
    }
    status::captured(ui, &names, &game.view);
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
        let mut line = seat_line(lang, names, view, seat);
        if game.seat == Some(seat) {
            line.push_str(lang.pick(" — you", " — tú"));
        }
        if view.to_move == Some(seat) {
            line = format!("» {line} «");
        }
        ui.label(RichText::new(line).color(palette::seat(seat)).strong());
    }
}

/// "Ana (Rojo)" or "Rojo: free seat".
fn seat_line(lang: Lang, names: &Names<'_>, view: &pb::GameView, seat: i32) -> String {
    match view.players.iter().find(|p| p.seat == seat) {
        Some(p) if p.joined => {
            let mut text = words::player(names, Some(view), seat);
            if !p.bot.is_empty() {
                let level = ruleset_texts::bot_name(lang, &p.bot);
                text.push_str(&format!(" · bot ({level})"));
            }
            text
        }
        _ => {
            let seat = names.seat(seat);
            tr!(lang, "{seat}: free seat", "{seat}: asiento libre")
        }
    }
}

/// Whose turn it is, or where the game stands, in a few words.
fn turn_line(lang: Lang, game: &GameScreen, names: &Names<'_>) -> String {
    let view = &game.view;
    let id = &view.game_id;
    match view.phase() {
        pb::Phase::Waiting => tr!(
            lang,
            "Waiting for a player to join game {id}",
            "Esperando a que alguien se una a la partida {id}"
        ),
        pb::Phase::Setup if game.setting_up() => {
            tr!(lang, "Set up your pieces", "Coloca tus piezas")
        }
        pb::Phase::Setup if game.seat.is_some() => tr!(
            lang,
            "Waiting for the opponent's setup",
            "Esperando la colocación del rival"
        ),
        pb::Phase::Setup => tr!(
            lang,
            "Both players are setting up",
            "Los dos jugadores están colocando"
        ),
        pb::Phase::Playing => match view.to_move {
            Some(seat) if Some(seat) == game.seat => tr!(lang, "Your turn", "Te toca"),
            Some(seat) => {
                let seat = names.seat(seat);
                tr!(lang, "To move: {seat}", "Juega: {seat}")
            }
            None => tr!(lang, "Playing", "En juego"),
        },
        pb::Phase::Finished => view.result.as_ref().map_or_else(
            || tr!(lang, "Game over", "Fin de la partida"),
            |r| words::result(lang, names, r),
        ),
        pb::Phase::Unspecified => String::new(),
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
