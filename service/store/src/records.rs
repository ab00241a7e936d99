//! The stored encoding of games: an append-only log of what players did (the inputs), from
//! which every state, view and event is rebuilt by replaying the rules, plus a summary per
//! game for listings.
//!
//! Stable and versioned: every stored value starts with [`FORMAT`], followed by a protobuf
//! message defined here. Fields are only ever added (new tags); a change that old code
//! cannot read bumps [`FORMAT`] and comes with a migration.

/// The format version written in front of every stored value.
pub const FORMAT: u8 = 1;

/// How every bot's name starts (people may not take a name of this form): summaries written
/// before they listed their bots tell a bot's seat by it.
pub const BOT_NAME_PREFIX: &str = "Bot (";

/// One entry of a game's log.
#[derive(Clone, PartialEq, prost::Message, serde::Serialize, serde::Deserialize)]
pub struct EventRecord {
    /// The acting seat (0 or 1).
    #[prost(uint32, optional, tag = "1")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<u32>,
    /// What happened.
    #[prost(oneof = "Entry", tags = "2, 3, 4, 5, 6, 7, 10, 11")]
    #[serde(flatten)]
    pub entry: Option<Entry>,
    /// When the server applied it, ms since the Unix epoch (0 in entries written before
    /// time controls).
    #[prost(uint64, tag = "8")]
    pub at_ms: u64,
    /// Time the acting seat spent on its turn until this action, in ms (moves of timed
    /// games only): what its clock was charged.
    #[prost(uint64, tag = "9")]
    pub spent_ms: u64,
}

/// What a log entry records.
#[derive(Clone, PartialEq, prost::Oneof, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Entry {
    /// The game was created; `seat` is the creator's, who also joined.
    #[prost(message, tag = "2")]
    Created(Created),
    /// A player took `seat`.
    #[prost(message, tag = "3")]
    Joined(Joined),
    /// `seat` submitted a setup.
    #[prost(message, tag = "4")]
    Setup(SetupRecord),
    /// `seat` played the move written in canonical notation.
    #[prost(string, tag = "5")]
    Move(String),
    /// `seat` resigned.
    #[prost(message, tag = "6")]
    Resigned(Resigned),
    /// The server called the game off before it started; `seat` is the seat it waited for.
    #[prost(message, tag = "7")]
    Aborted(Ended),
    /// `seat` ran out of time.
    #[prost(message, tag = "10")]
    TimedOut(Ended),
    /// `seat` claimed the win against an absent opponent.
    #[prost(message, tag = "11")]
    Claimed(Ended),
}

/// The creation of a game.
#[derive(Clone, PartialEq, prost::Message, serde::Serialize, serde::Deserialize)]
pub struct Created {
    /// Ruleset id.
    #[prost(string, tag = "1")]
    pub ruleset: String,
    /// Display name.
    #[prost(string, tag = "2")]
    pub name: String,
    /// The 32-byte secret seed of the game's chance.
    #[prost(bytes = "vec", tag = "3")]
    #[serde(with = "hex::serde")]
    pub seed: Vec<u8>,
    /// Creation time, milliseconds since the Unix epoch.
    #[prost(uint64, tag = "4")]
    pub created_ms: u64,
    /// The creator's join (name and token hash).
    #[prost(message, optional, tag = "5")]
    pub creator: Option<Joined>,
    /// The time control; `None`: no clock.
    #[prost(message, optional, tag = "6")]
    pub time_control: Option<TimeControlRecord>,
}

/// A time control as stored.
#[derive(Clone, PartialEq, prost::Message, serde::Serialize, serde::Deserialize)]
pub struct TimeControlRecord {
    /// Live: each seat's initial time, ms (0 for correspondence).
    #[prost(uint64, tag = "1")]
    pub initial_ms: u64,
    /// Live: the increment per turn, ms.
    #[prost(uint64, tag = "2")]
    pub increment_ms: u64,
    /// Correspondence: the time for each turn, ms (0 for live).
    #[prost(uint64, tag = "3")]
    pub per_move_ms: u64,
}

