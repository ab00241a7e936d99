//! The read path: views, histories, watches and listings. Nothing here changes a game.

use trinchera_rules::Viewer;

use super::directory::Filter;
use super::{Games, Watch, WatchItem};
use crate::error::{ApiError, Reason};
use crate::ids::GameId;
use crate::records::SummaryRecord;
use crate::state::{GamePhase, GameState, History, Seen};
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
    /// with `positions`, the game after every event (see [`GameState::history`]).
    pub async fn history(
        &self,
        id: GameId,
        token: Option<&str>,
        positions: bool,
    ) -> Result<History, ApiError> {
        // Replayed from a copy of the log: a long replay does not hold up the game's moves.
        let (viewer, over, log) = {
            let (_slot, held) = self.lock(id).await?;
            let viewer = self.viewer_for(&held.state, token)?;
            let over = held.state.phase() == GamePhase::Finished;
            (viewer, over, held.log.clone())
        };
        GameState::history(id, &log, viewer, positions, over)
            .map_err(|e| StoreError::Backend(e.to_string()).into())
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
            Some(after) if after > version => {
                return Err(ApiError::invalid(
                    Reason::BadRequest,
                    format!(
                        "after_version {after} is ahead of the game, which is at version {version}"
                    ),
                ));
            }
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
