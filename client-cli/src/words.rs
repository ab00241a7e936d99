//! Status lines under a board, in words (the client library's sentences) and colours.

use trinchera_client::clock::{self, clock_face};
use trinchera_client::status::{self, lost, seat_of, turn};
use trinchera_client::words::time_control;
pub use trinchera_client::words::{event, final_result, phase, result, seat_holder};
use trinchera_client::{Lang, Names};
use trinchera_proto::v1 as pb;

use crate::render::{Paint, Style};

/// The clocks of a timed game: "Clock 10+5 · Rojo 9:41 · Azul 10:00 (running)", with a
/// warning when the viewer's own time runs low and the setup or first-move limit while
/// one runs.
fn clock_line(names: &Names<'_>, view: &pb::GameView, clock: &pb::Clock, style: Style) -> String {
    let (control, _) = time_control(Lang::En, clock.control.as_ref());
    let left = clock::time_left(clock, 0);
    let mut parts = vec![format!("Clock {control}")];
    for (seat, &ms) in (0..).zip(&left) {
        let running = if clock::ticking(clock) == Some(seat) {
            " (running)"
        } else {
            ""
        };
        parts.push(format!("{} {}{running}", names.seat(seat), clock_face(ms)));
    }
    if let Some((lapse, ms)) = clock::deadline(clock, 0) {
        parts.push(clock::deadline_sentence(Lang::En, lapse, ms));
    }
    if let Some(mine) = view.viewer_seat
        && clock::is_low(clock, &left, mine)
    {
        parts.push(style.paint(clock::low_warning(Lang::En), Paint::Bold));
    }
    parts.join(" · ")
}

/// A seat and who holds it as the terminal lists players: the words both clients use ("Ana
/// (Rojo)", "Azul (easy bot)", "Azul: free seat"), with `[account]` after a player with an
/// account; the others are guests, or the server's bots, which say so.
pub fn listed_seat(names: &Names<'_>, players: &[pb::Player], seat: i32) -> String {
    let mut text = seat_of(Lang::En, names, players, seat);
    let account = players
        .iter()
        .any(|p| p.seat == seat && p.joined && p.kind() == pb::PlayerKind::Account);
    if account {
        text.push_str(" [account]");
    }
    text
}

