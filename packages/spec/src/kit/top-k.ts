// Tie-complete top-k for adapters (issue 33 kit): the "fetch k + margin, widen while the tie
// group at rank k is cut" loop, the minScore post-filter and the (score, id) order that the
// sqlite, libsql, lancedb, redis, chroma and milvus adapters each had a copy of.
import type { RecallHit } from '../types';

/**
 * Extra rows an adapter fetches beyond k so that a tie group at rank k can be ordered by id
 * (C07): 16, the margin every adapter has used since the pgvector adapter's tie window.
 */
export const TIE_MARGIN = 16;

/**
 * Whether `rows` (sorted, best first), fetched with a limit of `fetched`, may end inside the tie
 * group at rank `k`: the store returned the full `fetched` rows, more than `k` of them, and the
 * last row's `key` (distance or score) equals the k-th row's. Pure; no error.
 */
export function tieGroupCut<T>(rows: readonly T[], k: number, fetched: number, key: (row: T) => number): boolean {
  return rows.length === fetched && rows.length > k && key(rows[rows.length - 1]!) === key(rows[k - 1]!);
}

/**
 * Options of `tieCompleteTopK`: `k` the rank to cut at (≥ 1); `key` the value ties are judged on
 * (the store's distance or score of a row); `max` the largest fetch the store allows or that can
 * hold more rows (vec0's k limit, a set's cardinality; default unbounded); `start` the first
 * fetch (default k + TIE_MARGIN), both in rows.
 */
export interface TopKOptions<T> {
  k: number;
  key: (row: NoInfer<T>) => number;
  max?: number;
  start?: number;
}

/**
 * The first `k` of the rows a store returns for a fetch of `n`, with the tie group at rank k
 * complete: fetches n = min(max, start) rows, and while they end inside the tie group at rank k
 * (`tieGroupCut`) and n < max, doubles n (capped at max) and fetches again. `fetch(n)` must return
 * at most n rows sorted best first with ties by id (so the cut orders a complete group by id).
 * Returns at most k rows; throws whatever `fetch` throws (nothing of its own).
 */
export async function tieCompleteTopK<T>(opts: TopKOptions<T>, fetch: (n: number) => Promise<T[]>): Promise<T[]> {
  const max = opts.max ?? Infinity;
  for (let n = Math.min(max, opts.start ?? opts.k + TIE_MARGIN); ; n = Math.min(max, n * 2)) {
    const rows = await fetch(n);
    if (!tieGroupCut(rows, opts.k, n, opts.key) || n >= max) return rows.slice(0, opts.k);
  }
}

/** `tieCompleteTopK` for a synchronous store (better-sqlite3, libSQL's local client): same loop, same rules, no promise. */
export function tieCompleteTopKSync<T>(opts: TopKOptions<T>, fetch: (n: number) => T[]): T[] {
  const max = opts.max ?? Infinity;
  for (let n = Math.min(max, opts.start ?? opts.k + TIE_MARGIN); ; n = Math.min(max, n * 2)) {
    const rows = fetch(n);
    if (!tieGroupCut(rows, opts.k, n, opts.key) || n >= max) return rows.slice(0, opts.k);
  }
}

/**
 * The hits whose canonical score is ≥ `minScore` (all of them when it is undefined): the
 * post-filter every adapter applies on the canonical float64 score, so every target cuts at the
 * same value (docs/checks.md C06). Keeps order; pure.
 */
export function keepMinScore<H extends { score: number }>(hits: H[], minScore: number | undefined): H[] {
  return minScore === undefined ? hits : hits.filter((h) => h.score >= minScore);
}

/** Comparator of hits by score descending, then id ascending in UTF-16 code units (the recall order, C07). */
export function byScoreThenId(a: Pick<RecallHit, 'id' | 'score'>, b: Pick<RecallHit, 'id' | 'score'>): number {
  return b.score !== a.score ? b.score - a.score : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The records of one upsert call with each id once, the LAST record with an id winning (C21).
 * `order`: 'first' (default) keeps them in the order each id first appears, 'last' in the order
 * of each id's last occurrence (the winning record's position in the call). Pure; no error.
 */
export function lastWriteWins<R extends { id: string }>(records: readonly R[], order: 'first' | 'last' = 'first'): R[] {
  if (order === 'last') {
    const at = new Map<string, number>();
    records.forEach((r, i) => at.set(r.id, i));
    return [...at.values()].sort((a, b) => a - b).map((i) => records[i]!);
  }
  const last = new Map<string, R>();
  for (const r of records) last.set(r.id, r);
  return [...last.values()];
}
