//! Time limits decided by the server: a registry of every game's next deadline, a task
//! that settles each as it passes (a durable event that watchers see at once), the same
//! settlement before any action on a game whose deadline has passed, and claims against
//! absent players in games without a clock.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::Notify;
use trinchera_rules::Seat;

use super::Games;
use super::cache::{Held, Slot};
use super::pipeline::{Change, made_setup};
use crate::error::{ApiError, Reason};
use crate::ids::{self, GameId};
use crate::state::{GamePhase, GameState, Moment, Seen};
use crate::timing::Lapse;

/// Every game's next deadline, soonest first.
#[derive(Debug, Default)]
pub struct Deadlines {
    inner: Mutex<Registry>,
    changed: Notify,
}

#[derive(Debug, Default)]
struct Registry {
    by_time: BTreeSet<(u64, GameId)>,
    by_game: HashMap<GameId, u64>,
}

impl Deadlines {
    fn registry(&self) -> std::sync::MutexGuard<'_, Registry> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Sets (or clears) game `id`'s next deadline.
    pub fn set(&self, id: GameId, deadline: Option<u64>) {
        let mut registry = self.registry();
        if let Some(old) = registry.by_game.remove(&id) {
            registry.by_time.remove(&(old, id));
        }
        if let Some(at) = deadline {
            registry.by_game.insert(id, at);
            let soonest = registry
                .by_time
                .first()
                .is_none_or(|&(first, _)| at < first);
            registry.by_time.insert((at, id));
            if soonest {
                self.changed.notify_one();
            }
        }
    }

    /// The soonest deadline.
    fn soonest(&self) -> Option<u64> {
        self.registry().by_time.first().map(|&(at, _)| at)
    }

    /// Takes every game whose deadline is at or before `now`.
    fn take_due(&self, now: u64) -> Vec<GameId> {
        let mut registry = self.registry();
        let mut due = Vec::new();
        while let Some(&(at, id)) = registry.by_time.first() {
            if at > now {
                break;
            }
            registry.by_time.remove(&(at, id));
            registry.by_game.remove(&id);
            due.push(id);
        }
        due
    }
}

/// The lapse due in `state` at `now`, if its deadline has passed.
fn due(state: &GameState, now: u64) -> Option<Lapse> {
    state
        .clocks()
        .next_deadline()
        .filter(|&(at, _)| at <= now)
        .map(|(_, lapse)| lapse)
}

impl Games {
    /// The moment of an action on `state` now.
    pub(super) fn moment(&self, state: &GameState) -> Moment {
        let now = self.time.now_ms();
        Moment {
            at_ms: now,
            spent_ms: state.clocks().spent(now),
        }
    }

    /// Registers the next deadline of the game in `state`.
    pub(super) fn schedule(&self, state: &GameState) {
        let next = state.clocks().next_deadline().map(|(at, _)| at);
        self.deadlines.set(state.id(), next);
    }

    /// Settles every deadline of the game that has passed by now, before anything else
    /// happens to it: a late setup is made at random, a late first move calls the game
    /// off, a fallen flag loses.
    pub(super) async fn settle(&self, slot: &Slot, mut held: Held) -> Result<Held, ApiError> {
        while let Some(lapse) = due(&held.state, self.time.now_ms()) {
            let before = held.state.phase();
            let moment = self.moment(&held.state);
            let (event, record) = match lapse {
                Lapse::Setup(_) => {
                    let Some(seat) = Seat::BOTH
                        .into_iter()
                        .find(|&seat| held.state.game().awaits_setup(seat))
                    else {
                        break;
                    };
                    let setup = made_setup(held.state.description(), seat, &[])?;
                    tracing::info!(game_id = %held.state.id(), seat = seat.index(), "late setup made at random");
                    held.state
                        .submit_setup(setup, ids::random_bytes()?, moment)?
                }
                Lapse::FirstMove(seat) => {
                    tracing::info!(game_id = %held.state.id(), seat = seat.index(), "first move late: called off");
                    held.state.abort(moment)?
                }
                Lapse::Flag(seat) => {
                    tracing::info!(game_id = %held.state.id(), seat = seat.index(), "time forfeit");
                    held.state.time_out(seat, moment)?
                }
            };
            let change = Change::new(event, record, before, &held.state);
            held = self.commit(slot, held, change).await?;
        }
        Ok(held)
    }

