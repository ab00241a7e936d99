//! `show` of each board shape, from each side and a spectator's, against snapshots in
//! `tests/snapshots/` (`UPDATE_SNAPSHOTS=1` rewrites them; review the diff).

use std::path::PathBuf;

use crate::harness::{Game, Server, User, file_with};

/// Compares `text` with the snapshot `name`.
fn assert_snapshot(name: &str, text: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(format!("{name}.txt"));
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().expect("parent")).expect("snapshot dir");
        std::fs::write(&path, text).expect("snapshot written");
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "no snapshot {} ({e}); run with UPDATE_SNAPSHOTS=1",
            path.display()
        )
    });
    assert_eq!(text, expected, "snapshot {name} differs; got:\n{text}");
}

/// A frente army, rows from seat 0's far side, each from seat 0's left.
const ARMY_ROWS: [&str; 4] = [
    "S S S S S S S S A A",
    "A A A R R R R T T T",
    "T C C C C M M M O O",
    "G L E B B B B B B F",
];

/// Sets up both armies of a frente `game` from [`ARMY_ROWS`], each from its own side.
fn set_up_armies(game: &Game) {
    let rojo = ARMY_ROWS
        .iter()
        .zip(["4", "3", "2", "1"])
        .map(|(codes, row)| format!("{row} {codes}\n"));
    // Azul's file is written from Azul's side: each row from column j to a.
    let azul = ARMY_ROWS
        .iter()
        .zip(["7", "8", "9", "10"])
        .map(|(codes, row)| {
            let codes: Vec<&str> = codes.split(' ').rev().collect();
            format!("{row} {}\n", codes.join(" "))
        });
    for (player, rows) in game
        .players
        .iter()
        .zip([rojo.collect::<String>(), azul.collect()])
    {
        let (_dir, path) = file_with(&rows);
        player.ok(&["setup", &game.id, "--file", path.to_str().expect("utf-8")]);
    }
}

#[test]
fn square_boards_from_both_sides_and_a_spectators() {
    let server = Server::start();
    let game = Game::start(&server, "frente");
    set_up_armies(&game);
    let [rojo, azul] = &game.players;
    rojo.ok(&["move", &game.id, "a4-a5"]);
    azul.ok(&["move", &game.id, "a7-a6"]);
    rojo.ok(&["move", &game.id, "b4-b5"]);
    azul.ok(&["move", &game.id, "e7-e6"]);
    let battle = rojo.ok(&["move", &game.id, "a5xa6"]);
    assert!(
        battle.contains("Soldado (Rojo) attacked Soldado (Azul) on a6: both fell."),
        "{battle}"
    );
    assert_snapshot("square_seat0", &rojo.ok(&["show", &game.id]));
    assert_snapshot("square_seat1", &azul.ok(&["show", &game.id]));
    assert_snapshot(
        "square_seat1_no_flip",
        &azul.ok(&["--no-flip", "show", &game.id]),
    );
    assert_snapshot(
        "square_spectator",
        &User::new(&server).ok(&["show", &game.id]),
    );
}

/// The cells that head the groups of `moves` output, in order.
fn move_heads(moves: &str) -> Vec<String> {
    moves
        .lines()
        .skip(1)
        .filter_map(|line| line.split_whitespace().next())
        .filter(|head| !head.contains('-'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn moves_are_listed_in_the_order_of_the_board_as_drawn() {
    let server = Server::start();
    let game = Game::start(&server, "frente");
    set_up_armies(&game);
    let [rojo, azul] = &game.players;
    rojo.ok(&["move", &game.id, "a4-a5"]);
    // Seat 1 sees the board turned: its front row on top, from column j to a.
    let heads = move_heads(&azul.ok(&["moves", &game.id]));
    assert_eq!(heads.first().map(String::as_str), Some("j7"), "{heads:?}");
    assert_eq!(heads.last().map(String::as_str), Some("a7"), "{heads:?}");
    // Seat 0: the top row first (a5 is above b4).
    azul.ok(&["move", &game.id, "j7-j6"]);
    let heads = move_heads(&rojo.ok(&["moves", &game.id]));
    assert_eq!(heads[..2], ["a5", "b4"], "{heads:?}");
}

#[test]
fn hex_boards_show_tanks_with_their_facing() {
    let server = Server::start();
    let game = Game::start(&server, "tanques");
    let [rojo, azul] = &game.players;
    rojo.ok(&["move", &game.id, "enter", "b1", "NE"]);
    rojo.ok(&["move", &game.id, "enter e1 NW"]);
    assert_snapshot("hex_seat0", &rojo.ok(&["show", &game.id]));
    assert_snapshot("hex_seat1", &azul.ok(&["show", &game.id]));
    // The moves by tank or entry hex, each maneuver with where it ends.
    rojo.ok(&["move", &game.id, "end"]);
    azul.ok(&["move", &game.id, "end"]);
    assert_snapshot("hex_moves", &rojo.ok(&["moves", &game.id]));
    let one = rojo.ok(&["moves", &game.id, "B1"]);
    assert!(one.lines().skip(1).all(|l| l.contains("b1")), "{one}");
    assert!(one.contains("→ "), "maneuvers show their end: {one}");
    let run = rojo.run(&["moves", &game.id, "z9"]);
    assert_eq!(run.code, 2, "a usage error: {run:?}");
    assert!(run.stderr.contains("\"z9\" is not a cell"), "{run:?}");
}

#[test]
fn cross_boards_show_points_and_lines() {
    let server = Server::start();
    let game = Game::start(&server, "tacticas");
    let [rebels, officers] = &game.players;
    let (_dir, path) = file_with("# officers\n7 . . .\n6 O . O\n5 . . .\n");
    officers.ok(&["setup", &game.id, "--file", path.to_str().expect("utf-8")]);
    rebels.ok(&["move", &game.id, "b5-c5"]);
    assert_snapshot("cross_seat0", &rebels.ok(&["show", &game.id]));
    assert_snapshot("cross_seat1", &officers.ok(&["show", &game.id]));
}

#[test]
fn rulesets_show_draws_every_board_with_its_zones() {
    let server = Server::start();
    let user = User::new(&server);
    for id in ["castillos", "tanques", "asalto"] {
        assert_snapshot(
            &format!("ruleset_{id}"),
            &user.ok(&["rulesets", "show", id]),
        );
    }
}

#[test]
fn rules_is_rulesets_show() {
    let server = Server::start();
    let user = User::new(&server);
    assert_eq!(
        user.ok(&["rules", "asalto"]),
        user.ok(&["rulesets", "show", "asalto"])
    );
}

#[test]
fn rulesets_are_listed_in_aligned_columns() {
    let server = Server::start();
    let listing = User::new(&server).ok(&["rulesets"]);
    let rows: Vec<&str> = listing.lines().take_while(|l| !l.is_empty()).collect();
    assert!(rows.len() >= 6, "{listing}");
    // Each column starts at the same place in every row: the seats ("Rojo vs Azul",
    // "Rebeldes vs Oficiales") after the widest board ("cross, 33 points").
    let seats_at = |row: &str| {
        let seats = row.rfind("  ").expect("columns") + 2;
        row[..seats].chars().count()
    };
    let first = seats_at(rows[0]);
    for row in &rows {
        assert_eq!(seats_at(row), first, "misaligned:\n{listing}");
    }
    assert!(
        listing.contains("cross, 33 points  Rebeldes vs Oficiales"),
        "{listing}"
    );
}
