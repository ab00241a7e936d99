//! Games in memory: one [`Slot`] per loaded game, with its lock and its watchers' hub.
//!
//! A slot is made only for a game the store knows, so a lookup of a game that does not
//! exist leaves nothing behind. Idle slots without watchers are dropped and reloaded from
//! the log on the next use.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::OwnedMutexGuard;

use super::Games;
use crate::error::ApiError;
use crate::hub::Hub;
use trinchera_game::{Act, Change, GameEvent, GameState, Moment, ReplayError};
use trinchera_store::GameId;
use trinchera_store::records::EventRecord;

/// A game in memory. Its field is private: the game changes only by an act applied
/// through [`Held::apply`] or an entry another server wrote ([`Held::follow`]). Its log
/// stays in the store (readers that replay it read it from there, see [`Games::log`]):
/// a game in memory costs its state only.
#[derive(Debug)]
pub(crate) struct Loaded {
    state: GameState,
}

/// One game's place in memory: its lock, its watchers, when it was last used.
#[derive(Debug)]
pub(crate) struct Slot {
    game: Arc<tokio::sync::Mutex<Option<Loaded>>>,
    /// The game's watchers.
    pub hub: Hub,
    touched: AtomicU64,
}

impl Slot {
    /// Notes a use at `now_ms` (the cache's clock).
    fn touch(&self, now_ms: u64) {
        self.touched.store(now_ms, Ordering::Relaxed);
    }
}

/// A loaded game under its lock. Dropping it unlocks; [`Held::discard`] also forgets the
/// in-memory copy, so that the next caller reloads what the store holds.
pub(crate) struct Held {
    /// Always `Some` while the `Held` exists.
    guard: OwnedMutexGuard<Option<Loaded>>,
}

impl Held {
    fn loaded(&self) -> &Loaded {
        self.guard
            .as_ref()
            .expect("a Held is made only for a loaded game and consumed by discard")
    }

    fn loaded_mut(&mut self) -> &mut Loaded {
        self.guard
            .as_mut()
            .expect("a Held is made only for a loaded game and consumed by discard")
    }

    /// The game now.
    pub(crate) fn state(&self) -> &GameState {
        &self.loaded().state
    }

    /// Applies `act` at `moment` to the game: it is then ahead of the store until its
    /// change is appended (or the copy is [discarded](Held::discard)).
    pub(super) fn apply(&mut self, act: Act, moment: Moment) -> Result<Change, ApiError> {
        Ok(self.loaded_mut().state.apply(act, moment)?)
    }

    /// Applies `record`, the next entry of the log that another server wrote: the copy is
    /// then as the store holds it up to that entry.
    pub(super) fn follow(&mut self, record: &EventRecord) -> Result<GameEvent, ReplayError> {
        self.loaded_mut().state.follow(record)
    }

    /// Forgets the in-memory copy (after a failed append it is ahead of the store).
    pub(super) fn discard(mut self) {
        *self.guard = None;
    }
}

/// The loaded games.
pub(crate) struct Cache {
    slots: Mutex<HashMap<GameId, Arc<Slot>>>,
    watch_buffer: usize,
    epoch: Instant,
}

