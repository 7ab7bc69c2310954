# shellcheck shell=bash
# Sourced by the other scripts: puts the project's tools on PATH and tells how to build for wasm.
#
# Two routes to a wasm32 standard library (see ../shared/toolchain.md):
#   1. rustup's wasm32-unknown-unknown target (normal machines with internet);
#   2. Debian's rustc-web with its std sources, compiled with -Z build-std (offline machines).
# `wasm_env` prints the environment for route 2 when route 1 is not available.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$ROOT/tools/node_modules/.bin:$HOME/.cargo/bin:$PATH"

# Each line carries the time of day, so a CI log tells where its minutes went.
say() { printf '\033[1m[gpu-primer %s]\033[0m %s\n' "$(date +%T)" "$*" >&2; }
die() { printf '\033[1;31m[gpu-primer] error:\033[0m %s\n' "$*" >&2; exit 1; }

have_rustup_wasm_target() {
  command -v rustup >/dev/null 2>&1 &&
    rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown
}

have_debian_wasm_route() {
  [ -x /usr/bin/rustc ] && [ -d /usr/lib/rustlib/src/rust/library ] && command -v wasm-ld >/dev/null 2>&1
}

# Prints KEY=VALUE lines for `env` so that cargo (through Trunk) can build for wasm32.
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

# Builds one bundle of the app with Trunk (index.html, Trunk.toml) into DIR:
# `build_bundle NAME FEATURES DIR` runs `trunk build --release` with those cargo features; Trunk
# compiles the wasm, runs wasm-bindgen (the exact version in Cargo.lock) and wasm-opt -Oz, and
# names the files by their content (gpu-primer-HASH.js, gpu-primer-HASH_bg.wasm, snippets/,
# style-HASH.css). Where std can be compiled from source, it is (-Z build-std, through cargo's
# CARGO_UNSTABLE_BUILD_STD), with panics that abort at once (wasm_rustflags). GPU_PRIMER_BUNDLE
# tells Trunk's post_build hook (scripts/pages.sh) that build_site writes the pages itself.
build_bundle() {
  local name=$1 features=$2 out=$3 std=()
  can_build_std && std=(RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_BUILD_STD=std,panic_abort)
  say "building the $name bundle with trunk (features: $features)"
  run_trunk() {
    (cd "$ROOT" && env $(wasm_env) "${std[@]}" RUSTC_BOOTSTRAP=1 GPU_PRIMER_BUNDLE="$name" \
      TRUNK_SKIP_VERSION_CHECK=true CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$(wasm_rustflags "$1")" \
      trunk build --release --locked --no-default-features --features "$features" --dist "$out" >"$ROOT/target/trunk-$name.log" 2>&1) ||
      { tail -n 40 "$ROOT/target/trunk-$name.log" >&2; return 1; }
  }
  mkdir -p "$ROOT/target"
  # A compiler without -C panic=immediate-abort (older than 1.92) builds with unwinding's
  # abort instead: a few percent larger.
  run_trunk small || { say "retrying without -C panic=immediate-abort"; run_trunk plain; } ||
    die "trunk build of the $name bundle failed (log: target/trunk-$name.log)"
}

# Builds the site into dist/ (release; nothing is downloaded): the app's five bundles
# (`course` for the chapters, `estimator` for the estimator's page, `planner` for the planner's,
# `tools` for the decision tools, `classroom` for the classroom's pages; a page loads one) into dist/app/NAME/, the stylesheet Trunk hashed into dist/,
# then `gpu-primer site dist` writes every page beside them (SITE_URL=https://… adds absolute
# canonical links and sitemap.xml), then each page gets its Content-Security-Policy with the hashes
# of its own inline elements. The bundle with everything, for the offline file, is built into
# target/trunk/full/.
build_site() {
  rm -rf "$ROOT/dist"
  mkdir -p "$ROOT/dist/app"
  local bundle
  for bundle in course estimator planner tools classroom; do
    build_bundle "$bundle" "$bundle" "$ROOT/target/trunk/$bundle"
    mkdir -p "$ROOT/dist/app/$bundle"
    cp -r "$ROOT/target/trunk/$bundle/." "$ROOT/dist/app/$bundle/"
    # The stylesheet is the same in every bundle: the pages link one, at the root. Trunk's
    # index.html (its loader) tells gpu-primer site the bundle's files; it removes it after.
    mv "$ROOT/dist/app/$bundle"/style-*.css "$ROOT/dist/"
    rm -f "$ROOT/dist/app/$bundle/.trunk-lock"
  done
  build_bundle full course,estimator,planner,tools,classroom "$ROOT/target/trunk/full"
  node "$ROOT/tools/shrink.mjs" "$ROOT/dist" >/dev/null || die "could not shrink the JS and CSS in dist/"
  node "$ROOT/tools/shrink.mjs" "$ROOT/target/trunk/full" >/dev/null || die "could not shrink the offline bundle's JS"
  say "writing the pages (gpu-primer site dist)"
  (cd "$ROOT" && cargo run --quiet --locked -- site "$ROOT/dist" ${SITE_URL:+--site-url "$SITE_URL"}) ||
    die "gpu-primer site failed"
  node "$ROOT/tools/csp.mjs" "$ROOT/dist" >/dev/null || die "could not write the CSP into the pages"
}

# The offline file: dist/gpu-primer-offline.html (every page, the full bundle, one file).
build_offline() {
  node "$ROOT/tools/single-file.mjs" "$ROOT/dist" "$ROOT/dist/gpu-primer-offline.html" "$ROOT/target/trunk/full" ||
    die "could not write the offline file"
}
