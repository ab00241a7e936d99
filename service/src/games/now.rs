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
