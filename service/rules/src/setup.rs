//! Setups: validation that reports every problem at once, random setups from a seed, and the
//! canonical text that fairness commitments hash.

use std::collections::BTreeMap;
use std::fmt;

use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::cell::Cell;
use crate::describe::{Description, KindId, SetupZone, Terrain};
use crate::error::Quoted;
use crate::seat::Seat;

/// One piece placed on one cell, with its kind as the client names it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Placement {
    /// Where.
    pub cell: Cell,
    /// The kind's stable id, e.g. `espia`.
    pub kind: String,
}

/// A validated setup of one seat: kinds by cell, in board order. Only validation makes one
/// ([`Setup::validate`], [`Setup::from_pieces`]) or a maker of legal setups
/// ([`Setup::random`], [`Setup::complete`]), so a `Setup` is always legal for its seat.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    seat: Seat,
    pieces: Vec<(Cell, KindId)>,
}

impl Setup {
    /// The seat it belongs to.
    pub fn seat(&self) -> Seat {
        self.seat
    }

    /// Every placed piece, sorted by row, then column.
    pub fn pieces(&self) -> &[(Cell, KindId)] {
        &self.pieces
    }

    /// A setup that skips validation, for tests of positions no legal setup makes (a few
    /// pieces on an empty board).
    #[cfg(test)]
    pub(crate) fn unchecked(seat: Seat, pieces: Vec<(Cell, KindId)>) -> Setup {
        Setup { seat, pieces }
    }

    /// Checks pieces given by kind id, as [`Setup::validate`] checks placements.
    pub fn from_pieces(
        description: &Description,
        seat: Seat,
        pieces: &[(Cell, KindId)],
    ) -> Result<Setup, SetupError> {
        let placements: Vec<Placement> = pieces
            .iter()
            .map(|&(cell, kind)| Placement {
                cell,
                kind: description.kind(kind).id.to_owned(),
            })
            .collect();
        Setup::validate(description, seat, &placements)
    }

    /// A legal setup of `seat` that keeps the pieces of `kept` where they are and places
    /// the rest of the zone's pieces on the free cells uniformly at random, reproducible
    /// from `seed`. Refused when `kept` does not fit the zone (a cell outside it, a cell
    /// taken twice, more of a kind than the seat places).
    pub fn complete(
        description: &Description,
        seat: Seat,
        kept: &[(Cell, KindId)],
        seed: u64,
    ) -> Result<Setup, SetupError> {
        let (free, missing) = Setup::room_around(description, seat, kept)?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut cells = free;
        cells.shuffle(&mut rng);
        let mut pieces: Vec<(Cell, KindId)> = kept.to_vec();
        pieces.extend(cells.into_iter().zip(missing));
        Setup::from_pieces(description, seat, &pieces)
    }

    /// What is left to place around `kept` in `seat`'s zone: the free cells, and the kinds
    /// still missing (one entry per piece, in the zone's order). Refused when `kept` does
    /// not fit the zone.
    pub fn room_around(
        description: &Description,
        seat: Seat,
        kept: &[(Cell, KindId)],
    ) -> Result<(Vec<Cell>, Vec<KindId>), SetupError> {
        let Some(zone) = description.setup_zone(seat) else {
            return Err(SetupError {
                problems: vec![SetupProblem::NoSetupForSeat(seat)],
            });
        };
        let mut problems = Vec::new();
        let mut free = zone.cells.clone();
        let mut left: BTreeMap<KindId, usize> = zone
            .pieces
            .iter()
            .map(|&(kind, count)| (kind, usize::from(count)))
            .collect();
        for &(cell, kind) in kept {
            match free.iter().position(|&c| c == cell) {
                Some(index) => {
                    free.swap_remove(index);
                }
                None if zone.cells.contains(&cell) => problems.push(SetupProblem::Duplicate(cell)),
                None => problems.push(SetupProblem::OutsideZone(cell)),
            }
            match left.get_mut(&kind) {
                Some(count) if *count > 0 => *count -= 1,
                Some(_) => {}
                None => problems.push(SetupProblem::NotPlaceable { kind, got: 1 }),
            }
        }
        for &(kind, expected) in &zone.pieces {
            let got = kept.iter().filter(|&&(_, k)| k == kind).count();
            if got > usize::from(expected) {
                problems.push(SetupProblem::WrongCount {
                    kind,
                    expected,
                    got,
                });
            }
        }
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        free.sort_by_key(|cell| (cell.y, cell.x));
        let missing = zone
            .pieces
            .iter()
            .flat_map(|&(kind, _)| std::iter::repeat_n(kind, left[&kind]))
            .collect();
        Ok((free, missing))
    }

