//! What distinguishes one army ruleset from another, as data, and the tables derived from it
//! once per ruleset.

use super::bits::{self, Bits, MAX_SIDE, STRIDE};
use crate::cell::Cell;
use crate::describe::{
    BoardInfo, BoardShape, CellInfo, Description, KindId, KindInfo, SeatInfo, SetupZone, Terrain,
};
use crate::effect::BattleResult;
use crate::seat::{BySeat, Seat};

/// Padded squares: the widest board needs 12 rows of [`STRIDE`] (see [`bits`]); tables have
/// 256 entries so that indexing them by a `u8` square needs no bounds check.
pub(crate) const PADDED_CELLS: usize = 256;
/// Most pieces on a board (two armies of 40).
pub(crate) const MAX_PIECES: usize = 80;
/// Rows of each seat's setup zone, counted from its own edge.
const SETUP_ROWS: i8 = 4;

/// How a kind moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mobility {
    /// Never moves (bombs, flags).
    Immovable,
    /// One square per turn.
    Step,
    /// Any number of empty squares in a line; `attack_at_range` allows attacking the first
    /// piece met at the end of the line (clasico's Explorador).
    Long {
        /// Whether a multi-square move may end in an attack.
        attack_at_range: bool,
    },
}

/// One kind of an army ruleset.
#[derive(Clone, Copy, Debug)]
pub struct KindSpec {
    /// Stable id.
    pub id: &'static str,
    /// Spanish name.
    pub name: &'static str,
    /// Position-text code (uppercase).
    pub code: char,
    /// Rank, if battles compare it.
    pub rank: Option<u8>,
    /// Pieces per army.
    pub count: u8,
    /// How it moves.
    pub mobility: Mobility,
    /// Captured means the game is lost.
    pub is_flag: bool,
    /// What is special about it.
    pub note: &'static str,
}

impl KindSpec {
    /// A ranked kind that steps one square; change `mobility` or `is_flag` with struct
    /// update syntax for the others.
    pub const fn ranked(
        id: &'static str,
        name: &'static str,
        code: char,
        rank: u8,
        count: u8,
        note: &'static str,
    ) -> KindSpec {
        KindSpec {
            id,
            name,
            code,
            rank: Some(rank),
            count,
            mobility: Mobility::Step,
            is_flag: false,
            note,
        }
    }
}

/// Everything that makes an army ruleset what it is.
#[derive(Debug)]
pub struct VariantData {
    /// Ruleset id.
    pub id: &'static str,
    /// Display name.
    pub name: &'static str,
    /// A paragraph for clients.
    pub summary: &'static str,
    /// Board columns.
    pub width: i8,
    /// Board rows.
    pub height: i8,
    /// Lake squares.
    pub lakes: &'static [Cell],
    /// Castle squares (castillos).
    pub castles: &'static [Cell],
    /// Trench squares (castillos).
    pub trenches: &'static [Cell],
    /// The kinds; a piece's kind indexes this list.
    pub kinds: &'static [KindSpec],
    /// How many times in a row a piece may shuttle between two squares.
    pub repetition_limit: u8,
    /// The winner of `attacker` against `defender` (kinds index `kinds`).
    pub battle: fn(attacker: KindId, defender: KindId) -> BattleResult,
}

/// A variant's data with its derived tables, built once.
#[derive(Debug)]
pub struct Spec {
    /// The source data.
    pub data: &'static VariantData,
    /// Per padded square: on the board and not a lake.
    pub open: [bool; PADDED_CELLS],
    /// Per padded square: a trench.
    pub trench: [bool; PADDED_CELLS],
    /// The squares on the board that are not lakes.
    pub(crate) open_squares: Bits,
    /// The open squares that are not trenches: where an enemy piece may be attacked.
    pub(crate) exposed_squares: Bits,
    /// Whether the ruleset's runners ([`Mobility::Long`]; all of them alike) may attack at
    /// the end of a long move.
    pub(crate) runners_attack_at_range: bool,
    /// Padded squares of the castles, in `data.castles` order.
    pub castles: Vec<u8>,
    /// `battle[attacker][defender]`.
    pub battle: Vec<Vec<BattleResult>>,
    /// The public description.
    pub description: Description,
}

/// The seat names of every army game.
const SEATS: BySeat<SeatInfo> = BySeat([
    SeatInfo {
        name: "Rojo",
        role: "sets up in rows 1-4 and moves first",
    },
    SeatInfo {
        name: "Azul",
        role: "sets up in the top four rows",
    },
]);

