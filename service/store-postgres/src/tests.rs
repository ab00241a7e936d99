//! What the conformance suite does not show: schema versions, TLS and retries (with a real
//! database, skipped when `TRINCHERA_TEST_POSTGRES` is not set).

use std::sync::atomic::{AtomicU32, Ordering};

use super::retry::{self, is_transient, retrying};
use super::scratch::ScratchSchema;
use super::*;
use trinchera_store::MAX_DOWNTIMES;

/// The schema mismatch `error` reports, if that is what it is.
fn error_mismatch(error: &StoreError) -> Option<&SchemaMismatch> {
    match error {
        StoreError::Incompatible(inner) => inner.downcast_ref(),
        _ => None,
    }
}

/// Runs `sql` in `schema`.
async fn execute(schema: &ScratchSchema, sql: &str) -> Result<(), StoreError> {
    let client = connect::single(&schema.url()).await?;
    client.batch_execute(sql).await.map_err(StoreError::backend)
}

#[tokio::test]
#[cfg_attr(
    not(trinchera_test_postgres),
    ignore = "needs TRINCHERA_TEST_POSTGRES (.ci/postgres sets it)"
)]
async fn schemas_older_or_newer_than_the_build_are_refused_with_what_to_run() {
    let schema = ScratchSchema::empty().await.expect("a test database");
    let url = schema.url();
    let needed = schema::version();
    let Err(error) = PostgresStore::open(&url).await else {
        panic!("opened a database without a schema");
    };
    assert!(
        matches!(error_mismatch(&error), Some(SchemaMismatch::Older { found: 0, needed: n }) if *n == needed),
        "{error:?}"
    );
    assert!(
        error
            .to_string()
            .contains("run `trinchera-server migrate --store URL`"),
        "{error}"
    );

    let migrated = PostgresStore::migrate(&url).await.expect("migrates");
    assert_eq!(
        migrated,
        Migrated {
            from: 0,
            to: needed
        }
    );
    let again = PostgresStore::migrate(&url).await.expect("migrates");
    assert_eq!(
        again,
        Migrated {
            from: needed,
            to: needed
        }
    );
    PostgresStore::open(&url).await.expect("opens");

    let future = needed + 1;
    execute(
        &schema,
        &format!(
            "INSERT INTO trinchera_schema_history (version, name, applied_on, checksum) \
             VALUES ({future}, 'future', '2030-01-01T00:00:00Z', '0')"
        ),
    )
    .await
    .expect("a newer build's migration");
    for refused in [
        PostgresStore::open(&url).await.err(),
        PostgresStore::migrate(&url).await.err(),
    ] {
        let error = refused.expect("refused");
        assert!(
            matches!(error_mismatch(&error), Some(SchemaMismatch::Newer { found, .. }) if *found == future),
            "{error:?}"
        );
        assert!(
            error.to_string().contains("run a newer trinchera-server"),
            "{error}"
        );
    }
    schema.remove().await;
}

#[tokio::test]
#[cfg_attr(
    not(trinchera_test_postgres),
    ignore = "needs TRINCHERA_TEST_POSTGRES (.ci/postgres sets it)"
)]
async fn downtime_keeps_the_latest_intervals() {
    let schema = ScratchSchema::create().await.expect("a test database");
    // A full list: (10, 15), (20, 25), ..., and the last sign of life after it.
    let full = MAX_DOWNTIMES as u64;
    let alive = full * 10 + 100;
    execute(
        &schema,
        &format!(
            "INSERT INTO downtime (from_ms, to_ms) \
             SELECT n * 10, n * 10 + 5 FROM generate_series(1, {full}) AS n; \
             UPDATE liveness SET alive_ms = {alive}"
        ),
    )
    .await
    .expect("fills");
    let store = PostgresStore::open(&schema.url()).await.expect("opens");
    // Started after every server fell silent, so this start is a downtime of its own.
    let now = alive + ANOTHER_SERVER_MS + 50;
    let downtime = store.record_downtime(now).await.expect("records");
    assert_eq!(downtime.0.len(), MAX_DOWNTIMES);
    assert_eq!(downtime.0.first(), Some(&(20, 25)));
    assert_eq!(downtime.0.last(), Some(&(alive, now)));
    let stored = store
        .read("SELECT COUNT(*)::INT8, MIN(from_ms) FROM downtime", &[])
        .await
        .expect("reads");
    let (count, first): (i64, i64) = (
        get(&stored[0], 0).expect("count"),
        get(&stored[0], 1).expect("min"),
    );
    assert_eq!((count, first), (full as i64, 20));
    schema.remove().await;
}

