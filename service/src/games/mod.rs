//! The game manager: loads games on demand, serializes the acts on each game, persists them
//! durably before answering, and publishes them to watchers.
//!
//! Split by concern: [`cache`] holds the games in memory (one lock each, loaded on demand,
//! dropped when idle), `act` is the one write path (lock → settle → authorise → apply →
//! commit → publish) that clients, bots and deadlines all take, `deadlines` settles the time
//! limits, `bot_turns` lets bots act on their own tasks, `reads` answers views, histories,
//! replays, watches and listings, `auth` maps tokens to seats, `reservations` counts the
//! open games each address created, [`quota`] caps replays, `thinking` lines bots up for
//! the cores; the rate limits are [`crate::throttle`]'s.

mod act;
mod auth;
mod bot_turns;
pub(crate) mod cache;
mod deadlines;
mod follow;
pub(crate) mod quota;
mod reads;
mod reservations;
#[cfg(test)]
mod tests;
mod thinking;

use std::collections::HashSet;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use trinchera_store::Downtime;

use tokio::sync::{broadcast, watch};
use trinchera_rules::{Action, Placement, Setup};

pub(crate) use self::act::{Answer, Intent, Who};
pub(crate) use self::auth::Caller;
use self::cache::Cache;
use self::deadlines::Deadlines;
use self::quota::{Quota, QuotaNames, QuotaPermit};
use self::reservations::Reservations;
use self::thinking::Thinking;
use crate::accounts::AccountLimits;
use crate::error::ApiError;
use crate::hub::Published;
use crate::names::NameLimit;
use crate::now::{SystemTime, TimeSource};
use crate::throttle::{RateLimits, Throttle};
use trinchera_game::{GameEvent, ReplayOpening, ReplaySteps, Snapshot};
use trinchera_store::GameId;
use trinchera_store::records::EventRecord;
use trinchera_store::{Store, StoreError, Unfinished};

/// Limits that protect the server; each refusal names the limit.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Unfinished games the server holds at most.
    pub max_open_games: usize,
    /// Unfinished games that clients from one address may have created at most (counted
    /// since the server started).
    pub max_open_games_per_peer: usize,
    /// Longest game name.
    pub max_game_name: NameLimit,
    /// Longest player name.
    pub max_player_name: NameLimit,
    /// Longest move notation, in bytes.
    pub max_notation: usize,
    /// Events a watcher may fall behind before it gets a fresh snapshot.
    pub watch_buffer: usize,
    /// How long an untouched game stays in memory.
    pub idle_eviction: Duration,
    /// How long a game waits for its second player before it is called off.
    pub waiting_expiry: Duration,
    /// How long a game waits for its setups before it is called off.
    pub setup_expiry: Duration,
    /// Rate limits per client address and per player token.
    pub rates: RateLimits,
    /// How bots pace themselves.
    pub bots: BotPace,
    /// How long the seat to move in a game without clock may stay away before the other
    /// seat may claim the win.
    pub abandon_after: Duration,
    /// Unfinished games between two bots the server holds at most.
    pub max_exhibitions: usize,
    /// Unfinished games between two bots that clients from one address may have created
    /// at most (counted since the server started).
    pub max_exhibitions_per_peer: usize,
    /// Replays (ReplayGame streams and GetHistory calls) running at once, in total.
    pub max_replays: usize,
    /// Replays running at once for one client address.
    pub max_replays_per_peer: usize,
    /// Positions in one GetHistory reply at most (later ones come in further pages).
    pub history_page: usize,
    /// How long a replay may stand unread before its place under the replay caps is taken
    /// back.
    pub replay_idle: Duration,
    /// How accounts are kept (the player-name limits above are also theirs).
    pub accounts: AccountLimits,
}

/// How long bots think and how fast they may play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BotPace {
    /// Thinking budget per decision.
    pub think: Duration,
    /// Least time between the moment a bot may act and its action, so that a person can
    /// follow a bot's moves (zero in tests).
    pub min_delay: Duration,
    /// Bots thinking at once; the others wait their turn, so that thinking bots leave the
    /// other cores to the players' calls.
    pub threads: usize,
    /// How long a server's lease on a bot's turn lasts unless renewed: how soon another
    /// server takes over the bots of a server that died.
    pub lease: Duration,
}

impl BotPace {
    /// Bots thinking at once by default: one less than the machine's cores, at least one.
    pub fn default_threads() -> usize {
        std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1))
    }
}

impl Default for BotPace {
    fn default() -> Self {
        BotPace {
            think: Duration::from_millis(800),
            min_delay: Duration::from_millis(400),
            threads: BotPace::default_threads(),
            lease: Duration::from_secs(15),
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_open_games: 100_000,
            max_open_games_per_peer: 1_000,
            max_game_name: NameLimit {
                characters: 64,
                bytes: 128,
            },
            max_player_name: crate::names::PLAYER_NAME,
            max_notation: 200,
            watch_buffer: 256,
            idle_eviction: Duration::from_secs(300),
            waiting_expiry: Duration::from_secs(24 * 60 * 60),
            setup_expiry: Duration::from_secs(24 * 60 * 60),
            rates: RateLimits::default(),
            bots: BotPace::default(),
            abandon_after: Duration::from_secs(7 * 24 * 60 * 60),
            max_exhibitions: 32,
            max_exhibitions_per_peer: 4,
            max_replays: 32,
            max_replays_per_peer: 4,
            history_page: 256,
            replay_idle: Duration::from_secs(60),
            accounts: AccountLimits::default(),
        }
    }
}

