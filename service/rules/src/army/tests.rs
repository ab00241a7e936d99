//! Fixtures for every special rule of the army rulesets (rules.md section 1), the `Game`
//! layer around them, setup validation and position text errors.
//!
//! Positions are written with [`text`] from labelled pieces (uppercase Rojo, lowercase
//! Azul) and played through [`Rules::check`] exactly as the service plays them.

use super::*;
use crate::describe::Terrain;
use crate::error::PositionError;
use crate::game::{Game, Match, Phase, PlayError, SetupRefused};
use crate::rules::PositionText;
use crate::seat::Viewer;
use crate::setup::{Placement, SetupError, SetupProblem};

const ROJO: Seat = Seat::First;
const AZUL: Seat = Seat::Second;

/// Position text of `pieces` on `V`'s board, lakes filled in, with `to_move` to move.
fn text<V: Variant>(pieces: &[(&str, char)], to_move: Seat) -> String {
    let data = V::spec().data;
    let mut rows = Vec::new();
    for y in (0..data.height).rev() {
        let mut row = String::new();
        let mut run = 0;
        for x in 0..data.width {
            let cell = Cell::new(x, y);
            let label = cell.grid_label().to_string();
            let content = if data.lakes.contains(&cell) {
                Some('~')
            } else {
                pieces.iter().find(|(l, _)| *l == label).map(|&(_, c)| c)
            };
            match content {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        row.push(char::from(b'0' + run));
                        run = 0;
                    }
                    row.push(c);
                }
            }
            if run == 9 {
                row.push('9');
                run = 0;
            }
        }
        if run > 0 {
            row.push(char::from(b'0' + run));
        }
        rows.push(row);
    }
    format!("{} {}", rows.join("/"), to_move.index())
}

fn position<V: Variant>(pieces: &[(&str, char)], to_move: Seat) -> Army<V> {
    let text = text::<V>(pieces, to_move);
    Army::from_position_text(&text).unwrap_or_else(|error| panic!("{text}: {error}"))
}

fn action<V: Variant>(notation: &str) -> Action {
    Army::<V>::parse_notation(notation).unwrap_or_else(|error| panic!("{error}"))
}

/// The canonical notation of every listed move.
fn listed<V: Variant>(army: &Army<V>) -> Vec<String> {
    let mut moves = Vec::new();
    army.legal_moves(&mut moves);
    moves.into_iter().map(|mv| army.notation(mv)).collect()
}

fn is_listed<V: Variant>(army: &Army<V>, notation: &str) -> bool {
    let wanted = action::<V>(notation);
    let mut moves = Vec::new();
    army.legal_moves(&mut moves);
    moves.into_iter().any(|mv| army.action(mv) == wanted)
}

/// Plays a move that must be listed and accepted; returns its effects.
fn play<V: Variant>(army: &mut Army<V>, notation: &str) -> Vec<Effect> {
    assert!(
        is_listed(army, notation),
        "{notation} not listed in {army:?}"
    );
    let mv = army
        .check(&action::<V>(notation))
        .unwrap_or_else(|error| panic!("{notation} in {army:?}: {error}"));
    let mut effects = Vec::new();
    army.play_in_game(mv, &mut effects);
    effects
}

/// A move that must be neither listed nor accepted; returns the refusal in words.
fn refused<V: Variant>(army: &Army<V>, notation: &str) -> String {
    assert!(!is_listed(army, notation), "{notation} listed in {army:?}");
    match army.check(&action::<V>(notation)) {
        Ok(_) => panic!("{notation} accepted in {army:?}"),
        Err(error) => error.to_string(),
    }
}

/// The kind a viewer sees on `label`, `None` if hidden; panics if the square is empty.
fn seen_kind<V: Variant>(army: &Army<V>, viewer: Viewer, label: &str) -> Option<&'static str> {
    let cell = Cell::parse_grid_label(label).expect("a label");
    let view = army.view(Sight::Of(viewer));
    let piece = view
        .pieces
        .iter()
        .find(|piece| piece.cell == Some(cell))
        .unwrap_or_else(|| panic!("nothing on {label}"));
    piece.kind.map(|kind| V::spec().kind(kind.0).id)
}

fn revealed<V: Variant>(effects: &[Effect]) -> Vec<&'static str> {
    effects
        .iter()
        .filter_map(|effect| match effect {
            Effect::Revealed { kind, .. } => Some(V::spec().kind(kind.0).id),
            _ => None,
        })
        .collect()
}

fn outcome<V: Variant>(army: &Army<V>) -> Option<(Option<Seat>, &'static str)> {
    army.outcome()
        .map(|outcome| (outcome.winner, outcome.reason.code()))
}

// ------------------------------------------------------------------------------------------
// Moving.

#[test]
fn a_soldado_long_move_reveals_it_and_a_step_does_not() {
    let mut army = position::<Frente>(
        &[("a2", 'S'), ("j1", 'R'), ("j10", 'r'), ("i10", 'r')],
        ROJO,
    );
    let effects = play(&mut army, "a2-a3");
    assert!(revealed::<Frente>(&effects).is_empty());
    assert_eq!(seen_kind(&army, Viewer::Player(AZUL), "a3"), None);
    assert_eq!(seen_kind(&army, Viewer::Spectator, "a3"), None);
    assert_eq!(
        seen_kind(&army, Viewer::Player(ROJO), "a3"),
        Some("soldado")
    );
    play(&mut army, "j10-j9");
    let effects = play(&mut army, "a3-a7");
    assert_eq!(revealed::<Frente>(&effects), ["soldado"]);
    assert_eq!(
        seen_kind(&army, Viewer::Player(AZUL), "a7"),
        Some("soldado")
    );
    assert_eq!(seen_kind(&army, Viewer::Spectator, "a7"), Some("soldado"));
    // Once revealed, a later long move reports nothing new.
    play(&mut army, "j9-j8");
    assert!(revealed::<Frente>(&play(&mut army, "a7-a3")).is_empty());
}

#[test]
fn a_soldado_cannot_attack_at_the_end_of_a_long_move_but_can_attack_adjacent() {
    let mut army = position::<Frente>(&[("a1", 'S'), ("a5", 'e'), ("j10", 'r')], ROJO);
    assert_eq!(
        refused(&army, "a1xa5"),
        "a Soldado that moves more than one square cannot attack in the same move"
    );
    assert_eq!(refused(&army, "a1-a5"), refused(&army, "a1xa5"));
    assert!(is_listed(&army, "a1-a4"));
    play(&mut army, "a1-a4");
    play(&mut army, "j10-j9");
    let effects = play(&mut army, "a4xa5");
    assert!(matches!(
        effects[0],
        Effect::Battle {
            result: BattleResult::AttackerWins,
            ..
        }
    ));
    assert_eq!(
        army.position_text(),
        text::<Frente>(&[("a5", 'S'), ("j9", 'r')], AZUL)
    );
}

