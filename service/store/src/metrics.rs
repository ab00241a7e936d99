//! What a backend measures of itself, for the server's Prometheus metrics (recorded through
//! the `metrics` facade: a no-op until the server installs a recorder).

use metrics::histogram;

/// Appends made durable by one group commit (one on a backend that commits each append
/// alone).
pub const COMMIT_BATCH: &str = "trinchera_store_commit_batch_size";
/// Time of one group commit: checking its appends against the logs and making them
/// durable.
pub const COMMIT_SECONDS: &str = "trinchera_store_commit_duration_seconds";

/// A group commit of `appends` appends that took `seconds`.
pub fn group_commit(appends: usize, seconds: f64) {
    histogram!(COMMIT_BATCH).record(appends as f64);
    histogram!(COMMIT_SECONDS).record(seconds);
}
