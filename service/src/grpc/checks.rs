//! Checks of request fields at the edge, before anything reaches the game manager: game
//! ids, display names and notation lengths.

use std::net::IpAddr;

use trinchera_rules::Quoted;

use crate::error::ApiError;
use crate::games::Limits;
use crate::names;
use crate::names::NameLimit;
use trinchera_game::Reason;
use trinchera_game::bots::BotLevel;
use trinchera_store::GameId;

/// Parses a game id strictly: the decimal digits the server writes, nothing else (no sign,
/// no leading zero, no spaces). Anything else is no game of this server.
pub(super) fn game_id(text: &str) -> Result<GameId, ApiError> {
    if text.is_empty() {
        return Err(ApiError::invalid(Reason::BadRequest, "game_id is required"));
    }
    let canonical = !text.starts_with('0');
    match text.parse() {
        Ok(id) if canonical => Ok(id),
        _ => Err(ApiError::NotFound(text.chars().take(40).collect())),
    }
}

/// A display name, checked by [`names::check`]; a refusal is `INVALID_ARGUMENT` with
/// reason `BAD_NAME`.
pub(super) fn name(text: &str, limit: NameLimit, what: &str) -> Result<String, ApiError> {
    names::check(text, limit, what)
        .map_err(|error| ApiError::invalid(Reason::BadName, error.to_string()))
}

/// A bot level by name; empty for none.
pub(super) fn bot_level(text: &str) -> Result<Option<BotLevel>, ApiError> {
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
pub(super) fn notation(text: &str, limits: &Limits) -> Result<(), ApiError> {
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
pub(super) fn peer<T>(request: &tonic::Request<T>) -> Option<IpAddr> {
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
    fn a_refused_name_is_a_bad_name() {
        let refused = name("Ana\u{202E}lli", PLAYER, "player name");
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
        assert_eq!(name(" Ana ", PLAYER, "x").ok().as_deref(), Some("Ana"));
    }
}
