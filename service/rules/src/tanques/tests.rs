//! Fixture positions for the tanques rules, and the dice vectors.

use sha2::{Digest, Sha256};

use super::*;
use crate::game::{Game, Match};
use crate::seat::Viewer;

/// The dice seed of every fixture: bytes 0, 1, …, 31.
fn seed() -> Seed {
    Seed(std::array::from_fn(|i| i as u8))
}

/// The first 20 rolls of [`seed`], as `docs/tanques-dice.md` lists them.
const ROLLS: [u8; 20] = [2, 1, 2, 3, 5, 3, 5, 4, 4, 1, 3, 5, 4, 1, 1, 1, 6, 2, 4, 6];

/// The index of a roll of [`seed`] that shows `die`.
fn roll_index(die: u8) -> u32 {
    ROLLS
        .iter()
        .position(|&roll| roll == die)
        .expect("every face in the first 20 rolls") as u32
}

fn at(label: &str) -> u8 {
    board::parse_label(label).expect("a label")
}

fn cell(label: &str) -> Cell {
    board::cell(at(label))
}

const ROJO: Seat = Seat::First;
const AZUL: Seat = Seat::Second;

/// Round 1, Rojo's movement phase, with `tanks` on the board and `control` given; the
/// allowance is counted from `control` as at the start of a turn.
fn fixture(tanks: &[(Seat, &str, Facing)], control: &[(&str, Seat)]) -> Tanques {
    let mut position = Tanques::start(&BySeat([None, None]), seed());
    for &(seat, label, facing) in tanks {
        place(&mut position, seat, label, facing);
    }
    for &(label, seat) in control {
        let Ground::Urban(urban) = BOARD.ground[usize::from(at(label))] else {
            panic!("{label} is not urban");
        };
        position.control[usize::from(urban)] = Some(seat);
    }
    position.begin_turn(ROJO, 1, &mut Vec::new());
    position
}

/// Puts `seat`'s next reserve tank on `label`.
fn place(position: &mut Tanques, seat: Seat, label: &str, facing: Facing) -> u8 {
    let id = ids(seat).end - position.reserve[seat];
    position.reserve[seat] -= 1;
    position.tanks[usize::from(id)] = Tank {
        hex: at(label),
        facing,
    };
    position.board[usize::from(at(label))] = id;
    id
}

/// Plays `text` for the seat to move, returning the effects or why it was refused (in
/// which case the position must be unchanged).
fn play(position: &mut Tanques, text: &str) -> Result<Vec<Effect>, Illegal> {
    let action = Tanques::parse_notation(text).expect("well-formed notation");
    let before = *position;
    let mv = position.check(&action).inspect_err(|_| {
        assert_eq!(*position, before);
    })?;
    let mut effects = Vec::new();
    position.play_unchecked(mv, &mut effects);
    Ok(effects)
}

fn refused(position: &mut Tanques, text: &str) -> TanquesIllegal {
    match play(position, text) {
        Err(Illegal::Tanques(illegal)) => illegal,
        other => panic!("{text}: expected a tanques refusal, got {other:?}"),
    }
}

/// The notations of the legal moves.
fn listed(position: &Tanques) -> Vec<String> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.into_iter().map(|mv| position.notation(mv)).collect()
}

fn label_of(position: &Tanques, id: u8) -> Option<String> {
    let hex = position.tanks[usize::from(id)].hex;
    (usize::from(hex) < HEXES).then(|| board::label(hex))
}

#[test]
fn the_game_starts_with_rojo_entering() {
    let position = Tanques::start(&BySeat([None, None]), seed());
    assert_eq!(position.to_move(), ROJO);
    assert_eq!((position.round, position.phase), (1, TankPhase::Movement));
    let moves = listed(&position);
    assert_eq!(moves.len(), 6 * 6 + 1);
    assert!(moves.contains(&"enter a1 NE".to_owned()));
    assert!(moves.contains(&"end".to_owned()));
    assert!(!moves.iter().any(|mv| mv.contains("a11")));
}

