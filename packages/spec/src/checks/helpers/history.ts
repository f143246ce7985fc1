import { randomBytes } from 'node:crypto';
import type { MemoryStore } from '../../adapter';
import type { Failure } from '../../comparator';
import type { LiveCell } from '../../conformance/cell';
import { MemoryMatrixError } from '../../errors';
import type { ChatHistory, ChatMessage, HistoryOptions, HistoryWindow } from '../../history';
import { CHAT_ROLES } from '../../history';
import { metadataKindOf as kindOf, metadataValueAt, metadataValueDifference } from '../../metadata-value';

/*
 * Chat-history helpers shared by the history checks (C15 history rows, C16, C17, C18, C19, C20,
 * C22): a per-check key prefix, a history through a new client, the check messages, the window
 * reference and a type-strict message comparison.
 */

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
    const at = metadataValueDifference(a.metadata[k], b.metadata![k], '');
    if (at !== null) {
      const [x, y] = [metadataValueAt(a.metadata[k], at), metadataValueAt(b.metadata![k], at)];
      return `metadata.${k}${at} expected ${JSON.stringify(x)} (${kindOf(x)}) got ${JSON.stringify(y)} (${kindOf(y)})`;
    }
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
