import { Client, Pool } from 'pg';
import { MemoryMatrixError, scaledLimitMs, type ConnectOptions, type ContainerEndpoint, type ContainerKind, type ExecResult, type MemoryStore, type ReportedVersions } from '@memory-matrix/spec';
import { createPgvectorStore } from '../pgvector-adapter';
import { fromPgPool } from '../sql';
import { pgPoolOptions } from './connect';

/** How to reach a Postgres server the run started (always via the mapped port on loopback; trust auth). */
export interface PgConnection {
  host: '127.0.0.1';
  /** Mapped host port. */
  port: number;
  user: string;
  database: string;
}

/** `postgres://user@127.0.0.1:port/database` (trust auth, no password). */
export function pgConnectionString(c: PgConnection): string {
  return `postgres://${encodeURIComponent(c.user)}@${c.host}:${c.port}/${encodeURIComponent(c.database)}`;
}

const conn = (ep: { host: '127.0.0.1'; port: number }): PgConnection => ({ host: ep.host, port: ep.port, user: 'postgres', database: 'postgres' });

async function withClient<T>(c: PgConnection, timeoutMs: number, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ ...c, connectionTimeoutMillis: Math.max(500, Math.min(timeoutMs, 5_000)) });
  client.on('error', () => undefined); // a server going away after the query is not this call's concern
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Reads `version()`, `server_version` and pgvector's available version. Throws `BACKEND_ERROR` naming `where`. */
export async function readPgVersions(c: PgConnection, where: string): Promise<ReportedVersions> {
  try {
    return await withClient(c, 5_000, async (client) => {
      const r = await client.query<{ full: string; short: string; vector: string | null }>(
        `SELECT version() AS full, current_setting('server_version') AS short,
                (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS vector`,
      );
      const row = r.rows[0];
      if (!row) throw new Error('version query returned no row');
      const components: Record<string, string> = { postgres: row.short.split(' ')[0] ?? row.short };
      if (row.vector) components.pgvector = row.vector;
      return { serverVersion: row.full, components };
    });
  } catch (err) {
    throw new MemoryMatrixError('BACKEND_ERROR', `${where}: reading server versions failed: ${(err as Error).message}`, { cause: err });
  }
}

/** A new pgvector store over a new pool (max 4) on the endpoint; `opts` → `pgPoolOptions`. The store's `close()` ends the pool. */
export async function connectPgvector(ep: { host: '127.0.0.1'; port: number }, opts?: ConnectOptions): Promise<MemoryStore> {
  const pool = new Pool({ ...conn(ep), max: 4, ...pgPoolOptions(opts) });
  // An idle pooled client whose server went away (container stopped, killed) emits 'error' on
  // the pool; unhandled, that would crash the process. Queries in flight still reject.
  pool.on('error', () => undefined);
  try {
    return await createPgvectorStore(fromPgPool(pool));
  } catch (err) {
    await pool.end().catch(() => undefined);
    throw err;
  }
}

/** Settings every postgres fault instance reports (what decides whether a commit survives kill -9). */
const DURABILITY_SETTINGS = ['fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method'];

/** How long `awaitWriteInFlight` keeps the connection that terminated the write for the `dropConnections` that follows, in ms. */
const WATCHER_KEEP_MS = 2_000;
/** What `awaitWriteInFlight` leaves for the `dropConnections` that follows: its connection and the sessions it already terminated. */
interface Watcher {
  client: Client;
  terminated: number;
}
/** Per server (host:port): the admin connection that last terminated a write in flight, ended after WATCHER_KEEP_MS unless taken. */
const watchers = new Map<string, Watcher & { timer: NodeJS.Timeout }>();

function keepWatcher(ep: { host: string; port: number }, w: Watcher): void {
  const key = `${ep.host}:${ep.port}`;
  takeWatcher(ep)
    ?.client.end()
    .catch(() => undefined);
  const timer = setTimeout(() => {
    if (watchers.get(key)?.client === w.client) watchers.delete(key);
    w.client.end().catch(() => undefined);
  }, WATCHER_KEEP_MS);
  timer.unref();
  watchers.set(key, { ...w, timer });
}