#[test]
fn enter_rules() {
    let mut position = fixture(&[(ROJO, "c1", Facing::NE)], &[]);
    assert_eq!(
        refused(&mut position, "enter c1 NE"),
        TanquesIllegal::Occupied("c1".into())
    );
    assert_eq!(
        refused(&mut position, "enter a11 SW"),
        TanquesIllegal::NotEntryHex("a11".into())
    );
    assert_eq!(
        refused(&mut position, "enter a2 NE"),
        TanquesIllegal::NotEntryHex("a2".into())
    );
    play(&mut position, "enter a1 W").expect("any facing, even off the board");
    let id = position.board[usize::from(at("a1"))];
    assert_eq!(id, 1, "reserve tanks enter in id order");
    assert_eq!(position.tanks[1].facing, Facing::W);
    // Entering is free: the maneuver allowance is untouched.
    assert_eq!(position.maneuvers_left, BASE_MANEUVERS);
    position.reserve[ROJO] = 0;
    assert_eq!(
        refused(&mut position, "enter b1 NE"),
        TanquesIllegal::NoReserve
    );
}

#[test]
fn a_maneuver_blocked_by_a_tank() {
    let mut position = fixture(
        &[
            (ROJO, "d6", Facing::E),
            (ROJO, "c5", Facing::NE),
            (AZUL, "f6", Facing::W),
        ],
        &[],
    );
    // d6 F reaches e6; the second step would run into Azul's tank on f6.
    assert_eq!(
        refused(&mut position, "d6 FF"),
        TanquesIllegal::Blocked("e6".into(), "f6".into())
    );
    // c5 faces d6, where Rojo's own tank stands.
    assert_eq!(
        refused(&mut position, "c5 F"),
        TanquesIllegal::Blocked("c5".into(), "d6".into())
    );
    let moves = listed(&position);
    assert!(moves.contains(&"d6 F".to_owned()));
    assert!(!moves.contains(&"d6 FF".to_owned()));
    assert!(!moves.iter().any(|mv| mv.starts_with("c5 F")));
    play(&mut position, "d6 LF").expect("d7 is free");
    play(&mut position, "c5 F").expect("d6 is free now");
}

#[test]
fn a_maneuver_blocked_by_the_board_edge() {
    let mut position = fixture(&[(ROJO, "k6", Facing::E), (ROJO, "a1", Facing::SW)], &[]);
    assert_eq!(
        refused(&mut position, "k6 F"),
        TanquesIllegal::Edge("k6".into())
    );
    assert_eq!(
        refused(&mut position, "k6 RF"),
        TanquesIllegal::Edge("k6".into())
    );
    assert_eq!(
        refused(&mut position, "a1 LF"),
        TanquesIllegal::Edge("a1".into())
    );
    let moves = listed(&position);
    assert!(!moves.iter().any(|mv| mv.starts_with("k6 F")));
    assert!(moves.contains(&"k6 LLF".to_owned()));
    assert!(moves.contains(&"a1 RRF".to_owned()));
    play(&mut position, "a1 RRF").expect("turned back onto the board: a2");
    assert_eq!(label_of(&position, 1).as_deref(), Some("a2"));
}

#[test]
fn no_turning_on_a_swamp() {
    let mut position = fixture(
        &[
            (ROJO, "f5", Facing::NE),
            (ROJO, "e6", Facing::NE),
            (ROJO, "i5", Facing::SE),
            (AZUL, "i4", Facing::W),
        ],
        &[],
    );
    assert_eq!(BOARD.ground[usize::from(at("f5"))], Ground::Swamp);
    assert_eq!(
        refused(&mut position, "f5 L"),
        TanquesIllegal::SwampTurn("f5".into())
    );
    // Stepping off the swamp first, the tank may turn on g6.
    assert_eq!(
        board::label(BOARD.neighbours[usize::from(at("f5"))][Facing::NE as usize]),
        "g6"
    );
    // Stepping onto the swamp e7, it may not turn there.
    assert_eq!(
        refused(&mut position, "e6 FL"),
        TanquesIllegal::SwampTurn("e7".into())
    );
    let moves = listed(&position);
    assert!(moves.contains(&"f5 FL".to_owned()));
    assert!(moves.contains(&"e6 FF".to_owned()));
    assert!(
        !moves
            .iter()
            .any(|mv| mv.starts_with("f5 L") || mv.starts_with("f5 R"))
    );
    // i5 stands on a swamp facing the enemy on i4: no maneuver at all.
    assert!(!moves.iter().any(|mv| mv.starts_with("i5 ")));
    play(&mut position, "e6 LF").expect("turn on open ground, then step");
    play(&mut position, "f5 FL").expect("step off the swamp, then turn");
}

