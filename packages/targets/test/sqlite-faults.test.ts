/**
 * The SQLite store as a fault target (embedded target sqlite@…, engine faultProcess): a process of
 * its own that owns the file, started by the local fault instance. Real processes, real files: the
 * catalog gives `faults`; every durability configuration's PRAGMAs are in effect; SIGKILL mid-call
 * rejects with a code and a restart on the same file has every acknowledged write, bit for bit;
 * SIGSTOP surfaces as the client's time limit; a cut connection while a write is in flight; two
 * processes on one file at once (sharedStorage); another process holding the write lock past
 * busy_timeout (holdWriteLock); bad settings fail the start naming the setting;
 * nothing left afterwards (directories, processes). Needs no Docker.
 */
import { existsSync } from 'node:fs';
import { hasCode, type FaultControl, type MemoryRecord } from '@memory-matrix/spec';
import { loadCatalog } from '../src/catalog';
import { localFaultControl } from '../src/faults';

const catalog = loadCatalog();
const TARGET = catalog.targets.get('sqlite@3.53-vec0.1.9')!;
const SPEC = { name: 'faults', dim: 32, metric: 'cosine' as const, index: { type: 'none' as const } };
const rec = (i: number): MemoryRecord => ({
  id: `m-${String(i).padStart(5, '0')}`,
  namespace: `u${i % 7}`,
  text: `memory ${i} — 記憶 🧠`,
  kind: 'fact',
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: { i, zero: 0, empty: '', no: false, nil: null },
  embedding: Float32Array.from({ length: 32 }, (_, d) => Math.fround(Math.sin(i * 0.37 + d) * 1e-3) + (d === i % 32 ? 2 : 0)),
});
const records = (from: number, n: number): MemoryRecord[] => Array.from({ length: n }, (_, k) => rec(from + k));
const bytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('hex');

let fc: FaultControl;
beforeEach(() => {
  fc = localFaultControl(TARGET);
});
afterEach(() => fc.dispose());

test('the catalog gives the sqlite target faults (not upgrade) and the three journal configurations', () => {
  expect(TARGET.capabilities.faults).toBe(true);
  expect(TARGET.capabilities.upgrade).toBe(false);
  expect(TARGET.durability!.map((c) => [c.name, c.settings])).toEqual([
    ['wal-normal', { journal_mode: 'WAL', synchronous: 'NORMAL' }],
    ['wal-full', { journal_mode: 'WAL', synchronous: 'FULL' }],
    ['delete-full', { journal_mode: 'DELETE', synchronous: 'FULL' }],
  ]);
  expect(fc.sharedStorage).toBe(true);
});

test.each([
  ['wal-normal', 'wal', 'NORMAL'],
  ['wal-full', 'wal', 'FULL'],
  ['delete-full', 'delete', 'FULL'],
])(
  '%s: the process applies journal_mode %s and synchronous %s (PRAGMA on a new connection)',
  async (name, journal, sync) => {
    const ft = await fc.start(name);
    expect(ft.effective).toMatchObject({ journal_mode: journal, synchronous: sync, busy_timeout: '5000' });
  },
  60_000,
);

test('kill -9 mid-call rejects with a code; after a restart on the same file every acknowledged write is there, bit for bit', async () => {
  const ft = await fc.start('wal-full');
  const s = await ft.connect({ timeouts: { connectMs: 5_000, queryMs: 30_000 } });
  const c = await s.createCollection(SPEC);
  await c.upsert(records(0, 40));
  const inFlight = c.upsert(records(40, 2_000));
  const settled = inFlight.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  await ft.kill();
  const outcome = await settled;
  if (outcome !== 'resolved') expect(hasCode(outcome, 'BACKEND_ERROR')).toBe(true); // the write was cut (it may also have been answered first)
  await expect(c.count()).rejects.toMatchObject({ code: 'BACKEND_ERROR' }); // the connection died with the process
  await ft.restart();
  const r = await ft.connect({});
  const back = await (await r.openCollection(SPEC.name)).get(records(0, 40).map((x) => x.id));
  expect(back.map((x) => [x.id, x.text, x.metadata, bytes(x.embedding)])).toEqual(records(0, 40).map((x) => [x.id, x.text, x.metadata, bytes(x.embedding)]));
  const n = await (await r.openCollection(SPEC.name)).count();
  expect([40, 2_040]).toContain(n); // the in-flight batch is all there or absent, never partial
  await expect(r.openCollection('nope')).rejects.toMatchObject({ code: 'COLLECTION_MISSING' });
}, 90_000);

