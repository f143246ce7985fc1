/**
 * The selftest mutants (src/selftest/mutants): each changes exactly what its docstring says and
 * nothing else. They wrap a real contract implementation — the toy driver's in-memory store
 * (fixtures/toy-driver), which is written against the spec contract only — and every answer of a
 * wrapped collection is compared with the same call on the unwrapped one. No backend server.
 */
import { capabilities, MemoryMatrixError, type ChatHistory, type HistoryOptions, type MemoryCollection, type MemoryStore } from '@memory-matrix/spec';
import { faultStore, MUTANTS, selectMutants, type Mutant } from '../src/selftest/mutants';
import { DEFAULT_CHUNK } from '../src/selftest/mutants/batch';
import { insertionOrderTies, reverseTies } from '../src/selftest/mutants/ties';
import { roundVector } from '../src/selftest/mutants/vectors';
import { byName, rec, RECORDS, setup, v } from './fixtures/mutant-helpers';
import { TOY_CAPABILITIES } from './fixtures/toy-driver';

describe('the mutant list', () => {
  test('names are unique kebab-case; each has a family and a bug line', () => {
    const names = MUTANTS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const m of MUTANTS) {
      expect(m.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(m.family).toBeTruthy();
      expect(m.bug.length).toBeGreaterThan(10);
    }
    expect(names.length).toBeGreaterThanOrEqual(20);
  });

  test('selectMutants: all when none named, in MUTANTS order; an unknown name is USAGE naming it', () => {
    expect(selectMutants([]).map((m) => m.name)).toEqual(MUTANTS.map((m) => m.name));
    expect(selectMutants(['ties-reversed', 'score-as-distance']).map((m) => m.name)).toEqual(['score-as-distance', 'ties-reversed']);
    expect(() => selectMutants(['nope'])).toThrow(expect.objectContaining({ code: 'USAGE', message: expect.stringContaining('"nope"') }));
  });

  test('requires: n/a with the missing capability (the toy store has no history, ttl, timeDecay)', () => {
    expect(byName('history-bad-payload-empty').requires(TOY_CAPABILITIES)).toBe('capability: history');
    expect(byName('ttl-missing-one-key').requires(TOY_CAPABILITIES)).toBe('capability: history');
    expect(byName('decay-age-seconds').requires(TOY_CAPABILITIES)).toBe('capability: timeDecay');
    expect(byName('score-as-distance').requires(TOY_CAPABILITIES)).toBeNull();
  });
});

