import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemoryMatrixError } from '../errors';

/**
 * The embedded engine of the adapter kit: an in-process "server" for a run of an embedded store
 * (SQLite, LanceDB): one temp dir the engine owns. The driver wraps it as the `embedded` start of
 * its targets (a separate store process is spec store-process/, which wraps the same stores).
 * - `tempDirEngine` makes the dir;
 * - `connect` opens a NEW store on the same dir (what another client of the same local store does);
 * - `stop` closes every store it opened and removes the dir (idempotent).
 */
export interface TempDirEngine<S> {
  /** The temp dir the engine owns (`<os tmpdir>/mm-<adapter>-XXXXXX`). */
  readonly dir: string;
  /** Open a new store on the engine's dir. Throws BACKEND_ERROR `<adapter>: engine <dir> is stopped` after `stop`. */
  connect(): Promise<S>;
  /** Close every store `connect` opened, then remove the dir; rethrows the first close error after removing. */
  stop(): Promise<void>;
}

/**
 * Start an engine for `adapter`: a new temp dir `mm-<adapter>-…`; `open(dir)` opens one store on
 * it (a store has `close()`). Throws the fs error when the dir cannot be made.
 */
export function tempDirEngine<S extends { close(): Promise<void> }>(adapter: string, open: (dir: string) => Promise<S>): TempDirEngine<S> {
  const dir = mkdtempSync(path.join(tmpdir(), `mm-${adapter}-`));
  const opened: S[] = [];
  let stopped = false;
  return {
    dir,
    async connect() {
      if (stopped) throw new MemoryMatrixError('BACKEND_ERROR', `${adapter}: engine ${dir} is stopped; connect after stop`);
      const store = await open(dir);
      opened.push(store);
      return store;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      const errors: unknown[] = [];
      for (const s of opened) await s.close().catch((e: unknown) => errors.push(e));
      rmSync(dir, { recursive: true, force: true });
      if (errors.length) throw errors[0];
    },
  };
}

/**
 * The temp dir a local store makes for itself when it is given no path (`given` undefined): a new
 * `<os tmpdir>/mm-<adapter>-XXXXXX`, which the store removes on close (`closeLocalStore`); undefined
 * when `given` is set (the caller's path, never removed). Throws the fs error when the dir cannot be made.
 */
export function ownedTempDir(adapter: string, given: string | undefined): string | undefined {
  return given === undefined ? mkdtempSync(path.join(tmpdir(), `mm-${adapter}-`)) : undefined;
}

/** Remove a store's own temp dir (`ownedTempDir`) with everything in it; nothing for undefined. */
export function removeOwnedDir(dir: string | undefined): void {
  if (dir) rmSync(dir, { recursive: true, force: true });
}

/**
 * Close a local store once (idempotent): nothing when `ctx.closed`; else mark it closed, run
 * `close` (the connection's synchronous close) and remove `ownedDir` whether or not `close`
 * threw (its error is then rethrown).
 */
export function closeLocalStore(ctx: { closed: boolean }, close: () => void, ownedDir: string | undefined): void {
  if (ctx.closed) return;
  ctx.closed = true;
  try {
    close();
  } finally {
    removeOwnedDir(ownedDir);
  }
}
