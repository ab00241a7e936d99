//! Random playouts from random setups to the end, per ruleset, on one core.
//!
//! `actions` plays a fixed budget of actions (each one listing the legal moves and applying
//! one), starting new games as they end: its throughput is actions per second.
//! `playout` plays one whole game: its throughput is playouts per second.
//!
//! Run with `cargo bench -p trinchera-rules --bench playouts`.

use divan::Bencher;
use divan::counter::ItemsCount;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use trinchera_rules::Rules;
use trinchera_rules::army::{Army, Castillos, Clasico, Frente};
use trinchera_rules::asalto::{Asalto, Siege, Tacticas};
use trinchera_rules::playout::{random_playout, random_start};
use trinchera_rules::tanques::Tanques;

fn main() {
    divan::main();
}

/// Actions per benchmark iteration of `actions`.
const BUDGET: u64 = 10_000;

#[divan::bench(types = [Army<Frente>, Army<Clasico>, Army<Castillos>, Siege<Asalto>, Siege<Tacticas>, Tanques])]
fn actions<R: Rules>(bencher: Bencher) {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut seed = 0;
    let (mut moves, mut effects) = (Vec::new(), Vec::new());
    bencher.counter(ItemsCount::new(BUDGET)).bench_local(|| {
        let mut left = BUDGET;
        while left > 0 {
            seed += 1;
            let mut position: R = random_start(seed);
            left -= random_playout(&mut position, &mut rng, left, &mut moves, &mut effects);
        }
    });
}

#[divan::bench(types = [Army<Frente>, Army<Clasico>, Army<Castillos>, Siege<Asalto>, Siege<Tacticas>, Tanques])]
fn playout<R: Rules>(bencher: Bencher) {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut seed = 0;
    let (mut moves, mut effects) = (Vec::new(), Vec::new());
    bencher.counter(ItemsCount::new(1u32)).bench_local(|| {
        seed += 1;
        let mut position: R = random_start(seed);
        random_playout(&mut position, &mut rng, u64::MAX, &mut moves, &mut effects)
    });
}
