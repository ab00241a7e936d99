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
use crate::games::{Games, Watch};
use crate::ids::GameId;
use crate::state::{GameEvent, GamePhase, Seen};

/// The response stream of WatchGame.
pub type WatchStream = Pin<Box<dyn Stream<Item = Result<pb::WatchGameResponse, Status>> + Send>>;

/// Messages buffered per watcher before its forwarder waits.
const BUFFER: usize = 16;

fn message(event: Option<&GameEvent>, seen: &Seen) -> pb::WatchGameResponse {
    pb::WatchGameResponse {
        version: seen.version,
        event: event.map(|event| convert::event(event, seen.description)),
        view: Some(convert::game_view(seen)),
        snapshot: event.is_none(),
    }
}

/// Starts forwarding `watch` to a new stream.
pub fn stream(games: Arc<Games>, id: GameId, viewer: Viewer, watch: Watch) -> WatchStream {
    let (sender, receiver) = mpsc::channel(BUFFER);
    tokio::spawn(forward(games, id, viewer, watch, sender));
    Box::pin(ReceiverStream::new(receiver))
}

/// Sends `event` (none for a snapshot) with `seen`; tells whether the stream goes on (the
/// client is there and the game is not over).
async fn send(
    sender: &mpsc::Sender<Result<pb::WatchGameResponse, Status>>,
    event: Option<&GameEvent>,
    seen: &Seen,
) -> bool {
    let finished = seen.phase == GamePhase::Finished;
    sender.send(Ok(message(event, seen))).await.is_ok() && !finished
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
        if !send(&sender, item.event.as_ref(), &item.seen).await {
            return;
        }
    }
    if finished {
        return;
    }
    loop {
        let published = tokio::select! {
            () = stopped(&mut shutdown) => return,
            () = sender.closed() => return,
            received = live.recv() => match received {
                Ok(published) if published.state.version <= last => continue,
                Ok(published) => published,
                Err(broadcast::error::RecvError::Lagged(skipped)) => {
                    tracing::debug!(game_id = %id, skipped, "slow watcher gets a fresh snapshot");
                    match games.seen(id, viewer).await {
                        Ok(seen) => {
                            last = seen.version;
                            if !send(&sender, None, &seen).await {
                                return;
                            }
                            continue;
                        }
                        Err(error) => {
                            let _ = sender.send(Err(error.into())).await;
                            return;
                        }
                    }
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
        };
        let seen = published.seen(viewer);
        last = seen.version;
        if !send(&sender, Some(&published.event), &seen).await {
            return;
        }
    }
}

/// Resolves once the server starts shutting down.
async fn stopped(shutdown: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|&stopping| stopping).await;
}
