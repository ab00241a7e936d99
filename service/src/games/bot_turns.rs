//! Bots' turns, off the request path: each game with a bot to act gets one task that takes
//! the bot seat's own view under the game's lock, lets the bot think on the blocking pool
//! without any lock, and plays its decision if the game has not changed meanwhile.
//!
//! A human's call only wakes the task after its own action is durable, so it never waits
//! for a bot; the bot's action reaches everybody as a new event.
//!
//! One server at a time acts for a bot: the append that hands the turn to a bot leases it
//! to the server that wrote it ([`BotLease`]), a bot's task takes (or renews) the lease
//! before it thinks, and every server renews its leases and takes over those whose server
//! died ([`Games::keep_leases`]).

use std::sync::Arc;
use std::time::{Duration, Instant};
use trinchera_store::GameId;

use super::thinking::Urgency;
use super::{Answer, Games, Intent, MoveInput, SetupRequest, Who};
use crate::error::ApiError;
use crate::ids::{self};
use trinchera_game::GameState;
use trinchera_game::bots::{self, Decision};
use trinchera_store::{BotLease, StoreError, Unfinished};

impl Games {
    /// Makes sure the bot of game `id`, if it is to act, gets a task.
    pub(super) fn wake_bot(&self, id: GameId) {
        let mut running = self.bots_running();
        if !running.insert(id) {
            return;
        }
        match self.me.upgrade() {
            Some(games) => {
                tokio::spawn(async move { games.bot_turns(id).await });
            }
            None => {
                running.remove(&id);
            }
        }
    }

    /// Wakes the bot of every open game that has one: after a restart, bots whose turn it
    /// was go on by themselves.
    pub(crate) async fn resume_bots(&self) {
        match self.store.unfinished(Unfinished::WithBots).await {
            Ok(games) => games.into_iter().for_each(|id| self.wake_bot(id)),
            Err(error) => tracing::warn!(%error, "could not list the games with bots"),
        }
    }

    /// Lets the bot of game `id` act while it is to act.
    async fn bot_turns(self: Arc<Games>, id: GameId) {
        loop {
            match self.bot_turn(id).await {
                Ok(true) => {}
                Ok(false) => return,
                Err(ApiError::ShuttingDown) => break,
                // Another server wrote the game meanwhile: it reloads, and the bot looks again.
                Err(ApiError::Store(StoreError::Conflict { .. })) => {}
                Err(error) => {
                    tracing::warn!(game_id = %id, %error, "a bot could not act");
                    break;
                }
            }
        }
        self.bot_done(id);
    }

    fn bot_done(&self, id: GameId) {
        self.bots_running().remove(&id);
    }

    fn bots_running(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<GameId>> {
        self.schedule
            .bots_running
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// One bot action; `false` once no bot is to act (the task is then done).
    ///
    /// The bot waits in line for a thinking slot (`thinking::Thinking`: games with a person first,
    /// then the soonest clock), and its budget comes from its clock as it stands when the
    /// slot comes, so the wait does not make it lose on time. A bot on a clock waits for
    /// a twentieth of its time left at most, and one short of time does not wait at all:
    /// then it thinks at once, briefly.
    async fn bot_turn(&self, id: GameId) -> Result<bool, ApiError> {
        self.refuse_if_shutting_down()?;
        let (seat, level, view, turn) = {
            let (slot, held) = self.lock(id).await?;
            let held = self.settle(&slot, held).await?;
            let Some((seat, level)) = held.state().bot_to_act() else {
                // Done while holding the game's lock: an action after this wakes a new task.
                self.bot_done(id);
                return Ok(false);
            };
            let clocks = held.state().clocks();
            let now = self.time.now_ms();
            let turn = BotClock {
                runs_out: clocks.remaining(seat, now).map(|left| now + left),
                exhibition: held.state().table().bots_only(),
            };
            (seat, level, held.state().seat_knowledge(seat), turn)
        };
        // Another server may hold the turn (it committed what made it the bot's turn).
        if !self.lease_turn(id).await? {
            self.bot_done(id);
            return Ok(false);
        }
        let started = Instant::now();
        let seed = u64::from_le_bytes(ids::random_bytes()?);
        let version = view.version;
        let slot = match turn.left(self.time.now_ms()) {
            None => Some(self.schedule.thinking.slot(turn.urgency()).await),
            Some(left) if left < SHORT_OF_TIME => None,
            // On a clock the wait in line is bounded too: past its share of the time left,
            // the bot thinks without a slot rather than lose on time to the queue.
            Some(left) => tokio::time::timeout(
                left / THINKING_SHARE,
                self.schedule.thinking.slot(turn.urgency()),
            )
            .await
            .ok(),
        };
        let waited = started.elapsed();
        let left = turn.left(self.time.now_ms());
        let budget = left.map_or(self.limits.bots.think, |left| {
            (left / THINKING_SHARE).min(self.limits.bots.think)
        });
        let decision =
            tokio::task::spawn_blocking(move || bots::decide(level, &view, budget, seed))
                .await
                .map_err(|e| ApiError::Internal(Box::new(e)))?;
        drop(slot);
        let thought = started.elapsed() - waited;
        crate::metrics::bot_decision(waited.as_secs_f64(), thought.as_secs_f64());
        let min_delay = left.map_or(self.limits.bots.min_delay, |left| {
            (left / THINKING_SHARE).min(self.limits.bots.min_delay)
        });
        if let Some(wait) = min_delay.checked_sub(started.elapsed()) {
            // A stopping server does not wait for its bots.
            let mut shutdown = self.shutdown_signal();
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                _ = shutdown.wait_for(|&stopping| stopping) => return Err(ApiError::ShuttingDown),
            }
        }
        let intent = match decision {
            Decision::Setup(setup) => Intent::Setup(SetupRequest::Validated(setup)),
            Decision::Act(action) => Intent::Move(MoveInput::Action(action)),
            Decision::Nothing => {
                tracing::warn!(game_id = %id, "a bot had nothing to do on its turn");
                self.bot_done(id);
                return Ok(false);
            }
        };
        match self
            .act(id, Who::Bot(seat), intent, Some(version), Answer::Event)
            .await
        {
            // The game moved on while the bot thought (a setup, a time-out): think again.
            Ok(_) | Err(ApiError::VersionMismatch { .. }) => Ok(true),
            Err(error) => Err(error),
        }
    }
}

impl Games {
    /// What an append that leaves the game as `state` does to its bot lease: this server
    /// takes the turn of a bot that is to act; the lease ends otherwise.
    pub(super) fn lease_after(&self, state: &GameState) -> Option<BotLease> {
        if !state.table().has_bot() {
            return None;
        }
        Some(match state.bot_to_act() {
            Some(_) => BotLease::Take {
                holder: self.schedule.holder,
                until_ms: self.time.now_ms() + self.lease_span(),
            },
            None => BotLease::End,
        })
    }

