//! Accounts (`trinchera.v1.AccountService`): the calls both clients make, what a sign-in
//! gives ([`SignedIn`]: the [`Session`] to keep, and the account as the server describes
//! it), how a token's prefix tells an account's token from a seat's, and the days the
//! account's tokens were made and run out.

use trinchera_proto::v1 as pb;

use crate::connection::{Server, authed};
use crate::error::ClientError;
use crate::store::Session;

/// How account tokens begin (seat tokens begin `tr1_`): the contract tells them apart so.
pub const ACCOUNT_TOKEN_PREFIX: &str = "tra1_";

/// Whether `token` is an account's (a session or a personal token), not a seat's.
pub fn is_account_token(token: &str) -> bool {
    token.starts_with(ACCOUNT_TOKEN_PREFIX)
}

/// A new session: what to keep, and what the server says of the account and the token.
#[derive(Clone, Debug)]
pub struct SignedIn {
    /// The session to keep ([`crate::Store::sign_in`]).
    pub session: Session,
    /// The account and the session's token without its secret, as `WhoAmI` tells them.
    pub who: pb::WhoAmIResponse,
}

impl SignedIn {
    /// The session of a Register or Login response.
    fn of(
        account: Option<pb::Account>,
        token: String,
        info: Option<pb::TokenInfo>,
    ) -> Result<SignedIn, ClientError> {
        let account = account.ok_or(ClientError::Missing("account"))?;
        let info = info.ok_or(ClientError::Missing("token details"))?;
        if token.is_empty() {
            return Err(ClientError::Missing("session token"));
        }
        Ok(SignedIn {
            session: Session {
                name: account.name.clone(),
                token,
                id: info.id.clone(),
            },
            who: pb::WhoAmIResponse {
                account: Some(account),
                token: Some(info),
            },
        })
    }
}

impl Server {
    /// Creates the account `name` with `password` and signs in: a session labelled `label`
    /// (the client's name).
    pub async fn register(
        &self,
        name: &str,
        password: &str,
        label: &str,
    ) -> Result<SignedIn, ClientError> {
        let request = pb::RegisterRequest {
            name: name.to_owned(),
            password: password.to_owned(),
            label: label.to_owned(),
        };
        let reply = self.accounts.clone().register(request).await;
        let reply = self.answer(reply)?;
        SignedIn::of(reply.account, reply.token, reply.token_info)
    }

    /// Signs in to the account `name`: a new session labelled `label`.
    pub async fn login(
        &self,
        name: &str,
        password: &str,
        label: &str,
    ) -> Result<SignedIn, ClientError> {
        let request = pb::LoginRequest {
            name: name.to_owned(),
            password: password.to_owned(),
            label: label.to_owned(),
        };
        let reply = self.accounts.clone().login(request).await;
        let reply = self.answer(reply)?;
        SignedIn::of(reply.account, reply.token, reply.token_info)
    }

    /// Ends the session of `token` on the server: the token stops working at once.
    pub async fn logout(&self, token: &str) -> Result<(), ClientError> {
        let request = authed(pb::LogoutRequest {}, Some(token))?;
        let reply = self.accounts.clone().logout(request).await;
        self.answer(reply).map(drop)
    }

    /// The account `token` acts for, and the token's details.
    pub async fn who_am_i(&self, token: &str) -> Result<pb::WhoAmIResponse, ClientError> {
        let request = authed(pb::WhoAmIRequest {}, Some(token))?;
        let reply = self.accounts.clone().who_am_i(request).await;
        self.answer(reply)
    }

    /// Makes a personal token of the account of `token` (which needs the play scope).
    pub async fn create_token(
        &self,
        token: &str,
        request: pb::CreateTokenRequest,
    ) -> Result<pb::CreateTokenResponse, ClientError> {
        let request = authed(request, Some(token))?;
        let reply = self.accounts.clone().create_token(request).await;
        self.answer(reply)
    }

    /// The working tokens of the account of `token`, newest first, without their secrets.
    pub async fn tokens(&self, token: &str) -> Result<pb::ListTokensResponse, ClientError> {
        let request = authed(pb::ListTokensRequest {}, Some(token))?;
        let reply = self.accounts.clone().list_tokens(request).await;
        self.answer(reply)
    }

    /// Revokes the token `id` (`TokenInfo.id`) of the account of `token`.
    pub async fn revoke_token(&self, token: &str, id: &str) -> Result<(), ClientError> {
        let request = authed(pb::RevokeTokenRequest { id: id.to_owned() }, Some(token))?;
        let reply = self.accounts.clone().revoke_token(request).await;
        self.answer(reply).map(drop)
    }
}

/// The day (UTC, `2025-03-14`) of a moment in ms since the Unix epoch, as the account's
/// tokens give their creation and expiry.
pub fn day(ms: u64) -> String {
    const MS_PER_DAY: u64 = 86_400_000;
    // Howard Hinnant's `civil_from_days`, for days since 1970-01-01 (never negative here).
    let days = ms / MS_PER_DAY + 719_468;
    let era = days / 146_097;
    let of_era = days % 146_097;
    let year_of_era = (of_era - of_era / 1_460 + of_era / 36_524 - of_era / 146_096) / 365;
    let of_year = of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let shifted_month = (5 * of_year + 2) / 153;
    let day = of_year - (153 * shifted_month + 2) / 5 + 1;
    let month = if shifted_month < 10 {
        shifted_month + 3
    } else {
        shifted_month - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_are_utc_calendar_days() {
        assert_eq!(day(0), "1970-01-01");
        assert_eq!(day(86_399_999), "1970-01-01");
        assert_eq!(day(86_400_000), "1970-01-02");
        // 2000-02-29 (a leap day of a century leap year), 2024-12-31, 2100-03-01.
        assert_eq!(day(951_782_400_000), "2000-02-29");
        assert_eq!(day(1_735_603_200_000 + 3_600_000), "2024-12-31");
        assert_eq!(day(4_107_542_400_000), "2100-03-01");
    }

    #[test]
    fn account_tokens_are_told_by_their_prefix() {
        assert!(is_account_token("tra1_abc"));
        assert!(!is_account_token("tr1_abc"));
        assert!(!is_account_token(""));
    }

    #[test]
    fn a_sign_in_without_its_parts_is_refused() {
        let account = Some(pb::Account {
            name: "Ana".into(),
            created_ms: 1,
        });
        let info = Some(pb::TokenInfo {
            id: "00000000000000aa".into(),
            ..Default::default()
        });
        let signed = SignedIn::of(account.clone(), "tra1_x".into(), info.clone()).expect("whole");
        assert_eq!(signed.session.name, "Ana");
        assert_eq!(signed.session.id, "00000000000000aa");
        assert_eq!(signed.who.account, account);
        assert!(SignedIn::of(None, "tra1_x".into(), info.clone()).is_err());
        assert!(SignedIn::of(account.clone(), String::new(), info).is_err());
        assert!(SignedIn::of(account, "tra1_x".into(), None).is_err());
    }
}
