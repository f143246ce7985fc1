#!/usr/bin/env bash
# Rebuilds golden-data/user-data/* (user-fixtures.mjs, from the committed agent-memories; no npm
# install needed) into a temporary directory and compares each data file byte for byte with the
# committed one. Exit 0 when all are identical; 1 naming each differing or missing file; 2 when
# the build fails. Usage: bash golden-data/build/verify-user-data.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
committed="$here/../user-data"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
if ! node "$here/user-fixtures.mjs" --out "$tmp" >/dev/null; then
  echo "verify-user-data: build failed" >&2
  exit 2
fi
status=0
for dir in "$tmp"/*/; do
  name="$(basename "$dir")"
  for f in manifest.json memories.jsonl memories.f32 queries.jsonl queries.f32; do
    if [ ! -f "$committed/$name/$f" ]; then
      echo "verify-user-data: MISSING committed golden-data/user-data/$name/$f" >&2
      status=1
    elif ! cmp -s "$dir/$f" "$committed/$name/$f"; then
      echo "verify-user-data: DIFFERS golden-data/user-data/$name/$f" >&2
      status=1
    fi
  done
  [ -f "$committed/$name/expected/oracle.jsonl" ] || { echo "verify-user-data: MISSING golden-data/user-data/$name/expected/oracle.jsonl" >&2; status=1; }
done
[ "$status" -ne 0 ] || echo "verify-user-data: $(ls "$tmp" | wc -l) fixtures identical"
exit "$status"
