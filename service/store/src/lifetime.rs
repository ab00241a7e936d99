//! What a store remembers of the server's own life: when it last ran and when it was down,
//! time that running clocks are not charged.

/// What a store remembers of the server's own life: when it last ran, and when it was down
/// (time that running clocks are not charged).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Lifetime {
    /// The last time the server was known to run, ms since the Unix epoch.
    pub alive_ms: Option<u64>,
    /// The intervals it was down, oldest first.
    pub downtime: Downtime,
}

/// Intervals during which the server was down, `[from, to)` in ms since the Unix epoch,
/// oldest first. Time inside them is not counted against anybody.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Downtime(pub Vec<(u64, u64)>);

/// Downtime intervals kept (older ones can no longer overlap a running turn).
pub const MAX_DOWNTIMES: usize = 1000;

impl Downtime {
    /// Notes a start at `now` after the server's last sign of life, `alive`: the time
    /// between is downtime. Keeps the last [`MAX_DOWNTIMES`] intervals.
    pub fn note_start(&mut self, alive: Option<u64>, now: u64) {
        if let Some(alive) = alive
            && alive < now
        {
            self.0.push((alive, now));
            let excess = self.0.len().saturating_sub(MAX_DOWNTIMES);
            self.0.drain(..excess);
        }
    }

    /// Milliseconds the server was down after `from`.
    pub fn after(&self, from: u64) -> u64 {
        self.0
            .iter()
            .map(|&(start, end)| end.saturating_sub(start.max(from)))
            .sum()
    }
}