#[test]
fn maneuver_letter_limits_and_once_per_turn() {
    let mut position = fixture(&[(ROJO, "c6", Facing::E)], &[]);
    assert_eq!(
        refused(&mut position, "c6 FFF"),
        TanquesIllegal::TooManyForward
    );
    assert_eq!(
        refused(&mut position, "c6 LRL"),
        TanquesIllegal::TooManyTurns
    );
    let empty = Action::Maneuver {
        cell: cell("c6"),
        actions: Vec::new(),
    };
    assert_eq!(
        position.check(&empty),
        Err(TanquesIllegal::EmptyManeuver.into())
    );
    // Far enough from the edge and with no swamp on its way, a tank has every one of the
    // 54 sequences (6 with no step, 17 with one, 31 with two).
    let maneuvers = listed(&position)
        .into_iter()
        .filter(|mv| mv.starts_with("c6 "))
        .count();
    assert_eq!(maneuvers, 54);
    play(&mut position, "c6 LFRF").expect("a full maneuver");
    let moved = label_of(&position, 0).expect("on the board");
    assert_eq!(
        refused(&mut position, &format!("{moved} F")),
        TanquesIllegal::AlreadyManeuvered(moved.clone())
    );
    assert_eq!(
        position.check(&Tanques::parse_notation("e5 F").expect("notation")),
        Err(Illegal::NoOwnPiece("e5".into()))
    );
}

#[test]
fn allowance_is_three_plus_urban_counted_at_the_start_of_the_turn() {
    let tanks = [
        (ROJO, "a2", Facing::NE),
        (ROJO, "b2", Facing::NE),
        (ROJO, "c2", Facing::NE),
        (ROJO, "d2", Facing::NE),
        (ROJO, "e2", Facing::NE),
        (ROJO, "e6", Facing::E),
        (AZUL, "c10", Facing::SW),
    ];
    let mut position = fixture(&tanks, &[("c9", ROJO)]);
    assert_eq!(position.maneuvers_left, BASE_MANEUVERS + 1);
    // The first maneuver takes f6: the allowance of this turn stays 4.
    let effects = play(&mut position, "e6 F").expect("into f6");
    assert!(effects.contains(&Effect::ControlChanged {
        at: cell("f6"),
        seat: ROJO,
    }));
    for label in ["a2", "b2", "c2"] {
        play(&mut position, &format!("{label} F")).expect("within the allowance");
    }
    assert_eq!(position.maneuvers_left, 0);
    assert_eq!(
        refused(&mut position, "d2 L"),
        TanquesIllegal::NoManeuversLeft
    );
    assert!(!listed(&position).iter().any(|mv| mv.starts_with("d2")));
    // Rojo ends; the attack phase has nothing to attack and passes by itself.
    let effects = play(&mut position, "end").expect("end of movement");
    assert!(effects.contains(&Effect::Passed { seat: ROJO }));
    assert_eq!(
        (position.to_move, position.phase),
        (AZUL, TankPhase::Movement)
    );
    play(&mut position, "end").expect("Azul ends movement");
    assert_eq!((position.to_move, position.round), (ROJO, 2));
    assert_eq!(position.maneuvers_left, BASE_MANEUVERS + 2);
    let TanquesStatus { maneuvers_left, .. } = status(&position);
    assert_eq!(maneuvers_left, 5);
}

fn status(position: &Tanques) -> TanquesStatus {
    match position.view(Sight::Everything).status {
        Status::Tanques(status) => status,
        other => panic!("not a tanques status: {other:?}"),
    }
}

/// The hexes around f6, in facing order from E.
const AROUND_F6: [&str; 6] = ["g6", "f7", "e7", "e6", "e5", "f5"];

/// Rojo's attack phase with `attackers` tanks around Azul's tank on f6 (on the first hexes of
/// [`AROUND_F6`]), each facing it, and the next roll showing `die`.
fn surrounded(attackers: usize, die: u8) -> Tanques {
    let mut tanks = vec![(AZUL, "f6", Facing::SW)];
    for (facing, label) in Facing::ALL.into_iter().zip(AROUND_F6).take(attackers) {
        assert_eq!(
            BOARD.neighbours[usize::from(at("f6"))][facing as usize],
            at(label)
        );
        tanks.push((ROJO, label, facing.left().left().left()));
    }
    let mut position = fixture(&tanks, &[]);
    play(&mut position, "end").expect("to the attack phase");
    assert_eq!(position.phase, TankPhase::Attack);
    position.rolls = roll_index(die);
    position
}

