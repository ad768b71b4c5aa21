#!/bin/sh
# Installs what the repository needs: the system programs its tests use (strace, which traces what
# bash runs for the differential test of the command policy, and bubblewrap, the sandbox of
# commands), with apt-get where one is missing and the user may install (root); then pnpm at the
# version package.json names (only when another version, or none, is on the PATH: reinstalling a
# running pnpm fails with "Text file busy"), then the dependencies. Arguments go to `pnpm install`
# (CI passes --frozen-lockfile).
set -eu
cd "$(dirname "$0")/.."

missing=""
command -v strace >/dev/null 2>&1 || missing="$missing strace"
command -v bwrap >/dev/null 2>&1 || missing="$missing bubblewrap"
if [ -n "$missing" ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
  else
    echo "scripts/setup.sh: install$missing (the tests need them), e.g. sudo apt-get install$missing" >&2
  fi
fi

version=$(node -p 'require("./package.json").packageManager.replace(/^pnpm@/, "")')
if [ "$(pnpm --version 2>/dev/null || true)" != "$version" ]; then
  npm install --global "pnpm@$version"
fi
pnpm install "$@"
