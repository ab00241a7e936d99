//! The keys a terminal in raw mode sends, decoded from its bytes: printable characters
//! (UTF-8), the control keys of line editing, and the escape sequences of arrows, Home,
//! End and Delete. A sequence split between two reads is kept until the rest arrives.

/// A key pressed at the prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// A printable character.
    Char(char),
    /// Enter (CR or LF).
    Enter,
    /// Tab: complete.
    Tab,
    /// Backspace or Ctrl-H: delete before the cursor.
    Backspace,
    /// Delete: delete under the cursor.
    Delete,
    /// ← or Ctrl-B.
    Left,
    /// → or Ctrl-F.
    Right,
    /// Home or Ctrl-A.
    Home,
    /// End or Ctrl-E.
    End,
    /// ↑ or Ctrl-P: the previous line of the history.
    Up,
    /// ↓ or Ctrl-N: the next line of the history.
    Down,
    /// Ctrl-K: delete to the end of the line.
    KillToEnd,
    /// Ctrl-U: delete to the start of the line.
    KillToStart,
    /// Ctrl-W: delete the word before the cursor.
    KillWord,
    /// Ctrl-L: clear the screen.
    ClearScreen,
    /// Ctrl-C.
    Interrupt,
    /// Ctrl-D: end of input on an empty line, else Delete.
    EndOfInput,
}

/// The escape character that starts a sequence.
const ESC: u8 = 0x1b;

/// Turns a terminal's bytes into [`Key`]s.
#[derive(Debug, Default)]
pub struct Keys {
    /// Bytes of a character or an escape sequence not complete yet.
    pending: Vec<u8>,
}

/// What the bytes at the start of a buffer are.
enum Parsed {
    /// A key, and how many bytes it took.
    Key(Key, usize),
    /// Bytes that mean nothing here (an unknown sequence, a stray control byte).
    Skip(usize),
    /// The start of something longer: wait for more bytes.
    Incomplete,
}

impl Keys {
    /// The keys in `bytes`, after whatever was left of the previous read.
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Key> {
        self.pending.extend_from_slice(bytes);
        let mut keys = Vec::new();
        let mut start = 0;
        while start < self.pending.len() {
            match parse(&self.pending[start..]) {
                Parsed::Key(key, used) => {
                    keys.push(key);
                    start += used;
                }
                Parsed::Skip(used) => start += used,
                Parsed::Incomplete => break,
            }
        }
        self.pending.drain(..start);
        keys
    }
}

/// The first key of `bytes` (not empty).
fn parse(bytes: &[u8]) -> Parsed {
    let key = |key| Parsed::Key(key, 1);
    match bytes[0] {
        b'\r' | b'\n' => key(Key::Enter),
        b'\t' => key(Key::Tab),
        0x7f | 0x08 => key(Key::Backspace),
        0x01 => key(Key::Home),
        0x02 => key(Key::Left),
        0x03 => key(Key::Interrupt),
        0x04 => key(Key::EndOfInput),
        0x05 => key(Key::End),
        0x06 => key(Key::Right),
        0x0b => key(Key::KillToEnd),
        0x0c => key(Key::ClearScreen),
        0x0e => key(Key::Down),
        0x10 => key(Key::Up),
        0x15 => key(Key::KillToStart),
        0x17 => key(Key::KillWord),
        ESC => escape(bytes),
        byte if byte < 0x20 => Parsed::Skip(1),
        byte => character(bytes, byte),
    }
}

/// A UTF-8 character starting with `first`.
fn character(bytes: &[u8], first: u8) -> Parsed {
    let length = match first {
        0x00..0x80 => 1,
        0xc0..0xe0 => 2,
        0xe0..0xf0 => 3,
        0xf0..0xf8 => 4,
        _ => return Parsed::Skip(1),
    };
    let Some(encoded) = bytes.get(..length) else {
        return Parsed::Incomplete;
    };
    match std::str::from_utf8(encoded)
        .ok()
        .and_then(|text| text.chars().next())
    {
        Some(c) => Parsed::Key(Key::Char(c), length),
        None => Parsed::Skip(1),
    }
}

/// An escape sequence: `ESC [ params final` (CSI) or `ESC O final` (SS3). An escape
/// before anything else (Alt with a key) is dropped and the key read on its own.
fn escape(bytes: &[u8]) -> Parsed {
    match bytes.get(1) {
        None => Parsed::Incomplete,
        Some(b'[') => {
            // Parameter and intermediate bytes, then one final byte.
            let Some(end) = bytes[2..].iter().position(|b| (0x40..=0x7e).contains(b)) else {
                return Parsed::Incomplete;
            };
            let used = 2 + end + 1;
            let key = match (&bytes[2..2 + end], bytes[2 + end]) {
                (_, b'A') => Key::Up,
                (_, b'B') => Key::Down,
                (_, b'C') => Key::Right,
                (_, b'D') => Key::Left,
                (_, b'H') => Key::Home,
                (_, b'F') => Key::End,
                (b"1" | b"7", b'~') => Key::Home,
                (b"4" | b"8", b'~') => Key::End,
                (b"3", b'~') => Key::Delete,
                _ => return Parsed::Skip(used),
            };
            Parsed::Key(key, used)
        }
        Some(b'O') => {
            let Some(&last) = bytes.get(2) else {
                return Parsed::Incomplete;
            };
            let key = match last {
                b'A' => Key::Up,
                b'B' => Key::Down,
                b'C' => Key::Right,
                b'D' => Key::Left,
                b'H' => Key::Home,
                b'F' => Key::End,
                _ => return Parsed::Skip(3),
            };
            Parsed::Key(key, 3)
        }
        Some(_) => Parsed::Skip(1),
    }
}

#[cfg(test)]
mod tests {
    use super::{Key, Keys};

    #[test]
    fn characters_controls_and_sequences_become_keys() {
        let mut keys = Keys::default();
        assert_eq!(
            keys.feed("añ\t\r\x7f\x03".as_bytes()),
            [
                Key::Char('a'),
                Key::Char('ñ'),
                Key::Tab,
                Key::Enter,
                Key::Backspace,
                Key::Interrupt
            ]
        );
        assert_eq!(
            keys.feed(b"\x1b[A\x1b[D\x1bOH\x1b[3~\x1b[1;5C"),
            [Key::Up, Key::Left, Key::Home, Key::Delete, Key::Right]
        );
        // Alt-x: the escape is dropped, the x typed.
        assert_eq!(keys.feed(b"\x1bx"), [Key::Char('x')]);
    }

    #[test]
    fn a_sequence_split_between_reads_waits_for_its_end() {
        let mut keys = Keys::default();
        assert!(keys.feed(b"\x1b").is_empty());
        assert!(keys.feed(b"[").is_empty());
        assert_eq!(keys.feed(b"Bz"), [Key::Down, Key::Char('z')]);
        let accented = "é".as_bytes();
        assert!(keys.feed(&accented[..1]).is_empty());
        assert_eq!(keys.feed(&accented[1..]), [Key::Char('é')]);
    }
}
