/**
 * Index types: the built-in kinds' schemas and guards, and the check `defineDriver` makes of a
 * driver's declared index types (`BackendDriver.indexes`). A driver declares every ANN index type
 * its targets may name in the catalog (`index: { type: <name>, …params }`), each with a zod schema
 * of the whole object (type included, strict, defaults applied); `none` (no index, exact scans
 * only) is offered by every driver and declared by none. The catalog parses a target's index with
 * its driver's schema at load (packages/targets target-index.ts).
 */
import { z, type ZodType, type ZodTypeDef } from 'zod';
import type { IndexConfig } from './types';

/** `index: { type: none }`: no ANN index; every recall is an exact scan. Offered by every driver. */
export const noneIndexSchema = z.object({ type: z.literal('none') }).strict();

/**
 * HNSW (Malkov & Yashunin 2018, arXiv:1603.09320): `m` neighbours per node (integer ≥ 2),
 * `efConstruction` build-time candidate list (integer ≥ 4), `efSearch` query-time candidate list
 * (integer ≥ 1). Strict: a mistyped key (`efSerch`) is an unknown key. The bounds are the
 * catalog's since the first release; a backend's own narrower limits stay in its adapter.
 */
export const hnswIndexSchema = z.object({ type: z.literal('hnsw'), m: z.number().int().min(2), efConstruction: z.number().int().min(4), efSearch: z.number().int().min(1) }).strict();

/** IVFFlat (pgvector's name): `lists` inverted lists built (integer ≥ 1), `probes` lists searched per query (integer ≥ 1). Strict. */
export const ivfflatIndexSchema = z.object({ type: z.literal('ivfflat'), lists: z.number().int().min(1), probes: z.number().int().min(1) }).strict();

/** The `indexes` of a driver whose only index type is HNSW (Chroma, Milvus, Redis Vector Sets, LangChain's Chroma and PGVectorStore): `{ hnsw: hnswIndexSchema }`. */
export const HNSW_ONLY_INDEXES = { hnsw: hnswIndexSchema } as const;

/** An HNSW index configuration (`hnswIndexSchema`). */
export type HnswIndex = z.infer<typeof hnswIndexSchema>;
/** An IVFFlat index configuration (`ivfflatIndexSchema`). */
export type IvfflatIndex = z.infer<typeof ivfflatIndexSchema>;

/** The schema of one declared index type: parses the catalog's `index` object (unknown input) into the `IndexConfig` the adapter receives. */
export type IndexSchema = ZodType<IndexConfig, ZodTypeDef, unknown>;

/**
 * Whether `ix` is an HNSW configuration (`type === 'hnsw'`), narrowing it to `HnswIndex`. Reads
 * the type only: the parameters are the catalog's (parsed by the driver's schema) or a caller's;
 * an adapter still checks its backend's own limits.
 */
export function isHnsw(ix: IndexConfig | undefined): ix is HnswIndex {
  return ix?.type === 'hnsw';
}

/** Whether `ix` is an IVFFlat configuration (`type === 'ivfflat'`), narrowing it to `IvfflatIndex`; the type only, as `isHnsw`. */
export function isIvfflat(ix: IndexConfig | undefined): ix is IvfflatIndex {
  return ix?.type === 'ivfflat';
}

/** The index types a driver offers: `none`, then its declared ones in declaration order. */
export function offeredIndexTypes(indexes: Readonly<Record<string, unknown>> | undefined): string[] {
  return ['none', ...Object.keys(indexes ?? {})];
}

/**
 * Check a driver's declared index types against its capabilities (called by `defineDriver`):
 * every `capabilities.annIndexes` entry must be a declared type, and `none` is not declared (every
 * driver offers it). Throws TypeError naming the driver and the types, at module load of the
 * adapter package (a programming error, not user input).
 */
export function checkDeclaredIndexes(driver: string, annIndexes: readonly string[], indexes: Readonly<Record<string, unknown>> | undefined): void {
  if (indexes && Object.hasOwn(indexes, 'none')) throw new TypeError(`driver ${driver}: indexes must not declare "none" (every driver offers it)`);
  const offered = offeredIndexTypes(indexes);
  const undeclared = annIndexes.filter((t) => !offered.includes(t));
  if (undeclared.length) {
    throw new TypeError(
      `driver ${driver}: capabilities.annIndexes ${undeclared.map((t) => JSON.stringify(t)).join(', ')} ${undeclared.length > 1 ? 'are' : 'is'} not a declared index type (indexes: ${offered.join(', ')}); declare each in the driver's indexes with its schema`,
    );
  }
}
