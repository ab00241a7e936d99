//! The tanques map (rules.md section 3): 91 pointy-top hexes in axial coordinates, their
//! labels and terrain, and the ruleset description built from them.
//!
//! Hexes are numbered 0–90 in reading order from seat 0's edge: row 1 (`r = -5`) first, each
//! row from its smallest `q`. So `a1` is hex 0 and `f11` hex 90; comparing indices compares
//! reading order, which is the canonical order of attackers in notation.

use std::sync::LazyLock;

use crate::action::Facing;
use crate::cell::Cell;
use crate::describe::{BoardInfo, BoardShape, CellInfo, Description, KindInfo, SeatInfo, Terrain};
use crate::seat::{BySeat, Seat};

/// Hexes on the board.
pub(crate) const HEXES: usize = 91;
/// Hexes from the centre to a corner: `|q|`, `|r|`, `|q + r|` are at most this.
const RADIUS: i8 = 5;
/// Hexes in the widest row.
const WIDTH: u8 = 2 * RADIUS as u8 + 1;
/// A neighbour that is off the board.
pub(crate) const OFF: u8 = 0xFF;
/// Urban hexes on the board.
pub(crate) const URBAN_HEXES: usize = 7;

/// Urban hexes by axial `(q, r)`, as rules.md names them: c4 c6 c9 f3 f6 g8 i6.
const URBAN: [(i8, i8); URBAN_HEXES] =
    [(-1, -2), (-3, 0), (-3, 3), (3, -3), (0, 0), (1, 2), (3, 0)];
/// Swamp hexes by axial `(q, r)`, as rules.md names them: b7 c3 e7 f5 f9 i5.
const SWAMP: [(i8, i8); 6] = [(-4, 1), (0, -3), (-1, 1), (1, -1), (0, 3), (4, -1)];

/// What a hex is, for the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ground {
    /// Nothing special.
    Open,
    /// Tanks standing here cannot turn.
    Swamp,
    /// An urban hex, with its index into the control table (reading order).
    Urban(u8),
    /// One of the seat's entry hexes.
    Entry(Seat),
}

/// The map as lookup tables, built at compile time.
pub(crate) struct Board {
    /// Axial `(q, r)` of each hex.
    pub(crate) coords: [(i8, i8); HEXES],
    /// `neighbours[hex][facing]`: the hex one step that way, or [`OFF`].
    pub(crate) neighbours: [[u8; 6]; HEXES],
    /// What each hex is.
    pub(crate) ground: [Ground; HEXES],
    /// Each seat's entry hexes, in reading order.
    pub(crate) entries: BySeat<[u8; 6]>,
    /// The urban hexes, in reading order (their control-table order).
    pub(crate) urban: [u8; URBAN_HEXES],
}

/// The tanques map.
pub(crate) static BOARD: Board = Board::new();

/// The smallest `q` of the row with axial `r`.
const fn row_start(r: i8) -> i8 {
    if r < 0 { -RADIUS - r } else { -RADIUS }
}

/// The index of the first hex of the row with axial `r`.
const fn row_offset(r: i8) -> i16 {
    let mut offset = 0;
    let mut row = -RADIUS;
    while row < r {
        offset += WIDTH as i16 - row.unsigned_abs() as i16;
        row += 1;
    }
    offset
}

/// The hex at axial `(q, r)`, or [`OFF`]. Any `i8` may come from a request, so the bounds
/// use `unsigned_abs`: `i8::MIN.abs()` overflows.
const fn index(q: i8, r: i8) -> u8 {
    const BOUND: u8 = RADIUS as u8;
    let on_board =
        q.unsigned_abs() <= BOUND && r.unsigned_abs() <= BOUND && (q + r).unsigned_abs() <= BOUND;
    if on_board {
        (row_offset(r) + (q - row_start(r)) as i16) as u8
    } else {
        OFF
    }
}

impl Board {
    const fn new() -> Board {
        let mut board = Board {
            coords: [(0, 0); HEXES],
            neighbours: [[OFF; 6]; HEXES],
            ground: [Ground::Open; HEXES],
            entries: BySeat([[0; 6]; 2]),
            urban: [0; URBAN_HEXES],
        };
        let mut r = -RADIUS;
        while r <= RADIUS {
            let mut q = row_start(r);
            while index(q, r) != OFF {
                let hex = index(q, r) as usize;
                board.coords[hex] = (q, r);
                let mut facing = 0;
                while facing < 6 {
                    let (dq, dr) = Facing::from_index(facing as u8).delta();
                    board.neighbours[hex][facing] = index(q + dq, r + dr);
                    facing += 1;
                }
                if r == -RADIUS {
                    board.ground[hex] = Ground::Entry(Seat::First);
                    board.entries.0[0][(q - row_start(r)) as usize] = hex as u8;
                } else if r == RADIUS {
                    board.ground[hex] = Ground::Entry(Seat::Second);
                    board.entries.0[1][(q - row_start(r)) as usize] = hex as u8;
                }
                q += 1;
            }
            r += 1;
        }
        let mut i = 0;
        while i < SWAMP.len() {
            board.ground[index(SWAMP[i].0, SWAMP[i].1) as usize] = Ground::Swamp;
            i += 1;
        }
        i = 0;
        while i < URBAN.len() {
            board.ground[index(URBAN[i].0, URBAN[i].1) as usize] = Ground::Urban(0);
            i += 1;
        }
        let mut hex = 0;
        let mut next = 0;
        while hex < HEXES {
            if let Ground::Urban(_) = board.ground[hex] {
                board.ground[hex] = Ground::Urban(next as u8);
                board.urban[next] = hex as u8;
                next += 1;
            }
            hex += 1;
        }
        board
    }
}

