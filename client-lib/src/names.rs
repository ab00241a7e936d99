//! The names of a ruleset's things by id and coordinates: cell labels, piece kinds, seats.

use std::collections::{BTreeMap, HashMap};

use trinchera_proto::v1 as pb;

/// Names of things in a ruleset, for words and drawings.
#[derive(Debug)]
pub struct Names<'a> {
    /// The ruleset.
    pub ruleset: &'a pb::Ruleset,
    /// Labels by `(x, y)`, ordered so that a row's or column's first cell comes first.
    labels: BTreeMap<(i32, i32), &'a str>,
    kinds: HashMap<&'a str, &'a pb::PieceKind>,
}

impl<'a> Names<'a> {
    /// The names of `ruleset`.
    pub fn new(ruleset: &'a pb::Ruleset) -> Names<'a> {
        let cells = ruleset.board.as_ref().map_or(&[][..], |b| &b.cells[..]);
        Names {
            ruleset,
            labels: cells
                .iter()
                .filter_map(|info| {
                    let cell = info.cell.as_ref()?;
                    Some(((cell.x, cell.y), info.label.as_str()))
                })
                .collect(),
            kinds: ruleset
                .piece_kinds
                .iter()
                .map(|kind| (kind.id.as_str(), kind))
                .collect(),
        }
    }

    /// The label of `cell`, e.g. `e5` (`(x,y)` if off the board).
    pub fn label(&self, cell: Option<&pb::Cell>) -> String {
        match cell {
            Some(cell) => self
                .labels
                .get(&(cell.x, cell.y))
                .map_or_else(|| format!("({},{})", cell.x, cell.y), |l| (*l).to_owned()),
            None => "off the board".to_owned(),
        }
    }

    /// The label of `(x, y)`, if it is a cell.
    pub fn label_at(&self, x: i32, y: i32) -> Option<&'a str> {
        self.labels.get(&(x, y)).copied()
    }

    /// The cell labelled `label`, if any.
    pub fn cell_by_label(&self, label: &str) -> Option<pb::Cell> {
        self.labels
            .iter()
            .find(|(_, l)| **l == label)
            .map(|((x, y), _)| pb::Cell { x: *x, y: *y })
    }

    /// The row number of row `y`, read off the labels of its leftmost cell ("5" of "e5").
    pub fn row_label(&self, y: i32) -> String {
        self.label_part(
            |(_, row)| row == y,
            |label| label.trim_start_matches(|c: char| c.is_alphabetic()),
        )
    }

    /// The column letters of column `x`, read off the labels of its lowest cell ("e" of
    /// "e5").
    pub fn column_label(&self, x: i32) -> String {
        self.label_part(
            |(column, _)| column == x,
            |label| label.trim_end_matches(|c: char| c.is_ascii_digit()),
        )
    }

    /// `part` of the label of the first cell whose coordinates pass `pick`.
    fn label_part(&self, pick: impl Fn((i32, i32)) -> bool, part: impl Fn(&str) -> &str) -> String {
        self.labels
            .iter()
            .find(|(at, _)| pick(**at))
            .map(|(_, label)| part(label).to_owned())
            .unwrap_or_default()
    }

    /// The kind with id `id`.
    pub fn kind(&self, id: &str) -> Option<&'a pb::PieceKind> {
        self.kinds.get(id).copied()
    }

    /// The display name of kind `id` (the id itself if unknown, "a hidden piece" if empty).
    pub fn kind_name(&self, id: &str) -> String {
        match self.kind(id) {
            Some(kind) => kind.name.clone(),
            None if id.is_empty() => "a hidden piece".to_owned(),
            None => id.to_owned(),
        }
    }

    /// The kind whose code is `code` (either case).
    pub fn kind_by_code(&self, code: &str) -> Option<&'a pb::PieceKind> {
        self.ruleset
            .piece_kinds
            .iter()
            .find(|kind| kind.code.eq_ignore_ascii_case(code))
    }

    /// The display name of a seat, e.g. "Rojo".
    pub fn seat(&self, seat: i32) -> String {
        self.ruleset
            .seats
            .iter()
            .find(|s| s.seat == seat)
            .map_or_else(|| format!("seat {seat}"), |s| s.name.clone())
    }

    /// Whether some seat sets up in secret (so "known to the opponent" matters).
    pub fn hidden_setups(&self) -> bool {
        self.ruleset.setup_zones.iter().any(|zone| zone.hidden)
    }

    /// The setup zone of `seat`, if it sets up.
    pub fn zone(&self, seat: i32) -> Option<&'a pb::SetupZone> {
        self.ruleset
            .setup_zones
            .iter()
            .find(|zone| zone.seat == seat)
    }
}
