//! What the server measures of itself, for Prometheus: each metric's name once, and a
//! function that records it. Until [`install`] is called (`metrics.listen` set) every
//! recording is a no-op; [`run`](crate::run) serves the [`Exporter`] on its own listener,
//! under the side listeners' limits.
//!
//! Names follow Prometheus conventions: the `trinchera_` prefix, `_total` counters,
//! `_seconds` and `_bytes` units.

use std::time::Duration;

use axum::http::header::CONTENT_TYPE;
use metrics::{counter, gauge, histogram};
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder, PrometheusHandle};

/// Calls answered, by RPC and gRPC status code.
pub const REQUESTS: &str = "trinchera_requests_total";
/// Time to answer a call (for a stream: to open it), by RPC.
pub const REQUEST_SECONDS: &str = "trinchera_request_duration_seconds";
/// Moves committed, by ruleset.
pub const MOVES: &str = "trinchera_moves_committed_total";
pub use trinchera_store::metrics::{COMMIT_BATCH, COMMIT_SECONDS};
/// Size of the embedded store on disk.
pub const STORE_BYTES: &str = "trinchera_store_size_bytes";
/// Unfinished games.
pub const GAMES_OPEN: &str = "trinchera_games_open";
/// Games held in memory.
pub const GAMES_LOADED: &str = "trinchera_games_loaded";
/// Unfinished games with a bot in a seat.
pub const GAMES_WITH_BOTS: &str = "trinchera_games_with_bots";
/// Open WatchGame streams.
pub const WATCH_STREAMS: &str = "trinchera_watch_streams";
/// Open connections.
pub const CONNECTIONS: &str = "trinchera_connections";
/// Time a bot thought about one decision.
pub const BOT_THINK_SECONDS: &str = "trinchera_bot_think_seconds";
/// Time a bot waited for a thinking slot.
pub const BOT_WAIT_SECONDS: &str = "trinchera_bot_queue_wait_seconds";
/// Calls or connections refused by a limit, by the limit's setting.
pub const REFUSALS: &str = "trinchera_refusals_total";
/// Games lost on time.
pub const FORFEITS: &str = "trinchera_clock_forfeits_total";
/// Acts that found their game written by another writer first (another server on the
/// same database): their append was refused, or their caller had seen a later version.
pub const WRITE_CONFLICTS: &str = "trinchera_store_write_conflicts_total";
/// Whether the bus between servers (bus.url) is connected: 1 or 0.
pub const BUS_UP: &str = "trinchera_bus_up";
/// Games polled in the store for other servers' events while the bus was down.
pub const BUS_POLLS: &str = "trinchera_bus_polls_total";
/// Gaps in the bus's events of a game, filled from the store.
pub const BUS_GAPS: &str = "trinchera_bus_gaps_total";
/// Events not published on the bus because too many were queued.
pub const BUS_DROPPED: &str = "trinchera_bus_dropped_total";
/// Always 1, with the build's version, API version and storage layout as labels.
pub const BUILD_INFO: &str = "trinchera_build_info";

/// Buckets of durations in seconds: 100 µs to 10 s.
const SECONDS: &[f64] = &[
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];
/// Buckets of group-commit sizes.
const BATCHES: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];

/// The installed recorder: what the metrics listener shows.
#[derive(Clone)]
pub struct Exporter(PrometheusHandle);

impl std::fmt::Debug for Exporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Exporter(..)")
    }
}

/// How often recorded histogram samples are folded into their buckets (the exporter keeps
/// each sample until then).
const UPKEEP: Duration = Duration::from_secs(5);

/// Records every metric from now on, for the [`Exporter`] to show, with the build's
/// information (the storage layout the server writes among it). Once per process.
pub fn install(storage_layout: u8) -> Result<Exporter, BuildError> {
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Suffix("_seconds".into()), SECONDS)?
        .set_buckets_for_metric(Matcher::Full(COMMIT_BATCH.into()), BATCHES)?
        .install_recorder()?;
    gauge!(
        BUILD_INFO,
        "version" => env!("CARGO_PKG_VERSION"),
        "api" => "trinchera.v1",
        "storage_layout" => storage_layout.to_string(),
    )
    .set(1.0);
    Ok(Exporter(handle))
}

impl Exporter {
    /// The metrics as Prometheus text.
    pub fn render(&self) -> String {
        self.0.run_upkeep();
        self.0.render()
    }

    /// Routes that answer every request, whatever its path (`/metrics` by convention),
    /// with the metrics as Prometheus text.
    pub(crate) fn routes(&self) -> tonic::service::Routes {
        let exporter = self.clone();
        let router = axum::Router::new().fallback(move || {
            let text = exporter.render();
            async move { ([(CONTENT_TYPE, "text/plain; version=0.0.4")], text) }
        });
        tonic::service::Routes::from(router)
    }

    /// Folds recorded samples into their buckets every [`UPKEEP`], for ever (a server
    /// that nobody scrapes must not keep every sample).
    pub(crate) async fn keep_up(self) {
        let mut ticks = tokio::time::interval(UPKEEP);
        loop {
            ticks.tick().await;
            self.0.run_upkeep();
        }
    }
}

