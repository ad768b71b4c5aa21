#!/bin/sh
# Installs what the repository needs: pnpm at the version package.json names (only when another
# version, or none, is on the PATH: reinstalling a running pnpm fails with "Text file busy"),
# then the dependencies. Arguments go to `pnpm install` (CI passes --frozen-lockfile).
set -eu
cd "$(dirname "$0")/.."

version=$(node -p 'require("./package.json").packageManager.replace(/^pnpm@/, "")')
if [ "$(pnpm --version 2>/dev/null || true)" != "$version" ]; then
  npm install --global "pnpm@$version"
fi
pnpm install "$@"
