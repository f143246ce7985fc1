import type { Metric, RecallQuery } from '@memory-matrix/spec';
import { ident, vectorToLiteral } from './codec';
import { DISTANCE_OPERATOR } from './scores';
import { type RecallPlan, whereClause } from './where-sql';

/**
 * Time-decayed recall computed server-side (spec decay.ts), always as an exact scan: an ANN
 * index orders by distance alone, so it cannot produce the decayed top-k.
 *
 *   s = sim × factor, ordered by s DESC, id (C collation), LIMIT k
 *   sim    cosine: 1 − (embedding <=> q)   ip: −(embedding <#> q)   (the canonical score, scores.ts)
 *   age    = GREATEST(0, (extract(epoch FROM now) − extract(epoch FROM created_at)) × 1000)::float8
 *            (extract returns numeric on PostgreSQL ≥ 14, so the microsecond difference is exact
 *            before the one rounding to float8)
 *   factor exponential: power(0.5, age / h)    hyperbolic: 1 / (1 + age / h)
 * The float8 operations are the ones spec `decayFactor` does in JavaScript, in the same order, so
 * hyperbolic scores agree to the last bit for the same similarity; `power` is the C library's.
 * `now` and `h` travel as bind parameters; `now` was validated as a canonical UTC instant.
 * The caller has validated `q.decay` and `q.now` (validateQuery → spec validateDecay).
 */
export function decayPlan(table: string, metric: Metric, q: RecallQuery): RecallPlan {
  const params: unknown[] = [vectorToLiteral(q.vector)];
  const sim = metric === 'ip' ? `(-(embedding <#> $1::vector))` : `(1 - (embedding ${DISTANCE_OPERATOR[metric]} $1::vector))`;
  const where = whereClause(q.filter, params);
  params.push(q.now, q.decay!.halfLifeMs);
  const [now, h] = [`$${params.length - 1}::timestamptz`, `$${params.length}::float8`];
  const age = `(GREATEST(0, (extract(epoch FROM ${now}) - extract(epoch FROM created_at)) * 1000))::float8`;
  const factor = q.decay!.fn === 'exponential' ? `power(0.5::float8, ${age} / ${h})` : `(1::float8 / (1::float8 + ${age} / ${h}))`;
  params.push(q.k);
  // OFFSET 0 fences the subquery as for an exact recall (recall-sql.ts): a sequential scan, no settings, one statement.
  const sql = `SELECT id, s FROM (SELECT id, ${sim} * ${factor} AS s FROM ${ident(table)} ${where} OFFSET 0) AS x ` + `ORDER BY s DESC, id LIMIT $${params.length}`;
  return { mode: 'decay', settings: [], sql, params, decayed: true };
}
