import type { MemoryCollection } from '../../adapter';
import type { Failure } from '../../comparator';
import type { LiveCell } from '../../conformance/cell';
import { MemoryMatrixError } from '../../errors';
import { matchesFilter } from '../../filter';
import type { ExactOracle } from '../../oracle';
import { MAX_RECALL_K, type MemoryRecord, type RecallFilter } from '../../types';
import { failure } from '../check';
import { oracleOver, placementOf, reachK } from './placement';
import { describeDifference } from './sampling';

/*
 * Every delete a check performs, verified after it returns (issue 36, kind 3: a delete that
 * reports the right count but leaves the rows passed C25, which trusted the count). No check may
 * call `MemoryCollection.delete` except through `deleteVerified`.
 */

/**
 * One delete of a check, on a collection whose whole contents the check knows:
 * - `deleted`: the stored versions of the memories to delete (distinct ids, each stored, ≥ 1);
 * - `kept`: EVERY other memory the collection holds, as stored (any namespace; may be empty) —
 *   all must still be there, identical, after the delete;
 * - `what`: the delete in words for failure messages (e.g. `delete of user-a's first 20 memories`);
 * - `kind`: the calling check's failure kind (`isolation`, `read-your-writes`, …);
 * - `filter`: when given, the delete is `deleteWhere(filter)` (capability `deleteByFilter`)
 *   instead of `delete(ids)`, and `deleted` must be exactly the memories of `deleted` + `kept`
 *   that the reference (spec `matchesFilter`) says it matches.
 */
export interface CheckedDelete {
  deleted: readonly MemoryRecord[];
  kept: readonly MemoryRecord[];
  what: string;
  kind: Failure['kind'];
  filter?: RecallFilter;
}

/**
 * What `deleteVerified` saw: `reported` the count `delete` returned, `countBefore` / `countAfter`
 * the collection's `count()` around it, `recalls` the verifying recalls run, `failures` (empty when
 * the delete did exactly what it reported), `notes` (a deleted memory whose own vector ranks it
 * past `MAX_RECALL_K`, so a recall could not show it).
 */
export interface DeleteVerdict {
  reported: number;
  countBefore: number;
  countAfter: number;
  recalls: number;
  failures: Failure[];
  notes: string[];
}

/** How many ids a failure message lists before `…`. */
const LISTED = 5;

/**
 * Deletes `d.deleted` from `collection` (the writing client's handle) and verifies it, each step
 * on that same client, with no sleep or retry (the reads a check makes after any write; C27
 * judges other clients): `count()` before; `delete` of the ids (or `deleteWhere(d.filter)`), which
 * must report `deleted.length` (compared, never trusted);
 * then `afterAck` (C27's own reads, which must come first after the acknowledgement) when given;
 * then
 * 1. get: `get` of the deleted ids returns none of them;
 * 2. count: `count()` dropped by exactly `deleted.length`;
 * 3. recall: for each deleted memory, a recall with its own embedding (exact scan where the target
 *    has `exactScan`, else the index path, unfiltered) returns no deleted id. k is the whole
 *    collection as it was (min(`MAX_RECALL_K`, memories before)) so a leftover row shows whatever
 *    its rank; above `MAX_RECALL_K` memories, k reaches the memory's own tie group in the exact
 *    ranking of the collection before the delete (placement.ts `placementOf` / `reachK`, the
 *    target's `tieEpsilon` scaled by the tolerance model), a group past `MAX_RECALL_K` noted;
 * 4. kept: `get` of every kept memory returns each, identical to `kept` (sampling.ts
 *    `describeDifference`, with the target's `embeddingReadback`);
 * 5. with a `filter` only: `count(filter)` is 0, and `count({ namespaces: [ns] })` of every
 *    namespace of `deleted` + `kept` is the number of `kept` memories in it (filteredCounts).
 * Each failure names the dataset and target (`failure`), the collection, the step, the ids and
 * what came back. Throws INVALID_INPUT for an empty `deleted`, a repeated id, or an id both
 * deleted and kept, a `filter` whose reference matches are not exactly `deleted`, a `filter` on a
 * collection without `deleteWhere` (a check's own bug); what the collection's methods throw.
 */
