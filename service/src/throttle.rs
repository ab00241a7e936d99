//! Rate limits (token buckets, `governor`): games created or joined, watch streams opened
//! and accounts registered per client address, acting calls per player token (failed
//! sign-ins are counted by `accounts`). The defaults are far above what a person does; load
//! tools lift them with the server's `--no-rate-limits`.

use std::fmt;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{Quota, RateLimiter};

use crate::error::ApiError;
use trinchera_store::TokenHash;

/// One token bucket: `count` calls per `period` on average, bursts of up to `burst`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimit {
    /// Calls per period.
    pub count: NonZeroU32,
    /// The period.
    pub period: Duration,
    /// Calls allowed at once after a quiet spell.
    pub burst: NonZeroU32,
}

impl RateLimit {
    /// `count` calls a minute, bursts of `burst`.
    pub const fn per_minute(count: NonZeroU32, burst: NonZeroU32) -> RateLimit {
        RateLimit {
            count,
            period: Duration::from_secs(60),
            burst,
        }
    }

    /// `count` calls an hour, bursts of `burst`.
    pub const fn per_hour(count: NonZeroU32, burst: NonZeroU32) -> RateLimit {
        RateLimit {
            count,
            period: Duration::from_secs(3600),
            burst,
        }
    }

    /// `count` calls a second, bursts of `burst`.
    pub const fn per_second(count: NonZeroU32, burst: NonZeroU32) -> RateLimit {
        RateLimit {
            count,
            period: Duration::from_secs(1),
            burst,
        }
    }

    fn quota(self) -> Quota {
        let every = self.period / self.count.get();
        Quota::with_period(every.max(Duration::from_nanos(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MAX))
            .allow_burst(self.burst)
    }
}

impl fmt::Display for RateLimit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let per = match self.period.as_secs() {
            1 => "a second".to_owned(),
            60 => "a minute".to_owned(),
            3600 => "an hour".to_owned(),
            secs => format!("per {secs} s"),
        };
        write!(f, "{} {per}, bursts of {}", self.count, self.burst)
    }
}

/// Every rate limit; `None` switches one off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateLimits {
    /// CreateGame and JoinGame calls per client address.
    pub create_join: Option<RateLimit>,
    /// Acting calls (setups, moves, resignations) per player token.
    pub acting: Option<RateLimit>,
    /// WatchGame streams opened per client address.
    pub stream_opens: Option<RateLimit>,
    /// Accounts registered per client address.
    pub registrations: Option<RateLimit>,
    /// Failed sign-ins per client address.
    pub failed_logins: Option<RateLimit>,
    /// Failed sign-ins per account name.
    pub failed_logins_per_name: Option<RateLimit>,
}

/// A non-zero constant.
const fn nz(n: u32) -> NonZeroU32 {
    match NonZeroU32::new(n) {
        Some(n) => n,
        None => NonZeroU32::MIN,
    }
}

impl Default for RateLimits {
    fn default() -> Self {
        RateLimits {
            create_join: Some(RateLimit::per_minute(nz(60), nz(20))),
            acting: Some(RateLimit::per_second(nz(100), nz(200))),
            stream_opens: Some(RateLimit::per_minute(nz(100), nz(30))),
            registrations: Some(RateLimit::per_hour(nz(10), nz(5))),
            failed_logins: Some(RateLimit::per_minute(nz(10), nz(20))),
            failed_logins_per_name: Some(RateLimit::per_minute(nz(5), nz(10))),
        }
    }
}

impl RateLimits {
    /// No rate limit at all (load tests, benchmarks).
    pub const OFF: RateLimits = RateLimits {
        create_join: None,
        acting: None,
        stream_opens: None,
        registrations: None,
        failed_logins: None,
        failed_logins_per_name: None,
    };
}

/// One keyed token bucket with what its refusal says.
struct Bucket<K: std::hash::Hash + Eq + Clone> {
    limiter: governor::DefaultKeyedRateLimiter<K>,
    limit: RateLimit,
    what: &'static str,
    setting: &'static str,
}

impl<K: std::hash::Hash + Eq + Clone> Bucket<K> {
    fn new(limit: Option<RateLimit>, what: &'static str, setting: &'static str) -> Option<Self> {
        limit.map(|limit| Bucket {
            limiter: RateLimiter::keyed(limit.quota()),
            limit,
            what,
            setting,
        })
    }

    fn check(&self, key: &K) -> Result<(), ApiError> {
        self.limiter.check_key(key).map_err(|not_until| {
            let retry_after = not_until.wait_time_from(DefaultClock::default().now());
            ApiError::RateLimited {
                limit: self.setting,
                message: format!(
                    "too many {} (the limit is {}; server setting {}): retry in {:.1} s",
                    self.what,
                    self.limit,
                    self.setting,
                    retry_after.as_secs_f64()
                ),
                retry_after,
            }
        })
    }
}

