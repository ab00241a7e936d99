//! Why a notation or a position text was refused, and how request text is quoted in
//! messages. Why an action is illegal is [`crate::illegal`]'s.

/// Text that is not a move in the ruleset's notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot read {} as a move: {problem}; moves look like {example}",
    Quoted(text)
)]
pub struct NotationError {
    /// The text as given.
    pub text: String,
    /// What is wrong with it.
    pub problem: NotationProblem,
    /// An example of a well-formed move.
    pub example: &'static str,
}

/// What is wrong with a notation text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotationProblem {
    /// It does not have the shape of any move.
    #[error("unexpected form")]
    Malformed,
    /// A cell label that names no cell of the board.
    #[error("{0:?} is not a cell of this board")]
    UnknownCell(String),
}

/// Text that is not a valid position of the ruleset.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// Not `<rows> <seat>`.
    #[error("a position is `<rows> <seat to move>`")]
    Shape,
    /// The seat is not 0 or 1.
    #[error("the seat to move must be 0 or 1, not {0:?}")]
    Seat(String),
    /// Wrong number of rows.
    #[error("expected {expected} rows, found {found}")]
    RowCount {
        /// Rows on the board.
        expected: usize,
        /// Rows in the text.
        found: usize,
    },
    /// A row that does not cover its cells exactly.
    #[error("row {row} describes {found} cells, the board has {expected}")]
    RowWidth {
        /// Row number from 1 (seat 0's edge).
        row: usize,
        /// Cells in that row.
        expected: usize,
        /// Cells the text describes.
        found: usize,
    },
    /// A character that is no piece, digit or lake.
    #[error("{0:?} is not a piece code of this ruleset")]
    UnknownCode(char),
    /// A lake marker where there is no lake, or a piece or gap on a lake.
    #[error("row {0} does not match the board's lakes")]
    Lake(usize),
    /// More pieces of a kind than an army has.
    #[error("too many pieces of code {0:?}")]
    TooMany(char),
    /// The position breaks a rule of the ruleset (e.g. a piece a seat cannot have).
    #[error("{0}")]
    Rule(&'static str),
}

/// Text from a request, quoted for a message: at most [`Quoted::MAX_CHARS`] characters,
/// then `…`, so that no message echoes a huge input back whole.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl Quoted<'_> {
    /// Characters shown of a longer text.
    pub const MAX_CHARS: usize = 40;
}

impl std::fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.char_indices().nth(Self::MAX_CHARS) {
            None => write!(f, "{:?}", self.0),
            Some((end, _)) => write!(
                f,
                "{:?}… ({} characters)",
                &self.0[..end],
                self.0.chars().count()
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Quoted;

    #[test]
    fn long_inputs_are_quoted_shortened() {
        assert_eq!(Quoted("e4").to_string(), "\"e4\"");
        let long = "x".repeat(60_000);
        let quoted = Quoted(&long).to_string();
        assert!(quoted.len() < 80, "{quoted}");
        assert!(quoted.ends_with("… (60000 characters)"), "{quoted}");
    }
}
