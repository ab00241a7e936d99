//! Every setting of the server, declared once: its section and key in the TOML file, its
//! type and default, its flag, its environment variable and what it is for. The
//! configuration's types ([`Config`] and its sections), its defaults and [`SETTINGS`] (from
//! which the flags, the environment, the file's checks, `--print-config` and the operators'
//! guide's table come) are all generated from the one list below.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use trinchera_service::{AccountLimits, BotPace, Limits, NetConfig, RateLimits};
use trinchera_store_sled::SledOptions;

use super::{LogFormat, rate_burst, rate_count};

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

/// Declares every setting: the [`Config`] struct with a struct per section, its `Default`
/// (after the `defaults` bindings) and [`SETTINGS`].
macro_rules! settings {
    (
        defaults { $($prelude:stmt;)* }
        $(
            #[doc = $section_doc:literal]
            $section:ident: $Section:ident {
                $($field:ident: $ty:ty = $default:expr; $flag:literal, $env:literal, $help:literal;)*
            }
        )*
    ) => {
        /// The whole configuration.
        #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
        #[serde(deny_unknown_fields)]
        pub struct Config {
            $(
                #[doc = $section_doc]
                pub $section: $Section,
            )*
        }

        $(
            #[doc = concat!("`[", stringify!($section), "]`: ", $section_doc)]
            #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
            #[serde(deny_unknown_fields)]
            pub struct $Section {
                $(
                    #[doc = $help]
                    pub $field: $ty,
                )*
            }
        )*

        impl Default for Config {
            fn default() -> Config {
                $($prelude)*
                Config {
                    $($section: $Section {
                        $($field: $default,)*
                    },)*
                }
            }
        }

        /// Every setting, in the order of the file's sections.
        pub const SETTINGS: &[Setting] = &[
            $($(Setting {
                key: concat!(stringify!($section), ".", stringify!($field)),
                flag: $flag,
                env: $env,
                help: $help,
            },)*)*
        ];
    };
}

