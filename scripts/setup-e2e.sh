#!/usr/bin/env bash
# Installs what the end-to-end tests need on a fresh Debian machine: Chromium, ripgrep and
# code-server 4.100.3 (a real VS Code served to a browser). Idempotent: each step is skipped when
# its result is already there, so CI can call it on every run.
#
# code-server goes into a cache folder outside the repository (about 300 MB):
#   ${PROF_LENS_E2E_CACHE:-$HOME/.cache/prof-lens-e2e}
set -euo pipefail

CODE_SERVER_VERSION=4.100.3
CACHE_DIR="${PROF_LENS_E2E_CACHE:-$HOME/.cache/prof-lens-e2e}"
CODE_SERVER_BIN="$CACHE_DIR/node_modules/.bin/code-server"

log() { printf '[setup-e2e] %s\n' "$*"; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_debian_packages() {
  local missing=()
  dpkg -s libkrb5-dev >/dev/null 2>&1 || missing+=(libkrb5-dev)
  command -v rg >/dev/null 2>&1 || missing+=(ripgrep)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  if [ "${#missing[@]}" -eq 0 ]; then
    log "Debian packages already installed"
    return
  fi
  log "installing ${missing[*]}"
  as_root apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
}

# @vscode/ripgrep's install script downloads a binary, which fails without internet access; it
# first looks for a cached archive in the OS temp dir, so we put Debian's rg there for every
# version npm may resolve.
seed_ripgrep_cache() {
  local tmp rg_bin work archive version
  tmp="$(node -p 'require("os").tmpdir()')"
  rg_bin="$(command -v rg)"
  work="$(mktemp -d)"
  cp "$rg_bin" "$work/rg"
  for version in 1.15.9 1.15.10 1.15.11 1.15.12 1.15.13 1.15.14; do
    mkdir -p "$tmp/vscode-ripgrep-cache-$version"
    archive="$tmp/vscode-ripgrep-cache-$version/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
    [ -s "$archive" ] || tar -czf "$archive" -C "$work" rg
  done
  rm -rf "$work"
}

install_code_server() {
  if [ -x "$CODE_SERVER_BIN" ] && "$CODE_SERVER_BIN" --version 2>/dev/null | grep -q "^$CODE_SERVER_VERSION"; then
    log "code-server $CODE_SERVER_VERSION already in $CACHE_DIR"
    return
  fi
  seed_ripgrep_cache
  mkdir -p "$CACHE_DIR"
  [ -f "$CACHE_DIR/package.json" ] || printf '{"name":"prof-lens-e2e-cache","private":true}\n' >"$CACHE_DIR/package.json"
  log "installing code-server $CODE_SERVER_VERSION into $CACHE_DIR (a few minutes)"
  (
    cd "$CACHE_DIR"
    npm_config_yes=true npm_config_unsafe_perm=true \
      npm install --unsafe-perm --no-audit --no-fund "code-server@$CODE_SERVER_VERSION"
  )
  "$CODE_SERVER_BIN" --version >/dev/null
  log "code-server ready: $CODE_SERVER_BIN"
}

install_debian_packages
install_code_server
