import { randomBytes } from 'node:crypto';
import type { MemoryStore } from '../adapter';
import type { Failure } from '../comparator';
import type { LiveCell } from '../conformance/cell';
import { MemoryMatrixError } from '../errors';
import type { ChatHistory, ChatMessage, HistoryOptions, HistoryWindow } from '../history';
import { CHAT_ROLES } from '../history';
import { type CheckDefinition, failure, needs } from './check';

/**
 * C17 history-roundtrip: N messages appended in several calls (roles of every kind, content with
 * CJK, emoji, ZWJ sequences, newlines, quotes, an empty string; metadata with falsy values of every
 * type) under a NON-default key prefix read back from a NEW client in insertion order, exactly;
 * `read({ last })` is the tail; the prefix is honoured (every key starts with it, the same session
 * under the default prefix is empty); a message-count window and a character window keep exactly
 * what `windowReference` says; `clear` leaves no key.
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
      for (const [a, b] of [[0, 10], [10, 11], [11, 40]] as const) await writer.append(msgs.slice(a, b));
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
          charWindowKept: expectChars.length,
        },
        failures,
      };
    } finally {
      await Promise.allSettled(opened.map((h) => h.clear()));
    }
  },
};

/** A prefix unique to this cell and check, e.g. `mmcheck:c17:3fa2c1b7d0:` (never the adapter default). */
export function checkPrefix(cell: LiveCell, check: string): string {
  return `mmcheck:${check}:${cell.runId}${randomBytes(2).toString('hex')}:`;
}

/** A chat history through a NEW client of the cell; CAPABILITY_MISSING when the store has no `openHistory`. */
export async function openCheckHistory(cell: LiveCell, opts: HistoryOptions): Promise<ChatHistory> {
  const store: MemoryStore = await cell.connect();
  if (typeof store.openHistory !== 'function') {
    throw new MemoryMatrixError('CAPABILITY_MISSING', `${cell.target}: the catalog declares capability history but adapter ${store.adapter} has no openHistory`);
  }
  return store.openHistory(opts);
}

/**
 * `n` messages from the golden memories (non-ASCII texts first, then every n-th), roles cycling
 * through all four, the memory's createdAt and metadata (falsy values included), plus edge
 * contents at fixed places: empty, ZWJ emoji, newline/quote/backslash/tab.
 */
export function checkMessages(cell: LiveCell, n: number): ChatMessage[] {
  const mem = cell.dataset.memories;
  const edgy = mem.filter((m) => /[\x80-\uffff]/.test(m.text) || Object.values(m.metadata).some((v) => v === 0 || v === '' || v === false || v === null));
  const pool = [...edgy.slice(0, Math.ceil(n / 2)), ...mem.filter((_, i) => i % 97 === 0)];
  const special = ['', '家族 👩‍👩‍👧‍👦 🏳️‍🌈 記憶', 'line 1\nline 2\t"quoted" \\ back\\slash \u00e9'];
  return Array.from({ length: n }, (_, i) => {
    const m = pool[i % pool.length]!;
    const content = i % 13 === 5 ? special[Math.floor(i / 13) % special.length]! : m.text;
    return { role: CHAT_ROLES[i % CHAT_ROLES.length]!, content, createdAt: m.createdAt, metadata: { ...m.metadata, turn: i } };
  });
}

/** Unicode code points of `s` (the unit of `HistoryWindow.maxChars`). */
export function codePointLength(s: string): number {
  return [...s].length;
}

/** A char budget that keeps exactly the newest `keep` messages of `msgs` (just below the next one's addition). */
export function charBudget(msgs: ChatMessage[], keep: number): number {
  const sum = msgs.slice(-keep).reduce((n, m) => n + codePointLength(m.content), 0);
  const next = codePointLength(msgs[msgs.length - keep - 1]?.content ?? '');
  return Math.max(1, sum + Math.max(0, next - 1));
}

/** What a window keeps of `msgs` (spec history.ts semantics): newest maxMessages, then newest within maxChars, newest always kept. */
export function windowReference(msgs: ChatMessage[], w: HistoryWindow): ChatMessage[] {
  let kept = w.maxMessages !== undefined ? msgs.slice(-w.maxMessages) : [...msgs];
  if (w.maxChars !== undefined) {
    let sum = 0;
    let i = kept.length;
    while (i > 0) {
      const c = codePointLength(kept[i - 1]!.content);
      if (i < kept.length && sum + c > w.maxChars) break;
      sum += c;
      i--;
    }
    kept = kept.slice(i);
  }
  return kept;
}

/** The first difference between two messages (type-strict metadata), or null. */
export function messageDifference(a: ChatMessage, b: ChatMessage | undefined): string | null {
  if (!b) return 'missing';
  for (const f of ['role', 'content', 'createdAt'] as const) if (a[f] !== b[f]) return `${f} expected ${JSON.stringify(a[f])} got ${JSON.stringify(b[f])}`;
  const ka = Object.keys(a.metadata).sort();
  const kb = Object.keys(b.metadata ?? {}).sort();
  if (ka.join('\u0000') !== kb.join('\u0000')) return `metadata keys expected [${ka}] got [${kb}]`;
  for (const k of ka) {
    if (!Object.is(a.metadata[k], b.metadata[k])) return `metadata.${k} expected ${JSON.stringify(a.metadata[k])} (${typeof a.metadata[k]}) got ${JSON.stringify(b.metadata[k])} (${typeof b.metadata[k]})`;
  }
  return null;
}

/** Compare message lists position by position; reports the count and the first few differences. */
export function compareMessages(want: ChatMessage[], got: ChatMessage[], what: string, fail: (message: string, extra?: Partial<Failure>) => void): void {
  if (got.length !== want.length) fail(`${what}: ${got.length} messages, expected ${want.length}`, { expected: want.length, actual: got.length });
  let shown = 0;
  for (let i = 0; i < want.length && shown < 5; i++) {
    const d = messageDifference(want[i]!, got[i]);
    if (d) {
      fail(`${what}: message ${i + 1}: ${d}`, { rank: i + 1 });
      shown++;
    }
  }
}
