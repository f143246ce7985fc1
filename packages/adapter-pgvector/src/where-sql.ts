import type { RecallFilter } from '@memory-matrix/spec';
import { compileFilterSql } from './filter-sql';

// What the two recall builders share, recall-sql.ts (plain and ANN recall) and decay-sql.ts
// (decayed recall): the WHERE clause of a filter and the shape of a plan.

/**
 * The WHERE clause of a recall filter (`''` when it filters nothing); every value the caller
 * supplies is pushed on `params` and travels as a bind parameter.
 *
 * Filter semantics (spec `matchesFilter`): namespace IN, kind IN (an empty list matches nothing),
 * metadata: `metadata @> $n::jsonb`. jsonb containment compares JSON types, so `{"a":0}` matches
 * 0 but not false or "" (verified in test/pgvector.test.ts), a key given as null matches only a
 * present null, and a missing key never matches. `where` (the filter language): filter-sql.ts
 * `compileFilterSql`, ANDed with the parts above.
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
  if (filter?.where !== undefined) parts.push(compileFilterSql(filter.where, params));
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

/** One recall: statements setting transaction-local settings to run first (same transaction; none: the query alone, no transaction), then the query. */
export interface RecallPlan {
  settings: string[];
  sql: string;
  params: unknown[];
  /** What the plan forces: `exact` (sequential scan), `hnsw`, `ivfflat`, `none` (no index built), or `decay` (decay-sql.ts). */
  mode: 'exact' | 'hnsw' | 'ivfflat' | 'none' | 'decay';
  /** `decay` plans return `{ id, s }` with s the decayed canonical score; the others `{ id, d }` (native distance). */
  decayed?: boolean;
}
