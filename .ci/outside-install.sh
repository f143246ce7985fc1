#!/usr/bin/env bash
# The outside-the-repository install test: memory-matrix as a user gets it.
#  1. packs the publishable packages (.ci/pack.sh: build, pnpm pack);
#  2. installs the memory-matrix CLI package with npm in a new folder outside the repository,
#     from the tarballs (our packages) and the npm registry (third-party dependencies), without
#     the driver packages not bundled with the CLI (`memoryMatrix.bundled`: chroma, sqlite,
#     lancedb, milvus, the LangChain.js clients), as `npm install memory-matrix` would;
#  3. runs `npx memory-matrix --backend pgvector@pglite-pg18` there (exit 0) and compares its
#     verdict per check with the same target's in the repository: the report.json given as $1
#     (default: the main job's, $MM_CI_REPORT_DIR or matrix-report), or, when that has no such
#     cell, a run of `pnpm matrix --backend pgvector@pglite-pg18` this script makes;
#  4. a target of an adapter that is not installed (sqlite, a LangChain.js client) stops with exit 2
#     naming the package;
#  5. `npx memory-matrix init` writes the three files; a second init refuses (exit 2, naming each)
#     and leaves them as they were;
#  6. removes the folder. Prints each phase's wall time.
# Usage: bash .ci/outside-install.sh [<report.json of the repository's run>]
# Exit status: 0 all of the above held; 1 a step failed (what and why on stderr).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$(pwd)"
TARGET=pgvector@pglite-pg18
REF="${1:-${MM_CI_REPORT_DIR:-matrix-report}/report.json}"
[ "${REF#/}" != "$REF" ] || REF="$REPO/$REF"

work="$(mktemp -d "${TMPDIR:-/tmp}/mm-outside.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail() { echo "outside-install: FAIL: $*" >&2; exit 1; }
T0=$(date +%s)
PHASE_T0=$T0
PHASE_CPU=0
# CPU seconds (user + sys) of the processes this script waited for, from the `times` builtin (run
# in this shell, not a subshell, which would count only its own children).
cpu() {
  times >"$work/.times"
  tail -1 "$work/.times" | awk '{ split($1, u, /[ms]/); split($2, s, /[ms]/); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }'
}
phase() {
  local now c
  now=$(date +%s)
  cpu >"$work/.cpu"
  c=$(cat "$work/.cpu")
  printf 'outside-install: %-58s %4d s wall %4d s CPU\n' "$1" "$((now - PHASE_T0))" "$((c - PHASE_CPU))"
  PHASE_T0=$now
  PHASE_CPU=$c
}

bash .ci/pack.sh "$work/tgz" >/dev/null
phase "build and pack ($(find "$work/tgz" -name '*.tgz' | wc -l) tarballs)"

