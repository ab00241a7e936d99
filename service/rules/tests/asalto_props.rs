//! Properties of `asalto` and `tacticas` over random games: they end, the listed actions are
//! exactly the accepted ones, and position text round-trips.

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::asalto::{Asalto, Siege, TURN_LIMIT, Tacticas, Variant};
use trinchera_rules::playout::random_start;
use trinchera_rules::{
    Action, Cell, EndReason, Game, PositionText, Rules, Seat, Seed, Setup, Status, Viewer, catalog,
};

/// More actions than any game can last: every turn without progress is followed within
/// [`TURN_LIMIT`] turns by a capture, a huff or a rebel advance, of which there are fewer
/// than 24 + 2 + 24 · 6; a turn is at most two actions (huff and step).
const MAX_ACTIONS: u64 = (24 + 2 + 24 * 6 + 1) * TURN_LIMIT as u64 * 2;

/// A game of ruleset `id` after a random setup of the officers.
fn new_game(id: &str, seed: u64) -> Box<dyn Game> {
    let ruleset = catalog::ruleset(id).expect("registered");
    let mut game = (ruleset.new_game)(Seed([seed as u8; 32]));
    let zone = game
        .description()
        .setup_zone(Seat::Second)
        .expect("the officers set up")
        .clone();
    game.submit_setup(Setup::random(&zone, seed))
        .expect("a random setup is accepted");
    game
}

/// A random action of any Asalto shape, on or near the board.
fn random_action(rng: &mut ChaCha8Rng) -> Action {
    let cell = |rng: &mut ChaCha8Rng| Cell::new(rng.random_range(-1..8), rng.random_range(-1..8));
    match rng.random_range(0..4) {
        0 => Action::Step {
            from: cell(rng),
            to: cell(rng),
        },
        1 => {
            let from = cell(rng);
            let landings = (0..rng.random_range(0..4)).map(|_| cell(rng)).collect();
            Action::Jump { from, landings }
        }
        2 => Action::Huff { officer: cell(rng) },
        _ => Action::EndPhase,
    }
}

/// A near miss of a listed action: one cell moved, or a jump made longer.
fn near_miss(rng: &mut ChaCha8Rng, action: &Action) -> Action {
    let mut nudge = |cell: Cell| {
        Cell::new(
            cell.x + rng.random_range(-2..=2),
            cell.y + rng.random_range(-2..=2),
        )
    };
    match action {
        &Action::Step { from, to } => Action::Step {
            from,
            to: nudge(to),
        },
        Action::Jump { from, landings } => {
            let mut landings = landings.clone();
            let last = *landings.last().unwrap_or(from);
            landings.push(nudge(last));
            Action::Jump {
                from: *from,
                landings,
            }
        }
        &Action::Huff { officer } => Action::Huff {
            officer: nudge(officer),
        },
        other => other.clone(),
    }
}

fn quiet_turns(game: &dyn Game) -> u32 {
    match game.view(Viewer::Spectator).status {
        Status::Asalto(status) => status.turns_without_progress,
        other => panic!("not an Asalto status: {other:?}"),
    }
}

