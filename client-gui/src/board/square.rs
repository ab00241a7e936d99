//! Square boards (frente, clásico, castillos): a grid of square cells with lakes, castles
//! and trenches on paper that shows between them, and the armies' tiles with rank and name.

use eframe::egui::{
    Align2, CornerRadius, FontId, Painter, Pos2, Rect, Stroke, StrokeKind, Vec2, pos2, vec2,
};
use trinchera_proto::v1 as pb;

use super::family::Family;
use super::layout::Layout;
use super::model::{BoardModel, CellModel, PieceModel};
use super::paint::{Canvas, CellPaint, PAPER_CORNER, PIECE_INK};
use super::tile_text;
use crate::palette;

/// The corner radius of tiles, in points. Up to 2 a corner is drawn with three points, above
/// it with five: with the anti-aliasing fringe a rounder tile took twice the triangles, and a
/// software renderer's time follows the triangles as much as the pixels (a frente board was
/// 35 000 triangles, half of them tiles' outlines, which are gone too).
const TILE_CORNER: u8 = 2;

/// The family of square boards.
pub(super) struct Square;

impl Family for Square {
    fn cell_rect(&self, layout: &Layout, centre: Pos2) -> Rect {
        Rect::from_center_size(centre, layout.unit * 0.97)
    }

    /// The paper under the board. Its cells cover most of it, so only what shows around and
    /// between them is painted: a software renderer paints every pixel of every shape, and
    /// the paper under the cells was a third of a board's pixels.
    fn ground(&self, canvas: &Canvas, model: &BoardModel, rect: Rect) {
        let Canvas { painter, layout } = canvas;
        let (columns, rows) = model.geometry.extent();
        let start = rect.min + layout.origin.to_vec2() - layout.unit / 2.0;
        let block = Rect::from_min_size(
            start,
            vec2(columns as f32 * layout.unit.x, rows as f32 * layout.unit.y),
        );
        // Each band and strip reaches a point under the cells beside it (so that no seam
        // shows between them) past the gap of a cell's width less its rect's.
        let reach = (layout.unit.x - self.cell_rect(layout, Pos2::ZERO).width()) / 2.0 + 1.0;
        let top = CornerRadius {
            nw: PAPER_CORNER,
            ne: PAPER_CORNER,
            ..CornerRadius::ZERO
        };
        let bottom = CornerRadius {
            sw: PAPER_CORNER,
            se: PAPER_CORNER,
            ..CornerRadius::ZERO
        };
        let bands = [
            (rect.with_max_y(block.min.y + reach), top),
            (rect.with_min_y(block.max.y - reach), bottom),
            (
                block.with_min_x(rect.min.x).with_max_x(block.min.x + reach),
                CornerRadius::ZERO,
            ),
            (
                block.with_max_x(rect.max.x).with_min_x(block.max.x - reach),
                CornerRadius::ZERO,
            ),
        ];
        for (band, corners) in bands {
            painter.rect_filled(band, corners, palette::BOARD);
        }
        for column in 1..columns {
            let x = block.min.x + column as f32 * layout.unit.x;
            let strip = block.with_min_x(x - reach).with_max_x(x + reach);
            painter.rect_filled(strip, CornerRadius::ZERO, palette::BOARD);
        }
        for row in 1..rows {
            let y = block.min.y + row as f32 * layout.unit.y;
            let strip = block.with_min_y(y - reach).with_max_y(y + reach);
            painter.rect_filled(strip, CornerRadius::ZERO, palette::BOARD);
        }
    }

    fn cell(&self, canvas: &Canvas, at: Pos2, cell: &CellModel, paint: CellPaint) {
        let Canvas { painter, layout } = canvas;
        let rect = self.cell_rect(layout, at);
        // Square, so that the paper between cells is all that shows of it (`ground`).
        painter.rect_filled(rect, CornerRadius::ZERO, paint.fill);
        match cell.terrain {
            pb::Terrain::Castle => {
                // Battlements along the top edge.
                let step = rect.width() / 5.0;
                for i in [0.0f32, 2.0, 4.0] {
                    let merlon = Rect::from_min_size(
                        rect.min + vec2(i * step, 0.0),
                        vec2(step, rect.height() * 0.14),
                    );
                    painter.rect_filled(merlon, CornerRadius::ZERO, palette::TRENCH);
                }
                painter.rect_stroke(
                    rect.shrink(1.0),
                    CornerRadius::same(3),
                    Stroke::new(2.0, palette::TRENCH),
                    StrokeKind::Inside,
                );
            }
            pb::Terrain::Trench => {
                let stroke = Stroke::new(1.5, palette::BOARD.gamma_multiply(0.45));
                for i in 1..5 {
                    let t = i as f32 / 5.0;
                    painter.line_segment(
                        [
                            pos2(rect.left() + t * rect.width(), rect.bottom()),
                            pos2(rect.left(), rect.bottom() - t * rect.height()),
                        ],
                        stroke,
                    );
                }
            }
            _ => {}
        }
        if let Some(color) = paint.mark {
            painter.rect_stroke(
                rect.shrink(1.0),
                CornerRadius::same(3),
                Stroke::new(layout.size * 0.12, color),
                StrokeKind::Inside,
            );
        }
    }

    fn piece(&self, canvas: &Canvas, at: Pos2, piece: &PieceModel, names_only: bool) {
        tile(&canvas.painter, canvas.layout.size, at, piece, names_only);
    }
}

/// A piece's tile at `at` on cells of half-width `size`: its rank (or code) and name, or
/// its name alone if `names_only`; on the viewer's piece known to the opponent an open eye,
/// on a hidden enemy piece that has moved a dot.
pub(super) fn tile(painter: &Painter, size: f32, at: Pos2, piece: &PieceModel, names_only: bool) {
    let color = palette::seat(piece.owner);
    let tile = Rect::from_center_size(at, Vec2::splat(size * 1.62));
    let fill = if piece.name.is_some() {
        color
    } else {
        color.gamma_multiply(0.75)
    };
    painter.rect_filled(tile, CornerRadius::same(TILE_CORNER), fill);
    if let Some(name) = piece.name.as_ref().filter(|_| names_only) {
        // The name alone, as large as the tile allows.
        let area = tile.size() * vec2(0.92, 0.84);
        let largest = (size * 0.42).max(8.0);
        tile_text::draw(painter, at, name, area, largest, 2, PIECE_INK);
    } else if let Some(name) = &piece.name {
        let big = piece
            .rank
            .map_or_else(|| piece.code.clone().unwrap_or_default(), |r| r.to_string());
        painter.text(
            at - vec2(0.0, size * 0.36),
            Align2::CENTER_CENTER,
            big,
            FontId::proportional(size * 0.62),
            PIECE_INK,
        );
        // Room under the rank for a name of two words on two lines.
        let area = vec2(tile.width() * 0.94, size * 0.76);
        let largest = (size * 0.32).max(8.0);
        let under = at + vec2(0.0, size * 0.36);
        tile_text::draw(painter, under, name, area, largest, 2, PIECE_INK);
    }
    if piece.own && piece.revealed {
        // Known to the opponent: an open eye in the corner.
        painter.circle_stroke(
            tile.right_top() + vec2(-size * 0.22, size * 0.22),
            size * 0.1,
            Stroke::new(1.5, PIECE_INK),
        );
    }
    if piece.name.is_none() && piece.moved {
        painter.circle_filled(
            tile.right_bottom() - Vec2::splat(size * 0.24),
            size * 0.1,
            PIECE_INK,
        );
    }
}
