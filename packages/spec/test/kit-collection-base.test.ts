// The adapter kit's collection base (src/kit/collection-base.ts): what KitCollection does before and
// after the store's primitives — checks first, last write wins, asked order, the recall pipeline.
// The store here is a Map: the base is pure logic over its primitives (adapters run it on real stores).
import { validateRecallFilter, validateIdList, validateMemoryRecord, validateRecallQuery } from '../src/record-validation';
import { checksFrom, KitCollection, type CollectionStyle, type RankSource } from '../src/kit/collection-base';
import type { CollectionSpec, MemoryRecord, RecallFilter, RecallHit, RecallQuery } from '../src/types';

const RULES = { adapter: 'mapstore' };
const SPEC: CollectionSpec = { name: 'c1', dim: 2, metric: 'cosine', index: { type: 'none' } } as CollectionSpec;
const v = {
  validateRecord: (r: MemoryRecord, i: number, dim: number, metric: CollectionSpec['metric'], scope: string) => validateMemoryRecord(r, i, dim, metric, `table ${scope}`, RULES),
  validateIds: (ids: unknown, where: string) => validateIdList(ids, where, RULES),
  validateFilter: (f: RecallFilter | undefined, where: string) => validateRecallFilter(f, where, RULES),
  validateQuery: (q: RecallQuery, dim: number, metric: CollectionSpec['metric'], scope: string) => validateRecallQuery(q, dim, metric, `table ${scope}`, RULES),
};

/** Records in a Map; logs what reached each primitive. */
class MapCollection extends KitCollection {
  readonly rows = new Map<string, MemoryRecord>();
  readonly writes: Array<{ ids: string[]; positions: number[] }> = [];
  constructor(
    readonly spec: CollectionSpec,
    style: Partial<CollectionStyle>,
    private readonly src?: Partial<RankSource>,
  ) {
    super({ adapter: 'mapstore', scope: 'table c1', ...style }, checksFrom(v, spec, 'c1'));
  }
  protected async writeBatch(records: MemoryRecord[], positions: number[]) {
    this.writes.push({ ids: records.map((r) => r.id), positions });
    for (const r of records) this.rows.set(r.id, r);
  }
  protected async readByIds(ids: string[]) {
    return ids.flatMap((id) => (this.rows.has(id) ? [this.rows.get(id)!] : [])).reverse();
  }
  protected async removeIds(ids: string[]) {
    return ids.filter((id) => this.rows.delete(id)).length;
  }
  protected async countWhere() {
    return this.rows.size;
  }
  protected recallChecked(q: RecallQuery): Promise<RecallHit[]> {
    return this.rankOrDecay(q, this.decayOf(q), { total: async () => this.rows.size, nearest: async () => [], ...this.src });
  }
  async buildIndex() {}
}

const rec = (id: string, text = id): MemoryRecord => ({ id, namespace: 'n', kind: 'fact', text, createdAt: '2026-01-01T00:00:00.000Z', metadata: {}, embedding: new Float32Array([1, 0]) });

describe('KitCollection', () => {
  test('upsert: the last record of an id wins, in first or last order, with its position in the call', async () => {
    const first = new MapCollection(SPEC, {});
    await first.upsert([rec('a', 'a1'), rec('b'), rec('a', 'a2')]);
    expect(first.writes).toEqual([{ ids: ['a', 'b'], positions: [2, 1] }]);
    expect(first.rows.get('a')!.text).toBe('a2');
    const last = new MapCollection(SPEC, { repeatedIds: 'last' });
    await last.upsert([rec('a', 'a1'), rec('b'), rec('a', 'a2')]);
    expect(last.writes).toEqual([{ ids: ['b', 'a'], positions: [1, 2] }]);
    const none = new MapCollection(SPEC, { repeatedIds: 'none' });
    await none.upsert([rec('a', 'a1'), rec('a', 'a2')]);
    expect(none.writes).toEqual([{ ids: ['a', 'a'], positions: [0, 1] }]);
  });

  test('upsert: not an array, or one bad record, fails with nothing written; an empty call writes nothing', async () => {
    const c = new MapCollection(SPEC, { arrayVerb: 'needs' });
    await expect(c.upsert('x' as never)).rejects.toThrow('mapstore: table c1: upsert needs an array of records');
    await expect(c.upsert([rec('a'), { ...rec('b'), embedding: new Float32Array([1]) }])).rejects.toMatchObject({ code: 'DIMENSION_MISMATCH' });
    await c.upsert([]);
    expect(c.writes).toEqual([]);
  });

  test('get in the order asked, each id once; delete counts each id once; bad ids are INVALID_INPUT naming the call', async () => {
    const c = new MapCollection(SPEC, {});
    await c.upsert([rec('a'), rec('b'), rec('c')]);
    expect((await c.get(['c', 'x', 'a', 'c'])).map((r) => r.id)).toEqual(['c', 'a']);
    expect(await c.get([])).toEqual([]);
    expect(await c.delete(['a', 'a', 'x'])).toBe(1);
    await expect(c.get([1] as never)).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringContaining('table c1: get') });
    expect(await c.count()).toBe(2);
  });

  test('recall: margin top k cut at k after minScore; widen doubles while the k-th ties the last; decay re-ranks with createdAt', async () => {
    const hits = Array.from({ length: 40 }, (_, i) => ({ id: `h${String(i).padStart(2, '0')}`, score: i < 30 ? 0.5 : 0.1, createdAt: '2026-01-01T00:00:00.000Z' }));
    const asked: number[] = [];
    const nearest = async (n: number) => (asked.push(n), hits.slice(0, n));
    const q = { vector: new Float32Array([1, 0]), k: 2 } as RecallQuery;
    expect((await new MapCollection(SPEC, {}, { nearest }).recall({ ...q, minScore: 0.2 })).map((h) => h.id)).toEqual(['h00', 'h01']);
    expect(asked).toEqual([18]);
    asked.length = 0;
    await new MapCollection(SPEC, {}, { nearest, topK: 'widen' }).recall(q);
    expect(asked).toEqual([18, 36]);
    const decayed = await new MapCollection(SPEC, {}, { nearest, total: async () => 40 }).recall({ ...q, decay: { fn: 'exponential', halfLifeMs: 1000 }, now: '2026-01-01T00:00:01.000Z' });
    expect(decayed.map((h) => [h.id, h.score])).toEqual([
      ['h00', 0.25],
      ['h01', 0.25],
    ]);
    await expect(new MapCollection(SPEC, {}).recall({ ...q, k: 0 })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