#[test]
fn step_kinds_move_one_square_straight() {
    let army = position::<Frente>(&[("b2", 'R'), ("j10", 'r')], ROJO);
    assert_eq!(
        refused(&army, "b2-b4"),
        "only the Soldado moves more than one square at a time"
    );
    assert_eq!(
        refused(&army, "b2-c3"),
        "pieces move straight: up, down, left or right, never diagonally"
    );
    assert_eq!(refused(&army, "b2-b2"), "a move must go to another square");
    assert_eq!(refused(&army, "c2-c3"), "there is no piece of yours on c2");
    assert_eq!(
        refused(&army, "j10-j9"),
        "there is no piece of yours on j10"
    );
    let mut moves = listed(&army);
    moves.sort();
    assert_eq!(moves, ["b2-a2", "b2-b1", "b2-b3", "b2-c2"]);
    let clasico = position::<Clasico>(&[("b2", 'R'), ("j10", 'r')], ROJO);
    assert_eq!(
        refused(&clasico, "b2-b4"),
        "only the Explorador moves more than one square at a time"
    );
    let castillos = position::<Castillos>(&[("b2", 'R'), ("h10", 'r')], ROJO);
    assert_eq!(
        refused(&castillos, "b2-b4"),
        "only the General moves more than one square at a time"
    );
}

#[test]
fn moves_cross_neither_lakes_nor_pieces() {
    let army = position::<Frente>(
        &[
            ("c4", 'S'),
            ("a1", 'S'),
            ("a3", 'R'),
            ("e4", 'R'),
            ("j10", 'r'),
        ],
        ROJO,
    );
    assert_eq!(refused(&army, "c4-c5"), "c5 is a lake");
    assert_eq!(refused(&army, "c4-c7"), "the way from c4 to c7 is blocked");
    assert_eq!(refused(&army, "a1-a5"), "the way from a1 to a5 is blocked");
    assert_eq!(refused(&army, "a1-a3"), "a3 holds one of your own pieces");
    assert_eq!(refused(&army, "c4-f4"), "the way from c4 to f4 is blocked");
    let from_c4: Vec<String> = listed(&army)
        .into_iter()
        .filter(|mv| mv.starts_with("c4"))
        .collect();
    assert_eq!(
        from_c4,
        ["c4-d4", "c4-b4", "c4-a4", "c4-c3", "c4-c2", "c4-c1"]
    );
    // An Explorador cannot attack past the first piece in its line, nor across a lake.
    let clasico = position::<Clasico>(
        &[
            ("a1", 'X'),
            ("a4", 'r'),
            ("a7", 'f'),
            ("d2", 'X'),
            ("j10", 'r'),
        ],
        ROJO,
    );
    assert_eq!(
        refused(&clasico, "a1xa7"),
        "the way from a1 to a7 is blocked"
    );
    assert_eq!(
        refused(&clasico, "d2-d8"),
        "the way from d2 to d8 is blocked"
    );
    assert!(is_listed(&clasico, "a1xa4"));
}

#[test]
fn bombs_and_flags_never_move() {
    let army = position::<Frente>(&[("a1", 'B'), ("b1", 'F'), ("c1", 'R'), ("j10", 'r')], ROJO);
    assert_eq!(refused(&army, "a1-a2"), "a Bomba never moves");
    assert_eq!(refused(&army, "b1-b2"), "an Estandarte never moves");
    assert!(listed(&army).iter().all(|mv| mv.starts_with("c1")));
    let clasico = position::<Clasico>(&[("a1", 'F'), ("c1", 'R'), ("j10", 'r')], ROJO);
    assert_eq!(refused(&clasico, "a1-a2"), "a Bandera never moves");
    let castillos = position::<Castillos>(&[("a1", 'B'), ("c1", 'R'), ("h10", 'r')], ROJO);
    assert_eq!(refused(&castillos, "a1-a2"), "a Bomba never moves");
}

// ------------------------------------------------------------------------------------------
// Battles with a rule of their own (the full matrices are in tests/army_battles.rs).

#[test]
fn the_espia_beats_the_top_rank_only_when_she_attacks() {
    // frente: the Teniente General.
    let mut army = position::<Frente>(&[("e4", 'E'), ("e5", 'l'), ("a1", 'R'), ("j10", 'r')], ROJO);
    play(&mut army, "e4xe5");
    assert_eq!(
        army.position_text(),
        text::<Frente>(&[("e5", 'E'), ("a1", 'R'), ("j10", 'r')], AZUL)
    );
    let mut army = position::<Frente>(&[("e4", 'E'), ("e5", 'l'), ("a1", 'R'), ("j10", 'r')], AZUL);
    play(&mut army, "e5xe4");
    assert_eq!(
        army.position_text(),
        text::<Frente>(&[("e4", 'l'), ("a1", 'R'), ("j10", 'r')], ROJO)
    );
    // clasico: the Mariscal.
    let mut army =
        position::<Clasico>(&[("e4", 'E'), ("e5", 'm'), ("a1", 'R'), ("j10", 'r')], ROJO);
    play(&mut army, "e4xe5");
    assert_eq!(
        army.position_text(),
        text::<Clasico>(&[("e5", 'E'), ("a1", 'R'), ("j10", 'r')], AZUL)
    );
    let mut army =
        position::<Clasico>(&[("e4", 'E'), ("e5", 'm'), ("a1", 'R'), ("j10", 'r')], AZUL);
    play(&mut army, "e5xe4");
    assert_eq!(
        army.position_text(),
        text::<Clasico>(&[("e4", 'm'), ("a1", 'R'), ("j10", 'r')], ROJO)
    );
}

