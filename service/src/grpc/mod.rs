//! The `trinchera.v1.GameService` adapter: validate, convert, call [`Games`], convert back.
//! Handlers never touch storage or rules state directly.

mod accounts;
pub(crate) mod admin;
mod checks;
mod listing;
mod replay;
mod watch;

use std::sync::{Arc, LazyLock};
use std::time::Instant;
use trinchera_game::wire;

use tonic::metadata::{Ascii, MetadataValue};
use tonic::{Request, Response, Status};
use tracing::Instrument;
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::game_service_server::GameService;
use trinchera_rules::{Seat, catalog};

use crate::accounts::{Accounts, Signed, is_account_token};
use crate::error::{AccountError, ApiError};
use crate::games::{Answer, Caller, Games, Intent, MoveInput, NewGame, SetupRequest, Who};
use crate::net::{HoldUntilSent, WatchPermit};
use trinchera_game::PositionPage;
use trinchera_game::Reason;
use trinchera_store::ListQuery;

pub(crate) use self::accounts::AccountApi;

/// The gRPC service over a set of games and the accounts that play them.
#[derive(Clone)]
pub(crate) struct Api {
    games: Arc<Games>,
    accounts: Arc<Accounts>,
}

impl Api {
    /// The service over `games`, whose players' accounts are `accounts`.
    pub(crate) fn new(games: Arc<Games>, accounts: Arc<Accounts>) -> Api {
        Api { games, accounts }
    }

    /// Who the call's token says the caller is: an account's token is checked now.
    async fn credential<T>(&self, request: &Request<T>) -> Result<Credential, ApiError> {
        credential(&self.accounts, request).await
    }
}

/// The token of a request, from `authorization: Bearer <token>`.
fn token<T>(request: &Request<T>) -> Result<Option<String>, ApiError> {
    let Some(value) = request.metadata().get("authorization") else {
        return Ok(None);
    };
    let value = value.to_str().unwrap_or_default();
    match value.strip_prefix("Bearer ") {
        Some(token) if !token.trim().is_empty() => Ok(Some(token.trim().to_owned())),
        _ => Err(ApiError::Unauthenticated(
            "the authorization metadata must be `Bearer <player token>`",
        )),
    }
}

/// What a call's token says of its caller.
enum Credential {
    /// A seat's token, or none.
    Token(Option<String>),
    /// A working account token.
    Account(Signed),
}

impl Credential {
    /// The caller, as the games take it.
    fn caller(&self) -> Caller<'_> {
        match self {
            Credential::Token(token) => Caller::Token(token.as_deref()),
            Credential::Account(signed) => Caller::Account(signed),
        }
    }

    /// The signed-in account, if the token is an account's.
    fn signed(&self) -> Option<&Signed> {
        match self {
            Credential::Account(signed) => Some(signed),
            Credential::Token(_) => None,
        }
    }
}

/// The credential of `request`: an account's token (told by its prefix) is checked against
/// `accounts`; any other token is a seat's, checked by the game it is used in.
async fn credential<T>(accounts: &Accounts, request: &Request<T>) -> Result<Credential, ApiError> {
    match token(request)? {
        Some(token) if is_account_token(&token) => {
            Ok(Credential::Account(accounts.authenticate(&token).await?))
        }
        token => Ok(Credential::Token(token)),
    }
}

/// One call as it is logged and measured: its RPC, its request id (the client's
/// `x-request-id`, or a new one), its span and when it began.
struct Call {
    rpc: &'static str,
    request_id: MetadataValue<Ascii>,
    /// At debug level, so that a server logging at info builds no span per call (a span's
    /// fields cost more than a move's rules); refusals carry the same fields themselves.
    span: tracing::Span,
    game_id: String,
    peer: Option<std::net::IpAddr>,
    started: Instant,
}

/// Longest client request id the server carries over.
const MAX_REQUEST_ID: usize = 128;

impl Call {
    /// The call `rpc` of `request` about game `game_id` (empty if none). Its span carries
    /// the RPC, game, peer and request id; `seat` is recorded once the caller is known.
    /// Tokens are never logged.
    fn of<T>(rpc: &'static str, request: &Request<T>, game_id: &str) -> Call {
        let request_id = request
            .metadata()
            .get("x-request-id")
            .filter(|id| {
                let id = id.as_bytes();
                !id.is_empty() && id.len() <= MAX_REQUEST_ID && id.iter().all(u8::is_ascii_graphic)
            })
            .cloned()
            .unwrap_or_else(new_request_id);
        let peer = checks::peer(request);
        let span = tracing::debug_span!(
            "rpc",
            method = rpc,
            game_id,
            request_id = request_id.to_str().unwrap_or_default(),
            peer = %Shown(peer),
            seat = tracing::field::Empty,
        );
        Call {
            rpc,
            request_id,
            span,
            game_id: game_id.to_owned(),
            peer,
            started: Instant::now(),
        }
    }
}

