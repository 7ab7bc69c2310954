#!/usr/bin/env bash
# Trunk's post_build hook (Trunk.toml): writes every prerendered page of the site beside the app
# Trunk has just staged, so `trunk serve` and a plain `trunk build` give the whole site, each page
# loading the one bundle Trunk built (every feature).
#
# scripts/env.sh build_site builds several bundles, one Trunk run each, and writes the pages
# once after all of them: it sets GPU_PRIMER_BUNDLE, and this hook then does nothing.
set -euo pipefail
[ -n "${GPU_PRIMER_BUNDLE:-}" ] && exit 0
: "${TRUNK_STAGING_DIR:?is unset: scripts/pages.sh is the post_build hook of trunk serve and trunk build}"
cd "$(dirname "$0")/.."

# The pages are written by the native command line. Trunk may run with the environment that
# builds std for wasm32 from source (scripts/dev.sh); that is not for a native build.
env -u RUSTC -u RUSTC_BOOTSTRAP -u CARGO_UNSTABLE_BUILD_STD -u CARGO_BUILD_TARGET \
  cargo run --quiet --locked -- site "$TRUNK_STAGING_DIR" --trunk-reload
