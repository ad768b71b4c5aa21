#!/bin/sh
# Installs what the repository needs: bubblewrap on Linux (see below), pnpm at the version package.json names (only when another
# version, or none, is on the PATH: reinstalling a running pnpm fails with "Text file busy"),
# then the dependencies. Arguments go to `pnpm install` (CI passes --frozen-lockfile).
set -eu
cd "$(dirname "$0")/.."

# bubblewrap (bwrap): run_command's sandbox on Linux, which the tests exercise. Installed as root
# with apt-get where it is missing (CI on a fresh Debian machine); elsewhere, said how.
if [ "$(uname -s)" = Linux ] && ! command -v bwrap >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update && apt-get install -y bubblewrap
  else
    echo "setup: bwrap is missing: install bubblewrap (apt-get install bubblewrap) to test the sandbox" >&2
  fi
fi

version=$(node -p 'require("./package.json").packageManager.replace(/^pnpm@/, "")')
if [ "$(pnpm --version 2>/dev/null || true)" != "$version" ]; then
  npm install --global "pnpm@$version"
fi
pnpm install "$@"
