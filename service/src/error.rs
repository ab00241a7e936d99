//! Errors of the service layer and their one mapping to gRPC statuses: [`ApiError`], and
//! [`AccountError`] for the refusals of accounts.

use std::collections::HashMap;

use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

use trinchera_game::{Reason, Refusal};
use trinchera_store::StoreError;

/// The `google.rpc.ErrorInfo` domain of every error reason.
pub(crate) const ERROR_DOMAIN: &str = "trinchera";

/// Why a request failed, with a message a person understands.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A malformed request, unknown ruleset, bad notation, off-board cell, invalid setup.
    #[error("{message}")]
    InvalidArgument {
        /// Machine-readable reason.
        reason: Reason,
        /// What was wrong.
        message: String,
    },
    /// No such game.
    #[error("there is no game {0:?}")]
    NotFound(String),
    /// A missing or wrong token on an acting call.
    #[error("{0}")]
    Unauthenticated(&'static str),
    /// A token of another game.
    #[error("this token belongs to another game")]
    PermissionDenied,
    /// Wrong phase, not your turn, illegal move, game over, seat taken.
    #[error("{message}")]
    FailedPrecondition {
        /// Machine-readable reason.
        reason: Reason,
        /// What was wrong.
        message: String,
    },
    /// `expected_version` did not match.
    #[error("the game is at version {actual}, not {expected}: somebody acted first")]
    VersionMismatch {
        /// What the caller expected.
        expected: u64,
        /// What the game is at.
        actual: u64,
    },
    /// A size or count limit.
    #[error("{message}")]
    ResourceExhausted {
        /// The limit's setting, e.g. `--max-replays` (a metrics label).
        limit: &'static str,
        /// Which limit was met, naming its setting.
        message: String,
    },
    /// A rate limit: the caller may retry after `retry_after`.
    #[error("{message}")]
    RateLimited {
        /// The limit's setting, e.g. `--actions-per-second` (a metrics label).
        limit: &'static str,
        /// Which limit, and its setting.
        message: String,
        /// When the next call would pass.
        retry_after: std::time::Duration,
    },
    /// The server is shutting down.
    #[error(
        "the server is shutting down: try again in a moment (a watch resumes with \
         after_version)"
    )]
    ShuttingDown,
    /// Storage failed; details are logged, not sent.
    #[error("storage failure")]
    Store(#[from] StoreError),
    /// Something else failed inside the server (a stored game that does not replay, a
    /// task that died); details are logged, not sent.
    #[error("internal failure")]
    Internal(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The operating system's RNG failed; details are logged, not sent.
    #[error("randomness unavailable")]
    Random(#[from] getrandom::Error),
    /// An account call, or a call with an account's token, was refused.
    #[error(transparent)]
    Account(#[from] AccountError),
}

/// Why an account call, or a call with an account's token, was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AccountError {
    /// A password shorter or longer than the rules allow.
    #[error("{0}")]
    BadPassword(String),
    /// The name belongs to another account, or did until lately.
    #[error(
        "the name {0:?} is taken (names are compared regardless of case and width; a deleted \
         account's name is free again after {1} days)"
    )]
    NameTaken(String, u64),
    /// A wrong name or a wrong password: one answer for both.
    #[error("wrong name or password")]
    BadCredentials,
    /// A token that is no working account token.
    #[error("{0}: sign in again")]
    BadToken(&'static str),
    /// The operators disabled the account.
    #[error("this account is disabled: ask the server's operators")]
    Disabled,
    /// The token's scopes do not allow the call.
    #[error("this token may not {0}: use a token with the play scope (a session from Login)")]
    Scope(&'static str),
    /// No token of the account has that id.
    #[error("the account has no token with id {0:?} (see ListTokens)")]
    NoSuchToken(String),
    /// No account has that name.
    #[error("there is no account named {0:?}")]
    NoSuchAccount(String),
    /// The account holds no seat of the game it acts in.
    #[error("your account holds no seat in this game")]
    NotSeated,
    /// A call that needs an account came without an account token.
    #[error(
        "this call acts for an account: send the metadata `authorization: Bearer <account \
         token>` (from Register or Login)"
    )]
    SignedOut,
}

impl AccountError {
    /// The status code and reason the refusal is sent with.
    fn code_and_reason(&self) -> (Code, &'static str) {
        match self {
            AccountError::BadPassword(_) => (Code::InvalidArgument, "BAD_PASSWORD"),
            AccountError::NameTaken(..) => (Code::AlreadyExists, "NAME_TAKEN"),
            AccountError::BadCredentials => (Code::Unauthenticated, "BAD_CREDENTIALS"),
            AccountError::BadToken(_) | AccountError::SignedOut => {
                (Code::Unauthenticated, "BAD_TOKEN")
            }
            AccountError::Disabled => (Code::PermissionDenied, "ACCOUNT_DISABLED"),
            AccountError::Scope(_) => (Code::PermissionDenied, "SCOPE"),
            AccountError::NoSuchToken(_) => (Code::NotFound, "TOKEN_NOT_FOUND"),
            AccountError::NoSuchAccount(_) => (Code::NotFound, "ACCOUNT_NOT_FOUND"),
            AccountError::NotSeated => (Code::PermissionDenied, "NOT_SEATED"),
        }
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> ApiError {
        match refusal {
            Refusal::Invalid { reason, message } => ApiError::InvalidArgument { reason, message },
            Refusal::Precondition { reason, message } => {
                ApiError::FailedPrecondition { reason, message }
            }
        }
    }
}

impl ApiError {
    /// A `RESOURCE_EXHAUSTED` error of the limit set by `limit`.
    pub fn exhausted(limit: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::ResourceExhausted {
            limit,
            message: message.into(),
        }
    }

