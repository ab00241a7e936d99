//! What a board shows, as plain data: its cells with their terrain, tint, piece, highlight
//! and label, the lines of a cross, the coordinates along the edges, and how the player
//! likes it drawn. Every family of boards is drawn from this one model.

use trinchera_client::Geometry;
use trinchera_proto::v1 as pb;

/// How a cell is highlighted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// The selected piece (or the cell picked first).
    Selected,
    /// A place the selection may go or act on.
    Target,
    /// Part of a path being built (a capture chain, a maneuver preview).
    Path,
    /// A cell of the last move.
    LastMove,
}

/// A piece as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceModel {
    /// The owning seat.
    pub owner: i32,
    /// Whether the viewer owns it.
    pub own: bool,
    /// The kind's name, if the viewer knows it.
    pub name: Option<String>,
    /// The kind's one-letter code, if known.
    pub code: Option<String>,
    /// The rank, if known and ranked.
    pub rank: Option<i32>,
    /// Whether it has moved (shown on hidden enemy pieces).
    pub moved: bool,
    /// Whether the opponent knows its kind (shown on the viewer's own pieces).
    pub revealed: bool,
    /// A tank's facing on screen, in sixths of a turn counter-clockwise from the right.
    pub facing: Option<u8>,
    /// A tank that has maneuvered or attacked this turn (drawn faded).
    pub spent: bool,
}

/// One cell as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct CellModel {
    /// Its coordinates.
    pub cell: pb::Cell,
    /// Its accessible label, e.g. "e4, your Capitán, selected".
    pub label: String,
    /// What it is made of.
    pub terrain: pb::Terrain,
    /// The seat whose colour tints it: an entry hex's, a setup zone's, an urban hex's
    /// controller.
    pub tint: Option<i32>,
    /// What stands on it.
    pub piece: Option<PieceModel>,
    /// Its highlight.
    pub mark: Option<Mark>,
    /// The letters of its label, drawn inside it (hex boards: their letters count from the
    /// left end of each row, so no edge can carry them).
    pub caption: Option<String>,
}

/// A row's name, drawn beyond both ends of the row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowLabel {
    /// The screen row.
    pub row: i32,
    /// The screen column of the row's first cell.
    pub first: i32,
    /// The screen column of the row's last cell.
    pub last: i32,
    /// The name, e.g. "5".
    pub text: String,
}

/// Everything [`board_ui`](super::board_ui) draws: plain data, built from the ruleset and a
/// view ([`BoardModel::new`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BoardModel {
    /// Where the cells go.
    pub geometry: Geometry,
    /// Every cell.
    pub cells: Vec<CellModel>,
    /// Lines of a cross board.
    pub links: Vec<(pb::Cell, pb::Cell, pb::LinkKind)>,
    /// Column names along the top and bottom edges, by screen column.
    pub columns: Vec<(i32, String)>,
    /// Row names along the side edges.
    pub rows: Vec<RowLabel>,
    /// How strongly the last move flashes, from 1 (just played) to 0.
    pub flash: f32,
    /// How the player likes the board drawn.
    pub look: Look,
}

/// How the player likes boards drawn (a setting kept between runs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Look {
    /// Turned by 180° from the usual side (the viewer's own, seat 0's for a spectator).
    pub flipped: bool,
    /// Piece names on the tiles instead of rank numbers.
    pub names: bool,
}

impl Look {
    /// The look as a stored setting: `flipped,names`, either, or empty.
    pub fn to_setting(self) -> String {
        let mut parts = Vec::new();
        if self.flipped {
            parts.push("flipped");
        }
        if self.names {
            parts.push("names");
        }
        parts.join(",")
    }

    /// The look of a stored setting (unknown words are ignored).
    pub fn of_setting(text: &str) -> Look {
        let words: Vec<&str> = text.split(',').map(str::trim).collect();
        Look {
            flipped: words.contains(&"flipped"),
            names: words.contains(&"names"),
        }
    }
}
