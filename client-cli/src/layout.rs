//! Setup files: a player's own setup zone as readable text.
//!
//! ```text
//! # comments start with '#'; blank lines are ignored
//! #   a b c d e f g h i j
//! 4   S S R T . . .            one line per row of the zone: the row number, then one
//! 3   ...                      piece code per cell of the zone in that row, from the
//! ```                          leftmost column as seat 0 sees the board ('.': empty)
//!
//! Rows may come in any order; codes are `PieceKind.code` in either case. Only the syntax
//! is checked here; the server checks the rules and reports every problem at once.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use trinchera_proto::v1 as pb;

use trinchera_client::Names;

/// The cells of a seat's zone by row, each row ordered from the left (x ascending).
#[derive(Debug)]
pub struct Zone<'a> {
    names: &'a Names<'a>,
    zone: &'a pb::SetupZone,
    rows: BTreeMap<i32, Vec<pb::Cell>>,
}

impl<'a> Zone<'a> {
    /// The zone of `seat`, if it sets up.
    pub fn of(names: &'a Names<'a>, seat: i32) -> Option<Zone<'a>> {
        let zone = names.ruleset.setup_zones.iter().find(|z| z.seat == seat)?;
        let mut rows: BTreeMap<i32, Vec<pb::Cell>> = BTreeMap::new();
        for cell in &zone.cells {
            rows.entry(cell.y).or_default().push(*cell);
        }
        for cells in rows.values_mut() {
            cells.sort_by_key(|c| c.x);
        }
        Some(Zone { names, zone, rows })
    }

    /// The row number of row `y` as labels write it.
    fn row_name(&self, y: i32) -> String {
        self.rows
            .get(&y)
            .and_then(|cells| cells.first())
            .and_then(|c| self.names.label_at(c.x, c.y))
            .map(|label| {
                label
                    .trim_start_matches(|c: char| c.is_alphabetic())
                    .to_owned()
            })
            .unwrap_or_default()
    }

    /// A commented layout of this zone with the pieces of `placements` (others empty).
    pub fn write(&self, placements: &[pb::Placement]) -> String {
        let by_cell: HashMap<(i32, i32), &str> = placements
            .iter()
            .filter_map(|p| Some(((p.cell.as_ref()?.x, p.cell.as_ref()?.y), p.kind.as_str())))
            .collect();
        let names = self.names;
        let seat = self.zone.seat;
        let mut text = format!(
            "# Setup of {} (seat {seat}) for {}.\n\
             # One line per row of the zone: the row number, then one piece code per cell from\n\
             # the left as seat 0 sees the board ('.' leaves a cell empty). Lines starting with\n\
             # '#' are comments. Submit with: trinchera setup GAME --file THIS_FILE\n",
            names.seat(seat),
            names.ruleset.id
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
        // Rows from the far side of the board as seat 0 sees it: the highest row first.
        let mut header = String::new();
        for (y, cells) in self.rows.iter().rev() {
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
            let codes: Vec<String> = cells
                .iter()
                .map(
                    |c| match by_cell.get(&(c.x, c.y)).and_then(|k| names.kind(k)) {
                        Some(kind) => kind.code.to_uppercase(),
                        None => ".".to_owned(),
                    },
                )
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
        let mut kinds: Vec<String> = self
            .zone
            .pieces
            .iter()
            .flat_map(|count| std::iter::repeat_n(count.kind.clone(), count.count.max(0) as usize))
            .collect();
        let mut cells: Vec<pb::Cell> = self.rows.values().flatten().copied().collect();
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

    /// Reads a layout; the errors name the line and what is wrong.
    pub fn read(&self, text: &str) -> Result<Vec<pb::Placement>, String> {
        let names = self.names;
        let row_of: HashMap<String, i32> =
            self.rows.keys().map(|y| (self.row_name(*y), *y)).collect();
        let all_rows: Vec<String> = self.rows.keys().rev().map(|y| self.row_name(*y)).collect();
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
            let Some(&y) = row_of.get(row) else {
                return Err(format!(
                    "line {number}: {row:?} is not a row of your setup zone (rows: {}); \
                     each line starts with its row number",
                    all_rows.join(", ")
                ));
            };
            if !seen.insert(y) {
                return Err(format!("line {number}: row {row} appears twice"));
            }
            let cells = &self.rows[&y];
            let codes: Vec<&str> = tokens.collect();
            if codes.len() != cells.len() {
                return Err(format!(
                    "line {number}: row {row} of your zone has {} cells, the line gives {}",
                    cells.len(),
                    codes.len()
                ));
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
                    format!(
                        "line {number}: {code:?} is not a piece code (codes: {}; '.' is empty)",
                        known.join(" ")
                    )
                })?;
                placements.push(pb::Placement {
                    cell: Some(*cell),
                    kind: kind.id.clone(),
                });
            }
        }
        let missing: Vec<String> = self
            .rows
            .keys()
            .rev()
            .filter(|y| !seen.contains(y))
            .map(|y| self.row_name(*y))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "the layout has no line for row(s) {}",
                missing.join(", ")
            ));
        }
        Ok(placements)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use trinchera_client::Names;

    /// Two rows of three cells for seat 0 with two kinds.
    fn ruleset() -> pb::Ruleset {
        let mut cells = Vec::new();
        let mut zone = Vec::new();
        for y in 0..2 {
            for x in 0..3 {
                cells.push(pb::CellInfo {
                    cell: Some(pb::Cell { x, y }),
                    label: format!("{}{}", (b'a' + x as u8) as char, y + 1),
                    ..Default::default()
                });
                zone.push(pb::Cell { x, y });
            }
        }
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
            setup_zones: vec![pb::SetupZone {
                seat: 0,
                cells: zone,
                hidden: true,
                pieces: vec![
                    pb::PieceCount {
                        kind: "bomba".into(),
                        count: 2,
                    },
                    pb::PieceCount {
                        kind: "soldado".into(),
                        count: 3,
                    },
                ],
            }],
            ..Default::default()
        }
    }

    #[test]
    fn a_template_reads_back_as_the_same_placements() {
        let ruleset = ruleset();
        let names = Names::new(&ruleset);
        let zone = Zone::of(&names, 0).expect("seat 0 sets up");
        let placements = zone.shuffled(0x9e37_79b9_7f4a_7c15);
        assert_eq!(placements.len(), 5);
        let text = zone.write(&placements);
        assert!(text.contains("B Bomba ×2, S Soldado ×3"), "{text}");
        let mut read = zone.read(&text).expect("reads");
        let mut expected = placements;
        let key = |p: &pb::Placement| p.cell.map(|c| (c.y, c.x));
        read.sort_by_key(key);
        expected.sort_by_key(key);
        assert_eq!(read, expected);
    }

    #[test]
    fn rows_in_any_order_and_lowercase_codes() {
        let ruleset = ruleset();
        let names = Names::new(&ruleset);
        let zone = Zone::of(&names, 0).expect("zone");
        let placements = zone.read("1 b . s\n# c\n2 S S B\n").expect("reads");
        assert_eq!(placements.len(), 5);
        assert_eq!(placements[0].kind, "bomba");
        assert_eq!(placements[0].cell, Some(pb::Cell { x: 0, y: 0 }));
    }

    #[test]
    fn syntax_errors_name_the_line() {
        let ruleset = ruleset();
        let names = Names::new(&ruleset);
        let zone = Zone::of(&names, 0).expect("zone");
        let cases = [
            ("2 S S B\n3 S S S\n", "line 2: \"3\" is not a row"),
            (
                "2 S S\n",
                "line 1: row 2 of your zone has 3 cells, the line gives 2",
            ),
            ("2 S S Z\n", "line 1: \"Z\" is not a piece code"),
            ("2 S S B\n2 S S B\n", "line 2: row 2 appears twice"),
            ("2 S S B\n", "no line for row(s) 1"),
        ];
        for (text, expected) in cases {
            let error = zone.read(text).expect_err(text);
            assert!(error.contains(expected), "{error}");
        }
    }
}
