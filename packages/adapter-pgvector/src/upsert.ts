import { MemoryMatrixError, type CollectionSpec, type MemoryRecord } from '@memory-matrix/spec';
import { ident, vectorToLiteral } from './codec';
import { sqlState, type StoreContext } from './context';
import { COPY_COLUMNS, encodeCopyBinary } from './copy-binary';
import type { SqlQueryable } from './sql';
import { validateRecord } from './validate';

/**
 * Most records one INSERT carries. The statement has 7 bind parameters whatever the batch size
 * (one array per column, unnested server-side), so PostgreSQL's 65,535-parameter limit never
 * applies; the cap keeps one statement's payload moderate. Declared as `capabilities.maxBatch`.
 */
export const MAX_BATCH = 1000;

/** Payload budget of one INSERT (encoded text of all its rows), bytes; large dims get smaller chunks. */
export const MAX_CHUNK_BYTES = 8 * 1024 * 1024;

/**
 * The bulk write: `INSERT … SELECT FROM unnest($1::text[], … $7::text[])` with vectors as text
 * literals cast to `vector`, `ON CONFLICT (id) DO UPDATE` every column (C21: newest wins).
 */
export function upsertSql(table: string): string {
  return `INSERT INTO ${ident(table)} (id, namespace, kind, text, created_at, metadata, embedding)
SELECT u.id, u.ns, u.kind, u.txt, u.ts::timestamptz, u.md::jsonb, u.emb::vector
FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u(id, ns, kind, txt, ts, md, emb)
ON CONFLICT (id) DO UPDATE SET namespace = EXCLUDED.namespace, kind = EXCLUDED.kind, text = EXCLUDED.text,
  created_at = EXCLUDED.created_at, metadata = EXCLUDED.metadata, embedding = EXCLUDED.embedding`;
}

/**
 * Fewest rows (after the last-wins dedupe) an upsert writes with binary COPY; fewer go in one
 * INSERT, whose single statement costs less than the COPY path's four (existence probe,
 * SAVEPOINT, COPY, RELEASE). Measured per upsert into a fresh table, PGlite 0.5 (CPU ms, median
 * of 5, load average ≈ 14): see packages/adapter-pgvector/README.md "Bulk path".
 */
export const COPY_MIN_ROWS = 64;

/** SQLSTATE unique_violation: a row of the COPY already exists (written by another client since the probe). */
const UNIQUE_VIOLATION = '23505';

interface Chunk {
  columns: string[][];
  bytes: number;
}

/**
 * Validate all `records`, keep the last occurrence of each id (one INSERT … ON CONFLICT cannot
 * touch a row twice, and "newest content wins" within a call too), sort by id, and write them in
 * ONE transaction: all or nothing.
 * - Bulk path (≥ COPY_MIN_ROWS rows, a client with `copyIn`): when none of the ids exists yet (one
 *   index probe), a binary COPY of every row (copy-binary.ts: no vector text for the server to
 *   parse) inside a SAVEPOINT. Should another client insert one of the ids between the probe and
 *   the COPY, the COPY fails with unique_violation, is rolled back to the savepoint, and the rows
 *   go through the INSERT path below instead: replace semantics whatever happens concurrently.
 *   Round trips: BEGIN, probe, SAVEPOINT, COPY, RELEASE, COMMIT.
 * - INSERT path (fewer rows, ids that exist, or no `copyIn`): `upsertSql` in chunks of at most
 *   MAX_BATCH rows / MAX_CHUNK_BYTES. Round trips: BEGIN + one INSERT per chunk + COMMIT.
 * Rows go in id order either way, so concurrent upserts over a pool lock rows in the same order
 * (fewer deadlocks).
 */
export async function upsertRecords(ctx: StoreContext, table: string, spec: CollectionSpec, records: MemoryRecord[]): Promise<void> {
  if (!Array.isArray(records)) throw new MemoryMatrixError('INVALID_INPUT', `pgvector: table ${table}: upsert expects an array of records`);
  records.forEach((r, i) => validateRecord(r, i, spec.dim, spec.metric, table));
  if (records.length === 0) return;
  const last = new Map<string, number>();
  records.forEach((r, i) => last.set(r.id, i));
  const rows = [...last.values()].map((i) => records[i]!).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const payload = rows.length >= COPY_MIN_ROWS ? encodeCopyBinary(rows) : undefined;
  await ctx.run(`upsert of ${rows.length} records`, table, () =>
    ctx.client.transaction(async (tx) => {
      if (payload && tx.copyIn && (await copyIntoFresh(tx, table, rows, payload))) return;
      const sql = upsertSql(table);
      for (const chunk of insertChunks(rows)) await tx.query(sql, chunk.columns);
    }),
  );
}

/**
 * The bulk path: true when every row landed by COPY; false (nothing of it kept) when an id
 * already exists — found by the probe, or by the COPY's unique_violation. Other errors are passed on.
 */
async function copyIntoFresh(tx: SqlQueryable, table: string, rows: MemoryRecord[], payload: Buffer): Promise<boolean> {
  const probe = await tx.query(`SELECT EXISTS (SELECT 1 FROM ${ident(table)} WHERE id = ANY($1::text[])) AS e`, [rows.map((r) => r.id)]);
  if (probe.rows[0].e) return false;
  await tx.query('SAVEPOINT mm_upsert_copy');
  try {
    await tx.copyIn!(ident(table), COPY_COLUMNS, payload);
  } catch (err) {
    if (sqlState(err) !== UNIQUE_VIOLATION) throw err;
    await tx.query('ROLLBACK TO SAVEPOINT mm_upsert_copy');
    return false;
  }
  await tx.query('RELEASE SAVEPOINT mm_upsert_copy');
  return true;
}

/** The INSERT path's chunks: columns of at most MAX_BATCH rows and MAX_CHUNK_BYTES of encoded text each. */
function insertChunks(rows: MemoryRecord[]): Chunk[] {
  const chunks: Chunk[] = [];
  let cur: Chunk | undefined;
  rows.forEach((r) => {
    const row = [r.id, r.namespace, r.kind, r.text, r.createdAt, JSON.stringify(r.metadata), vectorToLiteral(r.embedding)];
    const bytes = row.reduce((n, s) => n + s.length, 0);
    if (!cur || cur.columns[0]!.length >= MAX_BATCH || (cur.bytes + bytes > MAX_CHUNK_BYTES && cur.columns[0]!.length > 0)) {
      cur = { columns: row.map(() => []), bytes: 0 };
      chunks.push(cur);
    }
    row.forEach((v, c) => cur!.columns[c]!.push(v));
    cur.bytes += bytes;
  });
  return chunks;
}
