//! Clocks in their last ten seconds: each clock on a line of its own words, the warning
//! under them; fifths of a second on the player's own clock only, whole seconds (and a
//! frame a second) on the opponent's.

use std::time::Duration;

use eframe::egui;
use egui_kittest::kittest::Queryable as _;
use trinchera_client::Lang;
use trinchera_gui::lobby::{ClockChoice, Opponent};
use trinchera_proto::v1 as pb;

use crate::harness::{Server, Window};

/// A frente game against the bot on a live clock, at the player's first turn.
fn timed_game(server: &Server) -> Window {
    let mut me = Window::lobby(server);
    let clock = ClockChoice::Live {
        minutes: 1,
        increment: 0,
    };
    me.create_game("frente", 0, Opponent::Bot("random".into()), clock);
    me.wait_for("the setup", |app| {
        app.game.as_ref().is_some_and(|g| g.setting_up())
    });
    me.set_up_at_random("Random setup", "Submit setup");
    me.wait_for("my turn", |app| {
        app.game.as_ref().is_some_and(|g| g.my_turn())
    });
    me
}

/// Shows the game as if `seat`'s clock ran with `ms` left and the other's had a minute.
fn running_low(window: &mut Window, seat: i32, ms: u64) {
    let game = window.app_mut().game.as_mut().expect("a game");
    let mut view = game.view().clone();
    // Ahead of any version the server sends meanwhile, which would show its own clock.
    view.version += 1000;
    view.to_move = Some(seat);
    let clock = view.clock.as_mut().expect("a clock");
    clock.running = Some(seat);
    clock.lapse = pb::Lapse::TimeForfeit as i32;
    clock.remaining_ms = if seat == 0 {
        vec![ms, 60_000]
    } else {
        vec![60_000, ms]
    };
    game.watched(pb::WatchGameResponse {
        version: view.version,
        view: Some(view),
        ..Default::default()
    });
    window.harness.run_steps(2);
}

/// Where the clock whose words start with `face` is.
fn clock(window: &Window, face: &str) -> egui::Rect {
    window
        .harness
        .query_all_by(|node| {
            node.raw_bounds().is_some() && node.value().is_some_and(|words| words.starts_with(face))
        })
        .next()
        .unwrap_or_else(|| panic!("no clock shows {face}"))
        .rect()
}

#[test]
fn the_low_time_warning_stands_under_whole_clock_lines_in_both_languages_and_sizes() {
    let server = Server::start();
    let mut me = timed_game(&server);
    for (lang, warning) in [
        (Lang::En, "Your time is running low!"),
        (Lang::Es, "¡Te queda poco tiempo!"),
    ] {
        for size in [egui::vec2(1280.0, 800.0), egui::vec2(640.0, 480.0)] {
            me.harness.set_size(size);
            me.app_mut().settings.lang = lang;
            running_low(&mut me, 0, 7_800);
            let (mine, theirs) = (clock(&me, "Rojo 0:07."), clock(&me, "Azul 1:00"));
            let warned = me.rect(warning);
            for face in [mine, theirs] {
                assert!(
                    face.height() < 30.0,
                    "{lang:?} {size:?}: {face:?} is broken"
                );
                assert!(
                    warned.min.y >= face.max.y,
                    "{lang:?} {size:?}: the warning {warned:?} is not under {face:?}"
                );
            }
        }
    }
}

#[test]
fn only_the_own_clock_counts_fifths_of_a_second() {
    let server = Server::start();
    let mut me = timed_game(&server);
    running_low(&mut me, 0, 7_800);
    let delay = me.idle_repaint_delay();
    assert!(
        delay > Duration::ZERO && delay <= Duration::from_millis(200),
        "{delay:?}"
    );
    // The opponent's clock in its last seconds: whole seconds, a frame a second.
    running_low(&mut me, 1, 7_800);
    assert!(me.shows_containing("Azul 0:07"));
    assert!(
        !me.shows_containing("Azul 0:07."),
        "no tenths on the opponent's clock"
    );
    let delay = me.idle_repaint_delay();
    assert!(
        delay > Duration::from_millis(200) && delay <= Duration::from_secs(1),
        "{delay:?}"
    );
}
