//! Accounts in the window: the sign-in screen first (register, sign in, or play as a
//! guest), the account in the top bar, its games from the server in the lobby wherever
//! they began, refusals in both languages, the wait after too many failed sign-ins, and a
//! session that ended elsewhere sending the person back to sign in.

use std::num::NonZeroU32;

use eframe::egui;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use trinchera_client::Lang;
use trinchera_gui::lobby::{ClockChoice, Opponent};
use trinchera_proto::v1 as pb;
use trinchera_service::{Limits, RateLimit, RateLimits};

use crate::harness::{Server, Window, block_on, eventually};

const PASSWORD: &str = "correct horse battery";

/// Presses `button` of the sign-in screen and waits for the server's answer.
fn press_and_wait(me: &mut Window, button: &str) {
    me.click(button);
    me.wait_for("the answer", |app| {
        app.sign_in.as_ref().is_some_and(|s| !s.busy())
    });
}

/// A fresh window, signed in as a new account `name`.
fn registered(server: &Server, name: &str) -> Window {
    let mut me = Window::asking(server, tempfile::tempdir().expect("temp dir"));
    me.sign_in(name, PASSWORD, true);
    me
}

#[test]
fn the_sign_in_screen_comes_first_and_a_guest_is_not_asked_again() {
    let server = Server::start();
    let mut me = Window::asking(&server, tempfile::tempdir().expect("temp dir"));
    for shown in ["Name", "Password", "Sign in", "Play as a guest"] {
        assert!(me.shows(shown), "{shown}");
    }
    assert!(!me.shows("Create game"), "no lobby before the choice");
    me.click("Create a new account");
    assert!(me.shows("Password again") && me.shows("Create account"));
    me.click("Play as a guest");
    me.wait_for("the lobby", |app| app.sign_in.is_none());
    assert!(me.shows("Create game") && me.shows("Sign in"));
    assert!(me.app().account.is_none());
    // The next run goes straight to the lobby; "Sign in" in the bar asks again.
    let mut next = Window::restarted(&server, &me.save());
    assert!(next.app().sign_in.is_none() && next.shows("Create game"));
    next.click("Sign in");
    assert!(next.shows("Play as a guest"));
}

#[test]
fn a_new_account_is_named_in_the_bar_and_plays_under_its_name_until_signed_out() {
    let server = Server::start();
    let mut me = registered(&server, "Ana");
    assert!(me.shows("Signed in as Ana"));
    assert!(me.shows("Your games (Ana)"));
    assert!(me.shows_containing("Ana (your account)"), "the form's name");
    let kept = me.store().signed_in(&server.url).expect("reads");
    assert_eq!(kept.map(|session| session.name).as_deref(), Some("Ana"));

    me.create_game("clasico", 1, Opponent::Human, ClockChoice::None);
    let view = me.game().view().clone();
    let seat = &view.players[1];
    assert_eq!(
        (seat.name.as_str(), seat.kind()),
        ("Ana", pb::PlayerKind::Account)
    );

    me.click("Signed in as Ana");
    me.click("Sign out");
    me.wait_for("the sign-in screen", |app| app.sign_in.is_some());
    assert!(me.app().game.is_none(), "the account's game is closed");
    assert!(me.app().account.is_none() && !me.shows("Signed in as Ana"));
    assert_eq!(me.store().signed_in(&server.url).expect("reads"), None);
}

#[test]
fn a_game_begun_signed_in_continues_from_a_fresh_config_dir_after_signing_in() {
    let server = Server::start();
    let mut desktop = registered(&server, "Ana");
    let bot = Opponent::Bot("random".into());
    desktop.create_game("frente", 0, bot, ClockChoice::None);
    let game = desktop.game().view().game_id.clone();
    desktop.click("Back to the lobby");

    // Another machine: nothing kept but the name and password in the person's head.
    let mut elsewhere = Window::asking(&server, tempfile::tempdir().expect("temp dir"));
    elsewhere.sign_in("Ana", PASSWORD, false);
    let label = format!("Continue game {game}");
    elsewhere.wait_for("the account's game", |app| {
        app.lobby.yours.iter().any(|g| g.game_id == game)
    });
    assert!(elsewhere.shows(&label));
    assert!(elsewhere.app().lobby.mine.is_empty(), "no seat token here");
    elsewhere.click(&label);
    elsewhere.wait_for("the game", |app| app.game.is_some());
    assert_eq!(elsewhere.game().seat(), Some(0), "the account's seat");
    // It acts there with the session's token: the setup goes through.
    elsewhere.set_up_at_random("Random setup", "Submit setup");
    elsewhere.wait_for("the setup accepted", |app| {
        app.game.as_ref().is_some_and(|g| !g.setting_up())
    });
}

