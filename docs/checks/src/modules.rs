//! The module graph of each crate of the workspace, read from its sources, and its cycles:
//! no module may use a sibling that uses it back (directly or around a longer loop).
//!
//! A module's references are the paths its code names: `crate::a::…` and `super::…` (and
//! their brace groups, `crate::{a, b::c}`). Each reference from a module to another that is
//! not its own ancestor or descendant becomes an edge between the two siblings under their
//! closest common parent, the level where a cycle would tangle them. Tests are left out
//! (files named `tests.rs` and the `#[cfg(test)]` module at the bottom of a file): tests
//! sit above the code they test.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module, as its path from the crate's root (`["games", "act"]`).
pub type Module = Vec<String>;

/// Every reference between sibling modules of one crate: from each module to those it uses.
#[derive(Debug, Default)]
pub struct Graph {
    edges: BTreeMap<Module, BTreeSet<Module>>,
}

impl Graph {
    /// The graph of the crate whose sources are under `src` (a `lib.rs` or `main.rs` root).
    pub fn of_crate(src: &Path) -> Graph {
        let mut graph = Graph::default();
        for file in rust_files(src) {
            let Some(module) = module_of(src, &file) else {
                continue;
            };
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            for target in references(&module, &without_tests(&text)) {
                graph.add(&module, &target);
            }
        }
        graph
    }

    /// Notes that `from` uses `to`, as an edge between their siblings under the closest
    /// common parent; nothing when one contains the other.
    fn add(&mut self, from: &[String], to: &[String]) {
        let common = from.iter().zip(to).take_while(|(a, b)| a == b).count();
        if common < from.len() && common < to.len() {
            let edge = (from[..=common].to_vec(), to[..=common].to_vec());
            self.edges.entry(edge.0).or_default().insert(edge.1);
        }
    }

    /// Every cycle, each as the modules around it (the first repeated at the end), each
    /// found once.
    pub fn cycles(&self) -> Vec<Vec<Module>> {
        let mut cycles = Vec::new();
        let mut seen_cycles = BTreeSet::new();
        for start in self.edges.keys() {
            let mut path = vec![start.clone()];
            self.walk(start, &mut path, &mut cycles, &mut seen_cycles);
        }
        cycles
    }

    /// Depth-first from the end of `path`, noting every cycle back to `path[0]` whose
    /// modules are all at least `path[0]` (so that each cycle is found from its smallest
    /// module only).
    fn walk(
        &self,
        at: &Module,
        path: &mut Vec<Module>,
        cycles: &mut Vec<Vec<Module>>,
        seen: &mut BTreeSet<Vec<Module>>,
    ) {
        for next in self.edges.get(at).into_iter().flatten() {
            if next == &path[0] {
                let mut cycle = path.clone();
                cycle.push(next.clone());
                if seen.insert(cycle.clone()) {
                    cycles.push(cycle);
                }
            } else if next > &path[0] && !path.contains(next) {
                path.push(next.clone());
                self.walk(next, path, cycles, seen);
                path.pop();
            }
        }
    }
}

/// The module a source file holds, from its path under `src`; `None` for a binary's
/// other roots (`src/bin/…`) and for test files.
fn module_of(src: &Path, file: &Path) -> Option<Module> {
    let relative = file.strip_prefix(src).ok()?.with_extension("");
    let mut parts: Vec<String> = relative
        .components()
        .map(|part| part.as_os_str().to_string_lossy().into_owned())
        .collect();
    if parts.first().is_some_and(|first| first == "bin") || parts.last()? == "tests" {
        return None;
    }
    if matches!(
        parts.last().map(String::as_str),
        Some("lib" | "main" | "mod")
    ) {
        parts.pop();
    }
    Some(parts)
}

