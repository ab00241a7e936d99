//! Players' secret tokens and the randomness of seeds and salts (game ids and token
//! hashes, which the store keys on, are [`trinchera_store::ids`]).

use std::fmt;

use trinchera_store::ids::TokenHash;

/// A player's secret token: 192 random bits from the OS, shown once, stored only hashed.
pub(crate) struct Token(String);

/// Bytes of randomness in a token.
const TOKEN_BYTES: usize = 24;

impl Token {
    /// A fresh token from the operating system's RNG.
    pub(crate) fn generate() -> Result<Token, getrandom::Error> {
        let mut bytes = [0u8; TOKEN_BYTES];
        getrandom::fill(&mut bytes)?;
        Ok(Token(format!("tr1_{}", hex::encode(bytes))))
    }

    /// The token text, to give to its owner once.
    pub(crate) fn reveal(self) -> String {
        self.0
    }

    /// The hash stored in place of the token.
    pub(crate) fn hash(&self) -> TokenHash {
        TokenHash::of(&self.0)
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Token(..)")
    }
}

/// Fills a buffer from the OS RNG; used for seeds and salts.
pub(crate) fn random_bytes<const N: usize>() -> Result<[u8; N], getrandom::Error> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_random_and_hash_matches() {
        let a = Token::generate().expect("os rng");
        let b = Token::generate().expect("os rng");
        assert!(!a.hash().matches(&b.hash()));
        let hash = a.hash();
        let text = a.reveal();
        assert!(text.starts_with("tr1_") && text.len() == 4 + 2 * TOKEN_BYTES);
        assert!(TokenHash::of(&text).matches(&hash));
        assert!(!format!("{:?}", Token(text)).contains("tr1_"));
    }
}
