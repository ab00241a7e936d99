//! Games in words: phases, events and results as sentences a player reads, in English or
//! Spanish ([`Lang`]).

use trinchera_proto::v1 as pb;

use crate::clock::low_ms;
use crate::lang::Lang;
use crate::names::Names;
use crate::tr;

/// The name of a phase, e.g. "playing".
pub fn phase(lang: Lang, phase: pb::Phase) -> &'static str {
    let (en, es) = match phase {
        pb::Phase::Waiting => ("waiting for a player", "esperando a un jugador"),
        pb::Phase::Setup => ("setting up", "colocando"),
        pb::Phase::Playing => ("playing", "en juego"),
        pb::Phase::Finished => ("finished", "terminada"),
        pb::Phase::Unspecified => ("unknown", "desconocida"),
    };
    lang.pick(en, es)
}

/// A result reason in words.
fn reason(lang: Lang, reason: &str) -> String {
    let (en, es) = match reason {
        "FLAG_CAPTURED" => ("the flag was captured", "la bandera fue capturada"),
        "NO_MOVES" => ("no legal move left", "no queda ninguna jugada legal"),
        "ONLY_IMMOVABLE_LEFT" => ("only immovable pieces left", "solo quedan piezas inmóviles"),
        "RESIGNED" => ("resignation", "abandono"),
        "MOVE_LIMIT" => ("the move limit", "el límite de jugadas"),
        "FORTRESS_TAKEN" => ("the fortress was taken", "la fortaleza fue tomada"),
        "OFFICERS_HUFFED" => (
            "both officers were huffed",
            "los dos oficiales fueron soplados",
        ),
        "OFFICERS_TRAPPED" => ("the officers are trapped", "los oficiales están encerrados"),
        "REBELS_TOO_FEW" => ("too few rebels left", "quedan muy pocos rebeldes"),
        "MOST_URBAN" => ("most urban hexes held", "más hexágonos urbanos en su poder"),
        "MORE_TANKS" => ("more tanks left", "más tanques en pie"),
        "ABORTED" => ("it never started in time", "no empezó a tiempo"),
        "TIME_FORFEIT" => ("time ran out", "se acabó el tiempo"),
        "ABANDONED" => ("the opponent stayed away", "el rival no volvió"),
        other => return other.to_lowercase().replace('_', " "),
    };
    lang.pick(en, es).to_owned()
}

