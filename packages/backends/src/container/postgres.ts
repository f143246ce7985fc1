import { Client } from 'pg';
import { MemoryMatrixError } from '@memory-matrix/spec';

/** How to reach a Postgres server started by the provider (always via the mapped port on localhost). */
export interface PgConnection {
  host: '127.0.0.1';
  /** Mapped host port. */
  port: number;
  user: string;
  database: string;
}

/** What the server reports about itself. */
export interface PgVersions {
  /** `version()`, e.g. `PostgreSQL 17.12 (Debian 17.12-0+deb13u1) on x86_64-pc-linux-gnu, …`. */
  server: string;
  /** `{ postgres: '17.12', pgvector: '0.8.0' }`; pgvector is the extension's default (installable) version, absent when not available. */
  components: Record<string, string>;
}

/** `postgres://user@127.0.0.1:port/database` (trust auth, no password). */
export function pgConnectionString(c: PgConnection): string {
  return `postgres://${encodeURIComponent(c.user)}@${c.host}:${c.port}/${encodeURIComponent(c.database)}`;
}

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

/**
 * Waits until `SELECT 1` succeeds through the mapped port, retrying every 200 ms until
 * `deadline` (epoch ms). Retried because the log line `ready to accept connections` is not
 * proof that a client gets through: Docker's port proxy accepts and then resets connections
 * while the container's network is still being wired, and a server can still answer 57P03
 * ("the database system is starting up"). Throws `TARGET_UNAVAILABLE` naming `where` with the
 * last error as `cause` when the deadline passes.
 */
export async function waitForPgQuery(c: PgConnection, deadline: number, where: string): Promise<number> {
  let attempts = 0;
  let last: unknown;
  while (Date.now() < deadline) {
    attempts++;
    try {
      await withClient(c, deadline - Date.now(), (client) => client.query('SELECT 1'));
      return attempts;
    } catch (err) {
      last = err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new MemoryMatrixError(
    'TARGET_UNAVAILABLE',
    `${where}: no successful SELECT 1 on ${c.host}:${c.port} before the start deadline (${attempts} attempts): ${(last as Error)?.message ?? 'no attempt made'}`,
    { cause: last },
  );
}

/** Reads `version()`, `server_version` and pgvector's available version. Throws `BACKEND_ERROR` naming `where`. */
export async function readPgVersions(c: PgConnection, where: string): Promise<PgVersions> {
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
      return { server: row.full, components };
    });
  } catch (err) {
    throw new MemoryMatrixError('BACKEND_ERROR', `${where}: reading server versions failed: ${(err as Error).message}`, { cause: err });
  }
}
