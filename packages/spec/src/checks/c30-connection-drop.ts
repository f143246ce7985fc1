import type { MemoryStore } from '../adapter';
import type { Failure } from '../comparator';
import type { Figure } from '../conformance/result';
import { requireFaults } from '../durability';
import { MemoryMatrixError } from '../errors';
import { hostCalibration } from '../host';
import type { MemoryRecord } from '../types';
import { type CheckDefinition, failure, needs } from './check';
import { c23Timeouts, CLIENT, dropMidBatch } from './c23-fault-surfaced';

/** The faulted batch's size: 3 chunks of the target's `maxBatch` (1,000 without one), at most this many memories. */
const MAX_BATCH = 6_000;

/**
 * C30 connection-drop: C23's third step on its own, so the tier that leaves C23 out (pr-gate, on
 * every pull request) still sees a connection error swallowed during a write (issue 36, kind 5).
 * On a fresh instance of the target (default configuration): 50 memories loaded through a client
 * with the adapter's ordinary limits; then the faulted client (C23's limits × the host factor)
 * upserts a multi-chunk batch (3 × maxBatch, else 3,000, at most `MAX_BATCH`) and its server
 * session is terminated once the server shows the write in flight (`FaultTarget.awaitWriteInFlight`,
 * `dropConnections`): the call must reject with a coded error (never resolve, never hang), the batch
 * be all there or absent, a retry through the unfaulted client complete it, the faulted client
 * answer again, and the count be 50 + the batch. The memories are the dataset's, cycled under ids of
 * the check's own (`c30-<n>`), so a dataset of any size gives a batch of several chunks (a
 * one-chunk write can commit before the watch sees it). Kinds as C23's (`fault-surfaced`,
 * `fault-partial`, `fault-setup`, `fault-retry`, `fault-recovery`, `fault-count`). Figures as C23's
 * drop step, and `countAfter`. Needs `faults`: one container or process start per run, seconds — the
 * pauses and their time limits stay in C23.
 */
export const c30ConnectionDrop: CheckDefinition = {
  id: 'C30',
  name: 'connection-drop',
  requires: needs('vectors', 'faults'),
  timeoutMs: 2 * 60_000,
  async run(cell) {
    const golden = cell.dataset.memories;
    if (!golden.length) throw new MemoryMatrixError('INVALID_INPUT', `C30: dataset ${cell.datasetName} has no memories`);
    const chunk = cell.config.capabilities.maxBatch ?? 1_000;
    const all: MemoryRecord[] = Array.from({ length: 50 + Math.min(3 * chunk, MAX_BATCH) }, (_, i) => ({ ...golden[i % golden.length]!, id: `c30-${String(i).padStart(5, '0')}` }));
    const [base, batch] = [all.slice(0, 50), all.slice(50)];
    const faults = requireFaults(cell.config.faults, cell.target);
    const ft = await faults.start(faults.configurations[0]!.name);
    const failures: Failure[] = [];
    const host = hostCalibration();
    const { timeouts, hangMs } = c23Timeouts(cell, host.factor);
    const figures: Record<string, Figure> = { clientTimeouts: `connect ${timeouts.connectMs} ms, query ${timeouts.queryMs} ms`, hangLimitMs: hangMs, hostFactor: host.factor, batchDrop: batch.length };
    const clients: MemoryStore[] = [];
    try {
      const reader = await ft.connect();
      clients.push(reader);
      const store = await ft.connect({ clientName: CLIENT, timeouts });
      clients.push(store);
      const spec = cell.collectionSpec('c30');
      await (await reader.createCollection(spec)).upsert(base);
      const col = await store.openCollection(spec.name);
      failures.push(...(await dropMidBatch(cell, ft, col, reader, batch, figures, hangMs)));
      const count = await (await reader.openCollection(spec.name)).count();
      figures.countAfter = count;
      const want = base.length + batch.length;
      if (count !== want) failures.push(failure(cell, 'fault-count', `after the dropped connection and the retry count() is ${count}, expected ${want}`, { expected: want, actual: count }));
    } finally {
      await Promise.allSettled(clients.map((c) => c.close()));
      await ft.stop();
    }
    return { figures, failures };
  },
};
