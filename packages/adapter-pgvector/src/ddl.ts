import {
  collectionMarkerJson,
  indexTypeIn,
  isHnsw,
  isIvfflat,
  MemoryMatrixError,
  readCollectionMarker,
  type CollectionMarker as KitCollectionMarker,
  type CollectionSpec,
  type IndexConfig,
  type Metric,
} from '@memory-matrix/spec';
import { ident, quoteLiteral } from './codec';
import { OPERATOR_CLASS } from './scores';

/**
 * Table layout and the collection marker.
 *
 * One table per collection, `<prefix><name>` (default prefix `mm_`):
 *   id text COLLATE "C" PRIMARY KEY, namespace text, kind text, text text,
 *   created_at timestamptz, metadata jsonb, embedding vector(dim)
 * `COLLATE "C"` makes `ORDER BY …, id` break ties by byte (= Unicode code point) order,
 * independent of the server's locale.
 *
 * The table's COMMENT holds the collection marker (JSON): marker tag, name, metric, dim, index
 * config, embedding model id. `openCollection` reads metric and dim from it (never from a
 * default), and the adapter refuses to open or drop a table without it: it only ever touches
 * tables it created. The ANN index is `<table>_ann`.
 */

export const MARKER_TAG = 'memory-matrix/pgvector-collection@1';

/** What the COMMENT stores (the kit's marker under this tag). */
export type CollectionMarker = KitCollectionMarker<typeof MARKER_TAG>;

/** Postgres identifiers are at most 63 bytes (NAMEDATALEN − 1). */
const MAX_IDENT = 63;

/** Validate a table prefix: `[a-z_][a-z0-9_]{0,15}`. Throws INVALID_INPUT. */
export function validatePrefix(prefix: string): string {
  if (!/^[a-z_][a-z0-9_]{0,15}$/.test(prefix)) {
    throw new MemoryMatrixError('INVALID_INPUT', `pgvector: tablePrefix must match [a-z_][a-z0-9_]{0,15}, got ${JSON.stringify(prefix)}`);
  }
  return prefix;
}

/** Table and index names of a collection; INVALID_INPUT when they exceed 63 bytes. */
export function namesOf(prefix: string, name: string): { table: string; index: string } {
  const table = `${prefix}${name}`;
  const index = `${table}_ann`;
  if (index.length > MAX_IDENT) {
    throw new MemoryMatrixError('INVALID_INPUT', `pgvector: table name ${table} is too long (index name ${index} exceeds ${MAX_IDENT} bytes)`);
  }
  return { table, index };
}

/** CREATE TABLE for a collection (no index: the ANN index is built after the bulk load). */
export function createTableSql(table: string, dim: number): string {
  return `CREATE TABLE ${ident(table)} (
  id text COLLATE "C" PRIMARY KEY,
  namespace text NOT NULL,
  kind text NOT NULL,
  text text NOT NULL,
  created_at timestamptz NOT NULL,
  metadata jsonb NOT NULL,
  embedding vector(${dim}) NOT NULL
)`;
}

/** COMMENT ON TABLE … IS '<marker JSON>' (COMMENT takes no bind parameters, hence the quoting). */
export function commentSql(table: string, spec: CollectionSpec): string {
  return `COMMENT ON TABLE ${ident(table)} IS ${quoteLiteral(collectionMarkerJson(MARKER_TAG, spec))}`;
}

/**
 * Parse a table COMMENT into a marker, or null when the table is not one of ours (no comment,
 * not JSON, wrong tag). A comment WITH our tag but malformed fields throws BACKEND_ERROR, since
 * guessing a metric would defeat C10.
 */
export function parseMarker(comment: string | null, table: string): CollectionMarker | null {
  if (!comment) return null;
  const rules = { tag: MARKER_TAG, where: `pgvector: table ${table}`, metrics: ['cosine', 'ip', 'l2'] as const, index: indexTypeIn('none', 'hnsw', 'ivfflat'), foreign: 'ignore' } as const;
  return readCollectionMarker(comment, rules) as CollectionMarker | null;
}

/**
 * CREATE INDEX for the collection's ANN index with the metric's operator class; null for `none`.
 * Throws INVALID_INPUT for an index type pgvector has not (validate.ts refuses it first).
 */
export function createIndexSql(table: string, indexName: string, metric: Metric, index: IndexConfig): string | null {
  const on = `${ident(indexName)} ON ${ident(table)}`;
  const col = `(embedding ${OPERATOR_CLASS[metric]})`;
  if (index.type === 'none') return null;
  if (isHnsw(index)) return `CREATE INDEX IF NOT EXISTS ${on} USING hnsw ${col} WITH (m = ${index.m}, ef_construction = ${index.efConstruction})`;
  if (isIvfflat(index)) return `CREATE INDEX IF NOT EXISTS ${on} USING ivfflat ${col} WITH (lists = ${index.lists})`;
  throw new MemoryMatrixError('INVALID_INPUT', `pgvector: table ${table}: index.type must be none, hnsw or ivfflat, got ${JSON.stringify(index.type)}`);
}

/**
 * Catalog lookup of one table: whether it exists, its COMMENT, the declared vector dimension
 * (`atttypmod` of `embedding`), and its ANN index's access method and operator class if built.
 * One round trip. `$1` = table name, `$2` = index name.
 */
export const TABLE_INFO_SQL = `
SELECT c.oid IS NOT NULL AS exists,
       obj_description(c.oid, 'pg_class') AS comment,
       (SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'embedding' AND NOT a.attisdropped) AS dim,
       (SELECT am.amname FROM pg_class ic JOIN pg_am am ON am.oid = ic.relam
         WHERE ic.oid = to_regclass(quote_ident($2))) AS index_am,
       (SELECT opc.opcname FROM pg_index i JOIN pg_opclass opc ON opc.oid = i.indclass[0]
         WHERE i.indexrelid = to_regclass(quote_ident($2))) AS index_opclass
FROM (SELECT to_regclass(quote_ident($1)) AS oid) c`;
