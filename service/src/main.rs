//! `trinchera-server`: the Trinchera game server.

use std::io::IsTerminal as _;
use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Context;
use clap::Parser;
use tracing_subscriber::EnvFilter;
use trinchera_service::store::{
    PostgresStore, SledOptions, SledStore, Store, is_postgres_url, refresh_snapshot,
};
use trinchera_service::{BotPace, Games, Limits, NetConfig, RateLimit, RateLimits};

/// mimalloc: the server allocates and frees many small buffers per call (views, HTTP/2
/// frames); measured faster than the system allocator, see README "Benchmarks".
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Trinchera's gRPC game server: hosts frente, clasico, castillos, asalto, tacticas and
/// tanques games for any client built from `proto/trinchera/v1`.
///
/// Logs go to stderr; set RUST_LOG (e.g. `RUST_LOG=trinchera_service=debug`) for more.
/// Stop with Ctrl-C or SIGTERM: streams end, running calls finish, storage is flushed.
#[derive(Debug, Parser)]
#[command(name = "trinchera-server", version, about)]
struct Config {
    /// Address to listen on.
    #[arg(long, env = "TRINCHERA_LISTEN", default_value = "127.0.0.1:50051")]
    listen: SocketAddr,
    /// Directory of the embedded database (created on first run).
    #[arg(long, env = "TRINCHERA_DATA_DIR", default_value = "./trinchera-data")]
    data_dir: PathBuf,
    /// A PostgreSQL database to keep the games in, in place of --data-dir
    /// (`postgres://user:password@host:port/db?sslmode=require`; servers may share one).
    #[arg(long, env = "TRINCHERA_STORE", value_name = "URL", global = true)]
    store: Option<String>,
    /// Bring the schema of the --store database up to date before serving (a single
    /// server; where several share the database, run `trinchera-server migrate` once).
    #[arg(long, env = "TRINCHERA_MIGRATE_ON_START")]
    migrate_on_start: bool,
    /// Also fdatasync the data file on every group commit: survives power loss, not just
    /// a crash of the process, at the cost of a disk sync per commit.
    #[arg(long, env = "TRINCHERA_SYNC_DATA")]
    sync_data: bool,
    /// Most unfinished games the server holds; creating more is refused.
    #[arg(long, env = "TRINCHERA_MAX_OPEN_GAMES", default_value_t = Limits::default().max_open_games)]
    max_open_games: usize,
    /// Seconds an untouched game stays in memory before it is dropped (it reloads on use).
    #[arg(long, env = "TRINCHERA_IDLE_SECS", default_value_t = 300)]
    idle_secs: u64,
    /// Most unfinished games that clients from one address may create (counted since the
    /// server started).
    #[arg(long, env = "TRINCHERA_MAX_OPEN_GAMES_PER_PEER", default_value_t = Limits::default().max_open_games_per_peer)]
    max_open_games_per_peer: usize,
    /// Hours a game waits for its second player before it is called off (result ABORTED).
    #[arg(long, env = "TRINCHERA_WAITING_EXPIRY_HOURS", default_value_t = 24.0)]
    waiting_expiry_hours: f64,
    /// Hours a game waits for its setups before it is called off (result ABORTED).
    #[arg(long, env = "TRINCHERA_SETUP_EXPIRY_HOURS", default_value_t = 24.0)]
    setup_expiry_hours: f64,
    /// CreateGame + JoinGame calls per minute from one address (0: no limit).
    #[arg(long, env = "TRINCHERA_CREATE_JOIN_PER_MINUTE", default_value_t = 60)]
    create_join_per_minute: u32,
    /// Burst of CreateGame + JoinGame calls from one address.
    #[arg(long, env = "TRINCHERA_CREATE_JOIN_BURST", default_value_t = 20)]
    create_join_burst: u32,
    /// Acting calls (setups, moves, resignations) per second with one player token (0: no
    /// limit).
    #[arg(long, env = "TRINCHERA_ACTIONS_PER_SECOND", default_value_t = 100)]
    actions_per_second: u32,
    /// Burst of acting calls with one player token.
    #[arg(long, env = "TRINCHERA_ACTIONS_BURST", default_value_t = 200)]
    actions_burst: u32,
    /// WatchGame streams opened per minute from one address (0: no limit).
    #[arg(long, env = "TRINCHERA_WATCH_OPENS_PER_MINUTE", default_value_t = 100)]
    watch_opens_per_minute: u32,
    /// Burst of WatchGame opens from one address.
    #[arg(long, env = "TRINCHERA_WATCH_OPENS_BURST", default_value_t = 30)]
    watch_opens_burst: u32,
    /// Switch every rate limit off (load tests and benchmarks from one machine).
    #[arg(long, env = "TRINCHERA_NO_RATE_LIMITS")]
    no_rate_limits: bool,
    /// Days the player to move in a game without clock may stay away before the opponent
    /// may claim the win (ClaimVictory).
    #[arg(long, env = "TRINCHERA_ABANDON_DAYS", default_value_t = 7.0)]
    abandon_days: f64,
    /// Milliseconds a bot may think about one decision.
    #[arg(long, env = "TRINCHERA_BOT_THINK_MS", default_value_t = BotPace::default().think.as_millis() as u64)]
    bot_think_ms: u64,
    /// Least milliseconds between a bot's turn coming and its action, so that a person can
    /// follow a bot's moves.
    #[arg(long, env = "TRINCHERA_BOT_DELAY_MS", default_value_t = BotPace::default().min_delay.as_millis() as u64)]
    bot_delay_ms: u64,
    /// Bots thinking at once (the others wait), so that bots leave cores to the players'
    /// calls. Default: one less than the machine's cores, at least one.
    #[arg(long, env = "TRINCHERA_BOT_THREADS", default_value_t = BotPace::default_threads())]
    bot_threads: usize,
    /// Most unfinished games between two bots (CreateGame with creator_bot) the server holds.
    #[arg(long, env = "TRINCHERA_MAX_EXHIBITIONS", default_value_t = Limits::default().max_exhibitions)]
    max_exhibitions: usize,
    /// Most unfinished games between two bots that clients from one address may have
    /// created (counted since the server started).
    #[arg(long, env = "TRINCHERA_MAX_EXHIBITIONS_PER_PEER", default_value_t = Limits::default().max_exhibitions_per_peer)]
    max_exhibitions_per_peer: usize,
    /// Most replays (ReplayGame streams, GetHistory calls) running at once.
    #[arg(long, env = "TRINCHERA_MAX_REPLAYS", default_value_t = Limits::default().max_replays)]
    max_replays: usize,
    /// Most replays running at once for one client address.
    #[arg(long, env = "TRINCHERA_MAX_REPLAYS_PER_PEER", default_value_t = Limits::default().max_replays_per_peer)]
    max_replays_per_peer: usize,
    /// Most positions in one GetHistory reply (the rest come in further pages).
    #[arg(long, env = "TRINCHERA_HISTORY_PAGE", value_parser = clap::value_parser!(u64).range(1..), default_value_t = Limits::default().history_page as u64)]
    history_page: u64,
    /// Database page cache, in MiB.
    #[arg(long, env = "TRINCHERA_CACHE_MIB", default_value_t = 64)]
    cache_mib: u64,
    /// Most open connections in total; new ones over it are closed at once. Default: three
    /// quarters of the soft open-files limit (`ulimit -n`).
    #[arg(long, env = "TRINCHERA_MAX_CONNECTIONS")]
    max_connections: Option<usize>,
    /// Most open connections from one address (trusted proxies exempt).
    #[arg(long, env = "TRINCHERA_MAX_CONNECTIONS_PER_PEER", default_value_t = NetConfig::default().max_connections_per_peer)]
    max_connections_per_peer: usize,
    /// Most concurrent WatchGame streams on one connection.
    #[arg(long, env = "TRINCHERA_MAX_WATCHES_PER_CONNECTION", default_value_t = NetConfig::default().max_watches_per_connection)]
    max_watches_per_connection: usize,
    /// Most concurrent WatchGame streams of one peer address, over all its connections.
    #[arg(long, env = "TRINCHERA_MAX_WATCHES_PER_PEER", default_value_t = NetConfig::default().max_watches_per_peer)]
    max_watches_per_peer: usize,
    /// Seconds a new connection may take to send the HTTP/2 preface before it is closed.
    #[arg(long, env = "TRINCHERA_PREFACE_TIMEOUT_SECS", value_parser = clap::value_parser!(u64).range(1..), default_value_t = NetConfig::default().preface_timeout.as_secs())]
    preface_timeout_secs: u64,
    /// Seconds a connection may stay open with no call or stream before it is closed.
    #[arg(long, env = "TRINCHERA_CONNECTION_IDLE_SECS", value_parser = clap::value_parser!(u64).range(1..), default_value_t = NetConfig::default().idle_timeout.as_secs())]
    connection_idle_secs: u64,
    /// A proxy whose `x-forwarded-for` names the client (repeat the flag, or separate
    /// addresses with commas in the variable).
    #[arg(
        long,
        env = "TRINCHERA_TRUSTED_PROXY",
        value_name = "IP",
        value_delimiter = ','
    )]
    trusted_proxy: Vec<IpAddr>,
    #[command(subcommand)]
    command: Option<Command>,
}

