//! Where a game stands, in the sentences both clients show beside a board: each seat's
//! player, whose turn it is, the ruleset's counters, and what each side lost.

use trinchera_proto::v1 as pb;

use crate::lang::Lang;
use crate::names::Names;
use crate::tanks::{in_reserve, urban_held};
use crate::tr;
use crate::words::{Holder, final_result, seat_holder, tank_phase};

/// Turns a castle's occupant may end there: it is removed at the end of the third
/// (`CastleCount.turns`).
pub const CASTLE_TURNS: i32 = 3;

/// A seat of the game of `view` and who holds it: "Ana (Rojo)", "Azul (easy bot)", or
/// "Azul: free seat".
pub fn seat_line(lang: Lang, names: &Names<'_>, view: &pb::GameView, seat: i32) -> String {
    seat_of(lang, names, &view.players, seat)
}

/// [`seat_line`] for a game's `players` (a view's or a game summary's).
pub fn seat_of(lang: Lang, names: &Names<'_>, players: &[pb::Player], seat: i32) -> String {
    if Holder::of(players, seat) == Holder::Free {
        let seat = names.seat(seat);
        return tr!(lang, "{seat}: free seat", "{seat}: asiento libre");
    }
    seat_holder(lang, names, players, seat)
}

/// Whether the viewer of `view` still has a setup to make.
pub fn setting_up(names: &Names<'_>, view: &pb::GameView) -> bool {
    view.phase() == pb::Phase::Setup
        && view
            .viewer_seat
            .is_some_and(|seat| still_setting_up(names, view).contains(&seat))
}

/// The seats of `view` that have a setup to make and have not made it.
fn still_setting_up(names: &Names<'_>, view: &pb::GameView) -> Vec<i32> {
    view.players
        .iter()
        .filter(|p| !p.setup_done && names.zone(p.seat).is_some())
        .map(|p| p.seat)
        .collect()
}

/// Whose turn it is, or where the game stands, in a few words for the viewer of `view`:
/// "Your turn", "To move: Oficiales", "Set up your pieces", the result after the end.
pub fn turn(lang: Lang, names: &Names<'_>, view: &pb::GameView) -> String {
    let id = &view.game_id;
    match view.phase() {
        pb::Phase::Waiting => tr!(
            lang,
            "Waiting for a player to join game {id}",
            "Esperando a que alguien se una a la partida {id}"
        ),
        pb::Phase::Setup if setting_up(names, view) => {
            tr!(lang, "Set up your pieces", "Coloca tus piezas")
        }
        pb::Phase::Setup if view.viewer_seat.is_some() => tr!(
            lang,
            "Waiting for the opponent's setup",
            "Esperando la colocación del rival"
        ),
        // Only seats with a zone set up (asalto's rebels have nothing to place).
        pb::Phase::Setup => match still_setting_up(names, view)[..] {
            [seat] => {
                let seat = names.seat(seat);
                tr!(lang, "Setting up: {seat}", "Coloca: {seat}")
            }
            _ => tr!(
                lang,
                "Both players are setting up",
                "Los dos jugadores están colocando"
            ),
        },
        // Seat names may be plural (Oficiales): "To move: X" agrees with both.
        pb::Phase::Playing => match view.to_move {
            Some(seat) if Some(seat) == view.viewer_seat => tr!(lang, "Your turn", "Te toca"),
            Some(seat) => {
                let seat = names.seat(seat);
                tr!(lang, "To move: {seat}", "Juega: {seat}")
            }
            None => tr!(lang, "Playing", "En juego"),
        },
        pb::Phase::Finished => final_result(lang, names, view)
            .unwrap_or_else(|| tr!(lang, "Game over", "Fin de la partida")),
        pb::Phase::Unspecified => String::new(),
    }
}

/// "Rojo 3, Azul 2": a count per seat, each seat and its number joined by a no-break
/// space, so that a line wrapped to a narrow panel never leaves a number alone.
fn per_seat(names: &Names<'_>, count: impl Fn(i32) -> usize) -> String {
    [0, 1]
        .map(|seat| format!("{}\u{a0}{}", names.seat(seat), count(seat)))
        .join(", ")
}

