import { MemoryMatrixError, scaledLimitMs, type ConnectOptions, type ContainerEndpoint, type ContainerKind, type MemoryStore } from '@memory-matrix/spec';
import { connectRedisStore, redisClient } from '../redis-adapter';
import { pingRedis } from '../ping';
import type { RedisAdapterOptions } from './options';
import { parseClientList, redisSettingsInArgs } from './settings';

/** Settings every redis fault instance reports (what decides whether an acknowledged write survives kill -9). */
const DURABILITY_SETTINGS = ['appendonly', 'appendfsync', 'save', 'dir', 'appenddirname', 'dbfilename', 'aof-use-rdb-preamble'];
/** Where the configurations' `--dir` must point: the instance's volume. */
const DATA_DIR = '/data';
const SETTING_NAME = /^[a-z][a-z0-9-]*$/;

type Redis = ReturnType<typeof redisClient>;

/**
 * Admin connections opened next to every NAMED client (`connect({ clientName })`), closed with
 * that client's store: `awaitWriteInFlight` must put its write hold on the server within
 * milliseconds of the write starting, and a new connection (TCP, ready check, SETNAME) took
 * 0.8 s under the event-loop load of building a 3,000-memory MULTI. Keyed by container, port, name.
 */
const holders = new Map<string, Redis>();
const holderKey = (ep: ContainerEndpoint, clientName: string): string => `${ep.containerId}:${ep.port}:${clientName}`;

/** The fault machinery's own client; its time limits × the host factor (spec host.ts). */
const newAdminClient = (ep: ContainerEndpoint): Redis =>
  redisClient({ host: ep.host, port: ep.port, connectTimeoutMs: scaledLimitMs(5_000), commandTimeoutMs: scaledLimitMs(30_000), clientName: 'memory-matrix-admin' });

/**
 * One admin command batch: on the held admin connection of `heldFor` when there is one, else on a
 * short-lived client. Errors become BACKEND_ERROR naming `ep.where` and `what`.
 */
async function admin<T>(ep: ContainerEndpoint, what: string, fn: (c: Redis) => Promise<T>, heldFor?: string): Promise<T> {
  const held = heldFor === undefined ? undefined : holders.get(holderKey(ep, heldFor));
  const c = held ?? newAdminClient(ep);
  try {
    if (!held) await c.connect();
    return await fn(c);
  } catch (err) {
    if ((err as { name?: string }).name === 'MemoryMatrixError') throw err;
    throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: ${what}: ${(err as Error).message}`, { cause: err });
  } finally {
    if (!held) c.disconnect();
  }
}

/** `CONFIG GET p1 p2 …` (several patterns: Redis ≥ 7.0) as a record; RESP2 flat reply `[k, v, …]`. */
async function configGet(c: Redis, names: string[]): Promise<Record<string, string>> {
  const reply = (await c.call('CONFIG', 'GET', ...names)) as string[];
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}

/**
 * A new redis store on a new ioredis client. Without `opts` (ordinary cells): the adapter's
 * defaults. With `opts` (fault checks): its timeouts and `clientName`, and for a named client an
 * admin connection held next to it (see `holders`), closed with the store.
 */
async function connectRedis(ep: ContainerEndpoint, opts: ConnectOptions | undefined, o: RedisAdapterOptions | undefined): Promise<MemoryStore> {
  const quantization = o?.quantization ?? 'q8';
  if (opts === undefined) return connectRedisStore({ host: ep.host, port: ep.port, quantization });
  const t = opts.timeouts ?? {};
  const name = opts.clientName;
  const store = await connectRedisStore({ host: ep.host, port: ep.port, quantization, connectTimeoutMs: t.connectMs, commandTimeoutMs: t.queryMs, clientName: name });
  if (name === undefined) return store;
  const key = holderKey(ep, name);
  const holder = newAdminClient(ep);
  try {
    await holder.connect();
  } catch (err) {
    holder.disconnect();
    await store.close();
    throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: admin connection next to client ${name}: ${(err as Error).message}`, { cause: err });
  }
  holders.get(key)?.disconnect();
  holders.set(key, holder);
  const close = store.close.bind(store);
  store.close = async () => {
    if (holders.get(key) === holder) holders.delete(key);
    holder.disconnect();
    await close();
  };
  return store;
}

/**
 * The `redis` container kind (images run `redis-server` as PID 1, as root; port 6379).
 * - Ready: the log line `Ready to accept connections` AND a real PING through the mapped port.
 * - Versions: INFO server / MODULE LIST (the adapter's `serverInfo`).
 * - Clean shutdown: SIGTERM (Redis saves the RDB when save points are set and fsyncs the AOF).
 * - Faults: the volume is mounted at `/data`; every configuration passes `--dir /data` (checked
 *   at every start: `CONFIG GET dir` must say `/data`, else the data would not be on the volume).
 *   Durability settings come as `args` (`--appendonly yes --appendfsync always`, later arguments
 *   win — verified on 7.0.15 and 8.0.2: `--save "" … --save 3600 1 300 100 60 10000` gives the
 *   latter). `settings` are applied with CONFIG SET and persisted with CONFIG REWRITE; the images
 *   here have no config file, so REWRITE fails and the settings are refused (INVALID_INPUT) rather
 *   than silently lost at the first restart. Sessions are selected by `CLIENT SETNAME` (the
 *   adapter's `clientName`) and ended with `CLIENT KILL ID` (CLIENT KILL has no name filter).
 *   A write is "in flight" when the client is inside MULTI (CLIENT LIST `flags` has `x`): the
 *   adapter's upsert is one MULTI/EXEC, nothing is applied before EXEC, and killing the session
 *   then discards the whole transaction. Unheld, that window is a few ms of a 1.6 s upsert of
 *   3,000 memories (measured: seen in 1 of ~700 CLIENT LIST polls; the EXEC itself cannot be
 *   observed, Redis answers CLIENT LIST only after it), so `awaitWriteInFlight` first holds writes
 *   server-wide with `CLIENT PAUSE <timeoutMs> WRITE`: the client's MULTI is accepted and it
 *   blocks at its first queued write (flags `xb`, the rest of the batch in its query buffer).
 *   `dropConnections` kills, then `CLIENT UNPAUSE`s; a timeout unpauses before it throws.
 *   No dump format (no exportCollection): in-place upgrades read the RDB/AOF files directly.
 */
