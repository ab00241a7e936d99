//! Setup files: a player's own setup zone as readable text, written and read from the
//! player's own side of the board (seat 1 sees the board turned by 180°, and so does its
//! file). The CLI's `setup --file` and the desktop client's saved setups share this format.
//!
//! ```text
//! # comments start with '#'; blank lines are ignored
//! #    a b c d e f g h i j
//!   4  S S R T . . .           one line per row of the zone, the row farthest from you
//!   3  ...                     first: the row number, then one piece code per cell of the
//! ```                          row from your left ('.': empty)
//!
//! Rows may come in any order; codes are `PieceKind.code` in either case. A file written
//! for the other seat of a ruleset whose zones have the same shape reads too: row by row
//! from the player's own side, so "flag in the back left corner" stays where it was meant.
//! Only the syntax is checked here; the server checks the rules and reports every problem.

use std::collections::{BTreeSet, HashMap};

use trinchera_proto::v1 as pb;

use crate::lang::Lang;
use crate::names::Names;

/// Where a written layout is to be submitted, for the line of its comment that says how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Submit<'a> {
    /// With `trinchera setup GAME --file THIS_FILE`, of this game when known.
    Command(Option<&'a str>),
    /// At the setup prompt of `trinchera play`, which takes `file THIS_FILE`.
    Prompt,
}

/// What is wrong with a setup file, and on which line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// A line starts with something that is not a row of the zone.
    #[error(
        "line {line}: {row:?} is not a row of your setup zone (rows: {rows}); each line \
         starts with its row number"
    )]
    NotARow {
        /// The line number, from 1.
        line: usize,
        /// What the line starts with.
        row: String,
        /// The zone's rows, comma-separated.
        rows: String,
    },
    /// A row has two lines.
    #[error("line {line}: row {row} appears twice")]
    Twice {
        /// The line number, from 1.
        line: usize,
        /// The row.
        row: String,
    },
    /// A line gives more or fewer codes than its row has cells.
    #[error("line {line}: row {row} of your zone has {cells} cells, the line gives {given}")]
    Width {
        /// The line number, from 1.
        line: usize,
        /// The row.
        row: String,
        /// The row's cells.
        cells: usize,
        /// The codes the line gives.
        given: usize,
    },
    /// A code that names no piece kind.
    #[error("line {line}: {code:?} is not a piece code (codes: {codes}; '.' is empty)")]
    NotACode {
        /// The line number, from 1.
        line: usize,
        /// The code.
        code: String,
        /// The ruleset's codes, space-separated.
        codes: String,
    },
    /// Rows without a line.
    #[error("the layout has no line for row(s) {rows}")]
    Missing {
        /// The rows, comma-separated.
        rows: String,
    },
}

impl LayoutError {
    /// The error in `lang` (English is its `Display`).
    pub fn words(&self, lang: Lang) -> String {
        if lang == Lang::En {
            return self.to_string();
        }
        match self {
            LayoutError::NotARow { line, row, rows } => format!(
                "línea {line}: {row:?} no es una fila de tu zona (filas: {rows}); cada línea \
                 empieza por su número de fila"
            ),
            LayoutError::Twice { line, row } => {
                format!("línea {line}: la fila {row} aparece dos veces")
            }
            LayoutError::Width {
                line,
                row,
                cells,
                given,
            } => format!(
                "línea {line}: la fila {row} de tu zona tiene {cells} casillas y la línea da \
                 {given}"
            ),
            LayoutError::NotACode { line, code, codes } => format!(
                "línea {line}: {code:?} no es un código de pieza (códigos: {codes}; '.' es \
                 vacía)"
            ),
            LayoutError::Missing { rows } => {
                format!("falta la línea de la(s) fila(s) {rows}")
            }
        }
    }
}

/// The cells of a seat's zone by row, as the seat sees them: the farthest row first, each
/// row from the seat's left.
#[derive(Debug)]
pub struct Zone<'a> {
    names: &'a Names<'a>,
    zone: &'a pb::SetupZone,
    /// `(y, cells)` in own-side order.
    rows: Vec<(i32, Vec<pb::Cell>)>,
}

