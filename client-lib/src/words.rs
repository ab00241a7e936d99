//! Games in words: phases, events and results as sentences a player reads, in English or
//! Spanish ([`Lang`]).

use trinchera_proto::v1 as pb;

use crate::clock::{clock_face, low_ms};
use crate::lang::Lang;
use crate::names::Names;
use crate::ruleset_texts::bot_name;
use crate::tanks::{tanks_left, urban_held};
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

/// A result as a sentence: "Winner: Rojo — the flag was captured."
pub fn result(lang: Lang, names: &Names<'_>, result: &pb::Result) -> String {
    result_because(lang, names, result, &reason(lang, &result.reason))
}

/// The result of the finished game of `view` as a sentence, with the score a tanques end
/// was decided by: "Winner: Rojo — most urban hexes held, 4 to 2."; `None` before the end.
pub fn final_result(lang: Lang, names: &Names<'_>, view: &pb::GameView) -> Option<String> {
    let end = view.result.as_ref()?;
    let why = tanks_score(lang, view, end).unwrap_or_else(|| reason(lang, &end.reason));
    Some(result_because(lang, names, end, &why))
}

/// A result as a sentence, `why` being its reason in words.
fn result_because(lang: Lang, names: &Names<'_>, result: &pb::Result, why: &str) -> String {
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

/// Why a tanques game ended, with the counts that decided it (urban hexes held, then tanks
/// left: rules.md), the winner's first: "most urban hexes held, 4 to 2"; `None` for other
/// ends.
fn tanks_score(lang: Lang, view: &pb::GameView, end: &pb::Result) -> Option<String> {
    let first = end.winner.filter(|_| !end.draw).unwrap_or(0);
    let (urban, urban_other) = (urban_held(view, first), urban_held(view, 1 - first));
    let (tanks, tanks_other) = (tanks_left(view, first), tanks_left(view, 1 - first));
    Some(match end.reason.as_str() {
        "MOST_URBAN" => tr!(
            lang,
            "most urban hexes held, {urban} to {urban_other}",
            "más hexágonos urbanos en su poder, {urban} a {urban_other}"
        ),
        // The server reports a draw (both counts equal) with the last tie-break tried.
        "MORE_TANKS" if end.draw => tr!(
            lang,
            "urban hexes {urban} to {urban_other}, tanks left {tanks} to {tanks_other}",
            "hexágonos urbanos {urban} a {urban_other}, tanques en pie {tanks} a {tanks_other}"
        ),
        "MORE_TANKS" => tr!(
            lang,
            "more tanks left, {tanks} to {tanks_other} (urban hexes {urban} to {urban_other})",
            "más tanques en pie, {tanks} a {tanks_other} (hexágonos urbanos {urban} a \
             {urban_other})"
        ),
        _ => return None,
    })
}

/// Who holds a seat of a game, from what the server says of it in a `pb::Player`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder<'a> {
    /// Nobody has taken the seat.
    Free,
    /// A person who chose no name: the server calls them "Player N" (N = seat + 1), which
    /// says nothing the seat's own name does not.
    Unnamed,
    /// A person, by the name they chose.
    Person(&'a str),
    /// The server's bot, at this level (`pb::Player.bot`, e.g. "easy").
    Bot(&'a str),
}

impl<'a> Holder<'a> {
    /// Who holds `seat` among `players` (a view's or a game summary's).
    pub fn of(players: &'a [pb::Player], seat: i32) -> Holder<'a> {
        let Some(player) = players.iter().find(|p| p.seat == seat && p.joined) else {
            return Holder::Free;
        };
        let name = player.name.as_str();
        if !player.bot.is_empty() {
            return Holder::Bot(&player.bot);
        }
        // Game summaries leave `bot` empty; the server names its bots "Bot (LEVEL)" and
        // refuses names of that form to people.
        if let Some(level) = name.strip_prefix("Bot (").and_then(|r| r.strip_suffix(')')) {
            return Holder::Bot(level);
        }
        if name.is_empty() || name == format!("Player {}", seat + 1) {
            return Holder::Unnamed;
        }
        Holder::Person(name)
    }
}

/// A seat and who holds it, each said once; the one way both clients say a seat, in
/// sentences and lists alike: "Ana (Rojo)" for a person by the name they chose; "Rojo"
/// for a free seat or a person who gave no name (not "Player 1 (Rojo)"); "Azul (easy bot)"
/// for the server's bot, its level in the reader's language ("Azul (bot fácil)").
pub fn seat_holder(lang: Lang, names: &Names<'_>, players: &[pb::Player], seat: i32) -> String {
    let seat_name = names.seat(seat);
    match Holder::of(players, seat) {
        Holder::Free | Holder::Unnamed => seat_name,
        Holder::Person(name) => format!("{name} ({seat_name})"),
        Holder::Bot(level) => {
            let level = bot_name(lang, level);
            tr!(
                lang,
                "{seat_name} ({level} bot)",
                "{seat_name} (bot {level})"
            )
        }
    }
}

/// What an event did, in one or more sentences.
pub fn event(
    lang: Lang,
    names: &Names<'_>,
    view: Option<&pb::GameView>,
    event: &pb::Event,
) -> String {
    let players = view.map_or(&[][..], |view| &view.players[..]);
    let who = event.seat.map_or_else(
        || lang.pick("Somebody", "Alguien").to_owned(),
        |seat| seat_holder(lang, names, players, seat),
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

/// A piece of a seat in words: "Capitán (Rojo)"; "Rebelde" alone when only that seat has
/// the kind (its name says the seat already).
fn piece(names: &Names<'_>, kind: &str, seat: Option<i32>) -> String {
    let name = names.kind_name(kind);
    let owner = names.kind(kind).and_then(|kind| kind.seat);
    match seat {
        Some(seat) if owner != Some(seat) => format!("{name} ({})", names.seat(seat)),
        _ => name,
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
            // The view after the event is the final one, with the counts that decided.
            let result = view
                .and_then(|view| final_result(lang, names, view))
                .unwrap_or_else(|| result(lang, names, end));
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
    fn time_controls_read_as_players_write_them() {
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

    /// A player of `seat` as the server describes one.
    fn seated(seat: i32, name: &str, bot: &str) -> pb::Player {
        pb::Player {
            seat,
            name: name.into(),
            joined: true,
            bot: bot.into(),
            ..Default::default()
        }
    }

    #[test]
    fn a_seat_and_its_holder_are_each_said_once() {
        let ruleset = army();
        let names = Names::new(&ruleset);
        let players = [seated(0, "Player 1", ""), seated(1, "Bot (easy)", "easy")];
        let say = |lang, players: &[pb::Player], seat| seat_holder(lang, &names, players, seat);
        assert_eq!(say(Lang::En, &players, 0), "Rojo");
        assert_eq!(say(Lang::En, &players, 1), "Azul (easy bot)");
        assert_eq!(say(Lang::Es, &players, 1), "Azul (bot fácil)");
        // A person's name is said as given, even one like another seat's default.
        let players = [seated(0, "Ana", ""), seated(1, "Player 1", "")];
        assert_eq!(say(Lang::Es, &players, 0), "Ana (Rojo)");
        assert_eq!(say(Lang::En, &players, 1), "Player 1 (Azul)");
        // A game summary's players carry no bot level: the bot's name tells it.
        let listed = [seated(0, "Ana", ""), seated(1, "Bot (hard)", "")];
        assert_eq!(Holder::of(&listed, 1), Holder::Bot("hard"));
        assert_eq!(say(Lang::Es, &listed, 1), "Azul (bot difícil)");
        let free = [seated(0, "Ana", ""), pb::Player::default()];
        assert_eq!(Holder::of(&free, 1), Holder::Free);
        assert_eq!(say(Lang::En, &free, 1), "Azul");
        assert_eq!(Holder::of(&[], 0), Holder::Free);
    }

    #[test]
    fn a_piece_of_a_kind_only_one_seat_has_is_not_told_its_seat_again() {
        let mut ruleset = army();
        ruleset.seats[0].name = "Rebeldes".into();
        ruleset.piece_kinds.push(pb::PieceKind {
            id: "rebelde".into(),
            name: "Rebelde".into(),
            seat: Some(0),
            ..Default::default()
        });
        let names = Names::new(&ruleset);
        let view = pb::GameView {
            captured: vec![pb::Piece {
                id: 3,
                owner: 0,
                kind: "rebelde".into(),
                ..Default::default()
            }],
            ..Default::default()
        };
        let jumped = pb::effect::Effect::Removal(pb::Removal {
            piece_id: 3,
            at: Some(pb::Cell { x: 4, y: 4 }),
            cause: pb::RemovalCause::Jumped as i32,
        });
        assert_eq!(
            effect(Lang::En, &names, Some(&view), &jumped, Some(1), &[]),
            "Rebelde on e5 was jumped and taken."
        );
        // A kind both seats have still names its seat.
        assert_eq!(piece(&names, "capitan", Some(1)), "Capitán (Azul)");
    }

    /// A finished tanques view: `urban` hexes held and `tanks` left per seat, and its result.
    fn tanks_end(urban: [usize; 2], tanks: [usize; 2], result: pb::Result) -> pb::GameView {
        let control = (0..2)
            .flat_map(|seat| (0..urban[seat as usize]).map(move |_| seat))
            .map(|seat| pb::UrbanControl {
                cell: None,
                seat: Some(seat),
            })
            .collect();
        let pieces = (0..2)
            .flat_map(|owner| (0..tanks[owner as usize]).map(move |_| owner))
            .map(|owner| pb::Piece {
                owner,
                ..Default::default()
            })
            .collect();
        pb::GameView {
            phase: pb::Phase::Finished as i32,
            pieces,
            status: Some(pb::game_view::Status::Tanks(pb::TanksStatus {
                control,
                ..Default::default()
            })),
            result: Some(result),
            ..Default::default()
        }
    }

    #[test]
    fn a_tanques_end_says_the_score_it_was_decided_by() {
        let ruleset = army();
        let names = Names::new(&ruleset);
        let win = |winner, reason: &str| pb::Result {
            winner: Some(winner),
            draw: false,
            reason: reason.into(),
        };
        let said = |lang, view: &pb::GameView| final_result(lang, &names, view).expect("over");
        let urban = tanks_end([4, 2], [3, 9], win(0, "MOST_URBAN"));
        assert_eq!(
            said(Lang::En, &urban),
            "Winner: Rojo — most urban hexes held, 4 to 2."
        );
        let tanks = tanks_end([2, 2], [5, 7], win(1, "MORE_TANKS"));
        assert_eq!(
            said(Lang::En, &tanks),
            "Winner: Azul — more tanks left, 7 to 5 (urban hexes 2 to 2)."
        );
        assert_eq!(
            said(Lang::Es, &tanks),
            "Victoria de Azul: más tanques en pie, 7 a 5 (hexágonos urbanos 2 a 2)."
        );
        let draw = pb::Result {
            winner: None,
            draw: true,
            reason: "MORE_TANKS".into(),
        };
        assert_eq!(
            said(Lang::En, &tanks_end([1, 1], [6, 6], draw)),
            "Draw: urban hexes 1 to 1, tanks left 6 to 6."
        );
        // Other ends say their reason only.
        let resigned = tanks_end([4, 2], [3, 9], win(1, "RESIGNED"));
        assert_eq!(said(Lang::En, &resigned), "Winner: Azul — resignation.");
        assert_eq!(
            final_result(Lang::En, &names, &pb::GameView::default()),
            None
        );
    }
}
