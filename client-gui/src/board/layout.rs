//! Where a board's cells land in pixels: the size of a cell and where the first one is, a
//! grid's fitted into the room it has, and the centre of each cell.

use eframe::egui::{Pos2, Vec2, pos2, vec2};
use trinchera_client::Geometry;
use trinchera_proto::v1 as pb;

/// Where the board's cells land in pixels.
#[derive(Clone, Copy, Debug)]
pub(super) struct Layout {
    /// Where the centre of the cell at screen column and row 0 is, from the board's corner.
    pub(super) origin: Pos2,
    /// Pixels per abstract column and per row.
    pub(super) unit: Vec2,
    /// Hexes: the circumradius; grids: half a cell.
    pub(super) size: f32,
}

impl Layout {
    /// The layout of a grid of `cells` (columns and rows) fitted into `available`, leaving
    /// a margin for the coordinates, and the size it takes.
    pub(super) fn grid(cells: Vec2, available: Vec2) -> (Layout, Vec2) {
        let (columns, rows) = (cells.x, cells.y);
        let cell = (available.x / (columns + 1.2))
            .min(available.y / (rows + 1.2))
            .clamp(16.0, 96.0);
        let total = vec2((columns + 1.2) * cell, (rows + 1.2) * cell);
        let origin = pos2(cell * 1.1, cell * 1.1);
        (
            Layout {
                origin,
                unit: vec2(cell, cell),
                size: cell / 2.0,
            },
            total,
        )
    }

    /// The centre of the cell at `(x, y)`.
    pub(super) fn centre(&self, geometry: &Geometry, top_left: Pos2, cell: pb::Cell) -> Pos2 {
        let spot = geometry.spot(cell.x, cell.y);
        top_left
            + self.origin.to_vec2()
            + vec2(
                spot.column as f32 * self.unit.x,
                spot.row as f32 * self.unit.y,
            )
    }
}
