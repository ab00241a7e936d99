//! `resign`: asked first on a terminal (`y` resigns, anything else does not), never
//! guessed for a script (standard input not a terminal, or `--json`), and done at once with
//! `--yes`.

use crate::harness::{Game, Server, Terminal, User};

/// The phase of `game` as `user` sees it.
fn phase(user: &User, game: &str) -> String {
    user.json(&["show", game])["view"]["phase"]
        .as_str()
        .expect("phase")
        .to_owned()
}

#[test]
fn resign_asks_on_a_terminal_and_takes_y() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, _] = &game.players;
    let question = format!(
        "Really resign game {}? The other side wins. (y/n): ",
        game.id
    );
    let mut declined = Terminal::run(rojo, &["resign", &game.id], &[]);
    declined.wait_for(&question);
    declined.type_keys("n\n");
    let (status, output) = declined.ended();
    assert!(status.success(), "{status:?}: {output}");
    assert!(
        output.contains("Not resigned: the game goes on."),
        "{output}"
    );
    assert_eq!(phase(rojo, &game.id), "PHASE_PLAYING");
    let mut confirmed = Terminal::run(rojo, &["resign", &game.id], &[]);
    confirmed.wait_for(&question);
    confirmed.type_keys("y\n");
    let (status, output) = confirmed.ended();
    assert!(status.success(), "{status:?}: {output}");
    assert!(output.contains("You resigned."), "{output}");
    assert!(output.contains("Winner: Azul — resignation."), "{output}");
    assert_eq!(phase(rojo, &game.id), "PHASE_FINISHED");
}

#[test]
fn a_script_resigns_only_with_yes() {
    let server = Server::start();
    let game = Game::ready(&server, "frente");
    let [rojo, _] = &game.players;
    // Standard input is not a terminal: nobody to ask, so nothing is done.
    let unasked = rojo.run(&["resign", &game.id]);
    assert_eq!(unasked.code, 2, "{unasked:?}");
    assert!(
        unasked
            .stderr
            .contains(&format!("`trinchera resign {} --yes`", game.id)),
        "{unasked:?}"
    );
    let json = rojo.run(&["--json", "resign", &game.id]);
    assert_eq!(json.code, 2, "{json:?}");
    assert_eq!(json.json()["error"]["kind"], "usage", "{json:?}");
    assert_eq!(phase(rojo, &game.id), "PHASE_PLAYING");
    let resigned = rojo.ok(&["resign", "--yes", &game.id]);
    assert!(resigned.contains("You resigned."), "{resigned}");
    assert_eq!(phase(rojo, &game.id), "PHASE_FINISHED");
}
