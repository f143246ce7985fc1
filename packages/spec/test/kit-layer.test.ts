// The adapter kit's last shared pieces: the capability head (src/kit/vector-capabilities.ts),
// records carried in a layer's metadata (layer-records.ts), operator trees (operator-tree.ts), the
// row history append (history-keys.ts) and the memory row (memory-row.ts).
import { capabilities, DEFAULT_CAPABILITIES } from '../src/capabilities';
import { parseFilter } from '../src/filter-lang/parse';
import { rowAppend, rowRawAppend } from '../src/kit/history-keys';
import { carriedMetadata, checkCarriedRecords, takeCarried } from '../src/kit/layer-records';
import { recordOfRow } from '../src/kit/memory-row';
import { compileOperatorTree } from '../src/kit/operator-tree';
import { vectorCapabilities } from '../src/kit/vector-capabilities';
import type { FilterField } from '../src/filter-lang/types';
import type { MemoryRecord } from '../src/types';

const KEYS = { id: 'mm_id', namespace: 'mm_ns', kind: 'mm_kind', text: 'mm_text', createdAt: 'mm_at', createdMicros: 'mm_us' };
const rec: MemoryRecord = { id: 'a', namespace: 'n', kind: 'fact', text: 't', createdAt: '2024-01-02T03:04:05.000006Z', metadata: { k: 1 }, embedding: new Float32Array([1, 0]) };
const codeOf = (fn: () => unknown): string | undefined => {
  try {
    fn();
  } catch (e) {
    return (e as { code?: string }).code;
  }
  return undefined;
};

describe('vectorCapabilities', () => {
  test('the shared flags under the adapter own; every other flag at its default', () => {
    const c = vectorCapabilities({ upsert: true, delete: false });
    expect(c).toEqual(capabilities({ vectors: true, filterNamespace: true, filterKind: true, filterMetadata: true, delete: false, reopen: true, upsert: true }));
    expect(c.ttl).toBe(DEFAULT_CAPABILITIES.ttl);
  });
});

describe('records carried in layer metadata', () => {
  test('written in key order and read back; createdAt also as epoch µs', () => {
    const meta = carriedMetadata(rec, KEYS);
    expect(Object.keys(meta)).toEqual(['k', 'mm_id', 'mm_ns', 'mm_kind', 'mm_text', 'mm_at', 'mm_us']);
    expect(meta.mm_us).toBe(Date.parse(rec.createdAt) * 1000 + 6);
    expect(takeCarried(meta, KEYS, () => new Error('missing'))).toEqual({ id: 'a', namespace: 'n', kind: 'fact', text: 't', createdAt: rec.createdAt, metadata: { k: 1 } });
  });
  test('a missing field is the driver error; refused keys and repeated ids are INVALID_INPUT', () => {
    expect(() => takeCarried({ mm_id: 'a' }, KEYS, (k) => new Error(`no ${k}`))).toThrow('no mm_ns');
    const rules = { rules: { adapter: 'x' }, keyProblem: (k: string) => (k.startsWith('mm_') ? 'is reserved' : undefined) };
    expect(() => checkCarriedRecords([{ ...rec, metadata: { mm_x: 1 } }], 'collection c', rules)).toThrow('x: collection c: records[0] (id a): metadata key "mm_x" is reserved');
    expect(codeOf(() => checkCarriedRecords([rec, rec], 'collection c', rules))).toBe('INVALID_INPUT');
    expect(codeOf(() => checkCarriedRecords('no', 'collection c', rules))).toBe('INVALID_INPUT');
  });
});

describe('compileOperatorTree', () => {
  const expr = parseFilter({ $and: [{ 'metadata.k': { $gte: 2 } }, { $not: { 'metadata.t': { $in: ['a'] } } }] });
  test('defaults: the language names, { $not: child }; $exists refused without a style', () => {
    const key = (f: FilterField) => (f.root === 'metadata' ? f.path.join('.') : f.root);
    expect(compileOperatorTree(expr, { key, cannot: (w) => new Error(w) })).toEqual({ $and: [{ k: { $gte: 2 } }, { $not: { t: { $in: ['a'] } } }] });
    expect(() => compileOperatorTree(parseFilter({ 'metadata.k': { $exists: true } }), { key, cannot: (w) => new Error(w) })).toThrow('operator $exists');
  });
  test("a layer's names and logic nodes", () => {
    const tree = compileOperatorTree(expr, { key: (f) => (f.root === 'metadata' ? f.path[0]! : f.root), opName: (op) => op.slice(1), not: (c) => ({ $not: [c] }), cannot: (w) => new Error(w) });
    expect(tree).toEqual({ $and: [{ k: { gte: 2 } }, { $not: [{ t: { in: ['a'] } }] }] });
  });
});

describe('row history append and memory row', () => {
  test('rowAppend encodes or answers null; refuses a non-array', () => {
    expect(rowAppend([], 'session s', { adapter: 'x' })).toBeNull();
    const b = rowAppend([{ role: 'user', content: 'hé', createdAt: '2024-01-02T03:04:05.000Z', metadata: {} }], 'session s', { adapter: 'x' })!;
    expect(b.chars).toEqual([2]);
    expect(b.payloads).toHaveLength(1);
    expect(() => rowAppend('no', 'session s', { adapter: 'x' })).toThrow('x: append to session s: messages must be an array');
    expect(rowRawAppend(['p'], 'session s', 'x')).toEqual({ payloads: ['p'], chars: [0] });
  });
  test('recordOfRow reads the row; metadata that is not JSON is PAYLOAD_UNSUPPORTED before the embedding is decoded', () => {
    const row = { id: 'a', namespace: 'n', kind: 'fact' as const, text: 't', created_at: rec.createdAt, metadata: '{"k":1}' };
    expect(recordOfRow(row, () => rec.embedding, 'x: table t id a')).toEqual(rec);
    let decoded = false;
    expect(
      codeOf(() =>
        recordOfRow(
          { ...row, metadata: '{' },
          () => {
            decoded = true;
            return rec.embedding;
          },
          'x: table t id a',
        ),
      ),
    ).toBe('PAYLOAD_UNSUPPORTED');
    expect(decoded).toBe(false);
  });
});
