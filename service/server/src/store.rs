//! Where the server keeps its games, and the backend that opens them: sled in a data
//! directory (the default), or a PostgreSQL database shared by replicas.

use std::sync::Arc;

use trinchera_store::{Store, StoreError};
use trinchera_store_postgres::PostgresStore;
use trinchera_store_sled::{SledOptions, SledStore};

/// Where a server keeps its games.
#[derive(Clone, Debug)]
pub enum Location {
    /// The embedded database in a directory.
    Sled {
        /// The directory.
        dir: std::path::PathBuf,
        /// Its settings.
        options: SledOptions,
    },
    /// A PostgreSQL database (its schema must be this build's: see
    /// [`PostgresStore::migrate`]).
    Postgres {
        /// `postgres://…`
        url: String,
    },
}

impl Location {
    /// Opens the store.
    pub async fn open(&self) -> Result<Arc<dyn Store>, StoreError> {
        Ok(match self {
            Location::Sled { dir, options } => Arc::new(SledStore::open(dir, options.clone())?),
            Location::Postgres { url } => Arc::new(PostgresStore::open(url).await?),
        })
    }

    /// The store in words, for messages (never a password).
    pub fn describe(&self) -> String {
        match self {
            Location::Sled { dir, .. } => format!("the data directory {}", dir.display()),
            Location::Postgres { .. } => "the storage.url database".to_owned(),
        }
    }
}
