//! Ruleset descriptions: everything a client needs to draw any board and set up any army,
//! without knowing the rules.

use crate::cell::Cell;
use crate::seat::{BySeat, Seat};

/// A complete, static description of one ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Description {
    /// Stable lowercase id, e.g. `frente`.
    pub id: &'static str,
    /// Display name, e.g. "Combate en el Frente".
    pub name: &'static str,
    /// A paragraph on what the game is and how it is won.
    pub summary: &'static str,
    /// What each seat is called and does.
    pub seats: BySeat<SeatInfo>,
    /// Geometry and terrain.
    pub board: BoardInfo,
    /// Every piece kind; a [`KindId`] indexes this list.
    pub kinds: Vec<KindInfo>,
    /// Where and what each seat places in the setup phase (empty: no setup phase).
    pub setup_zones: Vec<SetupZone>,
    /// How a move is written, with examples, for players (how a client presents the legal
    /// list is the contract's business: `GameView.legal_moves` in the proto).
    pub notation_help: &'static str,
}

impl Description {
    /// The kind with stable id `id`.
    pub fn kind_by_id(&self, id: &str) -> Option<KindId> {
        self.kinds
            .iter()
            .position(|kind| kind.id == id)
            .map(|index| KindId(index as u8))
    }

    /// The description of kind `kind`.
    ///
    /// # Panics
    /// If `kind` does not belong to this ruleset (a programming error).
    pub fn kind(&self, kind: KindId) -> &KindInfo {
        &self.kinds[kind.index()]
    }

    /// The setup zone of `seat`, if that seat places pieces before play.
    pub fn setup_zone(&self, seat: Seat) -> Option<&SetupZone> {
        self.setup_zones.iter().find(|zone| zone.seat == seat)
    }

    /// The board cell at `cell`, if it exists.
    pub fn cell(&self, cell: Cell) -> Option<&CellInfo> {
        self.board.cells.iter().find(|info| info.cell == cell)
    }

    /// The cell labelled `label`, if any.
    pub fn cell_by_label(&self, label: &str) -> Option<Cell> {
        self.board
            .cells
            .iter()
            .find(|info| info.label == label)
            .map(|info| info.cell)
    }

    /// The label of `cell`, or its coordinates in parentheses if it is not on the board.
    pub fn label(&self, cell: Cell) -> String {
        self.cell(cell)
            .map(|info| info.label.clone())
            .unwrap_or_else(|| format!("({}, {})", cell.x, cell.y))
    }
}

/// What a seat is called and plays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatInfo {
    /// Display name, e.g. "Rojo".
    pub name: &'static str,
    /// One line on the seat's side and goal.
    pub role: &'static str,
}

/// The shape of a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardShape {
    /// Square cells, orthogonal adjacency.
    Square,
    /// Pointy-top hexes in axial coordinates.
    Hex,
    /// Points joined by lines (the Asalto cross).
    Cross,
}

/// Board geometry: its cells and, on line boards, its lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardInfo {
    /// The board's shape.
    pub shape: BoardShape,
    /// Columns spanned (square, cross) or hexes across (hex).
    pub width: u8,
    /// Rows spanned.
    pub height: u8,
    /// Every cell, in reading order from seat 0's bottom-left.
    pub cells: Vec<CellInfo>,
    /// On line boards, every line between two points.
    pub links: Vec<Link>,
}

/// One cell with its label and terrain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellInfo {
    /// Coordinates.
    pub cell: Cell,
    /// Text label used by notation, e.g. `a1`.
    pub label: String,
    /// What stands there.
    pub terrain: Terrain,
}

/// What a cell is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    /// Plain ground.
    Open,
    /// Impassable water.
    Lake,
    /// A castle: a piece may stay at most 3 turns (castillos).
    Castle,
    /// A trench: its occupant cannot be attacked (castillos).
    Trench,
    /// A swamp: a tank there cannot turn (tanques).
    Swamp,
    /// An urban hex: counts for victory and maneuvers (tanques).
    Urban,
    /// Where the given seat's tanks enter (tanques).
    Entry(Seat),
    /// Part of the fortress (asalto).
    Fortress,
}

/// A line between two points of a line board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Link {
    /// One end.
    pub a: Cell,
    /// The other end.
    pub b: Cell,
    /// What kind of line it is.
    pub kind: LinkKind,
}

/// The kind of a line on a line board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkKind {
    /// Horizontal or vertical.
    Orthogonal,
    /// Diagonal.
    Diagonal,
    /// A marked horizontal line that rebels may not use (tacticas).
    Marked,
}

/// Index of a piece kind in [`Description::kinds`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KindId(pub u8);

impl KindId {
    /// The index into [`Description::kinds`].
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// One kind of piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KindInfo {
    /// Stable lowercase ascii id, e.g. `espia`.
    pub id: &'static str,
    /// Spanish name as in the rule sheets, e.g. "Espía".
    pub name: &'static str,
    /// One-letter code of position text (uppercase; seat 1 writes it lowercase).
    pub code: char,
    /// Rank, where battles compare ranks.
    pub rank: Option<u8>,
    /// How many each seat that has this kind owns.
    pub count: u8,
    /// Whether it ever moves.
    pub movable: bool,
    /// The seat that owns this kind, if only one does.
    pub seat: Option<Seat>,
    /// What is special about it, in a sentence.
    pub note: &'static str,
}

/// Where a seat places its pieces before play, and which.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupZone {
    /// The seat that places.
    pub seat: Seat,
    /// The cells pieces may be placed on.
    pub cells: Vec<Cell>,
    /// Whether the placement is secret until revealed in play.
    pub hidden: bool,
    /// Which kinds, and how many of each, must be placed.
    pub pieces: Vec<(KindId, u8)>,
}
