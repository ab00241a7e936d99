//! The player's settings: the language and the board look (both kept between runs in
//! eframe's storage under these keys), and whether flashes are off.

use crate::board::Look;
use crate::i18n::Lang;

/// The eframe storage key of the last server address.
pub const SERVER_KEY: &str = "server";
/// The eframe storage key of the interface language (`en`, `es`).
pub const LANG_KEY: &str = "language";
/// The eframe storage key of the board look (`flipped`, `names`, both or neither, by `,`).
pub const LOOK_KEY: &str = "board look";

/// How the player likes the window.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Settings {
    /// The interface language.
    pub lang: Lang,
    /// How boards are drawn.
    pub look: Look,
    /// No flashes or animations.
    pub reduce_motion: bool,
}
