//! Tiles drawn off the board: the one under the pointer while a kind is dragged from the
//! setup tray, as large as the board's, and the legend of the marks on a hidden army's
//! tiles.

use eframe::egui::{self, Sense, Ui, Vec2};
use trinchera_client::Names;

use super::model::PieceModel;
use super::square;
use crate::i18n::{lang, tr};

/// Where the board keeps the size of its tiles for [`dragged_piece`].
fn size_id() -> egui::Id {
    egui::Id::unique("board tile size")
}

/// Keeps `size`, the board's half-cell, for a tile dragged onto it.
pub(super) fn keep_size(ctx: &egui::Context, size: f32) {
    ctx.data_mut(|data| data.insert_temp(size_id(), size));
}

/// A tile of `kind`, a piece of `owner`'s, under the pointer while it is dragged from the
/// setup tray, as large as the board's (labelled for screen readers and tests: "Espía,
/// dragged").
pub fn dragged_piece(ui: &Ui, names: &Names<'_>, kind: &str, owner: i32) {
    let Some(pointer) = ui.ctx().pointer_interact_pos() else {
        return;
    };
    let lang = lang(ui);
    let known = names.kind(kind);
    let piece = PieceModel {
        owner,
        own: true,
        name: Some(names.kind_name(kind)),
        code: known.map(|k| k.code.clone()),
        rank: known.and_then(|k| k.rank),
        moved: false,
        revealed: false,
        facing: None,
        spent: false,
    };
    let size = ui
        .ctx()
        .data(|data| data.get_temp(size_id()))
        .unwrap_or(27.0_f32);
    let room = Vec2::splat(size * 1.7);
    egui::Area::new(egui::Id::unique("dragged piece"))
        .order(egui::Order::Tooltip)
        .interactable(false)
        .fixed_pos(pointer - room / 2.0)
        .show(ui.ctx(), |ui| {
            let (rect, response) = ui.allocate_exact_size(room, Sense::hover());
            square::tile(ui.painter(), size, rect.center(), &piece, false);
            let name = piece.name.clone().unwrap_or_default();
            let label = tr!(lang, "{name}, dragged", "{name}, arrastrada");
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
        });
}

/// What the marks on the tiles of a hidden army mean, each beside a small tile that shows
/// it: the ring on a piece of `viewer`'s, and the dot on an enemy piece.
pub fn legend(ui: &mut Ui, viewer: i32) {
    let lang = lang(ui);
    let known = PieceModel {
        owner: viewer,
        own: true,
        name: Some(String::new()),
        code: None,
        rank: None,
        moved: false,
        revealed: true,
        facing: None,
        spent: false,
    };
    let moved = PieceModel {
        owner: 1 - viewer,
        own: false,
        name: None,
        moved: true,
        revealed: false,
        ..known.clone()
    };
    // Half the size of a tile on a board that fills a window: the marks still show.
    let (room, size) = (Vec2::splat(34.0), 20.0);
    for (piece, en, es) in [
        (
            known,
            "ring: your piece, known to your opponent",
            "anillo: tu pieza, conocida por tu rival",
        ),
        (
            moved,
            "dot: a hidden enemy piece that has moved",
            "punto: una pieza enemiga oculta que se ha movido",
        ),
    ] {
        ui.horizontal(|ui| {
            let (rect, _) = ui.allocate_exact_size(room, Sense::hover());
            square::tile(ui.painter(), size, rect.center(), &piece, false);
            ui.label(lang.pick(en, es));
        });
    }
}
