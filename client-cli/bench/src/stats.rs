//! Latency samples and their percentiles, and the move chooser's random numbers.

use std::time::Duration;

/// Latencies of one kind of call, in nanoseconds.
#[derive(Clone, Debug, Default)]
pub struct Samples(Vec<u64>);

impl Samples {
    /// Records one latency.
    pub fn push(&mut self, took: Duration) {
        self.0
            .push(u64::try_from(took.as_nanos()).unwrap_or(u64::MAX));
    }

    /// Takes in another task's samples.
    pub(crate) fn merge(&mut self, other: Samples) {
        self.0.extend(other.0);
    }

    /// How many were recorded.
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// Percentiles and extremes (sorts the samples).
    pub fn summary(&mut self) -> Option<Summary> {
        self.0.sort_unstable();
        let sorted = &self.0;
        let max = *sorted.last()?;
        // Nearest rank: the smallest sample with at least `q` of the samples at or below it.
        let rank = |q: f64| {
            let index = (q * sorted.len() as f64).ceil() as usize;
            sorted[index.clamp(1, sorted.len()) - 1]
        };
        let sum: u128 = sorted.iter().map(|&s| u128::from(s)).sum();
        Some(Summary {
            mean: (sum / sorted.len() as u128) as u64,
            p50: rank(0.50),
            p90: rank(0.90),
            p99: rank(0.99),
            max,
        })
    }
}

/// Latency percentiles, in nanoseconds.
#[derive(Clone, Copy, Debug)]
pub struct Summary {
    /// Arithmetic mean.
    pub mean: u64,
    /// Median.
    pub p50: u64,
    /// 90th percentile.
    pub p90: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Slowest.
    pub max: u64,
}

impl Summary {
    /// The figures in milliseconds, keyed as in the JSON report.
    pub fn millis(&self) -> [(&'static str, f64); 5] {
        let ms = |ns: u64| ns as f64 / 1e6;
        [
            ("p50", ms(self.p50)),
            ("p90", ms(self.p90)),
            ("p99", ms(self.p99)),
            ("max", ms(self.max)),
            ("mean", ms(self.mean)),
        ]
    }
}

/// SplitMix64: small, fast and good enough to pick random moves reproducibly.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator for stream `stream` of run seed `seed`.
    pub fn new(seed: u64, stream: u64) -> Rng {
        Rng(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F))
    }

    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (which must not be 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// A number in `range`.
    pub fn within(&mut self, range: &std::ops::RangeInclusive<u64>) -> u64 {
        let span = range.end() - range.start() + 1;
        range.start() + self.next() % span
    }

    /// A wait drawn from the exponential distribution of mean `mean`: the gaps between
    /// events that come at a steady rate, each independent of the last.
    pub fn exponential(&mut self, mean: Duration) -> Duration {
        // A uniform number in (0, 1]: 53 random bits, never zero.
        let uniform = ((self.next() >> 11) + 1) as f64 / (1u64 << 53) as f64;
        mean.mul_f64(-uniform.ln())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exponential_waits_average_their_mean() {
        let mut rng = Rng::new(7, 0);
        let mean = Duration::from_millis(100);
        let waits: Vec<Duration> = (0..20_000).map(|_| rng.exponential(mean)).collect();
        let average = waits.iter().sum::<Duration>() / waits.len() as u32;
        assert!(
            (95..=105).contains(&average.as_millis()),
            "average {average:?}"
        );
        // About e^-1 of the waits are longer than the mean.
        let longer = waits.iter().filter(|&&w| w > mean).count() as f64 / waits.len() as f64;
        assert!((0.34..0.40).contains(&longer), "{longer}");
    }

    #[test]
    fn nearest_rank_percentiles() {
        let mut samples = Samples::default();
        for ms in 1..=100 {
            samples.push(Duration::from_millis(ms));
        }
        let summary = samples.summary().expect("samples");
        assert_eq!(summary.p50, 50_000_000);
        assert_eq!(summary.p90, 90_000_000);
        assert_eq!(summary.p99, 99_000_000);
        assert_eq!(summary.max, 100_000_000);
        assert_eq!(summary.mean, 50_500_000);
        assert!(Samples::default().summary().is_none());
    }

    #[test]
    fn random_numbers_stay_in_range() {
        let mut rng = Rng::new(7, 3);
        for _ in 0..1000 {
            assert!(rng.below(5) < 5);
            assert!((10..=12).contains(&rng.within(&(10..=12))));
        }
    }
}
