//! Properties of `tanques` over random games: every game ends after round 12's final
//! phase; listed actions (and the documented attack variants) are exactly what `check`
//! accepts; refused actions change nothing; notation round-trips.

use proptest::prelude::*;
use rand::seq::IndexedRandom;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::tanques::{FINAL_ROUND, Tanques};
use trinchera_rules::{
    Action, Cell, EndReason, Facing, Game, LegalAction, Match, Rules, Seat, Seed, Status,
    TankAction, TankPhase, TanquesStatus, View, Viewer, catalog,
};

/// A new game with dice seed derived from `seed`.
fn new_game(seed: u64) -> Match<Tanques> {
    let mut bytes = [0; 32];
    bytes[..8].copy_from_slice(&seed.to_be_bytes());
    Match::new(Seed(bytes))
}

fn status(view: &View) -> &TanquesStatus {
    match &view.status {
        Status::Tanques(status) => status,
        other => panic!("not a tanques status: {other:?}"),
    }
}

fn position(game: &Match<Tanques>) -> &Tanques {
    game.position().expect("tanques starts at once")
}

/// Hex distance between two axial cells.
fn distance(a: Cell, b: Cell) -> i8 {
    let (dq, dr) = (a.x - b.x, a.y - b.y);
    (dq.abs() + dr.abs() + (dq + dr).abs()) / 2
}

/// Where a listed maneuver leaves the tank on `cell` facing `facing`: a plain walk along the
/// letters (the list only holds legal paths).
fn maneuver_end(cell: Cell, facing: Facing, actions: &[TankAction]) -> (Cell, Facing) {
    actions
        .iter()
        .fold((cell, facing), |(cell, facing), action| match action {
            TankAction::Forward => {
                let (dq, dr) = facing.delta();
                (Cell::new(cell.x + dq, cell.y + dr), facing)
            }
            TankAction::TurnLeft => (cell, facing.left()),
            TankAction::TurnRight => (cell, facing.right()),
        })
}

/// A listed action: uniformly random, or (if `aggressive`) mostly an attack when there is
/// one, else mostly the maneuver that brings a tank closest to an enemy, so that random
/// games see plenty of attacks.
fn choose(
    game: &Match<Tanques>,
    legal: &[LegalAction],
    aggressive: bool,
    rng: &mut impl Rng,
) -> Action {
    if aggressive {
        let attacks: Vec<&LegalAction> = legal
            .iter()
            .filter(|listed| matches!(listed.action, Action::Attack { .. }))
            .collect();
        if !attacks.is_empty() && rng.random_bool(0.9) {
            return attacks.choose(rng).expect("not empty").action.clone();
        }
        if rng.random_bool(0.7) {
            let view = game.view(Viewer::Spectator);
            let seat = game.to_move().expect("in play");
            let enemies: Vec<Cell> = view
                .pieces
                .iter()
                .filter(|piece| piece.owner != seat)
                .filter_map(|piece| piece.cell)
                .collect();
            let score = |listed: &LegalAction| -> Option<i32> {
                let Action::Maneuver { cell, actions } = &listed.action else {
                    return None;
                };
                let facing = view
                    .pieces
                    .iter()
                    .find(|piece| piece.cell == Some(*cell))?
                    .facing?;
                let (end, facing) = maneuver_end(*cell, facing, actions);
                let (dq, dr) = facing.delta();
                let front = Cell::new(end.x + dq, end.y + dr);
                let near = enemies.iter().map(|&e| i32::from(distance(end, e))).min()?;
                Some(if enemies.contains(&front) { -10 } else { near })
            };
            let best = legal.iter().filter_map(score).min();
            let candidates: Vec<&LegalAction> = legal
                .iter()
                .filter(|listed| best.is_some() && score(listed) == best)
                .collect();
            if let Some(chosen) = candidates.choose(rng) {
                return chosen.action.clone();
            }
        }
    }
    legal
        .choose(rng)
        .expect("never an empty list in play")
        .action
        .clone()
}

/// Plays one listed action chosen by [`choose`].
fn play_random(game: &mut Match<Tanques>, aggressive: bool, rng: &mut impl Rng) {
    let seat = game.to_move().expect("in play");
    let legal = game.legal_actions();
    let action = choose(game, &legal, aggressive, rng);
    game.play(seat, &action).expect("listed actions are legal");
}

/// Reading order of cells: by row (`r`), then from the left (`q`).
fn reading_order(cell: &Cell) -> (i8, i8) {
    (cell.y, cell.x)
}

/// Every attack action the module docs promise to accept for a listed attack: any order of
/// the attackers, any advance (none or an attacker), any casualty (none or an attacker).
fn attack_variants(listed: &Action) -> Vec<Action> {
    let Action::Attack {
        target, attackers, ..
    } = listed
    else {
        return Vec::new();
    };
    let mut reversed = attackers.clone();
    reversed.reverse();
    let choices: Vec<Option<Cell>> = std::iter::once(None)
        .chain(attackers.iter().copied().map(Some))
        .collect();
    let mut variants = Vec::new();
    for order in [attackers.clone(), reversed] {
        for &advance in &choices {
            for &casualty in &choices {
                variants.push(Action::Attack {
                    target: *target,
                    attackers: order.clone(),
                    advance,
                    casualty,
                });
            }
        }
    }
    variants
}

