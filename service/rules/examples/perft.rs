//! Counts `perft` of a position, depth by depth: the regression oracle of every ruleset
//! with position text.
//!
//! ```text
//! cargo run --release -p trinchera-rules --example perft -- asalto "3/o1o/RR3RR/RRRRRRR/RRRRRRR/RRR/RRR 0" 4
//! depth 1: 9
//! ...
//! ```

use std::process::ExitCode;

use trinchera_rules::catalog;

const USAGE: &str = "usage: perft <ruleset> \"<position text>\" <depth>";

fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("perft: {message}");
            ExitCode::from(2)
        }
    }
}

fn run(args: Vec<String>) -> Result<(), String> {
    let [id, position, depth] = args.as_slice() else {
        return Err(format!("expected 3 arguments, got {}\n{USAGE}", args.len()));
    };
    let ruleset = catalog::ruleset(id).ok_or_else(|| {
        format!(
            "unknown ruleset {id:?}; known: {}\n{USAGE}",
            catalog::ids().join(", ")
        )
    })?;
    let perft = ruleset
        .perft
        .ok_or_else(|| format!("{id} has no position text, so no perft"))?;
    let depth: u32 = depth
        .parse()
        .map_err(|_| format!("the depth must be a whole number, not {depth:?}\n{USAGE}"))?;
    for d in 1..=depth {
        let count = perft(position, d).map_err(|error| format!("bad position: {error}"))?;
        println!("depth {d}: {count}");
    }
    Ok(())
}
