//! Games in words: phases, events and results as sentences a player reads.

use trinchera_proto::v1 as pb;

use crate::names::Names;

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
pub fn clock_face(ms: u64) -> String {
    let secs = ms / 1000;
    match secs {
        0..10 => format!("0:0{secs}.{}", ms % 1000 / 100),
        10..3600 => format!("{}:{:02}", secs / 60, secs % 60),
        3600..86_400 => format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60),
        _ => format!("{}d {:02}h", secs / 86_400, secs / 3600 % 24),
    }
}

/// A time control in words, with the remaining time under which a player is warned: "10+5"
/// (a tenth of the initial time, between 10 s and a minute) or "3 days a move" (an hour).
pub fn time_control(control: Option<&pb::TimeControl>) -> (String, u64) {
    use pb::time_control::Control;
    match control.and_then(|c| c.control.as_ref()) {
        Some(Control::Live(live)) => (
            format!("{}+{}", live.initial_seconds / 60, live.increment_seconds),
            (u64::from(live.initial_seconds) * 100).clamp(10_000, 60_000),
        ),
        Some(Control::Correspondence(days)) => {
            let plural = if days.days_per_move == 1 { "" } else { "s" };
            (
                format!("{} day{plural} a move", days.days_per_move),
                3_600_000,
            )
        }
        None => ("no clock".to_owned(), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::names::Names;

    fn army() -> pb::Ruleset {
        pb::Ruleset {
            seats: (0..)
                .zip(["Rojo", "Azul"])
                .map(|(seat, name)| pb::SeatInfo {
                    seat,
                    name: name.into(),
                    ..Default::default()
                })
                .collect(),
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
    fn clock_faces_fit_the_time_left() {
        assert_eq!(clock_face(9_740), "0:09.7");
        assert_eq!(clock_face(581_000), "9:41");
        assert_eq!(clock_face(3_723_000), "1:02:03");
        assert_eq!(clock_face(2 * 86_400_000 + 3 * 3_600_000), "2d 03h");
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
