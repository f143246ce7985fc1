import { MemoryMatrixError } from './errors';
import type { HistoryOptions, HistoryWindow } from './history';

/*
 * Argument checks and the window rule shared by the adapters that implement `ChatHistory`
 * (history.ts): Redis in a Lua script over a list, SQLite and LanceDB over rows of a table.
 * Every message starts with the adapter's name; codes INVALID_INPUT and CAPABILITY_MISSING.
 */

/** The key (or `prefix` column) prefix when `HistoryOptions.keyPrefix` is absent. */
export const DEFAULT_HISTORY_PREFIX = 'mm:history:';
/** `HistoryOptions.sessionId`: 1..200 characters of `[A-Za-z0-9._:@-]` (history.ts). */
export const HISTORY_SESSION_RE = /^[A-Za-z0-9._:@-]{1,200}$/;
/** A row store's prefix: 1..100 printable ASCII characters without spaces. */
const ROW_PREFIX_RE = /^[\x21-\x7e]{1,100}$/;

function invalid(adapter: string, why: string): MemoryMatrixError {
  return new MemoryMatrixError('INVALID_INPUT', `${adapter}: ${why}`);
}

/** A `HistoryWindow`: an object whose `maxMessages` / `maxChars`, when given, are integers ≥ 1. INVALID_INPUT naming `where` and the field. */
export function validateHistoryWindow(w: HistoryWindow | undefined, where: string, adapter: string): void {
  if (typeof w !== 'object' || w === null) throw invalid(adapter, `${where} must be an object`);
  for (const f of ['maxMessages', 'maxChars'] as const) {
    const v = w[f];
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) throw invalid(adapter, `${where}.${f} must be an integer ≥ 1, got ${String(v)}`);
  }
}

/** `read({ last })`: absent, or an integer ≥ 1. INVALID_INPUT naming `where` (e.g. `read of session s`). */
export function validateReadLast(last: number | undefined, where: string, adapter: string): void {
  if (last !== undefined && (!Number.isInteger(last) || last < 1)) throw invalid(adapter, `${where}: last must be an integer ≥ 1, got ${last}`);
}

/** `writeRaw(payloads)`: an array of strings. INVALID_INPUT naming `where` (e.g. `writeRaw to session s`). */
export function validateRawPayloads(payloads: unknown, where: string, adapter: string): asserts payloads is string[] {
  if (!Array.isArray(payloads) || payloads.some((p) => typeof p !== 'string')) throw invalid(adapter, `${where}: payloads must be strings`);
}

/**
 * The rows (oldest first) a window drops, from rows oldest first with their content's code points
 * in `chars`: the newest `maxMessages` are kept, then of those the newest whose chars sum to at most
 * `maxChars`, the newest row always (history.ts `HistoryWindow`). Returns a prefix of `rows`.
 */
export function outsideWindow<T extends { chars: number }>(rows: T[], w: HistoryWindow): T[] {
  let keepFrom = w.maxMessages !== undefined ? Math.max(0, rows.length - w.maxMessages) : 0;
  if (w.maxChars !== undefined) {
    let sum = 0;
    let i = rows.length;
    while (i > keepFrom) {
      const c = rows[i - 1]!.chars;
      if (i < rows.length && sum + c > w.maxChars) break;
      sum += c;
      i--;
    }
    keepFrom = i;
  }
  return rows.slice(0, keepFrom);
}

/** A session of a row store, as `rowHistorySession` validated it. */
export interface RowHistorySession {
  sessionId: string;
  keyPrefix: string;
  window: HistoryWindow | undefined;
  /** `session <prefix><sessionId>`, how messages name the session. */
  where: string;
}

/**
 * Validate `openHistory` options for a store that keeps a history as table rows with no TTL:
 * sessionId (`HISTORY_SESSION_RE`), keyPrefix (1..100 printable ASCII characters without spaces;
 * default `DEFAULT_HISTORY_PREFIX`), window; `ttlMs` is CAPABILITY_MISSING saying that `rows`
 * (e.g. `SQLite rows`) have no TTL. Throws INVALID_INPUT naming the field.
 */
export function rowHistorySession(opts: HistoryOptions, adapter: string, rows: string): RowHistorySession {
  if (typeof opts?.sessionId !== 'string' || !HISTORY_SESSION_RE.test(opts.sessionId)) {
    throw invalid(adapter, `openHistory: sessionId must match ${HISTORY_SESSION_RE.source}, got ${JSON.stringify(opts?.sessionId)}`);
  }
  const prefix = opts.keyPrefix ?? DEFAULT_HISTORY_PREFIX;
  if (typeof prefix !== 'string' || !ROW_PREFIX_RE.test(prefix))
    throw invalid(adapter, `openHistory: keyPrefix must be 1..100 printable ASCII characters without spaces, got ${JSON.stringify(prefix)}`);
  if (opts.ttlMs !== undefined) throw new MemoryMatrixError('CAPABILITY_MISSING', `${adapter}: openHistory: ttlMs ${String(opts.ttlMs)}: ${rows} have no TTL (capability ttl is false)`);
  if (opts.window !== undefined) validateHistoryWindow(opts.window, 'openHistory: window', adapter);
  return { sessionId: opts.sessionId, keyPrefix: prefix, window: opts.window, where: `session ${prefix}${opts.sessionId}` };
}
