//! The checks that keep the book (`docs/`, an mdBook), the README and the code's layering
//! honest, run by `cargo test --workspace`:
//!
//! - every relative link of every page points to a file of the repository, and its
//!   `#anchor` to a heading; the book's pages link only inside the book, and every chapter
//!   is in `docs/SUMMARY.md` (this crate's tests);
//! - the API reference is generated from `proto/` ([`api_reference`]; a test fails when the
//!   chapter is stale);
//! - every `cargo` command shown names a real package and target (this crate's tests), and
//!   every `trinchera`, `trinchera-server` and `trinchera-gui` command line shown parses
//!   ([`shown_commands`], checked against the real programs by the tests of the CLI, the
//!   service and the GUI, which can run their own binaries);
//! - no module of any crate uses a sibling that uses it back ([`modules`]; this crate's
//!   tests).

pub mod api_reference;
pub mod markdown;
pub mod modules;
pub mod shell;

use std::path::{Path, PathBuf};

pub use api_reference::api_reference;

/// The repository's root.
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The directories no page is looked for in: build output, dependencies, this crate.
const NOT_PAGES: [&str; 6] = [
    "target",
    "node_modules",
    "dist",
    ".git",
    "docs/book",
    "docs/checks",
];

/// Every Markdown page of the repository under `root` (the README, the book's chapters,
/// the READMEs of `deploy/` and `examples/`), as paths relative to `root`, sorted.
pub fn pages(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![PathBuf::new()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(root.join(&dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = dir.join(entry.file_name());
            let name = entry.file_name().to_string_lossy().into_owned();
            let skipped = name.starts_with('.')
                || NOT_PAGES
                    .iter()
                    .any(|not| Path::new(not) == path || Path::new(not) == Path::new(&name));
            if skipped {
                continue;
            }
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                dirs.push(path);
            } else if name.ends_with(".md") {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A command line that a page shows in a code block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shown {
    /// The page, relative to the repository.
    pub page: PathBuf,
    /// Its line in the page.
    pub line: usize,
    /// The program's arguments (without the program).
    pub args: Vec<String>,
}

impl std::fmt::Display for Shown {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {}",
            self.page.display(),
            self.line,
            self.args.join(" ")
        )
    }
}

/// The command lines of `shown` that the program at `binary` refuses, each with the
/// program's complaint. Each is run as `binary ARGS --help`: a clap program parses every
/// argument (an unknown subcommand or flag, or a value it cannot read, fails there), then
/// prints its help and exits instead of doing anything. For programs without an argument
/// that takes everything after it (where `--help` would be a value).
pub fn refused_by(binary: &Path, shown: &[Shown]) -> Vec<String> {
    shown
        .iter()
        .filter_map(|command| {
            let output = std::process::Command::new(binary)
                .args(&command.args)
                .arg("--help")
                .stdin(std::process::Stdio::null())
                .output();
            match output {
                Ok(output) if output.status.success() => None,
                Ok(output) => Some(format!(
                    "{command}
{}",
                    String::from_utf8_lossy(&output.stderr).trim_end()
                )),
                Err(error) => Some(format!(
                    "{command}
cannot run {}: {error}",
                    binary.display()
                )),
            }
        })
        .collect()
}

/// Whether a code block holds shell commands (`sh`, `bash`, `shell` or no info string).
fn is_shell(info: &str) -> bool {
    matches!(
        info.split([' ', ',']).next().unwrap_or_default(),
        "" | "sh" | "bash" | "shell"
    )
}

/// Every command of every shell code block of the pages under `root`, with where it is.
pub fn commands(root: &Path) -> Vec<(PathBuf, usize, Vec<String>)> {
    let mut found = Vec::new();
    for page in pages(root) {
        let Ok(text) = std::fs::read_to_string(root.join(&page)) else {
            continue;
        };
        for block in markdown::code_blocks(&text) {
            if !is_shell(&block.info) {
                continue;
            }
            for (index, line) in shell::logical_lines(&block.text) {
                for words in shell::commands(&line) {
                    found.push((page.clone(), block.line + index, words));
                }
            }
        }
    }
    found
}

/// Every command line of `program` (a binary of the cargo package `package`) that the
/// pages show: run directly (`trinchera …`, `target/release/trinchera …`) or through
/// `cargo run -p PACKAGE [--bin PROGRAM] -- …`.
pub fn shown_commands(program: &str, package: &str) -> Vec<Shown> {
    let root = repository();
    commands(&root)
        .into_iter()
        .filter_map(|(page, line, words)| {
            let args = program_args(&words, program, package)?;
            Some(Shown { page, line, args })
        })
        .collect()
}

/// The arguments `words` give `program`, if they run it.
fn program_args(words: &[String], program: &str, package: &str) -> Option<Vec<String>> {
    let first = words.first()?;
    if first == program || first.ends_with(&format!("/{program}")) {
        return Some(words[1..].to_vec());
    }
    if first != "cargo" || words.get(1).map(String::as_str) != Some("run") {
        return None;
    }
    let split = words
        .iter()
        .position(|word| word == "--")
        .unwrap_or(words.len());
    let cargo = CargoArgs::of(&words[..split]);
    let runs = cargo.package.as_deref() == Some(package)
        && cargo.bin.as_deref().is_none_or(|bin| bin == program);
    runs.then(|| words.get(split + 1..).unwrap_or_default().to_vec())
}

/// What a `cargo` command line names.
#[derive(Debug, Default)]
pub struct CargoArgs {
    /// `-p` / `--package`.
    pub package: Option<String>,
    /// `--bin`.
    pub bin: Option<String>,
    /// Other targets: (`test`, `bench` or `example`, name).
    pub targets: Vec<(String, String)>,
    /// `--path`.
    pub path: Option<String>,
}

impl CargoArgs {
    /// The options of `words` (a `cargo` command up to any `--`).
    pub fn of(words: &[String]) -> CargoArgs {
        let mut args = CargoArgs::default();
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let (flag, inline) = match word.split_once('=') {
                Some((flag, value)) => (flag, Some(value.to_owned())),
                None => (word.as_str(), None),
            };
            let mut value = || inline.clone().or_else(|| words.next().cloned());
            match flag {
                "-p" | "--package" => args.package = value(),
                "--bin" => args.bin = value(),
                "--test" | "--bench" | "--example" => {
                    if let Some(name) = value() {
                        args.targets
                            .push((flag.trim_start_matches('-').to_owned(), name));
                    }
                }
                "--path" => args.path = value(),
                _ if flag.starts_with("-p") && flag.len() > 2 => {
                    args.package = Some(flag[2..].to_owned());
                }
                _ => {}
            }
        }
        args
    }
}

/// A package of the workspace: its name and the names of its targets by kind.
#[derive(Debug)]
pub struct Package {
    /// `package.name`.
    pub name: String,
    /// The package's directory, relative to the repository.
    pub dir: PathBuf,
    /// (`bin`, `test`, `bench` or `example`, name) of every target.
    pub targets: Vec<(String, String)>,
}

/// The workspace's packages (`workspace.members` of the root `Cargo.toml`), with their
/// targets: those declared, and those cargo finds by itself (`src/main.rs`, `src/bin/`,
/// `tests/`, `benches/`, `examples/`).
pub fn packages(root: &Path) -> Vec<Package> {
    let read =
        |path: &Path| -> Option<toml::Table> { std::fs::read_to_string(path).ok()?.parse().ok() };
    let Some(workspace) = read(&root.join("Cargo.toml")) else {
        return Vec::new();
    };
    let members = workspace
        .get("workspace")
        .and_then(|w| w.get("members"))
        .and_then(toml::Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut packages = Vec::new();
    for member in members.iter().filter_map(toml::Value::as_str) {
        let dir = PathBuf::from(member);
        let Some(manifest) = read(&root.join(&dir).join("Cargo.toml")) else {
            continue;
        };
        let Some(name) = manifest
            .get("package")
            .and_then(|p| p.get("name"))
            .and_then(toml::Value::as_str)
        else {
            continue;
        };
        let mut targets = Vec::new();
        for kind in ["bin", "test", "bench", "example"] {
            let declared = manifest.get(kind).and_then(toml::Value::as_array);
            for target in declared.into_iter().flatten() {
                if let Some(target) = target.get("name").and_then(toml::Value::as_str) {
                    targets.push((kind.to_owned(), target.to_owned()));
                }
            }
            let folder = match kind {
                "bin" => "src/bin",
                "test" => "tests",
                "bench" => "benches",
                _ => "examples",
            };
            let entries = std::fs::read_dir(root.join(&dir).join(folder));
            for entry in entries.into_iter().flatten().flatten() {
                let file = entry.file_name().to_string_lossy().into_owned();
                let path = entry.path();
                let target = match file.strip_suffix(".rs") {
                    Some(stem) => stem.to_owned(),
                    None if path.join("main.rs").exists() => file,
                    None => continue,
                };
                targets.push((kind.to_owned(), target));
            }
        }
        if root.join(&dir).join("src/main.rs").exists() {
            targets.push(("bin".to_owned(), name.to_owned()));
        }
        packages.push(Package {
            name: name.to_owned(),
            dir,
            targets,
        });
    }
    packages
}

/// A link that points nowhere, or where the book cannot follow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BrokenLink {
    /// The page, relative to the repository.
    pub page: PathBuf,
    /// The link's line.
    pub line: usize,
    /// The link as written.
    pub target: String,
    /// What is wrong.
    pub problem: String,
}

impl std::fmt::Display for BrokenLink {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (page, line, target, problem) =
            (self.page.display(), self.line, &self.target, &self.problem);
        write!(f, "{page}:{line}: ({target}) {problem}")
    }
}

