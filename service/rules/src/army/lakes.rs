//! Lake layouts shared by rulesets.

use crate::cell::Cell;

/// The two 2×2 lakes in the centre of a 10×10 board: c5 d5 c6 d6 and g5 h5 g6 h6.
pub const CENTRE_10X10: [Cell; 8] = [
    Cell::new(2, 4),
    Cell::new(3, 4),
    Cell::new(2, 5),
    Cell::new(3, 5),
    Cell::new(6, 4),
    Cell::new(7, 4),
    Cell::new(6, 5),
    Cell::new(7, 5),
];
