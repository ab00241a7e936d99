//! What stops a simulated game: a failed call, or a reply a simulated player cannot go on
//! from. Neither ends the run: each is counted by its gRPC status code (or the client's
//! class of failure), and the first one's message is kept for the report.

use std::collections::BTreeMap;
use std::sync::Mutex;

use trinchera_client::ClientError;
use trinchera_client::error::{Fault, status_name};

/// Why a simulated game (or a spectator's stream, or a health check) stopped.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// A call failed: the server refused it, or it could not be reached.
    #[error(transparent)]
    Client(#[from] ClientError),
    /// The server sent what a simulated player cannot go on from: a malformed legal move,
    /// no seat to move in a game being played, a stream that ended too early.
    #[error("{0}")]
    Unexpected(String),
}

impl Failure {
    /// The name it is counted under: the status code of a refusal, `UNAVAILABLE` for a
    /// lost server, else `CLIENT_` and the class of the client's failure.
    fn code(&self) -> String {
        let fault = match self {
            Failure::Client(ClientError::Refused { status, .. }) => {
                return status_name(*status).to_owned();
            }
            Failure::Client(ClientError::Unreachable { .. }) => return "UNAVAILABLE".to_owned(),
            Failure::Client(other) => other.fault(),
            Failure::Unexpected(_) => Fault::Local,
        };
        let class = match fault {
            Fault::Usage => "USAGE",
            Fault::Refused => "REFUSED",
            Fault::Unreachable => "UNREACHABLE",
            Fault::Local => "LOCAL",
        };
        format!("CLIENT_{class}")
    }
}

/// Failed calls by gRPC status code (or client-side failure class).
#[derive(Debug, Default)]
pub struct Errors {
    counts: Mutex<BTreeMap<String, u64>>,
    first: Mutex<Option<String>>,
}

impl Errors {
    /// Counts `failure`; the first one's message is kept to be shown.
    pub fn count(&self, failure: &Failure) {
        let code = failure.code();
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        *counts.entry(code).or_default() += 1;
        let mut first = self.first.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert_with(|| failure.to_string());
    }

    /// The counts so far.
    pub fn counts(&self) -> BTreeMap<String, u64> {
        self.counts
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Every failure counted.
    pub fn total(&self) -> u64 {
        self.counts().values().sum()
    }

    /// The message of the first failure.
    pub fn first(&self) -> Option<String> {
        self.first.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_are_counted_by_status() {
        let errors = Errors::default();
        let refused = Failure::Client(ClientError::Refused {
            status: tonic::Code::FailedPrecondition,
            reason: None,
            message: "not your turn".into(),
            retry_after: None,
        });
        errors.count(&refused);
        errors.count(&refused);
        errors.count(&Failure::Unexpected("stream ended".into()));
        errors.count(&Failure::Client(ClientError::BadToken));
        let counts = errors.counts();
        assert_eq!(counts["FAILED_PRECONDITION"], 2);
        assert_eq!(counts["CLIENT_LOCAL"], 1);
        assert_eq!(counts["CLIENT_USAGE"], 1);
        assert_eq!(errors.total(), 4);
        assert_eq!(errors.first().as_deref(), Some("not your turn"));
    }
}