/// What a new game is to be.
#[derive(Debug)]
pub(crate) struct NewGame {
    /// Ruleset id (checked when the game is made).
    pub ruleset: String,
    /// The creator's seat.
    pub seat: trinchera_rules::Seat,
    /// The game's display name, checked; empty for the ruleset's name.
    pub name: String,
    /// The creator's display name, checked; empty for a default.
    pub player: String,
    /// A bot for the other seat.
    pub bot: Option<trinchera_game::bots::BotLevel>,
    /// A bot for the creator's seat too (with `bot`: a game between two bots).
    pub creator_bot: Option<trinchera_game::bots::BotLevel>,
    /// The time control.
    pub control: trinchera_game::clock::TimeControl,
    /// The account that creates the game, if one does (then `player` is its name).
    pub account: Option<trinchera_store::AccountId>,
}

/// How a seat wants to set up.
#[derive(Clone, Debug)]
pub(crate) enum SetupRequest {
    /// Explicit placements, to be validated.
    Placements(Vec<Placement>),
    /// A setup from the server's setup maker (the bots').
    Made,
    /// A setup already validated (a bot's).
    Validated(Setup),
}

/// A move as the client sent it.
#[derive(Clone, Debug)]
pub(crate) enum MoveInput {
    /// Structured.
    Action(Action),
    /// In notation (its length already checked at the edge).
    Notation(String),
}

/// The first messages of a watch and the channel of the rest.
pub(crate) struct Watch {
    /// What to send first: a snapshot, or the events after the requested version.
    pub initial: Vec<WatchItem>,
    /// Live events.
    pub live: broadcast::Receiver<Arc<Published>>,
    /// Whether the game was already over: then the stream ends after `initial`.
    pub finished: bool,
}

/// One message of a watch stream.
#[derive(Debug)]
pub(crate) struct WatchItem {
    /// The event; `None` in a snapshot.
    pub event: Option<GameEvent>,
    /// What the watcher sees after it.
    pub snapshot: Snapshot,
}

/// A replay ready to be read: its opening, its steps (computed as they are taken), and its
/// place under the replay caps, given back when the session is dropped.
#[derive(Debug)]
pub(crate) struct ReplaySession {
    /// What the replay shows first.
    pub opening: ReplayOpening,
    /// Each event with the game after it.
    pub steps: ReplaySteps<Vec<EventRecord>>,
    /// The replay's place under the caps.
    pub permit: QuotaPermit,
}

/// Every game of the server: the games in memory over the store, and three parts that each
/// own their state: what writes (the one write path and what it guards: creations per
/// address, rate limits, the bus to other servers; `act.rs`), what schedules (deadlines,
/// bot turns and their leases; `deadlines.rs`, `bot_turns.rs`, `thinking.rs`) and what
/// reads (views, listings, watches and replays with their caps; `reads.rs`).
pub struct Games {
    store: Arc<dyn Store>,
    limits: Limits,
    cache: Cache,
    shutdown: watch::Sender<bool>,
    /// This manager, for the tasks it spawns.
    me: Weak<Games>,
    /// The server's clock.
    time: Arc<dyn TimeSource>,
    /// When the server was down (not counted against any clock).
    downtime: Downtime,
    /// What the write path holds.
    writes: Writes,
    /// What the scheduling of deadlines and bots holds.
    schedule: Schedule,
    /// What the reads hold.
    reads: Reads,
}

/// The write path's own state.
struct Writes {
    /// Unfinished games per creating address.
    reservations: Reservations,
    /// Rate limits per address and per token.
    throttle: Throttle,
    /// The bus that tells other servers of this server's events, once attached.
    bus: std::sync::OnceLock<Arc<crate::bus::Bus>>,
}

/// The scheduler's own state: deadlines and bots.
struct Schedule {
    /// Every game's next time limit.
    deadlines: Deadlines,
    /// Games whose bot has a task now.
    bots_running: Mutex<HashSet<GameId>>,
    /// Slots to think in, [`BotPace::threads`] of them.
    thinking: Arc<Thinking>,
    /// This server among those that share its store: a random number, for bot leases.
    holder: u64,
}

/// The reads' own state.
struct Reads {
    /// Replays running now.
    replays: Arc<Quota>,
}

impl Games {
    /// The store, and the time now: what an export of every game begins from while the
    /// server keeps serving.
    pub(crate) fn exporter_parts(&self) -> (Arc<dyn Store>, u64) {
        (Arc::clone(&self.store), self.time.now_ms())
    }

