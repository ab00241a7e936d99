//! Caps on work that runs for a while (replays): how many run at once per client address
//! and in total. A [`QuotaPermit`] holds a place until it is dropped; past a cap the work is
//! refused at once with `RESOURCE_EXHAUSTED` naming the cap and its setting, never queued.
//! A place whose work makes no progress for the idle limit (a reader that stopped reading)
//! is taken back, so that stalled clients cannot keep everybody else out.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::error::ApiError;

/// What a quota counts, in the words of its refusals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct QuotaNames {
    /// What runs, in the plural: "replays".
    pub what: &'static str,
    /// The server setting of the total cap: "--max-replays".
    pub total_setting: &'static str,
    /// The server setting of the per-address cap: "--max-replays-per-peer".
    pub peer_setting: &'static str,
    /// The server setting of the idle limit: "--replay-idle-secs".
    pub idle_setting: &'static str,
}

/// Places for work running at once, per client address and in total.
#[derive(Debug)]
pub(crate) struct Quota {
    names: QuotaNames,
    total: usize,
    per_peer: usize,
    idle: Duration,
    epoch: Instant,
    running: Mutex<Running>,
}

#[derive(Debug, Default)]
struct Running {
    total: usize,
    by_peer: HashMap<IpAddr, usize>,
    /// Every place held, by number.
    places: HashMap<u64, Place>,
    next: u64,
}

#[derive(Debug)]
struct Place {
    peer: Option<IpAddr>,
    progress: Arc<Progress>,
}

/// What a permit and its quota share: when the work last moved on, and whether the
/// quota took the place back.
#[derive(Debug, Default)]
struct Progress {
    /// Milliseconds since the quota's epoch.
    touched_ms: AtomicU64,
    revoked: AtomicBool,
}

impl Running {
    /// Gives back the place of `peer`.
    fn release(&mut self, peer: Option<IpAddr>) {
        self.total -= 1;
        if let Some(peer) = peer
            && let Some(count) = self.by_peer.get_mut(&peer)
        {
            *count -= 1;
            if *count == 0 {
                self.by_peer.remove(&peer);
            }
        }
    }
}

impl Quota {
    /// A quota of `total` places, at most `per_peer` of them for one address; a place
    /// untouched for `idle` is [taken back](Quota::reclaim_idle).
    pub(crate) fn new(
        names: QuotaNames,
        total: usize,
        per_peer: usize,
        idle: Duration,
    ) -> Arc<Quota> {
        Arc::new(Quota {
            names,
            total,
            per_peer,
            idle,
            epoch: Instant::now(),
            running: Mutex::new(Running::default()),
        })
    }

    fn running(&self) -> std::sync::MutexGuard<'_, Running> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// A place for one more piece of work of `peer` (`None`: an address nobody knows,
    /// counted in the total only), or the refusal naming the cap.
    pub(crate) fn admit(self: &Arc<Quota>, peer: Option<IpAddr>) -> Result<QuotaPermit, ApiError> {
        let QuotaNames {
            what,
            total_setting,
            peer_setting,
            ..
        } = self.names;
        let mut running = self.running();
        if running.total >= self.total {
            return Err(ApiError::exhausted(
                total_setting,
                format!(
                    "the server runs {} {what} at once, its limit ({total_setting}); try again \
                 in a moment",
                    self.total
                ),
            ));
        }
        if let Some(peer) = peer {
            let count = running.by_peer.entry(peer).or_default();
            if *count >= self.per_peer {
                return Err(ApiError::exhausted(
                    peer_setting,
                    format!(
                        "your address already runs {} {what} at once, the limit per address \
                     ({peer_setting}); wait for one to finish",
                        self.per_peer
                    ),
                ));
            }
            *count += 1;
        }
        running.total += 1;
        let progress = Arc::new(Progress::default());
        progress.touched_ms.store(self.now_ms(), Ordering::Relaxed);
        let number = running.next;
        running.next += 1;
        running.places.insert(
            number,
            Place {
                peer,
                progress: Arc::clone(&progress),
            },
        );
        Ok(QuotaPermit {
            quota: Arc::clone(self),
            number,
            progress,
        })
    }

