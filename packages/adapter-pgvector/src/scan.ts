import { validateScanOptions, type MemoryRecord, type ScanOptions } from '@memory-matrix/spec';
import { ident, isoTimestampSql, literalToVector } from './codec';
import { ADAPTER, type StoreContext } from './context';

/**
 * `MemoryCollection.scan` on one table: keyset pagination on the primary key in byte order,
 *   SELECT … FROM t [WHERE id COLLATE "C" > $after] ORDER BY id COLLATE "C" LIMIT $limit
 * `COLLATE "C"` makes the order UTF-8 byte order (spec `compareIdsBytes`) whatever the database's
 * collation is. Each row is read as `get` reads it: createdAt as the canonical instant,
 * metadata from jsonb, the float4 vector bit-exact through its text literal (codec.ts).
 * Cost: the sort runs over the rows after `after` (the id index has the database collation, so
 * it is used only when that is C); fine for the collections a run or a migration reads.
 * Throws INVALID_INPUT (validateScanOptions), BACKEND_ERROR naming the table.
 */
export async function scanTable(ctx: StoreContext, table: string, opts: ScanOptions): Promise<MemoryRecord[]> {
  const { after, limit } = validateScanOptions(opts, `${ADAPTER}: table ${table}`);
  const rows = await ctx.run('scan', table, async () => {
    const params: unknown[] = [limit];
    let where = '';
    if (after !== undefined) {
      params.push(after);
      where = `WHERE id COLLATE "C" > $2`;
    }
    const sql =
      `SELECT id, namespace, kind, text, ${isoTimestampSql('created_at')} AS created_at, metadata, embedding::text AS embedding ` + `FROM ${ident(table)} ${where} ORDER BY id COLLATE "C" LIMIT $1`;
    return (await ctx.client.query(sql, params)).rows as Array<Record<string, unknown>>;
  });
  return rows.map((row) => rowToRecord(row, table));
}

/**
 * One row of `SELECT id, namespace, kind, text, <iso created_at>, metadata, embedding::text` as a
 * MemoryRecord: metadata parsed when the driver returns jsonb as text (PGlite), the embedding
 * parsed exactly from pgvector's text form (`Float32Array` of the column's dim).
 */
export function rowToRecord(row: Record<string, unknown>, table: string): MemoryRecord {
  const id = row.id as string;
  const metadata = typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata;
  return {
    id,
    namespace: row.namespace as string,
    kind: row.kind as MemoryRecord['kind'],
    text: row.text as string,
    createdAt: row.created_at as string,
    metadata: metadata as MemoryRecord['metadata'],
    embedding: literalToVector(row.embedding as string, `table ${table} id ${id}`),
  };
}
