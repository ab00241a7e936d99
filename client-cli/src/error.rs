//! What can go wrong in a command, and the exit code each failure ends the process with.

use std::path::PathBuf;
use std::process::ExitCode;

use trinchera_client::ClientError;

/// The command that starts a local server, named in the hint when none answers.
pub const START_SERVER: &str = "cargo run --release -p trinchera-service --bin trinchera-server";

/// Exit codes other than 0 (success), documented in `trinchera --help`.
pub mod code {
    /// A local failure: a file could not be read or written, a history file is malformed,
    /// a game is not over yet and so cannot be verified.
    pub const LOCAL: u8 = 1;
    /// A usage error: bad arguments, a setup file with a syntax error, no token for a game.
    pub const USAGE: u8 = 2;
    /// The server refused the request (illegal move, not your turn, no such game...).
    pub const REFUSED: u8 = 3;
    /// No server answered at the given address, or the connection broke.
    pub const UNREACHABLE: u8 = 4;
    /// `verify` found that the game was not fair.
    pub const UNFAIR: u8 = 5;
}

/// A failed command.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The arguments or an input file do not make sense.
    #[error("{0}")]
    Usage(String),
    /// The server answered with an error status.
    #[error("{message}")]
    Refused {
        /// The gRPC status code, e.g. `FAILED_PRECONDITION`.
        status: tonic::Code,
        /// The machine-readable `google.rpc.ErrorInfo` reason, when the server sent one.
        reason: Option<String>,
        /// The server's message, a sentence for people.
        message: String,
    },
    /// No server at the address, or the connection broke.
    #[error(
        "no Trinchera server at {url} ({detail}) — start it with `{START_SERVER}`, or point --server / TRINCHERA_SERVER at a running one"
    )]
    Unreachable {
        /// The address tried.
        url: String,
        /// What the transport said.
        detail: String,
    },
    /// `verify` found problems; the report has already been printed.
    #[error("the game was NOT fair")]
    Unfair,
    /// `bench` saw failed calls or missed events; the report has already been printed.
    #[error("bench: {0}")]
    BenchFailed(String),
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
    /// Anything else that went wrong locally, in words.
    #[error("{0}")]
    Local(String),
}

impl CliError {
    /// The process exit code of this failure (see [`code`]).
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.code())
    }

    /// The number behind [`CliError::exit_code`].
    fn code(&self) -> u8 {
        match self {
            CliError::Usage(_) => code::USAGE,
            CliError::Refused { .. } => code::REFUSED,
            CliError::Unreachable { .. } => code::UNREACHABLE,
            CliError::Unfair => code::UNFAIR,
            CliError::BenchFailed(_) | CliError::File { .. } | CliError::Local(_) => code::LOCAL,
        }
    }

    /// A short name of the failure class, used in `--json` error documents.
    pub fn kind(&self) -> &'static str {
        match self {
            CliError::Usage(_) => "usage",
            CliError::Refused { .. } => "refused",
            CliError::Unreachable { .. } => "unreachable",
            CliError::Unfair => "unfair",
            CliError::BenchFailed(_) => "bench_failed",
            CliError::File { .. } | CliError::Local(_) => "local",
        }
    }

    /// The error as the `--json` document printed instead of a command's output.
    pub fn to_json(&self) -> serde_json::Value {
        let mut error = serde_json::json!({
            "kind": self.kind(),
            "message": self.to_string(),
            "exit_code": self.code(),
        });
        if let CliError::Refused {
            status,
            reason,
            message,
        } = self
        {
            error["status"] = serde_json::json!(status_name(*status));
            error["reason"] = serde_json::json!(reason);
            error["message"] = serde_json::json!(message);
        }
        serde_json::json!({ "error": error })
    }

    /// A file error.
    pub fn file(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        CliError::File {
            action,
            path: path.into(),
            source,
        }
    }
}

impl From<ClientError> for CliError {
    fn from(error: ClientError) -> CliError {
        match error {
            ClientError::BadAddress { url, detail } => {
                CliError::Usage(format!("--server {url:?} is not a valid URL: {detail}"))
            }
            ClientError::Unreachable { url, detail } => CliError::Unreachable { url, detail },
            ClientError::Refused {
                status,
                reason,
                message,
            } => CliError::Refused {
                status,
                reason,
                message,
            },
            error @ (ClientError::NoRuleset { .. } | ClientError::BadToken) => {
                CliError::Usage(error.to_string())
            }
            ClientError::File {
                action,
                path,
                source,
            } => CliError::File {
                action,
                path,
                source,
            },
            error @ (ClientError::Missing(_) | ClientError::State(_)) => {
                CliError::Local(error.to_string())
            }
        }
    }
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
