//! Every error path: usage errors (2), server refusals (3) with the server's words and
//! reason, an unreachable server (4) with the hint, unverifiable games (1).

use crate::harness::{Game, Server, User, file_with};

#[test]
fn usage_errors_exit_with_2() {
    let server = Server::start();
    let user = User::new(&server);
    let unknown = user.run(&["frobnicate"]);
    assert_eq!(unknown.code, 2, "{unknown:?}");
    // With --json a usage error is a JSON document on stdout too.
    let unknown = user.run(&["--json", "frobnicate"]);
    assert_eq!(unknown.code, 2, "{unknown:?}");
    assert_eq!(unknown.json()["error"]["kind"], "usage", "{unknown:?}");
    assert!(unknown.stderr.contains("frobnicate"), "{unknown:?}");
    let help = user.run(&["--json", "--help"]);
    assert_eq!(help.code, 0, "{help:?}");
    let no_notation = user.run(&["move", "1"]);
    assert_eq!(no_notation.code, 2, "{no_notation:?}");
    let option = user.run(&["new", "frente", "--option", "speed=fast"]);
    assert_eq!(option.code, 2, "{option:?}");
    assert!(
        option
            .stderr
            .contains("ruleset frente has no option \"speed\""),
        "{option:?}"
    );
    let game = Game::start(&server, "frente");
    let stranger = User::new(&server);
    let no_seat = stranger.run(&["--json", "move", &game.id, "a4-a5"]);
    assert_eq!(no_seat.code, 2, "{no_seat:?}");
    assert_eq!(no_seat.json()["error"]["kind"], "usage");
    assert!(
        no_seat.stderr.contains("you have no seat in game"),
        "{no_seat:?}"
    );
    // Both seats are taken: joining is no way in.
    assert!(
        no_seat.stderr.contains("both its seats are taken")
            && !no_seat.stderr.contains("takes the free seat"),
        "{no_seat:?}"
    );
    let waiting = User::new(&server).json(&["new", "frente"])["game_id"]
        .as_str()
        .expect("id")
        .to_owned();
    let free = stranger.run(&["move", &waiting, "a4-a5"]);
    assert_eq!(free.code, 2, "{free:?}");
    assert!(
        free.stderr
            .contains(&format!("`trinchera join {waiting}` takes the free seat")),
        "{free:?}"
    );
    // A game that does not exist is not a seat that is missing.
    let missing = stranger.run(&["play", "--resume", "424242"]);
    assert_eq!(missing.code, 3, "{missing:?}");
    assert!(missing.stderr.contains("GAME_NOT_FOUND"), "{missing:?}");
    let (_dir, layout) = file_with("4 S S S\n");
    let bad_layout =
        game.players[0].run(&["setup", &game.id, "--file", layout.to_str().expect("utf-8")]);
    assert_eq!(bad_layout.code, 2, "{bad_layout:?}");
    assert!(
        bad_layout
            .stderr
            .contains("line 1: row 4 of your zone has 10 cells, the line gives 3"),
        "{bad_layout:?}"
    );
    let nothing_to_set_up = Game::start(&server, "tanques");
    let tanks = nothing_to_set_up.players[0].run(&["setup", &nothing_to_set_up.id, "--random"]);
    assert_eq!(tanks.code, 2, "{tanks:?}");
    assert!(tanks.stderr.contains("nothing to set up"), "{tanks:?}");
}

