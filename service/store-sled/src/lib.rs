//! The embedded default store: one sled 0.34 tree with prefixed keys, and a committer
//! thread that makes the appends of concurrent actions durable together, with one write of
//! a commit log (`wal`); sled gets their values at the next checkpoint, and reads look at
//! the values on their way (`pending`) first.
//!
//! `docs/storage.md` is the design: what is durable when, the keys, the commit log's format,
//! checkpoints, recovery and the layouts (`migrate`). In short:
//! - only the committer writes: callers queue an append and wait for its answer, which
//!   comes once the group's frame is in the commit log (and synced, with
//!   [`SledOptions::sync_data`]); an append whose version is not the next of its log is
//!   refused ([`StoreError::Conflict`]) and nothing of it is written;
//! - the log records what happened (each appended event, summaries, tokens); a checkpoint
//!   sets the pending keys in sled one by one (never as a batch: the first batch switches
//!   every later sled call to a process-wide lock), flushes sled and empties the log;
//! - an open replays the log's intact frames, appending each event to its chunk unless the
//!   chunk already holds it, so a checkpoint that a crash cut short is completed;
//! - game ids come from a counter above the highest stored game (sled's own generator
//!   skips two million after each restart), and an in-memory `index` of every game's
//!   traits answers existence checks, listings and the queries of unfinished games.

#![warn(unreachable_pub)]

mod chunk;
mod error;
mod index;
mod migrate;
mod pending;
pub mod runtime;
mod wal;

use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use trinchera_store::leases::Leases;
use trinchera_store::records::{
    self, AccountRecord, AccountTokenRecord, EventRecord, SummaryRecord,
};
use trinchera_store::{
    AccountId, Append, Downtime, GameId, Lifetime, ListQuery, Restored, Store, StoreError,
    TokenHash, Unfinished, Unstarted,
};

use self::chunk::EventChunk;
use self::error::SledError;
use self::index::Index;
use self::pending::Pending;
use self::wal::{Entry, Op, Wal};

/// The directory layout this build writes (`docs/storage.md`, "Layouts"): 4, whose commit
/// log records appended events, which a layout 3 build would not replay.
pub const LAYOUT: u8 = 4;
/// Log entries per chunk key.
pub const CHUNK: u64 = 32;

const EVENT: u8 = b'E';
const SUMMARY: u8 = b'G';
const TOKEN: u8 = b'T';
/// `A` account(8) → its record.
const ACCOUNT: u8 = b'A';
/// `N` folded name → the account (8) that holds it.
const NAME: u8 = b'N';
/// `K` sha256(token)(32) → an account token's record.
const ACCOUNT_TOKEN: u8 = b'K';
/// `L` account(8) sha256(token)(32) → nothing: the account's tokens, for listing them.
const ACCOUNT_TOKENS: u8 = b'L';
const FORMAT_KEY: &[u8] = b"format";
/// When the server was last known to run: ms since the Unix epoch, big-endian.
const ALIVE_KEY: &[u8] = b"alive";
/// When the server was down: pairs of big-endian ms since the Unix epoch.
const DOWNTIME_KEY: &[u8] = b"downtime";
/// The commit log's file, beside sled's.
const WAL_FILE: &str = "commits.wal";
/// How often the committer flushes sled and empties the commit log while it holds frames.
const CHECKPOINT: Duration = Duration::from_millis(200);
/// Commit log size past which the committer checkpoints at once.
const WAL_LIMIT: u64 = 8 * 1024 * 1024;
/// Pending keys past which the committer checkpoints at once: a checkpoint sets them in sled
/// while appends wait, so this bounds that wait (while checkpoints succeed: after a failure
/// only [`CHECKPOINT`] tries again).
const PENDING_LIMIT: usize = 256;

/// Settings of the sled store.
#[derive(Clone)]
pub struct SledOptions {
    /// Also `fdatasync` the commit log after each group (and sled's file at each
    /// checkpoint): safe against power loss, at the price of a disk sync per group.
    pub sync_data: bool,
    /// Page cache size in bytes.
    pub cache_bytes: u64,
    /// How the committer waits for more appends to gather into a group.
    pub gather: Arc<dyn Gather>,
}

impl Default for SledOptions {
    fn default() -> Self {
        SledOptions {
            sync_data: false,
            cache_bytes: 64 * 1024 * 1024,
            gather: Arc::new(Sleep),
        }
    }
}

impl std::fmt::Debug for SledOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SledOptions")
            .field("sync_data", &self.sync_data)
            .field("cache_bytes", &self.cache_bytes)
            .finish_non_exhaustive()
    }
}

/// How the committer waits, before it writes a group, for more appends to join it: until
/// a deadline, or sooner when the server knows that nothing more is on its way (every
/// worker of its runtime is idle: whatever would send the next append is itself waiting).
pub trait Gather: Send + Sync {
    /// Sleeps until `deadline`, or until nothing more is on its way; whether it woke early.
    fn sleep_until(&self, deadline: Instant) -> bool;
}

/// Waits until the deadline, always (a server that cannot tell when its workers are idle).
#[derive(Clone, Copy, Debug, Default)]
pub struct Sleep;

impl Gather for Sleep {
    fn sleep_until(&self, deadline: Instant) -> bool {
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
        false
    }
}

/// The data directory was written by a newer Trinchera.
#[derive(Debug, thiserror::Error)]
#[error(
    "the data directory was written by a newer Trinchera (storage layout {found}); this \
     build reads layout {supported} or older: upgrade the server or use another --data-dir"
)]
pub struct NewerLayout {
    /// The layout found on disk.
    pub found: u8,
    /// The newest layout this build reads.
    pub supported: u8,
}

/// Why one append of a group was not made durable.
#[derive(Clone, Debug)]
enum Refusal {
    /// Its version was not the next of its log.
    Conflict,
    /// The group could not be written.
    Failed(Arc<SledError>),
}

type Waiter = oneshot::Sender<Result<(), Refusal>>;

/// One append (or a whole restored game), as the committer receives it.
struct Write {
    game: GameId,
    /// The version of the first record.
    version: u64,
    /// The log entries, one for an append.
    records: Vec<EventRecord>,
    /// The summary, if it changed.
    summary: Option<SummaryRecord>,
    /// Token index entries, for the seats taken.
    tokens: Vec<TokenHash>,
    /// Told once the append is durable, or why not.
    waiter: Waiter,
}

/// A request to the committer, with when it was queued.
type Queued = (Instant, Request);

/// Keys set or removed as they are, durably (the server's recorded life).
struct Put {
    ops: Vec<Op>,
    /// Told once the operations are durable, or why not.
    waiter: oneshot::Sender<Result<(), Arc<SledError>>>,
}

/// What the committer is asked to do.
enum Request {
    /// Append durably, with the rest of the group.
    Write(Box<Write>),
    /// Write these operations durably, with the rest of the group.
    Put(Put),
    /// Note the server's time with the next group.
    Alive(u64),
}

