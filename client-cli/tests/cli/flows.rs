//! Watching, fairness verification of saved histories (and of tampered ones), tokens, both
//! seats on one machine, completions, moves typed in upper case.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use serde_json::Value;

use crate::games::play_out;
use crate::harness::{Game, Lcg, Server, User, file_with};

#[test]
fn watch_prints_one_json_object_per_event_until_the_end() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, azul] = &game.players;
    let spectator = User::new(&server);
    let mut child = spectator
        .command(&["--json", "watch", &game.id])
        .stdout(Stdio::piped())
        .spawn()
        .expect("watch starts");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let snapshot: Value =
        serde_json::from_str(&lines.next().expect("a line").expect("reads")).expect("json");
    assert_eq!(snapshot["snapshot"], true, "{snapshot}");
    let first = rojo.first_move(&game.id, None);
    rojo.ok(&["move", &game.id, &first]);
    azul.ok(&["resign", "--yes", &game.id]);
    let rest: Vec<Value> = lines
        .map(|line| serde_json::from_str(&line.expect("reads")).expect("json line"))
        .collect();
    assert!(child.wait().expect("watch ends").success());
    assert_eq!(rest.len(), 2, "{rest:?}");
    assert_eq!(rest[0]["event"]["notation"], first.as_str());
    assert_eq!(rest[1]["event"]["type"], "EVENT_TYPE_RESIGNED");
    assert_eq!(rest[1]["view"]["phase"], "PHASE_FINISHED");
    // People get one line per event when the output is not a terminal.
    let human = spectator.ok(&["watch", &game.id, "--after", "0"]);
    assert!(human.contains("Ana (Rojo) created the game."), "{human}");
    assert!(human.contains("Beto (Azul) resigned."), "{human}");
}

/// Saves `history --json` of `game` and returns the document and its path.
fn saved_history(user: &User, game: &str) -> (Value, tempfile::TempDir, std::path::PathBuf) {
    let doc = user.json(&["history", game]);
    let (dir, path) = file_with(&doc.to_string());
    (doc, dir, path)
}

/// Runs `verify --history` on `doc` written to a file.
fn verify_document(user: &User, doc: &Value) -> crate::harness::Run {
    let (_dir, path) = file_with(&doc.to_string());
    user.run(&["verify", "--history", path.to_str().expect("utf-8")])
}

#[test]
fn verify_finds_a_tanques_game_fair_and_a_tampered_history_not() {
    let server = Server::start();
    let game = Game::start(&server, "tanques");
    let (_, view) = play_out(&game, &mut Lcg(11));
    assert_eq!(view["phase"], "PHASE_FINISHED");
    let rojo = &game.players[0];
    let fair = rojo.ok(&["verify", &game.id]);
    assert!(fair.contains("Verdict: fair"), "{fair}");
    assert!(
        fair.contains("the views this machine saw during play"),
        "{fair}"
    );
    let (doc, _dir, path) = saved_history(rojo, &game.id);
    let file = rojo.run(&["verify", "--history", path.to_str().expect("utf-8")]);
    assert_eq!(file.code, 0, "{file:?}");
    // Somebody who never saw the game checks the file against its final view.
    let outsider = User::new(&server).run(&[
        "--json",
        "verify",
        "--history",
        path.to_str().expect("utf-8"),
    ]);
    assert_eq!(outsider.code, 0, "{outsider:?}");
    assert_eq!(outsider.json()["fair"], true);
    // Change one die.
    let mut tampered = doc.clone();
    let dice = tampered["events"]
        .as_array_mut()
        .expect("events")
        .iter_mut()
        .flat_map(|e| e["effects"].as_array_mut().expect("effects").iter_mut())
        .find_map(|e| e.get_mut("dice"))
        .expect("the game rolled dice");
    let roll = dice["roll"].as_i64().expect("roll");
    dice["roll"] = Value::from(roll % 6 + 1);
    let run = verify_document(rojo, &tampered);
    assert_eq!(run.code, 5, "{run:?}");
    assert!(run.stdout.contains("Verdict: NOT fair"), "{run:?}");
    assert!(run.stdout.contains("but the seed gives"), "{run:?}");
    // Change the seed.
    let mut tampered = doc;
    tampered["reveal"]["dice_seed"] = Value::from("00".repeat(32));
    let run = verify_document(rojo, &tampered);
    assert_eq!(run.code, 5, "{run:?}");
    assert!(
        run.stdout
            .contains("FAIL the dice seed opens the published dice commitment"),
        "{run:?}"
    );
}

#[test]
fn verify_checks_revealed_setups_against_their_commitments() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, azul] = &game.players;
    rojo.ok(&["resign", "--yes", &game.id]);
    let report = azul.json(&["verify", &game.id]);
    assert_eq!(report["fair"], true, "{report}");
    let (doc, _dir, _path) = saved_history(azul, &game.id);
    // Swap the kinds of two cells of Rojo's setup, in the text and the placements alike.
    let mut tampered = doc.clone();
    let setup = &mut tampered["reveal"]["setups"][0];
    let placements = setup["placements"].as_array_mut().expect("placements");
    let (first, other) = (
        0,
        placements
            .iter()
            .position(|p| p["kind"] != placements[0]["kind"])
            .expect("two kinds"),
    );
    let (a, b) = (
        placements[first]["kind"].clone(),
        placements[other]["kind"].clone(),
    );
    placements[first]["kind"] = b;
    placements[other]["kind"] = a;
    let run = verify_document(azul, &tampered);
    assert_eq!(run.code, 5, "{run:?}");
    assert!(
        run.stdout
            .contains("FAIL the setup of Rojo matches its canonical text"),
        "{run:?}"
    );
    // A different setup with a matching text and commitment still differs from what was
    // published during play.
    let mut forged = doc;
    forged["reveal"]["setups"][0]["commitment"] = Value::from("ab".repeat(32));
    let run = verify_document(azul, &forged);
    assert_eq!(run.code, 5, "{run:?}");
    assert!(
        run.stdout
            .contains("FAIL the setup of Rojo opens its commitment"),
        "{run:?}"
    );
    assert!(
        run.stdout
            .contains("FAIL the commitment of Rojo is the one published during play"),
        "{run:?}"
    );
    let json = azul.run(&["--json", "verify", "--history", "/nonexistent/history.json"]);
    assert_eq!(json.code, 1, "{json:?}");
}

