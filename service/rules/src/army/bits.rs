//! Board geometry shared by the mailbox and the bit sets that move generation works on.
//!
//! Padded squares run row by row with a stride of [`STRIDE`]: the columns of the widest
//! board and one guard column, which is the wall east of a row and west of the next one.
//! A guard row lies below and above the board; on a narrower board the columns past its
//! width are walls too. The squares of the board rows, from a1 on, are also the bits of a
//! [`Bits`]: bit `square - A1`, so rows of the widest board fill bits `0..110` with a guard
//! bit at the end of each row.
//!
//! Shifting a set by a direction's offset moves each of its squares one step that way.
//! Squares pushed onto a wall or past either end of the board land on bits that no set of
//! board squares holds, so masking with such a set (the empty squares, say) drops them: a
//! shift and an `and` give the one-square moves of every piece of a set at once.

use crate::cell::Cell;

/// A set of board squares: bit `square - A1` for each padded square in it.
pub(crate) type Bits = u128;

/// Most columns, and most rows, of an army board.
pub(crate) const MAX_SIDE: u8 = 10;
/// Padded squares per row: the columns of the widest board and one guard column.
pub(crate) const STRIDE: u8 = MAX_SIDE + 1;
/// The padded square of a1 (bit 0): after the guard row below the board and the guard
/// column west of the first row.
pub(crate) const A1: u8 = STRIDE + 1;
const _: () = assert!(
    (MAX_SIDE as u32 * STRIDE as u32) <= Bits::BITS,
    "a set holds every board square"
);

/// The four orthogonal steps as padded-square offsets: east, west, north, south.
pub(crate) const DIRECTIONS: [i8; 4] = [1, -1, STRIDE as i8, -(STRIDE as i8)];

/// The set of the one board square `square`.
#[inline]
pub(crate) fn bit(square: u8) -> Bits {
    1 << (square - A1)
}

/// Every square of `bits` moved one step in `direction` (one of [`DIRECTIONS`]); squares
/// moved past either end of the set are lost.
#[inline]
pub(crate) fn shift(bits: Bits, direction: i8) -> Bits {
    if direction >= 0 {
        bits << direction
    } else {
        bits >> -direction
    }
}

/// The padded squares of `bits`, lowest first.
///
/// They come from the two halves of the set in turn, as clearing the lowest bit of a `u64`
/// is cheaper than of a [`Bits`]; internal iteration (`for_each`, `fold`) runs one plain
/// loop per half.
#[inline]
pub(crate) fn squares(bits: Bits) -> impl Iterator<Item = u8> {
    let high_first = A1 + u64::BITS as u8;
    half_squares(bits as u64, A1).chain(half_squares((bits >> u64::BITS) as u64, high_first))
}

/// The squares of one half of a set, whose bit 0 is square `first`.
#[inline]
fn half_squares(mut half: u64, first: u8) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        (half != 0).then(|| {
            let square = first + half.trailing_zeros() as u8;
            half &= half - 1;
            square
        })
    })
}

/// The board cell of a padded square.
pub(crate) fn cell(square: u8) -> Cell {
    let index = square - A1;
    Cell::new((index % STRIDE) as i8, (index / STRIDE) as i8)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The padded square of column `x`, row `y` (both from 0).
    fn square(x: u8, y: u8) -> u8 {
        A1 + y * STRIDE + x
    }

    #[test]
    fn squares_lists_the_set_lowest_first() {
        let set = bit(square(9, 9)) | bit(square(0, 0)) | bit(square(3, 4));
        let listed: Vec<u8> = squares(set).collect();
        assert_eq!(listed, [square(0, 0), square(3, 4), square(9, 9)]);
        assert_eq!(squares(0).count(), 0);
    }

    #[test]
    fn shifts_fall_off_every_edge_of_the_widest_board() {
        let mut board: Bits = 0;
        for y in 0..MAX_SIDE {
            for x in 0..MAX_SIDE {
                board |= bit(square(x, y));
            }
        }
        let [east, west, north, south] = DIRECTIONS;
        let column = |x| (0..MAX_SIDE).fold(0, |set, y| set | bit(square(x, y)));
        let row = |y| (0..MAX_SIDE).fold(0, |set, x| set | bit(square(x, y)));
        assert_eq!(shift(board, east) & board, board & !column(0));
        assert_eq!(shift(board, west) & board, board & !column(MAX_SIDE - 1));
        assert_eq!(shift(board, north) & board, board & !row(0));
        assert_eq!(shift(board, south) & board, board & !row(MAX_SIDE - 1));
        assert_eq!(shift(bit(square(2, 5)), north), bit(square(2, 6)));
    }
}