/// Whether the module docs call `action` legal given the listed actions.
fn documented_legal(action: &Action, legal: &[LegalAction]) -> bool {
    match action {
        Action::Attack {
            target, attackers, ..
        } => {
            let mut sorted = attackers.clone();
            sorted.sort_by_key(reading_order);
            let canonical = Action::Attack {
                target: *target,
                attackers: sorted,
                advance: None,
                casualty: None,
            };
            legal.iter().any(|listed| listed.action == canonical)
        }
        _ => legal.iter().any(|listed| &listed.action == action),
    }
}

/// A random action, often close to a legal one.
fn random_action(game: &Match<Tanques>, legal: &[LegalAction], rng: &mut impl Rng) -> Action {
    let description = game.description();
    let view = game.view(Viewer::Spectator);
    let occupied: Vec<Cell> = view.pieces.iter().filter_map(|piece| piece.cell).collect();
    let cell = |rng: &mut ChaCha8Rng| -> Cell {
        match rng.random_range(0..10) {
            0 => Cell::new(rng.random_range(-7..=7), rng.random_range(-7..=7)),
            1..=5 if !occupied.is_empty() => *occupied.choose(rng).expect("not empty"),
            _ => description.board.cells.choose(rng).expect("cells").cell,
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(rng.random());
    let letters = |rng: &mut ChaCha8Rng, len: usize| -> Vec<TankAction> {
        (0..len)
            .map(|_| {
                *[
                    TankAction::Forward,
                    TankAction::TurnLeft,
                    TankAction::TurnRight,
                ]
                .choose(rng)
                .expect("three")
            })
            .collect()
    };
    let base = legal.choose(&mut rng).map(|listed| listed.action.clone());
    match rng.random_range(0..9) {
        0 => Action::Enter {
            cell: cell(&mut rng),
            facing: *Facing::ALL.choose(&mut rng).expect("six"),
        },
        1 => {
            let len = rng.random_range(0..6);
            Action::Maneuver {
                cell: cell(&mut rng),
                actions: letters(&mut rng, len),
            }
        }
        2 => {
            let attackers = (0..rng.random_range(0..4))
                .map(|_| cell(&mut rng))
                .collect();
            Action::Attack {
                target: cell(&mut rng),
                attackers,
                advance: rng.random_bool(0.3).then(|| cell(&mut rng)),
                casualty: rng.random_bool(0.3).then(|| cell(&mut rng)),
            }
        }
        3 => Action::Step {
            from: cell(&mut rng),
            to: cell(&mut rng),
        },
        // Mutations of a listed action.
        _ => match base {
            Some(Action::Maneuver {
                cell: at,
                mut actions,
            }) => {
                let extra = letters(&mut rng, 1);
                actions.extend(extra);
                Action::Maneuver { cell: at, actions }
            }
            Some(Action::Attack {
                target,
                mut attackers,
                advance,
                casualty,
            }) => {
                match rng.random_range(0..3) {
                    0 => attackers.push(cell(&mut rng)),
                    1 => attackers.push(attackers[0]),
                    _ => {
                        return Action::Attack {
                            target: cell(&mut rng),
                            attackers,
                            advance,
                            casualty,
                        };
                    }
                }
                Action::Attack {
                    target,
                    attackers,
                    advance,
                    casualty,
                }
            }
            Some(Action::Enter { facing, .. }) => Action::Enter {
                cell: cell(&mut rng),
                facing,
            },
            _ => Action::Jump {
                from: cell(&mut rng),
                landings: vec![cell(&mut rng)],
            },
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_games_end_after_the_final_phase(seed in any::<u64>()) {
        let mut game = new_game(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut last_round = 1;
        let mut actions = 0;
        while game.outcome().is_none() {
            let view = game.view(Viewer::Spectator);
            let status = status(&view);
            prop_assert!(status.round >= last_round && status.round <= FINAL_ROUND);
            prop_assert_eq!(status.round == FINAL_ROUND, status.phase == TankPhase::Final);
            last_round = status.round;
            let legal = game.legal_actions();
            prop_assert!(legal.len() >= 2, "a lone end is passed by the engine: {:?}", legal);
            prop_assert_eq!(legal.iter().filter(|l| l.action == Action::EndPhase).count(), 1);
            play_random(&mut game, seed % 4 != 0, &mut rng);
            actions += 1;
            prop_assert!(actions < 20_000, "the game does not end");
        }
        let view = game.view(Viewer::Spectator);
        let status = status(&view);
        prop_assert_eq!(status.round, FINAL_ROUND);
        prop_assert_eq!(status.phase, TankPhase::Final);
        prop_assert_eq!(status.final_turns_without_attack, 2);
        prop_assert!(game.legal_actions().is_empty());
        prop_assert_eq!(game.to_move(), None);
        // The result follows from what the view shows.
        let count = |seat: Seat| {
            let urban = status.control.iter().filter(|(_, c)| *c == Some(seat)).count();
            let tanks = view.pieces.iter().filter(|piece| piece.owner == seat).count();
            (urban, tanks)
        };
        let (first, second) = (count(Seat::First), count(Seat::Second));
        let outcome = game.outcome().expect("over");
        let expected = if first.0 != second.0 {
            (Some(if first.0 > second.0 { Seat::First } else { Seat::Second }), EndReason::MostUrban)
        } else if first.1 != second.1 {
            (Some(if first.1 > second.1 { Seat::First } else { Seat::Second }), EndReason::MoreTanks)
        } else {
            (None, EndReason::MoreTanks)
        };
        prop_assert_eq!((outcome.winner, outcome.reason), expected);
        prop_assert_eq!(view.pieces.len() + view.captured.len(), 24);
    }

    #[test]
    fn listed_actions_are_accepted_and_round_trip(seed in any::<u64>()) {
        let mut game = new_game(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut step = 0;
        while game.outcome().is_none() {
            // Every few actions, try them all: checking and playing every one is the slow part.
            if step % 7 == 0 {
                let position = position(&game);
                let mut moves = Vec::new();
                position.legal_moves(&mut moves);
                let legal = game.legal_actions();
                prop_assert_eq!(moves.len(), legal.len());
                let distinct: std::collections::HashSet<&str> =
                    legal.iter().map(|listed| listed.notation.as_str()).collect();
                prop_assert_eq!(distinct.len(), legal.len(), "listed twice");
                for (&mv, listed) in moves.iter().zip(&legal) {
                    prop_assert_eq!(position.check(&listed.action), Ok(mv));
                    let parsed = Tanques::parse_notation(&listed.notation);
                    prop_assert_eq!(parsed.as_ref(), Ok(&listed.action), "{}", listed.notation);
                    let mut next = *position;
                    next.play_unchecked(mv, &mut Vec::new());
                    prop_assert_ne!(next, *position);
                    for variant in attack_variants(&listed.action) {
                        let checked = position.check(&variant);
                        prop_assert!(checked.is_ok(), "{:?}: {:?}", variant, checked);
                        let mv = checked.expect("accepted");
                        let notation = position.notation(mv);
                        let reread = Tanques::parse_notation(&notation).expect("notation");
                        prop_assert_eq!(position.check(&reread), Ok(mv), "{}", notation);
                        let mut next = *position;
                        next.play_unchecked(mv, &mut Vec::new());
                        prop_assert_ne!(next, *position);
                    }
                }
            }
            play_random(&mut game, seed % 4 != 0, &mut rng);
            step += 1;
        }
    }

    #[test]
    fn unlisted_actions_are_refused_and_change_nothing(seed in any::<u64>()) {
        let mut game = new_game(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while game.outcome().is_none() {
            let seat = game.to_move().expect("in play");
            let legal = game.legal_actions();
            for _ in 0..3 {
                let action = random_action(&game, &legal, &mut rng);
                let before = game.view(Viewer::Spectator);
                let mut trial = game.clone();
                match trial.play(seat, &action) {
                    Ok(_) => prop_assert!(
                        documented_legal(&action, &legal) && attack_is_valid(&action),
                        "accepted but not documented as legal: {:?}",
                        action
                    ),
                    Err(_) => {
                        prop_assert!(!documented_legal(&action, &legal) || !attack_is_valid(&action),
                            "refused but listed: {:?}", action);
                        prop_assert_eq!(trial.view(Viewer::Spectator), before);
                        prop_assert_eq!(trial.legal_actions(), legal.clone());
                    }
                }
            }
            prop_assert!(game.play(!seat, &Action::EndPhase).is_err());
            play_random(&mut game, seed % 4 != 0, &mut rng);
        }
    }
}

/// Whether an attack's own choices are well formed: distinct attackers, advance and casualty
/// among them. A random attack whose canonical form is listed may still break these.
fn attack_is_valid(action: &Action) -> bool {
    match action {
        Action::Attack {
            attackers,
            advance,
            casualty,
            ..
        } => {
            let mut sorted = attackers.clone();
            sorted.sort_by_key(reading_order);
            sorted.dedup();
            sorted.len() == attackers.len()
                && [advance, casualty]
                    .into_iter()
                    .flatten()
                    .all(|cell| attackers.contains(cell))
        }
        _ => true,
    }
}

#[test]
fn tanques_is_in_the_catalog() {
    let ruleset = catalog::ruleset("tanques").expect("registered");
    assert!(ruleset.perft.is_none());
    let game = (ruleset.new_game)(Seed([3; 32]));
    assert_eq!(game.description().id, "tanques");
    assert_eq!(game.to_move(), Some(Seat::First));
    assert_eq!(game.legal_actions().len(), 37);
}
