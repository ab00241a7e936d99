//! The `trinchera.v1.GameService` adapter: validate, convert, call [`Games`], convert back.
//! Handlers never touch storage or rules state directly.

mod checks;
pub mod convert;
mod listing;
mod replay;
mod watch;

use std::sync::{Arc, LazyLock};

use tonic::{Request, Response, Status};
use tracing::Instrument;
use trinchera_proto::v1 as pb;
use trinchera_proto::v1::game_service_server::GameService;
use trinchera_rules::{Seat, catalog};

use crate::error::{ApiError, Reason};
use crate::games::{Games, Intent, MoveInput, NewGame, SetupRequest, Who};
use crate::net::{HoldUntilSent, WatchPermit};
use crate::store::ListQuery;
use crate::state::PositionPage;

/// The gRPC service over a set of games.
#[derive(Clone)]
pub struct Api {
    games: Arc<Games>,
}

impl Api {
    /// The service over `games`.
    pub fn new(games: Arc<Games>) -> Api {
        Api { games }
    }
}

/// The player token of a request, from `authorization: Bearer <token>`.
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

/// A span for one RPC; `seat` is recorded once the caller is known. Tokens are never logged.
fn span(method: &'static str, game_id: &str) -> tracing::Span {
    tracing::info_span!("rpc", method, game_id, seat = tracing::field::Empty)
}

/// Runs a handler inside its span, logging refusals, and maps the error to a status.
async fn handle<T>(
    span: tracing::Span,
    work: impl Future<Output = Result<T, ApiError>>,
) -> Result<Response<T>, Status> {
    async move {
        let result = work.await;
        match &result {
            Ok(_) => tracing::debug!("ok"),
            Err(error) => tracing::info!(%error, "refused"),
        }
        result.map(Response::new).map_err(Status::from)
    }
    .instrument(span)
    .await
}

fn record_seat(seat: Seat) {
    tracing::Span::current().record("seat", seat.index());
}

#[tonic::async_trait]
impl GameService for Api {
    async fn list_rulesets(
        &self,
        _request: Request<pb::ListRulesetsRequest>,
    ) -> Result<Response<pb::ListRulesetsResponse>, Status> {
        /// The descriptions never change: convert them once.
        static RULESETS: LazyLock<pb::ListRulesetsResponse> =
            LazyLock::new(|| pb::ListRulesetsResponse {
                rulesets: catalog::RULESETS
                    .iter()
                    .map(|ruleset| convert::ruleset((ruleset.description)()))
                    .collect(),
            });
        handle(span("ListRulesets", ""), async { Ok(RULESETS.clone()) }).await
    }

