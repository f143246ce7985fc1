import { readFileSync } from 'node:fs';
import path from 'node:path';
/**
 * Targets whose adapter package is not installed (an installed copy without the optional
 * adapters: `catalog.unavailable`, set aside by the catalog reader; .ci/outside-install.sh sees it
 * on a real install): a profile's run leaves them out and says why, a profile with nothing left is
 * USAGE, `--backend` naming one is TARGET_UNAVAILABLE. Here every adapter is installed, so the
 * catalog is given the entries the reader would have set aside.
 */
import { loadCatalog, resolveTarget, type Catalog } from '@memory-matrix/targets';
import { selectTargets } from '../src/select';

const VERSION = (JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'targets', 'package.json'), 'utf8')) as { version: string }).version;
const WHY = `its adapter package @memory-matrix/adapter-sqlite is not installed (not on the npm registry yet: npm install --save-dev <dir>/memory-matrix-adapter-sqlite-${VERSION}.tgz, packed with bash .ci/pack.sh <dir> in a clone of the repository)`;

/** The built-in catalog as an install without `backend`'s adapter reads it. */
function without(backend: string): Catalog {
  const c = loadCatalog();
  for (const [name, t] of [...c.targets]) {
    if (t.backend !== backend) continue;
    c.targets.delete(name);
    c.unavailable.set(name, WHY.replace(/sqlite/g, backend));
  }
  return c;
}

test('a profile leaves the unavailable targets out, naming them and the package', () => {
  const { targets, why } = selectTargets(without('sqlite'), { backends: [], profile: 'embedded', docker: false, shard: null });
  const embedded = loadCatalog().profiles.get('embedded')!.targets;
  expect(embedded).toContain('sqlite@3.53-vec0.1.9');
  expect(targets.map((t) => t.name)).toEqual(embedded.filter((t) => !t.startsWith('sqlite@')));
  expect(why).toBe(`profile embedded (left out: sqlite@3.53-vec0.1.9: ${WHY})`);
  // …and names them for the reports (report.json skippedTargets: `skipped target …` in the console and report.md).
  expect(selectTargets(without('sqlite'), { backends: [], profile: 'embedded', docker: false, shard: null }).leftOut).toEqual([{ target: 'sqlite@3.53-vec0.1.9', reason: WHY }]);
});

test("without Docker a profile's targets not in its fallbackTargets are named as left out, with the reason; none with Docker or --backend", () => {
  const c = loadCatalog();
  const noDocker = selectTargets(c, { backends: [], profile: 'pr-gate', docker: false, shard: null });
  expect(noDocker.targets.map((t) => t.name)).toEqual(['pgvector@pglite-pg16', 'pgvector@pglite-pg18']);
  const reason = 'no Docker engine answers: profile pr-gate runs its fallbackTargets (pgvector@pglite-pg16, pgvector@pglite-pg18) instead of its targets';
  expect(noDocker.leftOut).toEqual([
    { target: 'pgvector@pg17', reason },
    { target: 'pgvector@pg18', reason },
  ]);
  // A shard names them too (merge keeps one of each).
  expect(selectTargets(c, { backends: [], profile: 'pr-gate', docker: false, shard: { index: 2, count: 2 } }).leftOut).toEqual(noDocker.leftOut);
  expect(selectTargets(c, { backends: [], profile: 'pr-gate', docker: true, shard: null }).leftOut).toEqual([]);
  expect(selectTargets(c, { backends: ['pgvector@pglite-pg18'], profile: 'pr-gate', docker: false, shard: null }).leftOut).toEqual([]);
});

test('a profile with no target left: USAGE naming each and why', () => {
  const c = without('chroma');
  expect(() => selectTargets(c, { backends: [], profile: 'chroma', docker: true, shard: null })).toThrow(
    expect.objectContaining({ code: 'USAGE', message: `profile chroma: no target can run: chroma@1.0, chroma@1.4: ${WHY.replace(/sqlite/g, 'chroma')}` }),
  );
});

test('--backend naming one: TARGET_UNAVAILABLE with the package to install', () => {
  const c = without('sqlite');
  expect(() => resolveTarget(c, 'sqlite@3.53-vec0.1.9')).toThrow(expect.objectContaining({ code: 'TARGET_UNAVAILABLE', message: `target sqlite@3.53-vec0.1.9: ${WHY}` }));
  expect(() => selectTargets(c, { backends: ['sqlite@3.53-vec0.1.9'], profile: 'default', docker: false, shard: null })).toThrow(expect.objectContaining({ code: 'TARGET_UNAVAILABLE' }));
});

test('in the repository every adapter is installed: nothing is unavailable', () => {
  expect([...loadCatalog().unavailable.keys()]).toEqual([]);
});