    /// The canonical text of this setup: `label=kind` for every piece in board order (row,
    /// then column), joined by single spaces, e.g. `a1=bandera b1=bomba ...`. Fairness
    /// commitments are `SHA-256(salt ‖ canonical text)`.
    pub fn canonical_text(&self, description: &Description) -> String {
        let mut text = String::new();
        for (index, &(cell, kind)) in self.pieces.iter().enumerate() {
            if index > 0 {
                text.push(' ');
            }
            text.push_str(&description.label(cell));
            text.push('=');
            text.push_str(description.kind(kind).id);
        }
        text
    }

    /// Reads [`Setup::canonical_text`] back into placements (not yet validated).
    pub fn parse_canonical(
        description: &Description,
        text: &str,
    ) -> Result<Vec<Placement>, SetupError> {
        let mut placements = Vec::new();
        let mut problems = Vec::new();
        for item in text.split_whitespace() {
            let Some((label, kind)) = item.split_once('=') else {
                problems.push(SetupProblem::Malformed(item.to_owned()));
                continue;
            };
            match description.cell_by_label(label) {
                Some(cell) => placements.push(Placement {
                    cell,
                    kind: kind.to_owned(),
                }),
                None => problems.push(SetupProblem::Malformed(item.to_owned())),
            }
        }
        if problems.is_empty() {
            Ok(placements)
        } else {
            Err(SetupError { problems })
        }
    }

    /// The placements of this setup, as a client would send them.
    pub fn placements(&self, description: &Description) -> Vec<Placement> {
        self.pieces
            .iter()
            .map(|&(cell, kind)| Placement {
                cell,
                kind: description.kind(kind).id.to_owned(),
            })
            .collect()
    }

    /// Checks `placements` against the seat's zone: exact counts per kind, cells inside the
    /// zone, on the board, not a lake, at most one piece each. Reports every problem found.
    pub fn validate(
        description: &Description,
        seat: Seat,
        placements: &[Placement],
    ) -> Result<Setup, SetupError> {
        let Some(zone) = description.setup_zone(seat) else {
            return Err(SetupError {
                problems: vec![SetupProblem::NoSetupForSeat(seat)],
            });
        };
        let mut problems = Vec::new();
        let mut taken: BTreeMap<(i8, i8), KindId> = BTreeMap::new();
        let mut counts: BTreeMap<KindId, usize> = BTreeMap::new();
        for placement in placements {
            let cell = placement.cell;
            let Some(kind) = description.kind_by_id(&placement.kind) else {
                problems.push(SetupProblem::UnknownKind(placement.kind.clone()));
                continue;
            };
            *counts.entry(kind).or_default() += 1;
            match description.cell(cell).map(|info| info.terrain) {
                None => problems.push(SetupProblem::OffBoard(cell)),
                Some(Terrain::Lake) => problems.push(SetupProblem::Lake(cell)),
                Some(_) if !zone.cells.contains(&cell) => {
                    problems.push(SetupProblem::OutsideZone(cell))
                }
                Some(_) => {
                    if taken.insert((cell.y, cell.x), kind).is_some() {
                        problems.push(SetupProblem::Duplicate(cell));
                    }
                }
            }
        }
        for &(kind, expected) in &zone.pieces {
            let got = counts.remove(&kind).unwrap_or(0);
            if got != usize::from(expected) {
                problems.push(SetupProblem::WrongCount {
                    kind,
                    expected,
                    got,
                });
            }
        }
        for (kind, got) in counts {
            problems.push(SetupProblem::NotPlaceable { kind, got });
        }
        if !problems.is_empty() {
            return Err(SetupError { problems });
        }
        let pieces = taken
            .into_iter()
            .map(|((y, x), kind)| (Cell::new(x, y), kind))
            .collect();
        Ok(Setup { seat, pieces })
    }