/// A player taking a seat.
#[derive(Clone, PartialEq, prost::Message, serde::Serialize, serde::Deserialize)]
pub struct Joined {
    /// Display name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// SHA-256 of the player's token (for a bot, of a token nobody knows).
    #[prost(bytes = "vec", tag = "2")]
    #[serde(with = "hex::serde")]
    pub token_hash: Vec<u8>,
    /// The bot level, if the server plays this seat; empty for a person.
    #[prost(string, tag = "3")]
    pub bot: String,
    /// The account that took the seat ([`AccountId`](crate::AccountId)); 0 for a guest or
    /// a bot.
    #[prost(uint64, tag = "4")]
    #[serde(default, skip_serializing_if = "is_zero")]
    pub account: u64,
}

fn is_zero(value: &u64) -> bool {
    *value == 0
}

/// An account as the store keeps it.
#[derive(Clone, PartialEq, prost::Message, serde::Serialize, serde::Deserialize)]
pub struct AccountRecord {
    /// The name as registered.
    #[prost(string, tag = "1")]
    pub name: String,
    /// The name as names are compared (compatibility-folded, lower case): what makes it
    /// unique.
    #[prost(string, tag = "2")]
    pub folded: String,
    /// The password's hash, a PHC string (argon2id).
    #[prost(string, tag = "3")]
    pub password: String,
    /// When it was registered, ms since the Unix epoch.
    #[prost(uint64, tag = "4")]
    pub created_ms: u64,
    /// Whether an operator disabled it: its tokens do not work and it cannot sign in.
    #[prost(bool, tag = "5")]
    #[serde(default)]
    pub disabled: bool,
    /// When its owner deleted it, ms since the Unix epoch; 0 while it lives. The record
    /// stays (its games name it), and so does its name for a while.
    #[prost(uint64, tag = "6")]
    #[serde(default, skip_serializing_if = "is_zero")]
    pub deleted_ms: u64,
}

/// A token of an account (a session, or a personal token), stored under its hash.
#[derive(Clone, PartialEq, prost::Message, serde::Serialize, serde::Deserialize)]
pub struct AccountTokenRecord {
    /// The account it acts for.
    #[prost(uint64, tag = "1")]
    pub account: u64,
    /// What it may do: a set of bits (1: play, 2: bot).
    #[prost(uint32, tag = "2")]
    pub scopes: u32,
    /// What its owner called it.
    #[prost(string, tag = "3")]
    pub label: String,
    /// When it was made, ms since the Unix epoch.
    #[prost(uint64, tag = "4")]
    pub created_ms: u64,
    /// When it stops working, ms since the Unix epoch; 0: never.
    #[prost(uint64, tag = "5")]
    #[serde(default)]
    pub expires_ms: u64,
    /// Whether it is a session (from a login) rather than a personal token.
    #[prost(bool, tag = "6")]
    #[serde(default)]
    pub session: bool,
}

/// A submitted setup.
#[derive(Clone, PartialEq, prost::Message, serde::Serialize, serde::Deserialize)]
pub struct SetupRecord {
    /// The canonical setup text.
    #[prost(string, tag = "1")]
    pub canonical: String,
    /// The 16-byte salt of its commitment.
    #[prost(bytes = "vec", tag = "2")]
    #[serde(with = "hex::serde")]
    pub salt: Vec<u8>,
}

/// A resignation.
#[derive(Clone, PartialEq, prost::Message, serde::Serialize, serde::Deserialize)]
pub struct Resigned {}

/// An end decided by the server or claimed: called off, out of time, abandoned (the entry
/// says which; nothing else to store).
#[derive(Clone, PartialEq, prost::Message, serde::Serialize, serde::Deserialize)]
pub struct Ended {}

