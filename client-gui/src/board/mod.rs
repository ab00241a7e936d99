//! Boards drawn from the ruleset description alone, over one [`model`]: square grids with
//! lakes, castles and trenches ([`square`]), the asalto cross with its lines and fortress
//! ([`cross`]), and tanques' hexes with terrain and facing tanks ([`hex`]). Every cell is
//! its own interact rect with an accessible label ("e4, your Capitán"), so a screen reader
//! can read the board and tests can click it.

mod cross;
mod family;
mod hex;
mod labels;
mod layout;
mod model;
mod paint;
mod scene;
mod square;
mod tile_text;
mod tiles;

use eframe::egui::{self, Response, Sense, Ui, vec2};
use trinchera_proto::v1 as pb;

use self::family::Family;
pub use self::model::{BoardModel, CellModel, Look, Mark, PieceModel, RowLabel};
use self::paint::{Canvas, CellPaint};
pub use self::scene::Scene;
pub use self::tiles::{dragged_piece, legend};
use crate::palette;

/// A piece kind being dragged onto the board (from the setup tray): its `PieceKind.id`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraggedKind(pub String);

/// What the pointer does over the board besides clicks (see [`clicked`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// A kind dropped on a cell in this frame, if any.
    pub dropped: Option<(pb::Cell, String)>,
    /// The cell under the pointer.
    pub hovered: Option<pb::Cell>,
}

/// The family that draws a board of `shape`.
fn family(shape: pb::BoardShape) -> &'static dyn Family {
    match shape {
        pb::BoardShape::Square | pb::BoardShape::Unspecified => &square::Square,
        pb::BoardShape::Cross => &cross::Cross,
        pb::BoardShape::Hex => &hex::Hex,
    }
}

/// The id of the widget of board cell `cell`.
fn cell_id(cell: pb::Cell) -> egui::Id {
    egui::Id::unique(("board cell", cell.x, cell.y))
}

/// The cell among `cells` clicked in this frame, if any. egui tells a click from where the
/// widgets were in the last frame, so this may be asked before the board is drawn: what the
/// click changes (a piece picked, its targets lit) then shows in the same frame.
pub fn clicked<'a>(
    ctx: &egui::Context,
    cells: impl IntoIterator<Item = &'a pb::CellInfo>,
) -> Option<pb::Cell> {
    cells
        .into_iter()
        .filter_map(|info| info.cell)
        .find(|&cell| {
            ctx.read_response(cell_id(cell))
                .is_some_and(|response| response.clicked())
        })
}

/// Draws `model` to fill the space left in `ui`; drops and the pointer land in `selection`,
/// clicks are for [`clicked`].
pub fn board_ui(ui: &mut Ui, model: &BoardModel, selection: &mut Selection) -> Response {
    let shape = model.geometry.shape();
    let family = family(shape);
    let available = ui.available_size().max(vec2(120.0, 120.0));
    let (columns, rows) = model.geometry.extent();
    let cells = vec2(columns.max(1) as f32, rows.max(1) as f32);
    let (layout, size) = family.fit(cells, available);
    // A piece dragged from the tray is drawn at this size.
    tiles::keep_size(ui.ctx(), layout.size);
    let (rect, mut response) = ui.allocate_exact_size(size, Sense::hover());
    let canvas = Canvas {
        painter: ui.painter_at(rect.expand(2.0)),
        layout,
    };
    family.ground(&canvas, model, rect);

    selection.dropped = None;
    selection.hovered = None;
    for cell in &model.cells {
        let at = layout.centre(&model.geometry, rect.min, cell.cell);
        let cell_rect = family.cell_rect(&layout, at);
        let cell_response = ui.interact(cell_rect, cell_id(cell.cell), Sense::click());
        cell_response
            .widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &cell.label));
        if let Some(kind) = cell_response.dnd_release_payload::<DraggedKind>() {
            selection.dropped = Some((cell.cell, kind.0.clone()));
            response.mark_changed();
        }
        let hovered =
            cell_response.hovered() || cell_response.dnd_hover_payload::<DraggedKind>().is_some();
        if hovered {
            selection.hovered = Some(cell.cell);
        }
        let paint = CellPaint::of(cell, shape, hovered, model.flash);
        family.cell(&canvas, at, cell, paint);
        if cell.mark == Some(Mark::Target) && cell.piece.is_none() {
            canvas
                .painter
                .circle_filled(at, layout.size * 0.16, palette::TARGET);
        }
        if let Some(piece) = &cell.piece {
            family.piece(&canvas, at, piece, model.look.names);
        }
        if let Some(caption) = &cell.caption {
            paint::caption(&canvas, at, caption, cell.piece.is_some());
        }
    }
    paint::coordinates(&canvas, model, rect.min, family.row_names_beyond());
    response
}

#[cfg(test)]
mod tests;
