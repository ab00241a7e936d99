//! Tanques notation (api.md, "Notation"): `enter f1 NE`, `e4 FLF`,
//! `attack e5 from d5 d6 advance d5 casualty d6` (the last two parts optional), `end`.
//! Words are separated by single spaces when written; any run of whitespace is read.

use std::fmt::Write;

use super::board;
use crate::action::{Action, Facing, TankAction};
use crate::cell::Cell;
use crate::error::{NotationError, NotationProblem};

/// The example quoted in notation errors.
pub(super) const EXAMPLE: &str = "enter f1 NE, e4 FLF, attack e5 from d5 d6, end";

/// The canonical text of a tanques action. Cells off the board are written as coordinates;
/// actions built from legal moves never have any.
pub(super) fn write(action: &Action) -> String {
    let label = |cell: Cell| match board::hex(cell) {
        Some(hex) => board::label(hex),
        None => format!("({}, {})", cell.x, cell.y),
    };
    let mut text = String::new();
    match action {
        Action::Enter { cell, facing } => {
            let _ = write!(text, "enter {} {facing}", label(*cell));
        }
        Action::Maneuver { cell, actions } => {
            text.push_str(&label(*cell));
            text.push(' ');
            text.extend(actions.iter().map(|action| action.letter()));
        }
        Action::Attack {
            target,
            attackers,
            advance,
            casualty,
        } => {
            let _ = write!(text, "attack {} from", label(*target));
            for &attacker in attackers {
                text.push(' ');
                text.push_str(&label(attacker));
            }
            if let Some(advance) = advance {
                let _ = write!(text, " advance {}", label(*advance));
            }
            if let Some(casualty) = casualty {
                let _ = write!(text, " casualty {}", label(*casualty));
            }
        }
        Action::EndPhase => text.push_str("end"),
        Action::Step { .. } | Action::Jump { .. } | Action::Huff { .. } => {
            text.push_str("(not a tanques action)");
        }
    }
    text
}

/// Reads a tanques action; only the syntax and the labels are checked.
pub(super) fn parse(text: &str) -> Result<Action, NotationError> {
    let error = |problem| NotationError {
        text: text.to_owned(),
        problem,
        example: EXAMPLE,
    };
    let malformed = || error(NotationProblem::Malformed);
    let cell = |word: &str| {
        board::parse_label(word)
            .map(board::cell)
            .ok_or_else(|| error(NotationProblem::UnknownCell(word.to_owned())))
    };
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["end"] => Ok(Action::EndPhase),
        ["enter", at, facing] => Ok(Action::Enter {
            cell: cell(at)?,
            facing: facing.parse::<Facing>().map_err(|()| malformed())?,
        }),
        ["attack", target, "from", rest @ ..] => {
            let target = cell(target)?;
            let split = rest
                .iter()
                .position(|word| matches!(*word, "advance" | "casualty"))
                .unwrap_or(rest.len());
            let (attackers, choices) = rest.split_at(split);
            if attackers.is_empty() {
                return Err(malformed());
            }
            let attackers = attackers
                .iter()
                .map(|word| cell(word))
                .collect::<Result<Vec<Cell>, NotationError>>()?;
            let (advance, casualty) = match choices {
                [] => (None, None),
                ["advance", advance] => (Some(cell(advance)?), None),
                ["casualty", casualty] => (None, Some(cell(casualty)?)),
                ["advance", advance, "casualty", casualty] => {
                    (Some(cell(advance)?), Some(cell(casualty)?))
                }
                _ => return Err(malformed()),
            };
            Ok(Action::Attack {
                target,
                attackers,
                advance,
                casualty,
            })
        }
        [at, letters] if Cell::parse_grid_label(at).is_some() => {
            let cell = cell(at)?;
            let actions = letters
                .chars()
                .map(TankAction::from_letter)
                .collect::<Option<Vec<TankAction>>>()
                .ok_or_else(malformed)?;
            Ok(Action::Maneuver { cell, actions })
        }
        _ => Err(malformed()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(label: &str) -> Cell {
        board::parse_label(label).map(board::cell).expect("a label")
    }

    #[test]
    fn api_examples_round_trip() {
        let examples = [
            (
                "enter f1 NE",
                Action::Enter {
                    cell: at("f1"),
                    facing: Facing::NE,
                },
            ),
            (
                "e4 FLF",
                Action::Maneuver {
                    cell: at("e4"),
                    actions: vec![
                        TankAction::Forward,
                        TankAction::TurnLeft,
                        TankAction::Forward,
                    ],
                },
            ),
            (
                "attack e5 from d5 d6 advance d5 casualty d6",
                Action::Attack {
                    target: at("e5"),
                    attackers: vec![at("d5"), at("d6")],
                    advance: Some(at("d5")),
                    casualty: Some(at("d6")),
                },
            ),
            (
                "attack e5 from d5",
                Action::Attack {
                    target: at("e5"),
                    attackers: vec![at("d5")],
                    advance: None,
                    casualty: None,
                },
            ),
            (
                "attack e5 from d6 d5 casualty d5",
                Action::Attack {
                    target: at("e5"),
                    attackers: vec![at("d6"), at("d5")],
                    advance: None,
                    casualty: Some(at("d5")),
                },
            ),
            (
                "attack k6 from j6 advance j6",
                Action::Attack {
                    target: at("k6"),
                    attackers: vec![at("j6")],
                    advance: Some(at("j6")),
                    casualty: None,
                },
            ),
            ("end", Action::EndPhase),
        ];
        for (text, action) in examples {
            assert_eq!(parse(text), Ok(action.clone()), "{text}");
            assert_eq!(write(&action), text);
        }
        assert_eq!(
            parse("  attack  e5 from d5\td6 "),
            parse("attack e5 from d5 d6")
        );
    }

    #[test]
    fn malformed_texts() {
        for bad in [
            "",
            "End",
            "end now",
            "enter f1",
            "enter f1 N",
            "enter f1 ne",
            "e4",
            "e4 FXF",
            "e4 flf",
            "FLF e4",
            "attack e5",
            "attack e5 from",
            "attack e5 from advance d5",
            "attack e5 from d5 advance",
            "attack e5 from d5 casualty d5 advance d5",
            "attack e5 from d5 advance d5 advance d5",
            "attack e5 d5",
            "e4-e5",
        ] {
            assert_eq!(
                parse(bad).map_err(|e| e.problem),
                Err(NotationProblem::Malformed),
                "{bad}"
            );
        }
        for (bad, label) in [
            ("enter g1 NE", "g1"),
            ("z9 F", "z9"),
            ("a12 F", "a12"),
            ("attack e5 from d5 l6", "l6"),
            ("attack e5 from d5 advance k7", "k7"),
        ] {
            assert_eq!(
                parse(bad).map_err(|e| e.problem),
                Err(NotationProblem::UnknownCell(label.to_owned())),
                "{bad}"
            );
        }
    }
}