#[test]
fn an_explorador_attacks_at_range_and_is_revealed() {
    let mut army = position::<Clasico>(
        &[
            ("a1", 'X'),
            ("a6", 'e'),
            ("j1", 'R'),
            ("j10", 'r'),
            ("i10", 'x'),
        ],
        ROJO,
    );
    assert!(listed(&army).contains(&"a1xa6".to_owned()));
    let effects = play(&mut army, "a1xa6");
    assert!(matches!(
        effects[..],
        [Effect::Battle {
            result: BattleResult::AttackerWins,
            ..
        }]
    ));
    assert_eq!(
        seen_kind(&army, Viewer::Player(AZUL), "a6"),
        Some("explorador")
    );
    // A long move without an attack reveals it as well.
    let effects = play(&mut army, "i10-i3");
    assert_eq!(revealed::<Clasico>(&effects), ["explorador"]);
    assert_eq!(
        seen_kind(&army, Viewer::Player(ROJO), "i3"),
        Some("explorador")
    );
    // At range against a stronger piece it falls, revealed.
    let mut army =
        position::<Clasico>(&[("a1", 'X'), ("a9", 't'), ("j1", 'R'), ("j10", 'r')], ROJO);
    play(&mut army, "a1xa9");
    assert_eq!(
        army.position_text(),
        text::<Clasico>(&[("a9", 't'), ("j1", 'R'), ("j10", 'r')], AZUL)
    );
    let view = army.view(Sight::Of(Viewer::Player(AZUL)));
    assert_eq!(view.captured.len(), 1);
    assert_eq!(view.captured[0].kind, Some(KindId(1)));
    assert!(view.captured[0].revealed);
}

#[test]
fn the_castillos_general_runs_reveals_and_attacks_only_adjacent() {
    let mut army = position::<Castillos>(
        &[
            ("d1", 'G'),
            ("d8", 'y'),
            ("h1", 'R'),
            ("h10", 'r'),
            ("a10", 'r'),
        ],
        ROJO,
    );
    assert_eq!(
        refused(&army, "d1xd8"),
        "a General that moves more than one square cannot attack in the same move"
    );
    // Through the castle d5 and the trench d6.
    let effects = play(&mut army, "d1-d7");
    assert_eq!(revealed::<Castillos>(&effects), ["general"]);
    assert_eq!(
        seen_kind(&army, Viewer::Player(AZUL), "d7"),
        Some("general")
    );
    play(&mut army, "h10-h9");
    play(&mut army, "d7xd8");
    assert_eq!(
        army.position_text(),
        text::<Castillos>(&[("d8", 'G'), ("h1", 'R'), ("h9", 'r'), ("a10", 'r')], AZUL)
    );
    // A one-square General move reveals nothing.
    let mut army = position::<Castillos>(&[("d1", 'G'), ("h10", 'r')], ROJO);
    assert!(revealed::<Castillos>(&play(&mut army, "d1-d2")).is_empty());
    assert_eq!(seen_kind(&army, Viewer::Player(AZUL), "d2"), None);
}

// ------------------------------------------------------------------------------------------
// The end of the game.

#[test]
fn exposed_lists_revealed_pieces_next_to_an_enemy_that_beats_them() {
    // Rojo's General takes a Soldado next to Azul's Teniente General: revealed, it stands
    // where the enemy can take it; the unrevealed Sargento next to an Azul Sargento does
    // not, nor does a revealed piece next to a weaker one.
    let mut army = position::<Frente>(
        &[
            ("e4", 'G'),
            ("e5", 's'),
            ("f5", 'l'),
            ("a1", 'R'),
            ("a2", 'r'),
            ("j10", 'r'),
        ],
        ROJO,
    );
    let exposed = |army: &Army<Frente>, seat: Seat| -> Vec<String> {
        army.exposed(seat)
            .map(|piece| piece.cell.grid_label().to_string())
            .collect()
    };
    assert!(exposed(&army, ROJO).is_empty(), "nothing is revealed yet");
    play(&mut army, "e4xe5");
    assert_eq!(exposed(&army, ROJO), ["e5"]);
    assert!(
        exposed(&army, AZUL).is_empty(),
        "the Teniente General is not revealed"
    );
    play(&mut army, "f5xe5");
    assert!(exposed(&army, ROJO).is_empty(), "the General is gone");
    assert!(
        exposed(&army, AZUL).is_empty(),
        "the revealed Teniente General has no stronger piece next to it"
    );
}

#[test]
fn a_flag_is_sealed_when_bombs_lakes_and_the_edge_close_every_side() {
    // Rojo's flag in the corner behind two bombs is sealed; Azul's, with a Sargento of its
    // own on one side, is not, nor once an Azul Cabo Armero takes one of Rojo's bombs.
    let mut army = position::<Frente>(
        &[
            ("a1", 'F'),
            ("b1", 'B'),
            ("a2", 'B'),
            ("a3", 'a'),
            ("e10", 'f'),
            ("d10", 'b'),
            ("f10", 'b'),
            ("e9", 'r'),
            ("j5", 'S'),
        ],
        AZUL,
    );
    let sealed = |army: &Army<Frente>, label: &str| {
        army.sealed(Cell::parse_grid_label(label).expect("a square"))
    };
    assert!(sealed(&army, "a1"));
    assert!(!sealed(&army, "e10"), "a Sargento is no bomb");
    assert!(!sealed(&army, "c1"), "an empty square");
    play(&mut army, "a3xa2");
    assert!(!sealed(&army, "a1"), "a bomb is gone");
}

#[test]
fn capturing_the_flag_wins_at_once() {
    for seat in Seat::BOTH {
        let mut army =
            position::<Frente>(&[("e2", 'R'), ("e3", 'f'), ("e9", 'r'), ("e8", 'F')], seat);
        let notation = if seat == ROJO { "e2xe3" } else { "e9xe8" };
        let effects = play(&mut army, notation);
        assert_eq!(outcome(&army), Some((Some(seat), "FLAG_CAPTURED")));
        assert_eq!(effects.last(), army.outcome().map(Effect::Ended).as_ref());
        assert!(listed(&army).is_empty());
        assert_eq!(refused(&army, "e2-d2"), "the game is over");
        assert_eq!(refused(&army, "e9-d9"), "the game is over");
    }
    // An Explorador at range and a Granada take flags too.
    let mut army = position::<Clasico>(&[("a1", 'X'), ("a9", 'f'), ("j10", 'r')], ROJO);
    play(&mut army, "a1xa9");
    assert_eq!(outcome(&army), Some((Some(ROJO), "FLAG_CAPTURED")));
    let mut army = position::<Castillos>(&[("a1", 'K'), ("a2", 'f'), ("h10", 'r')], ROJO);
    play(&mut army, "a1xa2");
    assert_eq!(outcome(&army), Some((Some(ROJO), "FLAG_CAPTURED")));
}