#[test]
fn each_table_column_at_its_threshold_die() {
    for attackers in 1..=6 {
        let column = attackers.min(4) as u8;
        let threshold = 6 - column;
        for die in 1..=6 {
            let mut position = surrounded(attackers, die);
            let mut names: Vec<String> = ids(ROJO)
                .take(attackers)
                .filter_map(|id| label_of(&position, id))
                .collect();
            names.sort_by_key(|label| at(label));
            let first = position.board[usize::from(at(&names[0]))];
            let text = format!("attack f6 from {}", names.join(" "));
            assert!(listed(&position).contains(&text), "{text}");
            let effects = play(&mut position, &text).expect("a legal attack");
            let wins = die >= threshold;
            assert_eq!(
                effects[0],
                Effect::Dice {
                    index: roll_index(die),
                    roll: die,
                    column,
                    attacker_wins: wins,
                },
                "{attackers} attackers, die {die}"
            );
            let removed = if wins { "f6" } else { names[0].as_str() };
            assert_eq!(
                effects[1],
                Effect::Removed {
                    piece: PieceId(u32::from(if wins { 12 } else { first })),
                    at: cell(removed),
                    cause: RemovalCause::Destroyed,
                }
            );
        }
    }
}

#[test]
fn the_table_by_rule_book() {
    // rules.md's table, rows die 1–6, columns n = 1, 2, 3, 4+.
    let table = ["DDDD", "DDDA", "DDAA", "DAAA", "AAAA", "AAAA"];
    for (die, row) in (1..=6).zip(table) {
        for (column, cell) in (1..=4).zip(row.chars()) {
            assert_eq!(
                attacker_wins(column, die),
                cell == 'A',
                "die {die}, n {column}"
            );
        }
    }
}

#[test]
fn advance_keeps_facing_and_takes_control() {
    let mut position = fixture(
        &[
            (AZUL, "f6", Facing::SW),
            (ROJO, "e6", Facing::E),
            (ROJO, "f5", Facing::NW),
        ],
        &[("f6", AZUL)],
    );
    play(&mut position, "end").expect("to the attack phase");
    position.rolls = roll_index(5);
    let effects = play(&mut position, "attack f6 from e6 f5 advance f5").expect("legal");
    assert!(matches!(
        effects[0],
        Effect::Dice {
            attacker_wins: true,
            ..
        }
    ));
    assert!(effects.contains(&Effect::ControlChanged {
        at: cell("f6"),
        seat: ROJO,
    }));
    let advanced = position.board[usize::from(at("f6"))];
    assert_eq!(position.tanks[usize::from(advanced)].facing, Facing::NW);
    assert_eq!(position.board[usize::from(at("f5"))], EMPTY);
    assert!(
        status(&position)
            .control
            .contains(&(cell("f6"), Some(ROJO)))
    );
    let view = position.view(Sight::Of(Viewer::Spectator));
    let piece = view
        .pieces
        .iter()
        .find(|piece| piece.cell == Some(cell("f6")))
        .expect("the advanced tank");
    assert!(piece.moved);
    assert_eq!(piece.facing, Some(Facing::NW));
    assert_eq!(view.captured.len(), 1);
}

#[test]
fn casualty_choice_is_honoured() {
    let fresh = || {
        let mut position = surrounded(2, 1);
        assert_eq!(label_of(&position, 0).as_deref(), Some("g6"));
        assert_eq!(label_of(&position, 1).as_deref(), Some("f7"));
        position.rolls = roll_index(1);
        position
    };
    let mut position = fresh();
    play(&mut position, "attack f6 from g6 f7 casualty f7").expect("legal");
    assert_eq!(label_of(&position, 0).as_deref(), Some("g6"));
    assert_eq!(label_of(&position, 1), None);
    // Without a choice the first attacker named is lost, in the order given.
    let mut position = fresh();
    play(&mut position, "attack f6 from f7 g6").expect("legal");
    assert_eq!(label_of(&position, 1), None);
    let mut position = fresh();
    play(&mut position, "attack f6 from g6 f7").expect("legal");
    assert_eq!(label_of(&position, 0), None);
    let mut position = fresh();
    assert_eq!(
        refused(&mut position, "attack f6 from g6 casualty f7"),
        TanquesIllegal::NotAnAttacker("casualty", "f7".into())
    );
    assert_eq!(
        refused(&mut position, "attack f6 from g6 advance f7"),
        TanquesIllegal::NotAnAttacker("advancing tank", "f7".into())
    );
}

