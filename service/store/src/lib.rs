//! Durable storage of games behind one async trait shaped by what the service needs, so that
//! backends can be swapped: the embedded default (`trinchera-store-sled`), one database
//! shared by servers (`trinchera-store-postgres`), and [`MemoryStore`] here (the model every
//! backend is held to, with simulated restarts). One [`conformance`] suite runs against
//! every backend; a new backend is a new crate that runs it.
//!
//! A game is an append-only log of [`EventRecord`]s plus a [`SummaryRecord`] for listings.
//! Each accepted action is one [`Append`]: its log entry at the next version, plus the
//! summary when the phase changed, plus a token index entry when a seat was taken. An append
//! is atomic and durable when it returns, and it names its version: a store refuses an
//! append whose version is not the log's next ([`StoreError::Conflict`]), so two writers
//! can never both write one version.
//!
//! The store knows records, not game states: what an entry means is the game crate's.

#![warn(unreachable_pub)]

pub mod conformance;
pub mod ids;
pub mod leases;
mod lifetime;
mod listing;
mod memory;
pub mod metrics;
pub mod records;

pub use self::ids::{AccountId, GameId, TokenHash};
pub use self::lifetime::{Downtime, Lifetime, MAX_DOWNTIMES};
pub use self::listing::{GamePhase, ListQuery, Speed, Traits, Unfinished, Unstarted};
pub use self::memory::MemoryStore;
use self::records::{AccountRecord, AccountTokenRecord, DecodeError, EventRecord, SummaryRecord};

/// A failure of a backend, with its cause.
pub type BackendError = Box<dyn std::error::Error + Send + Sync>;

/// Why storage failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The backend reported an error.
    #[error("storage backend: {0}")]
    Backend(#[source] BackendError),
    /// A stored value could not be read.
    #[error("stored data: {0}")]
    Decode(#[from] DecodeError),
    /// An append named a version that is not the next of the game's log: another writer
    /// appended first (or the game does not exist).
    #[error("game {game}: version {version} is not the next of its log")]
    Conflict {
        /// The game.
        game: GameId,
        /// The version the append named.
        version: u64,
    },
    /// The stored data was written for another build (a newer layout, or a schema to
    /// migrate first); the backend's error says what to do.
    #[error(transparent)]
    Incompatible(BackendError),
    /// The store was closed.
    #[error("the store is closed")]
    Closed,
    /// Another process holds the store's files.
    #[error("another trinchera-server is using {}", .0.display())]
    Locked(std::path::PathBuf),
    /// A game to restore has an id no store holds (0, or above [`GameId::MAX`]).
    #[error("game id {0} is out of range: ids run from 1 to {max}", max = GameId::MAX)]
    IdOutOfRange(GameId),
}

impl StoreError {
    /// A backend failure caused by `error`.
    pub fn backend(error: impl Into<BackendError>) -> StoreError {
        StoreError::Backend(error.into())
    }
}

/// Whether a folded name may be claimed by a new account, given the account that holds it
/// now (if any): one that lives keeps it, and so does one deleted at or after
/// `reusable_before_ms`. What every backend's [`Store::create_account`] decides by.
pub fn name_is_free(holder: Option<&AccountRecord>, reusable_before_ms: u64) -> bool {
    holder.is_none_or(|held| held.deleted_ms != 0 && held.deleted_ms < reusable_before_ms)
}

/// Refuses to restore a game under an id no store holds: what every backend's
/// [`Store::restore`] checks first.
pub fn restorable(game: GameId) -> Result<(), StoreError> {
    if game.storable() {
        Ok(())
    } else {
        Err(StoreError::IdOutOfRange(game))
    }
}

/// Everything one accepted action writes, atomically and durably.
#[derive(Clone, Copy, Debug)]
pub struct Append<'a> {
    /// The version the entry creates: the log's length plus one (1 for the creation).
    pub version: u64,
    /// The log entry.
    pub record: &'a EventRecord,
    /// The new listing summary, when it changed.
    pub summary: Option<&'a SummaryRecord>,
    /// A token issued by this action.
    pub token: Option<TokenHash>,
    /// What the action does to the game's bot lease (`None` in a game without bots).
    pub lease: Option<BotLease>,
}

