//! Where each cell of a board goes on screen, as abstract positions that a client scales:
//! the CLI to character cells, the GUI to pixels. Boards are seen from the viewer's side, so
//! seat 1 sees them turned by 180°.

use trinchera_proto::v1 as pb;

/// A cell's place on screen in abstract units: `column` grows to the right and `row` down,
/// both from 0 at the top-left of the board's bounding box. On square and cross boards a
/// unit is one cell; on hex boards a column is half a hex's width and a row one hex row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spot {
    /// Units from the left edge.
    pub column: i32,
    /// Units from the top edge.
    pub row: i32,
}

/// The layout of one board as one viewer sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    shape: pb::BoardShape,
    flipped: bool,
    width: i32,
    height: i32,
    /// Hex boards: the smallest unshifted column and row, so that spots start at 0.
    origin: (i32, i32),
    /// The spots' extent: columns and rows used.
    extent: (i32, i32),
}

impl Geometry {
    /// The layout of `board`, turned by 180° when `flipped` (seat 1's side).
    pub fn new(board: &pb::Board, flipped: bool) -> Geometry {
        let shape = board.shape();
        let mut geometry = Geometry {
            shape,
            flipped,
            width: board.width,
            height: board.height,
            origin: (0, 0),
            extent: (board.width.max(0), board.height.max(0)),
        };
        if shape == pb::BoardShape::Hex {
            let raw: Vec<(i32, i32)> = board
                .cells
                .iter()
                .filter_map(|info| info.cell.as_ref())
                .map(|cell| geometry.hex_raw(cell.x, cell.y))
                .collect();
            let min = |pick: fn(&(i32, i32)) -> i32| raw.iter().map(pick).min().unwrap_or(0);
            let max = |pick: fn(&(i32, i32)) -> i32| raw.iter().map(pick).max().unwrap_or(0);
            geometry.origin = (min(|p| p.0), min(|p| p.1));
            // A hex spans two half-hex columns from its spot.
            geometry.extent = (
                max(|p| p.0) - geometry.origin.0 + 2,
                max(|p| p.1) - geometry.origin.1 + 1,
            );
        }
        geometry
    }

    /// The board's shape.
    pub fn shape(&self) -> pb::BoardShape {
        self.shape
    }

    /// Whether the board is turned by 180°.
    pub fn flipped(&self) -> bool {
        self.flipped
    }

    /// Columns and rows the spots span (hex boards: a hex is two columns wide).
    pub fn extent(&self) -> (i32, i32) {
        self.extent
    }

    /// Where the cell at `(x, y)` goes.
    pub fn spot(&self, x: i32, y: i32) -> Spot {
        if self.shape == pb::BoardShape::Hex {
            let (column, row) = self.hex_raw(x, y);
            return Spot {
                column: column - self.origin.0,
                row: row - self.origin.1,
            };
        }
        if self.flipped {
            Spot {
                column: self.width - 1 - x,
                row: y,
            }
        } else {
            Spot {
                column: x,
                row: self.height - 1 - y,
            }
        }
    }

    /// Pointy-top axial hexes: each row half a hex to the right of the one below it.
    fn hex_raw(&self, q: i32, r: i32) -> (i32, i32) {
        let sign = if self.flipped { -1 } else { 1 };
        (sign * (2 * q + r), -sign * r)
    }

    /// A facing as seen on screen: sixths of a turn counter-clockwise from pointing right.
    pub fn facing_sixths(&self, facing: pb::Facing) -> u8 {
        let sixths = match facing {
            pb::Facing::E | pb::Facing::Unspecified => 0,
            pb::Facing::Ne => 1,
            pb::Facing::Nw => 2,
            pb::Facing::W => 3,
            pb::Facing::Sw => 4,
            pb::Facing::Se => 5,
        };
        (sixths + if self.flipped { 3 } else { 0 }) % 6
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(shape: pb::BoardShape, cells: &[(i32, i32)], size: (i32, i32)) -> pb::Board {
        pb::Board {
            shape: shape as i32,
            width: size.0,
            height: size.1,
            cells: cells
                .iter()
                .map(|&(x, y)| pb::CellInfo {
                    cell: Some(pb::Cell { x, y }),
                    ..Default::default()
                })
                .collect(),
            links: vec![],
        }
    }

    #[test]
    fn grids_put_seat_0_at_the_bottom_and_turn_for_seat_1() {
        let square = board(pb::BoardShape::Square, &[(0, 0), (2, 1)], (3, 2));
        let seat0 = Geometry::new(&square, false);
        assert_eq!(seat0.spot(0, 0), Spot { column: 0, row: 1 });
        assert_eq!(seat0.spot(2, 1), Spot { column: 2, row: 0 });
        let seat1 = Geometry::new(&square, true);
        assert_eq!(seat1.spot(0, 0), Spot { column: 2, row: 0 });
        assert_eq!(seat1.extent(), (3, 2));
    }

    #[test]
    fn hexes_shift_by_half_a_hex_per_row_and_start_at_zero() {
        let cells = [(0, -1), (1, -1), (-1, 0), (0, 0), (1, 0), (-1, 1), (0, 1)];
        let hex = board(pb::BoardShape::Hex, &cells, (3, 3));
        let seat0 = Geometry::new(&hex, false);
        // r = 1 is the top row; (-1, 1) is its left hex, one half hex in from the left.
        assert_eq!(seat0.spot(-1, 1), Spot { column: 1, row: 0 });
        assert_eq!(seat0.spot(-1, 0), Spot { column: 0, row: 1 });
        assert_eq!(seat0.spot(0, -1), Spot { column: 1, row: 2 });
        assert_eq!(seat0.extent(), (6, 3));
        let seat1 = Geometry::new(&hex, true);
        assert_eq!(seat1.spot(0, -1), Spot { column: 3, row: 0 });
        assert_eq!(seat1.facing_sixths(pb::Facing::E), 3);
        assert_eq!(seat0.facing_sixths(pb::Facing::Se), 5);
    }
}
