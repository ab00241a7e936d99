//! The `trinchera.admin.v1.AdminService` adapter, served only on the admin listener: an
//! export of every game while the server keeps serving, and the accounts' upkeep.

use std::pin::Pin;
use std::sync::Arc;

use tokio_stream::Stream;
use tonic::{Request, Response, Status};
use trinchera_proto::admin::v1 as pb;
use trinchera_proto::admin::v1::admin_service_server::AdminService;

use crate::accounts::{AccountAdmin, Accounts};
use crate::backup::Exporter;
use crate::error::ApiError;
use crate::games::Games;

/// Lines gathered into one response, in bytes at most (plus one line).
const RESPONSE_BYTES: usize = 256 * 1024;
/// Responses buffered ahead of a slow reader.
const AHEAD: usize = 4;

/// The admin service over a set of games and their players' accounts.
pub(crate) struct Admin {
    games: Arc<Games>,
    accounts: AccountAdmin,
}

impl Admin {
    /// The service over `games` and `accounts`.
    pub(crate) fn new(games: Arc<Games>, accounts: Arc<Accounts>) -> Admin {
        Admin {
            games,
            accounts: AccountAdmin::over(accounts),
        }
    }
}

/// Runs an admin call: its refusal becomes a status (and is logged like the players').
async fn answer<T>(
    rpc: &'static str,
    work: impl Future<Output = Result<T, ApiError>>,
) -> Result<Response<T>, Status> {
    match work.await {
        Ok(reply) => Ok(Response::new(reply)),
        Err(error) => {
            tracing::info!(rpc, %error, "admin call refused");
            Err(Status::from(error))
        }
    }
}

type Lines = Pin<Box<dyn Stream<Item = Result<pb::ExportGamesResponse, Status>> + Send>>;

#[tonic::async_trait]
impl AdminService for Admin {
    type ExportGamesStream = Lines;

    async fn list_accounts(
        &self,
        request: Request<pb::ListAccountsRequest>,
    ) -> Result<Response<pb::ListAccountsResponse>, Status> {
        let after = request.get_ref().after_id;
        answer("ListAccounts", self.accounts.list(after)).await
    }

    async fn set_account_disabled(
        &self,
        request: Request<pb::SetAccountDisabledRequest>,
    ) -> Result<Response<pb::SetAccountDisabledResponse>, Status> {
        let body = request.get_ref();
        let changed = self.accounts.set_disabled(&body.name, body.disabled);
        answer("SetAccountDisabled", changed).await
    }

    async fn reset_password(
        &self,
        request: Request<pb::ResetPasswordRequest>,
    ) -> Result<Response<pb::ResetPasswordResponse>, Status> {
        let name = &request.get_ref().name;
        answer("ResetPassword", self.accounts.reset_password(name)).await
    }

    async fn export_games(
        &self,
        _: Request<pb::ExportGamesRequest>,
    ) -> Result<Response<Lines>, Status> {
        let (store, now_ms) = self.games.exporter_parts();
        let mut exporter = Exporter::new(store, now_ms, true);
        let (sender, receiver) = tokio::sync::mpsc::channel(AHEAD);
        tokio::spawn(async move {
            let mut lines = Vec::new();
            let mut bytes = 0;
            loop {
                let next = exporter.next_line().await;
                let last = !matches!(next, Ok(Some(_)));
                match next {
                    Ok(Some(line)) => {
                        let json = line.to_json();
                        bytes += json.len();
                        lines.push(json);
                    }
                    Ok(None) => {}
                    Err(error) => {
                        tracing::error!(%error, "export failed");
                        let failed = Status::internal(format!("the export failed: {error}"));
                        let _ = sender.send(Err(failed)).await;
                        return;
                    }
                }
                if bytes >= RESPONSE_BYTES || (last && !lines.is_empty()) {
                    bytes = 0;
                    let response = pb::ExportGamesResponse {
                        lines: std::mem::take(&mut lines),
                    };
                    if sender.send(Ok(response)).await.is_err() {
                        return;
                    }
                }
                if last {
                    tracing::info!(games = exporter.games(), "exported every game");
                    return;
                }
            }
        });
        Ok(Response::new(Box::pin(
            tokio_stream::wrappers::ReceiverStream::new(receiver),
        )))
    }
}