/// What to do instead of serving.
#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Bring the schema of the --store database up to this build's version, then exit.
    Migrate,
}

impl Config {
    /// The database --store names, if any.
    fn database(&self) -> anyhow::Result<Option<&str>> {
        match self.store.as_deref() {
            Some(url) if !is_postgres_url(url) => {
                anyhow::bail!("--store takes a postgres:// or postgresql:// URL")
            }
            database => Ok(database),
        }
    }

    /// The store the flags name: the --store database, or sled in --data-dir.
    async fn open_store(&self) -> anyhow::Result<Arc<dyn Store>> {
        if let Some(url) = self.database()? {
            if self.migrate_on_start {
                migrate(url).await?;
            }
            let store = PostgresStore::open(url)
                .await
                .context("opening the --store database")?;
            return Ok(Arc::new(store));
        }
        let options = SledOptions {
            sync_data: self.sync_data,
            cache_bytes: self.cache_mib * 1024 * 1024,
        };
        let store = SledStore::open(&self.data_dir, options)
            .with_context(|| format!("opening the data directory {}", self.data_dir.display()))?;
        Ok(Arc::new(store))
    }

    /// The transport limits asked for.
    fn net(&self) -> NetConfig {
        let defaults = NetConfig::default();
        NetConfig {
            max_connections: self.max_connections.unwrap_or(defaults.max_connections),
            max_connections_per_peer: self.max_connections_per_peer,
            max_watches_per_connection: self.max_watches_per_connection,
            max_watches_per_peer: self.max_watches_per_peer,
            preface_timeout: Duration::from_secs(self.preface_timeout_secs),
            idle_timeout: Duration::from_secs(self.connection_idle_secs),
            trusted_proxies: self.trusted_proxy.clone(),
        }
    }

