import type { IndexConfig, Metric, RecallFilter, RecallQuery } from '@memory-matrix/spec';
import { ident, vectorToLiteral } from './codec';
import { decayPlan } from './decay-sql';
import { DISTANCE_OPERATOR } from './scores';

/**
 * SQL for filters and recall. Everything the caller supplies travels as a bind parameter.
 *
 * Filter semantics (spec `matchesFilter`): namespace IN, kind IN (an empty list matches nothing),
 * metadata: `metadata @> $n::jsonb`. jsonb containment compares JSON types, so `{"a":0}` matches
 * 0 but not false or "" (verified in test/pgvector.test.ts), a key given as null matches only a
 * present null, and a missing key never matches.
 */
export function whereClause(filter: RecallFilter | undefined, params: unknown[]): string {
  const parts: string[] = [];
  if (filter?.namespaces !== undefined) {
    params.push(filter.namespaces);
    parts.push(`namespace = ANY($${params.length}::text[])`);
  }
  if (filter?.kinds !== undefined) {
    params.push(filter.kinds);
    parts.push(`kind = ANY($${params.length}::text[])`);
  }
  if (filter?.metadata !== undefined && Object.keys(filter.metadata).length > 0) {
    params.push(JSON.stringify(filter.metadata));
    parts.push(`metadata @> $${params.length}::jsonb`);
  }
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

/** One recall: `SET LOCAL` statements to run first (same transaction), then the query. */
export interface RecallPlan {
  settings: string[];
  sql: string;
  params: unknown[];
  /** What the plan forces: `exact` (sequential scan), `hnsw`, `ivfflat`, `none` (no index built), or `decay` (decay-sql.ts). */
  mode: 'exact' | 'hnsw' | 'ivfflat' | 'none' | 'decay';
  /** `decay` plans return `{ id, s }` with s the decayed canonical score; the others `{ id, d }` (native distance). */
  decayed?: boolean;
}

/**
 * Extra rows the ANN index scan fetches beyond k, so that a tie group at rank k is still ordered
 * by id when it is at most this wide (the outer query re-sorts by (d, id) and cuts at k).
 */
export const TIE_MARGIN = 16;

/**
 * Build the recall SQL. Rows come back as `{ id, d }` with d the native distance, ordered by
 * (d, id) — ties broken by id in "C" (byte) order, C07.
 * - `scan: 'exact'`: index, index-only and bitmap scans off → sequential scan + top-N sort.
 * - no index built (`type: 'none'`): the same plain query; PostgreSQL scans sequentially.
 * - `scan: 'index'` (HNSW or IVFFlat): `enable_seqscan = off`; `hnsw.ef_search` or
 *   `ivfflat.probes` from the collection's index config; iterative index scans (pgvector ≥
 *   0.8.0: HNSW `strict_order`, IVFFlat `relaxed_order`, its only mode) so a selective filter
 *   still yields min(k, matching) rows. The index scan runs in a MATERIALIZED CTE ordered by
 *   distance alone with LIMIT k + TIE_MARGIN, and the outer query re-sorts by (d + 0, id) and
 *   cuts at k. Why not `ORDER BY distance, id` directly: PostgreSQL 18 plans that as an
 *   Incremental Sort over the HNSW index scan, but PostgreSQL 16 cannot use an ordering-operator
 *   index for a longer sort key and falls back to Seq Scan + Sort even with enable_seqscan off
 *   (seen with EXPLAIN on PGlite 0.2 / PG 16.4; test/recall.test.ts). `d + 0` is pgvector's
 *   README idiom for relaxed order: it stops the planner from treating the CTE as presorted.
 */
export function recallPlan(table: string, metric: Metric, index: IndexConfig, indexBuilt: boolean, q: RecallQuery, iterativeScan: boolean): RecallPlan {
  if (q.decay !== undefined) return decayPlan(table, metric, q);
  const params: unknown[] = [vectorToLiteral(q.vector)];
  const distance = `embedding ${DISTANCE_OPERATOR[metric]} $1::vector`;
  const where = whereClause(q.filter, params);
  params.push(q.k);
  const limit = `$${params.length}`;
  const from = `FROM ${ident(table)} ${where}`.trimEnd();

  if (q.scan === 'exact' || index.type === 'none' || !indexBuilt) {
    const sql = `SELECT id, ${distance} AS d ${from} ORDER BY ${distance}, id LIMIT ${limit}`;
    if (q.scan !== 'exact') return { mode: 'none', settings: [], sql, params };
    const settings = ['SET LOCAL enable_indexscan = off', 'SET LOCAL enable_indexonlyscan = off', 'SET LOCAL enable_bitmapscan = off'];
    return { mode: 'exact', settings, sql, params };
  }
  params.push(q.k + TIE_MARGIN);
  const innerLimit = `$${params.length}`;
  const sql = `WITH c AS MATERIALIZED (SELECT id, ${distance} AS d ${from} ORDER BY ${distance} LIMIT ${innerLimit}) ` + `SELECT id, d FROM c ORDER BY d + 0, id LIMIT ${limit}`;
  const settings = ['SET LOCAL enable_seqscan = off'];
  if (index.type === 'hnsw') {
    settings.push(`SET LOCAL hnsw.ef_search = ${index.efSearch}`);
    if (iterativeScan) settings.push('SET LOCAL hnsw.iterative_scan = strict_order');
  } else {
    settings.push(`SET LOCAL ivfflat.probes = ${index.probes}`);
    if (iterativeScan) settings.push('SET LOCAL ivfflat.iterative_scan = relaxed_order');
  }
  return { mode: index.type, settings, sql, params };
}