describe('recall mutants change the hits as they say, nothing else', () => {
  const q = { vector: v(1, 0), k: 3 };
  const recallBoth = async (name: string, query: Parameters<MemoryCollection['recall']>[0] = q) => {
    const { real, faulty } = await setup(byName(name));
    await real.upsert(RECORDS);
    return { real: await real.recall(query), faulty: await faulty.recall(query), realColl: real };
  };

  test('score-as-distance: 1 − s, same ids and order', async () => {
    const { real, faulty } = await recallBoth('score-as-distance');
    expect(faulty).toEqual(real.map((h) => ({ id: h.id, score: 1 - h.score })));
  });

  test('score-half-scale: (1 + s) / 2', async () => {
    const { real, faulty } = await recallBoth('score-half-scale');
    expect(faulty).toEqual(real.map((h) => ({ id: h.id, score: (1 + h.score) / 2 })));
  });

  test('k-minus-one / k-plus-one: one hit fewer / more, the rest identical', async () => {
    const minus = await recallBoth('k-minus-one');
    expect(minus.faulty).toEqual(minus.real.slice(0, 2));
    const plus = await recallBoth('k-plus-one');
    expect(plus.faulty).toEqual(await plus.realColl.recall({ ...q, k: 4 }));
    expect(plus.faulty).toHaveLength(4);
  });

  test('ties-reversed: only runs of equal scores are reversed', async () => {
    const { real, faulty } = await recallBoth('ties-reversed');
    expect(real.map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(faulty.map((h) => h.id)).toEqual(['b', 'a', 'c']);
    expect(
      reverseTies([
        { id: 'x', score: 2 },
        { id: 'y', score: 1 },
        { id: 'z', score: 1 },
        { id: 'w', score: 0.5 },
      ]).map((h) => h.id),
    ).toEqual(['x', 'z', 'y', 'w']);
  });

  test('ties-by-insertion: runs of equal scores come in the order the ids were first written, the rest as it was', async () => {
    const { real, faulty } = await setup(byName('ties-by-insertion'));
    await faulty.upsert([RECORDS[2]!, RECORDS[1]!]); // c, b
    await faulty.upsert([RECORDS[0]!, RECORDS[1]!, RECORDS[3]!]); // a (new), b again (first write kept), d
    const q = { vector: v(1, 0), k: 3 };
    expect((await real.recall(q)).map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect((await faulty.recall(q)).map((h) => h.id)).toEqual(['b', 'a', 'c']);
    const seq = new Map([
      ['z', 0],
      ['y', 1],
    ]);
    const hits = [
      { id: 'x', score: 2 },
      { id: 'y', score: 1 },
      { id: 'z', score: 1 },
      { id: 'a', score: 1 },
      { id: 'w', score: 0.5 },
    ];
    expect(insertionOrderTies(hits, seq).map((h) => h.id)).toEqual(['x', 'z', 'y', 'a', 'w']);
  });

  test('min-score-exclusive: only the hits exactly at minScore are dropped', async () => {
    const { realColl } = await recallBoth('min-score-exclusive');
    const t = (await realColl.recall({ vector: v(1, 0), k: 5 })).find((h) => h.id === 'c')!.score;
    const { real, faulty } = await recallBoth('min-score-exclusive', { vector: v(1, 0), k: 5, minScore: t });
    expect(real.map((h) => h.id)).toEqual(['a', 'b', 'c']);
    expect(faulty.map((h) => h.id)).toEqual(['a', 'b']);
    const noThreshold = await recallBoth('min-score-exclusive');
    expect(noThreshold.faulty).toEqual(noThreshold.real);
  });

  test('filter-dropped: the filter is ignored', async () => {
    const query = { vector: v(0, 1), k: 2, filter: { namespaces: ['ns1'] } };
    const { faulty, realColl } = await recallBoth('filter-dropped', query);
    expect(faulty).toEqual(await realColl.recall({ vector: v(0, 1), k: 2 }));
  });

  test('filter-after-topk: the unfiltered top k, then the non-matching removed', async () => {
    const query = { vector: v(0, 1), k: 2, filter: { namespaces: ['ns1'] } };
    const { real, faulty } = await recallBoth('filter-after-topk', query);
    expect(real.map((h) => h.id)).toEqual(['e', 'a']); // ns1 by score: e (0.8), then the a/b tie at 0 → a
    expect(faulty.map((h) => h.id)).toEqual(['e']); // top 2 unfiltered: d (ns2), e (ns1)
  });

  test('namespace-leak-recall: the namespaces part of the filter is dropped, kinds kept', async () => {
    const query = { vector: v(0, 1), k: 2, filter: { namespaces: ['ns1'], kinds: ['fact' as const] } };
    const { faulty, realColl } = await recallBoth('namespace-leak-recall', query);
    expect(faulty).toEqual(await realColl.recall({ vector: v(0, 1), k: 2, filter: { kinds: ['fact'] } }));
  });
});

describe('write and read mutants', () => {
  test('last-chunk-dropped: above one chunk every chunk but the last lands; up to one chunk everything', async () => {
    const { real, faulty } = await setup(byName('last-chunk-dropped'));
    const many = Array.from({ length: DEFAULT_CHUNK * 2 + 5 }, (_, i) => rec(`m${String(i).padStart(4, '0')}`, 'ns', v(1, i + 1)));
    await faulty.upsert(many);
    expect(await real.count()).toBe(DEFAULT_CHUNK * 2);
    await faulty.upsert(RECORDS);
    expect(await real.count()).toBe(DEFAULT_CHUNK * 2 + RECORDS.length);
    const { real: r2, faulty: f2 } = await setup(byName('last-chunk-dropped'), capabilities({ ...TOY_CAPABILITIES, maxBatch: 2 }));
    await f2.upsert(RECORDS);
    expect((await r2.get(RECORDS.map((r) => r.id))).map((r) => r.id)).toEqual(['a', 'b', 'c', 'd']);
  });

  test('falsy-metadata-lost: 0, false and "" keys are gone, null and truthy kept', async () => {
    const { real, faulty } = await setup(byName('falsy-metadata-lost'));
    await faulty.upsert([RECORDS[0]!]);
    expect((await real.get(['a']))[0]!.metadata).toEqual({ n: 1, nil: null });
  });

  test('vectors-rounded: components rounded to 2 decimals on write', async () => {
    const { real, faulty } = await setup(byName('vectors-rounded'));
    await faulty.upsert([rec('x', 'ns', v(0.123456, 0.98765))]);
    expect(Array.from((await real.get(['x']))[0]!.embedding)).toEqual(Array.from(v(0.12, 0.99)));
    expect(Array.from(roundVector(v(-0.005, 1.2345)))).toEqual(Array.from(v(-0, 1.23)));
  });

  test('upsert-keeps-old: an existing id gets the new embedding with the old text and metadata; new ids as given', async () => {
    const { real, faulty } = await setup(byName('upsert-keeps-old'));
    await faulty.upsert([RECORDS[0]!]);
    await faulty.upsert([{ ...RECORDS[0]!, text: 'new', metadata: { n: 2 }, embedding: v(0, 1) }, RECORDS[1]!]);
    const [a, b] = await real.get(['a', 'b']);
    expect(a).toMatchObject({ text: 'text of a', metadata: RECORDS[0]!.metadata });
    expect(Array.from(a!.embedding)).toEqual([0, 1]);
    expect(b).toEqual(RECORDS[1]);
  });

  test('get-database-order: the records sorted by id instead of the order asked', async () => {
    const { real, faulty } = await setup(byName('get-database-order'));
    await real.upsert(RECORDS);
    expect((await real.get(['d', 'a', 'zz', 'c'])).map((r) => r.id)).toEqual(['d', 'a', 'c']);
    expect((await faulty.get(['d', 'a', 'zz', 'c'])).map((r) => r.id)).toEqual(['a', 'c', 'd']);
  });

  test('writes-visible-late: an upsert resolves unseen; the next read answers without it and writes it; the read after sees it; a write first writes it', async () => {
    const { real, faulty } = await setup(byName('writes-visible-late'));
    await faulty.upsert(RECORDS.slice(0, 2));
    expect(await real.count()).toBe(0); // acknowledged, not written
    expect(await faulty.get(['a', 'b'])).toEqual([]); // the very next read misses it…
    expect((await faulty.get(['a', 'b'])).map((r) => r.id)).toEqual(['a', 'b']); // …the one after sees it
    await faulty.upsert([RECORDS[2]!]);
    expect(await faulty.count()).toBe(2);
    expect(await faulty.count()).toBe(3);
    await faulty.upsert([RECORDS[3]!]);
    expect(await faulty.delete(['d'])).toBe(1); // a write first writes the buffer: writes stay in order
    expect((await real.get(['d'])).length).toBe(0);
    await faulty.upsert([RECORDS[4]!]);
    expect((await faulty.recall({ vector: v(0.6, 0.8), k: 5, scan: 'exact' })).some((h) => h.id === 'e')).toBe(false);
    expect((await real.get(['e'])).length).toBe(1);
  });

  test('namespace-leak-count: count ignores the namespaces part', async () => {
    const { real, faulty } = await setup(byName('namespace-leak-count'));
    await real.upsert(RECORDS);
    expect(await real.count({ namespaces: ['ns2'] })).toBe(2);
    expect(await faulty.count({ namespaces: ['ns2'] })).toBe(5);
    expect(await faulty.count()).toBe(5);
  });

  test('namespace-leak-delete: one memory of another namespace goes too; the count reported is the asked one', async () => {
    const { real, faulty } = await setup(byName('namespace-leak-delete'));
    await real.upsert(RECORDS);
    expect(await faulty.delete(['a', 'b'])).toBe(2);
    const left = await real.get(RECORDS.map((r) => r.id));
    expect(left.map((r) => r.id)).toHaveLength(2); // c, d, e minus one of ns2
    expect(left.some((r) => r.id === 'e')).toBe(true); // ns1's own other memory is not the victim
  });

  test('delete-keeps-rows: delete reports how many of the asked ids are stored (each once) and removes nothing', async () => {
    const { real, faulty } = await setup(byName('delete-keeps-rows'));
    await real.upsert(RECORDS);
    expect(await faulty.delete(['a', 'b', 'zz', 'a'])).toBe(2);
    expect(await real.count()).toBe(RECORDS.length);
    expect((await real.get(RECORDS.map((r) => r.id))).map((r) => r.id)).toEqual(RECORDS.map((r) => r.id));
    expect(await faulty.get(['a'])).toEqual([RECORDS[0]]); // every other method is the real one
  });
});

describe('history mutants (on a contract-level chat history)', () => {
  /** A minimal in-memory ChatHistory: a payload list and one TTL per key, as the contract describes. */
  function history(opts: HistoryOptions, payloads: string[]): ChatHistory {
    return {
      sessionId: opts.sessionId,
      keyPrefix: 'p:',
      append: async () => undefined,
      read: async () => {
        if (payloads.some((p) => !p.startsWith('{'))) throw new MemoryMatrixError('PAYLOAD_UNSUPPORTED', 'p:s index 0: not JSON');
        return [];
      },
      length: async () => payloads.length,
      trim: async () => 0,
      clear: async () => undefined,
      keys: async () => [
        { key: 'p:s', ttlMs: opts.ttlMs ?? null },
        { key: 'p:s:meta', ttlMs: opts.ttlMs ?? null },
      ],
      writeRaw: async () => undefined,
      readRaw: async () => payloads,
    };
  }
  const storeWith = (payloads: string[], mutant: Mutant): MemoryStore =>
    faultStore({ adapter: 'h', capabilities: TOY_CAPABILITIES, openHistory: async (o: HistoryOptions) => history(o, payloads) } as unknown as MemoryStore, mutant.fault(TOY_CAPABILITIES));

  test('history-bad-payload-empty: PAYLOAD_UNSUPPORTED becomes []', async () => {
    const h = await storeWith(['garbage'], byName('history-bad-payload-empty')).openHistory!({ sessionId: 's' });
    await expect(h.read()).resolves.toEqual([]);
    expect(await h.length()).toBe(1); // everything else untouched
  });

  test('ttl-missing-one-key: the first key lists no TTL when the session has one; none changed without ttlMs', async () => {
    const s = storeWith([], byName('ttl-missing-one-key'));
    expect(await (await s.openHistory!({ sessionId: 's', ttlMs: 5000 })).keys()).toEqual([
      { key: 'p:s', ttlMs: null },
      { key: 'p:s:meta', ttlMs: 5000 },
    ]);
    expect(await (await s.openHistory!({ sessionId: 's' })).keys()).toEqual([
      { key: 'p:s', ttlMs: null },
      { key: 'p:s:meta', ttlMs: null },
    ]);
  });
});
