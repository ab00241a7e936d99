//! Games in words: status lines, events and results as sentences a player reads.

use trinchera_proto::v1 as pb;

use crate::render::{Names, Paint, Style};

/// The name of a phase, e.g. "playing".
pub fn phase(phase: pb::Phase) -> &'static str {
    match phase {
        pb::Phase::Waiting => "waiting for a player",
        pb::Phase::Setup => "setting up",
        pb::Phase::Playing => "playing",
        pb::Phase::Finished => "finished",
        pb::Phase::Unspecified => "unknown",
    }
}

/// A result reason in words.
fn reason(reason: &str) -> String {
    match reason {
        "FLAG_CAPTURED" => "the flag was captured".into(),
        "NO_MOVES" => "no legal move left".into(),
        "ONLY_IMMOVABLE_LEFT" => "only immovable pieces left".into(),
        "RESIGNED" => "resignation".into(),
        "MOVE_LIMIT" => "the move limit".into(),
        "FORTRESS_TAKEN" => "the fortress was taken".into(),
        "OFFICERS_HUFFED" => "both officers were huffed".into(),
        "OFFICERS_TRAPPED" => "the officers are trapped".into(),
        "REBELS_TOO_FEW" => "too few rebels left".into(),
        "MOST_URBAN" => "most urban hexes held".into(),
        "MORE_TANKS" => "more tanks left".into(),
        "ABORTED" => "it never started in time".into(),
        "TIME_FORFEIT" => "time ran out".into(),
        "ABANDONED" => "the opponent stayed away".into(),
        other => other.to_lowercase().replace('_', " "),
    }
}

/// A result as a sentence: "Rojo wins: the flag was captured."
pub fn result(names: &Names<'_>, result: &pb::Result) -> String {
    match result.winner {
        Some(winner) if !result.draw => {
            format!("{} wins: {}.", names.seat(winner), reason(&result.reason))
        }
        _ if result.draw => format!("Draw: {}.", reason(&result.reason)),
        _ => format!("Called off, nobody wins: {}.", reason(&result.reason)),
    }
}

/// A display name for a seat of a game: "Ana (Rojo)".
pub fn player(names: &Names<'_>, view: Option<&pb::GameView>, seat: i32) -> String {
    let name = view
        .and_then(|v| v.players.iter().find(|p| p.seat == seat))
        .map(|p| p.name.as_str())
        .unwrap_or_default();
    if name.is_empty() {
        names.seat(seat)
    } else {
        format!("{name} ({})", names.seat(seat))
    }
}

/// What an event did, in one or more sentences.
pub fn event(names: &Names<'_>, view: Option<&pb::GameView>, event: &pb::Event) -> String {
    let who = event
        .seat
        .map_or_else(|| "Somebody".to_owned(), |seat| player(names, view, seat));
    let mut text = match event.r#type() {
        pb::EventType::Created => format!("{who} created the game."),
        pb::EventType::Joined => format!("{who} joined."),
        pb::EventType::SetupSubmitted => format!("{who} set up."),
        pb::EventType::Resigned => format!("{who} resigned."),
        pb::EventType::TimeForfeit => format!("{who} ran out of time."),
        pb::EventType::Abandoned => format!("{who} claimed the game: the opponent stayed away."),
        pb::EventType::Aborted => match event.seat {
            Some(seat) => format!(
                "The server called the game off: it waited too long for {}.",
                names.seat(seat)
            ),
            None => "The server called the game off.".to_owned(),
        },
        pb::EventType::Move => format!("{who} played {}.", event.notation),
        pb::EventType::Unspecified => "Something happened.".to_owned(),
    };
    for effect in &event.effects {
        if let Some(effect) = &effect.effect {
            text.push(' ');
            text.push_str(&self::effect(names, effect, event.seat));
        }
    }
    if event.started {
        text.push_str(" The game has started.");
    }
    text
}

/// A piece of a seat in words: "Capitán (Rojo)".
fn piece(names: &Names<'_>, kind: &str, seat: Option<i32>) -> String {
    match seat {
        Some(seat) => format!("{} ({})", names.kind_name(kind), names.seat(seat)),
        None => names.kind_name(kind),
    }
}

/// One consequence of an event in words.
fn effect(names: &Names<'_>, effect: &pb::effect::Effect, mover: Option<i32>) -> String {
    use pb::effect::Effect;
    match effect {
        Effect::Battle(battle) => {
            let outcome = match battle.result() {
                pb::BattleResult::AttackerWins => "the defender fell",
                pb::BattleResult::DefenderWins => "the attacker fell",
                pb::BattleResult::BothFall => "both fell",
                pb::BattleResult::Unspecified => "nobody knows who won",
            };
            // The mover attacks; the defender belongs to the other seat.
            let (attacker_seat, defender_seat) = (mover, mover.map(|seat| 1 - seat));
            format!(
                "{} attacked {} on {}: {outcome}.",
                piece(names, &battle.attacker_kind, attacker_seat),
                piece(names, &battle.defender_kind, defender_seat),
                names.label(battle.at.as_ref()),
            )
        }
        Effect::Reveal(reveal) => format!("The move revealed a {}.", names.kind_name(&reveal.kind)),
        Effect::Removal(removal) => {
            let why = match removal.cause() {
                pb::RemovalCause::Castle => "after three turns in the castle",
                pb::RemovalCause::Jumped => "jumped over",
                pb::RemovalCause::Huffed => "huffed",
                pb::RemovalCause::Destroyed => "destroyed",
                pb::RemovalCause::Unspecified => "removed",
            };
            format!(
                "The piece on {} was removed ({why}).",
                names.label(removal.at.as_ref())
            )
        }
        Effect::Dice(dice) => format!(
            "Die {} rolled {} with {} attacker{}: the {}.",
            dice.index,
            dice.roll,
            dice.column,
            if dice.column == 1 { "" } else { "s" },
            if dice.attacker_wins {
                "target is destroyed"
            } else {
                "attack fails"
            }
        ),
        Effect::Control(change) => format!(
            "{} now controls {}.",
            names.seat(change.seat),
            names.label(change.at.as_ref())
        ),
        Effect::Phase(phase) => format!(
            "Round {}, {}: {}.",
            phase.round,
            names.seat(phase.seat),
            tank_phase(phase.phase())
        ),
        Effect::Pass(pass) => format!(
            "{} had nothing to do; the turn passed.",
            names.seat(pass.seat)
        ),
        Effect::Result(end) => format!("Game over. {}", result(names, end)),
    }
}

