//! Accounts from the terminal: register, sign in on a fresh machine and go on with a game
//! begun elsewhere; passwords only from a terminal without echo or `--password-stdin`;
//! personal tokens; sessions that end elsewhere or without a server.

use serde_json::Value;

use crate::harness::{Server, Terminal, User};

/// The password of every account here.
const PASSWORD: &str = "correct horse";

/// `user` registers `name` with [`PASSWORD`] on standard input; the `--json` document.
fn register(user: &User, name: &str) -> Value {
    let run = user.run_with_input(
        &["--json", "register", name, "--password-stdin"],
        &format!("{PASSWORD}\n"),
    );
    assert_eq!(run.code, 0, "{run:?}");
    run.json()
}

/// `user` signs in to `name` with [`PASSWORD`] on standard input; the `--json` document.
fn login(user: &User, name: &str) -> Value {
    let run = user.run_with_input(
        &["--json", "login", name, "--password-stdin"],
        &format!("{PASSWORD}\n"),
    );
    assert_eq!(run.code, 0, "{run:?}");
    run.json()
}

/// The text of `user`'s token store.
fn stored(user: &User) -> String {
    std::fs::read_to_string(user.config_dir().join("games.json")).unwrap_or_default()
}

#[test]
fn a_game_begun_on_one_machine_goes_on_on_another_with_no_token_copied() {
    let server = Server::start();
    let (laptop, beto) = (User::new(&server), User::new(&server));
    let registered = register(&laptop, "Ana");
    assert_eq!(registered["account"]["name"], "Ana", "{registered}");
    assert_eq!(registered["token"]["session"], true, "{registered}");
    assert_eq!(registered["token"]["label"], "trinchera-cli");
    // The session is kept, not printed.
    assert!(!registered.to_string().contains("tra1_"), "{registered}");
    assert!(stored(&laptop).contains("tra1_"));
    let created = laptop.json(&["new", "frente"]);
    let game = created["game_id"].as_str().expect("an id").to_owned();
    let ana = &created["view"]["players"][0];
    assert_eq!(
        (ana["name"].as_str(), ana["kind"].as_str()),
        (Some("Ana"), Some("PLAYER_KIND_ACCOUNT")),
        "{created}"
    );
    let joined = beto.json(&["join", &game, "--name", "Beto"]);
    assert_eq!(joined["view"]["players"][1]["kind"], "PLAYER_KIND_GUEST");
    let out = laptop.ok(&["logout"]);
    assert!(out.contains("Signed out of Ana"), "{out}");
    assert!(!stored(&laptop).contains("tra1_"), "{}", stored(&laptop));

    // Another machine: nothing of the first one's, only the name and the password.
    let desk = User::new(&server);
    assert!(
        desk.run(&["games", "--mine"])
            .stderr
            .contains("not signed in")
    );
    let signed = login(&desk, "ana");
    assert_eq!(signed["account"]["name"], "Ana");
    let mine = desk.json(&["games", "--mine"]);
    let ids: Vec<&str> = mine["games"]
        .as_array()
        .expect("games")
        .iter()
        .map(|g| g["game_id"].as_str().expect("id"))
        .collect();
    assert_eq!(ids, [game.as_str()], "{mine}");
    let listed = desk.ok(&["games", "--mine"]);
    assert!(
        listed.contains("Ana (Rojo) [account] vs Beto (Azul)")
            && listed.contains("[yours: seat 0]"),
        "{listed}"
    );
    desk.ok(&["setup", &game, "--random"]);
    beto.ok(&["setup", &game, "--random"]);
    let shown = desk.ok(&["show", &game]);
    assert!(shown.contains("Ana (Rojo) [account] — you"), "{shown}");
    let first = desk.first_move(&game, None);
    let moved = desk.json(&["move", &game, &first]);
    assert_eq!(moved["event"]["seat"], 0, "{moved}");
    assert_eq!(moved["event"]["notation"], first.as_str());
    // It acted with the account's token: this machine holds no seat token.
    assert!(!stored(&desk).contains("tr1_"), "{}", stored(&desk));
    // A guest again after signing out: the next game's seat is a guest's.
    let guest = laptop.json(&["new", "frente", "--name", "Ana"]);
    assert_eq!(guest["view"]["players"][0]["kind"], "PLAYER_KIND_GUEST");
}

