#!/usr/bin/env bash
# `trunk serve` for development: the whole site on http://127.0.0.1:8080/, the app rebuilt and
# every page rewritten and reloaded when src/, content/, assets/ or index.html change.
# Where rustup has the wasm32 target, plain `trunk serve` does the same; this script also works
# where it cannot be fetched (Debian's rustc-web with std built from source, see scripts/env.sh).
# Arguments go to trunk serve (for example --port 9000 or --release).
set -euo pipefail
. "$(dirname "$0")/env.sh"
cd "$ROOT"
"$ROOT/scripts/setup.sh"
exec env $(wasm_env) TRUNK_SKIP_VERSION_CHECK=true trunk serve "$@"
