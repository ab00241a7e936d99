//! What the benchmarks share: a game with both seats taken, as the server holds it.

use trinchera_rules::{Seat, Seed};
use trinchera_service::ids::{GameId, TokenHash};
use trinchera_service::records::EventRecord;
use trinchera_service::state::{Creator, GameState, Moment};
use trinchera_service::timing::TimeControl;

/// A game of `ruleset` without clock, created by Ana (seat 0) and joined by Beto.
#[allow(dead_code, reason = "not every bench uses the state without its log")]
pub fn seated(ruleset: &str) -> GameState {
    seated_with_log(ruleset).0
}

/// [`seated`], with the log entries that make it.
pub fn seated_with_log(ruleset: &str) -> (GameState, Vec<EventRecord>) {
    let creator = Creator::person(Seat::First, "Ana".into(), TokenHash([1; 32]));
    let (mut state, _, created) = GameState::create(
        GameId(1),
        ruleset,
        "bench".into(),
        creator,
        Seed([7; 32]),
        0,
        TimeControl::Untimed,
    )
    .expect("created");
    let (_, joined) = state
        .join(
            Seat::Second,
            "Beto".into(),
            TokenHash([2; 32]),
            None,
            Moment::default(),
        )
        .expect("joined");
    (state, vec![created, joined])
}
