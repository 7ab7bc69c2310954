# shellcheck shell=bash
# Sourced by the other scripts: puts the project's tools on PATH and tells how to build for wasm.
#
# Two routes to a wasm32 standard library (see ../shared/toolchain.md):
#   1. rustup's wasm32-unknown-unknown target (normal machines with internet);
#   2. Debian's rustc-web with its std sources, compiled with -Z build-std (offline machines).
# `wasm_env` prints the environment for route 2 when route 1 is not available.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

say() { printf '\033[1m[gpu-primer]\033[0m %s\n' "$*" >&2; }
die() { printf '\033[1;31m[gpu-primer] error:\033[0m %s\n' "$*" >&2; exit 1; }

have_rustup_wasm_target() {
  command -v rustup >/dev/null 2>&1 &&
    rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown
}

have_debian_wasm_route() {
  [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ] && command -v wasm-ld >/dev/null 2>&1
}

# Prints KEY=VALUE lines for `env` so that cargo (through trunk) can build for wasm32.
wasm_env() {
  if have_rustup_wasm_target; then
    return 0
  elif have_debian_wasm_route; then
    printf '%s\n' RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 \
      CARGO_UNSTABLE_BUILD_STD=std,panic_abort \
      CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER=wasm-ld
  else
    die "no wasm32 standard library: run scripts/setup.sh"
  fi
}

# The wasm-bindgen version that Cargo.lock pins; the CLI must match it exactly.
locked_wasm_bindgen_version() {
  awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$ROOT/Cargo.lock"
}

# Builds the site into dist/ (release, offline: the build never downloads anything), then writes
# its Content-Security-Policy into dist/index.html with the hash of trunk's inline loader script.
build_site() {
  say "building the site (trunk build --release --offline)"
  (cd "$ROOT" && env $(wasm_env) trunk build --release --offline) || die "trunk build failed"
  node "$ROOT/tools/shrink.mjs" "$ROOT/dist" >/dev/null || die "could not shrink the JS and CSS in dist/"
  node "$ROOT/tools/csp.mjs" "$ROOT/dist/index.html" >/dev/null || die "could not write the CSP into dist/index.html"
}
