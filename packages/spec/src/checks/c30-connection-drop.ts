import type { Failure } from '../comparator';
import type { Figure } from '../conformance/result';
import { requireFaults } from '../durability';
import { hostCalibration } from '../host';
import { requireMemories } from './helpers/sampling';
import { type CheckDefinition, failure, needs } from './check';
import { c23Timeouts, CLIENT, dropMidBatch } from './c23-fault-surfaced';

/** Memories C30 needs: 50 stored, then a batch of at least 1. */
export const C30_MIN_MEMORIES = 51;

/**
 * C30 connection-drop: C23's third step on its own, so the tier that leaves C23 out (pr-gate, on
 * every pull request) still sees a connection error swallowed during a write (issue 36, kind 5).
 * On a fresh instance of the target (default configuration): 50 memories loaded through a client
 * with the adapter's ordinary limits; then the faulted client (C23's limits × the host factor)
 * upserts a multi-chunk batch (up to 3 × maxBatch, else 3,000, of the dataset's next memories) and
 * its server session is terminated once the server shows the write in flight
 * (`FaultTarget.awaitWriteInFlight`, `dropConnections`): the call must reject with a coded error
 * (never resolve, never hang), the batch be all there or absent, a retry complete it, and the count
 * be 50 + the batch. Kinds as C23's (`fault-surfaced`, `fault-partial`, `fault-setup`,
 * `fault-count`). Figures as C23's drop step, and `countAfter`. Needs `faults`: one container or
 * process start per run, seconds — the pauses and their time limits stay in C23.
 */
export const c30ConnectionDrop: CheckDefinition = {
  id: 'C30',
  name: 'connection-drop',
  requires: needs('vectors', 'faults'),
  timeoutMs: 2 * 60_000,
  async run(cell) {
    const golden = cell.dataset.memories;
    requireMemories('C30', cell.datasetName, golden.length, C30_MIN_MEMORIES, '50 stored memories and a non-empty faulted batch');
    const faults = requireFaults(cell.config.faults, cell.target);
    const ft = await faults.start(faults.configurations[0]!.name);
    const failures: Failure[] = [];
    const host = hostCalibration();
    const { timeouts, hangMs } = c23Timeouts(cell, host.factor);
    const chunk = cell.config.capabilities.maxBatch ?? 1_000;
    const [base, batch] = [golden.slice(0, 50), golden.slice(50, 50 + 3 * chunk)];
    const figures: Record<string, Figure> = { clientTimeouts: `connect ${timeouts.connectMs} ms, query ${timeouts.queryMs} ms`, hangLimitMs: hangMs, hostFactor: host.factor, batchDrop: batch.length };
    try {
      const reader = await ft.connect();
      const store = await ft.connect({ clientName: CLIENT, timeouts });
      try {
        const spec = cell.collectionSpec('c30');
        await (await reader.createCollection(spec)).upsert(base);
        const col = await store.openCollection(spec.name);
        failures.push(...(await dropMidBatch(cell, ft, col, reader, batch, figures, hangMs)));
        const count = await (await reader.openCollection(spec.name)).count();
        figures.countAfter = count;
        const want = base.length + batch.length;
        if (count !== want) failures.push(failure(cell, 'fault-count', `after the dropped connection and the retry count() is ${count}, expected ${want}`, { expected: want, actual: count }));
      } finally {
        await Promise.allSettled([store.close(), reader.close()]);
      }
    } finally {
      await ft.stop();
    }
    return { figures, failures };
  },
};
