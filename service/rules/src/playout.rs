//! Random playouts: the benchmark workload and a property-test driver.

use rand::{Rng, RngExt};

use crate::effect::Effect;
use crate::rules::{Rules, Seed};
use crate::seat::BySeat;
use crate::setup::Setup;

/// Plays uniformly random legal moves until the game ends or `max_moves` were played;
/// returns how many were played. `moves` and `effects` are scratch buffers.
pub fn random_playout<R: Rules>(
    position: &mut R,
    rng: &mut impl Rng,
    max_moves: u64,
    moves: &mut Vec<R::Move>,
    effects: &mut Vec<Effect>,
) -> u64 {
    let mut played = 0;
    while played < max_moves && position.outcome().is_none() {
        moves.clear();
        position.legal_moves(moves);
        let Some(&mv) = moves.get(rng.random_range(0..moves.len().max(1))) else {
            break;
        };
        effects.clear();
        position.play_unchecked(mv, effects);
        played += 1;
    }
    played
}

/// A position of `R` right after random setups of every seat that sets up, all drawn from
/// `seed`.
pub fn random_start<R: Rules>(seed: u64) -> R {
    let setups = BySeat::new_with(|seat| {
        R::description()
            .setup_zone(seat)
            .map(|zone| Setup::random(zone, seed.wrapping_add(seat.index() as u64)))
    });
    let mut dice = [0; 32];
    dice[..8].copy_from_slice(&seed.to_be_bytes());
    R::start(&setups, Seed(dice))
}