/// A [`Store`] in a sled database directory.
pub struct SledStore {
    /// sled with the keys on their way to it, shared with the committer.
    stored: Arc<Stored>,
    /// The next game id to hand out.
    next_game: AtomicU64,
    index: Arc<Index>,
    commits: Mutex<Option<mpsc::Sender<Queued>>>,
    committer: Mutex<Option<JoinHandle<()>>>,
    /// Bot leases: in memory, since one process holds the directory (a restart finds
    /// none, and its bots take their turns again).
    leases: Mutex<Leases>,
    /// The next account id to hand out; held while an account is created, so that a name
    /// is looked at and claimed in one step (one process holds the directory).
    next_account: tokio::sync::Mutex<u64>,
}

/// The key of the chunk that holds `version` (from 1) of `game`'s log.
fn chunk_key(game: GameId, version: u64) -> [u8; 13] {
    let chunk = u32::try_from(version.saturating_sub(1) / CHUNK).unwrap_or(u32::MAX);
    let mut key = [0; 13];
    key[0] = EVENT;
    key[1..9].copy_from_slice(&game.0.to_be_bytes());
    key[9..].copy_from_slice(&chunk.to_be_bytes());
    key
}

fn game_key(prefix: u8, game: GameId) -> [u8; 9] {
    let mut key = [0; 9];
    key[0] = prefix;
    key[1..].copy_from_slice(&game.0.to_be_bytes());
    key
}

fn account_key(account: AccountId) -> [u8; 9] {
    let mut key = [0; 9];
    key[0] = ACCOUNT;
    key[1..].copy_from_slice(&account.0.to_be_bytes());
    key
}

fn name_key(folded: &str) -> Vec<u8> {
    let mut key = vec![NAME];
    key.extend_from_slice(folded.as_bytes());
    key
}

fn account_token_key(token: &TokenHash) -> [u8; 33] {
    let mut key = [0; 33];
    key[0] = ACCOUNT_TOKEN;
    key[1..].copy_from_slice(&token.0);
    key
}

/// The key that lists `token` among `account`'s tokens.
fn listed_token_key(account: AccountId, token: &TokenHash) -> [u8; 41] {
    let mut key = [0; 41];
    key[0] = ACCOUNT_TOKENS;
    key[1..9].copy_from_slice(&account.0.to_be_bytes());
    key[9..].copy_from_slice(&token.0);
    key
}

fn account_of(bytes: &[u8]) -> Result<AccountId, SledError> {
    let bytes: [u8; 8] = bytes
        .try_into()
        .map_err(|_| SledError::Malformed("account key"))?;
    Ok(AccountId(u64::from_be_bytes(bytes)))
}

fn token_key(token: &TokenHash) -> [u8; 33] {
    let mut key = [0; 33];
    key[0] = TOKEN;
    key[1..].copy_from_slice(&token.0);
    key
}

fn game_of(bytes: &[u8]) -> Result<GameId, SledError> {
    let bytes: [u8; 8] = bytes
        .try_into()
        .map_err(|_| SledError::Malformed("game key"))?;
    Ok(GameId(u64::from_be_bytes(bytes)))
}

/// Deletes `snap.*.generating` leftovers of a snapshot interrupted by a crash (sled issues
/// #1527/#1533): with them present, every later open fails with `Corruption`.
pub(crate) fn remove_partial_snapshots(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut removed = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with("snap.") && name.ends_with(".generating") {
            std::fs::remove_file(&path)?;
            removed.push(path);
        }
    }
    Ok(removed)
}

