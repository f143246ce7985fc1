import type { MemoryStore } from '../adapter';
import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import { emptyDurabilityFigures, type DurabilityConfiguration, type DurabilityFigures, type FaultTarget } from '../durability';
import { MemoryMatrixError } from '../errors';
import type { ChatHistory, ChatMessage } from '../history';
import { auditSession } from './c15-history-audit';
import type { DurabilityPart } from './c15-cycles';
import { appendUntilKilled, type HistoryStreamLog, type SentMessage } from './c15-history-stream';
import { checkMessages, checkPrefix } from './helpers/history';
import { failure } from './check';
import { scaledTimeouts } from '../host';
import { C15_AUDIT_TIMEOUTS, C15_WRITER_TIMEOUTS } from './c15-cycles';

/** Sessions written concurrently (one writer and client each), messages per append() call. */
const SESSIONS = 4;
const CALL = 3;
/** Calls per writer and cycle at most (the kill normally cuts the stream long before). */
const MAX_CALLS = 1_500;
/** Acknowledged messages of a cycle after which the kill is issued, per cycle. */
const KILL_AFTER = [240, 360, 180, 480, 300];

/** The durability-table row name of the chat-history part of configuration `name`, e.g. `aof-always (history)`. */
export function historyConfigurationName(name: string): string {
  return `${name} (history)`;
}

async function openHistory(store: MemoryStore, sessionId: string, keyPrefix: string, where: string): Promise<ChatHistory> {
  if (typeof store.openHistory !== 'function') throw new MemoryMatrixError('CAPABILITY_MISSING', `${where}: adapter ${store.adapter} has no openHistory`);
  return store.openHistory({ sessionId, keyPrefix });
}

/**
 * The chat-history part of C15 on a fault instance `ft` in configuration `config`, in the kill
 * cycles of c15-cycles.ts: `SESSIONS` writers (own client each) append `CALL` messages per
 * `append()` call to their own session, counting every acknowledged message, and ask for the kill
 * once `KILL_AFTER[cycle]` messages of the cycle are acknowledged (writers go on until their call
 * rejects); after the restart every session is audited from a new client against everything sent
 * so far (c15-history-audit.ts). Sessions keep growing over the cycles. Counts in the row are
 * messages (batches: append calls); `finish` adds `durability/<name> (history)/…` figures
 * (reordered, sessions, restartMsMax, lostWithinMsOfKill, unit).
 * Lost acknowledged messages fail only a `durable` configuration; phantoms never sent, duplicates,
 * reordering, changed content, length mismatches and partly present calls fail in every one.
 */
