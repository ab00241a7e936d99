//! The interface in Spanish: chosen in the top bar, it changes every screen's words (piece
//! and seat names stay as the server gives them), and back.

use trinchera_gui::lobby::{ClockChoice, CreateForm, Opponent};

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
    me.click("Crear partida");
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    assert!(me.shows("Coloca tus piezas"));
    assert!(me.shows("Colocación al azar"));
    assert!(me.shows("Colocaciones guardadas"));
    me.click("Reglas");
    assert!(me.shows("Piezas"), "the rules window is in Spanish");
    me.click("Colocación al azar");
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
