//! What can go wrong in a command, and the exit code each failure ends the process with.

use std::path::PathBuf;
use std::process::ExitCode;

use trinchera_client::error::{Fault, status_name};
use trinchera_client::{ClientError, Code};

/// The command that starts a local server, named in the hint when none answers.
pub const START_SERVER: &str = "cargo run --release -p trinchera-server";

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
    /// The server refused, could not be reached, or local state or a file failed: the
    /// client library's failure, told with the CLI's hints.
    #[error("{}", client_words(.0))]
    Client(#[from] ClientError),
    /// The server refused to seat the player in a game that cannot be joined: its refusal
    /// (status and reason, for the exit code and `--json`), told as what to do instead.
    #[error("{why}")]
    Unjoinable {
        /// Why, with where to go instead.
        why: Unjoinable,
        /// The server's refusal.
        refusal: ClientError,
    },
    /// The server refused the signed-in session's token: it was signed out elsewhere,
    /// revoked or expired, or the account was deleted. The refusal (for the exit code and
    /// `--json`), told with the way back.
    #[error(
        "{} (the session of {name} kept here) — `trinchera login {name}` signs in again, \
         `trinchera logout` goes on as a guest",
        client_words(.refusal)
    )]
    SessionEnded {
        /// The account's name.
        name: String,
        /// The server's refusal.
        refusal: ClientError,
    },
    /// `verify` found problems; the report has already been printed.
    #[error("the game was NOT fair")]
    Unfair,
    /// `bench` saw failed calls or missed events; the report has already been printed.
    #[error("bench: {0}")]
    BenchFailed(#[from] trinchera_bench::Failed),
    /// Anything else that went wrong locally, in words.
    #[error("{0}")]
    Local(String),
}

/// Why a game cannot be joined, each with the command that does what the player may have
/// meant instead.
#[derive(Debug, thiserror::Error)]
pub enum Unjoinable {
    /// This machine holds a seat of the game already.
    #[error(
        "you already have a seat in game {game}: `trinchera play --resume {game}` goes on \
         with it"
    )]
    Yours {
        /// The game id.
        game: String,
    },
    /// The game is over.
    #[error(
        "game {game} is over: `trinchera show {game}` shows how it ended, `trinchera games \
         --phase waiting` lists the games waiting for a player"
    )]
    Over {
        /// The game id.
        game: String,
    },
    /// Both seats are someone else's.
    #[error(
        "both seats of game {game} are taken: `trinchera watch {game}` follows it, \
         `trinchera games --phase waiting` lists the games waiting for a player"
    )]
    Full {
        /// The game id.
        game: String,
    },
}

/// A client failure in words, with the hint a person at a terminal needs.
fn client_words(error: &ClientError) -> String {
    match error {
        ClientError::BadAddress { url, detail } => {
            format!("--server {url:?} is not a valid URL: {detail}")
        }
        ClientError::Unreachable { .. } => format!(
            "{error} — start it with `{START_SERVER}`, or point --server / TRINCHERA_SERVER \
             at a running one"
        ),
        ClientError::Refused {
            reason: Some(reason),
            ..
        } => match account_hint(reason) {
            Some(hint) => format!("{error} — {hint}"),
            None => error.to_string(),
        },
        _ => error.to_string(),
    }
}

/// What to do about an account refusal, by its reason, where the server's words (written
/// for every client) do not say it in commands.
fn account_hint(reason: &str) -> Option<&'static str> {
    Some(match reason {
        "NAME_TAKEN" => "choose another name, or `trinchera login NAME` if the account is yours",
        "SCOPE" => "sign in with `trinchera login NAME` (a session has the play scope)",
        "TOKEN_NOT_FOUND" => "`trinchera token list` shows the account's tokens and their ids",
        "NOT_SEATED" => "`trinchera games --mine` lists your account's games",
        _ => return None,
    })
}

/// The class of a failure: its exit code and its name in `--json` error documents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Usage,
    Refused,
    Unreachable,
    Unfair,
    BenchFailed,
    Local,
}

impl CliError {
    /// The process exit code of this failure (see [`code`]).
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.code())
    }

    /// The refusal's status and reason, if the server refused.
    pub fn refusal(&self) -> Option<(Code, Option<&str>)> {
        match self {
            CliError::Client(ClientError::Refused { status, reason, .. })
            | CliError::Unjoinable {
                refusal: ClientError::Refused { status, reason, .. },
                ..
            }
            | CliError::SessionEnded {
                refusal: ClientError::Refused { status, reason, .. },
                ..
            } => Some((*status, reason.as_deref())),
            _ => None,
        }
    }

    fn class(&self) -> Class {
        match self {
            CliError::Usage(_) => Class::Usage,
            CliError::Client(client)
            | CliError::Unjoinable {
                refusal: client, ..
            }
            | CliError::SessionEnded {
                refusal: client, ..
            } => match client.fault() {
                Fault::Usage => Class::Usage,
                Fault::Refused => Class::Refused,
                Fault::Unreachable => Class::Unreachable,
                Fault::Local => Class::Local,
            },
            CliError::Unfair => Class::Unfair,
            CliError::BenchFailed(_) => Class::BenchFailed,
            CliError::Local(_) => Class::Local,
        }
    }

    /// The number behind [`CliError::exit_code`].
    fn code(&self) -> u8 {
        match self.class() {
            Class::Usage => code::USAGE,
            Class::Refused => code::REFUSED,
            Class::Unreachable => code::UNREACHABLE,
            Class::Unfair => code::UNFAIR,
            Class::BenchFailed | Class::Local => code::LOCAL,
        }
    }

    /// A short name of the failure class, used in `--json` error documents.
    pub fn kind(&self) -> &'static str {
        match self.class() {
            Class::Usage => "usage",
            Class::Refused => "refused",
            Class::Unreachable => "unreachable",
            Class::Unfair => "unfair",
            Class::BenchFailed => "bench_failed",
            Class::Local => "local",
        }
    }

    /// The error as the `--json` document printed instead of a command's output.
    pub fn to_json(&self) -> serde_json::Value {
        let mut error = serde_json::json!({
            "kind": self.kind(),
            "message": self.to_string(),
            "exit_code": self.code(),
        });
        if let Some((status, reason)) = self.refusal() {
            error["status"] = serde_json::json!(status_name(status));
            error["reason"] = serde_json::json!(reason);
        }
        serde_json::json!({ "error": error })
    }

    /// A file error.
    pub fn file(action: &'static str, path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        CliError::Client(ClientError::file(action, path, source))
    }
}
