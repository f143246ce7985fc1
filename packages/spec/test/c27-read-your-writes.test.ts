/**
 * C27 read-your-writes, its judging on values (no backend): the rounds it writes
 * (c27-rounds.ts), what counts as a read that does not reflect an acknowledged write
 * (c27-judge.ts `judgeRead`), which problems fail under each `readYourWrites` level, the skip
 * for `eventual`, and the capability's place in `missingCapabilities` / `offersCapability`.
 * The check itself runs on real targets through the CLI (`pnpm matrix --check C27`).
 */
import { capabilities, offersCapability } from '../src/capabilities';
import { missingCapabilities } from '../src/capabilities-missing';
import { needs } from '../src/checks/check';
import { bindingProblems, judgeRead, type C27Problem, type C27Read } from '../src/checks/c27-judge';
import { c27ReadYourWrites } from '../src/checks/c27-read-your-writes';
import { C27_MAX_LIVE, C27_MIN_MEMORIES, C27_RECALL_K, c27Rounds, type C27Round } from '../src/checks/c27-rounds';
import { referenceScore } from '../src/scores';
import type { MemoryRecord, RecallHit } from '../src/types';

const DIM = 8;
/** A unit-ish vector per i, all distinct and far apart. */
const vec = (i: number): Float32Array => Float32Array.from({ length: DIM }, (_, j) => (j === i % DIM ? 1 : 0) + (j === (i * 3 + 1) % DIM ? 0.5 : 0) + i * 0.01 * (j + 1));
const mem = (i: number): MemoryRecord => ({
  id: `mem-${String(i).padStart(3, '0')}`,
  namespace: 'u1',
  kind: 'fact',
  text: `memory ${i}`,
  createdAt: '2024-05-01T09:30:00.123Z',
  metadata: { i, flag: false },
  embedding: vec(i),
});
const MEMORIES = Array.from({ length: 20 }, (_, i) => mem(i));
const ROUNDS = c27Rounds('toy-set', MEMORIES, 'cosine', 1e-5);
const byRound = (n: number): C27Round => ROUNDS[n - 1]!;
const self = (r: MemoryRecord): RecallHit => ({ id: r.id, score: referenceScore('cosine', r.embedding, r.embedding) });
/** Recalls that see exactly the state after `round` (each hit scored as the stored version scores). */
function faithfulRead(round: C27Round, client: C27Read['client'] = 'same'): C27Read {
  const recalls: C27Read['recalls'] = [];
  if (round.op === 'upsert') {
    for (const r of round.records) recalls.push({ id: r.id, vector: 'written', scan: 'exact', hits: [self(r)] });
    for (const [id, old] of round.replaced ?? []) {
      const now = round.records.find((r) => r.id === id)!;
      recalls.push({ id, vector: 'old', scan: 'exact', hits: [{ id, score: referenceScore('cosine', old.embedding, now.embedding) }] });
    }
  } else for (const r of round.records) recalls.push({ id: r.id, vector: 'deleted', scan: 'exact', hits: [] });
  return { client, got: round.op === 'upsert' ? round.records.map((r) => ({ ...r })) : [], count: round.expectedCount, recalls };
}

