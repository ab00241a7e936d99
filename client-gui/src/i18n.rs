//! The interface language of the open window: kept in egui's context, so every view
//! function reads it from its `Ui` (`let lang = lang(ui)`) and writes its strings with
//! [`tr!`] (English and Spanish side by side).

use eframe::egui::{self, Id};
pub use trinchera_client::{Lang, tr};

fn key() -> Id {
    Id::unique("trinchera interface language")
}

/// The language of the window `ui` belongs to.
pub fn lang(ui: &egui::Ui) -> Lang {
    ui.ctx()
        .data(|data| data.get_temp(key()))
        .unwrap_or_default()
}

/// Makes `lang` the language of the window of `ctx`.
pub fn set_lang(ctx: &egui::Context, lang: Lang) {
    ctx.data_mut(|data| data.insert_temp(key(), lang));
}
