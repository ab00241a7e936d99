//! Games that other servers write too (replicas on one database): an event another server
//! committed, heard on the bus, brings this server's copy up to date and reaches its
//! watchers in order; a gap (a message the bus lost, a reconnect) is filled from the store;
//! while the bus is down, the copies with watchers are polled instead. A game that is not
//! in memory needs nothing: it loads what the store holds when it is next used.
//!
//! Core NATS delivers at most once. Nothing depends on it for correctness: the store is
//! the truth, an append names its version and a gap is filled from the store. What the bus
//! may lose is caught up from the store: after a reconnect or a slow-consumer warning,
//! every game in memory; every few seconds, every watched game; and while the bus is down
//! (or when there is none), the watched games are polled twice a second (slower, logged,
//! counted by `trinchera_bus_polls_total`).

/// How often the watched games are polled while the bus is down.
const POLL: Duration = Duration::from_millis(500);

/// How often every watched game is checked against the store while the bus is up.
const CHECK: Duration = Duration::from_secs(5);

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt as _;

use super::Games;
use super::act::Origin;
use super::cache::{Held, Slot};
use crate::bus::Bus;
use trinchera_store::GameId;
use trinchera_store::StoreError;
use trinchera_store::records::EventRecord;

impl Games {
    /// Another server committed `record`, version `version` of game `id`.
    pub(crate) async fn follow(&self, id: GameId, version: u64, record: EventRecord) {
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
    pub(crate) async fn catch_up(&self, id: GameId) {
        let Some((slot, held)) = self.lock_loaded(id).await else {
            return;
        };
        let missed = self.store.log_after(id, held.state().version()).await;
        self.apply_missed(&slot, held, missed);
    }

    /// [`Games::catch_up`] for every game in memory, or (`watched_only`) for those with
    /// watchers; how many were looked at.
    pub(crate) async fn catch_up_all(&self, watched_only: bool) -> usize {
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
                Ok(event) => self.committed(slot, &held, record, &event, Origin::Elsewhere),
                Err(error) => {
                    tracing::warn!(game_id = %id, %error, "cannot follow another server's entry: reloading");
                    return held.discard();
                }
            }
        }
    }
}

impl Games {
    /// Applies the other servers' events from `bus` to the games in memory, until the
    /// server stops.
    pub(crate) async fn follow_bus(self: Arc<Games>, bus: Arc<Bus>) {
        let events = bus.events().await;
        tokio::pin!(events);
        while let Some((game, version, record)) = events.next().await {
            self.follow(game, version, record).await;
        }
    }

    /// Catches the games in memory up with the store where the bus may have missed
    /// something: all of them after a reconnect; the watched ones every [`CHECK`] while the
    /// bus is up, and every [`POLL`] while it is down or when there is no bus (`None`).
    pub(crate) async fn catch_up_with(self: Arc<Games>, bus: Option<Arc<Bus>>) {
        let mut polls = tokio::time::interval(POLL);
        let mut checked = tokio::time::Instant::now();
        loop {
            let resync = async {
                match &bus {
                    Some(bus) => bus.resynced().await,
                    None => std::future::pending().await,
                }
            };
            tokio::select! {
                () = resync => {
                    self.catch_up_all(false).await;
                    continue;
                }
                _ = polls.tick() => {}
            }
            if bus.as_ref().is_some_and(|bus| bus.up()) {
                if checked.elapsed() >= CHECK {
                    self.catch_up_all(true).await;
                    checked = tokio::time::Instant::now();
                }
            } else {
                let polled = self.catch_up_all(true).await;
                crate::metrics::bus_polls(polled);
            }
        }
    }
}