impl Cache {
    /// An empty cache whose hubs let watchers fall `watch_buffer` events behind.
    pub(crate) fn new(watch_buffer: usize) -> Cache {
        Cache {
            slots: Mutex::new(HashMap::new()),
            watch_buffer,
            epoch: Instant::now(),
        }
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, HashMap<GameId, Arc<Slot>>> {
        self.slots.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn elapsed_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// The slot of game `id`, made if needed: only for a game that exists.
    pub(crate) fn slot(&self, id: GameId) -> Arc<Slot> {
        let mut slots = self.slots();
        let slot = slots.entry(id).or_insert_with(|| {
            Arc::new(Slot {
                game: Arc::new(tokio::sync::Mutex::new(None)),
                hub: Hub::new(self.watch_buffer),
                touched: AtomicU64::new(0),
            })
        });
        slot.touch(self.elapsed_ms());
        Arc::clone(slot)
    }

    /// The slot of game `id` if it is in memory (not marked as used).
    pub(crate) fn find(&self, id: GameId) -> Option<Arc<Slot>> {
        self.slots().get(&id).map(Arc::clone)
    }

    /// The games in memory, and whether each has watchers.
    pub(crate) fn held(&self) -> Vec<(GameId, bool)> {
        self.slots()
            .iter()
            .map(|(&id, slot)| (id, slot.hub.watchers() > 0))
            .collect()
    }

    /// Drops slots idle for longer than `idle` that nobody uses or watches.
    pub(crate) fn evict_idle(&self, idle: Duration) -> usize {
        let now = self.elapsed_ms();
        let idle = idle.as_millis() as u64;
        let mut slots = self.slots();
        let before = slots.len();
        // Only the map holds a slot that nobody is using: then nobody can be about to
        // change it, and the next request loads a fresh copy from the store.
        slots.retain(|_, slot| {
            Arc::strong_count(slot) > 1
                || slot.hub.watchers() > 0
                || now.saturating_sub(slot.touched.load(Ordering::Relaxed)) < idle
        });
        before - slots.len()
    }

    /// Slots in memory.
    pub(crate) fn loaded(&self) -> usize {
        self.slots().len()
    }
}

impl Games {
    /// Locks game `id`, loading it from the store if needed. A game the store does not
    /// know is `NOT_FOUND` at once, with nothing allocated for it.
    pub(super) async fn lock(&self, id: GameId) -> Result<(Arc<Slot>, Held), ApiError> {
        // A game in memory exists: the store is asked only about the others.
        let slot = match self.cache.find(id) {
            Some(slot) => {
                slot.touch(self.cache.elapsed_ms());
                slot
            }
            None if self.store.exists(id).await? => self.cache.slot(id),
            None => return Err(ApiError::NotFound(id.to_string())),
        };
        let mut guard = Arc::clone(&slot.game).lock_owned().await;
        if guard.is_none() {
            let log = self.store.log(id).await?;
            if log.is_empty() {
                return Err(ApiError::NotFound(id.to_string()));
            }
            let mut state = GameState::replay(id, &log, |_, _| {}).map_err(|e: ReplayError| {
                tracing::error!(error = %e, "a stored game cannot be replayed");
                ApiError::Internal(Box::new(e))
            })?;
            state.credit_downtime(&self.downtime);
            *guard = Some(Loaded { state });
        }
        Ok((slot, Held { guard }))
    }

    /// The log of the game under `held`, oldest first, up to the copy's version: read from
    /// the store under the game's lock, so that it is exactly what the copy was built from.
    pub(super) async fn log(&self, held: &Held) -> Result<Vec<EventRecord>, ApiError> {
        let state = held.state();
        let mut log = self.store.log(state.id()).await?;
        let version = usize::try_from(state.version()).unwrap_or(usize::MAX);
        if log.len() < version {
            return Err(ApiError::Internal(
                format!(
                    "game {} is at version {} in memory but has {} stored events",
                    state.id(),
                    version,
                    log.len()
                )
                .into(),
            ));
        }
        // Another server may have appended more; the copy follows them in order.
        log.truncate(version);
        Ok(log)
    }

    /// Locks game `id` if its copy is in memory (it is not loaded otherwise).
    pub(super) async fn lock_loaded(&self, id: GameId) -> Option<(Arc<Slot>, Held)> {
        let slot = self.cache.find(id)?;
        let guard = Arc::clone(&slot.game).lock_owned().await;
        guard.is_some().then_some((slot, Held { guard }))
    }

    /// Puts a new game under its lock (the caller records its durable creation).
    pub(super) async fn hold_new(&self, state: GameState) -> (Arc<Slot>, Held) {
        let slot = self.cache.slot(state.id());
        let mut guard = Arc::clone(&slot.game).lock_owned().await;
        *guard = Some(Loaded { state });
        (slot, Held { guard })
    }
}