    /// A uniformly random legal setup for `zone`, reproducible from `seed`.
    pub fn random(zone: &SetupZone, seed: u64) -> Setup {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut cells = zone.cells.clone();
        cells.shuffle(&mut rng);
        let kinds = zone
            .pieces
            .iter()
            .flat_map(|&(kind, count)| std::iter::repeat_n(kind, usize::from(count)));
        let mut pieces: Vec<(Cell, KindId)> = cells.into_iter().zip(kinds).collect();
        pieces.sort_by_key(|(cell, _)| (cell.y, cell.x));
        Setup {
            seat: zone.seat,
            pieces,
        }
    }
}

/// A setup was refused; `problems` lists everything that is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct SetupError {
    /// Every problem found, in the order of the placements, then counts.
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the setup has {} problem(s)", self.problems.len())
    }
}

impl SetupError {
    /// Every problem in words, with labels and names from `description`.
    pub fn describe(&self, description: &Description) -> String {
        let problems: Vec<String> = self
            .problems
            .iter()
            .map(|problem| problem.describe(description))
            .collect();
        format!("invalid setup: {}", problems.join("; "))
    }
}

/// One thing wrong with a setup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// This seat places nothing in this ruleset.
    NoSetupForSeat(Seat),
    /// A kind id that this ruleset does not have.
    UnknownKind(String),
    /// A canonical-text item that is not `label=kind`.
    Malformed(String),
    /// A cell that is not on the board.
    OffBoard(Cell),
    /// A lake cell.
    Lake(Cell),
    /// A board cell outside the seat's zone.
    OutsideZone(Cell),
    /// Two pieces on one cell.
    Duplicate(Cell),
    /// A kind placed the wrong number of times.
    WrongCount {
        /// The kind.
        kind: KindId,
        /// How many the ruleset needs.
        expected: u8,
        /// How many were placed.
        got: usize,
    },
    /// A kind that this seat does not place at all.
    NotPlaceable {
        /// The kind.
        kind: KindId,
        /// How many were placed.
        got: usize,
    },
}

impl SetupProblem {
    /// The problem in words, with labels and names from `description`.
    pub fn describe(&self, description: &Description) -> String {
        match self {
            SetupProblem::NoSetupForSeat(seat) => {
                format!(
                    "{} places no pieces in {}",
                    description.seats[*seat].name, description.name
                )
            }
            SetupProblem::UnknownKind(kind) => {
                format!("there is no piece kind {}", Quoted(kind))
            }
            SetupProblem::Malformed(item) => {
                format!("{} is not of the form label=kind", Quoted(item))
            }
            SetupProblem::OffBoard(cell) => {
                format!("({}, {}) is not on the board", cell.x, cell.y)
            }
            SetupProblem::Lake(cell) => format!("{} is a lake", description.label(*cell)),
            SetupProblem::OutsideZone(cell) => {
                format!("{} is outside your setup zone", description.label(*cell))
            }
            SetupProblem::Duplicate(cell) => {
                format!("{} holds more than one piece", description.label(*cell))
            }
            SetupProblem::WrongCount {
                kind,
                expected,
                got,
            } => format!(
                "{} needs {expected} {}, got {got}",
                description.name,
                description.kind(*kind).name
            ),
            SetupProblem::NotPlaceable { kind, got } => format!(
                "{} {} placed, but this seat places none",
                got,
                description.kind(*kind).name
            ),
        }
    }
}
