import { MemoryMatrixError, parseInstant, recallFilterExpr, type MemoryKind, type MemoryRecord, type Metadata, type MetadataValue, type RecallFilter } from '@memory-matrix/spec';
import { compileWhere, TYPE_TAGS, type Where, type WhereLayout } from './where';

/**
 * How a memory is laid out in a Chroma record (one Chroma collection per memory-matrix collection):
 * - Chroma `id` = memory id; `document` = text; `embedding` = the float32 vector.
 * - Chroma `metadata` holds the memory's fields under reserved keys and the memory's own metadata
 *   under TYPE-PREFIXED keys, one per value:
 *     `mm.ns` namespace, `mm.kind` kind, `mm.at` createdAt (ISO string), and createdAt again as
 *     `mm.ms` epoch milliseconds + `mm.us` further microseconds (integers: what filters compare);
 *     `s.<key>` string, `b.<key>` boolean, `n.<key>` number, `z.<key>` = true for null, and
 *     `t.<key>` the value's type tag (`s` / `b` / `n` / `z`: what `$exists` and `$not` compile on, where.ts)
 *     (Chroma drops null metadata values silently: measured on 1.0.0), and for numbers that are
 *     not safe integers (or −0) also `x.<key>` = the exact decimal (`String(v)`): Chroma's server
 *     re-parses floats inexactly (1 ulp off for ~10 % of random doubles, measured on 1.0.0), so
 *     `get` reads the exact value from `x.<key>` and filters compare `n.<key>`.
 *   `mm.vec` holds the vector's exact float32 bytes (base64): under the cosine space Chroma
 *   returns a stored embedding after a float32 normalise/denormalise round trip (3 → 2.9999998,
 *   1e-30 → 9.999946e-31 or 0 next to a large component: measured on 1.0.0), so `get` reads the
 *   written vector from here; the search itself uses Chroma's own copy.
 *   User keys never collide with reserved ones (`?.` vs `mm.`).
 * Filters on metadata compare the type-prefixed key (where.ts), so `{pinned: 0}` can never match a
 * stored `false` (nor `""` or null) whatever the server's own typing does: the spec's `===` semantics.
 */
export const RESERVED = { namespace: 'mm.ns', kind: 'mm.kind', createdAt: 'mm.at', createdAtMs: 'mm.ms', createdAtUs: 'mm.us', vector: 'mm.vec' } as const;

/** createdAt as the two integers `mm.ms` (epoch milliseconds) and `mm.us` (0..999) that filters compare (Chroma has no string ranges). */
export function instantKeys(createdAt: string): ChromaMetadata {
  const i = parseInstant(createdAt, 'createdAt');
  return { [RESERVED.createdAtMs]: i.ms, [RESERVED.createdAtUs]: i.us };
}

/** The vector's float32 bytes, little-endian, base64 (`mm.vec`). */
export function encodeVector(v: Float32Array): string {
  const b = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) b.writeFloatLE(v[i]!, i * 4);
  return b.toString('base64');
}

/** Inverse of `encodeVector`; undefined when `s` is not a whole number of float32s. */
export function decodeVector(s: string): Float32Array | undefined {
  const b = Buffer.from(s, 'base64');
  if (b.length % 4 !== 0) return undefined;
  const v = new Float32Array(b.length / 4);
  for (let i = 0; i < v.length; i++) v[i] = b.readFloatLE(i * 4);
  return v;
}

/** A Chroma metadata object (scalars only). */
export type ChromaMetadata = Record<string, string | number | boolean>;

/** The exact text of a number: shortest round-trip decimal, and `-0` for negative zero. */
function exactNumber(v: number): string {
  return Object.is(v, -0) ? '-0' : String(v);
}

/** A metadata value as its type-prefixed Chroma entries. */
function encodeValue(key: string, v: MetadataValue, out: ChromaMetadata): void {
  out[`t.${key}`] = TYPE_TAGS[v === null ? 'null' : (typeof v as 'string' | 'boolean' | 'number')];
  if (v === null) out[`z.${key}`] = true;
  else if (typeof v === 'string') out[`s.${key}`] = v;
  else if (typeof v === 'boolean') out[`b.${key}`] = v;
  else if (typeof v === 'object') throw new MemoryMatrixError('CAPABILITY_MISSING', `chroma: metadata.${key} is an array or object, which Chroma metadata cannot hold (capability metadataShapes)`);
  else {
    out[`n.${key}`] = v;
    if (!Number.isSafeInteger(v) || Object.is(v, -0)) out[`x.${key}`] = exactNumber(v);
  }
}

