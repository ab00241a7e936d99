//! `play`: piped input used line by line and its end noticed, the board once a turn, and
//! on a real terminal (util-linux `script`) the live prompt: events told while it waits,
//! the game's end ending it, the running clock, Tab completion, typed-ahead dropped, a
//! tanques turn of many actions with one board, the resignation asked for.

use std::process::Stdio;

use trinchera_proto::v1 as pb;

use crate::harness::{Game, Server, Terminal, User, file_with};

/// Rojo's frente army with a Soldado on a4.
const ROJO_ARMY: &str =
    "4 S S S S S S S S A A\n3 A A A R R R R T T T\n2 T C C C C M M M O O\n1 G L E B B B B B B F\n";

#[test]
fn play_reads_commands_and_moves_from_stdin() {
    let server = Server::start();
    let user = User::new(&server);
    let (_dir, army) = file_with(ROJO_ARMY);
    let input = format!(
        "template\nfile {}\nhelp\nmoves\nz1-z2\na4-a5\nboard\nresign\nyes\n",
        army.display()
    );
    let run = user.run_with_input(
        &["play", "frente", "--bot", "random", "--name", "Ana"],
        &input,
    );
    assert_eq!(run.code, 0, "{run:?}");
    let out = &run.stdout;
    for expected in [
        "you play Rojo (seat 0)",
        "# Setup of Rojo (seat 0) for frente, seen from the side of Rojo.",
        // The template says how the prompt takes it back.
        "Submit with: file THIS_FILE at the setup prompt",
        "Your move: ",
        "moves (or ?)   list your legal moves",
        "a4-a5",
        "Refused: ",
        "Ana (Rojo) played a4-a5.",
        "Azul (random bot) played ",
        "Really resign? (y/n): ",
        "Winner: Azul — resignation.",
        "You lose. The game is over: `trinchera verify",
    ] {
        assert!(out.contains(expected), "missing {expected:?} in:\n{out}");
    }
    assert!(!out.contains("trinchera setup"), "{out}");
    // The board was drawn with the army of the layout file.
    assert!(out.contains("  1  G    L    E    B"), "{out}");
    // The bot's reply is told once, not again as the board's "Last:" line.
    assert_eq!(out.matches("Azul (random bot) played ").count(), 1, "{out}");
    // A board a turn: when play starts, when the bot has replied, on `board`, at the end.
    assert_eq!(out.matches("UPPER: yours").count(), 4, "{out}");
    assert_eq!(out.matches("Ana (Rojo) set up.").count(), 1, "{out}");
    // (The bot may have set up before `play` looked: then it is not told at all.)
    assert!(
        out.matches("Azul (random bot) set up.").count() <= 1,
        "{out}"
    );
}

#[test]
fn play_leaves_at_the_end_of_input_and_resumes() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, azul] = &game.players;
    let left = rojo.run_with_input(&["play", "--resume", &game.id], "");
    assert_eq!(left.code, 0, "{left:?}");
    assert!(
        left.stdout.contains("Leaving; the game goes on."),
        "{left:?}"
    );
    // Azul waits for Rojo's move, sees it, then quits at its own prompt.
    let first = rojo.first_move(&game.id, None);
    let azul_side = azul.start_with_input(&["play", "--resume", &game.id], "quit\n");
    azul_side.wait_for("Waiting for Rojo to move.");
    rojo.ok(&["move", &game.id, &first]);
    let waiting = azul_side.finish();
    assert_eq!(waiting.code, 0, "{waiting:?}");
    assert!(
        waiting.stdout.contains("Waiting for Rojo to move."),
        "{waiting:?}"
    );
    assert!(
        waiting.stdout.contains(&format!("(Rojo) played {first}.")),
        "{waiting:?}"
    );
}

