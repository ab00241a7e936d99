//! Games that other servers write too (replicas on one database): an event another server
//! committed, heard on the bus, brings this server's copy up to date and reaches its
//! watchers in order; a gap (a message the bus lost, a reconnect) is filled from the store;
//! while the bus is down, the copies with watchers are polled instead. A game that is not
//! in memory needs nothing: it loads what the store holds when it is next used.

use std::sync::Arc;

use super::Games;
use super::cache::{Held, Slot};
use trinchera_store::GameId;
use trinchera_store::GamePhase;
use trinchera_store::StoreError;
use trinchera_store::records::EventRecord;

impl Games {
    /// Another server committed `record`, version `version` of game `id`.
    pub async fn follow(&self, id: GameId, version: u64, record: EventRecord) {
        let Some((slot, held)) = self.lock_loaded(id).await else {
            return;
        };
        let have = held.state().version();
        if version <= have {
            return;
        }
        let missed = if version == have + 1 {
            Ok(vec![record])
        } else {
            crate::metrics::bus_gap();
            self.store.log_after(id, have).await
        };
        self.apply_missed(&slot, held, missed);
    }

    /// Brings the copy of game `id` in memory, if there is one, up to what the store holds.
    pub async fn catch_up(&self, id: GameId) {
        let Some((slot, held)) = self.lock_loaded(id).await else {
            return;
        };
        let missed = self.store.log_after(id, held.state().version()).await;
        self.apply_missed(&slot, held, missed);
    }

    /// [`Games::catch_up`] for every game in memory, or (`watched_only`) for those with
    /// watchers; how many were looked at.
    pub async fn catch_up_all(&self, watched_only: bool) -> usize {
        let mut looked = 0;
        for (id, watched) in self.cache.held() {
            if watched || !watched_only {
                self.catch_up(id).await;
                looked += 1;
            }
        }
        looked
    }

    /// Applies the entries another server wrote after the held copy, in order, publishing
    /// each to this server's watchers; a copy that cannot follow is dropped (and reloads).
    fn apply_missed(
        &self,
        slot: &Arc<Slot>,
        mut held: Held,
        missed: Result<Vec<EventRecord>, StoreError>,
    ) {
        let id = held.state().id();
        let records = match missed {
            Ok(records) if records.is_empty() => return,
            Ok(records) => records,
            Err(error) => {
                return tracing::warn!(game_id = %id, %error, "could not read what another server wrote");
            }
        };
        for record in records {
            match held.follow(&record) {
                Ok(event) => slot.hub.publish(event, held.state()),
                Err(error) => {
                    tracing::warn!(game_id = %id, %error, "cannot follow another server's entry: reloading");
                    return held.discard();
                }
            }
        }
        if held.state().phase() == GamePhase::Finished {
            self.reservations.finished(id);
        }
        self.schedule(held.state());
    }
}
