//! The compact move: one machine word for a step, a huff or a whole capture chain.

use std::fmt;

use super::board::{self, LINES};

/// The most jumps in one capture chain: a chain is a trail along the jump lines that never
/// jumps the same point twice, and the longest such trail on the cross has 19 jumps (found by
/// exhaustive search in the board tests).
pub(crate) const MAX_CHAIN: usize = 19;

/// Bit of [`AsaltoMove`] that marks a capture chain.
const JUMP: u64 = 1 << 63;
/// Bit of [`AsaltoMove`] that marks a huff.
const HUFF: u64 = 1 << 62;
/// Where a chain's directions start in an [`AsaltoMove`].
const PATH_SHIFT: u32 = 6;

/// A move of an Asalto game, packed in one word.
///
/// Bit 63 set: a capture chain. Bits 0–5 hold the officer's square, then 3 bits per jump
/// hold its direction; a chain shorter than [`MAX_CHAIN`] ends with the reverse of its last
/// direction, a jump no chain can make (the point it would jump was just captured).
/// Bit 63 clear: bits 0–5 hold the square moved from (or the officer huffed), bits 6–11 the
/// square moved to, and bit 62 marks a huff.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct AsaltoMove(u64);

/// An [`AsaltoMove`] unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Unpacked {
    /// A rebel or officer step between neighbouring points.
    Step { from: u8, to: u8 },
    /// An officer's capture chain.
    Jump { from: u8, chain: Chain },
    /// The rebels remove the officer on this square.
    Huff { officer: u8 },
}

impl AsaltoMove {
    /// A step from square `from` to its neighbour `to`.
    #[inline]
    pub(crate) const fn step(from: u8, to: u8) -> AsaltoMove {
        AsaltoMove(from as u64 | (to as u64) << 6)
    }

    /// The huff of the officer on `officer`.
    #[inline]
    pub(crate) const fn huff(officer: u8) -> AsaltoMove {
        AsaltoMove(HUFF | officer as u64)
    }

    /// The capture chain of the officer on `from` (at least one jump).
    #[inline]
    pub(crate) const fn jump(from: u8, chain: Chain) -> AsaltoMove {
        let len = chain.len as u32;
        let last = (chain.path >> (3 * (len - 1))) & 7;
        // Past the last of MAX_CHAIN jumps the mark would land on bit 63, which is set anyway.
        let mark = ((last + 4) & 7) << (3 * len);
        AsaltoMove(JUMP | from as u64 | (chain.path | mark) << PATH_SHIFT)
    }

    /// How many rebels the move captures (0 for a step or a huff): what a search tries first.
    pub fn captures(self) -> u32 {
        match self.unpack() {
            Unpacked::Jump { chain, .. } => u32::from(chain.len),
            Unpacked::Step { .. } | Unpacked::Huff { .. } => 0,
        }
    }

    /// Whether the move is a huff.
    pub const fn is_huff(self) -> bool {
        self.0 & JUMP == 0 && self.0 & HUFF != 0
    }

    /// The move's parts.
    pub(crate) fn unpack(self) -> Unpacked {
        let from = (self.0 & 63) as u8;
        if self.0 & JUMP == 0 {
            return if self.0 & HUFF == 0 {
                Unpacked::Step {
                    from,
                    to: (self.0 >> 6 & 63) as u8,
                }
            } else {
                Unpacked::Huff { officer: from }
            };
        }
        let path = self.0 >> PATH_SHIFT;
        let mut chain = Chain::EMPTY;
        while usize::from(chain.len) < MAX_CHAIN {
            let d = (path >> (3 * u32::from(chain.len))) & 7;
            if chain.len > 0 && d == (chain.last() + 4) & 7 {
                break;
            }
            chain = chain.then(d as usize);
        }
        Unpacked::Jump { from, chain }
    }
}

impl fmt::Debug for AsaltoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The move's canonical notation: `d1-d2`, `d5xd3xf3` or `huff d6`.
impl fmt::Display for AsaltoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.unpack() {
            Unpacked::Step { from, to } => {
                write!(
                    f,
                    "{}-{}",
                    board::cell(from).grid_label(),
                    board::cell(to).grid_label()
                )
            }
            Unpacked::Jump { from, chain } => {
                write!(f, "{}", board::cell(from).grid_label())?;
                for land in chain.landings(from) {
                    write!(f, "x{}", board::cell(land).grid_label())?;
                }
                Ok(())
            }
            Unpacked::Huff { officer } => write!(f, "huff {}", board::cell(officer).grid_label()),
        }
    }
}

/// The directions of a capture chain's jumps, 3 bits each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Chain {
    len: u8,
    path: u64,
}

impl Chain {
    /// No jump yet.
    pub(crate) const EMPTY: Chain = Chain { len: 0, path: 0 };

    /// The chain followed by a jump in direction `d` (it must have fewer than
    /// [`MAX_CHAIN`] jumps).
    #[inline]
    pub(crate) const fn then(self, d: usize) -> Chain {
        Chain {
            len: self.len + 1,
            path: self.path | (d as u64) << (3 * self.len as u32),
        }
    }

    /// The direction of the last jump (of a chain with at least one).
    const fn last(self) -> u64 {
        (self.path >> (3 * (self.len as u32 - 1))) & 7
    }

    /// The direction of each jump, in order.
    pub(crate) fn directions(self) -> impl Iterator<Item = usize> {
        (0..u32::from(self.len)).map(move |i| ((self.path >> (3 * i)) & 7) as usize)
    }

    /// The landing point of each jump of an officer starting on `from`.
    pub(crate) fn landings(self, from: u8) -> impl Iterator<Item = u8> {
        self.directions().scan(from, |at, d| {
            *at = LINES.jumps[usize::from(*at)][d].land;
            Some(*at)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_and_unpack() {
        assert_eq!(
            AsaltoMove::step(3, 48).unpack(),
            Unpacked::Step { from: 3, to: 48 }
        );
        assert_eq!(
            AsaltoMove::huff(45).unpack(),
            Unpacked::Huff { officer: 45 }
        );
        // Every direction sequence that never turns straight back, up to the longest.
        let mut chain = Chain::EMPTY;
        for i in 0..MAX_CHAIN {
            let d = [0, 1, 3, 2, 7, 6, 5][i % 7];
            chain = chain.then(d);
            assert_eq!(
                AsaltoMove::jump(47, chain).unpack(),
                Unpacked::Jump { from: 47, chain }
            );
        }
        assert_eq!(chain.directions().count(), MAX_CHAIN);
        let d5 = board::square_at(3, 4);
        let chain = Chain::EMPTY.then(6).then(0);
        assert_eq!(AsaltoMove::jump(d5, chain).to_string(), "d5xd3xf3");
        assert_eq!(format!("{:?}", AsaltoMove::huff(d5)), "huff d5");
    }
}
