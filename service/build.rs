//! Embeds the browser client in the server when it has been built: every file of
//! `client-gui/web/dist/` (made by `client-gui/web/build.sh`) with its `.gz` twin, as
//! `$OUT_DIR/web_bundle.rs`. Without a built bundle the list is empty, and `--web` says
//! how to build one (or serve one with `--web-root`).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let web = Path::new(&manifest).join("../client-gui/web");
    // The directory is watched, so that a bundle built (or rebuilt) later is embedded.
    println!("cargo:rerun-if-changed={}", web.display());
    let dist = web.join("dist");
    let mut names: Vec<String> = std::fs::read_dir(&dist)
        .map(|entries| {
            entries
                .filter_map(|entry| {
                    let entry = entry.ok()?;
                    entry.file_type().ok()?.is_file().then_some(())?;
                    let name = entry.file_name().into_string().ok()?;
                    (!name.ends_with(".gz")).then_some(name)
                })
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    if !names.iter().any(|name| name == "index.html") {
        names.clear();
    }
    let mut code = String::from(
        "/// The browser bundle embedded at build time.\n\
         pub(crate) static EMBEDDED: &[Embedded] = &[\n",
    );
    for name in &names {
        let file = dist.join(name);
        let zipped = dist.join(format!("{name}.gz"));
        println!("cargo:rerun-if-changed={}", file.display());
        // Only a regular file (never a link), as the server reads a --web-root.
        let regular = std::fs::symlink_metadata(&zipped).is_ok_and(|m| m.file_type().is_file());
        let gzip = if regular {
            println!("cargo:rerun-if-changed={}", zipped.display());
            format!("Some(include_bytes!({:?}))", zipped.display().to_string())
        } else {
            "None".to_owned()
        };
        let _ = writeln!(
            code,
            "    ({name:?}, include_bytes!({:?}), {gzip}),",
            file.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out).join("web_bundle.rs"), code).expect("OUT_DIR is writable");
}