function takeWatcher(ep: { host: string; port: number }): Watcher | undefined {
  const key = `${ep.host}:${ep.port}`;
  const w = watchers.get(key);
  if (!w) return undefined;
  watchers.delete(key);
  clearTimeout(w.timer);
  return w;
}

/**
 * A function of the watching session (pg_temp: it goes with that session) that watches for a write
 * of application `app` server-side, every 1 ms (`pg_stat_clear_snapshot` makes each look see the
 * sessions as they are now, not the transaction's first snapshot), and terminates the writing
 * session(s) the moment one is seen: active with a transaction id. Returns how many it terminated,
 * 0 after `wait_ms`. Server-side because a client-side poll needs a round trip per look and another
 * to terminate: on pgvector@pg18 with the host's CPUs busy, a 3,000-row COPY (tens of ms between
 * its first row and its commit) fell between two looks in 1 of 5 runs and the write committed unseen.
 */
const WATCH_AND_TERMINATE_FN = `CREATE FUNCTION pg_temp.mm_terminate_write(app text, wait_ms int) RETURNS int LANGUAGE plpgsql AS $f$
DECLARE
  deadline timestamptz := clock_timestamp() + make_interval(secs => wait_ms / 1000.0);
  n int;
BEGIN
  LOOP
    PERFORM pg_stat_clear_snapshot();
    SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) INTO n FROM pg_stat_activity
      WHERE application_name = app AND state = 'active' AND backend_xid IS NOT NULL AND pid <> pg_backend_pid();
    IF n > 0 OR clock_timestamp() >= deadline THEN RETURN n; END IF;
    PERFORM pg_sleep(0.001);
  END LOOP;
END $f$`;

const ended = (r: ExecResult): string => (r.killedAfter ? `killed after ${r.killedAfter}` : `exit ${r.code}`); // how a docker exec ended
/** One admin statement batch on a short-lived client (limits × the host factor: at load ≈ 70 a fixed 5 s connect failed C15); errors become BACKEND_ERROR naming `ep.where` and `what`. */
async function admin<T>(ep: ContainerEndpoint, what: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ ...conn(ep), connectionTimeoutMillis: scaledLimitMs(5_000), query_timeout: scaledLimitMs(30_000), application_name: 'memory-matrix-admin' });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return await fn(c);
  } catch (err) {
    if ((err as { name?: string }).name === 'MemoryMatrixError') throw err;
    throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: ${what}: ${(err as Error).message}`, { cause: err });
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** The table the pgvector adapter keeps `collection` in: default prefix `mm_` (ddl.ts `namesOf`). */
export function pgTableOf(collection: string): string {
  if (!/^[a-z0-9_]{1,48}$/.test(collection)) throw new MemoryMatrixError('INVALID_INPUT', `collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(collection)}`);
  return `mm_${collection}`;
}

const quoteLiteral = (v: string): string => `'${v.replace(/'/g, "''")}'`;
const SETTING_NAME = /^[a-z_][a-z0-9_.]*$/;

async function tableExists(c: Client, table: string): Promise<boolean> {
  return (await c.query<{ e: boolean }>('SELECT to_regclass($1) IS NOT NULL AS e', [`public.${table}`])).rows[0]!.e;
}

/** `-c k=v` / `-ck=v` / `--k=v` arguments of a postgres command line → settings (`-` in names → `_`). */
export function pgSettingsInArgs(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const kv = a === '-c' ? args[++i] : a.startsWith('-c') ? a.slice(2) : a.startsWith('--') ? a.slice(2) : undefined;
    const m = kv ? /^([^=]+)=(.*)$/.exec(kv) : null;
    if (m) out[m[1]!.replace(/-/g, '_')] = m[2]!;
  }
  return out;
}

