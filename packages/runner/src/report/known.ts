import type { CheckResult, KnownFailureEntry, KnownFailureVerdict } from '@memory-matrix/spec';
import type { CellReport } from './model';

/**
 * The verdict of one check result against its target's `knownFailures` entry for that check
 * (spec `KnownFailureVerdict`), or undefined when `entry` is undefined or the check was skipped.
 * - failed, no error, at least one failure and every failure's kind in `entry.kinds` (any kind
 *   when `kinds` is absent) → `known`;
 * - failed otherwise (a kind the entry does not list, an error that stopped the check, a check
 *   that never ran) → `not-covered`: it fails as usual;
 * - passed → `stale` ("remove the entry"; an intermittent entry: "not reproduced this run", with
 *   the link only: the console line stays short, the reason stays in the verdict's `reason`).
 * Pure; never throws.
 */
export function knownVerdict(result: CheckResult, entry: KnownFailureEntry | undefined): KnownFailureVerdict | undefined {
  if (!entry || result.status === 'skipped') return undefined;
  const base: KnownFailureEntry = { check: entry.check, reason: entry.reason, link: entry.link, ...(entry.kinds ? { kinds: entry.kinds } : {}), ...(entry.intermittent ? { intermittent: true } : {}) };
  const listed = entry.kinds ? `kinds ${entry.kinds.join(', ')}` : 'every kind';
  if (result.status === 'passed') {
    const message = entry.intermittent
      ? `known failure not reproduced this run (intermittent): ${entry.link} (its reason: report.md, "Known upstream failures")`
      : `STALE known failure: ${result.id} passed; remove the knownFailures entry (${entry.reason}; ${entry.link})`;
    return { ...base, verdict: 'stale', message };
  }
  if (result.error || result.failures.length === 0) {
    const why = result.error ? `an error stopped the check (${result.error.code ?? 'ERROR'}), which no knownFailures entry covers` : 'it failed without a failure kind';
    return { ...base, verdict: 'not-covered', message: `fails as usual: ${why}` };
  }
  const unlisted = entry.kinds ? [...new Set(result.failures.map((f) => f.kind).filter((k) => !entry.kinds!.includes(k)))].sort() : [];
  if (unlisted.length) {
    return { ...base, verdict: 'not-covered', message: `fails as usual: failure kind(s) ${unlisted.join(', ')} not listed (the knownFailures entry covers ${listed})` };
  }
  return { ...base, verdict: 'known', message: `KNOWN${entry.intermittent ? ' (intermittent)' : ''}: ${entry.reason} (${entry.link})` };
}

/**
 * Apply each cell's `knownFailures` (copied from its catalog target) to its check results, in
 * place: sets `knownFailure` on every listed check that ran, and turns a `failed` one whose
 * verdict is `known` into status `known`. A `known` result is re-judged from its failures, so
 * settling a report twice (a merge) gives the same result. Nothing but a listed entry changes a
 * status. Returns `cells`.
 */
export function applyKnownFailures(cells: CellReport[]): CellReport[] {
  for (const cell of cells) {
    for (const r of cell.checks) {
      const entry = cell.knownFailures?.find((e) => e.check === r.id);
      if (r.status === 'known') r.status = 'failed'; // re-judged below
      const v = knownVerdict(r, entry);
      if (v) r.knownFailure = v;
      else delete r.knownFailure;
      if (v?.verdict === 'known') r.status = 'known';
    }
  }
  return cells;
}