/// `text` without its test module: everything from a `#[cfg(test)]` line followed by a
/// `mod` line on.
fn without_tests(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let end = lines
        .windows(2)
        .position(|pair| {
            pair[0].trim() == "#[cfg(test)]" && pair[1].trim_start().starts_with("mod ")
        })
        .unwrap_or(lines.len());
    lines[..end].join("\n")
}

/// The modules that the code of `module` names, absolute: `crate::a::b…` gives `a::b…`,
/// `super::x…` the sibling `x…` of `module`, and brace groups each of their items.
fn references(module: &[String], code: &str) -> Vec<Module> {
    let mut found = Vec::new();
    let code: String = code
        .lines()
        .map(|line| line.split("//").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    for (index, _) in code
        .match_indices("crate::")
        .chain(code.match_indices("super::"))
    {
        if index > 0 && is_ident(code[..index].chars().next_back().unwrap_or(' ')) {
            continue;
        }
        let (mut base, rest) = if code[index..].starts_with("crate::") {
            (Vec::new(), &code[index + "crate::".len()..])
        } else {
            let mut rest = &code[index..];
            let mut ups = 0;
            while let Some(after) = rest.strip_prefix("super::") {
                rest = after;
                ups += 1;
            }
            (module[..module.len().saturating_sub(ups)].to_vec(), rest)
        };
        for path in paths_at(rest) {
            let mut target = base.clone();
            target.extend(path);
            found.push(target);
        }
        base.clear();
    }
    found
}

/// The module paths named at the start of `text` (after `crate::` or `super::`): one
/// path, or each item of a brace group. Only the leading lower-case segments count (a
/// type ends the path to its module; a function's name may end it too, which names no
/// sibling and so no edge of its own).
fn paths_at(text: &str) -> Vec<Module> {
    if let Some(group) = text.strip_prefix('{') {
        let end = group.find('}').unwrap_or(group.len());
        return group[..end]
            .split(',')
            .flat_map(|item| paths_at(item.trim()))
            .collect();
    }
    let mut path = Vec::new();
    let mut rest = text;
    loop {
        let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        if !name.chars().next().is_some_and(|c| c.is_ascii_lowercase()) || name == "self" {
            break;
        }
        path.push(name.clone());
        match rest[name.len()..].strip_prefix("::") {
            Some(after) => rest = after,
            None => break,
        }
    }
    if path.is_empty() {
        Vec::new()
    } else {
        vec![path]
    }
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return files;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|ext| ext == "rs")
            && path.file_name().is_some_and(|name| name != "tests.rs")
        {
            files.push(path);
        }
    }
    files.sort();
    files
}

#[cfg(test)]
mod tests {
    use super::*;

    fn module(path: &str) -> Module {
        path.split("::").map(str::to_owned).collect()
    }

    #[test]
    fn references_name_modules_not_items() {
        let found = references(
            &module("games::act"),
            "use crate::bus::Bus;\nuse super::{cache::Held, Games};\nuse crate::{hub, ids::Token};\n// crate::commented::X",
        );
        let found: Vec<String> = found.iter().map(|m| m.join("::")).collect();
        assert_eq!(found, ["bus", "hub", "ids", "games::cache"]);
    }

    #[test]
    fn a_loop_between_siblings_is_a_cycle_and_a_parent_child_link_is_not() {
        let mut graph = Graph::default();
        graph.add(&module("games::act"), &module("bus"));
        graph.add(&module("bus"), &module("games"));
        graph.add(&module("games"), &module("games::act"));
        graph.add(&module("store::sled"), &module("store::memory"));
        let cycles = graph.cycles();
        assert_eq!(
            cycles,
            [vec![module("bus"), module("games"), module("bus")]]
        );
    }

    #[test]
    fn test_modules_are_left_out() {
        let text = "use crate::a::X;\n#[cfg(test)]\nmod tests {\n    use crate::b::Y;\n}\n";
        let found = references(&module("c"), &without_tests(text));
        assert_eq!(found, [module("a")]);
    }
}