/** The Chroma metadata of a memory (never empty: the reserved keys are always there). */
export function encodeMetadata(r: Pick<MemoryRecord, 'namespace' | 'kind' | 'createdAt' | 'metadata' | 'embedding'>): ChromaMetadata {
  const out: ChromaMetadata = {
    [RESERVED.namespace]: r.namespace,
    [RESERVED.kind]: r.kind,
    [RESERVED.createdAt]: r.createdAt,
    ...instantKeys(r.createdAt),
    [RESERVED.vector]: encodeVector(r.embedding),
  };
  for (const [k, v] of Object.entries(r.metadata)) encodeValue(k, v, out);
  return out;
}

/** What Chroma returned for one id of a `get` (one row of chromadb's GetResult): document, metadata and embedding, each possibly missing. */
export interface ChromaStoredRow {
  document: string | null | undefined;
  meta: Record<string, unknown> | null | undefined;
  embedding: ArrayLike<number> | null | undefined;
}

/**
 * A memory from what Chroma returned for one id. Throws BACKEND_ERROR naming the collection and id
 * when a reserved field is missing or a value has the wrong type (a record this adapter did not write).
 */
export function decodeRecord(coll: string, id: string, { document, meta, embedding }: ChromaStoredRow): MemoryRecord {
  const bad = (what: string) => new MemoryMatrixError('BACKEND_ERROR', `chroma: collection ${coll}: record ${id}: ${what}`);
  if (!meta) throw bad('no metadata (not written by memory-matrix)');
  const ns = meta[RESERVED.namespace];
  const kind = meta[RESERVED.kind];
  const at = meta[RESERVED.createdAt];
  if (typeof ns !== 'string' || typeof kind !== 'string' || typeof at !== 'string') throw bad(`reserved metadata ${RESERVED.namespace}/${RESERVED.kind}/${RESERVED.createdAt} missing`);
  if (typeof document !== 'string') throw bad('document (text) missing');
  const exact = typeof meta[RESERVED.vector] === 'string' ? decodeVector(meta[RESERVED.vector] as string) : undefined;
  if (!exact && !embedding) throw bad('embedding missing');
  const metadata: Metadata = {};
  for (const [k, v] of Object.entries(meta)) {
    const p = k.slice(0, 2);
    const key = k.slice(2);
    if (p === 's.' && typeof v === 'string') metadata[key] = v;
    else if (p === 'b.' && typeof v === 'boolean') metadata[key] = v;
    else if (p === 'z.' && v === true) metadata[key] = null;
    else if (p === 'n.' && typeof v === 'number') {
      const exact = meta[`x.${key}`];
      metadata[key] = typeof exact === 'string' ? Number(exact) : v;
    } else if (p === 'x.' || p === 't.' || k.startsWith('mm.')) continue;
    else throw bad(`metadata key ${JSON.stringify(k)} has an unexpected ${typeof v} value`);
  }
  return { id, namespace: ns, kind: kind as MemoryKind, text: document, createdAt: at, metadata, embedding: exact ?? Float32Array.from(embedding!) };
}

/** This adapter's layout for `compileWhere`: the reserved keys and the type-prefixed metadata keys. */
export const TYPED_LAYOUT: WhereLayout = {
  adapter: 'chroma',
  namespace: RESERVED.namespace,
  kind: RESERVED.kind,
  createdAtMs: RESERVED.createdAtMs,
  createdAtUs: RESERVED.createdAtUs,
  metadata: (k, type) => `${TYPE_PREFIX[type]}.${k}`,
  typeTag: (k) => `t.${k}`,
};

const TYPE_PREFIX = { string: 's', boolean: 'b', number: 'n', null: 'z' } as const;

/**
 * A recall filter as a Chroma `where` (where.ts `compileWhere` over `recallFilterExpr`: namespaces,
 * kinds, metadata equality and the filter language's `where`, ANDed): `undefined` for no condition,
 * `null` when the filter can match nothing (e.g. an empty `namespaces` list: Chroma rejects `$in: []`,
 * so the adapter answers without asking). `layout` names the keys (default: this adapter's typed
 * keys; langchain-chroma passes its plain-metadata layout). Throws CAPABILITY_MISSING for an
 * operator outside CHROMA_FILTER_OPERATORS.
 */
export function filterToWhere(f: RecallFilter | undefined, layout: WhereLayout = TYPED_LAYOUT): Where | undefined | null {
  const expr = recallFilterExpr(f);
  if (expr === undefined) return undefined;
  const w = compileWhere(expr, layout);
  return w === true ? undefined : w === false ? null : w;
}

/**
 * The Chroma collection name of a memory-matrix collection: `mm_<name>`, plus `-0` when the name
 * ends with `_` (Chroma names must end with a letter or digit; `-` never occurs in a contract
 * name, so the mapping stays one-to-one).
 */
export function chromaName(name: string): string {
  return `mm_${name}${name.endsWith('_') ? '-0' : ''}`;
}

/** Split `items` into chunks of at most `size`. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
