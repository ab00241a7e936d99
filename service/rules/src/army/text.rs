//! Position text of army games (rules.md, "Position text").

use super::{Army, EMPTY, GONE, Variant, WALL};
use crate::cell::Cell;
use crate::describe::KindId;
use crate::error::PositionError;
use crate::rules::{PositionText, split_position};
use crate::seat::Seat;

/// Rows are written and read from the top (seat 1's edge) down.
fn rows_top_down(height: i8) -> impl Iterator<Item = i8> {
    (0..height).rev()
}

impl<V: Variant> PositionText for Army<V> {
    fn from_position_text(text: &str) -> Result<Self, PositionError> {
        let spec = V::spec();
        let data = spec.data;
        let (rows, to_move) = split_position(text, data.height as usize)?;
        let mut placed: Vec<(Cell, KindId, Seat)> = Vec::new();
        let width = data.width as usize;
        for (y, row) in rows_top_down(data.height).zip(&rows) {
            let row_number = y as usize + 1;
            let lake_at = |x: usize| x < width && data.lakes.contains(&Cell::new(x as i8, y));
            // Cells described so far; counted past the width (without overflow) so that a
            // row that is too long reports its real length.
            let mut x: usize = 0;
            let mut run: usize = 0;
            let mut chars = row.chars().peekable();
            while let Some(c) = chars.next() {
                if let Some(digit) = c.to_digit(10).filter(|&d| d > 0) {
                    run = run.saturating_add(digit as usize);
                    if chars.peek().is_some_and(char::is_ascii_digit) {
                        continue;
                    }
                    let end = x.saturating_add(run);
                    if (x..end.min(width)).any(lake_at) {
                        return Err(PositionError::Lake(row_number));
                    }
                    x = end;
                    run = 0;
                    continue;
                }
                let lake = lake_at(x);
                if c == '~' {
                    if !lake {
                        return Err(PositionError::Lake(row_number));
                    }
                } else {
                    let seat = if c.is_ascii_uppercase() {
                        Seat::First
                    } else {
                        Seat::Second
                    };
                    let kind = data
                        .kinds
                        .iter()
                        .position(|kind| kind.code == c.to_ascii_uppercase())
                        .ok_or(PositionError::UnknownCode(c))?;
                    if lake {
                        return Err(PositionError::Lake(row_number));
                    }
                    if x < width {
                        placed.push((Cell::new(x as i8, y), KindId(kind as u8), seat));
                    }
                }
                x = x.saturating_add(1);
            }
            if x != width {
                return Err(PositionError::RowWidth {
                    row: row_number,
                    expected: width,
                    found: x,
                });
            }
        }
        for seat in Seat::BOTH {
            for (index, kind) in data.kinds.iter().enumerate() {
                let count = placed
                    .iter()
                    .filter(|&&(_, k, s)| s == seat && k.index() == index)
                    .count();
                if count > usize::from(kind.count) {
                    let code = match seat {
                        Seat::First => kind.code,
                        Seat::Second => kind.code.to_ascii_lowercase(),
                    };
                    return Err(PositionError::TooMany(code));
                }
            }
        }
        // Slots: seat 0 first, each seat in reading order from a1, as from a setup.
        placed.sort_by_key(|&(cell, _, seat)| (seat, cell.y, cell.x));
        let mut army = Army::empty(to_move);
        for (cell, kind, seat) in placed {
            army.add(cell, kind, seat);
        }
        army.settle();
        Ok(army)
    }

    fn position_text(&self) -> String {
        let spec = V::spec();
        let data = spec.data;
        let mut text = String::new();
        for y in rows_top_down(data.height) {
            if y + 1 != data.height {
                text.push('/');
            }
            let mut run = 0;
            for x in 0..data.width {
                let content = self.board[spec.square(Cell::new(x, y))];
                if content == EMPTY {
                    run += 1;
                    continue;
                }
                push_run(&mut text, &mut run);
                if content == WALL {
                    text.push('~');
                } else {
                    let piece = self.pieces[usize::from(content)];
                    debug_assert_ne!(piece.square, GONE);
                    let code = spec.kind(piece.kind).code;
                    text.push(match piece.owner {
                        Seat::First => code,
                        Seat::Second => code.to_ascii_lowercase(),
                    });
                }
            }
            push_run(&mut text, &mut run);
        }
        text.push(' ');
        text.push_str(&self.to_move.index().to_string());
        text
    }
}

/// Writes a run of empty cells as digits of at most 9 each.
fn push_run(text: &mut String, run: &mut u32) {
    while *run > 0 {
        let chunk = (*run).min(9);
        text.push(char::from_digit(chunk, 10).unwrap_or('9'));
        *run -= chunk;
    }
}
