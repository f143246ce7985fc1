import { randomBytes } from 'node:crypto';
import { Client, Pool, type PoolConfig } from 'pg';
import { MemoryMatrixError, type MemoryStore, type UrlFacet } from '@memory-matrix/spec';
import { createPgvectorStore } from '../pgvector-adapter';
import { fromPgPool } from '../sql';

/**
 * The pgvector driver's url facet: an existing PostgreSQL + pgvector the user names
 * (`pgvector@url=postgres://user:pw@host:port/db`). Only tables with this run's random prefix
 * (`mm_<6 hex>_`) are created, and the cell drops them; nothing else in the database is read or
 * written, and the extension is never created there. Preflight (one query): the server answers,
 * the `vector` extension exists, and the user may CREATE in the current schema; otherwise
 * TARGET_UNAVAILABLE naming the target and what is missing, before anything is written.
 */
export const pgvectorUrl: UrlFacet = {
  protocols: ['postgres:', 'postgresql:'],
  example: 'postgres://user@host:port/database',
  async open(url, name) {
    const prefix = `mm_${randomBytes(3).toString('hex')}_`;
    // The sessions of this run are named after its table prefix, so `stop` can end them.
    const config: PoolConfig = { connectionString: url, max: 4, connectionTimeoutMillis: 10_000, application_name: `memory-matrix ${prefix}` };
    const probe = new Pool({ ...config, max: 1 });
    let row: { version: string; ext: string | null; can_create: boolean; schema: string; usr: string };
    try {
      row = (
        await probe.query(
          `SELECT version() AS version, current_user AS usr, current_schema() AS schema,
                  (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS ext,
                  has_schema_privilege(current_schema(), 'CREATE') AS can_create`,
        )
      ).rows[0];
    } catch (e) {
      throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${name}: cannot connect: ${(e as Error).message}`, { cause: e });
    } finally {
      await probe.end().catch(() => undefined);
    }
    if (!row.ext) {
      throw new MemoryMatrixError(
        'TARGET_UNAVAILABLE',
        `${name}: the vector extension is not installed in this database; memory-matrix does not create it in a database it does not own (run CREATE EXTENSION vector as its owner)`,
      );
    }
    if (!row.can_create) {
      throw new MemoryMatrixError(
        'TARGET_UNAVAILABLE',
        `${name}: user ${row.usr} may not CREATE tables in schema ${row.schema}; the run needs that to create its own ${prefix}* tables (nothing was written)`,
      );
    }
    let stopped = false;
    return {
      versions: { serverVersion: row.version, components: { postgres: /PostgreSQL (\S+)/.exec(row.version)?.[1] ?? '?', pgvector: row.ext } },
      async connect(): Promise<MemoryStore> {
        // After stop (Ctrl-C) checks still winding down must not create tables again.
        if (stopped) throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${name}: the run is stopping; no new connection`);
        return createPgvectorStore(fromPgPool(new Pool(config)), { tablePrefix: prefix, createExtension: false });
      },
      /**
       * Drop every table of this run's prefix (a cell drops its own on success and failure; after
       * Ctrl-C, or a cell that could not, they would stay in the user's database), after ending
       * this run's own sessions so no lock of an interrupted statement holds the drop.
       */
      async stop() {
        stopped = true;
        const leftover = await dropRunTables(config, prefix).catch((e: Error) => `could not drop its ${prefix}* tables: ${e.message}`);
        if (typeof leftover === 'string') throw new MemoryMatrixError('BACKEND_ERROR', `${name}: ${leftover}`);
      },
    };
  },
};

/**
 * End this run's other sessions (application_name `memory-matrix <prefix>`; a role may end its
 * own sessions) and drop every table named `<prefix>*` in the current schema. Returns the
 * number of tables dropped. Throws what pg throws (the caller names the target).
 */
async function dropRunTables(config: PoolConfig, prefix: string): Promise<number> {
  const client = new Client({ ...config, application_name: `memory-matrix ${prefix} cleanup` });
  await client.connect();
  try {
    await client.query(`SET lock_timeout = '10s'`);
    await client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()', [`memory-matrix ${prefix}`]);
    const like = `${prefix.replace(/_/g, '\\_')}%`;
    const { rows } = await client.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = current_schema() AND tablename LIKE $1`, [like]);
    for (const { t } of rows) await client.query(`DROP TABLE IF EXISTS "${t.replace(/"/g, '""')}" CASCADE`);
    return rows.length;
  } finally {
    await client.end().catch(() => undefined);
  }
}