/// Opens and closes the database in `dir` once more, after the server closed it, so that
/// the next start is quick. sled 0.34 writes its snapshot of the page table only when it
/// opens a database, and an open replays the whole log written since the last snapshot:
/// after a long run that is seconds. Paying it here, at a graceful shutdown, keeps the next
/// start short. Retries for up to `patience` while the previous handle is being released.
pub fn refresh_snapshot(dir: &Path, patience: Duration) -> Result<Duration, StoreError> {
    let started = Instant::now();
    loop {
        match sled::Config::new().path(dir).open() {
            Ok(db) => {
                drop(db);
                return Ok(started.elapsed());
            }
            Err(error) if started.elapsed() < patience => {
                tracing::debug!(%error, "the database is still being released");
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(error) => return Err(SledError::from(error).into()),
        }
    }
}

impl SledStore {
    /// Opens (creating if needed) the store in `dir`.
    pub fn open(dir: &Path, options: SledOptions) -> Result<SledStore, StoreError> {
        std::fs::create_dir_all(dir).map_err(SledError::io("the data directory"))?;
        let removed = remove_partial_snapshots(dir).map_err(SledError::io("the data directory"))?;
        for path in removed {
            tracing::warn!(path = %path.display(), "removed a partial snapshot left by a crash");
        }
        let db = sled::Config::new()
            .path(dir)
            .cache_capacity(options.cache_bytes)
            .open()
            .map_err(|error| match error {
                // sled words its lock failure only in the message.
                sled::Error::Io(io) if io.to_string().contains("could not acquire lock") => {
                    StoreError::Locked(dir.to_owned())
                }
                other => SledError::from(other).into(),
            })?;
        migrate::to_current_layout(&db)?;
        let data_file = match options.sync_data {
            true => Some(File::open(dir.join("db")).map_err(SledError::io("sled's data file"))?),
            false => None,
        };
        let store = Stored {
            db: db.clone(),
            pending: Pending::default(),
            data_file,
        };
        let (mut wal, groups) =
            Wal::open(&dir.join(WAL_FILE), options.sync_data).map_err(SledError::Log)?;
        if !groups.is_empty() {
            replay(&db, &groups)?;
            store.checkpoint(&mut wal)?;
            tracing::info!(
                groups = groups.len(),
                "replayed the commit log left by a server that stopped without closing"
            );
        }
        let index = Arc::new(Index::default());
        for item in db.scan_prefix([SUMMARY]) {
            let (key, value) = item.map_err(SledError::from)?;
            index.record(game_of(&key[1..])?, &records::decode(&value)?);
        }
        let stored = Arc::new(store);
        let (commits, requests) = mpsc::channel();
        let committer = {
            let stored = Arc::clone(&stored);
            let index = Arc::clone(&index);
            let gather = Arc::clone(&options.gather);
            std::thread::Builder::new()
                .name("trinchera-committer".into())
                .spawn(move || commit_loop(&stored, &index, &mut wal, &requests, &*gather))
                .map_err(SledError::io("the committer thread"))?
        };
        let last_account = match db.scan_prefix([ACCOUNT]).keys().next_back() {
            Some(key) => account_of(&key.map_err(SledError::from)?[1..])?.0,
            None => 0,
        };
        Ok(SledStore {
            stored,
            next_account: tokio::sync::Mutex::new(last_account + 1),
            next_game: AtomicU64::new(index.last().saturating_add(1)),
            index,
            commits: Mutex::new(Some(commits)),
            committer: Mutex::new(Some(committer)),
            leases: Mutex::new(Leases::default()),
        })
    }
}

/// How long a group commit waits at most for more appends after its first was queued.
///
/// The wait matters when many games move at once: when each group still paid a sled flush,
/// 10,000 games moving every 2 s with 10,000 spectators made 25,494 flushes in 20 s without
/// it, 8,335 with 1 ms and 6,360 with 2 ms, and the server's CPU per move fell from 279 to
/// 235 µs, which took the machine out of saturation (MakeMove p99 218 -> 16 ms); with the
/// commit log, bigger groups still cost less a move (windows of 0.25 to 5 ms measured). It
/// counts from the first append's queueing, not from the committer taking it: flat out,
/// that append has mostly waited through the previous group already, and waiting the whole
/// window again left the cores idle (128 games flat out: 8% more moves/s, with the same CPU
/// per move). The wait ends early
/// once every worker of the server's runtime is idle ([`SledOptions::gather`]):
/// then nothing is on its way to join the group, and a lone action does not pay the wait.
const GATHER: std::time::Duration = std::time::Duration::from_millis(2);

/// Takes the first request queued and everything queued until [`GATHER`] after it (or
/// until the server's workers run dry), writes the appends that are next in their logs as
/// one group, answers every request, and checkpoints when it is time. A failed group fails
/// every request in it; a conflict fails only its own append.
fn commit_loop(
    store: &Stored,
    index: &Index,
    wal: &mut Wal,
    requests: &mpsc::Receiver<Queued>,
    gather: &dyn Gather,
) {
    let mut checkpointed = Instant::now();
    let mut failing = false;
    loop {
        let received = if wal.len() == 0 {
            requests
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected)
        } else {
            requests.recv_timeout(CHECKPOINT.saturating_sub(checkpointed.elapsed()))
        };
        let (queued, first) = match received {
            Ok(request) => request,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                failing = !store.timed_checkpoint(wal, &mut checkpointed);
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        };
        let mut writes = Vec::new();
        let mut puts = Vec::new();
        let mut alive = None;
        // Sleep through the rest of the first request's window (it may have waited through
        // the previous group's write already), then take what queued: appends arriving
        // meanwhile wake nobody (waiting in `recv_timeout` instead woke this thread for
        // each).
        gather.sleep_until(queued + GATHER);
        let rest = requests.try_iter().map(|(_, request)| request);
        for request in std::iter::once(first).chain(rest) {
            match request {
                Request::Write(write) => writes.push(*write),
                Request::Put(put) => puts.push(put),
                Request::Alive(now) => alive = Some(now),
            }
        }
        let appends = writes.len();
        let started = Instant::now();
        let planned = plan(store, &writes, alive).map(|mut group| {
            group.extend(puts.iter().flat_map(|put| put.ops.iter().cloned()));
            group
        });
        let (result, conflicts) = match planned {
            Ok(group) => (
                store.write_group(wal, group.ops, group.entries),
                group.conflicts,
            ),
            Err(error) => (Err(error), vec![false; writes.len()]),
        };
        let result = result.map_err(Arc::new);
        if let Err(error) = &result {
            tracing::error!(%error, appends, "group commit failed");
        }
        if appends > 0 {
            trinchera_store::metrics::group_commit(appends, started.elapsed().as_secs_f64());
        }
        for put in puts {
            let _ = put.waiter.send(result.clone());
        }
        for (write, conflict) in writes.into_iter().zip(conflicts) {
            let answer = if conflict {
                Err(Refusal::Conflict)
            } else {
                if result.is_ok()
                    && let Some(summary) = &write.summary
                {
                    index.record(write.game, summary);
                }
                result.clone().map_err(Refusal::Failed)
            };
            // A waiter that gave up is fine: its append is durable anyway.
            let _ = write.waiter.send(answer);
        }
        // After a failed checkpoint only the timer tries again, not every group.
        let full = wal.len() >= WAL_LIMIT || store.pending.len() >= PENDING_LIMIT;
        if (full && !failing) || checkpointed.elapsed() >= CHECKPOINT {
            failing = !store.timed_checkpoint(wal, &mut checkpointed);
        }
    }
    if wal.len() > 0
        && let Err(error) = store.checkpoint(wal)
    {
        tracing::error!(%error, "the last checkpoint failed: the next open replays the commit log");
    }
}

/// What the committer writes to: sled, and the values on their way to it.
struct Stored {
    db: sled::Db,
    pending: Pending,
    /// sled's data file, to sync at checkpoints ([`SledOptions::sync_data`]).
    data_file: Option<File>,
}

impl Stored {
    /// The value of `key`, pending or in sled.
    fn get(&self, key: &[u8]) -> Result<Option<Vec<u8>>, SledError> {
        Ok(self.pending.get(&self.db, key)?)
    }

    /// Reads `game`'s log (on the calling thread).
    fn read_log(&self, game: GameId) -> Result<Vec<EventRecord>, SledError> {
        let mut log = Vec::new();
        let chunks = self.pending.scan_prefix(&self.db, &game_key(EVENT, game));
        for value in chunks? {
            let chunk: EventChunk = records::decode(&value)?;
            log.extend(chunk.events);
        }
        Ok(log)
    }

    /// Makes a group durable: its `entries` as a frame in the commit log; the values of
    /// the keys they change (`ops`) are pending until the next checkpoint sets them in
    /// sled.
    fn write_group(
        &self,
        wal: &mut Wal,
        ops: Vec<Op>,
        entries: Vec<Entry>,
    ) -> Result<(), SledError> {
        if entries.is_empty() {
            return Ok(());
        }
        wal.append(&entries).map_err(SledError::Log)?;
        self.pending.set(ops);
        Ok(())
    }

    /// Sets the pending keys in sled and flushes it, so that everything the commit log
    /// holds is in sled's files, then empties the log and forgets the pending keys. A
    /// failure keeps the pending keys, and the log unless only its emptying failed, for
    /// the next try.
    fn checkpoint(&self, wal: &mut Wal) -> Result<(), SledError> {
        self.pending.write_to(&self.db)?;
        self.db.flush()?;
        if let Some(file) = &self.data_file {
            file.sync_data()
                .map_err(SledError::io("sled's data file"))?;
        }
        wal.clear().map_err(SledError::Log)?;
        self.pending.clear();
        Ok(())
    }

    /// [`Stored::checkpoint`] from the committer's loop: a failure is logged and tried again
    /// later (the commit log keeps everything meanwhile). Returns whether it succeeded.
    fn timed_checkpoint(&self, wal: &mut Wal, checkpointed: &mut Instant) -> bool {
        *checkpointed = Instant::now();
        match self.checkpoint(wal) {
            Ok(()) => true,
            Err(error) => {
                tracing::error!(%error, "checkpoint failed: the commit log keeps growing until one succeeds");
                false
            }
        }
    }
}

