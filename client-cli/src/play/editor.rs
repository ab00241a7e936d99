//! The line being typed at the prompt: editing keys, history, and Tab completion as
//! readline does it (a Tab completes what all candidates share; a second Tab lists them).
//! Only state: the console draws it and reads the keys.

use super::keys::Key;

/// At most this many candidates are listed on a double Tab; more are counted instead.
const MOST_LISTED: usize = 100;

/// What a key did to the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// The line may have changed: draw it again.
    Redraw,
    /// Enter: the line typed (trimmed), now added to the history.
    Entered(String),
    /// A second Tab with several candidates: list them (or say how many there are).
    List(Listing),
    /// Tab with nothing (more) to complete.
    Bell,
    /// Ctrl-L.
    ClearScreen,
    /// Ctrl-C, or Ctrl-D on an empty line: the player leaves.
    Leave,
}

/// The candidates a double Tab shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Listing {
    /// Every candidate.
    All(Vec<String>),
    /// Too many to list: their number.
    TooMany(usize),
}

/// The line being typed, with its history and completion words.
#[derive(Debug, Default)]
pub struct Editor {
    line: Vec<char>,
    cursor: usize,
    history: Vec<String>,
    /// The history entry shown while browsing with ↑ and ↓ (`None`: the line being typed).
    browsing: Option<usize>,
    /// The line being typed, kept while browsing the history.
    draft: Vec<char>,
    /// What Tab completes.
    words: Vec<String>,
    /// Whether the last key was a Tab that left several candidates.
    tabbed: bool,
}

impl Editor {
    /// Tab completes these words from now on (whole lines: notations have spaces).
    pub fn complete(&mut self, words: Vec<String>) {
        self.words = words;
        self.tabbed = false;
    }

    /// Whether something is typed.
    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    /// Forgets the line typed (what was typed for another prompt).
    pub fn clear(&mut self) {
        self.line.clear();
        self.cursor = 0;
        self.browsing = None;
        self.tabbed = false;
    }

