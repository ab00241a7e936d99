//! Where the server's time comes from: the system clock in production, a fake one in tests.

/// Where the server's time comes from: the system clock in production, a fake one in tests.
pub(crate) trait TimeSource: Send + Sync + 'static {
    /// Now, in ms since the Unix epoch.
    fn now_ms(&self) -> u64;
}

/// The operating system's clock.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SystemTime;

impl TimeSource for SystemTime {
    fn now_ms(&self) -> u64 {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64)
    }
}

/// A server clock that moves only when told (tests).
#[cfg(test)]
#[derive(Debug)]
pub(crate) struct FakeTime(pub(crate) std::sync::atomic::AtomicU64);

#[cfg(test)]
impl FakeTime {
    /// A clock at `ms` since the Unix epoch.
    pub(crate) fn at(ms: u64) -> FakeTime {
        FakeTime(std::sync::atomic::AtomicU64::new(ms))
    }

    /// Moves the clock on by `by`.
    pub(crate) fn advance(&self, by: std::time::Duration) {
        self.0
            .fetch_add(by.as_millis() as u64, std::sync::atomic::Ordering::SeqCst);
    }
}

#[cfg(test)]
impl TimeSource for FakeTime {
    fn now_ms(&self) -> u64 {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }
}