test('SIGSTOP: a call ends with the client time limit (BACKEND_ERROR); after SIGCONT the process answers', async () => {
  const ft = await fc.start('wal-normal');
  const s = await ft.connect({ timeouts: { connectMs: 2_000, queryMs: 800 } });
  const c = await s.createCollection(SPEC);
  await c.upsert(records(0, 5));
  await ft.pause();
  try {
    await expect(c.count()).rejects.toMatchObject({ code: 'BACKEND_ERROR', message: expect.stringContaining('no answer from the store process within 800 ms') });
  } finally {
    await ft.unpause();
  }
  expect(await c.count()).toBe(5);
}, 60_000);

test('a cut connection while a write is in flight: the write rejects with a code, the store stays consistent, the retry on the same client lands', async () => {
  const ft = await fc.start('wal-normal');
  const s = await ft.connect({ clientName: 'mm-test-drop', timeouts: { queryMs: 30_000 } });
  const c = await s.createCollection(SPEC);
  const write = c.upsert(records(0, 3_000));
  const settled = write.then(
    () => null,
    (e: unknown) => e,
  );
  await ft.awaitWriteInFlight('mm-test-drop', 15_000);
  expect(await ft.dropConnections('mm-test-drop')).toBe(1);
  expect(hasCode(await settled, 'BACKEND_ERROR')).toBe(true);
  const r = await (await ft.connect({})).openCollection(SPEC.name);
  expect([0, 3_000]).toContain(await r.count());
  await c.upsert(records(0, 3_000)); // the cut client connects again on its next request, as a pool would
  expect(await r.count()).toBe(3_000);
}, 60_000);

test('sharedStorage: a second process on the running instance’s file sees its writes; foreign storageOf and unknown names are refused', async () => {
  const a = await fc.start('wal-normal');
  const b = await fc.start('wal-normal', { storageOf: a });
  const ca = await (await a.connect({})).createCollection(SPEC);
  await ca.upsert(records(0, 10));
  const cb = await (await b.connect({})).openCollection(SPEC.name);
  await cb.upsert(records(10, 10));
  expect(await ca.count()).toBe(20);
  await expect(fc.start('nope')).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  const other = localFaultControl(TARGET);
  try {
    await expect(other.start('wal-normal', { storageOf: a })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  } finally {
    await other.dispose();
  }
  const dir = (a as unknown as { hostDataDir: string }).hostDataDir;
  await b.stop();
  expect(existsSync(dir)).toBe(true); // the sharing process never removes the owner's file
  await a.stop();
  expect(existsSync(dir)).toBe(false);
}, 90_000);

test('holdWriteLock: another process holds the write lock; a write waits out busy_timeout and fails SQLITE_BUSY, all or nothing; after release it lands', async () => {
  const a = await fc.start('wal-normal');
  const b = await fc.start('wal-normal', { storageOf: a });
  const col = await (await a.connect({})).createCollection(SPEC);
  expect(typeof b.holdWriteLock).toBe('function');
  const hold = await b.holdWriteLock!();
  try {
    expect(hold.waitLimitMs).toBe(5_000);
    const t0 = performance.now();
    const refused = await col.upsert(records(0, 5)).then(
      () => null,
      (e: unknown) => e,
    );
    const waited = performance.now() - t0;
    expect(refused).toMatchObject({ code: 'BACKEND_ERROR', cause: { code: 'SQLITE_BUSY' } });
    expect(waited).toBeGreaterThanOrEqual(4_900); // it waited out busy_timeout first
    expect(await col.count()).toBe(0); // a read is not blocked (WAL), and nothing of the batch landed
  } finally {
    await hold.release();
  }
  await hold.release(); // idempotent
  await col.upsert(records(0, 5));
  expect(await col.count()).toBe(5);
}, 60_000);

test('a configuration with settings SQLite journal modes do not include fails the start naming the setting (TARGET_UNAVAILABLE)', async () => {
  const bad = localFaultControl({ ...TARGET, durability: [{ name: 'memory', durable: false, settings: { journal_mode: 'MEMORY' } }] });
  try {
    await expect(bad.start('memory')).rejects.toMatchObject({ code: 'TARGET_UNAVAILABLE', message: expect.stringContaining('journal_mode: "MEMORY" is not supported') });
  } finally {
    await bad.dispose();
  }
}, 60_000);
