/**
 * A get during concurrent writes on Chroma itself, without the adapter (README "Reads during
 * concurrent writes"): per round, one collection (cosine), 4 chromadb clients that each, 12 times,
 * get 10 ids with their embeddings, delete them and add them again with another golden embedding
 * (what the adapter's upsert sends); every other batch is ids all writers share. Prints each round
 * where a get failed, and the count of such rounds. The collections are deleted at the end.
 * Run against a server you started, e.g. the chroma@1.4 image:
 *   docker run -d --rm -p 127.0.0.1:18400:8000 memory-matrix/chroma:1.4.4-<hash>
 *   pnpm --filter @memory-matrix/adapter-chroma exec tsx scripts/concurrent-get.ts 18400 20
 * Arguments: port (on 127.0.0.1), rounds (default 20). Exits 2 on an error that is not a failed get.
 */
import path from 'node:path';
import { ChromaClient } from 'chromadb';
import { loadGoldenDataset } from '@memory-matrix/spec';

const WRITERS = 4;
const BATCHES = 12;
const BATCH = 10;

async function round(port: number, r: number, vectors: number[][]): Promise<string[]> {
  const client = () => new ChromaClient({ host: '127.0.0.1', port });
  const name = `mm_probe_concurrent_get_${process.pid}_${r}`;
  const admin = client();
  await admin.createCollection({ name, embeddingFunction: null, configuration: { hnsw: { space: 'cosine' } } });
  try {
    const writers = await Promise.all(Array.from({ length: WRITERS }, () => client().getCollection({ name })));
    const failed: string[] = [];
    let v = 0;
    await Promise.all(
      writers.map(async (col, w) => {
        for (let b = 0; b < BATCHES; b++) {
          const ids = Array.from({ length: BATCH }, (_, j) => (b % 2 ? `shared-${(j + w * 3) % 24}` : `w${w}-${b}-${j}`));
          try {
            await col.get({ ids, include: ['embeddings', 'documents', 'metadatas'] as never });
          } catch (err) {
            failed.push(`writer ${w} batch ${b}: get: ${(err as Error).message}`);
          }
          await col.delete({ ids });
          await col.add({ ids, embeddings: ids.map(() => vectors[v++ % vectors.length]!), documents: ids.map((id) => `${id} by writer ${w}`) });
        }
      }),
    );
    return failed;
  } finally {
    await admin.deleteCollection({ name });
  }
}

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  const rounds = Number(process.argv[3] ?? 20);
  if (!Number.isInteger(port) || port <= 0 || !Number.isInteger(rounds) || rounds <= 0) throw new Error('usage: concurrent-get.ts <port> [rounds]');
  const ds = loadGoldenDataset(path.resolve(__dirname, '..', '..', '..', 'golden-data', 'agent-memories'));
  const vectors = ds.memories.map((m) => Array.from(m.embedding));
  let bad = 0;
  for (let r = 0; r < rounds; r++) {
    const failed = await round(port, r, vectors);
    if (failed.length > 0) {
      bad++;
      console.log(`round ${r + 1}: ${failed.length} get(s) failed; first: ${failed[0]}`);
    }
  }
  console.log(`${bad} of ${rounds} rounds had a failed get`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(2);
});
