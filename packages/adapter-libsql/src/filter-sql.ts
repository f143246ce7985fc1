import type { RecallFilter } from '@memory-matrix/spec';

/**
 * The WHERE clause of a recall/count filter on the records table aliased `r` (spec
 * `matchesFilter` semantics); every value travels as a bind parameter pushed onto `params`.
 * namespaces / kinds: `IN (SELECT value FROM json_each(?))` (an empty list matches nothing);
 * metadata, per key: `EXISTS (SELECT 1 FROM json_each(r.metadata) WHERE key = ? AND <type test>)`,
 * the JSON type compared first so 0 ≠ false ≠ "" ≠ null (json_each `type`: null, true, false,
 * integer, real, text); a missing key never matches. Returns '' for no filter.
 * The same SQLite dialect as adapter-sqlite's recall-sql.ts `filterSql`: a kit helper to be
 * (issue 33 step 6; the report lists it).
 */
export function filterSql(filter: RecallFilter | undefined, params: unknown[]): string {
  const parts: string[] = [];
  for (const [col, list] of [
    ['namespace', filter?.namespaces],
    ['kind', filter?.kinds],
  ] as const) {
    if (list === undefined) continue;
    params.push(JSON.stringify(list));
    parts.push(`r.${col} IN (SELECT value FROM json_each(?))`);
  }
  for (const [key, value] of Object.entries(filter?.metadata ?? {})) {
    params.push(key);
    let test: string;
    if (value === null) test = `type = 'null'`;
    else if (typeof value === 'boolean') test = `type = '${value ? 'true' : 'false'}'`;
    else {
      params.push(value);
      test = typeof value === 'string' ? `type = 'text' AND atom = ?` : `type IN ('integer', 'real') AND atom = ?`;
    }
    parts.push(`EXISTS (SELECT 1 FROM json_each(r.metadata) WHERE key = ? AND ${test})`);
  }
  return parts.join(' AND ');
}
