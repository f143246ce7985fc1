import type { CheckResult, Metric, KnownFailureEntry, KnownFailureMatch, KnownFailureMiss, KnownFailureVerdict } from '@memory-matrix/spec';
import type { CellReport } from './model';
import { describeScope, fitScope } from './known-scope';

/** Failures outside the scope named in a not-covered message (the rest are in `outside`). */
const NAMED_OUTSIDE = 3;

/**
 * The verdict of one check result against its target's `knownFailures` entry for that check
 * (spec `KnownFailureVerdict`), or undefined when `entry` is undefined or the check was skipped.
 * - failed, no error, at least one failure, and EVERY failure inside some item of `entry.scope`
 *   (known-scope.ts `fitScope`: kind, metric, scan path, filtered, threshold, score / recall
 *   bounds; an item with `maxFailures` N takes the first N failures that fit it, in failure
 *   order, and a later one is outside it) → `known`, with `matched` naming per failure its
 *   scope item and matched values;
 * - failed otherwise (a failure outside every item, an error that stopped the check, a check
 *   that never ran) → `not-covered`: it fails as usual; `outside` lists each failure outside the
 *   scope and what it breaks, and the message names the first few;
 * - passed → `stale` ("remove the entry"; an intermittent entry: "not reproduced this run", with
 *   the link only: the console line stays short, the reason stays in the verdict's `reason`);
 *   undefined instead when `datasetMetric` (the cell's dataset metric) is in no scope item's
 *   `metrics`: the entry cannot show on that dataset (a cosine-scoped entry on an l2 dataset).
 * Depends on `result` and `entry` only (never on other checks or the run's check set). Pure; never throws.
 */
export function knownVerdict(result: CheckResult, entry: KnownFailureEntry | undefined, datasetMetric?: Metric): KnownFailureVerdict | undefined {
  if (!entry || result.status === 'skipped') return undefined;
  // A pass on a dataset in a metric no scope item admits says nothing about the entry: not stale.
  if (result.status === 'passed' && datasetMetric && Array.isArray(entry.scope) && entry.scope.length && entry.scope.every((i) => i.metrics !== 'any' && !i.metrics.includes(datasetMetric)))
    return undefined;
  const base: KnownFailureEntry = { check: entry.check, reason: entry.reason, link: entry.link, scope: entry.scope, ...(entry.intermittent ? { intermittent: true } : {}) };
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
  if (!Array.isArray(entry.scope) || entry.scope.length === 0) {
    // A report.json written before entries had scopes (merged, or settled again): nothing is absorbed.
    return { ...base, verdict: 'not-covered', message: 'fails as usual: the knownFailures entry states no scope (docs/known-failures.md)' };
  }
  const matched: KnownFailureMatch[] = [];
  const outside: KnownFailureMiss[] = [];
  const taken = entry.scope.map(() => 0);
  result.failures.forEach((f, failureIndex) => {
    const breaks: string[] = [];
    for (const [i, item] of entry.scope.entries()) {
      const fit = fitScope(f, item);
      const full = fit.inside && item.maxFailures !== undefined && taken[i]! >= item.maxFailures;
      if (fit.inside && !full) {
        taken[i]!++;
        matched.push({ failureIndex, scopeItem: i, scope: fit.scope });
        return;
      }
      const why = fit.inside ? [`the item already absorbed maxFailures ${item.maxFailures} failure(s) of this check`] : fit.breaks;
      breaks.push(`${entry.scope.length > 1 ? `scope item ${i + 1}: ` : ''}${why.join('; ')}`);
    }
    outside.push({ failureIndex, kind: f.kind, breaks });
  });
  if (outside.length) {
    const named = outside.slice(0, NAMED_OUTSIDE).map((o) => `failure ${o.failureIndex + 1} [${o.kind}] ${clip(result.failures[o.failureIndex]!.message)} (${o.breaks.join(' | ')})`);
    const more = outside.length > NAMED_OUTSIDE ? `; … and ${outside.length - NAMED_OUTSIDE} more (report.json knownFailure.outside)` : '';
    const scope = entry.scope.map((s, i) => `${entry.scope.length > 1 ? `${i + 1}: ` : ''}${describeScope(s)}`).join('; ');
    return {
      ...base,
      verdict: 'not-covered',
      message: `fails as usual: ${outside.length} of ${result.failures.length} failure(s) outside the knownFailures scope (${scope}): ${named.join('; ')}${more}`,
      outside,
    };
  }
  return { ...base, verdict: 'known', message: `KNOWN${entry.intermittent ? ' (intermittent)' : ''}: ${entry.reason} (${entry.link})`, matched };
}

function clip(s: string, max = 160): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

/**
 * Apply each cell's `knownFailures` (copied from its catalog target) to its check results, in
 * place: sets `knownFailure` on every listed check that ran, and turns a `failed` one whose
 * verdict is `known` into status `known`. A `known` result is re-judged from its failures, so
 * settling a report twice (a merge) gives the same result. Nothing but a listed entry changes a
 * status. `datasetMetric`: the run's dataset metric (`knownVerdict`). Returns `cells`.
 */
export function applyKnownFailures(cells: CellReport[], datasetMetric?: Metric): CellReport[] {
  for (const cell of cells) {
    for (const r of cell.checks) {
      const entry = cell.knownFailures?.find((e) => e.check === r.id);
      if (r.status === 'known') r.status = 'failed'; // re-judged below
      const v = knownVerdict(r, entry, datasetMetric);
      if (v) r.knownFailure = v;
      else delete r.knownFailure;
      if (v?.verdict === 'known') r.status = 'known';
    }
  }
  return cells;
}
