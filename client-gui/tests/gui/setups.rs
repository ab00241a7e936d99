//! Setups: the server's random setup filled in around the pieces kept, then submitted;
//! saved setups prepared in one game, loaded into another and submitted; CLI setup files
//! imported and exported; a file that does not fit loads with its problems listed.

use egui_kittest::kittest::Queryable as _;
use trinchera_client::Names;
use trinchera_client::setup_file::Zone;
use trinchera_gui::lobby::{ClockChoice, Opponent};

use crate::harness::{Server, Window, setup_complete};

/// Creates a frente game against the random bot with the viewer in `seat`, and waits for
/// the setup tray.
fn new_game(window: &mut Window, seat: i32) {
    window.create_game(
        "frente",
        seat,
        Opponent::Bot("random".into()),
        ClockChoice::None,
    );
    window.wait_for("the setup tray", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
}

/// A complete layout of `seat`'s zone in the CLI's setup-file format.
fn cli_file(window: &Window, seat: i32, seed: u64) -> String {
    let game = window.game();
    let names = Names::new(game.ruleset());
    let zone = Zone::of(&names, seat).expect("frente seats set up");
    zone.write(&zone.shuffled(seed), Some(&game.view().game_id))
}

/// Types `text` into the saved-setups name field.
fn name(window: &mut Window, text: &str) {
    window.type_into("Name", text);
}

#[test]
fn three_setups_are_prepared_and_one_is_loaded_into_a_new_game_and_played() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    new_game(&mut me, 0);
    // A CLI file imported into the editor, saved, copied and mirrored: three setups.
    let config = tempfile::tempdir().expect("temp dir");
    let file = config.path().join("rush.txt");
    std::fs::write(&file, cli_file(&me, 0, 7)).expect("writes");
    me.type_into("File", &file.display().to_string());
    me.click("Import");
    assert!(me.shows_containing("Imported"), "the import is confirmed");
    let zone = me.game().zone().cloned().expect("zone");
    assert!(
        me.game().draft().tray().complete(&zone),
        "the file placed every piece"
    );
    let imported = me.game().draft().tray().placements();
    name(&mut me, "Rush");
    me.click("Save");
    me.click("Duplicate");
    assert!(me.shows("Rush (copy)"));
    name(&mut me, "Flipped");
    me.click("Mirror");
    let mirrored = me.game().draft().tray().placements();
    assert_ne!(mirrored, imported, "mirroring moved pieces");
    me.click("Save");
    let shelf = me.app().shelf.clone();
    assert_eq!(shelf.names("frente"), ["Flipped", "Rush", "Rush (copy)"]);
    // Rename and delete act on the one picked in the list.
    me.click("Rush (copy)");
    name(&mut me, "Spare");
    me.click("Rename to the name above");
    assert_eq!(shelf.names("frente"), ["Flipped", "Rush", "Spare"]);
    me.click("Spare");
    me.click("Delete");
    assert_eq!(shelf.names("frente"), ["Flipped", "Rush"]);
    // Exported back to the CLI's format, it reads as the same setup.
    let exported = config.path().join("export.txt");
    me.type_into("File", &exported.display().to_string());
    me.click("Export");
    let text = std::fs::read_to_string(&exported).expect("exported");
    assert!(text.contains("trinchera setup"), "{text}");

    // A new game, from seat 1 this time: the seat-0 setup loads from the player's own side.
    me.click("Back to the lobby");
    me.wait_for("the lobby", |app| app.game.is_none());
    new_game(&mut me, 1);
    me.click("Rush");
    me.click("Load");
    assert!(me.shows_containing("Loaded Rush"));
    let zone = me.game().zone().cloned().expect("zone");
    assert!(
        me.game().draft().tray().complete(&zone),
        "every piece placed"
    );
    assert!(
        me.game()
            .draft()
            .tray()
            .placements()
            .iter()
            .all(|p| zone.cells.contains(&p.cell.expect("cell"))),
        "in seat 1's own zone"
    );
    me.click("Submit setup");
    me.wait_for("my turn", |app| {
        app.game
            .as_ref()
            .is_some_and(|g| g.view().phase() == trinchera_proto::v1::Phase::Playing)
    });
    assert!(me.game().problems().is_empty());
}

#[test]
fn a_file_that_does_not_fit_loads_with_its_problems_listed() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    new_game(&mut me, 0);
    let dir = tempfile::tempdir().expect("temp dir");
    // One piece short: the first cell of row 4 left empty.
    let short: String = cli_file(&me, 0, 11)
        .lines()
        .map(|line| match line.strip_prefix("  4  ") {
            Some(codes) => format!("  4  .{}", &codes[1..]),
            None => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let path = dir.path().join("short.txt");
    std::fs::write(&path, &short).expect("writes");
    me.type_into("File", &path.display().to_string());
    me.click("Import");
    assert!(me.shows("The loaded setup does not fit this game:"));
    assert!(
        me.shows_containing(" missing"),
        "the missing piece is named"
    );
    // A syntax error names the line and changes nothing.
    let before = me.game().draft().tray().placements();
    std::fs::write(&path, "4 S S\n").expect("writes");
    me.click("Import");
    assert!(me.shows_containing("line 1: row 4 of your zone has 10 cells"));
    assert_eq!(me.game().draft().tray().placements(), before);
}

#[test]
fn random_setup_fills_the_board_around_the_pieces_kept_and_submit_sends_it() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    new_game(&mut me, 0);
    // The flag on the front row, where the server's setups never put it.
    let front = trinchera_proto::v1::Cell { x: 4, y: 3 };
    me.harness
        .get_by(|node| node.label().is_some_and(|l| l.starts_with("Estandarte ")))
        .click();
    me.harness.step();
    me.click_cell("e4");
    assert_eq!(me.game().draft().tray().at(front), Some("estandarte"));

    me.click("Random setup keeps the pieces placed");
    me.click("Random setup");
    me.wait_for("the setup around the flag", setup_complete);
    assert_eq!(
        me.game().draft().tray().at(front),
        Some("estandarte"),
        "the flag is kept where it was"
    );
    assert!(me.game().setting_up(), "nothing is submitted yet");

    me.click("Random setup keeps the pieces placed");
    me.click("Random setup");
    me.wait_for("a setup of the server's own", |app| {
        setup_complete(app)
            && app
                .game
                .as_ref()
                .is_some_and(|g| g.draft().tray().at(front) != Some("estandarte"))
    });
    me.click("Submit setup");
    me.wait_for("the game to start", |app| {
        app.game
            .as_ref()
            .is_some_and(|g| g.view().phase() == trinchera_proto::v1::Phase::Playing)
    });
}

#[test]
fn a_piece_dragged_from_the_tray_shows_under_the_pointer() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    new_game(&mut me, 0);
    let halfway = me.drag_toward("Espía 1 ×1", "e4", 0.5);
    let dragged = me.rect("Espía, dragged");
    assert!(
        dragged.contains(halfway),
        "{dragged:?} is not under {halfway:?}"
    );
    me.drop_on_cell("e4");
    assert!(!me.shows("Espía, dragged"), "gone once dropped");
    assert!(me.cell_label("e4").contains("your Espía"));
}
