//! The server's configuration: every setting from its default, a TOML file (`--config PATH`
//! or `TRINCHERA_CONFIG`), the environment and the command line, each later source winning
//! (flags > environment > file > defaults), into one typed [`Config`].
//!
//! [`settings::SETTINGS`] lists every setting once; the sources are read as TOML values
//! checked against the type of each setting's default, so that an unknown key or a bad value
//! is an error that names the key, where it came from (the file and line, the environment
//! variable or the flag) and what is expected. [`Loaded::to_toml`] prints the effective
//! configuration with each value's source.

mod layers;
pub mod settings;

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::path::PathBuf;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use self::layers::{FlagValues, Source};
use crate::games::throttle::{RateLimit, RateLimits};
use crate::games::{BotPace, Limits};
use crate::net::NetConfig;
use crate::store::SledOptions;

/// The whole configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Where and how the server serves.
    pub server: ServerSection,
    /// The embedded database.
    pub storage: StorageSection,
    /// The bus between servers that share a database.
    pub bus: BusSection,
    /// Limits that protect the server from clients.
    pub limits: LimitsSection,
    /// Connection and stream limits of the transport.
    pub net: NetSection,
    /// How the server's bots think.
    pub bots: BotsSection,
    /// TLS.
    pub tls: TlsSection,
    /// Browsers.
    pub web: WebSection,
    /// The operators' service.
    pub admin: AdminSection,
    /// Prometheus metrics.
    pub metrics: MetricsSection,
    /// Logs.
    pub log: LogSection,
}

/// `[server]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ServerSection {
    /// Address to serve gRPC on.
    pub listen: SocketAddr,
    /// Seconds a stopping server lets running calls finish.
    pub drain_secs: u64,
}

/// `[storage]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StorageSection {
    /// Directory of the embedded database.
    pub data_dir: PathBuf,
    /// fdatasync on every group commit.
    pub sync_data: bool,
    /// Page cache in MiB.
    pub cache_mib: u64,
    /// A PostgreSQL URL; empty: the embedded database.
    pub url: String,
    /// Migrate the database's schema before serving.
    pub migrate_on_start: bool,
}

/// `[limits]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsSection {
    /// Unfinished games in all.
    pub max_open_games: u64,
    /// Unfinished games one address created.
    pub max_open_games_per_peer: u64,
    /// Unfinished games between two bots in all.
    pub max_exhibitions: u64,
    /// Unfinished games between two bots one address created.
    pub max_exhibitions_per_peer: u64,
    /// Replays at once in all.
    pub max_replays: u64,
    /// Replays at once of one address.
    pub max_replays_per_peer: u64,
    /// Positions in one GetHistory reply.
    pub history_page: u64,
    /// Seconds a replay may stand unread.
    pub replay_idle_secs: u64,
    /// Seconds an untouched game stays in memory.
    pub idle_secs: u64,
    /// Hours a game waits for its second player.
    pub waiting_expiry_hours: f64,
    /// Hours a game waits for its setups.
    pub setup_expiry_hours: f64,
    /// Days before an absent opponent may be claimed against.
    pub abandon_days: f64,
    /// CreateGame and JoinGame calls per minute from one address.
    pub create_join_per_minute: u64,
    /// Their burst.
    pub create_join_burst: u64,
    /// Acting calls per second with one token.
    pub actions_per_second: u64,
    /// Their burst.
    pub actions_burst: u64,
    /// WatchGame opens per minute from one address.
    pub watch_opens_per_minute: u64,
    /// Their burst.
    pub watch_opens_burst: u64,
    /// Every rate limit off.
    pub no_rate_limits: bool,
}

/// `[net]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetSection {
    /// Open connections in all (0: three quarters of the open-files limit).
    pub max_connections: u64,
    /// Open connections of one address.
    pub max_connections_per_peer: u64,
    /// WatchGame streams on one connection.
    pub max_watches_per_connection: u64,
    /// WatchGame streams of one address.
    pub max_watches_per_peer: u64,
    /// Seconds to start speaking HTTP/2.
    pub preface_timeout_secs: u64,
    /// Seconds a connection may idle.
    pub connection_idle_secs: u64,
    /// Proxies believed about the client's address.
    pub trusted_proxy: Vec<IpAddr>,
}

/// `[bus]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BusSection {
    /// NATS server URLs, comma-separated; empty: none.
    pub url: String,
}

