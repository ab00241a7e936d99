//! The connection to a Trinchera server: one channel, the bearer token on acting calls, the
//! translation of gRPC statuses into [`ClientError`]s, and every reply made display-safe
//! ([`Clean`]) before a client sees it.

use std::path::PathBuf;

use tonic::{Code, IntoRequest, Request, Status};
use tonic_health::pb::health_check_response::ServingStatus;
use tonic_health::pb::health_client::HealthClient;
use tonic_types::StatusExt;
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::account_service_client::AccountServiceClient;
use trinchera_proto::v1::game_service_client::GameServiceClient;

use crate::error::ClientError;
use crate::rebuild::Rebuild;
use crate::sanitize::{Clean, display_safe};

/// How long to wait for a server to accept the connection.
#[cfg(not(target_arch = "wasm32"))]
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);
/// The largest reply accepted: a replay's positions of a very long game.
const MAX_REPLY_BYTES: usize = 64 << 20;

/// How calls reach the server: an HTTP/2 channel (plaintext or TLS) on a desktop.
#[cfg(not(target_arch = "wasm32"))]
pub type Transport = tonic::transport::Channel;
/// How calls reach the server: gRPC-web over the browser's `fetch` in a web page.
#[cfg(target_arch = "wasm32")]
pub type Transport = tonic_web_wasm_client::Client;

/// A connected server.
#[derive(Clone, Debug)]
pub struct Server {
    url: String,
    channel: Transport,
    client: GameServiceClient<Transport>,
    /// The account calls ([`crate::accounts`]).
    pub(crate) accounts: AccountServiceClient<Transport>,
    health: HealthClient<Transport>,
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
#[cfg(not(target_arch = "wasm32"))]
fn causes(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        // Layers often repeat their cause's words ("tcp connect error: tcp connect error").
        let words = cause.to_string();
        if !text.ends_with(&words) {
            text.push_str(": ");
            text.push_str(&words);
        }
        source = cause.source();
    }
    text
}

/// Whether a call that ended with `status` lost the server rather than being refused by
/// it. The server never answers CANCELLED or UNKNOWN itself: CANCELLED is the transport's
/// word for a call the connection dropped (a stopping server sends unread calls away), and
/// a status made on this side from a transport failure (a browser's failed `fetch`, say)
/// is UNKNOWN with that failure as its source.
fn lost(status: &Status) -> bool {
    match status.code() {
        Code::Unavailable | Code::Cancelled => true,
        Code::Unknown => std::error::Error::source(status).is_some(),
        _ => false,
    }
}

/// What a client trusts when it reaches a server over TLS (an `https://` address): the
/// system's root certificates, and a private CA's if one is given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Trust {
    /// PEM certificates of a private CA (`--tls-ca`, `TRINCHERA_TLS_CA`).
    pub ca: Option<PathBuf>,
}

impl Server {
    /// Connects to the server at `url` (already normalized): plaintext HTTP/2 for
    /// `http://`, TLS for `https://`, trusting what `trust` says. A certificate that is not
    /// trusted is an error naming the address and the reason, never a fallback to
    /// plaintext.
    #[cfg(not(target_arch = "wasm32"))]
    pub async fn connect(url: &str, trust: &Trust) -> Result<Server, ClientError> {
        use tonic::transport::{Certificate, ClientTlsConfig, Endpoint};
        let bad = |detail: String| ClientError::BadAddress {
            url: url.to_owned(),
            detail,
        };
        let mut endpoint = Endpoint::from_shared(url.to_owned())
            .map_err(|e| bad(e.to_string()))?
            .connect_timeout(CONNECT_TIMEOUT)
            .tcp_nodelay(true);
        if url.starts_with("https://") {
            let mut tls = ClientTlsConfig::new().with_native_roots();
            if let Some(ca) = &trust.ca {
                let pem = std::fs::read(ca).map_err(|e| ClientError::file("cannot read", ca, e))?;
                tls = tls.ca_certificate(Certificate::from_pem(pem));
            }
            endpoint = endpoint.tls_config(tls).map_err(|e| bad(causes(&e)))?;
        }
        let channel = endpoint.connect().await.map_err(|e| {
            let detail = causes(&e);
            if detail.contains("certificate") {
                ClientError::Untrusted {
                    url: url.to_owned(),
                    detail,
                }
            } else {
                ClientError::Unreachable {
                    url: url.to_owned(),
                    detail,
                }
            }
        })?;
        Ok(Server::over(url, channel))
    }

