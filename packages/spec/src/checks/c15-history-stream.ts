import type { ChatHistory } from '../history';
import type { ChatMessage } from '../history';

/** One message a history writer sent, in the order its session received the calls. */
export interface SentMessage {
  /** `metadata.mid` of the message: `<session>#<seq>`, unique over the whole run. */
  mid: string;
  message: ChatMessage;
  /** The append call that carried it: `cycle/writer/call`. */
  call: string;
  /** Messages in that call. */
  callSize: number;
  /** True when the append resolved (acknowledged); false when it rejected (in flight at the kill). */
  acked: boolean;
  cycle: number;
  /** ms between the acknowledgement (or rejection) and the moment the kill had landed (negative: after it). */
  msBeforeKill: number;
}

/** What the history writers of one kill cycle did (counts of messages unless named calls). */
export interface HistoryStreamLog {
  /** Per writer (session), the messages sent this cycle, in call order. */
  sent: SentMessage[][];
  ackedMessages: number;
  ackedCalls: number;
  /** Calls that rejected (one per writer at most: the writer stops there). */
  inFlightCalls: number;
  /** Acknowledged messages when the kill was issued. */
  ackedAtKill: number;
  /** Writers that reached `maxCalls` before the kill landed. */
  exhausted: number;
  /** The rejection of each in-flight call, `CODE: message`, for notes. */
  errors: string[];
}

/** Options of `appendUntilKilled`. */
export interface HistoryStreamOptions {
  /** One history per writer, each on its own client; writer w appends only to histories[w]. */
  histories: ChatHistory[];
  /** The message for sequence number `seq` of writer `w` (its `metadata.mid` identifies it). */
  message(w: number, seq: number): ChatMessage;
  /** Next sequence number of each writer (continues over cycles: the sessions keep growing). */
  nextSeq: number[];
  /** Messages per append call. */
  callSize: number;
  /** Calls per writer at most in this cycle (a bound when the kill takes long). */
  maxCalls: number;
  /** Issue the kill once this many messages of the cycle are acknowledged. */
  killAfterAcked: number;
  /** Ask for the kill (as in c15-writers.ts): `issued` is called when the kill -9 really starts; resolves once it has landed. */
  kill(issued: () => void): Promise<void>;
  cycle: number;
}

/**
 * Concurrent history writers, one session each, append `callSize` messages per `append()` call
 * while a kill -9 is issued mid-stream (once `killAfterAcked` messages are acknowledged); every
 * writer keeps appending until a call rejects (its in-flight call; the writer stops) or it has
 * made `maxCalls` calls. `nextSeq` is advanced in place past every message sent. Resolves when the
 * kill has landed and every writer has stopped; rejects only when the kill fails.
 */
export async function appendUntilKilled(o: HistoryStreamOptions): Promise<HistoryStreamLog> {
  const log: HistoryStreamLog = { sent: o.histories.map(() => []), ackedMessages: 0, ackedCalls: 0, inFlightCalls: 0, ackedAtKill: 0, exhausted: 0, errors: [] };
  const at: Array<{ m: SentMessage; t: number }> = [];
  let killDoneAt = 0;
  let killing: Promise<void> | undefined;
  const startKill = (): Promise<void> => {
    killing ??= (async () => {
      await o.kill(() => {
        log.ackedAtKill = log.ackedMessages;
      });
      killDoneAt = performance.now();
    })();
    return killing;
  };
  const writer = async (w: number): Promise<void> => {
    for (let call = 1; call <= o.maxCalls; call++) {
      const first = o.nextSeq[w]!;
      const messages = Array.from({ length: o.callSize }, (_, i) => o.message(w, first + i));
      o.nextSeq[w] = first + o.callSize;
      const mk = (acked: boolean): SentMessage[] =>
        messages.map((message) => ({ mid: String(message.metadata.mid), message, call: `${o.cycle}/${w + 1}/${call}`, callSize: o.callSize, acked, cycle: o.cycle, msBeforeKill: 0 }));
      try {
        await o.histories[w]!.append(messages);
      } catch (e) {
        const err = e as { code?: unknown; message?: unknown };
        log.errors.push(`${String(err?.code ?? 'no code')}: ${String(err?.message ?? e)}`);
        log.inFlightCalls++;
        const ms = mk(false);
        log.sent[w]!.push(...ms);
        ms.forEach((m) => at.push({ m, t: performance.now() }));
        return;
      }
      const ms = mk(true);
      log.sent[w]!.push(...ms);
      ms.forEach((m) => at.push({ m, t: performance.now() }));
      log.ackedMessages += ms.length;
      log.ackedCalls++;
      if (log.ackedMessages >= o.killAfterAcked) void startKill().catch(() => undefined);
    }
    log.exhausted++;
  };
  await Promise.all(o.histories.map((_, w) => writer(w)));
  await startKill();
  for (const { m, t } of at) m.msBeforeKill = Math.round(killDoneAt - t);
  return log;
}
