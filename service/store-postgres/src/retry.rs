//! Serialization failures (SQLSTATE 40001) and deadlocks (40P01) retried with capped
//! backoff.
//!
//! CockroachDB runs every transaction SERIALIZABLE and answers 40001 whenever two of them
//! collide; PostgreSQL and YugabyteDB do so under SERIALIZABLE or REPEATABLE READ. Groups
//! of appends take their rows in the order of the games' ids, so that two of them do not
//! wait for each other; should the database still find a deadlock, it rolls one back
//! (40P01). Either way the transaction was rolled back whole, so running it again is safe:
//! an append that lost its race finds the version taken on its next attempt and reports a
//! conflict.

use std::time::Duration;

use tokio_postgres::error::SqlState;

use trinchera_store::StoreError;

/// Attempts of one transaction at most.
pub(super) const ATTEMPTS: u32 = 8;
/// The wait after the first failure; each later one doubles, up to [`MAX_WAIT`].
const FIRST_WAIT: Duration = Duration::from_millis(4);
/// The longest wait between two attempts.
const MAX_WAIT: Duration = Duration::from_millis(250);

/// Whether `error` is a serialization failure or a deadlock of the database: the
/// transaction was rolled back and may run again.
pub(super) fn is_transient(error: &StoreError) -> bool {
    let StoreError::Backend(source) = error else {
        return false;
    };
    let code = source
        .downcast_ref::<tokio_postgres::Error>()
        .and_then(tokio_postgres::Error::code);
    code == Some(&SqlState::T_R_SERIALIZATION_FAILURE)
        || code == Some(&SqlState::T_R_DEADLOCK_DETECTED)
}

/// Runs `attempt` until it does not fail with a serialization failure or a deadlock, [`ATTEMPTS`] times
/// at most, waiting a little longer (with jitter, so that racers spread) after each failure;
/// returns the last outcome.
pub(super) async fn retrying<T, F>(mut attempt: impl FnMut() -> F) -> Result<T, StoreError>
where
    F: Future<Output = Result<T, StoreError>>,
{
    let mut wait = FIRST_WAIT;
    for _ in 1..ATTEMPTS {
        match attempt().await {
            Err(error) if is_transient(&error) => {
                tracing::debug!(%error, "serialization failure or deadlock: the transaction runs again");
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
