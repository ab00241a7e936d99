//! Every `trinchera-server` command line that the README and the book show in a code block
//! is accepted by the real binary (the crate `trinchera-docs` finds them and runs each with
//! `--help`, which parses every argument and runs nothing).

use std::path::Path;

use trinchera_docs::{Shown, refused_by, shown_commands};

const SERVER: &str = env!("CARGO_BIN_EXE_trinchera-server");

#[test]
fn every_trinchera_server_command_in_the_docs_parses() {
    let shown = shown_commands("trinchera-server", "trinchera-server");
    assert!(
        shown.len() > 15,
        "only {} commands found: {shown:?}",
        shown.len()
    );
    let refused = refused_by(Path::new(SERVER), &shown);
    assert!(
        refused.is_empty(),
        "command lines that trinchera-server refuses:\n{}",
        refused.join("\n\n")
    );
}

#[test]
fn the_check_refuses_unknown_commands_and_flags() {
    let shown = |line: &str| Shown {
        page: "test".into(),
        line: 1,
        args: line.split(' ').map(str::to_owned).collect(),
    };
    let lines = [
        "export --data-dir d -o x",
        "export --no-such-flag",
        "no-such-command",
        "--listen",
    ];
    let refused = refused_by(Path::new(SERVER), &lines.map(shown));
    assert_eq!(refused.len(), 3, "{refused:?}");
    assert!(refused[0].contains("--no-such-flag"), "{refused:?}");
}
