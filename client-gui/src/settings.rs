//! The player's settings (the language, the board look, whether flashes are off), and what
//! the client keeps from one run to the next besides its tokens and saved setups: eframe's
//! storage, which is a file in the client's config dir beside the token store on a desktop
//! ([`crate::window`]) and the page's `localStorage` in a browser, under these keys.

use eframe::Storage;

use crate::board::Look;
use crate::i18n::Lang;
use crate::lobby::CreateForm;

/// The eframe storage key of the last server address.
pub const SERVER_KEY: &str = "server";
/// The eframe storage key of the interface language (`en`, `es`).
pub const LANG_KEY: &str = "language";
/// The eframe storage key of the board look (`flipped`, `names`, both or neither, by `,`).
pub const LOOK_KEY: &str = "board look";
/// The eframe storage key of the new-game form's last choices (RON).
pub const FORM_KEY: &str = "new game form";
/// The eframe storage key of the choice to play as a guest (`yes`; absent: not chosen).
pub const GUEST_KEY: &str = "guest";

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

/// What one run of the client leaves to the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Kept {
    /// The last server address.
    pub server: Option<String>,
    /// The interface language last chosen.
    pub lang: Option<Lang>,
    /// How boards were drawn.
    pub look: Look,
    /// The new-game form's last choices (its game name is not kept: it names one game).
    pub form: CreateForm,
    /// Whether the player chose to play as a guest (the sign-in screen is not shown first).
    pub guest: bool,
}

impl Kept {
    /// What `storage` keeps; nothing without a storage, and what it cannot read is left at
    /// its default.
    pub fn read(storage: Option<&dyn Storage>) -> Kept {
        let Some(storage) = storage else {
            return Kept::default();
        };
        Kept {
            server: storage.get_string(SERVER_KEY),
            lang: storage
                .get_string(LANG_KEY)
                .and_then(|code| Lang::of_code(&code)),
            look: storage
                .get_string(LOOK_KEY)
                .map(|text| Look::of_setting(&text))
                .unwrap_or_default(),
            form: eframe::get_value(storage, FORM_KEY).unwrap_or_default(),
            guest: storage.get_string(GUEST_KEY).as_deref() == Some("yes"),
        }
    }

    /// Keeps all of it in `storage`.
    pub fn write(&self, storage: &mut dyn Storage) {
        if let Some(server) = &self.server {
            storage.set_string(SERVER_KEY, server.clone());
        }
        if let Some(lang) = self.lang {
            storage.set_string(LANG_KEY, lang.code().to_owned());
        }
        storage.set_string(LOOK_KEY, self.look.to_setting());
        eframe::set_value(storage, FORM_KEY, &self.form);
        if self.guest {
            storage.set_string(GUEST_KEY, "yes".to_owned());
        } else {
            storage.remove_string(GUEST_KEY);
        }
    }
}