/// Entries in the chunk `key` of the group being built, or stored.
fn chunk_of(
    store: &Stored,
    group: &HashMap<[u8; 13], Vec<u8>>,
    key: [u8; 13],
) -> Result<Option<Vec<u8>>, SledError> {
    match group.get(&key) {
        Some(chunk) => Ok(Some(chunk.clone())),
        None => store.get(&key),
    }
}

/// Whether `version` is the next of `game`'s log, given the chunks of the group so far and
/// `chunk`, the one `version` belongs in.
fn is_next(
    store: &Stored,
    group: &HashMap<[u8; 13], Vec<u8>>,
    game: GameId,
    version: u64,
    chunk: Option<&[u8]>,
) -> Result<bool, SledError> {
    let Some(before) = version.checked_sub(1) else {
        return Ok(false);
    };
    let in_chunk = (before % CHUNK) as usize;
    if in_chunk > 0 {
        return Ok(match chunk {
            Some(chunk) => EventChunk::count(chunk)? == in_chunk,
            None => false,
        });
    }
    if chunk.is_some() {
        return Ok(false);
    }
    if before == 0 {
        return Ok(store.get(&game_key(SUMMARY, game))?.is_none());
    }
    Ok(match chunk_of(store, group, chunk_key(game, before))? {
        Some(previous) => EventChunk::count(&previous)? == CHUNK as usize,
        None => false,
    })
}

/// A group as planned: the keys it sets (for the pending values and the checkpoint), what
/// the commit log records of it, and for each write whether it conflicted.
#[derive(Default)]
struct Group {
    ops: Vec<Op>,
    entries: Vec<Entry>,
    conflicts: Vec<bool>,
}

impl Group {
    /// Sets `key` to `value` in both forms.
    fn set(&mut self, key: Vec<u8>, value: Vec<u8>) {
        self.entries.push(Entry::Set(key.clone(), value.clone()));
        self.ops.push(Op::Insert(key, value));
    }

    /// Adds operations on keys as they are (a [`Put`]'s).
    fn extend(&mut self, ops: impl IntoIterator<Item = Op>) {
        for op in ops {
            self.entries.push(match &op {
                Op::Insert(key, value) => Entry::Set(key.clone(), value.clone()),
                Op::Remove(key) => Entry::Remove(key.clone()),
            });
            self.ops.push(op);
        }
    }
}

/// Plans a group: every append that is next in its log is appended to its chunk (read from
/// the group itself when an earlier append of the group changed it) and recorded as its
/// event, with its summary and token; `alive` notes the server's time.
fn plan(store: &Stored, writes: &[Write], alive: Option<u64>) -> Result<Group, SledError> {
    let mut chunks: HashMap<[u8; 13], Vec<u8>> = HashMap::new();
    let mut group = Group {
        conflicts: Vec::with_capacity(writes.len()),
        ..Group::default()
    };
    for write in writes {
        let first = chunk_of(store, &chunks, chunk_key(write.game, write.version))?;
        if !is_next(store, &chunks, write.game, write.version, first.as_deref())? {
            group.conflicts.push(true);
            continue;
        }
        group.conflicts.push(false);
        // The first record goes into the chunk just read; later ones (a restored game's)
        // into whatever the group holds by then.
        let mut first = Some(first);
        for (version, record) in (write.version..).zip(&write.records) {
            let key = chunk_key(write.game, version);
            let stored = match first.take() {
                Some(chunk) => chunk,
                None => chunk_of(store, &chunks, key)?,
            };
            let record = prost::Message::encode_to_vec(record);
            chunks.insert(key, EventChunk::append_encoded(stored, &record));
            group.entries.push(Entry::Event {
                game: write.game,
                version,
                record,
            });
        }
        if let Some(summary) = &write.summary {
            let key = game_key(SUMMARY, write.game).to_vec();
            group.set(key, records::encode(summary));
        }
        for token in &write.tokens {
            group.set(
                token_key(token).to_vec(),
                write.game.0.to_be_bytes().to_vec(),
            );
        }
    }
    group.ops.extend(
        chunks
            .into_iter()
            .map(|(key, value)| Op::Insert(key.to_vec(), value)),
    );
    if let Some(now) = alive {
        group.set(ALIVE_KEY.to_vec(), now.to_be_bytes().to_vec());
    }
    Ok(group)
}

/// Replays the groups a commit log holds into `db`, in order: sets and removals as they
/// are, and each event appended to its chunk unless the chunk holds it already (a
/// checkpoint that wrote part of the keys before the crash). An event after a gap in its
/// log is refused: no group ever wrote one.
fn replay(db: &sled::Db, groups: &[Vec<Entry>]) -> Result<(), SledError> {
    for entry in groups.iter().flatten() {
        match entry {
            Entry::Set(key, value) => wal::set(db, key, Some(value))?,
            Entry::Remove(key) => wal::set(db, key, None)?,
            Entry::Event {
                game,
                version,
                record,
            } => {
                let key = chunk_key(*game, *version);
                let chunk = db.get(key)?.map(|chunk| chunk.to_vec());
                let held = chunk.as_deref().map_or(Ok(0), EventChunk::count)?;
                let position = (version.saturating_sub(1) % CHUNK) as usize;
                if held == position {
                    db.insert(key, EventChunk::append_encoded(chunk, record))?;
                } else if held < position {
                    return Err(SledError::Malformed("commit log event after a gap"));
                }
            }
        }
    }
    Ok(())
}

impl SledStore {
    fn leases(&self) -> std::sync::MutexGuard<'_, Leases> {
        self.leases.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn send(&self, request: Request) -> Result<(), StoreError> {
        let commits = self.commits.lock().map_err(|_| StoreError::Closed)?;
        let commits = commits.as_ref().ok_or(StoreError::Closed)?;
        commits
            .send((Instant::now(), request))
            .map_err(|_| StoreError::Closed)
    }

    /// Queues `append` of `game` and waits until it is durable.
    async fn write(&self, game: GameId, append: Append<'_>) -> Result<(), StoreError> {
        let version = append.version;
        let write = |waiter| Write {
            game,
            version,
            records: vec![append.record.clone()],
            summary: append.summary.cloned(),
            tokens: append.token.into_iter().collect(),
            waiter,
        };
        match self.commit(write).await? {
            Ok(()) => {
                self.leases().write(game, append.lease);
                Ok(())
            }
            Err(Refusal::Conflict) => Err(StoreError::Conflict { game, version }),
            Err(Refusal::Failed(error)) => Err(StoreError::backend(error)),
        }
    }

    /// Queues the write that `write` makes of its waiter and waits for the committer's
    /// answer.
    async fn commit(
        &self,
        write: impl FnOnce(Waiter) -> Write,
    ) -> Result<Result<(), Refusal>, StoreError> {
        let (waiter, done) = oneshot::channel();
        self.send(Request::Write(Box::new(write(waiter))))?;
        done.await.map_err(|_| StoreError::Closed)
    }

