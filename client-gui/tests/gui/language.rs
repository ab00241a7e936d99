//! The interface in Spanish: chosen in the top bar, it changes every screen's words (piece
//! and seat names stay as the server gives them), and back.

use trinchera_gui::lobby::{ClockChoice, CreateForm, Opponent};

use egui_kittest::kittest::Queryable as _;

use crate::harness::{Server, Window};

#[test]
fn switching_to_spanish_changes_the_lobby_the_game_and_the_rules() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    assert!(me.shows("New game"));
    me.click("Language");
    me.click("Español");
    assert!(me.shows("Nueva partida"));
    assert!(me.shows("Crear partida"));
    assert!(me.shows("Reglamentos"));
    assert!(!me.shows("New game"));
    me.app_mut().lobby.create = CreateForm {
        ruleset: "clasico".into(),
        seat: 0,
        opponent: Opponent::Bot("random".into()),
        name: "en español".into(),
        player: "Ana".into(),
        clock: ClockChoice::None,
    };
    // The form lays itself out anew (another summary) before the click.
    me.harness.run();
    me.click("Crear partida");
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    assert!(me.shows("Coloca tus piezas"));
    assert!(me.shows("Colocación al azar"));
    assert!(me.shows("Colocaciones guardadas"));
    me.click("Reglas");
    assert!(me.shows("Piezas"), "the rules window is in Spanish");
    me.set_up_at_random("Colocación al azar", "Enviar colocación");
    me.wait_for("my turn", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    assert!(me.shows("Te toca"));
    let log = me.game().log_text(me.app().settings.lang).join("\n");
    assert!(log.contains("colocó sus piezas"), "{log}");
    me.click("Idioma");
    me.click("English");
    assert!(me.shows("Your turn"));
}

#[test]
fn the_spanish_lobby_tells_rulesets_seats_and_bots_in_spanish_and_fits_its_buttons() {
    let server = Server::start();
    let game = server.resigned_game();
    let mut me = Window::lobby(&server);
    me.click("Language");
    me.click("Español");
    me.wait_for("the finished game", |app| {
        app.lobby.games.iter().any(|g| g.game_id == game)
    });
    // The server's English, in Spanish from the client library.
    assert!(me.shows_containing("El juego de ejércitos ocultos de Yetem"));
    assert!(!me.shows_containing("hidden-army game"));
    assert!(
        me.shows("coloca en las filas 1-4 y empieza"),
        "the seat's role"
    );
    assert!(me.shows("Bot: fácil") && me.shows("Bot: difícil"));
    assert!(me.shows_containing("contra una persona"), "the summary");
    let replay = me
        .harness
        .get_by_label(&format!("Repetir la partida {game}"))
        .rect();
    assert!(replay.max.x <= 1280.0, "{replay:?} is cut off");
    // The first ruleset's "Reglas".
    me.harness
        .query_all_by_label("Reglas")
        .next()
        .expect("a rules button")
        .click();
    me.harness.step();
    me.harness.step();
    assert!(me.shows("Reglas: Combate en el Frente"));
    assert!(me.shows("nunca se mueve; mata a todo atacante salvo al Cabo Armero"));
}