export async function deleteVerified(cell: LiveCell, collection: MemoryCollection, d: CheckedDelete, afterAck?: () => Promise<void>): Promise<DeleteVerdict> {
  const ids = d.deleted.map((r) => r.id);
  const gone = new Set(ids);
  if (!ids.length) throw new MemoryMatrixError('INVALID_INPUT', `deleteVerified (${d.what}): no memory to delete`);
  if (gone.size !== ids.length) throw new MemoryMatrixError('INVALID_INPUT', `deleteVerified (${d.what}): a deleted id repeats`);
  const both = d.kept.find((r) => gone.has(r.id));
  if (both) throw new MemoryMatrixError('INVALID_INPUT', `deleteVerified (${d.what}): ${both.id} is both deleted and kept`);
  const where = `${d.what} (${ids.length} id${ids.length === 1 ? '' : 's'}) on collection ${collection.spec.name}`;
  const fail = (message: string, extra: Partial<Failure> = {}): Failure => failure(cell, d.kind, `${where}: ${message}`, extra);
  const failures: Failure[] = [];
  const notes: string[] = [];

  const countBefore = await collection.count();
  if (d.filter) {
    const f = d.filter;
    const off = [...d.deleted.filter((r) => !matchesFilter(r, f)), ...d.kept.filter((r) => matchesFilter(r, f))];
    if (off.length)
      throw new MemoryMatrixError('INVALID_INPUT', `deleteVerified (${d.what}): ${off[0]!.id} is ${gone.has(off[0]!.id) ? 'deleted but not matched by' : 'kept but matched by'} the filter`);
    if (!collection.deleteWhere) throw new MemoryMatrixError('INVALID_INPUT', `deleteVerified (${d.what}): collection ${collection.spec.name} has no deleteWhere`);
  }
  const reported = d.filter ? await collection.deleteWhere!(d.filter) : await collection.delete([...ids]);
  const why = d.filter ? 'the memories the reference matches' : 'every id was stored';
  if (reported !== ids.length) failures.push(fail(`delete reported ${reported} deleted, expected ${ids.length} (${why})`, { expected: ids.length, actual: reported }));
  if (afterAck) await afterAck();

  const left = await collection.get([...ids]);
  if (left.length) failures.push(fail(`step get: get of the deleted ids returned ${left.length} of them: ${list(left.map((r) => r.id))}`, { id: left[0]!.id, expected: 0, actual: left.length }));

  const countAfter = await collection.count();
  if (countAfter !== countBefore - ids.length)
    failures.push(
      fail(`step count: count() was ${countBefore} before and is ${countAfter} after, expected ${countBefore - ids.length} (a drop of ${ids.length})`, {
        expected: countBefore - ids.length,
        actual: countAfter,
      }),
    );

  const scan = cell.config.capabilities.exactScan ? ('exact' as const) : ('index' as const);
  const total = Math.max(countBefore, d.kept.length + ids.length);
  let oracle: ExactOracle | undefined;
  for (const r of d.deleted) {
    let k = Math.min(MAX_RECALL_K, total);
    if (total > MAX_RECALL_K) {
      oracle ??= oracleOver([...d.kept, ...d.deleted], cell.dataset.manifest.dim, cell.dataset.manifest.metric);
      const p = placementOf(oracle, r.id, r.embedding, cell.config.tolerances.tieEpsilon);
      k = reachK(p, 10);
      if (p.end > MAX_RECALL_K)
        notes.push(
          `${where}: ${r.id}'s own embedding ranks it at ${p.start + 1}-${p.end} of the ${total} memories before the delete, past k ${MAX_RECALL_K}: a leftover row of it cannot show in a recall`,
        );
    }
    const hits = await collection.recall({ vector: r.embedding, k, scan });
    const back = hits.flatMap((h, i) => (gone.has(h.id) ? [`${h.id} (rank ${i + 1}, score ${h.score})`] : []));
    if (back.length)
      failures.push(
        fail(`step recall: recall (${scan} scan, k ${k}) with the embedding of deleted ${r.id} returned ${back.length} deleted ids: ${list(back)}`, {
          id: r.id,
          scan,
          expected: 0,
          actual: back.length,
        }),
      );
  }

  const stored = new Map((await collection.get(d.kept.map((r) => r.id))).map((r) => [r.id, r]));
  const wrong: string[] = [];
  for (const r of d.kept) {
    const b = stored.get(r.id);
    const diff = b ? describeDifference(r, b, cell.config.tolerances.embeddingReadback, cell.config.capabilities.embeddingReadBack) : 'missing';
    if (diff) wrong.push(`${r.id}: ${diff}`);
  }
  if (wrong.length)
    failures.push(
      fail(`step kept: ${wrong.length} of the ${d.kept.length} memories not deleted are missing or changed: ${list(wrong)}`, { expected: d.kept.length, actual: d.kept.length - wrong.length }),
    );
  if (d.filter) failures.push(...(await filteredCounts(collection, d.filter, d, fail)));
  return { reported, countBefore, countAfter, recalls: d.deleted.length, failures, notes };
}

/**
 * Step 5 of a filtered delete: `count(filter)` is 0 after it, and each namespace of `deleted` +
 * `kept` counts exactly its kept memories (a delete that reached another user, or left some of the
 * matched ones, shows per namespace even when the totals happen to agree).
 */
async function filteredCounts(collection: MemoryCollection, filter: RecallFilter, d: CheckedDelete, fail: (m: string, extra?: Partial<Failure>) => Failure): Promise<Failure[]> {
  const out: Failure[] = [];
  const same = await collection.count(filter);
  if (same !== 0) out.push(fail(`step filtered count: count under the delete's own filter is ${same} after it, expected 0`, { expected: 0, actual: same }));
  const namespaces = [...new Set([...d.deleted, ...d.kept].map((r) => r.namespace))].sort();
  for (const ns of namespaces) {
    const want = d.kept.filter((r) => r.namespace === ns).length;
    const n = await collection.count({ namespaces: [ns] });
    if (n !== want) out.push(fail(`step filtered count: count of namespace ${ns} is ${n} after the delete, expected ${want} (its memories not deleted)`, { expected: want, actual: n }));
  }
  return out;
}

/** The first `LISTED` items, comma-separated, `…` when there are more. */
function list(items: readonly string[]): string {
  return items.slice(0, LISTED).join(', ') + (items.length > LISTED ? `, … (${items.length} in all)` : '');
}
