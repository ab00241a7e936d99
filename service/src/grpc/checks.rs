//! Checks of request fields at the edge, before anything reaches the game manager: game
//! ids, display names and notation lengths.

use std::net::IpAddr;

use unicode_normalization::UnicodeNormalization;
use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};
use unicode_segmentation::UnicodeSegmentation;

use trinchera_rules::Quoted;

use crate::bots::BotLevel;
use crate::error::{ApiError, Reason};
use crate::games::{Limits, NameLimit};
use crate::ids::GameId;
use crate::state::BOT_NAME_PREFIX;

/// Parses a game id strictly: the decimal digits the server writes, nothing else (no sign,
/// no leading zero, no spaces). Anything else is no game of this server.
pub fn game_id(text: &str) -> Result<GameId, ApiError> {
    if text.is_empty() {
        return Err(ApiError::invalid(Reason::BadRequest, "game_id is required"));
    }
    let canonical = !text.starts_with('0');
    match text.parse() {
        Ok(id) if canonical => Ok(id),
        _ => Err(ApiError::NotFound(text.chars().take(40).collect())),
    }
}

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
pub const MAX_MARKS_PER_CHARACTER: usize = 4;

/// A display name, checked: trimmed, in Unicode NFC, at most `limit` long (grapheme
/// clusters, as a person counts them, and bytes), at most [`MAX_MARKS_PER_CHARACTER`]
/// combining marks on one character, without invisible or direction-changing characters,
/// and not of the form bots play under (compared after compatibility folding and without
/// case, so full-width or otherwise disguised letters do not pass). Empty means "use the
/// default".
pub fn name(text: &str, limit: NameLimit, what: &str) -> Result<String, ApiError> {
    let text: String = text.trim().nfc().collect();
    let refuse = |message: String| Err(ApiError::invalid(Reason::BadName, message));
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
fn folded(text: &str) -> String {
    text.nfkc().collect::<String>().to_lowercase()
}

/// A bot level by name; empty for none.
pub fn bot_level(text: &str) -> Result<Option<BotLevel>, ApiError> {
    match text {
        "" => Ok(None),
        level => level.parse().map(Some).map_err(|()| {
            ApiError::invalid(
                Reason::BadRequest,
                format!(
                    "there is no bot level {}; levels: {}",
                    Quoted(level),
                    BotLevel::ALL.map(BotLevel::name).join(", ")
                ),
            )
        }),
    }
}

/// A move notation within the length limit.
pub fn notation(text: &str, limits: &Limits) -> Result<(), ApiError> {
    if text.len() > limits.max_notation {
        return Err(ApiError::invalid(
            Reason::BadNotation,
            format!(
                "a move's notation may be at most {} bytes long",
                limits.max_notation
            ),
        ));
    }
    Ok(())
}

/// The client's address, for per-address limits (a trusted proxy's forwarded address).
pub fn peer<T>(request: &tonic::Request<T>) -> Option<IpAddr> {
    crate::net::peer_address(request)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAYER: NameLimit = NameLimit {
        characters: 32,
        bytes: 64,
    };

    #[test]
    fn ids_are_read_strictly() {
        assert_eq!(game_id("17").ok(), Some(GameId(17)));
        for bad in [
            "017",
            "+17",
            " 17",
            "17 ",
            "1e3",
            "99999999999999999999999",
            "-1",
            "0",
        ] {
            assert!(
                matches!(game_id(bad), Err(ApiError::NotFound(_))),
                "{bad:?} should be no game"
            );
        }
        assert!(matches!(game_id(""), Err(ApiError::InvalidArgument { .. })));
    }

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
                matches!(
                    name(bad, PLAYER, "player name"),
                    Err(ApiError::InvalidArgument { .. })
                ),
                "{bad:?} should be refused"
            );
        }
    }

    #[test]
    fn names_are_normalised_and_counted_as_people_count() {
        let decomposed = "Jose\u{301}";
        assert_eq!(
            name(decomposed, PLAYER, "player name").ok().as_deref(),
            Some("José")
        );
        let family = "👨‍👩‍👧".repeat(3);
        let four = |bytes| NameLimit {
            characters: 3,
            bytes,
        };
        assert!(
            name(&family, four(54), "player name").is_ok(),
            "3 graphemes, 54 bytes"
        );
        assert!(
            name(&family, four(53), "player name").is_err(),
            "too many bytes"
        );
        let two = NameLimit {
            characters: 2,
            bytes: 100,
        };
        assert!(
            name(&family, two, "player name").is_err(),
            "too many characters"
        );
        assert_eq!(name("  Ana  ", PLAYER, "x").ok().as_deref(), Some("Ana"));
        assert_eq!(name("", PLAYER, "x").ok().as_deref(), Some(""));
    }

    #[test]
    fn one_character_cannot_carry_kilobytes() {
        let heavy = format!("a{}", "\u{301}".repeat(20_000));
        let refused = name(&heavy, PLAYER, "player name");
        assert!(
            matches!(
                refused,
                Err(ApiError::InvalidArgument {
                    reason: Reason::BadName,
                    ..
                })
            ),
            "{refused:?}"
        );
        let stacked = format!("x{}", "\u{301}\u{302}\u{303}\u{304}\u{305}");
        let error = name(&stacked, PLAYER, "player name").expect_err("five marks");
        assert!(error.to_string().contains("combining marks"), "{error}");
        // Vietnamese stacks two marks on a letter; Devanagari clusters carry a few.
        for fine in ["Nguyễn", "Phạm Thị Hồng", "क्षत्रिय"] {
            assert!(name(fine, PLAYER, "player name").is_ok(), "{fine}");
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
            assert!(name(bad, PLAYER, "player name").is_err(), "{bad:?}");
        }
        assert!(name("Botella", PLAYER, "player name").is_ok());
    }
}
