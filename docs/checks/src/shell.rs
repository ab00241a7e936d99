//! The commands of a shell line as the book shows them: `a | b`, `a && b`, `x=$(a)`,
//! `VAR=1 a`, `a > file`, comments, quotes and `\` continuations. Enough shell to find
//! each program and its words; variables and substitutions become a placeholder value.

/// What a variable or a command substitution stands for: a number, since the book's
/// variables hold game ids, seats and versions.
pub const PLACEHOLDER: &str = "1";

/// A token of a line.
#[derive(Debug, PartialEq)]
enum Token {
    /// A word, quotes removed and substitutions replaced.
    Word(String),
    /// `|`, `||`, `&`, `&&`, `;`, `(` or `)`: the end of a command.
    Control,
    /// `>`, `>>`, `<`, `2>`, ...: the next word is a file, not an argument.
    Redirect,
}

/// The lines of a code block with `\` continuations joined, each with its index (from 0)
/// in the block.
pub fn logical_lines(block: &str) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut current: Option<(usize, String)> = None;
    for (index, line) in block.lines().enumerate() {
        let (start, mut text) = current.take().unwrap_or((index, String::new()));
        match line.strip_suffix('\\') {
            Some(continued) => {
                text.push_str(continued);
                text.push(' ');
                current = Some((start, text));
            }
            None => {
                text.push_str(line);
                lines.push((start, text));
            }
        }
    }
    lines.extend(current);
    lines
}

/// Every simple command of `line`, each as its words (the program first), commands inside
/// `$(…)` included. Leading `NAME=value` assignments and a leading `sudo`, `env`, `time`
/// or `exec` are left out.
pub fn commands(line: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let tokens = tokenize(line, &mut found);
    let mut words: Vec<String> = Vec::new();
    let mut redirected = false;
    for token in tokens.into_iter().chain([Token::Control]) {
        match token {
            Token::Word(word) if redirected => {
                redirected = false;
                drop(word);
            }
            Token::Word(word) => {
                let prefix = words.is_empty()
                    && (is_assignment(&word) || ["sudo", "env", "time", "exec"].contains(&&*word));
                if !prefix {
                    words.push(word);
                }
            }
            Token::Redirect => redirected = true,
            Token::Control => {
                if !words.is_empty() {
                    found.push(std::mem::take(&mut words));
                }
            }
        }
    }
    found
}

/// Whether `word` is `NAME=value`.
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        !name.is_empty()
            && !name.starts_with(|c: char| c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// The tokens of `line`; the commands of its `$(…)` go to `found`.
fn tokenize(line: &str, found: &mut Vec<Vec<String>>) -> Vec<Token> {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens = Vec::new();
    let mut word: Option<String> = None;
    let mut i = 0;
    let end_word = |word: &mut Option<String>, tokens: &mut Vec<Token>| {
        if let Some(word) = word.take() {
            tokens.push(Token::Word(word));
        }
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            ' ' | '\t' => end_word(&mut word, &mut tokens),
            '#' if word.is_none() => break,
            '\\' => {
                word.get_or_insert_default().extend(chars.get(i + 1));
                i += 1;
            }
            '\'' => {
                let close = find(&chars, i + 1, '\'');
                word.get_or_insert_default()
                    .extend(&chars[i + 1..close.min(chars.len())]);
                i = close;
            }
            '"' => {
                let close = find(&chars, i + 1, '"');
                let inner: String = chars[i + 1..close.min(chars.len())].iter().collect();
                word.get_or_insert_default()
                    .push_str(&expand(&inner, found));
                i = close;
            }
            '$' => {
                let (text, next) = substitution(&chars, i, found);
                word.get_or_insert_default().push_str(&text);
                i = next - 1;
            }
            '|' | '&' | ';' | '(' | ')' => {
                end_word(&mut word, &mut tokens);
                if c == '&' && chars.get(i + 1) == Some(&'>') {
                    tokens.push(Token::Redirect);
                    i += 1;
                } else {
                    if chars.get(i + 1) == Some(&c) && (c == '|' || c == '&') {
                        i += 1;
                    }
                    tokens.push(Token::Control);
                }
            }
            '>' | '<' => {
                // A file descriptor written before the operator (`2>`) is not a word.
                if word
                    .as_deref()
                    .is_some_and(|w| w.chars().all(|d| d.is_ascii_digit()))
                {
                    word = None;
                }
                end_word(&mut word, &mut tokens);
                while matches!(chars.get(i + 1), Some('>' | '<')) {
                    i += 1;
                }
                if chars.get(i + 1) == Some(&'&') {
                    // `>&2`: a descriptor, not a file.
                    i += 1;
                    while chars.get(i + 1).is_some_and(char::is_ascii_digit) {
                        i += 1;
                    }
                } else {
                    tokens.push(Token::Redirect);
                }
            }
            _ => word.get_or_insert_default().push(c),
        }
        i += 1;
    }
    end_word(&mut word, &mut tokens);
    tokens
}

