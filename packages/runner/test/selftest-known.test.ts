/**
 * The selftest on a target whose catalog lists known upstream failures (selftest/model.ts
 * `absorbedByKnown`, `judgeClean`, `judgeMutant`; catalogue-run.ts `stopAtFirstFailure`): a check
 * failing inside its knownFailures scope neither voids the clean run nor counts as a catch, and
 * with --first does not stop a mutant's run; a failure outside the scope still catches.
 */
import type { CheckResult, KnownFailureEntry } from '@memory-matrix/spec';
import { stopAtFirstFailure } from '../src/selftest/catalogue-run';
import { absorbedByKnown, judgeClean, judgeMutant, type CatalogueRun } from '../src/selftest/model';
import { knownText } from '../src/selftest/render';
import { MatrixRuntime } from '../src/runtime';

const M = { name: 'k-minus-one', family: 'result-count', bug: 'recall returns at most k − 1 hits' };
const failure = (kind: string, scan: 'exact' | 'index', message: string) => ({ dataset: 'd', target: 't', queryId: 'q', kind: kind as never, scan, metric: 'cosine' as const, message });
const result = (id: string, failures: CheckResult['failures']): CheckResult => ({
  id,
  name: `check ${id}`,
  status: failures.length ? 'failed' : 'passed',
  figures: {},
  failures,
  notes: [],
  durationMs: 1,
});
/** A LanceDB-like entry: C04 fails on the index path only (recall), any metric. */
const ENTRIES: KnownFailureEntry[] = [
  { check: 'C04', reason: 'index path drops rows', link: 'https://example.org/1', scope: [{ kinds: ['recall'], metrics: 'any', scan: ['index'], filtered: 'any' }] },
];
const inScope = result('C04', [failure('recall', 'index', 'index scan: returned 0 results, expected 2')]);
const outOfScope = result('C04', [failure('recall', 'index', 'index scan: returned 0 results, expected 2'), failure('recall', 'exact', 'exact scan: returned 9, expected 10')]);
const known = (results: CheckResult[]): CatalogueRun => ({ results, ms: 10, known: results.filter((r) => absorbedByKnown(r, ENTRIES, 'cosine')).map((r) => r.id) });

test('absorbedByKnown: a failure wholly inside the entry, not one outside it, a pass, or a check without an entry', () => {
  expect(absorbedByKnown(inScope, ENTRIES, 'cosine')).toBe(true);
  expect(absorbedByKnown(outOfScope, ENTRIES, 'cosine')).toBe(false);
  expect(absorbedByKnown(result('C04', []), ENTRIES, 'cosine')).toBe(false);
  expect(absorbedByKnown(result('C02', [failure('recall', 'index', 'x')]), ENTRIES, 'cosine')).toBe(false);
  expect(absorbedByKnown(inScope, undefined, 'cosine')).toBe(false);
});

test('the clean run stays clean beside a known failure and names it; a failure outside the scope voids it', () => {
  const clean = judgeClean(known([result('C01', []), inScope]));
  expect(clean).toMatchObject({ status: 'clean', failed: [], known: ['C04'] });
  expect(knownText(clean.known)).toBe(' but C04, which failed as its knownFailures say (they catch a mutant only by failing outside that scope)');
  expect(judgeClean(known([result('C01', []), outOfScope]))).toMatchObject({ status: 'void', failed: ['C04'] });
  expect(knownText(undefined)).toBe('');
});

test('a mutant is caught only by a failure outside the known scope', () => {
  expect(judgeMutant(M, known([inScope, result('C02', [])]))).toMatchObject({ status: 'escaped', caughtBy: [] });
  expect(judgeMutant(M, known([outOfScope]))).toMatchObject({ status: 'caught', caughtBy: [{ id: 'C04' }] });
  expect(judgeMutant(M, known([inScope, result('C07', [failure('order', 'exact', 'rank swap')])]))).toMatchObject({ status: 'caught', caughtBy: [{ id: 'C07', firstLine: 'rank swap' }] });
});

test('--first: a failure the predicate calls known does not stop the run; the next one does', async () => {
  const rt = new MatrixRuntime();
  const ran: string[] = [];
  const w = stopAtFirstFailure(rt, () => ran[ran.length - 1] !== 'known');
  w.describe('s', () => {
    w.test('known', async () => {
      ran.push('known');
      throw new Error('known upstream failure');
    });
    w.test('b', async () => {
      ran.push('b');
      throw new Error('caught');
    });
    w.test('c', async () => void ran.push('c'));
  });
  await rt.run();
  expect(ran).toEqual(['known', 'b']);
});
