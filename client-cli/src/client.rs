//! The connection to a Trinchera server: one channel, the bearer token on acting calls, and
//! the translation of gRPC statuses into [`CliError`]s.

use std::time::Duration;

use tonic::transport::{Channel, Endpoint};
use tonic::{Code, Request, Status};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_types::StatusExt;
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::game_service_client::GameServiceClient;

use crate::error::CliError;

/// How long to wait for a server to accept the connection.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// A connected server.
#[derive(Clone, Debug)]
pub struct Server {
    url: String,
    channel: Channel,
    client: GameServiceClient<Channel>,
    health: HealthClient<Channel>,
}

/// `url` with `http://` added when no scheme is given (`127.0.0.1:50051` works too).
pub fn normalize_url(url: &str) -> String {
    if url.contains("://") {
        url.trim_end_matches('/').to_owned()
    } else {
        format!("http://{}", url.trim_end_matches('/'))
    }
}

/// The words behind a transport error (its causes joined), for the connection hint.
fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

impl Server {
    /// Connects to the server at `url` (already normalized).
    pub async fn connect(url: &str) -> Result<Server, CliError> {
        let endpoint = Endpoint::from_shared(url.to_owned())
            .map_err(|e| CliError::Usage(format!("--server {url:?} is not a valid URL: {e}")))?
            .connect_timeout(CONNECT_TIMEOUT)
            .tcp_nodelay(true);
        let channel = endpoint
            .connect()
            .await
            .map_err(|e| CliError::Unreachable {
                url: url.to_owned(),
                detail: causes(&e),
            })?;
        Ok(Server {
            url: url.to_owned(),
            client: GameServiceClient::new(channel.clone()),
            health: HealthClient::new(channel.clone()),
            channel,
        })
    }

    /// The connection, for calls with other message types than the generated client's.
    pub fn channel(&self) -> &Channel {
        &self.channel
    }

    /// The failure a status stands for: a refusal, or a lost server.
    pub fn error(&self, status: Status) -> CliError {
        if status.code() == Code::Unavailable {
            return CliError::Unreachable {
                url: self.url.clone(),
                detail: status.message().to_owned(),
            };
        }
        let reason = status.get_details_error_info().map(|info| info.reason);
        CliError::Refused {
            status: status.code(),
            reason,
            message: status.message().to_owned(),
        }
    }

    /// Every hosted ruleset.
    pub async fn rulesets(&self) -> Result<pb::ListRulesetsResponse, CliError> {
        let reply = self
            .client
            .clone()
            .list_rulesets(pb::ListRulesetsRequest {})
            .await;
        self.answer(reply)
    }

    /// The ruleset `id`, or a usage error naming the hosted ones.
    pub async fn ruleset(&self, id: &str) -> Result<pb::Ruleset, CliError> {
        let all = self.rulesets().await?.rulesets;
        let ids: Vec<String> = all.iter().map(|r| r.id.clone()).collect();
        all.into_iter().find(|r| r.id == id).ok_or_else(|| {
            CliError::Usage(format!(
                "there is no ruleset {id:?}; the server hosts: {}",
                ids.join(", ")
            ))
        })
    }

    /// Creates a game.
    pub async fn create(
        &self,
        request: pb::CreateGameRequest,
    ) -> Result<pb::CreateGameResponse, CliError> {
        let reply = self.client.clone().create_game(request).await;
        self.answer(reply)
    }

    /// Joins a game.
    pub async fn join(
        &self,
        request: pb::JoinGameRequest,
    ) -> Result<pb::JoinGameResponse, CliError> {
        let reply = self.client.clone().join_game(request).await;
        self.answer(reply)
    }

    /// One page of game summaries.
    pub async fn list(
        &self,
        request: pb::ListGamesRequest,
    ) -> Result<pb::ListGamesResponse, CliError> {
        let reply = self.client.clone().list_games(request).await;
        self.answer(reply)
    }

    /// The game as the holder of `token` (or a spectator) sees it.
    pub async fn view(&self, game: &str, token: Option<&str>) -> Result<pb::GameView, CliError> {
        let request = authed(
            pb::GetViewRequest {
                game_id: game.to_owned(),
            },
            token,
        )?;
        let reply = self.client.clone().get_view(request).await;
        let view = self.answer(reply)?.view;
        view.ok_or_else(|| CliError::Local("the server sent no view".into()))
    }

    /// Submits a setup.
    pub async fn setup(
        &self,
        request: pb::SubmitSetupRequest,
        token: &str,
    ) -> Result<pb::SubmitSetupResponse, CliError> {
        let request = authed(request, Some(token))?;
        let reply = self.client.clone().submit_setup(request).await;
        self.answer(reply)
    }

    /// Plays a move.
    pub async fn play(
        &self,
        request: pb::MakeMoveRequest,
        token: &str,
    ) -> Result<pb::MakeMoveResponse, CliError> {
        let request = authed(request, Some(token))?;
        let reply = self.client.clone().make_move(request).await;
        self.answer(reply)
    }

    /// Resigns.
    pub async fn resign(&self, game: &str, token: &str) -> Result<pb::ResignResponse, CliError> {
        let request = authed(
            pb::ResignRequest {
                game_id: game.to_owned(),
            },
            Some(token),
        )?;
        let reply = self.client.clone().resign(request).await;
        self.answer(reply)
    }

    /// The history of a game.
    pub async fn history(
        &self,
        game: &str,
        token: Option<&str>,
    ) -> Result<pb::GetHistoryResponse, CliError> {
        let request = authed(
            pb::GetHistoryRequest {
                game_id: game.to_owned(),
            },
            token,
        )?;
        let reply = self.client.clone().get_history(request).await;
        self.answer(reply)
    }

    /// A live stream of the game's events after `after_version` (a snapshot first if unset).
    pub async fn watch(
        &self,
        game: &str,
        token: Option<&str>,
        after_version: Option<u64>,
    ) -> Result<tonic::Streaming<pb::WatchGameResponse>, CliError> {
        let request = authed(
            pb::WatchGameRequest {
                game_id: game.to_owned(),
                after_version,
            },
            token,
        )?;
        let reply = self.client.clone().watch_game(request).await;
        self.answer(reply)
    }

    /// `grpc.health.v1.Health/Check` of the whole server: fine when it is serving.
    pub async fn health(&self) -> Result<(), CliError> {
        let request = tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        };
        let reply = self.health.clone().check(request).await;
        match self.answer(reply)?.status() {
            ServingStatus::Serving => Ok(()),
            status => Err(CliError::Refused {
                status: Code::Unavailable,
                reason: None,
                message: format!("the server reports {}", status.as_str_name()),
            }),
        }
    }

    fn answer<T>(&self, reply: Result<tonic::Response<T>, Status>) -> Result<T, CliError> {
        reply
            .map(tonic::Response::into_inner)
            .map_err(|status| self.error(status))
    }
}

/// `message` acting for the holder of `token`; a spectator's request without one.
pub fn authed<T>(message: T, token: Option<&str>) -> Result<Request<T>, CliError> {
    let mut request = Request::new(message);
    if let Some(token) = token {
        let value = format!("Bearer {token}").parse().map_err(|_| {
            CliError::Usage("the player token may contain only printable ASCII".into())
        })?;
        request.metadata_mut().insert("authorization", value);
    }
    Ok(request)
}
