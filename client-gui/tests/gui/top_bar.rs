//! The top bar and what stands over the screens: the way back leaves nothing under the
//! pointer, a failure's notice moves nothing, the rules leave the connection in sight.

use eframe::egui;
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use trinchera_gui::connection::Connection;
use trinchera_gui::lobby::{ClockChoice, Opponent};

use crate::harness::{Server, Window};

/// A clásico game against the bot, at its setup.
fn setting_up(server: &Server) -> Window {
    let mut me = Window::lobby(server);
    let bot = Opponent::Bot("random".into());
    me.create_game("clasico", 0, bot, ClockChoice::None);
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    me
}

#[test]
fn back_to_the_lobby_leaves_no_button_under_the_pointer() {
    let server = Server::start();
    let mut me = setting_up(&server);
    let pointer = me.rect("Back to the lobby").center();
    me.click("Back to the lobby");
    me.wait_for("the lobby", |app| app.game.is_none());
    assert!(me.shows("Change server"));
    let under: Vec<_> = me
        .harness
        .query_all_by(|node| {
            node.raw_bounds().is_some()
                && matches!(
                    node.role(),
                    Role::Button | Role::CheckBox | Role::ComboBox | Role::RadioButton
                )
        })
        .filter(|node| node.rect().contains(pointer))
        .map(|node| node.accesskit_node().label())
        .collect();
    assert!(under.is_empty(), "a second click would press {under:?}");
}

#[test]
fn a_notice_while_the_server_is_away_does_not_move_the_board() {
    let mut server = Server::start();
    let mut me = setting_up(&server);
    let corner = me.rect("a1, empty");
    server.stop();
    me.wait_for("the loss", |app| !app.connection.is_up());
    // Once the window has tried the server again, it asks nothing of it until it is back:
    // what the player asks then fails at once, and says so.
    me.wait_for("a retry", |app| app.connection == Connection::Connecting);
    me.wait_for("its failure", |app| {
        matches!(app.connection, Connection::Down { .. })
    });
    me.click("Random setup");
    me.wait_for("the notice", |app| app.notice.is_some());
    assert!(me.shows("not connected to a server"));
    assert_eq!(me.rect("a1, empty"), corner, "the board stays where it was");
    me.click("Dismiss");
    assert!(me.app().notice.is_none());
}

#[test]
fn the_rules_leave_the_top_bar_in_sight() {
    let server = Server::start();
    let mut me = setting_up(&server);
    let connection = me
        .harness
        .query_all_by_label_contains("connected to")
        .next()
        .expect("the connection")
        .rect();
    me.click("Rules");
    let title = me.rect("Rules: Clásico");
    assert!(
        title.min.y >= connection.max.y,
        "the rules at {title:?} cover the connection at {connection:?}"
    );
}