export function historyPart(cell: LiveCell, ft: FaultTarget, config: DurabilityConfiguration): DurabilityPart {
  const name = historyConfigurationName(config.name);
  const tag = `[${name}]`;
  const prefix = checkPrefix(cell, 'c15h');
  const sessions = Array.from({ length: SESSIONS }, (_, s) => `c15h-s${s + 1}`);
  const base = checkMessages(cell, 40);
  const message = (w: number, seq: number): ChatMessage => {
    const b = base[seq % base.length]!;
    return { ...b, metadata: { ...b.metadata, mid: `${sessions[w]}#${seq}` } };
  };
  const sent: SentMessage[][] = sessions.map(() => []);
  const nextSeq = sessions.map(() => 0);
  const lostAll = new Set<string>();
  const failures: Failure[] = [];
  const fig: DurabilityFigures = emptyDurabilityFigures(name, config.durable);
  let reorderedMax = 0;
  let restartMsMax = 0;
  const perCycle: string[] = [];
  let log: HistoryStreamLog | undefined;
  return {
    setup: async () => false,
    beforeCycle: async () => undefined,
    async stream(cycle, kill) {
      const where = `${tag} cycle ${cycle}`;
      const stores = await Promise.all(sessions.map((_, w) => ft.connect({ clientName: `mm-c15h-w${w + 1}`, timeouts: scaledTimeouts(C15_WRITER_TIMEOUTS) })));
      try {
        const histories = await Promise.all(stores.map((s, w) => openHistory(s, sessions[w]!, prefix, where)));
        log = await appendUntilKilled({ histories, message, nextSeq, callSize: CALL, maxCalls: MAX_CALLS, killAfterAcked: KILL_AFTER[(cycle - 1) % KILL_AFTER.length]!, kill, cycle });
      } finally {
        await Promise.allSettled(stores.map((s) => s.close()));
      }
    },
    async audit(cycle, restartMs) {
      const where = `${tag} cycle ${cycle}`;
      const l = log!;
      l.sent.forEach((ms, w) => sent[w]!.push(...ms));
      fig.acknowledged += l.ackedMessages;
      fig.acknowledgedBatches += l.ackedCalls;
      restartMsMax = Math.max(restartMsMax, restartMs);
      const reader = await ft.connect({ timeouts: scaledTimeouts(C15_AUDIT_TIMEOUTS) });
      let newlyLost: string[] = [];
      const tot = { read: 0, phantomInFlight: 0, phantomUnknown: 0, duplicated: 0, changed: 0, reordered: 0 };
      try {
        for (const [w, sessionId] of sessions.entries()) {
          const h = await openHistory(reader, sessionId, prefix, where);
          const a = auditSession(sessionId, sent[w]!, await h.read(), await h.length(), where);
          for (const k of Object.keys(tot) as Array<keyof typeof tot>) tot[k] += a[k];
          failures.push(...a.problems.map((p) => failure(cell, p.kind, p.message, { expected: p.expected, actual: p.actual })));
          const fresh = a.lost.filter((mid) => !lostAll.has(mid));
          fresh.forEach((mid) => lostAll.add(mid));
          newlyLost = newlyLost.concat(fresh);
        }
      } finally {
        await reader.close();
      }
      if (config.durable && newlyLost.length) {
        const byMid = new Map(sent.flat().map((m) => [m.mid, m]));
        const shown = newlyLost.slice(0, 10).map((mid) => `${mid} (call ${byMid.get(mid)!.call}, acknowledged ${byMid.get(mid)!.msBeforeKill} ms before the kill landed)`);
        failures.push(
          failure(
            cell,
            'durability-lost',
            `${where}: ${newlyLost.length} acknowledged chat message(s) missing after kill -9 and restart: ${shown.join(', ')}${newlyLost.length > 10 ? ' …' : ''}; configuration ${config.name} promises durability`,
            { expected: 0, actual: newlyLost.length },
          ),
        );
      }
      fig.phantomInFlight = tot.phantomInFlight;
      fig.phantomUnknown = Math.max(fig.phantomUnknown, tot.phantomUnknown);
      fig.duplicated = Math.max(fig.duplicated, tot.duplicated);
      fig.changed = Math.max(fig.changed, tot.changed);
      reorderedMax = Math.max(reorderedMax, tot.reordered);
      fig.cycles = cycle;
      perCycle.push(
        `cycle ${cycle}: ${l.ackedMessages} messages acknowledged in ${l.ackedCalls} append calls (kill issued at ${l.ackedAtKill}, ${l.inFlightCalls} call(s) in flight, ${l.exhausted} writer(s) done before the kill), ${newlyLost.length} lost, ${tot.read} messages read back, ${tot.phantomInFlight} from in-flight calls, ${tot.reordered} reordered, restart ${Math.round(restartMs)} ms`,
      );
    },
    finish() {
      fig.lost = lostAll.size;
      const lostSent = sent.flat().filter((m) => lostAll.has(m.mid));
      const lostWithinMs = lostSent.length ? Math.max(...lostSent.map((m) => m.msBeforeKill)) : null;
      const notes = [
        `${cell.target} ${tag} (${config.durable ? 'promises durability' : 'does not promise durability'}): ${fig.acknowledged} acknowledged chat messages in ${fig.acknowledgedBatches} append calls to ${SESSIONS} sessions over ${fig.cycles} kill cycles, ${fig.lost} lost, ${fig.phantomInFlight} present from in-flight calls, ${fig.phantomUnknown} unknown, ${fig.duplicated} duplicated, ${reorderedMax} reordered, ${fig.changed} changed`,
        ...perCycle.map((l) => `${tag} ${l}`),
      ];
      if (fig.lost > 0)
        notes.push(
          `${tag} lost${config.durable ? '' : ' under this configuration (reported, not a failure)'}: ${fig.lost} acknowledged messages, all acknowledged at most ${lostWithinMs} ms before the kill landed`,
        );
      const p = `durability/${name}/`;
      return {
        figures: fig,
        extra: { [`${p}reordered`]: reorderedMax, [`${p}sessions`]: SESSIONS, [`${p}restartMsMax`]: Math.round(restartMsMax), [`${p}lostWithinMsOfKill`]: lostWithinMs, [`${p}unit`]: 'chat messages' },
        failures,
        notes,
      };
    },
  };
}