#[test]
fn canonical_attack_notation() {
    let position = surrounded(2, 1);
    let check = |text: &str| {
        let mv = position
            .check(&Tanques::parse_notation(text).expect("notation"))
            .expect("legal");
        position.notation(mv)
    };
    assert_eq!(check("attack f6 from g6 f7"), "attack f6 from g6 f7");
    assert_eq!(
        check("attack f6 from f7 g6"),
        "attack f6 from g6 f7 casualty f7"
    );
    assert_eq!(
        check("attack f6 from f7 g6 advance g6 casualty g6"),
        "attack f6 from g6 f7 advance g6"
    );
    assert_eq!(
        listed(&position),
        [
            "attack f6 from g6",
            "attack f6 from f7",
            "attack f6 from g6 f7",
            "end"
        ]
    );
}

#[test]
fn a_tank_attacking_twice_is_refused() {
    let mut position = fixture(
        &[
            (ROJO, "e6", Facing::E),
            (ROJO, "f7", Facing::SW),
            (ROJO, "g7", Facing::SW),
            (AZUL, "f6", Facing::W),
            (AZUL, "g6", Facing::W),
        ],
        &[],
    );
    play(&mut position, "end").expect("to the attack phase");
    position.rolls = roll_index(1);
    play(&mut position, "attack f6 from e6 f7 casualty f7").expect("legal");
    assert_eq!(label_of(&position, 0).as_deref(), Some("e6"));
    assert_eq!(label_of(&position, 1), None);
    assert_eq!(
        refused(&mut position, "attack f6 from e6"),
        TanquesIllegal::AlreadyAttacked("e6".into())
    );
    assert_eq!(status(&position).attacked, [cell("e6")]);
    assert_eq!(listed(&position), ["attack g6 from g7", "end"]);
    play(&mut position, "attack g6 from g7").expect("g7 has not attacked");
    // Nothing can attack any more: the phase passes to Azul by itself.
    assert_eq!(position.to_move, AZUL);
}

#[test]
fn attack_targets_must_be_adjacent_faced_enemies() {
    let mut position = fixture(
        &[
            (ROJO, "e6", Facing::E),
            (ROJO, "d6", Facing::E),
            (ROJO, "f7", Facing::NE),
            (AZUL, "f6", Facing::W),
        ],
        &[],
    );
    assert_eq!(
        refused(&mut position, "attack f6 from e6"),
        TanquesIllegal::NotAttackPhase
    );
    play(&mut position, "end").expect("to the attack phase");
    for (text, illegal) in [
        (
            "attack f6 from d6",
            TanquesIllegal::NotAdjacent("d6".into(), "f6".into()),
        ),
        (
            "attack f6 from f7",
            TanquesIllegal::NotFacing("f7".into(), "f6".into()),
        ),
        (
            "attack f6 from e6 e6",
            TanquesIllegal::DuplicateAttacker("e6".into()),
        ),
        ("attack e6 from d6", TanquesIllegal::OwnTarget("e6".into())),
        ("attack g6 from e6", TanquesIllegal::NoTarget("g6".into())),
        ("e6 F", TanquesIllegal::NotMovementPhase),
        ("enter a1 NE", TanquesIllegal::NotMovementPhase),
    ] {
        assert_eq!(refused(&mut position, text), illegal, "{text}");
    }
    let no_attackers = Action::Attack {
        target: cell("f6"),
        attackers: Vec::new(),
        advance: None,
        casualty: None,
    };
    assert_eq!(
        position.check(&no_attackers),
        Err(TanquesIllegal::NoAttackers.into())
    );
    assert_eq!(
        play(&mut position, "attack f6 from f5"),
        Err(Illegal::NoOwnPiece("f5".into()))
    );
}

