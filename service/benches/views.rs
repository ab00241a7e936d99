//! What one `GameView` costs the server: the rules' projection with the legal moves
//! (`seen`), its conversion to the protobuf type (`convert`) and its encoding (`encode`),
//! for the player to move in a game 20 actions after the setups, per ruleset.
//!
//! Run with `cargo bench -p trinchera-service --bench views`.

use divan::Bencher;
use prost::Message;
use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use trinchera_rules::{Seat, Setup, Viewer};
use trinchera_service::grpc::convert;
use trinchera_service::state::{GameState, Moment};

mod common;

fn main() {
    divan::main();
}

const RULESETS: [&str; 6] = [
    "frente",
    "clasico",
    "castillos",
    "asalto",
    "tacticas",
    "tanques",
];

/// A game of `ruleset` with both seats taken and set up at random, then 20 random actions.
fn game(ruleset: &str) -> (GameState, Viewer) {
    let mut state = common::seated(ruleset);
    for seat in [Seat::First, Seat::Second] {
        if let Some(zone) = state.description().setup_zone(seat) {
            let setup = Setup::random(zone, seat.index() as u64);
            state
                .submit_setup(setup, [0; 16], Moment::default())
                .expect("set up");
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..20 {
        let legal = state.game().legal_actions();
        let Some(choice) = legal.choose(&mut rng) else {
            break;
        };
        let seat = to_move(&state);
        state
            .play(seat, &choice.action, Moment::default())
            .expect("a listed action");
    }
    let seat = to_move(&state);
    (state, Viewer::Player(seat))
}

/// The seat whose turn it is.
fn to_move(state: &GameState) -> Seat {
    let view = state.game().view(Viewer::Spectator);
    view.to_move.expect("a seat to move")
}

#[divan::bench(args = RULESETS)]
fn seen(bencher: Bencher, ruleset: &str) {
    let (state, viewer) = game(ruleset);
    bencher.bench_local(|| state.seen(viewer));
}

#[divan::bench(args = RULESETS)]
fn convert(bencher: Bencher, ruleset: &str) {
    let (state, viewer) = game(ruleset);
    let seen = state.seen(viewer);
    bencher.bench_local(|| convert::game_view(&seen));
}

#[divan::bench(args = RULESETS)]
fn encode(bencher: Bencher, ruleset: &str) {
    let (state, viewer) = game(ruleset);
    let view = convert::game_view(&state.seen(viewer));
    let mut buffer = Vec::with_capacity(view.encoded_len());
    bencher.bench_local(|| {
        buffer.clear();
        view.encode(&mut buffer).expect("room");
        buffer.len()
    });
}
