//! The cross of asalto and tácticas: points joined by lines (tácticas' marked ones thicker),
//! the fortress as one stone patch behind its points, and pieces as discs with their code.

use eframe::egui::{CornerRadius, Painter, Pos2, Rect, Stroke, Vec2};
use trinchera_proto::v1 as pb;

use super::family::Family;
use super::layout::Layout;
use super::model::{BoardModel, CellModel, PieceModel};
use super::paint::{self, Canvas, CellPaint};
use crate::palette;

/// The family of cross boards.
pub(super) struct Cross;

impl Family for Cross {
    fn cell_rect(&self, layout: &Layout, centre: Pos2) -> Rect {
        Rect::from_center_size(centre, layout.unit * 0.8)
    }

    fn ground(&self, canvas: &Canvas, model: &BoardModel, rect: Rect) {
        let Canvas { painter, layout } = canvas;
        paint::paper(painter, rect);
        let centre = |cell: pb::Cell| layout.centre(&model.geometry, rect.min, cell);
        fortress(painter, model, layout, &centre);
        for (a, b, kind) in &model.links {
            let stroke = match kind {
                pb::LinkKind::Marked => Stroke::new(layout.size * 0.16, palette::MARKED_LINE),
                _ => Stroke::new(layout.size * 0.06, palette::LINE),
            };
            painter.line_segment([centre(*a), centre(*b)], stroke);
        }
    }

    fn cell(&self, canvas: &Canvas, at: Pos2, _: &CellModel, paint: CellPaint) {
        let Canvas { painter, layout } = canvas;
        let radius = layout.size * 0.36;
        painter.circle_filled(at, radius, paint.fill);
        painter.circle_stroke(at, radius, Stroke::new(1.5, palette::LINE));
        if let Some(color) = paint.mark {
            painter.circle_stroke(at, radius * 1.45, Stroke::new(layout.size * 0.12, color));
        }
    }

    fn piece(&self, canvas: &Canvas, at: Pos2, piece: &PieceModel, _: bool) {
        let Canvas { painter, layout } = canvas;
        // No outline, as on tiles: a disc's took 300 triangles.
        painter.circle_filled(at, layout.size * 0.5, palette::seat(piece.owner));
        paint::code(painter, at, piece, layout.size * 0.55);
    }
}

/// The fortress of a cross board: one stone patch behind its points.
fn fortress(
    painter: &Painter,
    model: &BoardModel,
    layout: &Layout,
    centre: &impl Fn(pb::Cell) -> Pos2,
) {
    let points: Vec<Pos2> = model
        .cells
        .iter()
        .filter(|c| c.terrain == pb::Terrain::Fortress)
        .map(|c| centre(c.cell))
        .collect();
    if let Some(first) = points.first() {
        let bounds = points
            .iter()
            .fold(Rect::from_center_size(*first, Vec2::ZERO), |r, p| {
                r.union(Rect::from_center_size(*p, Vec2::ZERO))
            });
        painter.rect_filled(
            bounds.expand(layout.size * 0.7),
            CornerRadius::same(6),
            palette::FORTRESS.gamma_multiply(0.55),
        );
    }
}
