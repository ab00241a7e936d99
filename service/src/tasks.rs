//! The server's background work, supervised in one place: loops that run while the server
//! serves (the sweep of idle games, the heartbeat, the measures, deadlines, bot leases, the
//! bus) and tasks that run once (resuming bots, the side listeners). At shutdown they are
//! stopped together and awaited before the store closes; a loop that ends early, or any
//! task that panics, is logged.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::games::Games;

/// The background tasks of one server.
#[derive(Debug)]
pub(crate) struct Background {
    tasks: JoinSet<()>,
    /// Turns true once the server is stopping: then loops may end.
    stopping: watch::Receiver<bool>,
}

impl Background {
    /// No tasks yet, for a server that says it is stopping through `stopping`.
    pub(crate) fn new(stopping: watch::Receiver<bool>) -> Background {
        Background {
            tasks: JoinSet::new(),
            stopping,
        }
    }

    /// Runs the loop `work`, named `what` in the logs, until the server stops: a loop that
    /// returns before is a fault, logged.
    pub(crate) fn spawn(
        &mut self,
        what: &'static str,
        work: impl Future<Output = ()> + Send + 'static,
    ) {
        let stopping = self.stopping.clone();
        self.tasks.spawn(async move {
            work.await;
            if !*stopping.borrow() {
                tracing::error!(task = what, "a background loop ended while the server runs");
            }
        });
    }

    /// Runs `work`, named `what`, once, while the server runs.
    pub(crate) fn spawn_once(
        &mut self,
        what: &'static str,
        work: impl Future<Output = ()> + Send + 'static,
    ) {
        self.tasks.spawn(async move {
            work.await;
            tracing::debug!(task = what, "background task done");
        });
    }

    /// Stops every task and waits until each has stopped; a task that panicked is logged.
    pub(crate) async fn stop(mut self) {
        self.tasks.abort_all();
        while let Some(ended) = self.tasks.join_next().await {
            if let Err(error) = ended
                && error.is_panic()
            {
                tracing::error!(%error, "a background task panicked");
            }
        }
    }
}

/// Notes every second that the server runs, so that a later start knows how long it was
/// down (that time counts against no clock).
pub(crate) async fn heartbeat(games: Arc<Games>) {
    let mut ticks = tokio::time::interval(Duration::from_secs(1));
    loop {
        ticks.tick().await;
        games.heartbeat().await;
    }
}

/// Every few seconds, records what the server holds in the metrics.
pub(crate) async fn measure(games: Arc<Games>) {
    let mut ticks = tokio::time::interval(Duration::from_secs(5));
    loop {
        ticks.tick().await;
        games.measure().await;
    }
}

/// Now and then drops idle games from memory and calls off games that waited too long.
pub(crate) async fn sweep(games: Arc<Games>) {
    let limits = games.limits();
    let shortest = limits
        .idle_eviction
        .min(limits.waiting_expiry)
        .min(limits.setup_expiry)
        .min(limits.replay_idle);
    let period = (shortest / 4).clamp(Duration::from_millis(100), Duration::from_secs(60));
    let mut ticks = tokio::time::interval(period);
    loop {
        ticks.tick().await;
        let evicted = games.evict_idle();
        if evicted > 0 {
            tracing::debug!(evicted, loaded = games.loaded(), "evicted idle games");
        }
        if let Err(error) = games.expire_overdue().await {
            tracing::warn!(%error, "could not call off overdue games");
        }
    }
}
