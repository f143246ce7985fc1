/**
 * Test helper for an adapter that declares `metadataShapes` (adapter-sqlite, adapter-pgvector
 * test/metadata-shapes.test.ts): records whose metadata holds one of each nested / array edge, and
 * the records the contract refuses (INVALID_INPUT naming the field path).
 */
import type { MemoryRecord, Metadata } from '../src';

/** One metadata object per edge: the key names the edge. Every value must read back exactly (metadataDifferences empty). */
export const SHAPED_METADATA: Record<string, Metadata> = {
  nested: { src: { corpus: 'moby', doc: { year: 1851, chapter: 0, speaker: null } } },
  mixedArray: { labels: ['a', 1, 0, -1.5, true, false, null, '', { k: [] }, [1, [2]]] },
  emptyContainers: { arr: [], obj: {}, deep: { a: [], b: {} } },
  falsyNested: { f: { zero: 0, no: false, empty: '', nil: null } },
  unicodeKeys: { ключ: { 日本語: 'значение', 'emoji 🦀': ['é', 'e\u0301'], 'a.b': 1, 'sp ace': 2 } },
  numbers: { n: [1.0, 1, 0.1, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e300, 5e-324, 1.7976931348623157e308, 123456789.12345679] },
  keyOrder: { o: { z: 1, a: 2, m: { y: 1, b: 2 }, '10': 'ten', '2': 'two' } },
  controlInValue: { o: { text: 'line\nbreak\ttab\u0001' } },
};

/** Metadata the contract refuses on every target, with the path the error names. */
export const BAD_SHAPED_METADATA: Array<{ metadata: Record<string, unknown>; path: string }> = [
  { metadata: { o: { x: Number.NaN } }, path: 'metadata.o.x' },
  { metadata: { o: [1, Number.POSITIVE_INFINITY] }, path: 'metadata.o[1]' },
  { metadata: { o: { a: [{ b: -0 }] } }, path: 'metadata.o.a[0].b' },
  { metadata: { o: { '': 1 } }, path: 'metadata.o[""]' },
  { metadata: { o: { $gt: 1 } }, path: 'metadata.o["$gt"]' },
  { metadata: { o: { u: undefined } }, path: 'metadata.o.u' },
  { metadata: { o: { d: new Date(0) } }, path: 'metadata.o.d' },
  { metadata: { o: 'x\u0000y' }, path: 'metadata.o' },
  { metadata: { o: { s: 'x\u0000y' } }, path: 'metadata.o.s' },
  // eslint-disable-next-line no-sparse-arrays -- a hole is the point
  { metadata: { o: [1, , 3] }, path: 'metadata.o[1]' },
  { metadata: { o: deep(17) }, path: 'metadata.o.d.d' },
];

/** An object nested `n` levels deep: `{d:{d:…{d:0}}}`. */
function deep(n: number): unknown {
  let v: unknown = 0;
  for (let i = 0; i < n; i++) v = { d: v };
  return v;
}

/** Records (dim `dim`, unit vectors along axis i mod dim) carrying each of `SHAPED_METADATA`, ids `shape-<edge>`. */
export function shapedRecords(dim: number): MemoryRecord[] {
  return Object.entries(SHAPED_METADATA).map(([edge, metadata], i) => {
    const embedding = new Float32Array(dim);
    embedding[i % dim] = 1;
    return { id: `shape-${edge}`, namespace: 'ns', text: `shape ${edge}`, kind: 'fact', createdAt: '2026-01-02T03:04:05.000Z', metadata, embedding };
  });
}