/// A call of `rpc` answered with `code` after `seconds`.
pub fn request(rpc: &'static str, code: tonic::Code, seconds: f64) {
    counter!(REQUESTS, "rpc" => rpc, "code" => code_name(code)).increment(1);
    histogram!(REQUEST_SECONDS, "rpc" => rpc).record(seconds);
}

/// A move committed in a game of `ruleset`.
pub fn move_committed(ruleset: &'static str) {
    counter!(MOVES, "ruleset" => ruleset).increment(1);
}

/// What the server holds now: unfinished games, games in memory, games with bots, the
/// store's size on disk.
pub fn holdings(open: usize, loaded: usize, with_bots: usize, store_bytes: Option<u64>) {
    gauge!(GAMES_OPEN).set(open as f64);
    gauge!(GAMES_LOADED).set(loaded as f64);
    gauge!(GAMES_WITH_BOTS).set(with_bots as f64);
    if let Some(bytes) = store_bytes {
        gauge!(STORE_BYTES).set(bytes as f64);
    }
}

/// A WatchGame stream opened (`+1`) or closed (`-1`).
pub fn watch_streams(change: f64) {
    gauge!(WATCH_STREAMS).increment(change);
}

/// A connection opened (`+1`) or closed (`-1`).
pub fn connections(change: f64) {
    gauge!(CONNECTIONS).increment(change);
}

/// A bot waited `waited` seconds for a slot, then thought `thought` seconds.
pub fn bot_decision(waited: f64, thought: f64) {
    histogram!(BOT_WAIT_SECONDS).record(waited);
    histogram!(BOT_THINK_SECONDS).record(thought);
}

/// A call or connection refused by the limit of setting `limit`.
pub fn refused(limit: &'static str) {
    counter!(REFUSALS, "limit" => limit).increment(1);
}

/// A game lost on time.
pub fn forfeit() {
    counter!(FORFEITS).increment(1);
}

/// The bus is connected (`true`) or not.
pub fn bus_up(up: bool) {
    gauge!(BUS_UP).set(f64::from(u8::from(up)));
}

/// `games` games polled in the store while the bus was down.
pub fn bus_polls(games: usize) {
    counter!(BUS_POLLS).increment(games as u64);
}

/// A gap in a game's events from the bus, filled from the store.
pub fn bus_gap() {
    counter!(BUS_GAPS).increment(1);
}

/// An event not published on the bus.
pub fn bus_dropped() {
    counter!(BUS_DROPPED).increment(1);
}

/// An act found its game written by another writer first.
pub fn write_conflict() {
    counter!(WRITE_CONFLICTS).increment(1);
}

/// The status code's name, as gRPC writes it.
fn code_name(code: tonic::Code) -> &'static str {
    use tonic::Code as C;
    match code {
        C::Ok => "OK",
        C::Cancelled => "CANCELLED",
        C::Unknown => "UNKNOWN",
        C::InvalidArgument => "INVALID_ARGUMENT",
        C::DeadlineExceeded => "DEADLINE_EXCEEDED",
        C::NotFound => "NOT_FOUND",
        C::AlreadyExists => "ALREADY_EXISTS",
        C::PermissionDenied => "PERMISSION_DENIED",
        C::ResourceExhausted => "RESOURCE_EXHAUSTED",
        C::FailedPrecondition => "FAILED_PRECONDITION",
        C::Aborted => "ABORTED",
        C::OutOfRange => "OUT_OF_RANGE",
        C::Unimplemented => "UNIMPLEMENTED",
        C::Internal => "INTERNAL",
        C::Unavailable => "UNAVAILABLE",
        C::DataLoss => "DATA_LOSS",
        C::Unauthenticated => "UNAUTHENTICATED",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every metric the shipped Grafana dashboard graphs is one the server records.
    #[test]
    fn the_dashboard_graphs_metrics_that_exist() {
        let known = [
            REQUESTS,
            REQUEST_SECONDS,
            MOVES,
            COMMIT_BATCH,
            COMMIT_SECONDS,
            STORE_BYTES,
            GAMES_OPEN,
            GAMES_LOADED,
            GAMES_WITH_BOTS,
            WATCH_STREAMS,
            CONNECTIONS,
            BOT_THINK_SECONDS,
            BOT_WAIT_SECONDS,
            REFUSALS,
            FORFEITS,
            BUILD_INFO,
        ];
        let dashboard = include_str!("../../deploy/grafana-dashboard.json");
        let mut graphed = 0;
        for word in dashboard.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if !word.starts_with("trinchera_") {
                continue;
            }
            let name = ["_bucket", "_count", "_sum"]
                .iter()
                .fold(word, |name, suffix| {
                    name.strip_suffix(suffix).unwrap_or(name)
                });
            assert!(
                known.contains(&name),
                "the dashboard graphs {word}, which is not recorded"
            );
            graphed += 1;
        }
        assert!(graphed > 10);
    }
}
