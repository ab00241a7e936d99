//! Dice you can verify (rules.md section 3; `docs/tanques-dice.md` for client authors).
//!
//! The server draws a secret 32-byte seed when the game is created and publishes
//! `SHA-256(seed)` in every view. Roll `k` (from 0, in game order) is read from
//! `h = SHA-256(seed ‖ k as 8-byte big-endian)`: the first byte `b` of `h` with `b < 252`
//! gives `1 + b mod 6` (252 = 6 × 42, so every face is equally likely); if no byte
//! qualifies, `h = SHA-256(h)` and the search repeats. Once the game is over the seed is
//! revealed and anyone can re-derive every roll.
//!
//! ```
//! use trinchera_rules::Seed;
//! use trinchera_rules::tanques::dice;
//!
//! let seed = Seed(std::array::from_fn(|i| i as u8));
//! assert_eq!(
//!     dice::hex(&dice::commitment(&seed)),
//!     "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd",
//! );
//! assert_eq!(dice::roll(&seed, 0), 2);
//! ```

use sha2::{Digest, Sha256};

use crate::rules::Seed;

/// Bytes at or above this are skipped: 252 is the largest multiple of 6 that fits a byte.
const FAIR_LIMIT: u8 = 252;

/// `SHA-256(seed)`: the commitment every view publishes.
pub fn commitment(seed: &Seed) -> [u8; 32] {
    Sha256::digest(seed.0).into()
}

/// Roll number `index` (from 0, in game order) of the game with `seed`: 1 to 6.
pub fn roll(seed: &Seed, index: u64) -> u8 {
    let hash = Sha256::new()
        .chain_update(seed.0)
        .chain_update(index.to_be_bytes())
        .finalize()
        .into();
    face(hash)
}

/// The face read from `hash`: its first byte below 252, or else the face of its own hash.
pub(super) fn face(mut hash: [u8; 32]) -> u8 {
    loop {
        if let Some(byte) = hash.iter().find(|&&byte| byte < FAIR_LIMIT) {
            return 1 + byte % 6;
        }
        hash = Sha256::digest(hash).into();
    }
}

/// `bytes` in lowercase hexadecimal, the form the commitment takes in views.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(2 * bytes.len());
    for &byte in bytes {
        text.push(char::from(DIGITS[usize::from(byte >> 4)]));
        text.push(char::from(DIGITS[usize::from(byte & 0xF)]));
    }
    text
}
