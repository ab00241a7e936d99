//! What tells `asalto` from `tacticas`, and the description both publish.

use std::fmt;
use std::sync::LazyLock;

use super::OFFICER;
use super::board::{self, FORTRESS, LINES, NONE, POINTS};
use crate::describe::{
    BoardInfo, BoardShape, CellInfo, Description, KindInfo, Link, LinkKind, SeatInfo, SetupZone,
    Terrain,
};
use crate::seat::{BySeat, Seat};

/// One of the two rulesets played by the [`Siege`](super::Siege) engine.
pub trait Variant: Copy + Default + fmt::Debug + Send + Sync + 'static {
    /// Whether the horizontal lines of rows 1–4 are marked, so that rebels may not move
    /// along them (German Tactics).
    const MARKED: bool;

    /// The ruleset's description, built once.
    fn description() -> &'static Description;
}

/// `asalto`: every line is open to every piece.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Asalto;

/// `tacticas` (German Tactics): the horizontal lines of rows 1–4 are closed to rebels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Tacticas;

/// The rules both variants share, for their summaries.
macro_rules! common_summary {
    () => {
        "24 rebels (seat 0, moving first) besiege the 9-point fortress at the top of the \
         33-point cross, held by 2 officers. Rebels step along a line, never to a lower row, \
         and never capture; they win by filling the fortress or trapping or huffing both \
         officers. Officers step along any line or capture by jumping a rebel to the empty \
         point beyond, in chains that may turn between jumps; they win when fewer than 9 \
         rebels remain or the rebels cannot move. An officer that could have captured but \
         did not may be huffed (removed) by the rebels before their next move. 100 turns \
         without a capture, a huff or a rebel advance draw."
    };
}

impl Variant for Asalto {
    const MARKED: bool = false;

    fn description() -> &'static Description {
        static DESCRIPTION: LazyLock<Description> = LazyLock::new(|| {
            describe::<Asalto>(
                "asalto",
                "Asalto",
                concat!(
                    "Asalto, the siege game grown out of Fox and Geese. ",
                    common_summary!()
                ),
            )
        });
        &DESCRIPTION
    }
}

impl Variant for Tacticas {
    const MARKED: bool = true;

    fn description() -> &'static Description {
        static DESCRIPTION: LazyLock<Description> = LazyLock::new(|| {
            describe::<Tacticas>(
                "tacticas",
                "Tácticas alemanas",
                concat!(
                    "German Tactics: Asalto with the horizontal lines of rows 1-4 marked. \
                     Rebels may not move along marked lines, so they move sideways only on \
                     rows 5-7; officers use every line. ",
                    common_summary!()
                ),
            )
        });
        &DESCRIPTION
    }
}

/// The description of variant `V`.
fn describe<V: Variant>(
    id: &'static str,
    name: &'static str,
    summary: &'static str,
) -> Description {
    let cells: Vec<CellInfo> = board::squares(POINTS)
        .map(|s| CellInfo {
            cell: board::cell(s),
            label: board::label(s),
            terrain: if FORTRESS & board::bit(s) != 0 {
                Terrain::Fortress
            } else {
                Terrain::Open
            },
        })
        .collect();
    // Every line once: from each point towards east, north-east, north and north-west
    // (directions 0–3).
    let links = board::squares(POINTS)
        .flat_map(|s| (0..4).map(move |d| (s, d)))
        .filter_map(|(s, d)| {
            let next = LINES.neighbour[usize::from(s)][d];
            (next != NONE).then(|| Link {
                a: board::cell(s),
                b: board::cell(next),
                kind: if d % 2 == 1 {
                    LinkKind::Diagonal
                } else if V::MARKED && board::marked(board::row(s), d) {
                    LinkKind::Marked
                } else {
                    LinkKind::Orthogonal
                },
            })
        })
        .collect();
    let fortress = board::squares(FORTRESS).map(board::cell).collect();
    Description {
        id,
        name,
        summary,
        seats: BySeat([
            SeatInfo {
                name: "Rebeldes",
                role: "24 rebels on every point outside the fortress; move first; take the \
                       fortress or trap both officers",
            },
            SeatInfo {
                name: "Oficiales",
                role: "2 officers placed on any fortress points; capture rebels until fewer \
                       than 9 remain",
            },
        ]),
        board: BoardInfo {
            shape: BoardShape::Cross,
            width: 7,
            height: 7,
            cells,
            links,
        },
        kinds: vec![
            KindInfo {
                id: "rebelde",
                name: "Rebelde",
                code: 'R',
                rank: None,
                count: 24,
                movable: true,
                seat: Some(Seat::First),
                note: "steps one point along a line to an empty point, never to a lower row \
                       (in German Tactics never along a marked line); never captures",
            },
            KindInfo {
                id: "oficial",
                name: "Oficial",
                code: 'O',
                rank: None,
                count: 2,
                movable: true,
                seat: Some(Seat::Second),
                note: "steps along any line, or captures by jumping an adjacent rebel, in \
                       chains; may be huffed after missing a capture",
            },
        ],
        setup_zones: vec![SetupZone {
            seat: Seat::Second,
            cells: fortress,
            hidden: false,
            pieces: vec![(OFFICER, 2)],
        }],
        notation_help: "a step names two points: d1-d2. An officer's capture names its start \
                        and every landing point: d5xd3, or d5xd3xf3 for a chain (each prefix \
                        of a chain is a move of its own). Before their move, the rebels may \
                        remove an officer that missed a capture: huff d6.",
    }
}