/// The index of the first `c` at or after `from`, or the end.
fn find(chars: &[char], from: usize, c: char) -> usize {
    (from..chars.len())
        .find(|&i| chars[i] == c)
        .unwrap_or(chars.len())
}

/// The text inside double quotes with its substitutions replaced.
fn expand(inner: &str, found: &mut Vec<Vec<String>>) -> String {
    let chars: Vec<char> = inner.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '$' {
            let (text, next) = substitution(&chars, i, found);
            out.push_str(&text);
            i = next;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The substitution that starts with the `$` at `at`: its placeholder text and the index
/// after it. The commands of a `$(…)` go to `found`.
fn substitution(chars: &[char], at: usize, found: &mut Vec<Vec<String>>) -> (String, usize) {
    match chars.get(at + 1) {
        Some('(') => {
            let mut depth = 0;
            let mut close = chars.len();
            for (i, &c) in chars.iter().enumerate().skip(at + 1) {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth == 0 {
                            close = i;
                            break;
                        }
                    }
                    _ => {}
                }
            }
            let inner: String = chars[at + 2..close.max(at + 2)].iter().collect();
            found.extend(commands(&inner));
            (PLACEHOLDER.to_owned(), close + 1)
        }
        Some('{') => (PLACEHOLDER.to_owned(), find(chars, at + 2, '}') + 1),
        Some(c) if c.is_ascii_alphanumeric() || *c == '_' => {
            let end = (at + 1..chars.len())
                .find(|&i| !(chars[i].is_ascii_alphanumeric() || chars[i] == '_'))
                .unwrap_or(chars.len());
            (PLACEHOLDER.to_owned(), end)
        }
        _ => ("$".to_owned(), at + 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        commands(line).into_iter().flatten().collect::<Vec<_>>()
    }

    #[test]
    fn pipes_redirections_and_comments_end_a_command() {
        assert_eq!(
            commands("trinchera setup 7 --template > army.txt && $EDITOR army.txt # edit"),
            [
                vec!["trinchera", "setup", "7", "--template"],
                vec!["1", "army.txt"]
            ]
        );
        assert_eq!(
            commands("a 2>&1 | b -x >> log &"),
            [vec!["a"], vec!["b", "-x"]]
        );
    }

    #[test]
    fn substitutions_are_commands_and_placeholders() {
        assert_eq!(
            commands("seat=$(trinchera --json --as 0 show \"$game\" | jq .view.to_move)"),
            [
                vec!["trinchera", "--json", "--as", "0", "show", "1"],
                vec!["jq", ".view.to_move"]
            ]
        );
        assert_eq!(
            words("trinchera move \"$game\" '$move' ${x}y"),
            ["trinchera", "move", "1", "$move", "1y"]
        );
    }

    #[test]
    fn assignments_and_wrappers_are_not_the_program() {
        assert_eq!(
            commands("BOT_GAMES=100 X=1 cargo test --release"),
            [vec!["cargo", "test", "--release"]]
        );
        assert_eq!(
            commands("sudo install -m 0755 a b"),
            [vec!["install", "-m", "0755", "a", "b"]]
        );
    }

    #[test]
    fn continuations_join_lines() {
        let block = "a --one \\\n  --two\nb\n";
        assert_eq!(
            logical_lines(block),
            [(0, "a --one    --two".to_owned()), (2, "b".to_owned())]
        );
    }
}
