import type { MemoryCollection } from '../adapter';
import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import { isMemoryMatrixError, MemoryMatrixError } from '../errors';
import type { MemoryRecord, RecallQuery } from '../types';
import { type CheckDefinition, type CheckOutcome, failure } from './check';

/** Memories written into each scratch collection before the store is made to fail. */
const SEED = 5;
/** The fewest memories C29 runs on: SEED + the one written on the stale handle. */
export const C29_MIN_MEMORIES = SEED + 1;

/**
 * C29 backend-errors: the store is made to fail in ways every target allows, without the `faults`
 * capability, and every call must reject with a coded MemoryMatrixError — never resolve, never
 * return an empty result:
 * 1. dropped (layer behaviour `dropRemoves`): another client drops the collection behind the adapter's back; `upsert`, `recall`,
 *    `count` and `get` on the stale handle;
 * 2. recreated (`dropRemoves`): another client drops it and creates one of the same name with dim + 1; the stale
 *    handle's `upsert` and `recall` of vectors of the old dim pass the adapter's own guard (its
 *    spec says the old dim), so the SERVER must refuse them;
 * 3. closed (capabilities `reopen`, `closeReleases`): a second client opens the collection and is closed; `upsert`,
 *    `recall`, `count` on its handle;
 * 4. payload: a memory whose text and metadata value contain U+0000 (PostgreSQL text and jsonb
 *    refuse it): either refused with a coded error and nothing of it stored, or stored exactly
 *    (`get` returns the same text and metadata) — never acknowledged and lost or altered.
 * A part whose capability the target lacks is skipped: figure `<scenario>` = `skipped (capability: <flag>)`
 * and a note naming the flag (a drop that is a reset, a layer with no close() are declared, not failed).
 * Figures: one per operation, `<scenario>.<op>` = the error code, or what it resolved to.
 * Kind `error-surfaced`. Needs at least 6 memories.
 */
export const c29BackendErrors: CheckDefinition = {
  id: 'C29',
  name: 'backend-errors',
  requires(caps) {
    if (!caps.vectors) return 'capability: vectors';
    return null;
  },
  async run(cell): Promise<CheckOutcome> {
    if (cell.dataset.memories.length < C29_MIN_MEMORIES) {
      throw new MemoryMatrixError('INVALID_INPUT', `C29: dataset ${cell.datasetName} has ${cell.dataset.memories.length} memories; C29 needs at least ${C29_MIN_MEMORIES}`);
    }
    const figures: Record<string, string | number> = {};
    const failures: Failure[] = [];
    const notes: string[] = [];
    const seed = cell.dataset.memories.slice(0, SEED);
    const extra = cell.dataset.memories[SEED]!;
    const query: RecallQuery = { vector: seed[0]!.embedding, k: 3, scan: cell.config.capabilities.exactScan ? 'exact' : 'index' };
    const expectError = async (key: string, what: string, op: () => Promise<unknown>): Promise<void> => {
      const r = await outcome(op);
      figures[key] = r.code ?? `resolved: ${r.resolved}`;
      if (r.code === undefined) failures.push(failure(cell, 'error-surfaced', `${what}: expected an error with a code, got ${r.resolved}`));
    };

    const skip = (scenario: string, flag: string, why: string): void => {
      figures[scenario] = `skipped (capability: ${flag})`;
      notes.push(`${scenario} scenario skipped: ${why} (capability: ${flag})`);
    };
    const drops = cell.config.capabilities.dropRemoves;
    if (!drops) {
      skip('dropped', 'dropRemoves', 'the target declares that a drop empties the collection and keeps it');
      skip('recreated', 'dropRemoves', 'the target declares that a drop empties the collection and keeps it');
    }

    // 1. dropped behind the adapter's back
    if (drops) {
      const { collection: stale } = await cell.scratch('c29_drop');
      await stale.upsert(seed);
      const other = await cell.connect();
      await other.dropCollection(stale.spec.name);
      const w = `collection ${stale.spec.name} dropped by another client`;
      await expectError('dropped.upsert', `${w}: upsert on the stale handle`, () => stale.upsert([extra]));
      await expectError('dropped.recall', `${w}: recall on the stale handle`, () => stale.recall(query));
      await expectError('dropped.count', `${w}: count on the stale handle`, () => stale.count());
      await expectError('dropped.get', `${w}: get of ${seed.length} ids it held on the stale handle`, () => stale.get(seed.map((m) => m.id)));
    }

    // 2. recreated with another dimension behind the adapter's back
    if (drops) {
      const { collection: stale } = await cell.scratch('c29_redim');
      await stale.upsert(seed);
      const other = await cell.connect();
      await other.dropCollection(stale.spec.name);
      const dim = stale.spec.dim + 1;
      const fresh = await other.createCollection({ ...stale.spec, dim });
      try {
        // One memory in the new collection, so the server compares the stale vectors with a stored one (an empty table answers without looking).
        await fresh.upsert([{ ...extra, id: `${extra.id}-c29`, embedding: Float32Array.from([...extra.embedding, 0.5]) }]);
        const w = `collection ${stale.spec.name} recreated by another client with dim ${dim}`;
        await expectError('recreated.upsert', `${w}: upsert of a ${stale.spec.dim}-d memory on the stale handle`, () => stale.upsert([extra]));
        await expectError('recreated.recall', `${w}: recall with a ${stale.spec.dim}-d vector on the stale handle`, () => stale.recall(query));
      } finally {
        await other.dropCollection(stale.spec.name);
      }
    }

    // 3. a closed client
    if (!cell.config.capabilities.closeReleases) skip('closed', 'closeReleases', 'the target declares close() a no-op');
    else if (cell.config.capabilities.reopen) {
      const { collection } = await cell.scratch('c29_closed');
      await collection.upsert(seed);
      const closing = await cell.connect();
      const handle = await closing.openCollection(collection.spec.name);
      await closing.close();
      const w = `collection ${collection.spec.name} through a client that was closed`;
      await expectError('closed.upsert', `${w}: upsert`, () => handle.upsert([extra]));
      await expectError('closed.recall', `${w}: recall`, () => handle.recall(query));
      await expectError('closed.count', `${w}: count`, () => handle.count());
    } else {
      figures['closed'] = 'skipped (capability: reopen)';
      notes.push('closed-client scenario skipped: the target cannot reopen a collection from a second client (capability: reopen)');
    }

    // 4. a payload some servers refuse: refused with a code, or stored exactly
    {
      const { collection } = await cell.scratch('c29_payload');
      const rec: MemoryRecord = { ...extra, text: `nul\u0000inside`, metadata: { ...extra.metadata, c29: 'a\u0000b' } };
      await payloadCheck(cell, collection, rec, figures, failures);
    }
    return { figures, failures, notes };
  },
};

