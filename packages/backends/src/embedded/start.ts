import { createPgvectorStore, fromPGlite, type PGliteLike } from '@memory-matrix/adapter-pgvector';
import { MemoryMatrixError, type MemoryStore } from '@memory-matrix/spec';
import type { StartedBackend } from '../types';
import { EMBEDDED_ENGINES, enginePackageVersions, loadEngine, sandboxProblem, type EmbeddedEngine } from './engines';
import { checkExpected } from './versions';

/** Options of `startEmbedded`. */
export interface EmbeddedOptions {
  /** `backend@version` for messages and `StartedBackend.target`, e.g. `pgvector@pglite-pg18`. */
  target?: string;
  /**
   * Directory for the database files; the same directory after `stop()` reopens the same data
   * (durability, C15/C16). Default: in memory, gone at `stop()`. A directory written by another
   * engine (PostgreSQL major) fails to start with TARGET_UNAVAILABLE.
   */
  dataDir?: string;
  /**
   * Versions the server must report, from the catalog's `expect`, e.g.
   * `{ postgres: '16.4', pgvector: '0.8.0' }`; a value matches itself or as a prefix ending at a
   * dot (`16` matches `16.4`). Keys name `info.components` entries.
   */
  expect?: Record<string, string>;
  /** Start deadline, ms, before scaling by `MM_START_TIMEOUT_SCALE`. Default 60 000. */
  startTimeoutMs?: number;
}

const DEFAULT_START_TIMEOUT_MS = 60_000;

/**
 * Start an in-process PostgreSQL + pgvector (PGlite) and return a `StartedBackend`:
 * - `connect()`: a NEW pgvector store over a new `SqlClient` on the SAME PGlite instance (PGlite
 *   is a single connection; clients take turns). Closing a store leaves the instance running.
 * - `info`: `serverVersion` = `SELECT version()`; components `postgres`, `pgvector` (extversion),
 *   `pglite` (and `pglite-pgvector` for 0.5) package versions.
 * - `stop()`: closes open stores and the PGlite instance (flushing `dataDir`); idempotent.
 * Throws TARGET_UNAVAILABLE naming the target when the engine is unknown or not installed as
 * pinned, PGlite fails or times out at start, or a reported version differs from `opts.expect`.
 */
export async function startEmbedded(engine: EmbeddedEngine, opts: EmbeddedOptions = {}): Promise<StartedBackend> {
  const where = `${opts.target ?? `pgvector@${engine}`} (embedded ${engine})`;
  const unavailable = (why: string, cause?: unknown) =>
    new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${why}`, cause === undefined ? undefined : { cause });
  if (!EMBEDDED_ENGINES.includes(engine)) throw unavailable(`unknown embedded engine "${engine}" (known: ${EMBEDDED_ENGINES.join(', ')})`);
  const problem = sandboxProblem();
  if (problem) throw unavailable(problem);
  const packages = enginePackageVersions(engine, where);

  const t0 = performance.now();
  const db = await createWithDeadline(engine, opts, where);
  let info: StartedBackend['info'];
  try {
    const probe = await createPgvectorStore(fromPGlite(db)); // CREATE EXTENSION vector on first start
    const server = await probe.serverInfo();
    await probe.close();
    info = { serverVersion: server.server, components: { ...server.components, ...packages } };
    checkExpected(info.components, opts.expect, where);
  } catch (err) {
    await db.close().catch(() => undefined); // the start failed; its error is the one that matters
    if ((err as { code?: unknown }).code === 'TARGET_UNAVAILABLE') throw err;
    throw unavailable(`the server did not answer the version probe: ${(err as Error).message}`, err);
  }
  const startMs = performance.now() - t0;

  const open = new Set<MemoryStore>();
  let stopped: Promise<void> | undefined;
  return {
    ...(opts.target !== undefined ? { target: opts.target } : {}),
    provider: 'embedded',
    info,
    startMs,
    async connect() {
      if (stopped) throw unavailable('connect() after stop()');
      const store = await createPgvectorStore(fromPGlite(db));
      open.add(store);
      const close = store.close.bind(store);
      store.close = async () => {
        open.delete(store);
        await close();
      };
      return store;
    },
    stop() {
      stopped ??= (async () => {
        for (const s of [...open]) await s.close();
        await db.close();
      })();
      return stopped;
    },
  };
}

/** `PGlite.create` with the vector extension, within the (scaled) start deadline. */
async function createWithDeadline(engine: EmbeddedEngine, opts: EmbeddedOptions, where: string): Promise<PGliteLike> {
  const scale = Number(process.env.MM_START_TIMEOUT_SCALE ?? '1');
  const deadline = (opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS) * (Number.isFinite(scale) && scale > 0 ? scale : 1);
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const creating = (async () => {
    const { PGlite, vector } = loadEngine(engine);
    return PGlite.create({ extensions: { vector }, ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}) });
  })();
  try {
    return await Promise.race([
      creating,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          timedOut = true;
          reject(new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: PGlite did not start within ${Math.round(deadline)} ms (MM_START_TIMEOUT_SCALE scales it)`));
        }, deadline);
      }),
    ]);
  } catch (err) {
    if (timedOut) void creating.then((db) => db.close()).catch(() => undefined); // close a late starter
    if ((err as { code?: unknown }).code === 'TARGET_UNAVAILABLE') throw err;
    const dir = opts.dataDir !== undefined ? ` with dataDir ${opts.dataDir}` : '';
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: PGlite failed to start${dir}: ${(err as Error).message}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}
