//! What one `GameView` costs the server: the rules' projection with the legal moves
//! (`snapshot`), its conversion to the protobuf type (`convert`) and its encoding (`encode`),
//! for the player to move in a game 20 actions after the setups, per ruleset.
//!
//! Run with `cargo bench -p trinchera-service --bench views`.

use divan::Bencher;
use prost::Message;
use trinchera_game::GameState;
use trinchera_game::wire;
use trinchera_rules::Viewer;

mod common;

use common::RULESETS;

fn main() {
    divan::main();
}

/// A game of `ruleset` 20 random actions after the setups, and the seat to move.
fn game(ruleset: &str) -> (GameState, Viewer) {
    let (state, _) = common::played(ruleset, 20);
    let seat = common::to_move(&state);
    (state, Viewer::Player(seat))
}

#[divan::bench(args = RULESETS)]
fn snapshot(bencher: Bencher, ruleset: &str) {
    let (state, viewer) = game(ruleset);
    bencher.bench_local(|| state.snapshot(viewer));
}

#[divan::bench(args = RULESETS)]
fn convert(bencher: Bencher, ruleset: &str) {
    let (state, viewer) = game(ruleset);
    let snapshot = state.snapshot(viewer);
    bencher.bench_local(|| wire::game_view(&snapshot));
}

#[divan::bench(args = RULESETS)]
fn encode(bencher: Bencher, ruleset: &str) {
    let (state, viewer) = game(ruleset);
    let view = wire::game_view(&state.snapshot(viewer));
    let mut buffer = Vec::with_capacity(view.encoded_len());
    bencher.bench_local(|| {
        buffer.clear();
        view.encode(&mut buffer).expect("room");
        buffer.len()
    });
}
