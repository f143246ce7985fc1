import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import { MemoryMatrixError } from '../errors';
import { failure } from './check';

/** A writer that stopped after the store refused one of its writes (already recorded as a `write-refused` failure). */
class WriterStopped extends Error {}

/**
 * One write of a C22 writer: `what` names it in a failure (e.g. `upsert call 3 (10 memories)`),
 * `op` performs it, `onRefused` (optional) notes what the refused call carried.
 */
export type WriterWrite = (what: string, op: () => Promise<void>, onRefused?: () => void) => Promise<void>;

/**
 * C22's concurrent writers, for both of its parts: `body(w, write)` runs for every writer w in
 * 0..n−1 at once. A write the store refuses with a coded error (`MemoryMatrixError`) is pushed onto
 * `failures` as a `write-refused` failure — `writer w: <what> refused while <during>: CODE:
 * message` — and stops that writer (as an application that surfaces the error would); the others
 * go on. Resolves, once every writer has finished or stopped, with the writers that were stopped.
 * Rejects with the first uncoded error (a bug or a broken harness: it stops the check).
 */
export async function runWriters(cell: LiveCell, failures: Failure[], n: number, during: string, body: (w: number, write: WriterWrite) => Promise<void>): Promise<Set<number>> {
  const stopped = new Set<number>();
  const settled = await Promise.allSettled(
    Array.from({ length: n }, (_, w) =>
      body(w, async (what, op, onRefused) => {
        try {
          await op();
        } catch (err) {
          if (!(err instanceof MemoryMatrixError)) throw err;
          stopped.add(w);
          onRefused?.();
          failures.push(failure(cell, 'write-refused', `writer ${w}: ${what} refused while ${during}: ${err.code}: ${err.message}`, { expected: 'acknowledged', actual: err.code }));
          throw new WriterStopped();
        }
      }),
    ),
  );
  const broken = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof WriterStopped));
  if (broken) throw broken.reason;
  return stopped;
}
