//! Time limits decided by the server: a registry of every game's next deadline, a task
//! that settles each as it passes (a durable event that watchers see at once), and the same
//! settlement before any act on a game whose deadline has passed.

use std::collections::{BTreeSet, HashMap};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use trinchera_store::GameId;
use trinchera_store::GamePhase;

use tokio::sync::Notify;
use trinchera_rules::Seat;

use super::act::made_setup;
use super::cache::{Held, Slot};
use super::{Answer, Games, Intent, Who};
use crate::error::ApiError;
use crate::ids::{self};
use trinchera_game::Reason;
use trinchera_game::clock::Lapse;
use trinchera_game::{Act, GameState, Moment};
use trinchera_store::{StoreError, Unfinished};

/// Every game's next deadline, soonest first.
#[derive(Debug, Default)]
pub(super) struct Deadlines {
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
    pub(super) fn set(&self, id: GameId, deadline: Option<u64>) {
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

    /// Whether game `id` has a deadline here.
    fn knows(&self, id: GameId) -> bool {
        self.registry().by_game.contains_key(&id)
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
    /// The moment of an act on `state` now.
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
        self.schedule.deadlines.set(state.id(), next);
    }

    /// Settles every deadline of the game that has passed by now, before anything else
    /// happens to it: a late setup is made by the server, a late first move calls the game
    /// off, a fallen flag loses.
    pub(super) async fn settle(&self, slot: &Arc<Slot>, mut held: Held) -> Result<Held, ApiError> {
        while let Some(lapse) = due(held.state(), self.time.now_ms()) {
            let id = held.state().id();
            let act = match lapse {
                Lapse::Setup(_) => {
                    let Some(seat) = Seat::BOTH
                        .into_iter()
                        .find(|&seat| held.state().awaits_setup(seat))
                    else {
                        break;
                    };
                    tracing::info!(game_id = %id, seat = seat.index(), "late setup made by the server");
                    Act::Setup {
                        setup: made_setup(held.state().description(), seat, &[])?,
                        salt: ids::random_bytes()?,
                    }
                }
                Lapse::FirstMove(seat) => {
                    tracing::info!(game_id = %id, seat = seat.index(), "first move late: called off");
                    Act::Abort
                }
                Lapse::Flag(seat) => {
                    tracing::info!(game_id = %id, seat = seat.index(), "time forfeit");
                    Act::TimeOut { seat }
                }
            };
            (held, _) = self.commit(slot, held, act).await?;
        }
        Ok(held)
    }

    /// Settles deadlines as they pass, until the server stops.
    pub(crate) async fn run_deadlines(self: Arc<Games>) {
        let mut shutdown = self.shutdown_signal();
        loop {
            let wait = match self.schedule.deadlines.soonest() {
                Some(at) => Duration::from_millis(at.saturating_sub(self.time.now_ms())),
                None => Duration::from_secs(3600),
            };
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = self.schedule.deadlines.changed.notified() => continue,
                _ = shutdown.wait_for(|&stopping| stopping) => return,
            }
            for id in self.schedule.deadlines.take_due(self.time.now_ms()) {
                let settled = async {
                    let (slot, held) = self.lock(id).await?;
                    let held = self.settle(&slot, held).await?;
                    self.schedule(held.state());
                    Ok::<(), ApiError>(())
                };
                match settled.await {
                    Ok(()) => {}
                    // Another server settled it first: the game reloads with what it wrote.
                    Err(ApiError::Store(StoreError::Conflict { .. })) => {
                        tracing::debug!(game_id = %id, "a deadline another server settled");
                        if let Ok((_slot, held)) = self.lock(id).await {
                            self.schedule(held.state());
                        }
                    }
                    Err(error) => {
                        tracing::warn!(game_id = %id, %error, "could not settle a deadline");
                    }
                }
            }
        }
    }

    /// Calls off every game that waited for a player or for setups longer than the limits;
    /// returns how many.
    pub(crate) async fn expire_overdue(&self) -> Result<usize, ApiError> {
        let now = self.time.now_ms();
        let since = |limit: Duration| now.saturating_sub(limit.as_millis() as u64);
        let (waiting, setup) = (
            since(self.limits.waiting_expiry),
            since(self.limits.setup_expiry),
        );
        let mut expired = 0;
        for unstarted in self.store.unstarted().await? {
            let limit = match unstarted.phase {
                GamePhase::Waiting => waiting,
                _ => setup,
            };
            if unstarted.since_ms >= limit {
                continue;
            }
            let id = unstarted.game;
            match self
                .act(id, Who::Server, Intent::Expire, None, Answer::Event)
                .await
            {
                Ok(_) => {
                    let phase = unstarted.phase;
                    tracing::info!(game_id = %id, ?phase, "called off a game that never started");
                    expired += 1;
                }
                // It started meanwhile.
                Err(ApiError::FailedPrecondition {
                    reason: Reason::WrongPhase,
                    ..
                }) => {}
                Err(error) => return Err(error),
            }
        }
        Ok(expired)
    }

    /// Loads every unfinished game with a time control, so that its deadline is known
    /// (after a start; time while the server was down counts against nobody).
    pub(crate) async fn resume_clocks(&self) {
        self.load_clocks(false).await;
    }

    /// On a store other servers write too: loads the unfinished timed games this server
    /// has no deadline for (made or started elsewhere since it started), so that a game
    /// whose server died still ends on time. Any server may settle a deadline; the
    /// conflicting append makes a double decision impossible.
    pub(crate) async fn adopt_clocks(&self) {
        self.load_clocks(true).await;
    }

    /// Loads the unfinished timed games (only those without a deadline here when
    /// `unknown_only`) and registers their deadlines.
    async fn load_clocks(&self, unknown_only: bool) {
        let timed = match self.store.unfinished(Unfinished::Timed).await {
            Ok(timed) => timed,
            Err(error) => return tracing::warn!(%error, "could not list the timed games"),
        };
        for id in timed {
            if unknown_only && self.schedule.deadlines.knows(id) {
                continue;
            }
            match self.lock(id).await {
                Ok((_slot, held)) => self.schedule(held.state()),
                Err(error) => tracing::warn!(game_id = %id, %error, "could not load a timed game"),
            }
        }
    }
}
