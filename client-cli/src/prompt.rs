//! What the player types in `play`. On a terminal: a line editor (arrows, history, the
//! usual editing keys) with Tab completion of the legal moves and the prompt's commands,
//! and what was typed while the opponent moved is dropped before the next prompt (with a
//! note), so that no move is played before its player has seen the board. From a pipe:
//! plain lines, every one used, so that scripts may pipe a whole game in.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Mutex, PoisonError};

use rustyline::completion::Completer;
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use tokio::io::{AsyncBufReadExt, BufReader, Lines, Stdin};

use trinchera_proto::v1 as pb;

use crate::error::CliError;

/// The commands of the move prompt (see `play`'s help).
const MOVE_COMMANDS: [&str; 7] = ["moves", "board", "resign", "quit", "help", "show", "exit"];

/// What Tab completes at the move prompt: every legal move's notation, then the commands.
pub fn move_words(view: &pb::GameView) -> Vec<String> {
    view.legal_moves
        .iter()
        .map(|m| m.notation.clone())
        .chain(MOVE_COMMANDS.map(String::from))
        .collect()
}

/// The words Tab completes at the current prompt.
#[derive(Clone, Debug, Default)]
struct Words(Arc<Mutex<Vec<String>>>);

impl Words {
    fn set(&self, words: Vec<String>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = words;
    }
}

/// The words of `words` that the line typed so far begins (case aside): whole notations,
/// so that a long tanques maneuver or asalto chain is two keystrokes.
pub fn completions(words: &[String], typed: &str) -> Vec<String> {
    let typed = typed.trim_start().to_lowercase();
    words
        .iter()
        .filter(|word| word.to_lowercase().starts_with(&typed))
        .cloned()
        .collect()
}

impl Completer for Words {
    type Candidate = String;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let words = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        Ok((0, completions(&words, &line[..pos])))
    }
}

impl Hinter for Words {
    type Hint = String;
}

impl Highlighter for Words {}

impl Validator for Words {}

impl Helper for Words {}

/// Where the lines come from.
enum Source {
    /// A person at a terminal.
    Terminal(Arc<Mutex<Editor<Words, DefaultHistory>>>),
    /// A pipe or a file.
    Piped(Lines<BufReader<Stdin>>),
}

/// The player's lines.
pub struct Input {
    source: Source,
    words: Words,
    /// Whether the opponent acted since the last prompt (typed-ahead lines are dropped).
    waited: bool,
}

impl Input {
    /// The line editor when standard input and output are a terminal, else plain lines.
    pub fn new() -> Input {
        let words = Words::default();
        let terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
        let editor = terminal
            .then(|| Editor::<Words, DefaultHistory>::new().ok())
            .flatten()
            .map(|mut editor| {
                editor.set_helper(Some(words.clone()));
                editor
            });
        let source = match editor {
            Some(editor) => Source::Terminal(Arc::new(Mutex::new(editor))),
            None => Source::Piped(BufReader::new(tokio::io::stdin()).lines()),
        };
        Input {
            source,
            words,
            waited: false,
        }
    }

    /// Tab completes these words from now on.
    pub fn complete(&self, words: Vec<String>) {
        self.words.set(words);
    }

    /// The opponent acted: what the player typed meanwhile is stale.
    pub fn waited(&mut self) {
        self.waited = true;
    }

    /// Prints `prompt` and reads a trimmed line; `None` at the end of input or on Ctrl-C
    /// or Ctrl-D at the prompt.
    pub async fn ask(&mut self, prompt: &str) -> Result<Option<String>, CliError> {
        let waited = std::mem::take(&mut self.waited);
        match &mut self.source {
            Source::Piped(lines) => {
                print!("{prompt}");
                std::io::stdout()
                    .flush()
                    .map_err(|e| CliError::file("cannot write to", "standard output", e))?;
                let line = lines
                    .next_line()
                    .await
                    .map_err(|e| CliError::file("cannot read", "standard input", e))?;
                Ok(line.map(|l| l.trim().to_owned()))
            }
            Source::Terminal(editor) => {
                if waited && drop_typed_ahead() {
                    println!(
                        "(What you typed while waiting was dropped: look at the board, then \
                         type your move.)"
                    );
                }
                let editor = Arc::clone(editor);
                let prompt = prompt.to_owned();
                let line = tokio::task::spawn_blocking(move || {
                    let mut editor = editor.lock().unwrap_or_else(PoisonError::into_inner);
                    let line = editor.readline(&prompt);
                    if let Ok(text) = &line
                        && !text.trim().is_empty()
                    {
                        let _ = editor.add_history_entry(text.trim());
                    }
                    line
                })
                .await
                .map_err(|e| CliError::Local(format!("the line editor failed: {e}")))?;
                match line {
                    Ok(text) => Ok(Some(text.trim().to_owned())),
                    Err(ReadlineError::Eof | ReadlineError::Interrupted) => Ok(None),
                    Err(error) => Err(CliError::Local(format!(
                        "cannot read the terminal: {error}"
                    ))),
                }
            }
        }
    }
}

/// Drops whatever waits in the terminal's input queue; whether a whole line was there.
#[cfg(unix)]
fn drop_typed_ahead() -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use nix::sys::termios::{FlushArg, tcflush};
    use std::os::fd::AsFd;
    let stdin = std::io::stdin();
    let fd = stdin.as_fd();
    // In canonical mode the terminal is readable once a line is complete.
    let mut fds = [PollFd::new(fd, PollFlags::POLLIN)];
    let line = poll(&mut fds, PollTimeout::ZERO).is_ok_and(|ready| ready > 0);
    let _ = tcflush(fd, FlushArg::TCIFLUSH);
    line
}

/// Elsewhere the typed-ahead stays (no portable way to drop it).
#[cfg(not(unix))]
fn drop_typed_ahead() -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::{completions, move_words};
    use trinchera_proto::v1 as pb;

    #[test]
    fn completion_candidates_are_a_real_servers_legal_moves() {
        let data = tempfile::tempdir().expect("temp dir");
        let server = trinchera_service::LocalServer::start(
            data.path(),
            "127.0.0.1:0".parse().expect("address"),
            trinchera_service::Limits::for_tests(),
        )
        .expect("server");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let view = runtime.block_on(async {
            let client = trinchera_client::Server::connect(&server.url())
                .await
                .expect("connects");
            let created = client
                .create(pb::CreateGameRequest {
                    ruleset: "tanques".into(),
                    bot: "random".into(),
                    ..Default::default()
                })
                .await
                .expect("created");
            let token = created.player_token;
            let game = created.view.expect("view").game_id;
            client.view(&game, Some(&token)).await.expect("view")
        });
        let words = move_words(&view);
        assert!(view.legal_moves.len() > 10, "tanques offers many entries");
        let entries = completions(&words, "enter");
        assert_eq!(
            entries.len(),
            view.legal_moves
                .iter()
                .filter(|m| m.notation.starts_with("enter"))
                .count()
        );
        assert!(!entries.is_empty());
        assert!(completions(&words, "mo").contains(&"moves".to_owned()));
    }

    #[test]
    fn completion_offers_whole_notations_that_begin_with_what_is_typed() {
        let words: Vec<String> = ["e4 FLF", "e4 FL", "enter f1 NE", "moves", "end"]
            .map(String::from)
            .to_vec();
        assert_eq!(completions(&words, "e4"), ["e4 FLF", "e4 FL"]);
        assert_eq!(completions(&words, "EN"), ["enter f1 NE", "end"]);
        assert!(completions(&words, "x").is_empty());
        assert_eq!(completions(&words, "").len(), words.len());
    }
}