#[test]
fn a_player_left_with_only_immovable_pieces_loses_at_once() {
    let mut army = position::<Frente>(
        &[
            ("e5", 'R'),
            ("a1", 'B'),
            ("b1", 'F'),
            ("e6", 'b'),
            ("j10", 'r'),
            ("j9", 'f'),
        ],
        ROJO,
    );
    play(&mut army, "e5xe6");
    assert_eq!(outcome(&army), Some((Some(AZUL), "ONLY_IMMOVABLE_LEFT")));
    assert!(listed(&army).is_empty());
    // Both last movable pieces fall in one battle: a draw.
    let mut army = position::<Frente>(&[("e5", 'S'), ("a1", 'B'), ("e6", 's'), ("j10", 'b')], ROJO);
    play(&mut army, "e5xe6");
    assert_eq!(outcome(&army), Some((None, "ONLY_IMMOVABLE_LEFT")));
    // A position that starts that way is over before anyone moves.
    let army = position::<Clasico>(&[("a1", 'B'), ("a2", 'F'), ("j10", 'r')], ROJO);
    assert_eq!(outcome(&army), Some((Some(AZUL), "ONLY_IMMOVABLE_LEFT")));
}

#[test]
fn a_player_with_no_legal_move_loses() {
    // clasico's "walled in by bombs": Azul's Sargento on a10 behind its own bombs.
    let mut army = position::<Clasico>(
        &[("e2", 'R'), ("a10", 'r'), ("b10", 'b'), ("a9", 'b')],
        ROJO,
    );
    assert_eq!(outcome(&army), None);
    play(&mut army, "e2-e3");
    assert_eq!(outcome(&army), Some((Some(ROJO), "NO_MOVES")));
    // The repetition limit can take a player's last move: Rojo's Sargento can only
    // shuttle between a1 and a2.
    let mut army = position::<Frente>(
        &[
            ("a1", 'R'),
            ("b1", 'B'),
            ("b2", 'B'),
            ("a3", 'B'),
            ("j10", 'r'),
        ],
        ROJO,
    );
    for (rojo, azul) in [("a1-a2", "j10-j9"), ("a2-a1", "j9-i9"), ("a1-a2", "i9-i10")] {
        play(&mut army, rojo);
        play(&mut army, azul);
    }
    assert_eq!(outcome(&army), Some((Some(AZUL), "NO_MOVES")));
}

#[test]
fn both_players_stuck_is_a_draw() {
    let walled = [
        ("a1", 'R'),
        ("b1", 'B'),
        ("a2", 'B'),
        ("j10", 'r'),
        ("i10", 'b'),
        ("j9", 'b'),
    ];
    let mut pieces = walled.to_vec();
    pieces.extend([("e5", 'T'), ("e6", 'b')]);
    let mut army = position::<Frente>(&pieces, ROJO);
    play(&mut army, "e5xe6");
    assert_eq!(outcome(&army), Some((None, "NO_MOVES")));
    let army = position::<Frente>(&walled, AZUL);
    assert_eq!(outcome(&army), Some((None, "NO_MOVES")));
}

// ------------------------------------------------------------------------------------------
// Repetition.

/// Shuttles Rojo's piece between `a` and `b` up to the limit while Azul moves other pieces
/// (`azul`, one move per Rojo move), then checks the next shuttle is refused and that
/// another Rojo move (`other`) lifts the ban.
fn repetition<V: Variant>(
    pieces: &[(&str, char)],
    (a, b): (&str, &str),
    limit: usize,
    azul: &[&str],
    other: &str,
) {
    let mut army = position::<V>(pieces, ROJO);
    let shuttle = |i: usize| {
        if i.is_multiple_of(2) {
            format!("{a}-{b}")
        } else {
            format!("{b}-{a}")
        }
    };
    for (i, azul) in azul.iter().enumerate().take(limit) {
        play(&mut army, &shuttle(i));
        play(&mut army, azul);
    }
    let next = shuttle(limit);
    let (from, to) = next.split_once('-').expect("from-to");
    assert_eq!(
        refused(&army, &next),
        format!("this piece may not move between {from} and {to} more than {limit} times in a row")
    );
    assert_eq!(outcome(&army), None);
    play(&mut army, other);
    play(&mut army, azul[limit]);
    play(&mut army, &next);
}

#[test]
fn the_repetition_limit_is_three_in_frente_and_clasico() {
    let azul = ["j10-j9", "a10-a9", "j9-j8", "a9-a8", "j8-j7"];
    let pieces = [("a1", 'R'), ("j1", 'R'), ("j10", 'r'), ("a10", 'r')];
    repetition::<Frente>(&pieces, ("a1", "a2"), 3, &azul, "j1-j2");
    repetition::<Clasico>(&pieces, ("a1", "a2"), 3, &azul, "j1-j2");
    // Long moves count the same way.
    let pieces = [("a1", 'S'), ("j1", 'R'), ("j10", 'r'), ("a10", 'r')];
    repetition::<Frente>(&pieces, ("a1", "a5"), 3, &azul, "j1-j2");
}

#[test]
fn the_repetition_limit_is_five_in_castillos() {
    let azul = [
        "h10-h9", "a10-a9", "h9-h8", "a9-a8", "h8-h7", "a8-a7", "h7-h6",
    ];
    let pieces = [("a1", 'R'), ("h1", 'R'), ("h10", 'r'), ("a10", 'r')];
    repetition::<Castillos>(&pieces, ("a1", "a2"), 5, &azul, "h1-h2");
}

#[test]
fn the_repetition_limit_does_not_forbid_an_attack() {
    let mut army = position::<Frente>(&[("a1", 'R'), ("j1", 'R'), ("c1", 'e'), ("j10", 'r')], ROJO);
    for (rojo, azul) in [("a1-a2", "j10-j9"), ("a2-a1", "j9-j8"), ("a1-a2", "c1-b1")] {
        play(&mut army, rojo);
        play(&mut army, azul);
    }
    assert_eq!(
        refused(&army, "a2-a1"),
        "this piece may not move between a2 and a1 more than 3 times in a row"
    );
    play(&mut army, "j1-j2");
    play(&mut army, "b1-a1");
    // The Espía now stands on a1: taking it is an attack, not a fourth shuttle, and the
    // shuttle count of a2-a1 was reset by j1-j2 anyway. Build the case where it was not.
    let mut army = position::<Frente>(&[("a1", 'R'), ("j1", 'R'), ("b1", 'e'), ("j10", 'r')], ROJO);
    for (rojo, azul) in [("a1-a2", "j10-j9"), ("a2-a1", "j9-j8"), ("a1-a2", "b1-a1")] {
        play(&mut army, rojo);
        play(&mut army, azul);
    }
    play(&mut army, "a2xa1");
    assert_eq!(
        army.position_text(),
        text::<Frente>(&[("a1", 'R'), ("j1", 'R'), ("j8", 'r')], AZUL)
    );
}

