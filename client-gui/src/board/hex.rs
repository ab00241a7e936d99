//! The hexes of tanques, pointy-top: open fields, swamps, urban hexes ringed in their
//! controller's colour and entry hexes in their seat's, and tanks with their gun towards
//! their facing.

use eframe::egui::{
    Color32, CornerRadius, Pos2, Rect, Shape, Stroke, StrokeKind, Vec2, pos2, vec2,
};
use trinchera_proto::v1 as pb;

use super::family::Family;
use super::layout::Layout;
use super::model::{BoardModel, CellModel, PieceModel};
use super::paint::{self, Canvas, CellPaint};
use crate::palette;

/// The family of hex boards.
pub(super) struct Hex;

impl Family for Hex {
    fn fit(&self, cells: Vec2, available: Vec2) -> (Layout, Vec2) {
        let (columns, rows) = (cells.x, cells.y);
        // Pointy-top: a hex is √3·s wide (two columns) and rows are 1.5·s apart.
        let margin = 2.0;
        let by_width = available.x / ((columns + margin) * 3f32.sqrt() / 2.0);
        let by_height = available.y / ((rows - 1.0) * 1.5 + 2.0 + margin);
        let size = by_width.min(by_height).clamp(8.0, 60.0);
        let unit = vec2(size * 3f32.sqrt() / 2.0, size * 1.5);
        let total = vec2(
            (columns + margin) * unit.x,
            (rows - 1.0) * unit.y + 2.0 * size + margin * size,
        );
        let origin = pos2(unit.x * (1.0 + margin / 2.0), size * (1.0 + margin / 2.0));
        (Layout { origin, unit, size }, total)
    }

    fn cell_rect(&self, layout: &Layout, centre: Pos2) -> Rect {
        Rect::from_center_size(centre, vec2(layout.unit.x * 2.0 * 0.92, layout.size * 1.5))
    }

    fn ground(&self, canvas: &Canvas, _: &BoardModel, rect: Rect) {
        paint::paper(&canvas.painter, rect);
    }

    fn cell(&self, canvas: &Canvas, at: Pos2, cell: &CellModel, paint: CellPaint) {
        let Canvas { painter, layout } = canvas;
        painter.add(Shape::convex_polygon(
            corners(layout, at, 0.97),
            paint.fill,
            Stroke::new(1.0, palette::BOARD.gamma_multiply(0.6)),
        ));
        if cell.terrain == pb::Terrain::Urban {
            let ring = cell.tint.map_or(palette::LINE, palette::seat);
            painter.add(Shape::closed_line(
                corners(layout, at, 0.82),
                Stroke::new(layout.size * 0.12, ring),
            ));
        }
        if cell.terrain == pb::Terrain::Swamp {
            for dy in [-0.3f32, 0.3] {
                let y = at.y + dy * layout.size;
                let half = layout.size * 0.45;
                painter.line_segment(
                    [pos2(at.x - half, y), pos2(at.x + half, y)],
                    Stroke::new(1.5, palette::SWAMP.gamma_multiply(0.6)),
                );
            }
        }
        if let Some(color) = paint.mark {
            painter.add(Shape::closed_line(
                corners(layout, at, 0.9),
                Stroke::new(layout.size * 0.14, color),
            ));
        }
    }

    /// A tank: its gun towards its facing, its body faded once spent this turn.
    fn piece(&self, canvas: &Canvas, at: Pos2, piece: &PieceModel, _: bool) {
        let Canvas { painter, layout } = canvas;
        let color = palette::seat(piece.owner);
        let radius = layout.size * 0.5;
        let color = if piece.spent {
            color.gamma_multiply(0.55)
        } else {
            color
        };
        if let Some(sixths) = piece.facing {
            let angle = f32::from(sixths) * std::f32::consts::FRAC_PI_3;
            let direction = vec2(angle.cos(), -angle.sin());
            let tip = at + direction * layout.size * 0.85;
            painter.line_segment([at, tip], Stroke::new(layout.size * 0.16, color));
            let side = vec2(-direction.y, direction.x) * layout.size * 0.18;
            painter.add(Shape::convex_polygon(
                vec![tip + direction * layout.size * 0.12, tip + side, tip - side],
                color,
                Stroke::NONE,
            ));
        }
        let body = Rect::from_center_size(at, Vec2::splat(radius * 1.6));
        painter.rect_filled(body, CornerRadius::same(4), color);
        painter.rect_stroke(
            body,
            CornerRadius::same(4),
            Stroke::new(1.0, Color32::from_black_alpha(110)),
            StrokeKind::Inside,
        );
        paint::code(painter, at, piece, layout.size * 0.45);
    }

    fn row_names_beyond(&self) -> f32 {
        1.6
    }
}

/// The corners of a pointy-top hex around `centre`, `scale` times the layout's size out.
fn corners(layout: &Layout, centre: Pos2, scale: f32) -> Vec<Pos2> {
    (0..6)
        .map(|i| {
            let angle = std::f32::consts::FRAC_PI_6 + i as f32 * std::f32::consts::FRAC_PI_3;
            centre + vec2(angle.cos(), angle.sin()) * layout.size * scale
        })
        .collect()
}
