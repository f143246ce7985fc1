import { Client, Pool } from 'pg';
import { MemoryMatrixError, type ConnectOptions, type MemoryStore } from '@memory-matrix/spec';
import { createPgvectorStore, fromPgPool } from '@memory-matrix/adapter-pgvector';
import { waitForPgQuery, type PgConnection } from '../container/postgres';
import { execBinary } from './docker-ops';
import type { FaultEndpoint, FaultKind } from './kinds';
import { pgPoolOptions } from './pg-connect';

/** Settings every postgres fault instance reports (what decides whether a commit survives kill -9). */
const DURABILITY_SETTINGS = ['fsync', 'synchronous_commit', 'full_page_writes', 'wal_sync_method'];

const conn = (ep: FaultEndpoint): PgConnection => ({ host: ep.host, port: ep.port, user: 'postgres', database: 'postgres' });

/** One admin statement batch on a short-lived client; errors become BACKEND_ERROR naming `ep.where` and `what`. */
async function admin<T>(ep: FaultEndpoint, what: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ ...conn(ep), connectionTimeoutMillis: 5_000, query_timeout: 30_000, application_name: 'memory-matrix-admin' });
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

/** The table the pgvector adapter keeps `collection` in: default prefix `mm_` (adapter-pgvector ddl.ts `namesOf`). */
export function pgTableOf(collection: string): string {
  if (!/^[a-z0-9_]{1,48}$/.test(collection)) throw new MemoryMatrixError('INVALID_INPUT', `collection name must match [a-z0-9_]{1,48}, got ${JSON.stringify(collection)}`);
  return `mm_${collection}`;
}

const quoteLiteral = (v: string): string => `'${v.replace(/'/g, "''")}'`;
const SETTING_NAME = /^[a-z_][a-z0-9_.]*$/;

async function tableExists(c: Client, table: string): Promise<boolean> {
  return (await c.query<{ e: boolean }>('SELECT to_regclass($1) IS NOT NULL AS e', [`public.${table}`])).rows[0]!.e;
}

/**
 * PostgreSQL (+ pgvector) fault kind. Settings are applied with `ALTER SYSTEM` (persisted in
 * `postgresql.auto.conf` on the instance's volume, so they survive kill and restart), then
 * `pg_reload_conf()`, or a restart when one has `context = postmaster`. Sessions are dropped
 * with `pg_terminate_backend` selected by `application_name`; a write is "in flight" when its
 * session is active with a transaction id (`backend_xid`: assigned at its first data change).
 * Dumps: `pg_dump -Fc` of the collection's table (with its index and marker comment) and
 * `pg_restore --single-transaction --exit-on-error` inside the containers (both images carry the
 * client tools); the `vector` extension is created in the target database first.
 */
export const postgresFaultKind: FaultKind = {
  port: 5432,
  dataDir: '/var/lib/postgresql/data',
  readyLog: /ready to accept connections/,
  stopSignal: 'SIGINT',
  shmBytes: 1024 ** 3, // see container/start.ts: parallel HNSW builds need more than 64 MiB
  async waitQuery(ep, deadline) {
    await waitForPgQuery(conn(ep), deadline, ep.where);
  },
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
  settingsInArgs(args) {
    const out: Record<string, string> = {};
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!;
      const kv = a === '-c' ? args[++i] : a.startsWith('-c') ? a.slice(2) : a.startsWith('--') ? a.slice(2) : undefined;
      const m = kv ? /^([^=]+)=(.*)$/.exec(kv) : null;
      if (m) out[m[1]!.replace(/-/g, '_')] = m[2]!;
    }
    return out;
  },
  async connect(ep, opts?: ConnectOptions): Promise<MemoryStore> {
    const pool = new Pool({ ...conn(ep), max: 4, ...pgPoolOptions(opts) });
    pool.on('error', () => undefined); // idle clients of a killed server; queries in flight still reject
    try {
      return await createPgvectorStore(fromPgPool(pool));
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
  },
  async dropConnections(ep, clientName) {
    return admin(ep, `terminate sessions of ${clientName}`, async (c) => {
      const r = await c.query<{ n: number }>('SELECT count(*) FILTER (WHERE pg_terminate_backend(pid))::int AS n FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [clientName]);
      return r.rows[0]!.n;
    });
  },
  async awaitWriteInFlight(ep, clientName, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    await admin(ep, `wait for a write of ${clientName}`, async (c) => {
      const sql = `SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND state = 'active' AND backend_xid IS NOT NULL`;
      while (Date.now() < deadline) {
        if ((await c.query(sql, [clientName])).rows.length) return;
        await new Promise((r) => setTimeout(r, 5));
      }
      throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: no write of client ${clientName} in flight within ${timeoutMs} ms`);
    });
  },
  /** Debian's postgres uid differs between suites (trixie vs sid images): hand the directory to this image's postgres user. */
  adoptStorageCmd(dataDir) {
    return { user: 'root', entrypoint: 'chown', args: ['-R', 'postgres:postgres', dataDir] };
  },
  async exportCollection(ep, collection) {
    const table = pgTableOf(collection);
    const exists = await admin(ep, 'look up the table', (c) => tableExists(c, table));
    if (!exists) throw new MemoryMatrixError('COLLECTION_MISSING', `${ep.where}: collection ${collection}: table ${table} does not exist`);
    const r = await execBinary(ep.containerId, ['pg_dump', '-U', 'postgres', '-d', 'postgres', '--format=custom', '--no-owner', `--table=public.${table}`]);
    if (r.code !== 0 || r.stdout.length === 0) throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: pg_dump of table ${table} failed (exit ${r.code}): ${r.stderr.trim() || 'no output'}`);
    return r.stdout;
  },
  async importCollection(ep, collection, dump) {
    const table = pgTableOf(collection);
    await admin(ep, 'prepare the restore', async (c) => {
      if (await tableExists(c, table)) throw new MemoryMatrixError('COLLECTION_EXISTS', `${ep.where}: collection ${collection}: table ${table} exists; a restore never overwrites`);
      await c.query('CREATE EXTENSION IF NOT EXISTS vector');
    });
    const r = await execBinary(ep.containerId, ['pg_restore', '-U', 'postgres', '-d', 'postgres', '--no-owner', '--exit-on-error', '--single-transaction'], { stdin: dump, timeoutMs: 300_000 });
    if (r.code !== 0) throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: pg_restore of collection ${collection} (${dump.byteLength} bytes) failed (exit ${r.code}): ${r.stderr.trim().split('\n').slice(0, 4).join(' | ') || 'no output'}`);
    const ok = await admin(ep, 'verify the restore', (c) => tableExists(c, table));
    if (!ok) throw new MemoryMatrixError('BACKEND_ERROR', `${ep.where}: pg_restore reported success but table ${table} of collection ${collection} does not exist (the dump held no such table)`);
  },
};