/// A tanques turn phase in words.
pub fn tank_phase(phase: pb::TankPhase) -> &'static str {
    match phase {
        pb::TankPhase::Movement => "movement",
        pb::TankPhase::Attack => "attack",
        pb::TankPhase::Final => "final attacks",
        pb::TankPhase::Unspecified => "unknown phase",
    }
}

/// Milliseconds as a clock face: `9:41`, `0:07.3` under ten seconds, `2d 03h` for days.
fn clock_face(ms: u64) -> String {
    let secs = ms / 1000;
    match secs {
        0..10 => format!("0:0{secs}.{}", ms % 1000 / 100),
        10..3600 => format!("{}:{:02}", secs / 60, secs % 60),
        3600..86_400 => format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60),
        _ => format!("{}d {:02}h", secs / 86_400, secs / 3600 % 24),
    }
}

/// The clocks of a timed game: "Clock 10+5 · Rojo 9:41 · Azul 10:00 (running)", with a
/// warning when the viewer's own time runs low.
fn clock_line(names: &Names<'_>, view: &pb::GameView, clock: &pb::Clock, style: Style) -> String {
    use pb::time_control::Control;
    let (title, low_ms) = match clock.control.as_ref().and_then(|c| c.control.as_ref()) {
        Some(Control::Live(live)) => (
            format!(
                "Clock {}+{}",
                live.initial_seconds / 60,
                live.increment_seconds
            ),
            (u64::from(live.initial_seconds) * 100).clamp(10_000, 60_000),
        ),
        Some(Control::Correspondence(days)) => {
            (format!("{} day(s) a move", days.days_per_move), 3_600_000)
        }
        None => ("Clock".to_owned(), 0),
    };
    let mut parts = vec![title];
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
    let mut state = format!("Phase: {}", phase(view.phase()));
    if let Some(seat) = view.to_move {
        let whose = if view.viewer_seat == Some(seat) {
            "your".to_owned()
        } else {
            format!("{}'s", names.seat(seat))
        };
        state.push_str(&format!(" · {whose} turn"));
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
                tank_phase(s.phase()),
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
        }
        None => {}
    }
    lines.push(state);
    if let Some(clock) = &view.clock {
        lines.push(clock_line(names, view, clock, style));
    }
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
    if let Some(last) = &view.last_event {
        lines.push(format!("Last: {}", event(names, Some(view), last)));
    }
    if let Some(end) = &view.result
        && view.phase() == pb::Phase::Finished
    {
        lines.push(style.paint(&result(names, end), Paint::Bold));
    }
    let mut text = lines.join("\n");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::Names;
    use crate::render::tests::seats;

    fn army() -> pb::Ruleset {
        pb::Ruleset {
            seats: seats(["Rojo", "Azul"]),
            board: Some(pb::Board {
                cells: vec![pb::CellInfo {
                    cell: Some(pb::Cell { x: 4, y: 4 }),
                    label: "e5".into(),
                    ..Default::default()
                }],
                ..Default::default()
            }),
            piece_kinds: vec![
                pb::PieceKind {
                    id: "capitan".into(),
                    name: "Capitán".into(),
                    ..Default::default()
                },
                pb::PieceKind {
                    id: "bomba".into(),
                    name: "Bomba".into(),
                    ..Default::default()
                },
            ],
            ..Default::default()
        }
    }

    #[test]
    fn clocks_read_as_clock_faces_and_warn_the_viewer_when_low() {
        assert_eq!(clock_face(9_740), "0:09.7");
        assert_eq!(clock_face(581_000), "9:41");
        assert_eq!(clock_face(3_723_000), "1:02:03");
        assert_eq!(clock_face(2 * 86_400_000 + 3 * 3_600_000), "2d 03h");
        let ruleset = army();
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

    #[test]
    fn battles_read_as_sentences() {
        let ruleset = army();
        let names = Names::new(&ruleset);
        let event = pb::Event {
            r#type: pb::EventType::Move as i32,
            seat: Some(0),
            notation: "e4xe5".into(),
            effects: vec![pb::Effect {
                effect: Some(pb::effect::Effect::Battle(pb::Battle {
                    at: Some(pb::Cell { x: 4, y: 4 }),
                    attacker_kind: "capitan".into(),
                    defender_kind: "bomba".into(),
                    result: pb::BattleResult::DefenderWins as i32,
                    ..Default::default()
                })),
            }],
            ..Default::default()
        };
        assert_eq!(
            super::event(&names, None, &event),
            "Rojo played e4xe5. Capitán (Rojo) attacked Bomba (Azul) on e5: the attacker fell."
        );
    }
}