#[test]
fn ctrl_c_in_play_prints_how_to_come_back() {
    use std::io::Read as _;
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, _] = &game.players;
    let mut child = rojo
        .command(&["play", "--resume", &game.id])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("play runs");
    let mut stdout = child.stdout.take().expect("stdout");
    // Once the prompt is up, the player presses Ctrl-C.
    let mut seen = Vec::new();
    let mut byte = [0; 1];
    while !String::from_utf8_lossy(&seen).contains("Your move: ") {
        assert_eq!(
            stdout.read(&mut byte).expect("reads"),
            1,
            "play ended early"
        );
        seen.push(byte[0]);
    }
    let interrupted = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(interrupted.success());
    let status = child.wait().expect("play ends");
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).expect("reads");
    assert!(status.success(), "{status:?}: {rest}");
    assert!(
        rest.contains(&format!("trinchera play --resume {}", game.id)),
        "{rest}"
    );
}

/// The game's version as `user` sees it.
fn version(user: &User, game: &str) -> u64 {
    user.json(&["show", game])["view"]["version"]
        .as_u64()
        .expect("version")
}

#[test]
fn piped_play_stops_at_the_end_of_its_input_while_the_opponent_thinks() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, _] = &game.players;
    let before = version(rojo, &game.id);
    let input = format!("{}\n", rojo.first_move(&game.id, None));
    let run = rojo.run_with_input(&["play", "--resume", &game.id], &input);
    assert_eq!(run.code, 0, "{run:?}");
    assert!(run.stdout.contains("Waiting for Azul to move."), "{run:?}");
    assert!(run.stdout.contains("Leaving; the game goes on."), "{run:?}");
    assert_eq!(version(rojo, &game.id), before + 1, "the move was played");
    // The game stays resumable.
    let again = rojo.run_with_input(&["play", "--resume", &game.id], "");
    assert_eq!(again.code, 0, "{again:?}");
    assert!(
        again.stdout.contains("Waiting for Azul to move."),
        "{again:?}"
    );
}

#[test]
fn the_end_of_the_game_reaches_the_prompt_and_tab_lists_the_candidates() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, azul] = &game.players;
    rojo.ok(&["move", &game.id, &rojo.first_move(&game.id, None)]);
    let mut terminal = Terminal::play(azul, &["--resume", &game.id], &[]);
    terminal.wait_for("Your move: ");
    // Readline's way: a Tab that completes nothing rings, a second one lists.
    terminal.type_keys("\t\t");
    terminal.wait_for("exit");
    assert!(terminal.output().contains('\x07'), "{}", terminal.output());
    // Half a move typed, then the opponent resigns in another shell.
    terminal.type_keys("a7");
    rojo.ok(&["resign", "--yes", &game.id]);
    let (status, output) = terminal.ended();
    assert!(status.success(), "{status:?}: {output}");
    assert!(output.contains("Ana (Rojo) resigned."), "{output}");
    assert!(output.contains("You win."), "{output}");
}

#[test]
fn a_move_typed_while_waiting_is_not_played_on_a_terminal() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, azul] = &game.players;
    let mut terminal = Terminal::play(azul, &["--resume", &game.id], &[]);
    terminal.wait_for("Waiting for Rojo");
    // Entered while Rojo is to move: refused here, never sent.
    terminal.type_keys("a7-a6\n");
    terminal.wait_for("Not now. To move: Rojo.");
    // Typed but not entered when Rojo moves: dropped before Azul's prompt.
    terminal.type_keys("a7-a6");
    terminal.wait_for_times("a7-a6", 2);
    rojo.ok(&["move", &game.id, &rojo.first_move(&game.id, None)]);
    terminal.wait_for("What you typed while waiting was dropped");
    terminal.wait_for("Your move: ");
    let seen = version(azul, &game.id);
    terminal.type_keys("quit\n");
    let (status, output) = terminal.ended();
    assert!(status.success(), "{status:?}: {output}");
    assert!(output.contains("Leaving; the game goes on"), "{output}");
    assert_eq!(
        version(azul, &game.id),
        seen,
        "nothing typed ahead was played"
    );
}

