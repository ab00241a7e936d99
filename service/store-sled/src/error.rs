//! Why the embedded store failed, with the cause kept for the logs.

use trinchera_store::StoreError;
use trinchera_store::records::DecodeError;

/// A failure of the embedded store.
#[derive(Debug, thiserror::Error)]
pub(crate) enum SledError {
    /// sled failed.
    #[error("the database: {0}")]
    Sled(#[from] sled::Error),
    /// The commit log could not be read or written.
    #[error("the commit log: {0}")]
    Log(#[source] std::io::Error),
    /// A file of the data directory, or a thread, could not be had.
    #[error("{what}: {source}")]
    Io {
        /// What was asked for.
        what: &'static str,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// A stored value could not be read.
    #[error(transparent)]
    Decode(#[from] DecodeError),
    /// A key or a commit log entry this layout does not write.
    #[error("the data directory holds a malformed {0}")]
    Malformed(&'static str),
}

impl SledError {
    /// An I/O failure while getting `what`.
    pub(crate) fn io(what: &'static str) -> impl FnOnce(std::io::Error) -> SledError {
        move |source| SledError::Io { what, source }
    }
}

impl From<SledError> for StoreError {
    fn from(error: SledError) -> StoreError {
        match error {
            SledError::Decode(error) => StoreError::Decode(error),
            other => StoreError::Backend(Box::new(other)),
        }
    }
}
