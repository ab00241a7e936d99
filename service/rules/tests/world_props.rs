//! Determinization (`Determinize::from_view`), proptest-driven at random points of random
//! games of every ruleset:
//! - the real state is one of the positions its views rebuild: the full view (every kind
//!   known) rebuilds a position with the same views and legal actions;
//! - a guess consistent with a seat's view (the hidden kinds shuffled among the hidden pieces,
//!   immovable kinds only onto pieces that never moved) rebuilds a position that the seat
//!   sees exactly as it saw the real one, where the seat to move has exactly the listed
//!   actions.

use proptest::prelude::*;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use trinchera_rules::army::{Army, Castillos, Clasico, Frente};
use trinchera_rules::asalto::{Asalto, Siege, Tacticas};
use trinchera_rules::playout::random_start;
use trinchera_rules::tanques::Tanques;
use trinchera_rules::{Action, Determinize, Rules, Seed, Sight, View, Viewer};

/// A random position of `R` after up to `plies` random moves from a random start; `None`
/// if the game ended first. Half the moves undo the mover's previous step when they can, so
/// that repetition limits are often reached.
fn random_position<R: Rules>(seed: u64, plies: u32) -> Option<R> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut position: R = random_start(seed);
    let (mut moves, mut effects) = (Vec::new(), Vec::new());
    let mut last: [Option<Action>; 2] = [None, None];
    for _ in 0..plies {
        moves.clear();
        position.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        let seat = position.to_move().index();
        let back = match last[seat] {
            Some(Action::Step { from, to }) if rng.random_bool(0.5) => moves
                .iter()
                .copied()
                .find(|&mv| position.action(mv) == Action::Step { from: to, to: from }),
            _ => None,
        };
        let mv = back.unwrap_or_else(|| moves[rng.random_range(0..moves.len())]);
        last[seat] = Some(position.action(mv));
        position.play_unchecked(mv, &mut effects);
    }
    position.outcome().is_none().then_some(position)
}

fn legal<R: Rules>(position: &R) -> Vec<Action> {
    let mut moves = Vec::new();
    position.legal_moves(&mut moves);
    moves.into_iter().map(|mv| position.action(mv)).collect()
}

fn sorted(mut actions: Vec<Action>) -> Vec<String> {
    let mut texts: Vec<String> = actions.drain(..).map(|a| format!("{a:?}")).collect();
    texts.sort();
    texts
}

/// Fills every kind `seat` cannot see in its view with a shuffle of the true hidden kinds,
/// immovable ones only onto pieces that never moved.
fn consistent_guess(
    seen: &View,
    everything: &View,
    rng: &mut ChaCha8Rng,
    movable: impl Fn(u8) -> bool,
) -> View {
    let truth = |id| {
        everything
            .pieces
            .iter()
            .chain(&everything.captured)
            .find(|p| p.id == id)
            .and_then(|p| p.kind)
            .expect("the full view knows every kind")
    };
    let mut guess = seen.clone();
    let hidden: Vec<_> = guess
        .pieces
        .iter_mut()
        .chain(guess.captured.iter_mut())
        .filter(|p| p.kind.is_none())
        .collect();
    let kinds: Vec<_> = hidden.iter().map(|p| truth(p.id)).collect();
    let (mut fixed, mut free): (Vec<_>, Vec<_>) = kinds.into_iter().partition(|k| !movable(k.0));
    free.shuffle(rng);
    let (mut unmoved, moved): (Vec<_>, Vec<_>) = hidden.into_iter().partition(|p| !p.moved);
    unmoved.shuffle(rng);
    fixed.shuffle(rng);
    // Immovable kinds first, onto unmoved pieces; the rest takes what is left.
    let mut order = unmoved.into_iter().chain(moved);
    for kind in fixed.drain(..).chain(free) {
        order.next().expect("as many pieces as kinds").kind = Some(kind);
    }
    guess
}

fn check<R: Determinize>(
    seed: u64,
    plies: u32,
    movable: impl Fn(u8) -> bool,
) -> Result<(), TestCaseError> {
    let Some(real) = random_position::<R>(seed, plies) else {
        return Ok(());
    };
    let mover = real.to_move();
    let listed = legal(&real);
    let guessed_seed = Seed([seed as u8; 32]);
    // The real state is one of the determinizations.
    let everything = real.view(Sight::Everything);
    let rebuilt = R::from_view(&everything, &listed, guessed_seed).expect("the full view rebuilds");
    prop_assert_eq!(rebuilt.view(Sight::Everything), everything.clone());
    for viewer in [
        Viewer::Player(mover),
        Viewer::Player(!mover),
        Viewer::Spectator,
    ] {
        prop_assert_eq!(
            rebuilt.view(Sight::Of(viewer)),
            real.view(Sight::Of(viewer))
        );
    }
    prop_assert_eq!(sorted(legal(&rebuilt)), sorted(listed.clone()));
    // A guess consistent with the mover's view rebuilds what the mover sees.
    let sight = Sight::Of(Viewer::Player(mover));
    let seen = real.view(sight);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x5eed);
    let guess = consistent_guess(&seen, &everything, &mut rng, movable);
    let world = R::from_view(&guess, &listed, guessed_seed).expect("a consistent guess rebuilds");
    prop_assert_eq!(world.view(sight), seen);
    prop_assert_eq!(sorted(legal(&world)), sorted(listed));
    Ok(())
}

fn army_movable<V: trinchera_rules::army::Variant>(kind: u8) -> bool {
    V::spec().kind(kind).mobility != trinchera_rules::army::spec::Mobility::Immovable
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn frente_views_rebuild(seed in any::<u64>(), plies in 0u32..400) {
        check::<Army<Frente>>(seed, plies, army_movable::<Frente>)?;
    }

    #[test]
    fn clasico_views_rebuild(seed in any::<u64>(), plies in 0u32..400) {
        check::<Army<Clasico>>(seed, plies, army_movable::<Clasico>)?;
    }

    #[test]
    fn castillos_views_rebuild(seed in any::<u64>(), plies in 0u32..400) {
        check::<Army<Castillos>>(seed, plies, army_movable::<Castillos>)?;
    }

    #[test]
    fn asalto_views_rebuild(seed in any::<u64>(), plies in 0u32..120) {
        check::<Siege<Asalto>>(seed, plies, |_| true)?;
    }

    #[test]
    fn tacticas_views_rebuild(seed in any::<u64>(), plies in 0u32..120) {
        check::<Siege<Tacticas>>(seed, plies, |_| true)?;
    }

    #[test]
    fn tanques_views_rebuild(seed in any::<u64>(), plies in 0u32..300) {
        check::<Tanques>(seed, plies, |_| true)?;
    }
}
