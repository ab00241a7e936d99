//! The book and the README, checked against the repository: links, chapters, the API
//! reference, the architecture's table of crates, and the `cargo` and script commands they
//! show. (The `trinchera`,
//! `trinchera-server` and `trinchera-gui` command lines are checked by the tests of the
//! CLI, the service and the GUI, which run those programs.)

use std::path::Path;

use trinchera_docs::{
    CargoArgs, api_reference, broken_links, commands, orphan_chapters, packages, repository,
};

/// Where the generated reference lives.
const API_REFERENCE: &str = "docs/clients/api-reference.md";

#[test]
fn every_link_points_to_a_file_and_a_heading() {
    let broken = broken_links(&repository());
    let list: Vec<String> = broken.iter().map(ToString::to_string).collect();
    assert!(list.is_empty(), "broken links:\n{}", list.join("\n"));
}

#[test]
fn every_chapter_is_in_the_summary() {
    let orphans = orphan_chapters(&repository());
    assert!(
        orphans.is_empty(),
        "pages of docs/ that docs/SUMMARY.md does not list (mdBook would not render them): {orphans:?}"
    );
}

#[test]
fn the_api_reference_is_generated_from_proto() {
    let generated =
        api_reference(trinchera_proto::FILE_DESCRIPTOR_SET).expect("the descriptor set decodes");
    let path = repository().join(API_REFERENCE);
    if std::env::var_os("UPDATE_DOCS").is_some() {
        std::fs::write(&path, &generated).expect("the reference is written");
    }
    let written = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        written == generated,
        "{API_REFERENCE} is not what proto/ says: run `UPDATE_DOCS=1 cargo test -p trinchera-docs` and review the diff"
    );
}

#[test]
fn the_readme_keeps_its_two_setup_commands_and_ci_runs_the_tests() {
    let root = repository();
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    for command in [
        "cargo run --release -p trinchera-server",
        "cargo test --workspace --locked",
    ] {
        assert!(
            readme.contains(&format!("```sh\n{command}\n```")),
            "README.md should show `{command}` in a code block of its own"
        );
    }
    let ci = std::fs::read_to_string(root.join(".ci/run")).expect(".ci/run");
    assert!(
        ci.lines()
            .any(|line| line.trim() == "cargo test --workspace --locked")
    );
}

#[test]
fn cargo_commands_name_real_packages_and_targets_and_scripts_exist() {
    let root = repository();
    let packages = packages(&root);
    assert!(
        packages.iter().any(|p| p.name == "trinchera-docs"),
        "{packages:?}"
    );
    let mut problems = Vec::new();
    let mut checked = 0;
    for (page, line, words) in commands(&root) {
        let mut problem =
            |what: String| problems.push(format!("{}:{line}: {what}", page.display()));
        let program = words[0].as_str();
        // `.ci/postgres COMMAND`, `.ci/nats COMMAND`: COMMAND is a command too.
        let words: &[String] = match program {
            ".ci/postgres" | ".ci/nats" => {
                let inner = words
                    .iter()
                    .position(|w| !w.starts_with(".ci/"))
                    .unwrap_or(words.len());
                for script in &words[..inner] {
                    if !root.join(script).is_file() {
                        problem(format!("no script {script}"));
                    }
                }
                &words[inner..]
            }
            _ => &words,
        };
        let Some(program) = words.first().map(String::as_str) else {
            continue;
        };
        if program == "cargo" {
            checked += 1;
            let split = words.iter().position(|w| w == "--").unwrap_or(words.len());
            let cargo = CargoArgs::of(&words[..split]);
            if let Some(path) = &cargo.path
                && !root.join(path).join("Cargo.toml").is_file()
            {
                problem(format!("no crate at --path {path}"));
            }
            let Some(name) = &cargo.package else {
                continue;
            };
            let Some(package) = packages.iter().find(|p| &p.name == name) else {
                problem(format!("no package {name} in the workspace"));
                continue;
            };
            let wanted = cargo.bin.iter().map(|bin| ("bin".to_owned(), bin.clone()));
            for (kind, target) in wanted.chain(cargo.targets.iter().cloned()) {
                if !package.targets.contains(&(kind.clone(), target.clone())) {
                    problem(format!(
                        "no {kind} target {target} in {name} ({})",
                        package.dir.display()
                    ));
                }
            }
        } else if !program.starts_with("target/")
            && !program.starts_with('/')
            && program.contains('/')
        {
            checked += 1;
            // From the repository's root, or from the page's directory (`./generate.sh`).
            let here = root
                .join(page.parent().unwrap_or(Path::new("")))
                .join(program);
            if !root.join(program).is_file() && !here.is_file() {
                problem(format!("no script {program}"));
            }
        }
    }
    assert!(
        checked > 20,
        "only {checked} commands found: is the book there?"
    );
    assert!(
        problems.is_empty(),
        "commands that name what does not exist:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_architecture_lists_every_crate_where_it_is() {
    let root = repository();
    let chapter = std::fs::read_to_string(root.join("docs/architecture.md")).expect("chapter");
    let packages = packages(&root);
    assert!(packages.len() > 10, "{packages:?}");
    let missing: Vec<String> = packages
        .iter()
        .map(|p| format!("| `{}` | `{}/` |", p.name, p.dir.display()))
        .filter(|row| !chapter.lines().any(|line| line.starts_with(row.as_str())))
        .collect();
    assert!(
        missing.is_empty(),
        "crates the table of docs/architecture.md does not list at their path:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_book_has_its_parts() {
    let root = repository();
    for file in [
        "docs/book.toml",
        "docs/SUMMARY.md",
        "docs/README.md",
        API_REFERENCE,
    ] {
        assert!(Path::new(&root).join(file).is_file(), "{file}");
    }
}
