//! A game's people: what everybody may know of them (the [`Table`]: names, who joined,
//! setup commitments, bots) and what only the server keeps ([`Secrets`]: tokens, setups and
//! their salts, the seed of the game's chance). Only the table ever leaves the game state
//! for a viewer.

use sha2::{Digest, Sha256};
use trinchera_rules::{BySeat, Seat, Seed};

use crate::bots::BotLevel;
use trinchera_store::{AccountId, TokenHash};

pub use trinchera_store::records::BOT_NAME_PREFIX;

/// The name a bot of `level` plays under.
pub fn bot_player_name(level: BotLevel) -> String {
    format!("{BOT_NAME_PREFIX}{level})")
}

/// What everybody may know of a game's people.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Table {
    /// The game's display name.
    pub name: String,
    /// Both seats.
    pub seats: BySeat<SeatCard>,
}

/// What everybody may know of one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatCard {
    /// Display name; empty while free.
    pub name: String,
    /// Whether somebody (or a bot) took the seat.
    pub joined: bool,
    /// The fairness commitment of the submitted setup: lowercase hex of
    /// SHA-256(salt ‖ canonical text).
    pub commitment: Option<String>,
    /// Whether the server plays this seat, and how.
    pub bot: Option<BotLevel>,
    /// The account that holds the seat; `None` for a guest, a bot or a free seat.
    pub account: Option<AccountId>,
}

impl Table {
    /// Whether bots play both seats: a game nobody plays in person.
    pub fn bots_only(&self) -> bool {
        self.seats.0.iter().all(|seat| seat.bot.is_some())
    }

    /// Whether a bot plays a seat.
    pub fn has_bot(&self) -> bool {
        self.seats.0.iter().any(|seat| seat.bot.is_some())
    }
}

/// A submitted setup as committed to: the salt and the canonical text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Committed {
    /// The commitment's salt.
    pub salt: [u8; 16],
    /// The canonical setup text.
    pub canonical: String,
}

impl Committed {
    /// The commitment shown to everybody: lowercase hex of SHA-256(salt ‖ canonical text).
    pub(crate) fn commitment(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(self.salt);
        hasher.update(self.canonical.as_bytes());
        hex::encode(hasher.finalize())
    }
}

/// What only the server knows of a game.
#[derive(Clone, Debug)]
pub(crate) struct Secrets {
    /// The secret seed of the game's chance, revealed after the end.
    pub seed: Seed,
    /// The hash of each seat's token, once taken.
    pub tokens: BySeat<Option<TokenHash>>,
    /// Each seat's committed setup, once submitted.
    pub setups: BySeat<Option<Committed>>,
}

impl Secrets {
    /// The seat whose token hashes to `token` (compared in constant time, every seat).
    pub(crate) fn seat_of(&self, token: &TokenHash) -> Option<Seat> {
        let mut found = None;
        for (seat, own) in self.tokens.iter() {
            if own.is_some_and(|own| own.matches(token)) {
                found = Some(seat);
            }
        }
        found
    }
}