impl<'a> Zone<'a> {
    /// The zone of `seat`, if it sets up.
    pub fn of(names: &'a Names<'a>, seat: i32) -> Option<Zone<'a>> {
        let zone = names.zone(seat)?;
        // Seat 0 sees the highest row at the top and column a on its left; seat 1 the
        // board turned by 180°.
        let turned = seat == 1;
        let mut ys: Vec<i32> = zone.cells.iter().map(|c| c.y).collect();
        ys.sort_unstable();
        ys.dedup();
        if !turned {
            ys.reverse();
        }
        let rows = ys
            .into_iter()
            .map(|y| {
                let mut cells: Vec<pb::Cell> =
                    zone.cells.iter().filter(|c| c.y == y).copied().collect();
                cells.sort_by_key(|c| if turned { -c.x } else { c.x });
                (y, cells)
            })
            .collect();
        Some(Zone { names, zone, rows })
    }

    /// The seat whose zone this is.
    pub fn seat(&self) -> i32 {
        self.zone.seat
    }

    /// The row number of row `y` as labels write it.
    fn row_name(&self, y: i32) -> String {
        self.rows
            .iter()
            .find(|(row, _)| *row == y)
            .and_then(|(_, cells)| cells.first())
            .and_then(|c| self.names.label_at(c.x, c.y))
            .map(|label| {
                label
                    .trim_start_matches(|c: char| c.is_alphabetic())
                    .to_owned()
            })
            .unwrap_or_default()
    }

    /// The placements as a grid from the seat's side: kind ids by row and column.
    pub fn grid(&self, placements: &[pb::Placement]) -> Vec<Vec<Option<String>>> {
        let by_cell: HashMap<(i32, i32), &str> = placements
            .iter()
            .filter_map(|p| Some(((p.cell.as_ref()?.x, p.cell.as_ref()?.y), p.kind.as_str())))
            .collect();
        self.rows
            .iter()
            .map(|(_, cells)| {
                cells
                    .iter()
                    .map(|c| by_cell.get(&(c.x, c.y)).map(|k| (*k).to_owned()))
                    .collect()
            })
            .collect()
    }

    /// The placements of a grid from the seat's side (cells past the zone are dropped).
    pub fn from_grid(&self, grid: &[Vec<Option<String>>]) -> Vec<pb::Placement> {
        self.rows
            .iter()
            .zip(grid)
            .flat_map(|((_, cells), kinds)| cells.iter().zip(kinds))
            .filter_map(|(cell, kind)| {
                Some(pb::Placement {
                    cell: Some(*cell),
                    kind: kind.clone()?,
                })
            })
            .collect()
    }

    /// Whether a grid of this zone fits `other`'s rows cell for cell.
    pub fn same_shape(&self, other: &Zone<'_>) -> bool {
        self.rows.len() == other.rows.len()
            && self
                .rows
                .iter()
                .zip(&other.rows)
                .all(|((_, a), (_, b))| a.len() == b.len())
    }

    /// The placements mirrored left to right, as the seat sees the zone.
    pub fn mirrored(&self, placements: &[pb::Placement]) -> Vec<pb::Placement> {
        let mut grid = self.grid(placements);
        for row in &mut grid {
            row.reverse();
        }
        self.from_grid(&grid)
    }

    /// A commented layout of this zone with the pieces of `placements` (others empty), to
    /// submit with `trinchera setup`; `game` names the game in that line when known.
    pub fn write(&self, placements: &[pb::Placement], game: Option<&str>) -> String {
        self.write_submitted(placements, Submit::Command(game))
    }

    /// [`Zone::write`], its comment saying to submit the file as `submit` says.
    pub fn write_submitted(&self, placements: &[pb::Placement], submit: Submit<'_>) -> String {
        let names = self.names;
        let seat = self.zone.seat;
        let submit = match submit {
            Submit::Command(game) => {
                format!(
                    "trinchera setup {} --file THIS_FILE",
                    game.unwrap_or("GAME")
                )
            }
            Submit::Prompt => "file THIS_FILE at the setup prompt".to_owned(),
        };
        let mut text = format!(
            "# Setup of {} (seat {seat}) for {}, seen from the side of {}.\n\
             # One line per row of the zone, the farthest row first: the row number, then one\n\
             # piece code per cell from your left ('.' leaves a cell empty). Lines starting\n\
             # with '#' are comments. Submit with: {submit}\n",
            names.seat(seat),
            names.ruleset.id,
            names.seat(seat),
        );
        let counts: Vec<String> = self
            .zone
            .pieces
            .iter()
            .map(|count| {
                let code = names.kind(&count.kind).map_or("?", |k| k.code.as_str());
                format!("{code} {} ×{}", names.kind_name(&count.kind), count.count)
            })
            .collect();
        for chunk in counts.chunks(6) {
            text.push_str(&format!("# Pieces: {}\n", chunk.join(", ")));
        }
        let grid = self.grid(placements);
        let mut header = String::new();
        for ((y, cells), kinds) in self.rows.iter().zip(&grid) {
            let columns: Vec<String> = cells
                .iter()
                .map(|c| {
                    names
                        .label_at(c.x, c.y)
                        .unwrap_or_default()
                        .trim_end_matches(|ch: char| ch.is_ascii_digit())
                        .to_owned()
                })
                .collect();
            let codes: Vec<String> = kinds
                .iter()
                .map(|kind| match kind.as_deref().and_then(|k| names.kind(k)) {
                    Some(kind) => kind.code.to_uppercase(),
                    None => ".".to_owned(),
                })
                .collect();
            let columns = format!("#    {}\n", columns.join(" "));
            if columns != header {
                text.push_str(&columns);
                header = columns;
            }
            text.push_str(&format!("{:>3}  {}\n", self.row_name(*y), codes.join(" ")));
        }
        text
    }

    /// A random arrangement of the zone's pieces, for a template to edit.
    pub fn shuffled(&self, mut seed: u64) -> Vec<pb::Placement> {
        let mut kinds = crate::tray::pieces(self.zone);
        let mut cells: Vec<pb::Cell> = self.rows.iter().flat_map(|(_, c)| c).copied().collect();
        // Fisher–Yates with a xorshift generator: a template needs variety, not secrecy.
        for i in (1..cells.len()).rev() {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            cells.swap(i, (seed % (i as u64 + 1)) as usize);
        }
        kinds.truncate(cells.len());
        kinds
            .into_iter()
            .zip(cells)
            .map(|(kind, cell)| pb::Placement {
                cell: Some(cell),
                kind,
            })
            .collect()
    }

    /// Reads a layout of this zone or, when its rows are the other seat's and the zones
    /// have the same shape, of the other seat's zone from that seat's side; the errors
    /// name the line and what is wrong.
    pub fn read(&self, text: &str) -> Result<Vec<pb::Placement>, LayoutError> {
        let own = self.read_rows(text);
        if own.is_ok() {
            return own;
        }
        let other = Zone::of(self.names, 1 - self.zone.seat).filter(|z| z.same_shape(self));
        match other.map(|other| other.read_rows(text).map(|p| other.grid(&p))) {
            Some(Ok(grid)) => Ok(self.from_grid(&grid)),
            _ => own,
        }
    }

    /// Reads a layout of exactly this zone.
    fn read_rows(&self, text: &str) -> Result<Vec<pb::Placement>, LayoutError> {
        let names = self.names;
        let row_of: HashMap<String, usize> = (0..self.rows.len())
            .map(|i| (self.row_name(self.rows[i].0), i))
            .collect();
        let all_rows: Vec<String> = self.rows.iter().map(|(y, _)| self.row_name(*y)).collect();
        let mut seen = BTreeSet::new();
        let mut placements = Vec::new();
        for (number, line) in text.lines().enumerate() {
            let number = number + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut tokens = line.split_whitespace();
            let row = tokens.next().unwrap_or_default();
            let Some(&index) = row_of.get(row) else {
                return Err(LayoutError::NotARow {
                    line: number,
                    row: row.to_owned(),
                    rows: all_rows.join(", "),
                });
            };
            if !seen.insert(index) {
                return Err(LayoutError::Twice {
                    line: number,
                    row: row.to_owned(),
                });
            }
            let cells = &self.rows[index].1;
            let codes: Vec<&str> = tokens.collect();
            if codes.len() != cells.len() {
                return Err(LayoutError::Width {
                    line: number,
                    row: row.to_owned(),
                    cells: cells.len(),
                    given: codes.len(),
                });
            }
            for (code, cell) in codes.into_iter().zip(cells) {
                if code == "." {
                    continue;
                }
                let kind = names.kind_by_code(code).ok_or_else(|| {
                    let known: Vec<&str> = names
                        .ruleset
                        .piece_kinds
                        .iter()
                        .map(|k| k.code.as_str())
                        .collect();
                    LayoutError::NotACode {
                        line: number,
                        code: code.to_owned(),
                        codes: known.join(" "),
                    }
                })?;
                placements.push(pb::Placement {
                    cell: Some(*cell),
                    kind: kind.id.clone(),
                });
            }
        }
        let missing: Vec<&str> = (0..self.rows.len())
            .filter(|i| !seen.contains(i))
            .map(|i| all_rows[i].as_str())
            .collect();
        if !missing.is_empty() {
            return Err(LayoutError::Missing {
                rows: missing.join(", "),
            });
        }
        Ok(placements)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 3×4 board: seat 0 sets up on rows 1–2, seat 1 on rows 3–4, two kinds.
    fn ruleset() -> pb::Ruleset {
        let mut cells = Vec::new();
        let mut zones = [Vec::new(), Vec::new()];
        for y in 0..4 {
            for x in 0..3 {
                cells.push(pb::CellInfo {
                    cell: Some(pb::Cell { x, y }),
                    label: format!("{}{}", (b'a' + x as u8) as char, y + 1),
                    ..Default::default()
                });
                zones[usize::from(y >= 2)].push(pb::Cell { x, y });
            }
        }
        let pieces = vec![
            pb::PieceCount {
                kind: "bomba".into(),
                count: 2,
            },
            pb::PieceCount {
                kind: "soldado".into(),
                count: 3,
            },
        ];
        pb::Ruleset {
            id: "mini".into(),
            board: Some(pb::Board {
                cells,
                ..Default::default()
            }),
            piece_kinds: vec![
                pb::PieceKind {
                    id: "bomba".into(),
                    name: "Bomba".into(),
                    code: "B".into(),
                    ..Default::default()
                },
                pb::PieceKind {
                    id: "soldado".into(),
                    name: "Soldado".into(),
                    code: "S".into(),
                    ..Default::default()
                },
            ],
            setup_zones: zones
                .into_iter()
                .zip(0..)
                .map(|(cells, seat)| pb::SetupZone {
                    seat,
                    cells,
                    hidden: true,
                    pieces: pieces.clone(),
                })
                .collect(),
            ..Default::default()
        }
    }

    fn sorted(mut placements: Vec<pb::Placement>) -> Vec<pb::Placement> {
        placements.sort_by_key(|p| p.cell.map(|c| (c.y, c.x)));
        placements
    }

    fn at(x: i32, y: i32, kind: &str) -> pb::Placement {
        pb::Placement {
            cell: Some(pb::Cell { x, y }),
            kind: kind.into(),
        }
    }

    #[test]
    fn a_template_reads_back_as_the_same_placements_for_either_seat() {
        let ruleset = ruleset();
        let names = Names::new(&ruleset);
        for seat in [0, 1] {
            let zone = Zone::of(&names, seat).expect("every seat sets up");
            let placements = zone.shuffled(0x9e37_79b9_7f4a_7c15);
            assert_eq!(placements.len(), 5);
            let text = zone.write(&placements, Some("7"));
            assert!(text.contains("B Bomba ×2, S Soldado ×3"), "{text}");
            assert!(text.contains("trinchera setup 7 --file"), "{text}");
            let prompted = zone.write_submitted(&placements, Submit::Prompt);
            assert!(
                prompted.contains("Submit with: file THIS_FILE"),
                "{prompted}"
            );
            assert!(!prompted.contains("trinchera setup"), "{prompted}");
            let read = zone.read(&text).expect("reads");
            assert_eq!(sorted(read), sorted(placements));
        }
    }

    #[test]
    fn seat_1_writes_from_its_own_side() {
        let ruleset = ruleset();
        let names = Names::new(&ruleset);
        let zone = Zone::of(&names, 1).expect("zone");
        // Seat 1 sits beyond row 4: its far row is 3, its back left corner c4.
        let text = zone.write(&[at(2, 3, "bomba")], None);
        let rows: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(rows, ["  3  . . .", "  4  B . ."], "{text}");
        assert!(text.contains("#    c b a"), "{text}");
        assert_eq!(
            zone.read("4 B . .\n3 . . .").expect("reads"),
            [at(2, 3, "bomba")]
        );
    }

    #[test]
    fn a_file_of_the_other_seat_reads_from_the_own_side() {
        let ruleset = ruleset();
        let names = Names::new(&ruleset);
        let zone = Zone::of(&names, 1).expect("zone");
        // Seat 0's back left corner (a1) becomes seat 1's (c4).
        let placements = zone.read("2 . . .\n1 B . S\n").expect("reads");
        assert_eq!(sorted(placements), [at(0, 3, "soldado"), at(2, 3, "bomba")]);
        assert_eq!(
            zone.mirrored(&[at(2, 3, "bomba")]),
            [at(0, 3, "bomba")],
            "mirrored left to right"
        );
    }

    #[test]
    fn rows_in_any_order_and_lowercase_codes() {
        let ruleset = ruleset();
        let names = Names::new(&ruleset);
        let zone = Zone::of(&names, 0).expect("zone");
        let placements = zone.read("1 b . s\n# c\n2 S S B\n").expect("reads");
        assert_eq!(placements.len(), 5);
        assert_eq!(placements[0], at(0, 0, "bomba"));
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let ruleset = ruleset();
        let names = Names::new(&ruleset);
        let zone = Zone::of(&names, 0).expect("zone");
        let cases = [
            ("2 S S B\n5 S S S\n", "line 2: \"5\" is not a row"),
            (
                "2 S S\n",
                "line 1: row 2 of your zone has 3 cells, the line gives 2",
            ),
            ("2 S S Z\n", "line 1: \"Z\" is not a piece code"),
            ("2 S S B\n2 S S B\n", "line 2: row 2 appears twice"),
            ("2 S S B\n", "no line for row(s) 1"),
        ];
        for (text, expected) in cases {
            let error = zone.read(text).expect_err(text).to_string();
            assert!(error.contains(expected), "{error}");
        }
        let error = zone.read("2 S S\n").expect_err("short");
        assert_eq!(
            error.words(Lang::Es),
            "línea 1: la fila 2 de tu zona tiene 3 casillas y la línea da 2"
        );
    }
}
