//! Position text of Asalto games (rules.md, "Position text"): the rows from row 7 down to
//! row 1, each listing only its points (3 or 7), `R` a rebel, `o` an officer, a digit that
//! many empty points; then the seat to move.

use super::board::{self, Bits, bit, square_at};
use super::{Siege, Variant};
use crate::error::PositionError;
use crate::rules::{PositionText, split_position};

/// Rows of the cross.
const ROWS: i8 = 7;

/// The columns of the points of row `y` (from 0).
fn columns(y: i8) -> std::ops::Range<i8> {
    if board::middle(y) { 0..7 } else { 2..5 }
}

/// One row's points, left to right: `Some(code)` or `None` for an empty point.
fn expand(row: &str) -> Vec<Option<char>> {
    row.chars()
        .flat_map(|c| match c.to_digit(10) {
            Some(run @ 1..=9) => vec![None; run as usize],
            _ => vec![Some(c)],
        })
        .collect()
}

impl<V: Variant> PositionText for Siege<V> {
    fn from_position_text(text: &str) -> Result<Self, PositionError> {
        let (rows, to_move) = split_position(text, ROWS as usize)?;
        let (mut rebels, mut officers): (Bits, Bits) = (0, 0);
        for (y, row) in (0..ROWS).rev().zip(rows) {
            let points = expand(row);
            let columns = columns(y);
            if points.len() != columns.len() {
                return Err(PositionError::RowWidth {
                    row: y as usize + 1,
                    expected: columns.len(),
                    found: points.len(),
                });
            }
            for (x, point) in columns.zip(points) {
                match point {
                    None => {}
                    Some('R') => rebels |= bit(square_at(x, y)),
                    Some('o') => officers |= bit(square_at(x, y)),
                    Some('r' | 'O') => {
                        return Err(PositionError::Rule(
                            "rebels are seat 0, written R; officers are seat 1, written o",
                        ));
                    }
                    Some(code) => return Err(PositionError::UnknownCode(code)),
                }
            }
        }
        if rebels.count_ones() > 24 {
            return Err(PositionError::TooMany('R'));
        }
        if officers.count_ones() > 2 {
            return Err(PositionError::TooMany('o'));
        }
        Ok(Siege::new(rebels, officers, to_move))
    }

    fn position_text(&self) -> String {
        let mut text = String::new();
        for y in (0..ROWS).rev() {
            if y + 1 != ROWS {
                text.push('/');
            }
            let mut run = 0;
            for x in columns(y) {
                let s = board::bit(square_at(x, y));
                let code = if self.rebels & s != 0 {
                    'R'
                } else if self.officers & s != 0 {
                    'o'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    text.push_str(&run.to_string());
                    run = 0;
                }
                text.push(code);
            }
            if run > 0 {
                text.push_str(&run.to_string());
            }
        }
        text.push(' ');
        text.push_str(&self.to_move.index().to_string());
        text
    }
}