// ------------------------------------------------------------------------------------------
// The turn limit.

fn status<V: Variant>(army: &Army<V>) -> ArmyStatus {
    match army.view(Sight::Of(Viewer::Spectator)).status {
        Status::Army(status) => status,
        other => panic!("not an army status: {other:?}"),
    }
}

/// Rojo's Sargento and Azul's walk around 2×2 squares: never a battle, never a shuttle.
#[derive(Default)]
struct Walkers {
    /// Moves made so far by each seat's walker.
    steps: [usize; 2],
}

impl Walkers {
    const ROJO: [&str; 4] = ["a1-a2", "a2-b2", "b2-b1", "b1-a1"];

    /// Plays the next step of the walker of the seat to move; Azul walks `azul`.
    fn play<V: Variant>(&mut self, army: &mut Army<V>, azul: [&str; 4]) {
        let seat = army.to_move();
        let cycle = if seat == ROJO { Self::ROJO } else { azul };
        play(army, cycle[self.steps[seat.index()] % 4]);
        self.steps[seat.index()] += 1;
    }
}

const AZUL_10: [&str; 4] = ["j10-j9", "j9-i9", "i9-i10", "i10-j10"];
const AZUL_8: [&str; 4] = ["h10-h9", "h9-g9", "g9-g10", "g10-h10"];

#[test]
fn four_hundred_quiet_turns_draw() {
    let mut army = position::<Frente>(&[("a1", 'R'), ("j10", 'r')], ROJO);
    let mut walkers = Walkers::default();
    for turn in 1..TURN_LIMIT {
        walkers.play(&mut army, AZUL_10);
        assert_eq!(outcome(&army), None, "turn {turn}");
        assert_eq!(status(&army).turns_without_battle, turn);
    }
    walkers.play(&mut army, AZUL_10);
    assert_eq!(outcome(&army), Some((None, "MOVE_LIMIT")));
    assert_eq!(status(&army).turns_without_battle, TURN_LIMIT);
}

#[test]
fn a_battle_restarts_the_turn_count() {
    let mut army =
        position::<Castillos>(&[("a1", 'R'), ("e3", 'T'), ("e4", 'b'), ("h10", 'r')], ROJO);
    let mut walkers = Walkers::default();
    for _ in 0..TURN_LIMIT - 2 {
        walkers.play(&mut army, AZUL_8);
    }
    assert_eq!(status(&army).turns_without_battle, TURN_LIMIT - 2);
    // Turn 399, Rojo's: a battle.
    play(&mut army, "e3xe4");
    assert_eq!(status(&army).turns_without_battle, 0);
    for _ in 1..TURN_LIMIT {
        walkers.play(&mut army, AZUL_8);
    }
    assert_eq!(outcome(&army), None);
    walkers.play(&mut army, AZUL_8);
    assert_eq!(outcome(&army), Some((None, "MOVE_LIMIT")));
}

// ------------------------------------------------------------------------------------------
// Castles and trenches.

fn castle_turns(army: &Army<Castillos>) -> Vec<(String, u8)> {
    status(army)
        .castle_turns
        .into_iter()
        .map(|(cell, turns)| (cell.grid_label().to_string(), turns))
        .collect()
}

fn castle_turn_list(items: &[(&str, u8)]) -> Vec<(String, u8)> {
    items.iter().map(|&(l, t)| (l.to_owned(), t)).collect()
}

#[test]
fn a_piece_is_removed_at_the_end_of_its_owners_third_turn_on_a_castle() {
    let mut army =
        position::<Castillos>(&[("d4", 'R'), ("a1", 'R'), ("e7", 'r'), ("h10", 'r')], ROJO);
    play(&mut army, "d4-d5");
    assert_eq!(castle_turns(&army), castle_turn_list(&[("d5", 1)]));
    play(&mut army, "e7-e6");
    assert_eq!(
        castle_turns(&army),
        castle_turn_list(&[("d5", 1), ("e6", 1)])
    );
    play(&mut army, "a1-a2");
    assert_eq!(
        castle_turns(&army),
        castle_turn_list(&[("d5", 2), ("e6", 1)])
    );
    play(&mut army, "h10-h9");
    assert_eq!(
        castle_turns(&army),
        castle_turn_list(&[("d5", 2), ("e6", 2)])
    );
    assert_eq!(status(&army).turns_without_battle, 4);
    let effects = play(&mut army, "a2-a3");
    assert!(
        matches!(
            effects[..],
            [Effect::Removed {
                cause: RemovalCause::Castle,
                at,
                ..
            }] if at == Cell::new(3, 4)
        ),
        "{effects:?}"
    );
    assert_eq!(castle_turns(&army), castle_turn_list(&[("e6", 2)]));
    assert_eq!(status(&army).turns_without_battle, 0);
    // The removed piece was never revealed, and its removal does not reveal it.
    let view = army.view(Sight::Of(Viewer::Player(AZUL)));
    assert_eq!(view.captured.len(), 1);
    assert_eq!(view.captured[0].kind, None);
    play(&mut army, "h9-h8");
    assert_eq!(
        army.position_text(),
        text::<Castillos>(&[("a3", 'R'), ("h8", 'r')], ROJO)
    );
}

#[test]
fn the_castle_count_restarts_when_the_piece_leaves() {
    let mut army = position::<Castillos>(
        &[("d4", 'R'), ("a1", 'R'), ("h10", 'r'), ("a10", 'r')],
        ROJO,
    );
    let azul = ["h10-h9", "a10-a9", "h9-h8", "a9-a8", "h8-h7", "a8-a7"];
    for (rojo, azul) in ["d4-d5", "a1-a2", "d5-d4", "d4-d5", "a2-a3"]
        .iter()
        .zip(azul)
    {
        play(&mut army, rojo);
        play(&mut army, azul);
    }
    // Entered again two Rojo turns ago: still there, with two turns counted.
    assert_eq!(castle_turns(&army), castle_turn_list(&[("d5", 2)]));
    play(&mut army, "a3-a4");
    assert_eq!(castle_turns(&army), castle_turn_list(&[]));
    // Entering by winning a battle starts the count too.
    let mut army = position::<Castillos>(
        &[
            ("d4", 'Y'),
            ("d5", 's'),
            ("a1", 'R'),
            ("h10", 'r'),
            ("a10", 'r'),
        ],
        ROJO,
    );
    play(&mut army, "d4xd5");
    assert_eq!(castle_turns(&army), castle_turn_list(&[("d5", 1)]));
}

