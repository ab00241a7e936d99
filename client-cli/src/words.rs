//! Status lines under a board, in words and colours.

use trinchera_client::words::{clock_face, player, tank_phase, time_control};
pub use trinchera_client::words::{event, phase, result};
use trinchera_client::{Lang, Names};
use trinchera_proto::v1 as pb;

use crate::render::{Paint, Style};

/// The clocks of a timed game: "Clock 10+5 · Rojo 9:41 · Azul 10:00 (running)", with a
/// warning when the viewer's own time runs low.
fn clock_line(names: &Names<'_>, view: &pb::GameView, clock: &pb::Clock, style: Style) -> String {
    let (control, low_ms) = time_control(Lang::En, clock.control.as_ref());
    let mut parts = vec![format!("Clock {control}")];
    for (seat, &ms) in clock.remaining_ms.iter().enumerate() {
        let seat = seat as i32;
        let running = if clock.running == Some(seat) {
            " (running)"
        } else {
            ""
        };
        parts.push(format!("{} {}{running}", names.seat(seat), clock_face(ms)));
    }
    let mut line = parts.join(" · ");
    if let Some(mine) = view.viewer_seat
        && clock.running == Some(mine)
        && clock
            .remaining_ms
            .get(mine as usize)
            .is_some_and(|&ms| ms < low_ms)
    {
        line.push_str(" · ");
        line.push_str(&style.paint("your time is running low!", Paint::Bold));
    }
    line
}

/// The lines under a board: players, phase, turn, status, last event, result.
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
            let mut text = if p.joined {
                player(names, Some(view), p.seat)
            } else {
                format!("{}: free seat", names.seat(p.seat))
            };
            if !p.bot.is_empty() {
                text.push_str(&format!(" [bot: {}]", p.bot));
            }
            if view.phase() == pb::Phase::Setup {
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
    let mut state = format!("Phase: {}", phase(Lang::En, view.phase()));
    if let Some(seat) = view.to_move {
        // "To move: Oficiales" reads right for the plural seat names too.
        if view.viewer_seat == Some(seat) {
            state.push_str(" · your turn");
        } else {
            state.push_str(&format!(" · to move: {}", names.seat(seat)));
        }
    }
    match &view.status {
        Some(pb::game_view::Status::Stratego(s)) => {
            state.push_str(&format!(
                " · {} of {} turns without a battle",
                s.turns_without_battle, s.turn_limit
            ));
            for castle in &s.castles {
                state.push_str(&format!(
                    " · castle {}: {} turn(s)",
                    names.label(castle.cell.as_ref()),
                    castle.turns
                ));
            }
        }
        Some(pb::game_view::Status::Asalto(s)) => {
            state.push_str(&format!(
                " · {} of {} turns without progress",
                s.turns_without_progress, s.turn_limit
            ));
            if !s.huffable.is_empty() {
                let cells: Vec<String> = s.huffable.iter().map(|c| names.label(Some(c))).collect();
                state.push_str(&format!(" · huffable: {}", cells.join(" ")));
            }
        }
        Some(pb::game_view::Status::Tanks(s)) => {
            state.push_str(&format!(
                " · round {} · {} · {} maneuver(s) left",
                s.round,
                tank_phase(Lang::En, s.phase()),
                s.maneuvers_left
            ));
            let reserve: Vec<String> = (0..2)
                .map(|seat| {
                    let count = view
                        .pieces
                        .iter()
                        .filter(|p| p.owner == seat && p.cell.is_none())
                        .count();
                    format!("{} {count}", names.seat(seat))
                })
                .collect();
            state.push_str(&format!(" · in reserve: {}", reserve.join(", ")));
            let held: Vec<String> = (0..2)
                .map(|seat| {
                    let count = s.control.iter().filter(|c| c.seat == Some(seat)).count();
                    format!("{} {count}", names.seat(seat))
                })
                .collect();
            state.push_str(&format!(" · urban hexes held: {}", held.join(", ")));
        }
        None => {}
    }
    lines.push(state);
    if !view.captured.is_empty() {
        for seat in 0..2 {
            let lost: Vec<String> = view
                .captured
                .iter()
                .filter(|p| p.owner == seat)
                .map(|p| names.kind_name(&p.kind))
                .collect();
            if !lost.is_empty() {
                lines.push(format!("{} lost: {}", names.seat(seat), lost.join(", ")));
            }
        }
    }
    if let Some(clock) = &view.clock {
        lines.push(clock_line(names, view, clock, style));
    }
    if let Some(last) = &view.last_event {
        lines.push(format!(
            "Last: {}",
            event(Lang::En, names, Some(view), last)
        ));
    }
    if let Some(end) = &view.result
        && view.phase() == pb::Phase::Finished
    {
        lines.push(style.paint(&result(Lang::En, names, end), Paint::Bold));
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
            ..Default::default()
        };
        let line = clock_line(&names, &view, &clock, Style::plain());
        assert_eq!(line, "Clock 10+5 · Rojo 9:41 · Azul 10:00 (running)");
        clock.running = Some(0);
        clock.remaining_ms[0] = 9_000;
        let line = clock_line(&names, &view, &clock, Style::plain());
        assert!(line.ends_with("your time is running low!"), "{line}");
        view.viewer_seat = Some(1);
        let line = clock_line(&names, &view, &clock, Style::plain());
        assert!(
            !line.contains("low"),
            "only the viewer's own clock warns: {line}"
        );
    }
}
