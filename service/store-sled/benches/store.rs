//! Durable appends to the sled store: G writers, each appending moves to its own game and
//! waiting until each is durable before the next, as the server does for every action.
//! Group commit lets concurrent writers share a flush; the throughput is acknowledged
//! appends per second.
//!
//! Run with `cargo bench -p trinchera-store-sled --bench store`.

use std::sync::Arc;

use divan::Bencher;
use divan::counter::ItemsCount;
use trinchera_store::GameId;
use trinchera_store::records::{Entry, EventRecord, SummaryRecord};
use trinchera_store::{Append, Store};
use trinchera_store_sled::{SledOptions, SledStore, runtime};

fn main() {
    divan::main();
}

/// Appends each writer makes per benchmark iteration.
const APPENDS: u64 = 64;

/// Appends `record` as `version` of `game` and waits until it is durable.
async fn append(store: &SledStore, game: GameId, version: u64, record: &EventRecord) {
    let append = Append {
        version,
        record,
        summary: None,
        token: None,
        lease: None,
    };
    store.append(game, append).await.expect("appends");
}

fn durable_appends(bencher: Bencher, writers: u64, sync_data: bool) {
    let dir = tempfile::tempdir().expect("temp dir");
    // The server's runtime: its idle workers end the committer's wait, as in the server.
    let (runtime, workers) = runtime::server().expect("runtime");
    let options = SledOptions {
        sync_data,
        gather: workers,
        ..SledOptions::default()
    };
    let store = Arc::new(SledStore::open(dir.path(), options).expect("opens"));
    let games: Vec<GameId> = runtime.block_on(async {
        let (record, summary) = (EventRecord::default(), SummaryRecord::default());
        let mut games = Vec::new();
        for _ in 0..writers {
            let created = store.create(Append {
                version: 1,
                record: &record,
                summary: Some(&summary),
                token: None,
                lease: None,
            });
            games.push(created.await.expect("creates"));
        }
        games
    });
    let mut version = 1;
    bencher
        .counter(ItemsCount::new(writers * APPENDS))
        .bench_local(|| {
            let first = version + 1;
            version += APPENDS;
            runtime.block_on(async {
                let tasks: Vec<_> = games
                    .iter()
                    .map(|&game| {
                        let store = Arc::clone(&store);
                        tokio::spawn(async move {
                            let event = EventRecord {
                                seat: Some(0),
                                entry: Some(Entry::Move("d2-d3".into())),
                                ..EventRecord::default()
                            };
                            for v in first..first + APPENDS {
                                append(&store, game, v, &event).await;
                            }
                        })
                    })
                    .collect();
                for task in tasks {
                    task.await.expect("writer");
                }
            });
        });
    runtime.block_on(store.close()).expect("closes");
}

/// Acknowledged appends per second with `writers` concurrent writers, flushed as the server
/// does by default (sled's flush: safe against a crash of the process).
#[divan::bench(args = [1, 16, 128], sample_count = 10)]
fn flushed(bencher: Bencher, writers: u64) {
    durable_appends(bencher, writers, false);
}

/// The same with `--sync-data` (fdatasync of the data file on each group commit too).
#[divan::bench(args = [1, 16, 128], sample_count = 10)]
fn synced(bencher: Bencher, writers: u64) {
    durable_appends(bencher, writers, true);
}
