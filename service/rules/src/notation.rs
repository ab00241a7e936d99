//! Reading grid-board notation shared by the square and cross boards (api.md, "Notation").

use crate::action::Action;
use crate::cell::Cell;
use crate::error::{NotationError, NotationProblem};

/// Splits `text` into grid labels separated by single `-` or `x` characters, e.g.
/// `d5xd3xf3` → `[("d5", None), ("d3", Some('x')), ("f3", Some('x'))]`.
fn split_labels(text: &str) -> Option<Vec<(&str, Option<char>)>> {
    let mut parts = Vec::new();
    let mut rest = text;
    let mut separator = None;
    loop {
        let column_len = rest
            .chars()
            .next()
            .filter(char::is_ascii_lowercase)?
            .len_utf8();
        let digits = rest[column_len..]
            .bytes()
            .take_while(u8::is_ascii_digit)
            .count();
        if digits == 0 {
            return None;
        }
        let (label, tail) = rest.split_at(column_len + digits);
        parts.push((label, separator));
        let mut chars = tail.chars();
        match chars.next() {
            None => return Some(parts),
            Some(c @ ('-' | 'x')) => separator = Some(c),
            Some(_) => return None,
        }
        rest = chars.as_str();
    }
}

/// Reads grid labels joined by `-`/`x` into cells, checking each against `on_board`.
pub(crate) fn parse_path(
    text: &str,
    example: &'static str,
    on_board: impl Fn(Cell) -> bool,
) -> Result<Vec<(Cell, Option<char>)>, NotationError> {
    let error = |problem| NotationError {
        text: text.to_owned(),
        problem,
        example,
    };
    let parts = split_labels(text.trim()).ok_or_else(|| error(NotationProblem::Malformed))?;
    parts
        .into_iter()
        .map(|(label, separator)| {
            Cell::parse_grid_label(label)
                .filter(|&cell| on_board(cell))
                .map(|cell| (cell, separator))
                .ok_or_else(|| error(NotationProblem::UnknownCell(label.to_owned())))
        })
        .collect()
}

/// Reads a one-step move `a4-a5` or `a4xa5` (the separator is not checked against the
/// board: whether it attacks is decided by what stands on the target).
pub(crate) fn parse_step(
    text: &str,
    example: &'static str,
    on_board: impl Fn(Cell) -> bool,
) -> Result<Action, NotationError> {
    match parse_path(text, example, on_board)?.as_slice() {
        &[(from, None), (to, Some(_))] => Ok(Action::Step { from, to }),
        _ => Err(NotationError {
            text: text.to_owned(),
            problem: NotationProblem::Malformed,
            example,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on_10x10(cell: Cell) -> bool {
        (0..10).contains(&cell.x) && (0..10).contains(&cell.y)
    }

    #[test]
    fn steps() {
        let step = |text| parse_step(text, "a4-a5", on_10x10);
        let a4_a5 = Action::Step {
            from: Cell::new(0, 3),
            to: Cell::new(0, 4),
        };
        assert_eq!(step("a4-a5"), Ok(a4_a5.clone()));
        assert_eq!(step("a4xa5"), Ok(a4_a5));
        assert_eq!(
            step(" j10-j9 "),
            Ok(Action::Step {
                from: Cell::new(9, 9),
                to: Cell::new(9, 8),
            })
        );
        for bad in [
            "", "a4", "a4-", "a4a5", "a4--a5", "a4-a5-a6", "A4-A5", "a4 a5",
        ] {
            assert_eq!(
                step(bad).map_err(|e| e.problem),
                Err(NotationProblem::Malformed),
                "{bad}"
            );
        }
        assert_eq!(
            step("a4-k4").map_err(|e| e.problem),
            Err(NotationProblem::UnknownCell("k4".into()))
        );
        assert_eq!(
            step("a0-a1").map_err(|e| e.problem),
            Err(NotationProblem::UnknownCell("a0".into()))
        );
    }

    #[test]
    fn paths() {
        let path = parse_path("d5xd3xf3", "d5xd3", on_10x10).expect("a chain");
        assert_eq!(
            path,
            vec![
                (Cell::new(3, 4), None),
                (Cell::new(3, 2), Some('x')),
                (Cell::new(5, 2), Some('x')),
            ]
        );
    }
}
