import type { Figure } from '../conformance/result';
import type { LiveCell } from '../conformance/cell';
import { durabilityFigures, requireFaults, type DurabilityConfiguration, type FaultControl } from '../durability';
import { runKillCycles, type DurabilityPart, type PartOutcome } from './c15-cycles';
import { historyPart } from './c15-history';
import { memoryPart } from './c15-memories';
import { type CheckDefinition, needs } from './check';

/** Kill cycles per configuration (the issue asks for at least 5). */
export const C15_CYCLES = 5;

/**
 * C15 durability: per durability configuration of the target (catalog `durability:`), a fresh
 * instance (the configurations at once, each on its own; reported in catalog order);
 * `C15_CYCLES` times: two writers stream golden memories in acknowledged batches of 10, `kill -9`
 * lands mid-stream (the writers keep writing until their connection dies), restart on
 * the same storage, then audit every write so far (c15-audit.ts): lost, phantom (in flight vs
 * unknown), duplicates, changed content, count, exact top-k against the oracle of the rows present
 * and index recall. Verdict: a configuration that promises durability (`durable: true`) fails on
 * any lost acknowledged write; one that does not reports exactly what was lost, as a note. Phantoms
 * of unknown origin and a count that disagrees with the records present (a transaction torn by the
 * crash) fail a durable configuration and are reported for the others; duplicates, changed content
 * and wrong top-k fail in every configuration.
 * A restart that comes back without the collection at all (Redis without persistence: the whole
 * dataset is gone) audits as every acknowledged write lost; the collection is then created again,
 * empty, before the next cycle, and the notes say so.
 * Targets with the `history` capability also run the chat-history part (c15-history.ts) on the
 * same instance, in the SAME kill cycles (c15-cycles.ts): its sessions are appended in acknowledged
 * `append()` calls while the memory writers stream, one kill -9 lands once both parts asked for it,
 * one restart, then each part audits (history: lost / phantom / duplicated / reordered / changed
 * messages); its rows are named `<configuration> (history)` and count messages. A target with
 * history but no vectors runs only that part; one with vectors only, only the memories.
 * Per configuration, `durability/<first row>/phasesMs` says where its time went (start, set-up, streams, restarts, audits).
 */
export const c15Durability: CheckDefinition = {
  id: 'C15',
  name: 'durability',
  // Vectors or chat history (either part runs), then faults.
  requires: (caps) => (caps.vectors || caps.history ? needs('faults')(caps) : 'capability: vectors'),
  timeoutMs: 20 * 60_000, // a target with vectors and history: 4 configurations × 5 kill cycles, both parts in each cycle
  async run(cell) {
    const faults = requireFaults(cell.config.faults, cell.target);
    // The configurations run at once, each on its own fresh instance and storage (nothing is shared
    // between them but the golden data, read only), and are reported in catalog order. One after
    // another, C15 was the longest check of every cell that has it (full default on this 2-core
    // host: redis@8.0 127 s for 4 configurations, sqlite 111 s for 3, pgvector@pg17 158 s for 2)
    // while most of a configuration's time is waiting: a kill -9, a restart, a ready log line.
    const settled = await Promise.allSettled(faults.configurations.map((config) => runConfiguration(cell, faults, config)));
    const failed = settled.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    const outcomes = (settled as PromiseFulfilledResult<PartOutcome[]>[]).flatMap((o) => o.value);
    const rows = outcomes.map((p) => p.figures);
    const extra: Record<string, Figure> = Object.assign({}, ...outcomes.map((p) => p.extra));
    return { figures: { configurations: rows.length, ...durabilityFigures(rows), ...extra }, failures: outcomes.flatMap((p) => p.failures), notes: outcomes.flatMap((p) => p.notes) };
  },
};

/**
 * C15 on one durability configuration: a fresh instance (`faults.start`), `C15_CYCLES` kill cycles
 * of its parts (c15-cycles.ts), the instance stopped whatever happens. Resolves with each part's
 * outcome (memories, then history), its `extra` carrying the configuration's `effective` settings
 * and, on the last part, its `phasesMs` (named for the first part's row). Rejects with what the fault target or a part throws
 * (TARGET_UNAVAILABLE, BACKEND_ERROR).
 */
async function runConfiguration(cell: LiveCell, faults: FaultControl, config: DurabilityConfiguration): Promise<PartOutcome[]> {
  const t0 = performance.now();
  const ft = await faults.start(config.name);
  const startMs = performance.now() - t0;
  try {
    const parts: DurabilityPart[] = [];
    if (cell.config.capabilities.vectors) parts.push(memoryPart(cell, ft, config, C15_CYCLES));
    if (cell.config.capabilities.history) parts.push(historyPart(cell, ft, config));
    const phases = await runKillCycles(ft, parts, C15_CYCLES);
    const effective = Object.entries(ft.effective)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ');
    const finished = parts.map((x) => x.finish());
    for (const p of finished) p.extra[`durability/${p.figures.configuration}/effective`] = effective;
    finished[finished.length - 1]!.extra[`durability/${finished[0]!.figures.configuration}/phasesMs`] =
      `start ${Math.round(startMs)}, set-up ${Math.round(phases.setupMs)}, streams ${Math.round(phases.streamMs)}, restarts ${Math.round(phases.restartMs)}, audits ${Math.round(phases.auditMs)}`;
    return finished;
  } finally {
    await ft.stop();
  }
}
