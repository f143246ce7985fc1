import type { MemoryStore } from '../adapter';
import { MemoryMatrixError } from '../errors';

/** A collection a cell created, and the client that created it (it drops it). */
export interface CreatedCollection {
  store: MemoryStore;
  name: string;
}

/** What a cell holds when a check starts: how many clients and collections (`LiveCell.mark`). */
export interface CellMark {
  stores: number;
  created: number;
}

/** What `dropAndClose` could not release, with the errors (in the order they happened). */
export interface Leftovers {
  created: CreatedCollection[];
  stores: MemoryStore[];
  errors: unknown[];
}

/**
 * Drop `created` (newest first), then close `stores`, each step tried once. A client whose
 * collection could not be dropped is left open when `keepClientOfFailedDrop` (so a later cleanup can
 * retry the drop with it); otherwise it is closed too. Never throws: what failed is returned.
 */
export async function dropAndClose(created: readonly CreatedCollection[], stores: readonly MemoryStore[], keepClientOfFailedDrop: boolean): Promise<Leftovers> {
  const out: Leftovers = { created: [], stores: [], errors: [] };
  for (const c of [...created].reverse())
    await c.store.dropCollection(c.name).catch((e: unknown) => {
      out.errors.push(e);
      out.created.push(c);
    });
  for (const s of stores) {
    if (keepClientOfFailedDrop && out.created.some((c) => c.store === s)) out.stores.push(s);
    else
      await s.close().catch((e: unknown) => {
        out.errors.push(e);
        out.stores.push(s);
      });
  }
  return out;
}

/**
 * Drop the collections and close the clients of `held` made since `mark` — a check's own, released
 * when it ends as an application releases what it opened, instead of when the cell ends (a layer
 * whose every client keeps a pool, e.g. Mastra's PgVector with up to 20 connections each, would
 * otherwise hold them all: the server's max_connections ran out at the cell's 14th check) — except
 * the collection named `golden` and its client. What fails to drop or close stays in `held` for
 * the cell's final cleanup (which retries and reports it). Mutates `held`; never throws.
 */
export async function releaseSince(held: { stores: MemoryStore[]; created: CreatedCollection[] }, mark: CellMark, golden: string | undefined): Promise<void> {
  const mine = held.created.splice(mark.created);
  const kept = mine.filter((c) => c.name === golden);
  const keptStores = new Set(kept.map((c) => c.store));
  const stores = held.stores.splice(mark.stores);
  const left = await dropAndClose(
    mine.filter((c) => c.name !== golden),
    stores.filter((s) => !keptStores.has(s)),
    true,
  );
  held.created.push(...kept, ...left.created);
  held.stores.push(...stores.filter((s) => keptStores.has(s)), ...left.stores);
}

/** BACKEND_ERROR `cleanup of <target> failed: <first error>; left behind: <what>` for `left`, or undefined when nothing failed. */
export function cleanupError(target: string, left: Leftovers): MemoryMatrixError | undefined {
  if (!left.errors.length) return undefined;
  const what = [left.created.length ? `collection(s) ${left.created.map((c) => c.name).join(', ')} (drop failed)` : '', left.stores.length ? `${left.stores.length} client(s) not closed` : '']
    .filter(Boolean)
    .join(', ');
  return new MemoryMatrixError('BACKEND_ERROR', `cleanup of ${target} failed: ${String(left.errors[0])}; left behind: ${what}`, { cause: left.errors[0] });
}