    /// Reads the recorded life (on the calling thread).
    fn read_lifetime(&self) -> Result<Lifetime, StoreError> {
        let downtime = match self.stored.get(DOWNTIME_KEY)? {
            Some(bytes) => bytes
                .chunks_exact(16)
                .filter_map(|pair| {
                    let from = u64::from_be_bytes(pair[..8].try_into().ok()?);
                    let to = u64::from_be_bytes(pair[8..].try_into().ok()?);
                    Some((from, to))
                })
                .collect(),
            None => Vec::new(),
        };
        let alive_ms = self
            .stored
            .get(ALIVE_KEY)?
            .and_then(|bytes| bytes.as_slice().try_into().ok().map(u64::from_be_bytes));
        Ok(Lifetime {
            alive_ms,
            downtime: Downtime(downtime),
        })
    }

    /// Writes the recorded life, durably, through the committer.
    async fn write_lifetime(&self, lifetime: &Lifetime) -> Result<(), StoreError> {
        let downtime: Vec<u8> = lifetime
            .downtime
            .0
            .iter()
            .flat_map(|&(from, to)| [from.to_be_bytes(), to.to_be_bytes()])
            .flatten()
            .collect();
        let alive = match lifetime.alive_ms {
            Some(alive) => Op::Insert(ALIVE_KEY.to_vec(), alive.to_be_bytes().to_vec()),
            None => Op::Remove(ALIVE_KEY.to_vec()),
        };
        self.put(vec![Op::Insert(DOWNTIME_KEY.to_vec(), downtime), alive])
            .await
    }

    /// Writes `ops` durably, through the committer.
    async fn put(&self, ops: Vec<Op>) -> Result<(), StoreError> {
        let (waiter, done) = oneshot::channel();
        self.send(Request::Put(Put { ops, waiter }))?;
        done.await
            .map_err(|_| StoreError::Closed)?
            .map_err(StoreError::backend)
    }

    /// A stored record under `key`, decoded.
    fn read<M: prost::Message + Default>(&self, key: &[u8]) -> Result<Option<M>, StoreError> {
        self.stored
            .get(key)?
            .map(|value| records::decode(&value).map_err(StoreError::from))
            .transpose()
    }

    /// The operations that store `account` under `id` and give it its folded name.
    fn account_ops(id: AccountId, account: &AccountRecord) -> Vec<Op> {
        vec![
            Op::Insert(account_key(id).to_vec(), records::encode(account)),
            Op::Insert(name_key(&account.folded), id.0.to_be_bytes().to_vec()),
        ]
    }

    /// The operations that store `token` of its account under `hash`.
    fn token_ops(hash: &TokenHash, token: &AccountTokenRecord) -> Vec<Op> {
        let listed = listed_token_key(AccountId(token.account), hash);
        vec![
            Op::Insert(account_token_key(hash).to_vec(), records::encode(token)),
            Op::Insert(listed.to_vec(), Vec::new()),
        ]
    }

    fn read_summary(&self, game: GameId) -> Result<Option<SummaryRecord>, StoreError> {
        self.stored
            .get(&game_key(SUMMARY, game))?
            .map(|value| records::decode(&value).map_err(StoreError::from))
            .transpose()
    }
}

#[async_trait::async_trait]
impl Store for SledStore {
    async fn create(&self, creation: Append<'_>) -> Result<GameId, StoreError> {
        let game = GameId(self.next_game.fetch_add(1, Ordering::Relaxed));
        self.write(game, creation).await?;
        Ok(game)
    }

    async fn append(&self, game: GameId, append: Append<'_>) -> Result<(), StoreError> {
        self.write(game, append).await
    }

    async fn log(&self, game: GameId) -> Result<Vec<EventRecord>, StoreError> {
        let stored = Arc::clone(&self.stored);
        // A long log is many chunks to read and decode: not on the async workers.
        let log = tokio::task::spawn_blocking(move || stored.read_log(game))
            .await
            .map_err(StoreError::backend)??;
        Ok(log)
    }

    async fn exists(&self, game: GameId) -> Result<bool, StoreError> {
        Ok(self.index.exists(game))
    }

    async fn summary(&self, game: GameId) -> Result<Option<SummaryRecord>, StoreError> {
        self.read_summary(game)
    }

    async fn list(&self, query: &ListQuery) -> Result<Vec<(GameId, SummaryRecord)>, StoreError> {
        let mut games = Vec::new();
        for game in self.index.page(query) {
            if let Some(summary) = self.read_summary(game)? {
                games.push((game, summary));
            }
        }
        Ok(games)
    }

    async fn unfinished(&self, which: Unfinished) -> Result<Vec<GameId>, StoreError> {
        Ok(self.index.unfinished(which))
    }

    async fn count_unfinished(&self, which: Unfinished) -> Result<usize, StoreError> {
        Ok(self.index.count_unfinished(which))
    }

    async fn unstarted(&self) -> Result<Vec<Unstarted>, StoreError> {
        Ok(self.index.unstarted())
    }

    async fn token_owner(&self, token: &TokenHash) -> Result<Option<GameId>, StoreError> {
        let owner = self.stored.get(&token_key(token))?;
        Ok(owner.map(|value| game_of(&value)).transpose()?)
    }

    async fn mark_alive(&self, now_ms: u64) -> Result<(), StoreError> {
        self.send(Request::Alive(now_ms))
    }

    async fn record_downtime(&self, now_ms: u64) -> Result<Downtime, StoreError> {
        let mut lifetime = self.read_lifetime()?;
        lifetime.downtime.note_start(lifetime.alive_ms, now_ms);
        lifetime.alive_ms = Some(now_ms);
        self.write_lifetime(&lifetime).await?;
        Ok(lifetime.downtime)
    }

    async fn restore(&self, game: GameId, restored: Restored<'_>) -> Result<bool, StoreError> {
        trinchera_store::restorable(game)?;
        self.next_game.fetch_max(game.0 + 1, Ordering::Relaxed);
        let write = |waiter| Write {
            game,
            version: 1,
            records: restored.log.to_vec(),
            summary: Some(restored.summary.clone()),
            tokens: restored.tokens.to_vec(),
            waiter,
        };
        match self.commit(write).await? {
            Ok(()) => Ok(true),
            Err(Refusal::Conflict) => Ok(false),
            Err(Refusal::Failed(error)) => Err(StoreError::backend(error)),
        }
    }

    async fn lifetime(&self) -> Result<Lifetime, StoreError> {
        self.read_lifetime()
    }

    async fn restore_lifetime(&self, lifetime: &Lifetime) -> Result<(), StoreError> {
        self.write_lifetime(lifetime).await
    }

    async fn size_on_disk(&self) -> Result<Option<u64>, StoreError> {
        let bytes = self.stored.db.size_on_disk().map_err(SledError::from)?;
        Ok(Some(bytes))
    }

    async fn take_lease(
        &self,
        game: GameId,
        holder: u64,
        now_ms: u64,
        until_ms: u64,
    ) -> Result<bool, StoreError> {
        Ok(self.index.exists(game) && self.leases().take(game, holder, now_ms, until_ms))
    }

