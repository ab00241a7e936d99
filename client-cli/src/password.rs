//! Passwords: asked on the terminal without echo (rpassword), or read from standard input
//! for scripts (`--password-stdin`); never taken as an argument, never printed.

use std::io::{BufRead, IsTerminal};

use crate::cli::PasswordArgs;
use crate::error::CliError;

/// A password as typed, kept out of `Debug` output.
pub struct Password(String);

impl Password {
    /// The password itself, for the request that carries it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Password {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Password(…)")
    }
}

/// Whether a new password is asked a second time to catch a typo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// Once: signing in.
    Once,
    /// Twice, both the same: choosing a password.
    Twice,
}

/// The password for the account `name`: the first line of standard input with
/// `--password-stdin`, else asked on the terminal without echo (twice when `confirm` says).
pub fn password(args: &PasswordArgs, name: &str, confirm: Confirm) -> Result<Password, CliError> {
    if args.password_stdin {
        return from_stdin();
    }
    if !std::io::stdin().is_terminal() {
        return Err(CliError::Usage(
            "there is no terminal to ask for the password on (standard input is not one): \
             give it on standard input with --password-stdin"
                .into(),
        ));
    }
    let prompt = match confirm {
        Confirm::Once => format!("Password for {name}: "),
        Confirm::Twice => format!("Choose a password for {name} (8 characters or more): "),
    };
    let first = ask(&prompt)?;
    if confirm == Confirm::Twice && ask("The same password again: ")? != first {
        return Err(CliError::Usage(
            "the two passwords differ; nothing was done".into(),
        ));
    }
    Ok(Password(first))
}

/// Asks on the terminal, echo off.
fn ask(prompt: &str) -> Result<String, CliError> {
    rpassword::prompt_password(prompt)
        .map_err(|e| CliError::file("cannot read the password from", "the terminal", e))
}

/// The first line of standard input, without its line ending.
fn from_stdin() -> Result<Password, CliError> {
    let mut line = String::new();
    std::io::stdin()
        .lock()
        .read_line(&mut line)
        .map_err(|e| CliError::file("cannot read", "standard input", e))?;
    let password = line.strip_suffix('\n').unwrap_or(&line);
    let password = password.strip_suffix('\r').unwrap_or(password);
    if password.is_empty() {
        return Err(CliError::Usage(
            "--password-stdin: standard input gave no password".into(),
        ));
    }
    Ok(Password(password.to_owned()))
}
