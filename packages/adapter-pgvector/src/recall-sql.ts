import { isHnsw, isIvfflat, TIE_MARGIN, type IndexConfig, type Metric, type RecallQuery } from '@memory-matrix/spec';
import { ident, vectorToLiteral } from './codec';
import { decayPlan } from './decay-sql';
import { DISTANCE_OPERATOR } from './scores';
import { type RecallPlan, whereClause } from './where-sql';

// TIE_MARGIN (spec kit): extra rows the ANN index scan fetches beyond k, so that a tie group at
// rank k is still ordered by id when it is at most this wide (the outer query re-sorts by (d, id)
// and cuts at k).

/**
 * Build the recall SQL. Rows come back as `{ id, d }` with d the native distance, ordered by
 * (d, id) — ties broken by id in "C" (byte) order, C07.
 * - `scan: 'exact'`, and `scan: 'index'` before an index is built (`type: 'none'` or not built
 *   yet): the distance is computed in a subquery fenced with `OFFSET 0` and sorted by (d, id)
 *   outside it. The fence keeps the planner from pushing the ORDER BY down to the table, which is
 *   the only way it could use the ANN index (an HNSW / IVFFlat index serves ORDER BY distance
 *   only, never a WHERE clause), so the plan is a sequential scan + top-N sort with no settings:
 *   one statement, no transaction (EXPLAIN in test/recall.test.ts). The distance is computed once
 *   per row. (It replaced BEGIN + three `SET LOCAL enable_*scan = off` + the query + COMMIT: six
 *   round trips per exact recall, five of them overhead.)
 * - `scan: 'index'` (HNSW or IVFFlat built): `enable_seqscan = off`; `hnsw.ef_search` or
 *   `ivfflat.probes` from the collection's index config; iterative index scans (pgvector ≥
 *   0.8.0: HNSW `strict_order`, IVFFlat `relaxed_order`, its only mode) so a selective filter
 *   still yields min(k, matching) rows — set by ONE `SELECT set_config(…, true), …` (what
 *   `SET LOCAL` does, as one statement) in the recall's transaction. The index scan runs in a
 *   MATERIALIZED CTE ordered by distance alone with LIMIT k + TIE_MARGIN, and the outer query
 *   re-sorts by (d + 0, id) and cuts at k. Why not `ORDER BY distance, id` directly: PostgreSQL 18
 *   plans that as an Incremental Sort over the HNSW index scan, but PostgreSQL 16 cannot use an
 *   ordering-operator index for a longer sort key and falls back to Seq Scan + Sort even with
 *   enable_seqscan off (seen with EXPLAIN on PGlite 0.2 / PG 16.4; test/recall.test.ts). `d + 0`
 *   is pgvector's README idiom for relaxed order: it stops the planner from treating the CTE as presorted.
 * `settings` is empty when the plan needs none; the caller then runs it as one statement.
 */
export function recallPlan(table: string, metric: Metric, index: IndexConfig, indexBuilt: boolean, q: RecallQuery, iterativeScan: boolean): RecallPlan {
  if (q.decay !== undefined) return decayPlan(table, metric, q);
  const params: unknown[] = [vectorToLiteral(q.vector)];
  const distance = `embedding ${DISTANCE_OPERATOR[metric]} $1::vector`;
  const where = whereClause(q.filter, params);
  params.push(q.k);
  const limit = `$${params.length}`;
  const from = `FROM ${ident(table)} ${where}`.trimEnd();

  if (q.scan === 'exact' || !(isHnsw(index) || isIvfflat(index)) || !indexBuilt) {
    const sql = `SELECT id, d FROM (SELECT id, ${distance} AS d ${from} OFFSET 0) AS x ORDER BY d, id LIMIT ${limit}`;
    return { mode: q.scan === 'exact' ? 'exact' : 'none', settings: [], sql, params };
  }
  params.push(q.k + TIE_MARGIN);
  const innerLimit = `$${params.length}`;
  const sql = `WITH c AS MATERIALIZED (SELECT id, ${distance} AS d ${from} ORDER BY ${distance} LIMIT ${innerLimit}) ` + `SELECT id, d FROM c ORDER BY d + 0, id LIMIT ${limit}`;
  const local: Array<[string, string]> = [['enable_seqscan', 'off']];
  if (isHnsw(index)) {
    local.push(['hnsw.ef_search', String(index.efSearch)]);
    if (iterativeScan) local.push(['hnsw.iterative_scan', 'strict_order']);
  } else {
    local.push(['ivfflat.probes', String(index.probes)]);
    if (iterativeScan) local.push(['ivfflat.iterative_scan', 'relaxed_order']);
  }
  return { mode: index.type, settings: [setLocalSql(local)], sql, params };
}

/**
 * One statement that sets every `[name, value]` for the current transaction only: `SELECT
 * set_config(name, value, true), …` — `is_local` true is what `SET LOCAL` does (PostgreSQL docs,
 * "Configuration Settings Functions"). Names and values come from the adapter (validated index
 * config), never from a caller's string; they are quoted as literals all the same.
 */
export function setLocalSql(settings: ReadonlyArray<[string, string]>): string {
  const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
  return `SELECT ${settings.map(([k, v]) => `set_config(${lit(k)}, ${lit(v)}, true)`).join(', ')}`;
}
