//! Durable storage of games behind one trait, so that backends can be swapped (sled now).
//!
//! Each accepted action is one atomic [`Write`]: its log entry, plus the listing summary when
//! the phase changed, plus a token index entry when a seat was taken. Writes become durable
//! together: [`Store::durable`] resolves once everything written before the call is on disk,
//! and concurrent callers share one flush (group commit).

mod sled_store;

use std::future::Future;
use std::pin::Pin;

pub use sled_store::{SledOptions, SledStore, refresh_snapshot};

use crate::ids::{GameId, TokenHash};
use crate::records::{DecodeError, EventRecord, SummaryRecord};
use crate::timing::Downtime;

/// A boxed, sendable future.
pub type BoxFuture<T> = Pin<Box<dyn Future<Output = T> + Send + 'static>>;

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The backend reported an error.
    #[error("storage backend: {0}")]
    Backend(String),
    /// A stored value could not be read.
    #[error("stored data: {0}")]
    Decode(#[from] DecodeError),
    /// The data directory was written by a newer Trinchera.
    #[error(
        "the data directory was written by a newer Trinchera (storage format {found}); this \
         build reads format {supported} or older: upgrade the server or use another --data-dir"
    )]
    NewerFormat {
        /// Format found on disk.
        found: u8,
        /// Newest format this build reads.
        supported: u8,
    },
    /// The store was closed.
    #[error("the store is closed")]
    Closed,
    /// Another process holds the data directory.
    #[error("another trinchera-server is using {}", .0.display())]
    Locked(std::path::PathBuf),
}

/// Everything one accepted action writes, atomically.
#[derive(Debug)]
pub struct Write<'a> {
    /// The game.
    pub game: GameId,
    /// The version the entry creates (1 for the creation).
    pub version: u64,
    /// The log entry.
    pub event: &'a EventRecord,
    /// The new listing summary, when it changed.
    pub summary: Option<&'a SummaryRecord>,
    /// A token issued by this action.
    pub token: Option<TokenHash>,
}

/// Durable storage of games.
pub trait Store: Send + Sync + 'static {
    /// A new, never used game id.
    fn next_game_id(&self) -> Result<GameId, StoreError>;

    /// Queues `write`, to be applied atomically; it is visible to reads and durable once a
    /// later [`Store::durable`] resolves (a failure is reported there).
    fn write(&self, write: &Write<'_>) -> Result<(), StoreError>;

    /// Resolves once every write made before this call is durable.
    fn durable(&self) -> BoxFuture<Result<(), StoreError>>;

    /// A game's log, oldest first; empty if there is no such game.
    fn log(&self, game: GameId) -> Result<Vec<EventRecord>, StoreError>;

    /// The game a token belongs to, if any.
    fn token_owner(&self, token: &TokenHash) -> Result<Option<GameId>, StoreError>;

    /// Notes that the server runs at `now_ms` (durable with the next flush), so that a
    /// later start knows how long it was down.
    fn mark_alive(&self, now_ms: u64) -> Result<(), StoreError>;

    /// Every interval the server was down, oldest first, including the one from its last
    /// sign of life to `now_ms` (the start), which it records durably.
    fn record_downtime(&self, now_ms: u64) -> Result<Downtime, StoreError>;

    /// One game's summary, if there is such a game.
    fn summary(&self, game: GameId) -> Result<Option<SummaryRecord>, StoreError>;

    /// Summaries of games with ids below `before` (all if `None`), newest first.
    fn summaries(
        &self,
        before: Option<GameId>,
    ) -> Box<dyn Iterator<Item = Result<(GameId, SummaryRecord), StoreError>> + Send + '_>;

    /// Flushes everything and stops the committer.
    fn close(&self) -> Result<(), StoreError>;
}
