//! Every setting of the server: its key in the TOML file, its flag, its environment
//! variable and what it is for. The one list that the flags, the environment, the file's
//! checks, `--print-config` and the settings table of the operators' guide come from.

/// One setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setting {
    /// `section.name`, as in the TOML file.
    pub key: &'static str,
    /// The command-line flag, without its dashes.
    pub flag: &'static str,
    /// The environment variable.
    pub env: &'static str,
    /// What it is for, one sentence.
    pub help: &'static str,
}

macro_rules! settings {
    ($($key:literal, $flag:literal, $env:literal, $help:literal;)*) => {
        /// Every setting, in the order of the file's sections.
        pub const SETTINGS: &[Setting] = &[
            $(Setting { key: $key, flag: $flag, env: $env, help: $help },)*
        ];
    };
}

settings! {
    "server.listen", "listen", "TRINCHERA_LISTEN",
        "Address to serve gRPC on.";
    "server.drain_secs", "drain-secs", "TRINCHERA_DRAIN_SECS",
        "Seconds a stopping server lets running calls finish before it exits anyway.";
    "storage.data_dir", "data-dir", "TRINCHERA_DATA_DIR",
        "Directory of the embedded database (created on first run).";
    "storage.sync_data", "sync-data", "TRINCHERA_SYNC_DATA",
        "Also fdatasync the commit log on every group commit (and the data file at each checkpoint): survives power loss, at a disk sync per commit.";
    "storage.cache_mib", "cache-mib", "TRINCHERA_CACHE_MIB",
        "Database page cache, in MiB.";
    "storage.url", "store", "TRINCHERA_STORE",
        "A PostgreSQL database to keep the games in, in place of data_dir: postgres://user:password@host:port/db?sslmode=require (servers may share one; empty: the embedded database).";
    "storage.migrate_on_start", "migrate-on-start", "TRINCHERA_MIGRATE_ON_START",
        "Bring the schema of the storage.url database up to date before serving (one server; where several share it, run trinchera-server migrate once).";
    "bus.url", "bus", "TRINCHERA_BUS",
        "NATS server(s) that carry live events between servers sharing storage.url: nats://host:4222, several separated by commas (empty: no bus; such servers poll the database).";
    "limits.max_open_games", "max-open-games", "TRINCHERA_MAX_OPEN_GAMES",
        "Most unfinished games the server holds; creating more is refused.";
    "limits.max_open_games_per_peer", "max-open-games-per-peer", "TRINCHERA_MAX_OPEN_GAMES_PER_PEER",
        "Most unfinished games that clients from one address may create (counted since the server started).";
    "limits.max_exhibitions", "max-exhibitions", "TRINCHERA_MAX_EXHIBITIONS",
        "Most unfinished games between two bots the server holds.";
    "limits.max_exhibitions_per_peer", "max-exhibitions-per-peer", "TRINCHERA_MAX_EXHIBITIONS_PER_PEER",
        "Most unfinished games between two bots that clients from one address may create.";
    "limits.max_replays", "max-replays", "TRINCHERA_MAX_REPLAYS",
        "Most replays (ReplayGame streams, GetHistory calls) running at once.";
    "limits.max_replays_per_peer", "max-replays-per-peer", "TRINCHERA_MAX_REPLAYS_PER_PEER",
        "Most replays running at once for one client address.";
    "limits.history_page", "history-page", "TRINCHERA_HISTORY_PAGE",
        "Most positions in one GetHistory reply (the rest come in further pages).";
    "limits.replay_idle_secs", "replay-idle-secs", "TRINCHERA_REPLAY_IDLE_SECS",
        "Seconds a replay may stand unread before its place under the replay limits goes to others.";
    "limits.idle_secs", "idle-secs", "TRINCHERA_IDLE_SECS",
        "Seconds an untouched game stays in memory before it is dropped (it reloads on use).";
    "limits.waiting_expiry_hours", "waiting-expiry-hours", "TRINCHERA_WAITING_EXPIRY_HOURS",
        "Hours a game waits for its second player before it is called off.";
    "limits.setup_expiry_hours", "setup-expiry-hours", "TRINCHERA_SETUP_EXPIRY_HOURS",
        "Hours a game waits for its setups before it is called off.";
    "limits.abandon_days", "abandon-days", "TRINCHERA_ABANDON_DAYS",
        "Days the player to move in a game without clock may stay away before the opponent may claim the win.";
    "limits.create_join_per_minute", "create-join-per-minute", "TRINCHERA_CREATE_JOIN_PER_MINUTE",
        "CreateGame and JoinGame calls per minute from one address (0: no limit).";
    "limits.create_join_burst", "create-join-burst", "TRINCHERA_CREATE_JOIN_BURST",
        "Burst of CreateGame and JoinGame calls from one address.";
    "limits.actions_per_second", "actions-per-second", "TRINCHERA_ACTIONS_PER_SECOND",
        "Acting calls (setups, moves, resignations) per second with one player token (0: no limit).";
    "limits.actions_burst", "actions-burst", "TRINCHERA_ACTIONS_BURST",
        "Burst of acting calls with one player token.";
    "limits.watch_opens_per_minute", "watch-opens-per-minute", "TRINCHERA_WATCH_OPENS_PER_MINUTE",
        "WatchGame streams opened per minute from one address (0: no limit).";
    "limits.watch_opens_burst", "watch-opens-burst", "TRINCHERA_WATCH_OPENS_BURST",
        "Burst of WatchGame opens from one address.";
    "limits.no_rate_limits", "no-rate-limits", "TRINCHERA_NO_RATE_LIMITS",
        "Switch every rate limit off (load tests and benchmarks from one machine).";
    "net.max_connections", "max-connections", "TRINCHERA_MAX_CONNECTIONS",
        "Most open connections in total (0: three quarters of the open-files limit).";
    "net.max_connections_per_peer", "max-connections-per-peer", "TRINCHERA_MAX_CONNECTIONS_PER_PEER",
        "Most open connections from one address (trusted proxies exempt).";
    "net.max_watches_per_connection", "max-watches-per-connection", "TRINCHERA_MAX_WATCHES_PER_CONNECTION",
        "Most concurrent WatchGame streams on one connection.";
    "net.max_watches_per_peer", "max-watches-per-peer", "TRINCHERA_MAX_WATCHES_PER_PEER",
        "Most concurrent WatchGame streams of one address, over all its connections.";
    "net.preface_timeout_secs", "preface-timeout-secs", "TRINCHERA_PREFACE_TIMEOUT_SECS",
        "Seconds a new connection may take to start speaking (TLS handshake, HTTP/2 preface, first call) before it is closed.";
    "net.connection_idle_secs", "connection-idle-secs", "TRINCHERA_CONNECTION_IDLE_SECS",
        "Seconds a connection may stay open with no call or stream before it is closed (at max_connections, the longest idle one is closed at once to let a new one in).";
    "net.trusted_proxy", "trusted-proxy", "TRINCHERA_TRUSTED_PROXY",
        "Proxies whose x-forwarded-for names the client (a list; commas in the variable).";
    "bots.think_ms", "bot-think-ms", "TRINCHERA_BOT_THINK_MS",
        "Milliseconds a bot may think about one decision.";
    "bots.delay_ms", "bot-delay-ms", "TRINCHERA_BOT_DELAY_MS",
        "Least milliseconds between a bot's turn coming and its action, so that a person can follow.";
    "bots.threads", "bot-threads", "TRINCHERA_BOT_THREADS",
        "Bots thinking at once, the others wait (0: one less than the machine's cores, at least one).";
    "bots.lease_secs", "bot-lease-secs", "TRINCHERA_BOT_LEASE_SECS",
        "Seconds a server's hold on a bot's turn lasts unless renewed: how soon servers sharing storage.url take over the bots of one that died.";
    "tls.cert", "tls-cert", "TRINCHERA_TLS_CERT",
        "PEM certificate chain: serve TLS with it (with tls.key; empty: plaintext). Re-read on SIGHUP.";
    "tls.key", "tls-key", "TRINCHERA_TLS_KEY",
        "PEM private key of tls.cert. Re-read on SIGHUP.";
    "tls.client_ca", "tls-client-ca", "TRINCHERA_TLS_CLIENT_CA",
        "PEM CA certificates: clients must present a certificate they signed (empty: no client certificates).";
    "web.grpc_web", "grpc-web", "TRINCHERA_GRPC_WEB",
        "Also answer gRPC-web (HTTP/1.1 and HTTP/2, for browsers) on the same port.";
    "web.cors_origin", "cors-origin", "TRINCHERA_CORS_ORIGIN",
        "Web origins whose pages may call the server (a list; commas in the variable).";
    "web.enabled", "web", "TRINCHERA_WEB",
        "Serve the browser client (trinchera-gui built for WebAssembly) on the same port, with gRPC-web: a club shares one link.";
    "web.root", "web-root", "TRINCHERA_WEB_ROOT",
        "Directory of a built browser client to serve with web.enabled (empty: the one built into this server).";
    "admin.listen", "admin-listen", "TRINCHERA_ADMIN_LISTEN",
        "Address of the admin service (exports while serving): a loopback address, or any with admin.client_ca (empty: off).";
    "admin.client_ca", "admin-client-ca", "TRINCHERA_ADMIN_CLIENT_CA",
        "PEM CA certificates of the operators: the admin service serves TLS (tls.cert, tls.key) and asks for a certificate they signed; needed on a network address. Players' certificates (tls.client_ca) never open it. Re-read on SIGHUP.";
    "metrics.listen", "metrics-listen", "TRINCHERA_METRICS_LISTEN",
        "Address to serve Prometheus metrics on, at /metrics (empty: off).";
    "log.format", "log-format", "TRINCHERA_LOG_FORMAT",
        "Log lines as text or json.";
    "log.filter", "log-filter", "RUST_LOG",
        "Which log lines, as a tracing filter (e.g. info, or trinchera_service=debug for one line per call).";
}

/// The setting of `key`.
pub fn setting(key: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|setting| setting.key == key)
}
