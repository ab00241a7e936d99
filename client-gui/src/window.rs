//! The desktop window: its title and sizes, and where eframe keeps what it remembers (the
//! window's place and size, panel widths, [`crate::settings::Kept`]): a file in the client's
//! config dir beside the token store and the saved setups, so that everything the client
//! keeps is in one place (`$TRINCHERA_CONFIG_DIR`, else `~/.config/trinchera/`), not in
//! eframe's own data dir.

use eframe::egui::{self, Vec2, ViewportBuilder};
use trinchera_client::Place;

/// The window's size when no earlier run left one.
pub const FIRST_SIZE: Vec2 = egui::vec2(1280.0, 800.0);
/// The smallest the window may be: every screen is laid out to fit it.
pub const MIN_SIZE: Vec2 = egui::vec2(640.0, 480.0);
/// eframe's file in the config dir.
pub const FILE: &str = "trinchera-gui.ron";

/// The options of the desktop window whose client keeps its files in `place`.
pub fn native_options(place: &Place) -> eframe::NativeOptions {
    eframe::NativeOptions {
        viewport: ViewportBuilder::default()
            .with_title("Trinchera")
            .with_inner_size(FIRST_SIZE)
            .with_min_inner_size(MIN_SIZE),
        persistence_path: Some(place.shown(FILE)),
        // Called once eframe has put the size of the last run into the builder.
        window_builder: Some(Box::new(at_least_minimum)),
        ..Default::default()
    }
}

/// `builder` with its size raised to [`MIN_SIZE`] where it is below it: a size left by a
/// run with another minimum, or by a window manager that ignored it, never opens a window
/// too small for its screens.
pub fn at_least_minimum(mut builder: ViewportBuilder) -> ViewportBuilder {
    if let Some(size) = builder.inner_size {
        builder.inner_size = Some(size.max(MIN_SIZE));
    }
    builder
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eframe_keeps_its_file_in_the_config_dir() {
        let dir = std::path::Path::new("/config/trinchera");
        let options = native_options(&Place::at(dir));
        assert_eq!(options.persistence_path, Some(dir.join(FILE)));
        assert!(
            options.persist_window,
            "the window's size and place are kept"
        );
    }

    #[test]
    fn a_kept_size_below_the_minimum_is_raised_to_it() {
        let options = native_options(&Place::at(std::path::Path::new("/config")));
        let hook = options.window_builder.expect("a hook");
        // A size kept by an earlier run, narrower than the minimum.
        let kept = ViewportBuilder::default().with_inner_size([500.0, 900.0]);
        assert_eq!(hook(kept).inner_size, Some(egui::vec2(640.0, 900.0)));
        let large = at_least_minimum(ViewportBuilder::default().with_inner_size([1000.0, 700.0]));
        assert_eq!(large.inner_size, Some(egui::vec2(1000.0, 700.0)));
    }
}