#[test]
fn a_password_comes_from_a_terminal_unechoed_or_from_standard_input_on_request() {
    let server = Server::start();
    let user = User::new(&server);
    let no_terminal = user.run(&["register", "Ana"]);
    assert_eq!(no_terminal.code, 2, "{no_terminal:?}");
    assert!(
        no_terminal.stderr.contains("--password-stdin"),
        "{no_terminal:?}"
    );
    assert!(!stored(&user).contains("accounts"));
    // On a terminal: asked twice, never shown.
    let mut terminal = Terminal::run(&user, &["register", "Ana"], &[]);
    terminal.wait_for("Choose a password for Ana");
    terminal.type_keys(&format!("{PASSWORD}\n"));
    terminal.wait_for("The same password again");
    terminal.type_keys(&format!("{PASSWORD}\n"));
    let (status, output) = terminal.ended();
    assert!(status.success(), "{output}");
    assert!(output.contains("Registered Ana"), "{output}");
    assert!(
        !output.contains(PASSWORD),
        "the password was echoed: {output}"
    );
    let mut typo = Terminal::run(&User::new(&server), &["register", "Bea"], &[]);
    typo.wait_for("Choose a password");
    typo.type_keys(&format!("{PASSWORD}\n"));
    typo.wait_for("again");
    typo.type_keys("correct horses\n");
    let (status, output) = typo.ended();
    assert_eq!(status.code(), Some(2), "{output}");
    assert!(output.contains("the two passwords differ"), "{output}");
    let wrong = user.run_with_input(
        &["--json", "login", "Ana", "--password-stdin"],
        "wrong horse\n",
    );
    assert_eq!(wrong.code, 3, "{wrong:?}");
    assert_eq!(wrong.json()["error"]["reason"], "BAD_CREDENTIALS");
    let wrong = user.run_with_input(&["login", "Ana", "--password-stdin"], "wrong horse\n");
    assert!(wrong.stderr.contains("wrong name or password"), "{wrong:?}");
    let taken = User::new(&server).run_with_input(
        &["register", "ANA", "--password-stdin"],
        &format!("{PASSWORD}\n"),
    );
    assert_eq!(taken.code, 3, "{taken:?}");
    assert!(
        taken.stderr.contains("is taken") && taken.stderr.contains("`trinchera login NAME`"),
        "{taken:?}"
    );
    let short =
        User::new(&server).run_with_input(&["register", "Cid", "--password-stdin"], "short\n");
    assert_eq!(short.code, 3, "{short:?}");
    assert!(short.stderr.contains("BAD_PASSWORD"), "{short:?}");
    let empty = User::new(&server).run_with_input(&["login", "Ana", "--password-stdin"], "");
    assert_eq!(empty.code, 2, "{empty:?}");
}

