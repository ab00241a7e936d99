//! Accounts' tokens: 256 random bits shown once and stored as a hash, told from seat tokens
//! by their prefix, each with scopes and an id that names it without revealing it.

use std::fmt;

use trinchera_proto::v1 as pb;
use trinchera_store::TokenHash;

use crate::error::{AccountError, ApiError};
use trinchera_game::Reason;

/// How every account token begins (seat tokens begin `tr1_`).
pub(crate) const PREFIX: &str = "tra1_";
/// Bytes of randomness in an account token.
const TOKEN_BYTES: usize = 32;

/// An account's secret token: shown once, stored only hashed.
pub(crate) struct AccountToken(String);

impl AccountToken {
    /// A fresh token from the operating system's RNG.
    pub(crate) fn generate() -> Result<AccountToken, getrandom::Error> {
        let bytes: [u8; TOKEN_BYTES] = crate::ids::random_bytes()?;
        Ok(AccountToken(format!("{PREFIX}{}", hex::encode(bytes))))
    }

    /// The hash stored in place of the token.
    pub(crate) fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }

    /// The token text, to give to its owner once.
    pub(crate) fn reveal(self) -> String {
        self.0
    }
}

impl fmt::Debug for AccountToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccountToken(..)")
    }
}

/// Whether `token` is an account's (by its prefix) rather than a seat's.
pub(crate) fn is_account_token(token: &str) -> bool {
    token.starts_with(PREFIX)
}

/// A token's public id: the first 8 bytes of its hash in hex. It names the token in lists
/// and revocations; it cannot be turned back into the token.
pub(crate) fn token_id(hash: &TokenHash) -> String {
    hex::encode(&hash.0[..8])
}

/// What a token may do: a set of [`pb::TokenScope`]s, stored as bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scopes(u32);

impl Scopes {
    /// Play, and manage the account: what a session may do.
    pub(crate) const PLAY: Scopes = Scopes(1);
    /// Play as a bot account.
    pub(crate) const BOT: Scopes = Scopes(2);

    /// The scopes stored as `bits` (unknown bits ignored).
    pub(crate) fn from_bits(bits: u32) -> Scopes {
        Scopes(bits & (Scopes::PLAY.0 | Scopes::BOT.0))
    }

    /// The bits stored.
    pub(crate) fn bits(self) -> u32 {
        self.0
    }

    /// Whether every scope of `other` is among these.
    pub(crate) fn contains(self, other: Scopes) -> bool {
        self.0 & other.0 == other.0
    }

    /// The scopes a request names; at least one, each known.
    pub(crate) fn from_wire(scopes: &[i32]) -> Result<Scopes, ApiError> {
        let mut bits = 0;
        for &scope in scopes {
            bits |= match pb::TokenScope::try_from(scope) {
                Ok(pb::TokenScope::Play) => Scopes::PLAY.0,
                Ok(pb::TokenScope::Bot) => Scopes::BOT.0,
                _ => {
                    return Err(ApiError::invalid(
                        Reason::BadRequest,
                        format!("there is no token scope {scope}: scopes are PLAY (1) and BOT (2)"),
                    ));
                }
            };
        }
        if bits == 0 {
            return Err(ApiError::invalid(
                Reason::BadRequest,
                "a token needs at least one scope: PLAY (1) or BOT (2)",
            ));
        }
        Ok(Scopes(bits))
    }

    /// The scopes as the wire lists them.
    pub(crate) fn to_wire(self) -> Vec<i32> {
        [
            (Scopes::PLAY, pb::TokenScope::Play),
            (Scopes::BOT, pb::TokenScope::Bot),
        ]
        .into_iter()
        .filter(|(scope, _)| self.contains(*scope))
        .map(|(_, wire)| wire as i32)
        .collect()
    }
}

/// Refuses a token whose scopes lack `needed` for `what` (the refusal's words).
pub(crate) fn require(
    scopes: Scopes,
    needed: Scopes,
    what: &'static str,
) -> Result<(), AccountError> {
    if scopes.contains(needed) {
        Ok(())
    } else {
        Err(AccountError::Scope(what))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_prefixed_and_named_by_a_short_id() {
        let a = AccountToken::generate().expect("os rng");
        let b = AccountToken::generate().expect("os rng");
        assert_ne!(a.hash(), b.hash());
        let hash = a.hash();
        let text = a.reveal();
        assert!(is_account_token(&text) && text.len() == PREFIX.len() + 2 * TOKEN_BYTES);
        assert!(!is_account_token("tr1_00"));
        assert_eq!(TokenHash::of(&text), hash);
        let id = token_id(&hash);
        assert!(id.len() == 16 && !text.contains(&id));
    }

    #[test]
    fn scopes_come_from_the_wire_and_go_back() {
        let both = Scopes::from_wire(&[1, 2, 1]).expect("known scopes");
        assert!(both.contains(Scopes::PLAY) && both.contains(Scopes::BOT));
        assert_eq!(both.to_wire(), vec![1, 2]);
        assert_eq!(Scopes::from_bits(both.bits() | 8), both);
        assert!(Scopes::from_wire(&[]).is_err());
        assert!(Scopes::from_wire(&[0]).is_err());
        assert!(Scopes::from_wire(&[7]).is_err());
        assert!(require(Scopes::BOT, Scopes::PLAY, "make tokens").is_err());
        assert!(require(both, Scopes::PLAY, "make tokens").is_ok());
    }
}