/// `[bots]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BotsSection {
    /// Thinking budget per decision, ms.
    pub think_ms: u64,
    /// Least delay of a bot's action, ms.
    pub delay_ms: u64,
    /// Bots thinking at once (0: cores − 1, at least one).
    pub threads: u64,
    /// Seconds a lease on a bot's turn lasts.
    pub lease_secs: u64,
}

/// `[tls]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TlsSection {
    /// PEM certificate chain; empty: no TLS.
    pub cert: String,
    /// PEM private key.
    pub key: String,
    /// PEM CA certificates of client certificates; empty: none asked.
    pub client_ca: String,
}

/// `[web]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebSection {
    /// Answer gRPC-web too.
    pub grpc_web: bool,
    /// Origins allowed by CORS.
    pub cors_origin: Vec<String>,
    /// Serve the browser client (and gRPC-web).
    pub enabled: bool,
    /// Directory of the browser client; empty: the one built in.
    pub root: String,
}

/// `[admin]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdminSection {
    /// Address of the admin service; empty: off.
    pub listen: String,
    /// PEM CA certificates of the operators' client certificates; empty: none asked.
    pub client_ca: String,
}

/// `[metrics]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MetricsSection {
    /// Address of `/metrics`; empty: off.
    pub listen: String,
}

/// `[log]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LogSection {
    /// `text` or `json`.
    pub format: LogFormat,
    /// A tracing filter.
    pub filter: String,
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// For people.
    Text,
    /// One JSON object a line.
    Json,
}

impl Default for Config {
    fn default() -> Self {
        let limits = Limits::default();
        let net = NetConfig::default();
        let bots = BotPace::default();
        let rates = default_rates();
        Config {
            server: ServerSection {
                listen: SocketAddr::from(([127, 0, 0, 1], 50051)),
                drain_secs: 10,
            },
            storage: StorageSection {
                data_dir: PathBuf::from("./trinchera-data"),
                sync_data: false,
                cache_mib: SledOptions::default().cache_bytes / (1024 * 1024),
                url: String::new(),
                migrate_on_start: false,
            },
            bus: BusSection { url: String::new() },
            limits: LimitsSection {
                max_open_games: limits.max_open_games as u64,
                max_open_games_per_peer: limits.max_open_games_per_peer as u64,
                max_exhibitions: limits.max_exhibitions as u64,
                max_exhibitions_per_peer: limits.max_exhibitions_per_peer as u64,
                max_replays: limits.max_replays as u64,
                max_replays_per_peer: limits.max_replays_per_peer as u64,
                history_page: limits.history_page as u64,
                replay_idle_secs: limits.replay_idle.as_secs(),
                idle_secs: limits.idle_eviction.as_secs(),
                waiting_expiry_hours: limits.waiting_expiry.as_secs_f64() / 3600.0,
                setup_expiry_hours: limits.setup_expiry.as_secs_f64() / 3600.0,
                abandon_days: limits.abandon_after.as_secs_f64() / 86_400.0,
                create_join_per_minute: rates.0,
                create_join_burst: rates.1,
                actions_per_second: rates.2,
                actions_burst: rates.3,
                watch_opens_per_minute: rates.4,
                watch_opens_burst: rates.5,
                no_rate_limits: false,
            },
            net: NetSection {
                max_connections: 0,
                max_connections_per_peer: net.max_connections_per_peer as u64,
                max_watches_per_connection: net.max_watches_per_connection as u64,
                max_watches_per_peer: net.max_watches_per_peer as u64,
                preface_timeout_secs: net.preface_timeout.as_secs(),
                connection_idle_secs: net.idle_timeout.as_secs(),
                trusted_proxy: Vec::new(),
            },
            bots: BotsSection {
                think_ms: bots.think.as_millis() as u64,
                delay_ms: bots.min_delay.as_millis() as u64,
                threads: 0,
                lease_secs: bots.lease.as_secs(),
            },
            tls: TlsSection {
                cert: String::new(),
                key: String::new(),
                client_ca: String::new(),
            },
            web: WebSection {
                grpc_web: false,
                cors_origin: Vec::new(),
                enabled: false,
                root: String::new(),
            },
            admin: AdminSection {
                listen: String::new(),
                client_ca: String::new(),
            },
            metrics: MetricsSection {
                listen: String::new(),
            },
            log: LogSection {
                format: LogFormat::Text,
                filter: "info".into(),
            },
        }
    }
}

/// The default rate limits, as counts and bursts: create/join per minute and burst,
/// actions per second and burst, watch opens per minute and burst.
fn default_rates() -> (u64, u64, u64, u64, u64, u64) {
    (60, 20, 100, 200, 100, 30)
}