    /// Settles deadlines as they pass, until the server stops.
    pub async fn run_deadlines(self: Arc<Games>) {
        let mut shutdown = self.shutdown_signal();
        loop {
            let wait = match self.deadlines.soonest() {
                Some(at) => Duration::from_millis(at.saturating_sub(self.time.now_ms())),
                None => Duration::from_secs(3600),
            };
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = self.deadlines.changed.notified() => continue,
                _ = shutdown.wait_for(|&stopping| stopping) => return,
            }
            for id in self.deadlines.take_due(self.time.now_ms()) {
                let settled = async {
                    let (slot, held) = self.lock(id).await?;
                    let held = self.settle(&slot, held).await?;
                    self.schedule(&held.state);
                    Ok::<(), ApiError>(())
                };
                if let Err(error) = settled.await {
                    tracing::warn!(game_id = %id, %error, "could not settle a deadline");
                }
            }
        }
    }

    /// Loads every open game with a time control, so that its deadline is known (after a
    /// start; time while the server was down counts against nobody).
    pub async fn resume_clocks(&self) {
        for id in self.directory.open_timed() {
            match self.lock(id).await {
                Ok((_slot, held)) => self.schedule(&held.state),
                Err(error) => tracing::warn!(game_id = %id, %error, "could not load a timed game"),
            }
        }
    }

    /// The caller, in a game without clock, wins against the seat to move that has not
    /// acted for the abandonment limit.
    pub async fn claim_victory(&self, id: GameId, token: Option<&str>) -> Result<Seen, ApiError> {
        self.refuse_if_shutting_down()?;
        let (slot, mut held) = self.lock(id).await?;
        let seat = self.seat_for(&held.state, token)?;
        let refuse = |reason, message: String| Err(ApiError::precondition(reason, message));
        if held.state.phase() != GamePhase::Playing {
            return refuse(
                Reason::WrongPhase,
                "only a game being played can be claimed".into(),
            );
        }
        if held.state.clocks().timed() {
            return refuse(
                Reason::WrongPhase,
                "this game has a clock: the server ends it when a player's time runs out".into(),
            );
        }
        if held.state.game().to_move() == Some(seat) {
            return refuse(
                Reason::NotYourTurn,
                "it is your turn: the absent player is you".into(),
            );
        }
        let now = self.time.now_ms();
        let idle = Duration::from_millis(held.state.clocks().idle(now));
        let limit = self.limits.abandon_after;
        if idle < limit {
            let left = limit - idle;
            return refuse(
                Reason::TooEarly,
                format!(
                    "your opponent has been away for {}; you can claim the game after {} \
                     (in {})",
                    human(idle),
                    human(limit),
                    human(left)
                ),
            );
        }
        let before = held.state.phase();
        let moment = self.moment(&held.state);
        let (event, record) = held.state.claim(seat, moment)?;
        let change = Change::new(event, record, before, &held.state);
        let held = self.commit(&slot, held, change).await?;
        Ok(held
            .state
            .seen(trinchera_rules::Viewer::Player(seat))
            .at(now))
    }
}

/// A duration as a person reads it: "3 days 4 h", "12 min", "40 s".
fn human(duration: Duration) -> String {
    let secs = duration.as_secs();
    match secs {
        0..120 => format!("{secs} s"),
        120..7200 => format!("{} min", secs / 60),
        7200..172_800 => format!("{} h", secs / 3600),
        _ => format!("{} days {} h", secs / 86_400, secs % 86_400 / 3600),
    }
}
