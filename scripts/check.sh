#!/usr/bin/env bash
# The gates, run first by scripts/test.sh (and so by CI): formatting, then clippy with every
# warning an error, for the native target (engine, catalog, CLI, tests) and for wasm32 (the UI,
# which only exists there). Prints how long each gate took.
#
#   scripts/check.sh          all gates
#   scripts/check.sh native   fmt + native clippy only (no wasm toolchain needed)
set -euo pipefail
. "$(dirname "$0")/env.sh"
cd "$ROOT"

timed() {
  local name=$1 start=$SECONDS
  shift
  say "gate: $name"
  "$@" || die "gate failed: $name"
  say "gate: $name passed in $((SECONDS - start)) s"
}

# clippy for wasm32. With rustup's target, rustup's clippy. On the Debian route (rustc-web and
# build-std) the linter must be the same compiler as /usr/bin/rustc: Debian's rust-web-clippy.
# The environment is build_site's (wasm_env).
wasm_clippy() {
  local clippy=(cargo clippy)
  if ! have_rustup_wasm_target; then
    [ -x /usr/bin/cargo-clippy ] || die "no clippy for Debian's rustc-web: run scripts/setup.sh (rust-web-clippy)"
    clippy=(/usr/bin/cargo-clippy clippy)
  fi
  env $(wasm_env) "${clippy[@]}" --all-targets --locked --target wasm32-unknown-unknown -- -D warnings
}

all_start=$SECONDS
timed "cargo fmt --check" cargo fmt --check
timed "cargo clippy native (-D warnings)" cargo clippy --all-targets --locked -- -D warnings
if [ "${1:-all}" != native ]; then
  timed "cargo clippy wasm32 (-D warnings)" wasm_clippy
fi
say "gates passed in $((SECONDS - all_start)) s"