settings! {
    defaults {
        let limits = Limits::default();
        let rates = RateLimits::default();
        let net = NetConfig::default();
        let bots = BotPace::default();
        let accounts = AccountLimits::default();
    }
    /// Where and how the server serves.
    server: ServerSection {
        listen: SocketAddr = SocketAddr::from(([127, 0, 0, 1], 50051));
            "listen", "TRINCHERA_LISTEN",
            "Address to serve gRPC on.";
        drain_secs: u64 = 10;
            "drain-secs", "TRINCHERA_DRAIN_SECS",
            "Seconds a stopping server lets running calls finish before it exits anyway.";
    }
    /// The embedded database.
    storage: StorageSection {
        data_dir: PathBuf = PathBuf::from("./trinchera-data");
            "data-dir", "TRINCHERA_DATA_DIR",
            "Directory of the embedded database (created on first run).";
        sync_data: bool = false;
            "sync-data", "TRINCHERA_SYNC_DATA",
            "Also fdatasync the commit log on every group commit (and the data file at each checkpoint): survives power loss, at a disk sync per commit.";
        cache_mib: u64 = SledOptions::default().cache_bytes / (1024 * 1024);
            "cache-mib", "TRINCHERA_CACHE_MIB",
            "Database page cache, in MiB.";
        url: String = String::new();
            "store", "TRINCHERA_STORE",
            "A PostgreSQL database to keep the games in, in place of data_dir: postgres://user:password@host:port/db?sslmode=require (servers may share one; empty: the embedded database).";
        migrate_on_start: bool = false;
            "migrate-on-start", "TRINCHERA_MIGRATE_ON_START",
            "Bring the schema of the storage.url database up to date before serving (one server; where several share it, run trinchera-server migrate once).";
    }
    /// The bus between servers that share a database.
    bus: BusSection {
        url: String = String::new();
            "bus", "TRINCHERA_BUS",
            "NATS server(s) that carry live events between servers sharing storage.url: nats://host:4222, several separated by commas (empty: no bus; such servers poll the database).";
    }
    /// Limits that protect the server from clients.
    limits: LimitsSection {
        max_open_games: u64 = limits.max_open_games as u64;
            "max-open-games", "TRINCHERA_MAX_OPEN_GAMES",
            "Most unfinished games the server holds; creating more is refused.";
        max_open_games_per_peer: u64 = limits.max_open_games_per_peer as u64;
            "max-open-games-per-peer", "TRINCHERA_MAX_OPEN_GAMES_PER_PEER",
            "Most unfinished games that clients from one address may create (counted since the server started).";
        max_exhibitions: u64 = limits.max_exhibitions as u64;
            "max-exhibitions", "TRINCHERA_MAX_EXHIBITIONS",
            "Most unfinished games between two bots the server holds.";
        max_exhibitions_per_peer: u64 = limits.max_exhibitions_per_peer as u64;
            "max-exhibitions-per-peer", "TRINCHERA_MAX_EXHIBITIONS_PER_PEER",
            "Most unfinished games between two bots that clients from one address may create.";
        max_replays: u64 = limits.max_replays as u64;
            "max-replays", "TRINCHERA_MAX_REPLAYS",
            "Most replays (ReplayGame streams, GetHistory calls) running at once.";
        max_replays_per_peer: u64 = limits.max_replays_per_peer as u64;
            "max-replays-per-peer", "TRINCHERA_MAX_REPLAYS_PER_PEER",
            "Most replays running at once for one client address.";
        history_page: u64 = limits.history_page as u64;
            "history-page", "TRINCHERA_HISTORY_PAGE",
            "Most positions in one GetHistory reply (the rest come in further pages).";
        replay_idle_secs: u64 = limits.replay_idle.as_secs();
            "replay-idle-secs", "TRINCHERA_REPLAY_IDLE_SECS",
            "Seconds a replay may stand unread before its place under the replay limits goes to others.";
        idle_secs: u64 = limits.idle_eviction.as_secs();
            "idle-secs", "TRINCHERA_IDLE_SECS",
            "Seconds an untouched game stays in memory before it is dropped (it reloads on use).";
        waiting_expiry_hours: f64 = limits.waiting_expiry.as_secs_f64() / 3600.0;
            "waiting-expiry-hours", "TRINCHERA_WAITING_EXPIRY_HOURS",
            "Hours a game waits for its second player before it is called off.";
        setup_expiry_hours: f64 = limits.setup_expiry.as_secs_f64() / 3600.0;
            "setup-expiry-hours", "TRINCHERA_SETUP_EXPIRY_HOURS",
            "Hours a game waits for its setups before it is called off.";
        abandon_days: f64 = limits.abandon_after.as_secs_f64() / 86_400.0;
            "abandon-days", "TRINCHERA_ABANDON_DAYS",
            "Days the player to move in a game without clock may stay away before the opponent may claim the win.";
        create_join_per_minute: u64 = rate_count(rates.create_join);
            "create-join-per-minute", "TRINCHERA_CREATE_JOIN_PER_MINUTE",
            "CreateGame and JoinGame calls per minute from one address (0: no limit).";
        create_join_burst: u64 = rate_burst(rates.create_join);
            "create-join-burst", "TRINCHERA_CREATE_JOIN_BURST",
            "Burst of CreateGame and JoinGame calls from one address.";
        actions_per_second: u64 = rate_count(rates.acting);
            "actions-per-second", "TRINCHERA_ACTIONS_PER_SECOND",
            "Acting calls (setups, moves, resignations) per second with one player token (0: no limit).";
        actions_burst: u64 = rate_burst(rates.acting);
            "actions-burst", "TRINCHERA_ACTIONS_BURST",
            "Burst of acting calls with one player token.";
        watch_opens_per_minute: u64 = rate_count(rates.stream_opens);
            "watch-opens-per-minute", "TRINCHERA_WATCH_OPENS_PER_MINUTE",
            "WatchGame streams opened per minute from one address (0: no limit).";
        watch_opens_burst: u64 = rate_burst(rates.stream_opens);
            "watch-opens-burst", "TRINCHERA_WATCH_OPENS_BURST",
            "Burst of WatchGame opens from one address.";
        registrations_per_hour: u64 = rate_count(rates.registrations);
            "registrations-per-hour", "TRINCHERA_REGISTRATIONS_PER_HOUR",
            "Accounts registered per hour from one address (0: no limit).";
        registrations_burst: u64 = rate_burst(rates.registrations);
            "registrations-burst", "TRINCHERA_REGISTRATIONS_BURST",
            "Burst of accounts registered from one address.";
        failed_logins_per_minute: u64 = rate_count(rates.failed_logins);
            "failed-logins-per-minute", "TRINCHERA_FAILED_LOGINS_PER_MINUTE",
            "Failed sign-ins per minute from one address, after the burst (0: no limit); successful ones cost nothing.";
        failed_logins_burst: u64 = rate_burst(rates.failed_logins);
            "failed-logins-burst", "TRINCHERA_FAILED_LOGINS_BURST",
            "Failed sign-ins from one address before the limit holds.";
        failed_logins_per_name_per_minute: u64 = rate_count(rates.failed_logins_per_name);
            "failed-logins-per-name-per-minute", "TRINCHERA_FAILED_LOGINS_PER_NAME_PER_MINUTE",
            "Failed sign-ins per minute for one account name, from anywhere, after the burst (0: no limit).";
        failed_logins_per_name_burst: u64 = rate_burst(rates.failed_logins_per_name);
            "failed-logins-per-name-burst", "TRINCHERA_FAILED_LOGINS_PER_NAME_BURST",
            "Failed sign-ins for one account name before the limit holds.";
        no_rate_limits: bool = false;
            "no-rate-limits", "TRINCHERA_NO_RATE_LIMITS",
            "Switch every rate limit off (load tests and benchmarks from one machine).";
    }
    /// Connection and stream limits of the transport.
    net: NetSection {
        max_connections: u64 = 0;
            "max-connections", "TRINCHERA_MAX_CONNECTIONS",
            "Most open connections in total (0: three quarters of the open-files limit).";
        max_connections_per_peer: u64 = net.max_connections_per_peer as u64;
            "max-connections-per-peer", "TRINCHERA_MAX_CONNECTIONS_PER_PEER",
            "Most open connections from one address (trusted proxies exempt).";
        max_watches_per_connection: u64 = net.max_watches_per_connection as u64;
            "max-watches-per-connection", "TRINCHERA_MAX_WATCHES_PER_CONNECTION",
            "Most concurrent WatchGame streams on one connection.";
        max_watches_per_peer: u64 = net.max_watches_per_peer as u64;
            "max-watches-per-peer", "TRINCHERA_MAX_WATCHES_PER_PEER",
            "Most concurrent WatchGame streams of one address, over all its connections.";
        preface_timeout_secs: u64 = net.preface_timeout.as_secs();
            "preface-timeout-secs", "TRINCHERA_PREFACE_TIMEOUT_SECS",
            "Seconds a new connection may take to start speaking (TLS handshake, HTTP/2 preface, first call) before it is closed.";
        connection_idle_secs: u64 = net.idle_timeout.as_secs();
            "connection-idle-secs", "TRINCHERA_CONNECTION_IDLE_SECS",
            "Seconds a connection may stay open with no call or stream before it is closed (at max_connections, the longest idle one is closed at once to let a new one in).";
        trusted_proxy: Vec<IpAddr> = Vec::new();
            "trusted-proxy", "TRINCHERA_TRUSTED_PROXY",
            "Proxies whose x-forwarded-for names the client (a list; commas in the variable).";
    }
    /// How the server's bots think.
    bots: BotsSection {
        think_ms: u64 = bots.think.as_millis() as u64;
            "bot-think-ms", "TRINCHERA_BOT_THINK_MS",
            "Milliseconds a bot may think about one decision.";
        delay_ms: u64 = bots.min_delay.as_millis() as u64;
            "bot-delay-ms", "TRINCHERA_BOT_DELAY_MS",
            "Least milliseconds between a bot's turn coming and its action, so that a person can follow.";
        threads: u64 = 0;
            "bot-threads", "TRINCHERA_BOT_THREADS",
            "Bots thinking at once, the others wait (0: one less than the machine's cores, at least one).";
        lease_secs: u64 = bots.lease.as_secs();
            "bot-lease-secs", "TRINCHERA_BOT_LEASE_SECS",
            "Seconds a server's hold on a bot's turn lasts unless renewed: how soon servers sharing storage.url take over the bots of one that died.";
    }
    /// Player accounts.
    accounts: AccountsSection {
        hash_threads: u64 = 0;
            "hash-threads", "TRINCHERA_HASH_THREADS",
            "Passwords hashed at once (argon2id, 19 MiB and a few dozen ms each); other sign-ins wait (0: half the machine's cores, at least one).";
        session_days: f64 = accounts.session.as_secs_f64() / 86_400.0;
            "session-days", "TRINCHERA_SESSION_DAYS",
            "Days a session from Register or Login works before its client must sign in again.";
        name_hold_days: f64 = accounts.name_hold.as_secs_f64() / 86_400.0;
            "name-hold-days", "TRINCHERA_NAME_HOLD_DAYS",
            "Days the name of a deleted account stays reserved before anyone may register it.";
    }
    /// TLS.
    tls: TlsSection {
        cert: String = String::new();
            "tls-cert", "TRINCHERA_TLS_CERT",
            "PEM certificate chain: serve TLS with it (with tls.key; empty: plaintext). Re-read on SIGHUP.";
        key: String = String::new();
            "tls-key", "TRINCHERA_TLS_KEY",
            "PEM private key of tls.cert. Re-read on SIGHUP.";
        client_ca: String = String::new();
            "tls-client-ca", "TRINCHERA_TLS_CLIENT_CA",
            "PEM CA certificates: clients must present a certificate they signed (empty: no client certificates).";
    }
    /// Browsers.
    web: WebSection {
        grpc_web: bool = false;
            "grpc-web", "TRINCHERA_GRPC_WEB",
            "Also answer gRPC-web (HTTP/1.1 and HTTP/2, for browsers) on the same port.";
        cors_origin: Vec<String> = Vec::new();
            "cors-origin", "TRINCHERA_CORS_ORIGIN",
            "Web origins whose pages may call the server (a list; commas in the variable).";
        enabled: bool = false;
            "web", "TRINCHERA_WEB",
            "Serve the browser client (trinchera-gui built for WebAssembly) on the same port, with gRPC-web: a club shares one link.";
        root: String = String::new();
            "web-root", "TRINCHERA_WEB_ROOT",
            "Directory of a built browser client to serve with web.enabled (empty: the one built into this server).";
    }
    /// The operators' service.
    admin: AdminSection {
        listen: String = String::new();
            "admin-listen", "TRINCHERA_ADMIN_LISTEN",
            "Address of the admin service (exports while serving): a loopback address, or any with admin.client_ca (empty: off).";
        client_ca: String = String::new();
            "admin-client-ca", "TRINCHERA_ADMIN_CLIENT_CA",
            "PEM CA certificates of the operators: the admin service serves TLS (tls.cert, tls.key) and asks for a certificate they signed; needed on a network address. Players' certificates (tls.client_ca) never open it. Re-read on SIGHUP.";
    }
    /// Prometheus metrics.
    metrics: MetricsSection {
        listen: String = String::new();
            "metrics-listen", "TRINCHERA_METRICS_LISTEN",
            "Address to serve Prometheus metrics on, at /metrics (empty: off).";
    }
    /// Logs.
    log: LogSection {
        format: LogFormat = LogFormat::Text;
            "log-format", "TRINCHERA_LOG_FORMAT",
            "Log lines as text or json.";
        filter: String = "info".into();
            "log-filter", "RUST_LOG",
            "Which log lines, as a tracing filter (e.g. info, or trinchera_service=debug for one line per call).";
    }
}

/// The setting of `key`.
pub fn setting(key: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|setting| setting.key == key)
}
