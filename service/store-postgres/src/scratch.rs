//! Fresh schemas for tests in the database `TRINCHERA_TEST_POSTGRES` names (`.ci/postgres`
//! starts one), so that tests run side by side without seeing each other's games.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::sync::Mutex;

use super::{PostgresStore, connect};

/// The variable that names the test database (a `postgres://` URL).
pub const TEST_DATABASE: &str = "TRINCHERA_TEST_POSTGRES";

/// The value of the variable `name`; `None`, with a notice on stderr (once a variable),
/// when it is not set: the tests that need it are skipped.
pub fn test_setting(name: &'static str) -> Option<String> {
    static NOTICED: Mutex<BTreeSet<&str>> = Mutex::new(BTreeSet::new());
    let value = std::env::var(name).ok();
    let mut noticed = NOTICED.lock().unwrap_or_else(|e| e.into_inner());
    if value.is_none() && noticed.insert(name) {
        // Past the test harness's capture, so that a passing run shows it too.
        let _ = writeln!(
            std::io::stderr(),
            "PostgreSQL tests skipped: {name} is not set (.ci/postgres sets it)"
        );
    }
    value
}

/// A schema of its own in the test database, that stores reach through [`ScratchSchema::url`].
#[derive(Debug)]
pub struct ScratchSchema {
    base: String,
    name: String,
}

impl ScratchSchema {
    /// A new schema in the test database, migrated to this build's version; `None` when
    /// [`TEST_DATABASE`] is not set ([`test_setting`]). Panics when the database cannot be
    /// used.
    pub async fn create() -> Option<ScratchSchema> {
        let schema = ScratchSchema::empty().await?;
        PostgresStore::migrate(&schema.url())
            .await
            .unwrap_or_else(|error| panic!("cannot migrate {}: {error}", schema.name));
        Some(schema)
    }

    /// A new schema with nothing in it, as [`ScratchSchema::create`] but not migrated.
    pub async fn empty() -> Option<ScratchSchema> {
        let base = test_setting(TEST_DATABASE)?;
        let random = getrandom::u64().expect("OS randomness");
        let name = format!("trinchera_test_{random:016x}");
        let schema = ScratchSchema { base, name };
        schema
            .execute(&format!("CREATE SCHEMA {}", schema.name))
            .await;
        Some(schema)
    }

    /// The URL of the test database with this schema first in the search path.
    pub fn url(&self) -> String {
        self.url_with(&[])
    }

    /// [`ScratchSchema::url`] with server settings (`name=value`) for its sessions.
    pub fn url_with(&self, settings: &[&str]) -> String {
        let search_path = format!("search_path={}", self.name);
        let options: Vec<String> = std::iter::once(search_path.as_str())
            .chain(settings.iter().copied())
            .map(|setting| format!("-c%20{}", setting.replace('=', "%3D")))
            .collect();
        let separator = if self.base.contains('?') { '&' } else { '?' };
        format!("{}{separator}options={}", self.base, options.join("%20"))
    }

    /// Drops the schema and everything in it.
    pub async fn remove(self) {
        self.execute(&format!("DROP SCHEMA {} CASCADE", self.name))
            .await;
    }

    /// Runs `sql` in the test database, outside this schema.
    async fn execute(&self, sql: &str) {
        execute(&self.base, sql).await;
    }
}

/// Runs `sql` (statements separated by `;`) in the database `url` names, as a test sets up
/// what it needs beside a store; panics when that fails.
pub async fn execute(url: &str, sql: &str) {
    let client = connect::single(url)
        .await
        .unwrap_or_else(|error| panic!("cannot connect to {TEST_DATABASE}: {error}"));
    client
        .batch_execute(sql)
        .await
        .unwrap_or_else(|error| panic!("{sql}: {error}"));
}