/// The ruleset's public counters, a sentence each: turns without a battle or progress,
/// castles and their turns, officers that may be huffed, the tanques round with its phase
/// and maneuvers, tanks in reserve and urban hexes held.
pub fn counters(lang: Lang, names: &Names<'_>, view: &pb::GameView) -> Vec<String> {
    let mut lines = Vec::new();
    match &view.status {
        Some(pb::game_view::Status::Stratego(s)) => {
            let (quiet, limit) = (s.turns_without_battle, s.turn_limit);
            lines.push(tr!(
                lang,
                "{quiet} of {limit} turns without a battle",
                "{quiet} de {limit} turnos sin combate"
            ));
            for castle in &s.castles {
                let (at, turns) = (names.label(castle.cell.as_ref()), castle.turns);
                lines.push(tr!(
                    lang,
                    "Castle {at}: {turns} of {CASTLE_TURNS} turns",
                    "Castillo {at}: {turns} de {CASTLE_TURNS} turnos"
                ));
            }
        }
        Some(pb::game_view::Status::Asalto(s)) => {
            let (quiet, limit) = (s.turns_without_progress, s.turn_limit);
            lines.push(tr!(
                lang,
                "{quiet} of {limit} turns without progress",
                "{quiet} de {limit} turnos sin progreso"
            ));
            if !s.huffable.is_empty() {
                let cells: Vec<String> = s.huffable.iter().map(|c| names.label(Some(c))).collect();
                let cells = cells.join(" ");
                lines.push(tr!(
                    lang,
                    "Officers to huff: {cells}",
                    "Oficiales que se pueden soplar: {cells}"
                ));
            }
        }
        Some(pb::game_view::Status::Tanks(s)) => {
            let (round, phase, left) = (s.round, tank_phase(lang, s.phase()), s.maneuvers_left);
            lines.push(if left == 1 {
                tr!(
                    lang,
                    "Round {round} · {phase} · 1 maneuver left",
                    "Ronda {round} · {phase} · queda 1 maniobra"
                )
            } else {
                tr!(
                    lang,
                    "Round {round} · {phase} · {left} maneuvers left",
                    "Ronda {round} · {phase} · quedan {left} maniobras"
                )
            });
            let reserve = per_seat(names, |seat| in_reserve(view, seat));
            lines.push(tr!(lang, "In reserve: {reserve}", "En reserva: {reserve}"));
            let held = per_seat(names, |seat| urban_held(view, seat));
            lines.push(tr!(
                lang,
                "Urban hexes held: {held}",
                "Hexágonos urbanos en poder: {held}"
            ));
        }
        None => {}
    }
    lines
}

/// What `seat` has lost, each kind once with its count, in the ruleset's order of kinds
/// (pieces of unknown kind last): "Rebeldes lost: Rebelde ×16"; `None` if nothing.
pub fn lost(lang: Lang, names: &Names<'_>, view: &pb::GameView, seat: i32) -> Option<String> {
    let kinds = names
        .ruleset
        .piece_kinds
        .iter()
        .map(|kind| kind.id.as_str())
        .chain(std::iter::once(""));
    let lost: Vec<String> = kinds
        .filter_map(|kind| {
            let count = view
                .captured
                .iter()
                .filter(|p| p.owner == seat && p.kind == kind)
                .count();
            let name = names.kind_name(kind);
            match count {
                0 => None,
                1 => Some(name),
                _ => Some(format!("{name} ×{count}")),
            }
        })
        .collect();
    if lost.is_empty() {
        return None;
    }
    let (seat, lost) = (names.seat(seat), lost.join(", "));
    // "Bajas de": a plural seat name needs no verb to agree with.
    Some(tr!(lang, "{seat} lost: {lost}", "Bajas de {seat}: {lost}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asalto() -> pb::Ruleset {
        pb::Ruleset {
            seats: (0..)
                .zip(["Rebeldes", "Oficiales"])
                .map(|(seat, name)| pb::SeatInfo {
                    seat,
                    name: name.into(),
                    ..Default::default()
                })
                .collect(),
            piece_kinds: ["rebelde", "oficial"]
                .map(|id| pb::PieceKind {
                    id: id.into(),
                    name: format!("{}{}", id[..1].to_uppercase(), &id[1..]),
                    ..Default::default()
                })
                .to_vec(),
            setup_zones: vec![pb::SetupZone {
                seat: 1,
                ..Default::default()
            }],
            ..Default::default()
        }
    }

    fn captured(owner: i32, kind: &str) -> pb::Piece {
        pb::Piece {
            owner,
            kind: kind.into(),
            ..Default::default()
        }
    }

    #[test]
    fn losses_are_counted_by_kind() {
        let ruleset = asalto();
        let names = Names::new(&ruleset);
        let mut captured_pieces = vec![captured(1, "oficial")];
        captured_pieces.extend((0..16).map(|_| captured(0, "rebelde")));
        captured_pieces.push(captured(0, ""));
        let mut view = pb::GameView {
            captured: captured_pieces,
            ..Default::default()
        };
        assert_eq!(
            lost(Lang::En, &names, &view, 0).as_deref(),
            Some("Rebeldes lost: Rebelde ×16, a hidden piece")
        );
        assert_eq!(
            lost(Lang::Es, &names, &view, 1).as_deref(),
            Some("Bajas de Oficiales: Oficial")
        );
        view.captured.clear();
        assert_eq!(lost(Lang::En, &names, &view, 0), None);
    }

    #[test]
    fn the_turn_reads_right_for_every_seat_and_phase() {
        let ruleset = asalto();
        let names = Names::new(&ruleset);
        let mut view = pb::GameView {
            game_id: "7".into(),
            phase: pb::Phase::Setup as i32,
            viewer_seat: Some(1),
            players: vec![
                pb::Player {
                    seat: 0,
                    joined: true,
                    setup_done: true,
                    ..Default::default()
                },
                pb::Player {
                    seat: 1,
                    joined: true,
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        assert_eq!(turn(Lang::En, &names, &view), "Set up your pieces");
        view.viewer_seat = Some(0);
        assert_eq!(
            turn(Lang::En, &names, &view),
            "Waiting for the opponent's setup"
        );
        view.phase = pb::Phase::Playing as i32;
        view.to_move = Some(1);
        assert_eq!(turn(Lang::En, &names, &view), "To move: Oficiales");
        view.to_move = Some(0);
        assert_eq!(turn(Lang::Es, &names, &view), "Te toca");
        assert_eq!(seat_line(Lang::En, &names, &view, 1), "Oficiales");
        view.players[1].joined = false;
        assert_eq!(
            seat_line(Lang::En, &names, &view, 1),
            "Oficiales: free seat"
        );
    }
}
