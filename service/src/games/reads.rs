//! The read path: views, histories, watches and listings. Nothing here changes a game.

use trinchera_rules::Viewer;

use std::net::IpAddr;

use super::directory::Filter;
use super::quota::QuotaPermit;
use super::{Games, ReplayOpening, ReplaySession, Watch, WatchItem};
use crate::error::{ApiError, Reason};
use crate::ids::GameId;
use crate::records::SummaryRecord;
use crate::state::{GamePhase, GameState, History, PositionPage, ReplaySteps, Seen};
use crate::store::StoreError;

impl Games {
    /// What the caller sees of game `id` now.
    pub async fn view(&self, id: GameId, token: Option<&str>) -> Result<Seen, ApiError> {
        let (_slot, held) = self.lock(id).await?;
        let viewer = self.viewer_for(&held.state, token)?;
        Ok(held.state.seen(viewer).at(self.time.now_ms()))
    }

    /// What `viewer` sees of game `id` now.
    pub async fn seen(&self, id: GameId, viewer: Viewer) -> Result<Seen, ApiError> {
        let (_slot, held) = self.lock(id).await?;
        Ok(held.state.seen(viewer))
    }

    /// Every event of game `id`, the reveal once it is over, and what the caller sees now;
    /// with `page`, one page of positions (see [`GameState::history`]). A replay of the whole
    /// log: it takes a place under the replay caps of `peer` and runs off the async workers;
    /// the place is returned with the history, to be held until the reply is sent.
    pub async fn history(
        &self,
        id: GameId,
        token: Option<&str>,
        page: Option<PositionPage>,
        peer: Option<IpAddr>,
    ) -> Result<(History, QuotaPermit), ApiError> {
        let permit = self.replays.admit(peer)?;
        // Replayed from a copy of the log: a long replay does not hold up the game's moves.
        let (viewer, over, log) = {
            let (_slot, held) = self.lock(id).await?;
            let viewer = self.viewer_for(&held.state, token)?;
            let over = held.state.phase() == GamePhase::Finished;
            (viewer, over, held.log.clone())
        };
        let page = page.map(|page| PositionPage {
            limit: page.limit.min(self.limits.history_page),
            ..page
        });
        let replayed =
            tokio::task::spawn_blocking(move || GameState::history(id, &log, viewer, page, over))
                .await
                .map_err(|e| StoreError::Backend(format!("a replay failed: {e}")))?;
        let history = replayed.map_err(|e| StoreError::Backend(e.to_string()))?;
        Ok((history, permit))
    }

    /// Starts a replay of game `id` for the caller: what it shows first, and its steps after
    /// version `after` (all if `None`), computed as they are read. The replay holds a place
    /// under the replay caps of `peer` until it is dropped.
    pub async fn replay(
        &self,
        id: GameId,
        token: Option<&str>,
        after: Option<u64>,
        peer: Option<IpAddr>,
    ) -> Result<ReplaySession, ApiError> {
        let permit = self.replays.admit(peer)?;
        let (slot_state, log) = {
            let (_slot, held) = self.lock(id).await?;
            let viewer = self.viewer_for(&held.state, token)?;
            let seen = held.state.seen(viewer).at(self.time.now_ms());
            ((viewer, seen, held.state.reveal()), held.log.clone())
        };
        let (viewer, seen, reveal) = slot_state;
        let after = after.unwrap_or(0);
        if after > seen.version {
            return Err(ahead(after, seen.version));
        }
        let over = seen.phase == GamePhase::Finished;
        Ok(ReplaySession {
            opening: ReplayOpening {
                steps: seen.version - after,
                seen,
                reveal,
            },
            steps: ReplaySteps::new(id, log, viewer, after, over),
            permit,
        })
    }

    /// Starts watching game `id`: a snapshot (or the events after `after`), then live events.
    pub async fn watch(
        &self,
        id: GameId,
        token: Option<&str>,
        after: Option<u64>,
    ) -> Result<(Viewer, Watch), ApiError> {
        let (slot, held) = self.lock(id).await?;
        let viewer = self.viewer_for(&held.state, token)?;
        let version = held.state.version();
        let initial = match after {
            None => vec![WatchItem {
                event: None,
                seen: held.state.seen(viewer).at(self.time.now_ms()),
            }],
            Some(after) if after > version => return Err(ahead(after, version)),
            Some(after) => {
                let mut items = Vec::new();
                GameState::replay(id, &held.log, |state, event| {
                    if event.version > after {
                        items.push(WatchItem {
                            event: Some(event.clone()),
                            seen: state.seen(viewer),
                        });
                    }
                })
                .map_err(|e| StoreError::Backend(e.to_string()))?;
                items
            }
        };
        let live = slot.hub.subscribe();
        let finished = held.state.phase() == GamePhase::Finished;
        Ok((
            viewer,
            Watch {
                initial,
                live,
                finished,
            },
        ))
    }

    /// Summaries of games below `before` that pass `filter`, newest first; at most `limit`.
    /// The directory picks the ids, so a filtered page reads only the summaries it shows.
    pub fn list(
        &self,
        filter: Filter,
        before: Option<GameId>,
        limit: usize,
    ) -> Result<Vec<(GameId, SummaryRecord)>, ApiError> {
        let mut games = Vec::with_capacity(limit);
        for id in self.directory.page(filter, before, limit) {
            if let Some(summary) = self.store.summary(id)? {
                games.push((id, summary));
            }
        }
        Ok(games)
    }
}

/// The refusal of a request for events after `after` in a game at `version`.
fn ahead(after: u64, version: u64) -> ApiError {
    ApiError::invalid(
        Reason::BadRequest,
        format!("after_version {after} is ahead of the game, which is at version {version}"),
    )
}
