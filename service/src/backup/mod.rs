//! Backups and moves between machines: every game written out as JSON lines, and read back
//! into a store (`trinchera-server export` / `import`, the admin service's `ExportGames`).
//!
//! The format (docs/export-format.md) is one JSON object a line, each with one key that
//! says what it is: a `header` line first (the format's version, the server, when, and the
//! server's down times that clocks depend on), then one `account` line per player account
//! (its record and its tokens' hashes), then one `game` line per game (its id and its
//! whole log, [`EventRecord`]s as the store keeps them), then an `end` line with the
//! numbers of accounts and games, so that an export cut short at a line break is still
//! told from a whole one. One game a line because a game is what an import checks (it replays the log
//! through the rules), writes atomically and skips with `--merge`: a line number then names
//! a game, and `grep`/`jq` select games. The summaries are not exported: an import
//! rebuilds them by replaying, as it must anyway to check the log.

mod export;
mod import;
mod progress;

use serde::{Deserialize, Serialize};

pub use self::export::Exporter;
pub use self::import::{ImportError, ImportReport, MAX_LINE_BYTES, Mode, Names, import};
pub use self::progress::{Progress, size};
use trinchera_store::records::{AccountRecord, AccountTokenRecord, EventRecord};

/// The version of the export format this build writes and the newest it reads (format 1
/// had no accounts).
pub const FORMAT: u32 = 2;

/// One line of an export.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Line {
    /// The first line.
    Header(Header),
    /// One player account.
    Account(AccountLine),
    /// One game.
    Game(GameLine),
    /// The last line.
    End(End),
}

/// What the first line says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// The format's version, [`FORMAT`].
    pub format: u32,
    /// The version of the server that wrote it.
    pub server: String,
    /// When the export began, ms since the Unix epoch.
    pub exported_ms: u64,
    /// The last time the exported server was known to run (the export's time when it was
    /// running): what the importing store counts its first down time from.
    pub alive_ms: Option<u64>,
    /// The intervals the exported server was down, `[from, to)` in ms since the Unix epoch:
    /// time not charged to running clocks.
    pub downtime: Vec<(u64, u64)>,
}

/// One player account: its record (password hash included) and its tokens' hashes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccountLine {
    /// Its id.
    pub id: u64,
    /// The account as the store keeps it.
    #[serde(flatten)]
    pub account: AccountRecord,
    /// Its tokens.
    pub tokens: Vec<TokenLine>,
}

/// One token of an account, by the hash of its secret.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TokenLine {
    /// SHA-256 of the token, in hex.
    #[serde(with = "hex::serde")]
    pub hash: [u8; 32],
    /// The token as the store keeps it.
    #[serde(flatten)]
    pub token: AccountTokenRecord,
}

/// One game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameLine {
    /// Its id.
    pub id: u64,
    /// Its whole log, oldest first.
    pub events: Vec<EventRecord>,
}

/// What the last line says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct End {
    /// How many game lines came before it.
    pub games: u64,
    /// How many account lines came before it (none in format 1).
    #[serde(default)]
    pub accounts: u64,
}

impl Line {
    /// The line as JSON, without its newline.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("export lines always serialise")
    }
}

#[cfg(test)]
mod tests;
