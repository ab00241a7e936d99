//! Games in memory: one [`Slot`] per loaded game, with its lock and its watchers' hub.
//!
//! A slot is made only for a game the directory knows, so a lookup of a game that does not
//! exist leaves nothing behind. Idle slots without watchers are dropped and reloaded from
//! the log on the next use.

use std::collections::HashMap;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::OwnedMutexGuard;

use super::Games;
use crate::error::ApiError;
use crate::hub::Hub;
use crate::ids::GameId;
use crate::records::EventRecord;
use crate::state::{GameState, ReplayError};
use crate::store::StoreError;

/// A game in memory with its log.
#[derive(Debug)]
pub struct Loaded {
    /// The game now.
    pub state: GameState,
    /// Its log, oldest first.
    pub log: Vec<EventRecord>,
}

/// One game's place in memory: its lock, its watchers, when it was last used.
#[derive(Debug)]
pub struct Slot {
    game: Arc<tokio::sync::Mutex<Option<Loaded>>>,
    /// The game's watchers.
    pub hub: Hub,
    touched: AtomicU64,
}

/// A loaded game under its lock. Dropping it unlocks; [`Held::discard`] also forgets the
/// in-memory copy, so that the next caller reloads what the store holds.
pub struct Held {
    /// Always `Some` while the `Held` exists.
    guard: OwnedMutexGuard<Option<Loaded>>,
}

impl Held {
    /// Forgets the in-memory copy (after a failed write it may be ahead of the store).
    pub fn discard(mut self) {
        *self.guard = None;
    }
}

impl Deref for Held {
    type Target = Loaded;

    fn deref(&self) -> &Loaded {
        self.guard
            .as_ref()
            .expect("a Held is made only for a loaded game and consumed by discard")
    }
}

impl DerefMut for Held {
    fn deref_mut(&mut self) -> &mut Loaded {
        self.guard
            .as_mut()
            .expect("a Held is made only for a loaded game and consumed by discard")
    }
}

/// The loaded games.
pub struct Cache {
    slots: Mutex<HashMap<GameId, Arc<Slot>>>,
    watch_buffer: usize,
    epoch: Instant,
}

impl Cache {
    /// An empty cache whose hubs let watchers fall `watch_buffer` events behind.
    pub fn new(watch_buffer: usize) -> Cache {
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
    pub fn slot(&self, id: GameId) -> Arc<Slot> {
        let mut slots = self.slots();
        let slot = slots.entry(id).or_insert_with(|| {
            Arc::new(Slot {
                game: Arc::new(tokio::sync::Mutex::new(None)),
                hub: Hub::new(self.watch_buffer),
                touched: AtomicU64::new(0),
            })
        });
        slot.touched.store(self.elapsed_ms(), Ordering::Relaxed);
        Arc::clone(slot)
    }

    /// Drops slots idle for longer than `idle` that nobody uses or watches.
    pub fn evict_idle(&self, idle: Duration) -> usize {
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
    pub fn loaded(&self) -> usize {
        self.slots().len()
    }
}

impl Games {
    /// Locks game `id`, loading it from the store if needed. A game the directory does not
    /// know is `NOT_FOUND` at once, with nothing allocated for it.
    pub(super) async fn lock(&self, id: GameId) -> Result<(Arc<Slot>, Held), ApiError> {
        if !self.directory.exists(id) {
            return Err(ApiError::NotFound(id.to_string()));
        }
        let slot = self.cache.slot(id);
        let mut guard = Arc::clone(&slot.game).lock_owned().await;
        if guard.is_none() {
            let store = Arc::clone(&self.store);
            let log = tokio::task::spawn_blocking(move || store.log(id))
                .await
                .map_err(|e| StoreError::Backend(e.to_string()))??;
            if log.is_empty() {
                return Err(ApiError::NotFound(id.to_string()));
            }
            let mut state = GameState::replay(id, &log, |_, _| {}).map_err(|e: ReplayError| {
                tracing::error!(error = %e, "a stored game cannot be replayed");
                StoreError::Backend(e.to_string())
            })?;
            state.credit_downtime(&self.downtime);
            *guard = Some(Loaded { state, log });
        }
        Ok((slot, Held { guard }))
    }

    /// Puts a newly created game under its lock.
    pub(super) async fn hold_new(&self, state: GameState) -> (Arc<Slot>, Held) {
        let slot = self.cache.slot(state.id());
        let mut guard = Arc::clone(&slot.game).lock_owned().await;
        *guard = Some(Loaded {
            state,
            log: Vec::new(),
        });
        (slot, Held { guard })
    }
}
