//! A narrow window: the top bar folds into a menu and the board keeps most of the room.

use eframe::egui;
use egui_kittest::kittest::Queryable as _;
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
