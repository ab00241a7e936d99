//! What every family of boards paints alike: a cell's colours (terrain, tint, pointer,
//! flash, highlight), plain paper, a piece's code, the letters inside a cell and the
//! coordinates along the edges.

use eframe::egui::{Align2, Color32, CornerRadius, FontId, Painter, Pos2, Rect, pos2, vec2};
use trinchera_proto::v1 as pb;

use super::layout::Layout;
use super::model::{BoardModel, CellModel, Mark, PieceModel};
use crate::palette;

/// The corner radius of the paper a board lies on, in points.
pub(super) const PAPER_CORNER: u8 = 8;

/// The ink of the letters and marks on pieces.
pub(super) const PIECE_INK: Color32 = Color32::from_rgb(0xfa, 0xf7, 0xf0);

/// Where a board is painted: the painter over its rect and where its cells land.
pub(super) struct Canvas {
    /// Clipped to the board's rect and a little around it.
    pub(super) painter: Painter,
    /// Where the cells land in pixels.
    pub(super) layout: Layout,
}

/// How a cell is painted in this frame.
#[derive(Clone, Copy, Debug)]
pub(super) struct CellPaint {
    /// Its ground: the terrain's, tinted by a seat, lit under the pointer or by a flash.
    pub(super) fill: Color32,
    /// The colour of its highlight, if it has one.
    pub(super) mark: Option<Color32>,
}

impl CellPaint {
    /// The colours of `cell` on a board of `shape`, `hovered` or not, while the last move
    /// flashes at `flash` (from 1 down to 0).
    pub(super) fn of(cell: &CellModel, shape: pb::BoardShape, hovered: bool, flash: f32) -> Self {
        let mut fill = palette::terrain(cell.terrain, shape);
        if cell.terrain == pb::Terrain::Entry
            && let Some(seat) = cell.tint
        {
            fill = palette::seat_tint(seat);
        }
        if cell.terrain != pb::Terrain::Urban
            && cell.terrain != pb::Terrain::Entry
            && let Some(seat) = cell.tint
        {
            // A setup zone.
            fill = lerp_color(fill, palette::seat_tint(seat), 0.6);
        }
        if hovered {
            fill = lerp_color(fill, Color32::WHITE, 0.25);
        }
        let mark = cell.mark.map(|mark| match mark {
            Mark::Selected => palette::SELECTED,
            Mark::Target => palette::TARGET,
            Mark::Path => palette::SELECTED.gamma_multiply(0.8),
            Mark::LastMove => palette::LAST_MOVE,
        });
        if cell.mark == Some(Mark::LastMove) && flash > 0.0 {
            fill = lerp_color(fill, palette::LAST_MOVE, 0.6 * flash);
        }
        CellPaint { fill, mark }
    }
}

/// The paper a board lies on, all over `rect`.
pub(super) fn paper(painter: &Painter, rect: Rect) {
    painter.rect_filled(rect, CornerRadius::same(PAPER_CORNER), palette::BOARD);
}

/// A cell's letters inside it: in the middle of an empty cell, small at the top of one with
/// a piece (whose body fills the middle).
pub(super) fn caption(canvas: &Canvas, at: Pos2, caption: &str, under: bool) {
    let Canvas { painter, layout } = canvas;
    let (at, size) = if under {
        (at - vec2(0.0, layout.size * 0.66), layout.size * 0.26)
    } else {
        (at, layout.size * 0.42)
    };
    painter.text(
        at,
        Align2::CENTER_CENTER,
        caption,
        FontId::proportional(size.max(7.0)),
        palette::BOARD.gamma_multiply(0.55),
    );
}

/// The one-letter code of `piece` (`?` while hidden) over its middle at `at`, `size` points
/// high.
pub(super) fn code(painter: &Painter, at: Pos2, piece: &PieceModel, size: f32) {
    let code = piece.code.clone().unwrap_or_else(|| "?".to_owned());
    painter.text(
        at,
        Align2::CENTER_CENTER,
        code,
        FontId::proportional(size),
        PIECE_INK,
    );
}

/// The names of `model`'s rows beyond both ends of each (by `beyond` columns), and of its
/// columns along the top and bottom edges, for a board whose corner is at `top_left`.
pub(super) fn coordinates(canvas: &Canvas, model: &BoardModel, top_left: Pos2, beyond: f32) {
    let Canvas { painter, layout } = canvas;
    let coordinate_font = FontId::proportional((layout.size * 0.42).clamp(9.0, 15.0));
    for label in &model.rows {
        let y = top_left.y + layout.origin.y + label.row as f32 * layout.unit.y;
        for column in [label.first as f32 - beyond, label.last as f32 + beyond] {
            painter.text(
                pos2(top_left.x + layout.origin.x + column * layout.unit.x, y),
                Align2::CENTER_CENTER,
                &label.text,
                coordinate_font.clone(),
                palette::COORDINATE,
            );
        }
    }
    let (_, rows) = model.geometry.extent();
    for (column, label) in &model.columns {
        let x = top_left.x + layout.origin.x + *column as f32 * layout.unit.x;
        let top = top_left.y + layout.origin.y - layout.unit.y * 0.8;
        let bottom = top_left.y
            + layout.origin.y
            + (rows as f32 - 1.0) * layout.unit.y
            + layout.unit.y * 0.8;
        for y in [top, bottom] {
            painter.text(
                pos2(x, y),
                Align2::CENTER_CENTER,
                label,
                coordinate_font.clone(),
                palette::COORDINATE,
            );
        }
    }
}

/// Mixes `a` towards `b` by `t`.
fn lerp_color(a: Color32, b: Color32, t: f32) -> Color32 {
    let mix = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    Color32::from_rgb(mix(a.r(), b.r()), mix(a.g(), b.g()), mix(a.b(), b.b()))
}
