import { ident, quoteLiteral } from '@memory-matrix/adapter-pgvector';
import { MemoryMatrixError, type CollectionSpec, type IndexConfig, type Metric } from '@memory-matrix/spec';
import { ADAPTER } from './errors';

/**
 * The collection marker, kept in the table's COMMENT. PGVectorStore stores no metric: its
 * `distanceStrategy` is a constructor option (default `cosine`) that each new client must be given
 * again. The driver records what the collection was created with — as an application keeps its
 * store configuration — and reopens with it (C10), through the same pool (the client has no API for
 * it). The raw pgvector adapter's marker has another tag, so neither driver opens the other's tables.
 */
export const MARKER_TAG = 'memory-matrix/langchain-pgvector-collection@1';

/** What the COMMENT stores. */
export interface ClientMarker {
  marker: typeof MARKER_TAG;
  name: string;
  metric: Metric;
  dim: number;
  index: IndexConfig;
  embeddingModel?: string;
}

/** The table of collection `name`: `mm_<name>` — the name the pgvector server's dump and restore (C16) take a collection's table by. */
export function tableOf(name: string): string {
  return `mm_${name}`;
}

/** COMMENT ON TABLE … IS '<marker JSON>' (COMMENT takes no bind parameters, hence the quoting). */
export function markerSql(table: string, spec: CollectionSpec): string {
  const m: ClientMarker = {
    marker: MARKER_TAG,
    name: spec.name,
    metric: spec.metric,
    dim: spec.dim,
    index: spec.index,
    ...(spec.embeddingModel !== undefined ? { embeddingModel: spec.embeddingModel } : {}),
  };
  return `COMMENT ON TABLE ${ident(table)} IS ${quoteLiteral(JSON.stringify(m))}`;
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
  let m: Partial<ClientMarker>;
  try {
    m = JSON.parse(comment) as Partial<ClientMarker>;
  } catch {
    return null;
  }
  if (typeof m !== 'object' || m === null || m.marker !== MARKER_TAG) return null;
  const ok =
    typeof m.name === 'string' &&
    (m.metric === 'cosine' || m.metric === 'ip' || m.metric === 'l2') &&
    Number.isInteger(m.dim) &&
    typeof m.index === 'object' &&
    m.index !== null &&
    ['none', 'hnsw'].includes((m.index as IndexConfig).type);
  if (!ok) throw new MemoryMatrixError('BACKEND_ERROR', `${ADAPTER}: table ${table}: collection marker is malformed: ${comment.slice(0, 200)}`);
  return m as ClientMarker;
}