/// The lines under a board: title, players, where the game stands, losses, clocks, the
/// last event.
pub fn status(names: &Names<'_>, view: &pb::GameView, style: Style) -> String {
    let mut lines = Vec::new();
    let title = if view.name.is_empty() || view.name == names.ruleset.name {
        names.ruleset.name.clone()
    } else {
        format!("{} · {}", view.name, names.ruleset.name)
    };
    lines.push(style.paint(
        &format!("{title} · game {} · version {}", view.game_id, view.version),
        Paint::Bold,
    ));
    let seats: Vec<String> = view
        .players
        .iter()
        .map(|p| {
            let mut text = listed_seat(names, &view.players, p.seat);
            if view.phase() == pb::Phase::Setup && p.joined {
                text.push_str(if p.setup_done {
                    " — set up"
                } else {
                    " — setting up"
                });
            }
            if view.viewer_seat == Some(p.seat) {
                text.push_str(" — you");
            }
            style.paint(&text, Paint::Seat(p.seat))
        })
        .collect();
    lines.push(seats.join("  vs  "));
    if view.phase() == pb::Phase::Finished {
        lines.push(style.paint(&turn(Lang::En, names, view), Paint::Bold));
    } else {
        let mut state = vec![turn(Lang::En, names, view)];
        state.extend(status::counters(Lang::En, names, view));
        lines.push(state.join(" · "));
    }
    lines.extend((0..2).filter_map(|seat| lost(Lang::En, names, view, seat)));
    if let Some(clock) = &view.clock {
        lines.push(clock_line(names, view, clock, style));
    }
    if let Some(last) = &view.last_event {
        lines.push(format!(
            "Last: {}",
            event(Lang::En, names, Some(view), last)
        ));
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use trinchera_client::sanitize::Clean;

    use super::*;
    use crate::render::tests::seats;

    /// What a hostile server might send: escape sequences and a right-to-left override in
    /// every name the status lines print.
    #[test]
    fn server_strings_are_printed_without_their_controls() {
        let mut ruleset = pb::Ruleset {
            name: "Frente\x1b]0;owned\x07".into(),
            seats: seats(["\x1b[31mRojo", "Azul\u{202e}"]),
            ..Default::default()
        };
        let mut view = pb::GameView {
            game_id: "7".into(),
            name: "\x1b[2JPartida\u{202e}".into(),
            phase: pb::Phase::Playing as i32,
            players: vec![pb::Player {
                seat: 0,
                name: "Ana\x1b[31m\u{202e}".into(),
                joined: true,
                ..Default::default()
            }],
            last_event: Some(pb::Event {
                r#type: pb::EventType::Move as i32,
                seat: Some(0),
                notation: "a1-a2\x1b[1A".into(),
                ..Default::default()
            }),
            ..Default::default()
        };
        // What `Server` does to every reply before the CLI sees it.
        ruleset.clean();
        view.clean();
        let names = Names::new(&ruleset);
        let text = status(&names, &view, Style::plain());
        let unsafe_char = |c: char| (c.is_control() && c != '\n') || c == '\u{202e}';
        assert!(!text.contains(unsafe_char), "{text:?}");
        assert!(text.contains("Partida · Frente · game 7"), "{text}");
        assert!(text.contains("Ana (Rojo)"), "{text}");
        assert!(text.contains("Last: Ana (Rojo) played a1-a2."), "{text}");
    }

    #[test]
    fn players_with_an_account_are_marked_and_guests_and_bots_are_not() {
        let ruleset = pb::Ruleset {
            seats: seats(["Rojo", "Azul"]),
            ..Default::default()
        };
        let names = Names::new(&ruleset);
        let player = |seat, name: &str, kind: pb::PlayerKind, bot: &str| pb::Player {
            seat,
            name: name.into(),
            joined: true,
            kind: kind as i32,
            bot: bot.into(),
            ..Default::default()
        };
        let account = [
            player(0, "Ana", pb::PlayerKind::Account, ""),
            player(1, "Bot (easy)", pb::PlayerKind::Bot, "easy"),
        ];
        assert_eq!(listed_seat(&names, &account, 0), "Ana (Rojo) [account]");
        assert_eq!(listed_seat(&names, &account, 1), "Azul (easy bot)");
        let guest = [player(0, "Ana", pb::PlayerKind::Guest, "")];
        assert_eq!(listed_seat(&names, &guest, 0), "Ana (Rojo)");
        assert_eq!(listed_seat(&names, &guest, 1), "Azul: free seat");
    }

    #[test]
    fn clocks_read_as_clock_faces_and_warn_the_viewer_when_low() {
        let ruleset = pb::Ruleset {
            seats: seats(["Rojo", "Azul"]),
            ..Default::default()
        };
        let names = Names::new(&ruleset);
        let mut view = pb::GameView {
            viewer_seat: Some(0),
            ..Default::default()
        };
        let mut clock = pb::Clock {
            control: Some(pb::TimeControl {
                control: Some(pb::time_control::Control::Live(pb::LiveControl {
                    initial_seconds: 600,
                    increment_seconds: 5,
                })),
            }),
            remaining_ms: vec![581_000, 600_000],
            running: Some(1),
            lapse: pb::Lapse::TimeForfeit as i32,
            ..Default::default()
        };
        let line = clock_line(&names, &view, &clock, Style::plain());
        assert_eq!(line, "Clock 10+5 · Rojo 9:41 · Azul 10:00 (running)");
        clock.running = Some(0);
        clock.remaining_ms[0] = 9_000;
        let line = clock_line(&names, &view, &clock, Style::plain());
        assert!(line.ends_with("Your time is running low!"), "{line}");
        view.viewer_seat = Some(1);
        let line = clock_line(&names, &view, &clock, Style::plain());
        assert!(
            !line.contains("low"),
            "only the viewer's own clock warns: {line}"
        );
    }
}
