//! WatchGame streams: one forwarding task per watcher turns the game's broadcast into the
//! watcher's own views, with no gaps or duplicates, and a fresh snapshot for a watcher
//! that fell behind.

use std::pin::Pin;
use std::sync::Arc;

use tokio::sync::{broadcast, mpsc};
use tokio_stream::Stream;
use tokio_stream::wrappers::ReceiverStream;
use tonic::Status;
use trinchera_proto::v1 as pb;
use trinchera_rules::Viewer;

use super::convert;
use crate::games::{Games, Watch, WatchItem};
use crate::ids::GameId;
use crate::state::GamePhase;

/// The response stream of WatchGame.
pub type WatchStream = Pin<Box<dyn Stream<Item = Result<pb::WatchGameResponse, Status>> + Send>>;

/// Messages buffered per watcher before its forwarder waits.
const BUFFER: usize = 16;

fn message(item: &WatchItem) -> pb::WatchGameResponse {
    pb::WatchGameResponse {
        version: item.seen.version,
        event: item
            .event
            .as_ref()
            .map(|event| convert::event(event, item.seen.description)),
        view: Some(convert::game_view(&item.seen)),
        snapshot: item.event.is_none(),
    }
}

/// Starts forwarding `watch` to a new stream.
pub fn stream(games: Arc<Games>, id: GameId, viewer: Viewer, watch: Watch) -> WatchStream {
    let (sender, receiver) = mpsc::channel(BUFFER);
    tokio::spawn(forward(games, id, viewer, watch, sender));
    Box::pin(ReceiverStream::new(receiver))
}

/// Sends `item`; tells whether the stream goes on (the client is there and the game is not
/// over).
async fn send(
    sender: &mpsc::Sender<Result<pb::WatchGameResponse, Status>>,
    item: &WatchItem,
) -> bool {
    sender.send(Ok(message(item))).await.is_ok() && item.seen.phase != GamePhase::Finished
}

async fn forward(
    games: Arc<Games>,
    id: GameId,
    viewer: Viewer,
    watch: Watch,
    sender: mpsc::Sender<Result<pb::WatchGameResponse, Status>>,
) {
    let Watch {
        initial,
        mut live,
        finished,
    } = watch;
    let mut shutdown = games.shutdown_signal();
    let mut last = 0;
    for item in &initial {
        last = item.seen.version;
        if !send(&sender, item).await {
            return;
        }
    }
    if finished {
        return;
    }
    loop {
        let item = tokio::select! {
            () = stopped(&mut shutdown) => return,
            () = sender.closed() => return,
            received = live.recv() => match received {
                Ok(published) if published.state.version <= last => continue,
                Ok(published) => WatchItem {
                    event: Some(published.event.clone()),
                    seen: published.state.seen(viewer),
                },
                Err(broadcast::error::RecvError::Lagged(skipped)) => {
                    tracing::debug!(game_id = %id, skipped, "slow watcher gets a fresh snapshot");
                    match games.seen(id, viewer).await {
                        Ok(seen) => WatchItem { event: None, seen },
                        Err(error) => {
                            let _ = sender.send(Err(error.into())).await;
                            return;
                        }
                    }
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
        };
        last = item.seen.version;
        if !send(&sender, &item).await {
            return;
        }
    }
}

/// Resolves once the server starts shutting down.
async fn stopped(shutdown: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|&stopping| stopping).await;
}
