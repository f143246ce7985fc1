import type { MemoryCollection, ScanOptions } from './adapter';
import { MemoryMatrixError } from './errors';
import type { MemoryRecord } from './types';

/** Largest `limit` one `MemoryCollection.scan` page may ask for. */
export const MAX_SCAN_LIMIT = 10_000;

/**
 * Id order of `scan`: UTF-8 byte order (= Unicode code point order = PostgreSQL `COLLATE "C"`).
 * It differs from JS `<` (UTF-16 code units) only when a supplementary character (emoji …)
 * meets one in U+E000–U+FFFF; every backend can sort by it, so pages agree across backends.
 * Returns < 0, 0, > 0.
 */
export function compareIdsBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x - y;
    if (x > 0xffff) i++; // both are the same surrogate pair
  }
  return a.length - b.length;
}

/**
 * Validate a scan request (`where` names the adapter and collection for the message):
 * `limit` an integer 1..MAX_SCAN_LIMIT, `after` absent or a string. Throws INVALID_INPUT.
 */
export function validateScanOptions(opts: ScanOptions, where: string): { after?: string; limit: number } {
  if (typeof opts !== 'object' || opts === null) throw new MemoryMatrixError('INVALID_INPUT', `${where}: scan needs { after?, limit }`);
  const { after, limit } = opts;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_SCAN_LIMIT) {
    throw new MemoryMatrixError('INVALID_INPUT', `${where}: scan limit must be an integer 1..${MAX_SCAN_LIMIT}, got ${JSON.stringify(limit)}`);
  }
  if (after !== undefined && typeof after !== 'string') {
    throw new MemoryMatrixError('INVALID_INPUT', `${where}: scan after must be an id (string), got ${JSON.stringify(after)}`);
  }
  return { after, limit };
}

/**
 * One keyset page out of a full, unordered id listing (adapters whose backend cannot range-scan
 * ids: Redis hash fields, Chroma): sort by `compareIdsBytes`, keep ids after `after`, take `limit`.
 * O(n log n) per page over all n ids. Duplicate ids in `ids` are kept once.
 */
export function keysetPage(ids: Iterable<string>, after: string | undefined, limit: number): string[] {
  const sorted = [...new Set(ids)].sort(compareIdsBytes);
  const from = after === undefined ? 0 : sorted.findIndex((id) => compareIdsBytes(id, after) > 0);
  return from < 0 ? [] : sorted.slice(from, from + limit);
}

/** What `scanAll` read: every record in id order and the page count. */
export interface ScanAllResult {
  records: MemoryRecord[];
  pages: number;
}

/**
 * Read a whole collection through `scan` in pages of `pageSize` (1..MAX_SCAN_LIMIT), checking the
 * contract as it goes: each page strictly ascending in id order and after the previous page's
 * last id, never longer than asked; a page shorter than `pageSize` is the last. `onPage(done)` reports progress. Throws CAPABILITY_MISSING
 * when the collection has no `scan`, BACKEND_ERROR naming `where`, the page and the ids when a
 * page breaks the order (a repeat or an id going back), and whatever `scan` throws.
 */
export async function scanAll(collection: MemoryCollection, pageSize: number, where: string, onPage?: (done: number) => void): Promise<ScanAllResult> {
  if (typeof collection.scan !== 'function') {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${where}: the adapter's collection has no scan(); it cannot be read whole`);
  }
  const records: MemoryRecord[] = [];
  let after: string | undefined;
  let pages = 0;
  for (;;) {
    const page = await collection.scan({ after, limit: pageSize });
    pages++;
    if (page.length > pageSize) throw new MemoryMatrixError('BACKEND_ERROR', `${where}: scan page ${pages} returned ${page.length} records, more than the limit ${pageSize}`);
    for (const r of page) {
      if (after !== undefined && compareIdsBytes(r.id, after) <= 0) {
        throw new MemoryMatrixError('BACKEND_ERROR', `${where}: scan page ${pages}: id ${JSON.stringify(r.id)} does not come after ${JSON.stringify(after)} (a repeat or out of id order)`);
      }
      after = r.id;
      records.push(r);
    }
    onPage?.(records.length);
    if (page.length < pageSize) return { records, pages };
  }
}