#[test]
fn personal_tokens_are_shown_once_listed_without_secrets_and_revoked() {
    let server = Server::start();
    let user = User::new(&server);
    let session = register(&user, "Ana")["token"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    let made = user.run(&[
        "token",
        "create",
        "--scope",
        "bot",
        "--label",
        "my bot",
        "--expires-days",
        "30",
    ]);
    assert_eq!(made.code, 0, "{made:?}");
    // Alone on stdout, so that `> file` keeps it.
    let bot = made.stdout.trim_end().to_owned();
    assert!(bot.starts_with("tra1_") && !bot.contains('\n'), "{made:?}");
    assert!(made.stderr.contains("shown only this once"), "{made:?}");
    let scripted = user.json(&["token", "create", "--scope", "play", "--label", "script"]);
    assert!(
        scripted["token"]
            .as_str()
            .expect("a token")
            .starts_with("tra1_")
    );
    assert_eq!(scripted["token_info"]["expires_ms"], 0, "{scripted}");
    let listed = user.json(&["token", "list"]);
    let tokens = listed["tokens"].as_array().expect("tokens");
    assert_eq!(tokens.len(), 3, "{listed}");
    assert!(!listed.to_string().contains("tra1_"), "{listed}");
    let text = user.ok(&["token", "list"]);
    let here: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("(this machine)"))
        .collect();
    assert_eq!(here.len(), 1, "{text}");
    assert!(here[0].starts_with(&session), "{text}");
    assert!(
        text.contains("my bot") && text.contains("personal  bot"),
        "{text}"
    );
    // The bot's token acts for the account, within its scope.
    let who = user.json(&["--token", &bot, "whoami"]);
    assert_eq!(who["account"]["name"], "Ana");
    assert_eq!(who["token"]["scopes"][0], "TOKEN_SCOPE_BOT");
    let scope = user.run(&["--token", &bot, "token", "list"]);
    assert_eq!(scope.code, 3, "{scope:?}");
    assert!(scope.stderr.contains("trinchera login NAME"), "{scope:?}");
    let bot_id = made.stderr.split("(id ").nth(1).expect("an id")[..16].to_owned();
    let revoked = user.json(&["token", "revoke", &bot_id]);
    assert_eq!(
        revoked,
        serde_json::json!({"revoked": bot_id, "signed_out": false})
    );
    let gone = user.run(&["--json", "--token", &bot, "whoami"]);
    assert_eq!(gone.code, 3, "{gone:?}");
    assert_eq!(gone.json()["error"]["reason"], "BAD_TOKEN");
    let unknown = user.run(&["token", "revoke", "0123456789abcdef"]);
    assert_eq!(unknown.code, 3, "{unknown:?}");
    assert!(
        unknown.stderr.contains("`trinchera token list`"),
        "{unknown:?}"
    );
    // Revoking this machine's own session signs it out here too.
    let own = user.ok(&["token", "revoke", &session]);
    assert!(own.contains("signed out here"), "{own}");
    let nobody = user.json(&["whoami"]);
    assert_eq!(nobody, serde_json::json!({"account": null, "token": null}));
}

#[test]
fn a_session_ended_elsewhere_says_how_to_sign_in_again() {
    let server = Server::start();
    let (laptop, desk) = (User::new(&server), User::new(&server));
    let laptops = register(&laptop, "Ana")["token"]["id"]
        .as_str()
        .expect("an id")
        .to_owned();
    login(&desk, "Ana");
    desk.ok(&["token", "revoke", &laptops]);
    let refused = laptop.run(&["new", "frente"]);
    assert_eq!(refused.code, 3, "{refused:?}");
    assert!(
        refused
            .stderr
            .contains("`trinchera login Ana` signs in again"),
        "{refused:?}"
    );
    let refused = laptop.run(&["--json", "whoami"]);
    assert_eq!(
        refused.json()["error"]["reason"],
        "BAD_TOKEN",
        "{refused:?}"
    );
    // Signing out of a session that already ended works, and the guest is back.
    let out = laptop.ok(&["logout"]);
    assert!(out.contains("Signed out of Ana"), "{out}");
    let guest = laptop.json(&["new", "frente"]);
    assert_eq!(guest["view"]["players"][0]["kind"], "PLAYER_KIND_GUEST");
    // A signed-in account with no seat in a full game is told so, as a guest would be.
    let full = crate::harness::Game::start(&server, "frente");
    let no_seat = desk.run(&["moves", &full.id]);
    assert_eq!(no_seat.code, 2, "{no_seat:?}");
    assert!(
        no_seat.stderr.contains("nor does your account Ana"),
        "{no_seat:?}"
    );
}

#[test]
fn logout_forgets_the_session_even_when_the_server_does_not_answer() {
    let user = User::of("http://127.0.0.1:1");
    std::fs::write(
        user.config_dir().join("games.json"),
        r#"{"servers": {}, "accounts": {"http://127.0.0.1:1":
            {"name": "Ana", "token": "tra1_gone", "id": "00000000000000aa"}}}"#,
    )
    .expect("writes");
    let run = user.run(&["--json", "logout"]);
    assert_eq!(run.code, 0, "{run:?}");
    assert_eq!(
        run.json(),
        serde_json::json!({"account": "Ana", "session_ended": false})
    );
    assert!(
        run.stderr.contains("warning:") && run.stderr.contains("token revoke 00000000000000aa"),
        "{run:?}"
    );
    assert!(!stored(&user).contains("tra1_gone"), "{}", stored(&user));
    let nobody = user.ok(&["whoami"]);
    assert!(nobody.contains("Not signed in"), "{nobody}");
}
