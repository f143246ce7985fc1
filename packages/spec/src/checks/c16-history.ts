import type { MemoryStore } from '../adapter';
import type { Figure } from '../conformance/result';
import type { ChatMessage } from '../history';
import { MemoryMatrixError } from '../errors';
import { messageDifference } from './helpers/history';

/** Sessions written on the older version, and the one among them that carries a TTL. */
const SESSIONS = 12;
const TTL_SESSION = 3;
/** TTL of that session: long enough to outlive the check, so it must still be set after the upgrade. */
const TTL_MS = 7 * 24 * 3_600_000;

/** What the older version stored: per session its messages (as appended) and its payloads verbatim. */
export interface HistoryBaseline {
  keyPrefix: string;
  sessions: Array<{ sessionId: string; ttl: boolean; messages: ChatMessage[]; raw: string[] }>;
}

/** One problem found by `compareHistorySessions` (the check turns it into a Failure). */
export interface HistoryProblem {
  kind: 'upgrade-empty' | 'upgrade-history';
  message: string;
  expected?: unknown;
  actual?: unknown;
}

function requireHistory(store: MemoryStore, where: string): NonNullable<MemoryStore['openHistory']> {
  if (typeof store.openHistory !== 'function') throw new MemoryMatrixError('CAPABILITY_MISSING', `${where}: adapter ${store.adapter} has no openHistory`);
  return store.openHistory.bind(store);
}

/**
 * Write `SESSIONS` chat-history sessions under `keyPrefix` on `store` (the older version): session
 * s holds `messages` rotated by s, appended in three calls (10, 1, rest); one session has a TTL of
 * 7 days on every key. Resolves with what was written and the stored payloads read back verbatim
 * (`readRaw`). Throws whatever the adapter throws (BACKEND_ERROR, INVALID_INPUT).
 */
export async function writeHistorySessions(store: MemoryStore, messages: ChatMessage[], keyPrefix: string): Promise<HistoryBaseline> {
  const open = requireHistory(store, 'C16 history (older version)');
  const sessions: HistoryBaseline['sessions'] = [];
  for (let s = 0; s < SESSIONS; s++) {
    const sessionId = `c16-s${s}`;
    const ttl = s === TTL_SESSION;
    const msgs = [...messages.slice(s % messages.length), ...messages.slice(0, s % messages.length)];
    const h = await open({ sessionId, keyPrefix, ...(ttl ? { ttlMs: TTL_MS } : {}) });
    for (const [a, b] of [
      [0, 10],
      [10, 11],
      [11, msgs.length],
    ] as const)
      await h.append(msgs.slice(a, b));
    sessions.push({ sessionId, ttl, messages: msgs, raw: await h.readRaw() });
  }
  return { keyPrefix, sessions };
}

/**
 * Read every baseline session from `store` (the newer version, on the older one's storage) and
 * compare: message count, order, role, content, createdAt, metadata (type-strict) through
 * `read()`; the stored payloads byte for byte through `readRaw()`; `length()`; every key of the TTL
 * session still carries a TTL. A store where NO message of any session is found is `upgrade-empty`
 * (data silently gone: the format was not read), never a pass. `path` prefixes messages and figure
 * keys. Problems are returned, not thrown; adapter errors (PAYLOAD_UNSUPPORTED, BACKEND_ERROR) are.
 */
export async function compareHistorySessions(store: MemoryStore, baseline: HistoryBaseline, path: string): Promise<{ figures: Record<string, Figure>; problems: HistoryProblem[] }> {
  const open = requireHistory(store, `C16 history (${path})`);
  const problems: HistoryProblem[] = [];
  const bad = (message: string, extra: Partial<HistoryProblem> = {}) => problems.push({ kind: 'upgrade-history', message: `${path}: ${message}`, ...extra });
  let found = 0;
  let missingSessions = 0;
  let changedMessages = 0;
  let rawDiffers = 0;
  let ttlKept = 0;
  const want = baseline.sessions.reduce((n, s) => n + s.messages.length, 0);
  for (const s of baseline.sessions) {
    const h = await open({ sessionId: s.sessionId, keyPrefix: baseline.keyPrefix });
    const got = await h.read();
    found += got.length;
    if (got.length === 0) {
      missingSessions++;
      bad(`session ${s.sessionId} (prefix ${baseline.keyPrefix}) is empty; the older version held ${s.messages.length} messages`, { expected: s.messages.length, actual: 0 });
      continue;
    }
    if (got.length !== s.messages.length) bad(`session ${s.sessionId}: ${got.length} messages, the older version held ${s.messages.length}`, { expected: s.messages.length, actual: got.length });
    let shown = 0;
    s.messages.forEach((m, i) => {
      const d = messageDifference(m, got[i]);
      if (!d) return;
      changedMessages++;
      if (shown++ < 3) bad(`session ${s.sessionId} message ${i + 1}: ${d}`);
    });
    const raw = await h.readRaw();
    const firstRaw = s.raw.findIndex((p, i) => raw[i] !== p);
    if (firstRaw >= 0 || raw.length !== s.raw.length) {
      rawDiffers++;
      const i = firstRaw >= 0 ? firstRaw : Math.min(raw.length, s.raw.length);
      bad(
        `session ${s.sessionId}: stored payload ${i + 1} differs from what the older version stored: ${JSON.stringify(raw[i] ?? null)?.slice(0, 120)} vs ${JSON.stringify(s.raw[i] ?? null)?.slice(0, 120)}`,
      );
    }
    const n = await h.length();
    if (n !== s.messages.length) bad(`session ${s.sessionId}: length() is ${n}, expected ${s.messages.length}`, { expected: s.messages.length, actual: n });
    if (s.ttl) {
      const keys = await h.keys();
      const without = keys.filter((k) => k.ttlMs === null || k.ttlMs <= 0);
      if (keys.length && without.length === 0) ttlKept++;
      else
        bad(
          `session ${s.sessionId} was written with a TTL of ${TTL_MS} ms on every key; after the upgrade ${without.length} of ${keys.length} key(s) have none: ${without.map((k) => k.key).join(', ')}`,
        );
    }
  }
  if (found === 0)
    problems.unshift({
      kind: 'upgrade-empty',
      message: `${path}: every one of the ${baseline.sessions.length} chat-history sessions opens EMPTY (the older version held ${want} messages): the stored data was not read`,
      expected: want,
      actual: 0,
    });
  return {
    figures: {
      [`${path}/opened`]: true,
      [`${path}/sessions`]: baseline.sessions.length - missingSessions,
      [`${path}/messages`]: found,
      [`${path}/missingSessions`]: missingSessions,
      [`${path}/changedMessages`]: changedMessages,
      [`${path}/payloadsDiffer`]: rawDiffers,
      [`${path}/ttlKept`]: ttlKept,
    },
    problems,
  };
}
