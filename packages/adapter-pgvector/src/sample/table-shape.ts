/**
 * The shape of a user's table for layout detection (`SampleSource.describeTable`, contract in
 * packages/spec/src/sample-layout.ts): its columns from `information_schema.columns` (type =
 * `data_type`, or `udt_name` for an extension type such as pgvector's `vector` and for arrays),
 * and its single-column foreign keys with the referenced table's columns (from `pg_constraint`),
 * which tell LangChain's collection tables apart. Read-only; one short connection.
 */
import { isMemoryMatrixError, MemoryMatrixError, type SampleTableShape } from '@memory-matrix/spec';
import { connectSample, tableOid } from './connect';

/** Read the shape of `table`. Throws USAGE (no such table, bad name), TARGET_UNAVAILABLE (no connection), BACKEND_ERROR (a query failed). */
export async function describePgTable(url: string, label: string, table: string): Promise<SampleTableShape> {
  const client = await connectSample(url, label, table);
  try {
    const oid = await tableOid(client, label, table);
    const columns = (
      await client.query<{ name: string; type: string }>(
        `SELECT c.column_name AS name, CASE WHEN c.data_type IN ('USER-DEFINED', 'ARRAY') THEN c.udt_name ELSE c.data_type END AS type
           FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
           JOIN information_schema.columns c ON c.table_schema = n.nspname AND c.table_name = t.relname
          WHERE t.oid = $1::oid ORDER BY c.ordinal_position`,
        [oid],
      )
    ).rows;
    const references = (
      await client.query<{ column: string; table: string; columns: string[] }>(
        `SELECT a.attname::text AS column, format('%s', k.confrelid::regclass) AS table,
                ARRAY(SELECT r.attname::text FROM pg_attribute r WHERE r.attrelid = k.confrelid AND r.attnum > 0 AND NOT r.attisdropped ORDER BY r.attnum) AS columns
           FROM pg_constraint k JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = k.conkey[1]
          WHERE k.conrelid = $1::oid AND k.contype = 'f' AND cardinality(k.conkey) = 1
          ORDER BY k.conname`,
        [oid],
      )
    ).rows;
    return { table, columns, references };
  } catch (e) {
    if (isMemoryMatrixError(e)) throw e;
    throw new MemoryMatrixError('BACKEND_ERROR', `${label}: reading the columns of ${table}: ${(e as Error).message}`, { cause: e });
  } finally {
    await client.end().catch(() => undefined);
  }
}
