//! Failed sign-ins remembered per client address and per account name: once a key has
//! failed its burst, its next attempts are refused (with the time to retry) until the
//! failures drain at the limit's rate. Successful sign-ins cost nothing.
//!
//! Each key keeps one instant, as in the generic cell rate algorithm: when its failures
//! will have drained away. A failure moves it one interval later; an attempt passes while
//! it is less than a burst's worth of intervals ahead.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::ApiError;
use crate::throttle::{RateLimit, peer_key};

/// Keys kept before the drained ones are forgotten (then again at twice what remained).
const PRUNE_FROM: usize = 1024;

/// One limit over many keys.
struct Drain<K> {
    limit: RateLimit,
    what: &'static str,
    setting: &'static str,
    keys: Mutex<Keys<K>>,
}

/// When each key's failures will have drained, and when to forget the drained ones.
struct Keys<K> {
    drained_at: HashMap<K, Instant>,
    prune_at: usize,
}

impl<K: Hash + Eq> Drain<K> {
    fn new(limit: Option<RateLimit>, what: &'static str, setting: &'static str) -> Option<Self> {
        limit.map(|limit| Drain {
            limit,
            what,
            setting,
            keys: Mutex::new(Keys {
                drained_at: HashMap::new(),
                prune_at: PRUNE_FROM,
            }),
        })
    }

    /// The time between two failures the limit lets pass on average.
    fn interval(&self) -> Duration {
        self.limit.period / self.limit.count.get()
    }

    /// Refuses an attempt for `key` at `now` if its failures are a burst ahead.
    fn check(&self, key: &K, now: Instant) -> Result<(), ApiError> {
        let keys = self
            .keys
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let Some(&drained_at) = keys.drained_at.get(key) else {
            return Ok(());
        };
        let tolerance = self.interval() * (self.limit.burst.get() - 1);
        let Some(retry_after) = drained_at
            .checked_duration_since(now + tolerance)
            .filter(|wait| !wait.is_zero())
        else {
            return Ok(());
        };
        Err(ApiError::RateLimited {
            limit: self.setting,
            message: format!(
                "too many failed sign-ins {} (the limit is {}; server setting {}): retry in \
                 {:.0} s",
                self.what,
                self.limit,
                self.setting,
                retry_after.as_secs_f64().ceil()
            ),
            retry_after,
        })
    }

    /// Counts a failure of `key` at `now`.
    fn fail(&self, key: K, now: Instant) {
        let interval = self.interval();
        let mut keys = self
            .keys
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let drained_at = keys.drained_at.entry(key).or_insert(now);
        *drained_at = (*drained_at).max(now) + interval;
        if keys.drained_at.len() >= keys.prune_at {
            keys.drained_at.retain(|_, drained_at| *drained_at > now);
            keys.prune_at = (keys.drained_at.len() * 2).max(PRUNE_FROM);
        }
    }
}

/// The failed sign-ins of every address and every name.
pub(crate) struct FailedLogins {
    per_address: Option<Drain<IpAddr>>,
    per_name: Option<Drain<String>>,
}

impl FailedLogins {
    /// Limits of `per_address` and `per_name` failures (`None`: no limit).
    pub(crate) fn new(per_address: Option<RateLimit>, per_name: Option<RateLimit>) -> Self {
        FailedLogins {
            per_address: Drain::new(
                per_address,
                "from your address",
                "--failed-logins-per-minute",
            ),
            per_name: Drain::new(
                per_name,
                "for this name",
                "--failed-logins-per-name-per-minute",
            ),
        }
    }

    /// Refuses a sign-in from `peer` as `folded` (a name as names are compared) while
    /// either has failed too often.
    pub(crate) fn check(&self, peer: Option<IpAddr>, folded: &str) -> Result<(), ApiError> {
        let now = Instant::now();
        if let (Some(drain), Some(peer)) = (&self.per_address, peer) {
            drain.check(&peer_key(peer), now)?;
        }
        if let Some(drain) = &self.per_name {
            drain.check(&folded.to_owned(), now)?;
        }
        Ok(())
    }

    /// Counts a failed sign-in from `peer` as `folded`.
    pub(crate) fn fail(&self, peer: Option<IpAddr>, folded: &str) {
        let now = Instant::now();
        if let (Some(drain), Some(peer)) = (&self.per_address, peer) {
            drain.fail(peer_key(peer), now);
        }
        if let Some(drain) = &self.per_name {
            drain.fail(folded.to_owned(), now);
        }
    }
}

#[cfg(test)]
mod tests {
    use std::num::NonZeroU32;

    use super::*;

    fn nz(n: u32) -> NonZeroU32 {
        NonZeroU32::new(n).expect("not zero")
    }

    #[test]
    fn a_burst_of_failures_locks_the_key_until_one_drains() {
        let drain = Drain::new(
            Some(RateLimit::per_minute(nz(6), nz(3))),
            "from your address",
            "--failed-logins-per-minute",
        )
        .expect("a limit");
        let start = Instant::now();
        for _ in 0..3 {
            drain.check(&"ana", start).expect("within the burst");
            drain.fail("ana", start);
        }
        match drain.check(&"ana", start) {
            Err(ApiError::RateLimited {
                retry_after,
                message,
                ..
            }) => {
                assert_eq!(retry_after, Duration::from_secs(10));
                assert!(message.contains("retry in 10 s"), "{message}");
            }
            other => panic!("expected a rate limit, got {other:?}"),
        }
        drain
            .check(&"bea", start)
            .expect("another key has its own count");
        drain
            .check(&"ana", start + Duration::from_secs(10))
            .expect("one failure drained");
    }

    #[test]
    fn successes_cost_nothing_and_drained_keys_are_forgotten() {
        let failures = FailedLogins::new(Some(RateLimit::per_minute(nz(60), nz(1))), None);
        let peer = Some(IpAddr::from([10, 0, 0, 1]));
        for _ in 0..10 {
            failures.check(peer, "ana").expect("no failure yet");
        }
        failures.fail(peer, "ana");
        assert!(failures.check(peer, "ana").is_err());
        failures
            .check(None, "ana")
            .expect("no address, no address limit");
        let drain = failures.per_address.as_ref().expect("a limit");
        let start = Instant::now();
        for i in 0..PRUNE_FROM as u32 {
            let at = start + Duration::from_secs(2 * u64::from(i));
            drain.fail(IpAddr::from((i + 1).to_be_bytes()), at);
        }
        let kept = drain.keys.lock().expect("lock").drained_at.len();
        assert!(kept < PRUNE_FROM, "drained keys are forgotten: {kept} kept");
    }
}
