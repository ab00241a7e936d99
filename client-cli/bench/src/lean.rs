//! Lean decoding of the replies the simulated players read: only the version, phase, seat
//! to move and the legal moves (kept as undecoded bytes until one is chosen). The rest of a
//! `GameView` (pieces, players, status, last event) is skipped by length, so that the
//! client spends its time on the calls and the measurement reflects the server.
//!
//! Field numbers are those of `proto/trinchera/v1/*.proto`; the test at the bottom checks
//! them against the generated types.

use prost::bytes::Bytes;
use tonic::client::Grpc;
use tonic::codegen::http::uri::PathAndQuery;
use tonic::transport::Channel;
use tonic_prost::ProstCodec;
use trinchera_client::{Server, authed};
use trinchera_proto::v1 as pb;

use crate::failure::Failure;

/// The parts of `trinchera.v1.GameView` a player needs to move.
#[derive(Clone, PartialEq, prost::Message)]
pub struct View {
    /// `GameView.version`.
    #[prost(uint64, tag = "3")]
    pub version: u64,
    /// `GameView.phase`.
    #[prost(enumeration = "pb::Phase", tag = "4")]
    pub phase: i32,
    /// `GameView.to_move`.
    #[prost(int32, optional, tag = "6")]
    pub to_move: Option<i32>,
    /// `GameView.legal_moves`, each an encoded `LegalMove` (slices of the received
    /// message, not copies: only the one chosen is ever decoded).
    #[prost(bytes = "bytes", repeated, tag = "10")]
    pub legal_moves: Vec<Bytes>,
}

/// The version of a `trinchera.v1.Event`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EventVersion {
    /// `Event.version`.
    #[prost(uint64, tag = "1")]
    pub version: u64,
}

/// `MakeMoveResponse` with only its event's version.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MoveReply {
    /// `MakeMoveResponse.event`.
    #[prost(message, optional, tag = "1")]
    pub event: Option<EventVersion>,
    /// `MakeMoveResponse.view`.
    #[prost(message, optional, tag = "2")]
    pub view: Option<View>,
}

/// `GetViewResponse`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ViewReply {
    /// `GetViewResponse.view`.
    #[prost(message, optional, tag = "1")]
    pub view: Option<View>,
}

/// `WatchGameResponse` without its event.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Watched {
    /// `WatchGameResponse.version`.
    #[prost(uint64, tag = "1")]
    pub version: u64,
    /// `WatchGameResponse.view`.
    #[prost(message, optional, tag = "3")]
    pub view: Option<View>,
    /// `WatchGameResponse.snapshot`.
    #[prost(bool, tag = "4")]
    pub snapshot: bool,
}

/// The move inside an encoded `LegalMove`.
pub fn move_of(legal: &[u8]) -> Result<pb::Move, Failure> {
    let legal: pb::LegalMove = prost::Message::decode(legal)
        .map_err(|e| Failure::Unexpected(format!("the server sent a malformed legal move: {e}")))?;
    legal.r#move.ok_or_else(|| {
        Failure::Unexpected("the server listed a legal move without its move".into())
    })
}

fn path(method: &'static str) -> PathAndQuery {
    PathAndQuery::from_static(method)
}

/// Calls on one connection with the lean reply types.
pub struct Calls<'a> {
    server: &'a Server,
}

