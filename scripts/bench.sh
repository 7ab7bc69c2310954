#!/usr/bin/env bash
# Prints the benchmarks reported in the README: engine evaluation time (native), bundle size and
# time to first render in headless Chromium. Builds what it needs first.
set -euo pipefail
. "$(dirname "$0")/env.sh"
cd "$ROOT"
"$ROOT/scripts/setup.sh" 2>/dev/null
if cargo run --quiet --release -- --help 2>/dev/null | grep -q '^  bench'; then
  say "engine: gpu-primer bench (native, release)"
  cargo run --quiet --release -- bench
fi
build_site 2>/dev/null
build_offline >/dev/null
say "site: bundle size and first render"
node "$ROOT/tools/bench.mjs" "$ROOT/dist"
