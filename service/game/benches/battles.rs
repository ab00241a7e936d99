//! Whether a move's reply takes longer for some hidden enemy kinds (issue 14's timing
//! check, as a measurement rather than a timed test): in `frente`, a Capitán of seat 0
//! attacks the piece on a7, whose kind varies over every kind of the army; each run times
//! what the server does for the move — the play itself and the attacker's new view,
//! converted for the wire. Equal times across the kinds (within noise) mean the reply's
//! timing tells nothing of the defender beyond what the battle reveals anyway.
//!
//! Run with `cargo bench -p trinchera-service --bench battles`.

use divan::Bencher;
use trinchera_game::wire;
use trinchera_game::{Act, GameState, Moment};
use trinchera_rules::{Action, KindId, Seat, Setup, Viewer};

mod common;

fn main() {
    divan::main();
}

/// Every kind of frente's army, by id.
const DEFENDERS: [&str; 12] = [
    "espia",
    "soldado",
    "cabo_armero",
    "sargento",
    "teniente",
    "capitan",
    "mayor",
    "coronel",
    "general",
    "teniente_general",
    "bomba",
    "estandarte",
];

/// `setup` with a piece of kind `kind` moved onto `cell` (swapped with what stood there).
fn with_kind_at(setup: Setup, cell: &str, kind: KindId, state: &GameState) -> Setup {
    let description = state.description();
    let cell = description.cell_by_label(cell).expect("a cell");
    let mut pieces = setup.pieces().to_vec();
    let there = pieces
        .iter()
        .position(|&(c, _)| c == cell)
        .expect("in the zone");
    let other = pieces
        .iter()
        .position(|&(_, k)| k == kind)
        .expect("the army has it");
    let (a, b) = (pieces[there].1, pieces[other].1);
    pieces[there].1 = b;
    pieces[other].1 = a;
    Setup::from_pieces(description, setup.seat(), &pieces).expect("still valid")
}

/// A game where seat 0 is to play `a6xa7` against a piece of kind `defender`.
fn position(defender: &str) -> (GameState, Action) {
    let mut state = common::seated("frente");
    let kind = |id: &str| {
        let index = state.description().kinds.iter().position(|k| k.id == id);
        KindId(index.expect("a kind") as u8)
    };
    let (capitan, defender) = (kind("capitan"), kind(defender));
    for (seat, cell, kind) in [(Seat::First, "a4", capitan), (Seat::Second, "a7", defender)] {
        let zone = state.description().setup_zone(seat).expect("sets up");
        let setup = with_kind_at(Setup::random(zone, 3), cell, kind, &state);
        let act = Act::Setup {
            setup,
            salt: [0; 16],
        };
        state.apply(act, Moment::default()).expect("set up");
    }
    // The Capitán walks up to a6 while seat 1 steps with pieces far from it.
    for step in ["a4-a5", "a5-a6"] {
        let action = state.game().parse_notation(step).expect("notation");
        let act = Act::Move {
            seat: Seat::First,
            action,
        };
        state
            .apply(act, Moment::default())
            .unwrap_or_else(|e| panic!("{step}: {e}"));
        let quiet = state
            .game()
            .legal_actions()
            .into_iter()
            .find(|legal| {
                let n = &legal.notation;
                n.contains('-') && !n.starts_with('a') && !n.starts_with('b')
            })
            .expect("seat 1 has a quiet step away from column a");
        let act = Act::Move {
            seat: Seat::Second,
            action: quiet.action,
        };
        state
            .apply(act, Moment::default())
            .expect("a listed action");
    }
    let attack = state.game().parse_notation("a6xa7").expect("notation");
    (state, attack)
}

#[divan::bench(args = DEFENDERS)]
fn attack_and_reply(bencher: Bencher, defender: &str) {
    let (state, attack) = position(defender);
    bencher
        .with_inputs(|| state.clone())
        .bench_local_values(|mut state| {
            let act = Act::Move {
                seat: Seat::First,
                action: attack.clone(),
            };
            state
                .apply(act, Moment::default())
                .expect("the attack is legal");
            wire::game_view(&state.snapshot(Viewer::Player(Seat::First)))
        });
}