/// What listings show of a game; rewritten when its phase changes.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SummaryRecord {
    /// Ruleset id.
    #[prost(string, tag = "1")]
    pub ruleset: String,
    /// Display name.
    #[prost(string, tag = "2")]
    pub name: String,
    /// `trinchera.v1.Phase` number.
    #[prost(int32, tag = "3")]
    pub phase: i32,
    /// Player names by seat; empty while a seat is free.
    #[prost(string, repeated, tag = "4")]
    pub players: Vec<String>,
    /// The winner, once finished and not drawn.
    #[prost(uint32, optional, tag = "5")]
    pub winner: Option<u32>,
    /// The end reason code, once finished.
    #[prost(string, tag = "6")]
    pub reason: String,
    /// Creation time, milliseconds since the Unix epoch.
    #[prost(uint64, tag = "7")]
    pub created_ms: u64,
    /// When the game entered its phase, milliseconds since the Unix epoch (0 in summaries
    /// written before this field: then the creation time counts).
    #[prost(uint64, tag = "8")]
    pub since_ms: u64,
    /// `trinchera.v1.Speed` number (0 in summaries written before time controls: untimed).
    #[prost(int32, tag = "9")]
    pub speed: i32,
    /// The time control, for listings.
    #[prost(message, optional, tag = "10")]
    pub time_control: Option<TimeControlRecord>,
    /// The bot level of each seat the server plays, by seat; empty for a person. Summaries
    /// written before this field have none: then a player name of the bots' form tells.
    #[prost(string, repeated, tag = "11")]
    pub bots: Vec<String>,
    /// The account of each seat, by seat; 0 for a guest, a bot or a free seat.
    #[prost(uint64, repeated, tag = "12")]
    pub accounts: Vec<u64>,
}

impl SummaryRecord {
    /// Whether account `account` holds a seat of the game.
    pub fn has_account(&self, account: crate::AccountId) -> bool {
        self.accounts.contains(&account.0)
    }

    /// How many seats the server's bots play.
    pub fn bot_seats(&self) -> usize {
        if self.bots.is_empty() {
            let bot_name = BOT_NAME_PREFIX;
            self.players
                .iter()
                .filter(|name| name.starts_with(bot_name))
                .count()
        } else {
            self.bots.iter().filter(|level| !level.is_empty()).count()
        }
    }

    /// When the game entered its phase.
    pub fn phase_since_ms(&self) -> u64 {
        if self.since_ms == 0 {
            self.created_ms
        } else {
            self.since_ms
        }
    }
}

/// Encodes `message` behind the format byte.
pub fn encode(message: &impl prost::Message) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(1 + message.encoded_len());
    bytes.push(FORMAT);
    message
        .encode(&mut bytes)
        .unwrap_or_else(|_| unreachable!("a Vec grows as needed"));
    bytes
}

/// Why a stored value could not be read.
#[derive(Debug, thiserror::Error)]
pub enum DecodeError {
    /// Written by a newer format.
    #[error("value in format {0}, this build reads up to {FORMAT}")]
    Newer(u8),
    /// Empty or corrupt.
    #[error("corrupt value: {0}")]
    Corrupt(String),
}

/// Decodes a value written by [`encode`].
pub fn decode<M: prost::Message + Default>(bytes: &[u8]) -> Result<M, DecodeError> {
    match bytes.split_first() {
        Some((&FORMAT, body)) => M::decode(body).map_err(|e| DecodeError::Corrupt(e.to_string())),
        Some((&format, _)) if format > FORMAT => Err(DecodeError::Newer(format)),
        Some((&format, _)) => Err(DecodeError::Corrupt(format!("unknown format {format}"))),
        None => Err(DecodeError::Corrupt("empty value".into())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_versioning() {
        let record = EventRecord {
            seat: Some(1),
            entry: Some(Entry::Move("a4-a5".into())),
            ..EventRecord::default()
        };
        let bytes = encode(&record);
        assert_eq!(bytes[0], FORMAT);
        assert_eq!(decode::<EventRecord>(&bytes).expect("decodes"), record);
        let mut newer = bytes.clone();
        newer[0] = FORMAT + 1;
        assert!(matches!(
            decode::<EventRecord>(&newer),
            Err(DecodeError::Newer(_))
        ));
        assert!(matches!(
            decode::<EventRecord>(&[]),
            Err(DecodeError::Corrupt(_))
        ));
    }
}
