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
        /// When the server said the call may be made again (`google.rpc.RetryInfo`, sent
        /// with `RATE_LIMITED`: too many calls, or too many failed sign-ins).
        retry_after: Option<std::time::Duration>,
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

    /// Whether the server refused an account's token as no longer working (signed out,
    /// revoked, expired, or its account deleted or disabled): the way back is to sign in.
    pub fn ends_session(&self) -> bool {
        matches!(
            self,
            ClientError::Refused { reason: Some(reason), .. }
                if reason == "BAD_TOKEN" || reason == "ACCOUNT_DISABLED"
        )
    }

    /// Whose the failure is, as a program's exit code or a count of errors tells it.
    pub fn fault(&self) -> Fault {
        match self {
            ClientError::BadAddress { .. }
            | ClientError::NoRuleset { .. }
            | ClientError::BadToken => Fault::Usage,
            ClientError::Refused { .. } => Fault::Refused,
            ClientError::Unreachable { .. } | ClientError::Untrusted { .. } => Fault::Unreachable,
            ClientError::Missing(_) | ClientError::File { .. } | ClientError::State(_) => {
                Fault::Local
            }
        }
    }
}

/// The kinds of [`ClientError`], by whose the failure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// What was asked cannot be sent as given: a bad address, an unknown ruleset, a token
    /// that cannot travel in a header.
    Usage,
    /// The server answered with an error status.
    Refused,
    /// No server answered, the connection broke, or the server's certificate is not trusted.
    Unreachable,
    /// A local file or state, or a reply without a part the contract promises.
    Local,
}

/// The gRPC name of a status code, e.g. `FAILED_PRECONDITION`.
pub fn status_name(status: tonic::Code) -> &'static str {
    use tonic::Code;
    match status {
        Code::Ok => "OK",
        Code::Cancelled => "CANCELLED",
        Code::Unknown => "UNKNOWN",
        Code::InvalidArgument => "INVALID_ARGUMENT",
        Code::DeadlineExceeded => "DEADLINE_EXCEEDED",
        Code::NotFound => "NOT_FOUND",
        Code::AlreadyExists => "ALREADY_EXISTS",
        Code::PermissionDenied => "PERMISSION_DENIED",
        Code::ResourceExhausted => "RESOURCE_EXHAUSTED",
        Code::FailedPrecondition => "FAILED_PRECONDITION",
        Code::Aborted => "ABORTED",
        Code::OutOfRange => "OUT_OF_RANGE",
        Code::Unimplemented => "UNIMPLEMENTED",
        Code::Internal => "INTERNAL",
        Code::Unavailable => "UNAVAILABLE",
        Code::DataLoss => "DATA_LOSS",
        Code::Unauthenticated => "UNAUTHENTICATED",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(reason: &str) -> ClientError {
        ClientError::Refused {
            status: tonic::Code::Unauthenticated,
            reason: Some(reason.to_owned()),
            message: String::new(),
            retry_after: None,
        }
    }

    #[test]
    fn a_refused_or_disabled_account_token_ends_the_session() {
        assert!(refused("BAD_TOKEN").ends_session());
        assert!(refused("ACCOUNT_DISABLED").ends_session());
        assert!(!refused("BAD_CREDENTIALS").ends_session());
        assert!(!ClientError::BadToken.ends_session());
    }
}