#[test]
fn refusals_exit_with_3_and_say_why() {
    let server = Server::start();
    let game = Game::start(&server, "frente");
    let [rojo, azul] = &game.players;
    // A rule problem in a well-formed layout: the server lists it.
    let (_dir, layout) = file_with(
        "4  S S S S S S S S S S\n3  S S S S S S S S S S\n2  S S S S S S S S S S\n1  S S S S S S S S S S\n",
    );
    let setup = rojo.run(&["setup", &game.id, "--file", layout.to_str().expect("utf-8")]);
    assert_eq!(setup.code, 3, "{setup:?}");
    assert!(setup.stderr.contains("BAD_SETUP"), "{setup:?}");
    game.random_setups();
    let cases: [(&User, Vec<&str>, &str, &str); 5] = [
        (
            azul,
            vec!["move", &game.id, "a7-a6"],
            "FAILED_PRECONDITION",
            "NOT_YOUR_TURN",
        ),
        (
            rojo,
            vec!["move", &game.id, "a1-j10"],
            "FAILED_PRECONDITION",
            "ILLEGAL_MOVE",
        ),
        (
            rojo,
            vec!["move", &game.id, "hello"],
            "INVALID_ARGUMENT",
            "BAD_NOTATION",
        ),
        (rojo, vec!["show", "999999"], "NOT_FOUND", "GAME_NOT_FOUND"),
        (
            User::leak(&server),
            vec!["join", &game.id],
            "FAILED_PRECONDITION",
            "SEAT_TAKEN",
        ),
    ];
    for (user, args, status, reason) in cases {
        let mut json_args = vec!["--json"];
        json_args.extend(args.iter());
        let run = user.run(&json_args);
        assert_eq!(run.code, 3, "{args:?}: {run:?}");
        let error = &run.json()["error"];
        assert_eq!(error["status"], status, "{args:?}: {error}");
        assert_eq!(error["reason"], reason, "{args:?}: {error}");
        assert!(!error["message"].as_str().unwrap_or_default().is_empty());
        let human = user.run(&args);
        assert_eq!(human.code, 3);
        assert!(
            human
                .stderr
                .contains(error["message"].as_str().expect("message")),
            "{human:?}"
        );
        assert!(human.stdout.is_empty(), "errors go to stderr: {human:?}");
    }
    let forged = rojo.run(&["--token", "tr1_forged", "moves", &game.id]);
    assert_eq!(forged.code, 3, "{forged:?}");
    assert!(forged.stderr.contains("BAD_TOKEN"), "{forged:?}");
}

#[test]
fn an_absent_server_exits_with_4_and_a_hint() {
    // A port that was just free: bind, note it, release it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let user = User::of(&url);
    let run = user.run(&["rulesets"]);
    assert_eq!(run.code, 4, "{run:?}");
    assert!(
        !run.stderr.contains("tcp connect error: tcp connect error"),
        "each cause is said once: {run:?}"
    );
    assert!(
        run.stderr
            .contains(&format!("no Trinchera server at {url}")),
        "{run:?}"
    );
    assert!(
        run.stderr
            .contains("start it with `cargo run --release -p trinchera-server`"),
        "{run:?}"
    );
    let json = user.run(&["--json", "games"]);
    assert_eq!(json.code, 4);
    assert_eq!(json.json()["error"]["kind"], "unreachable");
}

#[test]
fn an_unfinished_game_cannot_be_verified_yet() {
    let server = Server::start();
    let game = Game::start(&server, "frente");
    let run = game.players[0].run(&["verify", &game.id]);
    assert_eq!(run.code, 1, "{run:?}");
    assert!(run.stderr.contains("the game is not over yet"), "{run:?}");
}

