import type { MemoryCollection } from './adapter';
import { hasCode } from './errors';
import { diffRecords } from './record-diff';
import { compareIdsBytes, scanAll } from './scan';
import type { MemoryRecord } from './types';

/**
 * The scan contract (adapter.ts `MemoryCollection.scan`) checked against a collection holding
 * exactly `written` (the adapter tests call it after an upsert; records as written, the last one
 * per id). For each page size: paging is complete (every id once, none extra), strictly ascending
 * in `compareIdsBytes` order, and every record equals what was written (text, metadata, createdAt
 * byte for byte, embedding bit-exact). Also: `after` = the last id gives `[]`; `after` = an id that
 * is not stored (between two stored ids) starts at the next stored one; limit 0 and 10001 are
 * INVALID_INPUT. Returns one line per problem (empty = conforms); throws only what `scan` throws
 * unexpectedly.
 */
export async function scanConformance(collection: MemoryCollection, written: MemoryRecord[], pageSizes: number[] = [1, 7, 100, 10_000]): Promise<string[]> {
  const problems: string[] = [];
  const want = new Map(written.map((r) => [r.id, r]));
  const order = [...want.keys()].sort(compareIdsBytes);
  for (const size of pageSizes) {
    const { records, pages } = await scanAll(collection, size, `scan conformance (page ${size})`);
    const seen = new Set<string>();
    for (const r of records) {
      if (seen.has(r.id)) problems.push(`page size ${size}: id ${r.id} returned twice`);
      seen.add(r.id);
      const w = want.get(r.id);
      if (!w) problems.push(`page size ${size}: id ${r.id} was never written`);
      else problems.push(...diffRecords(w, r).map((d) => `page size ${size}: ${d.message}`));
    }
    const missing = order.filter((id) => !seen.has(id));
    if (missing.length) problems.push(`page size ${size}: ${missing.length} ids missing, e.g. ${missing.slice(0, 3).join(', ')}`);
    const got = records.map((r) => r.id).join('\n');
    if (got !== order.filter((id) => seen.has(id)).join('\n')) problems.push(`page size ${size}: ids not in UTF-8 byte order`);
    const expectPages = Math.floor(order.length / size) + 1;
    if (pages !== expectPages) problems.push(`page size ${size}: ${pages} pages, expected ${expectPages} for ${order.length} records`);
  }
  if (order.length > 0) {
    const tail = await collection.scan!({ after: order[order.length - 1], limit: 10 });
    if (tail.length) problems.push(`after the last id ${order[order.length - 1]}: ${tail.length} records, expected none`);
    const gap = order.findIndex((id, i) => i > 0 && !want.has(`${order[i - 1]}\u0001`) && compareIdsBytes(`${order[i - 1]}\u0001`, id) < 0);
    if (gap > 0) {
      const page = await collection.scan!({ after: `${order[gap - 1]}\u0001`, limit: 1 });
      if (page[0]?.id !== order[gap]) problems.push(`after an id that is not stored (${JSON.stringify(`${order[gap - 1]}\\u0001`)}): first id ${page[0]?.id}, expected ${order[gap]}`);
    }
  }
  for (const limit of [0, 10_001]) {
    try {
      await collection.scan!({ limit });
      problems.push(`limit ${limit}: accepted, expected INVALID_INPUT`);
    } catch (e) {
      if (!hasCode(e, 'INVALID_INPUT')) problems.push(`limit ${limit}: ${(e as Error).message}, expected INVALID_INPUT`);
    }
  }
  return problems;
}
