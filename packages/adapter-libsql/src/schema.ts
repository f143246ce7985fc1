import { z } from 'zod';
import { collectionMarkerJson, MemoryMatrixError, readCollectionMarker, specOfMarker as specOfCollectionMarker, type CollectionSpec, type Metric } from '@memory-matrix/spec';
import { ADAPTER } from './context';
import { DISTANCE } from './scores';

/**
 * Schema of a libSQL store (every table starts with `mm_`):
 * - `mm_collections (name TEXT PRIMARY KEY, spec TEXT)`: the collection marker (JSON: tag, name,
 *   metric, dim, index, embedding model); `openCollection` reads metric, dim and index from it.
 * - `mm_<name>`: `rid INTEGER PRIMARY KEY` (the rowid `vector_top_k` returns), `id TEXT UNIQUE`
 *   (BINARY collation = byte order), namespace, kind, text, created_at (the caller's text),
 *   metadata (JSON text), `embedding F32_BLOB(dim)` (libSQL's float32 vector column).
 * - `mm_<name>_vidx`: with index type `diskann`, the DiskANN index
 *   `libsql_vector_idx(embedding, 'metric=…', …)` (libsql-sqlite3/src/vectorIndex.c).
 */
export const MARKER_TAG = 'memory-matrix/libsql-collection@1';
export const MARKER_TABLE = 'mm_collections';
export const MARKER_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (name TEXT PRIMARY KEY, spec TEXT NOT NULL)`;

/**
 * The DiskANN index of libSQL, as a catalog `index:` (`type: diskann`). Parameters map to
 * `libsql_vector_idx` options (vectorIndex.c `VECTOR_PARAM_NAMES`): maxNeighbors → max_neighbors,
 * searchL → search_l, insertL → insert_l, alpha → alpha, compressNeighbors → compress_neighbors.
 * Absent ones take libSQL's defaults (vectordiskann.c: insert_l 70, search_l 200, alpha 1.2,
 * max_neighbors 3·√dim, neighbours stored as the column's type).
 */
export const diskannIndexSchema = z
  .object({
    type: z.literal('diskann'),
    maxNeighbors: z.number().int().min(2).max(65536).optional(),
    searchL: z.number().int().min(1).max(65536).optional(),
    insertL: z.number().int().min(1).max(65536).optional(),
    alpha: z.number().min(1).optional(),
    compressNeighbors: z.enum(['float1bit', 'float8', 'float16', 'floatb16', 'float32']).optional(),
  })
  .strict();
export type DiskannIndex = z.infer<typeof diskannIndexSchema>;

/** Largest dimension of an F32_BLOB vector: `MAX_VECTOR_SZ` 65536 (libsql-sqlite3/src/vectorInt.h). */
export const LIBSQL_MAX_DIM = 65_536;

/** Quote an identifier (`"…"`, inner quotes doubled). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Table and index names of a collection. */
export function namesOf(name: string): { table: string; vidx: string } {
  return { table: `mm_${name}`, vidx: `mm_${name}_vidx` };
}

/** The parsed DiskANN index of a spec, or undefined for `none`. Throws INVALID_INPUT (bad parameter), CAPABILITY_MISSING (another type). */
export function diskannOf(spec: CollectionSpec): DiskannIndex | undefined {
  const type = (spec.index as { type?: unknown } | undefined)?.type;
  if (type === 'none') return undefined;
  if (type !== 'diskann') {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: collection ${spec.name}: index ${String(type)} is not available; libSQL offers diskann (libsql_vector_idx) or none`);
  }
  const parsed = diskannIndexSchema.safeParse(spec.index);
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: collection ${spec.name}: index.${i.path.join('.')}: ${i.message}`);
  }
  return parsed.data;
}

/** CREATE TABLE of a collection's records (one statement). */
export function createTableSql(spec: CollectionSpec): string {
  const { table } = namesOf(spec.name);
  return `CREATE TABLE ${ident(table)} (rid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, namespace TEXT NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, created_at TEXT NOT NULL, metadata TEXT NOT NULL, embedding F32_BLOB(${spec.dim}) NOT NULL)`;
}

/** CREATE INDEX of the DiskANN index (the options given, in vectorIndex.c's spelling). */
export function createIndexSql(name: string, metric: Metric, ix: DiskannIndex): string {
  const { table, vidx } = namesOf(name);
  const opts = [`metric=${DISTANCE[metric as 'cosine' | 'l2'].indexMetric}`];
  if (ix.maxNeighbors !== undefined) opts.push(`max_neighbors=${ix.maxNeighbors}`);
  if (ix.searchL !== undefined) opts.push(`search_l=${ix.searchL}`);
  if (ix.insertL !== undefined) opts.push(`insert_l=${ix.insertL}`);
  if (ix.alpha !== undefined) opts.push(`alpha=${ix.alpha}`);
  if (ix.compressNeighbors !== undefined) opts.push(`compress_neighbors=${ix.compressNeighbors}`);
  return `CREATE INDEX IF NOT EXISTS ${ident(vidx)} ON ${ident(table)} (libsql_vector_idx(embedding, ${opts.map((o) => `'${o}'`).join(', ')}))`;
}

/** The marker JSON of a spec (the kit's collection marker under this tag). */
export function markerOf(spec: CollectionSpec): string {
  return collectionMarkerJson(MARKER_TAG, spec);
}

/** The spec of a marker row; BACKEND_ERROR when it is malformed (a guessed metric would defeat C10). */
export function specOfMarker(json: string, name: string): CollectionSpec {
  const rules = {
    tag: MARKER_TAG,
    where: `${ADAPTER}: ${MARKER_TABLE} row ${name}`,
    metrics: ['cosine', 'l2'] as const,
    index: (ix: { type?: unknown }) => typeof ix.type === 'string',
    name,
    foreign: 'malformed',
  } as const;
  return specOfCollectionMarker(readCollectionMarker(json, rules)!);
}
