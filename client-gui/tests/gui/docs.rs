//! Every `trinchera-gui` command line that the README and the book show in a code block is
//! accepted by the real binary (the crate `trinchera-docs` finds them and runs each with
//! `--help`, which parses every argument and opens no window).

use std::path::Path;

use trinchera_docs::{refused_by, shown_commands};

#[test]
fn every_trinchera_gui_command_in_the_docs_parses() {
    let shown = shown_commands("trinchera-gui", "trinchera-gui");
    assert!(
        shown.len() > 5,
        "only {} commands found: {shown:?}",
        shown.len()
    );
    let refused = refused_by(Path::new(env!("CARGO_BIN_EXE_trinchera-gui")), &shown);
    assert!(
        refused.is_empty(),
        "command lines that trinchera-gui refuses:\n{}",
        refused.join("\n\n")
    );
}
