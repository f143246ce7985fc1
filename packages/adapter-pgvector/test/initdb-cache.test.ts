/**
 * The PGlite initdb cache (src/driver/initdb-cache.ts): its key, its atomic write, and that a file
 * whose sha256 does not match is never loaded (it is removed). test/pgvector.test.ts and the
 * embedded cells start PGlite through it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pgliteEngines } from '../src/driver/embedded';
import { initdbCacheEnabled, initdbCacheFile, readInitdbCache, writeInitdbCache } from '../src/driver/initdb-cache';

const made: string[] = [];
const dir = (): string => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'mm-initdb-test-'));
  made.push(d);
  return d;
};
afterAll(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));

test('keyed by the engine and every engine package version', () => {
  expect(path.basename(initdbCacheFile('pglite-0.5', { pglite: '0.5.14', 'pglite-pgvector': '0.0.15' }, '/c'))).toBe('pglite-0.5-pglite@0.5.14-pglite-pgvector@0.0.15-f1.pgdata');
  expect(initdbCacheFile('pglite-0.2', { pglite: '0.2.17' }, '/c')).not.toBe(initdbCacheFile('pglite-0.2', { pglite: '0.2.18' }, '/c'));
});

test('written atomically and read back verified', () => {
  const d = dir();
  const file = initdbCacheFile('e', { p: '1' }, path.join(d, 'sub'));
  expect(readInitdbCache(file)).toBeUndefined(); // none yet
  const tar = Buffer.from('a tarball of a fresh cluster');
  writeInitdbCache(file, tar);
  expect(readdirSync(path.dirname(file))).toEqual([path.basename(file)]); // no temp file left
  expect(readInitdbCache(file)).toEqual(tar);
});

test.each<[string, (raw: Buffer) => Buffer]>([
  ['a changed byte', (raw) => Buffer.concat([raw.subarray(0, raw.length - 1), Buffer.from('!')])],
  ['a torn file', (raw) => raw.subarray(0, 70)],
  ['no header', () => Buffer.from('tar only')],
])('%s: not loaded, removed', (_, spoil) => {
  const d = dir();
  const file = initdbCacheFile('e', { p: '1' }, d);
  writeInitdbCache(file, Buffer.from('a tarball of a fresh cluster'));
  writeFileSync(file, spoil(readFileSync(file)));
  expect(readInitdbCache(file)).toBeUndefined();
  expect(readdirSync(d)).toEqual([]);
});

test('MM_PGLITE_INITDB_CACHE=0 turns it off', () => {
  expect(initdbCacheEnabled({})).toBe(true);
  expect(initdbCacheEnabled({ MM_PGLITE_INITDB_CACHE: '0' })).toBe(false);
});

test('a real PGlite 0.5 engine writes the cache, and a start from it is a working cluster with the vector extension', async () => {
  const where = 'initdb-cache.test (embedded pglite-0.5)';
  const engine = pgliteEngines.engines['pglite-0.5']!;
  const versions = engine.preflight(where);
  const file = initdbCacheFile('pglite-0.5', versions);
  const first = await engine.open({ where }); // from the cache when an earlier run left one, else writes it
  await first.close();
  expect(readInitdbCache(file)).toBeDefined();
  const again = await engine.open({ where });
  try {
    const v = await again.versions(); // CREATE EXTENSION vector on the loaded cluster
    expect(v.serverVersion).toMatch(/^PostgreSQL 18\./);
    expect(v.components).toMatchObject({ pgvector: '0.8.7' });
  } finally {
    await again.close();
  }
}, 180_000);
