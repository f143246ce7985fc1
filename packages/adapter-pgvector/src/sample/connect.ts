/**
 * What the pgvector sample source's reads share: the connection to a user's server and the lookup
 * of the table `--table` names (snapshot.ts reads the rows, table-shape.ts the layout).
 */
import { Client } from 'pg';
import { MemoryMatrixError } from '@memory-matrix/spec';

/**
 * Connect to `url` (10 s connect time limit). Throws USAGE when `table` is not `[schema.]table`
 * (plain identifiers; checked before connecting), TARGET_UNAVAILABLE naming `label` when the
 * server does not answer. The caller ends the client.
 */
export async function connectSample(url: string, label: string, table: string): Promise<Client> {
  if (!/^[A-Za-z_][A-Za-z0-9_$]*(\.[A-Za-z_][A-Za-z0-9_$]*)?$/.test(table)) throw new MemoryMatrixError('USAGE', `--table "${table}" is not [schema.]table`);
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (e) {
    throw new MemoryMatrixError('TARGET_UNAVAILABLE', `${label}: cannot connect: ${(e as Error).message}`, { cause: e });
  }
  return client;
}

/** The table's oid (text), resolved as PostgreSQL resolves `table` (search_path). Throws USAGE naming it when it does not exist. */
export async function tableOid(client: Client, label: string, table: string): Promise<string> {
  const oid = (await client.query<{ oid: string | null }>('SELECT to_regclass($1)::oid::text AS oid', [table])).rows[0]!.oid;
  if (!oid) throw new MemoryMatrixError('USAGE', `${label}: table "${table}" does not exist (give it with --table)`);
  return oid;
}
