import { scanConformance, type MemoryRecord } from '@memory-matrix/spec';
import { createPgvectorStore, fromPGlite, type PGliteLike, type PgvectorStore } from '../src';
import { clusteredVectors, records } from './helpers/data';
import { ENGINES, openEngine } from './helpers/engines';

/**
 * `scan` (keyset pagination in UTF-8 byte order) on real PGlite, both engines: paging complete at
 * page sizes 1, 7, 100 and 10,000, no duplicates, values exact (text incl. CJK/emoji, falsy
 * metadata, µs createdAt, float32 bit-exact), ids whose UTF-16 and byte orders differ.
 */
const DIM = 16;
const base = records(clusteredVectors(240, DIM, 7, 5));
const odd: MemoryRecord[] = [
  { ...base[0]!, id: 'z\u{1F600}', text: 'emoji id 🧠 記憶', createdAt: '2024-05-01T09:30:00.123456Z' },
  { ...base[1]!, id: 'z\uFF5E', text: '', metadata: { zero: 0, empty: '', no: false, nil: null } },
  { ...base[2]!, id: 'Z', text: 'upper case sorts before lower in bytes' },
];
const data = [...base, ...odd];

describe.each(ENGINES)('scan on %s', (engine) => {
  let db: PGliteLike;
  let store: PgvectorStore;
  beforeAll(async () => {
    db = await openEngine(engine);
    store = await createPgvectorStore(fromPGlite(db));
  }, 60_000);
  afterAll(async () => {
    await store?.close();
    await db?.close();
  });

  test('pages are complete, in byte order, without duplicates, values exact', async () => {
    const coll = await store.createCollection({ name: `scan_${process.pid}`, dim: DIM, metric: 'cosine', index: { type: 'none' } });
    await coll.upsert(data);
    expect(await scanConformance(coll, data)).toEqual([]);
    const first = await coll.scan!({ limit: 3 });
    expect(first.map((r) => r.id)).toEqual(['Z', 'm00000', 'm00001']);
    const last = await coll.scan!({ after: 'm00239', limit: 5 });
    expect(last.map((r) => r.id)).toEqual(['z\uFF5E', 'z\u{1F600}']); // U+FF5E < U+1F600 in bytes, not in UTF-16
  }, 60_000);

  test('an empty table scans to []; a bad limit is INVALID_INPUT', async () => {
    const coll = await store.createCollection({ name: `scan_empty_${process.pid}`, dim: DIM, metric: 'cosine', index: { type: 'none' } });
    expect(await coll.scan!({ limit: 10 })).toEqual([]);
    await expect(coll.scan!({ limit: 1.5 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