# The CLI package and the packages of ours it depends on: every tarball but the driver packages
# that are not bundled with the CLI (package.json `memoryMatrix` without `bundled: true`: the
# optional adapters, e.g. chroma, sqlite, lancedb, milvus and the LangChain.js ones), which stay out
# as in `npm install memory-matrix`. Read from each tarball's own package.json, so no name is listed here.
mapfile -t tarballs < <(for t in "$work"/tgz/*.tgz; do
  tar -xzOf "$t" package/package.json | node -e 'const m = JSON.parse(require("fs").readFileSync(0, "utf8")).memoryMatrix; if (!m || m.bundled === true) console.log(process.argv[1])' "$t"
done | sort)
[ "${#tarballs[@]}" -gt 0 ] || fail "no tarballs packed in $work/tgz"
printf 'outside-install: installing %s\n' "$(printf '%s\n' "${tarballs[@]}" | xargs -n1 basename | paste -sd' ' -)"
app="$work/app"
mkdir "$app"
cd "$app"
echo '{ "name": "outside-install", "private": true }' >package.json
# --ignore-scripts: what the default targets install runs none it needs. With scripts, npm compiled
# ssh2's optional native crypto binding and cpu-features (testcontainers → docker-modem → ssh2):
# 97 of the 161 s of an install measured here (2 cores, load average ≈ 25); esbuild (tsx) finds
# its binary in its platform package without its postinstall (checked below).
npm install --ignore-scripts --no-audit --no-fund --prefer-offline --loglevel=error "${tarballs[@]}" >"$work/npm-install.log" 2>&1 || { tail -30 "$work/npm-install.log" >&2; fail "npm install of the tarballs"; }
runner="$(node -p "require.resolve('@memory-matrix/runner')")"
[ "$runner" = "$app/node_modules/@memory-matrix/runner/dist/index.js" ] || fail "the runner resolves to $runner, not the installed dist/"
# Child processes (embedded cells, C26, selftest workers, a user's TypeScript driver) load through tsx.
node --require tsx/cjs -e 'require("esbuild").transformSync("const a: number = 1", { loader: "ts" })' || fail "tsx / esbuild do not load in the install"
phase "npm install ($(du -sm node_modules | cut -f1) MB in node_modules)"

# npx --no: never fetch a package named memory-matrix from the registry; the installed bin or nothing.
set +e
npx --no -- memory-matrix --backend "$TARGET" --report-dir "$work/report" >"$work/run.log" 2>&1
rc=$?
set -e
tail -3 "$work/run.log"
[ "$rc" -eq 0 ] || { tail -40 "$work/run.log" >&2; fail "npx memory-matrix --backend $TARGET exited $rc"; }
phase "npx memory-matrix --backend $TARGET (exit 0)"

verdicts() { # report.json → "C01 pass" lines of $TARGET's cell, or nothing
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const cell = (r.cells || []).find((c) => c.target === process.argv[2]);
    if (cell) for (const c of cell.checks) console.log(`${c.id} ${c.status}`);
  ' "$1" "$TARGET"
}
inside=""
[ -f "$REF" ] && inside="$(verdicts "$REF")"
if [ -z "$inside" ]; then
  echo "outside-install: no $TARGET cell in $REF: running it in the repository"
  (cd "$REPO" && pnpm matrix --backend "$TARGET" --report-dir "$work/inside" >"$work/inside.log" 2>&1) || true
  REF="$work/inside/report.json"
  [ -f "$REF" ] || fail "the repository run wrote no report ($(tail -1 "$work/inside.log"))"
  inside="$(verdicts "$REF")"
  phase "pnpm matrix --backend $TARGET in the repository"
fi
outside="$(verdicts "$work/report/report.json")"
[ -n "$outside" ] || fail "no $TARGET cell in the installed run's report.json"
if [ "$inside" != "$outside" ]; then
  diff <(echo "$inside") <(echo "$outside") | sed 's/^/  /' >&2 || true
  fail "verdicts differ per check (< the repository's $REF, > the installed package's)"
fi
echo "outside-install: same verdict on all $(echo "$outside" | wc -l) checks as $REF: $(echo "$outside" | cut -d' ' -f2 | sort | uniq -c | awk '{ print $1, $2 }' | paste -sd, - | sed 's/,/, /g')"

for t in sqlite@3.53-vec0.1.9:adapter-sqlite langchain-redis-history@redis-8.0:adapter-langchain-redis-history; do
  target="${t%%:*}"
  pkg="@memory-matrix/${t#*:}"
  log="$work/unavailable-${target%%@*}.log"
  set +e
  npx --no -- memory-matrix --backend "$target" --report-dir "$work/report-unavailable" >"$log" 2>&1
  rc=$?
  set -e
  tarball="memory-matrix-${t#*:}-[0-9.]*\.tgz"
  [ "$rc" -eq 2 ] && grep -q "adapter package $pkg is not installed" "$log" && grep -q "npm install --save-dev .*/$tarball" "$log" ||
    { cat "$log" >&2; fail "a target of an adapter not installed ($target): expected exit 2, the line naming $pkg and the npm install of its tarball; got exit $rc"; }
  echo "outside-install: $(grep -o 'TARGET_UNAVAILABLE: .*' "$log" | head -1)"
done

npx --no -- memory-matrix init >"$work/init.log" 2>&1 || { cat "$work/init.log" >&2; fail "npx memory-matrix init"; }
files=(memory-matrix.yaml golden-data/README.md .github/workflows/memory-matrix.yml)
for f in "${files[@]}"; do [ -s "$f" ] || fail "init did not write $f"; done
before="$(sha256sum "${files[@]}")"
set +e
npx --no -- memory-matrix init >"$work/init2.log" 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ] || fail "a second init exited $rc, expected 2"
for f in "${files[@]}"; do grep -qF "$app/$f" "$work/init2.log" || fail "the refusal does not name $f: $(cat "$work/init2.log")"; done
[ "$(sha256sum "${files[@]}")" = "$before" ] || fail "a refused init changed the files"
phase "npx memory-matrix init (3 files; again: exit 2 naming each)"

cpu >"$work/.cpu"
printf 'outside-install: passed in %d s wall, %d s CPU (load average %s)\n' "$(($(date +%s) - T0))" "$(cat "$work/.cpu")" "$(cut -d' ' -f1-3 /proc/loadavg)"
