import Redis from 'ioredis';
import { recordAttributes, QUANT_FLAG, type Quantization } from '@memory-matrix/adapter-redis';
import { isHnsw, type GoldenDataset, type IndexConfig, type MemoryStore } from '@memory-matrix/spec';
import { adapterContender, interleavedMedians, ratioRow, type RatioRow } from './measure';

/** HNSW parameters the adapter uses when the collection's index is not hnsw (Redis defaults; adapter-redis collection.ts). */
const DEFAULT_M = 16;
const DEFAULT_EF_CONSTRUCTION = 200;

/**
 * Redis load ratio on one server: the golden memories loaded by the adapter (one `upsert` of all
 * rows: one MULTI/EXEC of VADD … SETATTR + HSET per record) against Redis's own bulk path, ONE
 * ioredis pipeline (no MULTI) of the same `VADD key FP32 <blob> <id> <Q8|NOQUANT> EF <efc> M <m>
 * SETATTR <attrs>` commands, with the client library the adapter uses (ioredis) on a separate
 * connection. The reference writes no docs hash (VADD only), so the ratio includes the adapter's
 * atomicity and exact-record costs. Interleaved, `rounds` times, medians; printed as
 * "pipelined VADD time ÷ adapter time" (goal ≥ 0.7, the same bar as pgvector's binary COPY).
 * Keys are `mm:bench:<tag>:…` on the bench's own container and deleted. Errors passed on.
 */
export async function redisLoadRatios(
  target: string,
  ep: { host: string; port: number },
  store: MemoryStore,
  ds: GoldenDataset,
  opts: { tag: string; quantization: Quantization; index: IndexConfig; rounds?: number },
): Promise<RatioRow[]> {
  const records = ds.memories;
  const { dim, metric } = ds.manifest;
  const [m, efc] = isHnsw(opts.index) ? [opts.index.m, opts.index.efConstruction] : [DEFAULT_M, DEFAULT_EF_CONSTRUCTION];
  const client = new Redis({ host: ep.host, port: ep.port, lazyConnect: true, maxRetriesPerRequest: 0, connectionName: 'memory-matrix-bench' });
  await client.connect();
  let round = 0;
  try {
    const { medians } = await interleavedMedians(
      [
        adapterContender(store, (r) => ({ name: `bench_${opts.tag}_adapter_${r}`, dim, metric, index: opts.index, embeddingModel: ds.manifest.embeddingModel.id }), records),
        {
          name: 'vadd',
          run: async () => {
            const key = `mm:bench:${opts.tag}:vadd:${round++}`;
            try {
              const t0 = performance.now();
              const p = client.pipeline();
              for (const r of records) {
                const blob = Buffer.from(r.embedding.buffer, r.embedding.byteOffset, r.embedding.byteLength);
                p.call('VADD', key, 'FP32', blob, r.id, QUANT_FLAG[opts.quantization], 'EF', efc, 'M', m, 'SETATTR', recordAttributes(r));
              }
              const replies = (await p.exec()) ?? [];
              const failed = replies.find(([err]) => err);
              if (failed) throw failed[0];
              return performance.now() - t0;
            } finally {
              await client.del(key);
            }
          },
        },
      ],
      opts.rounds ?? 3,
    );
    return [ratioRow(`load ${records.length} × ${dim}, ${target}`, 'pipelined VADD time ÷ adapter time', medians.get('vadd')!, medians.get('adapter')!, '≥ 0.7', (r) => r >= 0.7)];
  } finally {
    client.disconnect();
  }
}