    /// The server at `url` (already normalized) through the browser, over gRPC-web: the
    /// browser makes the connection (and checks an `https://` server's certificate) at
    /// the first call, so nothing is tried here; `trust` has no say.
    #[cfg(target_arch = "wasm32")]
    pub async fn connect(url: &str, _trust: &Trust) -> Result<Server, ClientError> {
        Ok(Server::over(
            url,
            tonic_web_wasm_client::Client::new(url.to_owned()),
        ))
    }

    /// The server at `url`, reached through `channel`.
    fn over(url: &str, channel: Transport) -> Server {
        Server {
            url: url.to_owned(),
            // A replay of a long game is larger than tonic's 4 MB default.
            client: GameServiceClient::new(channel.clone())
                .max_decoding_message_size(MAX_REPLY_BYTES),
            accounts: AccountServiceClient::new(channel.clone()),
            health: HealthClient::new(channel.clone()),
            channel,
        }
    }

    /// The connection, for calls with other message types than the generated client's.
    pub fn channel(&self) -> &Transport {
        &self.channel
    }

    /// The failure a status stands for: a refusal, or a lost server ([`lost`]).
    pub fn error(&self, status: Status) -> ClientError {
        if lost(&status) {
            return ClientError::Unreachable {
                url: self.url.clone(),
                detail: display_safe(status.message()).into_owned(),
            };
        }
        let reason = status
            .get_details_error_info()
            .map(|info| display_safe(&info.reason).into_owned());
        let retry_after = status
            .get_details_retry_info()
            .and_then(|retry| retry.retry_delay);
        ClientError::Refused {
            status: status.code(),
            reason,
            message: display_safe(status.message()).into_owned(),
            retry_after,
        }
    }

    /// Every hosted ruleset.
    pub async fn rulesets(&self) -> Result<pb::ListRulesetsResponse, ClientError> {
        let reply = self
            .client
            .clone()
            .list_rulesets(pb::ListRulesetsRequest {})
            .await;
        self.answer(reply)
    }

    /// The ruleset `id`, or a usage error naming the hosted ones.
    pub async fn ruleset(&self, id: &str) -> Result<pb::Ruleset, ClientError> {
        let all = self.rulesets().await?.rulesets;
        let ids: Vec<String> = all.iter().map(|r| r.id.clone()).collect();
        all.into_iter()
            .find(|r| r.id == id)
            .ok_or_else(|| ClientError::NoRuleset {
                id: display_safe(id).into_owned(),
                hosted: ids.join(", "),
            })
    }

    /// Creates a game: as a guest, or (a request [`authed`] with an account's token) as
    /// the account, which takes the seat under its name.
    pub async fn create(
        &self,
        request: impl IntoRequest<pb::CreateGameRequest>,
    ) -> Result<pb::CreateGameResponse, ClientError> {
        let reply = self.client.clone().create_game(request).await;
        self.answer(reply)
    }

    /// Joins a game: as a guest, or (a request [`authed`] with an account's token) as the
    /// account.
    pub async fn join(
        &self,
        request: impl IntoRequest<pb::JoinGameRequest>,
    ) -> Result<pb::JoinGameResponse, ClientError> {
        let reply = self.client.clone().join_game(request).await;
        self.answer(reply)
    }

    /// One page of game summaries (those of the caller's account, `player: "mine"`, need a
    /// request [`authed`] with the account's token).
    pub async fn list(
        &self,
        request: impl IntoRequest<pb::ListGamesRequest>,
    ) -> Result<pb::ListGamesResponse, ClientError> {
        let reply = self.client.clone().list_games(request).await;
        self.answer(reply)
    }

