#!/usr/bin/env bash
# Builds the browser client: trinchera-gui compiled to WebAssembly, into client-gui/web/dist/
# (index.html, the .wasm and its JS glue, each with a gzipped twin), which a server built
# afterwards embeds and `trinchera-server --web` serves (or --web-root DIST serves).
#
#   client-gui/web/build.sh            # then: cargo run --release -p trinchera-server -- --web
#
# Needs what cargo brings: the wasm32-unknown-unknown target (added with rustup if missing)
# and wasm-bindgen-cli at the version of Cargo.lock's wasm-bindgen (installed with cargo
# from crates.io if missing, into target/tools/). Optional: wasm-opt (Debian's binaryen)
# makes the .wasm smaller when it is on the PATH.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
dist="$root/client-gui/web/dist"

say() { printf '== %s\n' "$*" >&2; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    say "rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi

# wasm-bindgen's CLI must match the library exactly.
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
tools="$target_dir/tools"
bindgen="$tools/bin/wasm-bindgen"
if [[ ! -x $bindgen ]] || [[ "$("$bindgen" --version)" != "wasm-bindgen $version" ]]; then
    say "cargo install wasm-bindgen-cli $version (once, into $tools)"
    # Not --locked: its lock file names a webpki-roots the registry may no longer serve.
    cargo install --quiet --root "$tools" wasm-bindgen-cli --version "$version"
fi

say "cargo build --release --target wasm32-unknown-unknown -p trinchera-gui"
cargo build --release --locked --target wasm32-unknown-unknown -p trinchera-gui --bin trinchera-gui

say "wasm-bindgen --target web into $dist"
rm -rf "$dist"
mkdir -p "$dist"
"$bindgen" --target web --no-typescript --out-dir "$dist" --out-name trinchera-gui \
    "$target_dir/wasm32-unknown-unknown/release/trinchera-gui.wasm"
if command -v wasm-opt >/dev/null; then
    say "wasm-opt -O2"
    wasm-opt -O2 --enable-bulk-memory --enable-nontrapping-float-to-int \
        "$dist/trinchera-gui_bg.wasm" -o "$dist/trinchera-gui_bg.wasm"
fi
cp client-gui/web/index.html "$dist/"

say "gzip -9"
for file in "$dist"/*; do
    gzip -9 --keep --force --no-name "$file"
done

total=0
zipped=0
for file in "$dist"/*; do
    [[ $file == *.gz ]] && continue
    size=$(stat -c %s "$file")
    gz=$(stat -c %s "$file.gz")
    total=$((total + size))
    zipped=$((zipped + gz))
    printf '   %-28s %9d bytes, %9d gzipped\n' "$(basename "$file")" "$size" "$gz" >&2
done
awk -v total="$total" -v zipped="$zipped" 'BEGIN {
    printf "   %-28s %9d bytes, %9d gzipped (%.1f MB over the wire)\n", "in all", total, zipped, zipped / 1e6
}' >&2
echo "$dist"