#[test]
fn refusals_are_told_in_english_and_spanish() {
    let server = Server::start();
    let mut ana = registered(&server, "Ana");
    ana.click("Signed in as Ana");
    ana.click("Sign out");
    ana.wait_for("the sign-in screen", |app| app.sign_in.is_some());

    let mut me = Window::asking(&server, tempfile::tempdir().expect("temp dir"));
    me.type_into("Name", "Ana");
    me.type_into("Password", "not her password");
    press_and_wait(&mut me, "Sign in");
    assert!(me.shows("wrong name or password"));
    me.app_mut().settings.lang = Lang::Es;
    me.harness.run();
    assert!(me.shows("el nombre o la contraseña no son correctos"));
    me.app_mut().settings.lang = Lang::En;
    me.harness.run();

    me.click("Create a new account");
    me.type_into("Name", "ana");
    me.type_into("Password", PASSWORD);
    me.type_into("Password again", "something else");
    me.click("Create account");
    assert!(me.shows("the two passwords differ: type the same one twice"));
    me.type_into("Password again", PASSWORD);
    press_and_wait(&mut me, "Create account");
    assert!(me.shows("that name is taken: choose another, or sign in if the account is yours"));

    me.type_into("Name", "Beto");
    me.type_into("Password", "short");
    me.type_into("Password again", "short");
    press_and_wait(&mut me, "Create account");
    assert!(me.shows("the password must be 8 to 1,024 bytes long"));
}

#[test]
fn too_many_failed_sign_ins_count_down_before_the_next_try() {
    let one = NonZeroU32::MIN;
    let limits = Limits {
        rates: RateLimits {
            failed_logins_per_name: Some(RateLimit::per_minute(one, one)),
            ..RateLimits::OFF
        },
        ..Limits::for_tests()
    };
    let server = Server::start_with("127.0.0.1:0".parse().expect("address"), limits);
    let mut me = Window::asking(&server, tempfile::tempdir().expect("temp dir"));
    for _ in 0..2 {
        me.type_into("Name", "Ana");
        me.type_into("Password", "wrong password");
        press_and_wait(&mut me, "Sign in");
    }
    assert!(me.shows_containing("too many tries: try again in"));
    me.type_into("Password", "wrong password");
    let button = me.harness.get_by_label("Sign in");
    assert!(
        button.accesskit_node().is_disabled(),
        "no try before the wait"
    );
    // The seconds count down by themselves.
    assert!(me.idle_repaint_delay() <= std::time::Duration::from_secs(1));
}

#[test]
fn a_session_ended_elsewhere_sends_the_person_back_to_sign_in() {
    let server = Server::start();
    let mut me = registered(&server, "Ana");
    let session = me
        .store()
        .signed_in(&server.url)
        .expect("reads")
        .expect("kept");
    // Signed out from somewhere else (the CLI's `trinchera logout`, say).
    block_on(async {
        let client = trinchera_client::Server::connect(&server.url, &Default::default())
            .await
            .expect("connects");
        client.logout(&session.token).await.expect("signed out");
    });
    me.harness.key_press(egui::Key::F5);
    me.wait_for("the sign-in screen", |app| app.sign_in.is_some());
    assert!(me.shows_containing("Your session as Ana has ended"));
    assert!(me.app().account.is_none());
    assert_eq!(me.app().notice, None, "no wall of errors");
    let store = me.store();
    eventually("the session forgotten here", || {
        store.signed_in(&server.url).expect("reads").is_none()
    });
}

#[test]
fn a_long_name_leaves_the_connection_in_sight_in_the_bar() {
    let server = Server::start();
    let mut me = registered(&server, "Bartolomé de las Casas Ruiz");
    me.app_mut().settings.lang = Lang::Es;
    me.harness.run();
    let account = me.rect("Cuenta: Bartolomé de las…");
    let connection = me
        .harness
        .query_all_by_label_contains("conectado a")
        .next()
        .expect("the connection")
        .rect();
    assert!(
        !account.intersects(connection),
        "{account:?} over {connection:?}"
    );
    me.click("Cuenta: Bartolomé de las…");
    assert!(
        me.shows("Cuenta: Bartolomé de las Casas Ruiz"),
        "the whole name"
    );
    assert!(me.shows("Cerrar sesión"));
}
