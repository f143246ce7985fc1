/**
 * Chroma on its own, without the adapter (README "HNSW under inner product"): loads
 * golden-data/user-data/ip-nonunit (220 memories, norms 0.2–5) into a collection with
 * `hnsw: { space: 'ip' }` (ef_search 200, as the chroma@1.0 target) and asks for EVERY row
 * (nResults 220) with each of the first 16 query vectors. Prints how many rows each query returns
 * and the rows no query ever returns, with their norms. Run against a server you started, e.g.:
 *   node packages/adapter-chroma/src/driver/chroma-launcher.js \
 *     $(node -p "require.resolve('chromadb-js-bindings-linux-x64-gnu')") /tmp/chroma-probe 127.0.0.1 18411 &
 *   pnpm --filter @memory-matrix/adapter-chroma exec tsx scripts/ip-hnsw-reach.ts 18411
 * Exit 1 when a row is unreachable, 0 otherwise.
 */
import path from 'node:path';
import { ChromaClient } from 'chromadb';
import { loadGoldenDataset } from '@memory-matrix/spec';

async function main(): Promise<void> {
  const port = Number(process.argv[2]);
  if (!Number.isInteger(port) || port <= 0) throw new Error('usage: ip-hnsw-reach.ts <port>');
  const ds = loadGoldenDataset(path.resolve(__dirname, '..', '..', '..', 'golden-data', 'user-data', 'ip-nonunit'));
  const client = new ChromaClient({ host: '127.0.0.1', port });
  const name = `mm_probe_ip_reach_${process.pid}`;
  const col = await client.createCollection({ name, embeddingFunction: null, configuration: { hnsw: { space: 'ip', ef_search: 200 } } });
  try {
    await col.add({ ids: ds.memories.map((r) => r.id), embeddings: ds.memories.map((r) => Array.from(r.embedding)) });
    const seen = new Set<string>();
    for (const q of ds.queries.slice(0, 16)) {
      const res = await col.query({ queryEmbeddings: [Array.from(q.vector)], nResults: ds.memories.length });
      const ids = res.ids[0] ?? [];
      ids.forEach((id) => seen.add(id));
      console.log(`${q.id}: ${ids.length} of ${ds.memories.length} rows`);
    }
    const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    const never = ds.memories.filter((r) => !seen.has(r.id));
    for (const r of never) console.log(`never returned: ${r.id} (norm ${norm(r.embedding).toFixed(3)})`);
    console.log(`${never.length} of ${ds.memories.length} rows never returned`);
    process.exitCode = never.length > 0 ? 1 : 0;
  } finally {
    await client.deleteCollection({ name });
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 2;
});