    async fn renew_leases(
        &self,
        holder: u64,
        games: &[GameId],
        until_ms: u64,
    ) -> Result<(), StoreError> {
        self.leases().renew(holder, games, until_ms);
        Ok(())
    }

    async fn expired_leases(&self, now_ms: u64, limit: usize) -> Result<Vec<GameId>, StoreError> {
        Ok(self.leases().expired(now_ms, limit))
    }

    async fn give_up_leases(&self, holder: u64) -> Result<(), StoreError> {
        self.leases().give_up(holder);
        Ok(())
    }

    async fn create_account(
        &self,
        account: &AccountRecord,
        reusable_before_ms: u64,
    ) -> Result<Option<AccountId>, StoreError> {
        let mut next = self.next_account.lock().await;
        if let Some((_, holder)) = self.account_named(&account.folded).await?
            && !trinchera_store::name_is_free(Some(&holder), reusable_before_ms)
        {
            return Ok(None);
        }
        let id = AccountId(*next);
        self.put(SledStore::account_ops(id, account)).await?;
        *next += 1;
        Ok(Some(id))
    }

    async fn account(&self, id: AccountId) -> Result<Option<AccountRecord>, StoreError> {
        self.read(&account_key(id))
    }

    async fn account_named(
        &self,
        folded: &str,
    ) -> Result<Option<(AccountId, AccountRecord)>, StoreError> {
        let Some(id) = self.stored.get(&name_key(folded))? else {
            return Ok(None);
        };
        let id = account_of(&id)?;
        Ok(self.account(id).await?.map(|account| (id, account)))
    }

    async fn update_account(
        &self,
        id: AccountId,
        account: &AccountRecord,
    ) -> Result<(), StoreError> {
        let record = Op::Insert(account_key(id).to_vec(), records::encode(account));
        self.put(vec![record]).await
    }

    async fn accounts(
        &self,
        after: Option<AccountId>,
        limit: usize,
    ) -> Result<Vec<(AccountId, AccountRecord)>, StoreError> {
        let values = self
            .stored
            .pending
            .scan_prefix_keys(&self.stored.db, &[ACCOUNT])
            .map_err(SledError::from)?;
        let mut page = Vec::new();
        for (key, value) in values {
            let id = account_of(&key[1..])?;
            if after.is_some_and(|after| id <= after) {
                continue;
            }
            page.push((id, records::decode(&value)?));
            if page.len() == limit {
                break;
            }
        }
        Ok(page)
    }

    async fn put_account_token(
        &self,
        hash: &TokenHash,
        token: &AccountTokenRecord,
    ) -> Result<(), StoreError> {
        self.put(SledStore::token_ops(hash, token)).await
    }

    async fn account_token(
        &self,
        hash: &TokenHash,
    ) -> Result<Option<AccountTokenRecord>, StoreError> {
        self.read(&account_token_key(hash))
    }

    async fn account_tokens(
        &self,
        account: AccountId,
    ) -> Result<Vec<(TokenHash, AccountTokenRecord)>, StoreError> {
        let mut prefix = vec![ACCOUNT_TOKENS];
        prefix.extend_from_slice(&account.0.to_be_bytes());
        let listed = self
            .stored
            .pending
            .scan_prefix_keys(&self.stored.db, &prefix)
            .map_err(SledError::from)?;
        let mut tokens = Vec::new();
        for (key, _) in listed {
            let hash = TokenHash(
                key[9..]
                    .try_into()
                    .map_err(|_| SledError::Malformed("account token key"))?,
            );
            if let Some(token) = self.account_token(&hash).await? {
                tokens.push((hash, token));
            }
        }
        Ok(tokens)
    }

    async fn remove_account_token(&self, hash: &TokenHash) -> Result<bool, StoreError> {
        let Some(token) = self.account_token(hash).await? else {
            return Ok(false);
        };
        let listed = listed_token_key(AccountId(token.account), hash);
        let ops = vec![
            Op::Remove(account_token_key(hash).to_vec()),
            Op::Remove(listed.to_vec()),
        ];
        self.put(ops).await?;
        Ok(true)
    }

    async fn restore_account(
        &self,
        id: AccountId,
        account: &AccountRecord,
        tokens: &[(TokenHash, AccountTokenRecord)],
    ) -> Result<bool, StoreError> {
        let mut next = self.next_account.lock().await;
        if self.account(id).await?.is_some() {
            return Ok(false);
        }
        let mut ops = vec![Op::Insert(
            account_key(id).to_vec(),
            records::encode(account),
        )];
        let holder = self.stored.get(&name_key(&account.folded))?;
        let held_by_later = holder
            .and_then(|bytes| <[u8; 8]>::try_from(bytes.as_ref()).ok())
            .is_some_and(|bytes| u64::from_be_bytes(bytes) > id.0);
        if !held_by_later {
            ops.push(Op::Insert(
                name_key(&account.folded),
                id.0.to_be_bytes().to_vec(),
            ));
        }
        for (hash, token) in tokens {
            ops.extend(SledStore::token_ops(hash, token));
        }
        self.put(ops).await?;
        *next = (*next).max(id.0 + 1);
        Ok(true)
    }

    async fn close(&self) -> Result<(), StoreError> {
        self.shut();
        self.stored.db.flush().map_err(SledError::from)?;
        Ok(())
    }
}

impl SledStore {
    /// Stops the committer once everything queued is applied.
    fn shut(&self) {
        if let Ok(mut commits) = self.commits.lock() {
            commits.take();
        }
        if let Some(committer) = self.committer.lock().ok().and_then(|mut c| c.take()) {
            let _ = committer.join();
        }
    }
}

