//! Room for the board in a narrow window: a side panel starts at its usual width but never
//! takes more than a share of the window.

use eframe::egui::Panel;

/// The largest share of the window's width a side panel takes.
const PANEL_SHARE: f32 = 0.42;
/// A side panel is never narrower than this, in points.
const PANEL_MIN: f32 = 220.0;

/// `panel`, resizable, `usual` points wide in a window `width` points wide, or its share
/// of a narrow one.
pub fn side_panel(panel: Panel, width: f32, usual: f32) -> Panel {
    let widest = (width * PANEL_SHARE).max(PANEL_MIN);
    panel
        .resizable(true)
        .default_size(usual.min(widest))
        .size_range(PANEL_MIN.min(widest)..=widest)
}