#[test]
fn round_12_leads_to_the_final_phase_and_two_passes_end_it() {
    let mut position = fixture(
        &[(ROJO, "e6", Facing::E), (AZUL, "f6", Facing::W)],
        &[("c4", ROJO)],
    );
    position.begin_turn(AZUL, ROUNDS, &mut Vec::new());
    play(&mut position, "end").expect("Azul's last movement phase");
    let effects = play(&mut position, "end").expect("Azul's last attack phase");
    assert_eq!(
        effects,
        [Effect::PhaseChanged {
            seat: ROJO,
            round: FINAL_ROUND,
            phase: TankPhase::Final,
        }]
    );
    assert!(
        listed(&position)
            .iter()
            .all(|mv| mv == "end" || mv.starts_with("attack"))
    );
    assert_eq!(refused(&mut position, "e6 F"), TanquesIllegal::FinalPhase);
    play(&mut position, "end").expect("Rojo does not attack");
    assert_eq!(status(&position).final_turns_without_attack, 1);
    assert_eq!(position.outcome(), None);
    let effects = play(&mut position, "end").expect("Azul does not attack");
    let outcome = Outcome::win(ROJO, EndReason::MostUrban);
    assert_eq!(effects, [Effect::Ended(outcome)]);
    assert_eq!(position.outcome(), Some(outcome));
    assert!(listed(&position).is_empty());
    assert_eq!(refused(&mut position, "end"), TanquesIllegal::GameOver);
}

#[test]
fn an_attack_in_the_final_phase_restarts_the_count() {
    let mut position = fixture(
        &[
            (ROJO, "e6", Facing::E),
            (ROJO, "g7", Facing::SW),
            (AZUL, "f6", Facing::W),
            (AZUL, "g6", Facing::W),
        ],
        &[],
    );
    position.quiet_final_turns = 1;
    position.begin_turn(ROJO, FINAL_ROUND, &mut Vec::new());
    position.rolls = roll_index(1);
    // Rojo's attack fails and loses e6, so Azul's tanks face nothing.
    play(&mut position, "attack f6 from e6").expect("legal");
    let effects = play(&mut position, "end").expect("Rojo ends its final turn");
    assert_eq!(
        effects,
        [
            Effect::PhaseChanged {
                seat: AZUL,
                round: FINAL_ROUND,
                phase: TankPhase::Final,
            },
            Effect::Passed { seat: AZUL },
            Effect::PhaseChanged {
                seat: ROJO,
                round: FINAL_ROUND,
                phase: TankPhase::Final,
            },
        ]
    );
    // Rojo's attack restarted the count: only Azul's passed turn counts so far.
    assert_eq!(status(&position).final_turns_without_attack, 1);
    assert_eq!(listed(&position), ["attack g6 from g7", "end"]);
    let effects = play(&mut position, "end").expect("Rojo stops");
    // Urban hexes 0–0, tanks 11–12.
    assert_eq!(
        effects,
        [Effect::Ended(Outcome::win(AZUL, EndReason::MoreTanks))]
    );
}

#[test]
fn nothing_to_do_passes_by_itself_to_the_end() {
    let mut position = fixture(&[(ROJO, "c2", Facing::NE)], &[]);
    for tank in &mut position.tanks {
        if tank.hex == RESERVE {
            tank.hex = GONE;
        }
    }
    position.reserve = BySeat([0, 0]);
    position.begin_turn(AZUL, ROUNDS, &mut Vec::new());
    let mut effects = Vec::new();
    position.pass_forced(&mut effects);
    let changed = |seat, round, phase| Effect::PhaseChanged { seat, round, phase };
    assert_eq!(
        effects,
        [
            Effect::Passed { seat: AZUL },
            changed(AZUL, ROUNDS, TankPhase::Attack),
            Effect::Passed { seat: AZUL },
            changed(ROJO, FINAL_ROUND, TankPhase::Final),
            Effect::Passed { seat: ROJO },
            changed(AZUL, FINAL_ROUND, TankPhase::Final),
            Effect::Passed { seat: AZUL },
            Effect::Ended(Outcome::win(ROJO, EndReason::MoreTanks)),
        ]
    );
}

#[test]
fn tie_breaks() {
    let finish = |position: &mut Tanques| {
        position.finish(&mut Vec::new());
        position.outcome().expect("finished")
    };
    // More urban hexes wins, whatever the tanks.
    let mut position = fixture(&[], &[("c4", AZUL), ("f6", AZUL), ("g8", ROJO)]);
    position.tanks[12].hex = GONE;
    assert_eq!(
        finish(&mut position),
        Outcome::win(AZUL, EndReason::MostUrban)
    );
    // Urban hexes equal: more tanks left, reserve included.
    let mut position = fixture(&[(ROJO, "c2", Facing::NE)], &[("c4", AZUL), ("g8", ROJO)]);
    position.tanks[12].hex = GONE;
    assert_eq!(
        finish(&mut position),
        Outcome::win(ROJO, EndReason::MoreTanks)
    );
    position.outcome = None;
    position.tanks[0].hex = GONE;
    position.board[usize::from(at("c2"))] = EMPTY;
    // Equal again: a draw.
    assert_eq!(finish(&mut position), Outcome::draw(EndReason::MoreTanks));
}