/// `trinchera … | head`: a reader that closes early ends the program quietly, with the
/// status of a program stopped by SIGPIPE, never a panic.
#[test]
fn a_closed_pipe_ends_the_program_quietly() {
    use std::io::Read as _;
    use std::process::Stdio;
    let server = Server::start();
    let user = User::new(&server);
    let mut child = user
        .command(&["rulesets", "show", "frente"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let status = child.wait().expect("it ends");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("stderr reads");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(status.code(), Some(141), "{stderr}");
}

#[test]
fn a_json_file_of_another_shape_is_not_a_history_file() {
    let user = User::of("http://127.0.0.1:1");
    let (_dir, file) = file_with("{\"games\": []}\n");
    let run = user.run(&["verify", "--history", file.to_str().expect("utf-8")]);
    assert_eq!(
        run.code, 1,
        "a local failure, without asking a server: {run:?}"
    );
    assert!(run.stderr.contains("is not a history file"), "{run:?}");
}

#[test]
fn a_refused_bot_level_uses_up_no_game_id() {
    let server = Server::start();
    let user = User::new(&server);
    let id = |run: &serde_json::Value| {
        run["game_id"]
            .as_str()
            .expect("id")
            .parse::<u64>()
            .expect("a number")
    };
    let first = id(&user.json(&["new", "frente"]));
    let refused = user.run(&["new", "frente", "--bot", "superhard"]);
    assert_eq!(refused.code, 3, "{refused:?}");
    assert!(
        refused.stderr.contains("there is no bot level"),
        "{refused:?}"
    );
    let next = id(&user.json(&["new", "frente"]));
    assert_eq!(next, first + 1, "the refusal took no id");
}

#[test]
fn an_https_server_is_reached_with_its_ca_and_refused_without_it() {
    let server = crate::harness::TlsServer::start();
    let user = User::of(&server.url);
    let ca = server.ca.to_str().expect("utf-8");
    let created = user.json(&["--tls-ca", ca, "new", "tanques"]);
    assert!(created["game_id"].is_string(), "{created}");
    let untrusted = user.run(&["rulesets"]);
    assert_ne!(untrusted.code, 0, "{untrusted:?}");
    assert!(
        untrusted.stderr.contains(&server.url) && untrusted.stderr.contains("does not trust"),
        "{untrusted:?}"
    );
    assert!(untrusted.stderr.contains("--tls-ca"), "{untrusted:?}");
    // The CA may come from the environment too.
    let listed = user
        .command(&["rulesets"])
        .env("TRINCHERA_TLS_CA", ca)
        .output()
        .expect("runs");
    assert!(
        listed.status.success(),
        "{}",
        String::from_utf8_lossy(&listed.stderr)
    );
    assert!(String::from_utf8_lossy(&listed.stdout).contains("tanques"));
}

#[test]
fn a_game_that_cannot_be_joined_says_where_to_go_instead() {
    let server = Server::start();
    let game = Game::start(&server, "frente");
    let [rojo, _] = &game.players;
    let id = &game.id;
    let cases = [
        (
            User::leak(&server),
            format!("both seats of game {id} are taken: `trinchera watch {id}` follows it"),
        ),
        (
            rojo,
            format!("you already have a seat in game {id}: `trinchera play --resume {id}`"),
        ),
    ];
    for (user, expected) in &cases {
        for args in [vec!["join", id], vec!["play", "--join", id]] {
            let run = user.run(&args);
            assert_eq!(run.code, 3, "{args:?}: {run:?}");
            assert!(run.stderr.contains(expected.as_str()), "{args:?}: {run:?}");
            assert!(run.stderr.contains("SEAT_TAKEN"), "{args:?}: {run:?}");
        }
    }
    rojo.ok(&["resign", "--yes", id]);
    let over = User::new(&server).run(&["--json", "join", id]);
    assert_eq!(over.code, 3, "{over:?}");
    let error = &over.json()["error"];
    assert_eq!(error["reason"], "SEAT_TAKEN", "{error}");
    assert!(
        error["message"]
            .as_str()
            .expect("message")
            .contains(&format!("game {id} is over: `trinchera show {id}`")),
        "{error}"
    );
}

#[test]
fn a_server_from_the_environment_is_not_shown_as_required() {
    let server = Server::start();
    let user = User::new(&server);
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_trinchera"))
        .arg("play")
        .env("TRINCHERA_CONFIG_DIR", user.config_dir())
        .env("TRINCHERA_SERVER", &server.url)
        .env("TRINCHERA_TOKEN", "tr1_unused")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("Usage: trinchera play <RULESET|--join <GAME>|--resume <GAME>>"),
        "{stderr}"
    );
    assert!(!stderr.contains("--server <SERVER>"), "{stderr}");
    assert!(!stderr.contains("--token <TOKEN>"), "{stderr}");
}
