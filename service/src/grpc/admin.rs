//! The `trinchera.admin.v1.AdminService` adapter, served only on the admin listener: an
//! export of every game while the server keeps serving.

use std::pin::Pin;
use std::sync::Arc;

use tokio_stream::Stream;
use tonic::{Request, Response, Status};
use trinchera_proto::admin::v1 as pb;
use trinchera_proto::admin::v1::admin_service_server::AdminService;

use crate::backup::Exporter;
use crate::games::Games;

/// Lines gathered into one response, in bytes at most (plus one line).
const RESPONSE_BYTES: usize = 256 * 1024;
/// Responses buffered ahead of a slow reader.
const AHEAD: usize = 4;

/// The admin service over a set of games.
pub(crate) struct Admin {
    games: Arc<Games>,
}

impl Admin {
    /// The service over `games`.
    pub(crate) fn new(games: Arc<Games>) -> Admin {
        Admin { games }
    }
}

type Lines = Pin<Box<dyn Stream<Item = Result<pb::ExportGamesResponse, Status>> + Send>>;

#[tonic::async_trait]
impl AdminService for Admin {
    type ExportGamesStream = Lines;

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
