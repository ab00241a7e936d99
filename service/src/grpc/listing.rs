//! A `ListGamesRequest` read into the store's [`ListQuery`], every field checked (but the
//! player, an account the service looks up).

use trinchera_proto::v1 as pb;
use trinchera_rules::{Quoted, catalog};

use crate::error::ApiError;
use trinchera_game::Reason;
use trinchera_game::wire;
use trinchera_store::ListQuery;

/// Largest ListGames page (the contract's bound).
pub(super) const MAX_PAGE: usize = 100;
/// ListGames page when none is asked for.
pub(super) const DEFAULT_PAGE: usize = 20;

/// `request` read into a [`ListQuery`], every field checked.
pub(super) fn query(request: &pb::ListGamesRequest) -> Result<ListQuery, ApiError> {
    let limit = match usize::try_from(request.page_size) {
        Ok(0) => DEFAULT_PAGE,
        Ok(size) if size <= MAX_PAGE => size,
        _ => {
            return Err(ApiError::invalid(
                Reason::BadRequest,
                format!("page_size must be between 1 and {MAX_PAGE}"),
            ));
        }
    };
    let before = match request.page_token.as_str() {
        "" => None,
        token => Some(token.parse().map_err(|()| {
            ApiError::invalid(Reason::BadRequest, "page_token is not one this server gave")
        })?),
    };
    let phase = match pb::Phase::try_from(request.phase) {
        Ok(pb::Phase::Unspecified) => None,
        Ok(phase) => Some(wire::phase_from(phase)),
        Err(_) => {
            return Err(ApiError::invalid(
                Reason::BadRequest,
                format!("unknown phase {}", request.phase),
            ));
        }
    };
    let ruleset = match request.ruleset.as_str() {
        "" => None,
        id => Some(
            catalog::RULESETS
                .iter()
                .position(|r| (r.description)().id == id)
                .ok_or_else(|| {
                    ApiError::invalid(
                        Reason::UnknownRuleset,
                        format!(
                            "there is no ruleset {}; the server hosts: {}",
                            Quoted(id),
                            catalog::ids().join(", ")
                        ),
                    )
                })?,
        ),
    };
    Ok(ListQuery {
        phase,
        ruleset,
        speed: wire::speed_from(request.speed)?,
        before,
        limit,
        player: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use trinchera_store::GameId;
    use trinchera_store::GamePhase;

    #[test]
    fn requests_become_queries_or_clear_refusals() {
        let asked = query(&pb::ListGamesRequest {
            phase: pb::Phase::Waiting as i32,
            ruleset: "asalto".into(),
            page_size: 0,
            page_token: "40".into(),
            speed: pb::Speed::Unspecified as i32,
            player: "Ana".into(),
        })
        .expect("valid");
        assert_eq!(
            asked,
            ListQuery {
                phase: Some(GamePhase::Waiting),
                ruleset: Some(3),
                speed: None,
                before: Some(GameId(40)),
                limit: DEFAULT_PAGE,
                player: None,
            }
        );
        for bad in [
            pb::ListGamesRequest {
                page_size: 101,
                ..Default::default()
            },
            pb::ListGamesRequest {
                page_token: "x".into(),
                ..Default::default()
            },
            pb::ListGamesRequest {
                ruleset: "ajedrez".into(),
                ..Default::default()
            },
            pb::ListGamesRequest {
                phase: 9,
                ..Default::default()
            },
        ] {
            let refused = query(&bad).expect_err("refused");
            assert!(
                matches!(refused, ApiError::InvalidArgument { .. }),
                "{refused}"
            );
        }
    }
}
