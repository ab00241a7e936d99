//! What the player reads and types during `play`.
//!
//! On a terminal: a live prompt line under everything printed (the line editor in raw
//! mode), redrawn as its text changes (a running clock) and kept, with what is typed,
//! while events are printed above it. From a pipe or a file: plain lines, every one used
//! in turn, so that scripts may pipe a whole game in; the end of the input is noticed even
//! while the game waits for the opponent. Standard input is read on a thread of its own,
//! so reading never holds up the game and never keeps the program from ending.

use std::collections::VecDeque;
use std::io::{IsTerminal, Read, Write};

use tokio::sync::mpsc;

use super::editor::{Edit, Editor, Listing, columns};
use super::keys::{Key, Keys};
use super::terminal::{self, RawMode};

/// The width assumed when the terminal does not say.
const DEFAULT_WIDTH: usize = 80;

/// What the player answered at a prompt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Typed {
    /// A line, trimmed.
    Line(String),
    /// Ctrl-C, Ctrl-D on an empty line, or the end of the input: the player leaves.
    Leave,
}

/// The player's side of the game.
pub struct Console {
    io: Io,
    /// Standard input, as it arrives.
    input: mpsc::UnboundedReceiver<Vec<u8>>,
    /// Whether standard input has ended.
    ended: bool,
    /// The prompt's text.
    prompt: String,
}

/// A terminal, or lines.
enum Io {
    Terminal(Screen),
    Piped(Lines),
}

/// The live prompt line of a terminal.
struct Screen {
    editor: Editor,
    keys: Keys,
    /// Keys read but not applied yet (typed after an Enter).
    pending: VecDeque<Key>,
    /// Whether the prompt line is on the screen.
    shown: bool,
    /// Restores the terminal when dropped (after the prompt line is cleared).
    _raw: RawMode,
}

/// Lines from a pipe or a file.
#[derive(Default)]
struct Lines {
    /// The start of a line whose end has not arrived.
    partial: Vec<u8>,
    /// Whole lines not used yet.
    queue: VecDeque<String>,
    /// Whether the prompt has been printed for the line awaited.
    prompted: bool,
}

impl Console {
    /// The line editor when standard input and output are a terminal, else plain lines.
    pub fn new() -> Console {
        let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
        // Raw mode before the first read, so that no read waits for a whole line.
        let io = match terminal.then(RawMode::enter).flatten() {
            Some(raw) => Io::Terminal(Screen {
                editor: Editor::default(),
                keys: Keys::default(),
                pending: VecDeque::new(),
                shown: false,
                _raw: raw,
            }),
            None => Io::Piped(Lines::default()),
        };
        Console {
            io,
            input: read_stdin(),
            ended: false,
            prompt: String::new(),
        }
    }

    /// Whether the prompt is a live line on a terminal (and always takes commands).
    pub fn live(&self) -> bool {
        matches!(self.io, Io::Terminal(_))
    }

    /// Prints `text` (a newline is added if missing) above the prompt.
    pub fn say(&mut self, text: &str) {
        let mut out = String::new();
        match &mut self.io {
            Io::Terminal(screen) => {
                if std::mem::take(&mut screen.shown) {
                    out.push_str("\r\x1b[K");
                }
            }
            // A prompt left waiting gets a line of its own, and comes again later.
            Io::Piped(lines) => {
                if std::mem::take(&mut lines.prompted) {
                    out.push('\n');
                }
            }
        }
        out.push_str(text);
        if !text.ends_with('\n') {
            out.push('\n');
        }
        write(&out);
    }

    /// The prompt reads `prompt` from now on (redrawn at once if it shows).
    pub fn set_prompt(&mut self, prompt: &str) {
        if self.prompt == prompt {
            return;
        }
        prompt.clone_into(&mut self.prompt);
        if let Io::Terminal(screen) = &mut self.io
            && screen.shown
        {
            screen.draw(&self.prompt);
        }
    }

    /// Tab completes these words from now on.
    pub fn complete(&mut self, words: Vec<String>) {
        if let Io::Terminal(screen) = &mut self.io {
            screen.editor.complete(words);
        }
    }

    /// Drops what is half typed at a terminal's prompt; whether there was something.
    pub fn drop_typed(&mut self) -> bool {
        let Io::Terminal(screen) = &mut self.io else {
            return false;
        };
        let typed = !screen.editor.is_empty() || !screen.pending.is_empty();
        screen.editor.clear();
        screen.pending.clear();
        if screen.shown {
            screen.draw(&self.prompt);
        }
        typed
    }

    /// The player's next answer (cancel-safe: what was typed stays for the next call):
    /// with `lines`, the next line typed at the prompt; without, lines stay for a later
    /// prompt and only the end of an input with no line left is an answer.
    pub async fn typed(&mut self, lines: bool) -> Typed {
        if lines {
            self.line().await
        } else {
            self.ended().await;
            Typed::Leave
        }
    }

