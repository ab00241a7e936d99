//! Serialization failures (SQLSTATE 40001) retried with capped backoff.
//!
//! CockroachDB runs every transaction SERIALIZABLE and answers 40001 whenever two of them
//! collide; PostgreSQL and YugabyteDB do so under SERIALIZABLE or REPEATABLE READ. The
//! transaction was rolled back whole, so running it again is safe: an append that lost its
//! race finds the version taken on its next attempt and reports a conflict.

use std::time::Duration;

use tokio_postgres::error::SqlState;

use trinchera_store::StoreError;

/// Attempts of one transaction at most.
pub(super) const ATTEMPTS: u32 = 8;
/// The wait after the first failure; each later one doubles, up to [`MAX_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(4);
/// The longest wait between two attempts.
const MAX_WAIT: Duration = Duration::from_millis(250);

/// Whether `error` is a serialization failure of the database.
pub(super) fn is_serialization_failure(error: &StoreError) -> bool {
    let StoreError::Backend(source) = error else {
        return false;
    };
    source
        .downcast_ref::<tokio_postgres::Error>()
        .and_then(tokio_postgres::Error::code)
        == Some(&SqlState::T_R_SERIALIZATION_FAILURE)
}

/// Runs `attempt` until it does not fail with a serialization failure, [`ATTEMPTS`] times
/// at most, waiting a little longer (with jitter, so that racers spread) after each failure;
/// returns the last outcome.
pub(super) async fn retrying<T, F>(mut attempt: impl FnMut() -> F) -> Result<T, StoreError>
where
    F: Future<Output = Result<T, StoreError>>,
{
    let mut wait = FIRST_WAIT;
    for _ in 1..ATTEMPTS {
        match attempt().await {
            Err(error) if is_serialization_failure(&error) => {
                tracing::debug!(%error, "serialization failure: the transaction runs again");
                tokio::time::sleep(jittered(wait)).await;
                wait = (wait * 2).min(MAX_WAIT);
            }
            outcome => return outcome,
        }
    }
    attempt().await
}

/// Between half of `wait` and all of it.
fn jittered(wait: Duration) -> Duration {
    let fraction = getrandom::u32().unwrap_or(u32::MAX) as f64 / u32::MAX as f64;
    wait.mul_f64(0.5 + fraction / 2.0)
}
