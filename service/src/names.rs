//! Display names of games and players: what the server accepts (the same checks for every
//! way a name comes in, the API and an import) and how names are compared.

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_segmentation::UnicodeSegmentation;

use trinchera_game::BOT_NAME_PREFIX;

/// How long a display name may be: in characters as a person counts them (grapheme
/// clusters), and in bytes of UTF-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameLimit {
    /// Grapheme clusters.
    pub characters: usize,
    /// Bytes of UTF-8, after normalisation.
    pub bytes: usize,
}

/// The default limit of player (and account) names.
pub(crate) const PLAYER_NAME: NameLimit = NameLimit {
    characters: 32,
    bytes: 64,
};

/// Why a name was refused, in words for the person who chose it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub(crate) struct NameError(String);

/// Whether a character may not appear in a name: controls, invisible format characters
/// (bidi overrides and isolates, zero-width space, soft hyphen, tags), line or paragraph
/// separators, and code points with no character. The zero-width joiner and non-joiner stay:
/// emoji sequences and several scripts need them, and they change no direction.
fn forbidden(c: char) -> bool {
    !matches!(c, '\u{200C}' | '\u{200D}')
        && matches!(
            c.general_category(),
            GeneralCategory::Control
                | GeneralCategory::Format
                | GeneralCategory::LineSeparator
                | GeneralCategory::ParagraphSeparator
                | GeneralCategory::Unassigned
                | GeneralCategory::PrivateUse
                | GeneralCategory::Surrogate
        )
}

/// Most combining marks one character (grapheme cluster) may carry: enough for every
/// script's stacked accents, too few to hide kilobytes in one character.
pub(crate) const MAX_MARKS_PER_CHARACTER: usize = 4;

/// A display name, checked: trimmed, in Unicode NFC, at most `limit` long (grapheme
/// clusters, as a person counts them, and bytes), at most [`MAX_MARKS_PER_CHARACTER`]
/// combining marks on one character, without invisible or direction-changing characters,
/// and not of the form bots play under (compared after compatibility folding and without
/// case, so full-width or otherwise disguised letters do not pass). Empty means "use the
/// default".
pub(crate) fn check(text: &str, limit: NameLimit, what: &str) -> Result<String, NameError> {
    let text: String = text.trim().nfc().collect();
    let refuse = |message: String| Err(NameError(message));
    if text.len() > limit.bytes || text.graphemes(true).count() > limit.characters {
        return refuse(format!(
            "the {what} may be at most {} characters ({} bytes) long",
            limit.characters, limit.bytes
        ));
    }
    if let Some(c) = text.chars().find(|&c| forbidden(c)) {
        return refuse(format!(
            "the {what} may not contain control, invisible or direction-changing characters \
             (it contains U+{:04X})",
            u32::from(c)
        ));
    }
    if text
        .graphemes(true)
        .any(|cluster| marks(cluster) > MAX_MARKS_PER_CHARACTER)
    {
        return refuse(format!(
            "the {what} may not stack more than {MAX_MARKS_PER_CHARACTER} accents or other \
             combining marks on one character"
        ));
    }
    if folded(&text).starts_with(&folded(BOT_NAME_PREFIX)) {
        return refuse(format!(
            "the {what} may not start with {BOT_NAME_PREFIX:?}: that is how the server's bots \
             are named"
        ));
    }
    Ok(text)
}

/// Combining marks in `cluster`.
fn marks(cluster: &str) -> usize {
    cluster
        .chars()
        .filter(|c| {
            matches!(
                c.general_category(),
                GeneralCategory::NonspacingMark
                    | GeneralCategory::SpacingMark
                    | GeneralCategory::EnclosingMark
            )
        })
        .count()
}

/// `text` as names are compared: compatibility-folded (NFKC: full-width and styled letters
/// become plain ones) and lower-cased.
pub(crate) fn folded(text: &str) -> String {
    text.nfkc().collect::<String>().to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYER: NameLimit = NameLimit {
        characters: 32,
        bytes: 64,
    };

    #[test]
    fn names_refuse_invisible_and_direction_changing_characters() {
        for bad in [
            "Ana\u{202E}lli",
            "\u{2066}Ana\u{2069}",
            "A\u{200B}na",
            "\u{FEFF}Ana",
            "An\u{00AD}a",
            "Ana\u{E0041}",
            "Ana\u{2028}Beto",
            "Ana\u{2029}Beto",
            "Ana\u{7}",
            "Ana\nBeto",
        ] {
            assert!(
                matches!(check(bad, PLAYER, "player name"), Err(NameError(_))),
                "{bad:?} should be refused"
            );
        }
    }

    #[test]
    fn names_are_normalised_and_counted_as_people_count() {
        let decomposed = "Jose\u{301}";
        assert_eq!(
            check(decomposed, PLAYER, "player name").ok().as_deref(),
            Some("José")
        );
        let family = "👨‍👩‍👧".repeat(3);
        let four = |bytes| NameLimit {
            characters: 3,
            bytes,
        };
        assert!(
            check(&family, four(54), "player name").is_ok(),
            "3 graphemes, 54 bytes"
        );
        assert!(
            check(&family, four(53), "player name").is_err(),
            "too many bytes"
        );
        let two = NameLimit {
            characters: 2,
            bytes: 100,
        };
        assert!(
            check(&family, two, "player name").is_err(),
            "too many characters"
        );
        assert_eq!(check("  Ana  ", PLAYER, "x").ok().as_deref(), Some("Ana"));
        assert_eq!(check("", PLAYER, "x").ok().as_deref(), Some(""));
    }

    #[test]
    fn one_character_cannot_carry_kilobytes() {
        let heavy = format!("a{}", "\u{301}".repeat(20_000));
        let refused = check(&heavy, PLAYER, "player name");
        assert!(matches!(refused, Err(NameError(_))), "{refused:?}");
        let stacked = format!("x{}", "\u{301}\u{302}\u{303}\u{304}\u{305}");
        let error = check(&stacked, PLAYER, "player name").expect_err("five marks");
        assert!(error.to_string().contains("combining marks"), "{error}");
        // Vietnamese stacks two marks on a letter; Devanagari clusters carry a few.
        for fine in ["Nguyễn", "Phạm Thị Hồng", "क्षत्रिय"] {
            assert!(check(fine, PLAYER, "player name").is_ok(), "{fine}");
        }
    }

    #[test]
    fn bot_names_are_reserved() {
        for bad in [
            "Bot (random)",
            "bot (hard)",
            "BOT (x",
            "ＢＯＴ (hard)",
            "𝐁𝐨𝐭 (easy)",
        ] {
            assert!(check(bad, PLAYER, "player name").is_err(), "{bad:?}");
        }
        assert!(check("Botella", PLAYER, "player name").is_ok());
    }
}