/// A peer address as logged: empty when unknown.
struct Shown(Option<std::net::IpAddr>);

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(peer) => peer.fmt(f),
            None => Ok(()),
        }
    }
}

/// A request id for a call that came without one: 16 hex digits, this process's random
/// prefix and a count (unique in the server's logs, with no system call per call).
fn new_request_id() -> MetadataValue<Ascii> {
    static PREFIX: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let prefix =
        PREFIX.get_or_init(|| u32::from_le_bytes(crate::ids::random_bytes().unwrap_or_default()));
    let count = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    MetadataValue::try_from(format!("{prefix:08x}{count:08x}"))
        .unwrap_or_else(|_| MetadataValue::from_static("0"))
}

/// Runs a handler inside its call's span, logs and measures the call (one line at debug
/// level; refusals at info, those of tokens at warn, each with the request id), maps the error to a status, and returns the request id in the
/// response metadata.
async fn handle<T>(
    call: Call,
    work: impl Future<Output = Result<T, ApiError>>,
) -> Result<Response<T>, Status> {
    let result = work.instrument(call.span.clone()).await;
    let elapsed = call.started.elapsed();
    let code = match &result {
        Ok(_) => tonic::Code::Ok,
        Err(error) => {
            if let Some(limit) = error.limit() {
                crate::metrics::refused(limit);
            }
            // A wrong or guessed token is worth an operator's look; other refusals are
            // the game's ordinary business.
            macro_rules! refused {
                ($level:expr) => {
                    tracing::event!(
                        $level,
                        rpc = call.rpc,
                        game_id = call.game_id,
                        request_id = call.request_id.to_str().unwrap_or_default(),
                        peer = %Shown(call.peer),
                        %error,
                        "refused"
                    )
                };
            }
            match error.code() {
                tonic::Code::Unauthenticated | tonic::Code::PermissionDenied => {
                    refused!(tracing::Level::WARN);
                }
                _ => refused!(tracing::Level::INFO),
            }
            error.code()
        }
    };
    crate::metrics::request(call.rpc, code, elapsed.as_secs_f64());
    call.span.in_scope(|| {
        tracing::debug!(code = ?code, duration_ms = elapsed.as_secs_f64() * 1e3, "call");
    });
    match result {
        Ok(reply) => {
            let mut response = Response::new(reply);
            response
                .metadata_mut()
                .insert("x-request-id", call.request_id);
            Ok(response)
        }
        Err(error) => {
            let mut status = Status::from(error);
            status
                .metadata_mut()
                .insert("x-request-id", call.request_id);
            Err(status)
        }
    }
}

fn record_seat(seat: Seat) {
    tracing::Span::current().record("seat", seat.index());
}

#[tonic::async_trait]
impl GameService for Api {
    async fn list_rulesets(
        &self,
        request: Request<pb::ListRulesetsRequest>,
    ) -> Result<Response<pb::ListRulesetsResponse>, Status> {
        /// The descriptions never change: convert them once.
        static RULESETS: LazyLock<pb::ListRulesetsResponse> =
            LazyLock::new(|| pb::ListRulesetsResponse {
                rulesets: catalog::RULESETS
                    .iter()
                    .map(|ruleset| wire::ruleset((ruleset.description)()))
                    .collect(),
            });
        handle(Call::of("ListRulesets", &request, ""), async {
            Ok(RULESETS.clone())
        })
        .await
    }

    async fn create_game(
        &self,
        request: Request<pb::CreateGameRequest>,
    ) -> Result<Response<pb::CreateGameResponse>, Status> {
        let body = request.get_ref();
        let call = Call::of("CreateGame", &request, "");
        let request_id = call.request_id.clone();
        handle(call, async {
            let peer = checks::peer(&request);
            self.games.throttle().create_join(peer)?;
            let credential = self.credential(&request).await?;
            let limits = self.games.limits();
            let name = checks::name(&body.name, limits.max_game_name, "game name")?;
            let player = match credential.signed() {
                Some(signed) => signed.name.clone(),
                None => checks::name(&body.player_name, limits.max_player_name, "player name")?,
            };
            let seat = wire::seat_from(body.seat.unwrap_or(0))?;
            record_seat(seat);
            let bot = checks::bot_level(&body.bot)?;
            let creator_bot = checks::bot_level(&body.creator_bot)?;
            if creator_bot.is_some() && bot.is_none() {
                return Err(ApiError::invalid(
                    Reason::BadRequest,
                    "creator_bot needs bot: a bot plays the creator's seat only in a game \
                     between two bots",
                ));
            }
            let (id, created) = self
                .games
                .create(
                    peer,
                    NewGame {
                        ruleset: body.ruleset.clone(),
                        seat,
                        name,
                        player,
                        bot,
                        creator_bot,
                        control: wire::time_control_from(body.time_control.as_ref())?,
                        account: credential.signed().map(|signed| signed.account),
                    },
                )
                .await?;
            tracing::Span::current().record("game_id", id.to_string());
            tracing::info!(
                game_id = %id,
                ruleset = %body.ruleset,
                request_id = request_id.to_str().unwrap_or_default(),
                peer = %Shown(peer),
                "game created"
            );
            Ok(pb::CreateGameResponse {
                game_id: id.to_string(),
                seat: seat.index() as i32,
                player_token: created.token.unwrap_or_default(),
                view: created.snapshot.as_ref().map(wire::game_view),
            })
        })
        .await
    }

