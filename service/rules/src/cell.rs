//! Board coordinates shared by every ruleset and their text labels.

use std::fmt;

/// A cell of any board, in the API's coordinates.
///
/// Square and cross boards: `x` is the column from seat 0's left, `y` the row from seat 0's
/// edge, both from 0. Hex boards: axial `q = x`, `r = y` (see rules.md, tanques).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// Column (square, cross) or axial `q` (hex).
    pub x: i8,
    /// Row (square, cross) or axial `r` (hex).
    pub y: i8,
}

impl Cell {
    /// The cell at `(x, y)`.
    pub const fn new(x: i8, y: i8) -> Cell {
        Cell { x, y }
    }

    /// The label of a cell on a square or cross board: column letter, then row from 1
    /// (`a1` is seat 0's bottom-left).
    pub fn grid_label(self) -> GridLabel {
        GridLabel(self)
    }

    /// Reads a square or cross board label such as `a1` or `j10`. Only the syntax is
    /// checked; whether the cell exists is the board's business.
    pub fn parse_grid_label(text: &str) -> Option<Cell> {
        let mut chars = text.chars();
        let column = chars.next()?;
        if !column.is_ascii_lowercase() {
            return None;
        }
        let row = chars.as_str();
        if row.is_empty() || row.starts_with('0') || !row.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let row: i8 = row.parse().ok()?;
        Some(Cell::new((column as u8 - b'a') as i8, row - 1))
    }
}

/// [`Display`](fmt::Display) of a square or cross board label; see [`Cell::grid_label`].
#[derive(Clone, Copy, Debug)]
pub struct GridLabel(Cell);

impl fmt::Display for GridLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Cell { x, y } = self.0;
        let column = (b'a' as i16 + x as i16).clamp(0, 127) as u8 as char;
        write!(f, "{column}{}", y as i16 + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_labels_round_trip() {
        for x in 0..10 {
            for y in 0..10 {
                let cell = Cell::new(x, y);
                let label = cell.grid_label().to_string();
                assert_eq!(Cell::parse_grid_label(&label), Some(cell), "{label}");
            }
        }
        assert_eq!(Cell::new(0, 0).grid_label().to_string(), "a1");
        assert_eq!(Cell::new(9, 9).grid_label().to_string(), "j10");
    }

    #[test]
    fn bad_grid_labels() {
        for text in ["", "a", "1a", "A1", "a0", "a01", "a1x", "a-1", "é1", "a999"] {
            assert_eq!(Cell::parse_grid_label(text), None, "{text}");
        }
    }
}