/// The book's source directory and its table of contents.
const BOOK: &str = "docs";
const SUMMARY: &str = "docs/SUMMARY.md";

/// Every broken relative link of the pages under `root`: a file that does not exist, an
/// `#anchor` that is no heading of the page it names, an absolute path, a link into the
/// book's build output (`docs/book/`), and, from a page of the book, a link that leaves
/// the book or names a page that is not a chapter (mdBook renders neither). Links with a
/// scheme (`https:`, `mailto:`) are not followed.
pub fn broken_links(root: &Path) -> Vec<BrokenLink> {
    let summary = std::fs::read_to_string(root.join(SUMMARY)).unwrap_or_default();
    let chapters = chapters(&summary);
    let mut broken = Vec::new();
    for page in pages(root) {
        let Ok(text) = std::fs::read_to_string(root.join(&page)) else {
            continue;
        };
        let in_book = page.starts_with(BOOK);
        for link in markdown::links(&text) {
            let target = link.target.clone();
            let mut fail = |problem: String| {
                broken.push(BrokenLink {
                    page: page.clone(),
                    line: link.line,
                    target: target.clone(),
                    problem,
                });
            };
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            if target.starts_with('/') {
                fail("an absolute path: link relative to the page".into());
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let file = if path.is_empty() {
                page.clone()
            } else {
                match normalize(&page.parent().unwrap_or(Path::new("")).join(path)) {
                    Some(file) => file,
                    None => {
                        fail("leaves the repository".into());
                        continue;
                    }
                }
            };
            if !root.join(&file).exists() {
                fail(format!("{} does not exist", file.display()));
                continue;
            }
            if file.starts_with(Path::new(BOOK).join("book")) {
                fail("points into the book's build output: link the chapter's .md".into());
                continue;
            }
            if in_book && !file.starts_with(BOOK) {
                fail("leaves the book (docs/): the rendered book does not have it".into());
                continue;
            }
            let is_page = file.extension().is_some_and(|e| e == "md");
            if in_book && is_page && !chapters.contains(&file) && file != Path::new(SUMMARY) {
                fail(format!("{} is not a chapter of {SUMMARY}", file.display()));
                continue;
            }
            if !anchor.is_empty() && is_page {
                let target_text = std::fs::read_to_string(root.join(&file)).unwrap_or_default();
                if !markdown::heading_ids(&target_text)
                    .iter()
                    .any(|id| id == anchor)
                {
                    fail(format!("{} has no heading #{anchor}", file.display()));
                }
            }
        }
    }
    broken
}

/// The pages of the book (under `docs/`) that `docs/SUMMARY.md` does not list.
pub fn orphan_chapters(root: &Path) -> Vec<PathBuf> {
    let summary = std::fs::read_to_string(root.join(SUMMARY)).unwrap_or_default();
    let chapters = chapters(&summary);
    pages(root)
        .into_iter()
        .filter(|page| page.starts_with(BOOK) && page != Path::new(SUMMARY))
        .filter(|page| !chapters.contains(page))
        .collect()
}

/// The chapters `summary` (the text of `docs/SUMMARY.md`) lists, relative to the
/// repository.
fn chapters(summary: &str) -> Vec<PathBuf> {
    markdown::links(summary)
        .into_iter()
        .filter_map(|link| normalize(&Path::new(BOOK).join(link.target)))
        .collect()
}

/// `path` without `.` and `..` components, or `None` when it climbs above its start.
fn normalize(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(line: &str) -> Vec<String> {
        line.split(' ').map(str::to_owned).collect()
    }

    #[test]
    fn cargo_run_names_the_program_it_runs() {
        let args = |line: &str| program_args(&words(line), "trinchera-server", "trinchera-server");
        assert_eq!(
            args("cargo run --release -p trinchera-server -- --web"),
            Some(vec!["--web".to_owned()])
        );
        assert_eq!(
            args("cargo run -p trinchera-server --bin trinchera-server"),
            Some(vec![])
        );
        assert_eq!(
            args("cargo run -p trinchera-server --bin other -- --web"),
            None
        );
        assert_eq!(args("cargo run -p trinchera-gui -- --web"), None);
        assert_eq!(
            args("target/release/trinchera-server --data-dir /tmp/x"),
            Some(words("--data-dir /tmp/x"))
        );
        assert_eq!(args("trinchera --server x"), None);
    }

    #[test]
    fn a_broken_link_is_found() {
        let root = std::env::temp_dir().join(format!("trinchera-docs-{}", std::process::id()));
        let write = |path: &str, text: &str| {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().expect("a parent")).expect("a directory");
            std::fs::write(path, text).expect("written");
        };
        write(
            "README.md",
            "[ok](docs/a.md#two) [gone](docs/gone.md) [bad](docs/a.md#three)\n",
        );
        write("docs/SUMMARY.md", "- [A](a.md)\n");
        write(
            "docs/a.md",
            "# One\n## Two\n[out](../README.md) [ok](#one) [web](https://x.y/)\n",
        );
        write("docs/b.md", "# Not a chapter\n");
        write("docs/book/a.html", "");
        write(
            "deploy/README.md",
            "[built](../docs/book/a.html) [ok](../docs/a.md)\n",
        );
        let found: Vec<_> = broken_links(&root)
            .into_iter()
            .map(|b| (b.page.display().to_string(), b.target))
            .collect();
        let orphans = orphan_chapters(&root);
        std::fs::remove_dir_all(&root).expect("removed");
        assert_eq!(
            found,
            [
                ("README.md".to_owned(), "docs/gone.md".to_owned()),
                ("README.md".to_owned(), "docs/a.md#three".to_owned()),
                (
                    "deploy/README.md".to_owned(),
                    "../docs/book/a.html".to_owned()
                ),
                ("docs/a.md".to_owned(), "../README.md".to_owned()),
            ]
        );
        assert_eq!(orphans, [PathBuf::from("docs/b.md")]);
    }
}
