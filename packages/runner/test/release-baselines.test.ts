import path from 'node:path';
import { loadCatalog, resolveTarget } from '@memory-matrix/targets';
import { loadGoldenDataset } from '@memory-matrix/spec';
import { releaseBaselines } from '../src/baseline/release';
import { GOLDEN } from './cli-helpers';

/**
 * The committed release baselines of `pr-gate` (matrix/baselines/, read by the run before any
 * backend starts): every target and fallback target of the profile has one that matches the
 * catalog's index and the golden dataset; a target without one is USAGE (exit 2) for the
 * profile's own targets and a console line with --backend; no profile, no baselines.
 */
describe('pr-gate release baselines', () => {
  const catalog = loadCatalog();
  const dataset = loadGoldenDataset(GOLDEN);
  const gate = catalog.profiles.get('pr-gate')!;
  const names = [...new Set([...gate.targets, ...(gate.fallbackTargets ?? [])])];

  test('every pr-gate target and fallback target has a committed baseline of the golden set with the catalog index', () => {
    const r = releaseBaselines(
      catalog,
      'pr-gate',
      names.map((n) => resolveTarget(catalog, n)),
      dataset,
    );
    expect([...r.byTarget.keys()].sort()).toEqual([...names].sort());
    for (const b of r.byTarget.values()) {
      expect(b.queries.size).toBe(dataset.queries.length);
      expect(b).toMatchObject({ meanRecallDrop: 0.004, queryRecallDrop: 0.2 });
      expect(path.isAbsolute(b.file)).toBe(false);
    }
  });

  test('a target without a baseline: USAGE naming the file and the record command; with --backend a line', () => {
    const sqlite = [resolveTarget(catalog, 'sqlite@3.53-vec0.1.9')];
    let err: unknown;
    try {
      releaseBaselines(catalog, 'pr-gate', sqlite, dataset);
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'USAGE' });
    expect((err as Error).message).toContain(
      '(matrix/baselines/sqlite@3.53-vec0.1.9.json is missing); record it with: pnpm matrix record --backend sqlite@3.53-vec0.1.9 --out matrix/baselines/sqlite@3.53-vec0.1.9.json',
    );
    const loose = releaseBaselines(catalog, 'pr-gate', sqlite, dataset, false);
    expect(loose.byTarget.size).toBe(0);
    expect(loose.lines[0]).toContain('judged against the floors only');
  });

  test('profiles without baselines: nothing', () => {
    expect(releaseBaselines(catalog, 'default', [resolveTarget(catalog, 'pgvector@pg17')], dataset).byTarget.size).toBe(0);
    expect(releaseBaselines(catalog, undefined, [resolveTarget(catalog, 'pgvector@pg17')], dataset).byTarget.size).toBe(0);
  });
});
