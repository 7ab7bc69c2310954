#!/usr/bin/env bash
# Builds the site and serves it on http://127.0.0.1:${PORT:-8080}/ (installing what is missing).
# Also writes dist/gpu-primer-offline.html, the whole site in one file that opens from file://.
set -euo pipefail
. "$(dirname "$0")/env.sh"
cd "$ROOT"

"$ROOT/scripts/setup.sh"
build_site
build_offline

PORT="${PORT:-8080}"
say "serving dist/ on http://127.0.0.1:$PORT/  (Ctrl-C to stop)"
say "offline copy: dist/gpu-primer-offline.html"
exec python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$ROOT/dist"
