//! The new-game form: a live clock's time on a row of its own that stays put in a panel of
//! the same width in either language, print large enough to read, and choices that outlive
//! the window.

use eframe::egui;
use egui_kittest::kittest::{NodeT as _, Queryable as _};
use trinchera_client::Lang;
use trinchera_gui::lobby::{ClockChoice, Opponent};

use crate::harness::{Server, Window};

/// Where the live clock's minutes and seconds are, and the "Game name" caption under them.
fn clock_rows(window: &Window, game_name: &str) -> (egui::Rect, egui::Rect, egui::Rect) {
    let spins: Vec<egui::Rect> = window
        .harness
        .query_all_by_role(egui::accesskit::Role::SpinButton)
        .map(|node| node.rect())
        .collect();
    let [minutes, seconds] = spins[..] else {
        panic!("two fields, minutes and seconds: {spins:?}");
    };
    let caption = window
        .harness
        .query_all(
            egui_kittest::kittest::by()
                .label(game_name)
                .include_labels(),
        )
        .find(|node| node.accesskit_node().role() == egui::accesskit::Role::Label)
        .expect("the caption")
        .rect();
    (minutes, seconds, caption)
}

#[test]
fn a_live_clock_keeps_minutes_and_seconds_on_a_row_of_their_own_in_english_and_spanish() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    let mut panel_edge = None;
    for (lang, game_name) in [(Lang::En, "Game name"), (Lang::Es, "Nombre de la partida")] {
        me.app_mut().settings.lang = lang;
        me.app_mut().lobby.create.clock = ClockChoice::Live {
            minutes: 10,
            increment: 5,
        };
        me.harness.run();
        let (minutes, seconds, caption) = clock_rows(&me, game_name);
        let panel = me.rect("Resize panel").min.x;
        let usual = *panel_edge.get_or_insert(panel);
        assert_eq!(panel, usual, "{lang:?}: the panel keeps its width");
        assert!(
            (minutes.center().y - seconds.center().y).abs() < 1.0,
            "{lang:?}: minutes {minutes:?} and seconds {seconds:?} on one row"
        );
        for field in [minutes, seconds] {
            assert!(
                field.max.y <= caption.min.y,
                "{lang:?}: {field:?} reaches into the row of {caption:?}"
            );
            assert!(
                field.max.x <= panel,
                "{lang:?}: {field:?} is cut at {panel}"
            );
        }
        // Three digits of minutes move nothing but the seconds beside them.
        me.app_mut().lobby.create.clock = ClockChoice::Live {
            minutes: 120,
            increment: 5,
        };
        me.harness.run();
        let (wider, seconds_after, caption_after) = clock_rows(&me, game_name);
        assert_eq!(caption_after, caption, "{lang:?}: the rows below stay");
        assert_eq!(wider.min, minutes.min, "{lang:?}");
        assert!((seconds_after.center().y - seconds.center().y).abs() < 1.0);
    }
}

#[test]
fn the_seat_hint_and_the_ruleset_texts_are_large_enough_to_read() {
    let server = Server::start();
    let me = Window::lobby(&server);
    let hint = me.rect("sets up in rows 1-4 and moves first");
    let about = me
        .harness
        .query_all_by_label_contains("hidden-army game")
        .next()
        .expect("a ruleset's description")
        .rect();
    let body = me.rect("Your seat");
    for small in [hint.height(), about.height()] {
        assert!(
            small >= 0.85 * body.height(),
            "small print {small} px high beside body text {} px",
            body.height()
        );
    }
}

#[test]
fn the_form_keeps_its_last_choices_for_the_next_run() {
    let server = Server::start();
    let mut me = Window::lobby(&server);
    let clock = ClockChoice::Live {
        minutes: 3,
        increment: 2,
    };
    me.create_game("tanques", 1, Opponent::Bot("easy".into()), clock);
    me.click("Back to the lobby");
    let kept = me.save();
    drop(me);

    let next = Window::restarted(&server, &kept);
    let form = &next.app().lobby.create;
    assert_eq!(form.ruleset, "tanques");
    assert_eq!(form.seat, 1);
    assert_eq!(form.opponent, Opponent::Bot("easy".into()));
    assert_eq!(form.clock, clock);
    assert_eq!(form.player, "Ana");
    assert!(
        form.name.is_empty(),
        "a game's name is not for the next game"
    );
    assert!(next.shows_containing("Tanques · Azul · against the bot (easy) · clock 3+2"));
}
