//! The store conformance suite against PostgreSQL, each test in a fresh schema of the
//! database `TRINCHERA_TEST_POSTGRES` names, in transactions of the database's default
//! isolation (READ COMMITTED) and in SERIALIZABLE ones (CockroachDB's, where collisions are
//! serialization failures to retry). Without a test database the tests are ignored.

use std::sync::Arc;

use trinchera_store::Store;
use trinchera_store::conformance::Backend;
use trinchera_store_postgres::PostgresStore;
use trinchera_store_postgres::scratch::{self, ScratchSchema};

/// PostgreSQL, in a fresh schema of the test database.
struct Postgres {
    url: String,
    store: Arc<PostgresStore>,
}

impl Backend for Postgres {
    fn store(&self) -> Arc<dyn Store> {
        Arc::clone(&self.store) as Arc<dyn Store>
    }

    async fn restart(&mut self) {
        self.store.close().await.expect("closes");
        self.store = Arc::new(PostgresStore::open(&self.url).await.expect("opens"));
    }

    async fn fail_to_serialize_once(&self) {
        scratch::execute(&self.url, FAIL_TO_SERIALIZE_ONCE).await;
    }
}

/// A trigger that fails the next statement inserting into `events` with a real
/// serialization failure, once (a sequence counts, outside the transactions it fails).
const FAIL_TO_SERIALIZE_ONCE: &str = "
    CREATE SEQUENCE IF NOT EXISTS serialization_failures;
    SELECT setval('serialization_failures', 1, false);
    CREATE OR REPLACE FUNCTION fail_to_serialize_once() RETURNS TRIGGER LANGUAGE plpgsql AS $$
    BEGIN
        IF nextval('serialization_failures') = 1 THEN
            RAISE EXCEPTION 'collided (a test)' USING ERRCODE = 'serialization_failure';
        END IF;
        RETURN NULL;
    END $$;
    DROP TRIGGER IF EXISTS fail_to_serialize_once ON events;
    CREATE TRIGGER fail_to_serialize_once BEFORE INSERT ON events
        FOR EACH STATEMENT EXECUTE FUNCTION fail_to_serialize_once();
";

/// Runs `test` in a fresh schema with the server settings `settings`; a passing test's
/// schema is dropped, a failing one's kept to be looked at.
async fn on_postgres<F: Future<Output = ()>>(test: impl FnOnce(Postgres) -> F, settings: &[&str]) {
    let schema = ScratchSchema::create().await.expect("a test database");
    let url = schema.url_with(settings);
    let store = Arc::new(PostgresStore::open(&url).await.expect("opens"));
    test(Postgres { url, store }).await;
    schema.remove().await;
}

mod read_committed {
    use super::*;

    async fn run<F: Future<Output = ()>>(test: impl FnOnce(Postgres) -> F) {
        on_postgres(test, &[]).await;
    }

    trinchera_store::conformance_tests!(
        #[cfg_attr(
            not(trinchera_test_postgres),
            ignore = "needs TRINCHERA_TEST_POSTGRES (.ci/postgres sets it)"
        )]
        run
    );
}

mod serializable {
    use super::*;

    async fn run<F: Future<Output = ()>>(test: impl FnOnce(Postgres) -> F) {
        on_postgres(test, &["default_transaction_isolation=serializable"]).await;
    }

    trinchera_store::conformance_tests!(
        #[cfg_attr(
            not(trinchera_test_postgres),
            ignore = "needs TRINCHERA_TEST_POSTGRES (.ci/postgres sets it)"
        )]
        run
    );
}
