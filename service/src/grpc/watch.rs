//! WatchGame streams: each watcher's stream turns the game's broadcast into the watcher's
//! own views as the connection asks for messages, with no gaps or duplicates, and a fresh
//! snapshot for a watcher that fell behind.

use std::pin::Pin;
use std::sync::Arc;
use trinchera_store::GamePhase;

use tokio::sync::broadcast;
use tokio_stream::Stream;
use tonic::Status;
use trinchera_proto::v1 as pb;
use trinchera_rules::Viewer;

use crate::error::ApiError;
use crate::games::{Games, Watch, WatchItem};
use crate::hub::Published;
use trinchera_game::wire;
use trinchera_game::wire::changes::Seen;
use trinchera_game::{GameEvent, Snapshot};
use trinchera_store::GameId;

/// The response stream of WatchGame.
pub(super) type WatchStream =
    Pin<Box<dyn Stream<Item = Result<pb::WatchGameResponse, Status>> + Send>>;

/// How much of the pieces a watcher is sent.
#[derive(Debug)]
enum Sent {
    /// Every view whole.
    Whole,
    /// Only what changed (`piece_changes_only`): what was sent last, once anything was.
    Changes(Option<Seen>),
}

/// The stream of `watch` for `viewer`: its initial messages, then live events, their
/// pieces whole or (`piece_changes_only`) only what changed.
pub(super) fn stream(
    games: Arc<Games>,
    id: GameId,
    viewer: Viewer,
    watch: Watch,
    piece_changes_only: bool,
) -> WatchStream {
    let shutdown = games.shutdown_signal();
    let forward = Forward {
        games,
        id,
        viewer,
        initial: watch.initial.into_iter(),
        live: watch.live,
        shutdown,
        last: 0,
        over: watch.finished,
        pieces: if piece_changes_only {
            Sent::Changes(None)
        } else {
            Sent::Whole
        },
    };
    Box::pin(futures_util::stream::unfold(forward, |mut forward| async {
        let message = forward.next().await?;
        Some((message, forward))
    }))
}

/// One watcher's place in its game's events.
struct Forward {
    games: Arc<Games>,
    id: GameId,
    viewer: Viewer,
    /// What to send first.
    initial: std::vec::IntoIter<WatchItem>,
    live: broadcast::Receiver<Arc<Published>>,
    shutdown: tokio::sync::watch::Receiver<bool>,
    /// The version of the last message sent.
    last: u64,
    /// Whether the stream ends after `initial`: the game is over.
    over: bool,
    /// What the watcher was sent of the pieces.
    pieces: Sent,
}

impl Forward {
    /// The next message, `None` once the game ended or the server is stopping.
    async fn next(&mut self) -> Option<Result<pb::WatchGameResponse, Status>> {
        if let Some(item) = self.initial.next() {
            return Some(Ok(self.sent(item.event.as_ref(), &item.snapshot)));
        }
        if self.over {
            return None;
        }
        loop {
            let published = tokio::select! {
                () = stopped(&mut self.shutdown) => {
                    // The stream ends with a status that tells the client to come back.
                    self.over = true;
                    return Some(Err(ApiError::ShuttingDown.into()));
                }
                received = self.live.recv() => match received {
                    Ok(published) if published.version() <= self.last => {
                        published.pass();
                        continue;
                    }
                    Ok(published) => published,
                    Err(broadcast::error::RecvError::Lagged(skipped)) => {
                        tracing::debug!(
                            game_id = %self.id,
                            skipped,
                            "slow watcher gets a fresh snapshot"
                        );
                        return Some(self.fresh().await);
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
            };
            return Some(match published.snapshot(self.viewer) {
                Some(snapshot) => Ok(self.sent(Some(&published.event), &snapshot)),
                None => self.fresh().await,
            });
        }
    }

    /// A fresh snapshot of the game, for a watcher that missed events.
    async fn fresh(&mut self) -> Result<pb::WatchGameResponse, Status> {
        match self.games.snapshot(self.id, self.viewer).await {
            Ok(snapshot) => Ok(self.sent(None, &snapshot)),
            Err(error) => {
                self.over = true;
                Err(error.into())
            }
        }
    }

    /// The message of `event` (none for a snapshot) with `snapshot`, noted as sent.
    fn sent(&mut self, event: Option<&GameEvent>, snapshot: &Snapshot) -> pb::WatchGameResponse {
        self.last = snapshot.version;
        self.over |= snapshot.phase == GamePhase::Finished;
        let mut removed_pieces = Vec::new();
        let view = match (&mut self.pieces, event) {
            (Sent::Changes(Some(seen)), Some(_)) => {
                let changes = seen.advance(&snapshot.projection);
                let view = wire::game_view_changes(snapshot, &changes);
                removed_pieces = changes.removed;
                view
            }
            (Sent::Changes(seen), _) => {
                *seen = Some(Seen::whole(&snapshot.projection));
                wire::game_view(snapshot)
            }
            (Sent::Whole, _) => wire::game_view(snapshot),
        };
        pb::WatchGameResponse {
            version: snapshot.version,
            event: event.map(|event| wire::event(event, snapshot.description)),
            view: Some(view),
            snapshot: event.is_none(),
            removed_pieces,
        }
    }
}

/// Resolves once the server starts shutting down.
async fn stopped(shutdown: &mut tokio::sync::watch::Receiver<bool>) {
    let _ = shutdown.wait_for(|&stopping| stopping).await;
}
