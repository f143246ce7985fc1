/**
 * The answer `MemoryCollection.get(ids)` owes (adapter.ts): the records `found` holds, in the order
 * `ids` asks for them, each id once (at its first occurrence: a repeated id is not returned
 * twice), ids `found` lacks left out. `found` maps id → record as the adapter read it; the records
 * are returned as they are (no copy). Pure; never throws.
 */
export function inAskedOrder<T>(ids: readonly string[], found: ReadonlyMap<string, T>): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const id of ids) {
    if (seen.has(id)) continue;
    seen.add(id);
    const r = found.get(id);
    if (r !== undefined) out.push(r);
  }
  return out;
}