/// Plays a random game of `id` through the served interface, checking every turn that the
/// listed actions are accepted with their notation and that random unlisted ones are refused
/// without changing anything.
fn listed_equals_accepted(id: &str, seed: u64) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = new_game(id, seed);
    let mut played = 0;
    while let Some(seat) = game.to_move() {
        let legal = game.legal_actions();
        prop_assert!(!legal.is_empty(), "a seat to move has an action");
        for listed in &legal {
            prop_assert_eq!(
                game.parse_notation(&listed.notation),
                Ok(listed.action.clone())
            );
            let mut copy = game.clone_box();
            let done = copy.play(seat, &listed.action);
            prop_assert_eq!(done.map(|p| p.notation), Ok(listed.notation.clone()));
            prop_assert!(copy.play(!seat, &listed.action).is_err());
        }
        let before = game.view(Viewer::Spectator);
        for attempt in 0..16 {
            let action = if attempt % 2 == 0 {
                random_action(&mut rng)
            } else {
                let target = rng.random_range(0..legal.len());
                near_miss(&mut rng, &legal[target].action)
            };
            if legal.iter().any(|listed| listed.action == action) {
                continue;
            }
            prop_assert!(game.play(seat, &action).is_err(), "{action:?} accepted");
            prop_assert_eq!(&game.view(Viewer::Spectator), &before);
        }
        prop_assert_eq!(game.legal_actions(), legal.clone());
        let pick = &legal[rng.random_range(0..legal.len())];
        game.play(seat, &pick.action)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert!(quiet_turns(game.as_ref()) <= TURN_LIMIT);
        played += 1;
        prop_assert!(played <= MAX_ACTIONS);
    }
    prop_assert!(game.outcome().is_some());
    Ok(())
}

/// Plays a random game with the engine directly, checking at every position that its text
/// reads back to the same text and the same moves (but the huffs, which text does not carry).
fn text_round_trips<V: Variant>(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position: Siege<V> = random_start(seed);
    let (mut moves, mut effects) = (Vec::new(), Vec::new());
    let notations = |position: &Siege<V>, moves: &mut Vec<_>| {
        moves.clear();
        position.legal_moves(moves);
        let mut texts: Vec<String> = moves.iter().map(|&mv| position.notation(mv)).collect();
        texts.sort();
        texts
    };
    let mut played = 0;
    loop {
        let text = position.position_text();
        let read = Siege::<V>::from_position_text(&text)
            .map_err(|e| TestCaseError::fail(format!("{text}: {e}")))?;
        prop_assert_eq!(read.position_text(), text.clone());
        let mut expected = notations(&position, &mut moves);
        expected.retain(|notation| !notation.starts_with("huff"));
        let drawn = position
            .outcome()
            .is_some_and(|outcome| outcome.reason == EndReason::MoveLimit);
        if !drawn {
            prop_assert_eq!(notations(&read, &mut moves), expected, "{}", text);
        }
        if position.outcome().is_some() {
            break;
        }
        moves.clear();
        position.legal_moves(&mut moves);
        let mv = moves[rng.random_range(0..moves.len())];
        effects.clear();
        position.play_unchecked(mv, &mut effects);
        played += 1;
        prop_assert!(played <= MAX_ACTIONS);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn asalto_lists_exactly_what_it_accepts(seed in any::<u64>()) {
        listed_equals_accepted("asalto", seed)?;
    }

    #[test]
    fn tacticas_lists_exactly_what_it_accepts(seed in any::<u64>()) {
        listed_equals_accepted("tacticas", seed)?;
    }

    #[test]
    fn asalto_position_text_round_trips(seed in any::<u64>()) {
        text_round_trips::<Asalto>(seed)?;
    }

    #[test]
    fn tacticas_position_text_round_trips(seed in any::<u64>()) {
        text_round_trips::<Tacticas>(seed)?;
    }
}

/// Many whole random games, all the way to a result.
#[test]
fn random_games_end_within_the_limits() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let (mut moves, mut effects) = (Vec::new(), Vec::new());
    for seed in 0..2_000 {
        let mut asalto: Siege<Asalto> = random_start(seed);
        let played = trinchera_rules::playout::random_playout(
            &mut asalto,
            &mut rng,
            MAX_ACTIONS,
            &mut moves,
            &mut effects,
        );
        assert!(asalto.outcome().is_some(), "seed {seed}: {played} actions");
        let mut tacticas: Siege<Tacticas> = random_start(seed);
        trinchera_rules::playout::random_playout(
            &mut tacticas,
            &mut rng,
            MAX_ACTIONS,
            &mut moves,
            &mut effects,
        );
        assert!(tacticas.outcome().is_some(), "seed {seed}");
    }
}
