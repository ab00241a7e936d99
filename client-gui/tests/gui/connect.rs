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

#[test]
fn an_https_server_is_reached_when_its_certificate_is_trusted() {
    let files = tempfile::tempdir().expect("temp dir");
    let names = vec!["localhost".to_owned(), "127.0.0.1".to_owned()];
    let made = rcgen::generate_simple_self_signed(names).expect("a certificate");
    let (cert, key) = (files.path().join("cert.pem"), files.path().join("key.pem"));
    std::fs::write(&cert, made.cert.pem()).expect("written");
    std::fs::write(&key, made.signing_key.serialize_pem()).expect("written");
    let tls = trinchera_service::Tls::load(trinchera_service::TlsFiles {
        cert: cert.clone(),
        key,
        client_ca: None,
    })
    .expect("TLS files");
    let options = trinchera_service::ServeOptions {
        tls: Some(std::sync::Arc::new(tls)),
        ..trinchera_service::ServeOptions::plain(Default::default())
    };
    let server = trinchera_service::LocalServer::start_serving(
        std::sync::Arc::new(trinchera_store::MemoryStore::new()),
        "127.0.0.1:0".parse().expect("address"),
        trinchera_service::Limits::for_tests(),
        options,
    )
    .expect("server");
    let url = format!("https://localhost:{}", server.address().port());
    let mut trusted = Window::trusting(&url, trinchera_client::Trust { ca: Some(cert) });
    trusted.wait_for("the lobby", |app| app.connection == Connection::Up);
    assert!(trusted.shows("Create game"));
    let mut wary = Window::open(&url, None);
    wary.wait_for("the refusal", |app| {
        matches!(app.connection, Connection::Down { .. })
    });
    let said = wary
        .harness
        .query_all_by_label_contains("does not trust")
        .count();
    assert_eq!(said, 1, "the window says the certificate is not trusted");
}