/// The hex of an API cell, if it is on the board.
pub(crate) fn hex(cell: Cell) -> Option<u8> {
    Some(index(cell.x, cell.y)).filter(|&hex| hex != OFF)
}

/// The API cell of a hex.
pub(crate) fn cell(hex: u8) -> Cell {
    let (q, r) = BOARD.coords[usize::from(hex)];
    Cell::new(q, r)
}

/// The label of a hex, e.g. `f6` for the centre: the letter counts from the left of its row,
/// the number is the row from seat 0's edge.
pub(crate) fn label(hex: u8) -> String {
    let (q, r) = BOARD.coords[usize::from(hex)];
    Cell::new(q - row_start(r), r + RADIUS)
        .grid_label()
        .to_string()
}

/// The hex labelled `text`, if the label names one (`a1`…`f1`, …, `a6`…`k6`, …).
pub(crate) fn parse_label(text: &str) -> Option<u8> {
    // The syntax is a grid label's: the letter counts from the left, the number is the row.
    let grid = Cell::parse_grid_label(text)?;
    let r = grid.y.checked_sub(RADIUS)?;
    if r.abs() > RADIUS {
        return None;
    }
    let q = row_start(r).checked_add(grid.x)?;
    Some(index(q, r)).filter(|&hex| hex != OFF)
}

/// The ruleset description, built once.
pub(crate) fn description() -> &'static Description {
    static DESCRIPTION: LazyLock<Description> = LazyLock::new(describe);
    &DESCRIPTION
}