describe('c27Rounds', () => {
  test('six rounds in fresh ids: single write, batch, overwrite of 2, delete 1, batch, delete 4; counts follow', () => {
    expect(ROUNDS.map((r) => [r.round, r.op, r.records.length, r.expectedCount])).toEqual([
      [1, 'upsert', 1, 1],
      [2, 'upsert', 5, 6],
      [3, 'upsert', 2, 6],
      [4, 'delete', 1, 5],
      [5, 'upsert', 3, 8],
      [6, 'delete', 4, 4],
    ]);
    const freshIds = [1, 2, 5].flatMap((n) => byRound(n).records.map((r) => r.id));
    expect(new Set(freshIds).size).toBe(freshIds.length);
    for (const n of [1, 2, 5]) for (const r of byRound(n).records) expect(r.id).toMatch(new RegExp(`^c27-r${n}-mem-`));
    expect(Math.max(...ROUNDS.map((r) => r.expectedCount))).toBe(C27_MAX_LIVE);
    expect(C27_MAX_LIVE).toBeLessThanOrEqual(C27_RECALL_K);
  });

  test('the overwrite replaces round 1’s id and one of round 2’s with a new embedding, text and metadata', () => {
    const r3 = byRound(3);
    expect([...r3.replaced!.keys()]).toEqual([byRound(1).records[0]!.id, byRound(2).records[1]!.id]);
    for (const r of r3.records) {
      const old = r3.replaced!.get(r.id)!;
      expect(r.text).not.toBe(old.text);
      expect(r.metadata).toMatchObject({ c27Version: 'new' });
      expect(Array.from(r.embedding)).not.toEqual(Array.from(old.embedding));
      expect(Math.abs(1 - referenceScore('cosine', old.embedding, r.embedding))).toBeGreaterThan(8e-5);
    }
    expect(byRound(6).records.map((r) => r.id)).toContain(r3.records[1]!.id); // round 6 deletes the overwritten version
  });

  test('deterministic; too few distinct embeddings is INVALID_INPUT naming the dataset and the need', () => {
    expect(c27Rounds('toy-set', MEMORIES, 'cosine', 1e-5)).toEqual(ROUNDS);
    const dup = Array.from({ length: 20 }, (_, i) => ({ ...mem(i), embedding: vec(i % 5) }));
    expect(() => c27Rounds('dups', dup, 'cosine', 1e-5)).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', message: `C27: dataset dups has 5 memories with distinct embeddings; its rounds need at least ${C27_MIN_MEMORIES}` }),
    );
  });
});

describe('judgeRead', () => {
  test('a read that reflects every write has no problem, in every round and for every client', () => {
    for (const round of ROUNDS) for (const c of ['same', 'other', 'new'] as const) expect(judgeRead(round, faithfulRead(round, c), 'cosine')).toEqual([]);
  });

  test('an upsert not seen by get, count and recall: each named with round, operation, client and id', () => {
    const round = byRound(2);
    const id = round.records[3]!.id;
    const read = faithfulRead(round, 'new');
    read.got = read.got.filter((r) => r.id !== id);
    read.count = 5;
    read.recalls = read.recalls.map((q) => (q.id === id ? { ...q, hits: [] } : q));
    const p = judgeRead(round, read, 'cosine');
    expect(p.map((x) => [x.read, x.id])).toEqual([
      ['get', id],
      ['count', undefined],
      ['recall', id],
    ]);
    expect(p.every((x) => x.round === 2 && x.op === 'upsert' && x.client === 'new')).toBe(true);
    expect(p[0]!.message).toBe(`round 2 (batch of 5): after the acknowledged upsert, client new (connected after the write was acknowledged): get did not return ${id}`);
    expect(p[1]!.message).toContain('count() is 5, expected 6');
    expect(p[2]!.message).toContain(`recall (exact scan, k ${C27_RECALL_K}) with its embedding did not return ${id} (0 hits)`);
  });

  test('an overwrite read back as the old version: get, recall with the new and with the old embedding', () => {
    const round = byRound(3);
    const [id, old] = [...round.replaced!][0]!;
    const read = faithfulRead(round, 'other');
    read.got = read.got.map((r) => (r.id === id ? old : r));
    read.recalls = read.recalls.map((q) => (q.id !== id ? q : { ...q, hits: [{ id, score: q.vector === 'old' ? 1 : referenceScore('cosine', round.records[0]!.embedding, old.embedding) }] }));
    const p = judgeRead(round, read, 'cosine');
    expect(p.map((x) => [x.read, x.id, x.client])).toEqual([
      ['get', id, 'other'],
      ['recall', id, 'other'],
      ['recall', id, 'other'],
    ]);
    expect(p[0]!.message).toContain(`get returned the OLD version of ${id}`);
    expect(p[1]!.message).toContain(`with its new embedding scored ${id} as the OLD version`);
    expect(p[2]!.message).toContain(`with its replaced embedding still scored ${id} as the OLD version`);
  });

  test('a changed payload on get is named with the field', () => {
    const round = byRound(1);
    const read = faithfulRead(round);
    read.got = [{ ...read.got[0]!, metadata: { ...read.got[0]!.metadata, flag: 0 } }];
    expect(judgeRead(round, read, 'cosine')[0]!.message).toMatch(/get returned c27-r1-mem-\d+ other than written: metadata.flag expected false \(boolean\) got 0 \(number\)/);
  });

  test('embeddingReadBack false: get without vectors reflects the writes; the old version is still told by its payload', () => {
    const noVector = (r: MemoryRecord): MemoryRecord => ({ ...r, embedding: new Float32Array(0) });
    for (const round of ROUNDS) {
      const read = faithfulRead(round);
      read.got = read.got.map(noVector);
      expect(judgeRead(round, read, 'cosine', undefined, false)).toEqual([]);
      expect(judgeRead(round, read, 'cosine').length).toBe(read.got.length); // the vector is compared by default
    }
    const round = byRound(3);
    const [id, old] = [...round.replaced!][0]!;
    const read = faithfulRead(round);
    read.got = read.got.map((r) => noVector(r.id === id ? old : r));
    expect(judgeRead(round, read, 'cosine', undefined, false).map((x) => x.message)).toEqual([expect.stringContaining(`get returned the OLD version of ${id}`)]);
  });

  test('a delete still seen: get, count and recall name the deleted id', () => {
    const round = byRound(6);
    const gone = round.records[2]!;
    const read = faithfulRead(round, 'same');
    read.got = [gone];
    read.count = 5;
    read.recalls = read.recalls.map((q) => (q.id === gone.id ? { ...q, hits: [self(gone)] } : q));
    const p = judgeRead(round, read, 'cosine');
    expect(p.map((x) => [x.read, x.id])).toEqual([
      ['get', gone.id],
      ['count', undefined],
      ['recall', gone.id],
    ]);
    expect(p[0]!.message).toBe(`round 6 (delete of 4 ids): after the acknowledged delete, client same (the one that wrote): get still returned ${gone.id}`);
    expect(p[2]!.message).toContain(`with its embedding still returned ${gone.id}`);
  });
});

