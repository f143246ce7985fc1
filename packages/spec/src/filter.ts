import { evaluateFilter } from './filter-lang/evaluate';
import type { FilterJson } from './filter-lang/types';
import type { MemoryKind, RecallFilter } from './types';

/**
 * The parts of a memory a `RecallFilter` looks at: `createdAt` (canonical instant) is needed only
 * by a `where` that reads it; `metadata` may hold nested objects and arrays (`Metadata` fits).
 */
export interface FilterableRecord {
  namespace: string;
  kind: MemoryKind;
  createdAt?: string;
  metadata: Readonly<Record<string, FilterJson>>;
}

/**
 * Whether a memory passes a recall filter (the reference semantics every adapter must match,
 * docs/checks.md C04 and C25). All given parts must hold (AND):
 * - `namespaces`: `record.namespace` is one of them (IN; an empty list matches nothing);
 * - `kinds`: `record.kind` is one of them (IN; an empty list matches nothing);
 * - `metadata`: for each key, `record.metadata` has that key as its own property and its value
 *   is strictly equal (`===`, so type and value: `0` ≠ `false` ≠ `""` ≠ `null`; a missing key
 *   never matches, not even `null`). An empty `metadata` object adds no condition.
 * - `where`: the filter language's reference semantics (filter-lang/evaluate.ts `evaluateFilter`,
 *   docs/filters.md).
 * No filter (`undefined`) matches every record. Pure; throws INVALID_INPUT only for a `where`
 * that reads `createdAt` of a record given without one.
 */
export function matchesFilter(record: FilterableRecord, filter?: RecallFilter): boolean {
  if (filter === undefined) return true;
  if (filter.namespaces !== undefined && !filter.namespaces.includes(record.namespace)) return false;
  if (filter.kinds !== undefined && !filter.kinds.includes(record.kind)) return false;
  if (filter.metadata !== undefined) {
    for (const key of Object.keys(filter.metadata)) {
      if (!Object.prototype.hasOwnProperty.call(record.metadata, key)) return false;
      if (record.metadata[key] !== filter.metadata[key]) return false;
    }
  }
  if (filter.where !== undefined && !evaluateFilter(filter.where, record)) return false;
  return true;
}
