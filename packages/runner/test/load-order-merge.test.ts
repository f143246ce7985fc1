/**
 * `merge` and the golden load order (issue 31 kind 8): shard reports that loaded the golden set in
 * the same seeded order merge with that order named; different seeds are refused (USAGE) naming
 * the files, since one report names one order. No backend.
 */
import { mergeReports } from '../src/commands/merge';
import { emptyReport, type MatrixReport } from '../src/report/model';
import { cellReport } from './report-fixtures';

function shard(target: string, seed: number | undefined): MatrixReport {
  const r = emptyReport([], '2026-12-05T00:00:00.000Z');
  if (seed !== undefined) r.loadOrder = { seed, method: 'Fisher-Yates shuffle driven by mulberry32(seed)' };
  r.cells.push(cellReport(target, [{ id: 'C07', name: 'deterministic-ties', status: 'passed', figures: {}, failures: [], notes: [], durationMs: 1 }]));
  return r;
}

test('same seed: kept in the merged report; a report of an older version (no loadOrder) does not disagree', () => {
  const merged = mergeReports([
    { file: 'a/report.json', report: shard('a@1', 31) },
    { file: 'b/report.json', report: shard('b@1', 31) },
    { file: 'c/report.json', report: shard('c@1', undefined) },
  ]);
  expect(merged.loadOrder).toEqual({ seed: 31, method: 'Fisher-Yates shuffle driven by mulberry32(seed)' });
});

test('different seeds: USAGE naming the files and the seeds', () => {
  expect(() =>
    mergeReports([
      { file: 'a/report.json', report: shard('a@1', 31) },
      { file: 'b/report.json', report: shard('b@1', 7) },
    ]),
  ).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('a/report.json (load-order seed 31) vs b/report.json (load-order seed 7)') }));
});
