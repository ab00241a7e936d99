//! What a replay costs the server: `GetHistory` with the position after every event
//! (`GetHistoryRequest.positions`) of a game of 300 random actions after the setups, per
//! ruleset — the replay of the log with a projection per event (`replay`), and with the
//! conversion and encoding of the reply (`reply`). The size of each reply is printed first.
//!
//! Run with `cargo bench -p trinchera-service --bench history`.

use divan::Bencher;
use prost::Message;
use trinchera_game::wire;
use trinchera_game::{GameState, PositionPage};
use trinchera_rules::Viewer;
use trinchera_store::GameId;
use trinchera_store::records::EventRecord;

mod common;

use common::RULESETS;

/// Actions played after the setups (fewer if the game ends first).
const ACTIONS: usize = 300;

/// Every position in one page.
const EVERY: Option<PositionPage> = Some(PositionPage {
    after: 0,
    limit: usize::MAX,
});

fn main() {
    for ruleset in RULESETS {
        let log = log(ruleset);
        let history =
            GameState::history(GameId(1), &log, Viewer::Spectator, EVERY, false).expect("replays");
        let bytes = wire::history(&history).encoded_len();
        println!(
            "{ruleset}: {} events, reply with positions {} KiB ({} bytes per event)",
            log.len(),
            bytes / 1024,
            bytes / log.len()
        );
    }
    divan::main();
}

/// The log of a game of `ruleset`: seats taken, random setups, then random actions.
fn log(ruleset: &str) -> Vec<EventRecord> {
    common::played(ruleset, ACTIONS).1
}

#[divan::bench(args = RULESETS)]
fn replay(bencher: Bencher, ruleset: &str) {
    let log = log(ruleset);
    bencher.bench(|| {
        GameState::history(GameId(1), &log, Viewer::Spectator, EVERY, false).expect("replays")
    });
}

#[divan::bench(args = RULESETS)]
fn reply(bencher: Bencher, ruleset: &str) {
    let log = log(ruleset);
    bencher.bench(|| {
        let history =
            GameState::history(GameId(1), &log, Viewer::Spectator, EVERY, false).expect("replays");
        wire::history(&history).encode_to_vec()
    });
}
