import { ChromaClient } from 'chromadb';
import { createConfiguration, encodeMetadata } from '@memory-matrix/adapter-chroma';
import type { CollectionSpec, GoldenDataset, MemoryStore } from '@memory-matrix/spec';
import { adapterContender, interleavedMedians, ratioRow, type RatioRow } from './measure';

/**
 * Chroma load ratio on one server: the golden memories loaded by the adapter (one `upsert` of
 * all rows: it reads the previous versions, deletes them, and upserts in batches of the server's
 * max batch size) against Chroma's own bulk path, `collection.add` in batches of
 * `getMaxBatchSize()` with the chromadb client the adapter uses (same collection configuration:
 * the adapter's `createConfiguration`, same metadata encoding). Interleaved, `rounds` times,
 * medians; printed as "collection.add time ÷ adapter time" (goal ≥ 0.7, the bar of pgvector's
 * binary COPY). Collections are named `bench_<tag>_…` and deleted. Errors passed on.
 */
export async function chromaLoadRatios(target: string, ep: { host: string; port: number }, store: MemoryStore, ds: GoldenDataset, tag: string, rounds = 3): Promise<RatioRow[]> {
  const records = ds.memories;
  const { dim, metric } = ds.manifest;
  const client = new ChromaClient({ host: ep.host, port: ep.port, ssl: false });
  const maxBatch = await client.getMaxBatchSize();
  let round = 0;
  const specOf = (name: string): CollectionSpec => ({ name, dim, metric, index: { type: 'none' }, embeddingModel: ds.manifest.embeddingModel.id });
  const { medians } = await interleavedMedians(
    [
      adapterContender(store, (r) => specOf(`bench_${tag}_adapter_${r}`), records),
      {
        name: 'add',
        run: async () => {
          const name = `bench_${tag}_add_${round++}`;
          const c = await client.createCollection({ name, embeddingFunction: null, configuration: createConfiguration(specOf(name)) as never });
          try {
            const t0 = performance.now();
            for (let i = 0; i < records.length; i += maxBatch) {
              const part = records.slice(i, i + maxBatch);
              await c.add({ ids: part.map((r) => r.id), embeddings: part.map((r) => Array.from(r.embedding)), documents: part.map((r) => r.text), metadatas: part.map((r) => encodeMetadata(r)) });
            }
            return performance.now() - t0;
          } finally {
            await client.deleteCollection({ name });
          }
        },
      },
    ],
    rounds,
  );
  return [ratioRow(`load ${records.length} × ${dim}, ${target} (max batch ${maxBatch})`, 'collection.add time ÷ adapter time', medians.get('add')!, medians.get('adapter')!, '≥ 0.7', (r) => r >= 0.7)];
}
