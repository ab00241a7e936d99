//! Fresh schemas for tests in the database `TRINCHERA_TEST_POSTGRES` names (`.ci/postgres`
//! starts one), so that tests run side by side without seeing each other's games.

use std::io::Write as _;
use std::sync::Once;

use super::{PostgresStore, connect};

/// The variable that names the test database (a `postgres://` URL).
pub const TEST_DATABASE: &str = "TRINCHERA_TEST_POSTGRES";

/// An empty schema, migrated, that stores connect to through [`ScratchSchema::url`].
#[derive(Debug)]
pub struct ScratchSchema {
    base: String,
    name: String,
    url: String,
}

impl ScratchSchema {
    /// A new schema in the test database; `None` (with a notice on stderr, once) when
    /// [`TEST_DATABASE`] is not set. Panics when the database cannot be used.
    pub async fn create() -> Option<ScratchSchema> {
        let Ok(base) = std::env::var(TEST_DATABASE) else {
            static NOTICE: Once = Once::new();
            // Past the test harness's capture, so that a passing run shows it too.
            NOTICE.call_once(|| {
                let _ = writeln!(
                    std::io::stderr(),
                    "PostgreSQL tests skipped: {TEST_DATABASE} is not set (.ci/postgres sets it)"
                );
            });
            return None;
        };
        let random = getrandom::u64().expect("OS randomness");
        let name = format!("trinchera_test_{random:016x}");
        let separator = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{separator}options=-c%20search_path%3D{name}");
        let scratch = ScratchSchema { base, name, url };
        scratch.execute(&format!("CREATE SCHEMA {}", scratch.name)).await;
        PostgresStore::migrate(&scratch.url)
            .await
            .unwrap_or_else(|error| panic!("cannot migrate {}: {error}", scratch.name));
        Some(scratch)
    }

    /// The URL of the test database with this schema first in the search path.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Drops the schema and everything in it.
    pub async fn remove(self) {
        self.execute(&format!("DROP SCHEMA {} CASCADE", self.name))
            .await;
    }

    async fn execute(&self, sql: &str) {
        let client = connect::single(&self.base)
            .await
            .unwrap_or_else(|error| panic!("cannot connect to {TEST_DATABASE}: {error}"));
        client
            .batch_execute(sql)
            .await
            .unwrap_or_else(|error| panic!("{sql}: {error}"));
    }
}
