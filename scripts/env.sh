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

# Whether the wasm32 standard library can be compiled from source here (-Z build-std): Debian's
# route always can; rustup's needs its rust-src component (scripts/setup.sh adds it).
can_build_std() {
  if have_rustup_wasm_target; then
    rustup component list --installed 2>/dev/null | grep -q '^rust-src'
  else
    have_debian_wasm_route
  fi
}

# The flags the app is compiled with for wasm32 (also .cargo/config.toml's, which an explicit
# value replaces). Where std is compiled from source, panics abort at once without formatting a
# message (-C panic=immediate-abort: the app never panics, and the message code is ~4% of the
# wasm) and carry no source locations. RUSTC_BOOTSTRAP=1 allows these flags on a stable compiler.
wasm_rustflags() {
  local flags='--cfg=web_sys_unstable_apis --cfg=getrandom_backend="wasm_js" --cfg=erase_components'
  if [ "${1:-small}" = small ] && can_build_std; then
    flags="$flags -Zunstable-options -Zlocation-detail=none -Cpanic=immediate-abort"
  fi
  printf '%s' "$flags"
}

# Builds one bundle of the app into DIR: `build_bundle NAME FEATURES DIR` compiles the wasm with
# those cargo features, runs wasm-bindgen (the exact version in Cargo.lock) and wasm-opt -Oz, and
# names the files by their content (app-NAME-HASH.js, app-NAME-HASH_bg.wasm, snippets/).
build_bundle() {
  local name=$1 features=$2 out=$3 std=()
  can_build_std && std=(-Zbuild-std=std,panic_abort)
  say "building the $name bundle (features: $features)"
  compile() {
    (cd "$ROOT" && env $(wasm_env) RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$(wasm_rustflags "$1")" \
      cargo build --quiet --release --locked --target wasm32-unknown-unknown --bin gpu-primer \
      --no-default-features --features "$features" "${std[@]}")
  }
  # A compiler without -C panic=immediate-abort (older than 1.92) builds with unwinding's
  # abort instead: a few percent larger.
  compile small || { say "retrying without -C panic=immediate-abort"; compile plain; } ||
    die "cargo build of the $name bundle failed"
  local tmp
  tmp=$(mktemp -d)
  wasm-bindgen --target web --no-typescript --out-dir "$tmp" --out-name "app-$name" \
    "$ROOT/target/wasm32-unknown-unknown/release/gpu-primer.wasm" || die "wasm-bindgen failed ($name)"
  wasm-opt -Oz --low-memory-unused --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-reference-types --enable-multivalue \
    "$tmp/app-${name}_bg.wasm" -o "$tmp/opt.wasm" || die "wasm-opt failed ($name)"
  local hash
  hash=$(cat "$tmp/opt.wasm" "$tmp/app-$name.js" | sha256sum | cut -c1-16)
  mkdir -p "$out"
  rm -f "$out"/app-"$name"-*
  mv "$tmp/opt.wasm" "$out/app-$name-${hash}_bg.wasm"
  mv "$tmp/app-$name.js" "$out/app-$name-$hash.js"
  if [ -d "$tmp/snippets" ]; then mkdir -p "$out/snippets" && cp -r "$tmp/snippets/." "$out/snippets/"; fi
  rm -rf "$tmp"
}

# Builds the site into dist/ (release, offline: the build never downloads anything): the app's
# three bundles (`course` for the chapters, `estimator` for the estimator's page, `tools` for the
# planner and decision tools; a page loads one), the stylesheet, then `gpu-primer site` writes every page beside them
# (SITE_URL=https://… adds absolute canonical links and sitemap.xml), then each page gets its
# Content-Security-Policy with the hashes of its own inline elements. The bundle with everything,
# for the offline file, goes to target/app-full/.
build_site() {
  rm -rf "$ROOT/dist"
  mkdir -p "$ROOT/dist"
  build_bundle course course "$ROOT/dist"
  build_bundle estimator estimator "$ROOT/dist"
  build_bundle tools tools "$ROOT/dist"
  build_bundle full course,estimator,tools "$ROOT/target/app-full"
  local css_hash
  css_hash=$(sha256sum "$ROOT/assets/style.css" | cut -c1-16)
  cp "$ROOT/assets/style.css" "$ROOT/dist/style-$css_hash.css"
  node "$ROOT/tools/shrink.mjs" "$ROOT/dist" >/dev/null || die "could not shrink the JS and CSS in dist/"
  node "$ROOT/tools/shrink.mjs" "$ROOT/target/app-full" >/dev/null || die "could not shrink the offline bundle's JS"
  say "writing the pages (gpu-primer site dist)"
  (cd "$ROOT" && cargo run --quiet --locked -- site "$ROOT/dist" ${SITE_URL:+--site-url "$SITE_URL"}) ||
    die "gpu-primer site failed"
  node "$ROOT/tools/csp.mjs" "$ROOT/dist" >/dev/null || die "could not write the CSP into the pages"
}

# The offline file: dist/gpu-primer-offline.html (every page, the full bundle, one file).
build_offline() {
  node "$ROOT/tools/single-file.mjs" "$ROOT/dist" "$ROOT/dist/gpu-primer-offline.html" "$ROOT/target/app-full" ||
    die "could not write the offline file"
}