    async fn join_game(
        &self,
        request: Request<pb::JoinGameRequest>,
    ) -> Result<Response<pb::JoinGameResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("JoinGame", &request, &body.game_id), async {
            self.games.throttle().create_join(checks::peer(&request))?;
            let id = checks::game_id(&body.game_id)?;
            let credential = self.credential(&request).await?;
            let limits = self.games.limits();
            let join = match credential.signed() {
                Some(signed) => Intent::Join {
                    name: signed.name.clone(),
                    account: Some(signed.account),
                },
                None => Intent::Join {
                    name: checks::name(&body.player_name, limits.max_player_name, "player name")?,
                    account: None,
                },
            };
            let joined = self
                .games
                .act(id, Who::Client(Caller::NOBODY), join, None, Answer::View)
                .await?;
            let seat = joined
                .seat
                .ok_or(ApiError::Internal("a join took no seat".into()))?;
            record_seat(seat);
            Ok(pb::JoinGameResponse {
                game_id: id.to_string(),
                seat: seat.index() as i32,
                player_token: joined.token.unwrap_or_default(),
                view: joined.snapshot.as_ref().map(wire::game_view),
            })
        })
        .await
    }

    async fn list_games(
        &self,
        request: Request<pb::ListGamesRequest>,
    ) -> Result<Response<pb::ListGamesResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("ListGames", &request, ""), async {
            let mut query = listing::query(body)?;
            query.player = match body.player.trim() {
                "" => None,
                crate::accounts::MINE => {
                    let credential = self.credential(&request).await?;
                    let signed = credential.signed().ok_or(AccountError::SignedOut)?;
                    Some(signed.account)
                }
                name => Some(self.accounts.named(name).await?.0),
            };
            let games = self
                .games
                .list(&ListQuery {
                    limit: query.limit + 1,
                    ..query
                })
                .await?;
            let more = games.len() > query.limit;
            let games = &games[..games.len().min(query.limit)];
            Ok(pb::ListGamesResponse {
                next_page_token: match games.last() {
                    Some((id, _)) if more => id.to_string(),
                    _ => String::new(),
                },
                games: games
                    .iter()
                    .map(|(id, summary)| wire::summary(*id, summary))
                    .collect(),
            })
        })
        .await
    }

    async fn get_view(
        &self,
        request: Request<pb::GetViewRequest>,
    ) -> Result<Response<pb::GetViewResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("GetView", &request, &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let credential = self.credential(&request).await?;
            let snapshot = self.games.view(id, credential.caller()).await?;
            if let Some(seat) = snapshot.viewer.seat() {
                record_seat(seat);
            }
            Ok(pb::GetViewResponse {
                view: Some(wire::game_view(&snapshot)),
            })
        })
        .await
    }

    async fn submit_setup(
        &self,
        request: Request<pb::SubmitSetupRequest>,
    ) -> Result<Response<pb::SubmitSetupResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("SubmitSetup", &request, &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let setup = if body.random {
                SetupRequest::Made
            } else {
                SetupRequest::Placements(wire::placements_from(&body.placements)?)
            };
            let credential = self.credential(&request).await?;
            let acted = self
                .games
                .act(
                    id,
                    Who::Client(credential.caller()),
                    Intent::Setup(setup),
                    None,
                    Answer::View,
                )
                .await?;
            Ok(pb::SubmitSetupResponse {
                view: acted.snapshot.as_ref().map(wire::game_view),
            })
        })
        .await
    }

    async fn make_move(
        &self,
        request: Request<pb::MakeMoveRequest>,
    ) -> Result<Response<pb::MakeMoveResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("MakeMove", &request, &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let input = match &body.action {
                Some(pb::make_move_request::Action::Move(mv)) => {
                    MoveInput::Action(wire::action_from(mv)?)
                }
                Some(pb::make_move_request::Action::Notation(text)) => {
                    checks::notation(text, self.games.limits())?;
                    MoveInput::Notation(text.clone())
                }
                None => {
                    return Err(ApiError::invalid(
                        Reason::BadRequest,
                        "send the action as `move` or as `notation`",
                    ));
                }
            };
            let credential = self.credential(&request).await?;
            let who = Who::Client(credential.caller());
            let answer = if body.omit_view {
                Answer::Event
            } else {
                Answer::View
            };
            let acted = self
                .games
                .act(id, who, Intent::Move(input), body.expected_version, answer)
                .await?;
            Ok(pb::MakeMoveResponse {
                event: Some(wire::event(&acted.event, acted.description)),
                view: acted.snapshot.as_ref().map(wire::game_view),
            })
        })
        .await
    }

    async fn resign(
        &self,
        request: Request<pb::ResignRequest>,
    ) -> Result<Response<pb::ResignResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("Resign", &request, &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let credential = self.credential(&request).await?;
            let acted = self
                .games
                .act(
                    id,
                    Who::Client(credential.caller()),
                    Intent::Resign,
                    None,
                    Answer::View,
                )
                .await?;
            Ok(pb::ResignResponse {
                view: acted.snapshot.as_ref().map(wire::game_view),
            })
        })
        .await
    }

    async fn claim_victory(
        &self,
        request: Request<pb::ClaimVictoryRequest>,
    ) -> Result<Response<pb::ClaimVictoryResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("ClaimVictory", &request, &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let credential = self.credential(&request).await?;
            let acted = self
                .games
                .act(
                    id,
                    Who::Client(credential.caller()),
                    Intent::Claim,
                    None,
                    Answer::View,
                )
                .await?;
            Ok(pb::ClaimVictoryResponse {
                view: acted.snapshot.as_ref().map(wire::game_view),
            })
        })
        .await
    }

    type WatchGameStream = watch::WatchStream;

    async fn watch_game(
        &self,
        request: Request<pb::WatchGameRequest>,
    ) -> Result<Response<Self::WatchGameStream>, Status> {
        let body = request.get_ref();
        handle(Call::of("WatchGame", &request, &body.game_id), async {
            let permit = WatchPermit::admit(&request)?;
            let id = checks::game_id(&body.game_id)?;
            self.games.throttle().stream_open(checks::peer(&request))?;
            let (viewer, watch) = self
                .games
                .watch(
                    id,
                    self.credential(&request).await?.caller(),
                    body.after_version,
                    body.skip_own_moves,
                )
                .await?;
            let changes = body.piece_changes_only;
            let stream = watch::stream(Arc::clone(&self.games), id, viewer, watch, changes);
            Ok(Box::pin(permit.hold(stream)) as watch::WatchStream)
        })
        .await
    }

    async fn get_history(
        &self,
        request: Request<pb::GetHistoryRequest>,
    ) -> Result<Response<pb::GetHistoryResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("GetHistory", &request, &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let page = body.positions.then_some(PositionPage {
                after: body.positions_after,
                limit: self.games.limits().history_page,
            });
            let (history, permit) = self
                .games
                .history(
                    id,
                    self.credential(&request).await?.caller(),
                    page,
                    checks::peer(&request),
                )
                .await?;
            Ok((wire::history(&history), permit))
        })
        .await
        .map(|response| {
            // The replay's place is held until the reply has been sent.
            let (reply, permit) = response.into_inner();
            let mut response = Response::new(reply);
            response.extensions_mut().insert(HoldUntilSent::new(permit));
            response
        })
    }

    type ReplayGameStream = replay::ReplayStream;

    async fn replay_game(
        &self,
        request: Request<pb::ReplayGameRequest>,
    ) -> Result<Response<Self::ReplayGameStream>, Status> {
        let body = request.get_ref();
        handle(Call::of("ReplayGame", &request, &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let session = self
                .games
                .replay(
                    id,
                    self.credential(&request).await?.caller(),
                    body.after_version,
                    checks::peer(&request),
                )
                .await?;
            Ok(replay::stream(Arc::clone(&self.games), session))
        })
        .await
    }

    async fn suggest_setup(
        &self,
        request: Request<pb::SuggestSetupRequest>,
    ) -> Result<Response<pb::SuggestSetupResponse>, Status> {
        let body = request.get_ref();
        handle(Call::of("SuggestSetup", &request, &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let keep = wire::placements_from(&body.keep)?;
            let placements = self
                .games
                .suggest_setup(id, self.credential(&request).await?.caller(), keep)
                .await?;
            Ok(pb::SuggestSetupResponse {
                placements: placements.iter().map(wire::placement).collect(),
            })
        })
        .await
    }
}
