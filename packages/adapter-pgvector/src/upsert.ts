import { MemoryMatrixError, type CollectionSpec, type MemoryRecord } from '@memory-matrix/spec';
import { ident, vectorToLiteral } from './codec';
import type { StoreContext } from './context';
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

interface Chunk {
  columns: string[][];
  bytes: number;
}

/**
 * Validate all `records`, keep the last occurrence of each id (one INSERT … ON CONFLICT cannot
 * touch a row twice, and "newest content wins" within a call too), sort by id, split into chunks of at most
 * MAX_BATCH rows / MAX_CHUNK_BYTES, and write them all in ONE transaction: all or nothing.
 * Round trips: BEGIN + one INSERT per chunk + COMMIT (5,000 × 384 → 5 INSERTs).
 */
export async function upsertRecords(ctx: StoreContext, table: string, spec: CollectionSpec, records: MemoryRecord[]): Promise<void> {
  if (!Array.isArray(records)) throw new MemoryMatrixError('INVALID_INPUT', `pgvector: table ${table}: upsert expects an array of records`);
  records.forEach((r, i) => validateRecord(r, i, spec.dim, spec.metric, table));
  if (records.length === 0) return;
  const last = new Map<string, number>();
  records.forEach((r, i) => last.set(r.id, i));
  // Rows go in id order, so concurrent upserts over a pool lock rows in the same order (fewer deadlocks).
  const rows = [...last.values()].map((i) => records[i]!).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
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
  const sql = upsertSql(table);
  await ctx.run(`upsert of ${last.size} records in ${chunks.length} chunk(s)`, table, () =>
    ctx.client.transaction(async (tx) => {
      for (const chunk of chunks) await tx.query(sql, chunk.columns);
    }),
  );
}
