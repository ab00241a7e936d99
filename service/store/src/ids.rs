//! Typed identifiers the store keys on: game and account ids, and the hashes of tokens.

use std::fmt;
use std::str::FromStr;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// An account's id: a number from the store's counter of accounts, never used twice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AccountId(pub u64);

impl fmt::Display for AccountId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A game's id: a number from the store's monotonic counter, written in decimal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(pub u64);

impl GameId {
    /// The highest id a store holds (2^40). Stores hand ids out densely from 1, so no server
    /// comes near it; a restored game (an import) with a higher id is refused, which keeps
    /// every backend's id arithmetic far from overflow.
    pub const MAX: GameId = GameId(1 << 40);

    /// Whether a store may hold a game with this id: from 1 to [`GameId::MAX`].
    pub const fn storable(self) -> bool {
        self.0 >= 1 && self.0 <= GameId::MAX.0
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for GameId {
    type Err = ();

    fn from_str(text: &str) -> Result<GameId, ()> {
        if text.is_empty() || text.len() > 20 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(());
        }
        text.parse().map(GameId).map_err(|_| ())
    }
}

/// SHA-256 of a token: what the server keeps. Compared in constant time.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    /// The hash of a presented token.
    pub fn of(token: &str) -> TokenHash {
        TokenHash(Sha256::digest(token.as_bytes()).into())
    }

    /// Constant-time equality, so that timing tells nothing about stored hashes.
    pub fn matches(&self, other: &TokenHash) -> bool {
        self.0.ct_eq(&other.0).into()
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TokenHash(..)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids_parse_only_decimal() {
        assert_eq!("42".parse(), Ok(GameId(42)));
        assert_eq!(GameId(7).to_string(), "7");
        for bad in ["", "-1", "+1", "1a", " 1", "99999999999999999999999"] {
            assert_eq!(bad.parse::<GameId>(), Err(()), "{bad:?}");
        }
    }

    #[test]
    fn token_hashes_compare_in_constant_time_and_hide_in_debug() {
        let a = TokenHash::of("tr1_a");
        assert!(a.matches(&TokenHash::of("tr1_a")));
        assert!(!a.matches(&TokenHash::of("tr1_b")));
        assert_eq!(format!("{a:?}"), "TokenHash(..)");
    }
}
