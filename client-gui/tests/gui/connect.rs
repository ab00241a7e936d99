//! No server at the address: a clear message, a retry button, and the lobby once it is up.

use egui_kittest::kittest::Queryable as _;
use trinchera_gui::connection::Connection;

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