#[test]
fn a_flag_placed_on_a_castle_by_position_text_is_lost_there() {
    // Setups cannot put a flag on a castle; position text can (see the module docs).
    let mut army = position::<Castillos>(
        &[("d5", 'F'), ("a1", 'R'), ("h10", 'r'), ("a10", 'r')],
        ROJO,
    );
    for (rojo, azul) in [("a1-a2", "h10-h9"), ("a2-a3", "a10-a9")] {
        play(&mut army, rojo);
        play(&mut army, azul);
    }
    assert_eq!(outcome(&army), None);
    play(&mut army, "a3-a4");
    assert_eq!(outcome(&army), Some((Some(AZUL), "FLAG_CAPTURED")));
}

#[test]
fn a_piece_in_a_trench_cannot_be_attacked() {
    let mut army = position::<Castillos>(
        &[
            ("a5", 'R'),
            ("a6", 's'),
            ("e4", 'R'),
            ("e6", 'y'),
            ("d1", 'G'),
            ("h10", 'r'),
        ],
        ROJO,
    );
    assert_eq!(
        refused(&army, "a5xa6"),
        "the piece on a6 is in a trench and cannot be attacked"
    );
    // Any piece may enter an empty trench; there it is safe in turn.
    play(&mut army, "e4-e5");
    assert_eq!(
        refused(&army, "e6xe5"),
        "the piece on e5 is in a trench and cannot be attacked"
    );
    // A piece in a trench may attack out of it.
    play(&mut army, "a6xa5");
    assert_eq!(
        army.position_text(),
        text::<Castillos>(
            &[
                ("a5", 'R'),
                ("e5", 'R'),
                ("e6", 'y'),
                ("d1", 'G'),
                ("h10", 'r')
            ],
            ROJO
        )
    );
}

// ------------------------------------------------------------------------------------------
// Position text.

#[test]
fn position_text_round_trips_and_names_what_is_wrong() {
    let texts = [
        "m8f/9l/91/91/2~~b1~~2/2~~A1~~2/2S7/91/91/SBF7 0",
        "91/91/91/91/2~~2~~2/2~~2~~2/91/91/91/91 1",
    ];
    for text in texts {
        let army = Army::<Frente>::from_position_text(text).expect("valid");
        assert_eq!(army.position_text(), text);
    }
    let castillos = "fb6/8/3y4/4o3/d1~1M~2/K1~2~1s/4S2R/8/8/3G1BF1 0";
    assert_eq!(
        Army::<Castillos>::from_position_text(castillos).map(|a| a.position_text()),
        Ok(castillos.to_owned())
    );
    let error = |text: &str| {
        Army::<Frente>::from_position_text(text)
            .map(|_| ())
            .expect_err(text)
    };
    let empty_rows = "91/91/91/91/2~~2~~2/2~~2~~2/91/91/91";
    assert_eq!(error("91/91"), PositionError::Shape);
    assert_eq!(
        error(&format!("{empty_rows}/91 2")),
        PositionError::Seat("2".into())
    );
    assert_eq!(
        error(&format!("{empty_rows} 0")),
        PositionError::RowCount {
            expected: 10,
            found: 9
        }
    );
    assert_eq!(
        error(&format!("{empty_rows}/9 0")),
        PositionError::RowWidth {
            row: 1,
            expected: 10,
            found: 9
        }
    );
    assert_eq!(
        error(&format!("{empty_rows}/Z9 0")),
        PositionError::UnknownCode('Z')
    );
    assert_eq!(
        error(&format!("{empty_rows}/10 0")),
        PositionError::UnknownCode('0')
    );
    assert_eq!(
        error("91/91/91/91/2~~2~~2/4~~4/91/91/91/91 0"),
        PositionError::Lake(5)
    );
    assert_eq!(
        error("91/91/91/91/2~~2~~2/2S~2~~2/91/91/91/91 0"),
        PositionError::Lake(5)
    );
    assert_eq!(
        error("91/91/91/91/2~~2~~2/2~~2~~2/91/91/91/~91 0"),
        PositionError::Lake(1)
    );
    assert_eq!(
        error(&format!("{empty_rows}/SSSSSSSSS1 0")),
        PositionError::TooMany('S')
    );
    assert_eq!(
        error(&format!("{empty_rows}/E1e1E5 0")),
        PositionError::TooMany('E')
    );
    // Far too many empty cells is a width error, not an overflow.
    let long = "9".repeat(40);
    assert!(matches!(
        error(&format!("{empty_rows}/{long} 0")),
        PositionError::RowWidth { row: 1, .. }
    ));
    assert!(matches!(
        error(&format!("{long}S/91/91/91/2~~2~~2/2~~2~~2/91/91/91/91 0")),
        PositionError::RowWidth { row: 10, .. }
    ));
    assert!(matches!(
        error(&format!("{empty_rows}/éé 0")),
        PositionError::UnknownCode('é')
    ));
}

// ------------------------------------------------------------------------------------------
// The Game layer.

fn new_game<V: Variant>() -> Match<Army<V>> {
    Match::new(Seed([3; 32]))
}

fn random_setup<V: Variant>(seat: Seat, seed: u64) -> Setup {
    let zone = V::spec()
        .description
        .setup_zone(seat)
        .expect("both seats set up");
    Setup::random(zone, seed)
}

fn kinds_seen(view: &View, owner: Seat) -> (usize, usize) {
    let pieces = view.pieces.iter().filter(|piece| piece.owner == owner);
    let (known, hidden): (Vec<&PieceView>, Vec<&PieceView>) =
        pieces.partition(|piece| piece.kind.is_some());
    (known.len(), hidden.len())
}

