import { filterToSurface } from '../../filter-lang/describe';
import { evaluateFilter } from '../../filter-lang/evaluate';
import { parseFilter } from '../../filter-lang/parse';
import type { FilterExpr } from '../../filter-lang/types';
import { MEMORY_KINDS, type MemoryRecord } from '../../types';

/*
 * C25's `where`-scoped delete: the condition ANDed with one user's namespace, chosen from the
 * data so that it works on any dataset (issue 34 step 5). A layer that drops the `where` part and
 * deletes the whole namespace leaves none of the user's unmatched memories; one that drops the
 * namespace part deletes the other user's matched ones.
 */

/**
 * The condition of the scoped delete: `expr` (built with `parseFilter`), its surface form `text`
 * for messages and figures, and how many of the user's (`own`) and the other user's (`other`)
 * memories it matches under the reference semantics (`evaluateFilter`).
 */
export interface SplitCondition {
  expr: FilterExpr;
  text: string;
  own: number;
  other: number;
}

/**
 * A `$eq` condition on `kind`, or on one flat metadata key holding a string or a finite number,
 * that matches some but not all of `own` (1 ≤ matches < own.length): the first candidate in a
 * fixed order — kinds in `MEMORY_KINDS` order, then metadata keys in code-unit order, each key's
 * values in `own` order — that also matches ≥ 1 of `other`, else the first that splits `own` alone;
 * null when none splits (every memory of `own` alike in kind and every usable metadata value), or
 * `own` has fewer than 2 memories. Keys beginning with `$` or empty are skipped (not filter paths);
 * a key's dots and backslashes are escaped for `parseFilter`. Pure: nothing is written.
 */
export function splitCondition(own: readonly MemoryRecord[], other: readonly MemoryRecord[]): SplitCondition | null {
  if (own.length < 2) return null;
  const candidates: unknown[] = [];
  for (const k of MEMORY_KINDS) if (own.some((r) => r.kind === k)) candidates.push({ kind: k });
  const keys = [...new Set(own.flatMap((r) => Object.keys(r.metadata)))].filter((k) => k && !k.startsWith('$')).sort();
  for (const key of keys) {
    const path = `metadata.${key.replace(/\\/g, '\\\\').replace(/\./g, '\\.')}`;
    const seen = new Set<string | number>();
    for (const r of own) {
      const v = r.metadata[key];
      if ((typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v))) && !seen.has(v)) {
        seen.add(v);
        candidates.push({ [path]: v });
      }
    }
  }
  let fallback: SplitCondition | null = null;
  for (const surface of candidates) {
    const expr = parseFilter(surface, 'C25 where-scoped delete');
    const n = own.filter((r) => evaluateFilter(expr, r)).length;
    if (n < 1 || n >= own.length) continue;
    const c = { expr, text: JSON.stringify(filterToSurface(expr)), own: n, other: other.filter((r) => evaluateFilter(expr, r)).length };
    if (c.other > 0) return c;
    fallback ??= c;
  }
  return fallback;
}
