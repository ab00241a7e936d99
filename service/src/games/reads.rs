//! The read path: views, histories, replays, watches and listings. Nothing here changes a
//! game.

use std::net::IpAddr;
use trinchera_game::ReplayOpening;
use trinchera_store::GamePhase;

use trinchera_rules::Viewer;

use super::auth::Caller;
use super::quota::QuotaPermit;
use super::{Games, ReplaySession, Watch, WatchItem};
use crate::error::ApiError;
use crate::hub::left_out;
use trinchera_game::Reason;
use trinchera_game::{GameState, History, PositionPage, ReplaySteps, Snapshot};
use trinchera_store::GameId;
use trinchera_store::ListQuery;
use trinchera_store::records::SummaryRecord;

impl Games {
    /// What the caller sees of game `id` now.
    pub(crate) async fn view(&self, id: GameId, caller: Caller<'_>) -> Result<Snapshot, ApiError> {
        let (_slot, held) = self.lock(id).await?;
        let viewer = self.viewer_for(held.state(), caller).await?;
        Ok(held.state().snapshot(viewer).at(self.time.now_ms()))
    }

    /// What `viewer` sees of game `id` now.
    pub(crate) async fn snapshot(&self, id: GameId, viewer: Viewer) -> Result<Snapshot, ApiError> {
        let (_slot, held) = self.lock(id).await?;
        Ok(held.state().snapshot(viewer))
    }

    /// Every event of game `id`, the reveal once it is over, and what the caller sees now;
    /// with `page`, one page of positions (see [`GameState::history`]). A replay of the whole
    /// log: it takes a place under the replay caps of `peer` and runs off the async workers;
    /// the place is returned with the history, to be held until the reply is sent.
    pub(crate) async fn history(
        &self,
        id: GameId,
        caller: Caller<'_>,
        page: Option<PositionPage>,
        peer: Option<IpAddr>,
    ) -> Result<(History, QuotaPermit), ApiError> {
        let permit = self.reads.replays.admit(peer)?;
        // Replayed from a copy of the log: a long replay does not hold up the game's moves.
        let (viewer, over, log) = {
            let (_slot, held) = self.lock(id).await?;
            let viewer = self.viewer_for(held.state(), caller).await?;
            let over = held.state().phase() == GamePhase::Finished;
            (viewer, over, self.log(&held).await?)
        };
        let page = page.map(|page| PositionPage {
            limit: page.limit.min(self.limits.history_page),
            ..page
        });
        let replayed =
            tokio::task::spawn_blocking(move || GameState::history(id, &log, viewer, page, over))
                .await
                .map_err(|e| ApiError::Internal(Box::new(e)))?;
        let history = replayed.map_err(|e| ApiError::Internal(Box::new(e)))?;
        Ok((history, permit))
    }

    /// Starts a replay of game `id` for the caller: what it shows first, and its steps after
    /// version `after` (all if `None`), computed as they are read. The replay holds a place
    /// under the replay caps of `peer` until it is dropped.
    pub(crate) async fn replay(
        &self,
        id: GameId,
        caller: Caller<'_>,
        after: Option<u64>,
        peer: Option<IpAddr>,
    ) -> Result<ReplaySession, ApiError> {
        let permit = self.reads.replays.admit(peer)?;
        let (viewer, now, reveal, log) = {
            let (_slot, held) = self.lock(id).await?;
            let viewer = self.viewer_for(held.state(), caller).await?;
            let now = held.state().snapshot(viewer).at(self.time.now_ms());
            (viewer, now, held.state().reveal(), self.log(&held).await?)
        };
        let after = after.unwrap_or(0);
        if after > now.version {
            return Err(ahead(after, now.version));
        }
        let over = now.phase == GamePhase::Finished;
        Ok(ReplaySession {
            opening: ReplayOpening {
                steps: now.version - after,
                now,
                reveal,
            },
            steps: ReplaySteps::new(id, log, viewer, after, over),
            permit,
        })
    }

    /// Starts watching game `id`: a snapshot (or the events after `after`), then live events,
    /// without the watching seat's own moves that hand the turn over if `skip_own_moves`.
    ///
    /// Events after `after` are rebuilt from a copy of the log off the async workers, with
    /// the game unlocked (the live channel is joined under the lock, so nothing is missed
    /// between the two). A watcher further behind than the watch buffer gets a fresh
    /// snapshot instead, as a watcher that lags live does: a resumption costs at most one
    /// buffer of snapshots, however long the game.
    pub(crate) async fn watch(
        &self,
        id: GameId,
        caller: Caller<'_>,
        after: Option<u64>,
        skip_own_moves: bool,
    ) -> Result<(Viewer, Watch), ApiError> {
        let (slot, held) = self.lock(id).await?;
        let viewer = self.viewer_for(held.state(), caller).await?;
        let version = held.state().version();
        let skipped = viewer.seat().filter(|_| skip_own_moves);
        let live = slot.hub.subscribe(skipped);
        let finished = held.state().phase() == GamePhase::Finished;
        let snapshot = |held: &super::cache::Held| {
            vec![WatchItem {
                event: None,
                snapshot: held.state().snapshot(viewer).at(self.time.now_ms()),
            }]
        };
        let initial = match after {
            None => snapshot(&held),
            Some(after) if after > version => return Err(ahead(after, version)),
            Some(after) if version - after > self.limits.watch_buffer as u64 => snapshot(&held),
            Some(after) => {
                let log = self.log(&held).await?;
                drop(held);
                // Each as it was sent live: the watcher's sight then, its legal moves too,
                // and the same own moves left out.
                tokio::task::spawn_blocking(move || {
                    let mut items = Vec::new();
                    GameState::replay(id, &log, |state, event| {
                        if event.version > after
                            && !left_out(skipped, event, state.game().to_move())
                        {
                            items.push(WatchItem {
                                event: Some(event.clone()),
                                snapshot: state.snapshot(viewer),
                            });
                        }
                    })
                    .map(|_| items)
                })
                .await
                .map_err(|e| ApiError::Internal(Box::new(e)))?
                .map_err(|e| ApiError::Internal(Box::new(e)))?
            }
        };
        Ok((
            viewer,
            Watch {
                initial,
                live,
                finished,
            },
        ))
    }

    /// A page of game summaries, newest first.
    pub(crate) async fn list(
        &self,
        query: &ListQuery,
    ) -> Result<Vec<(GameId, SummaryRecord)>, ApiError> {
        Ok(self.store.list(query).await?)
    }
}

/// The refusal of a request for events after `after` in a game at `version`.
fn ahead(after: u64, version: u64) -> ApiError {
    ApiError::invalid(
        Reason::BadRequest,
        format!("after_version {after} is ahead of the game, which is at version {version}"),
    )
}
