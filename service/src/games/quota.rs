//! Caps on work that runs for a while (replays): how many run at once per client address
//! and in total. A [`QuotaPermit`] holds a place until it is dropped; past a cap the work is
//! refused at once with `RESOURCE_EXHAUSTED` naming the cap and its setting, never queued.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::error::ApiError;

/// What a quota counts, in the words of its refusals.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QuotaNames {
    /// What runs, in the plural: "replays".
    pub what: &'static str,
    /// The server setting of the total cap: "--max-replays".
    pub total_setting: &'static str,
    /// The server setting of the per-address cap: "--max-replays-per-peer".
    pub peer_setting: &'static str,
}

/// Places for work running at once, per client address and in total.
#[derive(Debug)]
pub struct Quota {
    names: QuotaNames,
    total: usize,
    per_peer: usize,
    running: Mutex<Running>,
}

#[derive(Debug, Default)]
struct Running {
    total: usize,
    by_peer: HashMap<IpAddr, usize>,
}

impl Quota {
    /// A quota of `total` places, at most `per_peer` of them for one address.
    pub fn new(names: QuotaNames, total: usize, per_peer: usize) -> Arc<Quota> {
        Arc::new(Quota {
            names,
            total,
            per_peer,
            running: Mutex::new(Running::default()),
        })
    }

    fn running(&self) -> std::sync::MutexGuard<'_, Running> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A place for one more piece of work of `peer` (`None`: an address nobody knows,
    /// counted in the total only), or the refusal naming the cap.
    pub fn admit(self: &Arc<Quota>, peer: Option<IpAddr>) -> Result<QuotaPermit, ApiError> {
        let QuotaNames {
            what,
            total_setting,
            peer_setting,
        } = self.names;
        let mut running = self.running();
        if running.total >= self.total {
            return Err(ApiError::exhausted(total_setting, format!(
                "the server runs {} {what} at once, its limit ({total_setting}); try again \
                 in a moment",
                self.total
            )));
        }
        if let Some(peer) = peer {
            let count = running.by_peer.entry(peer).or_default();
            if *count >= self.per_peer {
                return Err(ApiError::exhausted(peer_setting, format!(
                    "your address already runs {} {what} at once, the limit per address \
                     ({peer_setting}); wait for one to finish",
                    self.per_peer
                )));
            }
            *count += 1;
        }
        running.total += 1;
        Ok(QuotaPermit {
            quota: Arc::clone(self),
            peer,
        })
    }

    /// Work running now.
    #[cfg(test)]
    fn in_use(&self) -> usize {
        self.running().total
    }
}

/// One running piece of work's place under a [`Quota`], given back when dropped.
#[derive(Debug)]
pub struct QuotaPermit {
    quota: Arc<Quota>,
    peer: Option<IpAddr>,
}

impl Drop for QuotaPermit {
    fn drop(&mut self) {
        let mut running = self.quota.running();
        running.total -= 1;
        if let Some(peer) = self.peer
            && let Some(count) = running.by_peer.get_mut(&peer)
        {
            *count -= 1;
            if *count == 0 {
                running.by_peer.remove(&peer);
            }
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
    };

    #[test]
    fn places_are_capped_per_address_and_in_total_and_given_back() {
        let quota = Quota::new(NAMES, 3, 2);
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
}