/// A bot's turn leased to one server, so that one server at a time thinks and acts for
/// the bot; a lease that runs out (its server died) is taken over by another. The append
/// that hands the turn to a bot leases it to the server that wrote it, in the same write,
/// so that no turn is ever left without a server.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BotLease {
    /// A bot is to act after the append: its server `holder` has the turn until `until_ms`.
    Take {
        /// The server, by its random number.
        holder: u64,
        /// When the lease runs out unless renewed, ms since the Unix epoch.
        until_ms: u64,
    },
    /// No bot is to act after the append: the lease ends.
    End,
}

/// A whole game as an import writes it: its log, the summary its last phase change wrote
/// and every token its seats were given.
#[derive(Clone, Copy, Debug)]
pub struct Restored<'a> {
    /// The log, oldest first (version 1 first).
    pub log: &'a [EventRecord],
    /// The listing summary.
    pub summary: &'a SummaryRecord,
    /// The hashes of the tokens its seats hold.
    pub tokens: &'a [TokenHash],
}

/// Durable storage of games. Every method may wait on the backend (disk, network), so each
/// is async; none is called while a game is locked except [`Store::append`].
#[async_trait::async_trait]
pub trait Store: Send + Sync + 'static {
    /// Stores a new game whose first entry is `creation` (version 1): gives it the next id,
    /// never used before, and returns once it is durable.
    async fn create(&self, creation: Append<'_>) -> Result<GameId, StoreError>;

    /// Appends to game `game`'s log, atomically and durably; refused with
    /// [`StoreError::Conflict`] (nothing written) unless `append.version` is the log's
    /// next.
    async fn append(&self, game: GameId, append: Append<'_>) -> Result<(), StoreError>;

    /// A game's log, oldest first; empty if there is no such game.
    async fn log(&self, game: GameId) -> Result<Vec<EventRecord>, StoreError>;

    /// Whether game `game` exists.
    async fn exists(&self, game: GameId) -> Result<bool, StoreError>;

    /// One game's summary, if there is such a game.
    async fn summary(&self, game: GameId) -> Result<Option<SummaryRecord>, StoreError>;

    /// A page of summaries, newest first.
    async fn list(&self, query: &ListQuery) -> Result<Vec<(GameId, SummaryRecord)>, StoreError>;

    /// The unfinished games of one kind, by id.
    async fn unfinished(&self, which: Unfinished) -> Result<Vec<GameId>, StoreError>;

    /// How many unfinished games of one kind there are.
    async fn count_unfinished(&self, which: Unfinished) -> Result<usize, StoreError>;

    /// Every game that has not started, oldest first.
    async fn unstarted(&self) -> Result<Vec<Unstarted>, StoreError>;

    /// The game a token belongs to, if any.
    async fn token_owner(&self, token: &TokenHash) -> Result<Option<GameId>, StoreError>;

    /// Notes that the server runs at `now_ms` (durable soon after), so that a later start
    /// knows how long it was down.
    async fn mark_alive(&self, now_ms: u64) -> Result<(), StoreError>;

    /// Every interval the server was down, oldest first, including the one from its last
    /// sign of life to `now_ms` (the start), which it records durably.
    async fn record_downtime(&self, now_ms: u64) -> Result<Downtime, StoreError>;

    /// Writes a whole game under its own id, atomically and durably, unless a game with
    /// that id exists: then nothing is written and the answer is `false`. Games created
    /// afterwards get higher ids. An id that is not [`GameId::storable`] is refused with
    /// [`StoreError::IdOutOfRange`] and nothing is written.
    async fn restore(&self, game: GameId, restored: Restored<'_>) -> Result<bool, StoreError>;

    /// What the store remembers of the server's life.
    async fn lifetime(&self) -> Result<Lifetime, StoreError>;

    /// Replaces what the store remembers of the server's life, durably (an import into an
    /// empty store carries the exported server's over, so that its clocks read the same).
    async fn restore_lifetime(&self, lifetime: &Lifetime) -> Result<(), StoreError>;

    /// The entries of game `game`'s log after version `after`, oldest first: what a server
    /// whose copy is at `after` missed.
    async fn log_after(&self, game: GameId, after: u64) -> Result<Vec<EventRecord>, StoreError> {
        let mut log = self.log(game).await?;
        Ok(log.split_off(usize::try_from(after).unwrap_or(usize::MAX).min(log.len())))
    }

    /// Gives server `holder` the bot lease of game `game` until `until_ms`, unless another
    /// server's lease runs past `now_ms`; whether `holder` holds it. A game that does not
    /// exist is never leased.
    async fn take_lease(
        &self,
        game: GameId,
        holder: u64,
        now_ms: u64,
        until_ms: u64,
    ) -> Result<bool, StoreError>;

    /// Extends the leases that server `holder` holds of `games` to `until_ms`.
    async fn renew_leases(
        &self,
        holder: u64,
        games: &[GameId],
        until_ms: u64,
    ) -> Result<(), StoreError>;

    /// Games whose lease ran out before `now_ms` (their server died or gave up), soonest
    /// run out first, `limit` at most.
    async fn expired_leases(&self, now_ms: u64, limit: usize) -> Result<Vec<GameId>, StoreError>;

    /// Lets every lease of server `holder` run out now (a server that stops).
    async fn give_up_leases(&self, holder: u64) -> Result<(), StoreError>;

    /// Creates `account` under its folded name and gives it the next account id, durably;
    /// `None` (nothing written) when the name is held by a live account, or by one deleted
    /// at or after `reusable_before_ms` (a name stays reserved for a while after its account
    /// is deleted).
    async fn create_account(
        &self,
        account: &AccountRecord,
        reusable_before_ms: u64,
    ) -> Result<Option<AccountId>, StoreError>;

    /// An account by its id.
    async fn account(&self, id: AccountId) -> Result<Option<AccountRecord>, StoreError>;

    /// The account that holds the folded name `folded` now (a deleted one included, while
    /// no other took the name over).
    async fn account_named(
        &self,
        folded: &str,
    ) -> Result<Option<(AccountId, AccountRecord)>, StoreError>;

    /// Replaces account `id`'s record (its name stays), durably.
    async fn update_account(
        &self,
        id: AccountId,
        account: &AccountRecord,
    ) -> Result<(), StoreError>;

    /// A page of accounts by id: those after `after`, `limit` at most.
    async fn accounts(
        &self,
        after: Option<AccountId>,
        limit: usize,
    ) -> Result<Vec<(AccountId, AccountRecord)>, StoreError>;

    /// Stores an account's token under its hash, durably.
    async fn put_account_token(
        &self,
        hash: &TokenHash,
        token: &AccountTokenRecord,
    ) -> Result<(), StoreError>;

    /// The account token whose hash is `hash`, if it exists.
    async fn account_token(
        &self,
        hash: &TokenHash,
    ) -> Result<Option<AccountTokenRecord>, StoreError>;

    /// Every token of account `account`, with its hash.
    async fn account_tokens(
        &self,
        account: AccountId,
    ) -> Result<Vec<(TokenHash, AccountTokenRecord)>, StoreError>;

    /// Removes the account token whose hash is `hash`, durably; whether there was one.
    async fn remove_account_token(&self, hash: &TokenHash) -> Result<bool, StoreError>;

    /// Writes a whole account under its own id (an import), with its tokens, unless an
    /// account with that id exists (then nothing is written and the answer is `false`).
    /// Accounts created afterwards get higher ids. Its name goes to it unless an account
    /// with a higher id holds it (of two accounts that had one name, the later one holds
    /// it, whatever the order they are restored in).
    async fn restore_account(
        &self,
        id: AccountId,
        account: &AccountRecord,
        tokens: &[(TokenHash, AccountTokenRecord)],
    ) -> Result<bool, StoreError>;

    /// Whether other servers may write the same games (a database shared by replicas):
    /// then a server's games in memory may fall behind the store, and are brought up to
    /// date by the bus or by polling.
    fn shared(&self) -> bool {
        false
    }

    /// How many bytes the store takes on disk, if the backend knows (for metrics).
    async fn size_on_disk(&self) -> Result<Option<u64>, StoreError> {
        Ok(None)
    }

    /// Flushes everything and lets go of the backend's resources.
    async fn close(&self) -> Result<(), StoreError>;
}