impl Drop for SledStore {
    fn drop(&mut self) {
        self.shut();
        if let Err(error) = self.stored.db.flush() {
            tracing::error!(%error, "final flush failed");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use trinchera_store::GamePhase;
    use trinchera_store::records::Entry;

    /// Opens the store in `dir` once the previous handle's background threads have let go
    /// of the file lock (sled releases it a moment after the drop).
    fn reopen(dir: &Path) -> SledStore {
        open_when_unlocked(dir).unwrap_or_else(|error| panic!("cannot open the store: {error}"))
    }

    /// Opens the store in `dir` once a dropped one's flusher thread has let go of the lock.
    fn open_when_unlocked(dir: &Path) -> Result<SledStore, StoreError> {
        for _ in 0..100 {
            match SledStore::open(dir, SledOptions::default()) {
                Err(StoreError::Locked(_)) => {
                    std::thread::sleep(std::time::Duration::from_millis(50));
                }
                other => return other,
            }
        }
        panic!("the store's lock was never released")
    }

    #[test]
    fn a_directory_in_use_is_refused_in_words() {
        let dir = tempfile::tempdir().expect("temp dir");
        let _first = SledStore::open(dir.path(), SledOptions::default()).expect("opens");
        let second = SledStore::open(dir.path(), SledOptions::default());
        let Err(error @ StoreError::Locked(_)) = second else {
            panic!("a second store: {:?}", second.err());
        };
        assert_eq!(
            error.to_string(),
            format!("another trinchera-server is using {}", dir.path().display())
        );
    }

    fn event(notation: &str) -> EventRecord {
        EventRecord {
            seat: Some(0),
            entry: Some(Entry::Move(notation.into())),
            ..EventRecord::default()
        }
    }

    /// Appends the move `notation` as `version` of `game`, without summary or token.
    async fn write_move(store: &SledStore, game: GameId, version: u64, notation: &str) {
        store
            .append(
                game,
                Append {
                    version,
                    record: &event(notation),
                    summary: None,
                    token: None,
                    lease: None,
                },
            )
            .await
            .expect("appends");
    }

    fn notations(log: &[EventRecord]) -> Vec<String> {
        log.iter()
            .map(|e| match &e.entry {
                Some(Entry::Move(n)) => n.clone(),
                _ => String::new(),
            })
            .collect()
    }

    #[tokio::test]
    async fn a_log_reads_whole_while_its_last_chunk_waits_for_a_checkpoint() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path(), SledOptions::default()).expect("opens");
        let game = GameId(1);
        let moves: Vec<String> = (1..=2 * CHUNK).map(|v| format!("m{v}")).collect();
        for (version, notation) in (1..).zip(&moves[..CHUNK as usize]) {
            write_move(&store, game, version, notation).await;
        }
        // The committer checkpoints once the log has held frames for a while.
        let mut waited = 0;
        while store.stored.pending.len() > 0 {
            assert!(waited < 500, "no checkpoint in 5 s");
            tokio::time::sleep(Duration::from_millis(10)).await;
            waited += 1;
        }
        let in_sled = || -> usize {
            let chunks = store.stored.db.scan_prefix(game_key(EVENT, game)).values();
            chunks
                .map(|chunk| EventChunk::count(&chunk.expect("chunk")).expect("count"))
                .sum()
        };
        // Each move now waits in the pending values for a checkpoint: the log reads whole
        // meanwhile, from sled and from them.
        let mut read_from_both = false;
        for (version, notation) in (CHUNK + 1..).zip(&moves[CHUNK as usize..]) {
            write_move(&store, game, version, notation).await;
            let sled_alone = in_sled();
            let log = notations(&store.log(game).await.expect("log"));
            assert_eq!(log, moves[..version as usize]);
            read_from_both |= sled_alone >= CHUNK as usize && sled_alone < log.len();
        }
        assert!(
            read_from_both,
            "every move reached sled before its log was read"
        );
    }

    #[tokio::test(flavor = "multi_thread")]
    async fn long_logs_span_chunks_and_groups() {
        let dir = tempfile::tempdir().expect("temp dir");
        let total = 3 * CHUNK + 5;
        let moves: Vec<String> = (1..=total).map(|v| format!("m{v}")).collect();
        let (a, b) = (GameId(1), GameId(2));
        {
            let store =
                Arc::new(SledStore::open(dir.path(), SledOptions::default()).expect("opens"));
            for (version, notation) in (1..).zip(&moves) {
                // Two games interleaved, their appends in the same groups.
                let both = [a, b].map(|game| {
                    let store = Arc::clone(&store);
                    let notation = notation.clone();
                    tokio::spawn(async move { write_move(&store, game, version, &notation).await })
                });
                for append in both {
                    append.await.expect("task");
                }
            }
            assert_eq!(notations(&store.log(a).await.expect("log")), moves);
            // Versions out of turn are refused and write nothing.
            for version in [1, total, total + 2, total + CHUNK] {
                let refused = store
                    .append(
                        a,
                        Append {
                            version,
                            record: &event("late"),
                            summary: None,
                            token: None,
                            lease: None,
                        },
                    )
                    .await;
                assert!(
                    matches!(refused, Err(StoreError::Conflict { .. })),
                    "version {version}: {refused:?}"
                );
            }
        }
        let store = reopen(dir.path());
        assert_eq!(notations(&store.log(a).await.expect("log")), moves);
        assert_eq!(notations(&store.log(b).await.expect("log")), moves);
        let keys = store.stored.db.scan_prefix(game_key(EVENT, a)).count() as u64;
        assert_eq!(keys, total.div_ceil(CHUNK));
    }

    #[tokio::test]
    async fn layout_1_directories_are_converted_on_open() {
        let dir = tempfile::tempdir().expect("temp dir");
        let layout_1_key = |game: u64, version: u64| {
            let mut key = vec![EVENT];
            key.extend_from_slice(&game.to_be_bytes());
            key.extend_from_slice(&version.to_be_bytes());
            key
        };
        let moves: Vec<String> = (1..=CHUNK + 3).map(|v| format!("m{v}")).collect();
        {
            let db = sled::open(dir.path()).expect("sled");
            db.insert(FORMAT_KEY, &[1]).expect("insert");
            for game in [3, 4] {
                for (version, notation) in (1..).zip(&moves) {
                    db.insert(
                        layout_1_key(game, version),
                        records::encode(&event(notation)),
                    )
                    .expect("insert");
                }
            }
            db.flush().expect("flush");
        }
        let store = reopen(dir.path());
        for game in [GameId(3), GameId(4)] {
            assert_eq!(notations(&store.log(game).await.expect("log")), moves);
        }
        assert_eq!(
            store.stored.db.get(FORMAT_KEY).expect("get").as_deref(),
            Some([LAYOUT].as_slice())
        );
        let next = CHUNK + 4;
        write_move(&store, GameId(3), next, "after").await;
        assert_eq!(
            notations(&store.log(GameId(3)).await.expect("log"))
                .last()
                .map(String::as_str),
            Some("after")
        );
        let old_keys = store
            .stored
            .db
            .scan_prefix([EVENT])
            .keys()
            .filter(|k| {
                k.as_ref()
                    .is_ok_and(|k| k.len() == migrate::LAYOUT_1_EVENT_KEY)
            })
            .count();
        assert_eq!(old_keys, 0);
    }

    /// What a server killed after writing `moves` of `game` to the commit log, before any
    /// checkpoint, leaves in `dir` (sled itself has none of it): frames of events, or with
    /// `layout_3`, of whole chunks as a layout 3 server wrote them.
    fn crashed_after(dir: &Path, game: GameId, moves: &[String], layout_3: bool) {
        drop(SledStore::open(dir, SledOptions::default()).expect("opens"));
        let (mut wal, _) = Wal::open(&dir.join(WAL_FILE), false).expect("commit log");
        let mut chunk: Option<Vec<u8>> = None;
        for (version, notation) in (1u64..).zip(moves) {
            let open = chunk.take().filter(|_| (version - 1) % CHUNK > 0);
            let bytes = EventChunk::append(open, &event(notation));
            let mut entries = vec![match layout_3 {
                true => wal::Entry::Set(chunk_key(game, version).to_vec(), bytes.clone()),
                false => wal::Entry::Event {
                    game,
                    version,
                    record: prost::Message::encode_to_vec(&event(notation)),
                },
            }];
            if version == 1 {
                let summary = SummaryRecord {
                    ruleset: "frente".into(),
                    phase: GamePhase::Playing.number(),
                    ..SummaryRecord::default()
                };
                entries.push(wal::Entry::Set(
                    game_key(SUMMARY, game).to_vec(),
                    records::encode(&summary),
                ));
            }
            wal.append(&entries).expect("frame");
            chunk = Some(bytes);
        }
    }