    /// Applies `key`.
    pub fn key(&mut self, key: Key) -> Edit {
        let tabbed = std::mem::take(&mut self.tabbed);
        match key {
            Key::Char(c) => {
                self.line.insert(self.cursor, c);
                self.cursor += 1;
            }
            Key::Enter => {
                let text: String = self.line.iter().collect();
                let text = text.trim().to_owned();
                if !text.is_empty() && self.history.last() != Some(&text) {
                    self.history.push(text.clone());
                }
                self.clear();
                return Edit::Entered(text);
            }
            Key::Tab => return self.tab(tabbed),
            Key::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                self.line.remove(self.cursor);
            }
            Key::Delete if self.cursor < self.line.len() => {
                self.line.remove(self.cursor);
            }
            Key::EndOfInput if self.line.is_empty() => return Edit::Leave,
            Key::EndOfInput if self.cursor < self.line.len() => {
                self.line.remove(self.cursor);
            }
            Key::Left => self.cursor = self.cursor.saturating_sub(1),
            Key::Right => self.cursor = (self.cursor + 1).min(self.line.len()),
            Key::Home => self.cursor = 0,
            Key::End => self.cursor = self.line.len(),
            Key::Up => self.browse_back(),
            Key::Down => self.browse_forward(),
            Key::KillToEnd => self.line.truncate(self.cursor),
            Key::KillToStart => {
                self.line.drain(..self.cursor);
                self.cursor = 0;
            }
            Key::KillWord => {
                let end = self.cursor;
                let mut start = end;
                while start > 0 && self.line[start - 1] == ' ' {
                    start -= 1;
                }
                while start > 0 && self.line[start - 1] != ' ' {
                    start -= 1;
                }
                self.line.drain(start..end);
                self.cursor = start;
            }
            Key::ClearScreen => return Edit::ClearScreen,
            Key::Interrupt => return Edit::Leave,
            Key::Backspace | Key::Delete | Key::EndOfInput => {}
        }
        Edit::Redraw
    }

    /// Tab: completes the part before the cursor to what every candidate shares; when that
    /// adds nothing and several remain, a second Tab lists them.
    fn tab(&mut self, tabbed: bool) -> Edit {
        let typed: String = self.line[..self.cursor].iter().collect();
        let candidates = completions(&self.words, &typed);
        let Some(first) = candidates.first() else {
            return Edit::Bell;
        };
        let shared = candidates
            .iter()
            .fold(first.chars().count(), |shared, word| {
                shared.min(
                    first
                        .chars()
                        .zip(word.chars())
                        .take_while(|(a, b)| a.eq_ignore_ascii_case(b))
                        .count(),
                )
            });
        let typed_chars = typed.trim_start().chars().count();
        if shared > typed_chars {
            let completed: Vec<char> = first.chars().take(shared).collect();
            self.line.splice(..self.cursor, completed.iter().copied());
            self.cursor = completed.len();
            self.tabbed = candidates.len() > 1;
            return Edit::Redraw;
        }
        if candidates.len() == 1 {
            return Edit::Redraw;
        }
        if !tabbed {
            self.tabbed = true;
            return Edit::Bell;
        }
        self.tabbed = true;
        Edit::List(if candidates.len() > MOST_LISTED {
            Listing::TooMany(candidates.len())
        } else {
            Listing::All(candidates)
        })
    }

    fn browse_back(&mut self) {
        let index = match self.browsing {
            None if self.history.is_empty() => return,
            None => {
                self.draft = std::mem::take(&mut self.line);
                self.history.len() - 1
            }
            Some(index) => index.saturating_sub(1),
        };
        self.show_history(Some(index));
    }

    fn browse_forward(&mut self) {
        match self.browsing {
            None => {}
            Some(index) if index + 1 < self.history.len() => self.show_history(Some(index + 1)),
            Some(_) => self.show_history(None),
        }
    }

    /// Shows history entry `index`, or the draft.
    fn show_history(&mut self, index: Option<usize>) {
        self.browsing = index;
        self.line = match index {
            Some(index) => self.history[index].chars().collect(),
            None => std::mem::take(&mut self.draft),
        };
        self.cursor = self.line.len();
    }

    /// The prompt and the line as they fit in `width` columns, and the cursor's column: a
    /// line too long scrolls sideways to keep the cursor in sight.
    pub fn render(&self, prompt: &str, width: usize) -> (String, usize) {
        let prompt_width = prompt.chars().count();
        // One column stays free: writing the last one makes some terminals wrap.
        let room = width.saturating_sub(prompt_width + 1).max(1);
        let start = (self.cursor + 1).saturating_sub(room);
        let shown: String = self.line[start..].iter().take(room).collect();
        (
            format!("{prompt}{shown}"),
            prompt_width + self.cursor - start,
        )
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

/// `words` in columns that fit `width`, a line each row.
pub fn columns(words: &[String], width: usize) -> String {
    let column = words.iter().map(|w| w.chars().count()).max().unwrap_or(0) + 2;
    let per_row = (width.saturating_sub(1) / column).max(1);
    let mut text = String::new();
    for row in words.chunks(per_row) {
        let line: String = row.iter().map(|word| format!("{word:<column$}")).collect();
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn typed(editor: &mut Editor, text: &str) {
        for c in text.chars() {
            editor.key(Key::Char(c));
        }
    }

    fn words(list: &[&str]) -> Vec<String> {
        list.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn keys_edit_the_line_and_enter_returns_it() {
        let mut editor = Editor::default();
        typed(&mut editor, "a4a5");
        editor.key(Key::Left);
        editor.key(Key::Left);
        editor.key(Key::Char('-'));
        assert_eq!(editor.render("> ", 80), ("> a4-a5".to_owned(), 5));
        editor.key(Key::Home);
        editor.key(Key::Delete);
        editor.key(Key::End);
        editor.key(Key::Backspace);
        assert_eq!(editor.render("", 80).0, "4-a");
        editor.key(Key::KillWord);
        assert!(editor.is_empty());
        typed(&mut editor, " e4 FLF ");
        assert_eq!(editor.key(Key::Enter), Edit::Entered("e4 FLF".into()));
        assert!(editor.is_empty());
        assert_eq!(editor.key(Key::EndOfInput), Edit::Leave);
    }

    #[test]
    fn the_history_comes_back_with_the_arrows() {
        let mut editor = Editor::default();
        for line in ["moves", "board"] {
            typed(&mut editor, line);
            editor.key(Key::Enter);
        }
        typed(&mut editor, "a4");
        editor.key(Key::Up);
        assert_eq!(editor.render("", 80).0, "board");
        editor.key(Key::Up);
        editor.key(Key::Up);
        assert_eq!(editor.render("", 80).0, "moves");
        editor.key(Key::Down);
        editor.key(Key::Down);
        assert_eq!(editor.render("", 80).0, "a4", "the draft comes back");
    }

    #[test]
    fn tab_completes_the_shared_part_and_a_second_tab_lists() {
        let mut editor = Editor::default();
        editor.complete(words(&["e4 FLF", "e4 FL", "enter f1 NE", "moves", "end"]));
        typed(&mut editor, "mo");
        assert_eq!(editor.key(Key::Tab), Edit::Redraw);
        assert_eq!(editor.render("", 80).0, "moves");
        editor.clear();
        typed(&mut editor, "E4");
        // "e4 FL" is shared: completed (in the candidates' case), then a Tab lists.
        assert_eq!(editor.key(Key::Tab), Edit::Redraw);
        assert_eq!(editor.render("", 80).0, "e4 FL");
        assert_eq!(
            editor.key(Key::Tab),
            Edit::List(Listing::All(words(&["e4 FLF", "e4 FL"])))
        );
        editor.clear();
        typed(&mut editor, "e");
        assert_eq!(editor.key(Key::Tab), Edit::Bell, "nothing shared: a bell");
        assert!(matches!(editor.key(Key::Tab), Edit::List(_)));
        editor.clear();
        typed(&mut editor, "x");
        assert_eq!(editor.key(Key::Tab), Edit::Bell);
        let many: Vec<String> = (0..150).map(|n| format!("a{n}")).collect();
        editor.complete(many);
        editor.clear();
        editor.key(Key::Tab);
        assert_eq!(editor.key(Key::Tab), Edit::List(Listing::TooMany(150)));
    }

    #[test]
    fn a_long_line_scrolls_to_keep_the_cursor_in_sight() {
        let mut editor = Editor::default();
        typed(&mut editor, "attack e5 from d5 d6 advance d5 casualty d6");
        let (text, cursor) = editor.render("Your move: ", 30);
        assert!(text.len() < 30 && text.ends_with("casualty d6"), "{text}");
        assert_eq!(cursor, text.chars().count());
    }

    #[test]
    fn candidates_are_listed_in_columns() {
        let list = columns(&words(&["a4-a5", "b4-b5", "board"]), 16);
        assert_eq!(list, "a4-a5  b4-b5\nboard\n");
    }
}