/**
 * The `postgres` container kind: PostgreSQL + pgvector images (offline Debian recipes or
 * `pgvector/pgvector`), user `postgres`, database `postgres`, trust auth, port 5432.
 * - Ready: log line `ready to accept connections` AND `SELECT 1` through the mapped port (the log
 *   line is not proof a client gets through: Docker's port proxy accepts and resets connections
 *   while the network is wired, and a server can still answer 57P03 "starting up").
 * - Stop: SIGINT, Postgres' fast shutdown (SIGTERM would wait for clients).
 * - /dev/shm 1 GiB: Docker's default is 64 MiB; Postgres' dynamic shared memory lives there, and
 *   pgvector's parallel HNSW build sizes it from maintenance_work_mem (64 MB by default), which
 *   fails with "could not resize shared memory segment" (pgvector/pgvector#453, README "Docker").
 *   tmpfs only uses what is written, so the cap costs nothing up front.
 * - Faults: settings are applied with `ALTER SYSTEM` (persisted in `postgresql.auto.conf` on the
 *   instance's volume, so they survive kill and restart), then `pg_reload_conf()`, or a restart
 *   when one has `context = postmaster`. Sessions are dropped with `pg_terminate_backend`
 *   selected by `application_name`; a write is "in flight" when its session is active with a
 *   transaction id (`backend_xid`: assigned at its first data change). Dumps: `pg_dump -Fc` of
 *   the collection's table (with its index and marker comment) and `pg_restore
 *   --single-transaction --exit-on-error` inside the containers (both images carry the client
 *   tools); the `vector` extension is created in the target database first.
 */