export const redisContainerKind: ContainerKind<RedisAdapterOptions> = {
  kind: 'redis',
  port: 6379,
  dataDir: DATA_DIR,
  readyLog: /Ready to accept connections/,
  stopSignal: 'SIGTERM',
  defaultStartTimeoutMs: 30_000,
  async probe(ep, attemptMs) {
    const reply = await pingRedis(ep.host, ep.port, Math.max(200, Math.min(2_000, attemptMs)));
    if (reply !== 'PONG') throw new Error(`PING answered ${JSON.stringify(reply)}`);
  },
  async versions(ep) {
    const probe = await connectRedisStore({ host: ep.host, port: ep.port });
    try {
      const s = await probe.serverInfo();
      return { serverVersion: s.server, components: s.components };
    } finally {
      await probe.close();
    }
  },
  connect: connectRedis,
  /** For client drivers (LangChain.js' Redis classes take a URL or a client): `redis://127.0.0.1:<mapped port>`, no auth (the image runs with protected-mode off, loopback-published). */
  connectionString: (ep) => `redis://${ep.host}:${ep.port}`,
  faults: {
    async verifyInstance(ep) {
      const dir = await admin(ep, 'CONFIG GET dir', async (c) => (await configGet(c, ['dir'])).dir);
      if (dir !== DATA_DIR) {
        throw new MemoryMatrixError(
          'TARGET_UNAVAILABLE',
          `${ep.where}: redis-server keeps its files in ${JSON.stringify(dir)}, not on the instance's volume ${DATA_DIR}; the durability configuration's args must carry --dir ${DATA_DIR} (matrix/targets.yaml)`,
        );
      }
    },
    async applySettings(ep, settings) {
      for (const n of Object.keys(settings))
        if (!SETTING_NAME.test(n)) throw new MemoryMatrixError('INVALID_INPUT', `${ep.where}: setting name ${JSON.stringify(n)} is not a Redis config parameter name`);
      return admin(ep, 'CONFIG SET', async (c) => {
        for (const [k, v] of Object.entries(settings)) await c.call('CONFIG', 'SET', k, v);
        try {
          await c.call('CONFIG', 'REWRITE');
        } catch (err) {
          throw new MemoryMatrixError(
            'INVALID_INPUT',
            `${ep.where}: settings ${Object.keys(settings).join(', ')} were set with CONFIG SET but cannot be persisted (CONFIG REWRITE: ${(err as Error).message}); they would be lost at the first restart — put them in the configuration's args (e.g. --appendonly yes)`,
            { cause: err },
          );
        }
        return 'reloaded' as const;
      });
    },
    async effectiveSettings(ep, names) {
      const all = [...new Set([...DURABILITY_SETTINGS, ...names])];
      return admin(ep, 'read settings', (c) => configGet(c, all));
    },
    settingsInArgs: redisSettingsInArgs,
    async dropConnections(ep, clientName) {
      return admin(
        ep,
        `kill the connections of ${clientName}`,
        async (c) => {
          const victims = parseClientList(String(await c.call('CLIENT', 'LIST'))).filter((x) => x.name === clientName);
          let n = 0;
          for (const v of victims) n += Number(await c.call('CLIENT', 'KILL', 'ID', v.id));
          await c.call('CLIENT', 'UNPAUSE'); // the write hold of awaitWriteInFlight, if any
          return n;
        },
        clientName,
      );
    },
    async awaitWriteInFlight(ep, clientName, timeoutMs, onWatching) {
      const deadline = Date.now() + timeoutMs;
      await admin(
        ep,
        `wait for a write of ${clientName}`,
        async (c) => {
          await c.call('CLIENT', 'PAUSE', String(timeoutMs), 'WRITE');
          try {
            onWatching?.(); // the write hold is set: the caller's write cannot finish before it is seen
            // Not readiness: a tight watch (2 ms) for the moment the client enters MULTI.
            while (Date.now() < deadline) {
              const list = parseClientList(String(await c.call('CLIENT', 'LIST')));
              if (list.some((x) => x.name === clientName && x.flags.includes('x'))) return;
              await new Promise((r) => setTimeout(r, 2));
            }
          } catch (err) {
            await c.call('CLIENT', 'UNPAUSE').catch(() => undefined);
            throw err;
          }
          await c.call('CLIENT', 'UNPAUSE');
          throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: no write of client ${clientName} in flight (inside MULTI) within ${timeoutMs} ms`);
        },
        clientName,
      );
    },
  },
};
