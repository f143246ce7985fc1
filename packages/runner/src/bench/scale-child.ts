/**
 * Entry point of one scale point in its own Node process (so `maxRSS` is that point's own peak):
 * argv[2] is a JSON `{ url, dataset, n, name }` — the postgres URL of the bench's pgvector
 * container, the dataset folder, the point's size and its collection name. Prints progress on
 * stderr and ONE JSON line (a ScalePoint) on stdout; exits 2 with the error on stderr when the
 * point cannot be carried out. Started by scale.ts, not by users.
 */
import { Pool } from 'pg';
import { createPgvectorStore, fromPgPool } from '@memory-matrix/adapter-pgvector';
import { loadGoldenDataset } from '@memory-matrix/spec';
import { runScalePoint } from './scale-point';

/**
 * `maintenance_work_mem` of the bench's own sessions (libpq `options`, so the server's setting is
 * untouched). pgvector's IVFFlat build refuses to start when its k-means sample does not fit:
 * at 1 M × 384 with 1,000 lists it stopped with "memory required is 273 MB, maintenance_work_mem
 * is 64 MB" (SQLSTATE 54000, PostgreSQL's default 64 MB). pgvector's README raises it for index
 * builds (HNSW, "Index Build Time": `SET maintenance_work_mem = '8GB'`); 512 MB covers the curve's largest point
 * with room and stays within the container's 1 GiB /dev/shm (driver/container.ts).
 */
export const BENCH_MAINTENANCE_WORK_MEM = '512MB';

async function main(): Promise<void> {
  const { url, dataset, n, name } = JSON.parse(process.argv[2] ?? '{}') as { url: string; dataset: string; n: number; name: string };
  const ds = loadGoldenDataset(dataset);
  const pool = new Pool({ connectionString: url, max: 2, application_name: 'memory-matrix bench scale', options: `-c maintenance_work_mem=${BENCH_MAINTENANCE_WORK_MEM}` });
  pool.on('error', () => undefined);
  const store = await createPgvectorStore(fromPgPool(pool));
  try {
    const point = await runScalePoint(store, ds, n, name, undefined, (l) => process.stderr.write(l + '\n'));
    process.stdout.write(JSON.stringify(point) + '\n');
  } finally {
    await store.close();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`scale point failed: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(2);
});
