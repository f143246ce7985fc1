import { MemoryMatrixError, type Metadata, type RecallFilter } from '@memory-matrix/spec';
import { metadataToken } from './codec';
import { ADAPTER } from './context';
import { compileLanceFilter } from './filter-sql';
import { quoteString } from './quote';

export { quoteString } from './quote';

/**
 * LanceDB SQL predicates (`where` / `countRows` / `delete`: DataFusion SQL over the table's
 * columns). LanceDB has no bind parameters for predicates, so every value the caller supplies is
 * written as a string literal by `quoteString` and every column name passes `column`; nothing
 * else is concatenated.
 */

/** Column names a predicate may use: lower-case SQL identifiers, written bare. */
const IDENT = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * A validated identifier (`[a-z_][a-z0-9_]{0,62}`), returned as is. Throws INVALID_INPUT naming
 * it otherwise: an identifier is never quoted or escaped into a predicate.
 */
export function column(name: string): string {
  if (!IDENT.test(name)) throw new MemoryMatrixError('INVALID_INPUT', `${ADAPTER}: ${JSON.stringify(name)} is not a column identifier ([a-z_][a-z0-9_]{0,62})`);
  return name;
}

/** `col IN ('a', 'b')`; an empty list matches nothing (`false`). */
export function inList(col: string, values: readonly string[]): string {
  if (values.length === 0) return 'false';
  return `${column(col)} IN (${values.map(quoteString).join(', ')})`;
}

/**
 * The predicate of a recall/count filter (spec `matchesFilter`), or undefined for none:
 * - namespaces: `namespace IN (…)`; kinds: `kind IN (…)` (an empty list matches nothing);
 * - metadata, per key: `array_has(meta_tokens, '<token>')`, where the token is the JSON text of
 *   `[key, value]` (codec.ts `metadataToken`), so the JSON type is part of the comparison:
 *   `0`, `false`, `""` and `null` are different tokens, a missing key has no token;
 * - where (the filter language): filter-sql.ts `compileLanceFilter`.
 * Parts are joined with AND.
 */
export function filterPredicate(filter: RecallFilter | undefined): string | undefined {
  const parts: string[] = [];
  if (filter?.namespaces !== undefined) parts.push(inList('namespace', filter.namespaces));
  if (filter?.kinds !== undefined) parts.push(inList('kind', filter.kinds));
  for (const [key, value] of Object.entries(filter?.metadata ?? ({} as Metadata))) {
    parts.push(`array_has(${column('meta_tokens')}, ${quoteString(metadataToken(key, value))})`);
  }
  if (filter?.where !== undefined) parts.push(compileLanceFilter(filter.where));
  return parts.length ? parts.map((p) => `(${p})`).join(' AND ') : undefined;
}