fn describe() -> Description {
    let cells = (0..HEXES as u8)
        .map(|hex| CellInfo {
            cell: cell(hex),
            label: label(hex),
            terrain: match BOARD.ground[usize::from(hex)] {
                Ground::Open => Terrain::Open,
                Ground::Swamp => Terrain::Swamp,
                Ground::Urban(_) => Terrain::Urban,
                Ground::Entry(seat) => Terrain::Entry(seat),
            },
        })
        .collect();
    Description {
        id: "tanques",
        name: "Tanques",
        summary: "Hex tank battle for 12 rounds. Each turn: bring tanks in from your edge and \
                  maneuver up to 3 of them plus one per urban hex you hold (each at most 2 \
                  steps forward and 2 turns of 60°, never turning on a swamp), then attack \
                  enemy tanks your cannons face; a die decides each attack, more attackers \
                  need a lower roll. After round 12 both sides may still attack until both \
                  stop. Most urban hexes wins, then more tanks left. The dice come from a seed \
                  committed to in every view (SHA-256) and revealed at the end.",
        seats: BySeat([
            SeatInfo {
                name: "Rojo",
                role: "enters from row 1 (a1-f1) and plays first in every round",
            },
            SeatInfo {
                name: "Azul",
                role: "enters from row 11 (a11-f11) and plays second in every round",
            },
        ]),
        board: BoardInfo {
            shape: BoardShape::Hex,
            width: WIDTH,
            height: WIDTH,
            cells,
            links: Vec::new(),
        },
        kinds: vec![KindInfo {
            id: "tanque",
            name: "Tanque",
            code: 'T',
            rank: None,
            count: 12,
            movable: true,
            seat: None,
            note: "moves forward the way its cannon faces and attacks the hex in front of it",
        }],
        setup_zones: Vec::new(),
        notation_help: "enter f1 NE (a tank from reserve onto one of your entry hexes, facing \
                        E, NE, NW, W, SW or SE); e4 FLF (the tank on e4 maneuvers: F one hex \
                        forward, L or R a 60° turn); attack e5 from d5 d6 advance d5 casualty \
                        d6 (advance and casualty are optional: by default nobody advances and \
                        the first attacker named is lost on a failed attack); end (closes the \
                        movement or attack phase). A phase in which end is all you can do is \
                        passed for you.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_round_trip_in_reading_order() {
        assert_eq!(label(0), "a1");
        assert_eq!(label(5), "f1");
        assert_eq!(label(45), "f6");
        assert_eq!(cell(45), Cell::new(0, 0));
        assert_eq!(label(90), "f11");
        assert_eq!(cell(90), Cell::new(0, 5));
        assert_eq!(cell(0), Cell::new(0, -5));
        for index in 0..HEXES as u8 {
            assert_eq!(parse_label(&label(index)), Some(index));
            assert_eq!(hex(cell(index)), Some(index));
        }
        for bad in [
            "", "a", "a0", "a12", "g1", "l6", "k7", "A1", "a01", "a1x", "é6", "f-1",
        ] {
            assert_eq!(parse_label(bad), None, "{bad}");
        }
        assert_eq!(hex(Cell::new(5, 1)), None);
        assert_eq!(hex(Cell::new(-6, 0)), None);
        for far in [i8::MIN, i8::MIN + 1, i8::MAX] {
            assert_eq!(hex(Cell::new(far, 0)), None, "{far}");
            assert_eq!(hex(Cell::new(0, far)), None, "{far}");
            assert_eq!(hex(Cell::new(far, far)), None, "{far}");
        }
    }

    #[test]
    fn neighbours_are_symmetric() {
        let mut links = 0;
        for hex in 0..HEXES {
            for facing in Facing::ALL {
                let next = BOARD.neighbours[hex][facing as usize];
                if next != OFF {
                    links += 1;
                    let back = facing.left().left().left();
                    assert_eq!(
                        BOARD.neighbours[usize::from(next)][back as usize],
                        hex as u8
                    );
                }
            }
        }
        // Along each of the three axes the 91 hexes form 11 lines, so 80 edges; both ways.
        assert_eq!(links, 2 * 3 * 80);
    }

    /// The map as rules.md draws it, rebuilt from the tables: every urban and swamp hex of
    /// the rule book's list must sit where its drawing has it.
    #[test]
    fn terrain_matches_the_rule_book_drawing() {
        const DRAWING: &str = "\
11      1 1 1 1 1 1
10     . . . . . . .
 9    . . U . . S . .
 8   . . . . . . U . .
 7  . S . . S . . . . .
 6 . . U . . U . . U . .
 5  . . . . . S . . S .
 4   . . U . . . . . .
 3    . . S . . U . .
 2     . . . . . . .
 1      0 0 0 0 0 0";
        let mut drawn = Vec::new();
        for r in (-RADIUS..=RADIUS).rev() {
            let mut line = format!(
                "{:>2} {}",
                r + RADIUS + 1,
                " ".repeat(r.unsigned_abs() as usize)
            );
            let row: Vec<&str> = (0..HEXES as u8)
                .filter(|&hex| BOARD.coords[usize::from(hex)].1 == r)
                .map(|hex| match BOARD.ground[usize::from(hex)] {
                    Ground::Open => ".",
                    Ground::Swamp => "S",
                    Ground::Urban(_) => "U",
                    Ground::Entry(Seat::First) => "0",
                    Ground::Entry(Seat::Second) => "1",
                })
                .collect();
            line.push_str(&row.join(" "));
            drawn.push(line);
        }
        assert_eq!(drawn.join("\n"), DRAWING);
        let names = |ground: fn(Ground) -> bool| {
            let mut names: Vec<String> = (0..HEXES as u8)
                .filter(|&hex| ground(BOARD.ground[usize::from(hex)]))
                .map(label)
                .collect();
            names.sort();
            names.join(" ")
        };
        assert_eq!(
            names(|g| matches!(g, Ground::Urban(_))),
            "c4 c6 c9 f3 f6 g8 i6"
        );
        assert_eq!(names(|g| g == Ground::Swamp), "b7 c3 e7 f5 f9 i5");
        let urban: Vec<String> = BOARD.urban.iter().map(|&hex| label(hex)).collect();
        assert_eq!(urban, ["f3", "c4", "c6", "f6", "i6", "g8", "c9"]);
        let entries = BOARD.entries.map(|hexes| hexes.map(label));
        assert_eq!(entries[Seat::First], ["a1", "b1", "c1", "d1", "e1", "f1"]);
        assert_eq!(
            entries[Seat::Second],
            ["a11", "b11", "c11", "d11", "e11", "f11"]
        );
    }

    #[test]
    fn description_lists_every_hex() {
        let description = description();
        assert_eq!(description.board.cells.len(), HEXES);
        assert_eq!(description.cell_by_label("f6"), Some(Cell::new(0, 0)));
        assert_eq!(description.cell_by_label("a11"), Some(Cell::new(-5, 5)));
        let terrain = |label| {
            description
                .cell(description.cell_by_label(label)?)
                .map(|c| c.terrain)
        };
        assert_eq!(terrain("c4"), Some(Terrain::Urban));
        assert_eq!(terrain("b7"), Some(Terrain::Swamp));
        assert_eq!(terrain("a1"), Some(Terrain::Entry(Seat::First)));
        assert_eq!(terrain("f11"), Some(Terrain::Entry(Seat::Second)));
        assert_eq!(terrain("a2"), Some(Terrain::Open));
    }
}
