//! What the benchmarks share: a game with both seats taken, as the server holds it.

use rand::SeedableRng;
use rand::seq::IndexedRandom;
use rand_chacha::ChaCha8Rng;
use trinchera_game::clock::TimeControl;
use trinchera_game::{Act, Creation, GameState, Moment, Occupant};
use trinchera_rules::{Seat, Seed, Setup, Viewer};
use trinchera_store::records::EventRecord;
use trinchera_store::{GameId, TokenHash};

/// Every hosted ruleset, in the benches' order.
#[allow(dead_code, reason = "not every bench runs per ruleset")]
pub const RULESETS: [&str; 6] = [
    "frente",
    "clasico",
    "castillos",
    "asalto",
    "tacticas",
    "tanques",
];

/// A game of `ruleset` without clock, created by Ana (seat 0) and joined by Beto.
#[allow(dead_code, reason = "not every bench uses the state without its log")]
pub fn seated(ruleset: &str) -> GameState {
    seated_with_log(ruleset).0
}

/// [`seated`], with the log entries that make it.
pub fn seated_with_log(ruleset: &str) -> (GameState, Vec<EventRecord>) {
    let creation = Creation {
        ruleset: ruleset.into(),
        name: "bench".into(),
        creator: Occupant::guest(Seat::First, "Ana", TokenHash([1; 32])),
        seed: Seed([7; 32]),
        control: TimeControl::Untimed,
    };
    let (mut state, created) =
        GameState::create(GameId(1), creation, Moment::default()).expect("created");
    let join = Act::Join(Occupant::guest(Seat::Second, "Beto", TokenHash([2; 32])));
    let joined = state.apply(join, Moment::default()).expect("joined");
    (state, vec![created.record, joined.record])
}

/// A game of `ruleset` with both seats taken and set up at random, then up to `actions`
/// random actions (fewer if it ends), with the log entries that make it.
#[allow(dead_code, reason = "not every bench plays a game")]
pub fn played(ruleset: &str, actions: usize) -> (GameState, Vec<EventRecord>) {
    let (mut state, mut log) = seated_with_log(ruleset);
    for seat in [Seat::First, Seat::Second] {
        if let Some(zone) = state.description().setup_zone(seat) {
            let setup = Setup::random(zone, seat.index() as u64);
            let act = Act::Setup {
                setup,
                salt: [0; 16],
            };
            let change = state.apply(act, Moment::default()).expect("set up");
            log.push(change.record);
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..actions {
        let legal = state.game().legal_actions();
        let Some(choice) = legal.choose(&mut rng) else {
            break;
        };
        let act = Act::Move {
            seat: to_move(&state),
            action: choice.action.clone(),
        };
        let change = state
            .apply(act, Moment::default())
            .expect("a listed action");
        log.push(change.record);
    }
    (state, log)
}

/// The seat whose turn it is.
#[allow(dead_code, reason = "not every bench plays a game")]
pub fn to_move(state: &GameState) -> Seat {
    let view = state.game().view(Viewer::Spectator);
    view.to_move.expect("a seat to move")
}