#[test]
fn the_setup_phase_hides_each_setup_from_the_other_side() {
    let mut game = new_game::<Frente>();
    assert_eq!(game.phase(), Phase::Setup);
    assert!(game.awaits_setup(ROJO) && game.awaits_setup(AZUL));
    assert_eq!(game.to_move(), None);
    assert!(game.legal_actions().is_empty());
    let a4_a5 = action::<Frente>("a4-a5");
    assert_eq!(
        game.play(ROJO, &a4_a5).map_err(|e| e.to_string()),
        Err("the game has not started yet: waiting for setups".to_owned())
    );
    let rojo = random_setup::<Frente>(ROJO, 1);
    game.submit_setup(rojo.clone()).expect("first setup");
    assert!(!game.awaits_setup(ROJO) && game.awaits_setup(AZUL));
    assert_eq!(game.phase(), Phase::Setup);
    let again = game.submit_setup(random_setup::<Frente>(ROJO, 2));
    assert_eq!(again, Err(SetupRefused::AlreadySubmitted("Rojo")));
    assert_eq!(
        again.map_err(|e| e.to_string()),
        Err("Rojo has already submitted a setup".to_owned())
    );
    assert_eq!(game.setup(ROJO), Some(&rojo));
    assert_eq!(kinds_seen(&game.view(Viewer::Player(ROJO)), ROJO), (40, 0));
    assert!(game.view(Viewer::Player(AZUL)).pieces.is_empty());
    assert!(game.view(Viewer::Spectator).pieces.is_empty());

    let before_play: Vec<(PieceId, Option<Cell>, Option<KindId>)> = game
        .view(Viewer::Player(ROJO))
        .pieces
        .iter()
        .map(|piece| (piece.id, piece.cell, piece.kind))
        .collect();
    game.submit_setup(random_setup::<Frente>(AZUL, 3))
        .expect("second setup");
    assert_eq!(game.phase(), Phase::Playing);
    // Ids stay what the setup view said once play starts.
    let in_play: Vec<(PieceId, Option<Cell>, Option<KindId>)> = game
        .view(Viewer::Player(ROJO))
        .pieces
        .iter()
        .filter(|piece| piece.owner == ROJO)
        .map(|piece| (piece.id, piece.cell, piece.kind))
        .collect();
    assert_eq!(in_play, before_play);
    assert_eq!(game.to_move(), Some(ROJO));
    assert_eq!(
        game.submit_setup(random_setup::<Frente>(AZUL, 4)),
        Err(SetupRefused::PhaseOver)
    );
    for (viewer, rojo_seen, azul_seen) in [
        (Viewer::Player(ROJO), (40, 0), (0, 40)),
        (Viewer::Player(AZUL), (0, 40), (40, 0)),
        (Viewer::Spectator, (0, 40), (0, 40)),
    ] {
        let view = game.view(viewer);
        assert_eq!(kinds_seen(&view, ROJO), rojo_seen, "{viewer:?}");
        assert_eq!(kinds_seen(&view, AZUL), azul_seen, "{viewer:?}");
    }
}

#[test]
fn turns_refusals_and_resignation() {
    let mut game = new_game::<Castillos>();
    for seat in Seat::BOTH {
        game.submit_setup(random_setup::<Castillos>(seat, 9))
            .expect("setup");
    }
    let first = game.legal_actions().remove(0);
    assert_eq!(
        game.play(AZUL, &first.action).map_err(|e| e.to_string()),
        Err("it is not your turn (Rojo to move)".to_owned())
    );
    let played = game.play(ROJO, &first.action).expect("listed");
    assert_eq!(played.notation, first.notation);
    let reply = game.legal_actions().remove(0);
    assert_eq!(
        game.play(ROJO, &reply.action),
        Err(PlayError::NotYourTurn("Azul"))
    );
    assert_eq!(
        PlayError::NotYourTurn("Azul").to_string(),
        "it is not your turn (Azul to move)"
    );
    // A refused action changes nothing.
    let before = game.position().cloned();
    let wrong = action::<Castillos>("a1-h8");
    assert!(game.play(AZUL, &wrong).is_err());
    assert_eq!(game.position().cloned(), before);

    let outcome = game.resign(AZUL).expect("in play");
    assert_eq!(
        (outcome.winner, outcome.reason.code()),
        (Some(ROJO), "RESIGNED")
    );
    assert_eq!(game.outcome(), Some(outcome));
    assert_eq!(game.phase(), Phase::Finished);
    assert_eq!(game.to_move(), None);
    assert!(game.legal_actions().is_empty());
    assert_eq!(game.play(AZUL, &reply.action), Err(PlayError::GameOver));
    assert_eq!(game.resign(ROJO), Err(PlayError::GameOver));
    // After the end everything is public, to everyone.
    for viewer in [
        Viewer::Player(ROJO),
        Viewer::Player(AZUL),
        Viewer::Spectator,
    ] {
        let view = game.view(viewer);
        assert_eq!(kinds_seen(&view, ROJO), (24, 0));
        assert_eq!(kinds_seen(&view, AZUL), (24, 0));
        assert_eq!(view.to_move, None);
    }
}

#[test]
fn the_full_view_after_a_flag_capture() {
    let mut game = new_game::<Clasico>();
    let cell = |label| Cell::parse_grid_label(label).expect("label");
    let kind = |id| Clasico::spec().description.kind_by_id(id).expect("kind");
    game.submit_setup(Setup::unchecked(
        ROJO,
        vec![
            (cell("a1"), kind("bandera")),
            (cell("e4"), kind("sargento")),
        ],
    ))
    .expect("setup");
    game.submit_setup(Setup::unchecked(
        AZUL,
        vec![
            (cell("e5"), kind("bandera")),
            (cell("j10"), kind("bomba")),
            (cell("j9"), kind("espia")),
        ],
    ))
    .expect("setup");
    assert_eq!(kinds_seen(&game.view(Viewer::Player(AZUL)), ROJO), (0, 2));
    let played = game
        .play(ROJO, &action::<Clasico>("e4-e5"))
        .expect("an attack written with '-'");
    assert_eq!(played.notation, "e4xe5");
    assert_eq!(
        game.outcome().map(|o| (o.winner, o.reason.code())),
        Some((Some(ROJO), "FLAG_CAPTURED"))
    );
    let view = game.view(Viewer::Player(AZUL));
    assert_eq!(kinds_seen(&view, ROJO), (2, 0));
    assert_eq!(kinds_seen(&game.view(Viewer::Spectator), AZUL), (2, 0));
    assert!(view.captured.iter().all(|piece| piece.kind.is_some()));
}

// ------------------------------------------------------------------------------------------
// Setups.

