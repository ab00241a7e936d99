//! The server's tokio runtime, which notes when all its workers have run out of work.
//!
//! A thread that batches work for the workers (the sled store's committer gathers the
//! appends of concurrent moves into one commit log write) waits with [`sleep_until`]: it wakes at its
//! deadline, or earlier once every worker is idle. Waiting longer then gathers nothing more
//! (whatever would send the next append is itself waiting), and a batch let go at once lets
//! the workers go on. Without a runtime from [`server`] (tests, embedded servers) the wait is
//! a plain sleep.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::thread::Thread;
use std::time::Instant;

/// Workers of the tracked runtime; 0 while there is none.
static WORKERS: AtomicUsize = AtomicUsize::new(0);
/// Workers that have nothing to run.
static IDLE: AtomicUsize = AtomicUsize::new(0);
/// How many threads wait in [`sleep_until`]: the workers look at [`SLEEPERS`] only then.
static SLEEPING: AtomicUsize = AtomicUsize::new(0);
/// The threads waiting in [`sleep_until`].
static SLEEPERS: Mutex<Vec<Thread>> = Mutex::new(Vec::new());

/// Builds the server's multi-threaded runtime, one worker a core, whose idle workers end
/// [`sleep_until`]. Build one such runtime at a time in a process.
pub fn server() -> std::io::Result<tokio::runtime::Runtime> {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(workers)
        .enable_all()
        .on_thread_park(parked)
        .on_thread_unpark(|| {
            IDLE.fetch_sub(1, Ordering::SeqCst);
        })
        .build()?;
    WORKERS.store(workers, Ordering::SeqCst);
    Ok(runtime)
}

/// Whether every worker of the tracked runtime is idle (never without one).
fn all_idle() -> bool {
    let workers = WORKERS.load(Ordering::SeqCst);
    workers > 0 && IDLE.load(Ordering::SeqCst) >= workers
}

fn sleepers() -> MutexGuard<'static, Vec<Thread>> {
    SLEEPERS.lock().unwrap_or_else(|e| e.into_inner())
}

/// A worker is about to park: if it was the last one busy, wake the sleepers.
fn parked() {
    let idle = IDLE.fetch_add(1, Ordering::SeqCst) + 1;
    if SLEEPING.load(Ordering::SeqCst) > 0 && idle >= WORKERS.load(Ordering::SeqCst) {
        for thread in sleepers().iter() {
            thread.unpark();
        }
    }
}

/// Sleeps until `deadline`, or until every worker of the server's runtime is idle,
/// whichever comes first. Returns whether it woke before the deadline.
pub fn sleep_until(deadline: Instant) -> bool {
    if WORKERS.load(Ordering::SeqCst) == 0 {
        std::thread::sleep(deadline.saturating_duration_since(Instant::now()));
        return false;
    }
    let me = std::thread::current();
    sleepers().push(me.clone());
    SLEEPING.fetch_add(1, Ordering::SeqCst);
    let early = loop {
        // Registered before looking: a worker parking after this look wakes this thread.
        if all_idle() {
            break true;
        }
        let now = Instant::now();
        if now >= deadline {
            break false;
        }
        std::thread::park_timeout(deadline - now);
    };
    SLEEPING.fetch_sub(1, Ordering::SeqCst);
    sleepers().retain(|thread| thread.id() != me.id());
    early
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_sleep_ends_once_every_worker_is_idle() {
        let runtime = server().expect("runtime");
        let deadline = Instant::now() + Duration::from_secs(10);
        // The workers have nothing to do: the sleep ends long before its deadline.
        assert!(sleep_until(deadline));
        assert!(Instant::now() < deadline);
        // While a worker is kept busy, the sleep lasts until the deadline.
        let (stop, stopped) = std::sync::mpsc::channel::<()>();
        let busy = runtime.spawn(async move {
            while stopped.try_recv().is_err() {
                std::hint::spin_loop();
            }
        });
        std::thread::sleep(Duration::from_millis(50));
        let started = Instant::now();
        assert!(!sleep_until(started + Duration::from_millis(100)));
        assert!(started.elapsed() >= Duration::from_millis(100));
        stop.send(()).expect("the busy task runs");
        runtime.block_on(busy).expect("the busy task ends");
        drop(runtime);
        WORKERS.store(0, Ordering::SeqCst);
    }
}
