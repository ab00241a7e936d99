//! The connection: no server at the address (a clear message, a retry button, the lobby
//! once it is up), and a server that goes away while a game is open (said the same way
//! everywhere, without a click, and the game back when the server is).

use egui_kittest::kittest::Queryable as _;
use trinchera_gui::connection::Connection;
use trinchera_gui::lobby::{ClockChoice, Opponent};

use crate::harness::{Server, Window};

#[test]
fn a_server_that_is_down_shows_the_error_and_a_retry_that_connects_later() {
    // A port with nobody listening: bound, then let go.
    let address = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port");
    let mut window = Window::open(&format!("http://{address}"), None);
    window.wait_for("the failure", |app| {
        matches!(app.connection, Connection::Down { .. })
    });
    assert!(window.shows("Retry now"));
    assert!(window.shows("Cannot reach the server."));
    let detail = window
        .harness
        .query_all_by_label_contains("no Trinchera server at")
        .count();
    assert_eq!(detail, 1);

    let _server = Server::start_on(address);
    window.click("Retry now");
    window.wait_for("the lobby", |app| app.connection == Connection::Up);
    assert!(window.shows("Create game"));
    assert!(!window.shows("Retry now"));
}

#[test]
fn a_server_that_goes_away_shows_as_gone_everywhere_without_a_click() {
    let mut server = Server::start();
    let mut me = Window::lobby(&server);
    let bot = Opponent::Bot("random".into());
    me.create_game("clasico", 0, bot, ClockChoice::None);
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    assert!(me.shows_containing("connected to"));
    me.click_cell("a1");
    assert!(!me.game().draft().tray().is_empty());
    let draft = me.game().draft().clone();

    server.stop();
    // Frames only: the window notices by itself.
    me.wait_for("the loss", |app| !app.connection.is_up());
    assert!(
        !me.shows_containing("connected to"),
        "no stale \"connected\""
    );
    let words = me
        .harness
        .query_all_by_label_contains("no Trinchera server at")
        .count();
    assert_eq!(words, 2, "the top bar and the game's panel say the same");

    server.resume();
    me.wait_for("the server again", |app| app.connection.is_up());
    me.wait_for("the game again", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    assert_eq!(*me.game().draft(), draft, "the setup being edited is kept");
    assert!(me.shows_containing("connected to"));
}