    /// The setting of the limit this error met, if it is a refusal by a limit.
    pub fn limit(&self) -> Option<&'static str> {
        match self {
            ApiError::ResourceExhausted { limit, .. } | ApiError::RateLimited { limit, .. } => {
                Some(limit)
            }
            _ => None,
        }
    }

    /// An `INVALID_ARGUMENT` error.
    pub fn invalid(reason: Reason, message: impl Into<String>) -> ApiError {
        ApiError::InvalidArgument {
            reason,
            message: message.into(),
        }
    }

    /// A `FAILED_PRECONDITION` error.
    pub fn precondition(reason: Reason, message: impl Into<String>) -> ApiError {
        ApiError::FailedPrecondition {
            reason,
            message: message.into(),
        }
    }
}

/// Longest status message, in bytes: a longer one (a setup with thousands of problems)
/// would overflow the default header limit of gRPC clients.
pub(crate) const MAX_MESSAGE_BYTES: usize = 2048;

/// `message` cut to [`MAX_MESSAGE_BYTES`]: whole `; `-separated items while they fit, then
/// how many more there were.
pub(crate) fn capped(message: String) -> String {
    if message.len() <= MAX_MESSAGE_BYTES {
        return message;
    }
    let items: Vec<&str> = message.split("; ").collect();
    let room = MAX_MESSAGE_BYTES - 40;
    let mut out = String::with_capacity(MAX_MESSAGE_BYTES);
    let mut kept = 0;
    for item in &items {
        let needed = item.len() + if kept == 0 { 0 } else { 2 };
        if out.len() + needed > room {
            break;
        }
        if kept > 0 {
            out.push_str("; ");
        }
        out.push_str(item);
        kept += 1;
    }
    if kept == 0 {
        let mut end = room;
        while !message.is_char_boundary(end) {
            end -= 1;
        }
        out.push_str(&message[..end]);
        out.push_str("… (cut)");
    } else {
        out.push_str(&format!("; and {} more", items.len() - kept));
    }
    out
}

impl ApiError {
    /// The status code and machine-readable reason this error is sent with.
    fn code_and_reason(&self) -> (Code, &'static str) {
        match self {
            ApiError::InvalidArgument { reason, .. } => (Code::InvalidArgument, reason.code()),
            ApiError::NotFound(_) => (Code::NotFound, "GAME_NOT_FOUND"),
            ApiError::Unauthenticated(_) => (Code::Unauthenticated, "BAD_TOKEN"),
            ApiError::PermissionDenied => (Code::PermissionDenied, "WRONG_GAME"),
            ApiError::FailedPrecondition { reason, .. } => {
                (Code::FailedPrecondition, reason.code())
            }
            ApiError::VersionMismatch { .. } => (Code::Aborted, "VERSION_MISMATCH"),
            ApiError::ResourceExhausted { .. } => (Code::ResourceExhausted, "LIMIT_EXCEEDED"),
            ApiError::RateLimited { .. } => (Code::ResourceExhausted, "RATE_LIMITED"),
            ApiError::ShuttingDown => (Code::Unavailable, "SHUTTING_DOWN"),
            ApiError::Store(_) | ApiError::Internal(_) | ApiError::Random(_) => {
                (Code::Internal, "INTERNAL")
            }
            ApiError::Account(refusal) => refusal.code_and_reason(),
        }
    }

    /// The status code this error is sent with.
    pub fn code(&self) -> Code {
        self.code_and_reason().0
    }
}

impl From<ApiError> for Status {
    fn from(error: ApiError) -> Status {
        let message = capped(error.to_string());
        let (code, reason) = error.code_and_reason();
        match &error {
            ApiError::Store(store) => tracing::error!(error = %store, "storage failure"),
            ApiError::Internal(cause) => tracing::error!(error = %cause, "internal failure"),
            ApiError::Random(random) => {
                tracing::error!(error = %random, "OS random number generator failed");
            }
            _ => {}
        }
        let mut details = ErrorDetails::with_error_info(reason, ERROR_DOMAIN, HashMap::new());
        if let ApiError::RateLimited { retry_after, .. } = &error {
            details.set_retry_info(Some(*retry_after));
        }
        Status::with_error_details(code, message, details)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_messages_keep_their_first_items_and_count_the_rest() {
        let problems: Vec<String> = (0..500).map(|i| format!("problem number {i}")).collect();
        let cut = capped(format!("invalid setup: {}", problems.join("; ")));
        assert!(cut.len() <= MAX_MESSAGE_BYTES, "{}", cut.len());
        assert!(cut.starts_with("invalid setup: problem number 0; problem number 1;"));
        let kept = cut.matches("problem number").count();
        assert!(
            cut.ends_with(&format!("; and {} more", 500 - kept)),
            "{cut}"
        );
        let one = capped("é".repeat(5000));
        assert!(one.len() <= MAX_MESSAGE_BYTES && one.ends_with("… (cut)"));
        assert_eq!(capped("short".into()), "short");
    }

    #[test]
    fn rate_limits_carry_retry_info() {
        let status = Status::from(ApiError::RateLimited {
            limit: "--actions-per-second",
            message: "too many".into(),
            retry_after: std::time::Duration::from_millis(1500),
        });
        assert_eq!(status.code(), Code::ResourceExhausted);
        let retry = status.get_details_retry_info().expect("RetryInfo");
        assert_eq!(
            retry.retry_delay,
            Some(std::time::Duration::from_millis(1500))
        );
    }
}
