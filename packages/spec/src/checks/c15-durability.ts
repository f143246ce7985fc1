import type { Failure } from '../comparator';
import type { Figure } from '../conformance/result';
import { durabilityFigures, requireFaults, type DurabilityFigures } from '../durability';
import { runKillCycles, type DurabilityPart } from './c15-cycles';
import { historyPart } from './c15-history';
import { memoryPart } from './c15-memories';
import { type CheckDefinition, needs } from './check';

/** Kill cycles per configuration (the issue asks for at least 5). */
export const C15_CYCLES = 5;

/**
 * C15 durability: per durability configuration of the target (catalog `durability:`), a fresh
 * instance; `C15_CYCLES` times: two writers stream golden memories in acknowledged batches of 10,
 * `kill -9` lands mid-stream (the writers keep writing until their connection dies), restart on
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
    const rows: DurabilityFigures[] = [];
    const failures: Failure[] = [];
    const notes: string[] = [];
    const extra: Record<string, Figure> = {};
    for (const config of faults.configurations) {
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
        const outcomes = parts.map((x) => x.finish());
        for (const p of outcomes) {
          rows.push(p.figures);
          failures.push(...p.failures);
          notes.push(...p.notes);
          Object.assign(extra, p.extra);
          extra[`durability/${p.figures.configuration}/effective`] = effective;
        }
        extra[`durability/${outcomes[0]!.figures.configuration}/phasesMs`] =
          `start ${Math.round(startMs)}, set-up ${Math.round(phases.setupMs)}, streams ${Math.round(phases.streamMs)}, restarts ${Math.round(phases.restartMs)}, audits ${Math.round(phases.auditMs)}`;
      } finally {
        await ft.stop();
      }
    }
    return { figures: { configurations: rows.length, ...durabilityFigures(rows), ...extra }, failures, notes };
  },
};
