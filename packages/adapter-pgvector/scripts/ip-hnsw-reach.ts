/**
 * pgvector on its own (PGlite 0.5 = PostgreSQL 18 + pgvector 0.8.7, no adapter), README "HNSW under
 * inner product on vectors that are not unit length": loads golden-data/user-data/ip-nonunit (220
 * memories, norms 0.2–5), builds `hnsw (embedding vector_ip_ops)` with m 16, ef_construction 64 (the
 * catalogue's index), and asks the index for EVERY row (LIMIT 220, hnsw.ef_search 1000,
 * hnsw.iterative_scan strict_order) with each of the first 16 query vectors. Prints how many rows
 * each query returns and the rows no query ever returns, with their norms.
 *   cd packages/adapter-pgvector && node --experimental-vm-modules ../../node_modules/tsx/dist/cli.mjs scripts/ip-hnsw-reach.ts
 * Exit 1 when a row is unreachable (the index never returns it), 0 otherwise.
 */
import path from 'node:path';
import { loadGoldenDataset } from '@memory-matrix/spec';

async function main(): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports -- PGlite and its pgvector build load as CommonJS, as in test/helpers/engines.ts */
  const { PGlite } = require('@electric-sql/pglite');
  const { vector } = require('@electric-sql/pglite-pgvector');
  /* eslint-enable @typescript-eslint/no-require-imports */
  const ds = loadGoldenDataset(path.resolve(__dirname, '..', '..', '..', 'golden-data', 'user-data', 'ip-nonunit'));
  const db = await PGlite.create({ extensions: { vector } });
  const lit = (v: Float32Array) => `[${Array.from(v).join(',')}]`;
  await db.exec('CREATE EXTENSION vector; CREATE TABLE m (id text PRIMARY KEY, embedding vector(384))');
  for (const r of ds.memories) await db.query('INSERT INTO m VALUES ($1, $2)', [r.id, lit(r.embedding)]);
  await db.exec('CREATE INDEX ON m USING hnsw (embedding vector_ip_ops) WITH (m = 16, ef_construction = 64)');
  await db.exec('SET hnsw.ef_search = 1000; SET hnsw.iterative_scan = strict_order; SET enable_seqscan = off');
  const plan = await db.query(`EXPLAIN SELECT id FROM m ORDER BY embedding <#> '${lit(ds.queries[0]!.vector)}' LIMIT 220`);
  console.log(`plan: ${String(Object.values(plan.rows[1] as Record<string, string>)[0]).trim()}`);
  const seen = new Set<string>();
  for (const q of ds.queries.slice(0, 16)) {
    const res = await db.query(`SELECT id FROM m ORDER BY embedding <#> $1 LIMIT 220`, [lit(q.vector)]);
    res.rows.forEach((r: { id: string }) => seen.add(r.id));
    console.log(`${q.id}: ${res.rows.length} of ${ds.memories.length} rows`);
  }
  const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
  const never = ds.memories.filter((r) => !seen.has(r.id));
  for (const r of never) console.log(`never returned: ${r.id} (norm ${norm(r.embedding).toFixed(3)})`);
  console.log(`${never.length} of ${ds.memories.length} rows never returned by the index`);
  await db.close();
  process.exitCode = never.length > 0 ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 2;
});