/// Why the configuration cannot be used: every problem found, each naming its key and
/// source.
#[derive(Debug, thiserror::Error)]
#[error("{}", .problems.join("\n"))]
pub struct ConfigError {
    /// One sentence per problem.
    pub problems: Vec<String>,
}

/// The configuration with where each value came from.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The effective configuration.
    pub config: Config,
    /// The source of every key that is not at its default.
    pub sources: std::collections::BTreeMap<&'static str, Source>,
}

impl Loaded {
    /// Reads the file `file` (if any), the environment `env` and the command line `flags`
    /// over the defaults.
    pub fn load(
        file: Option<&std::path::Path>,
        env: &dyn Fn(&str) -> Option<String>,
        flags: &FlagValues,
    ) -> Result<Loaded, ConfigError> {
        layers::load(file, env, flags)
    }

    /// The effective configuration as TOML, each value with its source in a comment,
    /// secrets masked.
    pub fn to_toml(&self) -> String {
        layers::print(self)
    }
}

/// Every setting as a Markdown table (key, flag, environment variable, default, meaning),
/// as the operators' guide (`docs/operators/running.md`) shows it.
pub fn markdown_table() -> String {
    layers::markdown()
}

impl Config {
    /// What is wrong with values that have the right type but make no sense, by key.
    fn problems(&self) -> Vec<(&'static str, String)> {
        let mut problems = Vec::new();
        let l = &self.limits;
        for (key, value) in [
            ("limits.waiting_expiry_hours", l.waiting_expiry_hours),
            ("limits.setup_expiry_hours", l.setup_expiry_hours),
            ("limits.abandon_days", l.abandon_days),
        ] {
            if !(value.is_finite() && value > 0.0 && value < 1e9) {
                problems.push((key, format!("expected a positive number, not {value}")));
            }
        }
        for (key, value) in [
            ("limits.history_page", l.history_page),
            ("limits.replay_idle_secs", l.replay_idle_secs),
            ("net.preface_timeout_secs", self.net.preface_timeout_secs),
            ("net.connection_idle_secs", self.net.connection_idle_secs),
            ("bots.lease_secs", self.bots.lease_secs),
        ] {
            if value == 0 {
                problems.push((key, "expected at least 1".to_owned()));
            }
        }
        let tls = &self.tls;
        if tls.cert.is_empty() != tls.key.is_empty() {
            problems.push(("tls.key", "tls.cert and tls.key come together".to_owned()));
        }
        if !tls.client_ca.is_empty() && tls.cert.is_empty() {
            problems.push((
                "tls.client_ca",
                "client certificates need tls.cert".to_owned(),
            ));
        }
        for origin in &self.web.cors_origin {
            let valid = origin.contains("://") && origin.bytes().all(|b| b.is_ascii_graphic());
            if !valid {
                problems.push((
                    "web.cors_origin",
                    format!("expected an origin such as https://play.example.org, not {origin:?}"),
                ));
            }
        }
        for (key, listen, example) in [
            ("metrics.listen", &self.metrics.listen, "127.0.0.1:9090"),
            ("admin.listen", &self.admin.listen, "127.0.0.1:50052"),
        ] {
            if !listen.is_empty() && listen.parse::<SocketAddr>().is_err() {
                problems.push((
                    key,
                    format!("expected an address such as {example}, not {listen:?}"),
                ));
            }
        }
        if !self.admin.client_ca.is_empty() && tls.cert.is_empty() {
            problems.push((
                "admin.client_ca",
                "client certificates need tls.cert and tls.key".to_owned(),
            ));
        }
        if let Some(admin) = self.admin_listen()
            && !admin.ip().is_loopback()
            && self.admin.client_ca.is_empty()
        {
            problems.push((
                "admin.listen",
                "a network address needs operators' client certificates (admin.client_ca, \
                 with tls.cert and tls.key; the players' tls.client_ca is not enough): \
                 whoever reaches the admin service may export every game"
                    .to_owned(),
            ));
        }
        let nats = |url: &str| {
            ["nats://", "tls://"]
                .iter()
                .any(|scheme| url.trim().starts_with(scheme))
        };
        if !self.bus.url.is_empty() && !self.bus.url.split(',').all(nats) {
            problems.push((
                "bus.url",
                "expected nats://host:port URLs (tls:// for TLS), separated by commas".to_owned(),
            ));
        }
        if !self.bus.url.is_empty() && self.storage.url.is_empty() {
            problems.push((
                "bus.url",
                "a bus joins servers that share a database: set storage.url too".to_owned(),
            ));
        }
        if !self.storage.url.is_empty() && !crate::store::is_postgres_url(&self.storage.url) {
            problems.push((
                "storage.url",
                "expected a postgres:// or postgresql:// URL".to_owned(),
            ));
        }
        problems
    }