/// The key of a client address: IPv6 clients are counted per /64 network, since one
/// machine commonly holds a whole /64.
pub(crate) fn peer_key(peer: IpAddr) -> IpAddr {
    match peer {
        IpAddr::V4(_) => peer,
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(bits.into())
        }
    }
}

/// The server's rate limiters.
pub(crate) struct Throttle {
    create_join: Option<Bucket<IpAddr>>,
    acting: Option<Bucket<TokenHash>>,
    stream_opens: Option<Bucket<IpAddr>>,
    registrations: Option<Bucket<IpAddr>>,
}

impl Throttle {
    /// Limiters for `limits`.
    pub(crate) fn new(limits: &RateLimits) -> Throttle {
        Throttle {
            create_join: Bucket::new(
                limits.create_join,
                "games created or joined from your address",
                "--create-join-per-minute",
            ),
            acting: Bucket::new(
                limits.acting,
                "actions with this player token",
                "--actions-per-second",
            ),
            stream_opens: Bucket::new(
                limits.stream_opens,
                "watch streams opened from your address",
                "--watch-opens-per-minute",
            ),
            registrations: Bucket::new(
                limits.registrations,
                "accounts registered from your address",
                "--registrations-per-hour",
            ),
        }
    }

    /// Spends one CreateGame/JoinGame call of `peer`.
    pub(crate) fn create_join(&self, peer: Option<IpAddr>) -> Result<(), ApiError> {
        match (&self.create_join, peer) {
            (Some(bucket), Some(peer)) => bucket.check(&peer_key(peer)),
            _ => Ok(()),
        }
    }

    /// Spends one WatchGame open of `peer`.
    pub(crate) fn stream_open(&self, peer: Option<IpAddr>) -> Result<(), ApiError> {
        match (&self.stream_opens, peer) {
            (Some(bucket), Some(peer)) => bucket.check(&peer_key(peer)),
            _ => Ok(()),
        }
    }

    /// Spends one Register call of `peer`.
    pub(crate) fn register(&self, peer: Option<IpAddr>) -> Result<(), ApiError> {
        match (&self.registrations, peer) {
            (Some(bucket), Some(peer)) => bucket.check(&peer_key(peer)),
            _ => Ok(()),
        }
    }

    /// Spends one acting call of a (valid) token.
    pub(crate) fn acting(&self, token: &TokenHash) -> Result<(), ApiError> {
        match &self.acting {
            Some(bucket) => bucket.check(token),
            None => Ok(()),
        }
    }

    /// Forgets buckets that are full again, so that memory follows active clients only.
    pub(crate) fn forget_idle(&self) {
        if let Some(bucket) = &self.create_join {
            bucket.limiter.retain_recent();
        }
        if let Some(bucket) = &self.acting {
            bucket.limiter.retain_recent();
        }
        if let Some(bucket) = &self.stream_opens {
            bucket.limiter.retain_recent();
        }
        if let Some(bucket) = &self.registrations {
            bucket.limiter.retain_recent();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_next_call_is_refused_with_a_retry_time() {
        let throttle = Throttle::new(&RateLimits {
            create_join: Some(RateLimit::per_minute(nz(60), nz(3))),
            ..RateLimits::OFF
        });
        let peer = Some(IpAddr::from([10, 0, 0, 1]));
        for _ in 0..3 {
            throttle.create_join(peer).expect("within the burst");
        }
        match throttle.create_join(peer) {
            Err(ApiError::RateLimited {
                message,
                retry_after,
                ..
            }) => {
                assert!(message.contains("60 a minute, bursts of 3"), "{message}");
                assert!(message.contains("--create-join-per-minute"), "{message}");
                assert!(retry_after > Duration::ZERO && retry_after <= Duration::from_secs(1));
            }
            other => panic!("expected a rate limit, got {other:?}"),
        }
        throttle
            .create_join(Some(IpAddr::from([10, 0, 0, 2])))
            .expect("another address has its own bucket");
        throttle.stream_open(peer).expect("streams are off here");
    }

    #[test]
    fn ipv6_peers_share_their_64_bit_network() {
        let a: IpAddr = "2001:db8::1".parse().expect("address");
        let b: IpAddr = "2001:db8::ffff:2".parse().expect("address");
        let c: IpAddr = "2001:db8:0:1::1".parse().expect("address");
        assert_eq!(peer_key(a), peer_key(b));
        assert_ne!(peer_key(a), peer_key(c));
    }
}