    /// How long a lease lasts unless renewed.
    fn lease_span(&self) -> u64 {
        self.limits.bots.lease.as_millis() as u64
    }

    /// Takes (or renews) the bot turn of game `id` for this server; whether it holds it.
    async fn lease_turn(&self, id: GameId) -> Result<bool, ApiError> {
        let now = self.time.now_ms();
        let until = now + self.lease_span();
        Ok(self
            .store
            .take_lease(id, self.schedule.holder, now, until)
            .await?)
    }

    /// Renews this server's bot leases and takes over the bots of games whose lease ran
    /// out (their server died), until the server stops; three times a lease's span. On a
    /// shared store it also adopts the clocks of games other servers run
    /// ([`Games::adopt_clocks`]), so that they end on time should their server die.
    pub(crate) async fn keep_leases(self: Arc<Games>) {
        let span = self.limits.bots.lease;
        let mut ticks = tokio::time::interval(span / 3);
        let mut shutdown = self.shutdown_signal();
        loop {
            tokio::select! {
                _ = ticks.tick() => {}
                _ = shutdown.wait_for(|&stopping| stopping) => return,
            }
            // Only the bots at work here: a lease whose task ended runs out and is taken up
            // again (here or elsewhere).
            let now = self.time.now_ms();
            let running: Vec<GameId> = self.bots_running().iter().copied().collect();
            let until = now + self.lease_span();
            if !running.is_empty()
                && let Err(error) = self
                    .store
                    .renew_leases(self.schedule.holder, &running, until)
                    .await
            {
                tracing::warn!(%error, "could not renew the bot leases");
            }
            match self.store.expired_leases(now, ORPHANS_A_ROUND).await {
                Ok(games) => {
                    for id in games {
                        tracing::info!(game_id = %id, "taking over a bot whose lease ran out");
                        self.wake_bot(id);
                    }
                }
                Err(error) => tracing::warn!(%error, "could not look for bots left alone"),
            }
            if self.shared() {
                self.adopt_clocks().await;
            }
        }
    }
}

/// Bots taken over in one round of [`Games::keep_leases`] at most.
const ORPHANS_A_ROUND: usize = 100;

/// The share of its time left that a bot on a clock spends on one decision (and at most on
/// the delay that lets a person follow its moves).
const THINKING_SHARE: u32 = 20;

/// Time left under which a bot does not wait in line for a thinking slot: it thinks at
/// once, for a twentieth of it.
const SHORT_OF_TIME: Duration = Duration::from_secs(5);

/// A bot's turn as its clock sees it.
#[derive(Clone, Copy, Debug)]
struct BotClock {
    /// When its clock (or turn deadline) runs out, ms since the Unix epoch; `None` without
    /// a clock.
    runs_out: Option<u64>,
    /// Whether the game is between two bots.
    exhibition: bool,
}

impl BotClock {
    /// Time left at `now`.
    fn left(self, now: u64) -> Option<Duration> {
        self.runs_out
            .map(|at| Duration::from_millis(at.saturating_sub(now)))
    }

    /// Its place in the line for a thinking slot.
    fn urgency(self) -> Urgency {
        Urgency {
            exhibition: self.exhibition,
            deadline_ms: self.runs_out.unwrap_or(u64::MAX),
        }
    }
}
