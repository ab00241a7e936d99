//! The language of a client's words: English or Spanish. Every sentence is written in both
//! side by side ([`tr!`](crate::tr)), so that neither can be forgotten; piece and seat names
//! stay as the server gives them.

/// An interface language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    /// English.
    #[default]
    En,
    /// Spanish.
    Es,
}

impl Lang {
    /// Every language, in menu order.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Es];

    /// The language of a POSIX locale such as `es_ES.UTF-8`, or a browser's such as
    /// `es-AR` (English unless Spanish).
    pub fn of_locale(locale: &str) -> Lang {
        if locale.to_ascii_lowercase().starts_with("es") {
            Lang::Es
        } else {
            Lang::En
        }
    }

    /// The browser's language (`navigator.language`).
    #[cfg(target_arch = "wasm32")]
    pub fn of_system() -> Lang {
        web_sys::window()
            .and_then(|window| window.navigator().language())
            .map_or(Lang::En, |locale| Lang::of_locale(&locale))
    }

    /// The system's language, from `LC_ALL`, `LC_MESSAGES` or `LANG`.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn of_system() -> Lang {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(|key| std::env::var(key).ok())
            .find(|value| !value.is_empty())
            .map_or(Lang::En, |locale| Lang::of_locale(&locale))
    }

    /// The language's own name, for a menu.
    pub fn name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Es => "Español",
        }
    }

    /// A short stable code to store the choice: `en` or `es`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
        }
    }

    /// The language of a stored code.
    pub fn of_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|lang| lang.code() == code)
    }

    /// `en` or `es`, whichever is this language's.
    pub fn pick<T>(self, en: T, es: T) -> T {
        match self {
            Lang::En => en,
            Lang::Es => es,
        }
    }
}

/// A sentence in the language `lang`: `tr!(lang, "{n} moves", "{n} jugadas")` formats the
/// English or the Spanish text (inline arguments as in `format!`).
#[macro_export]
macro_rules! tr {
    ($lang:expr, $en:literal, $es:literal $(,)?) => {
        match $lang {
            $crate::lang::Lang::En => format!($en),
            $crate::lang::Lang::Es => format!($es),
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locales_and_codes() {
        assert_eq!(Lang::of_locale("es_AR.UTF-8"), Lang::Es);
        assert_eq!(Lang::of_locale("en_GB.UTF-8"), Lang::En);
        assert_eq!(Lang::of_locale("C"), Lang::En);
        for lang in Lang::ALL {
            assert_eq!(Lang::of_code(lang.code()), Some(lang));
        }
        let n = 3;
        assert_eq!(tr!(Lang::Es, "{n} moves", "{n} jugadas"), "3 jugadas");
    }
}
