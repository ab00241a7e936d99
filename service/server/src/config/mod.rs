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

use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

pub use self::layers::{FlagValues, Source};
pub use self::settings::Config;
use trinchera_service::{
    AccountLimits, AdminOptions, BotPace, GrpcWeb, Limits, NetConfig, RateLimit, RateLimits,
    ServeOptions, Tls, TlsError, TlsFiles, web,
};
use trinchera_store_sled::SledOptions;

use crate::store::Location;

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// For people.
    Text,
    /// One JSON object a line.
    Json,
}

/// Calls of a default rate limit per period, 0 for none.
fn rate_count(rate: Option<RateLimit>) -> u64 {
    rate.map_or(0, |rate| u64::from(rate.count.get()))
}

/// The burst of a default rate limit, 0 for none.
fn rate_burst(rate: Option<RateLimit>) -> u64 {
    rate.map_or(0, |rate| u64::from(rate.burst.get()))
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
        if !self.storage.url.is_empty()
            && !trinchera_store_postgres::is_postgres_url(&self.storage.url)
        {
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
    pub fn store_location(&self) -> Location {
        if self.storage.url.is_empty() {
            Location::Sled {
                dir: self.storage.data_dir.clone(),
                options: self.sled(),
            }
        } else {
            Location::Postgres {
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
                registrations: rate(
                    l.registrations_per_hour,
                    l.registrations_burst,
                    RateLimit::per_hour,
                ),
                failed_logins: rate(
                    l.failed_logins_per_minute,
                    l.failed_logins_burst,
                    RateLimit::per_minute,
                ),
                failed_logins_per_name: rate(
                    l.failed_logins_per_name_per_minute,
                    l.failed_logins_per_name_burst,
                    RateLimit::per_minute,
                ),
            }
        };
        let a = &self.accounts;
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
            accounts: AccountLimits {
                hash_threads: match a.hash_threads {
                    0 => AccountLimits::default_hash_threads(),
                    n => count(n),
                },
                session: Duration::from_secs_f64(a.session_days * 86_400.0),
                name_hold: Duration::from_secs_f64(a.name_hold_days * 86_400.0),
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

    /// The options `config` asks for; TLS files and the browser client are read now. The
    /// metrics are left off: the caller installs their recorder (`trinchera_service::metrics::install`).
    pub fn serve_options(&self) -> Result<ServeOptions, OptionsError> {
        let config = self;
        let path = |text: &str| (!text.is_empty()).then(|| std::path::PathBuf::from(text));
        let identity = |client_ca: &str| -> Result<_, TlsError> {
            match (path(&config.tls.cert), path(&config.tls.key)) {
                (Some(cert), Some(key)) => Ok(Some(Arc::new(Tls::load(TlsFiles {
                    cert,
                    key,
                    client_ca: path(client_ca),
                })?))),
                _ => Ok(None),
            }
        };
        let tls = identity(&config.tls.client_ca)?;
        let admin = match config.admin_listen() {
            Some(listen) => Some(AdminOptions {
                listen,
                tls: match config.admin.client_ca.is_empty() {
                    true => None,
                    false => identity(&config.admin.client_ca)?,
                },
            }),
            None => None,
        };
        Ok(ServeOptions {
            net: config.net(),
            tls,
            drain: config.drain(),
            // The browser client speaks gRPC-web.
            web: (config.web.grpc_web || config.web.enabled).then(|| GrpcWeb {
                cors_origins: config.web.cors_origin.clone(),
            }),
            admin,
            metrics: None,
            bus: config.bus_url().map(str::to_owned),
            site: match config.web.enabled {
                true => Some(web::Bundle::load(&config.web.root)?),
                false => None,
            },
        })
    }

    /// The embedded store's options.
    pub fn sled(&self) -> SledOptions {
        SledOptions {
            sync_data: self.storage.sync_data,
            cache_bytes: self.storage.cache_mib * 1024 * 1024,
            ..SledOptions::default()
        }
    }

    /// How long a stopping server waits for running calls.
    pub fn drain(&self) -> Duration {
        Duration::from_secs(self.server.drain_secs)
    }
}

/// Why the options a configuration asks for cannot be set up.
#[derive(Debug, thiserror::Error)]
pub enum OptionsError {
    /// The TLS files.
    #[error(transparent)]
    Tls(#[from] TlsError),
    /// The browser client.
    #[error(transparent)]
    Web(#[from] web::WebError),
}