    /// The game as the holder of `token` (or a spectator) sees it.
    pub async fn view(&self, game: &str, token: Option<&str>) -> Result<pb::GameView, ClientError> {
        let request = authed(
            pb::GetViewRequest {
                game_id: game.to_owned(),
            },
            token,
        )?;
        let reply = self.client.clone().get_view(request).await;
        let view = self.answer(reply)?.view;
        view.ok_or(ClientError::Missing("view"))
    }

    /// Submits a setup.
    pub async fn setup(
        &self,
        request: pb::SubmitSetupRequest,
        token: &str,
    ) -> Result<pb::SubmitSetupResponse, ClientError> {
        let request = authed(request, Some(token))?;
        let reply = self.client.clone().submit_setup(request).await;
        self.answer(reply)
    }

    /// Plays a move.
    pub async fn play(
        &self,
        request: pb::MakeMoveRequest,
        token: &str,
    ) -> Result<pb::MakeMoveResponse, ClientError> {
        let request = authed(request, Some(token))?;
        let reply = self.client.clone().make_move(request).await;
        self.answer(reply)
    }

    /// Resigns.
    pub async fn resign(&self, game: &str, token: &str) -> Result<pb::ResignResponse, ClientError> {
        let request = authed(
            pb::ResignRequest {
                game_id: game.to_owned(),
            },
            Some(token),
        )?;
        let reply = self.client.clone().resign(request).await;
        self.answer(reply)
    }

    /// The history of a game; with `positions`, also the game after every event (read from
    /// the `ReplayGame` stream: see [`Server::replay`]).
    pub async fn history(
        &self,
        game: &str,
        token: Option<&str>,
        positions: bool,
    ) -> Result<pb::GetHistoryResponse, ClientError> {
        if positions {
            return self.replay(game, token).await;
        }
        let request = authed(
            pb::GetHistoryRequest {
                game_id: game.to_owned(),
                ..Default::default()
            },
            token,
        )?;
        let reply = self.client.clone().get_history(request).await;
        self.answer(reply)
    }

    /// The whole replay of a game (`ReplayGame`) as one history: every event with the game
    /// after it, the caller's view now and, after the end, the reveal. The server sends the
    /// names once; each position gets them back here, so that a position reads like a view.
    pub async fn replay(
        &self,
        game: &str,
        token: Option<&str>,
    ) -> Result<pb::GetHistoryResponse, ClientError> {
        let request = authed(
            pb::ReplayGameRequest {
                game_id: game.to_owned(),
                after_version: None,
            },
            token,
        )?;
        let reply = self.client.clone().replay_game(request).await;
        let mut stream = reply.map_err(|status| self.error(status))?.into_inner();
        let mut history = pb::GetHistoryResponse::default();
        let mut start = None;
        while let Some(message) = stream.message().await.map_err(|s| self.error(s))? {
            match message.item {
                Some(pb::replay_game_response::Item::Start(opening)) => start = Some(opening),
                Some(pb::replay_game_response::Item::Step(step)) => {
                    history.events.extend(step.event);
                    history.positions.extend(step.position);
                }
                None => {}
            }
        }
        let start = start.ok_or(ClientError::Missing("start of the replay"))?;
        for position in &mut history.positions {
            position.name.clone_from(&start.name);
            for (player, named) in position.players.iter_mut().zip(&start.players) {
                player.name.clone_from(&named.name);
            }
        }
        history.ruleset = start.ruleset;
        history.view = start.view;
        history.reveal = start.reveal;
        history.clean();
        Ok(history)
    }