#[test]
fn a_bad_setup_reports_every_problem_at_once() {
    let description = &Frente::spec().description;
    let mut placements = random_setup::<Frente>(ROJO, 5).placements(description);
    let cell = |label| Cell::parse_grid_label(label).expect("label");
    let index_of = |placements: &[Placement], kind: &str| {
        placements
            .iter()
            .position(|p| p.kind == kind)
            .expect("that kind is placed")
    };
    // An unknown kind instead of a Soldado.
    let soldado = index_of(&placements, "soldado");
    placements[soldado].kind = "tanque".into();
    // A Sargento on a lake, a Teniente outside the zone, a Capitán off the board.
    let sargento = index_of(&placements, "sargento");
    let teniente = index_of(&placements, "teniente");
    let capitan = index_of(&placements, "capitan");
    let taken = placements[index_of(&placements, "mayor")].cell;
    placements[sargento].cell = cell("c5");
    placements[teniente].cell = cell("a5");
    placements[capitan].cell = Cell::new(10, 0);
    // A Coronel on the Mayor's square, and a seventh bomb.
    let coronel = index_of(&placements, "coronel");
    placements[coronel].cell = taken;
    placements.push(Placement {
        cell: cell("j9"),
        kind: "bomba".into(),
    });
    let problems = Setup::validate(description, ROJO, &placements)
        .expect_err("bad setup")
        .problems;
    let kind = |id| description.kind_by_id(id).expect("kind");
    let expected = [
        SetupProblem::UnknownKind("tanque".into()),
        SetupProblem::Lake(cell("c5")),
        SetupProblem::OutsideZone(cell("a5")),
        SetupProblem::OffBoard(Cell::new(10, 0)),
        SetupProblem::Duplicate(taken),
        SetupProblem::OutsideZone(cell("j9")),
        SetupProblem::WrongCount {
            kind: kind("soldado"),
            expected: 8,
            got: 7,
        },
        SetupProblem::WrongCount {
            kind: kind("bomba"),
            expected: 6,
            got: 7,
        },
    ];
    for problem in &expected {
        assert!(
            problems.contains(problem),
            "{problem:?} missing from {problems:?}"
        );
    }
    assert_eq!(problems.len(), expected.len(), "{problems:?}");
    let words = SetupError { problems }.describe(description);
    for part in [
        "there is no piece kind \"tanque\"",
        "c5 is a lake",
        "a5 is outside your setup zone",
        "(10, 0) is not on the board",
        "holds more than one piece",
        "needs 8 Soldado, got 7",
        "needs 6 Bomba, got 7",
    ] {
        assert!(words.contains(part), "{part:?} not in {words}");
    }
}

#[test]
fn random_setups_are_valid_and_canonical_text_round_trips() {
    fn check<V: Variant>() {
        let description = &V::spec().description;
        for seat in Seat::BOTH {
            let zone = description.setup_zone(seat).expect("zone");
            let rows = match seat {
                Seat::First => 0..4,
                Seat::Second => description.board.height as i8 - 4..description.board.height as i8,
            };
            assert!(zone.cells.iter().all(|cell| rows.contains(&cell.y)));
            assert_eq!(zone.cells.len(), 4 * description.board.width as usize);
            for seed in 0..20 {
                let setup = Setup::random(zone, seed);
                let placements = setup.placements(description);
                assert_eq!(
                    Setup::validate(description, seat, &placements),
                    Ok(setup.clone())
                );
                let canonical = setup.canonical_text(description);
                let parsed = Setup::parse_canonical(description, &canonical).expect("parses");
                assert_eq!(
                    Setup::validate(description, seat, &parsed),
                    Ok(setup.clone())
                );
                assert!(canonical.starts_with(&format!(
                    "{}={}",
                    description.label(setup.pieces()[0].0),
                    description.kind(setup.pieces()[0].1).id
                )));
            }
            assert_ne!(Setup::random(zone, 1), Setup::random(zone, 2));
        }
        assert_eq!(
            Setup::parse_canonical(description, "a1=bomba a1 z99=bomba")
                .expect_err("malformed")
                .problems,
            [
                SetupProblem::Malformed("a1".into()),
                SetupProblem::Malformed("z99=bomba".into())
            ]
        );
    }
    check::<Frente>();
    check::<Clasico>();
    check::<Castillos>();
}

#[test]
fn terrain_is_as_in_the_rule_book() {
    fn labels<V: Variant>(terrain: Terrain) -> Vec<String> {
        let mut labels: Vec<String> = V::spec()
            .description
            .board
            .cells
            .iter()
            .filter(|info| info.terrain == terrain)
            .map(|info| info.label.clone())
            .collect();
        labels.sort();
        labels
    }
    let centre = ["c5", "c6", "d5", "d6", "g5", "g6", "h5", "h6"];
    assert_eq!(labels::<Frente>(Terrain::Lake), centre);
    assert_eq!(labels::<Clasico>(Terrain::Lake), centre);
    assert_eq!(labels::<Castillos>(Terrain::Lake), ["c5", "c6", "f5", "f6"]);
    assert_eq!(labels::<Castillos>(Terrain::Castle), ["d5", "e6"]);
    assert_eq!(
        labels::<Castillos>(Terrain::Trench),
        ["a6", "d6", "e5", "h5"]
    );
    assert!(labels::<Frente>(Terrain::Castle).is_empty());
    assert!(labels::<Clasico>(Terrain::Trench).is_empty());
}

/// A hidden piece that could attack a revealed enemy piece on its owner's turn and does
/// not declines that kind: its public conduct, seen alike by every viewer. The attacker
/// declines nothing, nor does a piece next to a hidden enemy piece.
#[test]
fn a_hidden_piece_that_does_not_attack_a_revealed_one_declines_its_kind() {
    let mut army = position::<Frente>(
        &[
            ("a5", 'C'),
            ("b6", 'M'),
            ("j9", 'T'),
            ("e1", 'F'),
            ("a9", 's'),
            ("b10", 't'),
            ("j10", 'r'),
            ("e10", 'f'),
        ],
        AZUL,
    );
    assert_eq!(revealed::<Frente>(&play(&mut army, "a9-a6")), ["soldado"]);
    play(&mut army, "a5xa6");
    let conduct = |viewer: Viewer, label: &str| {
        let cell = Cell::parse_grid_label(label).expect("a label");
        let view = army.view(Sight::Of(viewer));
        let piece = view.pieces.iter().find(|piece| piece.cell == Some(cell));
        piece.expect("a piece").conduct
    };
    let mut soldado = Conduct::default();
    soldado.declined.insert(KindId(1));
    for viewer in [
        Viewer::Player(ROJO),
        Viewer::Player(AZUL),
        Viewer::Spectator,
    ] {
        assert_eq!(conduct(viewer, "b6"), soldado, "{viewer:?}");
        assert!(conduct(viewer, "a6").is_empty(), "the Capitán attacked");
        assert!(
            conduct(viewer, "j9").is_empty(),
            "the Sargento on j10 is hidden"
        );
    }
}