describe('the readYourWrites level', () => {
  const problem = (client: C27Problem['client']): C27Problem => ({ round: 1, op: 'upsert', client, read: 'get', message: client });
  const all = [problem('same'), problem('other'), problem('new')];
  test('strong fails every client’s problem; session the writing client’s only, the others reported', () => {
    expect(bindingProblems('strong', all)).toEqual({ failing: all, reported: [] });
    expect(bindingProblems('session', all)).toEqual({ failing: [all[0]], reported: all.slice(1) });
  });

  test('C27 skips eventual (and the default) showing the capability; needs vectors, upsert, delete', () => {
    const base = capabilities({ vectors: true, upsert: true, delete: true });
    expect(c27ReadYourWrites.requires(base)).toBe('capability: readYourWrites (eventual)');
    expect(c27ReadYourWrites.requires({ ...base, readYourWrites: 'session' })).toBeNull();
    expect(c27ReadYourWrites.requires({ ...base, readYourWrites: 'strong', delete: false })).toBe('capability: delete');
    expect(needs('readYourWrites')({ ...base, readYourWrites: 'eventual' })).toBe('capability: readYourWrites');
  });

  test('offersCapability and missingCapabilities order the levels eventual < session < strong', () => {
    expect([offersCapability('readYourWrites', 'eventual'), offersCapability('readYourWrites', 'session'), offersCapability('readYourWrites', 'strong')]).toEqual([false, true, true]);
    const declared = capabilities({ vectors: true, readYourWrites: 'strong' });
    expect(missingCapabilities(declared, { ...declared, readYourWrites: 'session' })).toEqual(['readYourWrites strong > session']);
    expect(missingCapabilities({ ...declared, readYourWrites: 'session' }, declared)).toEqual([]);
  });
});
