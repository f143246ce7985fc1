import { parseInstant, type Metadata, type Metric, type RecallFilter, type RecallQuery } from '@memory-matrix/spec';
import { vectorToBlob } from './codec';
import { ADAPTER } from './context';
import { ident } from './ddl';
import { DISTANCE_FUNCTION } from './scores';
import { whereSql } from './where-sql';

/**
 * SQL of filters and recall. Everything the caller supplies travels as a bind parameter
 * (lists as one JSON array, read with `json_each`).
 *
 * Filter semantics (spec `matchesFilter`), on the records table aliased `r`:
 * - namespaces: `r.namespace IN (SELECT value FROM json_each(?))` (an empty list matches nothing);
 * - kinds: the same on `r.kind`;
 * - metadata, per key: `EXISTS (SELECT 1 FROM json_each(r.metadata) WHERE key = ? AND <type test>)`
 *   with the JSON type compared first, so `0` ≠ `false` ≠ `""` (json_each's `type` is `null`,
 *   `true`, `false`, `integer`, `real` or `text`; `json_extract` alone would turn false into 0):
 *   null → type = 'null'; true/false → type = 'true'/'false'; string → type = 'text' AND
 *   atom = ?; number → type IN ('integer','real') AND atom = ?. A missing key never matches.
 * - where: the filter language compiled natively (where-sql.ts `whereSql`), ANDed.
 */
export function filterSql(filter: RecallFilter | undefined, params: unknown[]): string {
  const parts: string[] = [];
  if (filter?.namespaces !== undefined) {
    params.push(JSON.stringify(filter.namespaces));
    parts.push('r.namespace IN (SELECT value FROM json_each(?))');
  }
  if (filter?.kinds !== undefined) {
    params.push(JSON.stringify(filter.kinds));
    parts.push('r.kind IN (SELECT value FROM json_each(?))');
  }
  for (const [key, value] of Object.entries(filter?.metadata ?? ({} as Metadata))) {
    params.push(key);
    let test: string;
    if (value === null) test = `type = 'null'`;
    else if (typeof value === 'boolean') test = value ? `type = 'true'` : `type = 'false'`;
    else if (typeof value === 'string') {
      params.push(value);
      test = `type = 'text' AND atom = ?`;
    } else {
      params.push(value);
      test = `type IN ('integer', 'real') AND atom = ?`;
    }
    parts.push(`EXISTS (SELECT 1 FROM json_each(r.metadata) WHERE key = ? AND ${test})`);
  }
  if (filter?.where !== undefined) parts.push(whereSql(filter.where, params));
  return parts.join(' AND ');
}

/** vec0's largest `k` (sqlite-vec.c SQLITE_VEC_VEC0_K_MAX). */
export const VEC0_K_MAX = 4096;

/**
 * One vec0 KNN of `fetch` rows, filters pushed into it: a single namespace as the partition-key
 * constraint `namespace = ?` (vec0 then reads only that partition's chunks); every filter as
 * `rowid IN (SELECT rid FROM <records> r WHERE …)`, which vec0 takes as its KNN candidate set
 * (sqlite-vec "rowid in (...)" KNN constraint). Rows `{ id, d }`, d = vec0's `distance`,
 * ordered by (d, id): equal distances by id in byte order (C07).
 */
export function knnSql(table: string, vec: string, q: RecallQuery, fetch: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [vectorToBlob(q.vector), fetch];
  const where = ['v.embedding MATCH ?', 'v.k = ?'];
  const ns = q.filter?.namespaces;
  if (ns?.length === 1) {
    params.push(ns[0]);
    where.push('v.namespace = ?');
  }
  const f = filterSql(q.filter, params);
  if (f) where.push(`v.rowid IN (SELECT r.rid FROM ${ident(table)} r WHERE ${f})`);
  const sql =
    `WITH knn AS MATERIALIZED (SELECT v.rowid AS rid, v.distance AS d FROM ${ident(vec)} v WHERE ${where.join(' AND ')}) ` +
    `SELECT r.id AS id, knn.d AS d FROM knn JOIN ${ident(table)} r ON r.rid = knn.rid ORDER BY knn.d, r.id`;
  return { sql, params };
}

/**
 * Time-decayed recall in SQL (spec decay.ts), an exact scan over the filtered records joined to
 * their vectors:
 *   s      = sim × factor, ORDER BY s DESC, id, LIMIT k
 *   sim    cosine: 1 − vec_distance_cosine(embedding, q)  (the same float32 function as vec0's
 *          cosine column, scores.ts); l2 never reaches here (validateDecay refuses it)
 *   age    = max(0, (now_ms − created_ms) + (now_us − created_us) / 1000.0)   (spec `diffMs`:
 *          the whole-millisecond difference exact, then the microseconds, in float64)
 *   factor exponential: pow(0.5, age / h)     hyperbolic: 1.0 / (1.0 + age / h)
 * The float64 operations are spec `decayFactor`'s in the same order; `pow` is SQLite's math
 * function (the C library's). Rows `{ id, s }`.
 */
export function decaySql(table: string, vec: string, metric: Metric, q: RecallQuery): { sql: string; params: unknown[] } {
  const fn = DISTANCE_FUNCTION[metric]!;
  const now = parseInstant(q.now, `${ADAPTER}: table ${table}: recall: now`);
  const h = q.decay!.halfLifeMs;
  const params: unknown[] = [vectorToBlob(q.vector), now.ms, now.us, h];
  const age = `max(0.0, (? - r.created_ms) + (? - r.created_us) / 1000.0)`;
  const factor = q.decay!.fn === 'exponential' ? `pow(0.5, ${age} / ?)` : `(1.0 / (1.0 + ${age} / ?))`;
  const f = filterSql(q.filter, params);
  params.push(q.k);
  const sql =
    `SELECT id, s FROM (SELECT r.id AS id, (1.0 - ${fn}(v.embedding, ?)) * ${factor} AS s ` +
    `FROM ${ident(table)} r JOIN ${ident(vec)} v ON v.rowid = r.rid${f ? ` WHERE ${f}` : ''}) ORDER BY s DESC, id LIMIT ?`;
  return { sql, params };
}