    #[tokio::test]
    async fn an_open_replays_a_commit_log_of_events_or_of_layout_3_chunks() {
        for layout_3 in [false, true] {
            let dir = tempfile::tempdir().expect("temp dir");
            let game = GameId(7);
            let moves: Vec<String> = (1..=CHUNK + 5).map(|v| format!("m{v}")).collect();
            crashed_after(dir.path(), game, &moves, layout_3);
            let store = reopen(dir.path());
            assert_eq!(notations(&store.log(game).await.expect("log")), moves);
        }
    }

    #[tokio::test]
    async fn a_replay_after_a_partial_checkpoint_appends_each_event_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let game = GameId(7);
        let moves: Vec<String> = (1..=6).map(|v| format!("m{v}")).collect();
        crashed_after(dir.path(), game, &moves, false);
        // The checkpoint under way had set the chunk with the first four moves in sled.
        {
            let db = sled::open(dir.path()).expect("sled");
            let chunk = moves[..4].iter().fold(None, |chunk, notation| {
                Some(EventChunk::append(chunk, &event(notation)))
            });
            db.insert(chunk_key(game, 1), chunk.expect("a chunk"))
                .expect("insert");
            db.flush().expect("flush");
        }
        let store = reopen(dir.path());
        assert_eq!(notations(&store.log(game).await.expect("log")), moves);
    }

    #[tokio::test]
    async fn an_open_replays_the_commit_log_and_empties_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let game = GameId(7);
        let moves: Vec<String> = (1..=5).map(|v| format!("m{v}")).collect();
        crashed_after(dir.path(), game, &moves, false);
        let store = reopen(dir.path());
        assert!(
            store.exists(game).await.expect("exists"),
            "the index sees it"
        );
        assert_eq!(notations(&store.log(game).await.expect("log")), moves);
        assert_eq!(
            std::fs::metadata(dir.path().join(WAL_FILE))
                .expect("log")
                .len(),
            0
        );
        // The next append follows the replayed ones; new games get new ids.
        write_move(&store, game, 6, "m6").await;
        let next = store
            .create(Append {
                version: 1,
                record: &event("created"),
                summary: Some(&SummaryRecord {
                    phase: GamePhase::Waiting.number(),
                    ..SummaryRecord::default()
                }),
                token: None,
                lease: None,
            })
            .await
            .expect("creates");
        assert!(next.0 > game.0);
        // Closed without a crash, nothing is left to replay and nothing is lost.
        drop(store);
        let store = reopen(dir.path());
        assert_eq!(store.log(game).await.expect("log").len(), 6);
        assert_eq!(
            std::fs::metadata(dir.path().join(WAL_FILE))
                .expect("log")
                .len(),
            0
        );
    }

    #[tokio::test]
    async fn the_recorded_life_goes_through_the_commit_log() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = SledStore::open(dir.path(), SledOptions::default()).expect("opens");
        let downtime = store.record_downtime(1_000).await.expect("first start");
        assert!(downtime.0.is_empty());
        store.mark_alive(5_000).await.expect("alive");
        drop(store);
        let store = reopen(dir.path());
        assert_eq!(store.lifetime().await.expect("life").alive_ms, Some(5_000));
        let downtime = store.record_downtime(9_000).await.expect("second start");
        assert_eq!(downtime.0, vec![(5_000, 9_000)]);
    }

    #[test]
    fn layout_2_and_3_directories_become_the_current_layout_on_open() {
        for old in [2, 3] {
            let dir = tempfile::tempdir().expect("temp dir");
            {
                let db = sled::Config::new().path(dir.path()).open().expect("sled");
                db.insert(FORMAT_KEY, &[old]).expect("insert");
                db.flush().expect("flush");
            }
            let store = reopen(dir.path());
            let format = store
                .stored
                .db
                .get(FORMAT_KEY)
                .expect("get")
                .expect("format");
            assert_eq!(format.as_ref(), [LAYOUT], "from layout {old}");
        }
    }

    #[test]
    fn newer_format_is_refused_with_a_clear_message() {
        let dir = tempfile::tempdir().expect("temp dir");
        {
            let db = sled::open(dir.path()).expect("sled");
            db.insert(FORMAT_KEY, &[LAYOUT + 1]).expect("insert");
            db.flush().expect("flush");
        }
        let error = open_when_unlocked(dir.path()).err().expect("refused");
        assert!(matches!(&error, StoreError::Incompatible(e) if e.is::<NewerLayout>()));
        assert!(error.to_string().contains("newer Trinchera"), "{error}");
    }

    #[tokio::test]
    async fn a_refreshed_snapshot_keeps_everything() {
        let dir = tempfile::tempdir().expect("temp dir");
        {
            let store = SledStore::open(dir.path(), SledOptions::default()).expect("opens");
            write_move(&store, GameId(1), 1, "a1-a2").await;
        }
        refresh_snapshot(dir.path(), Duration::from_secs(5)).expect("refreshes");
        let store = reopen(dir.path());
        assert_eq!(
            notations(&store.log(GameId(1)).await.expect("log")),
            ["a1-a2"]
        );
    }

    #[test]
    fn partial_snapshots_are_removed_before_open() {
        let dir = tempfile::tempdir().expect("temp dir");
        drop(SledStore::open(dir.path(), SledOptions::default()).expect("opens"));
        let leftover = dir.path().join("snap.000000000000C0DE.generating");
        std::fs::write(&leftover, b"partial").expect("write");
        let kept = dir.path().join("snapshot-notes.txt");
        std::fs::write(&kept, b"keep").expect("write");
        // Sled's flusher thread lets go of the lock a moment after the drop.
        drop(reopen(dir.path()));
        assert!(!leftover.exists());
        assert!(kept.exists());
    }

    #[tokio::test]
    async fn sync_data_mode_commits() {
        let dir = tempfile::tempdir().expect("temp dir");
        let options = SledOptions {
            sync_data: true,
            ..SledOptions::default()
        };
        let store = SledStore::open(dir.path(), options).expect("opens");
        write_move(&store, GameId(1), 1, "a1-a2").await;
        store.close().await.expect("closes");
        let closed = store
            .append(
                GameId(1),
                Append {
                    version: 2,
                    record: &event("a2-a3"),
                    summary: None,
                    token: None,
                    lease: None,
                },
            )
            .await;
        assert!(matches!(closed, Err(StoreError::Closed)), "{closed:?}");
    }
}
