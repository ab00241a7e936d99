//! What each family of boards (square grids, the cross, hexes) does its own way, one module
//! each ([`Family`]): fitting the board into its room, a cell's clickable rect, the ground
//! under the cells, a cell and a piece.

use eframe::egui::{Pos2, Rect, Vec2};

use super::layout::Layout;
use super::model::{BoardModel, CellModel, PieceModel};
use super::paint::{Canvas, CellPaint};

/// What a family of boards (square grids, the cross, hexes) draws its own way; one module
/// each.
pub(super) trait Family {
    /// The layout that fits `cells` (columns and rows) into `available`, leaving a margin
    /// for the coordinates, and the size it takes: a grid's, unless the family says.
    fn fit(&self, cells: Vec2, available: Vec2) -> (Layout, Vec2) {
        Layout::grid(cells, available)
    }

    /// The clickable rect of a cell around `centre`.
    fn cell_rect(&self, layout: &Layout, centre: Pos2) -> Rect;

    /// What lies under the cells of `model` over `rect`: the paper, and a cross's fortress
    /// and lines.
    fn ground(&self, canvas: &Canvas, model: &BoardModel, rect: Rect);

    /// A cell at `at`: its ground, terrain marks and highlight.
    fn cell(&self, canvas: &Canvas, at: Pos2, cell: &CellModel, paint: CellPaint);

    /// A piece at `at`, with its name alone on it if `names_only` (where the family writes
    /// names).
    fn piece(&self, canvas: &Canvas, at: Pos2, piece: &PieceModel, names_only: bool);

    /// How far beyond a row's end cell its name stands, in columns: just past a grid's edge,
    /// unless the family says.
    fn row_names_beyond(&self) -> f32 {
        0.8
    }
}
