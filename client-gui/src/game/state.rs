//! The open game as its screen follows it ([`Game`]): the ruleset, the seat played from here
//! and its token, the view and when it came, the events, and whether an action is on its
//! way. The parts of the screen read it; the screen alone changes it, and makes the requests
//! that need the token and the version seen.

use web_time::Instant;

use trinchera_client::{Names, clock, status};
use trinchera_proto::v1 as pb;

use super::events::Events;
use crate::backend::Request;

/// The open game as its screen follows it.
#[derive(Clone, Debug)]
pub(super) struct Game {
    /// The game's ruleset.
    pub(super) ruleset: pb::Ruleset,
    /// The seat played from here; `None` for a spectator.
    pub(super) seat: Option<i32>,
    /// The seat's token.
    pub(super) token: Option<String>,
    /// The game as this viewer sees it now.
    pub(super) view: pb::GameView,
    /// When `view` arrived: a running clock counts down from here.
    view_at: Instant,
    /// Every event so far.
    pub(super) events: Events,
    /// Whether an action is on its way (no second one until it is answered).
    pub(super) in_flight: bool,
}

impl Game {
    /// The game of `view` seen from `seat` with `token`, its events those of `history`.
    pub(super) fn new(
        ruleset: pb::Ruleset,
        seat: Option<i32>,
        token: Option<String>,
        view: pb::GameView,
        history: &[pb::Event],
    ) -> Game {
        Game {
            ruleset,
            seat,
            token,
            view,
            view_at: Instant::now(),
            events: Events::of(history),
            in_flight: false,
        }
    }

    /// Takes `view` as the game now; whether the game moved on (a new version).
    pub(super) fn set_view(&mut self, view: pb::GameView) -> bool {
        let moved_on = view.version != self.view.version;
        self.view = view;
        self.view_at = Instant::now();
        moved_on
    }

    /// The viewer's setup zone, if the viewer sets up.
    pub(super) fn zone(&self) -> Option<&pb::SetupZone> {
        let seat = self.seat?;
        self.ruleset.setup_zones.iter().find(|z| z.seat == seat)
    }

    /// Whether the viewer still has to set up.
    pub(super) fn setting_up(&self) -> bool {
        status::setting_up(&Names::new(&self.ruleset), &self.view)
    }

    /// Whether the viewer is to act now.
    pub(super) fn my_turn(&self) -> bool {
        self.view.phase() == pb::Phase::Playing
            && self.seat.is_some()
            && self.view.to_move == self.seat
    }

    /// Milliseconds since the view's snapshot (the local clock counts from its arrival).
    fn since_view(&self) -> u64 {
        u64::try_from(self.view_at.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Each seat's time left now, counted down locally from the view's snapshot
    /// ([`clock::time_left`]); `None` in a game without a clock.
    pub(super) fn clocks(&self) -> Option<Vec<u64>> {
        let clock = self.view.clock.as_ref()?;
        Some(clock::time_left(clock, self.since_view()))
    }

    /// The limit that runs now other than a clock, with the time left ([`clock::deadline`]).
    pub(super) fn deadline(&self) -> Option<(pb::Lapse, u64)> {
        clock::deadline(self.view.clock.as_ref()?, self.since_view())
    }

    /// The request that `request` makes with the seat's token, then on its way; `None`
    /// without a token.
    fn send(&mut self, request: impl FnOnce(String) -> Request) -> Option<Request> {
        let token = self.token.clone()?;
        self.in_flight = true;
        Some(request(token))
    }

    /// The request that acts on the version seen; the action is then on its way.
    pub(super) fn act(&mut self, action: pb::make_move_request::Action) -> Option<Request> {
        let request = pb::MakeMoveRequest {
            game_id: self.view.game_id.clone(),
            action: Some(action),
            expected_version: Some(self.view.version),
            ..Default::default()
        };
        self.send(|token| Request::Move { token, request })
    }

    /// The request that submits the setup `placements`; it is then on its way.
    pub(super) fn submit(&mut self, placements: Vec<pb::Placement>) -> Option<Request> {
        let request = pb::SubmitSetupRequest {
            game_id: self.view.game_id.clone(),
            placements,
            random: false,
        };
        self.send(|token| Request::Setup { token, request })
    }

    /// The request for a setup made by the server around the pieces of `keep`; it is then
    /// on its way.
    pub(super) fn suggest(&mut self, keep: Vec<pb::Placement>) -> Option<Request> {
        let game = self.view.game_id.clone();
        self.send(|token| Request::Suggest { game, token, keep })
    }

    /// The request that resigns the game.
    pub(super) fn resign(&self) -> Option<Request> {
        Some(Request::Resign {
            game: self.view.game_id.clone(),
            token: self.token.clone()?,
        })
    }
}
