#!/usr/bin/env bash
# False alarms of the clean matrix: the same code, data and targets run N times in a row (default
# 20), nothing changed between the runs. Every run should pass; a run with a failed check is a
# false alarm (a flaky check, a time limit too tight for the machine, an ANN result the judging does
# not tolerate), and the gate would have blocked a good change with it.
#
#   bash .ci/false-alarms.sh [--runs N] [--out DIR] [-- <pnpm matrix options>]
#
# Default options: --profile embedded (the embedded targets, no Docker needed). Each run is a fresh
# `pnpm matrix` process with its own report dir DIR/run-<i> (default DIR: a new temp dir). Prints one
# line per run (exit status, counts, wall time, each failed check with its first line), then
# "N runs, F false alarms" and the failed checks counted over the runs; the same lines go to
# DIR/summary.txt. Exit 0 no false alarm, 1 at least one, 2 a run that could not be carried out
# (its exit status 2: a backend that would not start, bad options) and no false alarm, 130 on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=20
OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs)
      RUNS="${2:-}"
      shift 2
      ;;
    --out)
      OUT="${2:-}"
      shift 2
      ;;
    --)
      shift
      break
      ;;
    -h | --help)
      sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "false-alarms.sh: unknown option '$1' (pnpm matrix options go after --)" >&2
      exit 2
      ;;
  esac
done
if ! [[ "$RUNS" =~ ^[1-9][0-9]*$ ]]; then
  echo "false-alarms.sh: --runs '$RUNS': expected a whole number ≥ 1" >&2
  exit 2
fi
MATRIX_ARGS=("$@")
[ ${#MATRIX_ARGS[@]} -gt 0 ] || MATRIX_ARGS=(--profile embedded)
OUT="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/mm-false-alarms-XXXXXX")}"
mkdir -p "$OUT"
SUMMARY="$OUT/summary.txt"
: >"$SUMMARY"
say() { printf '%s\n' "$*" | tee -a "$SUMMARY"; }

say "false alarms: $RUNS run(s) of pnpm matrix ${MATRIX_ARGS[*]} (report dirs under $OUT), started $(date -u +%FT%TZ), load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')"
ALARMS=0
NOT_RUN=0
i=1
FAILED_CHECKS=()
trap 'say "interrupted after $((i - 1)) of $RUNS run(s): $ALARMS false alarm(s) so far"; exit 130' INT TERM
for i in $(seq 1 "$RUNS"); do
  dir="$OUT/run-$i"
  t0=$(date +%s)
  rc=0
  pnpm --silent matrix "${MATRIX_ARGS[@]}" --report-dir "$dir" >"$OUT/run-$i.log" 2>&1 || rc=$?
  dt=$(($(date +%s) - t0))
  # One line of counts, then one line per failed check (target, check, first line of its first failure or error).
  detail=$(node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const s = r.summary;
    console.log(`${s.passed} passed, ${s.failed} failed, ${s.known} known, ${s.skipped} skipped${r.error ? `; ${r.error.code}: ${r.error.message}` : ""}`);
    for (const c of r.cells) {
      if (c.error) console.log(`FAIL ${c.target} (cell): ${c.error.message.split("\n")[0]}`);
      for (const k of c.checks) {
        if (k.status !== "failed") continue;
        const first = k.error ? `${k.error.code ?? "error"}: ${k.error.message}` : (k.failures[0]?.message ?? "failed");
        console.log(`FAIL ${c.target} ${k.id} ${k.name}: ${first.split("\n")[0].slice(0, 240)}`);
      }
    }' "$dir/report.json" 2>/dev/null || echo "no report.json (see $OUT/run-$i.log)")
  case "$rc" in
    0) verdict="pass" ;;
    1)
      verdict="FALSE ALARM"
      ALARMS=$((ALARMS + 1))
      ;;
    130 | 143) exit "$rc" ;;
    *)
      verdict="NOT CARRIED OUT (exit $rc)"
      NOT_RUN=$((NOT_RUN + 1))
      ;;
  esac
  say "run $i/$RUNS: $verdict, exit $rc, ${dt} s, $(head -n1 <<<"$detail")"
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    say "  $line"
    FAILED_CHECKS+=("$(cut -d' ' -f2-3 <<<"$line" | sed 's/:$//')")
  done < <(tail -n +2 <<<"$detail")
done
trap - INT TERM
if [ "$NOT_RUN" -gt 0 ]; then say "$RUNS runs, $ALARMS false alarms, $NOT_RUN not carried out"; else say "$RUNS runs, $ALARMS false alarms"; fi
if [ ${#FAILED_CHECKS[@]} -gt 0 ]; then
  say "failed checks over the runs:"
  printf '%s\n' "${FAILED_CHECKS[@]}" | sort | uniq -c | sort -rn | sed 's/^/  /' | tee -a "$SUMMARY"
fi
say "summary: $SUMMARY"
if [ "$ALARMS" -gt 0 ]; then exit 1; fi
if [ "$NOT_RUN" -gt 0 ]; then exit 2; fi
exit 0