impl Spec {
    /// Derives the tables of `data`.
    pub fn new(data: &'static VariantData) -> Spec {
        assert!(
            (1..=MAX_SIDE as i8).contains(&data.width)
                && (1..=MAX_SIDE as i8).contains(&data.height),
            "{}: boards have at most {MAX_SIDE} columns and rows",
            data.id
        );
        let runner_ranges = data.kinds.iter().filter_map(|kind| match kind.mobility {
            Mobility::Long { attack_at_range } => Some(attack_at_range),
            _ => None,
        });
        let runners_attack_at_range = runner_ranges.clone().any(|range| range);
        assert!(
            runner_ranges
                .clone()
                .all(|range| range == runners_attack_at_range),
            "{}: all runners attack alike",
            data.id
        );
        let mut spec = Spec {
            data,
            open: [false; PADDED_CELLS],
            trench: [false; PADDED_CELLS],
            open_squares: 0,
            exposed_squares: 0,
            runners_attack_at_range,
            castles: Vec::new(),
            battle: Vec::new(),
            description: describe(data),
        };
        for info in &spec.description.board.cells {
            let square = spec.square(info.cell);
            let (open, trench) = (
                info.terrain != Terrain::Lake,
                info.terrain == Terrain::Trench,
            );
            spec.open[square] = open;
            spec.trench[square] = trench;
            let bit = bits::bit(square as u8);
            if open {
                spec.open_squares |= bit;
            }
            if open && !trench {
                spec.exposed_squares |= bit;
            }
        }
        spec.castles = data.castles.iter().map(|&c| spec.square(c) as u8).collect();
        let kinds = 0..data.kinds.len() as u8;
        spec.battle = kinds
            .clone()
            .map(|a| {
                kinds
                    .clone()
                    .map(|d| (data.battle)(KindId(a), KindId(d)))
                    .collect()
            })
            .collect();
        spec
    }

    /// The padded square of a board cell.
    pub fn square(&self, cell: Cell) -> usize {
        usize::from(bits::A1) + cell.y as usize * usize::from(STRIDE) + cell.x as usize
    }

    /// The board cell of a padded square.
    pub fn cell(&self, square: u8) -> Cell {
        bits::cell(square)
    }

    /// The padded square of `cell` if it is on the board (lakes included).
    pub fn board_square(&self, cell: Cell) -> Option<usize> {
        let on_board =
            (0..self.data.width).contains(&cell.x) && (0..self.data.height).contains(&cell.y);
        on_board.then(|| self.square(cell))
    }

    /// The kind's spec.
    pub fn kind(&self, kind: u8) -> &'static KindSpec {
        &self.data.kinds[usize::from(kind)]
    }

    /// The label of a padded square.
    pub fn label(&self, square: u8) -> String {
        self.cell(square).grid_label().to_string()
    }
}

fn describe(data: &'static VariantData) -> Description {
    let mut cells = Vec::new();
    for y in 0..data.height {
        for x in 0..data.width {
            let cell = Cell::new(x, y);
            let terrain = if data.lakes.contains(&cell) {
                Terrain::Lake
            } else if data.castles.contains(&cell) {
                Terrain::Castle
            } else if data.trenches.contains(&cell) {
                Terrain::Trench
            } else {
                Terrain::Open
            };
            cells.push(CellInfo {
                cell,
                label: cell.grid_label().to_string(),
                terrain,
            });
        }
    }
    let kinds: Vec<KindInfo> = data
        .kinds
        .iter()
        .map(|kind| KindInfo {
            id: kind.id,
            name: kind.name,
            code: kind.code,
            rank: kind.rank,
            count: kind.count,
            movable: kind.mobility != Mobility::Immovable,
            seat: None,
            note: kind.note,
        })
        .collect();
    let pieces: Vec<(KindId, u8)> = data
        .kinds
        .iter()
        .enumerate()
        .map(|(index, kind)| (KindId(index as u8), kind.count))
        .collect();
    let setup_zones = Seat::BOTH
        .into_iter()
        .map(|seat| {
            let rows = match seat {
                Seat::First => 0..SETUP_ROWS,
                Seat::Second => data.height - SETUP_ROWS..data.height,
            };
            SetupZone {
                seat,
                cells: cells
                    .iter()
                    .map(|info| info.cell)
                    .filter(|cell| rows.contains(&cell.y))
                    .collect(),
                hidden: true,
                pieces: pieces.clone(),
            }
        })
        .collect();
    Description {
        id: data.id,
        name: data.name,
        summary: data.summary,
        seats: SEATS,
        board: BoardInfo {
            shape: BoardShape::Square,
            width: data.width as u8,
            height: data.height as u8,
            cells,
            links: Vec::new(),
        },
        kinds,
        setup_zones,
        notation_help: "from-to by cell labels: a4-a5 moves, a4xa5 attacks (a4-a5 onto an enemy \
                        attacks too); long moves name their end square, e.g. b2-b7",
    }
}

/// Higher rank wins, equal ranks both fall: the default battle of every army ruleset.
pub fn by_rank(attacker: Option<u8>, defender: Option<u8>) -> BattleResult {
    let attacker = attacker.unwrap_or(0);
    let defender = defender.unwrap_or(0);
    match attacker.cmp(&defender) {
        std::cmp::Ordering::Greater => BattleResult::AttackerWins,
        std::cmp::Ordering::Less => BattleResult::DefenderWins,
        std::cmp::Ordering::Equal => BattleResult::BothFall,
    }
}
