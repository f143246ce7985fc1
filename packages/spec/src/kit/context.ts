import { isMemoryMatrixError, MemoryMatrixError, type ErrorCode } from '../errors';

/**
 * The store context of the adapter kit: what a store and its collections share (the closed flag)
 * and the one place a backend's errors are wrapped. Messages: `<adapter>: <what> on <noun> <target>
 * failed: <text>`, and `<adapter>: <what> on <noun> <target>: the store is closed` after `close()`.
 */

/** How one adapter words and codes its backend errors. */
export interface ContextStyle {
  /** Adapter name, the message prefix. */
  adapter: string;
  /** Word before the target in messages (`table` → ` on table t1`); empty: ` on t1`. */
  noun: string;
  /** Tense of the closed message (`the store is closed` / `the store was closed`); default `is`. */
  closedTense?: 'is' | 'was';
  /** The text after `failed: ` for a backend error; default `errorText` (its message). */
  describe?: (err: unknown) => string;
  /** The code for that text; default BACKEND_ERROR (Redis: OUT_OF_MEMORY for its OOM reply). */
  codeOf?: (text: string) => ErrorCode;
}

/** An error's `message` when it is a string, else `String(err)`. */
export function errorText(err: unknown): string {
  const message = (err as { message?: unknown } | null | undefined)?.message;
  return typeof message === 'string' ? message : String(err);
}

/**
 * A MemoryMatrixError passes through unchanged; anything else becomes `style.codeOf(text)`
 * (default BACKEND_ERROR) `<adapter>: <scope> failed: <text>`, the original as `cause`.
 */
export function wrapBackendErrorIn(style: ContextStyle, err: unknown, scope: string): MemoryMatrixError {
  if (isMemoryMatrixError(err)) return err;
  const text = (style.describe ?? errorText)(err);
  return new MemoryMatrixError(style.codeOf?.(text) ?? 'BACKEND_ERROR', `${style.adapter}: ${scope} failed: ${text}`, { cause: err });
}

/**
 * Base of an adapter's store context (Kysely-style: the adapter extends it with its client).
 * `closed` is set by the store's `close()`; `run` refuses after it and wraps errors.
 */
export class KitStoreContext {
  closed = false;

  constructor(readonly style: ContextStyle) {}

  /** `<what>` or `<what> on <noun> <target>`. */
  scope(what: string, target: string | undefined): string {
    return target ? `${what} on ${this.style.noun ? `${this.style.noun} ` : ''}${target}` : what;
  }

  /** BACKEND_ERROR `<adapter>: <scope>: the store is closed`. */
  closedError(scope: string): MemoryMatrixError {
    return new MemoryMatrixError('BACKEND_ERROR', `${this.style.adapter}: ${scope}: the store ${this.style.closedTense ?? 'is'} closed`);
  }

  /**
   * Run `fn` (synchronous, e.g. better-sqlite3, or returning a promise) on `target`: rejects with
   * `closedError` when the store is closed (fn not called), else with `wrapBackendErrorIn` of
   * anything `fn` throws or rejects with. Always returns a promise.
   */
  run<T>(what: string, target: string | undefined, fn: () => T | Promise<T>): Promise<T> {
    const scope = this.scope(what, target);
    if (this.closed) return Promise.reject(this.closedError(scope));
    try {
      return Promise.resolve(fn()).catch((err: unknown) => {
        throw wrapBackendErrorIn(this.style, err, scope);
      });
    } catch (err) {
      return Promise.reject(wrapBackendErrorIn(this.style, err, scope));
    }
  }
}

/**
 * The wording of SQLite-family drivers (better-sqlite3, libsql): ` on table <t>`, `the store is
 * closed`, and the driver's message followed by its result code when it has one (` (SQLITE_BUSY)`).
 * Spread it with the adapter name: `{ ...SQLITE_LIKE, adapter: 'sqlite' }`.
 */
export const SQLITE_LIKE: Omit<ContextStyle, 'adapter'> = {
  noun: 'table',
  describe: (err) => {
    const code = (err as { code?: unknown } | null | undefined)?.code;
    return `${errorText(err)}${typeof code === 'string' && code.startsWith('SQLITE_') ? ` (${code})` : ''}`;
  },
};

/** A `ContextStyle.codeOf` from a table of (words, code): the first pattern the text matches gives the code, else BACKEND_ERROR. */
export function codeByWords(table: ReadonlyArray<readonly [RegExp, ErrorCode]>): (text: string) => ErrorCode {
  return (text) => table.find(([re]) => re.test(text))?.[1] ?? 'BACKEND_ERROR';
}

/** Await `fn` (it may also throw at once), rethrowing anything it throws as `wrapBackendErrorIn(style, err, scope)`. */
export async function runWrapped<T>(style: ContextStyle, scope: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw wrapBackendErrorIn(style, err, scope);
  }
}