    /// The store and the server's clock, which the accounts share with the games.
    pub(crate) fn accounts_parts(&self) -> (Arc<dyn Store>, Arc<dyn TimeSource>) {
        (Arc::clone(&self.store), Arc::clone(&self.time))
    }

    /// The manager of every game in `store`; records the downtime since it was last used.
    pub async fn new(store: Arc<dyn Store>, limits: Limits) -> Result<Arc<Games>, StoreError> {
        Games::with_time(store, limits, Arc::new(SystemTime)).await
    }

    /// [`Games::new`] with the server's time from `time`.
    pub(crate) async fn with_time(
        store: Arc<dyn Store>,
        limits: Limits,
        time: Arc<dyn TimeSource>,
    ) -> Result<Arc<Games>, StoreError> {
        let downtime = store.record_downtime(time.now_ms()).await?;
        // Below 2^63: stores keep it as a signed 64-bit number.
        let holder =
            u64::from_le_bytes(crate::ids::random_bytes().map_err(StoreError::backend)?) >> 1;
        let replays = Quota::new(
            QuotaNames {
                what: "replays",
                total_setting: "--max-replays",
                peer_setting: "--max-replays-per-peer",
                idle_setting: "--replay-idle-secs",
            },
            limits.max_replays,
            limits.max_replays_per_peer,
            limits.replay_idle,
        );
        Ok(Arc::new_cyclic(|me| Games {
            time,
            downtime,
            cache: Cache::new(limits.watch_buffer),
            writes: Writes {
                reservations: Reservations::default(),
                throttle: Throttle::new(&limits.rates),
                bus: std::sync::OnceLock::new(),
            },
            schedule: Schedule {
                deadlines: Deadlines::default(),
                bots_running: Mutex::new(HashSet::new()),
                thinking: Thinking::new(limits.bots.threads),
                holder,
            },
            reads: Reads { replays },
            store,
            limits,
            shutdown: watch::Sender::new(false),
            me: me.clone(),
        }))
    }

    /// The limits in force.
    pub(crate) fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The rate limits, which the gRPC edge checks per client address.
    pub(crate) fn throttle(&self) -> &Throttle {
        &self.writes.throttle
    }

    /// Tells watchers to end their streams; later actions are refused.
    pub(crate) fn shut_down(&self) {
        self.shutdown.send_replace(true);
    }

    /// Resolves when [`Games::shut_down`] is called.
    pub(crate) fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.shutdown.subscribe()
    }

    fn refuse_if_shutting_down(&self) -> Result<(), ApiError> {
        if *self.shutdown.borrow() {
            return Err(ApiError::ShuttingDown);
        }
        Ok(())
    }

    /// Drops games idle for longer than the limit and without watchers from memory,
    /// forgets rate-limit state that is back to full and takes back the places of replays
    /// that stood unread for their limit.
    pub(crate) fn evict_idle(&self) -> usize {
        self.writes.throttle.forget_idle();
        let reclaimed = self.reads.replays.reclaim_idle();
        if reclaimed > 0 {
            tracing::info!(reclaimed, "took back the places of replays nobody read");
        }
        self.cache.evict_idle(self.limits.idle_eviction)
    }

    /// Notes that the server is alive now (call every second or so), so that a later start
    /// knows how long it was down: that time counts against no clock.
    pub(crate) async fn heartbeat(&self) {
        if let Err(error) = self.store.mark_alive(self.time.now_ms()).await {
            tracing::warn!(%error, "could not note the server's time");
        }
    }

    /// Records what the server holds in the metrics: unfinished games, games in memory,
    /// games with bots, the store's size.
    pub(crate) async fn measure(&self) {
        let counted = async {
            let open = self.store.count_unfinished(Unfinished::All).await?;
            let with_bots = self.store.count_unfinished(Unfinished::WithBots).await?;
            let bytes = self.store.size_on_disk().await?;
            Ok::<_, StoreError>((open, with_bots, bytes))
        };
        match counted.await {
            Ok((open, with_bots, bytes)) => {
                crate::metrics::holdings(open, self.loaded(), with_bots, bytes);
            }
            Err(error) => tracing::warn!(%error, "could not count the games for the metrics"),
        }
    }

    /// Games held in memory.
    pub(crate) fn loaded(&self) -> usize {
        self.cache.loaded()
    }

    /// Sends this server's events to the other servers on `bus` from now on.
    pub(crate) fn attach_bus(&self, bus: Arc<crate::bus::Bus>) {
        let _ = self.writes.bus.set(bus);
    }

    /// Whether other servers may write this server's games too (see [`Store::shared`]).
    pub(crate) fn shared(&self) -> bool {
        self.store.shared()
    }

    /// Gives up this server's bot leases (other servers take its bots over at once) and
    /// flushes the store one last time.
    pub(crate) async fn close(&self) -> Result<(), StoreError> {
        if let Err(error) = self.store.give_up_leases(self.schedule.holder).await {
            tracing::warn!(%error, "could not give up the bot leases");
        }
        self.store.close().await
    }
}
