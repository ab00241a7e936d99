//! The `trinchera.v1.AccountService` adapter: check the request, call [`Accounts`], convert
//! back. Passwords are never logged.

use std::sync::Arc;

use tonic::{Request, Response, Status};
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::account_service_server::AccountService;
use trinchera_store::TokenHash;
use trinchera_store::records::{AccountRecord, AccountTokenRecord};

use super::{Call, checks, credential, handle};
use crate::accounts::{Accounts, Issued, Scopes, Signed, token_id};
use crate::error::{AccountError, ApiError};
use crate::games::Games;
use trinchera_game::Reason;

/// Longest token label, in characters.
const MAX_LABEL: usize = 64;
/// Longest life of a personal token, in days.
const MAX_TOKEN_DAYS: u32 = 3650;

/// The account service.
#[derive(Clone)]
pub(crate) struct AccountApi {
    accounts: Arc<Accounts>,
    /// The games, for the rate limits per address the edge checks.
    games: Arc<Games>,
}

impl AccountApi {
    /// The service over `accounts`, limited as `games` limits its clients.
    pub(crate) fn new(accounts: Arc<Accounts>, games: Arc<Games>) -> AccountApi {
        AccountApi { accounts, games }
    }

    /// The account of the call's token: a call of this service needs one.
    async fn signed<T>(&self, request: &Request<T>) -> Result<Signed, ApiError> {
        match credential(&self.accounts, request).await? {
            super::Credential::Account(signed) => Ok(signed),
            super::Credential::Token(_) => Err(AccountError::SignedOut.into()),
        }
    }
}

/// A token label, checked: at most [`MAX_LABEL`] characters, no control characters.
fn label(text: &str) -> Result<String, ApiError> {
    let text = text.trim();
    if text.chars().count() > MAX_LABEL || text.chars().any(char::is_control) {
        return Err(ApiError::invalid(
            Reason::BadRequest,
            format!(
                "a token's label may be at most {MAX_LABEL} characters, none of them control characters"
            ),
        ));
    }
    Ok(text.to_owned())
}

/// An account as others may see it.
fn account(record: &AccountRecord) -> pb::Account {
    pb::Account {
        name: record.name.clone(),
        created_ms: record.created_ms,
    }
}

/// A token without its secret.
fn token_info(hash: &TokenHash, record: &AccountTokenRecord) -> pb::TokenInfo {
    pb::TokenInfo {
        id: token_id(hash),
        label: record.label.clone(),
        scopes: Scopes::from_bits(record.scopes).to_wire(),
        session: record.session,
        created_ms: record.created_ms,
        expires_ms: record.expires_ms,
    }
}

/// What a new session's response carries.
fn session(issued: Issued) -> (Option<pb::Account>, String, Option<pb::TokenInfo>) {
    let info = token_info(&issued.hash, &issued.record);
    (Some(account(&issued.account)), issued.token, Some(info))
}

#[tonic::async_trait]
impl AccountService for AccountApi {
    async fn register(
        &self,
        request: Request<pb::RegisterRequest>,
    ) -> Result<Response<pb::RegisterResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("Register", &request, ""), async {
            self.games.throttle().register(checks::peer(&request))?;
            let label = label(&body.label)?;
            let issued = self
                .accounts
                .register(&body.name, &body.password, &label)
                .await?;
            let (account, token, token_info) = session(issued);
            Ok(pb::RegisterResponse {
                account,
                token,
                token_info,
            })
        })
        .await
    }

    async fn login(
        &self,
        request: Request<pb::LoginRequest>,
    ) -> Result<Response<pb::LoginResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("Login", &request, ""), async {
            let label = label(&body.label)?;
            let issued = self
                .accounts
                .login(checks::peer(&request), &body.name, &body.password, &label)
                .await?;
            let (account, token, token_info) = session(issued);
            Ok(pb::LoginResponse {
                account,
                token,
                token_info,
            })
        })
        .await
    }

    async fn logout(
        &self,
        request: Request<pb::LogoutRequest>,
    ) -> Result<Response<pb::LogoutResponse>, Status> {
        handle(Call::of("Logout", &request, ""), async {
            let signed = self.signed(&request).await?;
            self.accounts.logout(&signed).await?;
            Ok(pb::LogoutResponse {})
        })
        .await
    }

    async fn who_am_i(
        &self,
        request: Request<pb::WhoAmIRequest>,
    ) -> Result<Response<pb::WhoAmIResponse>, Status> {
        handle(Call::of("WhoAmI", &request, ""), async {
            let signed = self.signed(&request).await?;
            let record = self.accounts.whoami(&signed).await?;
            Ok(pb::WhoAmIResponse {
                account: Some(account(&record)),
                token: Some(token_info(&signed.token, &signed.record)),
            })
        })
        .await
    }

    async fn change_password(
        &self,
        request: Request<pb::ChangePasswordRequest>,
    ) -> Result<Response<pb::ChangePasswordResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("ChangePassword", &request, ""), async {
            let signed = self.signed(&request).await?;
            let peer = checks::peer(&request);
            let sessions_ended = self
                .accounts
                .change_password(peer, &signed, &body.password, &body.new_password)
                .await?;
            Ok(pb::ChangePasswordResponse { sessions_ended })
        })
        .await
    }

    async fn delete_account(
        &self,
        request: Request<pb::DeleteAccountRequest>,
    ) -> Result<Response<pb::DeleteAccountResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("DeleteAccount", &request, ""), async {
            let signed = self.signed(&request).await?;
            let peer = checks::peer(&request);
            self.accounts.delete(peer, &signed, &body.password).await?;
            Ok(pb::DeleteAccountResponse {})
        })
        .await
    }

    async fn create_token(
        &self,
        request: Request<pb::CreateTokenRequest>,
    ) -> Result<Response<pb::CreateTokenResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("CreateToken", &request, ""), async {
            let signed = self.signed(&request).await?;
            let scopes = Scopes::from_wire(&body.scopes)?;
            let label = label(&body.label)?;
            if label.is_empty() {
                return Err(ApiError::invalid(
                    Reason::BadRequest,
                    "a personal token needs a label, to tell it from the others",
                ));
            }
            if body.expires_in_days > MAX_TOKEN_DAYS {
                return Err(ApiError::invalid(
                    Reason::BadRequest,
                    format!("expires_in_days may be at most {MAX_TOKEN_DAYS} (0: never)"),
                ));
            }
            let issued = self
                .accounts
                .create_token(&signed, scopes, &label, body.expires_in_days)
                .await?;
            Ok(pb::CreateTokenResponse {
                token_info: Some(token_info(&issued.hash, &issued.record)),
                token: issued.token,
            })
        })
        .await
    }

    async fn list_tokens(
        &self,
        request: Request<pb::ListTokensRequest>,
    ) -> Result<Response<pb::ListTokensResponse>, Status> {
        handle(Call::of("ListTokens", &request, ""), async {
            let signed = self.signed(&request).await?;
            let tokens = self.accounts.tokens(&signed).await?;
            Ok(pb::ListTokensResponse {
                tokens: tokens
                    .iter()
                    .map(|(hash, record)| token_info(hash, record))
                    .collect(),
            })
        })
        .await
    }

    async fn revoke_token(
        &self,
        request: Request<pb::RevokeTokenRequest>,
    ) -> Result<Response<pb::RevokeTokenResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("RevokeToken", &request, ""), async {
            let signed = self.signed(&request).await?;
            self.accounts.revoke(&signed, body.id.trim()).await?;
            Ok(pb::RevokeTokenResponse {})
        })
        .await
    }
}
