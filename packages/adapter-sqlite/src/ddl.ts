import { collectionMarkerJson, indexTypeIn, MemoryMatrixError, readCollectionMarker, type CollectionMarker as KitCollectionMarker, type CollectionSpec } from '@memory-matrix/spec';
import { ADAPTER } from './context';
import { VEC0_DISTANCE_METRIC } from './scores';

/**
 * Schema of a SQLite store. Every table the adapter creates starts with `mm_`:
 * - `mm_collections (name TEXT PRIMARY KEY, spec TEXT)`: the collection marker (JSON: marker tag,
 *   name, metric, dim, index, embedding model). `openCollection` reads metric and dim from it
 *   (never a default); a table without a marker row is never opened or dropped.
 * - `mm_<name>`: the records, `rid INTEGER PRIMARY KEY` (the vec0 rowid), `id TEXT UNIQUE`
 *   (BINARY collation: memcmp of UTF-8, i.e. byte order, C07 / scan), namespace, kind, text,
 *   `created_at` (the caller's text, byte for byte), `created_ms` / `created_us` (for decay in
 *   SQL), `metadata` (JSON text).
 * - `mm_<name>_vec`: `vec0(namespace text partition key, embedding float[dim]
 *   distance_metric=…, chunk_size=…)`; rowid = the record's `rid`.
 * Identifiers are `[a-z0-9_]` (validated names), double-quoted anyway.
 */

export const MARKER_TAG = 'memory-matrix/sqlite-collection@1';
export const MARKER_TABLE = 'mm_collections';

/**
 * vec0 rows per chunk (its `chunk_size`, a multiple of 8; sqlite-vec's default is 1024). Each
 * partition (namespace) allocates whole chunks, so with 60 namespaces the default would reserve
 * 60 × 1024 × dim × 4 bytes; 128 keeps the file small at a few more chunk reads per KNN.
 */
export const CHUNK_SIZE = 128;

/** What a marker row stores (the kit's marker under this tag). */
export type CollectionMarker = KitCollectionMarker<typeof MARKER_TAG>;

/** Quote an identifier (`"…"`, inner quotes doubled). */
export function ident(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Table names of a collection. */
export function namesOf(name: string): { table: string; vec: string } {
  return { table: `mm_${name}`, vec: `mm_${name}_vec` };
}

/** CREATE TABLE of the marker table (idempotent). */
export const MARKER_TABLE_SQL = `CREATE TABLE IF NOT EXISTS ${MARKER_TABLE} (name TEXT PRIMARY KEY, spec TEXT NOT NULL)`;

/** The statements creating a collection's two tables (run in one transaction with the marker insert). */
export function createCollectionSql(spec: CollectionSpec): string[] {
  const { table, vec } = namesOf(spec.name);
  const metric = VEC0_DISTANCE_METRIC[spec.metric];
  if (metric === undefined) {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${ADAPTER}: collection ${spec.name}: vec0 has no ${spec.metric} distance (it offers cosine and L2)`);
  }
  return [
    `CREATE TABLE ${ident(table)} (
  rid INTEGER PRIMARY KEY,
  id TEXT NOT NULL UNIQUE,
  namespace TEXT NOT NULL,
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  created_ms INTEGER NOT NULL,
  created_us INTEGER NOT NULL,
  metadata TEXT NOT NULL
)`,
    `CREATE INDEX ${ident(`${table}_ns`)} ON ${ident(table)} (namespace, kind)`,
    `CREATE VIRTUAL TABLE ${ident(vec)} USING vec0(namespace text partition key, embedding float[${spec.dim}] distance_metric=${metric}, chunk_size=${CHUNK_SIZE})`,
  ];
}

/** The marker JSON of a spec. */
export function markerOf(spec: CollectionSpec): string {
  return collectionMarkerJson(MARKER_TAG, spec);
}

/** Parse a marker row; BACKEND_ERROR when it carries our tag but malformed fields (guessing a metric would defeat C10). */
export function parseMarker(json: string, name: string): CollectionMarker {
  const rules = { tag: MARKER_TAG, where: `${ADAPTER}: ${MARKER_TABLE} row ${name}`, metrics: ['cosine', 'l2'] as const, index: indexTypeIn('none'), name, foreign: 'malformed' } as const;
  return readCollectionMarker(json, rules) as CollectionMarker;
}
