//! A tokio runtime for the server that notes when all its workers have run out of work, so
//! that the committer ends its gathering then ([`Workers`] is a [`Gather`]).
//!
//! The committer gathers the appends of concurrent moves into one commit log write: it
//! waits until its deadline, or earlier once every worker is idle. Waiting longer then
//! gathers nothing more (whatever would send the next append is itself waiting), and a
//! group let go at once lets the workers go on.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::Thread;
use std::time::Instant;

use crate::Gather;

/// The workers of a runtime built by [`server`]: how many are idle, and who waits for them
/// all to be.
#[derive(Debug)]
pub struct Workers {
    /// Workers of the runtime.
    count: usize,
    /// Workers that have nothing to run.
    idle: AtomicUsize,
    /// How many threads wait in [`Workers::sleep_until`]: the workers look at
    /// [`Workers::sleepers`] only then.
    sleeping: AtomicUsize,
    /// The threads waiting in [`Workers::sleep_until`].
    sleepers: Mutex<Vec<Thread>>,
}

/// Builds the server's multi-threaded runtime, one worker a core, and the [`Workers`] whose
/// idleness ends [`Workers::sleep_until`].
pub fn server() -> std::io::Result<(tokio::runtime::Runtime, Arc<Workers>)> {
    let count = std::thread::available_parallelism().map_or(1, |n| n.get());
    let workers = Arc::new(Workers {
        count,
        idle: AtomicUsize::new(0),
        sleeping: AtomicUsize::new(0),
        sleepers: Mutex::new(Vec::new()),
    });
    let parking = Arc::clone(&workers);
    let unparking = Arc::clone(&workers);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(count)
        .enable_all()
        .on_thread_park(move || parking.parked())
        .on_thread_unpark(move || {
            unparking.idle.fetch_sub(1, Ordering::SeqCst);
        })
        .build()?;
    Ok((runtime, workers))
}

impl Workers {
    /// Whether every worker is idle.
    fn all_idle(&self) -> bool {
        self.idle.load(Ordering::SeqCst) >= self.count
    }

    fn sleepers(&self) -> MutexGuard<'_, Vec<Thread>> {
        self.sleepers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A worker is about to park: if it was the last one busy, wake the sleepers.
    fn parked(&self) {
        let idle = self.idle.fetch_add(1, Ordering::SeqCst) + 1;
        if self.sleeping.load(Ordering::SeqCst) > 0 && idle >= self.count {
            for thread in self.sleepers().iter() {
                thread.unpark();
            }
        }
    }
}

impl Gather for Workers {
    /// Sleeps until `deadline`, or until every worker is idle, whichever comes first.
    /// Returns whether it woke before the deadline.
    fn sleep_until(&self, deadline: Instant) -> bool {
        let me = std::thread::current();
        self.sleepers().push(me.clone());
        self.sleeping.fetch_add(1, Ordering::SeqCst);
        let early = loop {
            // Registered before looking: a worker parking after this look wakes this thread.
            if self.all_idle() {
                break true;
            }
            let now = Instant::now();
            if now >= deadline {
                break false;
            }
            std::thread::park_timeout(deadline - now);
        };
        self.sleeping.fetch_sub(1, Ordering::SeqCst);
        self.sleepers().retain(|thread| thread.id() != me.id());
        early
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_sleep_ends_once_every_worker_is_idle() {
        let (runtime, workers) = server().expect("runtime");
        let deadline = Instant::now() + Duration::from_secs(10);
        // The workers have nothing to do: the sleep ends long before its deadline.
        assert!(workers.sleep_until(deadline));
        assert!(Instant::now() < deadline);
        // While a worker is kept busy, the sleep lasts until the deadline.
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let (spinning, spins) = std::sync::mpsc::channel::<()>();
        let busy = runtime.spawn(async move {
            spinning.send(()).expect("the test waits");
            while stopped.try_recv().is_err() {
                std::hint::spin_loop();
            }
        });
        spins
            .recv_timeout(Duration::from_secs(60))
            .expect("the busy task never started");
        let started = Instant::now();
        assert!(!workers.sleep_until(started + Duration::from_millis(100)));
        assert!(started.elapsed() >= Duration::from_millis(100));
        stop.send(()).expect("the busy task runs");
        runtime.block_on(busy).expect("the busy task ends");
    }
}