#[test]
fn views_carry_the_commitment_never_the_seed() {
    let mut game = Match::<Tanques>::new(seed());
    let commitment = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";
    let seed_hex = dice::hex(&seed().0);
    for viewer in [
        Viewer::Player(ROJO),
        Viewer::Player(AZUL),
        Viewer::Spectator,
    ] {
        let view = game.view(viewer);
        let Status::Tanques(status) = &view.status else {
            panic!("a tanques status");
        };
        assert_eq!(status.dice_commitment, commitment);
        assert!(!format!("{view:?}").contains(&seed_hex));
        assert_eq!(view.pieces.len(), 24);
        assert!(
            view.pieces
                .iter()
                .all(|piece| piece.cell.is_none() && piece.revealed)
        );
    }
    assert!(!format!("{game:?}").contains(&seed_hex));
    game.play(
        ROJO,
        &Tanques::parse_notation("enter c1 NE").expect("notation"),
    )
    .expect("legal");
    let view = game.view(Viewer::Spectator);
    let piece = &view.pieces[0];
    assert_eq!(
        (piece.cell, piece.facing),
        (Some(cell("c1")), Some(Facing::NE))
    );
    assert_eq!(piece.kind, Some(KindId(0)));
}

/// The formula of rules.md written out plainly, independent of the engine's code.
fn plain_roll(seed: &[u8; 32], k: u64) -> u8 {
    let mut input = seed.to_vec();
    input.extend_from_slice(&k.to_be_bytes());
    let mut h = Sha256::digest(&input).to_vec();
    loop {
        for &b in &h {
            if b < 252 {
                return 1 + b % 6;
            }
        }
        h = Sha256::digest(&h).to_vec();
    }
}

#[test]
fn dice_vectors() {
    let seed = seed();
    let engine: Vec<u8> = (0..20).map(|k| dice::roll(&seed, k)).collect();
    let plain: Vec<u8> = (0..20).map(|k| plain_roll(&seed.0, k)).collect();
    assert_eq!(engine, plain);
    assert_eq!(engine, ROLLS);
    // Rolls whose first byte (253, then 252) is skipped, as docs/tanques-dice.md lists them.
    assert_eq!(dice::roll(&seed, 58), 4);
    assert_eq!(plain_roll(&seed.0, 58), 4);
    assert_eq!(dice::roll(&seed, 716), 5);
    assert_eq!(plain_roll(&seed.0, 716), 5);
    assert!(Sha256::digest([&seed.0[..], &58u64.to_be_bytes()].concat())[0] >= 252);
    assert_eq!(
        dice::hex(&dice::commitment(&seed)),
        dice::hex(&Sha256::digest(seed.0))
    );
    // Another seed, and rolls far into a game.
    let other = Seed([0xA5; 32]);
    for k in [0, 1, 2, 255, 256, 1 << 40] {
        assert_eq!(dice::roll(&other, k), plain_roll(&other.0, k), "roll {k}");
    }
}

#[test]
fn dice_rehash_when_no_byte_is_fair() {
    // No byte of [255; 32] is below 252: the face comes from SHA-256 of it.
    let expected = Sha256::digest([255u8; 32])
        .iter()
        .find(|&&b| b < 252)
        .map(|b| 1 + b % 6);
    assert_eq!(Some(dice::face([255; 32])), expected);
    let mut fair = [255; 32];
    fair[31] = 9;
    assert_eq!(dice::face(fair), 4);
}

#[test]
fn the_attack_rolls_the_game_dice_in_order() {
    let mut position = surrounded(1, 2);
    position.rolls = 0;
    let effects = play(&mut position, "attack f6 from g6").expect("legal");
    assert_eq!(
        effects[0],
        Effect::Dice {
            index: 0,
            roll: ROLLS[0],
            column: 1,
            attacker_wins: false,
        }
    );
    assert_eq!(status(&position).rolls, 1);
}