/// A frente game against the random bot with a live clock of `seconds` and no increment,
/// the creator (Rojo) set up at random; its id and Rojo's token.
fn timed_game(server: &Server, user: &User, seconds: u32) -> (String, String) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let created = runtime.block_on(async {
        let client = trinchera_client::Server::connect(&server.url, &Default::default())
            .await
            .expect("connects");
        client
            .create(pb::CreateGameRequest {
                ruleset: "frente".into(),
                bot: "random".into(),
                time_control: Some(pb::TimeControl {
                    control: Some(pb::time_control::Control::Live(pb::LiveControl {
                        initial_seconds: seconds,
                        increment_seconds: 0,
                    })),
                }),
                ..Default::default()
            })
            .await
            .expect("created")
    });
    let token = created.player_token;
    user.json(&["--token", &token, "setup", &created.game_id, "--random"]);
    (created.game_id, token)
}

#[test]
fn the_clock_runs_at_the_prompt_warns_and_the_forfeit_ends_it() {
    let server = Server::start();
    let user = User::new(&server);
    let (game, token) = timed_game(&server, &user, 12);
    let mut terminal = Terminal::play(&user, &["--resume", &game], &[("TRINCHERA_TOKEN", &token)]);
    // A first move runs on no clock: its limit shows instead.
    terminal.wait_for("Your move [first move due in");
    terminal.type_keys(&format!("{}\n", user.first_move(&game, Some(&token))));
    // The bot replies; from the second move on Rojo's own clock runs down at the prompt.
    terminal.wait_for("Your time is running low!");
    let (status, output) = terminal.ended();
    assert!(status.success(), "{status:?}: {output}");
    assert!(output.contains("Rojo ran out of time."), "{output}");
    assert!(output.contains("You lose."), "{output}");
    let faces: std::collections::BTreeSet<&str> = output
        .split("Your move [")
        .skip(1)
        .filter_map(|rest| rest.split_once(']').map(|(face, _)| face))
        .filter(|face| face.starts_with("0:"))
        .collect();
    assert!(
        faces.len() >= 3 && faces.iter().any(|face| face.contains('.')),
        "the prompt's clock ran down to tenths: {faces:?}"
    );
}

#[test]
fn a_tanques_turn_of_many_actions_draws_the_board_once_and_tells_each_action() {
    let server = Server::start();
    let user = User::new(&server);
    let mut terminal = Terminal::play(&user, &["tanques", "--bot", "easy", "--name", "Ana"], &[]);
    terminal.wait_for("Your move: ");
    for hex in ["a1", "b1", "c1"] {
        terminal.type_keys(&format!("enter {hex} NE\n"));
        terminal.wait_for(&format!("Ana (Rojo) played enter {hex} NE."));
    }
    terminal.type_keys("board\n");
    terminal.wait_for_times("UPPER: yours", 2);
    terminal.type_keys("quit\n");
    let (status, output) = terminal.ended();
    assert!(status.success(), "{status:?}: {output}");
    // One board when the turn came, one asked for; none after each action.
    assert_eq!(output.matches("UPPER: yours").count(), 2, "{output}");
    // Each hex by its own name: the entry row reads a1 b1 …, not Azul's a11 b11 ….
    assert!(output.contains("  1  a1    b1    c1    d1"), "{output}");
    assert!(output.contains("  11  a11   b11"), "{output}");
    assert!(
        output.contains("Ana (Rojo) — you  vs  Azul (easy bot)"),
        "{output}"
    );
}

#[test]
fn resign_at_the_prompt_asks_and_takes_y() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, _] = &game.players;
    let mut terminal = Terminal::play(rojo, &["--resume", &game.id], &[]);
    terminal.wait_for("Your move: ");
    terminal.type_keys("resign\n");
    terminal.wait_for("Really resign? (y/n): ");
    terminal.type_keys("n\n");
    terminal.wait_for("You play on.");
    terminal.type_keys("resign\n");
    terminal.wait_for_times("Really resign? (y/n): ", 2);
    terminal.type_keys("y\n");
    let (status, output) = terminal.ended();
    assert!(status.success(), "{status:?}: {output}");
    assert!(output.contains("You resigned."), "{output}");
    assert!(output.contains("You lose."), "{output}");
}