    /// Takes back every place whose work has not moved on for the idle limit; returns how
    /// many. Their permits then [say so](QuotaPermit::check).
    pub(crate) fn reclaim_idle(&self) -> usize {
        let now = self.now_ms();
        let idle = self.idle.as_millis() as u64;
        let mut running = self.running();
        let stale: Vec<u64> = running
            .places
            .iter()
            .filter(|(_, place)| {
                now.saturating_sub(place.progress.touched_ms.load(Ordering::Relaxed)) >= idle
            })
            .map(|(&number, _)| number)
            .collect();
        for number in &stale {
            if let Some(place) = running.places.remove(number) {
                place.progress.revoked.store(true, Ordering::Relaxed);
                running.release(place.peer);
            }
        }
        stale.len()
    }

    /// Work running now.
    #[cfg(test)]
    fn in_use(&self) -> usize {
        self.running().total
    }
}

/// One running piece of work's place under a [`Quota`], given back when dropped.
#[derive(Debug)]
pub(crate) struct QuotaPermit {
    quota: Arc<Quota>,
    number: u64,
    progress: Arc<Progress>,
}

impl QuotaPermit {
    /// Notes that the work moves on (a reader asked for more), unless its place was taken
    /// back for standing still: then the refusal that ends the work.
    pub(crate) fn check(&self) -> Result<(), ApiError> {
        if self.progress.revoked.load(Ordering::Relaxed) {
            let QuotaNames {
                what, idle_setting, ..
            } = self.quota.names;
            return Err(ApiError::exhausted(
                idle_setting,
                format!(
                    "this stood unread for {} s, the limit for {what} ({idle_setting}): its \
                 place went to others; ask again to go on",
                    self.quota.idle.as_secs()
                ),
            ));
        }
        self.progress
            .touched_ms
            .store(self.quota.now_ms(), Ordering::Relaxed);
        Ok(())
    }
}

impl Drop for QuotaPermit {
    fn drop(&mut self) {
        let mut running = self.quota.running();
        if let Some(place) = running.places.remove(&self.number) {
            running.release(place.peer);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: QuotaNames = QuotaNames {
        what: "replays",
        total_setting: "--max-replays",
        peer_setting: "--max-replays-per-peer",
        idle_setting: "--replay-idle-secs",
    };

    #[test]
    fn places_are_capped_per_address_and_in_total_and_given_back() {
        let quota = Quota::new(NAMES, 3, 2, Duration::from_secs(60));
        let ana: IpAddr = [10, 0, 0, 1].into();
        let beto: IpAddr = [10, 0, 0, 2].into();
        let first = quota.admit(Some(ana)).expect("room");
        let _second = quota.admit(Some(ana)).expect("room");
        let refused = quota.admit(Some(ana)).expect_err("per address");
        assert!(
            refused.to_string().contains("--max-replays-per-peer"),
            "{refused}"
        );
        let _third = quota.admit(Some(beto)).expect("another address");
        let refused = quota.admit(None).expect_err("total");
        assert!(refused.to_string().contains("(--max-replays)"), "{refused}");
        drop(first);
        assert_eq!(quota.in_use(), 2);
        let _again = quota.admit(Some(ana)).expect("given back");
    }

    #[test]
    fn a_place_that_stands_still_is_taken_back_and_its_work_told_so() {
        let quota = Quota::new(NAMES, 2, 2, Duration::ZERO);
        let ana: IpAddr = [10, 0, 0, 1].into();
        let stalled = quota.admit(Some(ana)).expect("room");
        let _other = quota.admit(Some(ana)).expect("room");
        assert!(quota.admit(Some(ana)).is_err(), "full");
        assert_eq!(quota.reclaim_idle(), 2);
        assert_eq!(quota.in_use(), 0);
        let refused = stalled.check().expect_err("taken back");
        assert!(
            refused.to_string().contains("--replay-idle-secs"),
            "{refused}"
        );
        let fresh = quota.admit(Some(ana)).expect("room again");
        // A permit taken back gives nothing back twice when it is dropped.
        drop(stalled);
        assert_eq!(quota.in_use(), 1);
        drop(fresh);
        assert_eq!(quota.in_use(), 0);
    }

    #[test]
    fn work_that_moves_on_keeps_its_place() {
        let quota = Quota::new(NAMES, 1, 1, Duration::from_secs(3600));
        let permit = quota.admit(None).expect("room");
        permit.check().expect("moving on");
        assert_eq!(quota.reclaim_idle(), 0);
        permit.check().expect("still held");
    }
}
