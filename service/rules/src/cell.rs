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

impl GridLabel {
    /// Appends the label to `out`: what `to_string` gives, without the formatting machinery
    /// (every legal-move list writes two labels a move).
    pub fn push_to(self, out: &mut String) {
        out.push_str(self.spell(&mut [0; LABEL_BYTES]));
    }

    /// The label, spelled into `buffer`: the column letter, then the row from 1 in decimal.
    fn spell(self, buffer: &mut [u8; LABEL_BYTES]) -> &str {
        let Cell { x, y } = self.0;
        buffer[0] = (i16::from(b'a') + i16::from(x)).clamp(0, 127) as u8;
        let row = i16::from(y) + 1;
        let mut digits = [0u8; 3];
        let mut rest = row.unsigned_abs();
        let mut count = 0;
        loop {
            digits[count] = b'0' + (rest % 10) as u8;
            count += 1;
            rest /= 10;
            if rest == 0 {
                break;
            }
        }
        let mut len = 1;
        if row < 0 {
            buffer[len] = b'-';
            len += 1;
        }
        for &digit in digits[..count].iter().rev() {
            buffer[len] = digit;
            len += 1;
        }
        // ASCII only: a letter clamped to 0..=127, a sign and digits.
        std::str::from_utf8(&buffer[..len]).unwrap_or_default()
    }
}

/// The longest label: a column letter, a sign and three digits (`y` is an `i8`).
const LABEL_BYTES: usize = 5;

impl fmt::Display for GridLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.spell(&mut [0; LABEL_BYTES]))
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
    fn grid_labels_spell_every_cell_as_the_formatter_would() {
        for x in i8::MIN..=i8::MAX {
            for y in i8::MIN..=i8::MAX {
                let label = Cell::new(x, y).grid_label();
                let column = (i16::from(b'a') + i16::from(x)).clamp(0, 127) as u8 as char;
                let expected = format!("{column}{}", i16::from(y) + 1);
                assert_eq!(label.to_string(), expected);
                let mut pushed = String::from(">");
                label.push_to(&mut pushed);
                assert_eq!(pushed, format!(">{expected}"));
            }
        }
    }

    #[test]
    fn bad_grid_labels() {
        for text in ["", "a", "1a", "A1", "a0", "a01", "a1x", "a-1", "é1", "a999"] {
            assert_eq!(Cell::parse_grid_label(text), None, "{text}");
        }
    }
}
