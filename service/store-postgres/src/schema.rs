//! The schema's versions: the SQL files in `migrations/` (embedded at build time, applied
//! in order by refinery, each in its own transaction, with no locks: one job runs them), and
//! the check that a server's build and its database agree.
//!
//! refinery records each applied file in [`HISTORY`]; the highest version there is the
//! database's schema version, and the highest file here is the build's.

use std::cmp::Ordering;

use tokio_postgres::error::SqlState;

use trinchera_store::StoreError;

refinery::embed_migrations!("src/migrations");

/// The table in which refinery records the applied migrations.
const HISTORY: &str = "trinchera_schema_history";

/// Why a server does not start on a database: its schema is not the build's.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SchemaMismatch {
    /// The database's schema is older than the build's (0: it has none).
    #[error(
        "the database's schema is version {found}, this build needs version {needed}: run \
         `trinchera-server migrate --store URL` first (or start a single server with \
         --migrate-on-start)"
    )]
    Older {
        /// The database's version.
        found: i32,
        /// The build's version.
        needed: i32,
    },
    /// The database's schema is newer than the build's.
    #[error(
        "the database's schema is version {found}, newer than this build's ({needed}): run a \
         newer trinchera-server (a schema is never migrated down)"
    )]
    Newer {
        /// The database's version.
        found: i32,
        /// The build's version.
        needed: i32,
    },
}

impl From<SchemaMismatch> for StoreError {
    fn from(mismatch: SchemaMismatch) -> StoreError {
        StoreError::Incompatible(Box::new(mismatch))
    }
}

/// What a migration did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Migrated {
    /// The schema version before (0: none).
    pub from: i32,
    /// The schema version now.
    pub to: i32,
}

/// The schema version this build writes: its newest migration's.
pub(super) fn version() -> i32 {
    migrations::runner()
        .get_migrations()
        .iter()
        .map(refinery::Migration::version)
        .max()
        .unwrap_or(0)
}

/// The database's schema version: 0 before the first migration.
async fn applied(client: &tokio_postgres::Client) -> Result<i32, StoreError> {
    let query = format!("SELECT MAX(version)::INT4 FROM {HISTORY}");
    match client.query_one(&query, &[]).await {
        Ok(row) => Ok(row
            .try_get::<_, Option<i32>>(0)
            .map_err(StoreError::backend)?
            .unwrap_or(0)),
        Err(error) if error.code() == Some(&SqlState::UNDEFINED_TABLE) => Ok(0),
        Err(error) => Err(StoreError::backend(error)),
    }
}

/// Refuses a database whose schema is not this build's.
pub(super) async fn check(client: &tokio_postgres::Client) -> Result<(), StoreError> {
    let (found, needed) = (applied(client).await?, version());
    match found.cmp(&needed) {
        Ordering::Equal => Ok(()),
        Ordering::Less => Err(SchemaMismatch::Older { found, needed }.into()),
        Ordering::Greater => Err(SchemaMismatch::Newer { found, needed }.into()),
    }
}

/// Brings the schema of the database `client` is connected to up to this build's version;
/// refuses a newer one.
pub(super) async fn migrate(client: &mut tokio_postgres::Client) -> Result<Migrated, StoreError> {
    let (from, to) = (applied(client).await?, version());
    if from > to {
        return Err(SchemaMismatch::Newer {
            found: from,
            needed: to,
        }
        .into());
    }
    let mut runner = migrations::runner();
    runner.set_migration_table_name(HISTORY);
    runner
        .run_async(client)
        .await
        .map_err(StoreError::backend)?;
    Ok(Migrated { from, to })
}