/// A result as a sentence: "Rojo wins: the flag was captured."
pub fn result(lang: Lang, names: &Names<'_>, result: &pb::Result) -> String {
    let why = reason(lang, &result.reason);
    match result.winner {
        Some(winner) if !result.draw => {
            let seat = names.seat(winner);
            // Seat names may be plural (Rebeldes): no verb agrees with both.
            tr!(
                lang,
                "Winner: {seat} — {why}.",
                "Victoria de {seat}: {why}."
            )
        }
        _ if result.draw => tr!(lang, "Draw: {why}.", "Tablas: {why}."),
        _ => tr!(
            lang,
            "Called off, nobody wins: {why}.",
            "Anulada, nadie gana: {why}."
        ),
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
pub fn event(
    lang: Lang,
    names: &Names<'_>,
    view: Option<&pb::GameView>,
    event: &pb::Event,
) -> String {
    let who = event.seat.map_or_else(
        || lang.pick("Somebody", "Alguien").to_owned(),
        |seat| player(names, view, seat),
    );
    let notation = &event.notation;
    let mut text = match event.r#type() {
        pb::EventType::Created => tr!(lang, "{who} created the game.", "{who} creó la partida."),
        pb::EventType::Joined => tr!(lang, "{who} joined.", "{who} se unió."),
        pb::EventType::SetupSubmitted => tr!(lang, "{who} set up.", "{who} colocó sus piezas."),
        pb::EventType::Resigned => tr!(lang, "{who} resigned.", "{who} abandonó."),
        pb::EventType::TimeForfeit => {
            tr!(lang, "{who} ran out of time.", "{who} se quedó sin tiempo.")
        }
        pb::EventType::Abandoned => tr!(
            lang,
            "{who} claimed the game: the opponent stayed away.",
            "{who} reclamó la partida: el rival no volvió."
        ),
        pb::EventType::Aborted => match event.seat {
            Some(seat) => {
                let seat = names.seat(seat);
                tr!(
                    lang,
                    "The server called the game off: it waited too long for {seat}.",
                    "El servidor anuló la partida: esperó demasiado a {seat}."
                )
            }
            None => tr!(
                lang,
                "The server called the game off.",
                "El servidor anuló la partida."
            ),
        },
        pb::EventType::Move => tr!(lang, "{who} played {notation}.", "{who} jugó {notation}."),
        pb::EventType::Unspecified => tr!(lang, "Something happened.", "Pasó algo."),
    };
    for (index, effect) in event.effects.iter().enumerate() {
        if let Some(effect) = &effect.effect {
            let after = &event.effects[index + 1..];
            text.push(' ');
            text.push_str(&self::effect(lang, names, view, effect, event.seat, after));
        }
    }
    if event.started {
        text.push(' ');
        text.push_str(lang.pick("The game has started.", "La partida ha empezado."));
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

/// The piece with id `id` as a sentence begins with it: "Tanque (Azul)", "A hidden piece
/// (Azul)", or "The piece" when `view` does not show it.
fn removed_piece(lang: Lang, names: &Names<'_>, view: Option<&pb::GameView>, id: u32) -> String {
    let found = view.and_then(|view| {
        view.pieces
            .iter()
            .chain(&view.captured)
            .find(|piece| piece.id == id)
    });
    match found {
        Some(piece) if piece.kind.is_empty() => {
            let hidden = lang.pick("A hidden piece", "Una pieza oculta");
            format!("{hidden} ({})", names.seat(piece.owner))
        }
        Some(piece) => self::piece(names, &piece.kind, Some(piece.owner)),
        None => lang.pick("The piece", "La pieza").to_owned(),
    }
}

/// One consequence of an event in words.
fn effect(
    lang: Lang,
    names: &Names<'_>,
    view: Option<&pb::GameView>,
    effect: &pb::effect::Effect,
    mover: Option<i32>,
    after: &[pb::Effect],
) -> String {
    use pb::effect::Effect;
    match effect {
        Effect::Battle(battle) => {
            let outcome = match battle.result() {
                pb::BattleResult::AttackerWins => {
                    lang.pick("the defender fell", "cayó el defensor")
                }
                pb::BattleResult::DefenderWins => {
                    lang.pick("the attacker fell", "cayó el atacante")
                }
                pb::BattleResult::BothFall => lang.pick("both fell", "cayeron los dos"),
                pb::BattleResult::Unspecified => {
                    lang.pick("nobody knows who won", "no se sabe quién ganó")
                }
            };
            // The mover attacks; the defender belongs to the other seat.
            let (attacker_seat, defender_seat) = (mover, mover.map(|seat| 1 - seat));
            let attacker = piece(names, &battle.attacker_kind, attacker_seat);
            let defender = piece(names, &battle.defender_kind, defender_seat);
            let at = names.label(battle.at.as_ref());
            tr!(
                lang,
                "{attacker} attacked {defender} on {at}: {outcome}.",
                "{attacker} atacó a {defender} en {at}: {outcome}."
            )
        }
        Effect::Reveal(reveal) => {
            let kind = names.kind_name(&reveal.kind);
            tr!(
                lang,
                "The move revealed a {kind}.",
                "La jugada reveló: {kind}."
            )
        }
        Effect::Removal(removal) => {
            let who = removed_piece(lang, names, view, removal.piece_id);
            let at = names.label(removal.at.as_ref());
            // Spanish without a participle: piece names have either gender.
            let (en, es) = match removal.cause() {
                pb::RemovalCause::Destroyed => ("was destroyed", "cae en combate"),
                pb::RemovalCause::Jumped => ("was jumped and taken", "sale del juego por un salto"),
                pb::RemovalCause::Huffed => ("was huffed", "sale del juego por un soplido"),
                pb::RemovalCause::Castle => (
                    "was removed after three turns in the castle",
                    "sale del juego tras tres turnos en el castillo",
                ),
                pb::RemovalCause::Unspecified => ("was removed", "sale del juego"),
            };
            let what = lang.pick(en, es);
            tr!(lang, "{who} on {at} {what}.", "{who} en {at} {what}.")
        }
        Effect::Dice(dice) => {
            // Players count dice from 1; `index` is the derivation's k, from 0.
            let (die, roll, column) = (dice.index + 1, dice.roll, dice.column);
            let plural = if column == 1 { "" } else { "s" };
            let then = if dice.attacker_wins {
                lang.pick("target is destroyed", "objetivo es destruido")
            } else {
                lang.pick("attack fails", "ataque falla")
            };
            tr!(
                lang,
                "Die {die} rolled {roll} with {column} attacker{plural}: the {then}.",
                "El dado {die} sacó {roll} con {column} atacante{plural}: el {then}."
            )
        }
        Effect::Control(change) => {
            let (seat, at) = (names.seat(change.seat), names.label(change.at.as_ref()));
            tr!(
                lang,
                "{seat} now controls {at}.",
                "{seat} controla ahora {at}."
            )
        }
        Effect::Phase(phase) => {
            let (round, seat) = (phase.round, names.seat(phase.seat));
            let what = tank_phase(lang, phase.phase());
            tr!(
                lang,
                "Round {round}, {seat}: {what}.",
                "Ronda {round}, {seat}: {what}."
            )
        }
        Effect::Pass(pass) => {
            let seat = names.seat(pass.seat);
            // The phase that follows tells the one that passed: the same seat's attacks
            // follow its movement; anything else follows its attacks.
            let next = after.iter().find_map(|e| match &e.effect {
                Some(Effect::Phase(phase)) => Some(phase),
                _ => None,
            });
            match next {
                Some(next) if next.seat == pass.seat && next.phase() == pb::TankPhase::Attack => {
                    tr!(
                        lang,
                        "{seat} had nothing to move; its movement phase passed.",
                        "{seat} no tenía nada que mover; pasó su fase de movimiento."
                    )
                }
                Some(_) => tr!(
                    lang,
                    "{seat} had nothing to attack; its attack phase passed.",
                    "{seat} no tenía nada que atacar; pasó su fase de ataque."
                ),
                None => tr!(
                    lang,
                    "{seat} had nothing to do; its phase passed.",
                    "{seat} no tenía nada que hacer; pasó su fase."
                ),
            }
        }
        Effect::Result(end) => {
            let result = result(lang, names, end);
            tr!(lang, "Game over. {result}", "Fin de la partida. {result}")
        }
    }
}

/// A tanques turn phase in words.
pub fn tank_phase(lang: Lang, phase: pb::TankPhase) -> &'static str {
    let (en, es) = match phase {
        pb::TankPhase::Movement => ("movement", "movimiento"),
        pb::TankPhase::Attack => ("attack", "ataque"),
        pb::TankPhase::Final => ("final attacks", "ataques finales"),
        pb::TankPhase::Unspecified => ("unknown phase", "fase desconocida"),
    };
    lang.pick(en, es)
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

/// A time control in words, with the remaining time under which a player is warned
/// ([`low_ms`]): "10+5" or "3 days a move".
pub fn time_control(lang: Lang, control: Option<&pb::TimeControl>) -> (String, u64) {
    use pb::time_control::Control;
    let words = match control.and_then(|c| c.control.as_ref()) {
        Some(Control::Live(live)) => {
            let (initial, increment) = (live.initial_seconds, live.increment_seconds);
            // Whole minutes as players write them ("10+5"); other times as a clock face.
            if initial % 60 == 0 {
                format!("{}+{increment}", initial / 60)
            } else {
                format!("{}+{increment}", clock_face(u64::from(initial) * 1000))
            }
        }
        Some(Control::Correspondence(days)) => {
            let (days, plural) = (
                days.days_per_move,
                if days.days_per_move == 1 { "" } else { "s" },
            );
            tr!(
                lang,
                "{days} day{plural} a move",
                "{days} día{plural} por jugada"
            )
        }
        None => lang.pick("no clock", "sin reloj").to_owned(),
    };
    (words, low_ms(control))
}

/// A tank's facing as notation writes it: "NE".
pub fn facing_code(facing: pb::Facing) -> &'static str {
    match facing {
        pb::Facing::E => "E",
        pb::Facing::Ne => "NE",
        pb::Facing::Nw => "NW",
        pb::Facing::W => "W",
        pb::Facing::Sw => "SW",
        pb::Facing::Se => "SE",
        pb::Facing::Unspecified => "?",
    }
}

/// A tank's facing in words: "North-east".
pub fn facing_name(lang: Lang, facing: pb::Facing) -> &'static str {
    let (en, es) = match facing {
        pb::Facing::E => ("East", "Este"),
        pb::Facing::Ne => ("North-east", "Noreste"),
        pb::Facing::Nw => ("North-west", "Noroeste"),
        pb::Facing::W => ("West", "Oeste"),
        pb::Facing::Sw => ("South-west", "Suroeste"),
        pb::Facing::Se => ("South-east", "Sureste"),
        pb::Facing::Unspecified => ("?", "?"),
    };
    lang.pick(en, es)
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
        let live = |initial_seconds, increment_seconds| pb::TimeControl {
            control: Some(pb::time_control::Control::Live(pb::LiveControl {
                initial_seconds,
                increment_seconds,
            })),
        };
        assert_eq!(time_control(Lang::En, Some(&live(600, 5))).0, "10+5");
        assert_eq!(time_control(Lang::En, Some(&live(12, 0))).0, "0:12+0");
    }

    #[test]
    fn a_passed_phase_is_named_by_the_phase_that_follows() {
        let ruleset = army();
        let names = Names::new(&ruleset);
        let passed = |next_seat: i32, next: pb::TankPhase| {
            let effects = [
                pb::effect::Effect::Pass(pb::Pass { seat: 0 }),
                pb::effect::Effect::Phase(pb::PhaseChange {
                    seat: next_seat,
                    round: 2,
                    phase: next as i32,
                }),
            ];
            let event = pb::Event {
                r#type: pb::EventType::Move as i32,
                seat: Some(1),
                notation: "end".into(),
                effects: effects
                    .into_iter()
                    .map(|effect| pb::Effect {
                        effect: Some(effect),
                    })
                    .collect(),
                ..Default::default()
            };
            super::event(Lang::En, &names, None, &event)
        };
        let movement = passed(0, pb::TankPhase::Attack);
        assert!(
            movement.contains("Rojo had nothing to move; its movement phase passed."),
            "{movement}"
        );
        let attack = passed(1, pb::TankPhase::Movement);
        assert!(
            attack.contains("Rojo had nothing to attack; its attack phase passed."),
            "{attack}"
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
            super::event(Lang::En, &names, None, &event),
            "Rojo played e4xe5. Capitán (Rojo) attacked Bomba (Azul) on e5: the attacker fell."
        );
        assert_eq!(
            super::event(Lang::Es, &names, None, &event),
            "Rojo jugó e4xe5. Capitán (Rojo) atacó a Bomba (Azul) en e5: cayó el atacante."
        );
    }

    #[test]
    fn tank_attacks_count_dice_from_one_and_name_the_tank_lost() {
        let mut ruleset = army();
        ruleset.piece_kinds = vec![pb::PieceKind {
            id: "tanque".into(),
            name: "Tanque".into(),
            ..Default::default()
        }];
        let names = Names::new(&ruleset);
        let view = pb::GameView {
            captured: vec![pb::Piece {
                id: 14,
                owner: 1,
                kind: "tanque".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let effects = [
            pb::effect::Effect::Dice(pb::DiceRoll {
                index: 0,
                roll: 5,
                column: 2,
                attacker_wins: true,
            }),
            pb::effect::Effect::Removal(pb::Removal {
                piece_id: 14,
                at: Some(pb::Cell { x: 4, y: 4 }),
                cause: pb::RemovalCause::Destroyed as i32,
            }),
        ];
        let event = pb::Event {
            r#type: pb::EventType::Move as i32,
            seat: Some(0),
            notation: "attack e5 from d5 d6".into(),
            effects: effects
                .into_iter()
                .map(|effect| pb::Effect {
                    effect: Some(effect),
                })
                .collect(),
            ..Default::default()
        };
        assert_eq!(
            super::event(Lang::En, &names, Some(&view), &event),
            "Rojo played attack e5 from d5 d6. Die 1 rolled 5 with 2 attackers: the target is \
             destroyed. Tanque (Azul) on e5 was destroyed."
        );
        assert!(
            super::event(Lang::Es, &names, Some(&view), &event)
                .ends_with("El dado 1 sacó 5 con 2 atacantes: el objetivo es destruido. Tanque (Azul) en e5 cae en combate."),
        );
        // Without the piece in sight the sentence still reads.
        assert!(
            super::event(Lang::En, &names, None, &event)
                .ends_with("The piece on e5 was destroyed.")
        );
    }
}
