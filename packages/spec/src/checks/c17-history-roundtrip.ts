import { randomBytes } from 'node:crypto';
import type { Failure } from '../comparator';
import type { ChatHistory, ChatMessage, HistoryWindow } from '../history';
import type { LiveCell } from '../conformance/cell';
import { type CheckDefinition, failure, needs } from './check';
import { charBudget, checkMessages, checkPrefix, compareMessages, openCheckHistory, windowReference } from './helpers/history';

/**
 * C17 history-roundtrip: N messages appended in several calls (roles of every kind, content with
 * CJK, emoji, ZWJ sequences, newlines, quotes, an empty string; metadata with falsy values of every
 * type) under a NON-default key prefix read back from a NEW client in insertion order, exactly;
 * `read({ last })` is the tail; the prefix is honoured (every key starts with it, the same session
 * under the default prefix is empty); a message-count window and a character window keep exactly
 * what `windowReference` says; `clear` leaves no key. The window part needs the `historyWindow`
 * capability; on a target without it (a client that keeps a plain list) it is not run, and the
 * check says so in its figures (`windows`) and notes, never as a pass of that part.
 */
export const c17HistoryRoundtrip: CheckDefinition = {
  id: 'C17',
  name: 'history-roundtrip',
  requires: needs('history'),
  async run(cell) {
    const failures: Failure[] = [];
    const fail = (message: string, extra: Partial<Failure> = {}) => failures.push(failure(cell, 'history', message, extra));
    const prefix = checkPrefix(cell, 'c17');
    const session = `s-${randomBytes(4).toString('hex')}`;
    const msgs = checkMessages(cell, 40);
    const writer = await openCheckHistory(cell, { sessionId: session, keyPrefix: prefix });
    const opened: ChatHistory[] = [writer];
    try {
      for (const [a, b] of [
        [0, 10],
        [10, 11],
        [11, 40],
      ] as const)
        await writer.append(msgs.slice(a, b));
      const reader = await openCheckHistory(cell, { sessionId: session, keyPrefix: prefix });
      opened.push(reader);
      compareMessages(msgs, await reader.read(), 'read() from a new client', fail);
      compareMessages(msgs.slice(-7), await reader.read({ last: 7 }), 'read({ last: 7 })', fail);
      const n = await reader.length();
      if (n !== msgs.length) fail(`length() is ${n}, expected ${msgs.length}`, { expected: msgs.length, actual: n });
      const keys = await reader.keys();
      if (keys.length === 0) fail(`keys() lists no key for session ${session} under prefix ${prefix}`);
      for (const k of keys) if (!k.key.startsWith(prefix)) fail(`key ${k.key} of session ${session} does not start with the chosen prefix ${prefix}`, { id: k.key });
      const other = await openCheckHistory(cell, { sessionId: session });
      const leaked = await other.read();
      if (leaked.length) fail(`session ${session} under the DEFAULT prefix (${other.keyPrefix}) returned ${leaked.length} messages written under ${prefix}`, { expected: 0, actual: leaked.length });

      const windows = cell.config.capabilities.historyWindow ? await windowPart(cell, session, prefix, msgs, opened, fail) : null;
      for (const h of opened) await h.clear();
      const left = (await Promise.all(opened.map((h) => h.keys()))).flat();
      if (left.length) fail(`clear() left ${left.length} key(s): ${left.map((k) => k.key).join(', ')}`, { expected: 0, actual: left.length });
      return {
        figures: {
          messages: msgs.length,
          nonAscii: msgs.filter((m) => /[\x80-\uffff]/.test(m.content + JSON.stringify(m.metadata))).length,
          falsyMetadata: msgs.filter((m) => Object.values(m.metadata).some((v) => v === 0 || v === '' || v === false || v === null)).length,
          keysPerSession: keys.length,
          prefix,
          windows: windows === null ? 'not run (capability: historyWindow)' : 'run',
          charWindowKept: windows?.charWindowKept ?? null,
        },
        failures,
        ...(windows === null ? { notes: ['window part (maxMessages, maxChars, trim) not run: the target lacks capability historyWindow'] } : {}),
      };
    } finally {
      await Promise.allSettled(opened.map((h) => h.clear()));
    }
  },
};

/** C17's window part: a message-count window, a character window and a trim, each against `windowReference`. */
async function windowPart(
  cell: LiveCell,
  session: string,
  prefix: string,
  msgs: ChatMessage[],
  opened: ChatHistory[],
  fail: (message: string, extra?: Partial<Failure>) => void,
): Promise<{ charWindowKept: number }> {
  const byCount: HistoryWindow = { maxMessages: 10 };
  const w1 = await openCheckHistory(cell, { sessionId: `${session}-w1`, keyPrefix: prefix, window: byCount });
  opened.push(w1);
  await w1.append(msgs.slice(0, 15));
  for (const m of msgs.slice(15, 25)) await w1.append([m]);
  compareMessages(windowReference(msgs.slice(0, 25), byCount), await w1.read(), `window ${JSON.stringify(byCount)}`, fail);

  const tail = msgs.slice(0, 30);
  const byChars: HistoryWindow = { maxChars: charBudget(tail, 5) };
  const w2 = await openCheckHistory(cell, { sessionId: `${session}-w2`, keyPrefix: prefix, window: byChars });
  opened.push(w2);
  await w2.append(tail.slice(0, 20));
  await w2.append(tail.slice(20));
  const expectChars = windowReference(tail, byChars);
  compareMessages(expectChars, await w2.read(), `window ${JSON.stringify(byChars)}`, fail);
  const removed = await w2.trim({ maxMessages: 2 });
  const wantRemoved = Math.max(0, expectChars.length - 2);
  if (removed !== wantRemoved) fail(`trim({ maxMessages: 2 }) reported ${removed} removed, expected ${wantRemoved}`, { expected: wantRemoved, actual: removed });
  compareMessages(expectChars.slice(-2), await w2.read(), 'read() after trim({ maxMessages: 2 })', fail);
  return { charWindowKept: expectChars.length };
}