/** The NUL payload: a coded refusal with nothing stored, or an exact round trip. */
async function payloadCheck(cell: LiveCell, collection: MemoryCollection, rec: MemoryRecord, figures: Record<string, string | number>, failures: Failure[]): Promise<void> {
  const w = `collection ${collection.spec.name}: upsert of memory ${rec.id} whose text and metadata contain U+0000`;
  const r = await outcome(() => collection.upsert([rec]));
  const back = await collection.get([rec.id]);
  if (r.code !== undefined) {
    figures['payload.upsert'] = `refused: ${r.code}`;
    if (back.length) failures.push(failure(cell, 'error-surfaced', `${w}: refused with ${r.code} but get returns it afterwards`, { id: rec.id }));
    return;
  }
  if (r.error !== undefined) {
    figures['payload.upsert'] = `uncoded error: ${r.error}`;
    failures.push(failure(cell, 'error-surfaced', `${w}: rejected with an error without a code: ${r.error}`, { id: rec.id }));
    return;
  }
  figures['payload.upsert'] = 'stored';
  const got = back[0];
  if (!got) failures.push(failure(cell, 'error-surfaced', `${w}: acknowledged, but get returns nothing`, { id: rec.id }));
  else if (got.text !== rec.text || canonical(got.metadata) !== canonical(rec.metadata)) {
    failures.push(failure(cell, 'error-surfaced', `${w}: acknowledged, but read back altered (text ${JSON.stringify(got.text)}, metadata.c29 ${JSON.stringify(got.metadata['c29'])})`, { id: rec.id }));
  }
}

/** How a call ended: `code` for a coded MemoryMatrixError, `error` for any other rejection, else `resolved` (a short description of the value). */
async function outcome(op: () => Promise<unknown>): Promise<{ code?: string; error?: string; resolved?: string }> {
  try {
    const v = await op();
    return { resolved: describe(v) };
  } catch (err) {
    if (isMemoryMatrixError(err)) return { code: err.code };
    return { code: undefined, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err), resolved: `an uncoded error (${String(err)})` };
  }
}

/** JSON with object keys sorted (metadata key order is not part of a record). */
function canonical(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x !== null && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}

function describe(v: unknown): string {
  if (v === undefined) return 'success (no error)';
  if (Array.isArray(v)) return `${v.length} result${v.length === 1 ? '' : 's'}`;
  if (typeof v === 'number') return `the number ${v}`;
  return typeof v;
}