export const postgresContainerKind: ContainerKind = {
  kind: 'postgres',
  port: 5432,
  dataDir: '/var/lib/postgresql/data',
  readyLog: /ready to accept connections/,
  stopSignal: 'SIGINT',
  shmBytes: 1024 ** 3,
  defaultStartTimeoutMs: 60_000,
  async probe(ep, attemptMs) {
    await withClient(conn(ep), attemptMs, (client) => client.query('SELECT 1'));
  },
  versions: (ep) => readPgVersions(conn(ep), ep.where),
  connect: (ep, opts) => connectPgvector(ep, opts),
  connectionString: (ep) => pgConnectionString(conn(ep)),
  faults: {
    async applySettings(ep, settings) {
      const names = Object.keys(settings);
      for (const n of names) if (!SETTING_NAME.test(n)) throw new MemoryMatrixError('INVALID_INPUT', `${ep.where}: setting name ${JSON.stringify(n)} is not a PostgreSQL parameter name`);
      return admin(ep, 'ALTER SYSTEM', async (c) => {
        for (const [k, v] of Object.entries(settings)) await c.query(`ALTER SYSTEM SET ${k} = ${quoteLiteral(v)}`);
        const ctx = await c.query<{ name: string; context: string }>('SELECT name, context FROM pg_settings WHERE name = ANY($1)', [names]);
        if (ctx.rows.length !== names.length) {
          const known = new Set(ctx.rows.map((r) => r.name));
          throw new MemoryMatrixError('INVALID_INPUT', `${ep.where}: unknown PostgreSQL setting(s): ${names.filter((n) => !known.has(n)).join(', ')}`);
        }
        if (ctx.rows.some((r) => r.context === 'postmaster')) return 'restart' as const;
        await c.query('SELECT pg_reload_conf()');
        return 'reloaded' as const;
      });
    },
    async effectiveSettings(ep, names) {
      const all = [...new Set([...DURABILITY_SETTINGS, ...names])];
      return admin(ep, 'read settings', async (c) => {
        const r = await c.query<{ name: string; setting: string }>('SELECT name, setting FROM pg_settings WHERE name = ANY($1) ORDER BY name', [all]);
        return Object.fromEntries(r.rows.map((x) => [x.name, x.setting]));
      });
    },
    settingsInArgs: pgSettingsInArgs,
    async dropConnections(ep, clientName) {
      const terminate = async (c: Client): Promise<number> => {
        const r = await c.query<{ n: number }>('SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [
          clientName,
        ]);
        return r.rows[0]!.n;
      };
      const warm = takeWatcher(ep);
      if (!warm) return admin(ep, `terminate sessions of ${clientName}`, terminate);
      try {
        return warm.terminated + (await terminate(warm.client));
      } catch (err) {
        throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: terminate sessions of ${clientName}: ${(err as Error).message}`, { cause: err });
      } finally {
        await warm.client.end().catch(() => undefined);
      }
    },
    /**
     * Returns once a session of `clientName` has run a statement holding a transaction id (a write)
     * — and, for PostgreSQL, has been terminated on the spot by the watch (WATCH_AND_TERMINATE_FN):
     * any round trip between seeing the write and terminating it was long enough for a binary COPY
     * of 3,000 rows to commit in between (measured on pgvector@pg17: C23 "resolved without an error
     * after 994 ms"). The `dropConnections` that follows (within WATCHER_KEEP_MS) counts those
     * sessions and terminates the client's others. `onWatching` is called once the function is in
     * place, just before the watch starts.
     */
    async awaitWriteInFlight(ep, clientName, timeoutMs, onWatching) {
      const c = new Client({ ...conn(ep), connectionTimeoutMillis: scaledLimitMs(5_000), query_timeout: timeoutMs + scaledLimitMs(30_000), application_name: 'memory-matrix-admin' });
      c.on('error', () => undefined);
      let keep = false;
      try {
        await c.connect();
        await c.query(WATCH_AND_TERMINATE_FN);
        const watch = c.query<{ n: number }>('SELECT pg_temp.mm_terminate_write($1, $2) AS n', [clientName, timeoutMs]);
        onWatching?.(); // the caller's write starts once the watch has been sent (it begins before the write reaches the server)
        const n = (await watch).rows[0]!.n;
        if (n > 0) {
          keepWatcher(ep, { client: c, terminated: n });
          keep = true;
          return;
        }
      } catch (err) {
        throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: wait for a write of ${clientName}: ${(err as Error).message}`, { cause: err });
      } finally {
        if (!keep) await c.end().catch(() => undefined);
      }
      throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: no write of client ${clientName} in flight within ${timeoutMs} ms`);
    },
    /** Debian's postgres uid differs between suites (trixie vs sid images): hand the directory to this image's postgres user. */
    adoptStorageCmd(dataDir) {
      return { user: 'root', entrypoint: 'chown', args: ['-R', 'postgres:postgres', dataDir] };
    },
    async exportCollection(ep, collection) {
      const table = pgTableOf(collection);
      const exists = await admin(ep, 'look up the table', (c) => tableExists(c, table));
      if (!exists) throw new MemoryMatrixError('COLLECTION_MISSING', `${ep.where}: collection ${collection}: table ${table} does not exist`);
      const r = await ep.exec(['pg_dump', '-U', 'postgres', '-d', 'postgres', '--format=custom', '--no-owner', `--table=public.${table}`]);
      if (r.code !== 0 || r.stdout.length === 0) throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: pg_dump of table ${table} failed (${ended(r)}): ${r.stderr.trim() || 'no output'}`);
      return r.stdout;
    },
    async importCollection(ep, collection, dump) {
      const table = pgTableOf(collection);
      await admin(ep, 'prepare the restore', async (c) => {
        if (await tableExists(c, table)) throw new MemoryMatrixError('COLLECTION_EXISTS', `${ep.where}: collection ${collection}: table ${table} exists; a restore never overwrites`);
        await c.query('CREATE EXTENSION IF NOT EXISTS vector');
      });
      const r = await ep.exec(['pg_restore', '-U', 'postgres', '-d', 'postgres', '--no-owner', '--exit-on-error', '--single-transaction'], { stdin: dump, timeoutMs: 300_000 });
      if (r.code !== 0)
        throw new MemoryMatrixError(
          'BACKEND_ERROR',
          `${ep.where}: pg_restore of collection ${collection} (${dump.byteLength} bytes) failed (${ended(r)}): ${r.stderr.trim().split('\n').slice(0, 4).join(' | ') || 'no output'}`,
        );
      const ok = await admin(ep, 'verify the restore', (c) => tableExists(c, table));
      if (!ok) throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: pg_restore reported success but table ${table} of collection ${collection} does not exist (the dump held no such table)`);
    },
  },
};
