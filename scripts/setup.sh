#!/usr/bin/env bash
# Installs everything gpu-primer needs on a Debian machine, idempotently: each step checks
# first and does nothing when the tool is already there. Safe to run again at any time.
#
#   Debian packages  chromium, chromium-driver, fonts-noto-cjk, poppler-utils (pdftotext: the
#                    print test reads Chromium's PDF), nodejs, npm, python3, gcc
#   Rust             cargo/rustc (rustup if present, else Debian's)
#   wasm32 std       rustup target and rust-src (45 s timeouts), else Debian's rustc-web +
#                    rust-web-src + lld (+ rust-web-clippy for the wasm32 lint gate)
#   wasm-bindgen     cargo install wasm-bindgen-cli, the exact version pinned in Cargo.lock
#   trunk            cargo install trunk 0.22.1 (with the nightly toolchain where the stable one
#                    is older than its rust-version), else 0.21.14; 10-20 minutes once
#   node tools       npm ci in tools/: binaryen (wasm-opt 132), playwright-core, axe-core, and the
#                    QTI test's player, converter and validator (@citolab/*, saxon-js, xmllint-wasm)
set -euo pipefail
. "$(dirname "$0")/env.sh"

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

apt_updated=0
apt_install() {
  local missing=()
  for p in "$@"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ $apt_updated -eq 0 ]; then
    say "apt-get update"
    $SUDO apt-get update -qq || die "apt-get update failed"
    apt_updated=1
  fi
  say "installing Debian packages: ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null ||
    die "apt-get install ${missing[*]} failed"
}

# 1. System packages: the browser for tests, CJK fonts for screenshots, node for tools.
apt_install ca-certificates gcc libc6-dev pkg-config python3 gzip chromium chromium-driver fonts-noto-cjk poppler-utils
# Node may come from elsewhere (nodesource bundles npm): install Debian's only when missing.
command -v node >/dev/null 2>&1 || apt_install nodejs
command -v npm >/dev/null 2>&1 || apt_install npm

# 2. Rust itself.
if ! command -v cargo >/dev/null 2>&1; then
  say "no cargo found: installing Debian's Rust (rustc-web, cargo-web)"
  apt_install rustc-web cargo-web
  command -v cargo >/dev/null 2>&1 || die "cargo still missing after installing cargo-web"
fi
say "rust: $(cargo --version)"
# The gates (scripts/check.sh) need rustfmt and clippy beside cargo.
for tool in fmt clippy; do
  cargo "$tool" --version >/dev/null 2>&1 && continue
  component=$([ "$tool" = fmt ] && echo rustfmt || echo clippy)
  if command -v rustup >/dev/null 2>&1; then
    say "adding rustup component $component (45 s timeout)"
    timeout 45 rustup component add "$component" >/dev/null 2>&1 || true
  fi
  cargo "$tool" --version >/dev/null 2>&1 || die "cargo $tool is missing (rustup component $component)"
done

# 3. A standard library for wasm32.
if have_rustup_wasm_target; then
  say "wasm32 target: rustup (installed)"
else
  if command -v rustup >/dev/null 2>&1; then
    say "trying 'rustup target add wasm32-unknown-unknown' (45 s timeout)"
    timeout 45 rustup target add wasm32-unknown-unknown >/dev/null 2>&1 || true
  fi
  if have_rustup_wasm_target; then
    say "wasm32 target: rustup"
  else
    say "rustup cannot fetch the wasm32 target here: using Debian's rustc-web with build-std"
    # rust-web-clippy: scripts/check.sh lints the wasm32 build with the same compiler.
    apt_install rustc-web rust-web-src lld rust-web-clippy
    have_debian_wasm_route || die "rustc-web route incomplete (need /usr/bin/rustc, /usr/lib/rustlib/src/rust, wasm-ld)"
    say "wasm32 target: $(/usr/bin/rustc --version) + build-std"
  fi
fi

# 4. The standard library's sources for rustup's route: the app's bundles compile std for wasm32
# with panics that abort at once (scripts/env.sh wasm_rustflags). Without them the build still
# works, a few percent larger.
if have_rustup_wasm_target; then
  if can_build_std; then
    say "rust-src: installed"
  else
    say "adding rustup component rust-src (45 s timeout)"
    timeout 45 rustup component add rust-src >/dev/null 2>&1 || say "rust-src unavailable: std is not rebuilt (larger bundles)"
  fi
fi

# 5. wasm-bindgen-cli, exactly the version in Cargo.lock.
want=$(locked_wasm_bindgen_version)
[ -n "$want" ] || die "cannot read the wasm-bindgen version from Cargo.lock"
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" = "$want" ]; then
  say "wasm-bindgen: $have"
else
  say "installing wasm-bindgen-cli $want (was: ${have:-none}; 3-5 minutes, once)"
  cargo install wasm-bindgen-cli --version "$want" --force || die "cargo install wasm-bindgen-cli $want failed"
fi

# 6. Node tools: wasm-opt from npm's binaryen (Debian's 108 breaks current rustc output),
# playwright-core (the browser tests' driver), axe-core (their accessibility rules), and for the
# QTI export's test Cito's QTI player and converter (@citolab/qti-components, @citolab/qti-convert
# with saxon-js) and libxml2's schema validator (xmllint-wasm). Installed again whenever one of
# tools/package.json's pinned versions is missing from tools/node_modules.
tools_installed() {
  node -e '
    const dir = process.argv[1];
    for (const [name, version] of Object.entries(require(dir + "/package.json").dependencies)) {
      let have;
      try { have = require(dir + "/node_modules/" + name + "/package.json").version; } catch { have = null; }
      if (have !== version) process.exit(1);
    }' "$ROOT/tools"
}
if [ -x "$ROOT/tools/node_modules/.bin/wasm-opt" ] && tools_installed; then
  say "node tools: $(wasm-opt --version)"
else
  say "installing node tools (npm ci in tools/)"
  (cd "$ROOT/tools" && npm ci --no-audit --no-fund --loglevel=error) || die "npm ci in tools/ failed"
fi

# 7. Trunk, which builds the app from index.html (Trunk.toml). 0.22.1 needs rustc 1.96.1 or newer:
# the active toolchain, else rustup's nightly where there is one, else Trunk 0.21.14 (rustc 1.81).
have=$(trunk --version 2>/dev/null | awk '{print $2}' || true)
case "$have" in
  0.22.*|0.21.1[4-9]) say "trunk: $have" ;;
  *)
    say "installing trunk (was: ${have:-none}; 10-20 minutes on 2 cores, once)"
    cargo install trunk --version 0.22.1 --locked ||
      { command -v rustup >/dev/null 2>&1 && rustup run nightly rustc --version >/dev/null 2>&1 &&
        cargo +nightly install trunk --version 0.22.1 --locked; } ||
      cargo install trunk --version 0.21.14 --locked ||
      die "cargo install trunk failed"
    ;;
esac

say "set-up complete"
