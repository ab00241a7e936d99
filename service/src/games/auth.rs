//! Who a caller is in a game: a seat, proven by its token or by an account that holds it,
//! or a spectator.

use trinchera_rules::{Seat, Viewer};

use super::Games;
use crate::accounts::Signed;
use crate::error::{AccountError, ApiError};
use trinchera_game::GameState;
use trinchera_store::TokenHash;

/// What a client's call says of who it is.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Caller<'a> {
    /// A seat's token, or none (a spectator, or a guest about to take a seat).
    Token(Option<&'a str>),
    /// A working account token (checked by the accounts).
    Account(&'a Signed),
}

impl<'a> Caller<'a> {
    /// The holder of the seat token `token`.
    #[cfg(test)]
    pub(crate) fn seat(token: &'a str) -> Self {
        Caller::Token(Some(token))
    }

    /// A caller without a token.
    pub(crate) const NOBODY: Caller<'static> = Caller::Token(None);
}

impl Games {
    /// The seat `caller` acts for in `state`, or the right refusal; acting spends from the
    /// token's rate limit.
    pub(super) async fn seat_for(
        &self,
        state: &GameState,
        caller: Caller<'_>,
    ) -> Result<Seat, ApiError> {
        let (seat, hash) = match caller {
            Caller::Token(None) => {
                return Err(ApiError::Unauthenticated(
                    "this call acts for a player: send the metadata `authorization: Bearer \
                     <player token>`",
                ));
            }
            Caller::Token(Some(token)) => self.seat_of_token(state, token).await?,
            Caller::Account(signed) => (seat_of_account(state, signed)?, signed.token),
        };
        self.writes.throttle.acting(&hash)?;
        Ok(seat)
    }

    /// Who the caller is for a read: a player with a valid seat token or an account that
    /// holds a seat, a spectator otherwise (an account watching another game among them).
    pub(super) async fn viewer_for(
        &self,
        state: &GameState,
        caller: Caller<'_>,
    ) -> Result<Viewer, ApiError> {
        match caller {
            Caller::Token(None) => Ok(Viewer::Spectator),
            Caller::Token(Some(token)) => {
                Ok(Viewer::Player(self.seat_of_token(state, token).await?.0))
            }
            Caller::Account(signed) => {
                Ok(seat_of_account(state, signed).map_or(Viewer::Spectator, Viewer::Player))
            }
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

/// The seat the signed-in account holds in `state`.
fn seat_of_account(state: &GameState, signed: &Signed) -> Result<Seat, ApiError> {
    let seat = state
        .seat_of_account(signed.account)
        .ok_or(AccountError::NotSeated)?;
    tracing::Span::current().record("seat", seat.index());
    Ok(seat)
}
