//! Spectators for the fan-out measurement: each follows the game of one slot with
//! WatchGame, checks that every event arrives once and in order, and notes when it arrived.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use tokio::sync::watch;
use trinchera_client::Server;
use trinchera_proto::v1 as pb;

use crate::failure::Failure;
use crate::lean::{self, Calls};
use crate::player::{Ack, Table};
use crate::stats::Samples;

/// When a watcher received an event.
#[derive(Clone, Copy, Debug)]
pub struct Receipt {
    /// The game id.
    pub game: u64,
    /// The event's version.
    pub version: u64,
    /// When it arrived.
    pub at: Instant,
}

/// What one watcher saw.
#[derive(Debug, Default)]
pub struct Watched {
    /// Streams opened (one per game followed).
    pub streams: u64,
    /// Events received (snapshots not counted).
    pub events: u64,
    /// Streams that ended or failed before their game did.
    pub dropped: u64,
    /// Events whose version was not the one after the previous message's.
    pub out_of_order: u64,
    /// Fresh snapshots sent because the watcher fell behind (events skipped).
    pub resnapshots: u64,
    /// Arrival times.
    pub receipts: Vec<Receipt>,
}

/// Follows slot `slot`'s games as a spectator: opens a stream on its first game and counts
/// itself in [`Table::watching`], waits for `go` to name the end of the measured phase, then
/// follows that game and each that replaces it until then.
pub async fn watch_slot(
    table: Arc<Table>,
    index: usize,
    slot: usize,
    mut go: watch::Receiver<Option<Instant>>,
) -> Watched {
    let mut watched = Watched::default();
    let mut games = table.slots[slot].subscribe();
    let server = table.server(index);
    let first = match games.wait_for(Option::is_some).await {
        Ok(game) => game.clone(),
        Err(_) => None,
    };
    let mut opened = match &first {
        Some(id) => Some(open(&table, server, id, &mut watched).await),
        None => None,
    };
    table.watching.fetch_add(1, Ordering::Relaxed);
    let Ok(until) = go
        .wait_for(Option::is_some)
        .await
        .map(|until| until.unwrap_or_else(Instant::now))
    else {
        return watched;
    };
    let mut followed = first;
    loop {
        if let Some(Some((key, stream))) = opened.take()
            && !follow(&table, server, key, stream, until, &mut watched).await
        {
            return watched;
        }
        let game = {
            let next = tokio::time::timeout_at(
                until.into(),
                games.wait_for(|game| game.is_some() && *game != followed),
            )
            .await;
            match next {
                Ok(Ok(game)) => game.clone(),
                // The phase is over, or the players are gone.
                Ok(Err(_)) | Err(_) => return watched,
            }
        };
        let Some(id) = game.clone() else {
            continue;
        };
        followed = game;
        opened = Some(open(&table, server, &id, &mut watched).await);
    }
}

/// Opens a spectator stream on game `id`: its numeric key and the stream, `None` when the
/// id is not a number or the call failed (counted).
async fn open(
    table: &Table,
    server: &Server,
    id: &str,
    watched: &mut Watched,
) -> Option<(u64, tonic::Streaming<lean::Watched>)> {
    let key = id.parse::<u64>().ok()?;
    let changes = table.moves_from.piece_changes();
    match Calls::new(server).watch(id, None, changes, false).await {
        Ok(stream) => {
            watched.streams += 1;
            Some((key, stream))
        }
        Err(error) => {
            table.errors.count(&error);
            watched.dropped += 1;
            None
        }
    }
}

/// Reads game `key`'s stream until its game ends (true) or `until` (false), noting every
/// event's arrival and any gap.
async fn follow(
    table: &Table,
    server: &Server,
    key: u64,
    mut stream: tonic::Streaming<lean::Watched>,
    until: Instant,
    watched: &mut Watched,
) -> bool {
    let mut last: Option<u64> = None;
    loop {
        let message = tokio::time::timeout_at(until.into(), stream.message()).await;
        let message = match message {
            Err(_) => return false,
            Ok(Ok(Some(message))) => message,
            Ok(Ok(None)) => {
                watched.dropped += 1;
                return true;
            }
            Ok(Err(status)) => {
                table.errors.count(&Failure::from(server.error(status)));
                watched.dropped += 1;
                return true;
            }
        };
        let at = Instant::now();
        match last {
            None => {}
            Some(_) if message.snapshot => watched.resnapshots += 1,
            Some(previous) if message.version != previous + 1 => watched.out_of_order += 1,
            Some(_) => {}
        }
        if !message.snapshot {
            watched.events += 1;
            watched.receipts.push(Receipt {
                game: key,
                version: message.version,
                at,
            });
        }
        last = Some(message.version);
        let over = message
            .view
            .as_ref()
            .is_some_and(|v| v.phase() == pb::Phase::Finished);
        if over {
            return true;
        }
    }
}

/// Fan-out latencies: for each receipt, the time since the mover's acknowledgement of the
/// same event (zero when the watcher got it first). Receipts of events acknowledged outside
/// the measured phase are left out.
pub fn fan_out(acks: &[Ack], receipts: &[Receipt]) -> Samples {
    let by_event: std::collections::HashMap<(u64, u64), Instant> = acks
        .iter()
        .map(|ack| ((ack.game, ack.version), ack.at))
        .collect();
    let mut samples = Samples::default();
    for receipt in receipts {
        if let Some(ack) = by_event.get(&(receipt.game, receipt.version)) {
            samples.push(receipt.at.saturating_duration_since(*ack));
        }
    }
    samples
}