    /// The next line typed at the prompt.
    async fn line(&mut self) -> Typed {
        loop {
            match &mut self.io {
                Io::Terminal(screen) => {
                    if !screen.shown {
                        screen.draw(&self.prompt);
                    }
                    if let Some(typed) = screen.apply_keys(&self.prompt) {
                        return typed;
                    }
                }
                Io::Piped(lines) => {
                    if !lines.prompted {
                        write(&self.prompt);
                        lines.prompted = true;
                    }
                    if let Some(line) = lines.queue.pop_front() {
                        lines.prompted = false;
                        return Typed::Line(line);
                    }
                }
            }
            if self.ended {
                return Typed::Leave;
            }
            self.receive().await;
        }
    }

    /// Resolves when the input has ended with no line left to use (only then can nothing
    /// more be played from here); meanwhile keeps what arrives for later prompts.
    async fn ended(&mut self) {
        loop {
            let queued = match &self.io {
                Io::Piped(lines) => !lines.queue.is_empty(),
                Io::Terminal(_) => false,
            };
            match (self.ended, queued) {
                (true, false) => return,
                (true, true) => std::future::pending().await,
                (false, _) => self.receive().await,
            }
        }
    }

    /// Takes the next bytes of standard input (cancel-safe).
    async fn receive(&mut self) {
        let Some(bytes) = self.input.recv().await else {
            self.ended = true;
            if let Io::Piped(lines) = &mut self.io
                && !lines.partial.is_empty()
            {
                let last = std::mem::take(&mut lines.partial);
                lines.queue.push_back(trimmed(&last));
            }
            return;
        };
        match &mut self.io {
            Io::Terminal(screen) => {
                let keys = screen.keys.feed(&bytes);
                screen.pending.extend(keys);
            }
            Io::Piped(lines) => {
                lines.partial.extend_from_slice(&bytes);
                while let Some(end) = lines.partial.iter().position(|&b| b == b'\n') {
                    let line: Vec<u8> = lines.partial.drain(..=end).collect();
                    lines.queue.push_back(trimmed(&line));
                }
            }
        }
    }
}

impl Screen {
    /// Applies the keys read so far; the answer when one of them ends the line.
    fn apply_keys(&mut self, prompt: &str) -> Option<Typed> {
        let mut changed = false;
        while let Some(key) = self.pending.pop_front() {
            match self.editor.key(key) {
                Edit::Redraw => changed = true,
                Edit::Entered(line) => {
                    // The line stays on the screen, whole, above what follows.
                    write(&format!("\r{prompt}{line}\x1b[K"));
                    self.new_line();
                    return Some(Typed::Line(line));
                }
                Edit::Leave => {
                    self.new_line();
                    return Some(Typed::Leave);
                }
                Edit::Bell => write("\x07"),
                Edit::ClearScreen => {
                    write("\x1b[2J\x1b[H");
                    changed = true;
                }
                Edit::List(listing) => {
                    self.new_line();
                    let width = terminal::width().unwrap_or(DEFAULT_WIDTH);
                    write(&match listing {
                        Listing::All(words) => columns(&words, width),
                        Listing::TooMany(count) => format!(
                            "{count} possibilities: type more of the move (`moves` lists \
                             them by piece)\n"
                        ),
                    });
                    changed = true;
                }
            }
        }
        if changed {
            self.draw(prompt);
        }
        None
    }

    /// Draws the prompt line, the cursor in its place.
    fn draw(&mut self, prompt: &str) {
        let width = terminal::width().unwrap_or(DEFAULT_WIDTH);
        let (text, cursor) = self.editor.render(prompt, width);
        let mut out = format!("\r{text}\x1b[K\r");
        if cursor > 0 {
            out.push_str(&format!("\x1b[{cursor}C"));
        }
        write(&out);
        self.shown = true;
    }

    /// Leaves the prompt line as it is and goes on below it.
    fn new_line(&mut self) {
        write("\n");
        self.shown = false;
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        if self.shown {
            write("\r\x1b[K");
        }
    }
}

/// `bytes` as a trimmed line of text.
fn trimmed(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).trim().to_owned()
}

/// Writes `text` to standard output at once.
fn write(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// Standard input as it arrives, read on a thread of its own (a read cannot be called
/// off; a thread left reading does not keep the program from ending).
fn read_stdin() -> mpsc::UnboundedReceiver<Vec<u8>> {
    let (sender, receiver) = mpsc::unbounded_channel();
    let reader = move || {
        let mut stdin = std::io::stdin().lock();
        let mut buffer = [0_u8; 4096];
        loop {
            match stdin.read(&mut buffer) {
                Ok(0) => break,
                Ok(read) => {
                    if sender.send(buffer[..read].to_vec()).is_err() {
                        break;
                    }
                }
                Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
    };
    // Without the thread the input counts as ended: the receiver's sender is gone.
    let _ = std::thread::Builder::new()
        .name("stdin".into())
        .spawn(reader);
    receiver
}