impl<'a> Calls<'a> {
    /// Calls over `server`'s connection, its errors told as the client library tells them.
    pub fn new(server: &'a Server) -> Calls<'a> {
        Calls { server }
    }

    async fn ready(&self) -> Result<Grpc<Channel>, Failure> {
        let mut grpc = Grpc::new(self.server.channel().clone());
        grpc.ready()
            .await
            .map_err(|e| self.server.error(tonic::Status::unavailable(e.to_string())))?;
        Ok(grpc)
    }

    async fn unary<Q, R>(
        &self,
        method: &'static str,
        message: Q,
        token: Option<&str>,
    ) -> Result<R, Failure>
    where
        Q: prost::Message + Send + Sync + 'static,
        R: prost::Message + Default + Send + Sync + 'static,
    {
        let request = authed(message, token)?;
        let mut grpc = self.ready().await?;
        grpc.unary(request, path(method), ProstCodec::<Q, R>::default())
            .await
            .map(tonic::Response::into_inner)
            .map_err(|status| Failure::from(self.server.error(status)))
    }

    /// `MakeMove` for the holder of `token`.
    pub async fn make_move(
        &self,
        request: pb::MakeMoveRequest,
        token: &str,
    ) -> Result<MoveReply, Failure> {
        self.unary("/trinchera.v1.GameService/MakeMove", request, Some(token))
            .await
    }

    /// `GetView` for the holder of `token`.
    pub async fn view(&self, game: &str, token: &str) -> Result<ViewReply, Failure> {
        let request = pb::GetViewRequest {
            game_id: game.to_owned(),
        };
        self.unary("/trinchera.v1.GameService/GetView", request, Some(token))
            .await
    }

    /// `WatchGame` from a snapshot of the present, as the holder of `token` or a spectator,
    /// with whole views or (`piece_changes_only`) only the pieces that changed, and (`lean`,
    /// for a client that keeps its own board) no message for the seat's own moves after
    /// which the other acts.
    pub async fn watch(
        &self,
        game: &str,
        token: Option<&str>,
        piece_changes_only: bool,
        lean: bool,
    ) -> Result<tonic::Streaming<Watched>, Failure> {
        let request = authed(
            pb::WatchGameRequest {
                game_id: game.to_owned(),
                after_version: None,
                piece_changes_only,
                skip_own_moves: lean,
            },
            token,
        )?;
        let mut grpc = self.ready().await?;
        grpc.server_streaming(
            request,
            path("/trinchera.v1.GameService/WatchGame"),
            ProstCodec::<pb::WatchGameRequest, Watched>::default(),
        )
        .await
        .map(tonic::Response::into_inner)
        .map_err(|status| Failure::from(self.server.error(status)))
    }
}

#[cfg(test)]
mod tests {
    use prost::Message;

    use super::*;

    #[test]
    fn lean_types_read_what_the_generated_types_write() {
        let legal = pb::LegalMove {
            r#move: Some(pb::Move {
                action: Some(pb::r#move::Action::EndPhase(pb::EndPhase {})),
            }),
            notation: "end".into(),
        };
        let view = pb::GameView {
            game_id: "7".into(),
            version: 42,
            phase: pb::Phase::Playing as i32,
            to_move: Some(1),
            pieces: vec![pb::Piece::default(); 3],
            legal_moves: vec![legal.clone()],
            ..pb::GameView::default()
        };
        let reply = pb::MakeMoveResponse {
            event: Some(pb::Event {
                version: 42,
                ..pb::Event::default()
            }),
            view: Some(view.clone()),
        };
        let lean = MoveReply::decode(reply.encode_to_vec().as_slice()).expect("decodes");
        assert_eq!(lean.event.map(|e| e.version), Some(42));
        let lean = lean.view.expect("view");
        assert_eq!(lean.version, 42);
        assert_eq!(lean.phase(), pb::Phase::Playing);
        assert_eq!(lean.to_move, Some(1));
        assert_eq!(
            move_of(&lean.legal_moves[0]).expect("move"),
            legal.r#move.clone().expect("move")
        );
        let watched = pb::WatchGameResponse {
            version: 42,
            event: None,
            view: Some(view.clone()),
            snapshot: true,
            removed_pieces: Vec::new(),
        };
        let lean = Watched::decode(watched.encode_to_vec().as_slice()).expect("decodes");
        assert_eq!((lean.version, lean.snapshot), (42, true));
        let got = pb::GetViewResponse { view: Some(view) };
        let lean = ViewReply::decode(got.encode_to_vec().as_slice()).expect("decodes");
        assert_eq!(lean.view.map(|v| v.legal_moves.len()), Some(1));
    }
}
