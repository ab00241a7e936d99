//! Side panels: beside the board or the games list, resizable, at their usual width but
//! never more than a share of the window, their contents scrolled and wrapped to them; and
//! the width of a form's captions.

use eframe::egui::{self, Panel, Ui};

/// The largest share of the window's width a side panel takes.
const PANEL_SHARE: f32 = 0.42;
/// A side panel is never narrower than this, in points.
const PANEL_MIN: f32 = 220.0;

/// Shows `panel` in `ui`, `usual` points wide (or its share of a narrow window), with
/// `contents` in a vertical scroll area. Every text in it wraps to the panel, in a row too:
/// a row wider than the panel widened it past the window's edge, and the board was drawn
/// over its other edge.
pub fn side_panel(ui: &mut Ui, panel: Panel, usual: f32, contents: impl FnOnce(&mut Ui)) {
    let widest = (ui.available_width() * PANEL_SHARE).max(PANEL_MIN);
    panel
        .resizable(true)
        .default_size(usual.min(widest))
        .size_range(PANEL_MIN.min(widest)..=widest)
        .show(ui, |ui| {
            ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Wrap);
            egui::ScrollArea::vertical().show(ui, contents);
        });
}

/// The width of the widest of `captions` in the body font of `ui`, unwrapped: a form's
/// column of captions laid out for this frame's language (a grid otherwise keeps the widths
/// of the frame before).
pub fn captions_width<'a>(ui: &Ui, captions: impl IntoIterator<Item = &'a str>) -> f32 {
    captions
        .into_iter()
        .map(|caption| {
            egui::WidgetText::from(caption)
                .into_galley(
                    ui,
                    Some(egui::TextWrapMode::Extend),
                    f32::INFINITY,
                    egui::TextStyle::Body,
                )
                .size()
                .x
        })
        .fold(0.0, f32::max)
}
