//! Every `trinchera` command line that the README and the book show in a code block parses:
//! the program's own argument definitions (`src/cli.rs`, included here) read each one as
//! the program would, without running it. (The crate `trinchera-docs` finds them.)

#[allow(dead_code)]
#[path = "../../src/cli.rs"]
mod cli;

use clap::Parser as _;
use clap::error::ErrorKind;

/// `trinchera ARGS`, parsed: `Ok` when clap accepts it (help and version included).
fn parse(args: &[String]) -> Result<(), clap::Error> {
    let words = std::iter::once("trinchera".to_owned()).chain(args.iter().cloned());
    match cli::Cli::try_parse_from(words) {
        Ok(_) => Ok(()),
        Err(error)
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion
            ) =>
        {
            Ok(())
        }
        Err(error) => Err(error),
    }
}

#[test]
fn every_trinchera_command_in_the_docs_parses() {
    let shown = trinchera_docs::shown_commands("trinchera", "trinchera-cli");
    assert!(
        shown.len() > 20,
        "only {} trinchera commands found: {shown:?}",
        shown.len()
    );
    let failures: Vec<String> = shown
        .iter()
        .filter_map(|command| {
            let error = parse(&command.args).err()?;
            Some(format!("{command}\n{}", error.render()))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "command lines that trinchera refuses:\n{}",
        failures.join("\n")
    );
}

#[test]
fn the_check_refuses_unknown_commands_and_flags() {
    let words = |line: &str| line.split(' ').map(str::to_owned).collect::<Vec<_>>();
    assert!(parse(&words("play frente --bot easy")).is_ok());
    assert!(parse(&words("play frente --no-such-flag")).is_err());
    assert!(parse(&words("no-such-command 7")).is_err());
    assert!(parse(&words("bench --duration soon")).is_err());
}
