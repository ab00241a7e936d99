//! No module of any crate of the workspace uses a sibling that uses it back: the layering
//! of each crate stays visible in its module graph ([`trinchera_docs::modules`]).

use trinchera_docs::modules::Graph;
use trinchera_docs::repository;

/// The directories of the workspace's crates, from the root `Cargo.toml`.
fn members() -> Vec<String> {
    let manifest = std::fs::read_to_string(repository().join("Cargo.toml")).expect("Cargo.toml");
    let manifest: toml::Table = manifest.parse().expect("a TOML manifest");
    manifest["workspace"]["members"]
        .as_array()
        .expect("workspace members")
        .iter()
        .filter_map(|member| member.as_str().map(str::to_owned))
        .collect()
}

#[test]
fn no_module_uses_one_that_uses_it_back() {
    let members = members();
    assert!(members.len() > 8, "{members:?}");
    let mut cycles = Vec::new();
    for member in &members {
        let src = repository().join(member).join("src");
        for cycle in Graph::of_crate(&src).cycles() {
            let names: Vec<String> = cycle.iter().map(|module| module.join("::")).collect();
            cycles.push(format!("{member}: {}", names.join(" -> ")));
        }
    }
    assert!(
        cycles.is_empty(),
        "modules that use each other in a loop (let one depend on the other only):\n{}",
        cycles.join("\n")
    );
}
