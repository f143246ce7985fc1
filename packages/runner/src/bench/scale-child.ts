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

async function main(): Promise<void> {
  const { url, dataset, n, name } = JSON.parse(process.argv[2] ?? '{}') as { url: string; dataset: string; n: number; name: string };
  const ds = loadGoldenDataset(dataset);
  const pool = new Pool({ connectionString: url, max: 2, application_name: 'memory-matrix bench scale' });
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