    /// A setup for the caller's seat made by the server (not submitted), around the pieces
    /// of `keep`, which stay where they are.
    pub async fn suggest_setup(
        &self,
        game: &str,
        token: &str,
        keep: Vec<pb::Placement>,
    ) -> Result<Vec<pb::Placement>, ClientError> {
        let request = authed(
            pb::SuggestSetupRequest {
                game_id: game.to_owned(),
                keep,
            },
            Some(token),
        )?;
        let reply = self.client.clone().suggest_setup(request).await;
        Ok(self.answer(reply)?.placements)
    }

    /// A live stream of the game's events after `after_version` (a snapshot first if unset),
    /// each message with its whole view. The server sends only the pieces that changed
    /// (`piece_changes_only`); [`Watch`] puts the views back together.
    pub async fn watch(
        &self,
        game: &str,
        token: Option<&str>,
        after_version: Option<u64>,
    ) -> Result<Watch, ClientError> {
        let request = authed(
            pb::WatchGameRequest {
                game_id: game.to_owned(),
                after_version,
                piece_changes_only: true,
                ..Default::default()
            },
            token,
        )?;
        let reply = self.client.clone().watch_game(request).await;
        let stream = reply.map_err(|status| self.error(status))?.into_inner();
        Ok(Watch {
            server: self.clone(),
            stream,
            pieces: Rebuild::default(),
        })
    }

    /// `grpc.health.v1.Health/Check` of the whole server: fine when it is serving.
    pub async fn health(&self) -> Result<(), ClientError> {
        let request = tonic_health::pb::HealthCheckRequest {
            service: String::new(),
        };
        let reply = self.health.clone().check(request).await;
        let reply = reply.map_err(|status| self.error(status))?.into_inner();
        match reply.status() {
            ServingStatus::Serving => Ok(()),
            status => Err(ClientError::Refused {
                status: Code::Unavailable,
                reason: None,
                message: format!("the server reports {}", status.as_str_name()),
                retry_after: None,
            }),
        }
    }

    /// The reply, display-safe, or the failure its status stands for.
    pub(crate) fn answer<T: Clean>(
        &self,
        reply: Result<tonic::Response<T>, Status>,
    ) -> Result<T, ClientError> {
        let mut message = reply
            .map(tonic::Response::into_inner)
            .map_err(|status| self.error(status))?;
        message.clean();
        Ok(message)
    }
}

/// `message` acting for the holder of `token`; a spectator's request without one.
pub fn authed<T>(message: T, token: Option<&str>) -> Result<Request<T>, ClientError> {
    let mut request = Request::new(message);
    if let Some(token) = token {
        let value = format!("Bearer {token}")
            .parse()
            .map_err(|_| ClientError::BadToken)?;
        request.metadata_mut().insert("authorization", value);
    }
    Ok(request)
}

/// A live `WatchGame` stream whose messages arrive whole and display-safe.
#[derive(Debug)]
pub struct Watch {
    server: Server,
    stream: tonic::Streaming<pb::WatchGameResponse>,
    /// The pieces of the last message, which the next one's changes apply to.
    pieces: Rebuild,
}

impl Watch {
    /// The next message, its view whole; `None` when the stream ended (the game ended or
    /// the server shut down: resume with `after_version` set to the last version seen).
    pub async fn message(&mut self) -> Result<Option<pb::WatchGameResponse>, ClientError> {
        let mut message = self
            .stream
            .message()
            .await
            .map_err(|status| self.server.error(status))?;
        if let Some(message) = &mut message {
            self.pieces.whole(message);
        }
        message.clean();
        Ok(message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_call_loses_the_server_and_a_refusal_does_not() {
        assert!(lost(&Status::unavailable("shutting down")));
        assert!(lost(&Status::cancelled("connection closed")));
        let failed_here = std::io::Error::other("fetch failed");
        assert!(lost(&Status::from_error(Box::new(failed_here))));
        assert!(!lost(&Status::unknown("said by a server")));
        for refused in [
            Code::InvalidArgument,
            Code::FailedPrecondition,
            Code::Aborted,
            Code::ResourceExhausted,
        ] {
            assert!(!lost(&Status::new(refused, "no")), "{refused:?}");
        }
    }
}
