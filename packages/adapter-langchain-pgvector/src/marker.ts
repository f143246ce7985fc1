import { ident, quoteLiteral } from '@memory-matrix/adapter-pgvector';
import { collectionMarkerJson, indexTypeIn, readCollectionMarker, type CollectionMarker, type CollectionSpec } from '@memory-matrix/spec';
import { ADAPTER } from './errors';

/**
 * The collection marker, kept in the table's COMMENT. PGVectorStore stores no metric: its
 * `distanceStrategy` is a constructor option (default `cosine`) that each new client must be given
 * again. The driver records what the collection was created with — as an application keeps its
 * store configuration — and reopens with it (C10), through the same pool (the client has no API for
 * it). The raw pgvector adapter's marker has another tag, so neither driver opens the other's tables.
 */
export const MARKER_TAG = 'memory-matrix/langchain-pgvector-collection@1';

/** What the COMMENT stores (the kit's marker under this tag). */
export type ClientMarker = CollectionMarker<typeof MARKER_TAG>;

/** The table of collection `name`: `mm_<name>` — the name the pgvector server's dump and restore (C16) take a collection's table by. */
export function tableOf(name: string): string {
  return `mm_${name}`;
}

/** COMMENT ON TABLE … IS '<marker JSON>' (COMMENT takes no bind parameters, hence the quoting). */
export function markerSql(table: string, spec: CollectionSpec): string {
  return `COMMENT ON TABLE ${ident(table)} IS ${quoteLiteral(collectionMarkerJson(MARKER_TAG, spec))}`;
}

/** One round trip: whether `$1` exists, its COMMENT and the declared dimension of its `embedding` column. */
export const TABLE_INFO_SQL = `
SELECT c.oid IS NOT NULL AS exists, obj_description(c.oid, 'pg_class') AS comment,
       (SELECT a.atttypmod FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'embedding' AND NOT a.attisdropped) AS dim
FROM (SELECT to_regclass(quote_ident($1)) AS oid) c`;

/**
 * A table COMMENT as a marker, or null when the table is not one of this driver's (no comment, not
 * JSON, another tag). A comment with this tag but malformed fields throws BACKEND_ERROR naming the
 * table (guessing a metric would defeat C10).
 */
export function parseMarker(comment: string | null, table: string): ClientMarker | null {
  if (!comment) return null;
  const rules = { tag: MARKER_TAG, where: `${ADAPTER}: table ${table}`, metrics: ['cosine', 'ip', 'l2'] as const, index: indexTypeIn('none', 'hnsw'), foreign: 'ignore' } as const;
  return readCollectionMarker(comment, rules) as ClientMarker | null;
}
