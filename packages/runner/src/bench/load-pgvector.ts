import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client, Pool } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { Document } from '@langchain/core/documents';
import { PGVectorStore } from '@langchain/community/vectorstores/pgvector';
import type { GoldenDataset, MemoryStore } from '@memory-matrix/spec';
import { encodeCopyBinary } from '@memory-matrix/adapter-pgvector';
import { encodeCopyText } from './pg-copy-encode';
import { GoldenEmbeddings } from './golden-embeddings';
import { adapterContender, interleavedMedians, ratioRow, type RatioRow } from './measure';

/** The reference table: the adapter's layout (packages/adapter-pgvector/src/ddl.ts), no index, no marker. */
export function referenceTableSql(table: string, dim: number): string {
  return `CREATE TABLE "${table}" (id text COLLATE "C" PRIMARY KEY, namespace text NOT NULL, kind text NOT NULL, text text NOT NULL,
  created_at timestamptz NOT NULL, metadata jsonb NOT NULL, embedding vector(${dim}) NOT NULL)`;
}

/** COPY `payload` into `table` over `client` (text or binary format), ms of the encode + COPY. */
export async function timedCopy(client: Client, table: string, encode: () => Buffer | string, format: 'text' | 'binary'): Promise<number> {
  const t0 = performance.now();
  const payload = encode();
  const stream = client.query(copyFrom(`COPY "${table}" (id, namespace, kind, text, created_at, metadata, embedding) FROM STDIN${format === 'binary' ? ' WITH (FORMAT binary)' : ''}`));
  await pipeline(Readable.from([payload]), stream);
  return performance.now() - t0;
}

/**
 * pgvector load ratios on one server (`url`: the container's postgres URL; `store`: an adapter
 * store on the same server): the golden memories loaded by the adapter (one `upsert` of all rows:
 * its own chunking, one transaction), by `COPY … FROM STDIN` text and binary (pgvector's binary
 * `vector` format; encoding included in the time, as the adapter's time includes its own), and by
 * LangChain.js `PGVectorStore.addDocuments` (its `addVectors`, chunks of 500, with
 * `GoldenEmbeddings`: no model). Every contender writes into a fresh table (setup and drop not
 * timed); the four run interleaved, `rounds` times, medians compared. Ratios printed as
 * "reference time ÷ adapter time" (the adapter's speed relative to the reference; > 1 = faster).
 * Goals (issue): ≥ 1.0 against COPY text, ≥ 0.7 against COPY binary; LangChain reported only.
 * Tables are named `mm_bench_<tag>_…` and dropped. Errors of either side are passed on.
 */
export async function pgvectorLoadRatios(target: string, url: string, store: MemoryStore, ds: GoldenDataset, tag: string, rounds = 3): Promise<RatioRow[]> {
  const records = ds.memories;
  const { dim, metric } = ds.manifest;
  const client = new Client({ connectionString: url, application_name: 'memory-matrix bench' });
  client.on('error', () => undefined); // a server gone between statements: the next query rejects, so nothing is hidden
  await client.connect();
  const pool = new Pool({ connectionString: url, max: 4, application_name: 'memory-matrix bench langchain' });
  let round = 0;
  const copyContender = (format: 'text' | 'binary') => ({
    name: `copy-${format}`,
    run: async () => {
      const table = `mm_bench_${tag}_copy_${format}_${round++}`;
      await client.query(referenceTableSql(table, dim));
      try {
        return await timedCopy(client, table, () => (format === 'text' ? encodeCopyText(records) : encodeCopyBinary(records)), format);
      } finally {
        await client.query(`DROP TABLE IF EXISTS "${table}"`);
      }
    },
  });
  try {
    const { medians } = await interleavedMedians(
      [
        adapterContender(store, (r) => ({ name: `bench_${tag}_adapter_${r}`, dim, metric, index: { type: 'none' }, embeddingModel: ds.manifest.embeddingModel.id }), records),
        copyContender('text'),
        copyContender('binary'),
        {
          name: 'langchain',
          run: async () => {
            const tableName = `mm_bench_${tag}_langchain_${round++}`;
            // Not PGVectorStore.initialize(): it also checks a client out of the pool and holds it until
            // end(); here that call hung (no query reached the server). Construct + ensureTableInDatabase
            // is the rest of what initialize() does; addVectors writes through pool.query either way.
            const lc = new PGVectorStore(new GoldenEmbeddings(records), { pool, tableName, distanceStrategy: 'cosine' });
            await lc.ensureTableInDatabase(dim);
            const docs = records.map((r) => new Document({ pageContent: r.text, metadata: { id: r.id, namespace: r.namespace, kind: r.kind, createdAt: r.createdAt, ...r.metadata } }));
            try {
              const t0 = performance.now();
              await lc.addDocuments(docs);
              return performance.now() - t0;
            } finally {
              await pool.query(`DROP TABLE IF EXISTS "${tableName}"`);
            }
          },
        },
      ],
      rounds,
    );
    const a = medians.get('adapter')!;
    const g = `load ${records.length} × ${dim}, ${target}`;
    return [
      ratioRow(g, 'COPY text time ÷ adapter time', medians.get('copy-text')!, a, '≥ 1.0', (r) => r >= 1.0),
      ratioRow(g, 'COPY binary time ÷ adapter time', medians.get('copy-binary')!, a, '≥ 0.7', (r) => r >= 0.7),
      ratioRow(g, 'LangChain.js PGVectorStore.addVectors time ÷ adapter time', medians.get('langchain')!, a),
    ];
  } finally {
    await client.end().catch(() => undefined);
    await pool.end().catch(() => undefined);
  }
}
