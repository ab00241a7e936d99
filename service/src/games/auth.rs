//! Who a caller is in a game: a seat, proven by its token, or a spectator.

use trinchera_rules::{Seat, Viewer};

use super::Games;
use crate::error::ApiError;
use trinchera_game::GameState;
use trinchera_store::TokenHash;

impl Games {
    /// The seat a token acts for in `state`, or the right refusal; acting spends from the
    /// token's rate limit.
    pub(super) async fn seat_for(
        &self,
        state: &GameState,
        token: Option<&str>,
    ) -> Result<Seat, ApiError> {
        let Some(token) = token else {
            return Err(ApiError::Unauthenticated(
                "this call acts for a player: send the metadata `authorization: Bearer <player token>`",
            ));
        };
        let (seat, hash) = self.seat_of_token(state, token).await?;
        self.writes.throttle.acting(&hash)?;
        Ok(seat)
    }

    /// Who the caller is for a read: a player with a valid token, a spectator without one.
    pub(super) async fn viewer_for(
        &self,
        state: &GameState,
        token: Option<&str>,
    ) -> Result<Viewer, ApiError> {
        match token {
            None => Ok(Viewer::Spectator),
            Some(token) => Ok(Viewer::Player(self.seat_of_token(state, token).await?.0)),
        }
    }

    /// The seat whose token is `token`; a token of another game or of none is refused.
    async fn seat_of_token(
        &self,
        state: &GameState,
        token: &str,
    ) -> Result<(Seat, TokenHash), ApiError> {
        let hash = TokenHash::of(token);
        if let Some(seat) = state.seat_of(&hash) {
            tracing::Span::current().record("seat", seat.index());
            return Ok((seat, hash));
        }
        // The call's refusal is logged at warn, with its request id and peer.
        match self.store.token_owner(&hash).await? {
            Some(owner) if owner != state.id() => Err(ApiError::PermissionDenied),
            _ => Err(ApiError::Unauthenticated("the player token is not valid")),
        }
    }
}
