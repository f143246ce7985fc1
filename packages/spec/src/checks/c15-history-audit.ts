import type { ChatMessage } from '../history';
import type { SentMessage } from './c15-history-stream';
import { messageDifference } from './helpers/history';

/** One problem found by `auditSession` (the check turns it into a Failure). */
export interface HistoryAuditProblem {
  kind: 'durability-phantom' | 'durability-duplicate' | 'durability-changed' | 'durability-reordered' | 'durability-count' | 'durability-partial';
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** The audit of one session after a restart (counts of messages). */
export interface SessionAudit {
  /** Messages `read()` returned. */
  read: number;
  /** mids of acknowledged messages absent. */
  lost: string[];
  /** Present, from a call that rejected (in flight at a kill): acceptable. */
  phantomInFlight: number;
  /** Present but never sent (no or unknown `metadata.mid`): always a failure. */
  phantomUnknown: number;
  /** Messages returned again after their first occurrence. */
  duplicated: number;
  /** Present with a role, content, createdAt or metadata different from what was sent. */
  changed: number;
  /** Present messages that come before a message sent earlier (append order broken). */
  reordered: number;
  problems: HistoryAuditProblem[];
}

/**
 * Compare what one session holds after kill -9 and restart (`got`: `read()` from a new client,
 * `length`: its `length()`) with everything sent to it so far (`sent`, in send order, cumulative
 * over cycles). Messages are matched by `metadata.mid`. Lost: acknowledged and absent. Phantom:
 * present and in flight (fine) or never sent (failure). Duplicated, changed (type-strict, via
 * `messageDifference`), reordered (a message after one sent later), `length()` ≠ `read().length`
 * and a call that is partly present (append is atomic: a call survives or vanishes whole) are
 * problems. `where` prefixes problem messages. Pure: no I/O.
 */
export function auditSession(sessionId: string, sent: readonly SentMessage[], got: readonly ChatMessage[], length: number, where: string): SessionAudit {
  const seqOf = new Map(sent.map((m, i) => [m.mid, i]));
  const problems: HistoryAuditProblem[] = [];
  const bad = (kind: HistoryAuditProblem['kind'], message: string, extra: Partial<HistoryAuditProblem> = {}) => problems.push({ kind, message: `${where} session ${sessionId}: ${message}`, ...extra });
  const seen = new Set<string>();
  const unknown: string[] = [];
  let phantomInFlight = 0;
  let duplicated = 0;
  let changed = 0;
  let reordered = 0;
  let maxSeq = -1;
  got.forEach((g, pos) => {
    const mid = typeof g.metadata?.mid === 'string' ? g.metadata.mid : undefined;
    const seq = mid === undefined ? undefined : seqOf.get(mid);
    if (mid === undefined || seq === undefined) {
      unknown.push(`${pos + 1}:${mid ?? JSON.stringify(g.content).slice(0, 40)}`);
      return;
    }
    if (seen.has(mid)) {
      duplicated++;
      if (duplicated <= 3) bad('durability-duplicate', `message ${mid} appears again at position ${pos + 1}`, { actual: mid });
      return;
    }
    seen.add(mid);
    const s = sent[seq]!;
    if (!s.acked) phantomInFlight++;
    const d = messageDifference(s.message, g);
    if (d) {
      changed++;
      if (changed <= 3) bad('durability-changed', `message ${mid} came back changed at position ${pos + 1}: ${d}`, { actual: mid });
    }
    if (seq < maxSeq) {
      reordered++;
      if (reordered <= 3) bad('durability-reordered', `message ${mid} (sent as #${seq + 1}) is at position ${pos + 1}, after #${maxSeq + 1} which was sent later`, { actual: mid });
    }
    maxSeq = Math.max(maxSeq, seq);
  });
  if (unknown.length) bad('durability-phantom', `${unknown.length} message(s) present that were never sent: ${unknown.slice(0, 5).join(', ')}`, { expected: 0, actual: unknown.length });
  if (length !== got.length) bad('durability-count', `length() is ${length} but read() returned ${got.length} messages`, { expected: got.length, actual: length });
  const lost = sent.filter((m) => m.acked && !seen.has(m.mid)).map((m) => m.mid);
  const calls = new Map<string, { size: number; present: number; acked: boolean }>();
  for (const m of sent) {
    const c = calls.get(m.call) ?? { size: m.callSize, present: 0, acked: m.acked };
    if (seen.has(m.mid)) c.present++;
    calls.set(m.call, c);
  }
  for (const [call, c] of calls) {
    if (c.present > 0 && c.present < c.size) {
      bad(
        'durability-partial',
        `append call ${call} (cycle/writer/call, ${c.acked ? 'acknowledged' : 'in flight'}) is partly present: ${c.present} of its ${c.size} messages; one append() must survive or vanish whole`,
        { expected: `0 or ${c.size}`, actual: c.present },
      );
    }
  }
  return { read: got.length, lost, phantomInFlight, phantomUnknown: unknown.length, duplicated, changed, reordered, problems };
}