#[test]
fn tokens_are_private_and_printed_only_by_new_and_join_in_json() {
    let server = Server::start();
    let user = User::new(&server);
    let human = user.run(&["new", "frente"]);
    assert_eq!(human.code, 0, "{human:?}");
    let created = user.json(&["new", "clasico"]);
    let token = created["player_token"].as_str().expect("a token in --json");
    assert!(token.len() >= 32);
    let state = std::fs::read_to_string(user.config_dir().join("games.json")).expect("state file");
    assert!(state.contains(token));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(user.config_dir().join("games.json"))
            .expect("state file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    let game = created["game_id"].as_str().expect("id");
    let other = User::new(&server);
    let joined = other.run(&["join", game]);
    for run in [
        &human,
        &joined,
        &user.run(&["show", game]),
        &user.run(&["--json", "show", game]),
        &user.run(&["--json", "history", game]),
        &user.run(&["games"]),
    ] {
        assert_eq!(run.code, 0, "{run:?}");
        assert!(
            !run.stdout.contains("tr1_") && !run.stderr.contains("tr1_"),
            "{run:?}"
        );
    }
    // --token overrides the stored token: a stranger acts with it.
    let stranger = User::new(&server);
    let view = stranger.json(&["--token", token, "show", game]);
    assert_eq!(view["view"]["viewer_seat"], 0);
}

#[test]
fn both_seats_on_one_machine_act_for_the_seat_to_move() {
    let server = Server::start();
    let user = User::new(&server);
    let game = user.json(&["new", "frente"])["game_id"]
        .as_str()
        .expect("id")
        .to_owned();
    user.json(&["join", &game]);
    let ambiguous = user.run(&["setup", &game, "--random"]);
    assert_eq!(ambiguous.code, 2, "{ambiguous:?}");
    assert!(
        ambiguous.stderr.contains("--as 0 or --as 1"),
        "{ambiguous:?}"
    );
    user.json(&["--as", "1", "setup", &game, "--random"]);
    // Only seat 0 is still to set up now.
    user.json(&["setup", &game, "--random"]);
    for seat in [0, 1, 0] {
        let moves = user.json(&["moves", &game]);
        assert_eq!(moves["viewer_seat"], seat, "{moves}");
        let first = moves["legal_moves"][0]["notation"]
            .as_str()
            .expect("a move");
        user.json(&["move", &game, first]);
    }
    let listing = user.ok(&["games"]);
    assert!(listing.contains("[yours: seat 0 and 1]"), "{listing}");
}

#[test]
fn completions_are_generated_for_shells() {
    let server = Server::start();
    let user = User::new(&server);
    for shell in ["bash", "zsh", "fish"] {
        let script = user.ok(&["completions", shell]);
        assert!(script.contains("trinchera"), "{shell}");
        assert!(script.contains("verify"), "{shell}");
    }
    let help = user.ok(&["--help"]);
    assert!(help.contains("Exit codes:"), "{help}");
    assert!(help.contains("5  verify: the game was NOT fair"), "{help}");
}

#[test]
fn the_documented_jq_script_plays_a_game() {
    if std::process::Command::new("jq")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("jq is not installed: the script test has nothing to run with");
        return;
    }
    let server = Server::start();
    let user = User::new(&server);
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/play-random.sh");
    let output = std::process::Command::new("bash")
        .arg(script)
        .arg("tacticas")
        .env("TRINCHERA_BIN", env!("CARGO_BIN_EXE_trinchera"))
        .env("TRINCHERA_SERVER", &server.url)
        .env("TRINCHERA_CONFIG_DIR", user.config_dir())
        .env("MAX_MOVES", "20")
        .output()
        .expect("bash runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("result: "), "{stdout}");
    assert!(stdout.trim_end().ends_with("fair"), "{stdout}");
}

#[test]
fn moves_typed_in_upper_case_are_played() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, _] = &game.players;
    let first = rojo.first_move(&game.id, None);
    let played = rojo.run(&["move", &game.id, &first.to_uppercase()]);
    assert_eq!(
        played.code,
        0,
        "{} typed upper case: {played:?}",
        first.to_uppercase()
    );
    // A typo is echoed in one case, not half lowered.
    let typo = game.players[1].run(&["move", &game.id, "E4-E5X"]);
    assert_eq!(typo.code, 3, "{typo:?}");
    assert!(typo.stderr.contains("\"e4-e5x\""), "{typo:?}");
}

#[test]
fn games_lists_each_seat_once_and_the_winner_of_a_finished_game() {
    let server = Server::start();
    let user = User::new(&server);
    let game = user.json(&["new", "frente", "--bot", "random"])["game_id"]
        .as_str()
        .expect("id")
        .to_owned();
    user.ok(&["resign", "--yes", &game]);
    let listing = user.ok(&["games"]);
    let line = listing
        .lines()
        .find(|line| line.starts_with(&format!("{game} ")))
        .expect("the game is listed");
    // The server's default name and its bot's name say no more than the seats do.
    assert!(line.contains("Rojo vs Azul (random bot)"), "{listing}");
    assert!(line.contains("Winner: Azul — resignation."), "{listing}");
}
