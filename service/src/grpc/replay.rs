//! ReplayGame streams: the opening, then the steps, computed a batch at a time on the
//! blocking pool only when the connection asks for more, so that a reader who stalls costs
//! the server one batch and one game state, not the whole replay.

use std::pin::Pin;
use std::sync::Arc;

use futures_util::StreamExt as _;
use tokio_stream::Stream;
use tonic::Status;
use trinchera_proto::v1 as pb;

use crate::error::ApiError;
use crate::games::{Games, ReplaySession};
use trinchera_game::wire;

/// The response stream of ReplayGame.
pub(super) type ReplayStream =
    Pin<Box<dyn Stream<Item = Result<pb::ReplayGameResponse, Status>> + Send>>;

/// Steps made per trip to the blocking pool: enough to make the trip worth it, few enough
/// that a stalled reader holds little (a frente position is about 1.5 KB).
const STEPS_PER_BATCH: usize = 16;

/// The stream of `session`; it ends early, with `UNAVAILABLE`, when the server stops.
pub(super) fn stream(games: Arc<Games>, session: ReplaySession) -> ReplayStream {
    let ReplaySession {
        opening,
        steps,
        permit,
    } = session;
    let start = Ok(wire::replay_start(&opening));
    let shutdown = games.shutdown_signal();
    let batches = futures_util::stream::unfold(Some((steps, permit)), move |state| {
        let stopping = *shutdown.borrow();
        async move {
            let (mut steps, permit) = state?;
            if stopping {
                let error = Status::from(ApiError::ShuttingDown);
                return Some((vec![Err(error)], None));
            }
            // A reader who stood still past the idle limit lost its place meanwhile.
            if let Err(error) = permit.check() {
                return Some((vec![Err(Status::from(error))], None));
            }
            let made = tokio::task::spawn_blocking(move || {
                let batch: Vec<_> = steps
                    .by_ref()
                    .take(STEPS_PER_BATCH)
                    .map(|step| match step {
                        Ok((event, seen)) => Ok(wire::replay_step(&event, &seen)),
                        Err(error) => Err(internal(error)),
                    })
                    .collect();
                (steps, batch)
            })
            .await;
            match made {
                Ok((_, batch)) if batch.is_empty() => None,
                Ok((steps, batch)) => {
                    let failed = batch.iter().any(Result::is_err);
                    Some((batch, (!failed).then_some((steps, permit))))
                }
                Err(error) => Some((vec![Err(internal(error))], None)),
            }
        }
    })
    .flat_map(futures_util::stream::iter);
    Box::pin(futures_util::stream::once(async { start }).chain(batches))
}

/// A replay that cannot go on: logged, and sent as a generic internal error.
fn internal(problem: impl Into<Box<dyn std::error::Error + Send + Sync>>) -> Status {
    Status::from(ApiError::Internal(problem.into()))
}