/// The variable that names the file of the CA that signed the test server's certificate,
/// when the server has TLS.
const TEST_CA: &str = "TRINCHERA_TEST_POSTGRES_CA";

/// Whether the pool of `url` reaches the database over TLS.
async fn over_tls(url: &str) -> Result<bool, StoreError> {
    let client = connect::pool(url)?.get().await.map_err(unpooled)?;
    let sql = "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()";
    get(&rows(&client, sql, &[]).await?[0], 0)
}

#[tokio::test]
#[cfg_attr(
    not(trinchera_test_postgres),
    ignore = "needs TRINCHERA_TEST_POSTGRES (.ci/postgres sets it)"
)]
async fn tls_follows_sslmode_and_verifies_the_server() {
    let (Some(database), Some(ca)) = (
        scratch::test_setting(scratch::TEST_DATABASE),
        scratch::test_setting(TEST_CA),
    ) else {
        return;
    };
    let address = database.split('?').next().unwrap_or_default();
    let verified = format!("{address}?sslmode=require&sslrootcert={ca}");
    assert!(over_tls(&verified).await.expect("connects"));
    assert!(
        !over_tls(&format!("{address}?sslmode=disable"))
            .await
            .expect("connects")
    );
    // The system's roots do not know the test CA.
    let unverified = over_tls(&format!("{address}?sslmode=require")).await;
    assert!(
        unverified
            .as_ref()
            .is_err_and(|e| format!("{e:?}").contains("UnknownIssuer")),
        "{unverified:?}"
    );
}

/// A statement the server answers with a real serialization failure.
const SERIALIZATION_FAILURE: &str =
    "DO $$ BEGIN RAISE EXCEPTION 'collided' USING ERRCODE = 'serialization_failure'; END $$";

#[tokio::test]
#[cfg_attr(
    not(trinchera_test_postgres),
    ignore = "needs TRINCHERA_TEST_POSTGRES (.ci/postgres sets it)"
)]
async fn serialization_failures_are_retried_and_other_errors_are_not() {
    let schema = ScratchSchema::empty().await.expect("a test database");
    let attempts = AtomicU32::new(0);
    // Fails twice, then succeeds.
    let outcome = retrying(|| async {
        let sql = match attempts.fetch_add(1, Ordering::Relaxed) {
            0 | 1 => SERIALIZATION_FAILURE,
            _ => "SELECT 1",
        };
        execute(&schema, sql).await
    })
    .await;
    assert!(outcome.is_ok(), "{outcome:?}");
    assert_eq!(attempts.swap(0, Ordering::Relaxed), 3);

    // Always fails: gives up with the failure.
    let outcome = retrying(|| async {
        attempts.fetch_add(1, Ordering::Relaxed);
        execute(&schema, SERIALIZATION_FAILURE).await
    })
    .await;
    assert!(outcome.as_ref().is_err_and(is_transient), "{outcome:?}");
    assert_eq!(attempts.swap(0, Ordering::Relaxed), retry::ATTEMPTS);

    // Another error is returned at once.
    let outcome = retrying(|| async {
        attempts.fetch_add(1, Ordering::Relaxed);
        execute(&schema, "SELECT 1 / 0").await
    })
    .await;
    assert!(
        outcome.as_ref().is_err_and(|e| !is_transient(e)),
        "{outcome:?}"
    );
    assert_eq!(attempts.load(Ordering::Relaxed), 1);
    schema.remove().await;
}
