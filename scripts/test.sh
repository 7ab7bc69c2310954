#!/usr/bin/env bash
# Runs the gates (scripts/check.sh: fmt, clippy), then every test: native (engine, catalog,
# content, CLI) and real-browser (the built site in headless Chromium). Installs what is missing first (scripts/setup.sh is idempotent).
set -euo pipefail
. "$(dirname "$0")/env.sh"
cd "$ROOT"

"$ROOT/scripts/setup.sh"

# Gates first: fmt --check, clippy -D warnings for native and wasm32.
"$ROOT/scripts/check.sh"

say "native tests: cargo test"
cargo test --locked

build_site
say "offline single-file build"
build_offline

# Two test files at a time: each has its own server and Chromium, and a page spends much of its
# time waiting (a frame, a fetch, a timeout) rather than computing, so two share two cores well.
say "browser tests: node --test tests/e2e/ (headless Chromium, two files at a time)"
# A test that runs past 15 minutes fails rather than holding the run to CI's limit (the longest,
# a walk of every page, takes about 3 minutes under CI load).
node --test --test-concurrency=2 --test-timeout=900000 tests/e2e/