    /// The address of the admin service, if it is on.
    pub fn admin_listen(&self) -> Option<SocketAddr> {
        self.admin.listen.parse().ok()
    }

    /// Where the games are kept: the storage.url database, or sled in storage.data_dir.
    pub fn store_location(&self) -> crate::store::Location {
        if self.storage.url.is_empty() {
            crate::store::Location::Sled {
                dir: self.storage.data_dir.clone(),
                options: self.sled(),
            }
        } else {
            crate::store::Location::Postgres {
                url: self.storage.url.clone(),
            }
        }
    }

    /// The bus's URL, if there is a bus.
    pub fn bus_url(&self) -> Option<&str> {
        (!self.bus.url.is_empty()).then_some(self.bus.url.as_str())
    }

    /// The address of the metrics endpoint, if metrics are on.
    pub fn metrics_listen(&self) -> Option<SocketAddr> {
        self.metrics.listen.parse().ok()
    }

    /// The game manager's limits.
    pub fn limits(&self) -> Limits {
        let l = &self.limits;
        let rate = |count: u64, burst: u64, per: fn(NonZeroU32, NonZeroU32) -> RateLimit| {
            let count = NonZeroU32::new(u32::try_from(count).unwrap_or(u32::MAX))?;
            let burst = u32::try_from(burst).unwrap_or(u32::MAX);
            Some(per(
                count,
                NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN),
            ))
        };
        let rates = if l.no_rate_limits {
            RateLimits::OFF
        } else {
            RateLimits {
                create_join: rate(
                    l.create_join_per_minute,
                    l.create_join_burst,
                    RateLimit::per_minute,
                ),
                acting: rate(l.actions_per_second, l.actions_burst, RateLimit::per_second),
                stream_opens: rate(
                    l.watch_opens_per_minute,
                    l.watch_opens_burst,
                    RateLimit::per_minute,
                ),
            }
        };
        let hours = |hours: f64| Duration::from_secs_f64(hours * 3600.0);
        let count = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        Limits {
            max_open_games: count(l.max_open_games),
            max_open_games_per_peer: count(l.max_open_games_per_peer),
            max_exhibitions: count(l.max_exhibitions),
            max_exhibitions_per_peer: count(l.max_exhibitions_per_peer),
            max_replays: count(l.max_replays),
            max_replays_per_peer: count(l.max_replays_per_peer),
            history_page: count(l.history_page),
            replay_idle: Duration::from_secs(l.replay_idle_secs),
            idle_eviction: Duration::from_secs(l.idle_secs),
            waiting_expiry: hours(l.waiting_expiry_hours),
            setup_expiry: hours(l.setup_expiry_hours),
            abandon_after: hours(l.abandon_days * 24.0),
            rates,
            bots: BotPace {
                think: Duration::from_millis(self.bots.think_ms),
                min_delay: Duration::from_millis(self.bots.delay_ms),
                threads: match self.bots.threads {
                    0 => BotPace::default_threads(),
                    n => count(n),
                },
                lease: Duration::from_secs(self.bots.lease_secs),
            },
            ..Limits::default()
        }
    }

    /// The transport's limits.
    pub fn net(&self) -> NetConfig {
        let n = &self.net;
        let count = |value: u64| usize::try_from(value).unwrap_or(usize::MAX);
        let defaults = NetConfig::default();
        NetConfig {
            max_connections: match n.max_connections {
                0 => defaults.max_connections,
                value => count(value),
            },
            max_connections_per_peer: count(n.max_connections_per_peer),
            max_watches_per_connection: count(n.max_watches_per_connection),
            max_watches_per_peer: count(n.max_watches_per_peer),
            preface_timeout: Duration::from_secs(n.preface_timeout_secs),
            idle_timeout: Duration::from_secs(n.connection_idle_secs),
            trusted_proxies: n.trusted_proxy.clone(),
        }
    }

    /// The embedded store's options.
    pub fn sled(&self) -> SledOptions {
        SledOptions {
            sync_data: self.storage.sync_data,
            cache_bytes: self.storage.cache_mib * 1024 * 1024,
        }
    }

    /// How long a stopping server waits for running calls.
    pub fn drain(&self) -> Duration {
        Duration::from_secs(self.server.drain_secs)
    }
}
