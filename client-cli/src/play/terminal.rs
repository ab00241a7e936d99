//! The terminal under `play`: raw mode while the game runs (keys arrive one by one, unechoed,
//! Ctrl-C as a key) and restored however `play` ends, and the window's width.

#[cfg(unix)]
mod unix {
    use rustix::termios::{self, InputModes, LocalModes, OptionalActions, SpecialCodeIndex};

    /// Raw mode on standard input, restored on drop. Output processing stays on, so a
    /// newline still starts a new line.
    pub struct RawMode {
        original: termios::Termios,
    }

    impl RawMode {
        /// Raw mode, if standard input is a terminal that allows it.
        pub fn enter() -> Option<RawMode> {
            let stdin = std::io::stdin();
            let original = termios::tcgetattr(&stdin).ok()?;
            let mut raw = original.clone();
            raw.local_modes.remove(
                LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG | LocalModes::IEXTEN,
            );
            raw.input_modes.remove(InputModes::IXON | InputModes::ICRNL);
            raw.special_codes[SpecialCodeIndex::VMIN] = 1;
            raw.special_codes[SpecialCodeIndex::VTIME] = 0;
            termios::tcsetattr(&stdin, OptionalActions::Now, &raw).ok()?;
            Some(RawMode { original })
        }
    }

    impl Drop for RawMode {
        fn drop(&mut self) {
            let _ = termios::tcsetattr(std::io::stdin(), OptionalActions::Now, &self.original);
        }
    }

    /// The width of the terminal on standard output, if it says.
    pub fn width() -> Option<usize> {
        termios::tcgetwinsize(std::io::stdout())
            .ok()
            .map(|size| usize::from(size.ws_col))
            .filter(|&columns| columns > 0)
    }
}

#[cfg(not(unix))]
mod other {
    /// No raw mode elsewhere: `play` reads lines.
    pub struct RawMode;

    impl RawMode {
        /// Never: lines are read instead.
        pub fn enter() -> Option<RawMode> {
            None
        }
    }

    /// Unknown.
    pub fn width() -> Option<usize> {
        None
    }
}

#[cfg(not(unix))]
pub use other::{RawMode, width};
#[cfg(unix)]
pub use unix::{RawMode, width};