    async fn create_game(
        &self,
        request: Request<pb::CreateGameRequest>,
    ) -> Result<Response<pb::CreateGameResponse>, Status> {
        let body = request.get_ref();
        handle(span("CreateGame", ""), async {
            let peer = checks::peer(&request);
            self.games.throttle().create_join(peer)?;
            let limits = self.games.limits();
            let name = checks::name(&body.name, limits.max_game_name, "game name")?;
            let player = checks::name(&body.player_name, limits.max_player_name, "player name")?;
            let seat = convert::seat_from(body.seat.unwrap_or(0))?;
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
                        control: convert::time_control_from(body.time_control.as_ref())?,
                    },
                )
                .await?;
            tracing::Span::current().record("game_id", id.to_string());
            tracing::info!(ruleset = %body.ruleset, "game created");
            Ok(pb::CreateGameResponse {
                game_id: id.to_string(),
                seat: seat.index() as i32,
                player_token: created.token.unwrap_or_default(),
                view: Some(convert::game_view(&created.snapshot)),
            })
        })
        .await
    }

    async fn join_game(
        &self,
        request: Request<pb::JoinGameRequest>,
    ) -> Result<Response<pb::JoinGameResponse>, Status> {
        let body = request.get_ref();
        handle(span("JoinGame", &body.game_id), async {
            self.games.throttle().create_join(checks::peer(&request))?;
            let id = checks::game_id(&body.game_id)?;
            let limits = self.games.limits();
            let player = checks::name(&body.player_name, limits.max_player_name, "player name")?;
            let joined = self
                .games
                .act(id, Who::Client(None), Intent::Join { name: player }, None)
                .await?;
            let seat = joined.seat.ok_or(ApiError::Internal("a join took no seat".into()))?;
            record_seat(seat);
            Ok(pb::JoinGameResponse {
                game_id: id.to_string(),
                seat: seat.index() as i32,
                player_token: joined.token.unwrap_or_default(),
                view: Some(convert::game_view(&joined.snapshot)),
            })
        })
        .await
    }

    async fn list_games(
        &self,
        request: Request<pb::ListGamesRequest>,
    ) -> Result<Response<pb::ListGamesResponse>, Status> {
        let body = request.get_ref();
        handle(span("ListGames", ""), async {
            let query = ListQuery::try_from(body)?;
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
                    .map(|(id, summary)| convert::summary(*id, summary))
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
        handle(span("GetView", &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let snapshot = self.games.view(id, token(&request)?.as_deref()).await?;
            if let Some(seat) = snapshot.viewer.seat() {
                record_seat(seat);
            }
            Ok(pb::GetViewResponse {
                view: Some(convert::game_view(&snapshot)),
            })
        })
        .await
    }

    async fn submit_setup(
        &self,
        request: Request<pb::SubmitSetupRequest>,
    ) -> Result<Response<pb::SubmitSetupResponse>, Status> {
        let body = request.get_ref();
        handle(span("SubmitSetup", &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let setup = if body.random {
                SetupRequest::Made
            } else {
                SetupRequest::Placements(convert::placements_from(&body.placements)?)
            };
            let token = token(&request)?;
            let acted = self
                .games
                .act(id, Who::Client(token.as_deref()), Intent::Setup(setup), None)
                .await?;
            Ok(pb::SubmitSetupResponse {
                view: Some(convert::game_view(&acted.snapshot)),
            })
        })
        .await
    }

    async fn make_move(
        &self,
        request: Request<pb::MakeMoveRequest>,
    ) -> Result<Response<pb::MakeMoveResponse>, Status> {
        let body = request.get_ref();
        handle(span("MakeMove", &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let input = match &body.action {
                Some(pb::make_move_request::Action::Move(mv)) => {
                    MoveInput::Action(convert::action_from(mv)?)
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
            let token = token(&request)?;
            let who = Who::Client(token.as_deref());
            let acted = self
                .games
                .act(id, who, Intent::Move(input), body.expected_version)
                .await?;
            let snapshot = &acted.snapshot;
            Ok(pb::MakeMoveResponse {
                event: Some(convert::event(&acted.event, snapshot.description)),
                view: Some(convert::game_view(snapshot)),
            })
        })
        .await
    }

    async fn resign(
        &self,
        request: Request<pb::ResignRequest>,
    ) -> Result<Response<pb::ResignResponse>, Status> {
        let body = request.get_ref();
        handle(span("Resign", &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let token = token(&request)?;
            let acted = self
                .games
                .act(id, Who::Client(token.as_deref()), Intent::Resign, None)
                .await?;
            Ok(pb::ResignResponse {
                view: Some(convert::game_view(&acted.snapshot)),
            })
        })
        .await
    }

    async fn claim_victory(
        &self,
        request: Request<pb::ClaimVictoryRequest>,
    ) -> Result<Response<pb::ClaimVictoryResponse>, Status> {
        let body = request.get_ref();
        handle(span("ClaimVictory", &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let token = token(&request)?;
            let acted = self
                .games
                .act(id, Who::Client(token.as_deref()), Intent::Claim, None)
                .await?;
            Ok(pb::ClaimVictoryResponse {
                view: Some(convert::game_view(&acted.snapshot)),
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
        handle(span("WatchGame", &body.game_id), async {
            let permit = WatchPermit::admit(&request)?;
            let id = checks::game_id(&body.game_id)?;
            self.games.throttle().stream_open(checks::peer(&request))?;
            let (viewer, watch) = self
                .games
                .watch(id, token(&request)?.as_deref(), body.after_version)
                .await?;
            let stream = watch::stream(Arc::clone(&self.games), id, viewer, watch);
            Ok(Box::pin(permit.hold(stream)) as watch::WatchStream)
        })
        .await
    }

    async fn get_history(
        &self,
        request: Request<pb::GetHistoryRequest>,
    ) -> Result<Response<pb::GetHistoryResponse>, Status> {
        let body = request.get_ref();
        handle(span("GetHistory", &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let page = body.positions.then_some(PositionPage {
                after: body.positions_after,
                limit: self.games.limits().history_page,
            });
            let (history, permit) = self
                .games
                .history(
                    id,
                    token(&request)?.as_deref(),
                    page,
                    checks::peer(&request),
                )
                .await?;
            Ok((convert::history(&history), permit))
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
        handle(span("ReplayGame", &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let session = self
                .games
                .replay(
                    id,
                    token(&request)?.as_deref(),
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
        handle(span("SuggestSetup", &body.game_id), async {
            let id = checks::game_id(&body.game_id)?;
            let keep = convert::placements_from(&body.keep)?;
            let placements = self
                .games
                .suggest_setup(id, token(&request)?.as_deref(), keep)
                .await?;
            Ok(pb::SuggestSetupResponse {
                placements: placements.iter().map(convert::placement).collect(),
            })
        })
        .await
    }
}
