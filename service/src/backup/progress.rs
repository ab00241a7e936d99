//! Progress of a long export or import on the terminal: one line on stderr, redrawn a few
//! times a second, and nothing at all when stderr is not a terminal (logs and scripts get
//! only the summary).

use std::io::{IsTerminal as _, Write as _};
use std::time::{Duration, Instant};

/// How often the line is redrawn at most.
const EVERY: Duration = Duration::from_millis(100);

/// A progress line.
#[derive(Debug)]
pub struct Progress {
    shown: bool,
    last: Option<Instant>,
    drawn: bool,
}

impl Progress {
    /// A progress line on stderr when it is a terminal.
    pub fn on_terminal() -> Progress {
        Progress::shown(std::io::stderr().is_terminal())
    }

    /// A progress line that is drawn only if `shown`.
    pub fn shown(shown: bool) -> Progress {
        Progress {
            shown,
            last: None,
            drawn: false,
        }
    }

    /// Shows `line` unless a line was drawn very recently.
    pub fn tick(&mut self, line: impl FnOnce() -> String) {
        if !self.shown || self.last.is_some_and(|last| last.elapsed() < EVERY) {
            return;
        }
        self.last = Some(Instant::now());
        self.drawn = true;
        let mut stderr = std::io::stderr().lock();
        let _ = write!(stderr, "\r\x1b[2K{}", line());
        let _ = stderr.flush();
    }

    /// Clears the line, so that what follows starts on a clean line.
    pub fn clear(&mut self) {
        if self.drawn {
            eprint!("\r\x1b[2K");
            self.drawn = false;
        }
        self.last = None;
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// `bytes` for people: `512 B`, `3.4 MB`.
pub fn size(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} B"),
        1_000..1_000_000 => format!("{:.1} kB", bytes as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", bytes as f64 / 1e6),
        _ => format!("{:.2} GB", bytes as f64 / 1e9),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(super::size(512), "512 B");
        assert_eq!(super::size(3_400), "3.4 kB");
        assert_eq!(super::size(56_700_000), "56.7 MB");
        assert_eq!(super::size(2_500_000_000), "2.50 GB");
    }
}
