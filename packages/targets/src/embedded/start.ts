import { armLimitTimer, MemoryMatrixError, type EmbeddedEngine, type EmbeddedInstance, type MemoryStore } from '@memory-matrix/spec';
import { startTimeoutScale } from '../container/start';
import { serverAddress } from '../address';
import { driverOf } from '../registry';
import type { StartedBackend } from '../types';
import { checkExpected } from './versions';

/** Options of `startEmbedded`. */
export interface EmbeddedOptions {
  /** `backend@version` for messages and `StartedBackend.target`. */
  target?: string;
  /** Backend (driver name) whose engine to start; taken from `target` (`backend@version`) when absent. */
  backend?: string;
  /**
   * Directory for the database files; the same directory after `stop()` reopens the same data
   * (durability, C15/C16). Default: in memory, gone at `stop()`. A directory written by another
   * engine fails to start with TARGET_UNAVAILABLE.
   */
  dataDir?: string;
  /**
   * Versions the server must report, from the catalog's `expect`; a value matches itself or as a
   * prefix ending at a dot (`16` matches `16.4`). Keys name `info.components` entries.
   */
  expect?: Record<string, string>;
  /** Start deadline, ms, before scaling by `MM_START_TIMEOUT_SCALE`. Default 60 000. */
  startTimeoutMs?: number;
  /** The target's parsed `adapterOptions`. */
  adapterOptions?: unknown;
}

const DEFAULT_START_TIMEOUT_MS = 60_000;

/**
 * Start an in-process engine of a driver (embedded provider) and return a `StartedBackend`:
 * - `connect()`: a NEW store on the SAME engine instance. Closing a store leaves the engine running.
 * - `info`: what the engine reports, plus the preflight's package versions as components.
 * - `stop()`: closes open stores and the engine (flushing `dataDir`); idempotent.
 * `backend`: the driver's name (`backend@version` of `opts.target` when omitted).
 * Throws TARGET_UNAVAILABLE naming the target when the driver or engine is unknown, the engine is
 * not installed as pinned, it fails or times out at start, or a reported version differs from `opts.expect`.
 */
export async function startEmbedded(engineName: string, opts: EmbeddedOptions = {}): Promise<StartedBackend> {
  const backend = opts.backend ?? opts.target?.split('@')[0];
  const where = `${opts.target ?? `${backend ?? '?'}@${engineName}`} (embedded ${engineName})`;
  const unavailable = (why: string, cause?: unknown) => new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: ${why}`, cause === undefined ? undefined : { cause });
  if (backend === undefined) throw unavailable('no backend named (pass opts.target or opts.backend)');
  const engines = driverOf(backend).embedded?.engines ?? {};
  const engine = engines[engineName];
  if (!engine) throw unavailable(`unknown embedded engine "${engineName}" (known: ${Object.keys(engines).join(', ') || 'none'})`);
  const packages = engine.preflight(where, opts.adapterOptions);

  const t0 = performance.now();
  const db = await openWithDeadline(engine, opts, where);
  let info: StartedBackend['info'];
  try {
    const v = await db.versions();
    info = { serverVersion: v.serverVersion, components: { ...v.components, ...packages } };
    checkExpected(info.components, opts.expect, where);
  } catch (err) {
    await db.close().catch(() => undefined); // the start failed; its error is the one that matters
    if ((err as { code?: unknown }).code === 'TARGET_UNAVAILABLE') throw err;
    throw unavailable(`the server did not answer the version probe: ${(err as Error).message}`, err);
  }
  const startMs = performance.now() - t0;

  const open = new Set<MemoryStore>();
  let stopped: Promise<void> | undefined;
  let served: Promise<string> | undefined;
  return {
    ...(opts.target !== undefined ? { target: opts.target } : {}),
    provider: 'embedded',
    info,
    startMs,
    async connect(connectOpts) {
      if (stopped) throw unavailable('connect() after stop()');
      const store = await db.connect(connectOpts);
      open.add(store);
      const close = store.close.bind(store);
      store.close = async () => {
        open.delete(store);
        await close();
      };
      return store;
    },
    async address() {
      if (stopped) throw unavailable('address() after stop()');
      const serve = db.serve?.bind(db);
      if (!serve) return serverAddress(where, backend, undefined, `embedded engine ${engineName} cannot serve its wire protocol (no serve())`);
      served ??= serve(where);
      const url = await served;
      return serverAddress(where, backend, () => url, '');
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

/** `engine.open` within the (scaled) start deadline; a late starter is closed. */
async function openWithDeadline(engine: EmbeddedEngine<unknown>, opts: EmbeddedOptions, where: string): Promise<EmbeddedInstance> {
  const deadline = (opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS) * startTimeoutScale();
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const opening = engine.open({ where, ...(opts.dataDir !== undefined ? { dataDir: opts.dataDir } : {}), adapterOptions: opts.adapterOptions });
  try {
    return await Promise.race([
      opening,
      new Promise<never>((_, reject) => {
        timer = armLimitTimer(
          () => {
            timedOut = true;
            reject(new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: the engine did not start within ${Math.round(deadline)} ms (MM_START_TIMEOUT_SCALE scales it)`));
          },
          deadline,
          { ref: true },
        );
      }),
    ]);
  } catch (err) {
    if (timedOut) void opening.then((db) => db.close()).catch(() => undefined); // close a late starter
    if ((err as { code?: unknown }).code === 'TARGET_UNAVAILABLE') throw err;
    const dir = opts.dataDir !== undefined ? ` with dataDir ${opts.dataDir}` : '';
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${where}: the engine failed to start${dir}: ${(err as Error).message}`, { cause: err });
  } finally {
    clearTimeout(timer);
  }
}