    /// The limits these flags set.
    fn limits(&self) -> anyhow::Result<Limits> {
        let hours = |value: f64, flag: &str| {
            Duration::try_from_secs_f64(value * 3600.0)
                .with_context(|| format!("{flag} must be a positive number of hours"))
        };
        let rate = |count: u32, burst: u32, per: fn(NonZeroU32, NonZeroU32) -> RateLimit| {
            let count = NonZeroU32::new(count)?;
            Some(per(
                count,
                NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN),
            ))
        };
        let rates = if self.no_rate_limits {
            RateLimits::OFF
        } else {
            RateLimits {
                create_join: rate(
                    self.create_join_per_minute,
                    self.create_join_burst,
                    RateLimit::per_minute,
                ),
                acting: rate(
                    self.actions_per_second,
                    self.actions_burst,
                    RateLimit::per_second,
                ),
                stream_opens: rate(
                    self.watch_opens_per_minute,
                    self.watch_opens_burst,
                    RateLimit::per_minute,
                ),
            }
        };
        Ok(Limits {
            max_open_games: self.max_open_games,
            max_open_games_per_peer: self.max_open_games_per_peer,
            idle_eviction: Duration::from_secs(self.idle_secs),
            waiting_expiry: hours(self.waiting_expiry_hours, "--waiting-expiry-hours")?,
            setup_expiry: hours(self.setup_expiry_hours, "--setup-expiry-hours")?,
            abandon_after: hours(self.abandon_days * 24.0, "--abandon-days")?,
            max_exhibitions: self.max_exhibitions,
            max_exhibitions_per_peer: self.max_exhibitions_per_peer,
            max_replays: self.max_replays,
            max_replays_per_peer: self.max_replays_per_peer,
            history_page: self.history_page as usize,
            rates,
            bots: BotPace {
                think: Duration::from_millis(self.bot_think_ms),
                min_delay: Duration::from_millis(self.bot_delay_ms),
                threads: self.bot_threads.max(1),
            },
            ..Limits::default()
        })
    }
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let started = Instant::now();
    tracing_subscriber::fmt()
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
    let config = Config::parse();
    if let Some(Command::Migrate) = config.command {
        let url = config.database()?.context("migrate needs --store URL")?;
        return migrate(url).await;
    }
    let store = config.open_store().await?;
    let opened = started.elapsed();
    let limits = config.limits()?;
    let games = Games::new(store, limits)
        .await
        .context("reading the stored games")?;
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("listening on {}", config.listen))?;
    tracing::info!(
        address = %listener.local_addr()?,
        store = if config.store.is_some() { "postgres" } else { "sled" },
        data_dir = %config.data_dir.display(),
        sync_data = config.sync_data,
        open_ms = opened.as_millis(),
        startup_ms = started.elapsed().as_millis(),
        "trinchera-server ready"
    );
    trinchera_service::run(listener, games, config.net(), shutdown_signal()).await?;
    if config.store.is_some() {
        return Ok(());
    }
    match refresh_snapshot(&config.data_dir, Duration::from_secs(10)) {
        Ok(took) => tracing::info!(
            took_ms = took.as_millis(),
            "wrote a database snapshot so that the next start is quick"
        ),
        Err(error) => tracing::warn!(%error, "could not write a database snapshot"),
    }
    Ok(())
}

/// Brings the schema of the database `url` names up to this build's version.
async fn migrate(url: &str) -> anyhow::Result<()> {
    let migrated = PostgresStore::migrate(url)
        .await
        .context("migrating the --store database")?;
    tracing::info!(
        from = migrated.from,
        to = migrated.to,
        "the database's schema is up to date"
    );
    Ok(())
}

/// Resolves on Ctrl-C (SIGINT) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(signal) => signal,
                Err(error) => {
                    tracing::warn!(%error, "cannot listen for SIGTERM");
                    let _ = interrupt.await;
                    return;
                }
            };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}
