//! What can go wrong when talking to a server or keeping local state.

use std::path::PathBuf;

/// A failed client operation.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The server address cannot be used.
    #[error("{url:?} is not a valid server address: {detail}")]
    BadAddress {
        /// The address given.
        url: String,
        /// Why it is not valid.
        detail: String,
    },
    /// No server at the address, or the connection broke.
    #[error("no Trinchera server at {url} ({detail})")]
    Unreachable {
        /// The address tried.
        url: String,
        /// What the transport said.
        detail: String,
    },
    /// The server's TLS certificate is not trusted.
    #[error(
        "the server at {url} presented a certificate this client does not trust ({detail}); \
         if it is signed by a private CA, give that CA with --tls-ca"
    )]
    Untrusted {
        /// The address tried.
        url: String,
        /// Why the certificate was refused.
        detail: String,
    },
    /// The server answered with an error status.
    #[error("{message}")]
    Refused {
        /// The gRPC status code, e.g. `FAILED_PRECONDITION`.
        status: tonic::Code,
        /// The machine-readable `google.rpc.ErrorInfo` reason, when the server sent one.
        reason: Option<String>,
        /// The server's message, a sentence for people (display-safe).
        message: String,
    },
    /// The server has no ruleset of that id.
    #[error("there is no ruleset {id:?}; the server hosts: {hosted}")]
    NoRuleset {
        /// The id asked for.
        id: String,
        /// The hosted ids, comma-separated.
        hosted: String,
    },
    /// A player token that cannot be sent in a header.
    #[error("the player token may contain only printable ASCII")]
    BadToken,
    /// A reply lacked a part the contract promises.
    #[error("the server sent no {0}")]
    Missing(&'static str),
    /// A local file could not be read or written.
    #[error("{action} {}: {source}", path.display())]
    File {
        /// What was being done, e.g. "cannot read".
        action: &'static str,
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The local state is unusable (no config directory, a malformed state file).
    #[error("{0}")]
    State(String),
}

impl ClientError {
    /// A file error.
    pub fn file(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        ClientError::File {
            action,
            path: path.into(),
            source,
        }
    }

    /// Whether the failure is the server's absence (worth retrying later), not a refusal.
    pub fn is_unreachable(&self) -> bool {
        matches!(self, ClientError::Unreachable { .. })
    }
}
