//! A narrow window: the top bar folds into a menu, the board keeps most of the room, and the
//! panel beside it stays whole, its lines wrapped where they break best.

use eframe::egui;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use trinchera_client::Lang;
use trinchera_gui::lobby::{ClockChoice, Opponent};

use crate::harness::{Server, Window};

/// The smallest window the desktop client opens (`main.rs`).
const SMALLEST: egui::Vec2 = egui::vec2(640.0, 480.0);

#[test]
fn at_640_by_480_the_top_bar_is_a_menu_and_the_board_stays_usable() {
    let server = Server::start();
    let mut me = Window::lobby_sized(&server, SMALLEST);
    let bot = Opponent::Bot("random".into());
    me.create_game("frente", 0, bot, ClockChoice::None);
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    assert!(!me.shows("Flip board"), "the controls are folded away");
    let menu = me.rect("Menu");
    let connection = me
        .harness
        .query_all_by_label_contains("connected to")
        .next()
        .expect("the connection shows")
        .rect();
    assert!(!menu.intersects(connection), "{menu:?} and {connection:?}");
    let window = egui::Rect::from_min_size(egui::Pos2::ZERO, SMALLEST);
    let panel = me.rect("Set up your pieces");
    let cells: Vec<egui::Rect> = me
        .harness
        .query_all_by(|node| {
            node.label()
                .is_some_and(|l| l.contains(", ") && l.starts_with(char::is_alphabetic))
        })
        .map(|node| node.rect())
        .collect();
    assert_eq!(cells.len(), 100, "every cell of the board is there");
    for cell in &cells {
        assert!(window.contains_rect(*cell), "{cell:?} is off the window");
        assert!(cell.max.x <= panel.min.x, "{cell:?} is under the panel");
        assert!(cell.width() >= 28.0, "{cell:?} is too small to click");
    }
    me.click("Menu");
    me.click("Flip board");
    assert!(me.app().settings.look.flipped, "the menu's controls work");
}

/// Plays `ruleset` against the bot in a window of the smallest size, in `lang`, until it is
/// the player's turn.
fn playing_at_the_smallest(server: &Server, ruleset: &str, lang: Lang) -> Window {
    let mut me = Window::lobby(server);
    me.create_game(
        ruleset,
        0,
        Opponent::Bot("random".into()),
        ClockChoice::None,
    );
    me.harness.set_size(SMALLEST);
    me.app_mut().settings.lang = lang;
    me.harness.run();
    if me.game().setting_up() {
        let (random, submit) = match lang {
            Lang::En => ("Random setup", "Submit setup"),
            Lang::Es => ("Colocación al azar", "Enviar colocación"),
        };
        me.set_up_at_random(random, submit);
    }
    me.wait_for("my turn", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    me
}

#[test]
fn at_640_by_480_the_panel_beside_a_game_in_play_is_whole_in_english_and_spanish() {
    let server = Server::start();
    for (lang, heading, turn) in [
        (Lang::En, "frente test", "Your turn"),
        (Lang::Es, "frente test", "Te toca"),
    ] {
        let me = playing_at_the_smallest(&server, "frente", lang);
        let board_edge = me
            .harness
            .query_all_by(|node| node.label().is_some_and(|l| l.starts_with("j1, ")))
            .map(|node| node.rect().max.x)
            .fold(0.0, f32::max);
        let panel = me.rect(heading);
        assert!(
            board_edge <= panel.min.x,
            "{lang:?}: the board reaches {board_edge}, over the panel from {panel:?}"
        );
        // Nothing of the panel beyond the window's edge.
        let window = egui::Rect::from_min_size(egui::Pos2::ZERO, SMALLEST);
        for node in me.harness.query_all_by(|node| {
            node.raw_bounds().is_some() && node.label().is_some_and(|l| !l.is_empty())
        }) {
            let rect = node.rect();
            if rect.min.x >= panel.min.x && rect.max.y <= window.max.y {
                assert!(
                    rect.max.x <= window.max.x,
                    "{lang:?}: {:?} at {rect:?} is cut by the window's edge",
                    node.accesskit_node().label()
                );
            }
        }
        assert!(
            me.rect(turn).min.x >= panel.min.x,
            "{lang:?}: {turn} is whole"
        );
    }
}

#[test]
fn a_tanques_counter_keeps_each_seat_with_its_number_at_any_width() {
    let server = Server::start();
    let mut me = playing_at_the_smallest(&server, "tanques", Lang::Es);
    me.harness.set_size(egui::vec2(1280.0, 800.0));
    me.harness.run();
    // The panel dragged to every width from its narrowest on: at one of them the line ends
    // between a seat's name and its number.
    for width in (220..=340).step_by(2) {
        let edge = me.rect("Resize panel").center();
        let to = egui::pos2(1280.0 - width as f32, edge.y);
        me.harness.hover_at(edge);
        me.harness.step();
        me.harness.drag_at(edge);
        me.harness.step();
        me.harness.hover_at(to);
        me.harness.step();
        me.harness.drop_at(to);
        me.harness.run();
        let node = me
            .harness
            .query_all_by_label_contains("Hexágonos urbanos en poder")
            .next()
            .expect("the urban hexes held");
        let node = node.accesskit_node();
        let held = node.label().or_else(|| node.value()).expect("words");
        // Its lines as wrapped: none is a number alone.
        let lines: Vec<String> = me
            .harness
            .query_all_by(|node| node.raw_bounds().is_some())
            .filter_map(|node| node.accesskit_node().value())
            .filter(|line| !line.trim().is_empty() && held.contains(line.trim_end()))
            .collect();
        for line in &lines {
            assert!(
                !line.trim().chars().all(|c| c.is_ascii_digit()),
                "{width} points wide, a number alone on a line: {lines:?}"
            );
        }
    }
}
